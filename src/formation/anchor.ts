/**
 * The formation anchor: a virtual leader that drives along the group's path; every slot is rigidly attached to it.
 *
 * The anchor is a unicycle (position, unit heading h, speed v, turn rate ω). Each step it turns toward the current
 * waypoint by at most ω_max·dt and moves along its heading; a waypoint counts as reached within `waypointRadius`.
 *
 * Why the formation does not break in a turn: a slot at offset r from the anchor moves with velocity
 * v·h + ω × r, whose speed is at most v + |ω|·|r|. If the members can do at most vMax, keeping
 *   v + |ω|·R ≤ margin·vMax,     R = the largest slot distance from the centre,
 * leaves them `1 − margin` of their speed to correct errors. We therefore cap the turn rate at
 * ω_cap = min(ω_max, margin·vMax / (2R)) (so the formation can still turn at half its speed) and the speed at
 * v ≤ margin·vMax − |ω|·R. The caller can also pass a `slow` factor in [0, 1] (e.g. from the members' slot errors) so
 * the anchor waits for stragglers instead of leaving them behind.
 *
 * At the final waypoint the anchor brakes on the ramp v ≤ k·d (k = 1/s by default via `arriveGain`) and stops within
 * `waypointRadius`.
 */
import { registerPlainDataClass } from '../core/plain-data';
import { datan2, dcos, dsin } from '../core/dmath';

export interface AnchorState {
  /** Position, metres. */
  x: number;
  y: number;
  /** Unit heading. */
  hx: number;
  hy: number;
  /** Speed of the last step, m/s. */
  speed: number;
  /** Signed turn rate of the last step, rad/s (counter-clockwise positive). */
  omega: number;
  /** Index of the waypoint being driven to; equals the path's point count when finished. */
  waypoint: number;
}

export interface AnchorParams {
  /** Cruise speed, m/s. */
  cruiseSpeed: number;
  /** Turn-rate limit of the formation, rad/s. */
  maxTurnRate: number;
  /** Slowest member's max speed, m/s. */
  memberMaxSpeed: number;
  /** Largest slot distance from the centre, metres (slotsRadius). */
  extent: number;
  /** Fraction of the members' speed the anchor may use, (0, 1]. @default 0.8 */
  margin: number;
  /** A waypoint is reached within this distance, metres. */
  waypointRadius: number;
  /** Braking gain at the final waypoint, 1/s. @default 1 */
  arriveGain: number;
}

export function createAnchorState(x: number, y: number, hx = 1, hy = 0): AnchorState {
  const h = Math.sqrt(hx * hx + hy * hy);
  return new AnchorStateBox(x, y, h > 0 ? hx / h : 1, h > 0 ? hy / h : 0);
}

// A class, not an object literal: literals beginning { x, y, ... } share hidden classes with every other such
// literal in the program, whose x and y fields hold non-doubles somewhere, so each double advanceAnchor stored into
// them was boxed into a fresh HeapNumber. This class's fields only ever hold numbers.
class AnchorStateBox implements AnchorState {
  x: number;
  y: number;
  hx: number;
  hy: number;
  speed: number;
  omega: number;
  waypoint: number;
  constructor(x: number, y: number, hx: number, hy: number) {
    this.x = x;
    this.y = y;
    this.hx = hx;
    this.hy = hy;
    this.speed = 0;
    this.omega = 0;
    this.waypoint = 0;
  }
}
// Plain data: snapshots copy it field by field (src/core/plain-data.ts).
registerPlainDataClass(AnchorStateBox, 'formation.AnchorState');

/**
 * Advance the anchor by dt along `path` ([x0, y0, x1, y1, ...], `points` waypoints).
 * @param slow speed factor in [0, 1] from the caller (1 = full speed).
 * @returns true while the path is not finished.
 */
export function advanceAnchor(st: AnchorState, path: Float64Array, points: number, p: Readonly<AnchorParams>, slow: number, dt: number): boolean {
  // Skip reached waypoints (all but the last, which is handled by braking).
  while (st.waypoint < points - 1) {
    const dx = path[2 * st.waypoint] - st.x, dy = path[2 * st.waypoint + 1] - st.y;
    if (dx * dx + dy * dy > p.waypointRadius * p.waypointRadius) break;
    st.waypoint++;
  }
  if (st.waypoint >= points) { st.speed = 0; st.omega = 0; return false; }
  const tx = path[2 * st.waypoint], ty = path[2 * st.waypoint + 1];
  const dx = tx - st.x, dy = ty - st.y;
  const dist = Math.sqrt(dx * dx + dy * dy);
  const last = st.waypoint === points - 1;
  if (last && dist <= p.waypointRadius * 0.05 + 1e-9) {
    st.waypoint = points; st.speed = 0; st.omega = 0;
    return false;
  }
  // Turn toward the waypoint, rate-limited.
  const budget = p.margin * p.memberMaxSpeed;
  let wCap = p.maxTurnRate;
  if (p.extent > 0) { const w = budget / (2 * p.extent); if (w < wCap) wCap = w; }
  let turn = 0;
  if (dist > 0) {
    const ang = datan2(st.hx * dy - st.hy * dx, st.hx * dx + st.hy * dy);
    const lim = wCap * dt;
    turn = ang > lim ? lim : ang < -lim ? -lim : ang;
    if (turn !== 0) {
      const c = dcos(turn), s = dsin(turn);
      const nx = st.hx * c - st.hy * s, ny = st.hx * s + st.hy * c;
      const n = Math.sqrt(nx * nx + ny * ny);
      st.hx = nx / n; st.hy = ny / n;
    }
  }
  st.omega = turn / dt;
  // Speed: cruise, limited by the turn (outer slots), by the caller's slow factor, and by braking at the end.
  let v = p.cruiseSpeed;
  const turnCap = budget - Math.abs(st.omega) * p.extent;
  if (turnCap < v) v = turnCap;
  if (v < 0) v = 0;
  v *= slow < 0 ? 0 : slow > 1 ? 1 : slow;
  if (last) {
    const brake = p.arriveGain * dist;
    if (brake < v) v = brake;
    // Never step past the final waypoint.
    if (v * dt > dist) v = dist / dt;
  }
  st.x += st.hx * v * dt;
  st.y += st.hy * v * dt;
  st.speed = v;
  return true;
}
