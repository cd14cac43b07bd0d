/**
 * Funnel system: turns each agent's navmesh corridor into its next corner and a preferred velocity.
 *
 * Per agent and frame (Detour's dtCrowd path-following loop, in our own terms):
 *   1. validity: a corridor through a closed triangle, or built on an older mesh, is re-planned;
 *   2. move the corridor start to the agent's triangle (corridorMoveStart); pushed off the corridor → re-plan;
 *   3. every `shortcutInterval` frames (staggered), a raycast to a portal `shortcutLookahead` triangles ahead; if it
 *      is clear, the ray's triangles replace the corridor up to there when that is shorter (dtPathCorridor's
 *      optimizePathVisibility: removes detours left by pushes and front repairs);
 *   4. portals from the agent's position → funnel (stopAfter) → the next corner, and the corners after it when the
 *      turn is within `lookahead`; the agent always heads for the first corner of the taut path within its
 *      corridor from where it stands;
 *   5. preferred velocity toward the next corner, slowed before sharp turns (lookahead) and on arrival.
 * Re-plans are budgeted per frame: at most `maxReplansPerFrame` searches start, and together they expand at most
 * `maxSearchExpansionsPerFrame` nodes; a search that runs out of budget is sliced (beginNavPath / stepNavPath) and
 * continues next frame, so one long query never spikes a frame (Detour's path queue does the same). Agents over
 * budget wait (NAV_REPLAN, zero preferred velocity) and try again next frame in dense order: deterministic.
 */
import type { CrowdWorld } from '../src/world/crowd';
import type { Navmesh } from '../src/navmesh/build';
import {
  beginNavPathAt, createNavQuery, createNavPathResult, findNavPath, finishNavPath, stepNavPath, type NavPathStatus, type NavQuery, type NavPathResult,
} from '../src/navmesh/search';
import { closestPointOnTriangleAt, locateTriangle, nearestPointOnMeshAt, pointInTriangleAt } from '../src/navmesh/locate';
import { corridorBlocked, corridorMoveStartAt, corridorShortcutAt } from '../src/navmesh/corridor';
import { funnel } from '../src/funnel/funnel';
import { InvalidArgumentError } from '../src/core/errors';
import { requireFinite, requireInteger, requirePositive, requireNonNegative } from '../src/core/validate';
import { requireAgent } from '../src/world/agents';
import { onDespawn } from '../src/world/registry';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';
import { LOD_STEER, lodComponent } from '../components/lod';
import { lodRulesInEffect } from './lod';
import { hashHoldsLiveAgents } from './spatial-hash';
import { CROWD_HOLD_SECONDS, crowdArrivalArgs, hashMaxRadius, heldBackLastStep, HELD_BACK, STUCK, touchesArrivedCrowd } from '../src/world/crowd-arrival';
import {
  corridorComponent, NAV_ARRIVED, NAV_FOLLOWING, NAV_NONE, NAV_REPLAN, NAV_UNREACHABLE, type CorridorStore,
} from '../components/corridor';

export interface FunnelOptions {
  /** Most triangles one corridor may hold; longer paths report 'unreachable'. @default 2048 */
  maxCorridor?: number;
  /** Most portals string-pulled per agent per frame (the corridor beyond is approximated). @default 128 */
  maxCornerPortals?: number;
  /** Most path searches per frame across the crowd. @default 16 */
  maxReplansPerFrame?: number;
  /** Most search-node expansions per frame across all re-plans (a longer search continues next frame). @default 16384 */
  maxSearchExpansionsPerFrame?: number;
  /** Distance before a corner over which the agent slows down for the turn, metres. @default 2 */
  lookahead?: number;
  /** Slowdown distance before the goal, metres. @default 1 */
  arrivalSlowdown?: number;
  /** The agent has arrived within this distance of the goal, metres. @default 0.05 */
  arriveDistance?: number;
  /** Speed fraction kept at a U-turn (the slowest corner speed). @default 0.2 */
  minTurnSpeed?: number;
  /** Try a visibility shortcut (raycast ahead) every this many frames per agent, staggered; 0 = never. @default 8 */
  shortcutInterval?: number;
  /** How many triangles ahead the shortcut ray aims (at that portal's middle). @default 16 */
  shortcutLookahead?: number;
}

/** Funnel system state, at world.systems.funnel. */
export interface FunnelState {
  mesh: Navmesh;
  query: NavQuery;
  result: NavPathResult;
  /** Closed triangles (1 = closed); change with setNavTrianglesBlocked. */
  blocked: Uint8Array;
  /** Bumped whenever the mesh or the closed set changes; corridors planned on older versions are re-planned. */
  version: number;
  /** Version each agent's corridor was planned on. */
  agentVersion: Uint32Array;
  /**
   * For a NAV_UNREACHABLE agent: the triangle its failed search started from (the one holding the agent, else the
   * nearest; −1 on an empty mesh). An agent pushed out of it into another open region is searched again.
   */
  failTri: Int32Array;
  /** Open region of each triangle under the closed set (−1: closed); valid while regionVersion === version. */
  region: Int32Array;
  regionVersion: number;
  maxCorridor: number;
  maxCornerPortals: number;
  maxReplansPerFrame: number;
  maxSearchExpansionsPerFrame: number;
  /** Query and result of the sliced re-plan search, and the agent it is for (−1: none running). */
  sliceQuery: NavQuery;
  sliceResult: NavPathResult;
  activeEid: number;
  /** Where that agent stood when its sliced search began (metres). */
  sliceX: number;
  sliceY: number;
  lookahead: number;
  arrivalSlowdown: number;
  arriveDistance: number;
  minTurnSpeed: number;
  shortcutInterval: number;
  shortcutLookahead: number;
  /** Flat corridor pool: slot s holds triangles at [s·maxCorridor, (s+1)·maxCorridor). */
  pool: Int32Array;
  freeSlots: Int32Array;
  freeCount: number;
  slotCount: number;
  corridor: CorridorStore;
}

// Scratch owned by the funnel system.
let _funnelPortals = new Float64Array(4 * 129);
let _funnelCorners = new Float64Array(2 * 256);
const _funnelSG = new Float64Array(4); // start x, y, goal x, y of a re-plan (beginNavPathAt)
const _funnelXY = new Float64Array(3); // an agent's position for the array-form kernels (x, y; closest point + d²)
let _funnelRay = new Int32Array(64);

/** Attach a navmesh (built for the crowd's agent radius) to the world. Replaces any previous one. */
export function setNavmesh(world: CrowdWorld, mesh: Navmesh, options: FunnelOptions = {}): FunnelState {
  if (mesh === null || typeof mesh !== 'object' || !(mesh.triangles instanceof Uint32Array)) {
    throw new InvalidArgumentError('mesh', mesh, 'must be a Navmesh from buildNavmesh');
  }
  const maxCorridor = requireInteger('options.maxCorridor', options.maxCorridor ?? 2048, 2, 1 << 20);
  const maxCornerPortals = requireInteger('options.maxCornerPortals', options.maxCornerPortals ?? 128, 3, 1 << 16);
  const maxReplansPerFrame = requireInteger('options.maxReplansPerFrame', options.maxReplansPerFrame ?? 16, 1, 1 << 20);
  const maxSearchExpansionsPerFrame = requireInteger('options.maxSearchExpansionsPerFrame', options.maxSearchExpansionsPerFrame ?? 16384, 1, 1 << 30);
  const lookahead = requirePositive('options.lookahead', options.lookahead ?? 2);
  const arrivalSlowdown = requirePositive('options.arrivalSlowdown', options.arrivalSlowdown ?? 1);
  const arriveDistance = requireNonNegative('options.arriveDistance', options.arriveDistance ?? 0.05);
  const minTurnSpeed = requireNonNegative('options.minTurnSpeed', options.minTurnSpeed ?? 0.2);
  if (minTurnSpeed > 1) throw new InvalidArgumentError('options.minTurnSpeed', minTurnSpeed, 'must be between 0 and 1');
  const shortcutInterval = requireInteger('options.shortcutInterval', options.shortcutInterval ?? 8, 0, 1 << 20);
  const shortcutLookahead = requireInteger('options.shortcutLookahead', options.shortcutLookahead ?? 16, 2, 1 << 16);
  const prev = world.systems.funnel as FunnelState | undefined;
  const corridor = corridorComponent(world);
  const state: FunnelState = {
    mesh, query: createNavQuery(mesh), result: createNavPathResult(maxCorridor),
    blocked: new Uint8Array(mesh.triangleCount), version: (prev?.version ?? 0) + 1,
    agentVersion: prev?.agentVersion ?? new Uint32Array(world.capacity + 1),
    failTri: new Int32Array(world.capacity + 1).fill(-1),
    region: new Int32Array(mesh.triangleCount), regionVersion: -1,
    maxCorridor, maxCornerPortals, maxReplansPerFrame, maxSearchExpansionsPerFrame,
    sliceQuery: createNavQuery(mesh), sliceResult: createNavPathResult(maxCorridor), activeEid: -1, sliceX: 0, sliceY: 0, lookahead, arrivalSlowdown, arriveDistance, minTurnSpeed,
    shortcutInterval, shortcutLookahead,
    pool: new Int32Array(0), freeSlots: new Int32Array(0), freeCount: 0, slotCount: 0, corridor,
  };
  state.query.blocked = state.blocked;
  state.sliceQuery.blocked = state.blocked;
  if (_funnelPortals.length < 4 * (maxCornerPortals + 1)) _funnelPortals = new Float64Array(4 * (maxCornerPortals + 1));
  if (_funnelCorners.length < 2 * (2 * maxCornerPortals + 8)) _funnelCorners = new Float64Array(2 * (2 * maxCornerPortals + 8));
  if (_funnelRay.length < 4 * shortcutLookahead) _funnelRay = new Int32Array(4 * shortcutLookahead);
  // Agents that had corridors on the old mesh keep their goals and re-plan (slots are re-issued from the new pool).
  const dense = world.agents.dense;
  for (let i = 0; i < world.agents.count; i++) {
    const eid = dense[i];
    corridor.slot[eid] = -1;
    if (corridor.state[eid] === NAV_FOLLOWING || corridor.state[eid] === NAV_REPLAN) corridor.state[eid] = NAV_REPLAN;
  }
  if (prev === undefined) onDespawn(world, releaseSlot);
  world.systems.funnel = state;
  return state;
}

function getState(world: CrowdWorld): FunnelState {
  const s = world.systems.funnel as FunnelState | undefined;
  if (s === undefined) throw new InvalidArgumentError('world', 'no navmesh', 'call setNavmesh(world, mesh) first');
  return s;
}

function releaseSlot(world: CrowdWorld, eid: number): void {
  const s = world.systems.funnel as FunnelState | undefined;
  if (s === undefined) return;
  const slot = s.corridor.slot[eid];
  if (slot >= 0) {
    s.freeSlots[s.freeCount++] = slot;
    s.corridor.slot[eid] = -1;
  }
}

function acquireSlot(s: FunnelState): number {
  if (s.freeCount > 0) return s.freeSlots[--s.freeCount];
  const slot = s.slotCount;
  if ((slot + 1) * s.maxCorridor > s.pool.length) {
    // Grow the pool (happens when goals are set, never in steady state).
    const slots = Math.max(16, 2 * s.slotCount);
    const pool = new Int32Array(slots * s.maxCorridor);
    pool.set(s.pool);
    s.pool = pool;
    const free = new Int32Array(slots);
    free.set(s.freeSlots.subarray(0, s.freeCount));
    s.freeSlots = free;
  }
  s.slotCount++;
  return slot;
}

/** Plan agent eid's corridor from its position to its goal. Returns the search status. */
function plan(world: CrowdWorld, s: FunnelState, eid: number): NavPathStatus {
  const c = s.corridor;
  findNavPath(s.query, world.position.x[eid], world.position.y[eid], c.goalX[eid], c.goalY[eid], s.result);
  const status = install(s, eid, s.result);
  // No path: the agent stops. The system skips NAV_UNREACHABLE agents, so a preferred velocity left from following
  // the old corridor would otherwise keep it walking (through walls) for good.
  if (status !== 'found') { world.preferredVelocity.x[eid] = 0; world.preferredVelocity.y[eid] = 0; }
  return status;
}

/** Install a finished search's corridor as agent eid's (or mark it unreachable). */
function install(s: FunnelState, eid: number, res: NavPathResult): NavPathStatus {
  const c = s.corridor;
  const status = res.status;
  if (status !== 'found') {
    c.state[eid] = NAV_UNREACHABLE;
    c.length[eid] = 0;
    s.agentVersion[eid] = s.version; // unreachable under this closed set: tried again when it changes
    // ... or when the agent is pushed out of the region it was searched from (res.startX/Y: the search's start,
    // snapped onto the mesh, so its triangle is the search's start triangle).
    _funnelXY[0] = res.startX; _funnelXY[1] = res.startY;
    s.failTri[eid] = s.mesh.triangleCount > 0 ? nearestPointOnMeshAt(s.mesh, _funnelXY, _funnelXY) : -1;
    return status;
  }
  let slot = c.slot[eid];
  if (slot < 0) { slot = acquireSlot(s); c.slot[eid] = slot; }
  const base = slot * s.maxCorridor, src = res.corridor;
  for (let i = 0; i < res.corridorLength; i++) s.pool[base + i] = src[i];
  c.length[eid] = res.corridorLength;
  c.goalX[eid] = res.goalX;
  c.goalY[eid] = res.goalY;
  c.state[eid] = NAV_FOLLOWING;
  s.agentVersion[eid] = s.version;
  return status;
}

/**
 * Give agent `eid` a navmesh goal (metres; snapped onto the mesh). Plans at once and returns the status:
 * 'found', or 'unreachable' / 'node-limit' / 'corridor-overflow' (the agent then stops, state NAV_UNREACHABLE).
 */
export function setNavGoal(world: CrowdWorld, eid: number, x: number, y: number): NavPathStatus {
  requireAgent(world, eid);
  requireFinite('x', x);
  requireFinite('y', y);
  const s = getState(world);
  s.corridor.goalX[eid] = x;
  s.corridor.goalY[eid] = y;
  s.corridor.heldBack[eid] = 0;
  s.corridor.returning[eid] = 0;
  return plan(world, s, eid);
}

/**
 * Move agent eid's goal (a chased target; Detour's moveTargetPosition): when the corridor is still valid (it holds
 * the agent, or can be repaired to, as the funnel system does each frame; none of its triangles closed) and the new
 * goal is in its last triangle or next to it, the corridor is kept or extended by one triangle; otherwise it
 * re-plans at once. Returns the status ('found' when the corridor was kept or extended).
 */
export function moveNavGoal(world: CrowdWorld, eid: number, x: number, y: number): NavPathStatus {
  requireAgent(world, eid);
  requireFinite('x', x);
  requireFinite('y', y);
  const s = getState(world);
  const c = s.corridor;
  const st = c.state[eid];
  const slot = c.slot[eid];
  c.returning[eid] = 0; // a chased goal is an order
  if ((st === NAV_FOLLOWING || st === NAV_ARRIVED) && slot >= 0 && c.length[eid] > 0 && keepCorridor(world, s, eid)) {
    const t = locateTriangle(s.mesh, x, y);
    const off = slot * s.maxCorridor, len = c.length[eid];
    const last = s.pool[off + len - 1];
    const N = s.mesh.neighbours;
    if (t >= 0 && s.blocked[t] === 0) {
      if (t === last || (len > 1 && t === s.pool[off + len - 2])) {
        if (t !== last) c.length[eid] = len - 1; // stepped back into the previous triangle
      } else if ((N[3 * last] === t || N[3 * last + 1] === t || N[3 * last + 2] === t) && len < s.maxCorridor) {
        s.pool[off + len] = t;
        c.length[eid] = len + 1;
      } else {
        c.goalX[eid] = x; c.goalY[eid] = y;
        return plan(world, s, eid);
      }
      c.goalX[eid] = x; c.goalY[eid] = y;
      c.state[eid] = NAV_FOLLOWING;
      return 'found';
    }
  }
  c.goalX[eid] = x;
  c.goalY[eid] = y;
  return plan(world, s, eid);
}

/**
 * Is agent eid's corridor still valid for moveNavGoal to keep? Its start is moved to the agent's triangle as the
 * funnel system does each frame (the agent may have been pushed or teleported since), and none of its triangles may
 * be closed. Before 2026-11-30 moveNavGoal kept the corridor without these checks and returned 'found' for an agent
 * moved across a wall, or a corridor through a door closed since; the next frame then re-planned.
 */
function keepCorridor(world: CrowdWorld, s: FunnelState, eid: number): boolean {
  const c = s.corridor, M = s.maxCorridor, off = c.slot[eid] * M;
  if (corridorBlocked(s.pool, off, c.length[eid], s.blocked)) return false;
  _funnelXY[0] = world.position.x[eid];
  _funnelXY[1] = world.position.y[eid];
  _funnelXY[2] = 0; // no walk back from farther off: moveNavGoal then re-plans at once
  const len = corridorMoveStartAt(s.mesh, s.pool, off, c.length[eid], M, _funnelXY, 16, s.blocked);
  if (len <= 0) return false;
  c.length[eid] = len;
  return true;
}

/** Stop following a navmesh path (the preferred velocity is left to other systems). */
export function clearNavGoal(world: CrowdWorld, eid: number): void {
  requireAgent(world, eid);
  const s = getState(world);
  releaseSlot(world, eid);
  s.corridor.state[eid] = NAV_NONE;
  s.corridor.length[eid] = 0;
  s.corridor.returning[eid] = 0;
}

/**
 * Close or reopen triangles (doors, dynamic obstacles). Corridors through a closed triangle re-plan on the next
 * frame; searches treat closed triangles as walls.
 */
export function setNavTrianglesBlocked(world: CrowdWorld, triangles: ArrayLike<number>, closed: boolean): void {
  const s = getState(world);
  for (let i = 0; i < triangles.length; i++) {
    const t = triangles[i];
    if (!Number.isInteger(t) || t < 0 || t >= s.mesh.triangleCount) {
      throw new InvalidArgumentError(`triangles[${i}]`, t, `must be a triangle index in [0, ${s.mesh.triangleCount - 1}]`);
    }
  }
  for (let i = 0; i < triangles.length; i++) s.blocked[triangles[i]] = closed ? 1 : 0;
  s.version++;
  // A sliced re-plan that began under the old closed set restarts (its agent stays NAV_REPLAN).
  s.activeEid = -1;
}

/** Copy agent eid's current corridor (triangle ids) into `out`; returns its length. For debugging and drawing. */
export function getAgentCorridor(world: CrowdWorld, eid: number, out: Int32Array): number {
  requireAgent(world, eid);
  const s = getState(world);
  const c = s.corridor;
  const slot = c.slot[eid];
  if (slot < 0 || c.state[eid] !== NAV_FOLLOWING) return 0;
  const n = Math.min(c.length[eid], out.length);
  out.set(s.pool.subarray(slot * s.maxCorridor, slot * s.maxCorridor + n));
  return n;
}

/** The funnel pass of the pipeline (slot 4 of step): corridors → next corner → preferred velocity. */
export function funnelSystem(world: CrowdWorld, dt: number): void {
  const s = world.systems.funnel as FunnelState | undefined;
  if (s === undefined) return;
  const t0 = nowMs();
  const n = funnelRange(world, s, 0, world.agents.count, dt);
  // Arrival in a crowd; needs this frame's hash (not there when the system runs alone).
  const crowd = hashHoldsLiveAgents(world) ? funnelCrowdArrivals(world, s, dt) : 0;
  profileRecord(world.profiler, 'funnel', t0);
  profileCount(world.profiler, 'funnel', 'agents', n);
  profileCount(world.profiler, 'funnel', 'crowdArrived', crowd);
}

let _held = new Int32Array(0);
let _woken = new Int32Array(0);

/**
 * Arrival in a crowd (src/world/crowd-arrival.ts), after the funnel pass: agents ordered one by one to the same
 * point, or onto a spot where a unit is parked, stop against the arrived crowd there instead of pressing into it
 * forever (an arrival within arriveDistance is only possible for one of them). A following agent updated this frame
 * (LOD) that moved less than 3/4 of its preferred step over the last frame (pushing an equal body ahead of it moves it about half) is held back; held back CROWD_HOLD_SECONDS
 * in a row, it arrives (NAV_ARRIVED, preferred velocity 0) if it touches the arrived crowd at its goal. An arrived
 * agent (updated this frame) that has been pushed farther than max(2 · arriveDistance, arrivedAt + arriveDistance)
 * from its goal walks back (NAV_REPLAN: re-planned from where it stands), unless it still stands in the arrived crowd
 * at its goal (then it stays, at its new distance; otherwise agents pressing into a crowd at a goal would push the
 * arrived ones out and they would push back, and the crowd never settles). Decisions read the states as the funnel
 * pass left them, then apply (order-independent). Returns the number of arrivals.
 */
function funnelCrowdArrivals(world: CrowdWorld, s: FunnelState, dt: number): number {
  const c = s.corridor;
  const px = world.position.x, py = world.position.y;
  const pvx = world.preferredVelocity.x, pvy = world.preferredVelocity.y;
  const lodFlags = lodComponent(world).flags, tiers = lodComponent(world).tier, lodRules = lodRulesInEffect(world);
  const dense = world.agents.dense, n = world.agents.count;
  const stepDt = dt > 0 ? dt : 0;
  crowdArrivalArgs[3] = stepDt; // for heldBackLastStep
  if (_held.length < n) { _held = new Int32Array(world.capacity + 1); _woken = new Int32Array(world.capacity + 1); }
  let held = 0, woken = 0;
  for (let i = 0; i < n; i++) {
    const e = dense[i];
    const st = c.state[e];
    if (st === NAV_ARRIVED && (lodFlags[e] & LOD_STEER) !== 0) {
      // Pushed away from where it stopped? Then it walks back, unless it still stands in the arrived crowd at its
      // goal (decided below, with the others).
      const gx = px[e] - c.goalX[e], gy = py[e] - c.goalY[e], hold = Math.max(2 * s.arriveDistance, c.arrivedAt[e] + s.arriveDistance);
      if (gx * gx + gy * gy > hold * hold) _woken[woken++] = e;
    }
    if (st !== NAV_FOLLOWING) { c.heldBack[e] = 0; continue; }
    if ((lodFlags[e] & LOD_STEER) === 0) continue;
    // (walking back to its arrival, it counts as held back only when stuck: see STUCK)
    if (heldBackLastStep(world, e, c.returning[e] !== 0 ? STUCK : HELD_BACK)) {
      c.heldBack[e] += stepDt * (lodRules !== null ? lodRules[tiers[e]].interval : 1);
      if (c.heldBack[e] >= CROWD_HOLD_SECONDS) _held[held++] = e;
    } else c.heldBack[e] = 0;
  }
  if (held === 0 && woken === 0) return 0;
  const hash = world.hash, rad = world.agent.radius;
  crowdArrivalArgs[1] = s.arriveDistance;
  crowdArrivalArgs[2] = hashMaxRadius(hash, rad);
  let arrivals = 0, wake = 0;
  for (let k = 0; k < held; k++) {
    const e = _held[k];
    // A returning agent stuck on its way back and blocked for good stops where it stands (src/world/orders.ts: it
    // shoves no one, so it would otherwise press against whatever blocks it forever).
    if (touchesArrivedCrowd(world, hash, e, c.goalX, c.goalY, c.state, NAV_ARRIVED, c.returning, c.returning[e] !== 0)) _held[arrivals++] = e;
  }
  for (let k = 0; k < woken; k++) {
    const e = _woken[k];
    if (touchesArrivedCrowd(world, hash, e, c.goalX, c.goalY, c.state, NAV_ARRIVED, c.returning, false)) {
      const dx = px[e] - c.goalX[e], dy = py[e] - c.goalY[e];
      c.arrivedAt[e] = Math.sqrt(dx * dx + dy * dy); // stays, where the crowd put it
    } else _woken[wake++] = e;
  }
  for (let k = 0; k < arrivals; k++) {
    const e = _held[k];
    const dx = px[e] - c.goalX[e], dy = py[e] - c.goalY[e];
    c.state[e] = NAV_ARRIVED;
    c.arrivedAt[e] = Math.sqrt(dx * dx + dy * dy);
    c.heldBack[e] = 0;
    c.returning[e] = 0;
    pvx[e] = 0;
    pvy[e] = 0;
  }
  // Walk back: re-planned from where it stands (its old corridor may no longer hold it) on the next update, as a
  // returning agent (no order of its own, so it keeps yielding to moving agents: src/world/orders.ts).
  for (let k = 0; k < wake; k++) { c.state[_woken[k]] = NAV_REPLAN; c.returning[_woken[k]] = 1; }
  return arrivals;
}

let _replansLeft = 0;
let _expansionsLeft = 0;

/** Spend expansion budget on the running sliced search; install its corridor when it completes. */
function continueSlice(world: CrowdWorld, s: FunnelState): void {
  const eid = s.activeEid;
  if (world.agents.denseIndex[eid] < 0 || s.corridor.state[eid] !== NAV_REPLAN) { s.activeEid = -1; return; }
  const q = s.sliceQuery;
  const before = q.nodesExpanded;
  const st = stepNavPath(q, Math.max(1, _expansionsLeft));
  _expansionsLeft -= q.nodesExpanded - before;
  if (st === 'in-progress') return;
  s.activeEid = -1;
  // The search ran from where the agent stood when it began. If the agent has since been moved (setAgentPosition,
  // contacts) into another triangle, a failed search says nothing about where it is now: start again from there
  // rather than stop it for good (found by the funnel map-change fuzz property, 2026-11-30: an agent teleported
  // while waiting was declared NAV_UNREACHABLE from its old, since closed-in, position).
  if (q.state !== 'found' && (world.position.x[eid] !== s.sliceX || world.position.y[eid] !== s.sliceY) &&
      nearestTriangle(s, world.position.x[eid], world.position.y[eid]) !== nearestTriangle(s, s.sliceX, s.sliceY)) return;
  finishNavPath(q, s.sliceResult);
  install(s, eid, s.sliceResult);
}

/**
 * Is unreachable agent eid still in the triangle its last region check (a failed search, or goalOutsideRegion) was
 * made from? Then nothing about its reachability can have changed under the same closed set: one point-in-triangle
 * test per frame. Reachability from a triangle under a closed set depends only on its open region (triangles joined
 * through open neighbours: a search from anywhere in one region explores the same triangles), so once it has moved,
 * goalOutsideRegion decides whether a search could now succeed; pushes inside its region cost no search. Before
 * 2026-11-30 an unreachable agent stayed NAV_UNREACHABLE until the closed set changed or a new goal was set.
 */
function inFailedTriangle(world: CrowdWorld, s: FunnelState, eid: number): boolean {
  const t0 = s.failTri[eid];
  _funnelXY[0] = world.position.x[eid]; _funnelXY[1] = world.position.y[eid];
  return t0 >= 0 && pointInTriangleAt(s.mesh, t0, _funnelXY);
}

/**
 * Is unreachable agent eid's goal outside the open region of the triangle it stands in (or nearest), under the
 * current closed set? Exactly when a search from here would fail 'unreachable': the search snaps start and goal to
 * their nearest triangles the same way and reaches precisely the open triangles joined to the start's through open
 * neighbours. Records the agent's triangle as failTri. Labels the regions if the closed set changed since.
 */
function goalOutsideRegion(world: CrowdWorld, s: FunnelState, eid: number): boolean {
  if (s.mesh.triangleCount === 0) return true;
  const c = s.corridor;
  _funnelXY[0] = world.position.x[eid]; _funnelXY[1] = world.position.y[eid];
  const t = nearestPointOnMeshAt(s.mesh, _funnelXY, _funnelXY);
  _funnelXY[0] = c.goalX[eid]; _funnelXY[1] = c.goalY[eid];
  const g = nearestPointOnMeshAt(s.mesh, _funnelXY, _funnelXY);
  s.failTri[eid] = t;
  const R = openRegions(s);
  return R[t] < 0 || R[t] !== R[g];
}

/** Flood-fill stack of openRegions (module scratch: derived, not state). */
let _regionStack = new Int32Array(0);

/** Label the open regions under the current closed set (flood fill over open neighbours) if not current. */
function openRegions(s: FunnelState): Int32Array {
  const R = s.region;
  if (s.regionVersion === s.version) return R;
  const B = s.blocked, N = s.mesh.neighbours, T = s.mesh.triangleCount;
  if (_regionStack.length < T) _regionStack = new Int32Array(T);
  const stack = _regionStack;
  for (let t = 0; t < T; t++) R[t] = B[t] !== 0 ? -1 : -2;
  let label = 0;
  for (let seed = 0; seed < T; seed++) {
    if (R[seed] !== -2) continue;
    R[seed] = label;
    let top = 0;
    stack[top++] = seed;
    while (top > 0) {
      const t = stack[--top];
      for (let k = 0; k < 3; k++) {
        const u = N[3 * t + k];
        if (u >= 0 && R[u] === -2) { R[u] = label; stack[top++] = u; }
      }
    }
    label++;
  }
  s.regionVersion = s.version;
  return R;
}

/** The triangle a search from (x, y) starts in: the one holding it, else the nearest. */
function nearestTriangle(s: FunnelState, x: number, y: number): number {
  _funnelXY[0] = x; _funnelXY[1] = y;
  return nearestPointOnMeshAt(s.mesh, _funnelXY, _funnelXY);
}
let _pulledPortals = 0;
/** Prefix limit of the portals in _funnelPortals, and how many real portals (start + corridor edges) they hold. */
let _portalLimit = 16;
let _portalN = 0;
/** Did the last prefix stop short of the corridor's end? (Its last point is then a stand-in goal, not the goal.) */
let _portalTruncated = false;
/** Corners pulled beyond the next one when its turn is within lookahead. */
const TURN_CORNERS = 3;
/**
 * Start x, y, goal x, y and the agent's radius for corridorPortalsPrefix (doubles never cross a call on the
 * per-frame path).
 */
const _seg = new Float64Array(5);

/**
 * String-pull until `want` points (start + corners) are known, over corridor prefixes of 16, 64, ... portals (up
 * to maxCornerPortals): the next corners usually lie within the first few portals, and a longer prefix is built
 * only when the shorter one ended (at its stand-in goal) before them. Returns the point count in _funnelCorners;
 * _pulledPortals tells how many portals the last pull used and _portalTruncated whether they stop short of the
 * corridor's end (their last point is then the stand-in goal).
 */
function pullCorners(s: FunnelState, off: number, len: number, want: number, reuse: boolean): number {
  let nc = 0;
  for (let limit = reuse ? _portalLimit : 16; ; limit *= 4) {
    // Portals already written this frame are kept; a longer prefix only appends (and moves the stand-in goal).
    const np = reuse && limit === _portalLimit ? _pulledPortals : corridorPortalsPrefix(s, off, len, Math.min(limit, s.maxCornerPortals), limit > 16);
    _portalLimit = limit;
    _pulledPortals = np;
    nc = funnel(_funnelPortals, np, 0, _funnelCorners, want);
    if (!_portalTruncated || limit >= s.maxCornerPortals) return nc;
    // Did the pull end at this prefix's stand-in goal? Then the corners may lie beyond it: try a longer prefix.
    const gx = _funnelPortals[4 * (np - 1)], gy = _funnelPortals[4 * (np - 1) + 1];
    if (!(_funnelCorners[2 * (nc - 1)] === gx && _funnelCorners[2 * (nc - 1) + 1] === gy)) return nc;
  }
}

/** Point (x, y), direction (x, y) and distance wanted, in; distance run, out ([0]): corridorRun's arguments. */
const _run = new Float64Array(5);

/**
 * How far a ray runs inside the corridor from a point in its triangle `i` (_run: point, unit direction, and the
 * distance wanted), through triangles i, i + 1, ... in corridor order: it leaves triangle t through the edge where
 * it first crosses an edge line heading outward (the smallest (a − p)·n / (u·n) over edges a → b with outward
 * normal n = (b_y − a_y, a_x − b_x) and u·n > 0); across the shared edge with the next corridor triangle the run
 * goes on, across any other edge (a wall, a triangle off the corridor) it ends there. Writes the distance run,
 * capped at the distance wanted, to _run[0]. A ray leaving exactly through a vertex ends there unless the edge
 * picked leads on: short, never long. At most 16 triangles are walked (the same bound as the start advance).
 */
function corridorRun(s: FunnelState, off: number, len: number, i: number): void {
  const { vertices: V, triangles: T, neighbours: N } = s.mesh;
  const pool = s.pool;
  let px = _run[0], py = _run[1];
  const ux = _run[2], uy = _run[3];
  const want = _run[4];
  let run = 0;
  for (const end = Math.min(len, i + 16); i < end; i++) {
    const t = pool[off + i];
    let exit = Infinity, via = -1;
    for (let k = 0; k < 3; k++) {
      const a = T[3 * t + k], b = T[3 * t + (k + 1) % 3];
      const ax = V[2 * a], ay = V[2 * a + 1];
      const nx = V[2 * b + 1] - ay, ny = ax - V[2 * b];
      const un = ux * nx + uy * ny;
      if (!(un > 0)) continue;
      const tau = ((ax - px) * nx + (ay - py) * ny) / un;
      if (tau < exit) { exit = tau; via = k; }
    }
    if (via < 0) break; // round-off: no edge ahead
    if (exit < 0) exit = 0; // a point a round-off outside its triangle
    if (run + exit >= want) { run = want; break; }
    run += exit;
    if (i + 1 >= len || N[3 * t + via] !== pool[off + i + 1]) break;
    px += exit * ux; py += exit * uy;
  }
  _run[0] = run;
}

/**
 * Kernel over agents dense[start .. start+count); returns how many agents followed a corridor. `dt` (seconds, the
 * step's) caps the speed toward the next corner or the goal so that the agent does not pass it before its next
 * update (0: no cap).
 */
export function funnelRange(world: CrowdWorld, s: FunnelState, start: number, count: number, dt = 0): number {
  const dense = world.agents.dense;
  // Frames until an agent's next update: its LOD tier rule's interval when the LOD pass staggers it, else 1.
  const lodRules = lodRulesInEffect(world);
  const tiers = lodComponent(world).tier;
  const c = s.corridor;
  const px = world.position.x, py = world.position.y;
  const pvx = world.preferredVelocity.x, pvy = world.preferredVelocity.y;
  const maxSpeed = world.agent.maxSpeed, radius = world.agent.radius;
  const lodFlags = lodComponent(world).flags;
  const mesh = s.mesh;
  const M = s.maxCorridor;
  _replansLeft = s.maxReplansPerFrame;
  _expansionsLeft = s.maxSearchExpansionsPerFrame;
  // A search sliced over frames continues first.
  if (s.activeEid >= 0) continueSlice(world, s);
  let served = 0;
  for (let i = start; i < start + count; i++) {
    const eid = dense[i];
    let st = c.state[eid];
    if (st === NAV_NONE) continue;
    if (st === NAV_UNREACHABLE) {
      // Unreachable under the closed set of its last search: tried again (within the re-plan budget) once triangles
      // have been opened or closed since, or once it has been pushed into another open region, if the goal is then
      // in its region; so agents waiting behind a closed door set off when it opens, and a door toggled elsewhere
      // costs them no search.
      if (s.agentVersion[eid] === s.version && inFailedTriangle(world, s, eid)) continue;
      // The closed set changed or the agent moved: search only if its goal is now in its open region.
      if (goalOutsideRegion(world, s, eid)) { s.agentVersion[eid] = s.version; continue; }
      st = NAV_REPLAN;
      c.state[eid] = NAV_REPLAN;
    }
    if (st === NAV_ARRIVED) { pvx[eid] = 0; pvy[eid] = 0; continue; }
    if ((lodFlags[eid] & LOD_STEER) === 0) continue;
    served++;
    const x = px[eid], y = py[eid];
    // 1–2. Validity and start advance; re-plan (within budget) when the corridor cannot be kept.
    let needPlan = st === NAV_REPLAN || s.agentVersion[eid] !== s.version && corridorBlocked(s.pool, c.slot[eid] * M, c.length[eid], s.blocked);
    if (!needPlan && s.agentVersion[eid] !== s.version) s.agentVersion[eid] = s.version; // closed set changed elsewhere
    if (!needPlan) {
      // Pushed off the corridor by at most what one update's travel and a body's width can account for (ORCA and
      // contacts: a step of vmax·dt·interval, a push apart of up to a diameter), the agent walks back to it
      // (corridorMoveStartAt); moved farther (a teleport), it re-plans.
      _funnelXY[0] = x; _funnelXY[1] = y;
      _funnelXY[2] = maxSpeed[eid] * dt * (lodRules !== null ? lodRules[tiers[eid]].interval : 1) + 2 * radius[eid];
      const len = corridorMoveStartAt(mesh, s.pool, c.slot[eid] * M, c.length[eid], M, _funnelXY, 16, s.blocked);
      if (len < 0) needPlan = true;
      else c.length[eid] = len;
    }
    if (needPlan) {
      // Wait while another agent's search is running or this frame's budgets are spent.
      if (s.activeEid >= 0 || _replansLeft <= 0 || _expansionsLeft <= 0) { c.state[eid] = NAV_REPLAN; pvx[eid] = 0; pvy[eid] = 0; continue; }
      _replansLeft--;
      c.replans[eid]++;
      c.state[eid] = NAV_REPLAN;
      _funnelSG[0] = x; _funnelSG[1] = y; _funnelSG[2] = c.goalX[eid]; _funnelSG[3] = c.goalY[eid];
      if (beginNavPathAt(s.sliceQuery, _funnelSG) === 'in-progress') {
        s.activeEid = eid;
        s.sliceX = x; s.sliceY = y;
        continueSlice(world, s);
      } else {
        finishNavPath(s.sliceQuery, s.sliceResult);
        install(s, eid, s.sliceResult);
      }
      st = c.state[eid];
      if (st !== NAV_FOLLOWING) { pvx[eid] = 0; pvy[eid] = 0; continue; }
    }
    // 3. Corners from the agent's position (clamped into the first triangle) along the corridor.
    const off = c.slot[eid] * M;
    const first = s.pool[off];
    let sx = x, sy = y;
    _funnelXY[0] = x; _funnelXY[1] = y;
    if (!pointInTriangleAt(mesh, first, _funnelXY)) { closestPointOnTriangleAt(mesh, first, _funnelXY); sx = _funnelXY[0]; sy = _funnelXY[1]; }
    // Visibility shortcut every shortcutInterval frames (staggered by entity id): a straight ray to a portal ahead
    // may replace a detour the corridor took (after pushes and front repairs).
    if (s.shortcutInterval > 0 && (world.time.frame + eid) % s.shortcutInterval === 0) {
      _funnelXY[0] = sx; _funnelXY[1] = sy;
      c.length[eid] = corridorShortcutAt(mesh, s.pool, off, c.length[eid], _funnelXY, s.shortcutLookahead, _funnelRay, s.blocked);
    }
    const len = c.length[eid];
    const gx = c.goalX[eid], gy = c.goalY[eid];
    const dgx = gx - x, dgy = gy - y;
    const dGoal = Math.sqrt(dgx * dgx + dgy * dgy);
    if (dGoal <= s.arriveDistance) {
      c.state[eid] = NAV_ARRIVED;
      c.arrivedAt[eid] = 0;
      c.returning[eid] = 0;
      pvx[eid] = 0; pvy[eid] = 0;
      continue;
    }
    // The next corner only, unless it is within `lookahead` (then the one after it too, for the turn slowdown).
    _seg[0] = sx; _seg[1] = sy; _seg[2] = gx; _seg[3] = gy; _seg[4] = radius[eid];
    let nc = pullCorners(s, off, len, 2, false);
    // Next corner: the first output point that is not (numerically) the start.
    let k = 1;
    while (k < nc - 1 && Math.abs(_funnelCorners[2 * k] - x) + Math.abs(_funnelCorners[2 * k + 1] - y) < 1e-9) k++;
    const ddx = _funnelCorners[2 * k] - x, ddy = _funnelCorners[2 * k + 1] - y;
    const atGoal = _funnelCorners[2 * k] === gx && _funnelCorners[2 * k + 1] === gy && !_portalTruncated;
    if (!atGoal && ddx * ddx + ddy * ddy < s.lookahead * s.lookahead) {
      // The turn is near: pull the next few corners too (an inflated obstacle's corner is several small bends).
      nc = pullCorners(s, off, len, k + 1 + TURN_CORNERS, true);
    }
    const cx = _funnelCorners[2 * k], cy = _funnelCorners[2 * k + 1];
    // The corner is the last point: the goal, or, when the prefix stops short of the corridor's end, its stand-in.
    const last = k === nc - 1 && cx === _funnelPortals[4 * (_pulledPortals - 1)] && cy === _funnelPortals[4 * (_pulledPortals - 1) + 1];
    const isGoal = last && !_portalTruncated;
    const standIn = last && _portalTruncated;
    c.cornerX[eid] = cx; c.cornerY[eid] = cy;
    // 4. Preferred velocity: toward the corner, slowed before sharp turns and near the goal.
    let dx = cx - x, dy = cy - y;
    const d = Math.sqrt(dx * dx + dy * dy);
    if (d < 1e-12) { pvx[eid] = 0; pvy[eid] = 0; continue; }
    dx /= d; dy /= d;
    const vmax = maxSpeed[eid];
    let speed = vmax;
    if (isGoal) {
      // The corner is the goal: arrive (linear ramp over arrivalSlowdown metres).
      if (d < s.arrivalSlowdown) speed = vmax * (d / s.arrivalSlowdown);
    } else if (!standIn && d < s.lookahead && k + 1 < nc) {
      // Turn ahead. θ is the turn from the direction to the corner to the direction from the corner to the first
      // later corner at least `lookahead` beyond it (or the last one known): that sees a rounded (inflated) corner
      // made of several small bends as the one turn it is. Corner speed vmax·max(minTurnSpeed, (1 + cos θ)/2),
      // ramped linearly up to vmax at `lookahead` metres before the corner.
      let j = k + 1;
      while (j < nc - 1) {
        const fx = _funnelCorners[2 * j] - cx, fy = _funnelCorners[2 * j + 1] - cy;
        if (fx * fx + fy * fy >= s.lookahead * s.lookahead) break;
        j++;
      }
      let ex = _funnelCorners[2 * j] - cx, ey = _funnelCorners[2 * j + 1] - cy;
      const e = Math.sqrt(ex * ex + ey * ey);
      if (e > 1e-12) {
        ex /= e; ey /= e;
        const cosT = dx * ex + dy * ey;
        const corner = vmax * Math.max(s.minTurnSpeed, 0.5 * (1 + cosT));
        speed = corner + (vmax - corner) * (d / s.lookahead);
      }
    }
    // Never pass the corner (or the goal) before the next update, `interval` frames of dt away (its LOD tier's,
    // else 1): the agent keeps this velocity until then, and beyond the point the straight line may leave the
    // corridor. Found by the funnel map-change fuzz property (2026-11-30): a far agent (interval 2) passed a
    // stand-in goal by two steps, into a closed triangle, and stopped there for good (NAV_UNREACHABLE, goal
    // reachable); at the goal, the arrival ramp alone moves it g·d per update (g = vmax·dt·interval/
    // arrivalSlowdown), and for g > 2 it swung about the goal for good. A stand-in goal is no point to stop at:
    // the line goes on toward the goal into the corridor's next triangle, so there the cap is how far the line runs
    // on inside the corridor (corridorRun), at least to the stand-in. Stopping at each stand-in, an agent set off
    // from rest at every one, and from rest ORCA's half-planes are at their most restrictive (seed 709362359).
    if (dt > 0) {
      const ahead = dt * (lodRules !== null ? lodRules[tiers[eid]].interval : 1);
      if (speed * ahead > d) {
        let free = d;
        if (standIn) {
          _run[0] = cx; _run[1] = cy; _run[2] = dx; _run[3] = dy; _run[4] = speed * ahead - d;
          corridorRun(s, off, len, _portalN); // the stand-in is on the portal into triangle _portalN
          free += _run[0];
        }
        if (speed * ahead > free) speed = free / ahead;
      }
    }
    pvx[eid] = dx * speed;
    pvy[eid] = dy * speed;
  }
  return served;
}

/**
 * Portals for at most `limit` portals of the corridor (start and goal in _seg) into _funnelPortals: the start, the
 * corridor's edges (edge i joins triangles i and i + 1) and the goal. When the corridor is longer, the prefix ends
 * at a stand-in goal on the portal out of its last triangle (_portalTruncated; corners before it are exact unless
 * the true path bends beyond it): where the straight line from the start to the goal crosses that portal, or, when
 * the goal is not beyond the portal's line, the portal's point nearest the agent; either kept the agent's radius
 * from the portal's ends (its middle when it is shorter than a diameter). A point on the portal keeps the pull
 * exact for the prefix: the funnel needs its last point past its last portal (a goal before it, outside both of the
 * funnel's sides, would be taken as straight ahead). The stand-in moves continuously as the agent walks (where the
 * agent crosses the portal's line, both rules give its projection); it jumps only when the goal moves across it.
 *
 * Both changed on 2026-12-02, for corridors that lead away from the goal (round an obstacle, or a detour planned
 * while triangles were closed, kept when they reopen), where the goal says nothing about the way on. Before, the
 * stand-in was clamped to the portal's ends and, for a goal not beyond the portal, was its point nearest the goal;
 * the long fuzz run of the full pipeline found two agents held for good (test/funnel/truncated-loop.test.ts):
 *  - seed 20261231: round a box's corner the corridor's triangles fan about one mesh vertex and every portal of the
 *    fan ends there; the stand-in was that vertex from each of them (and the far end of a 19 m portal from one).
 *    A portal's end can be reached without crossing the portal: the agent walked at the vertex, along the line of
 *    the box's edge, ORCA's obstacle line slowed it as it neared the box (the vertex is 3 mm outside its reach),
 *    its sideways jitter took it through the fan's triangles in turn, and it stood within 2 cm of the vertex. An
 *    interior point the radius from the ends is reached only by crossing into the next triangle (funnelRange's cap
 *    lets the agent run on through it): every stand-in reached is a triangle of progress.
 *  - seed 20261252: a far agent (interval 4) on a corridor of 10 m sliver triangles, pushed sideways across two of
 *    them by ORCA, was walked back into the corridor, and from there the point nearest the goal on the next long
 *    portal lay 2 m back up it: 0.4 m back per update, 0.4 m on toward the corner the next, for good. The point
 *    nearest the agent crosses back by the shortest way, and the next pull sees one portal further.
 *
 * Before 2026-11-30 the stand-in was the middle of the portal. On a long portal that can lie far off the way to
 * the goal, behind the agent: the long-run fuzz of the full pipeline (maxCornerPortals 3) found an agent pushed
 * back one triangle that walked 1.7 m back to the middle of a long portal and forward again for good (seed
 * 711715263), and one that walked back to the middle of the portal it had just crossed, there stopped, was turned
 * back across a sliver by ORCA as it set off, and did it again for good (seed 709362359; see funnelRange).
 */
function corridorPortalsPrefix(s: FunnelState, off: number, len: number, limit: number, extend: boolean): number {
  const sx = _seg[0], sy = _seg[1];
  let gx = _seg[2], gy = _seg[3];
  const { vertices: V, triangles: T, neighbours: N } = s.mesh;
  const P = _funnelPortals;
  const pool = s.pool;
  const m = Math.min(len, limit - 1);
  let n = 1;
  if (extend) n = _portalN; // portals 0 .. n−1 are already there (portal n is corridor edge n − 1)
  else { P[0] = sx; P[1] = sy; P[2] = sx; P[3] = sy; }
  for (let i = n - 1; i + 1 < m; i++) {
    const a = pool[off + i], b = pool[off + i + 1];
    let k = 0;
    while (k < 2 && N[3 * a + k] !== b) k++;
    const u = T[3 * a + k], w = T[3 * a + (k + 1) % 3];
    P[4 * n] = V[2 * w]; P[4 * n + 1] = V[2 * w + 1]; P[4 * n + 2] = V[2 * u]; P[4 * n + 3] = V[2 * u + 1];
    n++;
  }
  _portalN = n;
  _portalTruncated = m < len;
  if (m < len) {
    // Stand-in goal on the portal L → R out of the last included triangle. With ca, cg the signed areas
    // cross(R − L, A − L) and cross(R − L, G − L) of the start A and the goal G: for a goal beyond the portal's line
    // (ca·cg < 0) the line A → G crosses it at X = A + (ca/(ca − cg))(G − A), otherwise X = A (the corridor leads
    // away from the goal here: cross by the shortest way); the stand-in is X projected onto the portal,
    // u = (X − L)·(R − L)/|R − L|² clamped to [ε, 1 − ε], ε = radius/|R − L| (½ when the portal is no longer than a
    // diameter): the agent's radius from either end.
    const a = pool[off + m - 1], b = pool[off + m];
    let k = 0;
    while (k < 2 && N[3 * a + k] !== b) k++;
    const u = T[3 * a + k], w = T[3 * a + (k + 1) % 3];
    const lx = V[2 * u], ly = V[2 * u + 1], ex = V[2 * w] - lx, ey = V[2 * w + 1] - ly;
    const ca = ex * (sy - ly) - ey * (sx - lx), cg = ex * (gy - ly) - ey * (gx - lx);
    if ((ca < 0 && cg > 0) || (ca > 0 && cg < 0)) {
      const t = ca / (ca - cg);
      gx = sx + t * (gx - sx); gy = sy + t * (gy - sy);
    } else {
      gx = sx; gy = sy;
    }
    const e2 = ex * ex + ey * ey;
    let q = e2 > 0 ? ((gx - lx) * ex + (gy - ly) * ey) / e2 : 0.5;
    const el = Math.sqrt(e2), eps = el > 2 * _seg[4] ? _seg[4] / el : 0.5;
    q = q < eps ? eps : q > 1 - eps ? 1 - eps : q;
    gx = lx + q * ex; gy = ly + q * ey;
  }
  P[4 * n] = gx; P[4 * n + 1] = gy; P[4 * n + 2] = gx; P[4 * n + 3] = gy;
  return n + 1;
}
