/** Test helpers for collision: seeded random poses, 2D region checks. */
import { createRng, rngFloat } from '../../src/core/rng';
import type { Rng } from '../../src/core/rng';
import { setPoseQuat } from '../../src/collision/shapes';
import type { Pose } from '../../src/collision/shapes';

export { createRng };

export function rand(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rngFloat(rng);
}

/** Uniform random unit quaternion (Shoemake 1992), rounded to float32 so Rapier (f32) sees the same rotation. */
export function randomQuat(rng: Rng): [number, number, number, number] {
  const u1 = rngFloat(rng), u2 = rngFloat(rng) * 2 * Math.PI, u3 = rngFloat(rng) * 2 * Math.PI;
  const a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
  return f32quat([a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)]);
}

export function f32quat(q: number[]): [number, number, number, number] {
  // round to f32 then renormalise in f64; the residual difference to Rapier's f32 rotation is ~1e-7
  const r = q.map(Math.fround);
  const l = Math.hypot(r[0], r[1], r[2], r[3]);
  return [r[0] / l, r[1] / l, r[2] / l, r[3] / l];
}

export function quatMul(a: number[], b: number[]): [number, number, number, number] {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

export function axisAngleQuat(x: number, y: number, z: number, angle: number): [number, number, number, number] {
  const l = Math.hypot(x, y, z), s = Math.sin(angle / 2) / l;
  return [x * s, y * s, z * s, Math.cos(angle / 2)];
}

export function poseFrom(p: number[], q: number[], out: Pose): Pose {
  return setPoseQuat(out, p[0], p[1], p[2], q[0], q[1], q[2], q[3]);
}

/** Rotate v by pose's rotation. */
export function rot(pose: Pose, v: number[]): number[] {
  return [pose[3] * v[0] + pose[4] * v[1] + pose[5] * v[2], pose[6] * v[0] + pose[7] * v[1] + pose[8] * v[2], pose[9] * v[0] + pose[10] * v[1] + pose[11] * v[2]];
}
/** Local → world. */
export function toWorld(pose: Pose, v: number[]): number[] {
  const r = rot(pose, v);
  return [r[0] + pose[0], r[1] + pose[1], r[2] + pose[2]];
}

export function dot(a: number[], b: number[]): number { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
export function sub(a: number[], b: number[]): number[] { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }

/** Project 3D points to 2D coordinates in the plane orthogonal to unit n. */
export function projectTo2d(n: number[], pts: number[][]): number[][] {
  const u = Math.abs(n[0]) < 0.57 ? [0, -n[2], n[1]] : [n[2], 0, -n[0]];
  const l = Math.hypot(u[0], u[1], u[2]);
  const e1 = [u[0] / l, u[1] / l, u[2] / l];
  const e2 = [n[1] * e1[2] - n[2] * e1[1], n[2] * e1[0] - n[0] * e1[2], n[0] * e1[1] - n[1] * e1[0]];
  return pts.map((p) => [dot(p, e1), dot(p, e2)]);
}

/** Distance from 2D point p to the convex hull of pts (0 inside). Brute force: hull by gift wrapping. */
export function distToHull2d(p: number[], pts: number[][]): number {
  const h = hull2d(pts);
  if (h.length === 1) return Math.hypot(p[0] - h[0][0], p[1] - h[0][1]);
  let inside = h.length >= 3;
  let best = Infinity;
  for (let i = 0; i < h.length; i++) {
    const a = h[i], b = h[(i + 1) % h.length];
    const cr = (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    if (cr < 0) inside = false;
    best = Math.min(best, segDist(p, a, b));
  }
  return inside ? 0 : best;
}

function segDist(p: number[], a: number[], b: number[]): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2)) : 0;
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

/** Counter-clockwise convex hull (monotone chain). */
export function hull2d(pts: number[][]): number[][] {
  const p = pts.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (p.length <= 2) return p;
  const cross = (o: number[], a: number[], b: number[]) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lo: number[][] = [], up: number[][] = [];
  for (const q of p) { while (lo.length >= 2 && cross(lo[lo.length - 2], lo[lo.length - 1], q) <= 1e-14) lo.pop(); lo.push(q); }
  for (let i = p.length - 1; i >= 0; i--) { const q = p[i]; while (up.length >= 2 && cross(up[up.length - 2], up[up.length - 1], q) <= 1e-14) up.pop(); up.push(q); }
  const h = lo.slice(0, -1).concat(up.slice(0, -1));
  return h.length ? h : [p[0]];
}

export function area2d(pts: number[][]): number {
  const h = hull2d(pts);
  let a = 0;
  for (let i = 0; i < h.length; i++) { const p = h[i], q = h[(i + 1) % h.length]; a += p[0] * q[1] - p[1] * q[0]; }
  return Math.abs(a) / 2;
}
