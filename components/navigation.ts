import type { CrowdWorld } from '../src/world/crowd';
import { defineAgentComponent, type StoreAllocator } from '../src/world/registry';

/** `NavigationStore.mode`: how an agent reaches its grid goal. */
export const GRID_NAV_MODE_NONE = 0;
/** Follow a shared flow field towards the goal (group orders). */
export const GRID_NAV_MODE_FLOW = 1;
/** Follow its own A* path, planned through the time-sliced path queue. */
export const GRID_NAV_MODE_PATH = 2;

/** `NavigationStore.status` values (see navigationStatus for the string form). */
export const GRID_NAV_IDLE = 0;
export const GRID_NAV_MOVING = 1;
export const GRID_NAV_ARRIVED = 2;
export const GRID_NAV_UNREACHABLE = 3;
export const GRID_NAV_WAITING_FOR_PATH = 4;

/**
 * Per-agent grid navigation state, written by setAgentGoal / setGroupGoal and the navigation system.
 * Distances are metres; cells are row-major indices of the world's navigation grid.
 */
export interface NavigationStore {
  /** GRID_NAV_MODE_NONE / GRID_NAV_MODE_FLOW / GRID_NAV_MODE_PATH. */
  readonly mode: Uint8Array;
  /** GRID_NAV_IDLE / GRID_NAV_MOVING / GRID_NAV_ARRIVED / GRID_NAV_UNREACHABLE / GRID_NAV_WAITING_FOR_PATH. */
  readonly status: Uint8Array;
  /** Goal point (world metres) and its cell. */
  readonly goalX: Float64Array;
  readonly goalY: Float64Array;
  readonly goalCell: Int32Array;
  /** Distance to the goal point under which the agent has arrived (m). */
  readonly arriveRadius: Float64Array;
  /** Distance to the goal over which speed ramps from 0 to maxSpeed (m). */
  readonly slowRadius: Float64Array;
  /** Flow mode: slot of the shared flow field in the navigation state, −1 if none. */
  readonly fieldSlot: Int32Array;
  /** Path mode: cells in the agent's path buffer, index of the next waypoint, grid version it was planned on. */
  readonly pathLength: Int32Array;
  readonly pathIndex: Int32Array;
  readonly pathVersion: Float64Array;
  /** Path mode: number of re-plans requested (map edits, pushed off the path). */
  readonly replans: Uint32Array;
  /**
   * Distance to the goal at which the agent arrived in a crowd (stopped against arrived agents at its goal, see the
   * navigation system), 0 when it arrived within arriveRadius. It stays arrived while within
   * max(2 · arriveRadius, arrivedAt + arriveRadius) of the goal.
   */
  readonly arrivedAt: Float64Array;
  /** Seconds the agent has been held back in a row (moving less than 3/4 of what it asked for; see the system). */
  readonly heldBack: Float64Array;
  /** 1: the agent may arrive in a crowd (AgentGoalOptions.crowdArrival, the default); 0: it keeps pressing on. */
  readonly crowdArrival: Uint8Array;
  /**
   * 1 while the agent walks back to its goal after being pushed out of its arrival (it had arrived, then was pushed
   * beyond its hold distance); cleared when it arrives again or gets a new order. Such an agent has no order of its
   * own (src/world/orders.ts): it keeps yielding to moving agents on its way back.
   */
  readonly returning: Uint8Array;
}

/** The navigation component of `world` (allocated on first use). */
export function navigationComponent(world: CrowdWorld): NavigationStore {
  return defineAgentComponent(world, 'navigation', makeNavigationStore);
}

// Module scope: an arrow written inside navigationComponent would be a fresh closure (an allocation) on every call.
const makeNavigationStore = (a: StoreAllocator): NavigationStore => ({
  mode: a.u8(GRID_NAV_MODE_NONE),
  status: a.u8(GRID_NAV_IDLE),
  goalX: a.f64(0),
  goalY: a.f64(0),
  goalCell: a.i32(-1),
  arriveRadius: a.f64(0.25),
  slowRadius: a.f64(2),
  fieldSlot: a.i32(-1),
  pathLength: a.i32(0),
  pathIndex: a.i32(0),
  pathVersion: a.f64(-1),
  replans: a.u32(0),
  arrivedAt: a.f64(0),
  heldBack: a.f64(0),
  crowdArrival: a.u8(1),
  returning: a.u8(0),
});
