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
import { pairSupport } from './pair';
import type { Shape } from './shapes';

export const EPA_MAX_ITERATIONS = 64;
const MAXV = EPA_MAX_ITERATIONS + 8;
const MAXF = 4 + 2 * MAXV * 3;
const MAXE = 3 * MAXF;

const _ew = new Float64Array(3 * MAXV), _ea = new Float64Array(3 * MAXV), _eb = new Float64Array(3 * MAXV);
const _fi = new Int32Array(3 * MAXF);
const _fn = new Float64Array(3 * MAXF);
const _fd = new Float64Array(MAXF);
const _falive = new Uint8Array(MAXF);
const _edges = new Int32Array(2 * MAXE);
// flood fill of the visible faces: removal stamps and the stack
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

let nv = 0, nf = 0;

function addVertex(a: Shape, b: Shape, rel: Float64Array, dx: number, dy: number, dz: number): number {
  pairSupport(a, b, rel, dx, dy, dz, true, _ew, _ea, _eb, 3 * nv);
  return nv++;
}

/** Add face (i, j, k) wound counter-clockwise seen from outside; returns false when out of capacity. */
function addFace(i: number, j: number, k: number): boolean {
  if (nf >= MAXF) return false;
  setFace(nf++, i, j, k);
  return true;
}

/** Write face slot f = (i, j, k): outward unit normal and plane distance (Infinity for a zero-area sliver). */
function setFace(f: number, i: number, j: number, k: number): void {
  _fi[3 * f] = i; _fi[3 * f + 1] = j; _fi[3 * f + 2] = k;
  const ax = _ew[3 * i], ay = _ew[3 * i + 1], az = _ew[3 * i + 2];
  const ux = _ew[3 * j] - ax, uy = _ew[3 * j + 1] - ay, uz = _ew[3 * j + 2] - az;
  const vx = _ew[3 * k] - ax, vy = _ew[3 * k + 1] - ay, vz = _ew[3 * k + 2] - az;
  let nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz);
  _falive[f] = 1;
  if (l > 0) {
    nx /= l; ny /= l; nz /= l;
    _fn[3 * f] = nx; _fn[3 * f + 1] = ny; _fn[3 * f + 2] = nz;
    _fd[f] = nx * ax + ny * ay + nz * az;
  } else {
    // zero-area sliver: keep it in the topology but never pick it as nearest
    _fn[3 * f] = 0; _fn[3 * f + 1] = 0; _fn[3 * f + 2] = 0;
    _fd[f] = Infinity;
  }
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
const AXES = [1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 1, 0, 0, -1];

function setFlat(nx: number, ny: number, nz: number): void {
  const l = Math.sqrt(nx * nx + ny * ny + nz * nz) || 1;
  const e = epaState;
  e.nx = nx / l; e.ny = ny / l; e.nz = nz / l; e.depth = 0; e.degenerate = true;
  e.ax = _ea[0]; e.ay = _ea[1]; e.az = _ea[2]; e.bx = _eb[0]; e.by = _eb[1]; e.bz = _eb[2];
}

/**
 * The expansion loop (hot: counters are locals, not module variables). Returns the nearest face's slot.
 */
function epaExpand(a: Shape, b: Shape, rel: Float64Array, maxIterations: number, tol: number): number {
  let nvL = nv, nfL = nf, best = 0, it = 0;
  const visTol = tol * 1e-3;
  for (; ; it++) {
    // nearest live face
    best = -1;
    let bd = Infinity;
    for (let f = 0; f < nfL; f++) if (_falive[f] === 1 && _fd[f] < bd) { bd = _fd[f]; best = f; }
    if (best < 0) { best = 0; break; }
    if (it >= maxIterations || nvL >= MAXV) break;
    const nx = _fn[3 * best], ny = _fn[3 * best + 1], nz = _fn[3 * best + 2];
    const w = nvL;
    pairSupport(a, b, rel, nx, ny, nz, true, _ew, _ea, _eb, 3 * w);
    const wx = _ew[3 * w], wy = _ew[3 * w + 1], wz = _ew[3 * w + 2];
    if (wx * nx + wy * ny + wz * nz - bd <= tol) break; // converged: the support point adds (almost) nothing
    // Remove the faces w sees and collect the horizon: the edges between a removed face and a kept one. The
    // visible set is grown by a flood fill from the nearest face across shared edges, so it is connected and its
    // boundary is one closed loop. (Testing every face independently, as before 2026-11-29, could also remove
    // faces on the far side that see w only by round-off, when D is nearly flat — a cylinder tilted by 1e-13 rad
    // inside a box: the removed set then had holes, the re-triangulated polytope was no longer a closed surface,
    // the face table overflowed and EPA stopped at a wrong face, depth 0.31 instead of 0.55.)
    // Zero-area slivers (distance Infinity) are never removed: their plane is unknown.
    let ne = 0;
    const stamp = ++_floodStamp;
    let top = 0;
    _falive[best] = 0; _fremoved[best] = stamp; _stack[top++] = best;
    while (top > 0) {
      const f = _stack[--top];
      for (let k = 0; k < 3; k++) {
        const i = _fi[3 * f + k], j = _fi[3 * f + (k === 2 ? 0 : k + 1)];
        // the face across edge (i, j) holds the edge (j, i)
        let g = -1;
        for (let h = 0; h < nfL && g < 0; h++) {
          if (_falive[h] !== 1 && _fremoved[h] !== stamp) continue;
          const h0 = _fi[3 * h], h1 = _fi[3 * h + 1], h2 = _fi[3 * h + 2];
          if ((h0 === j && h1 === i) || (h1 === j && h2 === i) || (h2 === j && h0 === i)) g = h;
        }
        if (g >= 0 && _fremoved[g] === stamp) continue; // interior edge of the removed region
        const dg = g >= 0 ? _fd[g] : Infinity;
        if (g >= 0 && dg !== Infinity && _fn[3 * g] * wx + _fn[3 * g + 1] * wy + _fn[3 * g + 2] * wz - dg > visTol) {
          _falive[g] = 0; _fremoved[g] = stamp; _stack[top++] = g;
        } else if (ne < MAXE) { _edges[2 * ne] = i; _edges[2 * ne + 1] = j; ne++; }
      }
    }
    if (ne === 0) break; // numerical: w sees nothing, treat as converged
    // New faces go into the slots of removed ones first. (Appending only, the face table filled up after ~20
    // iterations on nearly flat Minkowski differences — a cylinder tilted by 1e-13 rad inside a box: near-coplanar
    // support points make every iteration replace a large horizon — and EPA stopped at an unconverged face, with
    // a depth of 0.31 instead of 0.55.)
    let live = 0;
    for (let f = 0; f < nfL; f++) live += _falive[f];
    if (live + ne > MAXF) break; // out of face capacity: keep the best face so far
    nvL++;
    let slot = 0;
    for (let m = 0; m < ne; m++) {
      while (slot < nfL && _falive[slot] === 1) slot++;
      if (slot < nfL) setFace(slot++, _edges[2 * m], _edges[2 * m + 1], w);
      else setFace(nfL++, _edges[2 * m], _edges[2 * m + 1], w);
    }
  }
  epaState.iterations = it;
  nv = nvL; nf = nfL;
  return best;
}

/**
 * EPA on the whole shapes (radii included), starting from GJK's simplex (gjkState.count points in the GJK
 * scratch). `scale` sets the absolute tolerance. Results in epaState.
 */
export function epaLocal(a: Shape, b: Shape, rel: Float64Array, maxIterations: number): void {
  const e = epaState;
  e.degenerate = false;
  const scale = a.boundingRadius + b.boundingRadius;
  const tol = 1e-10 * scale;
  const eps2 = (1e-9 * scale) * (1e-9 * scale);
  nv = 0; nf = 0;
  for (let k = 0; k < gjkState.count; k++) {
    for (let c = 0; c < 3; c++) { _ew[3 * nv + c] = _gjkW[3 * k + c]; _ea[3 * nv + c] = _gjkA[3 * k + c]; _eb[3 * nv + c] = _gjkB[3 * k + c]; }
    nv++;
  }
  if (nv === 0) addVertex(a, b, rel, 1, 0, 0);
  // --- blow up to a tetrahedron ---
  // 1 point: add the first support (among ±axes) distinct from it.
  for (let k = 0; nv === 1 && k < 6; k++) {
    addVertex(a, b, rel, AXES[3 * k], AXES[3 * k + 1], AXES[3 * k + 2]);
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
      addVertex(a, b, rel, dirs[3 * k], dirs[3 * k + 1], dirs[3 * k + 2]);
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
    addVertex(a, b, rel, nx, ny, nz);
    const v1 = Math.abs(volume6(0, 1, 2, 3));
    addVertex(a, b, rel, -nx, -ny, -nz);
    const v2 = Math.abs(volume6(0, 1, 2, 4));
    const nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
    if (Math.max(v1, v2) <= 1e-9 * scale * nl) { nv = 3; setFlat(nx, ny, nz); return; } // D is flat
    if (v2 > v1) { for (let c = 0; c < 3; c++) { _ew[9 + c] = _ew[12 + c]; _ea[9 + c] = _ea[12 + c]; _eb[9 + c] = _eb[12 + c]; } }
    nv = 4;
  }
  // --- initial faces, wound outward (the 4th vertex must be behind each face) ---
  if (volume6(0, 1, 2, 3) > 0) { addFace(0, 2, 1); addFace(0, 1, 3); addFace(1, 2, 3); addFace(2, 0, 3); }
  else { addFace(0, 1, 2); addFace(0, 3, 1); addFace(1, 3, 2); addFace(2, 3, 0); }

  const best = epaExpand(a, b, rel, maxIterations, tol);
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
