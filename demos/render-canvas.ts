/**
 * Fallback agent renderer on a 2D canvas (used when WebGL is unavailable, or with `?renderer=canvas`): it writes
 * pixels straight into an ImageData buffer, each agent a filled disc of its screen radius (at least 1 pixel), and
 * puts the buffer once per frame. The background stays transparent so the layer under it (obstacles, shaded grid
 * cells) shows through. Interpolates previous → current position with the fixed-step alpha on the CPU.
 */
import type { CrowdWorld } from '../src/world/crowd';
import type { DemoView } from './registry';
import { speedColor, type AgentRenderer } from './render-gl';

export function createCanvasRenderer(canvas: HTMLCanvasElement): AgentRenderer {
  const ctx = canvas.getContext('2d')!;
  let image: ImageData | null = null;
  let pixels: Uint32Array | null = null;
  return {
    kind: 'canvas',
    canvas,
    gpu: '',
    draw(world, view, alpha, colorOf) {
      const w = view.width | 0, h = view.height | 0;
      if (canvas.width !== w || canvas.height !== h) { canvas.width = w; canvas.height = h; }
      if (!image || image.width !== w || image.height !== h) {
        image = ctx.createImageData(w, h);
        pixels = new Uint32Array(image.data.buffer);
      }
      drawAgentsInto(pixels!, w, h, world, view, alpha, colorOf);
      ctx.putImageData(image, 0, 0);
    },
  };
}

/**
 * Fill `px` (w × h pixels, ABGR words as ImageData stores them on little-endian machines) with every agent's disc at
 * its position interpolated by `alpha`; transparent elsewhere. DOM-free, so tests can check it in Node.
 */
export function drawAgentsInto(px: Uint32Array, w: number, h: number, world: CrowdWorld, view: DemoView, alpha: number, colorOf: ((eid: number) => number) | undefined): void {
  px.fill(0);
  const { dense, count } = world.agents;
  const X = world.position.x, Y = world.position.y, PX = world.position.previousX, PY = world.position.previousY;
  const R = world.agent.radius;
  const halfW = w / 2, halfH = h / 2;
  for (let i = 0; i < count; i++) {
    const eid = dense[i];
    const x = PX[eid] + alpha * (X[eid] - PX[eid]);
    const y = PY[eid] + alpha * (Y[eid] - PY[eid]);
    const sx = (x - view.cx) * view.scale + halfW;
    const sy = halfH - (y - view.cy) * view.scale;
    const r = Math.max(0.5, R[eid] * view.scale);
    if (sx < -r || sy < -r || sx >= w + r || sy >= h + r) continue;
    const rgb = colorOf ? colorOf(eid) : speedColor(world, eid);
    const abgr = 0xff000000 | ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >>> 16) & 0xff);
    if (r < 1) {
      // Under a pixel across: the one pixel that contains the centre.
      const ix = Math.floor(sx), iy = Math.floor(sy);
      if (ix >= 0 && iy >= 0 && ix < w && iy < h) px[iy * w + ix] = abgr;
      continue;
    }
    const x0 = Math.max(0, Math.floor(sx - r)), x1 = Math.min(w - 1, Math.ceil(sx + r));
    const y0 = Math.max(0, Math.floor(sy - r)), y1 = Math.min(h - 1, Math.ceil(sy + r));
    const r2 = r * r;
    for (let yy = y0; yy <= y1; yy++) {
      const dy = yy + 0.5 - sy;
      const row = yy * w;
      for (let xx = x0; xx <= x1; xx++) {
        const dx = xx + 0.5 - sx;
        if (dx * dx + dy * dy <= r2) px[row + xx] = abgr;
      }
    }
  }
}
