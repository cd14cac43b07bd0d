/**
 * Obstacle inflation by the agent radius (configuration-space obstacles, Lozano-Pérez 1983).
 *
 * A disc agent of radius r whose centre stays outside O ⊕ D(r) (the Minkowski sum of obstacle O and the disc)
 * never overlaps O. We over-approximate the disc by a regular k-gon *circumscribed* about it (vertices at
 * r / cos(π/k)), so the inflated obstacle contains O ⊕ D(r) and the clearance guarantee holds exactly; the price
 * is a slightly larger obstacle (by at most r·(1/cos(π/k) − 1), 8% of r at k = 8) near convex corners.
 *
 * For a convex obstacle the Minkowski sum with a convex k-gon is the convex hull of the vertex-wise sums. For a
 * concave one we use O ⊕ K = O ∪ ⋃ₑ (e ⊕ K), the union of the polygon with each edge swept by K (each sweep is the
 * hull of K placed at the two endpoints); polygon-clipping merges the pieces. The outer boundary shrinks the same
 * way: the free area is the boundary minus the sweeps of its edges.
 */
import type { CleanRing } from './rings';
import { dcos, dsin } from '../core/dmath';

export type Pair = [number, number];

/** Unit offsets of the circumscribed k-gon, scaled by r/cos(π/k). */
export function kgonOffsets(radius: number, k: number): Float64Array {
  const out = new Float64Array(2 * k);
  const R = radius / dcos(Math.PI / k);
  for (let i = 0; i < k; i++) {
    const a = (2 * Math.PI * i) / k;
    out[2 * i] = R * dcos(a);
    out[2 * i + 1] = R * dsin(a);
  }
  return out;
}

/** Convex hull (Andrew's monotone chain), counter-clockwise, no collinear points. Input as flat x,y pairs. */
export function convexHull(pts: number[]): Pair[] {
  const n = pts.length / 2;
  const idx: number[] = [];
  for (let i = 0; i < n; i++) idx.push(i);
  idx.sort((a, b) => pts[2 * a] - pts[2 * b] || pts[2 * a + 1] - pts[2 * b + 1]);
  const cross = (o: number, a: number, b: number): number =>
    (pts[2 * a] - pts[2 * o]) * (pts[2 * b + 1] - pts[2 * o + 1]) - (pts[2 * a + 1] - pts[2 * o + 1]) * (pts[2 * b] - pts[2 * o]);
  const lower: number[] = [];
  for (const i of idx) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], i) <= 0) lower.pop();
    lower.push(i);
  }
  const upper: number[] = [];
  for (let j = idx.length - 1; j >= 0; j--) {
    const i = idx[j];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], i) <= 0) upper.pop();
    upper.push(i);
  }
  lower.pop();
  upper.pop();
  const hull = lower.concat(upper);
  return hull.map((i) => [pts[2 * i], pts[2 * i + 1]] as Pair);
}

/** The sweep of edge (a, b) by the k-gon: hull of the k-gon at both endpoints. */
export function edgeSweep(ax: number, ay: number, bx: number, by: number, kgon: Float64Array): Pair[] {
  const pts: number[] = [];
  const k = kgon.length / 2;
  for (let i = 0; i < k; i++) pts.push(ax + kgon[2 * i], ay + kgon[2 * i + 1], bx + kgon[2 * i], by + kgon[2 * i + 1]);
  return convexHull(pts);
}

/** Pieces whose union is the inflated obstacle (each piece a single-ring polygon). */
export function inflatedPieces(r: CleanRing, kgon: Float64Array, convex: boolean): Pair[][][] {
  const n = r.xs.length;
  const k = kgon.length / 2;
  if (convex) {
    const pts: number[] = [];
    for (let i = 0; i < n; i++) for (let j = 0; j < k; j++) pts.push(r.xs[i] + kgon[2 * j], r.ys[i] + kgon[2 * j + 1]);
    return [[convexHull(pts)]];
  }
  const out: Pair[][][] = [[ringPairs(r)]];
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    out.push([edgeSweep(r.xs[i], r.ys[i], r.xs[j], r.ys[j], kgon)]);
  }
  return out;
}

/** Sweeps of every edge of a ring (used to shrink the outer boundary). */
export function edgeSweeps(r: CleanRing, kgon: Float64Array): Pair[][][] {
  const n = r.xs.length;
  const out: Pair[][][] = [];
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    out.push([edgeSweep(r.xs[i], r.ys[i], r.xs[j], r.ys[j], kgon)]);
  }
  return out;
}

export function ringPairs(r: CleanRing): Pair[] {
  const out: Pair[] = [];
  for (let i = 0; i < r.xs.length; i++) out.push([r.xs[i], r.ys[i]]);
  return out;
}
