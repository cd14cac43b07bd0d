import type { CrowdWorld } from '../src/world/crowd';
import { defineAgentComponent, type StoreAllocator } from '../src/world/registry';

/** Navigation state of an agent following a navmesh corridor. */
export const NAV_NONE = 0;
/** Following its corridor. */
export const NAV_FOLLOWING = 1;
/** Within `arriveDistance` of its goal; preferred velocity is zero. */
export const NAV_ARRIVED = 2;
/** No path to the goal (a status, not an error): the agent stops. */
export const NAV_UNREACHABLE = 3;
/** Waiting for a re-plan (the per-frame re-plan budget was spent). */
export const NAV_REPLAN = 4;

/**
 * Per-agent corridor state. The corridor triangles themselves live in the funnel system's flat pool
 * (`world.systems.funnel`), at slot `slot`.
 */
export interface CorridorStore {
  /** NAV_NONE / NAV_FOLLOWING / NAV_ARRIVED / NAV_UNREACHABLE / NAV_REPLAN. */
  readonly state: Uint8Array;
  /** Corridor slot in the pool, −1 if none. */
  readonly slot: Int32Array;
  /** Triangles in the corridor. */
  readonly length: Int32Array;
  /** Goal, metres (snapped onto the mesh). */
  readonly goalX: Float64Array;
  readonly goalY: Float64Array;
  /** Next corner the agent steers to this frame, metres (for steering and debug drawing). */
  readonly cornerX: Float64Array;
  readonly cornerY: Float64Array;
  /** Re-plans so far (pushed off the corridor, closed triangles, mesh changed). */
  readonly replans: Uint32Array;
  /** Seconds the agent has been held back in a row (moving less than 3/4 of what it asked for; arrival in a crowd). */
  readonly heldBack: Float64Array;
  /**
   * Distance to the goal at which the agent arrived (0 within arriveDistance, more in a crowd). An arrived agent
   * pushed farther than max(2 · arriveDistance, arrivedAt + arriveDistance) from its goal walks back (re-plans),
   * unless it still stands in the arrived crowd at its goal.
   */
  readonly arrivedAt: Float64Array;
  /**
   * 1 while the agent walks back to its goal after being pushed out of its arrival (re-planned by the crowd-arrival
   * pass); cleared when it arrives again or gets a new goal. Such an agent has no order of its own
   * (src/world/orders.ts): it keeps yielding to moving agents on its way back.
   */
  readonly returning: Uint8Array;
}

export function corridorComponent(world: CrowdWorld): CorridorStore {
  return defineAgentComponent(world, 'corridor', makeCorridorStore);
}

// Module scope: an arrow written inside corridorComponent would be a fresh closure (an allocation) on every call.
const makeCorridorStore = (a: StoreAllocator): CorridorStore => ({
  state: a.u8(NAV_NONE),
  slot: a.i32(-1),
  length: a.i32(0),
  goalX: a.f64(0),
  goalY: a.f64(0),
  cornerX: a.f64(0),
  cornerY: a.f64(0),
  replans: a.u32(0),
  heldBack: a.f64(0),
  arrivedAt: a.f64(0),
  returning: a.u8(0),
});
