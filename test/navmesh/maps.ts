/** Seeded random polygon maps for the navmesh tests and benchmark. */
import { createRng, rngFloat, rngInt, rngRange, type Rng } from '../../src/core/rng';
import { strictlyInside, type P, type TestMap } from './oracle';

/** A random star-shaped polygon (concave in general, never self-intersecting) around (cx, cy). */
export function starPolygon(rng: Rng, cx: number, cy: number, radius: number, minVerts: number, maxVerts: number): P[] {
  const n = minVerts + Math.floor(rngFloat(rng) * (maxVerts - minVerts + 1));
  // Jittered even angles: consecutive gaps stay below π (for n ≥ 4), so the polygon is star-shaped about its
  // centre and therefore simple.
  const angles: number[] = [];
  const phase = rngRange(rng, 0, 2 * Math.PI);
  for (let i = 0; i < n; i++) angles.push(phase + ((i + rngRange(rng, 0.2, 0.8)) * 2 * Math.PI) / n);
  const pts: P[] = [];
  for (const a of angles) {
    const r = radius * rngRange(rng, 0.35, 1);
    pts.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return pts;
}

/** Map `seed`: a 100 m square or star boundary and 1–8 star obstacles (which may overlap or stick out). */
export function randomMap(seed: number): TestMap {
  const rng = createRng(seed);
  const boundary: P[] = rngFloat(rng) < 0.5 ? [[0, 0], [100, 0], [100, 100], [0, 100]] : starPolygon(rng, 50, 50, 60, 5, 10);
  const count = 1 + Math.floor(rngFloat(rng) * 8);
  const obstacles: P[][] = [];
  for (let tries = 0; obstacles.length < count && tries < 100; tries++) {
    const c: P = [rngRange(rng, 5, 95), rngRange(rng, 5, 95)];
    if (!strictlyInside(boundary, c)) continue;
    obstacles.push(starPolygon(rng, c[0], c[1], rngRange(rng, 4, 18), 3, 8));
  }
  return { boundary, obstacles };
}

/** A map of `count` small non-overlapping obstacles in a square of side `size` (benchmark scene). */
export function clutteredMap(seed: number, count: number, size: number): TestMap {
  const rng = createRng(seed);
  const boundary: P[] = [[0, 0], [size, 0], [size, size], [0, size]];
  const obstacles: P[][] = [];
  const cell = size / Math.ceil(Math.sqrt(count));
  const per = Math.ceil(Math.sqrt(count));
  for (let i = 0; i < count; i++) {
    const cx = (i % per + 0.5) * cell + rngRange(rng, -0.15, 0.15) * cell;
    const cy = (Math.floor(i / per) + 0.5) * cell + rngRange(rng, -0.15, 0.15) * cell;
    obstacles.push(starPolygon(rng, cx, cy, cell * 0.3, 3, 7));
  }
  return { boundary, obstacles };
}

/**
 * Axis-aligned rectangles with integer corners in a 20 m square: exact coincidences everywhere (shared edges,
 * rectangles flush against the boundary, collinear corners). Corner-to-corner contacts (pinch points, which the
 * navmesh treats as closed) are rejected.
 */
export function rectMap(seed: number): TestMap {
  const rng = createRng(seed);
  const rects: number[][] = [];
  const count = 3 + rngInt(rng, 6);
  for (let tries = 0; rects.length < count && tries < 200; tries++) {
    const x0 = rngInt(rng, 19), y0 = rngInt(rng, 19);
    const x1 = Math.min(20, x0 + 1 + rngInt(rng, 6)), y1 = Math.min(20, y0 + 1 + rngInt(rng, 6));
    let ok = true;
    for (const r of rects) {
      const ix = Math.min(x1, r[2]) - Math.max(x0, r[0]), iy = Math.min(y1, r[3]) - Math.max(y0, r[1]);
      if (ix === 0 && iy === 0) ok = false;
    }
    if (ok) rects.push([x0, y0, x1, y1]);
  }
  return { boundary: [[0, 0], [20, 0], [20, 20], [0, 20]], obstacles: rects.map(([a, b, c, d]) => [[a, b], [c, b], [c, d], [a, d]] as P[]) };
}
