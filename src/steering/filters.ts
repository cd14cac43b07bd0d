/**
 * Movement filters applied to the combined desired velocity so headings do not snap from frame to frame.
 *
 * smoothVelocity is a first-order lag (exponential smoothing) with time constant τ: v' = (d − v)/τ, i.e. Reynolds'
 * steering force (desired − current) divided by a response time. Integrated with the implicit (backward) Euler step,
 * v₁ = v₀ + dt·(d − v₁)/τ  ⇒  v₁ = v₀ + (d − v₀)·dt/(τ + dt), which is unconditionally stable for any dt and needs no
 * exp() (Math.exp is not bit-reproducible across engines). For dt ≪ τ it matches the exact 1 − e^(−dt/τ) gain.
 *
 * limitTurn rotates the heading toward the desired one by at most ω·dt radians per step while taking the desired
 * speed, so a 180° reversal takes π/ω seconds instead of one frame.
 */
import { datan2Arr, dsincosArr } from '../core/dmath';
import type { Vec2Out } from './behaviours';

/**
 * First-order smoothing of the velocity (cx, cy) toward the desired (dx, dy) with time constant `tau` seconds
 * (0 = no smoothing).
 */
export function smoothVelocity(cx: number, cy: number, dx: number, dy: number, tau: number, dt: number, out: Vec2Out): void {
  const a = _fIn;
  a[0] = cx; a[1] = cy; a[2] = dx; a[3] = dy; a[4] = tau; a[5] = dt;
  smoothVelocityArr(a, 0, _fOut, 0);
  out.x = _fOut[0]; out.y = _fOut[1];
}

// Scratch of the scalar wrappers and of limitTurnArr (module scope: no allocation per call).
const _fIn = new Float64Array(6);
const _fOut = new Float64Array(2);
const _fK = new Float64Array(2);

/**
 * smoothVelocity in array form: a[i ..] = cx, cy, dx, dy, tau, dt; result in out[o], out[o + 1]. Passes no double
 * through the call, so nothing is boxed when V8 does not inline it (see behaviours.ts); same arithmetic.
 */
export function smoothVelocityArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const cx = a[i], cy = a[i + 1], dx = a[i + 2], dy = a[i + 3], tau = a[i + 4], dt = a[i + 5];
  if (!(tau > 0)) { out[o] = dx; out[o + 1] = dy; return; }
  const g = dt / (tau + dt);
  out[o] = cx + (dx - cx) * g;
  out[o + 1] = cy + (dy - cy) * g;
}

/**
 * Limit the change of heading from (cx, cy) to (dx, dy) to maxTurnRate·dt radians; the output has the desired speed
 * |d|. When either vector is (nearly) zero there is no heading to preserve and the desired vector passes through.
 * An exact reversal turns counter-clockwise (datan2 returns +π), deterministically.
 * @param maxTurnRate radians per second (Infinity = no limit).
 */
export function limitTurn(cx: number, cy: number, dx: number, dy: number, maxTurnRate: number, dt: number, out: Vec2Out): void {
  const a = _fIn;
  a[0] = cx; a[1] = cy; a[2] = dx; a[3] = dy; a[4] = maxTurnRate; a[5] = dt;
  limitTurnArr(a, 0, _fOut, 0);
  out.x = _fOut[0]; out.y = _fOut[1];
}

/** limitTurn in array form: a[i ..] = cx, cy, dx, dy, maxTurnRate, dt; result in out[o], out[o + 1]. */
export function limitTurnArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const cx = a[i], cy = a[i + 1], dx = a[i + 2], dy = a[i + 3], maxTurnRate = a[i + 4], dt = a[i + 5];
  const cs = Math.sqrt(cx * cx + cy * cy);
  const ds = Math.sqrt(dx * dx + dy * dy);
  const maxAngle = maxTurnRate * dt;
  if (cs < 1e-9 || ds < 1e-9 || !(maxAngle < Math.PI)) { out[o] = dx; out[o + 1] = dy; return; }
  // Signed angle from c to d: atan2(c × d, c · d).
  const k = _fK;
  k[0] = cx * dy - cy * dx; k[1] = cx * dx + cy * dy;
  datan2Arr(k, 0, k, 0);
  const angle = k[0];
  if (angle <= maxAngle && angle >= -maxAngle) { out[o] = dx; out[o + 1] = dy; return; }
  k[0] = angle > 0 ? maxAngle : -maxAngle;
  dsincosArr(k, 0, k, 0);
  const s = k[0], c = k[1];
  const r = ds / cs;
  out[o] = (cx * c - cy * s) * r;
  out[o + 1] = (cx * s + cy * c) * r;
}
