/**
 * A grid drawn as an image, one pixel per cell, scaled up without smoothing: blocked cells, plus optional per-cell
 * shading (an A* search's open and closed sets). Rebuilt only when asked (the caller knows when cells change).
 */
import type { Grid } from '../../src/grid/grid';
import type { DemoView } from '../registry';
import { sx, sy } from '../draw';

export interface GridImage {
  readonly canvas: HTMLCanvasElement;
  readonly image: ImageData;
  readonly pixels: Uint32Array;
}

export function createGridImage(grid: Grid): GridImage {
  const canvas = document.createElement('canvas');
  canvas.width = grid.width;
  canvas.height = grid.height;
  const image = canvas.getContext('2d')!.createImageData(grid.width, grid.height);
  return { canvas, image, pixels: new Uint32Array(image.data.buffer) };
}

/** 0xRRGGBB + alpha byte → the ABGR word of a little-endian ImageData. */
export function abgr(rgb: number, alpha = 255): number {
  return ((alpha << 24) | ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >>> 16) & 0xff)) >>> 0;
}

export const WALL = abgr(0x3a414d);

/** Fill the image with walls (blocked cells) and clear walkable ones; returns the pixel array for more shading. */
export function paintWalls(img: GridImage, grid: Grid): Uint32Array {
  const px = img.pixels, walk = grid.walkable;
  for (let i = 0; i < px.length; i++) px[i] = walk[i] === 1 ? 0 : WALL;
  return px;
}

/** Put the pixels and draw the image at the grid's place (row 0 at the bottom: y is up). */
export function drawGridImage(ctx: CanvasRenderingContext2D, view: DemoView, img: GridImage, grid: Grid): void {
  img.canvas.getContext('2d')!.putImageData(img.image, 0, 0);
  ctx.save();
  ctx.imageSmoothingEnabled = false;
  ctx.translate(sx(view, grid.originX), sy(view, grid.originY));
  ctx.scale(view.scale * grid.cellSize, -view.scale * grid.cellSize);
  ctx.drawImage(img.canvas, 0, 0);
  ctx.restore();
}
