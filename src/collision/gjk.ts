/**
 * GJK (Gilbert, Johnson & Keerthi 1988) on the Minkowski difference D = A − B: the distance between two convex
 * shapes is the distance from the origin to D, and the shapes overlap iff D contains the origin.
 *
 * Each iteration keeps a simplex (1–4 points of D) and v, the point of the simplex closest to the origin:
 *
 *   v ← any point of D
 *   loop:
 *     w ← s_D(−v)                              (support point of D farthest along −v)
 *     if |v|² − v·w ≤ ε|v|²: stop, |v| is the distance within relative error ε
 *       (v·w is a lower bound of |v|·dist, so the gap bounds the error; van den Bergen 2004, section 4.3.5)
 *     simplex ← closest sub-simplex of (simplex ∪ {w}) to the origin   (Johnson's sub-algorithm, done here by
 *                                            Voronoi-region tests as in Ericson, Real-Time Collision Detection, 5.1)
 *     if the simplex is a tetrahedron containing the origin: overlap
 *
 * The closest points follow from v's barycentric coordinates λ in the simplex: p_A = Σ λᵢ aᵢ, p_B = Σ λᵢ bᵢ.
 * The loop is capped (`maxIterations`): GJK on polytopes terminates in finitely many steps, but round-off can make
 * it cycle between two simplices; the cap and a "no progress" test stop it.
 *
 * Everything happens in A's local frame (see pair.ts). The simplex is module-scope scratch so that EPA can start
 * from it; nothing is allocated per call.
 */
import { requireInteger } from '../core/validate';
import type { Pose, Shape } from './shapes';
import { _pairDir, _pairRel, pairSupport, relativePose, pointToWorldFrom } from './pair';

/**
 * Warm-start cache for ONE pair (never share it between pairs: its points must belong to the two shapes), reused across frames (Box2D's b2SimplexCache does the same with vertex indices;
 * support-function shapes have no indices, so the simplex points are kept in each shape's local frame and moved
 * with the new poses: they are still points of the shapes, hence of the Minkowski difference, so GJK may start
 * from them and usually needs one or two iterations when the pair moved a little).
 */
export interface GjkCache {
  /** Last separating direction (from A towards B) in A's local frame. */
  readonly dir: Float64Array;
  /** False until a query has written `dir`. */
  valid: boolean;
  /** Last simplex: count (0–4), points on A (A-local) and on B (B-local), and whether they were core points. */
  count: number;
  readonly pointsA: Float64Array;
  readonly pointsB: Float64Array;
  full: boolean;
}

/** A new, empty warm-start cache. */
export function createGjkCache(): GjkCache {
  return { dir: new Float64Array(3), valid: false, count: 0, pointsA: new Float64Array(12), pointsB: new Float64Array(12), full: false };
}

/** Save the current simplex into the cache (B's points back into B's frame: x_B = Rᵀ(x − t)). */
export function saveSimplex(cache: GjkCache, rel: Float64Array, full: boolean): void {
  const n = gjkState.count;
  cache.count = n; cache.full = full;
  for (let k = 0; k < n; k++) {
    cache.pointsA[3 * k] = _gjkA[3 * k]; cache.pointsA[3 * k + 1] = _gjkA[3 * k + 1]; cache.pointsA[3 * k + 2] = _gjkA[3 * k + 2];
    const x = _gjkB[3 * k] - rel[0], y = _gjkB[3 * k + 1] - rel[1], z = _gjkB[3 * k + 2] - rel[2];
    cache.pointsB[3 * k] = rel[3] * x + rel[6] * y + rel[9] * z;
    cache.pointsB[3 * k + 1] = rel[4] * x + rel[7] * y + rel[10] * z;
    cache.pointsB[3 * k + 2] = rel[5] * x + rel[8] * y + rel[11] * z;
  }
}

/** Load the cached simplex for the current relative pose; returns false when there is none to use. */
function loadSimplex(cache: GjkCache | undefined, rel: Float64Array, full: boolean): boolean {
  if (!cache || cache.count === 0 || cache.full !== full) return false;
  const n = cache.count;
  for (let k = 0; k < n; k++) {
    const ax = cache.pointsA[3 * k], ay = cache.pointsA[3 * k + 1], az = cache.pointsA[3 * k + 2];
    const px = cache.pointsB[3 * k], py = cache.pointsB[3 * k + 1], pz = cache.pointsB[3 * k + 2];
    const bx = rel[3] * px + rel[4] * py + rel[5] * pz + rel[0];
    const by = rel[6] * px + rel[7] * py + rel[8] * pz + rel[1];
    const bz = rel[9] * px + rel[10] * py + rel[11] * pz + rel[2];
    _gjkA[3 * k] = ax; _gjkA[3 * k + 1] = ay; _gjkA[3 * k + 2] = az;
    _gjkB[3 * k] = bx; _gjkB[3 * k + 1] = by; _gjkB[3 * k + 2] = bz;
    _gjkW[3 * k] = ax - bx; _gjkW[3 * k + 1] = ay - by; _gjkW[3 * k + 2] = az - bz;
  }
  // drop exact duplicates (a cached degenerate simplex)
  let m = 0;
  for (let k = 0; k < n; k++) {
    let dup = false;
    for (let j = 0; j < m; j++) if (_gjkW[3 * j] === _gjkW[3 * k] && _gjkW[3 * j + 1] === _gjkW[3 * k + 1] && _gjkW[3 * j + 2] === _gjkW[3 * k + 2]) dup = true;
    if (dup) continue;
    for (let c = 0; c < 3; c++) { _gjkW[3 * m + c] = _gjkW[3 * k + c]; _gjkA[3 * m + c] = _gjkA[3 * k + c]; _gjkB[3 * m + c] = _gjkB[3 * k + c]; }
    m++;
  }
  gjkState.count = m;
  return true;
}

/** Output of gjkDistance; create once with createDistanceOutput and reuse. */
export interface DistanceOutput {
  /** Distance between the shapes (with radii), metres; 0 when they overlap. */
  distance: number;
  /** True when the shapes overlap or touch (distance 0). */
  overlap: boolean;
  /** Closest point on A and on B (world). Undefined content when overlapping. */
  readonly pointA: Float64Array;
  readonly pointB: Float64Array;
  /** Unit direction from A to B (world): (pointB − pointA)/distance. Zero when overlapping. */
  readonly normal: Float64Array;
  /** GJK iterations used. */
  iterations: number;
}

export function createDistanceOutput(): DistanceOutput {
  return { distance: 0, overlap: false, pointA: new Float64Array(3), pointB: new Float64Array(3), normal: new Float64Array(3), iterations: 0 };
}

/** Default cap on GJK iterations. */
export const GJK_MAX_ITERATIONS = 48;

// ---- simplex scratch (A's frame): w = a − b, a on A, b on B; shared with EPA ----
export const _gjkW = new Float64Array(12);
export const _gjkA = new Float64Array(12);
export const _gjkB = new Float64Array(12);
const _lam = new Float64Array(4);
const _triIdx = new Int32Array(3), _triLam = new Float64Array(3);
const _bestIdx = new Int32Array(3), _bestLam = new Float64Array(3);

/** Results of the last gjkLocal call (A's frame). */
export const gjkState = {
  count: 0,
  /** Closest point of the simplex to the origin: v = p_A − p_B. */
  vx: 0, vy: 0, vz: 0,
  /** Closest points on the cores (or whole shapes) in A's frame. */
  ax: 0, ay: 0, az: 0, bx: 0, by: 0, bz: 0,
  /** Distance |v| between what was queried (cores or whole shapes). */
  distance: 0,
  overlap: false,
  iterations: 0,
};

/**
 * Closest point to the origin on triangle (i0, i1, i2) of src (Ericson 5.1.5 with p = 0). Writes the indices of
 * the supporting sub-simplex into _triIdx and their weights into _triLam; returns how many (1–3).
 */
function closestOnTriangle(src: Float64Array, i0: number, i1: number, i2: number): number {
  const ax = src[3 * i0], ay = src[3 * i0 + 1], az = src[3 * i0 + 2];
  const bx = src[3 * i1], by = src[3 * i1 + 1], bz = src[3 * i1 + 2];
  const cx = src[3 * i2], cy = src[3 * i2 + 1], cz = src[3 * i2 + 2];
  const abx = bx - ax, aby = by - ay, abz = bz - az;
  const acx = cx - ax, acy = cy - ay, acz = cz - az;
  // Vertex region A: d1 = ab·(p − a), d2 = ac·(p − a) with p = 0.
  const d1 = -(abx * ax + aby * ay + abz * az), d2 = -(acx * ax + acy * ay + acz * az);
  if (d1 <= 0 && d2 <= 0) { _triIdx[0] = i0; _triLam[0] = 1; return 1; }
  const d3 = -(abx * bx + aby * by + abz * bz), d4 = -(acx * bx + acy * by + acz * bz);
  if (d3 >= 0 && d4 <= d3) { _triIdx[0] = i1; _triLam[0] = 1; return 1; }
  // Edge region AB: the signed area vc of (p, a, b) projected on the normal is ≤ 0.
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const t = d1 / (d1 - d3);
    _triIdx[0] = i0; _triIdx[1] = i1; _triLam[0] = 1 - t; _triLam[1] = t; return 2;
  }
  const d5 = -(abx * cx + aby * cy + abz * cz), d6 = -(acx * cx + acy * cy + acz * cz);
  if (d6 >= 0 && d5 <= d6) { _triIdx[0] = i2; _triLam[0] = 1; return 1; }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const t = d2 / (d2 - d6);
    _triIdx[0] = i0; _triIdx[1] = i2; _triLam[0] = 1 - t; _triLam[1] = t; return 2;
  }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    _triIdx[0] = i1; _triIdx[1] = i2; _triLam[0] = 1 - t; _triLam[1] = t; return 2;
  }
  // Face region: barycentrics from the three sub-areas.
  const den = va + vb + vc;
  if (!(den > 0)) { // degenerate (zero-area) triangle that passed no edge test: fall back to its first edge
    _triIdx[0] = i0; _triLam[0] = 1; return 1;
  }
  const v = vb / den, w = vc / den;
  _triIdx[0] = i0; _triIdx[1] = i1; _triIdx[2] = i2;
  _triLam[0] = 1 - v - w; _triLam[1] = v; _triLam[2] = w;
  return 3;
}

/**
 * Keep only the listed simplex vertices (in that order) with weights lam. The index lists always ascend (the
 * sub-simplices are taken in vertex order), so idx[k] ≥ k and the vertices can be moved down in place: a slot is
 * only overwritten after it has been read.
 */
function reduceSimplex(idx: Int32Array, lam: Float64Array, n: number): void {
  const w = _gjkW, pa = _gjkA, pb = _gjkB;
  for (let k = 0; k < n; k++) {
    const i = idx[k];
    if (i !== k) {
      const s = 3 * i, d = 3 * k;
      w[d] = w[s]; w[d + 1] = w[s + 1]; w[d + 2] = w[s + 2];
      pa[d] = pa[s]; pa[d + 1] = pa[s + 1]; pa[d + 2] = pa[s + 2];
      pb[d] = pb[s]; pb[d + 1] = pb[s + 1]; pb[d + 2] = pb[s + 2];
    }
    _lam[k] = lam[k];
  }
  gjkState.count = n;
}

/**
 * Reduce the simplex to the sub-simplex closest to the origin and set _lam. Returns false when the origin is
 * inside the tetrahedron (overlap).
 */
function solveSimplex(): boolean {
  const n = gjkState.count;
  const w = _gjkW;
  if (n === 1) { _lam[0] = 1; return true; }
  if (n === 2) {
    const ex = w[3] - w[0], ey = w[4] - w[1], ez = w[5] - w[2];
    const ee = ex * ex + ey * ey + ez * ez;
    const t = ee > 0 ? -(w[0] * ex + w[1] * ey + w[2] * ez) / ee : 0;
    if (t <= 0) { _triIdx[0] = 0; _triLam[0] = 1; reduceSimplex(_triIdx, _triLam, 1); }
    else if (t >= 1) { _triIdx[0] = 1; _triLam[0] = 1; reduceSimplex(_triIdx, _triLam, 1); }
    else { _lam[0] = 1 - t; _lam[1] = t; }
    return true;
  }
  if (n === 3) {
    const m = closestOnTriangle(w, 0, 1, 2);
    reduceSimplex(_triIdx, _triLam, m);
    return true;
  }
  // Tetrahedron: the origin is outside face (a, b, c) iff it lies on the other side of the face's plane than d.
  let bestD2 = Infinity, bestN = 0, anyOutside = false;
  for (let f = 0; f < 4; f++) {
    const i0 = f === 3 ? 1 : 0, i1 = f >= 2 ? 2 : 1, i2 = f >= 1 ? 3 : 2; // faces 012, 013, 023, 123
    const io = 6 - i0 - i1 - i2;
    const ax = w[3 * i0], ay = w[3 * i0 + 1], az = w[3 * i0 + 2];
    const abx = w[3 * i1] - ax, aby = w[3 * i1 + 1] - ay, abz = w[3 * i1 + 2] - az;
    const acx = w[3 * i2] - ax, acy = w[3 * i2 + 1] - ay, acz = w[3 * i2 + 2] - az;
    const nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
    const sOrigin = -(nx * ax + ny * ay + nz * az);
    const sOther = nx * (w[3 * io] - ax) + ny * (w[3 * io + 1] - ay) + nz * (w[3 * io + 2] - az);
    // Outside when the signs differ. A flat tetrahedron treats every face as a candidate: one whose fourth vertex
    // lies within 1e-10 of the face's longer edge from the face's plane (sOther² ≤ 1e-20 |n|² |e|², sOther being
    // |n| × that height). Its signs are round-off: a tiny hull's support point halfway between two earlier ones
    // made a sliver of height 2e-13 m whose float signs said "origin inside" while it passed 1 cm from the origin
    // (GJK reported overlap for shapes 1 cm apart; long fuzz run, 2026-11-29).
    const ee = Math.max(abx * abx + aby * aby + abz * abz, acx * acx + acy * acy + acz * acz);
    const nn = nx * nx + ny * ny + nz * nz;
    if (sOrigin * sOther < 0 || sOther * sOther <= 1e-20 * nn * ee) {
      anyOutside = true;
      const m = closestOnTriangle(w, i0, i1, i2);
      let px = 0, py = 0, pz = 0;
      for (let k = 0; k < m; k++) { const i = _triIdx[k]; px += _triLam[k] * w[3 * i]; py += _triLam[k] * w[3 * i + 1]; pz += _triLam[k] * w[3 * i + 2]; }
      const d2 = px * px + py * py + pz * pz;
      if (d2 < bestD2) {
        bestD2 = d2; bestN = m;
        for (let k = 0; k < m; k++) { _bestIdx[k] = _triIdx[k]; _bestLam[k] = _triLam[k]; }
      }
    }
  }
  if (!anyOutside) return false;
  reduceSimplex(_bestIdx, _bestLam, bestN);
  return true;
}

function updateV(): void {
  let vx = 0, vy = 0, vz = 0, ax = 0, ay = 0, az = 0, bx = 0, by = 0, bz = 0;
  for (let k = 0; k < gjkState.count; k++) {
    const l = _lam[k];
    vx += l * _gjkW[3 * k]; vy += l * _gjkW[3 * k + 1]; vz += l * _gjkW[3 * k + 2];
    ax += l * _gjkA[3 * k]; ay += l * _gjkA[3 * k + 1]; az += l * _gjkA[3 * k + 2];
    bx += l * _gjkB[3 * k]; by += l * _gjkB[3 * k + 1]; bz += l * _gjkB[3 * k + 2];
  }
  const st = gjkState;
  if (gjkState.count === 3) {
    // Face region: Σλw cancels badly when the triangle is large and passes near the origin (|w| ~ 1, |v| ~ 1e-12);
    // the projection of the origin on the plane, v = n (n·w0)/(n·n), keeps v accurate to round-off of |v| itself.
    const w = _gjkW;
    const ux = w[3] - w[0], uy = w[4] - w[1], uz = w[5] - w[2], qx = w[6] - w[0], qy = w[7] - w[1], qz = w[8] - w[2];
    const nx = uy * qz - uz * qy, ny = uz * qx - ux * qz, nz = ux * qy - uy * qx;
    const nn = nx * nx + ny * ny + nz * nz;
    if (nn > 0) {
      const k = (nx * w[0] + ny * w[1] + nz * w[2]) / nn; vx = nx * k; vy = ny * k; vz = nz * k;
      // Keep the witness points consistent with that v (pointA − pointB = v): when the closest features are
      // parallel (a box edge along a cylinder's side) the pair is not unique, the barycentrics are ill-conditioned
      // along the shared direction, and Σλa, Σλb drifted apart along it (1 m apart shapes, points 6.7 µm too far
      // apart; long fuzz run, 2026-11-29). Moving B's point by the difference slides it along that direction.
      bx = ax - vx; by = ay - vy; bz = az - vz;
    }
  }
  st.vx = vx; st.vy = vy; st.vz = vz; st.ax = ax; st.ay = ay; st.az = az; st.bx = bx; st.by = by; st.bz = bz;
}

/**
 * GJK in A's frame on the relative pose `rel` (B in A's frame). `full` includes the radii, else cores only.
 * dir[0..2]: initial search direction (e.g. from A towards B, or the cached one; an array so that no number is
 * boxed by the call). `booleanOnly` stops as soon as a separating axis is found. Results in gjkState and the
 * simplex scratch. Never allocates.
 */
export function gjkLocal(a: Shape, b: Shape, rel: Float64Array, full: boolean, dir: Float64Array,
  maxIterations: number, booleanOnly: boolean, cache?: GjkCache): void {
  const st = gjkState;
  st.overlap = false;
  if (loadSimplex(cache, rel, full)) {
    if (!solveSimplex()) {
      st.overlap = true; st.iterations = 0; st.distance = 0;
      st.vx = 0; st.vy = 0; st.vz = 0;
      if (cache) saveSimplex(cache, rel, full);
      return;
    }
    updateV();
  } else {
    const d = _pairDir;
    d[0] = dir[0]; d[1] = dir[1]; d[2] = dir[2];
    if (!(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] > 0)) { d[0] = 1; d[1] = 0; d[2] = 0; }
    pairSupport(a, b, rel, d, full, _gjkW, _gjkA, _gjkB, 0);
    st.count = 1; _lam[0] = 1;
    updateV();
  }
  // Scale for absolute tolerances: the size of the configuration.
  const scale = a.boundingRadius + b.boundingRadius + Math.sqrt(rel[0] * rel[0] + rel[1] * rel[1] + rel[2] * rel[2]);
  const absTol2 = (1e-13 * scale) * (1e-13 * scale);
  const relTol = 1e-12;
  let it = 0;
  for (; it < maxIterations; it++) {
    const vv = st.vx * st.vx + st.vy * st.vy + st.vz * st.vz;
    if (vv <= absTol2) { st.overlap = true; break; } // touching (or overlapping by less than round-off)
    const k = st.count;
    _pairDir[0] = -st.vx; _pairDir[1] = -st.vy; _pairDir[2] = -st.vz;
    pairSupport(a, b, rel, _pairDir, full, _gjkW, _gjkA, _gjkB, 3 * k);
    const vw = st.vx * _gjkW[3 * k] + st.vy * _gjkW[3 * k + 1] + st.vz * _gjkW[3 * k + 2];
    if (booleanOnly && vw > 0) break; // −v separates: s_D(−v)·(−v) < 0
    if (vv - vw <= relTol * vv) break; // converged: |v| is the distance within round-off
    // A repeated vertex means no further progress is possible.
    let dup = false;
    for (let j = 0; j < k; j++) {
      if (_gjkW[3 * j] === _gjkW[3 * k] && _gjkW[3 * j + 1] === _gjkW[3 * k + 1] && _gjkW[3 * j + 2] === _gjkW[3 * k + 2]) { dup = true; break; }
    }
    if (dup) break;
    const pvx = st.vx, pvy = st.vy, pvz = st.vz, pax = st.ax, pay = st.ay, paz = st.az, pbx = st.bx, pby = st.by, pbz = st.bz;
    st.count = k + 1;
    if (!solveSimplex()) { st.overlap = true; it++; break; }
    updateV();
    const nv = st.vx * st.vx + st.vy * st.vy + st.vz * st.vz;
    if (nv >= vv) { // round-off: no decrease, keep the previous (better) answer
      st.vx = pvx; st.vy = pvy; st.vz = pvz; st.ax = pax; st.ay = pay; st.az = paz; st.bx = pbx; st.by = pby; st.bz = pbz;
      it++;
      break;
    }
  }
  st.iterations = it;
  // GJK's answer is accurate to round-off relative to the configuration's size (long thin simplices lose more):
  // a distance below 1e-10 of the scale is reported as touching, so a cold start and a warm start agree
  if (!st.overlap && st.vx * st.vx + st.vy * st.vy + st.vz * st.vz <= (1e-10 * scale) * (1e-10 * scale)) st.overlap = true;
  st.distance = st.overlap ? 0 : Math.sqrt(st.vx * st.vx + st.vy * st.vy + st.vz * st.vz);
  if (cache) saveSimplex(cache, rel, full);
}

/** Initial direction for a query: the cache if valid, else from A's centre towards B's. */
function startDirection(cache: GjkCache | undefined, rel: Float64Array, out: Float64Array): void {
  if (cache && cache.valid) { out[0] = cache.dir[0]; out[1] = cache.dir[1]; out[2] = cache.dir[2]; return; }
  out[0] = rel[0]; out[1] = rel[1]; out[2] = rel[2];
}
const _dir0 = new Float64Array(3);

/**
 * Distance and closest points between two shapes (radii included). Overlapping shapes report distance 0 and
 * overlap = true (use contactManifold or epaPenetration for the depth). Writes `out` and updates `cache`.
 */
export function gjkDistance(a: Shape, poseA: Pose, b: Shape, poseB: Pose, out: DistanceOutput, cache?: GjkCache,
  maxIterations = GJK_MAX_ITERATIONS): DistanceOutput {
  requireInteger('maxIterations', maxIterations, 1, 1000);
  const rel = _pairRel;
  relativePose(poseA, poseB, rel);
  startDirection(cache, rel, _dir0);
  // Cores first, radii added analytically.
  gjkLocal(a, b, rel, false, _dir0, maxIterations, false, cache);
  const st = gjkState;
  out.iterations = st.iterations;
  const r = a.radius + b.radius;
  if (st.overlap || st.distance <= r) {
    out.overlap = true; out.distance = 0;
    out.normal[0] = out.normal[1] = out.normal[2] = 0;
    if (cache && !st.overlap) { cache.dir[0] = -st.vx; cache.dir[1] = -st.vy; cache.dir[2] = -st.vz; cache.valid = true; }
    return out;
  }
  const inv = 1 / st.distance;
  const nx = -st.vx * inv, ny = -st.vy * inv, nz = -st.vz * inv; // A → B
  out.overlap = false;
  out.distance = st.distance - r;
  // (points passed in an array: three numbers passed to a call V8 does not inline are three heap allocations)
  const ra = a.radius, rb = b.radius, p = _dir0;
  p[0] = st.ax + nx * ra; p[1] = st.ay + ny * ra; p[2] = st.az + nz * ra;
  pointToWorldFrom(poseA, p, out.pointA, 0);
  p[0] = st.bx - nx * rb; p[1] = st.by - ny * rb; p[2] = st.bz - nz * rb;
  pointToWorldFrom(poseA, p, out.pointB, 0);
  const wn = out.normal;
  wn[0] = poseA[3] * nx + poseA[4] * ny + poseA[5] * nz; wn[1] = poseA[6] * nx + poseA[7] * ny + poseA[8] * nz; wn[2] = poseA[9] * nx + poseA[10] * ny + poseA[11] * nz;
  if (cache) { cache.dir[0] = nx; cache.dir[1] = ny; cache.dir[2] = nz; cache.valid = true; }
  return out;
}

/** Boolean overlap test (touching counts as overlap). Cheaper than gjkDistance: stops at the first separating axis. */
export function gjkOverlap(a: Shape, poseA: Pose, b: Shape, poseB: Pose, cache?: GjkCache, maxIterations = GJK_MAX_ITERATIONS): boolean {
  const rel = _pairRel;
  relativePose(poseA, poseB, rel);
  startDirection(cache, rel, _dir0);
  gjkLocal(a, b, rel, true, _dir0, maxIterations, true, cache);
  const st = gjkState;
  if (cache && !st.overlap) {
    // the last search direction −v separates (or nearly): remember it
    cache.dir[0] = -st.vx; cache.dir[1] = -st.vy; cache.dir[2] = -st.vz; cache.valid = true;
  }
  return st.overlap;
}
