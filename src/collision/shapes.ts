/**
 * Convex shapes described by support functions, plus rigid poses.
 *
 * Every shape is a *core* (a point, a segment, a box, an upright cylinder or a convex polyhedron) swept by a sphere
 * of radius `radius` (zero except for spheres and capsules). GJK runs on the cores and adds the radii afterwards,
 * which makes sphere and capsule contacts exact instead of the slow polyhedral approximation EPA would build of a
 * curved surface (the "core shape + margin" split of Box2D and Bullet; van den Bergen, "Collision Detection in
 * Interactive 3D Environments", 2004, section 4.3.1).
 *
 * All shapes are expressed in their local frame; a `Pose` places them in the world:
 *   world = R · local + p,   R a 3x3 rotation stored row-major.
 * Local z is the axis of capsules and cylinders, so an upright agent cylinder needs no rotation (z is up).
 */
import { DegenerateGeometryError, InvalidArgumentError, CapacityError } from '../core/errors';
import { requireFinite, requirePositive, requireNonNegative } from '../core/validate';
import { dcos, dsin } from '../core/dmath';

/** Core kinds (numeric so that hot loops switch on small integers). */
export const CORE_POINT = 0;
export const CORE_SEGMENT = 1;
export const CORE_BOX = 2;
export const CORE_CYLINDER = 3;
export const CORE_HULL = 4;

export type ShapeKind = 'sphere' | 'capsule' | 'box' | 'cylinder' | 'hull';

/** Largest number of vertices of a hull (and of a feature polygon). */
export const MAX_HULL_VERTICES = 64;
/** Largest number of input points to hullShape (interior points are dropped; the hull itself has ≤ 64 vertices). */
export const MAX_HULL_INPUT = 4096;
/** Number of vertices used to approximate a cylinder cap when it is the contact feature. */
export const CYLINDER_CAP_SEGMENTS = 12;

export interface Shape {
  readonly kind: ShapeKind;
  /** Core kind: CORE_POINT, CORE_SEGMENT, CORE_BOX, CORE_CYLINDER or CORE_HULL. */
  readonly core: number;
  /** Sphere radius swept around the core (sphere, capsule); 0 otherwise. Metres. */
  readonly radius: number;
  /** Box half extents along local x, y, z (box only). */
  readonly hx: number;
  readonly hy: number;
  readonly hz: number;
  /** Capsule segment half length / cylinder half height along local z. */
  readonly halfHeight: number;
  /** Cylinder radius (cylinder only). */
  readonly cylinderRadius: number;
  /** Core vertices xyz (sphere 1, capsule 2, box 8, hull n, cylinder 0). */
  readonly verts: Float64Array;
  readonly vertCount: number;
  /** Faces of box and hull cores: outward unit normals (xyz) and plane offsets (n·x = offset on the face). */
  readonly faceNormals: Float64Array;
  readonly faceOffsets: Float64Array;
  readonly faceCount: number;
  /** Vertex indices of each face, counter-clockwise seen from outside: face f is faceVerts[faceStart[f] .. faceStart[f+1]). */
  readonly faceStart: Int32Array;
  readonly faceVerts: Int32Array;
  /** Faces around each vertex (box and hull): vertFaces[vertFaceStart[v] .. vertFaceStart[v+1]). */
  readonly vertFaceStart: Int32Array;
  readonly vertFaces: Int32Array;
  /** Radius of a sphere about the local origin enclosing the whole shape (broad phase, tolerances). */
  readonly boundingRadius: number;
}

function makeShape(kind: ShapeKind, core: number, radius: number, hx: number, hy: number, hz: number, halfHeight: number, cylinderRadius: number,
  verts: Float64Array, faceNormals: Float64Array, faceOffsets: Float64Array, faceStart: Int32Array, faceVerts: Int32Array, boundingRadius: number): Shape {
  // vertex → faces adjacency (counting sort over the face lists)
  const nv = verts.length / 3, nf = faceOffsets.length;
  const vertFaceStart = new Int32Array(nv + 1);
  for (let f = 0; f < nf; f++) for (let k = faceStart[f]; k < faceStart[f + 1]; k++) vertFaceStart[faceVerts[k] + 1]++;
  for (let v = 0; v < nv; v++) vertFaceStart[v + 1] += vertFaceStart[v];
  const vertFaces = new Int32Array(nf > 0 ? vertFaceStart[nv] : 0);
  const fill = vertFaceStart.slice(0, nv);
  for (let f = 0; f < nf; f++) for (let k = faceStart[f]; k < faceStart[f + 1]; k++) vertFaces[fill[faceVerts[k]]++] = f;
  return {
    kind, core, radius, hx, hy, hz, halfHeight, cylinderRadius, verts, vertCount: nv,
    faceNormals, faceOffsets, faceCount: nf, faceStart, faceVerts, vertFaceStart, vertFaces, boundingRadius,
  };
}

const EMPTY_F = new Float64Array(0);
const EMPTY_I = new Int32Array(1);

/** A sphere of radius `radius` (metres) centred on the local origin. A circle in the plane z = 0 is the same shape. */
export function sphereShape(radius: number): Shape {
  requirePositive('radius', radius);
  return makeShape('sphere', CORE_POINT, radius, 0, 0, 0, 0, 0, new Float64Array(3), EMPTY_F, EMPTY_F, EMPTY_I, EMPTY_I, radius);
}

/** A capsule: the segment from (0,0,-halfHeight) to (0,0,+halfHeight) swept by a sphere of `radius`. */
export function capsuleShape(radius: number, halfHeight: number): Shape {
  requirePositive('radius', radius);
  requireNonNegative('halfHeight', halfHeight);
  return makeShape('capsule', CORE_SEGMENT, radius, 0, 0, 0, halfHeight, 0, new Float64Array([0, 0, -halfHeight, 0, 0, halfHeight]),
    EMPTY_F, EMPTY_F, EMPTY_I, EMPTY_I, radius + halfHeight);
}

/** An upright cylinder (axis local z) of `radius` and half height `halfHeight` (metres). */
export function cylinderShape(radius: number, halfHeight: number): Shape {
  requirePositive('radius', radius);
  requirePositive('halfHeight', halfHeight);
  return makeShape('cylinder', CORE_CYLINDER, 0, 0, 0, 0, halfHeight, radius, EMPTY_F, EMPTY_F, EMPTY_F, EMPTY_I, EMPTY_I,
    Math.sqrt(radius * radius + halfHeight * halfHeight));
}

// Box vertex i has coordinates (±hx, ±hy, ±hz) with bit 0 → x, bit 1 → y, bit 2 → z (bit set = +).
const BOX_FACES = [
  [0, 4, 6, 2], // -x
  [1, 3, 7, 5], // +x
  [0, 1, 5, 4], // -y
  [2, 6, 7, 3], // +y
  [0, 2, 3, 1], // -z
  [4, 5, 7, 6], // +z
];

/** An axis-aligned (in its local frame) box of half extents hx, hy, hz (metres, each > 0). */
export function boxShape(hx: number, hy: number, hz: number): Shape {
  requirePositive('hx', hx);
  requirePositive('hy', hy);
  requirePositive('hz', hz);
  const verts = new Float64Array(24);
  for (let i = 0; i < 8; i++) {
    verts[3 * i] = i & 1 ? hx : -hx;
    verts[3 * i + 1] = i & 2 ? hy : -hy;
    verts[3 * i + 2] = i & 4 ? hz : -hz;
  }
  const fn = new Float64Array(18), fo = new Float64Array(6);
  const h = [hx, hy, hz];
  for (let f = 0; f < 6; f++) {
    const axis = f >> 1, sign = f & 1 ? 1 : -1;
    fn[3 * f + axis] = sign;
    fo[f] = h[axis];
  }
  const fs = new Int32Array(7), fv = new Int32Array(24);
  for (let f = 0; f < 6; f++) {
    fs[f + 1] = 4 * (f + 1);
    for (let k = 0; k < 4; k++) fv[4 * f + k] = BOX_FACES[f][k];
  }
  return makeShape('box', CORE_BOX, 0, hx, hy, hz, 0, 0, verts, fn, fo, fs, fv, Math.sqrt(hx * hx + hy * hy + hz * hz));
}

/**
 * The convex hull of a point cloud (flat array x0,y0,z0,x1,...), with its faces.
 *
 * Construction (not per frame): an incremental hull gives the facet planes (see incrementalPlanes; brute-force
 * facet enumeration is the fallback for near-degenerate clouds). Coplanar facets are merged into one face whose
 * vertices are the 2D convex hull of the points on that plane, counter-clockwise seen from outside; the hull's
 * vertices are the corners of its faces. Interior points and points in the middle of edges or faces are dropped.
 * @throws DegenerateGeometryError for fewer than 4 points or all points coplanar (use a thin box or a 2D polygon)
 * @throws CapacityError for more than MAX_HULL_INPUT points or a hull with more than MAX_HULL_VERTICES vertices
 */
export function hullShape(points: ArrayLike<number>): Shape {
  if (points.length % 3 !== 0) throw new InvalidArgumentError('points', points.length, 'length must be a multiple of 3');
  const n = points.length / 3;
  if (n < 4) throw new DegenerateGeometryError('points', n, 'a hull needs at least 4 points');
  if (n > MAX_HULL_INPUT) throw new CapacityError('points', n, `at most ${MAX_HULL_INPUT} points`);
  const p = new Float64Array(points.length);
  let scale = 0;
  for (let i = 0; i < points.length; i++) {
    p[i] = requireFinite(`points[${i}]`, points[i]);
    scale = Math.max(scale, Math.abs(p[i]));
  }
  const eps = 1e-9 * Math.max(scale, 1e-12);
  // Facet planes: incremental hull (O(n²)), validated; the brute-force enumeration is the fallback for the rare
  // clouds where round-off breaks the incremental construction.
  let planes = incrementalPlanes(p, n, eps);
  if (planes === null) {
    if (n > MAX_HULL_VERTICES) throw new DegenerateGeometryError('points', n, 'hull construction failed (near-degenerate cloud); give fewer points');
    planes = bruteForcePlanes(p, n, eps, scale);
  }
  if (planes.length < 4) throw new DegenerateGeometryError('points', n, 'all points are coplanar');
  // Faces: 2D convex hull (Andrew's monotone chain) of the points on each plane, counter-clockwise about the normal.
  const faceLists: number[][] = [];
  const used = new Int32Array(n).fill(-1);
  const vertList: number[] = [];
  for (const [nx, ny, nz, o] of planes) {
    // Tangent basis (u, v) with u × v = n.
    const [ux, uy, uz] = Math.abs(nx) < 0.57 ? [0, -nz, ny] : Math.abs(ny) < 0.57 ? [nz, 0, -nx] : [-ny, nx, 0];
    const ul = Math.sqrt(ux * ux + uy * uy + uz * uz);
    const u = [ux / ul, uy / ul, uz / ul];
    const v = [ny * u[2] - nz * u[1], nz * u[0] - nx * u[2], nx * u[1] - ny * u[0]];
    const on: { i: number; x: number; y: number }[] = [];
    for (let m = 0; m < n; m++) {
      const s = nx * p[3 * m] + ny * p[3 * m + 1] + nz * p[3 * m + 2] - o;
      if (Math.abs(s) <= eps) on.push({ i: m, x: u[0] * p[3 * m] + u[1] * p[3 * m + 1] + u[2] * p[3 * m + 2], y: v[0] * p[3 * m] + v[1] * p[3 * m + 1] + v[2] * p[3 * m + 2] });
    }
    on.sort((a, b) => a.x - b.x || a.y - b.y);
    const cross = (o2: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }) => (a.x - o2.x) * (b.y - o2.y) - (a.y - o2.y) * (b.x - o2.x);
    const lower: typeof on = [], upper: typeof on = [];
    for (const q of on) { while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= eps * scale) lower.pop(); lower.push(q); }
    for (let m = on.length - 1; m >= 0; m--) { const q = on[m]; while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= eps * scale) upper.pop(); upper.push(q); }
    const ring = lower.slice(0, -1).concat(upper.slice(0, -1));
    const face: number[] = [];
    for (const q of ring) {
      if (used[q.i] < 0) { used[q.i] = vertList.length / 3; vertList.push(p[3 * q.i], p[3 * q.i + 1], p[3 * q.i + 2]); }
      face.push(used[q.i]);
    }
    faceLists.push(face);
  }
  if (vertList.length / 3 > MAX_HULL_VERTICES) throw new CapacityError('points', vertList.length / 3, `the hull has more than ${MAX_HULL_VERTICES} vertices`);
  const verts = new Float64Array(vertList);
  const nf = planes.length;
  const fn = new Float64Array(3 * nf), fo = new Float64Array(nf), fs = new Int32Array(nf + 1);
  let total = 0;
  for (let f = 0; f < nf; f++) total += faceLists[f].length;
  const fv = new Int32Array(total);
  let at = 0, br = 0;
  for (let f = 0; f < nf; f++) {
    fn[3 * f] = planes[f][0]; fn[3 * f + 1] = planes[f][1]; fn[3 * f + 2] = planes[f][2]; fo[f] = planes[f][3];
    fs[f] = at;
    for (const vi of faceLists[f]) fv[at++] = vi;
  }
  fs[nf] = at;
  for (let i = 0; i < verts.length; i += 3) br = Math.max(br, Math.sqrt(verts[i] * verts[i] + verts[i + 1] * verts[i + 1] + verts[i + 2] * verts[i + 2]));
  return makeShape('hull', CORE_HULL, 0, 0, 0, 0, 0, 0, verts, fn, fo, fs, fv, br);
}

/**
 * Facet planes of the hull by the incremental (beneath–beyond) construction (Clarkson & Shor 1989; Barber et al.
 * 1996 without the outside sets): start from a tetrahedron of extreme points, then for each further point remove the
 * triangles it sees and close the hole with a fan from the point to the horizon (the edges of the removed region
 * that are not shared by two removed triangles). Points on or inside the current hull (within eps) are skipped.
 * Coplanar triangles give one plane. Every plane is then checked to have all points on its inner side; any failure
 * (round-off on nearly degenerate clouds) returns null so the caller can fall back to brute force.
 */
function incrementalPlanes(p: Float64Array, n: number, eps: number): number[][] | null {
  const P = (i: number, c: number) => p[3 * i + c];
  // initial tetrahedron: extreme in x, farthest from it, farthest from that line, farthest from that plane
  let i0 = 0;
  for (let i = 1; i < n; i++) if (P(i, 0) < P(i0, 0)) i0 = i;
  let i1 = -1, best = -1;
  for (let i = 0; i < n; i++) {
    const qx = P(i, 0) - P(i0, 0), qy = P(i, 1) - P(i0, 1), qz = P(i, 2) - P(i0, 2);
    const d = qx * qx + qy * qy + qz * qz;
    if (d > best) { best = d; i1 = i; }
  }
  let i2 = -1; best = -1;
  const ex = P(i1, 0) - P(i0, 0), ey = P(i1, 1) - P(i0, 1), ez = P(i1, 2) - P(i0, 2);
  for (let i = 0; i < n; i++) {
    const qx = P(i, 0) - P(i0, 0), qy = P(i, 1) - P(i0, 1), qz = P(i, 2) - P(i0, 2);
    const cx = ey * qz - ez * qy, cy = ez * qx - ex * qz, cz = ex * qy - ey * qx;
    const d = cx * cx + cy * cy + cz * cz;
    if (d > best) { best = d; i2 = i; }
  }
  const fx = P(i2, 0) - P(i0, 0), fy = P(i2, 1) - P(i0, 1), fz = P(i2, 2) - P(i0, 2);
  let nx0 = ey * fz - ez * fy, ny0 = ez * fx - ex * fz, nz0 = ex * fy - ey * fx;
  const nl = Math.sqrt(nx0 * nx0 + ny0 * ny0 + nz0 * nz0);
  if (!(nl > 0)) return null;
  nx0 /= nl; ny0 /= nl; nz0 /= nl;
  let i3 = -1; best = -1;
  for (let i = 0; i < n; i++) { const d = Math.abs(nx0 * (P(i, 0) - P(i0, 0)) + ny0 * (P(i, 1) - P(i0, 1)) + nz0 * (P(i, 2) - P(i0, 2))); if (d > best) { best = d; i3 = i; } }
  if (!(best > eps)) return null; // (nearly) coplanar: the brute force decides and reports it
  // triangles as flat triples; outward = away from the tetrahedron's centroid
  const tri: number[] = [];
  const alive: boolean[] = [];
  const cx0 = (P(i0, 0) + P(i1, 0) + P(i2, 0) + P(i3, 0)) / 4, cy0 = (P(i0, 1) + P(i1, 1) + P(i2, 1) + P(i3, 1)) / 4, cz0 = (P(i0, 2) + P(i1, 2) + P(i2, 2) + P(i3, 2)) / 4;
  const plane = (a: number, b: number, c: number): number[] => {
    const ux = P(b, 0) - P(a, 0), uy = P(b, 1) - P(a, 1), uz = P(b, 2) - P(a, 2);
    const vx = P(c, 0) - P(a, 0), vy = P(c, 1) - P(a, 1), vz = P(c, 2) - P(a, 2);
    let x = uy * vz - uz * vy, y = uz * vx - ux * vz, z = ux * vy - uy * vx;
    const l = Math.sqrt(x * x + y * y + z * z);
    if (l > 0) { x /= l; y /= l; z /= l; }
    return [x, y, z, x * P(a, 0) + y * P(a, 1) + z * P(a, 2)];
  };
  const planesOf: number[][] = [];
  const addTri = (a: number, b: number, c: number) => {
    let q = plane(a, b, c);
    if (q[0] * cx0 + q[1] * cy0 + q[2] * cz0 - q[3] > 0) { const t = b; b = c; c = t; q = plane(a, b, c); }
    tri.push(a, b, c); alive.push(true); planesOf.push(q);
  };
  addTri(i0, i1, i2); addTri(i0, i1, i3); addTri(i0, i2, i3); addTri(i1, i2, i3);
  const edges: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i === i0 || i === i1 || i === i2 || i === i3) continue;
    edges.length = 0;
    let sees = false;
    for (let t = 0; t < alive.length; t++) {
      if (!alive[t]) continue;
      const q = planesOf[t];
      if (q[0] * P(i, 0) + q[1] * P(i, 1) + q[2] * P(i, 2) - q[3] <= eps) continue;
      sees = true;
      alive[t] = false;
      for (let k = 0; k < 3; k++) {
        const a = tri[3 * t + k], b = tri[3 * t + (k + 1) % 3];
        let found = -1;
        for (let m = 0; m < edges.length; m += 2) if (edges[m] === b && edges[m + 1] === a) { found = m; break; }
        if (found >= 0) edges.splice(found, 2); else edges.push(a, b);
      }
    }
    if (!sees) continue;
    for (let m = 0; m < edges.length; m += 2) {
      // the fan keeps the horizon edge's direction, so the new triangle is wound like the removed ones
      const a = edges[m], b = edges[m + 1];
      tri.push(a, b, i); alive.push(true); planesOf.push(plane(a, b, i));
    }
  }
  // distinct planes of the live triangles, each validated against every point
  const out: number[][] = [];
  for (let t = 0; t < alive.length; t++) {
    if (!alive[t]) continue;
    const q = planesOf[t];
    if (!(Math.abs(q[0]) + Math.abs(q[1]) + Math.abs(q[2]) > 0)) continue; // zero-area sliver
    let dup = false;
    for (const r of out) if (Math.abs(r[0] - q[0]) < 1e-9 && Math.abs(r[1] - q[1]) < 1e-9 && Math.abs(r[2] - q[2]) < 1e-9) { dup = true; break; }
    if (dup) continue;
    for (let m = 0; m < n; m++) if (q[0] * P(m, 0) + q[1] * P(m, 1) + q[2] * P(m, 2) - q[3] > 1e3 * eps) return null;
    out.push(q);
  }
  return out.length >= 4 ? out : null;
}

/** Facet planes by brute force: every plane through three points with all points on one side (O(n⁴)). */
function bruteForcePlanes(p: Float64Array, n: number, eps: number, scale: number): number[][] {
  const planes: number[][] = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) for (let k = j + 1; k < n; k++) {
    const ax = p[3 * j] - p[3 * i], ay = p[3 * j + 1] - p[3 * i + 1], az = p[3 * j + 2] - p[3 * i + 2];
    const bx = p[3 * k] - p[3 * i], by = p[3 * k + 1] - p[3 * i + 1], bz = p[3 * k + 2] - p[3 * i + 2];
    let nx = ay * bz - az * by, ny = az * bx - ax * bz, nz = ax * by - ay * bx;
    const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (len <= eps * scale) continue; // collinear triple
    nx /= len; ny /= len; nz /= len;
    const off = nx * p[3 * i] + ny * p[3 * i + 1] + nz * p[3 * i + 2];
    let above = 0, below = 0;
    for (let m = 0; m < n; m++) {
      const s = nx * p[3 * m] + ny * p[3 * m + 1] + nz * p[3 * m + 2] - off;
      if (s > eps) above++; else if (s < -eps) below++;
      if (above && below) break;
    }
    if (above && below) continue;
    if (!above && !below) throw new DegenerateGeometryError('points', n, 'all points are coplanar');
    if (above) { nx = -nx; ny = -ny; nz = -nz; }
    const o = above ? -off : off;
    let dup = false;
    for (const q of planes) if (Math.abs(q[0] - nx) < 1e-9 && Math.abs(q[1] - ny) < 1e-9 && Math.abs(q[2] - nz) < 1e-9) { dup = true; break; }
    if (!dup) planes.push([nx, ny, nz, o]);
  }
  return planes;
}

// ---------------------------------------------------------------------------------------------------------------
// Poses

/** Rigid pose: Float64Array(12) = [px, py, pz, r00, r01, r02, r10, r11, r12, r20, r21, r22] (R row-major). */
export type Pose = Float64Array;

/** A new identity pose at (x, y, z). */
export function createPose(x = 0, y = 0, z = 0): Pose {
  const p = new Float64Array(12);
  p[0] = x; p[1] = y; p[2] = z; p[3] = 1; p[7] = 1; p[11] = 1;
  return p;
}

/** Set a pose from a position and a quaternion (qx, qy, qz, qw), normalised here. Returns `out`. */
export function setPoseQuat(out: Pose, x: number, y: number, z: number, qx: number, qy: number, qz: number, qw: number): Pose {
  const l2 = qx * qx + qy * qy + qz * qz + qw * qw;
  if (!(l2 > 0) || !Number.isFinite(l2)) throw new InvalidArgumentError('quaternion', l2, 'must be finite and non-zero');
  if (!Number.isFinite(x + y + z)) throw new InvalidArgumentError('position', [x, y, z], 'must be finite');
  const s = 2 / l2;
  const xx = qx * qx * s, yy = qy * qy * s, zz = qz * qz * s;
  const xy = qx * qy * s, xz = qx * qz * s, yz = qy * qz * s;
  const wx = qw * qx * s, wy = qw * qy * s, wz = qw * qz * s;
  out[0] = x; out[1] = y; out[2] = z;
  out[3] = 1 - yy - zz; out[4] = xy - wz; out[5] = xz + wy;
  out[6] = xy + wz; out[7] = 1 - xx - zz; out[8] = yz - wx;
  out[9] = xz - wy; out[10] = yz + wx; out[11] = 1 - xx - yy;
  return out;
}

/** Set a pose to position (x, y, z) rotated by `angle` radians about the z axis (the 2D case). Returns `out`. */
export function setPoseAngle(out: Pose, x: number, y: number, z: number, angle: number): Pose {
  if (!Number.isFinite(x + y + z + angle)) throw new InvalidArgumentError('pose', [x, y, z, angle], 'must be finite');
  const cos = dcos(angle), sin = dsin(angle);
  out[0] = x; out[1] = y; out[2] = z;
  out[3] = cos; out[4] = -sin; out[5] = 0;
  out[6] = sin; out[7] = cos; out[8] = 0;
  out[9] = 0; out[10] = 0; out[11] = 1;
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Support functions (local frame). Each writes the farthest core point in direction d into out[o..o+2].

/** Farthest point of the shape's core along (dx, dy, dz) (need not be unit), written to out[o..o+2]. */
export function coreSupport(s: Shape, dx: number, dy: number, dz: number, out: Float64Array, o: number): void {
  _supDir[0] = dx; _supDir[1] = dy; _supDir[2] = dz;
  coreSupportAlong(s, _supDir, 0, out, o);
}

/** Farthest point of the whole shape (core swept by radius) along (dx, dy, dz). */
export function shapeSupport(s: Shape, dx: number, dy: number, dz: number, out: Float64Array, o: number): void {
  _supDir[0] = dx; _supDir[1] = dy; _supDir[2] = dz;
  shapeSupportAlong(s, _supDir, 0, out, o);
}
const _supDir = new Float64Array(3);

// The hot-path forms below take the direction from an array (d[i..i+2]) rather than as three numbers: V8 passes
// numbers to a call it does not inline as heap-allocated boxes, so the scalar form allocates ~50 bytes per call
// inside GJK/EPA loops (measured 2026-11-29: 390 bytes per box–box GJK query before, 0 after).

/** coreSupport with the direction in d[i..i+2]. */
export function coreSupportAlong(s: Shape, d: Float64Array, i: number, out: Float64Array, o: number): void {
  const dx = d[i], dy = d[i + 1], dz = d[i + 2];
  switch (s.core) {
    case CORE_POINT:
      out[o] = 0; out[o + 1] = 0; out[o + 2] = 0;
      return;
    case CORE_SEGMENT:
      out[o] = 0; out[o + 1] = 0; out[o + 2] = dz >= 0 ? s.halfHeight : -s.halfHeight;
      return;
    case CORE_BOX:
      out[o] = dx >= 0 ? s.hx : -s.hx;
      out[o + 1] = dy >= 0 ? s.hy : -s.hy;
      out[o + 2] = dz >= 0 ? s.hz : -s.hz;
      return;
    case CORE_CYLINDER: {
      const l = Math.sqrt(dx * dx + dy * dy);
      if (l > 1e-300) { const k = s.cylinderRadius / l; out[o] = dx * k; out[o + 1] = dy * k; } else { out[o] = 0; out[o + 1] = 0; }
      out[o + 2] = dz >= 0 ? s.halfHeight : -s.halfHeight;
      return;
    }
    default: {
      const v = s.verts;
      let best = 0, bd = v[0] * dx + v[1] * dy + v[2] * dz;
      for (let j = 3; j < v.length; j += 3) {
        const h = v[j] * dx + v[j + 1] * dy + v[j + 2] * dz;
        if (h > bd) { bd = h; best = j; }
      }
      out[o] = v[best]; out[o + 1] = v[best + 1]; out[o + 2] = v[best + 2];
    }
  }
}

/** shapeSupport with the direction in d[i..i+2]. */
export function shapeSupportAlong(s: Shape, d: Float64Array, i: number, out: Float64Array, o: number): void {
  coreSupportAlong(s, d, i, out, o);
  const r = s.radius;
  if (r > 0) {
    const dx = d[i], dy = d[i + 1], dz = d[i + 2];
    const l = Math.sqrt(dx * dx + dy * dy + dz * dz);
    if (l > 1e-300) {
      const k = r / l;
      out[o] += dx * k; out[o + 1] += dy * k; out[o + 2] += dz * k;
    }
  }
}

/** Support value max over the core of d·x (d in the local frame). */
export function coreSupportValue(s: Shape, dx: number, dy: number, dz: number): number {
  switch (s.core) {
    case CORE_POINT: return 0;
    case CORE_SEGMENT: return Math.abs(dz) * s.halfHeight;
    case CORE_BOX: return Math.abs(dx) * s.hx + Math.abs(dy) * s.hy + Math.abs(dz) * s.hz;
    case CORE_CYLINDER: return Math.sqrt(dx * dx + dy * dy) * s.cylinderRadius + Math.abs(dz) * s.halfHeight;
    default: {
      const v = s.verts;
      let bd = -Infinity;
      for (let i = 0; i < v.length; i += 3) {
        const d = v[i] * dx + v[i + 1] * dy + v[i + 2] * dz;
        if (d > bd) bd = d;
      }
      return bd;
    }
  }
}

/**
 * Where the line x = (ox, oy, oz) + t·(dx, dy, dz) (d unit, local frame) leaves the shape's core: the largest t with
 * x inside. Polytopes: the smallest exit parameter over the faces facing along d (Cyrus–Beck). Cylinder: exit of
 * the infinite cylinder and of the cap slab. Outside the core's shadow the value continues the surface (the
 * planes facing d are extended), so lines grazing an edge are not lost; -Infinity only when no boundary faces d.
 */
export function coreExit(s: Shape, ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): number {
  const e = _exitArgs;
  e[0] = ox; e[1] = oy; e[2] = oz; e[3] = dx; e[4] = dy; e[5] = dz;
  coreExitAlong(s, e);
  return e[6];
}
const _exitArgs = new Float64Array(7);

/** coreExit with the line in e = [o (3), d (3)] and the result written to e[6] (no number crosses the call). */
export function coreExitAlong(s: Shape, e: Float64Array): void {
  const ox = e[0], oy = e[1], oz = e[2], dx = e[3], dy = e[4], dz = e[5];
  // Only the exit matters here, and the callers' points lie inside the core's projection up to round-off, so a line
  // grazing the boundary must not be rejected: each case returns the exit through the boundary parts facing d,
  // which continues the true surface height continuously just outside the projection.
  if (s.core === CORE_CYLINDER) {
    const h = s.halfHeight;
    let tExit = Infinity;
    if (dz > 1e-15) tExit = (h - oz) / dz; else if (dz < -1e-15) tExit = (-h - oz) / dz;
    // |o_xy + t d_xy|² ≤ r²: a t² + 2 b t + c ≤ 0, exit at the larger root (skipped if the line misses the side)
    const a = dx * dx + dy * dy, b = ox * dx + oy * dy, c = ox * ox + oy * oy - s.cylinderRadius * s.cylinderRadius;
    if (a > 1e-15) {
      const disc = b * b - a * c;
      if (disc >= 0) { const t = (-b + Math.sqrt(disc)) / a; if (t < tExit) tExit = t; }
    }
    e[6] = tExit === Infinity ? -Infinity : tExit;
    return;
  }
  let tExit = Infinity;
  if (s.core === CORE_BOX) {
    if (dx > 1e-15) tExit = Math.min(tExit, (s.hx - ox) / dx); else if (dx < -1e-15) tExit = Math.min(tExit, (-s.hx - ox) / dx);
    if (dy > 1e-15) tExit = Math.min(tExit, (s.hy - oy) / dy); else if (dy < -1e-15) tExit = Math.min(tExit, (-s.hy - oy) / dy);
    if (dz > 1e-15) tExit = Math.min(tExit, (s.hz - oz) / dz); else if (dz < -1e-15) tExit = Math.min(tExit, (-s.hz - oz) / dz);
  } else if (s.core === CORE_HULL) {
    const fn = s.faceNormals, fo = s.faceOffsets;
    for (let f = 0; f < s.faceCount; f++) {
      const nx = fn[3 * f], ny = fn[3 * f + 1], nz = fn[3 * f + 2];
      const den = nx * dx + ny * dy + nz * dz;
      if (den > 1e-15) { const t = (fo[f] - (nx * ox + ny * oy + nz * oz)) / den; if (t < tExit) tExit = t; }
    }
  }
  e[6] = tExit === Infinity ? -Infinity : tExit; // point and segment cores are handled by their features (manifold.ts)
}
