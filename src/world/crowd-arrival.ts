import type { SpatialHash } from '../spatial/hash';
import type { CrowdWorld } from './crowd';
import { queryRadiusAt } from '../spatial/hash';
import { hasOrderAt } from './orders';

/**
 * Arrival in a crowd, shared by the grid navigation and funnel systems. Several agents sent to one point (each its
 * own order, or a unit parked on another's goal) cannot all come within the arrival distance of it: without a rule,
 * all but one press into the others forever. A system asks, for an agent A that has been held back (see
 * CROWD_HOLD_SECONDS), whether it has arrived as far as the crowd lets it: its goal lies under its own body
 * (|A − goal A| ≤ rA: held there by others, it may never come within a small arrival distance, and the crowd needs a
 * first arrived agent to grow from), or it touches the arrived crowd at its goal: an arrived agent B with
 *   - contact: |A − B| ≤ rA + rB + rA / 2 (ORCA leaves small gaps between neighbours, contacts none);
 *   - B nearer A's goal than A is, so the arrived crowd grows outward from the goal one contact at a time;
 *   - B sent to the same spot (|goal B − goal A| ≤ rA + rB) or standing on A's goal (|B − goal A| ≤ rB + the
 *     arrival distance of A), so an agent held up on its way by a unit that arrived somewhere else keeps going.
 *     A unit standing on A's goal counts when it is parked (arrived, idle) or moving on an order of its own: stopped,
 *     A is idle, and a unit with an order then outranks it (src/world/orders.ts) and can shove past it (den312d,
 *     2026-11-30: a unit whose way out of a dead end led through two movers headed for the spot it stood on was shut
 *     in by them for good). A unit walking back to its own arrival (returning) does not count: it would shove the
 *     stopped A out of its spot on its way, A would walk back and shove it in turn, and so on; in a one-cell dead end
 *     the two did that forever, 5.3 s a round.
 */

/** Seconds an agent must have been held back in a row (moving less than 3/4 of its preferred step each frame) before
 * it may arrive in a crowd: long enough for an arriving crowd to pack, short enough that no one visibly pushes long. */
export const CROWD_HOLD_SECONDS = 0.5;

let _near = new Int32Array(64);
/**
 * [query radius, A's arrival distance, largest radius, the step dt for heldBackLastStep]: doubles read from an array,
 * never passed (boxing).
 */
export const crowdArrivalArgs = new Float64Array(4);

/**
 * Was agent e held back over the last step: it moved less than quarters/4 of what its preferred velocity asks over
 * one step of crowdArrivalArgs[3] seconds (HELD_BACK: 3/4; pushing an equal body ahead of it moves an agent about
 * half)? False when it asks for nothing. `quarters` is a small integer (an integer argument is not boxed).
 */
export function heldBackLastStep(world: CrowdWorld, e: number, quarters: number): boolean {
  const p = world.position, pv = world.preferredVelocity, dt = crowdArrivalArgs[3];
  const mx = p.x[e] - p.previousX[e], my = p.y[e] - p.previousY[e];
  const want2 = (pv.x[e] * pv.x[e] + pv.y[e] * pv.y[e]) * dt * dt;
  return want2 > 0 && 16 * (mx * mx + my * my) < quarters * quarters * want2;
}

/** heldBackLastStep's fraction, in quarters of the preferred step: held back (moving less than 3/4 of it). */
export const HELD_BACK = 3;
/**
 * heldBackLastStep's fraction for an agent walking back to its arrival (returning): stuck, moving less than 1/4 of
 * what it asks (in any direction). Held back 0.5 s in a row by this test, and blocked for good (touchesArrivedCrowd), it
 * stops where it stands (the navigation and funnel systems); one being shoved along, or stepping aside for a passing
 * mover, moves more than that and keeps going once the way is free.
 */
export const STUCK = 1;

/** Largest radius among the hash's entries (the contact search reaches rA + this). */
export function hashMaxRadius(hash: SpatialHash, radius: Float64Array): number {
  let rMax = 0;
  for (let t = 0; t < hash.count; t++) { const r = radius[hash.sortedIds[t]]; if (r > rMax) rMax = r; }
  return rMax;
}

/**
 * Does held-back agent a stop where it stands: has it arrived as far as the crowd lets it (its goal under its body, a
 * unit standing on its goal, or the arrived crowd at its goal: see the module comment), or, when `blockedStops` (a
 * returning agent stuck on its way back, see STUCK), is it blocked for good by the agents it touches? Blocked for good:
 * it touches one (|a − b| ≤ ra + rb + ra / 2), and every one it touches stands for good: idle (no order, not walking
 * back itself), or moving on an order but held back itself. A mover getting on with it pins a returning agent for a
 * moment (it squeezes past; once it has passed the way is free), and a touching agent that is walking back too is
 * trying to get somewhere (two shoved units coming back to one corridor mouth jam it for seconds, then go in one
 * after the other): stopping for either would leave the agent wherever it was put. A mover pressing against it
 * without getting anywhere (both shut in a dead end) does count. Stuck on walls alone (an ORCA agent can stall for a
 * while against a wall corner) it is not blocked for good either. (One pass over the touching agents for both
 * questions: the check runs for few agents, and as a function of its own it stayed in V8's baseline tier, which boxes
 * every double: 130 bytes per call.)
 *
 * `arrived[b] === arrivedCode` marks arrived agents and `returning[b] !== 0` agents walking back to their arrival (the
 * calling system's stores); goalX/goalY are every agent's goal; crowdArrivalArgs[1] holds a's arrival distance, [2]
 * the largest radius (hashMaxRadius) and [3] the step (heldBackLastStep). The hash must hold the agents' current
 * positions. Allocation-free.
 */
export function touchesArrivedCrowd(
  world: CrowdWorld, hash: SpatialHash, a: number, goalX: Float64Array, goalY: Float64Array, arrived: Uint8Array,
  arrivedCode: number, returning: Uint8Array, blockedStops: boolean,
): boolean {
  const px = world.position.x, py = world.position.y, radius = world.agent.radius;
  const ra = radius[a], gx = goalX[a], gy = goalY[a], arriveA = crowdArrivalArgs[1], rMax = crowdArrivalArgs[2];
  const dax = px[a] - gx, day = py[a] - gy, da2 = dax * dax + day * day;
  if (da2 <= ra * ra) return true; // the goal is under its body
  if (_near.length < hash.count) _near = new Int32Array(hash.count);
  crowdArrivalArgs[0] = 1.5 * ra + rMax;
  const m = queryRadiusAt(hash, px, py, a, crowdArrivalArgs, 0, a, _near);
  let touching = false, free = false;
  for (let j = 0; j < m; j++) {
    const b = _near[j];
    const rb = radius[b];
    const dx = px[b] - px[a], dy = py[b] - py[a], touch = ra + rb + 0.5 * ra;
    if (dx * dx + dy * dy > touch * touch) continue;
    if (blockedStops && !free) {
      touching = true;
      if (returning[b] !== 0 || (hasOrderAt(world, b) && !heldBackLastStep(world, b, HELD_BACK))) free = true;
    }
    const bx = px[b] - gx, by = py[b] - gy, db2 = bx * bx + by * by;
    if (!(db2 < da2)) continue;
    // a unit standing on A's goal, parked or moving on an order of its own (not one walking back to its arrival)
    const on = rb + arriveA;
    if (db2 <= on * on && (arrived[b] === arrivedCode || returning[b] === 0)) return true;
    // the arrived crowd at A's spot
    if (arrived[b] !== arrivedCode) continue;
    const sgx = goalX[b] - gx, sgy = goalY[b] - gy, same = ra + rb;
    if (sgx * sgx + sgy * sgy <= same * same) return true;
  }
  return touching && !free;
}
