/**
 * Reynolds' steering behaviours as pure kernels (Reynolds, "Steering Behaviors For Autonomous Characters", GDC 1999).
 *
 * Every behaviour here returns a DESIRED VELOCITY (metres per second) in a caller-owned `out` vector, not a force:
 * in Murmur's pipeline the steering system writes the agent's preferred velocity, which avoidance (ORCA) and
 * integration then follow within the agent's acceleration and turn-rate limits. Reynolds' steering force is
 * recovered as (desired − current) / response time, which is exactly what the movement filters in ./filters apply.
 *
 * Nothing here allocates, reads a world or uses Math.random / Math.sin: wander draws from a caller-supplied seeded
 * Rng and uses the deterministic dsin/dcos, so the same inputs give bit-identical outputs on every platform.
 */
import { dcos, dsin } from '../core/dmath';
import { rngFloat, type Rng } from '../core/rng';

/** A caller-owned 2D output vector. Kernels overwrite both fields. */
export interface Vec2Out {
  x: number;
  y: number;
}

// A class, not an `{ x, y }` literal: every `{ x, y }` literal in the program shares one hidden-class chain, and once
// any of them holds a non-double the fields become tagged, so each double a kernel stored into `out` was boxed
// into a fresh HeapNumber. Instances of this class only ever hold doubles, so a stored double updates its field in place.
class Vec2OutBox implements Vec2Out {
  x = 0;
  y = 0;
}

/** Create an output vector once (outside hot loops) and reuse it. */
export function vec2Out(): Vec2Out {
  return new Vec2OutBox();
}


/**
 * Seek: full speed straight at the target. desired = maxSpeed · (t − p)/|t − p|; zero when already on the target.
 * @returns distance to the target, metres.
 */
export function seek(px: number, py: number, tx: number, ty: number, maxSpeed: number, out: Vec2Out): number {
  const dx = tx - px, dy = ty - py;
  const d = Math.sqrt(dx * dx + dy * dy);
  if (d === 0) { out.x = 0; out.y = 0; return 0; }
  const s = maxSpeed / d;
  out.x = dx * s; out.y = dy * s;
  return d;
}

/**
 * Flee: full speed straight away from the threat while it is closer than `panicDistance` (Infinity = always), zero
 * otherwise. Standing exactly on the threat has no defined direction; we flee along +x so the result stays
 * deterministic (never NaN).
 * @returns distance to the threat, metres.
 */
export function flee(px: number, py: number, tx: number, ty: number, maxSpeed: number, panicDistance: number, out: Vec2Out): number {
  const dx = px - tx, dy = py - ty;
  const d = Math.sqrt(dx * dx + dy * dy);
  if (d >= panicDistance) { out.x = 0; out.y = 0; return d; }
  if (d === 0) { out.x = maxSpeed; out.y = 0; return 0; }
  const s = maxSpeed / d;
  out.x = dx * s; out.y = dy * s;
  return d;
}

/**
 * Arrive: seek that slows down inside `slowingRadius` R and stops inside `stopRadius`.
 *
 * Desired speed = min(maxSpeed, maxSpeed · d/R, d/dt). The linear ramp is Reynolds'. The d/dt cap guarantees that
 * one integration step of length dt never carries the agent past the target (a velocity-level integrator moves by
 * speed·dt ≤ d), so there is no overshoot and hence no oscillation, even when maxSpeed·dt > R. Inside the ramp, with
 * the velocity followed exactly, the remaining distance obeys d' = −(maxSpeed/R)·d: an exponential approach, which
 * is why a non-zero `stopRadius` (e.g. 1% of R) is needed to come to rest in finite time.
 *
 * (If the velocity instead follows the desired one through a first-order lag of time constant τ, the closed loop is
 * d'' + d'/τ + k·d/τ = 0 with k = maxSpeed/R: overdamped, so still free of overshoot, iff τ ≤ R/(4·maxSpeed).
 * smoothVelocity's callers use this bound; see systems/steering.)
 * @param dt step length, seconds (> 0); pass Infinity to disable the per-step cap.
 * @returns distance to the target, metres.
 */
export function arrive(
  px: number, py: number, tx: number, ty: number,
  maxSpeed: number, slowingRadius: number, stopRadius: number, dt: number, out: Vec2Out,
): number {
  const dx = tx - px, dy = ty - py;
  const d = Math.sqrt(dx * dx + dy * dy);
  if (d <= stopRadius || d === 0) { out.x = 0; out.y = 0; return d; }
  let speed = maxSpeed;
  if (d < slowingRadius) speed = (maxSpeed * d) / slowingRadius;
  if (dt < Infinity) {
    const oneStep = d / dt;
    if (oneStep < speed) speed = oneStep;
  }
  const s = speed / d;
  out.x = dx * s; out.y = dy * s;
  return d;
}

/**
 * Arrive at a MOVING target (a formation slot, an escort position): feed-forward of the target's velocity plus an
 * arrive correction toward its current position, clamped to maxSpeed.
 *
 * Plain arrive chasing a target moving at speed v settles at a lag of v·R/maxSpeed behind it (the ramp only yields
 * speed v at that distance). Adding the target's velocity removes the lag: in the slot's frame the error e obeys
 * e' = −(maxSpeed/R)·e, so it decays to zero whenever the clamp is inactive, i.e. whenever the target moves slower
 * than the agent can.
 * @returns distance to the target, metres.
 */
export function arriveMoving(
  px: number, py: number, tx: number, ty: number, tvx: number, tvy: number,
  maxSpeed: number, slowingRadius: number, stopRadius: number, dt: number, out: Vec2Out,
): number {
  const d = arrive(px, py, tx, ty, maxSpeed, slowingRadius, stopRadius, dt, out);
  let x = out.x + tvx, y = out.y + tvy;
  const s2 = x * x + y * y;
  if (s2 > maxSpeed * maxSpeed) {
    const s = maxSpeed / Math.sqrt(s2);
    x *= s; y *= s;
  }
  out.x = x; out.y = y;
  return d;
}

/**
 * Wander (Reynolds 1999): a target constrained to a circle of radius `radius` whose centre lies `distance` ahead of
 * the agent along its heading; each step the target's angle θ on the circle takes a random-walk step, and the agent
 * seeks the target. Because θ is a random walk and the circle is ahead, the heading changes smoothly (no jitter).
 *
 * The walk's step is uniform in ±jitter·√dt, so its variance per second does not depend on the frame rate
 * (a Wiener process sampled at dt). The heading comes from (hx, hy) (the current velocity, or the last heading
 * when standing still); a zero heading falls back to +x.
 * @param angle the agent's current wander angle θ, radians (state kept by the caller).
 * @param jitter random-walk rate, radians per √second.
 * @returns the new wander angle, to be stored by the caller.
 */
export function wander(
  hx: number, hy: number, angle: number, rng: Rng,
  distance: number, radius: number, jitter: number, maxSpeed: number, dt: number, out: Vec2Out,
): number {
  const a = angle + (2 * rngFloat(rng) - 1) * jitter * Math.sqrt(dt);
  let h = Math.sqrt(hx * hx + hy * hy);
  let ux = 1, uy = 0;
  if (h > 0) { ux = hx / h; uy = hy / h; }
  // Target in the agent's frame (forward = +x): circle centre (distance, 0) plus radius·(cos θ, sin θ).
  const lx = distance + radius * dcos(a);
  const ly = radius * dsin(a);
  // Rotate into the world frame by the heading (ux, uy).
  const wx = ux * lx - uy * ly;
  const wy = uy * lx + ux * ly;
  h = Math.sqrt(wx * wx + wy * wy);
  if (h === 0) { out.x = ux * maxSpeed; out.y = uy * maxSpeed; }
  else { out.x = (wx / h) * maxSpeed; out.y = (wy / h) * maxSpeed; }
  return a;
}

/**
 * Time at which an agent at p moving at `speed` can first reach a target at q moving with constant velocity v
 * (linear prediction). Solves |q + v·t − p| = speed·t, i.e. (v·v − s²)t² + 2(r·v)t + r·r = 0 with r = q − p, and
 * returns the smallest non-negative root. When no interception is possible (the target outruns us) it falls back to
 * Reynolds' heuristic t = |r|/speed. The result is capped at `maxPrediction` seconds.
 */
export function interceptTime(px: number, py: number, speed: number, qx: number, qy: number, vx: number, vy: number, maxPrediction: number): number {
  const rx = qx - px, ry = qy - py;
  const rr = rx * rx + ry * ry;
  if (rr === 0) return 0;
  const a = vx * vx + vy * vy - speed * speed;
  const b = rx * vx + ry * vy; // half of the linear coefficient
  let t = -1;
  if (Math.abs(a) < 1e-12) {
    // Equal speeds: the quadratic degenerates to 2b·t + rr = 0.
    if (b < 0) t = -rr / (2 * b);
  } else {
    const disc = b * b - a * rr;
    if (disc >= 0) {
      const sq = Math.sqrt(disc);
      // Roots (−b ± sq)/a; pick the smallest non-negative one.
      const t1 = (-b - sq) / a, t2 = (-b + sq) / a;
      const lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1;
      t = lo >= 0 ? lo : hi;
    }
  }
  if (!(t >= 0)) t = speed > 0 ? Math.sqrt(rr) / speed : maxPrediction;
  return t < maxPrediction ? t : maxPrediction;
}

/**
 * Pursue: seek the point where the target will be at the interception time (linear prediction of its motion, see
 * interceptTime). Against a target moving in a straight line this is a straight-line interception course, while
 * plain seek follows a curved pursuit curve and takes longer.
 * @returns the prediction time used, seconds.
 */
export function pursue(
  px: number, py: number, qx: number, qy: number, qvx: number, qvy: number,
  maxSpeed: number, maxPrediction: number, out: Vec2Out,
): number {
  const t = interceptTime(px, py, maxSpeed, qx, qy, qvx, qvy, maxPrediction);
  seek(px, py, qx + qvx * t, qy + qvy * t, maxSpeed, out);
  return t;
}

/**
 * Evade: flee from where the pursuer will be. The look-ahead is the time the pursuer (at its current speed, or ours
 * if it is slower) needs to cover the gap, t = |r| / (ownSpeed + pursuerSpeed), capped at `maxPrediction`.
 * @returns the prediction time used, seconds.
 */
export function evade(
  px: number, py: number, qx: number, qy: number, qvx: number, qvy: number,
  maxSpeed: number, maxPrediction: number, panicDistance: number, out: Vec2Out,
): number {
  const rx = qx - px, ry = qy - py;
  const d = Math.sqrt(rx * rx + ry * ry);
  const qs = Math.sqrt(qvx * qvx + qvy * qvy);
  let t = maxSpeed + qs > 0 ? d / (maxSpeed + qs) : 0;
  if (t > maxPrediction) t = maxPrediction;
  if (d >= panicDistance) { out.x = 0; out.y = 0; return t; }
  flee(px, py, qx + qvx * t, qy + qvy * t, maxSpeed, Infinity, out);
  return t;
}

/**
 * Follow the navigation system's path or flow field: its preferred velocity (already pointing along the path or
 * down the flow field) is taken as the desired velocity, clamped to maxSpeed.
 */
export function followVelocity(nvx: number, nvy: number, maxSpeed: number, out: Vec2Out): void {
  const s2 = nvx * nvx + nvy * nvy;
  if (s2 > maxSpeed * maxSpeed) {
    const s = maxSpeed / Math.sqrt(s2);
    out.x = nvx * s; out.y = nvy * s;
  } else {
    out.x = nvx; out.y = nvy;
  }
}
