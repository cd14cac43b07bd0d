import { describe, expect, it } from 'vitest';
import {
  formationSlots, formationSpacing, slotsRadius, FORMATION_BOX, FORMATION_CIRCLE, FORMATION_COLUMN, FORMATION_LINE, FORMATION_WEDGE,
} from '../../src/formation/slots';
import { assignSlots, assignSlotsGreedy, assignSlotsOptimal, HUNGARIAN_MAX } from '../../src/formation/assign';
import { advanceAnchor, createAnchorState, type AnchorParams } from '../../src/formation/anchor';
import { createRng, rngFloat } from '../../src/core/rng';
import { InvalidArgumentError } from '../../src/core/errors';

const close = (a: number, b: number, tol = 1e-12) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);

describe('formationSpacing', () => {
  it('is the two largest radii plus the gap (hand)', () => {
    expect(formationSpacing([0.5, 0.3, 0.7, 0.2], 4, 0.25)).toBeCloseTo(0.7 + 0.5 + 0.25, 12);
    expect(formationSpacing([0.4], 1, 0.1)).toBeCloseTo(0.9, 12);
  });
});

describe('formationSlots', () => {
  const shapes = [FORMATION_LINE, FORMATION_COLUMN, FORMATION_WEDGE, FORMATION_BOX, FORMATION_CIRCLE];
  it('every shape: centred on the centroid, no two slots closer than the spacing', () => {
    for (const shape of shapes) {
      for (const n of [1, 2, 3, 7, 20, 33]) {
        const out = new Float64Array(2 * n);
        formationSlots(shape, n, 1.3, out);
        let cx = 0, cy = 0, minD = Infinity;
        for (let i = 0; i < n; i++) {
          cx += out[2 * i]; cy += out[2 * i + 1];
          for (let j = i + 1; j < n; j++) minD = Math.min(minD, Math.hypot(out[2 * i] - out[2 * j], out[2 * i + 1] - out[2 * j + 1]));
        }
        close(cx / n, 0, 1e-9); close(cy / n, 0, 1e-9);
        if (n > 1) expect(minD).toBeGreaterThanOrEqual(1.3 - 1e-9);
      }
    }
  });
  it('hand values: line of 3 is abreast, column of 3 is single file, circle chord equals spacing', () => {
    const o = new Float64Array(6);
    formationSlots(FORMATION_LINE, 3, 2, o);
    expect([...o]).toEqual([0, 2, 0, 0, 0, -2]);
    formationSlots(FORMATION_COLUMN, 3, 2, o);
    expect([...o].map((v) => v + 0)).toEqual([2, 0, 0, 0, -2, 0]);
    const c = new Float64Array(12);
    formationSlots(FORMATION_CIRCLE, 6, 1, c); // hexagon: radius = chord = 1
    for (let i = 0; i < 6; i++) close(Math.hypot(c[2 * i], c[2 * i + 1]), 1, 1e-12);
    close(slotsRadius(c, 6), 1, 1e-12);
  });
  it('rejects unknown shapes and bad spacing', () => {
    expect(() => formationSlots(9, 3, 1, new Float64Array(6))).toThrow(InvalidArgumentError);
    expect(() => formationSlots(FORMATION_LINE, 3, 0, new Float64Array(6))).toThrow(/spacing/);
    expect(() => formationSlots(FORMATION_LINE, 3, 1, new Float64Array(4))).toThrow(/out/);
  });
});

/** Minimum total distance over all n! permutations (independent brute force). */
function bruteForce(mx: number[], my: number[], sx: number[], sy: number[]): number {
  const n = mx.length;
  const used = new Array(n).fill(false);
  let best = Infinity;
  const rec = (i: number, acc: number) => {
    if (acc >= best) return;
    if (i === n) { best = acc; return; }
    for (let j = 0; j < n; j++) {
      if (used[j]) continue;
      used[j] = true;
      rec(i + 1, acc + Math.hypot(mx[i] - sx[j], my[i] - sy[j]));
      used[j] = false;
    }
  };
  rec(0, 0);
  return best;
}

describe('assignSlotsOptimal (Hungarian)', () => {
  it('matches brute force over all permutations on 200 random instances (n ≤ 7)', () => {
    const rng = createRng(11);
    const out = new Int32Array(8);
    for (let t = 0; t < 200; t++) {
      const n = 1 + (t % 7);
      const mx: number[] = [], my: number[] = [], sx: number[] = [], sy: number[] = [];
      for (let i = 0; i < n; i++) { mx.push(rngFloat(rng) * 10); my.push(rngFloat(rng) * 10); sx.push(rngFloat(rng) * 10); sy.push(rngFloat(rng) * 10); }
      const cost = assignSlotsOptimal(mx, my, sx, sy, n, out);
      close(cost, bruteForce(mx, my, sx, sy), 1e-9);
      // The output is a permutation whose cost is the returned total.
      expect([...out.subarray(0, n)].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
      let c = 0;
      for (let i = 0; i < n; i++) c += Math.hypot(mx[i] - sx[out[i]], my[i] - sy[out[i]]);
      close(c, cost, 1e-9);
    }
  });
  it('is never worse than greedy (n = 32), and greedy is a valid permutation', () => {
    const rng = createRng(12);
    const n = HUNGARIAN_MAX;
    const out = new Int32Array(n), g = new Int32Array(n);
    for (let t = 0; t < 20; t++) {
      const mx = new Float64Array(n), my = new Float64Array(n), sx = new Float64Array(n), sy = new Float64Array(n);
      for (let i = 0; i < n; i++) { mx[i] = rngFloat(rng) * 30; my[i] = rngFloat(rng) * 30; sx[i] = rngFloat(rng) * 30; sy[i] = rngFloat(rng) * 30; }
      const opt = assignSlotsOptimal(mx, my, sx, sy, n, out);
      const gr = assignSlotsGreedy(mx, my, sx, sy, n, g);
      expect(opt).toBeLessThanOrEqual(gr + 1e-9);
      expect([...g].sort((a, b) => a - b)).toEqual([...Array(n).keys()]);
    }
  });
  it('assignSlots uses greedy above 32 members', () => {
    const n = 40, out = new Int32Array(n);
    const xs = Float64Array.from({ length: n }, (_, i) => i);
    const z = new Float64Array(n);
    // Identity layout: both methods give cost 0.
    expect(assignSlots(xs, z, xs, z, n, out)).toBe(0);
    expect([...out]).toEqual([...Array(n).keys()]);
    expect(() => assignSlotsOptimal(xs, z, xs, z, n, out)).toThrow(InvalidArgumentError);
  });
});

describe('advanceAnchor', () => {
  const params: AnchorParams = { cruiseSpeed: 1.5, maxTurnRate: 1, memberMaxSpeed: 2, extent: 5, margin: 0.8, waypointRadius: 1, arriveGain: 1 };
  it('turns at most the capped rate, keeps outer slots within margin·vMax, and stops on the last waypoint', () => {
    const st = createAnchorState(0, 0, 1, 0);
    const path = new Float64Array([10, 0, 10, 10, 0, 10]);
    const dt = 0.05;
    // Cap: ω ≤ min(1, 0.8·2/(2·5)) = 0.16 rad/s.
    let maxW = 0, maxOuter = 0, steps = 0;
    while (advanceAnchor(st, path, 3, params, 1, dt) && steps < 20000) {
      maxW = Math.max(maxW, Math.abs(st.omega));
      maxOuter = Math.max(maxOuter, st.speed + Math.abs(st.omega) * params.extent);
      steps++;
    }
    expect(maxW).toBeLessThanOrEqual(0.16 + 1e-12);
    expect(maxOuter).toBeLessThanOrEqual(0.8 * 2 + 1e-9);
    expect(Math.hypot(st.x - 0, st.y - 10)).toBeLessThanOrEqual(0.05 + 1e-9);
    expect(st.speed).toBe(0);
  });
  it('matches an angle-based reference (Math.atan2/cos/sin, the unicycle written out) on 200 random paths within 1e-9 m', () => {
    // advanceAnchor turns with vectors and cached cos/sin of the turn limit; the reference below steps the same
    // unicycle with angles: ang = atan2(h × u, h · u), turn = clamp(ang, ±ω_cap·dt), h rotated by turn.
    const rng = createRng(77);
    const ref = (s: { x: number; y: number; hx: number; hy: number; wp: number; v: number; w: number }, path: Float64Array, n: number, p: AnchorParams, slow: number, dt: number): boolean => {
      while (s.wp < n - 1 && Math.hypot(path[2 * s.wp] - s.x, path[2 * s.wp + 1] - s.y) <= p.waypointRadius) s.wp++;
      if (s.wp >= n) return false;
      const dx = path[2 * s.wp] - s.x, dy = path[2 * s.wp + 1] - s.y, dist = Math.hypot(dx, dy), last = s.wp === n - 1;
      if (last && dist <= p.waypointRadius * 0.05 + 1e-9) { s.wp = n; s.v = 0; s.w = 0; return false; }
      const budget = p.margin * p.memberMaxSpeed, wCap = Math.min(p.maxTurnRate, p.extent > 0 ? budget / (2 * p.extent) : Infinity);
      const ang = Math.atan2(s.hx * dy - s.hy * dx, s.hx * dx + s.hy * dy), lim = wCap * dt;
      const turn = Math.max(-lim, Math.min(lim, ang));
      const c = Math.cos(turn), si = Math.sin(turn), nx = s.hx * c - s.hy * si, ny = s.hx * si + s.hy * c, h = Math.hypot(nx, ny);
      s.hx = nx / h; s.hy = ny / h; s.w = turn / dt;
      // a turn cut short by the limit: v ≤ ω_cap·dist / (2·|sin ang|) (the circle tangent to the heading through the
      // waypoint has curvature 2·sin α / dist)
      const arcCap = Math.abs(ang) > lim ? (wCap * dist) / (2 * Math.abs(Math.sin(ang))) : Infinity;
      let v = Math.max(0, Math.min(p.cruiseSpeed, budget - Math.abs(s.w) * p.extent, arcCap)) * Math.max(0, Math.min(1, slow));
      if (last) v = Math.min(v, p.arriveGain * dist, dist / dt);
      s.x += s.hx * v * dt; s.y += s.hy * v * dt; s.v = v;
      return true;
    };
    let worst = 0, turning = 0;
    for (let trial = 0; trial < 200; trial++) {
      const n = 2 + Math.floor(rngFloat(rng) * 5), path = new Float64Array(2 * n);
      for (let i = 0; i < 2 * n; i++) path[i] = (rngFloat(rng) - 0.5) * 60;
      const p: AnchorParams = { ...params, maxTurnRate: 0.2 + 2 * rngFloat(rng), extent: 4 * rngFloat(rng), waypointRadius: 0.5 + rngFloat(rng) };
      const h0 = rngFloat(rng) * 6.28, dt = 0.02 + 0.1 * rngFloat(rng);
      const st = createAnchorState(0, 0, Math.cos(h0), Math.sin(h0));
      const s = { x: 0, y: 0, hx: st.hx, hy: st.hy, wp: 0, v: 0, w: 0 };
      for (let k = 0; k < 400; k++) {
        const slow = k % 50 < 5 ? 0.5 : 1;
        const a = advanceAnchor(st, path, n, p, slow, dt), b = ref(s, path, n, p, slow, dt);
        expect(a).toBe(b);
        if (Math.abs(st.omega) > 1e-6) turning++;
        worst = Math.max(worst, Math.hypot(st.x - s.x, st.y - s.y), Math.abs(st.omega - s.w) * dt);
        if (!a) break;
      }
    }
    expect(turning).toBeGreaterThan(1000); // the random paths exercise rate-limited and free turns
    expect(worst).toBeLessThan(1e-9);
  });
  it('a slow factor of 0 holds the anchor in place', () => {
    const st = createAnchorState(0, 0);
    advanceAnchor(st, new Float64Array([10, 0]), 1, params, 0, 0.1);
    expect(st.x).toBe(0);
  });
});
