/**
 * 2D convex shapes in the ground plane (x, y): circles and convex polygons, each optionally rounded by a radius
 * (a polygon swept by a disc). This is the 3D module's special case for agents and obstacles on the ground: the
 * same core + radius split, GJK/EPA and feature clipping, with the contact plane reduced to a line.
 *
 * A 2D pose is Float64Array(4) = [x, y, cos θ, sin θ]: world = R(θ)·local + (x, y).
 */
import { DegenerateGeometryError, InvalidArgumentError, CapacityError } from '../core/errors';
import { requireFinite, requirePositive, requireNonNegative } from '../core/validate';
import { dcos, dsin } from '../core/dmath';

/** Largest vertex count of a 2D polygon. */
export const MAX_POLYGON_VERTICES = 64;
/**
 * Smallest accepted polygon extent (bounding-box side), metres. Below it the squared edge lengths and the area
 * underflow (a polygon 1e-158 m across got NaN edge normals; found by the 2D manifold fuzz property, 2026-11-29).
 */
export const MIN_POLYGON_EXTENT = 1e-9;

export interface Shape2 {
  readonly kind: 'circle' | 'polygon';
  /** Rounding radius (circle radius; polygon skin, 0 for sharp polygons). Metres. */
  readonly radius: number;
  /** Core vertices x0, y0, x1, y1, ... counter-clockwise (one vertex at the origin for a circle). */
  readonly verts: Float64Array;
  /** Outward unit normal of edge i (from vertex i to i+1). */
  readonly normals: Float64Array;
  readonly count: number;
  /** Centroid of the core (area centroid for polygons). */
  readonly cx: number;
  readonly cy: number;
  /** Radius of a disc about the local origin containing the whole shape. */
  readonly boundingRadius: number;
}

/** A circle of `radius` metres centred on the local origin. */
export function circleShape(radius: number): Shape2 {
  requirePositive('radius', radius);
  return { kind: 'circle', radius, verts: new Float64Array(2), normals: new Float64Array(2), count: 1, cx: 0, cy: 0, boundingRadius: radius };
}

/**
 * A convex polygon from points (x0, y0, x1, y1, ...), in any order: the convex hull is taken (Andrew's monotone
 * chain), collinear and duplicate points are dropped, and the result is counter-clockwise.
 * @param radius optional rounding radius (metres, ≥ 0)
 * @throws DegenerateGeometryError when the hull has fewer than 3 vertices or (near) zero area
 */
export function polygonShape(points: ArrayLike<number>, radius = 0): Shape2 {
  requireNonNegative('radius', radius);
  if (points.length % 2 !== 0) throw new InvalidArgumentError('points', points.length, 'length must be even (x, y pairs)');
  const n = points.length / 2;
  if (n < 3) throw new DegenerateGeometryError('points', n, 'a polygon needs at least 3 points');
  if (n > 4 * MAX_POLYGON_VERTICES) throw new CapacityError('points', n, `at most ${4 * MAX_POLYGON_VERTICES} points`);
  const pts: { x: number; y: number }[] = [];
  let scale = 0, x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = requireFinite(`points[${2 * i}]`, points[2 * i]), y = requireFinite(`points[${2 * i + 1}]`, points[2 * i + 1]);
    pts.push({ x, y });
    scale = Math.max(scale, Math.abs(x), Math.abs(y));
    x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
  }
  const extent = Math.max(x1 - x0, y1 - y0);
  if (!(extent >= MIN_POLYGON_EXTENT)) throw new DegenerateGeometryError('points', extent, `the points span less than ${MIN_POLYGON_EXTENT} m`);
  pts.sort((a, b) => a.x - b.x || a.y - b.y);
  const eps = 1e-12 * scale * scale;
  const cross = (o: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: typeof pts = [], upper: typeof pts = [];
  for (const p of pts) { while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], p) <= eps) lower.pop(); lower.push(p); }
  for (let i = pts.length - 1; i >= 0; i--) { const p = pts[i]; while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], p) <= eps) upper.pop(); upper.push(p); }
  const hull = lower.slice(0, -1).concat(upper.slice(0, -1));
  if (hull.length < 3) throw new DegenerateGeometryError('points', n, 'the points are collinear or coincident (zero area)');
  if (hull.length > MAX_POLYGON_VERTICES) throw new CapacityError('points', hull.length, `the hull has more than ${MAX_POLYGON_VERTICES} vertices`);
  const m = hull.length;
  const verts = new Float64Array(2 * m), normals = new Float64Array(2 * m);
  let area = 0, cx = 0, cy = 0, br = 0;
  for (let i = 0; i < m; i++) {
    const a = hull[i], b = hull[(i + 1) % m];
    verts[2 * i] = a.x; verts[2 * i + 1] = a.y;
    const ex = b.x - a.x, ey = b.y - a.y, l = Math.sqrt(ex * ex + ey * ey);
    if (!(l > 0 && Number.isFinite(ey / l) && Number.isFinite(ex / l))) throw new DegenerateGeometryError('points', l, 'an edge of the hull has no usable length');
    normals[2 * i] = ey / l; normals[2 * i + 1] = -ex / l;
    const cr = a.x * b.y - a.y * b.x;
    area += cr; cx += (a.x + b.x) * cr; cy += (a.y + b.y) * cr;
    br = Math.max(br, Math.sqrt(a.x * a.x + a.y * a.y));
  }
  if (!(area > 1e-12 * scale * scale)) throw new DegenerateGeometryError('points', n, 'the polygon has (near) zero area');
  return { kind: 'polygon', radius, verts, normals, count: m, cx: cx / (3 * area), cy: cy / (3 * area), boundingRadius: br + radius };
}

/** An axis-aligned box polygon of half extents hx, hy (metres), optionally rounded. */
export function boxShape2(hx: number, hy: number, radius = 0): Shape2 {
  requirePositive('hx', hx);
  requirePositive('hy', hy);
  return polygonShape([-hx, -hy, hx, -hy, hx, hy, -hx, hy], radius);
}

/** 2D pose: [x, y, cos θ, sin θ]. */
export type Pose2 = Float64Array;

/** A new 2D pose at (x, y) rotated by `angle` radians (deterministic trig). */
export function createPose2(x = 0, y = 0, angle = 0): Pose2 {
  return setPose2(new Float64Array(4), x, y, angle);
}

/** Set a 2D pose in place. Returns `out`. */
export function setPose2(out: Pose2, x: number, y: number, angle: number): Pose2 {
  if (!Number.isFinite(x + y + angle)) throw new InvalidArgumentError('pose', [x, y, angle], 'must be finite');
  out[0] = x; out[1] = y; out[2] = dcos(angle); out[3] = dsin(angle);
  return out;
}
