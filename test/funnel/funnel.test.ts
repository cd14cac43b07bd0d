import { describe, expect, it } from 'vitest';
import { funnel, polylineLength } from '../../src/funnel/funnel';
import { gridPathPortals } from '../../src/funnel/grid';
import { createRng, rngFloat } from '../../src/core/rng';

const out = new Float64Array(4096);
const portals = new Float64Array(4 * 4096);

/** Octile Dijkstra on an 8-connected grid without corner cutting (test oracle for cell paths). */
function octilePath(blocked: Uint8Array, w: number, h: number, s: number, g: number): { cells: number[]; cost: number } | null {
  const dist = new Float64Array(w * h).fill(Infinity);
  const prev = new Int32Array(w * h).fill(-1);
  const done = new Uint8Array(w * h);
  dist[s] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < w * h; i++) if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) return null;
    if (u === g) break;
    done[u] = 1;
    const ux = u % w, uy = (u / w) | 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      if (!dx && !dy) continue;
      const x = ux + dx, y = uy + dy;
      if (x < 0 || y < 0 || x >= w || y >= h || blocked[y * w + x]) continue;
      if (dx && dy && (blocked[uy * w + x] || blocked[y * w + ux])) continue; // no corner cutting
      const c = dx && dy ? Math.SQRT2 : 1;
      const v = y * w + x;
      if (dist[u] + c < dist[v]) { dist[v] = dist[u] + c; prev[v] = u; }
    }
  }
  const cells: number[] = [];
  for (let c = g; c >= 0; c = prev[c]) cells.push(c);
  cells.reverse();
  return { cells, cost: dist[g] };
}

/** Does segment ab pass through the open interior of the box (Liang–Barsky clip, then midpoint strictly inside)? */
function crossesBox(ax: number, ay: number, bx: number, by: number, x0: number, y0: number, x1: number, y1: number): boolean {
  let t0 = 0, t1 = 1;
  const dx = bx - ax, dy = by - ay;
  const p = [-dx, dx, -dy, dy], q = [ax - x0, x1 - ax, ay - y0, y1 - ay];
  for (let i = 0; i < 4; i++) {
    if (p[i] === 0) { if (q[i] < 0) return false; continue; }
    const t = q[i] / p[i];
    if (p[i] < 0) t0 = Math.max(t0, t); else t1 = Math.min(t1, t);
  }
  if (t1 - t0 <= 1e-12) return false;
  const m = (t0 + t1) / 2, mx = ax + m * dx, my = ay + m * dy;
  const e = 1e-9;
  return mx > x0 + e && mx < x1 - e && my > y0 + e && my < y1 - e;
}

describe('funnel', () => {
  it('pulls an L-shaped corridor taut around its inner corner (hand derivation)', () => {
    // Corridor along +x then +y; the inner corner (1, 1) is the only bend. Portals: start, edges, goal.
    const P = [0.5, 0.5, 0.5, 0.5, 1, 1, 1, 0, 1, 1, 2, 1, 1.5, 3.5, 1.5, 3.5];
    const n = funnel(P, 4, 0, out);
    expect(Array.from(out.slice(0, 2 * n))).toEqual([0.5, 0.5, 1, 1, 1.5, 3.5]);
  });

  it('returns the straight segment when the goal is visible', () => {
    const P = [0, 0, 0, 0, 1, 5, 1, -5, 2, 5, 2, -5, 3, 1, 3, 1];
    const n = funnel(P, 4, 0.3, out);
    expect(n).toBe(2);
    expect(polylineLength(out, n)).toBeCloseTo(Math.hypot(3, 1), 12);
  });

  it('wraps a corner at distance r with the circumscribed arc (hand derivation)', () => {
    // Same L corridor, radius 0.25: every output point is at least r from the corner (1, 1) and the legs are
    // tangent to the disc: distance from (1, 1) to each leg is >= r - 1e-12.
    const P = [0.5, 0.5, 0.5, 0.5, 1, 1, 1, 0, 1, 1, 2, 1, 1.5, 3.5, 1.5, 3.5];
    const r = 0.25;
    const n = funnel(P, 4, r, out);
    expect(n).toBeGreaterThanOrEqual(3);
    for (let i = 0; i + 1 < n; i++) {
      expect(segPointDist(out[2 * i], out[2 * i + 1], out[2 * i + 2], out[2 * i + 3], 1, 1)).toBeGreaterThanOrEqual(r - 1e-12);
    }
    // Tangency: some leg touches the disc (within 1e-9), i.e. the clearance is not wasted.
    let minD = Infinity;
    for (let i = 0; i + 1 < n; i++) minD = Math.min(minD, segPointDist(out[2 * i], out[2 * i + 1], out[2 * i + 2], out[2 * i + 3], 1, 1));
    expect(minD).toBeCloseTo(r, 9);
  });

  it('reports a too-small output buffer as -1', () => {
    const P = [0.5, 0.5, 0.5, 0.5, 1, 1, 1, 0, 1, 1, 2, 1, 1.5, 3.5, 1.5, 3.5];
    expect(funnel(P, 4, 0, new Float64Array(4))).toBe(-1);
  });

  it('rejects bad arguments with typed errors', () => {
    expect(() => funnel([0, 0, 0, 0], 1, -1, out)).toThrow(/radius/);
    expect(() => funnel([0, 0, 0, 0], 2, 0, out)).toThrow(/portals/);
  });
});

function segPointDist(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  const dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / l2)) : 0;
  return Math.hypot(ax + t * dx - px, ay + t * dy - py);
}

describe('gridPathPortals + funnel over octile grid paths (Dijkstra oracle in the test)', () => {
  it('is never longer than the octile cell path and never crosses a blocked cell (300 seeded grids)', () => {
    let tested = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const rng = createRng(seed);
      const w = 12 + (seed % 20), h = 10 + (seed % 17), cs = 0.5 + (seed % 4) * 0.5, ox = -3, oy = 7;
      const density = 0.15 + 0.25 * rngFloat(rng);
      const blocked = new Uint8Array(w * h);
      for (let i = 0; i < w * h; i++) blocked[i] = rngFloat(rng) < density ? 1 : 0;
      const s = Math.floor(rngFloat(rng) * w * h), g = Math.floor(rngFloat(rng) * w * h);
      blocked[s] = 0; blocked[g] = 0;
      const p = octilePath(blocked, w, h, s, g);
      if (!p) continue;
      const cx = (c: number) => ox + ((c % w) + 0.5) * cs, cy = (c: number) => oy + (Math.floor(c / w) + 0.5) * cs;
      const np = gridPathPortals(p.cells, p.cells.length, w, cs, ox, oy, cx(s), cy(s), cx(g), cy(g), portals);
      const n = funnel(portals, np, 0, out);
      expect(n).toBeGreaterThanOrEqual(1);
      expect(polylineLength(out, n)).toBeLessThanOrEqual(p.cost * cs + 1e-9);
      for (let i = 0; i + 1 < n; i++) {
        for (let c = 0; c < w * h; c++) {
          if (!blocked[c]) continue;
          const x0 = ox + (c % w) * cs, y0 = oy + Math.floor(c / w) * cs;
          expect(crossesBox(out[2 * i], out[2 * i + 1], out[2 * i + 2], out[2 * i + 3], x0, y0, x0 + cs, y0 + cs), `seed ${seed} leg ${i} cell ${c}`).toBe(false);
        }
      }
      tested++;
    }
    expect(tested).toBeGreaterThan(200);
  });

  it('with radius r on 4-connected paths keeps every leg >= r from every portal endpoint', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const rng = createRng(seed + 5000);
      const w = 15, h = 15, cs = 1;
      const blocked = new Uint8Array(w * h);
      for (let i = 0; i < w * h; i++) blocked[i] = rngFloat(rng) < 0.25 ? 1 : 0;
      const s = Math.floor(rngFloat(rng) * w * h), g = Math.floor(rngFloat(rng) * w * h);
      blocked[s] = 0; blocked[g] = 0;
      // 4-connected BFS path.
      const prev = new Int32Array(w * h).fill(-2);
      prev[s] = -1;
      const queue = [s];
      for (let qi = 0; qi < queue.length; qi++) {
        const u = queue[qi], ux = u % w, uy = (u / w) | 0;
        for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const x = ux + dx, y = uy + dy;
          if (x < 0 || y < 0 || x >= w || y >= h || blocked[y * w + x] || prev[y * w + x] !== -2) continue;
          prev[y * w + x] = u;
          queue.push(y * w + x);
        }
      }
      if (prev[g] === -2) continue;
      const cells: number[] = [];
      for (let c = g; c >= 0; c = prev[c]) cells.push(c);
      cells.reverse();
      const np = gridPathPortals(cells, cells.length, w, cs, 0, 0, (s % w) + 0.5, Math.floor(s / w) + 0.5, (g % w) + 0.5, Math.floor(g / w) + 0.5, portals);
      const r = 0.3;
      const n = funnel(portals, np, r, out);
      for (let i = 0; i + 1 < n; i++) {
        for (let k = 1; k + 1 < np; k++) {
          for (const e of [0, 2]) {
            const d = segPointDist(out[2 * i], out[2 * i + 1], out[2 * i + 2], out[2 * i + 3], portals[4 * k + e], portals[4 * k + e + 1]);
            expect(d, `seed ${seed} leg ${i} portal ${k}`).toBeGreaterThanOrEqual(r - 1e-6);
          }
        }
      }
    }
  });
});

describe('gridPathPortals', () => {
  it('writes the shared edge per orthogonal step and the shared corner per diagonal step (hand derivation)', () => {
    // 3-wide grid, 2 m cells, origin (10, 20): cells 0 → 1 (+x) → 5 (diagonal +x +y) → 4 (−x) → 1 (−y).
    const out = new Float64Array(4 * 6);
    const n = gridPathPortals([0, 1, 5, 4, 1], 5, 3, 2, 10, 20, 11, 21, 13, 23, out);
    expect(n).toBe(6);
    expect(Array.from(out)).toEqual([
      11, 21, 11, 21, // start
      12, 22, 12, 20, // +x: left is +y
      14, 22, 14, 22, // diagonal: shared corner
      14, 22, 14, 24, // −x: left is −y
      14, 22, 12, 22, // −y: left is +x
      13, 23, 13, 23, // goal
    ]);
  });

  it('rejects non-adjacent cells, bad sizes and short outputs with typed errors', () => {
    const out = new Float64Array(64);
    expect(() => gridPathPortals([0, 2], 2, 3, 1, 0, 0, 0, 0, 1, 1, out)).toThrow(/cells\[1\]/);
    expect(() => gridPathPortals([0, 1], 2, 3, 0, 0, 0, 0, 0, 1, 1, out)).toThrow(/cellSize/);
    expect(() => gridPathPortals([0, 1], 2, 3, 1, 0, 0, 0, 0, 1, 1, new Float64Array(4))).toThrow(/out/);
  });
});

describe('funnel stopAfter', () => {
  it('returns the same leading points as the full funnel (prefix property on 300 seeded grid paths)', () => {
    const full = new Float64Array(4096), part = new Float64Array(4096);
    for (let seed = 1; seed <= 300; seed++) {
      const rng = createRng(seed + 9000);
      const w = 20, h = 20, cs = 1;
      const blocked = new Uint8Array(w * h);
      for (let i = 0; i < w * h; i++) blocked[i] = rngFloat(rng) < 0.3 ? 1 : 0;
      const s = Math.floor(rngFloat(rng) * w * h), g = Math.floor(rngFloat(rng) * w * h);
      blocked[s] = 0; blocked[g] = 0;
      const p = octilePath(blocked, w, h, s, g);
      if (!p) continue;
      const np = gridPathPortals(p.cells, p.cells.length, w, cs, 0, 0, (s % w) + 0.5, Math.floor(s / w) + 0.5, (g % w) + 0.5, Math.floor(g / w) + 0.5, portals);
      const r = seed % 2 === 0 ? 0 : 0.2;
      const n = funnel(portals, np, r, full);
      for (const k of [2, 3, 5]) {
        const m = funnel(portals, np, r, part, k);
        if (r === 0) {
          expect(m).toBe(Math.min(k, n));
          expect(Array.from(part.slice(0, 2 * m))).toEqual(Array.from(full.slice(0, 2 * m)));
        } else {
          // With clearance the truncated last point is the disc arrival point: all but the last point agree.
          expect(Array.from(part.slice(0, 2 * (m - 1)))).toEqual(Array.from(full.slice(0, 2 * (m - 1))));
        }
      }
    }
  });
});
