import type { SpatialHash } from '../spatial/hash';
import type { CrowdWorld } from './crowd';
import { queryRadiusAt } from '../spatial/hash';

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
 * Was agent e held back over the last step: it moved less than 3/4 of what its preferred velocity asks over one step
 * of crowdArrivalArgs[3] seconds (pushing an equal body ahead of it moves an agent about half)? False when it asks
 * for nothing.
 */
export function heldBackLastStep(world: CrowdWorld, e: number): boolean {
  const p = world.position, pv = world.preferredVelocity, dt = crowdArrivalArgs[3];
  const mx = p.x[e] - p.previousX[e], my = p.y[e] - p.previousY[e];
  const want2 = (pv.x[e] * pv.x[e] + pv.y[e] * pv.y[e]) * dt * dt;
  return want2 > 0 && 16 * (mx * mx + my * my) < 9 * want2;
}

/** Largest radius among the hash's entries (the contact search reaches rA + this). */
export function hashMaxRadius(hash: SpatialHash, radius: Float64Array): number {
  let rMax = 0;
  for (let t = 0; t < hash.count; t++) { const r = radius[hash.sortedIds[t]]; if (r > rMax) rMax = r; }
  return rMax;
}

/**
 * Has held-back agent a arrived as far as the crowd lets it: its goal under its body, or touching the arrived crowd
 * at its goal (see the module comment)? `arrived[b] === arrivedCode` marks
 * arrived agents; goalX/goalY are every agent's goal; crowdArrivalArgs[1] holds a's arrival distance and [2] the
 * largest radius (hashMaxRadius). The hash must hold the agents' current positions. Allocation-free.
 */
export function touchesArrivedCrowd(
  hash: SpatialHash, px: Float64Array, py: Float64Array, radius: Float64Array, a: number,
  goalX: Float64Array, goalY: Float64Array, arrived: Uint8Array, arrivedCode: number,
): boolean {
  const ra = radius[a], gx = goalX[a], gy = goalY[a], arriveA = crowdArrivalArgs[1], rMax = crowdArrivalArgs[2];
  const dax = px[a] - gx, day = py[a] - gy, da2 = dax * dax + day * day;
  if (da2 <= ra * ra) return true; // the goal is under its body
  if (_near.length < hash.count) _near = new Int32Array(hash.count);
  crowdArrivalArgs[0] = 1.5 * ra + rMax;
  const m = queryRadiusAt(hash, px, py, a, crowdArrivalArgs, 0, a, _near);
  for (let j = 0; j < m; j++) {
    const b = _near[j];
    if (arrived[b] !== arrivedCode) continue;
    const rb = radius[b];
    const dx = px[b] - px[a], dy = py[b] - py[a], touch = ra + rb + 0.5 * ra;
    if (dx * dx + dy * dy > touch * touch) continue;
    const bx = px[b] - gx, by = py[b] - gy, db2 = bx * bx + by * by;
    if (!(db2 < da2)) continue;
    const sgx = goalX[b] - gx, sgy = goalY[b] - gy, same = ra + rb, on = rb + arriveA;
    if (sgx * sgx + sgy * sgy <= same * same || db2 <= on * on) return true;
  }
  return false;
}
