/**
 * Agent renderer on a 2D canvas that writes pixels straight into an ImageData buffer: each agent is a filled disc
 * of its screen radius (at least 1 pixel). One putImageData per frame keeps this fast at tens of thousands of agents
 * without WebGL.
 */
import type { CrowdWorld } from '../src/world/crowd';
import type { DemoView } from './registry';

let _image: ImageData | null = null;
let _pixels: Uint32Array | null = null;

export function drawAgents(ctx: CanvasRenderingContext2D, world: CrowdWorld, view: DemoView, alpha: number, colorOf: ((eid: number) => number) | undefined): void {
  const w = view.width | 0, h = view.height | 0;
  if (!_image || _image.width !== w || _image.height !== h) {
    _image = ctx.createImageData(w, h);
    _pixels = new Uint32Array(_image.data.buffer);
  }
  const px = _pixels!;
  px.fill(0xff15110f); // background (ABGR little-endian)
  const { dense, count } = world.agents;
  const X = world.position.x, Y = world.position.y, PX = world.position.previousX, PY = world.position.previousY;
  const VX = world.velocity.x, VY = world.velocity.y, R = world.agent.radius, MS = world.agent.maxSpeed;
  const halfW = w / 2, halfH = h / 2;
  for (let i = 0; i < count; i++) {
    const eid = dense[i];
    const x = PX[eid] + alpha * (X[eid] - PX[eid]);
    const y = PY[eid] + alpha * (Y[eid] - PY[eid]);
    const sx = (x - view.cx) * view.scale + halfW;
    const sy = halfH - (y - view.cy) * view.scale;
    const r = Math.max(0.5, R[eid] * view.scale);
    if (sx < -r || sy < -r || sx >= w + r || sy >= h + r) continue;
    let rgb: number;
    if (colorOf) rgb = colorOf(eid);
    else {
      const s = Math.min(1, Math.sqrt(VX[eid] * VX[eid] + VY[eid] * VY[eid]) / Math.max(1e-6, MS[eid]));
      rgb = (((80 + 175 * s) & 255) << 16) | (((160 + 60 * (1 - s)) & 255) << 8) | 230;
    }
    const abgr = 0xff000000 | ((rgb & 0xff) << 16) | (rgb & 0xff00) | ((rgb >> 16) & 0xff);
    const x0 = Math.max(0, Math.floor(sx - r)), x1 = Math.min(w - 1, Math.ceil(sx + r));
    const y0 = Math.max(0, Math.floor(sy - r)), y1 = Math.min(h - 1, Math.ceil(sy + r));
    const r2 = r * r;
    for (let yy = y0; yy <= y1; yy++) {
      const dy = yy + 0.5 - sy;
      const row = yy * w;
      for (let xx = x0; xx <= x1; xx++) {
        const dx = xx + 0.5 - sx;
        if (dx * dx + dy * dy <= r2 || r < 1) px[row + xx] = abgr;
      }
    }
  }
  ctx.putImageData(_image, 0, 0);
}
