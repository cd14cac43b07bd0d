/** Small 2D-canvas drawing helpers shared by the demos (world coordinates, y up). */
import type { DemoView } from './registry';

export function sx(view: DemoView, x: number): number {
  return (x - view.cx) * view.scale + view.width / 2;
}

export function sy(view: DemoView, y: number): number {
  return view.height / 2 - (y - view.cy) * view.scale;
}

/** Stroke (and optionally fill) a flat [x0, y0, x1, y1, ...] line strip. */
export function strokePolyline(ctx: CanvasRenderingContext2D, view: DemoView, pts: ArrayLike<number>, n: number, closed: boolean, stroke: string, width = 1.5, fill?: string): void {
  if (n < 2) return;
  ctx.beginPath();
  for (let i = 0; i < n * 2; i += 2) {
    const x = sx(view, pts[i]), y = sy(view, pts[i + 1]);
    if (i === 0) ctx.moveTo(x, y); else ctx.lineTo(x, y);
  }
  if (closed) ctx.closePath();
  if (fill) { ctx.fillStyle = fill; ctx.fill(); }
  ctx.strokeStyle = stroke;
  ctx.lineWidth = width;
  ctx.stroke();
}

export function line(ctx: CanvasRenderingContext2D, view: DemoView, x0: number, y0: number, x1: number, y1: number, stroke: string, width = 1): void {
  ctx.beginPath();
  ctx.moveTo(sx(view, x0), sy(view, y0));
  ctx.lineTo(sx(view, x1), sy(view, y1));
  ctx.strokeStyle = stroke;
  ctx.lineWidth = width;
  ctx.stroke();
}

/** A circle of world radius r (at least minPx pixels). */
export function circle(ctx: CanvasRenderingContext2D, view: DemoView, x: number, y: number, r: number, stroke: string | null, fill: string | null, minPx = 2): void {
  ctx.beginPath();
  ctx.arc(sx(view, x), sy(view, y), Math.max(minPx, r * view.scale), 0, 2 * Math.PI);
  if (fill) { ctx.fillStyle = fill; ctx.fill(); }
  if (stroke) { ctx.strokeStyle = stroke; ctx.lineWidth = 1.5; ctx.stroke(); }
}

export function label(ctx: CanvasRenderingContext2D, view: DemoView, x: number, y: number, text: string, color = '#d8dde6'): void {
  ctx.fillStyle = color;
  ctx.font = '12px system-ui, sans-serif';
  ctx.fillText(text, sx(view, x) + 6, sy(view, y) - 6);
}
