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
 * While a turn is cut short by the limit, the anchor also keeps v ≤ ω_cap·d / (2·|sin α|) (d the distance to the
 * waypoint, α its angle from the heading before this step's turn): the circle tangent to the heading through the
 * waypoint has curvature 2·sin α / d, so at that speed the turn can follow it; faster, the waypoint lies inside the
 * anchor's tightest circle and the anchor runs round it for good (found by the formation system fuzz property,
 * 2026-11-30: a waypoint 2 m abeam, a 5 m turning radius, 100,000 steps never closer than 2 m). Measuring α before
 * the turn makes the cap stricter than the tangent circle of the new heading needs while |α| ≤ π/2.
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
  /** Cache: the last turn limit ω_cap·dt (rad, NaN before the first step) and its cosine and sine. */
  turnLimit: number;
  turnCos: number;
  turnSin: number;
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
  turnLimit: number;
  turnCos: number;
  turnSin: number;
  constructor(x: number, y: number, hx: number, hy: number) {
    this.x = x;
    this.y = y;
    this.hx = hx;
    this.hy = hy;
    this.speed = 0;
    this.omega = 0;
    this.waypoint = 0;
    this.turnLimit = NaN;
    this.turnCos = 1;
    this.turnSin = 0;
  }
}
// Plain data: snapshots copy it field by field (src/core/plain-data.ts).
registerPlainDataClass(AnchorStateBox, 'formation.AnchorState');

/**
 * Advance the anchor by dt along `path` ([x0, y0, x1, y1, ...], `points` waypoints).
 * @param slow speed factor in [0, 1] from the caller (1 = full speed).
 * @returns true while the path is not finished.
 *
 * The turn is done with vectors, not angles: with u the unit direction to the waypoint, c = h × u and d = h · u are
 * the sine and cosine of the angle from h to u. If d ≥ cos(lim) (lim = ω_cap·dt) the waypoint is within this step's
 * turn, so h becomes u; otherwise h rotates by ±lim (the side is the sign of c), with cos(lim) and sin(lim) cached in
 * the state for the last lim. ω needs the angle itself: for |c| < 1e-4 (every straight step) asin's series
 * c + c³/6 is exact to double precision (the next term, 3c⁵/40, is below half an ulp); otherwise datan2. So a
 * straight or rate-limited step calls no trigonometric function, and this function stays small enough for V8 to
 * inline it into the once-per-frame formation system (not inlined, it runs in the interpreter, which boxes every
 * double it computes: a per-frame allocation).
 */
export function advanceAnchor(st: AnchorState, path: Float64Array, points: number, p: Readonly<AnchorParams>, slow: number, dt: number): boolean {
  const dist = anchorWaypoint(st, path, points, p);
  if (dist < 0) return false;
  anchorTurn(st, path, p, dist, dt);
  anchorMove(st, points, p, slow < 0 ? 0 : slow > 1 ? 1 : slow, dt, dist);
  return true;
}
// The formation system calls the three pieces itself (systems/formation.ts driveGroup), with its slow factor already
// in [0, 1]: without this wrapper in between, the pieces fit V8's inlining budget with room to spare (TurboFan reserves
// 1.2 × a callee's size of the 920-byte cumulative budget before inlining it), so they inline into driveGroup and
// nothing is boxed. Through advanceAnchor the last piece missed the budget by a few bytes once the turn's speed cap
// was added.

/**
 * Skip reached waypoints (all but the last, which is handled by braking) and return the distance to the current
 * one, or −1 when the path is finished (then the anchor stands still).
 * @internal (systems/formation.ts)
 */
export function anchorWaypoint(st: AnchorState, path: Float64Array, points: number, p: Readonly<AnchorParams>): number {
  let wp = st.waypoint, d2 = 0;
  const r2 = p.waypointRadius * p.waypointRadius;
  for (; wp < points; wp++) {
    const dx = path[2 * wp] - st.x, dy = path[2 * wp + 1] - st.y;
    d2 = dx * dx + dy * dy;
    if (wp === points - 1 || d2 > r2) break;
  }
  const dist = Math.sqrt(d2);
  if (wp >= points || (wp === points - 1 && dist <= p.waypointRadius * 0.05 + 1e-9)) {
    st.waypoint = points; st.speed = 0; st.omega = 0;
    return -1;
  }
  st.waypoint = wp;
  return dist;
}

/**
 * Turn toward the current waypoint, `dist` away, by at most ω_cap·dt (see advanceAnchor); sets the heading and ω,
 * and leaves this step's speed cap from the turn in `st.speed` for anchorMove (which then stores the speed there).
 * @internal (systems/formation.ts)
 */
export function anchorTurn(st: AnchorState, path: Float64Array, p: Readonly<AnchorParams>, dist: number, dt: number): void {
  let wCap = p.maxTurnRate;
  const w = (p.margin * p.memberMaxSpeed) / (2 * p.extent);
  if (w < wCap) wCap = w; // extent 0: w = Infinity or NaN (0/0), never below wCap
  let turn = 0;
  st.speed = Infinity; // this step's speed cap from the turn (below); anchorMove then stores the speed here
  if (dist > 0) {
    const lim = wCap * dt;
    if (lim !== st.turnLimit) setTurnLimit(st, lim);
    const w2 = 2 * st.waypoint;
    const ux = (path[w2] - st.x) / dist, uy = (path[w2 + 1] - st.y) / dist, hx = st.hx, hy = st.hy;
    let c = hx * uy - hy * ux;
    const d = hx * ux + hy * uy;
    if (d >= st.turnCos) {
      turn = d > 0 && c < 1e-4 && c > -1e-4 ? c + (c * c * c) / 6 : datan2(c, d);
      // cos is flat near 0 and π: d ≥ cos(lim) can hold by round-off for an angle a few 1e-8 rad above lim. The
      // heading still snaps; the reported turn stays within the limit.
      if (turn > lim) turn = lim;
      else if (turn < -lim) turn = -lim;
      st.hx = ux; st.hy = uy;
    } else {
      let s = st.turnSin;
      turn = lim;
      if (c < 0) { s = -s; turn = -lim; c = -c; }
      // the speed cap v ≤ ω_cap·d / (2·|sin α|) (see the file comment); + 0 turns a −0 (waypoint exactly behind) into
      // +0, so the cap is +Infinity there: a point straight behind lies outside the tightest circles
      st.speed = (wCap * dist) / (c + c + 0);
      const k = st.turnCos;
      const nx = hx * k - hy * s, ny = hx * s + hy * k, n = Math.sqrt(nx * nx + ny * ny);
      st.hx = nx / n; st.hy = ny / n;
    }
  }
  st.omega = turn / dt;
}

/**
 * Speed (cruise, capped by anchorTurn's cap in `st.speed`, by the turn for the outer slots, the caller's slow factor
 * in [0, 1] and braking at the end), then move.
 * @internal (systems/formation.ts)
 */
export function anchorMove(st: AnchorState, points: number, p: Readonly<AnchorParams>, slow: number, dt: number, dist: number): void {
  let v = p.cruiseSpeed;
  if (st.speed < v) v = st.speed;
  const turnCap = p.margin * p.memberMaxSpeed - Math.abs(st.omega) * p.extent;
  if (turnCap < v) v = turnCap;
  if (v < 0) v = 0;
  v *= slow;
  if (st.waypoint === points - 1) {
    if (p.arriveGain * dist < v) v = p.arriveGain * dist;
    if (v * dt > dist) v = dist / dt; // never step past the final waypoint
  }
  st.x += st.hx * v * dt;
  st.y += st.hy * v * dt;
  st.speed = v;
}

/** Cache cos(lim) and sin(lim) for the turn limit lim ≥ 0 (from π on, −2 and 0: any turn is allowed). */
function setTurnLimit(st: AnchorState, lim: number): void {
  st.turnLimit = lim;
  // From π on any turn is allowed: −2, not cos(π) = −1, so that h · u rounding to just below −1 (the waypoint exactly
  // behind) still snaps instead of taking the rate-limited branch, which would report ω = lim/dt for a half turn
  // (found by the anchor fuzz property, 2026-11-29). Kept here, not as a test in anchorTurn: that function must stay
  // small enough for V8 to inline it (see advanceAnchor).
  st.turnCos = lim >= Math.PI ? -2 : dcos(lim);
  st.turnSin = lim >= Math.PI ? 0 : dsin(lim);
}
