/**
 * The canvas renderer's pixel output, checked against a hand computation of the world → screen transform
 * (screenX = (x − cx)·scale + w/2, screenY = h/2 − (y − cy)·scale, y up) and of the fixed-step interpolation
 * (previous + alpha·(current − previous)).
 */
import { describe, expect, it } from 'vitest';
import { drawAgentsInto } from '../../demos/render-canvas';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent } from '../../src/world/agents';

const W = 100, H = 80;

function litPixels(px: Uint32Array): { x: number; y: number }[] {
  const out: { x: number; y: number }[] = [];
  for (let i = 0; i < px.length; i++) if (px[i] !== 0) out.push({ x: i % W, y: Math.floor(i / W) });
  return out;
}

describe('drawAgentsInto', () => {
  it('draws a disc of radius·scale pixels at the interpolated screen position (hand-computed)', () => {
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    const e = spawnAgent(world, { x: 2, y: 1, radius: 0.5 });
    // Previous position (0, 1), current (2, 1): alpha 0.25 → x = 0.5.
    world.position.previousX[e] = 0;
    world.position.previousY[e] = 1;
    const view = { cx: 0, cy: 0, scale: 10, width: W, height: H };
    const px = new Uint32Array(W * H);
    drawAgentsInto(px, W, H, world, view, 0.25, () => 0xff0000);
    // Centre: (0.5·10 + 50, 40 − 1·10) = (55, 30); radius 5 px. Pixel centres within 5 px of (55, 30) are lit.
    const lit = litPixels(px);
    expect(lit.length).toBeGreaterThan(60); // π·25 ≈ 78.5
    expect(lit.length).toBeLessThan(95);
    for (const p of lit) expect((p.x + 0.5 - 55) ** 2 + (p.y + 0.5 - 30) ** 2).toBeLessThanOrEqual(25 + 1e-9);
    let sx = 0, sy = 0;
    for (const p of lit) { sx += p.x + 0.5; sy += p.y + 0.5; }
    expect(sx / lit.length).toBeCloseTo(55, 5);
    expect(sy / lit.length).toBeCloseTo(30, 5);
    // Colour 0xRRGGBB = ff0000 → ABGR word 0xff0000ff (red in the lowest byte).
    expect(px[30 * W + 55]).toBe(0xff0000ff);
  });

  it('clears to transparent, skips agents off screen, and keeps tiny agents at least one pixel', () => {
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    const far = spawnAgent(world, { x: 1000, y: 0, radius: 0.5 });
    const tiny = spawnAgent(world, { x: -1, y: 1, radius: 0.01 });
    void far;
    const view = { cx: 0, cy: 0, scale: 10, width: W, height: H };
    const px = new Uint32Array(W * H).fill(0xdeadbeef);
    drawAgentsInto(px, W, H, world, view, 1, () => 0x00ff00);
    const lit = litPixels(px);
    // Only the tiny agent at (−1, 1) → (40, 30): one pixel.
    expect(lit).toEqual([{ x: 40, y: 30 }]);
    expect(px[30 * W + 40]).toBe(0xff00ff00);
    expect(world.position.x[tiny]).toBe(-1);
  });
});
