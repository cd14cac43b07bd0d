import { describe, expect, it } from 'vitest';
import { buildNavmesh } from '../../src/navmesh/build';
import { beginNavPath, createNavQuery, createNavPathResult, findNavPath, finishNavPath, stepNavPath } from '../../src/navmesh/search';
import { corridorPortals } from '../../src/navmesh/portals';
import { funnel, polylineLength } from '../../src/funnel/funnel';
import { createRng, rngRange } from '../../src/core/rng';
import { distSegSeg, isFree, visibilityGraphShortest, type P, type TestMap } from './oracle';
import { randomMap, rectMap } from './maps';

function randomFreePoint(map: TestMap, seed: number): P {
  const rng = createRng(seed);
  for (;;) {
    const p: P = [rngRange(rng, -5, 105), rngRange(rng, -5, 105)];
    if (isFree(map, p)) return p;
  }
}

const portals = new Float64Array(4 * 8192);
const pts = new Float64Array(2 * 8192);

function straightPath(map: TestMap, radius: number, s: P, g: P) {
  const mesh = buildNavmesh(map, { radius });
  const q = createNavQuery(mesh);
  const res = createNavPathResult();
  const status = findNavPath(q, s[0], s[1], g[0], g[1], res);
  if (status !== 'found') return { status, length: Infinity, n: 0, searchLength: Infinity, res };
  const np = corridorPortals(mesh, res.corridor, res.corridorLength, res.startX, res.startY, res.goalX, res.goalY, portals);
  const n = funnel(portals, np, 0, pts);
  return { status, length: polylineLength(pts, n), n, searchLength: res.length, res };
}

describe('findNavPath + funnel vs visibility-graph Dijkstra (independent oracle)', () => {
  it('equals the Euclidean shortest path within 1e-6 relative on 200 seeded random maps at radius 0', () => {
    let found = 0, unreachable = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const map = randomMap(seed);
      const s = randomFreePoint(map, seed * 7919), g = randomFreePoint(map, seed * 104729 + 1);
      const expected = visibilityGraphShortest(map, s, g);
      const got = straightPath(map, 0, s, g);
      if (expected === Infinity) {
        expect(got.status, `seed ${seed}`).toBe('unreachable');
        unreachable++;
        continue;
      }
      expect(got.status, `seed ${seed}`).toBe('found');
      expect(Math.abs(got.length - expected) / expected, `seed ${seed}: funnel ${got.length} vs oracle ${expected}`).toBeLessThan(1e-6);
      // The search's own optimal cost and the funnel over its corridor agree.
      expect(Math.abs(got.searchLength - expected) / expected, `seed ${seed} search cost`).toBeLessThan(1e-6);
      found++;
    }
    expect(found).toBeGreaterThan(150);
    expect(unreachable + found).toBe(200);
  });
});

describe('findNavPath + funnel on degenerate axis-aligned maps vs the oracle', () => {
  it('handles shared edges, flush walls and collinear corners exactly (150 integer rectangle maps, 2 queries each)', () => {
    let found = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const map = rectMap(seed);
      const rng = createRng(seed + 1e6);
      for (let k = 0; k < 2; k++) {
        let s: P, g: P;
        do { s = [rngRange(rng, 0, 20), rngRange(rng, 0, 20)]; } while (!isFree(map, s));
        do { g = [rngRange(rng, 0, 20), rngRange(rng, 0, 20)]; } while (!isFree(map, g));
        const expected = visibilityGraphShortest(map, s, g);
        const got = straightPath(map, 0, s, g);
        if (expected === Infinity) { expect(got.status, `seed ${seed}`).toBe('unreachable'); continue; }
        expect(got.status, `seed ${seed}`).toBe('found');
        expect(Math.abs(got.length - expected) / expected, `seed ${seed} query ${k}`).toBeLessThan(1e-6);
        found++;
      }
    }
    expect(found).toBeGreaterThan(200);
  });
});

describe('findNavPath with radius (inflated mesh)', () => {
  it('keeps every path segment at least r − 1e-6 from every obstacle and boundary edge on 200 seeded maps', () => {
    let checked = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const map = randomMap(seed + 1000);
      const r = [0.5, 1, 2.5][seed % 3];
      const s = randomFreePoint(map, seed * 31 + 5), g = randomFreePoint(map, seed * 131 + 7);
      let got;
      try {
        got = straightPath(map, r, s, g);
      } catch (e) {
        // Inflation may close the whole map; that must be reported as a typed error, never a broken mesh.
        expect((e as Error).name).toBe('DegenerateGeometryError');
        continue;
      }
      if (got.status !== 'found') continue;
      const edges: [P, P][] = [];
      for (const poly of [map.boundary, ...map.obstacles]) for (let i = 0; i < poly.length; i++) edges.push([poly[i], poly[(i + 1) % poly.length]]);
      for (let i = 0; i + 1 < got.n; i++) {
        const a: P = [pts[2 * i], pts[2 * i + 1]], b: P = [pts[2 * i + 2], pts[2 * i + 3]];
        for (const [c, d] of edges) {
          expect(distSegSeg(a, b, c, d), `seed ${seed} r ${r} segment ${i}`).toBeGreaterThanOrEqual(r - 1e-6);
        }
      }
      // Never shorter than the radius-0 optimum between the snapped endpoints.
      const base = visibilityGraphShortest(map, [got.res.startX, got.res.startY], [got.res.goalX, got.res.goalY]);
      expect(got.length).toBeGreaterThanOrEqual(base * (1 - 1e-9));
      checked++;
    }
    expect(checked).toBeGreaterThan(100);
  });
});

describe('beginNavPath / stepNavPath / finishNavPath (sliced search)', () => {
  it('gives exactly the same result as findNavPath when run in slices of 7 expansions (100 random queries)', () => {
    let sliced = 0;
    for (let seed = 1; seed <= 50; seed++) {
      const map = randomMap(seed + 2000);
      const mesh = buildNavmesh(map);
      const q1 = createNavQuery(mesh), q2 = createNavQuery(mesh);
      const r1 = createNavPathResult(), r2 = createNavPathResult();
      const rng = createRng(seed);
      for (let k = 0; k < 2; k++) {
        const sx = rngRange(rng, 0, 100), sy = rngRange(rng, 0, 100), gx = rngRange(rng, 0, 100), gy = rngRange(rng, 0, 100);
        const s1 = findNavPath(q1, sx, sy, gx, gy, r1);
        let st = beginNavPath(q2, sx, sy, gx, gy);
        let slices = 0;
        while (st === 'in-progress') { st = stepNavPath(q2, 7); slices++; }
        if (slices > 1) sliced++;
        expect(finishNavPath(q2, r2)).toBe(s1);
        expect(r2.length).toBe(r1.length);
        expect(Array.from(r2.corridor.slice(0, r2.corridorLength))).toEqual(Array.from(r1.corridor.slice(0, r1.corridorLength)));
      }
    }
    expect(sliced).toBeGreaterThan(30);
  });

  it('reports an unfinished search as in-progress and refuses to finish it', () => {
    const mesh = buildNavmesh(randomMap(3));
    const q = createNavQuery(mesh);
    expect(beginNavPath(q, 2, 2, 98, 97)).toBe('in-progress');
    expect(stepNavPath(q, 1)).toBe('in-progress');
    expect(() => finishNavPath(q, createNavPathResult())).toThrow(/not finished/);
    expect(() => stepNavPath(q, 0)).toThrow(/maxExpansions/);
    let st = stepNavPath(q, 1);
    while (st === 'in-progress') st = stepNavPath(q, 50);
    expect(finishNavPath(q, createNavPathResult())).toBe(st);
  });
});
