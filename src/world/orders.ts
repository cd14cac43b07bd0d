/**
 * Orders: which agents are moving on an order, and which have none (idle, arrived, or walking back to where they
 * arrived). Agents without an order yield to agents moving on one: in the ORCA system they avoid where the mover wants
 * to go, taking the whole avoidance, and the contacts pass gives them the larger part of the pair's overlap
 * correction (docs/ORCA.md, "Idle agents yield"), so a moving unit shoves an idle one out of its way, as RTS players
 * expect (StarCraft II, Age of Empires). Two levels: ORDER_IDLE yields to ORDER_MOVING; agents sent to the same spot
 * do not yield to each other (sameSpotAt): they arrive as one crowd (src/world/crowd-arrival.ts).
 *
 * An agent has an order when
 *   - grid navigation (systems/navigation.ts) drives it with status 'moving' or 'waiting-for-path', or
 *   - the funnel system (systems/funnel.ts) drives it with state NAV_FOLLOWING or NAV_REPLAN, or
 *   - its steering has a travelling behaviour: STEER_SEEK, STEER_PURSUE, STEER_WANDER, panic, or STEER_ARRIVE toward a
 *     moving target or one farther away than its slowing radius (inside it the agent is settling on its target: a
 *     formation member on its slot at rest, which walks back to the slot when shoved), or
 *   - none of these drives it (no grid goal, no navmesh goal, no STEER_ARRIVE) and its preferred velocity is not
 *     zero: it moves as the game sets it (setPreferredVelocity), or by boids.
 * It has none when it is idle, arrived or unreachable under grid navigation or the funnel, settled under STEER_ARRIVE,
 * or, undriven, asks for no velocity. An agent walking back after being pushed out of its arrival (the `returning`
 * flag of the navigation and corridor stores) has no order either: it keeps yielding on its way back, so a unit shoved
 * ahead through a corridor does not turn and block the unit that shoved it, and it shoves no one (returning units that
 * outranked idle ones shoved each other out of two spots that block each other forever: two units in a one-cell dead
 * end, 5.3 s a round). Blocked on its way back, it stops where it stands (the crowd-arrival passes). STEER_FLEE,
 * STEER_EVADE, STEER_FOLLOW and STEER_AVOID_WALLS are reactions or filters, not orders: with them the other rules
 * decide.
 */
import type { CrowdWorld } from './crowd';
import { requireAgent } from './agents';
import {
  GRID_NAV_MODE_NONE, GRID_NAV_MOVING, GRID_NAV_WAITING_FOR_PATH, type NavigationStore,
} from '../../components/navigation';
import { NAV_FOLLOWING, NAV_NONE, NAV_REPLAN, type CorridorStore } from '../../components/corridor';
import { STEER_ARRIVE, STEER_PURSUE, STEER_SEEK, STEER_WANDER, type SteeringStore } from '../../components/steering';
import type { OrcaStore } from '../../components/orca';

/** Steering behaviours that move an agent on their own (orders); STEER_ARRIVE is decided by distance. */
const TRAVEL = STEER_SEEK | STEER_PURSUE | STEER_WANDER;

/** Order levels (orderLevelAt): an agent yields to neighbours of a higher level. No order: it yields. */
export const ORDER_IDLE = 0;
/** Moving on an order, or not yielding (yieldWhenIdle: false, priority Infinity). */
export const ORDER_MOVING = 1;

/**
 * Has agent e an order (see the module comment)? `s` from orderStores(world). Reads state only; allocation-free.
 */
function orderedAt(s: OrderStores, e: number): boolean {
  const nav = s.nav, cor = s.cor, steer = s.steer;
  let driven = false;
  if (nav !== undefined && nav.mode[e] !== GRID_NAV_MODE_NONE) {
    const st = nav.status[e];
    if ((st === GRID_NAV_MOVING || st === GRID_NAV_WAITING_FOR_PATH) && nav.returning[e] === 0) return true;
    driven = true;
  }
  if (cor !== undefined && cor.state[e] !== NAV_NONE) {
    const st = cor.state[e];
    if ((st === NAV_FOLLOWING || st === NAV_REPLAN) && cor.returning[e] === 0) return true;
    driven = true;
  }
  if (steer !== undefined) {
    const b = steer.behaviours[e];
    if (steer.panic[e] !== 0 || (b & TRAVEL) !== 0) return true;
    if ((b & STEER_ARRIVE) !== 0) {
      if (steer.targetVx[e] !== 0 || steer.targetVy[e] !== 0) return true;
      const dx = steer.targetX[e] - s.px[e], dy = steer.targetY[e] - s.py[e];
      const R = steer.slowingRadius[e];
      if (dx * dx + dy * dy > R * R) return true;
      driven = true;
    }
  }
  return !driven && (s.pvx[e] !== 0 || s.pvy[e] !== 0);
}

/**
 * Does agent `eid` have an order: moving on a grid or navmesh goal, a travelling steering behaviour, or a preferred
 * velocity the game set? False for idle, arrived, unreachable and returning agents: those yield to agents moving on
 * an order unless their ORCA params say `yieldWhenIdle: false`. The rule is in docs/ORCA.md ("Idle agents yield").
 */
export function agentHasOrder(world: CrowdWorld, eid: number): boolean {
  requireAgent(world, eid);
  return hasOrderAt(world, eid);
}

/**
 * The stores the order rule reads, looked up once per pass (orderStores) rather than per agent: the world's
 * components, undefined when the world never defined them (then nothing of that kind drives any agent), and its
 * positions and preferred velocities. One module object, refilled by each call: read it before the next call for
 * another world.
 */
export interface OrderStores {
  nav: NavigationStore | undefined;
  cor: CorridorStore | undefined;
  steer: SteeringStore | undefined;
  orca: OrcaStore | undefined;
  px: Float64Array;
  py: Float64Array;
  pvx: Float64Array;
  pvy: Float64Array;
}
const _none = new Float64Array(0);
const _stores: OrderStores = { nav: undefined, cor: undefined, steer: undefined, orca: undefined, px: _none, py: _none, pvx: _none, pvy: _none };

/** The order rule's stores of `world` (see OrderStores). Allocation-free. */
export function orderStores(world: CrowdWorld): OrderStores {
  const c = world.registry.components;
  _stores.nav = c.navigation as NavigationStore | undefined;
  _stores.cor = c.corridor as CorridorStore | undefined;
  _stores.steer = c.steering as SteeringStore | undefined;
  _stores.orca = c.orca as OrcaStore | undefined;
  _stores.px = world.position.x; _stores.py = world.position.y;
  _stores.pvx = world.preferredVelocity.x; _stores.pvy = world.preferredVelocity.y;
  return _stores;
}

/** agentHasOrder without the argument check, for per-frame code (it looks the stores up: rare calls only). */
export function hasOrderAt(world: CrowdWorld, e: number): boolean {
  return orderedAt(orderStores(world), e);
}

/**
 * Agent e's order level this step: ORDER_MOVING with an order, or when its ORCA params say yieldWhenIdle: false or
 * priority Infinity ("never yields"); else ORDER_IDLE. `s` from orderStores(world). Allocation-free; the ORCA pack pass
 * calls it for the agents that run ORCA, the contacts pass for the agents in a contact.
 */
export function orderLevelAt(s: OrderStores, e: number): number {
  // the order first: most agents have one, and the opt-outs are then not read (the contacts pass calls this in
  // spatial order, where every store read is a cache miss of its own)
  if (orderedAt(s, e)) return ORDER_MOVING;
  const orca = s.orca;
  return orca !== undefined && (orca.yieldWhenIdle[e] === 0 || orca.priority[e] === Infinity) ? ORDER_MOVING : ORDER_IDLE;
}

/** goalOf's output: (x, y) of a, then of b (NaN when none). */
const _goals = new Float64Array(4);

/** Agent e's goal into _goals[k], _goals[k + 1]: its grid goal, else its navmesh goal, else its STEER_ARRIVE target. */
function goalOf(s: OrderStores, e: number, k: number): void {
  const nav = s.nav, cor = s.cor, steer = s.steer;
  if (nav !== undefined && nav.mode[e] !== GRID_NAV_MODE_NONE) { _goals[k] = nav.goalX[e]; _goals[k + 1] = nav.goalY[e]; }
  else if (cor !== undefined && cor.state[e] !== NAV_NONE) { _goals[k] = cor.goalX[e]; _goals[k + 1] = cor.goalY[e]; }
  else if (steer !== undefined && (steer.behaviours[e] & STEER_ARRIVE) !== 0) { _goals[k] = steer.targetX[e]; _goals[k + 1] = steer.targetY[e]; }
  else { _goals[k] = NaN; _goals[k + 1] = NaN; }
}

/**
 * Do agents a and b (order levels differing) skip yielding because they are sent to the same spot (goals within
 * ra + rb, the rule of arrival in a crowd: src/world/crowd-arrival.ts)? Such a pair is one crowd: the later one stops
 * against the one that arrived first instead of shoving it off the spot they share (a group order, a horde piling
 * onto its target). False when either has no goal. `s` from orderStores(world), `radius` world.agent.radius.
 * Allocation-free.
 */
export function sameSpotAt(s: OrderStores, radius: Float64Array, a: number, b: number): boolean {
  goalOf(s, a, 0);
  goalOf(s, b, 2);
  const dx = _goals[0] - _goals[2], dy = _goals[1] - _goals[3], R = radius[a] + radius[b];
  return dx * dx + dy * dy <= R * R; // false with a NaN
}
