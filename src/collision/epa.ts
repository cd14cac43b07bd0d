/**
 * EPA, the Expanding Polytope Algorithm (van den Bergen 2001, "Proximity queries and penetration depth computation
 * on 3D game objects"): when GJK finds the origin inside D = A − B, the penetration depth is the distance from the
 * origin to D's boundary and the normal is the direction of that nearest boundary point.
 *
 *   P ← a tetrahedron inside D containing the origin (GJK's last simplex, blown up if GJK stopped early)
 *   loop:
 *     f ← the face of P nearest the origin (distance d_f along its outward normal n_f)
 *     w ← s_D(n_f)
 *     if w·n_f − d_f ≤ tol: stop, depth = d_f, normal = n_f     (d_f ≤ depth ≤ w·n_f brackets the answer)
 *     delete every face that w can see, and close the hole (its "horizon") with a fan of faces to w
 *
 * With D = A − B, the nearest boundary point p = d·n means translating A by −p separates the shapes, so n points
 * from A to B. The contact points on A and on B come from p's barycentric coordinates in the final face.
 *
 * Robustness: the initial polytope is built from supports in fresh directions when GJK's simplex is not a
 * tetrahedron (touching or degenerate shapes); a flat D (two coplanar flat shapes) reports depth 0 with D's plane
 * normal; capacities and the iteration cap bound the work; all scratch is module-scope, nothing is allocated.
 */
import { _gjkA, _gjkB, _gjkW, gjkState } from './gjk';
import { _pairDir, pairSupport } from './pair';
import { CORE_BOX } from './shapes';
import type { Shape } from './shapes';

export const EPA_MAX_ITERATIONS = 64;
/**
 * Convergence: stop when the support point along the nearest face's normal lies within EPA_REL_TOL × (size of the
 * pair) of that face's plane. On polytopes (boxes, hulls) EPA terminates exactly once the nearest face lies on a
 * face of D, so the iteration count hardly depends on this value (measured on the 100,000 benchmark box pairs: mean
 * 6.27 iterations at 1e-10, 6.27 at 1e-5, 6.24 at 1e-3); the tight value only matters for round shapes.
 */
const EPA_REL_TOL = 1e-10;
const MAXV = EPA_MAX_ITERATIONS + 8;
// Live faces of a closed triangulated polytope with V vertices: 2V − 4. Slots of removed faces are recycled through
// a free list, so the table never holds more than the live faces plus one horizon's worth of new ones.
const MAXF = 2 * MAXV + 64;
const MAXE = MAXF;

const _ew = new Float64Array(3 * MAXV), _ea = new Float64Array(3 * MAXV), _eb = new Float64Array(3 * MAXV);
// Faces: vertex indices (counter-clockwise seen from outside), outward unit normal, distance of the plane from the
// origin, and adjacency: _fadj[3f + k] = 4g + e, the face g across edge k (from vertex k to vertex k + 1) and that
// edge's index e in g (the same edge, run the other way). With adjacency the visible region is found by walking
// across edges from the nearest face (no search over all faces), and new faces are linked to their neighbours
// directly.
const _fi = new Int32Array(3 * MAXF);
const _fadj = new Int32Array(3 * MAXF);
const _fn = new Float64Array(3 * MAXF);
const _fd = new Float64Array(MAXF);
// selection key: the plane distance of a live face, Infinity for a removed one (one comparison per slot in the scan)
const _fkey = new Float64Array(MAXF);
const _free = new Int32Array(MAXF);
// horizon: edges (a → b) in loop order, with the kept face across each (4g + e)
const _ha = new Int32Array(MAXE), _hb = new Int32Array(MAXE), _hadj = new Int32Array(MAXE);
// the new faces' unit normals and plane distances, per horizon edge, computed before any is built
const _nn = new Float64Array(3 * MAXE), _nd = new Float64Array(MAXE);
// depth-first walk over the visible faces: removal stamps, and a stack of (face, next edge, edges left)
const _fremoved = new Int32Array(MAXF);
const _stack = new Int32Array(MAXF);
let _floodStamp = 0;

/** Result of the last epaLocal call (A's frame). */
export const epaState = {
  nx: 0, ny: 0, nz: 0,
  depth: 0,
  /** Deepest points on A and on B (A's frame). */
  ax: 0, ay: 0, az: 0, bx: 0, by: 0, bz: 0,
  iterations: 0,
  /** True when D is flat or lower-dimensional (depth 0, normal perpendicular to it). */
  degenerate: false,
};

let nv = 0, nf = 0, nFree = 0;

/** Append the support point of D along dirs[i..i+2]. */
function addVertex(a: Shape, b: Shape, rel: Float64Array, dirs: Float64Array, i: number): void {
  _pairDir[0] = dirs[i]; _pairDir[1] = dirs[i + 1]; _pairDir[2] = dirs[i + 2];
  pairSupport(a, b, rel, _pairDir, true, _ew, _ea, _eb, 3 * nv);
  nv++;
}

function volume6(i: number, j: number, k: number, l: number): number {
  const ax = _ew[3 * i], ay = _ew[3 * i + 1], az = _ew[3 * i + 2];
  const ux = _ew[3 * j] - ax, uy = _ew[3 * j + 1] - ay, uz = _ew[3 * j + 2] - az;
  const vx = _ew[3 * k] - ax, vy = _ew[3 * k + 1] - ay, vz = _ew[3 * k + 2] - az;
  const wx = _ew[3 * l] - ax, wy = _ew[3 * l + 1] - ay, wz = _ew[3 * l + 2] - az;
  return wx * (uy * vz - uz * vy) + wy * (uz * vx - ux * vz) + wz * (ux * vy - uy * vx);
}

function dist2(i: number, j: number): number {
  const dx = _ew[3 * i] - _ew[3 * j], dy = _ew[3 * i + 1] - _ew[3 * j + 1], dz = _ew[3 * i + 2] - _ew[3 * j + 2];
  return dx * dx + dy * dy + dz * dz;
}

const _blowDirs = new Float64Array(12);

// Six directions tried in turn when blowing up a degenerate simplex.
const AXES = new Float64Array([1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1]);

function setFlat(nx: number, ny: number, nz: number): void {
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
  const e = epaState;
  e.nx = nx / l; e.ny = ny / l; e.nz = nz / l; e.depth = 0; e.degenerate = true;
  e.ax = _ea[0]; e.ay = _ea[1]; e.az = _ea[2]; e.bx = _eb[0]; e.by = _eb[1]; e.bz = _eb[2];
}

/**
 * The expansion loop (hot: counters are locals, not module variables). Returns the nearest face's slot.
 *
 * Removing the faces w sees: a depth-first walk across edges from the nearest face (which w sees: it is above
 * that face's plane by more than tol). Crossing edge k of a removed face into face g: if w sees g, g is removed
 * and the walk continues through g's other two edges, starting with the one after the shared edge; otherwise the
 * edge is on the horizon. Visiting edges in this order lists the horizon as one closed loop, counter-clockwise
 * seen from w (the order of Bullet's and van den Bergen's EPA "silhouette" walk), so new face m = (a_m, b_m, w)
 * shares edge (b_m, w) with face m + 1 and edge (w, a_m) with face m − 1. The walk only ever grows a connected set:
 * testing every face independently, as before 2026-11-29, could also remove faces on the far side that see w only by
 * round-off when D is nearly flat (a cylinder tilted by 1e-13 rad inside a box): the removed set then had holes, the
 * re-triangulated polytope was no longer a closed surface and EPA stopped at a wrong face (depth 0.31 instead of
 * 0.55). The loop is checked (each edge starts where the previous one ends); if round-off ever breaks it, EPA stops
 * with the best face so far rather than building an open surface.
 */
function epaExpand(a: Shape, b: Shape, rel: Float64Array, maxIterations: number): number {
  const tol = EPA_REL_TOL * (a.boundingRadius + b.boundingRadius);
  const visTol = tol * 1e-3;
  // Hot loop: the module's arrays in locals, the box–box support and the face set-up written out inline (V8 does
  // not inline setFace or pairSupport here: both exceed its 460-byte bytecode limit for inlining).
  const ew = _ew, ea = _ea, eb = _eb, fi = _fi, fadj = _fadj, fn = _fn, fd = _fd, fkey = _fkey, fremoved = _fremoved;
  const stack = _stack, free = _free;
  const ha = _ha, hb = _hb, hadj = _hadj;
  const boxes = a.core === CORE_BOX && b.core === CORE_BOX;
  const ahx = a.hx, ahy = a.hy, ahz = a.hz, bhx = b.hx, bhy = b.hy, bhz = b.hz;
  const tx = rel[0], ty = rel[1], tz = rel[2];
  const r00 = rel[3], r01 = rel[4], r02 = rel[5], r10 = rel[6], r11 = rel[7], r12 = rel[8], r20 = rel[9], r21 = rel[10], r22 = rel[11];
  let nvL = nv, nfL = nf, nFreeL = nFree, best = 0, it = 0;
  for (; ; it++) {
    // nearest live face (linear scan: a few dozen faces at most for the iteration counts seen on polytopes)
    best = -1;
    let bd = Infinity;
    for (let f = 0; f < nfL; f++) { const k = fkey[f]; if (k < bd) { bd = k; best = f; } }
    if (best < 0) { best = 0; break; }
    if (it >= maxIterations || nvL >= MAXV) break;
    const nx = fn[3 * best], ny = fn[3 * best + 1], nz = fn[3 * best + 2];
    const w = nvL, o = 3 * w;
    if (boxes) {
      // s_A(n) − s_B(−n): corners with the signs of n (A's frame) and of −Rᵀn (B's frame)
      // (branch-free signs, see pairSupport)
      const ax = ahx * (+(nx >= 0) * 2 - 1), ay = ahy * (+(ny >= 0) * 2 - 1), az = ahz * (+(nz >= 0) * 2 - 1);
      const ex = -(r00 * nx + r10 * ny + r20 * nz), ey = -(r01 * nx + r11 * ny + r21 * nz), ez = -(r02 * nx + r12 * ny + r22 * nz);
      const sx = bhx * (+(ex >= 0) * 2 - 1), sy = bhy * (+(ey >= 0) * 2 - 1), sz = bhz * (+(ez >= 0) * 2 - 1);
      const bx = r00 * sx + r01 * sy + r02 * sz + tx, by = r10 * sx + r11 * sy + r12 * sz + ty, bz = r20 * sx + r21 * sy + r22 * sz + tz;
      ea[o] = ax; ea[o + 1] = ay; ea[o + 2] = az; eb[o] = bx; eb[o + 1] = by; eb[o + 2] = bz;
      ew[o] = ax - bx; ew[o + 1] = ay - by; ew[o + 2] = az - bz;
    } else {
      _pairDir[0] = nx; _pairDir[1] = ny; _pairDir[2] = nz;
      pairSupport(a, b, rel, _pairDir, true, ew, ea, eb, o);
    }
    const wx = ew[o], wy = ew[o + 1], wz = ew[o + 2];
    if (wx * nx + wy * ny + wz * nz - bd <= tol) break; // converged: the support point adds (almost) nothing
    // ---- visible faces and horizon (see above) ----
    if (_floodStamp >= 0x3fffffff) { fremoved.fill(0); _floodStamp = 0; } // stamps stay in Int32 range
    const stamp = ++_floodStamp;
    let ne = 0, top = 0, overflow = false;
    // removed faces go straight onto the free list (taken back off if the iteration is undone)
    const free0 = nFreeL;
    fkey[best] = Infinity; fremoved[best] = stamp; free[nFreeL++] = best;
    // stack entries: face · 8 + next edge · 2 + (edges left − 1)... packed as face · 16 + next edge · 4 + edges left
    stack[0] = best * 16 + 3; top = 1;
    while (top > 0) {
      const entry = stack[top - 1];
      const left = entry & 3;
      if (left === 0) { top--; continue; }
      const f = entry >> 4, k = (entry >> 2) & 3;
      stack[top - 1] = f * 16 + (k === 2 ? 0 : k + 1) * 4 + left - 1;
      const adj = fadj[3 * f + k], g = adj >> 2, e = adj & 3;
      if (fremoved[g] === stamp) continue; // interior edge of the removed region
      const dg = fd[g];
      if (dg !== Infinity && fn[3 * g] * wx + fn[3 * g + 1] * wy + fn[3 * g + 2] * wz - dg > visTol) {
        fkey[g] = Infinity; fremoved[g] = stamp; free[nFreeL++] = g;
        stack[top++] = g * 16 + (e === 2 ? 0 : e + 1) * 4 + 2;
      } else if (ne < MAXE) {
        // horizon edge: k runs from vertex k to k + 1 of f
        ha[ne] = fi[3 * f + k]; hb[ne] = fi[3 * f + (k === 2 ? 0 : k + 1)]; hadj[ne] = adj; ne++;
      } else overflow = true;
    }
    // the horizon must be one closed loop (numerically guaranteed only up to round-off): else keep the best face
    let closed = ne >= 3 && !overflow;
    for (let m = 0; m < ne && closed; m++) if (ha[m === ne - 1 ? 0 : m + 1] !== hb[m]) closed = false;
    if (!closed || nFreeL + (MAXF - nfL) < ne) {
      // undo the removal (the polytope is still the closed one of the previous iteration)
      for (let r = free0; r < nFreeL; r++) fkey[free[r]] = fd[free[r]];
      nFreeL = free0;
      break;
    }
    // ---- the new faces' planes first: each must keep the origin behind it ----
    // D contains the origin, so every face of a correct polytope has a plane distance ≥ 0. A new face (a, b, w) with
    // a negative distance means round-off has folded the polytope (w nearly coplanar with faces it was meant to
    // see, as with a cylinder's cap and a box face parallel to 1e-11 rad around coincident centres): building it
    // would make that face the "nearest" and report a negative depth for overlapping shapes (long fuzz run,
    // 2026-11-29). Such an iteration is undone and EPA stops with the polytope it had, which is still correct.
    let folded = false;
    for (let m = 0; m < ne; m++) {
      const i = ha[m], j = hb[m];
      const px = ew[3 * i], py = ew[3 * i + 1], pz = ew[3 * i + 2];
      const ux = ew[3 * j] - px, uy = ew[3 * j + 1] - py, uz = ew[3 * j + 2] - pz;
      const vx = wx - px, vy = wy - py, vz = wz - pz;
      const cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
      const l = Math.sqrt(cx * cx + cy * cy + cz * cz);
      if (l > 0) {
        const inv = 1 / l;
        _nn[3 * m] = cx * inv; _nn[3 * m + 1] = cy * inv; _nn[3 * m + 2] = cz * inv;
        _nd[m] = (cx * px + cy * py + cz * pz) * inv;
        if (_nd[m] < -tol) folded = true;
      } else _nd[m] = Infinity;
    }
    if (folded) {
      for (let r = free0; r < nFreeL; r++) fkey[free[r]] = fd[free[r]];
      nFreeL = free0;
      break;
    }
    // ---- new faces (a, b, w), in free slots first ----
    nvL++;
    let first = -1, prev = -1;
    for (let m = 0; m < ne; m++) {
      const f = nFreeL > 0 ? free[--nFreeL] : nfL++;
      // face (i, j, w) with its outward unit normal (i → j → w counter-clockwise) and plane distance
      const i = ha[m], j = hb[m];
      fi[3 * f] = i; fi[3 * f + 1] = j; fi[3 * f + 2] = w;
      const dist = _nd[m];
      if (dist < Infinity) {
        fn[3 * f] = _nn[3 * m]; fn[3 * f + 1] = _nn[3 * m + 1]; fn[3 * f + 2] = _nn[3 * m + 2];
        fd[f] = dist; fkey[f] = dist;
      } else {
        fn[3 * f] = 0; fn[3 * f + 1] = 0; fn[3 * f + 2] = 0;
        fd[f] = Infinity; fkey[f] = Infinity;
      }
      // edge 0 (i → j) borders the kept face across the horizon; edge 2 (w → i) borders edge 1 (i → w) of the
      // previous new face (whose horizon edge ended at i)
      const adj = hadj[m];
      fadj[3 * f] = adj; fadj[3 * (adj >> 2) + (adj & 3)] = 4 * f;
      if (prev >= 0) { fadj[3 * prev + 1] = 4 * f + 2; fadj[3 * f + 2] = 4 * prev + 1; } else first = f;
      prev = f;
    }
    fadj[3 * prev + 1] = 4 * first + 2; fadj[3 * first + 2] = 4 * prev + 1; // close the fan
  }
  epaState.iterations = it;
  nv = nvL; nf = nfL; nFree = nFreeL;
  return best;
}

/**
 * Faces of tetrahedron (p, q, r, s) with (p, q, r) counter-clockwise seen from outside (s behind it):
 * 0 = (p, q, r), 1 = (p, s, q), 2 = (q, s, r), 3 = (r, s, p), and the edge links between them.
 */
function initTetrahedron(p: number, q: number, r: number, s: number): void {
  const fi = _fi, fadj = _fadj, ew = _ew, fn = _fn, fd = _fd, fkey = _fkey;
  fi[0] = p; fi[1] = q; fi[2] = r; fi[3] = p; fi[4] = s; fi[5] = q; fi[6] = q; fi[7] = s; fi[8] = r; fi[9] = r; fi[10] = s; fi[11] = p;
  // Adjacency entries 4g + e (face g, edge e): face 0's edges p→q, q→r, r→p meet faces 1 (q→p, edge 2),
  // 2 (r→q, edge 2), 3 (p→r, edge 2); the side faces meet at the edges through s: face 1's s→q (edge 1) is face
  // 2's q→s (edge 0), face 2's s→r is face 3's r→s, face 3's s→p is face 1's p→s.
  fadj[0] = 6; fadj[1] = 10; fadj[2] = 14;
  fadj[3] = 13; fadj[4] = 8; fadj[5] = 0;
  fadj[6] = 5; fadj[7] = 12; fadj[8] = 1;
  fadj[9] = 9; fadj[10] = 4; fadj[11] = 2;
  for (let f = 0; f < 4; f++) {
    const i = fi[3 * f], j = fi[3 * f + 1], k = fi[3 * f + 2];
    const ax = ew[3 * i], ay = ew[3 * i + 1], az = ew[3 * i + 2];
    const ux = ew[3 * j] - ax, uy = ew[3 * j + 1] - ay, uz = ew[3 * j + 2] - az;
    const vx = ew[3 * k] - ax, vy = ew[3 * k + 1] - ay, vz = ew[3 * k + 2] - az;
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (l > 0) {
      const inv = 1 / l, dist = (nx * ax + ny * ay + nz * az) * inv;
      fn[3 * f] = nx * inv; fn[3 * f + 1] = ny * inv; fn[3 * f + 2] = nz * inv;
      fd[f] = dist; fkey[f] = dist;
    } else {
      fn[3 * f] = 0; fn[3 * f + 1] = 0; fn[3 * f + 2] = 0;
      fd[f] = Infinity; fkey[f] = Infinity;
    }
  }
  nf = 4;
}

/**
 * EPA on the whole shapes (radii included), starting from GJK's simplex (gjkState.count points in the GJK
 * scratch). `scale` sets the absolute tolerance. Results in epaState.
 */
export function epaLocal(a: Shape, b: Shape, rel: Float64Array, maxIterations: number): void {
  const e = epaState;
  e.degenerate = false;
  const scale = a.boundingRadius + b.boundingRadius;
  const eps2 = (1e-9 * scale) * (1e-9 * scale);
  nv = 0; nf = 0; nFree = 0;
  for (let k = 0; k < gjkState.count; k++) {
    for (let c = 0; c < 3; c++) { _ew[3 * nv + c] = _gjkW[3 * k + c]; _ea[3 * nv + c] = _gjkA[3 * k + c]; _eb[3 * nv + c] = _gjkB[3 * k + c]; }
    nv++;
  }
  if (nv === 0) addVertex(a, b, rel, AXES, 0);
  // --- blow up to a tetrahedron ---
  // 1 point: add the first support (among ±axes) distinct from it.
  for (let k = 0; nv === 1 && k < 6; k++) {
    addVertex(a, b, rel, AXES, 3 * k);
    if (dist2(0, 1) <= eps2) nv--;
  }
  if (nv === 1) { setFlat(1, 0, 0); return; } // D is a single point
  // 2 points: supports perpendicular to the segment.
  if (nv === 2) {
    const ex = _ew[3] - _ew[0], ey = _ew[4] - _ew[1], ez = _ew[5] - _ew[2];
    // pick the axis least aligned with e; p = e × axis, q = e × p
    const ax = Math.abs(ex), ay = Math.abs(ey), az = Math.abs(ez);
    let px: number, py: number, pz: number;
    if (ax <= ay && ax <= az) { px = 0; py = ez; pz = -ey; } else if (ay <= az) { px = -ez; py = 0; pz = ex; } else { px = ey; py = -ex; pz = 0; }
    const qx = ey * pz - ez * py, qy = ez * px - ex * pz, qz = ex * py - ey * px;
    const dirs = _blowDirs;
    dirs[0] = px; dirs[1] = py; dirs[2] = pz; dirs[3] = -px; dirs[4] = -py; dirs[5] = -pz;
    dirs[6] = qx; dirs[7] = qy; dirs[8] = qz; dirs[9] = -qx; dirs[10] = -qy; dirs[11] = -qz;
    let best = 0, bestArea = -1;
    for (let k = 0; k < 4 && nv === 2; k++) {
      addVertex(a, b, rel, dirs, 3 * k);
      const ux = _ew[6] - _ew[0], uy = _ew[7] - _ew[1], uz = _ew[8] - _ew[2];
      const cx = uy * ez - uz * ey, cy = uz * ex - ux * ez, cz = ux * ey - uy * ex;
      const area2 = cx * cx + cy * cy + cz * cz;
      if (area2 > eps2 * (ex * ex + ey * ey + ez * ez)) break;
      if (area2 > bestArea) { bestArea = area2; best = k; }
      nv--;
    }
    if (nv === 2) { void best; setFlat(px, py, pz); return; } // D is a segment
  }
  // 3 points: supports along ± the triangle normal; keep the one giving the larger volume.
  if (nv === 3) {
    const ux = _ew[3] - _ew[0], uy = _ew[4] - _ew[1], uz = _ew[5] - _ew[2];
    const vx = _ew[6] - _ew[0], vy = _ew[7] - _ew[1], vz = _ew[8] - _ew[2];
    const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
    const dirs = _blowDirs;
    dirs[0] = nx; dirs[1] = ny; dirs[2] = nz; dirs[3] = -nx; dirs[4] = -ny; dirs[5] = -nz;
    addVertex(a, b, rel, dirs, 0);
    const v1 = Math.abs(volume6(0, 1, 2, 3));
    addVertex(a, b, rel, dirs, 3);
    const v2 = Math.abs(volume6(0, 1, 2, 4));
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (Math.max(v1, v2) <= 1e-9 * scale * nl) { nv = 3; setFlat(nx, ny, nz); return; } // D is flat
    if (v2 > v1) { for (let c = 0; c < 3; c++) { _ew[9 + c] = _ew[12 + c]; _ea[9 + c] = _ea[12 + c]; _eb[9 + c] = _eb[12 + c]; } }
    nv = 4;
  }
  // --- initial faces, wound outward (the 4th vertex must be behind each face), and their adjacency ---
  if (volume6(0, 1, 2, 3) > 0) initTetrahedron(0, 2, 1, 3); else initTetrahedron(0, 1, 2, 3);

  const best = epaExpand(a, b, rel, maxIterations);
  // Answer from the nearest face: p = d n, barycentrics of p in the face triangle.
  const f = best;
  const i0 = _fi[3 * f], i1 = _fi[3 * f + 1], i2 = _fi[3 * f + 2];
  const nx = _fn[3 * f], ny = _fn[3 * f + 1], nz = _fn[3 * f + 2], d = _fd[f];
  if (!(d < Infinity)) { setFlat(1, 0, 0); return; }
  const px = nx * d, py = ny * d, pz = nz * d;
  const ax = _ew[3 * i0], ay = _ew[3 * i0 + 1], az = _ew[3 * i0 + 2];
  const v0x = _ew[3 * i1] - ax, v0y = _ew[3 * i1 + 1] - ay, v0z = _ew[3 * i1 + 2] - az;
  const v1x = _ew[3 * i2] - ax, v1y = _ew[3 * i2 + 1] - ay, v1z = _ew[3 * i2 + 2] - az;
  const v2x = px - ax, v2y = py - ay, v2z = pz - az;
  const d00 = v0x * v0x + v0y * v0y + v0z * v0z, d01 = v0x * v1x + v0y * v1y + v0z * v1z, d11 = v1x * v1x + v1y * v1y + v1z * v1z;
  const d20 = v2x * v0x + v2y * v0y + v2z * v0z, d21 = v2x * v1x + v2y * v1y + v2z * v1z;
  const den = d00 * d11 - d01 * d01;
  let l1 = 0, l2 = 0;
  if (den > 0) { l1 = (d11 * d20 - d01 * d21) / den; l2 = (d00 * d21 - d01 * d20) / den; }
  const l0 = 1 - l1 - l2;
  e.nx = nx; e.ny = ny; e.nz = nz; e.depth = d;
  e.ax = l0 * _ea[3 * i0] + l1 * _ea[3 * i1] + l2 * _ea[3 * i2];
  e.ay = l0 * _ea[3 * i0 + 1] + l1 * _ea[3 * i1 + 1] + l2 * _ea[3 * i2 + 1];
  e.az = l0 * _ea[3 * i0 + 2] + l1 * _ea[3 * i1 + 2] + l2 * _ea[3 * i2 + 2];
  e.bx = l0 * _eb[3 * i0] + l1 * _eb[3 * i1] + l2 * _eb[3 * i2];
  e.by = l0 * _eb[3 * i0 + 1] + l1 * _eb[3 * i1 + 1] + l2 * _eb[3 * i2 + 1];
  e.bz = l0 * _eb[3 * i0 + 2] + l1 * _eb[3 * i1 + 2] + l2 * _eb[3 * i2 + 2];
}
