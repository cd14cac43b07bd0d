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
import { dsincosArr } from '../core/dmath';
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


// Array forms. Every behaviour below has an array form `xxxArr(a, i, out, o)` that reads its inputs from a[i ...]
// (in the scalar function's argument order, unless stated) and writes the desired velocity to out[o], out[o + 1]
// and its scalar result (distance, prediction time, new angle) to out[o + 2]. A double passed to or returned from a
// call V8 does not inline is boxed into a fresh HeapNumber, and the steering system's per-agent loop is too large
// for V8 to inline these kernels into it, so the scalar forms allocated a few HeapNumbers per behaviour per agent
// per frame; the array forms pass only typed arrays and small integers. The scalar functions are thin wrappers over
// them (same arithmetic, so bit-identical results). Inputs are read before any output is written, so `a` and `out`
// may overlap.

// Scratch of the scalar wrappers and of the kernels that call each other (module scope: no allocation per call).
const _wIn = new Float64Array(12);
const _wOut = new Float64Array(4);
const _kIn = new Float64Array(12);
const _kOut = new Float64Array(4);

/** seek in array form: a[i ..] = px, py, tx, ty, maxSpeed. */
export function seekArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const px = a[i], py = a[i + 1], tx = a[i + 2], ty = a[i + 3], maxSpeed = a[i + 4];
  const dx = tx - px, dy = ty - py;
  const d = Math.sqrt(dx * dx + dy * dy);
  out[o + 2] = d;
  if (d === 0) { out[o] = 0; out[o + 1] = 0; return; }
  const s = maxSpeed / d;
  out[o] = dx * s; out[o + 1] = dy * s;
}

/**
 * Seek: full speed straight at the target. desired = maxSpeed · (t − p)/|t − p|; zero when already on the target.
 * @returns distance to the target, metres.
 */
export function seek(px: number, py: number, tx: number, ty: number, maxSpeed: number, out: Vec2Out): number {
  const a = _wIn;
  a[0] = px; a[1] = py; a[2] = tx; a[3] = ty; a[4] = maxSpeed;
  seekArr(a, 0, _wOut, 0);
  out.x = _wOut[0]; out.y = _wOut[1];
  return _wOut[2];
}

/** flee in array form: a[i ..] = px, py, tx, ty, maxSpeed, panicDistance. */
export function fleeArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const px = a[i], py = a[i + 1], tx = a[i + 2], ty = a[i + 3], maxSpeed = a[i + 4], panicDistance = a[i + 5];
  const dx = px - tx, dy = py - ty;
  const d = Math.sqrt(dx * dx + dy * dy);
  out[o + 2] = d;
  if (d >= panicDistance) { out[o] = 0; out[o + 1] = 0; return; }
  if (d === 0) { out[o] = maxSpeed; out[o + 1] = 0; return; }
  const s = maxSpeed / d;
  out[o] = dx * s; out[o + 1] = dy * s;
}

/**
 * Flee: full speed straight away from the threat while it is closer than `panicDistance` (Infinity = always), zero
 * otherwise. Standing exactly on the threat has no defined direction; we flee along +x so the result stays
 * deterministic (never NaN).
 * @returns distance to the threat, metres.
 */
export function flee(px: number, py: number, tx: number, ty: number, maxSpeed: number, panicDistance: number, out: Vec2Out): number {
  const a = _wIn;
  a[0] = px; a[1] = py; a[2] = tx; a[3] = ty; a[4] = maxSpeed; a[5] = panicDistance;
  fleeArr(a, 0, _wOut, 0);
  out.x = _wOut[0]; out.y = _wOut[1];
  return _wOut[2];
}

/** arrive in array form: a[i ..] = px, py, tx, ty, maxSpeed, slowingRadius, stopRadius, dt. */
export function arriveArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const px = a[i], py = a[i + 1], tx = a[i + 2], ty = a[i + 3];
  const maxSpeed = a[i + 4], slowingRadius = a[i + 5], stopRadius = a[i + 6], dt = a[i + 7];
  const dx = tx - px, dy = ty - py;
  const d = Math.sqrt(dx * dx + dy * dy);
  out[o + 2] = d;
  if (d <= stopRadius || d === 0) { out[o] = 0; out[o + 1] = 0; return; }
  let speed = maxSpeed;
  if (d < slowingRadius) speed = (maxSpeed * d) / slowingRadius;
  if (dt < Infinity) {
    const oneStep = d / dt;
    if (oneStep < speed) speed = oneStep;
  }
  const s = speed / d;
  out[o] = dx * s; out[o + 1] = dy * s;
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
  const a = _wIn;
  a[0] = px; a[1] = py; a[2] = tx; a[3] = ty; a[4] = maxSpeed; a[5] = slowingRadius; a[6] = stopRadius; a[7] = dt;
  arriveArr(a, 0, _wOut, 0);
  out.x = _wOut[0]; out.y = _wOut[1];
  return _wOut[2];
}

/** arriveMoving in array form: a[i ..] = px, py, tx, ty, tvx, tvy, maxSpeed, slowingRadius, stopRadius, dt. */
export function arriveMovingArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const k = _kIn;
  k[0] = a[i]; k[1] = a[i + 1]; k[2] = a[i + 2]; k[3] = a[i + 3];
  const tvx = a[i + 4], tvy = a[i + 5], maxSpeed = a[i + 6];
  k[4] = maxSpeed; k[5] = a[i + 7]; k[6] = a[i + 8]; k[7] = a[i + 9];
  arriveArr(k, 0, _kOut, 0);
  let x = _kOut[0] + tvx, y = _kOut[1] + tvy;
  const s2 = x * x + y * y;
  if (s2 > maxSpeed * maxSpeed) {
    const s = maxSpeed / Math.sqrt(s2);
    x *= s; y *= s;
  }
  out[o] = x; out[o + 1] = y; out[o + 2] = _kOut[2];
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
  const a = _wIn;
  a[0] = px; a[1] = py; a[2] = tx; a[3] = ty; a[4] = tvx; a[5] = tvy;
  a[6] = maxSpeed; a[7] = slowingRadius; a[8] = stopRadius; a[9] = dt;
  arriveMovingArr(a, 0, _wOut, 0);
  out.x = _wOut[0]; out.y = _wOut[1];
  return _wOut[2];
}

/**
 * wander in array form: a[i ..] = hx, hy, angle, distance, radius, jitter, maxSpeed, dt; out[o + 2] = the new
 * wander angle.
 */
export function wanderArr(a: Float64Array, i: number, rng: Rng, out: Float64Array, o: number): void {
  const hx = a[i], hy = a[i + 1], angle = a[i + 2], distance = a[i + 3], radius = a[i + 4];
  const jitter = a[i + 5], maxSpeed = a[i + 6], dt = a[i + 7];
  const k = _kIn;
  k[0] = angle + (2 * rngFloat(rng) - 1) * jitter * Math.sqrt(dt);
  let h = Math.sqrt(hx * hx + hy * hy);
  let ux = 1, uy = 0;
  if (h > 0) { ux = hx / h; uy = hy / h; }
  // Target in the agent's frame (forward = +x): circle centre (distance, 0) plus radius·(cos θ, sin θ).
  dsincosArr(k, 0, _kOut, 0);
  const lx = distance + radius * _kOut[1];
  const ly = radius * _kOut[0];
  // Rotate into the world frame by the heading (ux, uy).
  const wx = ux * lx - uy * ly;
  const wy = uy * lx + ux * ly;
  h = Math.sqrt(wx * wx + wy * wy);
  if (h === 0) { out[o] = ux * maxSpeed; out[o + 1] = uy * maxSpeed; }
  else { out[o] = (wx / h) * maxSpeed; out[o + 1] = (wy / h) * maxSpeed; }
  out[o + 2] = k[0];
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
  const a = _wIn;
  a[0] = hx; a[1] = hy; a[2] = angle; a[3] = distance; a[4] = radius; a[5] = jitter; a[6] = maxSpeed; a[7] = dt;
  wanderArr(a, 0, rng, _wOut, 0);
  out.x = _wOut[0]; out.y = _wOut[1];
  return _wOut[2];
}

/** interceptTime in array form: a[i ..] = px, py, qx, qy, vx, vy, speed, maxPrediction (pursue's order); out[o] = t. */
export function interceptTimeArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const px = a[i], py = a[i + 1], qx = a[i + 2], qy = a[i + 3], vx = a[i + 4], vy = a[i + 5];
  const speed = a[i + 6], maxPrediction = a[i + 7];
  const rx = qx - px, ry = qy - py;
  const rr = rx * rx + ry * ry;
  if (rr === 0) { out[o] = 0; return; }
  const qa = vx * vx + vy * vy - speed * speed;
  const b = rx * vx + ry * vy; // half of the linear coefficient
  let t = -1;
  if (Math.abs(qa) < 1e-12) {
    // Equal speeds: the quadratic degenerates to 2b·t + rr = 0.
    if (b < 0) t = -rr / (2 * b);
  } else {
    const disc = b * b - qa * rr;
    if (disc >= 0) {
      const sq = Math.sqrt(disc);
      // Roots (−b ± sq)/a; pick the smallest non-negative one.
      const t1 = (-b - sq) / qa, t2 = (-b + sq) / qa;
      const lo = t1 < t2 ? t1 : t2, hi = t1 < t2 ? t2 : t1;
      t = lo >= 0 ? lo : hi;
    }
  }
  // No interception: Reynolds' |r|/speed. An agent that cannot move (speed 0) has no finite one; it takes the cap,
  // or 0 when the cap is Infinity (an infinite look-ahead would put the predicted point at q + v·∞: NaN for v = 0).
  if (!(t >= 0)) t = speed > 0 ? Math.sqrt(rr) / speed : maxPrediction < Infinity ? maxPrediction : 0;
  out[o] = t < maxPrediction ? t : maxPrediction;
}

/**
 * Time at which an agent at p moving at `speed` can first reach a target at q moving with constant velocity v
 * (linear prediction). Solves |q + v·t − p| = speed·t, i.e. (v·v − s²)t² + 2(r·v)t + r·r = 0 with r = q − p, and
 * returns the smallest non-negative root. When no interception is possible (the target outruns us) it falls back to
 * Reynolds' heuristic t = |r|/speed (for speed 0: `maxPrediction`, or 0 when that is Infinity). The result is capped
 * at `maxPrediction` seconds.
 */
export function interceptTime(px: number, py: number, speed: number, qx: number, qy: number, vx: number, vy: number, maxPrediction: number): number {
  const a = _wIn;
  a[0] = px; a[1] = py; a[2] = qx; a[3] = qy; a[4] = vx; a[5] = vy; a[6] = speed; a[7] = maxPrediction;
  interceptTimeArr(a, 0, _wOut, 0);
  return _wOut[0];
}

/** pursue in array form: a[i ..] = px, py, qx, qy, qvx, qvy, maxSpeed, maxPrediction; out[o + 2] = prediction time. */
export function pursueArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const px = a[i], py = a[i + 1], qx = a[i + 2], qy = a[i + 3], qvx = a[i + 4], qvy = a[i + 5], maxSpeed = a[i + 6];
  interceptTimeArr(a, i, _kOut, 0);
  const t = _kOut[0];
  const k = _kIn;
  k[0] = px; k[1] = py; k[2] = qx + qvx * t; k[3] = qy + qvy * t; k[4] = maxSpeed;
  seekArr(k, 0, _kOut, 0);
  out[o] = _kOut[0]; out[o + 1] = _kOut[1]; out[o + 2] = t;
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
  const a = _wIn;
  a[0] = px; a[1] = py; a[2] = qx; a[3] = qy; a[4] = qvx; a[5] = qvy; a[6] = maxSpeed; a[7] = maxPrediction;
  pursueArr(a, 0, _wOut, 0);
  out.x = _wOut[0]; out.y = _wOut[1];
  return _wOut[2];
}

/**
 * evade in array form: a[i ..] = px, py, qx, qy, qvx, qvy, maxSpeed, maxPrediction, panicDistance;
 * out[o + 2] = prediction time.
 */
export function evadeArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const px = a[i], py = a[i + 1], qx = a[i + 2], qy = a[i + 3], qvx = a[i + 4], qvy = a[i + 5];
  const maxSpeed = a[i + 6], maxPrediction = a[i + 7], panicDistance = a[i + 8];
  const rx = qx - px, ry = qy - py;
  const d = Math.sqrt(rx * rx + ry * ry);
  const qs = Math.sqrt(qvx * qvx + qvy * qvy);
  let t = maxSpeed + qs > 0 ? d / (maxSpeed + qs) : 0;
  if (t > maxPrediction) t = maxPrediction;
  if (d >= panicDistance) { out[o] = 0; out[o + 1] = 0; out[o + 2] = t; return; }
  const k = _kIn;
  k[0] = px; k[1] = py; k[2] = qx + qvx * t; k[3] = qy + qvy * t; k[4] = maxSpeed; k[5] = Infinity;
  fleeArr(k, 0, _kOut, 0);
  out[o] = _kOut[0]; out[o + 1] = _kOut[1]; out[o + 2] = t;
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
  const a = _wIn;
  a[0] = px; a[1] = py; a[2] = qx; a[3] = qy; a[4] = qvx; a[5] = qvy; a[6] = maxSpeed; a[7] = maxPrediction; a[8] = panicDistance;
  evadeArr(a, 0, _wOut, 0);
  out.x = _wOut[0]; out.y = _wOut[1];
  return _wOut[2];
}

/** followVelocity in array form: a[i ..] = nvx, nvy, maxSpeed (writes out[o], out[o + 1] only). */
export function followVelocityArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const nvx = a[i], nvy = a[i + 1], maxSpeed = a[i + 2];
  const s2 = nvx * nvx + nvy * nvy;
  if (s2 > maxSpeed * maxSpeed) {
    const s = maxSpeed / Math.sqrt(s2);
    out[o] = nvx * s; out[o + 1] = nvy * s;
  } else {
    out[o] = nvx; out[o + 1] = nvy;
  }
}

/**
 * Follow the navigation system's path or flow field: its preferred velocity (already pointing along the path or
 * down the flow field) is taken as the desired velocity, clamped to maxSpeed.
 */
export function followVelocity(nvx: number, nvy: number, maxSpeed: number, out: Vec2Out): void {
  const a = _wIn;
  a[0] = nvx; a[1] = nvy; a[2] = maxSpeed;
  followVelocityArr(a, 0, _wOut, 0);
  out.x = _wOut[0]; out.y = _wOut[1];
}
