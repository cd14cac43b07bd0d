/**
 * Contact manifolds for two convex shapes in 3D: the contact normal, the penetration depth and up to four contact
 * points covering the whole contact region, each with its own depth and a feature id stable across frames.
 *
 * Pipeline (all in A's local frame, see pair.ts):
 *  1. Normal and depth. Analytic for sphere–sphere, sphere–box and capsule–capsule; otherwise GJK on the cores:
 *     separated cores give n = direction between the closest points and depth = r_A + r_B − distance (exact for
 *     round shapes); overlapping cores fall back to EPA on the whole shapes.
 *  2. Contact plane: through A's deepest support point p_A, normal n (from A to B). The contact slab is the layer
 *     between A's support plane (n·x = s_A) and B's (n·x = s_B), widened by `tolerance` on both sides.
 *  3. Features: for boxes the face most aligned with the normal (among the faces around the support vertex, as in
 *     Box2D and Rapier); for capsules and cylinders the core vertices lying in the slab (an end or the whole
 *     segment; a polygonal cap, a side segment or a point); projected to 2D on the plane and wound
 *     counter-clockwise (a 2D convex hull, which also handles degenerate projections).
 *  4. Clipping: the feature with more vertices is the reference; the other (incident) one is clipped against the
 *     reference's edges (Sutherland & Hodgman 1974). Two segments are clipped to each other's extent when parallel
 *     and intersected otherwise. Each resulting vertex is a vertex of A, a vertex of B or a crossing of an A edge and
 *     a B edge: that is its feature id. When a hull is involved, steps 3–4 are replaced by the exact region (the
 *     shadow of A ∩ B, see exactRegion), since one face pair of a finely faceted hull misses part of the region.
 *  5. Depths: at each 2D point q the line through q along n leaves A at height h_A(q) and enters B at h_B(q)
 *     (exact ray casts against the cores, or the feature's own height for point and segment cores, plus radii);
 *     depth = h_A − h_B. Points with depth < −margin are dropped; the point is reported midway between surfaces.
 *  6. Reduction to ≤ 4 points: the deepest, the farthest from it, the one making the largest triangle with those two,
 *     and the one adding the most area outside that triangle (the area-maximising heuristic of Box2D v3 and Bullet's
 *     btPersistentManifold, here in 2D plane coordinates).
 *
 * Nothing is allocated per call: all scratch arrays are module-scope and the caller owns the output.
 */
import { InvalidArgumentError } from '../core/errors';
import { dcos, dsin } from '../core/dmath';
import { requireNonNegative } from '../core/validate';
import { gjkLocal, gjkState, GJK_MAX_ITERATIONS } from './gjk';
import type { GjkCache } from './gjk';
import { epaLocal, epaState, EPA_MAX_ITERATIONS } from './epa';
import { _pairRel, relativePose, pointToWorldFrom } from './pair';
import { CORE_BOX, CORE_CYLINDER, CORE_HULL, CORE_POINT, CORE_SEGMENT, CYLINDER_CAP_SEGMENTS, coreExitAlong } from './shapes';
import type { Pose, Shape } from './shapes';

/** Largest number of contact points in a manifold. */
export const MAX_MANIFOLD_POINTS = 4;

/** What contactManifold reads. Reuse one object; change fields in place. */
export interface ManifoldInput {
  shapeA: Shape;
  poseA: Pose;
  shapeB: Shape;
  poseB: Pose;
  /** Report pairs up to this separation (metres) as speculative contacts with negative depth. @default 0 */
  margin: number;
  /**
   * Thickness (metres) added on both sides of the contact slab when picking the features of capsules and cylinders
   * (a capsule lying within `tolerance` of parallel to the plane touches along a segment). @default 0.005
   */
  tolerance: number;
  /**
   * Use the analytic paths where they exist (sphere–sphere, sphere–box, capsule–capsule, box–box SAT). false forces
   * GJK/EPA for every pair (for comparison and benchmarks). @default true
   */
  fastPaths?: boolean;
}

/** What contactManifold writes; create once with createManifold and reuse (caller-owned). */
export interface Manifold {
  /** Number of contact points, 0–4. 0 means separated by more than `margin` (normal and depth are then zeroed). */
  count: number;
  /** Unit contact normal, world frame, pointing from A towards B. */
  readonly normal: Float64Array;
  /** Penetration depth along the normal (metres); negative = separation (within margin). */
  depth: number;
  /** Contact points xyz (world), midway between the two surfaces. */
  readonly points: Float64Array;
  /** Depth of each point (metres, positive = overlap). */
  readonly depths: Float64Array;
  /** Feature id of each point (an integer < 2^53), stable while the same features touch. */
  readonly ids: Float64Array;
  /** GJK and EPA iterations used (0 on analytic paths). */
  gjkIterations: number;
  epaIterations: number;
}

export function createManifold(): Manifold {
  return {
    count: 0, normal: new Float64Array(3), depth: 0, points: new Float64Array(3 * MAX_MANIFOLD_POINTS),
    depths: new Float64Array(MAX_MANIFOLD_POINTS), ids: new Float64Array(MAX_MANIFOLD_POINTS), gjkIterations: 0, epaIterations: 0,
  };
}

export function createManifoldInput(shapeA: Shape, poseA: Pose, shapeB: Shape, poseB: Pose, margin = 0, tolerance = 0.005): ManifoldInput {
  return { shapeA, poseA, shapeB, poseB, margin, tolerance };
}

// ---- feature ids: type in the top bits, then up to four 12-bit vertex ids ----
const ID_VERTEX_A = 1, ID_VERTEX_B = 2, ID_EDGES = 3, ID_FALLBACK = 4, ID_REGION = 5;
const K = 4096;
// (The ids are written into their arrays rather than returned: they exceed the small-integer range, so a returned
// id would be a heap number whenever V8 does not inline the call.)
function setVertexId(out: Float64Array, i: number, type: number, v: number): void { out[i] = type * K * K * K * K + v; }
function setEdgePairId(out: Float64Array, i: number, a0: number, a1: number, b0: number, b1: number): void {
  const amin = a0 < a1 ? a0 : a1, amax = a0 < a1 ? a1 : a0, bmin = b0 < b1 ? b0 : b1, bmax = b0 < b1 ? b1 : b0;
  out[i] = (((ID_EDGES * K + amin) * K + amax) * K + bmin) * K + bmax;
}

// ---- scratch ----
const MAXP = 72; // feature points per shape (hull ≤ 64, cylinder cap 12)
const MAXC = 2 * MAXP + 8;
const _fAu = new Float64Array(MAXP), _fAv = new Float64Array(MAXP), _fAh = new Float64Array(MAXP), _fAid = new Int32Array(MAXP);
const _fBu = new Float64Array(MAXP), _fBv = new Float64Array(MAXP), _fBh = new Float64Array(MAXP), _fBid = new Int32Array(MAXP);
let nFA = 0, nFB = 0;
const _hullIdx = new Int32Array(MAXP + 1), _hullOut = new Int32Array(2 * MAXP + 2);
const _tmpU = new Float64Array(MAXP), _tmpV = new Float64Array(MAXP), _tmpH = new Float64Array(MAXP), _tmpId = new Int32Array(MAXP);
// clip polygons: u, v, id, tag of the outgoing edge (two vertex ids of the edge + which shape)
const _c1u = new Float64Array(MAXC), _c1v = new Float64Array(MAXC), _c1id = new Float64Array(MAXC), _c1e0 = new Int32Array(MAXC), _c1e1 = new Int32Array(MAXC), _c1es = new Int8Array(MAXC);
const _c2u = new Float64Array(MAXC), _c2v = new Float64Array(MAXC), _c2id = new Float64Array(MAXC), _c2e0 = new Int32Array(MAXC), _c2e1 = new Int32Array(MAXC), _c2es = new Int8Array(MAXC);
let nClip = 0;
// candidate contacts before reduction
const _ku = new Float64Array(MAXC), _kv = new Float64Array(MAXC), _kd = new Float64Array(MAXC), _kh = new Float64Array(MAXC), _kid = new Float64Array(MAXC);
const _keep = new Int32Array(4);

// contact frame in A's local coordinates
// (Module state that changes per call lives in Float64Arrays, not in module-level `let` numbers: V8 keeps a module
// `let` in a context slot, where every store of a non-integer allocates a fresh heap number — ~16 bytes a store,
// hundreds of bytes per manifold before 2026-11-29.)
// _fr = [n (3), e1 (3), e2 (3), o (3)]
const _fr = new Float64Array(12);
// scalars passed between functions: [margin, slab, face offset h, clip tolerance per unit length, height on A,
// height on B, round-feature height, hull2d tolerance]
const _sc = new Float64Array(8);

/** Orthonormal basis (e1, e2, n) with e1 × e2 = n for n = _con[0..2] (Frisvad-style branch on the smallest component). */
function setBasis(): void {
  const nx = _con[0], ny = _con[1], nz = _con[2];
  _fr[0] = nx; _fr[1] = ny; _fr[2] = nz;
  let ux: number, uy: number, uz: number;
  if (Math.abs(nx) < 0.57) { ux = 0; uy = -nz; uz = ny; } else if (Math.abs(ny) < 0.57) { ux = nz; uy = 0; uz = -nx; } else { ux = -ny; uy = nx; uz = 0; }
  const l = Math.sqrt(ux * ux + uy * uy + uz * uz);
  _fr[3] = ux / l; _fr[4] = uy / l; _fr[5] = uz / l;
  _fr[6] = _fr[1] * _fr[5] - _fr[2] * _fr[4]; _fr[7] = _fr[2] * _fr[3] - _fr[0] * _fr[5]; _fr[8] = _fr[0] * _fr[4] - _fr[1] * _fr[3];
}

// ---------------------------------------------------------------------------------------------------------------
// Features

/**
 * The contact feature of shape s along sign·n (pose rel in A's frame, or identity when rel is null), projected to
 * (u, v, h) in the contact frame: for capsules and cylinders the core points whose height lies within `slab` (_sc[1]) of
 * the core's support value, for polytopes a face (see below). Returns the count and fills the given arrays.
 */
function collectFeature(s: Shape, rel: Float64Array | null, sign: number,
  fu: Float64Array, fv: Float64Array, fh: Float64Array, fid: Int32Array): number {
  const slab = _sc[1];
  // direction sign·n in the shape's local frame
  let dx = sign * _fr[0], dy = sign * _fr[1], dz = sign * _fr[2];
  if (rel) {
    const x = dx, y = dy, z = dz;
    dx = rel[3] * x + rel[6] * y + rel[9] * z; dy = rel[4] * x + rel[7] * y + rel[10] * z; dz = rel[5] * x + rel[8] * y + rel[11] * z;
  }
  let n = 0;
  if (s.core === CORE_CYLINDER) {
    const r = s.cylinderRadius, hh = s.halfHeight;
    const lxy = Math.sqrt(dx * dx + dy * dy);
    const top = dz >= 0 ? 1 : -1;
    const capZ = top * hh;
    if (2 * r * lxy <= slab) {
      // the cap facing d lies in the slab: a regular polygon inscribed in the cap circle
      for (let k = 0; k < CYLINDER_CAP_SEGMENTS; k++) {
        _pt[0] = r * CAP_COS[k]; _pt[1] = r * CAP_SIN[k]; _pt[2] = capZ; n = pushLocal(rel, (top > 0 ? 0 : CYLINDER_CAP_SEGMENTS) + k, n, fu, fv, fh, fid);
      }
      return n;
    }
    const rx = lxy > 0 ? (r * dx) / lxy : r, ry = lxy > 0 ? (r * dy) / lxy : 0;
    if (2 * hh * Math.abs(dz) <= slab) {
      // side line parallel to the plane
      _pt[0] = rx; _pt[1] = ry; _pt[2] = hh; n = pushLocal(rel, 2 * CYLINDER_CAP_SEGMENTS, n, fu, fv, fh, fid);
      _pt[0] = rx; _pt[1] = ry; _pt[2] = -hh; n = pushLocal(rel, 2 * CYLINDER_CAP_SEGMENTS + 1, n, fu, fv, fh, fid);
      return n;
    }
    _pt[0] = rx; _pt[1] = ry; _pt[2] = capZ; return pushLocal(rel, 2 * CYLINDER_CAP_SEGMENTS + (top > 0 ? 2 : 3), n, fu, fv, fh, fid);
  }
  if (s.core === CORE_POINT) { _pt[0] = 0; _pt[1] = 0; _pt[2] = 0; return pushLocal(rel, 0, 0, fu, fv, fh, fid); }
  if (s.core === CORE_SEGMENT) {
    // capsule axis: the end(s) within the slab of the support value
    const hh = s.halfHeight, top = dz >= 0 ? 1 : -1;
    if (2 * hh * Math.abs(dz) <= slab) {
      _pt[0] = 0; _pt[1] = 0; _pt[2] = -hh; n = pushLocal(rel, 0, n, fu, fv, fh, fid);
      _pt[0] = 0; _pt[1] = 0; _pt[2] = hh; return pushLocal(rel, 1, n, fu, fv, fh, fid);
    }
    _pt[0] = 0; _pt[1] = 0; _pt[2] = top * hh; return pushLocal(rel, top > 0 ? 1 : 0, n, fu, fv, fh, fid);
  }
  if (s.core === CORE_BOX) {
    // Box: the face most aligned with d is the one on the axis of d's largest component (it always contains the
    // support vertex), listed directly; same answer as the general polytope search below, without the scans.
    const ax = Math.abs(dx), ay = Math.abs(dy), az = Math.abs(dz);
    const axis = ax >= ay && ax >= az ? 0 : ay >= az ? 1 : 2;
    const positive = (axis === 0 ? dx : axis === 1 ? dy : dz) >= 0;
    const f = 2 * axis + (positive ? 1 : 0);
    lastBoxFace = f;
    // vertex i of a box is (±hx, ±hy, ±hz) by its bits (see boxShape): no lookups in the shape's arrays
    const hx = s.hx, hy = s.hy, hz = s.hz;
    for (let k = 0; k < 4; k++) {
      const i = BOX_FACE_VERTS[4 * f + k];
      _pt[0] = i & 1 ? hx : -hx; _pt[1] = i & 2 ? hy : -hy; _pt[2] = i & 4 ? hz : -hz; n = pushLocal(rel, i, n, fu, fv, fh, fid);
    }
    return n;
  }
  // Polytopes: the face most aligned with d among the faces around the support vertex (the support vertex's
  // normal cone contains d, so one of its faces is the reference candidate; a globally best-aligned face elsewhere
  // could miss the deepest point). Points of that face that end up apart are dropped later by their depth.
  const v = s.verts;
  let best = -Infinity, bv = 0;
  for (let i = 0, k = 0; i < v.length; i += 3, k++) { const h = v[i] * dx + v[i + 1] * dy + v[i + 2] * dz; if (h > best) { best = h; bv = k; } }
  const fnm = s.faceNormals;
  let bf = -1, bd = -Infinity;
  for (let k = s.vertFaceStart[bv]; k < s.vertFaceStart[bv + 1]; k++) {
    const f = s.vertFaces[k];
    const d = fnm[3 * f] * dx + fnm[3 * f + 1] * dy + fnm[3 * f + 2] * dz;
    if (d > bd) { bd = d; bf = f; }
  }
  if (bf < 0) { _pt[0] = v[3 * bv]; _pt[1] = v[3 * bv + 1]; _pt[2] = v[3 * bv + 2]; return pushLocal(rel, bv, n, fu, fv, fh, fid); }
  for (let k = s.faceStart[bf]; k < s.faceStart[bf + 1] && n < MAXP; k++) {
    const i = s.faceVerts[k];
    _pt[0] = v[3 * i]; _pt[1] = v[3 * i + 1]; _pt[2] = v[3 * i + 2]; n = pushLocal(rel, i, n, fu, fv, fh, fid);
  }
  return n;
}
// the face lists of boxShape (-x, +x, -y, +y, -z, +z), counter-clockwise seen from outside
const BOX_FACE_VERTS = new Int32Array([0, 4, 6, 2, 1, 3, 7, 5, 0, 1, 5, 4, 2, 6, 7, 3, 0, 2, 3, 1, 4, 5, 7, 6]);
const CAP_COS = new Float64Array(CYLINDER_CAP_SEGMENTS), CAP_SIN = new Float64Array(CYLINDER_CAP_SEGMENTS);
for (let k = 0; k < CYLINDER_CAP_SEGMENTS; k++) {
  // fixed table, computed once at load with the deterministic trig (same bits on every platform)
  CAP_COS[k] = dcos((2 * Math.PI * k) / CYLINDER_CAP_SEGMENTS);
  CAP_SIN[k] = dsin((2 * Math.PI * k) / CYLINDER_CAP_SEGMENTS);
}

/** Transform the local point _pt of a shape (pose rel in A's frame, or identity) into A's frame, project it to the contact frame and append it. */
function pushLocal(rel: Float64Array | null, id: number, n: number, fu: Float64Array, fv: Float64Array, fh: Float64Array, fid: Int32Array): number {
  const x = _pt[0], y = _pt[1], z = _pt[2];
  let ax = x, ay = y, az = z;
  if (rel) {
    ax = rel[3] * x + rel[4] * y + rel[5] * z + rel[0];
    ay = rel[6] * x + rel[7] * y + rel[8] * z + rel[1];
    az = rel[9] * x + rel[10] * y + rel[11] * z + rel[2];
  }
  const px = ax - _fr[9], py = ay - _fr[10], pz = az - _fr[11];
  fu[n] = px * _fr[3] + py * _fr[4] + pz * _fr[5];
  fv[n] = px * _fr[6] + py * _fr[7] + pz * _fr[8];
  fh[n] = px * _fr[0] + py * _fr[1] + pz * _fr[2];
  fid[n] = id;
  return n + 1;
}

/**
 * Replace a feature's points by their 2D convex hull, counter-clockwise (Andrew's monotone chain; insertion sort
 * since n is small). Collinear and duplicate points are dropped, so a segment comes back as its two ends.
 */
function hull2d(fu: Float64Array, fv: Float64Array, fh: Float64Array, fid: Int32Array, n: number): number {
  const eps = _sc[7];
  if (n <= 1) return n;
  // sort indices by (u, v)
  for (let i = 0; i < n; i++) _hullIdx[i] = i;
  for (let i = 1; i < n; i++) {
    const k = _hullIdx[i];
    let j = i - 1;
    while (j >= 0 && (fu[_hullIdx[j]] > fu[k] || (fu[_hullIdx[j]] === fu[k] && fv[_hullIdx[j]] > fv[k]))) { _hullIdx[j + 1] = _hullIdx[j]; j--; }
    _hullIdx[j + 1] = k;
  }
  const out = _hullOut; // chain (indices)
  let m = 0;
  // lower hull
  for (let i = 0; i < n; i++) {
    const k = _hullIdx[i];
    while (m >= 2 && cross2(fu, fv, out[m - 2], out[m - 1], k) <= eps) m--;
    out[m++] = k;
  }
  // upper hull
  const lowerEnd = m + 1;
  for (let i = n - 2; i >= 0; i--) {
    const k = _hullIdx[i];
    while (m >= lowerEnd && cross2(fu, fv, out[m - 2], out[m - 1], k) <= eps) m--;
    out[m++] = k;
  }
  m--; // last equals first
  if (m < 1) m = 1;
  // all points (nearly) coincident: keep one; a segment: its two ends
  if (m === 2) {
    const a = out[0], b = out[1];
    const du = fu[a] - fu[b], dv = fv[a] - fv[b];
    if (du * du + dv * dv <= eps) m = 1;
  }
  for (let i = 0; i < m; i++) { const k = out[i]; _tmpU[i] = fu[k]; _tmpV[i] = fv[k]; _tmpH[i] = fh[k]; _tmpId[i] = fid[k]; }
  for (let i = 0; i < m; i++) { fu[i] = _tmpU[i]; fv[i] = _tmpV[i]; fh[i] = _tmpH[i]; fid[i] = _tmpId[i]; }
  return m;
}
function reverseFeature(fu: Float64Array, fv: Float64Array, fh: Float64Array, fid: Int32Array, n: number): void {
  for (let i = 0, j = n - 1; i < j; i++, j--) {
    let t = fu[i]; fu[i] = fu[j]; fu[j] = t;
    t = fv[i]; fv[i] = fv[j]; fv[j] = t;
    t = fh[i]; fh[i] = fh[j]; fh[j] = t;
    const k = fid[i]; fid[i] = fid[j]; fid[j] = k;
  }
}
function cross2(u: Float64Array, v: Float64Array, o: number, a: number, b: number): number {
  return (u[a] - u[o]) * (v[b] - v[o]) - (v[a] - v[o]) * (u[b] - u[o]);
}

// ---------------------------------------------------------------------------------------------------------------
// Clipping with feature tracking

/** Load the incident feature into clip buffer 1. side 0 = A, 1 = B. */
function loadIncident(fu: Float64Array, fv: Float64Array, fid: Int32Array, n: number, side: number): void {
  for (let i = 0; i < n; i++) {
    _c1u[i] = fu[i]; _c1v[i] = fv[i];
    setVertexId(_c1id, i, side === 0 ? ID_VERTEX_A : ID_VERTEX_B, fid[i]);
    _c1e0[i] = fid[i]; _c1e1[i] = fid[(i + 1) % n]; _c1es[i] = side;
  }
  nClip = n;
}

/**
 * Clip buffer 1 by the half-plane left of the reference edge from (ru, rv)[ei] to (ru, rv)[ej] (reference vertex ids ra → rb,
 * reference side refSide). A crossing of an incident edge gets an edge–edge id; a crossing of an edge created by an
 * earlier clip (it runs along reference edge p→ra) is the reference vertex ra itself.
 */
function clipHalfPlane(ru: Float64Array, rv: Float64Array, ei: number, ej: number, ra: number, rb: number, refSide: number): void {
  const n = nClip;
  if (n === 0) return;
  const au = ru[ei], av = rv[ei], bu = ru[ej], bv = rv[ej];
  const eu = bu - au, ev = bv - av;
  const eps = _sc[3] * Math.sqrt(eu * eu + ev * ev); // ceps × edge length
  const tu = bu - au, tv = bv - av;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const j = i === 0 ? n - 1 : i - 1; // previous
    const dj = tu * (_c1v[j] - av) - tv * (_c1u[j] - au); // > 0 inside (left)
    const di = tu * (_c1v[i] - av) - tv * (_c1u[i] - au);
    const inJ = dj >= -eps, inI = di >= -eps;
    if (inI !== inJ && n > 1) {
      // crossing of edge j → i
      const t = dj / (dj - di);
      _c2u[m] = _c1u[j] + t * (_c1u[i] - _c1u[j]);
      _c2v[m] = _c1v[j] + t * (_c1v[i] - _c1v[j]);
      if (_c1es[j] === refSide) {
        // edge j lies along an earlier reference edge ending at ra or starting at rb: the crossing is that shared vertex
        const shared = _c1e1[j] === ra || _c1e0[j] === ra ? ra : rb;
        setVertexId(_c2id, m, refSide === 0 ? ID_VERTEX_A : ID_VERTEX_B, shared);
      } else if (refSide === 0) {
        setEdgePairId(_c2id, m, ra, rb, _c1e0[j], _c1e1[j]);
      } else {
        setEdgePairId(_c2id, m, _c1e0[j], _c1e1[j], ra, rb);
      }
      if (inI) { _c2e0[m] = _c1e0[j]; _c2e1[m] = _c1e1[j]; _c2es[m] = _c1es[j]; } // entering: continue along the same edge
      else { _c2e0[m] = ra; _c2e1[m] = rb; _c2es[m] = refSide; } // leaving: continue along the reference edge
      m++;
    }
    if (inI) {
      _c2u[m] = _c1u[i]; _c2v[m] = _c1v[i]; _c2id[m] = _c1id[i];
      _c2e0[m] = _c1e0[i]; _c2e1[m] = _c1e1[i]; _c2es[m] = _c1es[i];
      m++;
    }
  }
  for (let i = 0; i < m; i++) {
    _c1u[i] = _c2u[i]; _c1v[i] = _c2v[i]; _c1id[i] = _c2id[i]; _c1e0[i] = _c2e0[i]; _c1e1[i] = _c2e1[i]; _c1es[i] = _c2es[i];
  }
  nClip = m;
}

// ---------------------------------------------------------------------------------------------------------------
// Exact contact region of two polytopes (used when a hull is involved)
//
// Along the line q + t·n through a plane point q = o + u e1 + v e2, a polytope occupies [max over its faces facing
// away from n of t_f, min over its faces facing along n of t_f], where face f (outward normal m, offset c: m·x ≤ c)
// is crossed at t_f = (c − m·q)/(m·n). The two shapes overlap on that line iff every "up" face bound (m·n ≥ 0) of
// either shape lies above every "down" face bound (m·n < 0) of either shape, so the contact region — the shadow of
// A ∩ B on the plane — is the intersection of one half-plane per (up, down) face pair. Multiplying
// t_U ≥ t_D by (m_U·n)(−m_D·n) ≥ 0 removes the divisions, and a vertical face (m_U·n = 0) correctly turns into
// "q lies on the inner side of the face":
//   (−m_D·n)(c_U − m_U·q) + (m_U·n)(c_D − m_D·q) ≥ 0.
// The polygon starts as a square around the deepest point and is clipped by every pair (Sutherland–Hodgman);
// each vertex is the crossing of two constraint lines, whose pair of ids makes the feature id. For box–box pairs
// the face-pair clipping above is used instead (it is exact for boxes to Rapier's tolerance and ~10× cheaper).

const MAXFACES = 2 * 128;
const _pmn = new Float64Array(MAXFACES), _pc = new Float64Array(MAXFACES), _pa = new Float64Array(MAXFACES), _pb = new Float64Array(MAXFACES);
const _pid = new Int32Array(MAXFACES);

/** Face constraints of s (pose rel in A's frame, or identity) relative to the contact frame; returns new count. */
function loadFaces(s: Shape, rel: Float64Array | null, idBase: number, n: number): number {
  const fnm = s.faceNormals, fo = s.faceOffsets;
  for (let f = 0; f < s.faceCount && n < MAXFACES; f++) {
    let mx = fnm[3 * f], my = fnm[3 * f + 1], mz = fnm[3 * f + 2], c = fo[f];
    if (rel) {
      const x = mx, y = my, z = mz;
      mx = rel[3] * x + rel[4] * y + rel[5] * z; my = rel[6] * x + rel[7] * y + rel[8] * z; mz = rel[9] * x + rel[10] * y + rel[11] * z;
      c += mx * rel[0] + my * rel[1] + mz * rel[2];
    }
    // m·q = m·o + u (m·e1) + v (m·e2)
    _pmn[n] = mx * _fr[0] + my * _fr[1] + mz * _fr[2];
    _pc[n] = c - (mx * _fr[9] + my * _fr[10] + mz * _fr[11]);
    _pa[n] = mx * _fr[3] + my * _fr[4] + mz * _fr[5];
    _pb[n] = mx * _fr[6] + my * _fr[7] + mz * _fr[8];
    _pid[n] = idBase + f;
    n++;
  }
  return n;
}

/** Contact region of two polytopes into the candidate arrays; returns the number of vertices. */
function exactRegion(a: Shape, b: Shape, rel: Float64Array): number {
  const margin = _sc[0], scale = a.boundingRadius + b.boundingRadius;
  let nf = loadFaces(a, null, 0, 0);
  nf = loadFaces(b, rel, 128, nf);
  // start: a square of half size 2·scale around the deepest point (the region cannot be larger)
  const h = 2 * scale;
  _c1u[0] = -h; _c1v[0] = -h; _c1u[1] = h; _c1v[1] = -h; _c1u[2] = h; _c1v[2] = h; _c1u[3] = -h; _c1v[3] = h;
  for (let i = 0; i < 4; i++) { _c1e0[i] = 65532 + i; _c1id[i] = 0; }
  nClip = 4;
  const eps = 1e-12 * scale;
  for (let i = 0; i < nf && nClip > 0; i++) {
    const mu = _pmn[i];
    if (mu < 0) continue; // i runs over up faces
    for (let j = 0; j < nf && nClip > 0; j++) {
      const md = _pmn[j];
      if (md >= 0) continue; // j over down faces
      if (_pid[i] < 128 && _pid[j] < 128 && mu === 0) continue; // A's own vertical faces are implied by A's pairs below
      // k0 + ku u + kv v ≥ 0 (plus the margin: overlap may fall short by `margin` along n, scaled like t)
      const k0 = -md * _pc[i] + mu * _pc[j] + margin * (-md) * mu;
      const ku = md * _pa[i] - mu * _pa[j];
      const kv = md * _pb[i] - mu * _pb[j];
      const l = Math.sqrt(ku * ku + kv * kv);
      if (l <= 1e-15) {
        if (k0 < -eps * (-md)) { nClip = 0; break; } // parallel planes, no overlap anywhere
        continue;
      }
      _lin[0] = k0 / l; _lin[1] = ku / l; _lin[2] = kv / l; _lin[3] = eps;
      clipLinear(_pid[i] * 256 + _pid[j]);
    }
  }
  return nClip;
}

/** Append the vertices of s whose projection lies strictly inside the region polygon (clip buffer 1). */
function addInsideVertices(s: Shape, rel: Float64Array | null, type: number, nk: number): number {
  const v = s.verts, n = nClip;
  for (let i = 0, k = 0; i < v.length && nk < MAXC; i += 3, k++) {
    let x = v[i], y = v[i + 1], z = v[i + 2];
    if (rel) {
      const x0 = x, y0 = y, z0 = z;
      x = rel[3] * x0 + rel[4] * y0 + rel[5] * z0 + rel[0]; y = rel[6] * x0 + rel[7] * y0 + rel[8] * z0 + rel[1]; z = rel[9] * x0 + rel[10] * y0 + rel[11] * z0 + rel[2];
    }
    const u = (x - _fr[9]) * _fr[3] + (y - _fr[10]) * _fr[4] + (z - _fr[11]) * _fr[5], w = (x - _fr[9]) * _fr[6] + (y - _fr[10]) * _fr[7] + (z - _fr[11]) * _fr[8];
    let inside = true;
    for (let p = 0; p < n && inside; p++) {
      const q = p + 1 === n ? 0 : p + 1;
      if ((_c1u[q] - _c1u[p]) * (w - _c1v[p]) - (_c1v[q] - _c1v[p]) * (u - _c1u[p]) <= 0) inside = false;
    }
    if (inside) { _ku[nk] = u; _kv[nk] = w; setVertexId(_kid, nk, type, k); nk++; }
  }
  return nk;
}

/** Clip buffer 1 by k0 + ku u + kv v ≥ 0 (_lin = [k0, ku, kv (unit (ku, kv)), eps]); constraint id cid tags the new edges. */
const _lin = new Float64Array(4);
function clipLinear(cid: number): void {
  const k0 = _lin[0], ku = _lin[1], kv = _lin[2], eps = _lin[3];
  const n = nClip;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const j = i === 0 ? n - 1 : i - 1;
    const dj = k0 + ku * _c1u[j] + kv * _c1v[j], di = k0 + ku * _c1u[i] + kv * _c1v[i];
    const inJ = dj >= -eps, inI = di >= -eps;
    if (inI !== inJ && n > 1) {
      const t = dj / (dj - di);
      _c2u[m] = _c1u[j] + t * (_c1u[i] - _c1u[j]);
      _c2v[m] = _c1v[j] + t * (_c1v[i] - _c1v[j]);
      const e = _c1e0[j];
      _c2id[m] = ID_REGION * K * K * K * K + (e < cid ? e * 65536 + cid : cid * 65536 + e);
      _c2e0[m] = inI ? e : cid;
      m++;
    }
    if (inI) { _c2u[m] = _c1u[i]; _c2v[m] = _c1v[i]; _c2id[m] = _c1id[i]; _c2e0[m] = _c1e0[i]; m++; }
  }
  for (let i = 0; i < m; i++) { _c1u[i] = _c2u[i]; _c1v[i] = _c2v[i]; _c1id[i] = _c2id[i]; _c1e0[i] = _c2e0[i]; }
  nClip = m;
}

// ---------------------------------------------------------------------------------------------------------------
// Surface heights along n at a plane point (u, v)

// Box faces as planes h(u, v) = k0 + ku·u + kv·v along n (set in the feature path: every clipped point lies in the
// face's shadow, where the ray cast would exit through that face anyway; one multiply-add instead of three slabs).
let lastBoxFace = 0;
let planeA = false, planeB = false;
// _pl = [k0, ku, kv] of A's face plane, then of B's
const _pl = new Float64Array(6);

/** Plane coefficients of a box face (A's frame normal m = _pt, offset h = _sc[2]: m·x = h) along the contact frame. */
function facePlane(side: number): void {
  const mx = _pt[0], my = _pt[1], mz = _pt[2], h = _sc[2];
  const mn = mx * _fr[0] + my * _fr[1] + mz * _fr[2];
  const k0 = (h - (mx * _fr[9] + my * _fr[10] + mz * _fr[11])) / mn, ku = -(mx * _fr[3] + my * _fr[4] + mz * _fr[5]) / mn, kv = -(mx * _fr[6] + my * _fr[7] + mz * _fr[8]) / mn;
  if (side === 0) { _pl[0] = k0; _pl[1] = ku; _pl[2] = kv; planeA = true; } else { _pl[3] = k0; _pl[4] = ku; _pl[5] = kv; planeB = true; }
}

// (The heights are written to _sc[4] (A) and _sc[5] (B) rather than returned: a number returned from a call V8
// does not inline is a fresh heap number.)
function heightA(a: Shape, i: number): void {
  const u = _ku[i], v = _kv[i];
  if (planeA) { _sc[4] = _pl[0] + _pl[1] * u + _pl[2] * v; return; }
  const c = a.core;
  if (c === CORE_BOX || c === CORE_HULL || c === CORE_CYLINDER) {
    const e = _ex;
    e[0] = _fr[9] + u * _fr[3] + v * _fr[6]; e[1] = _fr[10] + u * _fr[4] + v * _fr[7]; e[2] = _fr[11] + u * _fr[5] + v * _fr[8];
    e[3] = _fr[0]; e[4] = _fr[1]; e[5] = _fr[2];
    coreExitAlong(a, e);
    _sc[4] = e[6];
    return;
  }
  roundHeight(_fAu, _fAv, _fAh, nFA, i);
  _sc[4] = _sc[6] + a.radius;
}

function heightB(b: Shape, rel: Float64Array, i: number): void {
  const u = _ku[i], v = _kv[i];
  if (planeB) { _sc[5] = _pl[3] + _pl[4] * u + _pl[5] * v; return; }
  const c = b.core;
  if (c === CORE_BOX || c === CORE_HULL || c === CORE_CYLINDER) {
    // q and −n in B's frame: x_B = Rᵀ(x_A − t)
    const qx = _fr[9] + u * _fr[3] + v * _fr[6] - rel[0], qy = _fr[10] + u * _fr[4] + v * _fr[7] - rel[1], qz = _fr[11] + u * _fr[5] + v * _fr[8] - rel[2];
    const e = _ex;
    e[0] = rel[3] * qx + rel[6] * qy + rel[9] * qz; e[1] = rel[4] * qx + rel[7] * qy + rel[10] * qz; e[2] = rel[5] * qx + rel[8] * qy + rel[11] * qz;
    e[3] = -(rel[3] * _fr[0] + rel[6] * _fr[1] + rel[9] * _fr[2]); e[4] = -(rel[4] * _fr[0] + rel[7] * _fr[1] + rel[10] * _fr[2]); e[5] = -(rel[5] * _fr[0] + rel[8] * _fr[1] + rel[11] * _fr[2]);
    coreExitAlong(b, e);
    _sc[5] = -e[6];
    return;
  }
  roundHeight(_fBu, _fBv, _fBh, nFB, i);
  _sc[5] = _sc[6] - b.radius;
}
const _ex = new Float64Array(7);

/** Height of a point or segment feature at candidate i's (u, v) into _sc[6]: constant, or linear along the segment (clamped). */
function roundHeight(fu: Float64Array, fv: Float64Array, fh: Float64Array, n: number, i: number): void {
  const u = _ku[i], v = _kv[i];
  if (n < 2) { _sc[6] = fh[0]; return; }
  const du = fu[1] - fu[0], dv = fv[1] - fv[0];
  const l2 = du * du + dv * dv;
  let t = l2 > 0 ? ((u - fu[0]) * du + (v - fv[0]) * dv) / l2 : 0;
  if (t < 0) t = 0; else if (t > 1) t = 1;
  _sc[6] = fh[0] + t * (fh[1] - fh[0]);
}

// ---------------------------------------------------------------------------------------------------------------
// Analytic fast paths: set the normal (A frame), depth and deepest points; return false when separated beyond margin.

// _con = [normal n (3), depth, deepest point on A (3), deepest point on B (3)], A's frame
const _con = new Float64Array(10);

function sphereSphere(a: Shape, b: Shape, rel: Float64Array): boolean {
  const margin = _sc[0];
  const tx = rel[0], ty = rel[1], tz = rel[2];
  const d2 = tx * tx + ty * ty + tz * tz, r = a.radius + b.radius;
  if (d2 > (r + margin) * (r + margin)) return false;
  const d = Math.sqrt(d2);
  // (nearly) coincident centres: any axis is valid; +z, deterministic (a denormal d has lost its precision)
  if (d > 1e-12 * r) { _con[0] = tx / d; _con[1] = ty / d; _con[2] = tz / d; } else { _con[0] = 0; _con[1] = 0; _con[2] = 1; }
  _con[3] = r - d;
  _con[4] = _con[0] * a.radius; _con[5] = _con[1] * a.radius; _con[6] = _con[2] * a.radius;
  _con[7] = tx - _con[0] * b.radius; _con[8] = ty - _con[1] * b.radius; _con[9] = tz - _con[2] * b.radius;
  return true;
}

/**
 * Sphere (centre c = _pt in the box frame, radius r) against a box: the closest box point is c clamped to the box; when c
 * is inside, the nearest face gives the normal. Writes the normal from box to sphere, in the box frame, into
 * dn*, the depth into dDepth, and the deepest points (box surface, sphere surface) into dA*, dB*.
 */
function sphereInBoxFrame(box: Shape, sphere: Shape): boolean {
  const cx = _pt[0], cy = _pt[1], cz = _pt[2], r = sphere.radius, margin = _sc[0];
  const hx = box.hx, hy = box.hy, hz = box.hz;
  const qx = cx < -hx ? -hx : cx > hx ? hx : cx, qy = cy < -hy ? -hy : cy > hy ? hy : cy, qz = cz < -hz ? -hz : cz > hz ? hz : cz;
  const dx = cx - qx, dy = cy - qy, dz = cz - qz;
  const d2 = dx * dx + dy * dy + dz * dz;
  if (d2 > 0) {
    if (d2 > (r + margin) * (r + margin)) return false;
    const d = Math.sqrt(d2);
    _con[0] = dx / d; _con[1] = dy / d; _con[2] = dz / d; _con[3] = r - d;
    _con[4] = qx; _con[5] = qy; _con[6] = qz;
  } else {
    // centre inside: push out through the nearest face (smallest gap h − |c|)
    const gx = hx - Math.abs(cx), gy = hy - Math.abs(cy), gz = hz - Math.abs(cz);
    _con[0] = 0; _con[1] = 0; _con[2] = 0;
    if (gx <= gy && gx <= gz) { _con[0] = cx >= 0 ? 1 : -1; _con[3] = r + gx; _con[4] = _con[0] * hx; _con[5] = cy; _con[6] = cz; }
    else if (gy <= gz) { _con[1] = cy >= 0 ? 1 : -1; _con[3] = r + gy; _con[4] = cx; _con[5] = _con[1] * hy; _con[6] = cz; }
    else { _con[2] = cz >= 0 ? 1 : -1; _con[3] = r + gz; _con[4] = cx; _con[5] = cy; _con[6] = _con[2] * hz; }
  }
  _con[7] = cx - _con[0] * r; _con[8] = cy - _con[1] * r; _con[9] = cz - _con[2] * r;
  return true;
}

function sphereBox(a: Shape, b: Shape, rel: Float64Array): boolean {
  if (a.core === CORE_POINT) {
    // sphere A at A's origin; box B: c in B's frame = Rᵀ(0 − t)
    const cx = -(rel[3] * rel[0] + rel[6] * rel[1] + rel[9] * rel[2]);
    const cy = -(rel[4] * rel[0] + rel[7] * rel[1] + rel[10] * rel[2]);
    const cz = -(rel[5] * rel[0] + rel[8] * rel[1] + rel[11] * rel[2]);
    _pt[0] = cx; _pt[1] = cy; _pt[2] = cz;
    if (!sphereInBoxFrame(b, a)) return false;
    // normal box → sphere in B's frame; A → B is its opposite, rotated to A's frame
    const nx = -_con[0], ny = -_con[1], nz = -_con[2];
    _con[0] = rel[3] * nx + rel[4] * ny + rel[5] * nz; _con[1] = rel[6] * nx + rel[7] * ny + rel[8] * nz; _con[2] = rel[9] * nx + rel[10] * ny + rel[11] * nz;
    const sx = _con[7], sy = _con[8], sz = _con[9], bx = _con[4], by = _con[5], bz = _con[6];
    _con[4] = rel[3] * sx + rel[4] * sy + rel[5] * sz + rel[0]; _con[5] = rel[6] * sx + rel[7] * sy + rel[8] * sz + rel[1]; _con[6] = rel[9] * sx + rel[10] * sy + rel[11] * sz + rel[2];
    _con[7] = rel[3] * bx + rel[4] * by + rel[5] * bz + rel[0]; _con[8] = rel[6] * bx + rel[7] * by + rel[8] * bz + rel[1]; _con[9] = rel[9] * bx + rel[10] * by + rel[11] * bz + rel[2];
    return true;
  }
  // box A, sphere B at t (A's frame = box frame)
  _pt[0] = rel[0]; _pt[1] = rel[1]; _pt[2] = rel[2];
  return sphereInBoxFrame(a, b);
}

/**
 * Closest points of segments p1 + s d1 and p2 + t d2 (Ericson 5.1.9), returned through dA*, dB* (cores);
 * here p1 = A's axis (0,0,±h1) and segment 2 is B's axis in A's frame.
 */
function capsuleCapsule(a: Shape, b: Shape, rel: Float64Array): number {
  const margin = _sc[0];
  const h1 = a.halfHeight, h2 = b.halfHeight;
  const p1x = 0, p1y = 0, p1z = -h1;
  const d1x = 0, d1y = 0, d1z = 2 * h1;
  const ax2 = rel[5], ay2 = rel[8], az2 = rel[11]; // B's local z axis in A's frame
  const p2x = rel[0] - ax2 * h2, p2y = rel[1] - ay2 * h2, p2z = rel[2] - az2 * h2;
  const d2x = 2 * h2 * ax2, d2y = 2 * h2 * ay2, d2z = 2 * h2 * az2;
  const rx = p1x - p2x, ry = p1y - p2y, rz = p1z - p2z;
  const aa = d1x * d1x + d1y * d1y + d1z * d1z, ee = d2x * d2x + d2y * d2y + d2z * d2z, f = d2x * rx + d2y * ry + d2z * rz;
  let s = 0, t = 0;
  if (aa <= 1e-300 && ee <= 1e-300) { s = 0; t = 0; }
  else if (aa <= 1e-300) { t = f / ee; t = t < 0 ? 0 : t > 1 ? 1 : t; }
  else {
    const c = d1x * rx + d1y * ry + d1z * rz;
    if (ee <= 1e-300) { s = -c / aa; s = s < 0 ? 0 : s > 1 ? 1 : s; }
    else {
      const bb = d1x * d2x + d1y * d2y + d1z * d2z;
      const den = aa * ee - bb * bb;
      s = den > 1e-14 * aa * ee ? (bb * f - c * ee) / den : 0; // parallel: any s, take 0
      s = s < 0 ? 0 : s > 1 ? 1 : s;
      t = (bb * s + f) / ee;
      if (t < 0) { t = 0; s = -c / aa; } else if (t > 1) { t = 1; s = (bb - c) / aa; }
      s = s < 0 ? 0 : s > 1 ? 1 : s; // (clamped in place: a helper returning a number would box it when not inlined)
    }
  }
  const c1x = p1x + d1x * s, c1y = p1y + d1y * s, c1z = p1z + d1z * s;
  const c2x = p2x + d2x * t, c2y = p2y + d2y * t, c2z = p2z + d2z * t;
  const dx = c2x - c1x, dy = c2y - c1y, dz = c2z - c1z;
  const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
  const r = a.radius + b.radius;
  if (dist > r + margin) return 0;
  if (dist <= 1e-12 * (a.boundingRadius + b.boundingRadius)) return 2; // axes intersect: let GJK/EPA decide
  _con[0] = dx / dist; _con[1] = dy / dist; _con[2] = dz / dist;
  _con[3] = r - dist;
  _con[4] = c1x + _con[0] * a.radius; _con[5] = c1y + _con[1] * a.radius; _con[6] = c1z + _con[2] * a.radius;
  _con[7] = c2x - _con[0] * b.radius; _con[8] = c2y - _con[1] * b.radius; _con[9] = c2z - _con[2] * b.radius;
  return 1;
}
/**
 * Box–box by the separating axis theorem (Gottschalk et al. 1996, "OBBTree", section 4; the 15 axes): the three
 * face normals of each box and the nine cross products of their edge directions. On an axis L the boxes' shadows
 * have radii Σ h_i |e_i·L| and their centres are |t·L| apart, so they overlap by p(L) = r_A + r_B − |t·L|; for
 * two convex polytopes the minimum of p over these axes is the penetration depth (the EPA answer) and the axis is
 * the normal. Edge axes win only when shorter by more than round-off (faces first on ties, as in Box2D's
 * b2CollidePolygons), and parallel edges (|e × f| ≈ 0) are skipped. Sets the normal (A → B), depth and deepest
 * points (support vertices) in A's frame; false when apart by more than the margin.
 */
function boxBoxSat(a: Shape, b: Shape, rel: Float64Array): boolean {
  const margin = _sc[0];
  const tx = rel[0], ty = rel[1], tz = rel[2];
  const ha0 = a.hx, ha1 = a.hy, ha2 = a.hz, hb0 = b.hx, hb1 = b.hy, hb2 = b.hz;
  // R[i][j] = e_i · b_j, and |R| with a little padding against cross products of near-parallel edges
  const r00 = rel[3], r01 = rel[4], r02 = rel[5], r10 = rel[6], r11 = rel[7], r12 = rel[8], r20 = rel[9], r21 = rel[10], r22 = rel[11];
  let best = Infinity, bx = 0, by = 0, bz = 0;
  // A's faces: L = e_i
  for (let i = 0; i < 3; i++) {
    const ri0 = i === 0 ? r00 : i === 1 ? r10 : r20, ri1 = i === 0 ? r01 : i === 1 ? r11 : r21, ri2 = i === 0 ? r02 : i === 1 ? r12 : r22;
    const t = i === 0 ? tx : i === 1 ? ty : tz;
    const p = (i === 0 ? ha0 : i === 1 ? ha1 : ha2) + hb0 * Math.abs(ri0) + hb1 * Math.abs(ri1) + hb2 * Math.abs(ri2) - Math.abs(t);
    if (p < best) { best = p; bx = i === 0 ? 1 : 0; by = i === 1 ? 1 : 0; bz = i === 2 ? 1 : 0; }
  }
  // B's faces: L = b_j = column j of R
  for (let j = 0; j < 3; j++) {
    const lx = j === 0 ? r00 : j === 1 ? r01 : r02, ly = j === 0 ? r10 : j === 1 ? r11 : r12, lz = j === 0 ? r20 : j === 1 ? r21 : r22;
    const p = ha0 * Math.abs(lx) + ha1 * Math.abs(ly) + ha2 * Math.abs(lz) + (j === 0 ? hb0 : j === 1 ? hb1 : hb2) - Math.abs(tx * lx + ty * ly + tz * lz);
    if (p < best) { best = p; bx = lx; by = ly; bz = lz; }
  }
  const faceBest = best;
  const slack = 1e-9 * (a.boundingRadius + b.boundingRadius);
  // edges: L = e_i × b_j
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    const bjx = j === 0 ? r00 : j === 1 ? r01 : r02, bjy = j === 0 ? r10 : j === 1 ? r11 : r12, bjz = j === 0 ? r20 : j === 1 ? r21 : r22;
    // e_i × b_j
    let lx = i === 0 ? 0 : i === 1 ? bjz : -bjy;
    let ly = i === 0 ? -bjz : i === 1 ? 0 : bjx;
    let lz = i === 0 ? bjy : i === 1 ? -bjx : 0;
    const l = Math.sqrt(lx * lx + ly * ly + lz * lz);
    if (l < 1e-6) continue; // parallel edges: the face axes cover this direction
    lx /= l; ly /= l; lz /= l;
    const rb = hb0 * Math.abs(r00 * lx + r10 * ly + r20 * lz) + hb1 * Math.abs(r01 * lx + r11 * ly + r21 * lz) + hb2 * Math.abs(r02 * lx + r12 * ly + r22 * lz);
    const p = ha0 * Math.abs(lx) + ha1 * Math.abs(ly) + ha2 * Math.abs(lz) + rb - Math.abs(tx * lx + ty * ly + tz * lz);
    if (p < best && p < faceBest - slack) { best = p; bx = lx; by = ly; bz = lz; }
  }
  if (-best > margin) return false;
  // orient from A to B (coincident centres: keep +L)
  if (bx * tx + by * ty + bz * tz < 0) { bx = -bx; by = -by; bz = -bz; }
  _con[0] = bx; _con[1] = by; _con[2] = bz; _con[3] = best;
  // deepest points: A's support vertex along n, B's along −n (in A's frame)
  _con[4] = bx >= 0 ? ha0 : -ha0; _con[5] = by >= 0 ? ha1 : -ha1; _con[6] = bz >= 0 ? ha2 : -ha2;
  const ex = -(r00 * bx + r10 * by + r20 * bz), ey = -(r01 * bx + r11 * by + r21 * bz), ez = -(r02 * bx + r12 * by + r22 * bz);
  const sx = ex >= 0 ? hb0 : -hb0, sy = ey >= 0 ? hb1 : -hb1, sz = ez >= 0 ? hb2 : -hb2;
  _con[7] = r00 * sx + r01 * sy + r02 * sz + tx; _con[8] = r10 * sx + r11 * sy + r12 * sz + ty; _con[9] = r20 * sx + r21 * sy + r22 * sz + tz;
  return true;
}


// ---------------------------------------------------------------------------------------------------------------

function finishEmpty(out: Manifold): Manifold {
  lastRegion = 0;
  out.count = 0;
  out.depth = 0; out.normal[0] = 0; out.normal[1] = 0; out.normal[2] = 0; // apart: use gjkDistance for how far
  return out;
}

/**
 * Contact manifold of two convex shapes. Writes `out` (count 0 when separated by more than input.margin) and
 * updates `cache` (the last separating direction) when given. Never allocates.
 * @throws InvalidArgumentError for a negative margin or tolerance
 */
export function contactManifold(input: ManifoldInput, out: Manifold, cache?: GjkCache): Manifold {
  const margin = input.margin, tolerance = input.tolerance;
  if (!(margin >= 0) || !(tolerance >= 0)) {
    requireNonNegative('input.margin', margin);
    requireNonNegative('input.tolerance', tolerance);
  }
  const a = input.shapeA, b = input.shapeB, poseA = input.poseA;
  const rel = _pairRel;
  relativePose(poseA, input.poseB, rel);
  if (!Number.isFinite(rel[0] + rel[1] + rel[2] + rel[3] + rel[7] + rel[11])) throw new InvalidArgumentError('input.poseA/poseB', NaN, 'poses must be finite');
  out.gjkIterations = 0; out.epaIterations = 0;
  planeA = false; planeB = false;
  _sc[0] = margin;
  const ca = a.core, cb = b.core;
  let analytic = false;
  // ---- 1. normal and depth ----
  if (ca === CORE_POINT && cb === CORE_POINT) {
    if (!sphereSphere(a, b, rel)) return finishEmpty(out);
    analytic = true;
  } else if ((ca === CORE_POINT && cb === CORE_BOX) || (ca === CORE_BOX && cb === CORE_POINT)) {
    if (!sphereBox(a, b, rel)) return finishEmpty(out);
    analytic = true;
  } else if (ca === CORE_SEGMENT && cb === CORE_SEGMENT) {
    const r = capsuleCapsule(a, b, rel);
    if (r === 0) return finishEmpty(out);
    analytic = r === 1; // 2: the axes intersect, depth needs EPA
  } else if (ca === CORE_BOX && cb === CORE_BOX && input.fastPaths !== false) {
    if (!boxBoxSat(a, b, rel)) return finishEmpty(out);
    analytic = true;
  }
  if (!analytic) {
    // start from the cached direction, else from A's centre towards B's (rel[0..2])
    gjkLocal(a, b, rel, false, cache && cache.valid ? cache.dir : rel, GJK_MAX_ITERATIONS, false, cache);
    const st = gjkState;
    out.gjkIterations = st.iterations;
    const r = a.radius + b.radius;
    if (!st.overlap && st.distance > 1e-9 * (a.boundingRadius + b.boundingRadius)) {
      if (st.distance - r > margin) {
        if (cache) { cache.dir[0] = -st.vx; cache.dir[1] = -st.vy; cache.dir[2] = -st.vz; cache.valid = true; }
        return finishEmpty(out);
      }
      const inv = 1 / st.distance;
      _con[0] = -st.vx * inv; _con[1] = -st.vy * inv; _con[2] = -st.vz * inv;
      _con[3] = r - st.distance;
      _con[4] = st.ax + _con[0] * a.radius; _con[5] = st.ay + _con[1] * a.radius; _con[6] = st.az + _con[2] * a.radius;
      _con[7] = st.bx - _con[0] * b.radius; _con[8] = st.by - _con[1] * b.radius; _con[9] = st.bz - _con[2] * b.radius;
    } else {
      // GJK's v, kept before EPA reuses the simplex scratch.
      const vx = st.vx, vy = st.vy, vz = st.vz, pax = st.ax, pay = st.ay, paz = st.az, pbx = st.bx, pby = st.by, pbz = st.bz;
      const vl = Math.sqrt(vx * vx + vy * vy + vz * vz);
      epaLocal(a, b, rel, EPA_MAX_ITERATIONS);
      const e = epaState;
      out.epaIterations = e.iterations;
      if (e.depth < 0 && vl > 1e-12 * (a.boundingRadius + b.boundingRadius)) {
        // The shapes are apart by less than GJK's touching threshold (1e-9 of their size) but apart: EPA's
        // polytope does not hold the origin and its nearest face is no answer (an upright cylinder 1 nm above a
        // box got a normal tilted 19°). GJK's closest points are: use them, as for larger separations.
        const inv = 1 / vl;
        _con[0] = -vx * inv; _con[1] = -vy * inv; _con[2] = -vz * inv;
        _con[3] = r - vl;
        _con[4] = pax + _con[0] * a.radius; _con[5] = pay + _con[1] * a.radius; _con[6] = paz + _con[2] * a.radius;
        _con[7] = pbx - _con[0] * b.radius; _con[8] = pby - _con[1] * b.radius; _con[9] = pbz - _con[2] * b.radius;
      } else {
        _con[0] = e.nx; _con[1] = e.ny; _con[2] = e.nz; _con[3] = e.depth;
        _con[4] = e.ax; _con[5] = e.ay; _con[6] = e.az; _con[7] = e.bx; _con[8] = e.by; _con[9] = e.bz;
      }
    }
  }
  if (cache) { cache.dir[0] = _con[0]; cache.dir[1] = _con[1]; cache.dir[2] = _con[2]; cache.valid = true; }
  out.depth = _con[3];
  {
    const nx = _con[0], ny = _con[1], nz = _con[2], wn = out.normal; // R_A n (written out: no call to box numbers for)
    wn[0] = poseA[3] * nx + poseA[4] * ny + poseA[5] * nz; wn[1] = poseA[6] * nx + poseA[7] * ny + poseA[8] * nz; wn[2] = poseA[9] * nx + poseA[10] * ny + poseA[11] * nz;
  }
  // ---- 2. contact frame through A's deepest point ----
  setBasis();
  _fr[9] = _con[4]; _fr[10] = _con[5]; _fr[11] = _con[6];
  // sphere–sphere and point-like pairs: one point, no clipping needed
  if (ca === CORE_POINT && cb === CORE_POINT) {
    emitSingle(out, poseA, ID_VERTEX_A, 0);
    return out;
  }
  const scale = a.boundingRadius + b.boundingRadius;
  if ((ca === CORE_HULL && (cb === CORE_HULL || cb === CORE_BOX)) || (cb === CORE_HULL && ca === CORE_BOX)) {
    // ---- 3–4. polytopes with a hull: the exact region (see exactRegion) ----
    let nk = exactRegion(a, b, rel);
    for (let i = 0; i < nk; i++) { _ku[i] = _c1u[i]; _kv[i] = _c1v[i]; _kid[i] = _c1id[i]; }
    if (nk > 0) {
      // The region's corners lie where the surfaces meet (depth ≈ 0) or on a silhouette; the depth (a concave
      // piecewise-linear function) peaks inside, at a vertex of either shape or an edge crossing. Add the deepest
      // point found by GJK/EPA (the plane origin) and every vertex of either shape whose shadow falls inside.
      _ku[nk] = 0; _kv[nk] = 0; setVertexId(_kid, nk, ID_FALLBACK, 0); nk++;
      nk = addInsideVertices(a, null, ID_VERTEX_A, nk);
      nk = addInsideVertices(b, rel, ID_VERTEX_B, nk);
    }
    return finishPoints(out, a, b, rel, poseA, nk);
  }
  if (ca === CORE_BOX && cb === CORE_BOX) return boxBoxRegion(out, a, b, rel, poseA);
  // ---- 3. features in the slab ----
  const sep = _con[3] < 0 ? -_con[3] : _con[3];
  const slab = sep + tolerance;
  // A's core support value along n is (support of the whole shape) − r_A; its feature lies within `slab` of it.
  _sc[1] = slab;
  nFA = collectFeature(a, null, 1, _fAu, _fAv, _fAh, _fAid);
  if (ca === CORE_BOX) {
    const axis = lastBoxFace >> 1, sg = lastBoxFace & 1 ? 1 : -1;
    _pt[0] = axis === 0 ? sg : 0; _pt[1] = axis === 1 ? sg : 0; _pt[2] = axis === 2 ? sg : 0; _sc[2] = axis === 0 ? a.hx : axis === 1 ? a.hy : a.hz;
    facePlane(0);
  }
  nFB = collectFeature(b, rel, -1, _fBu, _fBv, _fBh, _fBid);
  if (cb === CORE_BOX) {
    const axis = lastBoxFace >> 1, sg = lastBoxFace & 1 ? 1 : -1;
    // B's face normal in A's frame: ± column `axis` of R; offset h_B + m·t
    const mx = sg * rel[3 + axis], my = sg * rel[6 + axis], mz = sg * rel[9 + axis];
    _pt[0] = mx; _pt[1] = my; _pt[2] = mz; _sc[2] = (axis === 0 ? b.hx : axis === 1 ? b.hy : b.hz) + mx * rel[0] + my * rel[1] + mz * rel[2];
    facePlane(1);
  }
  _sc[7] = 1e-18 * scale * scale + 1e-24; // hull2d's tolerance
  // A box face chosen by the normal's largest axis makes an angle ≤ arccos(1/√3) with it, so its projection is a
  // proper quadrilateral, already counter-clockwise for A (its outward normal points along n) and clockwise for B:
  // reverse B's instead of sorting. Other features go through the 2D hull (winding, degenerate projections).
  if (ca === CORE_BOX) { /* already counter-clockwise */ } else nFA = hull2d(_fAu, _fAv, _fAh, _fAid, nFA);
  if (cb === CORE_BOX) reverseFeature(_fBu, _fBv, _fBh, _fBid, nFB); else nFB = hull2d(_fBu, _fBv, _fBh, _fBid, nFB);
  // ---- 4. clip ----
  let nk = 0;
  if (nFA >= 3 || nFB >= 3) {
    const refA = nFA >= nFB;
    const ru = refA ? _fAu : _fBu, rv = refA ? _fAv : _fBv, rid = refA ? _fAid : _fBid, rn = refA ? nFA : nFB;
    if (refA) loadIncident(_fBu, _fBv, _fBid, nFB, 1); else loadIncident(_fAu, _fAv, _fAid, nFA, 0);
    const refSide = refA ? 0 : 1;
    _sc[3] = 1e-12 * scale; // clipping tolerance per unit of edge length
    for (let i = 0; i < rn && nClip > 0; i++) {
      const j = i + 1 === rn ? 0 : i + 1;
      clipHalfPlane(ru, rv, i, j, rid[i], rid[j], refSide);
    }
    for (let i = 0; i < nClip; i++) { _ku[nk] = _c1u[i]; _kv[nk] = _c1v[i]; _kid[nk] = _c1id[i]; nk++; }
  } else if (nFA === 2 && nFB === 2) {
    nk = clipSegments();
  } else if (nFA === 1 || nFB === 1) {
    // a vertex (or sphere / capsule end) against anything: the contact is at that vertex
    if (nFB === 1 && nFA !== 1) { _ku[0] = _fBu[0]; _kv[0] = _fBv[0]; setVertexId(_kid, 0, ID_VERTEX_B, _fBid[0]); }
    else if (nFA === 1 && nFB !== 1) { _ku[0] = _fAu[0]; _kv[0] = _fAv[0]; setVertexId(_kid, 0, ID_VERTEX_A, _fAid[0]); }
    else { _ku[0] = 0.5 * (_fAu[0] + _fBu[0]); _kv[0] = 0.5 * (_fAv[0] + _fBv[0]); _kid[0] = ID_VERTEX_A * K * K * K * K + _fAid[0] + _fBid[0] * K * K; }
    nk = 1;
  }
  return finishPoints(out, a, b, rel, poseA, nk);
}

/**
 * Steps 3–6 for two boxes, written out in one function: the same features, clipping, feature ids, depths,
 * filtering and reduction as the general path (collectFeature, facePlane, clipHalfPlane, finishPoints; results agree
 * to round-off), with the frame, the planes and both quads in locals. The general path spends most of its time
 * passing numbers between functions V8 does not inline (each such number is a heap allocation), and box pairs are the
 * common case. Reference face: A's face whose axis is the normal's largest component (it contains A's support
 * vertex); incident face: B's face whose axis is −n's largest component in B's frame; B's quad is clipped by the
 * four side planes of A's (Sutherland & Hodgman 1974) in plane coordinates (u, v) about A's deepest point o.
 */
function boxBoxRegion(out: Manifold, a: Shape, b: Shape, rel: Float64Array, poseA: Pose): Manifold {
  const margin = _sc[0];
  const scale = a.boundingRadius + b.boundingRadius;
  const fr = _fr;
  const nx = fr[0], ny = fr[1], nz = fr[2], e1x = fr[3], e1y = fr[4], e1z = fr[5], e2x = fr[6], e2y = fr[7], e2z = fr[8], ox = fr[9], oy = fr[10], oz = fr[11];
  const tx = rel[0], ty = rel[1], tz = rel[2];
  const r00 = rel[3], r01 = rel[4], r02 = rel[5], r10 = rel[6], r11 = rel[7], r12 = rel[8], r20 = rel[9], r21 = rel[10], r22 = rel[11];
  // ---- reference face of A (normal +n) and its plane h_A(u, v) = k0 + ku u + kv v along n ----
  const anx = Math.abs(nx), any = Math.abs(ny), anz = Math.abs(nz);
  const axA = anx >= any && anx >= anz ? 0 : any >= anz ? 1 : 2;
  // (components picked by indexing the arrays with the axis rather than by `axis === 0 ? x : …` chains: the axis
  // is random from pair to pair and each such chain is a mispredicted jump)
  const nA = fr[axA];
  const pos = +(nA >= 0);
  const fA = 2 * axA + pos;
  const sgA = 2 * pos - 1;
  const mnA = sgA * nA; // m·n with m = ±e_axis
  const ahx = a.hx, ahy = a.hy, ahz = a.hz;
  const offA = (axA === 0 ? ahx : axA === 1 ? ahy : ahz) - sgA * fr[9 + axA];
  const kA0 = offA / mnA, kAu = -(sgA * fr[3 + axA]) / mnA, kAv = -(sgA * fr[6 + axA]) / mnA;
  // A's quad, counter-clockwise about n (box vertex i is (±hx, ±hy, ±hz) by its bits 0, 1, 2: the signs are
  // computed from the bits, not read from the shape's vertex array, which would be one more cold cache line per pair)
  const ru = _bbRu, rv = _bbRv, rid = _bbRid;
  for (let k = 0; k < 4; k++) {
    const i = BOX_FACE_VERTS[4 * fA + k];
    const px = ahx * ((i & 1) * 2 - 1) - ox, py = ahy * ((i & 2) - 1) - oy, pz = ahz * ((i & 4) / 2 - 1) - oz;
    ru[k] = px * e1x + py * e1y + pz * e1z; rv[k] = px * e2x + py * e2y + pz * e2z; rid[k] = i;
  }
  // ---- incident face of B (direction −n, in B's frame d = −Rᵀn) and its plane ----
  const dx = -(r00 * nx + r10 * ny + r20 * nz), dy = -(r01 * nx + r11 * ny + r21 * nz), dz = -(r02 * nx + r12 * ny + r22 * nz);
  const adx = Math.abs(dx), ady = Math.abs(dy), adz = Math.abs(dz);
  const axB = adx >= ady && adx >= adz ? 0 : ady >= adz ? 1 : 2;
  const posB = +((axB === 0 ? dx : axB === 1 ? dy : dz) >= 0);
  const fB = 2 * axB + posB;
  const sgB = 2 * posB - 1;
  // B's face normal in A's frame: ± column axB of R; offset h_B + m·t
  const mx = sgB * rel[3 + axB], my = sgB * rel[6 + axB], mz = sgB * rel[9 + axB];
  const mnB = mx * nx + my * ny + mz * nz;
  const bhx = b.hx, bhy = b.hy, bhz = b.hz;
  const kB0 = ((axB === 0 ? bhx : axB === 1 ? bhy : bhz) + mx * tx + my * ty + mz * tz - (mx * ox + my * oy + mz * oz)) / mnB;
  const kBu = -(mx * e1x + my * e1y + mz * e1z) / mnB, kBv = -(mx * e2x + my * e2y + mz * e2z) / mnB;
  // B's quad, reversed (its face is counter-clockwise about −n), as the incident polygon. Each vertex carries the
  // tag of the polygon edge leaving it, packed in one integer: side (0 = A, 1 = B) · 65536 + first vertex · 256 +
  // second vertex (box vertex ids are 0–7).
  let cu = _c1u, cv = _c1v, cid = _c1id, ctag = _c1tag;
  let du = _c2u, dv = _c2v, did = _c2id, dtag = _c2tag;
  for (let k = 0; k < 4; k++) {
    const i = BOX_FACE_VERTS[4 * fB + 3 - k], inext = BOX_FACE_VERTS[4 * fB + (k === 3 ? 3 : 2 - k)];
    const lx = bhx * ((i & 1) * 2 - 1), ly = bhy * ((i & 2) - 1), lz = bhz * ((i & 4) / 2 - 1);
    const px = r00 * lx + r01 * ly + r02 * lz + tx - ox, py = r10 * lx + r11 * ly + r12 * lz + ty - oy, pz = r20 * lx + r21 * ly + r22 * lz + tz - oz;
    cu[k] = px * e1x + py * e1y + pz * e1z; cv[k] = px * e2x + py * e2y + pz * e2z;
    cid[k] = ID_VERTEX_B * K4 + i;
    ctag[k] = 65536 + i * 256 + inext;
  }
  // ---- clip by the half-planes left of A's edges (see clipHalfPlane for the feature-id rules) ----
  let n = 4;
  const ceps = 1e-12 * scale;
  for (let r = 0; r < 4 && n > 0; r++) {
    const r1 = r === 3 ? 0 : r + 1;
    const au = ru[r], av = rv[r], tu = ru[r1] - au, tv = rv[r1] - av;
    const ra = rid[r], rb = rid[r1];
    const eps = -ceps * Math.sqrt(tu * tu + tv * tv);
    const amin = ra < rb ? ra : rb, amax = ra < rb ? rb : ra;
    const refTag = ra * 256 + rb;
    let m = 0;
    // signed distance (times the edge length) of the previous vertex, carried round the loop
    let dj = tu * (cv[n - 1] - av) - tv * (cu[n - 1] - au);
    for (let i = 0, j = n - 1; i < n; j = i, i++) {
      const di = tu * (cv[i] - av) - tv * (cu[i] - au);
      const inJ = dj >= eps, inI = di >= eps;
      if (inI !== inJ && n > 1) {
        const t = dj / (dj - di);
        du[m] = cu[j] + t * (cu[i] - cu[j]); dv[m] = cv[j] + t * (cv[i] - cv[j]);
        const tag = ctag[j], j0 = (tag >> 8) & 255, j1 = tag & 255;
        if (tag < 65536) did[m] = ID_VERTEX_A * K4 + (j1 === ra || j0 === ra ? ra : rb); // along an earlier A edge
        else {
          const bmin = j0 < j1 ? j0 : j1, bmax = j0 < j1 ? j1 : j0;
          did[m] = (((ID_EDGES * K + amin) * K + amax) * K + bmin) * K + bmax;
        }
        dtag[m] = inI ? tag : refTag; // entering: continue along the same edge; leaving: along A's edge
        m++;
      }
      if (inI) { du[m] = cu[i]; dv[m] = cv[i]; did[m] = cid[i]; dtag[m] = ctag[i]; m++; }
      dj = di;
    }
    n = m;
    // swap the buffers
    let tf = cu; cu = du; du = tf; tf = cv; cv = dv; dv = tf; tf = cid; cid = did; did = tf;
    const ti = ctag; ctag = dtag; dtag = ti;
  }
  // ---- depths along n from the two face planes; drop points apart by more than the margin; dedupe ----
  const dropBelow = -margin - 1e-9 * scale, dupTol = 1e-9 * scale;
  let m = 0;
  for (let i = 0; i < n; i++) {
    const u = cu[i], v = cv[i], id = cid[i];
    const ha = kA0 + kAu * u + kAv * v, hb = kB0 + kBu * u + kBv * v;
    const d = ha - hb;
    if (!(d >= dropBelow)) continue;
    let dup = false;
    for (let j = 0; j < m; j++) if (_kid[j] === id && Math.abs(_ku[j] - u) + Math.abs(_kv[j] - v) <= dupTol) { dup = true; break; }
    if (dup) continue;
    _ku[m] = u; _kv[m] = v; _kid[m] = id; _kd[m] = d; _kh[m] = 0.5 * (ha + hb);
    m++;
  }
  if (m === 0) {
    // clipping lost the region to round-off (or the faces barely overlap): report the deepest point
    emitSingle(out, poseA, ID_FALLBACK, 0);
    return out;
  }
  // ---- reduce to ≤ 4 and write the world points (x = R_A (o + u e1 + v e2 + h n) + p_A) ----
  lastRegion = m; lastPose = poseA;
  const nKeep = reduce(m);
  out.count = nKeep;
  const pts = out.points;
  const p00 = poseA[3], p01 = poseA[4], p02 = poseA[5], p10 = poseA[6], p11 = poseA[7], p12 = poseA[8], p20 = poseA[9], p21 = poseA[10], p22 = poseA[11];
  for (let k = 0; k < nKeep; k++) {
    const i = _keep[k];
    const u = _ku[i], v = _kv[i], h = _kh[i];
    const x = ox + u * e1x + v * e2x + h * nx, y = oy + u * e1y + v * e2y + h * ny, z = oz + u * e1z + v * e2z + h * nz;
    pts[3 * k] = p00 * x + p01 * y + p02 * z + poseA[0];
    pts[3 * k + 1] = p10 * x + p11 * y + p12 * z + poseA[1];
    pts[3 * k + 2] = p20 * x + p21 * y + p22 * z + poseA[2];
    out.depths[k] = _kd[i];
    out.ids[k] = _kid[i];
  }
  return out;
}
const _bbRu = new Float64Array(4), _bbRv = new Float64Array(4), _bbRid = new Int32Array(4);
const _c1tag = new Int32Array(MAXC), _c2tag = new Int32Array(MAXC);
const K4 = K * K * K * K;

/** Steps 5–6: depths of the nk candidates in _ku/_kv/_kid, filtering, reduction, output. */
function finishPoints(out: Manifold, a: Shape, b: Shape, rel: Float64Array, poseA: Pose, nk: number): Manifold {
  const margin = _sc[0], scale = a.boundingRadius + b.boundingRadius;
  // ---- 5. depths ----
  let m = 0;
  const dropBelow = -margin - 1e-9 * scale;
  for (let i = 0; i < nk; i++) {
    heightA(a, i); heightB(b, rel, i);
    const ha = _sc[4], hb = _sc[5];
    const d = ha - hb;
    if (!(d >= dropBelow)) continue; // also drops NaN / −∞ (a line missing a core)
    // dedupe (clipping a 2-gon emits its crossing twice)
    let dup = false;
    for (let j = 0; j < m; j++) if (_kid[j] === _kid[i] && Math.abs(_ku[j] - _ku[i]) + Math.abs(_kv[j] - _kv[i]) <= 1e-9 * scale) { dup = true; break; }
    if (dup) continue;
    _ku[m] = _ku[i]; _kv[m] = _kv[i]; _kid[m] = _kid[i]; _kd[m] = d; _kh[m] = 0.5 * (ha + hb);
    m++;
  }
  if (m === 0) {
    // clipping lost the region to round-off (or the features barely overlap): report the deepest point
    emitSingle(out, poseA, ID_FALLBACK, 0);
    return out;
  }
  // ---- 6. reduce ----
  lastRegion = m; lastPose = poseA;
  const nKeep = reduce(m);
  out.count = nKeep;
  for (let k = 0; k < nKeep; k++) {
    const i = _keep[k];
    const u = _ku[i], v = _kv[i], h = _kh[i];
    _pt[0] = _fr[9] + u * _fr[3] + v * _fr[6] + h * _fr[0]; _pt[1] = _fr[10] + u * _fr[4] + v * _fr[7] + h * _fr[1]; _pt[2] = _fr[11] + u * _fr[5] + v * _fr[8] + h * _fr[2];
    pointToWorldFrom(poseA, _pt, out.points, 3 * k);
    out.depths[k] = _kd[i];
    out.ids[k] = _kid[i];
  }
  return out;
}

function emitSingle(out: Manifold, poseA: Pose, type: number, v: number): void {
  lastRegion = 0;
  out.count = 1;
  _pt[0] = 0.5 * (_con[4] + _con[7]); _pt[1] = 0.5 * (_con[5] + _con[8]); _pt[2] = 0.5 * (_con[6] + _con[9]);
  pointToWorldFrom(poseA, _pt, out.points, 0);
  out.depths[0] = _con[3];
  setVertexId(out.ids, 0, type, v);
}

/** Two segment features: overlap interval when parallel, crossing point otherwise. */
function clipSegments(): number {
  const au = _fAu[0], av = _fAv[0], du = _fAu[1] - au, dv = _fAv[1] - av;
  const bu = _fBu[0], bv = _fBv[0], eu = _fBu[1] - bu, ev = _fBv[1] - bv;
  const la = Math.sqrt(du * du + dv * dv), lb = Math.sqrt(eu * eu + ev * ev);
  const cr = du * ev - dv * eu;
  if (Math.abs(cr) <= 0.02 * la * lb) {
    // parallel: clip B's segment to A's extent along A's direction
    const inv = 1 / (la * la);
    let t0 = ((bu - au) * du + (bv - av) * dv) * inv, t1 = ((bu + eu - au) * du + (bv + ev - av) * dv) * inv;
    let n = 0;
    // B end 0
    const p0in = t0 >= 0 && t0 <= 1, p1in = t1 >= 0 && t1 <= 1;
    if (p0in) { _ku[n] = bu; _kv[n] = bv; setVertexId(_kid, n, ID_VERTEX_B, _fBid[0]); n++; }
    if (p1in) { _ku[n] = bu + eu; _kv[n] = bv + ev; setVertexId(_kid, n, ID_VERTEX_B, _fBid[1]); n++; }
    // A's ends that fall inside B's extent
    for (let k = 0; k < 2 && n < 2; k++) {
      const pu = _fAu[k], pv = _fAv[k];
      const s = ((pu - bu) * eu + (pv - bv) * ev) / (lb * lb);
      if (s > 0 && s < 1) {
        // the point of B's line beside A's end (same u along A)
        _ku[n] = bu + s * eu; _kv[n] = bv + s * ev; setVertexId(_kid, n, ID_VERTEX_A, _fAid[k]); n++;
      }
    }
    void t0; void t1; t0 = 0; t1 = 0;
    return n;
  }
  // crossing of the two lines: a + s d = b + t e
  const s = ((bu - au) * ev - (bv - av) * eu) / cr;
  const sc = s < 0 ? 0 : s > 1 ? 1 : s;
  _ku[0] = au + sc * du; _kv[0] = av + sc * dv;
  setEdgePairId(_kid, 0, _fAid[0], _fAid[1], _fBid[0], _fBid[1]);
  return 1;
}

/** Choose at most 4 of the m candidates into _keep; returns how many. */
function reduce(m: number): number {
  if (m <= 4) { for (let i = 0; i < m; i++) _keep[i] = i; return m; }
  // deepest (first on ties: deterministic)
  let i0 = 0;
  for (let i = 1; i < m; i++) if (_kd[i] > _kd[i0]) i0 = i;
  // farthest from it
  let i1 = -1, best = -1;
  for (let i = 0; i < m; i++) {
    const du = _ku[i] - _ku[i0], dv = _kv[i] - _kv[i0], d2 = du * du + dv * dv;
    if (d2 > best) { best = d2; i1 = i; }
  }
  // largest triangle (signed area remembered to know the side)
  let i2 = -1, bestA = -1, sideA = 0;
  for (let i = 0; i < m; i++) {
    const ar = (_ku[i1] - _ku[i0]) * (_kv[i] - _kv[i0]) - (_kv[i1] - _kv[i0]) * (_ku[i] - _ku[i0]);
    if (Math.abs(ar) > bestA) { bestA = Math.abs(ar); i2 = i; sideA = ar; }
  }
  // the point adding most area: outside edge (i0,i1) on the side opposite to i2, or outside edges (i1,i2), (i2,i0)
  let i3 = -1, bestB = 0;
  const sgn = sideA >= 0 ? 1 : -1;
  for (let i = 0; i < m; i++) {
    if (i === i0 || i === i1 || i === i2) continue;
    const a01 = -sgn * ((_ku[i1] - _ku[i0]) * (_kv[i] - _kv[i0]) - (_kv[i1] - _kv[i0]) * (_ku[i] - _ku[i0]));
    const a12 = -sgn * ((_ku[i2] - _ku[i1]) * (_kv[i] - _kv[i1]) - (_kv[i2] - _kv[i1]) * (_ku[i] - _ku[i1]));
    const a20 = -sgn * ((_ku[i0] - _ku[i2]) * (_kv[i] - _kv[i2]) - (_kv[i0] - _kv[i2]) * (_ku[i] - _ku[i2]));
    const gain = Math.max(a01, a12, a20);
    if (gain > bestB) { bestB = gain; i3 = i; }
  }
  _keep[0] = i0; _keep[1] = i1; _keep[2] = i2;
  if (i3 < 0) return 3;
  _keep[3] = i3;
  return 4;
}

/** The manifold's contact points on A and on B can be recovered from the midpoint: p ∓ n·depth/2. */
export function manifoldPointOnA(m: Manifold, k: number, out: Float64Array): Float64Array {
  const h = 0.5 * m.depths[k];
  out[0] = m.points[3 * k] + m.normal[0] * h; out[1] = m.points[3 * k + 1] + m.normal[1] * h; out[2] = m.points[3 * k + 2] + m.normal[2] * h;
  return out;
}

let lastRegion = 0;
let lastPose: Pose | null = null;

/**
 * The whole clipped contact region of the last contactManifold call, before reduction to 4 points: writes up to
 * out.length / 4 points as (x, y, z, depth) in the world frame and returns how many there were. 0 when the last call
 * reported a single analytic/fallback point or no contact. For drawing and for tests.
 */
export function lastContactRegion(out: Float64Array): number {
  const n = Math.min(lastRegion, out.length >> 2);
  for (let i = 0; i < n && lastPose; i++) {
    const u = _ku[i], v = _kv[i], h = _kh[i];
    _pt[0] = _fr[9] + u * _fr[3] + v * _fr[6] + h * _fr[0]; _pt[1] = _fr[10] + u * _fr[4] + v * _fr[7] + h * _fr[1]; _pt[2] = _fr[11] + u * _fr[5] + v * _fr[8] + h * _fr[2];
    pointToWorldFrom(lastPose, _pt, _regionTmp, 0);
    out[4 * i] = _regionTmp[0]; out[4 * i + 1] = _regionTmp[1]; out[4 * i + 2] = _regionTmp[2]; out[4 * i + 3] = _kd[i];
  }
  return lastRegion;
}
const _regionTmp = new Float64Array(3);
// a point passed to pushLocal, pointToWorldFrom and sphereInBoxFrame (an array, so that no number is boxed)
const _pt = new Float64Array(3);
