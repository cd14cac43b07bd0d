/**
 * Shared state of one narrow-phase query: B's pose relative to A and the support function of the Minkowski
 * difference D = A − B, evaluated in A's local frame.
 *
 * Why A's frame: two shapes 10 km from the origin have world coordinates ~1e4 whose products lose ~4 decimal digits
 * of relative precision; moving B into A's frame first makes every coordinate in GJK/EPA of the order of the
 * shapes' own size (Box2D distance.c does the same with its b2MakeProxy/b2InvMulTransforms step).
 */
import { coreSupport, shapeSupport } from './shapes';
import type { Pose, Shape } from './shapes';

/** B's pose in A's frame: [tx, ty, tz, R (row-major)] with x_A = R x_B + t. */
export const _pairRel = new Float64Array(12);
const _pairTmp = new Float64Array(3);

/** rel = poseA⁻¹ · poseB:  R = R_Aᵀ R_B,  t = R_Aᵀ (p_B − p_A). */
export function relativePose(poseA: Pose, poseB: Pose, rel: Float64Array): void {
  const dx = poseB[0] - poseA[0], dy = poseB[1] - poseA[1], dz = poseB[2] - poseA[2];
  const a00 = poseA[3], a01 = poseA[4], a02 = poseA[5], a10 = poseA[6], a11 = poseA[7], a12 = poseA[8], a20 = poseA[9], a21 = poseA[10], a22 = poseA[11];
  rel[0] = a00 * dx + a10 * dy + a20 * dz;
  rel[1] = a01 * dx + a11 * dy + a21 * dz;
  rel[2] = a02 * dx + a12 * dy + a22 * dz;
  for (let c = 0; c < 3; c++) {
    const b0 = poseB[3 + c], b1 = poseB[6 + c], b2 = poseB[9 + c]; // column c of R_B
    rel[3 + c] = a00 * b0 + a10 * b1 + a20 * b2;
    rel[6 + c] = a01 * b0 + a11 * b1 + a21 * b2;
    rel[9 + c] = a02 * b0 + a12 * b1 + a22 * b2;
  }
}

/**
 * Support of D = A − B along d (A's frame): w = s_A(d) − s_B(−d). Writes w, the point on A and the point on B
 * (both in A's frame) at offset o of the three arrays. `full` adds the radii (whole shapes), else cores only.
 */
export function pairSupport(a: Shape, b: Shape, rel: Float64Array, dx: number, dy: number, dz: number, full: boolean,
  w: Float64Array, pa: Float64Array, pb: Float64Array, o: number): void {
  if (full) shapeSupport(a, dx, dy, dz, pa, o); else coreSupport(a, dx, dy, dz, pa, o);
  // −d in B's frame: Rᵀ(−d)
  const ex = -(rel[3] * dx + rel[6] * dy + rel[9] * dz);
  const ey = -(rel[4] * dx + rel[7] * dy + rel[10] * dz);
  const ez = -(rel[5] * dx + rel[8] * dy + rel[11] * dz);
  const t = _pairTmp;
  if (full) shapeSupport(b, ex, ey, ez, t, 0); else coreSupport(b, ex, ey, ez, t, 0);
  const bx = rel[3] * t[0] + rel[4] * t[1] + rel[5] * t[2] + rel[0];
  const by = rel[6] * t[0] + rel[7] * t[1] + rel[8] * t[2] + rel[1];
  const bz = rel[9] * t[0] + rel[10] * t[1] + rel[11] * t[2] + rel[2];
  pb[o] = bx; pb[o + 1] = by; pb[o + 2] = bz;
  w[o] = pa[o] - bx; w[o + 1] = pa[o + 1] - by; w[o + 2] = pa[o + 2] - bz;
}

/** Rotate a vector from A's frame to the world: out = R_A v. */
export function rotateToWorld(pose: Pose, x: number, y: number, z: number, out: Float64Array, o: number): void {
  out[o] = pose[3] * x + pose[4] * y + pose[5] * z;
  out[o + 1] = pose[6] * x + pose[7] * y + pose[8] * z;
  out[o + 2] = pose[9] * x + pose[10] * y + pose[11] * z;
}

/** Transform a point from A's frame to the world: out = R_A v + p_A. */
export function pointToWorld(pose: Pose, x: number, y: number, z: number, out: Float64Array, o: number): void {
  out[o] = pose[3] * x + pose[4] * y + pose[5] * z + pose[0];
  out[o + 1] = pose[6] * x + pose[7] * y + pose[8] * z + pose[1];
  out[o + 2] = pose[9] * x + pose[10] * y + pose[11] * z + pose[2];
}
