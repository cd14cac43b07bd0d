import { describe, expect, it } from 'vitest';
import { buildNavmesh, type PolygonMap } from '../../src/navmesh/build';
import { navmeshFromBuffer } from '../../src/navmesh/buffer';
import { createNavQuery, createNavPathResult, findNavPath } from '../../src/navmesh/search';
import { locateTriangle, nearestPointOnMesh, pointInTriangle, closestPointOnTriangle } from '../../src/navmesh/locate';
import { DegenerateGeometryError, InvalidArgumentError, MalformedInputError } from '../../src/core/errors';
import { createRng, rngRange } from '../../src/core/rng';
import { randomMap } from './maps';
import { isFree, type P } from './oracle';

const square = (x0: number, y0: number, s: number): P[] => [[x0, y0], [x0 + s, y0], [x0 + s, y0 + s], [x0, y0 + s]];

function meshArea(mesh: ReturnType<typeof buildNavmesh>): number {
  const V = mesh.vertices, T = mesh.triangles;
  let a = 0;
  for (let t = 0; t < mesh.triangleCount; t++) {
    const i = T[3 * t], j = T[3 * t + 1], k = T[3 * t + 2];
    a += 0.5 * ((V[2 * j] - V[2 * i]) * (V[2 * k + 1] - V[2 * i + 1]) - (V[2 * j + 1] - V[2 * i + 1]) * (V[2 * k] - V[2 * i]));
  }
  return a;
}

describe('buildNavmesh', () => {
  it('triangulates a square room with a square hole: area, CCW triangles, symmetric adjacency (hand derivation)', () => {
    const mesh = buildNavmesh({ boundary: square(0, 0, 10), obstacles: [square(3, 3, 4)] });
    expect(mesh.vertexCount).toBe(8);
    expect(mesh.triangleCount).toBe(8); // V − 2 + 2·holes for a polygon with one hole
    expect(meshArea(mesh)).toBeCloseTo(100 - 16, 10);
    const { triangles: T, neighbours: N, vertices: V } = mesh;
    for (let t = 0; t < mesh.triangleCount; t++) {
      const i = T[3 * t], j = T[3 * t + 1], k = T[3 * t + 2];
      expect((V[2 * j] - V[2 * i]) * (V[2 * k + 1] - V[2 * i + 1]) - (V[2 * j + 1] - V[2 * i + 1]) * (V[2 * k] - V[2 * i])).toBeGreaterThan(0);
      for (let e = 0; e < 3; e++) {
        const u = N[3 * t + e];
        if (u < 0) continue;
        // u's matching edge runs the other way and points back to t.
        const a = T[3 * t + e], b = T[3 * t + (e + 1) % 3];
        let back = -1;
        for (let f = 0; f < 3; f++) if (T[3 * u + f] === b && T[3 * u + (f + 1) % 3] === a) back = f;
        expect(back).toBeGreaterThanOrEqual(0);
        expect(N[3 * u + back]).toBe(t);
      }
    }
    // The hole's 4 corners are reflex for free space; the room's are not.
    expect(Array.from(mesh.corner).reduce((s, c) => s + c, 0)).toBe(4);
  });

  it('covers exactly the free area on random maps (area vs Monte Carlo membership, point by point)', () => {
    // Seeds 974 and 1213 are regressions: a boundary edge whose only half-edge had id 0 (Constrainautor returns −0)
    // was labelled on the wrong side, losing a region of free space.
    for (const seed of [...Array.from({ length: 30 }, (_, i) => i + 1), 974, 1213]) {
      const map = randomMap(seed);
      const mesh = buildNavmesh(map);
      const rng = createRng(seed);
      for (let i = 0; i < 300; i++) {
        const p: P = [rngRange(rng, -5, 105), rngRange(rng, -5, 105)];
        const inMesh = locateTriangle(mesh, p[0], p[1]) >= 0;
        // Independent membership test on the original polygons (points within 1e-6 of an edge are ambiguous).
        expect(inMesh, `seed ${seed} point ${p}`).toBe(isFree(map, p));
      }
    }
  });

  it('is deterministic: same map → bit-identical arrays', () => {
    const a = buildNavmesh(randomMap(5), { radius: 1 }), b = buildNavmesh(randomMap(5), { radius: 1 });
    expect(Array.from(a.vertices)).toEqual(Array.from(b.vertices));
    expect(Array.from(a.triangles)).toEqual(Array.from(b.triangles));
    expect(Array.from(a.neighbours)).toEqual(Array.from(b.neighbours));
  });

  it('merges overlapping obstacles and clips obstacles that stick out of the boundary (documented repair)', () => {
    const mesh = buildNavmesh({ boundary: square(0, 0, 10), obstacles: [square(2, 2, 3), square(4, 4, 3), square(8, 8, 5)] });
    // Free area: 100 − (9 + 9 − 1) − 4 (the part of the third square inside the room).
    expect(meshArea(mesh)).toBeCloseTo(100 - 17 - 4, 9);
  });

  it('repairs collinear vertices, duplicate points, closing points and clockwise winding', () => {
    const boundary: P[] = [[0, 0], [0, 10], [10, 10], [10, 5], [10, 0], [5, 0], [5, 0], [0, 0]];
    const mesh = buildNavmesh({ boundary });
    expect(mesh.vertexCount).toBe(4);
    expect(mesh.triangleCount).toBe(2);
    expect(meshArea(mesh)).toBeCloseTo(100, 10);
  });

  it('rejects degenerate input with typed errors naming the ring', () => {
    const bow: P[] = [[0, 0], [10, 10], [10, 0], [0, 10]];
    expect(() => buildNavmesh({ boundary: bow })).toThrow(DegenerateGeometryError);
    expect(() => buildNavmesh({ boundary: bow })).toThrow(/map\.boundary.*self-intersecting/);
    expect(() => buildNavmesh({ boundary: square(0, 0, 10), obstacles: [[[1, 1], [2, 2], [3, 3]]] })).toThrow(/map\.obstacles\[0\].*zero area/);
    expect(() => buildNavmesh({ boundary: square(0, 0, 10), obstacles: [square(20, 20, 2)] })).toThrow(/map\.obstacles\[0\].*outside the boundary/);
    expect(() => buildNavmesh({ boundary: [[0, 0], [1, 0]] })).toThrow(/at least 3/);
    expect(() => buildNavmesh({ boundary: [[0, 0], [NaN, 0], [1, 1]] })).toThrow(InvalidArgumentError);
    expect(() => buildNavmesh({ boundary: 'x' } as unknown as PolygonMap)).toThrow(MalformedInputError);
    expect(() => buildNavmesh({ boundary: square(0, 0, 10) }, { radius: -1 })).toThrow(/options\.radius/);
    expect(() => buildNavmesh({ boundary: square(0, 0, 10), obstacles: [square(-1, -1, 12)] })).toThrow(/no free space/);
    expect(() => buildNavmesh({ boundary: square(0, 0, 2) }, { radius: 1.5 })).toThrow(/radius 1.5/);
  });

  it('inflates by the radius: free area of a room with a square obstacle matches the Minkowski bound', () => {
    const r = 1;
    const mesh = buildNavmesh({ boundary: square(0, 0, 20), obstacles: [square(8, 8, 4)] }, { radius: r, arcSegments: 64 });
    // Boundary shrinks to an 18 × 18 square; the obstacle grows to a 4×4 square ⊕ disc ≈ 16 + 16r + πr² (the
    // circumscribed 64-gon adds < 0.1%).
    const expected = 18 * 18 - (16 + 16 * r + Math.PI * r * r);
    expect(Math.abs(meshArea(mesh) - expected) / expected).toBeLessThan(2e-3);
  });
});

describe('locateTriangle / nearestPointOnMesh', () => {
  it('agrees with brute force over all triangles (1000 random points per map)', () => {
    const out = new Float64Array(2), q = new Float64Array(2);
    for (let seed = 1; seed <= 10; seed++) {
      const mesh = buildNavmesh(randomMap(seed), { radius: seed % 2 });
      const rng = createRng(seed + 77);
      for (let i = 0; i < 1000; i++) {
        const x = rngRange(rng, -20, 120), y = rngRange(rng, -20, 120);
        let brute = -1, bestD = Infinity;
        for (let t = 0; t < mesh.triangleCount; t++) {
          if (brute < 0 && pointInTriangle(mesh, t, x, y)) brute = t;
          bestD = Math.min(bestD, closestPointOnTriangle(mesh, t, x, y, q));
        }
        const got = locateTriangle(mesh, x, y);
        expect(got >= 0).toBe(brute >= 0);
        if (got >= 0) expect(pointInTriangle(mesh, got, x, y)).toBe(true);
        const t = nearestPointOnMesh(mesh, x, y, out);
        expect(t).toBeGreaterThanOrEqual(0);
        const d2 = (out[0] - x) ** 2 + (out[1] - y) ** 2;
        expect(Math.abs(d2 - bestD)).toBeLessThanOrEqual(1e-9 * (1 + bestD));
      }
    }
  });
});

describe('navmeshFromBuffer', () => {
  it('round-trips a mesh through its one buffer (copy of the bytes): same arrays, same paths', () => {
    const mesh = buildNavmesh(randomMap(7), { radius: 0.5 });
    const copy = mesh.buffer.slice(0) as ArrayBuffer; // as if saved to disk and loaded back
    const loaded = navmeshFromBuffer(copy);
    expect(loaded.buffer).toBe(copy);
    for (const k of ['vertices', 'triangles', 'neighbours', 'corner', 'component', 'gridStart', 'gridTris'] as const) {
      expect(Array.from(loaded[k] as ArrayLike<number>)).toEqual(Array.from(mesh[k] as ArrayLike<number>));
    }
    for (const k of ['radius', 'vertexCount', 'triangleCount', 'minX', 'minY', 'maxX', 'maxY', 'gridCell', 'gridCols', 'gridRows'] as const) {
      expect(loaded[k]).toBe(mesh[k]);
    }
    const a = createNavPathResult(), b = createNavPathResult();
    findNavPath(createNavQuery(mesh), 3, 3, 97, 96, a);
    findNavPath(createNavQuery(loaded), 3, 3, 97, 96, b);
    expect(b.status).toBe(a.status);
    expect(b.length).toBe(a.length);
    expect(Array.from(b.corridor.slice(0, b.corridorLength))).toEqual(Array.from(a.corridor.slice(0, a.corridorLength)));
  });

  it('rejects foreign or corrupted buffers with MalformedInputError', () => {
    const mesh = buildNavmesh(randomMap(8));
    expect(() => navmeshFromBuffer(new ArrayBuffer(64))).toThrow(MalformedInputError);
    expect(() => navmeshFromBuffer(new ArrayBuffer(256))).toThrow(/magic/);
    expect(() => navmeshFromBuffer(mesh.buffer.slice(0, mesh.buffer.byteLength - 8) as ArrayBuffer)).toThrow(/byteLength/);
    const bad = mesh.buffer.slice(0) as ArrayBuffer;
    const m2 = navmeshFromBuffer(bad);
    m2.triangles[5] = 1e9;
    expect(() => navmeshFromBuffer(bad)).toThrow(/triangles\[5\]/);
    expect(() => navmeshFromBuffer({} as ArrayBuffer)).toThrow(/ArrayBuffer/);
  });
});
