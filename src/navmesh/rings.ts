/**
 * Validation and repair of the polygon rings of a navmesh map. Everything here runs once at build time.
 *
 * Policy (documented in docs/NAVMESH.md):
 * - repaired silently: a closing point equal to the first point, consecutive duplicate points, collinear vertices
 *   (a vertex whose two edges are parallel contributes nothing to the shape and would only create needle
 *   triangles), either winding order (rings are re-oriented as needed);
 * - rejected with a typed error naming the ring: non-finite coordinates (InvalidArgumentError), fewer than 3
 *   distinct points or zero area (DegenerateGeometryError), self-intersection (DegenerateGeometryError).
 */
import { DegenerateGeometryError, InvalidArgumentError, MalformedInputError } from '../core/errors';

/** A polygon ring as a list of [x, y] points (either winding, closed or open). */
export type Ring = ReadonlyArray<readonly [number, number]>;

/** Twice the signed area (positive when counter-clockwise). Shoelace formula. */
export function signedArea2(xs: ArrayLike<number>, ys: ArrayLike<number>, n: number): number {
  let s = 0;
  for (let i = 0, j = n - 1; i < n; j = i++) s += xs[j] * ys[i] - xs[i] * ys[j];
  return s;
}

/** cross((b - a), (c - a)): > 0 when c lies left of the directed line a→b. */
export function orient(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/** A cleaned ring: counter-clockwise, no duplicates, no collinear vertices, stored as parallel coordinate arrays. */
export interface CleanRing {
  xs: number[];
  ys: number[];
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/**
 * Check and repair one ring; returns it counter-clockwise. `field` names the ring in error messages
 * (e.g. `map.obstacles[3]`).
 */
export function cleanRing(field: string, ring: unknown, checkSelfIntersection = true): CleanRing {
  if (!Array.isArray(ring)) throw new MalformedInputError(field, ring, 'must be an array of [x, y] points');
  let xs: number[] = [];
  let ys: number[] = [];
  for (let i = 0; i < ring.length; i++) {
    const p = ring[i] as unknown;
    if (!Array.isArray(p) || p.length < 2) throw new MalformedInputError(`${field}[${i}]`, p, 'must be an [x, y] pair');
    const x = p[0] as number, y = p[1] as number;
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new InvalidArgumentError(`${field}[${i}][0]`, x, 'must be a finite number');
    if (typeof y !== 'number' || !Number.isFinite(y)) throw new InvalidArgumentError(`${field}[${i}][1]`, y, 'must be a finite number');
    // Repair: drop a point equal to its predecessor (this also drops the closing point of a closed ring below).
    const n = xs.length;
    if (n > 0 && xs[n - 1] === x && ys[n - 1] === y) continue;
    xs.push(x);
    ys.push(y);
  }
  while (xs.length > 1 && xs[0] === xs[xs.length - 1] && ys[0] === ys[ys.length - 1]) { xs.pop(); ys.pop(); }
  if (xs.length < 3) throw new DegenerateGeometryError(field, ring, 'a polygon needs at least 3 distinct points');

  // Scale for the collinearity tolerance: the ring's bounding-box extent.
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    if (xs[i] < minX) minX = xs[i];
    if (xs[i] > maxX) maxX = xs[i];
    if (ys[i] < minY) minY = ys[i];
    if (ys[i] > maxY) maxY = ys[i];
  }
  const ext = Math.max(maxX - minX, maxY - minY);

  // Repair: remove collinear vertices (and spikes that fold back on themselves). A vertex b between a and c is
  // collinear when the triangle abc has area ≤ 1e-12·|ac|·extent, i.e. b is within ~1e-12 relative of line ac.
  let changed = true;
  while (changed && xs.length >= 3) {
    changed = false;
    const nx: number[] = [], ny: number[] = [];
    const n = xs.length;
    for (let i = 0; i < n; i++) {
      const a = nx.length > 0 ? nx.length - 1 : -1;
      const ax = a >= 0 ? nx[a] : xs[(i + n - 1) % n], ay = a >= 0 ? ny[a] : ys[(i + n - 1) % n];
      const cx = xs[(i + 1) % n], cy = ys[(i + 1) % n];
      const bx = xs[i], by = ys[i];
      const lac = Math.sqrt((cx - ax) * (cx - ax) + (cy - ay) * (cy - ay));
      const area2 = orient(ax, ay, bx, by, cx, cy);
      // (A spike, where the ring runs out to b and straight back, also has zero area and is removed the same way.)
      if (Math.abs(area2) <= 1e-12 * lac * ext) {
        changed = true;
        continue;
      }
      nx.push(bx);
      ny.push(by);
    }
    xs = nx;
    ys = ny;
  }
  if (xs.length < 3) throw new DegenerateGeometryError(field, ring, 'polygon has zero area (all points collinear)');
  const bad = checkSelfIntersection ? findSelfIntersection(xs, ys) : -1;
  if (bad >= 0) {
    throw new DegenerateGeometryError(field, ring, `polygon is self-intersecting (edge ${bad} crosses another edge)`);
  }
  const a2 = signedArea2(xs, ys, xs.length);
  if (!(Math.abs(a2) > 1e-12 * ext * ext)) throw new DegenerateGeometryError(field, ring, 'polygon has zero area');
  if (a2 < 0) { xs.reverse(); ys.reverse(); }
  return { xs, ys, minX, minY, maxX, maxY };
}

/** Do closed segments p1p2 and q1q2 intersect (touching counts)? Orientation tests (CLRS 33.1). */
export function segmentsIntersect(
  p1x: number, p1y: number, p2x: number, p2y: number, q1x: number, q1y: number, q2x: number, q2y: number,
): boolean {
  const d1 = orient(q1x, q1y, q2x, q2y, p1x, p1y);
  const d2 = orient(q1x, q1y, q2x, q2y, p2x, p2y);
  const d3 = orient(p1x, p1y, p2x, p2y, q1x, q1y);
  const d4 = orient(p1x, p1y, p2x, p2y, q2x, q2y);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (d1 === 0 && onSegment(q1x, q1y, q2x, q2y, p1x, p1y)) return true;
  if (d2 === 0 && onSegment(q1x, q1y, q2x, q2y, p2x, p2y)) return true;
  if (d3 === 0 && onSegment(p1x, p1y, p2x, p2y, q1x, q1y)) return true;
  if (d4 === 0 && onSegment(p1x, p1y, p2x, p2y, q2x, q2y)) return true;
  return false;
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

/**
 * Index of an edge that crosses or touches a non-adjacent edge, or -1. Adjacent edges share one vertex, which is
 * allowed; they may not overlap (that would be a spike, already removed by the collinear repair). O(n²): rings
 * are small and this runs once per build.
 */
function findSelfIntersection(xs: number[], ys: number[]): number {
  const n = xs.length;
  for (let i = 0; i < n; i++) {
    const i2 = (i + 1) % n;
    for (let j = i + 1; j < n; j++) {
      const j2 = (j + 1) % n;
      if (j === i2 || j2 === i) continue; // adjacent edges share a vertex
      if (segmentsIntersect(xs[i], ys[i], xs[i2], ys[i2], xs[j], ys[j], xs[j2], ys[j2])) return i;
    }
  }
  return -1;
}

/** Even-odd point-in-polygon (ray crossing) test. */
export function pointInRing(r: CleanRing, px: number, py: number): boolean {
  const { xs, ys } = r;
  let inside = false;
  for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) {
    if ((ys[i] > py) !== (ys[j] > py) && px < ((xs[j] - xs[i]) * (py - ys[i])) / (ys[j] - ys[i]) + xs[i]) inside = !inside;
  }
  return inside;
}

/** Do two rings share any area or boundary point? Used to reject obstacles lying wholly outside the boundary. */
export function ringsOverlap(a: CleanRing, b: CleanRing): boolean {
  if (a.maxX < b.minX || b.maxX < a.minX || a.maxY < b.minY || b.maxY < a.minY) return false;
  if (pointInRing(b, a.xs[0], a.ys[0]) || pointInRing(a, b.xs[0], b.ys[0])) return true;
  const na = a.xs.length, nb = b.xs.length;
  for (let i = 0; i < na; i++) {
    const i2 = (i + 1) % na;
    for (let j = 0; j < nb; j++) {
      const j2 = (j + 1) % nb;
      if (segmentsIntersect(a.xs[i], a.ys[i], a.xs[i2], a.ys[i2], b.xs[j], b.ys[j], b.xs[j2], b.ys[j2])) return true;
    }
  }
  return false;
}

/** Is a counter-clockwise ring convex (no right turn)? */
export function isConvex(r: CleanRing): boolean {
  const n = r.xs.length;
  for (let i = 0; i < n; i++) {
    const a = (i + n - 1) % n, c = (i + 1) % n;
    if (orient(r.xs[a], r.ys[a], r.xs[i], r.ys[i], r.xs[c], r.ys[c]) < 0) return false;
  }
  return true;
}
