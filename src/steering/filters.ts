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
import { datan2, dcos, dsin } from '../core/dmath';
import type { Vec2Out } from './behaviours';

/**
 * First-order smoothing of the velocity (cx, cy) toward the desired (dx, dy) with time constant `tau` seconds
 * (0 = no smoothing).
 */
export function smoothVelocity(cx: number, cy: number, dx: number, dy: number, tau: number, dt: number, out: Vec2Out): void {
  if (!(tau > 0)) { out.x = dx; out.y = dy; return; }
  const g = dt / (tau + dt);
  out.x = cx + (dx - cx) * g;
  out.y = cy + (dy - cy) * g;
}

/**
 * Limit the change of heading from (cx, cy) to (dx, dy) to maxTurnRate·dt radians; the output has the desired speed
 * |d|. When either vector is (nearly) zero there is no heading to preserve and the desired vector passes through.
 * An exact reversal turns counter-clockwise (datan2 returns +π), deterministically.
 * @param maxTurnRate radians per second (Infinity = no limit).
 */
export function limitTurn(cx: number, cy: number, dx: number, dy: number, maxTurnRate: number, dt: number, out: Vec2Out): void {
  const cs = Math.sqrt(cx * cx + cy * cy);
  const ds = Math.sqrt(dx * dx + dy * dy);
  const maxAngle = maxTurnRate * dt;
  if (cs < 1e-9 || ds < 1e-9 || !(maxAngle < Math.PI)) { out.x = dx; out.y = dy; return; }
  // Signed angle from c to d: atan2(c × d, c · d).
  const angle = datan2(cx * dy - cy * dx, cx * dx + cy * dy);
  if (angle <= maxAngle && angle >= -maxAngle) { out.x = dx; out.y = dy; return; }
  const a = angle > 0 ? maxAngle : -maxAngle;
  const c = dcos(a), s = dsin(a);
  const k = ds / cs;
  out.x = (cx * c - cy * s) * k;
  out.y = (cx * s + cy * c) * k;
}
