/**
 * Grid navigation system: moves every agent that has a grid goal, either down a shared flow field (group orders:
 * one solve serves the whole group) or along its own A* path (planned through a time-sliced queue so a burst of
 * requests never stalls a frame), and writes its preferred velocity, slowing down to arrive at the goal point.
 *
 * Frame passes (in order):
 *  1. grid edits: if the grid's version changed, re-solve the flow fields in use and re-plan every path whose
 *     remaining cells were blocked (and every unreachable agent: the edit may have opened a way);
 *  2. waiting agents: move the start of their not-yet-started requests to their current cell;
 *  3. serve the path queue within `maxExpansionsPerFrame`; adopt finished paths;
 *  4. per agent: preferred velocity from the field or the path; statuses; re-acquire or re-plan when pushed off.
 *
 * Path agents steer to the next corner of their string-pulled path (a funnel over a window of their A* path's
 * cells), or with smoothPaths: false cell centre to cell centre. Because paths never cut wall corners, the straight
 * segment from anywhere in one path cell to the centre of the next stays in walkable cells, and the funnel's legs
 * stay in the window's cells.
 */
import type { CrowdWorld } from '../src/world/crowd';
import { CapacityError, InvalidArgumentError, OutOfRangeError } from '../src/core/errors';
import { requireFinite, requireInteger, requireNonNegative, requirePositive } from '../src/core/validate';
import { requireAgent } from '../src/world/agents';
import { onDespawn } from '../src/world/registry';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';
import { type Grid } from '../src/grid/grid';
import { type FindPathOptions, type GridHeuristic } from '../src/grid/search';
import { createGridRegions, refreshGridRegions, type GridRegions } from '../src/grid/regions';
import { buildFlowField, rebuildFlowField, sampleFlowFieldAt, type FlowField } from '../src/grid/flowfield';
import {
  cancelPathRequest, createPathQueue, PATH_FOUND, PATH_PENDING, requestPath, servePathQueue, updatePathRequestStart,
  type PathQueue,
} from '../src/grid/path-queue';
import {
  navigationComponent, GRID_NAV_ARRIVED, GRID_NAV_IDLE, GRID_NAV_MODE_FLOW, GRID_NAV_MODE_NONE, GRID_NAV_MODE_PATH, GRID_NAV_MOVING,
  GRID_NAV_UNREACHABLE, GRID_NAV_WAITING_FOR_PATH, type NavigationStore,
} from '../components/navigation';
import { lodComponent, LOD_STEER } from '../components/lod';
import { lodRulesInEffect } from './lod';
import { gridPathPortalsAt } from '../src/funnel/grid';
import { funnel } from '../src/funnel/funnel';
import { hashHoldsLiveAgents } from './spatial-hash';
import { CROWD_HOLD_SECONDS, crowdArrivalArgs, hashMaxRadius, heldBackLastStep, HELD_BACK, STUCK, touchesArrivedCrowd } from '../src/world/crowd-arrival';

/** Options of setNavigationGrid. */
export interface NavigationOptions {
  /** Node expansions the path queue may spend per frame (A* work budget). @default 8192 */
  maxExpansionsPerFrame?: number;
  /** Shared flow fields alive at once (distinct group goals); each costs ~25 bytes per grid cell. @default 8 */
  maxFlowFields?: number;
  /** Moves for both paths and fields. @default 8 */
  connectivity?: 4 | 8;
  /** @default false */
  cornerCutting?: boolean;
  /** A* heuristic. @default 'octile' (8-connected) / 'manhattan' (4-connected) */
  heuristic?: GridHeuristic;
  /**
   * Path agents steer to the next corner of their string-pulled path (funnel over the next SMOOTH_WINDOW cells of
   * their A* path) instead of the next cell centre, so they walk any-angle lines rather than 8-way zig-zags; the
   * legs stay inside the path's cells (and free cells beside its diagonal steps). false: cell centre to cell
   * centre. @default true
   */
  smoothPaths?: boolean;
  /** Weighted A* ε ≥ 1 for agent paths. @default 1 */
  weight?: number;
}

/** World-level navigation state (world.systems.navigation). */
export interface NavigationState {
  grid: Grid;
  seenVersion: number;
  queue: PathQueue;
  maxExpansionsPerFrame: number;
  connectivity: 4 | 8;
  cornerCutting: boolean;
  /** Path agents steer along their string-pulled path (NavigationOptions.smoothPaths). */
  smoothPaths: boolean;
  /** Flow-field slots: goal cell, agents using it, the field, last use (for reuse of idle slots). */
  slotGoal: Int32Array;
  slotRefs: Int32Array;
  slotField: (FlowField | null)[];
  slotLastUse: Float64Array;
  clock: number;
  /** Totals since setNavigationGrid. */
  replans: number;
  pathsCompleted: number;
  /**
   * Region labels of the grid (src/grid/regions.ts). Labelled only where a search has already failed or would:
   * after a request ends unreachable, or to decide whether an unreachable agent should be searched again (after an
   * edit, or once pushed into another cell); at most once per grid version. While current, a request whose goal lies
   * outside its start's region is answered 'unreachable' without a search. A grid that is edited often but never
   * leaves an agent unreachable is never labelled (a labelling costs O(cells): 0.8 ms on brc202d, 10 ms on 1024²).
   */
  regions: GridRegions;
  /** Per agent, while unreachable in path mode: the cell its failed search started from (−1: unknown). */
  failCell: Int32Array;
}

/** Per-agent goal options of setAgentGoal / setGroupGoal. */
export interface AgentGoalOptions {
  /** 'path' (own A* path, default) or 'flow' (shared flow field to this goal cell). */
  mode?: 'path' | 'flow';
  /** Arrived when this close to the goal point (m). @default 0.25 × cell size */
  arriveRadius?: number;
  /** Speed ramps down linearly over this remaining distance (m); 0 = no slowdown. @default 2 × cell size */
  slowRadius?: number;
  /**
   * Arrival in a crowd (see the navigation system): a held-back agent touching the arrived crowd at its goal stops
   * there. false: it keeps pressing toward the goal point (a horde piling onto its target). @default true
   */
  crowdArrival?: boolean;
}

export type NavigationStatus = 'idle' | 'moving' | 'arrived' | 'unreachable' | 'waiting-for-path';
const STATUS_NAMES: NavigationStatus[] = ['idle', 'moving', 'arrived', 'unreachable', 'waiting-for-path'];

function navState(world: CrowdWorld): NavigationState {
  const s = world.systems.navigation as NavigationState | undefined;
  if (s === undefined) throw new InvalidArgumentError('world', 'no navigation grid', 'call setNavigationGrid(world, grid) first');
  return s;
}

/**
 * Give the world a navigation grid (replacing any previous one: every agent's grid goal is cleared). Agents then
 * receive goals with setAgentGoal / setGroupGoal. Edit the grid in place with setBlocked / setCost; the system
 * notices the version change on its next frame.
 */
export function setNavigationGrid(world: CrowdWorld, grid: Grid, options: NavigationOptions = {}): NavigationState {
  if (grid === null || typeof grid !== 'object' || !(grid.walkable instanceof Uint8Array)) {
    throw new InvalidArgumentError('grid', grid, 'must be a Grid');
  }
  const maxExpansionsPerFrame = options.maxExpansionsPerFrame ?? 8192;
  if (typeof maxExpansionsPerFrame !== 'number' || Number.isNaN(maxExpansionsPerFrame) || maxExpansionsPerFrame < 1) {
    throw new InvalidArgumentError('options.maxExpansionsPerFrame', maxExpansionsPerFrame, 'must be ≥ 1 (Infinity allowed)');
  }
  const maxFlowFields = requireInteger('options.maxFlowFields', options.maxFlowFields ?? 8, 1, 1024);
  const connectivity = options.connectivity ?? 8;
  if (connectivity !== 4 && connectivity !== 8) throw new InvalidArgumentError('options.connectivity', connectivity, 'must be 4 or 8');
  const cornerCutting = options.cornerCutting ?? false;
  if (typeof cornerCutting !== 'boolean') throw new InvalidArgumentError('options.cornerCutting', cornerCutting, 'must be a boolean');
  const smoothPaths = options.smoothPaths ?? true;
  if (typeof smoothPaths !== 'boolean') throw new InvalidArgumentError('options.smoothPaths', smoothPaths, 'must be a boolean');
  const pathOptions: FindPathOptions = { connectivity, cornerCutting, weight: options.weight ?? 1 };
  if (options.heuristic !== undefined) pathOptions.heuristic = options.heuristic;
  if (typeof pathOptions.weight !== 'number' || !(pathOptions.weight >= 1) || !Number.isFinite(pathOptions.weight)) {
    throw new InvalidArgumentError('options.weight', pathOptions.weight, 'must be a finite number ≥ 1');
  }
  const previous = world.systems.navigation as NavigationState | undefined;
  const nav = navigationComponent(world);
  if (previous !== undefined) {
    const dense = world.agents.dense;
    for (let i = 0; i < world.agents.count; i++) resetAgent(nav, dense[i]);
  }
  const state: NavigationState = {
    grid,
    seenVersion: grid.version,
    queue: createPathQueue(world.capacity + 1, pathOptions),
    maxExpansionsPerFrame,
    connectivity,
    cornerCutting,
    smoothPaths,
    slotGoal: new Int32Array(maxFlowFields).fill(-1),
    slotRefs: new Int32Array(maxFlowFields),
    slotField: new Array<FlowField | null>(maxFlowFields).fill(null),
    slotLastUse: new Float64Array(maxFlowFields),
    clock: 0,
    replans: 0,
    pathsCompleted: 0,
    regions: createGridRegions(grid),
    failCell: new Int32Array(world.capacity + 1).fill(-1),
  };
  world.systems.navigation = state;
  if (previous === undefined) {
    onDespawn(world, (w, eid) => {
      const st = w.systems.navigation as NavigationState | undefined;
      if (st !== undefined) releaseGoal(st, navigationComponent(w), eid);
    });
  }
  return state;
}

function resetAgent(nav: NavigationStore, eid: number): void {
  nav.mode[eid] = GRID_NAV_MODE_NONE;
  nav.status[eid] = GRID_NAV_IDLE;
  nav.fieldSlot[eid] = -1;
  nav.pathLength[eid] = 0;
  nav.pathIndex[eid] = 0;
  nav.returning[eid] = 0;
}

function releaseGoal(st: NavigationState, nav: NavigationStore, eid: number): void {
  const slot = nav.fieldSlot[eid];
  if (slot >= 0) st.slotRefs[slot]--;
  if (nav.mode[eid] === GRID_NAV_MODE_PATH) cancelPathRequest(st.queue, eid);
  resetAgent(nav, eid);
}

function acquireFlowSlot(st: NavigationState, goalCell: number): number {
  const grid = st.grid;
  const n = st.slotGoal.length;
  st.clock++;
  for (let s = 0; s < n; s++) {
    const f = st.slotField[s];
    if (f !== null && st.slotGoal[s] === goalCell) {
      st.slotRefs[s]++;
      st.slotLastUse[s] = st.clock;
      if (f.gridVersion !== grid.version) rebuildFlowField(f);
      return s;
    }
  }
  let pick = -1;
  for (let s = 0; s < n; s++) {
    if (st.slotField[s] === null) { pick = s; break; }
    if (st.slotRefs[s] === 0 && (pick < 0 || st.slotLastUse[s] < st.slotLastUse[pick])) pick = s;
  }
  if (pick < 0) {
    throw new CapacityError('options.maxFlowFields', n, `all ${n} flow fields are in use by other goals; raise maxFlowFields or clear goals`);
  }
  const w = grid.width;
  _cell.x = goalCell % w;
  _cell.y = (goalCell - _cell.x) / w;
  st.slotField[pick] = buildFlowField(grid, _cell, { connectivity: st.connectivity, cornerCutting: st.cornerCutting }, st.slotField[pick] ?? undefined);
  st.slotGoal[pick] = goalCell;
  st.slotRefs[pick] = 1;
  st.slotLastUse[pick] = st.clock;
  return pick;
}

/** The cell of agent `eid` at (xs[eid], ys[eid]), clamped into the grid; if blocked, a walkable 8-neighbour if there is one. Writes `_cell`. */
function agentCell(grid: Grid, xs: Float64Array, ys: Float64Array, eid: number): void {
  const x = xs[eid], y = ys[eid];
  const w = grid.width, h = grid.height;
  let cx = Math.floor((x - grid.originX) / grid.cellSize);
  let cy = Math.floor((y - grid.originY) / grid.cellSize);
  cx = !(cx >= 0) ? 0 : cx >= w ? w - 1 : cx; // !(≥ 0) also catches NaN
  cy = !(cy >= 0) ? 0 : cy >= h ? h - 1 : cy;
  _cell.x = cx;
  _cell.y = cy;
  if (grid.walkable[cy * w + cx] === 1) return;
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const nx = cx + dx, ny = cy + dy;
      if (nx >= 0 && ny >= 0 && nx < w && ny < h && grid.walkable[ny * w + nx] === 1) {
        _cell.x = nx;
        _cell.y = ny;
        return;
      }
    }
  }
}

function validateGoalOptions(grid: Grid, options: AgentGoalOptions): { flow: boolean; arrive: number; slow: number; crowd: boolean } {
  if (options === null || typeof options !== 'object') throw new InvalidArgumentError('options', options, 'must be an object');
  const mode = options.mode ?? 'path';
  if (mode !== 'path' && mode !== 'flow') throw new InvalidArgumentError('options.mode', mode, "must be 'path' or 'flow'");
  const arrive = requirePositive('options.arriveRadius', options.arriveRadius ?? 0.25 * grid.cellSize);
  const slow = requireNonNegative('options.slowRadius', options.slowRadius ?? 2 * grid.cellSize);
  const crowd = options.crowdArrival ?? true;
  if (typeof crowd !== 'boolean') throw new InvalidArgumentError('options.crowdArrival', crowd, 'must be a boolean');
  return { flow: mode === 'flow', arrive, slow, crowd };
}

function goalCellOf(grid: Grid, x: number, y: number): number {
  requireFinite('x', x);
  requireFinite('y', y);
  const cx = Math.floor((x - grid.originX) / grid.cellSize);
  const cy = Math.floor((y - grid.originY) / grid.cellSize);
  if (cx < 0 || cx >= grid.width) throw new OutOfRangeError('x', x, `goal lies outside the navigation grid (column ${cx} of 0..${grid.width - 1})`);
  if (cy < 0 || cy >= grid.height) throw new OutOfRangeError('y', y, `goal lies outside the navigation grid (row ${cy} of 0..${grid.height - 1})`);
  return cy * grid.width + cx;
}

function assignGoal(world: CrowdWorld, st: NavigationState, nav: NavigationStore, eid: number, x: number, y: number, goalCell: number, o: { flow: boolean; arrive: number; slow: number; crowd: boolean }, slot: number): void {
  releaseGoal(st, nav, eid);
  nav.goalX[eid] = x;
  nav.goalY[eid] = y;
  nav.goalCell[eid] = goalCell;
  nav.arriveRadius[eid] = o.arrive;
  nav.slowRadius[eid] = o.slow;
  nav.arrivedAt[eid] = 0;
  nav.heldBack[eid] = 0;
  nav.crowdArrival[eid] = o.crowd ? 1 : 0;
  if (o.flow) {
    nav.mode[eid] = GRID_NAV_MODE_FLOW;
    nav.status[eid] = GRID_NAV_MOVING;
    nav.fieldSlot[eid] = slot;
  } else {
    nav.mode[eid] = GRID_NAV_MODE_PATH;
    queuePath(world, st, nav, eid);
  }
}

/**
 * Queue a path request from the agent's cell to its goal cell (status 'waiting-for-path'), or, when the region
 * labels are current and put the goal outside the agent's region, mark it unreachable at once: the search would
 * expand every cell of that region and fail.
 */
function queuePath(world: CrowdWorld, st: NavigationState, nav: NavigationStore, eid: number): void {
  const grid = st.grid;
  agentCell(grid, world.position.x, world.position.y, eid);
  const g = nav.goalCell[eid];
  const here = _cell.y * grid.width + _cell.x;
  if (st.regions.version === grid.version) {
    const L = st.regions.labels;
    if (L[g] < 0 || L[here] !== L[g]) {
      cancelPathRequest(st.queue, eid);
      nav.pathLength[eid] = 0;
      nav.pathIndex[eid] = 0;
      nav.status[eid] = GRID_NAV_UNREACHABLE;
      st.failCell[eid] = here;
      return;
    }
  }
  _goal.x = g % grid.width;
  _goal.y = (g - _goal.x) / grid.width;
  requestPath(st.queue, eid, grid, _cell, _goal);
  nav.status[eid] = GRID_NAV_WAITING_FOR_PATH;
}

/**
 * Send agent `eid` to world point (x, y) on the navigation grid: by its own A* path (default; status
 * 'waiting-for-path' until the queue serves it) or, with `mode: 'flow'`, down the shared flow field of the goal
 * cell. Throws if the agent is unknown, the point is not finite or lies off the grid, or (flow) every flow-field
 * slot is taken by other goals. A blocked or unreachable goal is not an error: the status becomes 'unreachable'.
 */
export function setAgentGoal(world: CrowdWorld, eid: number, x: number, y: number, options: AgentGoalOptions = {}): void {
  requireAgent(world, eid);
  const st = navState(world);
  const o = validateGoalOptions(st.grid, options);
  const goalCell = goalCellOf(st.grid, x, y);
  const nav = navigationComponent(world);
  // acquireFlowSlot counts this agent's reference; assignGoal releases its previous one (possibly the same slot).
  const slot = o.flow ? acquireFlowSlot(st, goalCell) : -1;
  assignGoal(world, st, nav, eid, x, y, goalCell, o, slot);
}

/**
 * A group order: every agent in `eids` follows one shared flow field to (x, y) (one solve for the whole group).
 * Options as setAgentGoal (mode is forced to 'flow'). Without an explicit `arriveRadius`, a group of N agents of
 * largest radius r arrives within max(0.25 × cell size, r·√(N / 0.9)) of the goal: the radius of the disc N bodies
 * pack into, so the whole group can arrive even when collisions keep bodies apart.
 */
export function setGroupGoal(world: CrowdWorld, eids: ArrayLike<number>, x: number, y: number, options: AgentGoalOptions = {}): void {
  if (eids === null || typeof eids !== 'object' || typeof eids.length !== 'number') throw new InvalidArgumentError('eids', eids, 'must be an array of entity ids');
  for (let i = 0; i < eids.length; i++) requireAgent(world, eids[i], `eids[${i}]`);
  const st = navState(world);
  const o = validateGoalOptions(st.grid, { ...options, mode: 'flow' });
  if (options.arriveRadius === undefined && eids.length > 1) {
    // N bodies of radius ≤ r cannot all reach one point: they pack into a disc of area ≈ N·π·r² / 0.9 (hexagonal
    // packing density ≈ 0.907), i.e. radius r·√(N / 0.9). Everyone inside that disc has arrived.
    let rMax = 0;
    for (let i = 0; i < eids.length; i++) rMax = Math.max(rMax, world.agent.radius[eids[i]]);
    o.arrive = Math.max(o.arrive, rMax * Math.sqrt(eids.length / 0.9));
  }
  const goalCell = goalCellOf(st.grid, x, y);
  const nav = navigationComponent(world);
  const slot = acquireFlowSlot(st, goalCell);
  for (let i = 0; i < eids.length; i++) {
    st.slotRefs[slot]++;
    assignGoal(world, st, nav, eids[i], x, y, goalCell, o, slot);
  }
  st.slotRefs[slot]--; // the reference taken by acquireFlowSlot itself
}

/** Remove agent `eid`'s grid goal: status 'idle', preferred velocity zero. */
export function clearAgentGoal(world: CrowdWorld, eid: number): void {
  requireAgent(world, eid);
  const st = navState(world);
  releaseGoal(st, navigationComponent(world), eid);
  world.preferredVelocity.x[eid] = 0;
  world.preferredVelocity.y[eid] = 0;
}

/** Agent `eid`'s navigation status. */
export function navigationStatus(world: CrowdWorld, eid: number): NavigationStatus {
  requireAgent(world, eid);
  return STATUS_NAMES[navigationComponent(world).status[eid]];
}

/** Agent `eid`'s current A* path as cell indices (a copy; empty if none), for debugging and drawing. */
export function agentPathCells(world: CrowdWorld, eid: number): Int32Array {
  requireAgent(world, eid);
  const st = navState(world);
  const nav = navigationComponent(world);
  const buf = st.queue.cells[eid];
  return buf === null || nav.mode[eid] !== GRID_NAV_MODE_PATH ? new Int32Array(0) : buf.slice(0, nav.pathLength[eid]);
}

/** The flow field agent `eid` follows (null unless in flow mode), for debugging and drawing. */
export function agentFlowField(world: CrowdWorld, eid: number): FlowField | null {
  requireAgent(world, eid);
  const slot = navigationComponent(world).fieldSlot[eid];
  return slot < 0 ? null : navState(world).slotField[slot];
}

const _cell = { x: 0, y: 0 };
const _goal = { x: 0, y: 0 };
const _dir = new Float64Array(2);
/**
 * Seconds until the current agent's next navigation update: dt × its LOD tier rule's interval (1 without LOD), 0 for
 * no limit. arrive() caps the speed toward the goal so the agent does not pass it before then. Passed in an array,
 * not as a double argument (a call V8 does not inline boxes it).
 */
const _ahead = new Float64Array(1);

function requestReplan(world: CrowdWorld, st: NavigationState, nav: NavigationStore, eid: number): void {
  queuePath(world, st, nav, eid);
  nav.replans[eid]++;
  st.replans++;
}

/**
 * Has unreachable path agent eid been pushed (contacts, ORCA, setAgentPosition) out of the region its failed search
 * started from, into its goal's? A search reaches exactly the cells of its start's region (src/grid/regions.ts), so
 * inside that region the goal stays unreachable, and no search is spent; once the agent's cell shares its goal's
 * region, it is searched again. Before 2026-11-30 it stayed unreachable until the next grid edit. O(1) per frame
 * while the agent stays in its failed search's cell; the labels are refreshed at most once per grid edit.
 */
function leftFailedRegion(world: CrowdWorld, st: NavigationState, nav: NavigationStore, eid: number): boolean {
  agentCell(st.grid, world.position.x, world.position.y, eid);
  if (_cell.y * st.grid.width + _cell.x === st.failCell[eid]) return false;
  return goalInAgentRegion(world, st, nav, eid);
}

/**
 * Does unreachable agent eid's goal lie in the region of the cell a search from it would start in (its own, or the
 * walkable neighbour agentCell picks)? Records that cell as its failCell; refreshes the labels if the grid changed.
 */
function goalInAgentRegion(world: CrowdWorld, st: NavigationState, nav: NavigationStore, eid: number): boolean {
  agentCell(st.grid, world.position.x, world.position.y, eid);
  const here = _cell.y * st.grid.width + _cell.x;
  st.failCell[eid] = here;
  const L = refreshGridRegions(st.regions).labels, g = L[nav.goalCell[eid]];
  return g >= 0 && L[here] === g;
}

/** Pass 1: the grid changed since last frame. */
function onGridEdited(world: CrowdWorld, st: NavigationState, nav: NavigationStore): number {
  for (let s = 0; s < st.slotField.length; s++) {
    const f = st.slotField[s];
    if (f !== null && st.slotRefs[s] > 0) rebuildFlowField(f);
  }
  const walk = st.grid.walkable;
  const dense = world.agents.dense, n = world.agents.count;
  let replans = 0;
  for (let i = 0; i < n; i++) {
    const eid = dense[i];
    if (nav.mode[eid] !== GRID_NAV_MODE_PATH) continue;
    const status = nav.status[eid];
    if (status === GRID_NAV_UNREACHABLE) {
      // The edit may have opened a way: searched again only if the agent's cell and its goal's now share a region.
      if (goalInAgentRegion(world, st, nav, eid)) {
        requestReplan(world, st, nav, eid);
        replans++;
      }
      continue;
    }
    const len = nav.pathLength[eid];
    if (len === 0 || status === GRID_NAV_WAITING_FOR_PATH) continue;
    const path = st.queue.cells[eid]!;
    const w = st.grid.width;
    let blocked = false;
    for (let k = nav.pathIndex[eid] > 0 ? nav.pathIndex[eid] - 1 : 0; k < len; k++) {
      if (walk[path[k]] !== 1) { blocked = true; break; }
      // a diagonal step whose side cells are no longer both walkable now cuts a corner the rule forbids (an agent
      // sent through the point where two blocked cells touch pressed into it for good; found by the grid navigation
      // fuzz property)
      if (k > 0 && !st.cornerCutting) {
        const a = path[k - 1], b = path[k], ax = a % w, bx = b % w;
        if (ax !== bx && (a - ax) !== (b - bx) && (walk[a - ax + bx] !== 1 || walk[b - bx + ax] !== 1)) { blocked = true; break; }
      }
    }
    if (blocked) {
      requestReplan(world, st, nav, eid);
      replans++;
    }
  }
  return replans;
}

/**
 * The navigation system (pipeline slot 3). Does nothing until setNavigationGrid has been called. Honours LOD: an
 * agent without the LOD_STEER bit this frame keeps its last preferred velocity.
 */
export function navigationSystem(world: CrowdWorld, dt: number): void {
  const st = world.systems.navigation as NavigationState | undefined;
  if (st === undefined) return;
  const t0 = nowMs();
  const nav = navigationComponent(world);
  const lodFlags = lodComponent(world).flags;
  const grid = st.grid;
  const queue = st.queue;
  const dense = world.agents.dense, n = world.agents.count;
  const px = world.position.x, py = world.position.y;

  // 1. Grid edits → re-solve fields in use, re-plan blocked paths.
  let replans = 0;
  if (grid.version !== st.seenVersion) {
    replans = onGridEdited(world, st, nav);
    st.seenVersion = grid.version;
  }

  // 2. Waiting agents keep their request's start at their current cell (only before its search begins).
  if (queue.count > 0) {
    for (let i = 0; i < n; i++) {
      const eid = dense[i];
      if (nav.status[eid] === GRID_NAV_WAITING_FOR_PATH && queue.status[eid] === PATH_PENDING && queue.active !== eid) {
        agentCell(grid, px, py, eid);
        updatePathRequestStart(queue, eid, _cell);
      }
    }
  }

  // 3. Serve the path queue within the frame budget; adopt finished paths.
  const done = queue.count > 0 ? servePathQueue(queue, st.maxExpansionsPerFrame) : 0;
  const expanded = done > 0 || queue.count > 0 ? queue.lastExpansions : 0;
  for (let k = 0; k < done; k++) {
    const eid = queue.completed[k];
    if (nav.mode[eid] !== GRID_NAV_MODE_PATH) continue;
    st.pathsCompleted++;
    if (queue.status[eid] === PATH_FOUND) {
      const len = queue.length[eid];
      nav.pathLength[eid] = len;
      nav.pathIndex[eid] = len > 1 ? 1 : 0;
      nav.pathVersion[eid] = queue.plannedVersion[eid];
      nav.status[eid] = GRID_NAV_MOVING;
    } else {
      nav.pathLength[eid] = 0;
      nav.pathIndex[eid] = 0;
      nav.status[eid] = GRID_NAV_UNREACHABLE;
      st.failCell[eid] = queue.startCell[eid];
      // The failed search expanded its start's whole region; labelling the grid costs about as much once, and
      // then answers later requests into other regions (until the next edit) without a search.
      refreshGridRegions(st.regions);
    }
  }

  // 4. Preferred velocities.
  const pvx = world.preferredVelocity.x, pvy = world.preferredVelocity.y;
  const maxSpeed = world.agent.maxSpeed;
  // Frames until an agent's next update: its LOD tier rule's interval when the LOD pass staggers it, else 1.
  const lodRules = lodRulesInEffect(world);
  const tiers = lodComponent(world).tier;
  const stepDt = dt > 0 ? dt : 0;
  crowdArrivalArgs[3] = stepDt; // for heldBackLastStep
  let blocked = 0;
  if (_blocked.length < n) _blocked = new Int32Array(world.capacity + 1);
  for (let i = 0; i < n; i++) {
    const eid = dense[i];
    const mode = nav.mode[eid];
    if (mode === GRID_NAV_MODE_NONE || (lodFlags[eid] & LOD_STEER) === 0) continue;
    _ahead[0] = stepDt * (lodRules !== null ? lodRules[tiers[eid]].interval : 1);
    // Positions and speeds go in as arrays plus the entity id, not as doubles: a double argument to a call V8
    // does not inline is boxed into a fresh HeapNumber, and these calls are too large to inline.
    const wasArrived = nav.status[eid] === GRID_NAV_ARRIVED;
    if (mode === GRID_NAV_MODE_FLOW) flowVelocity(st, nav, eid, px, py, maxSpeed, pvx, pvy);
    else replans += pathVelocity(world, st, nav, eid, px, py, maxSpeed, pvx, pvy);
    // Pushed out of its arrival (beyond the hold distance of arrive()): it walks back along its field or path, as a
    // returning agent (no order of its own, so it keeps yielding to moving agents: src/world/orders.ts) until it
    // arrives again.
    if (nav.status[eid] === GRID_NAV_ARRIVED) { if (nav.returning[eid] !== 0) nav.returning[eid] = 0; }
    else if (wasArrived) nav.returning[eid] = 1;
    // Held back: moved less than 3/4 of what its preferred velocity asks over the last step (pushing an equal body ahead moves it about half); held back for
    // CROWD_HOLD_SECONDS in a row, it is a candidate of pass 5. So is an arrived agent the crowd has just pushed
    // beyond its hold distance: it stays arrived if it still stands in the arrived crowd at its goal (otherwise the
    // agents pressing in push the arrived ones out, who walk back and push, and the crowd never settles).
    if (wasArrived && nav.status[eid] === GRID_NAV_MOVING && nav.crowdArrival[eid] === 1) {
      nav.heldBack[eid] = 0;
      _blocked[blocked++] = eid;
    } else if (nav.status[eid] === GRID_NAV_MOVING) {
      // (walking back to its arrival, it counts as held back only when stuck: see STUCK)
      if (heldBackLastStep(world, eid, nav.returning[eid] !== 0 ? STUCK : HELD_BACK)) {
        nav.heldBack[eid] += _ahead[0];
        if (nav.heldBack[eid] >= CROWD_HOLD_SECONDS && nav.crowdArrival[eid] === 1) _blocked[blocked++] = eid;
      } else if (nav.heldBack[eid] !== 0) nav.heldBack[eid] = 0;
    } else if (nav.heldBack[eid] !== 0) nav.heldBack[eid] = 0;
  }
  // 5. Arrival in a crowd (see crowdArrivals); needs this frame's hash (not there when the system runs alone).
  let crowdArrived = 0;
  if (blocked > 0 && hashHoldsLiveAgents(world)) crowdArrived = crowdArrivals(world, nav, blocked);

  profileRecord(world.profiler, 'navigation', t0);
  profileCount(world.profiler, 'navigation', 'expanded', expanded);
  profileCount(world.profiler, 'navigation', 'pathsCompleted', done);
  profileCount(world.profiler, 'navigation', 'pendingPaths', queue.count);
  profileCount(world.profiler, 'navigation', 'replans', replans);
  profileCount(world.profiler, 'navigation', 'crowdArrived', crowdArrived);
}

let _blocked = new Int32Array(0);
let _arrivals = new Int32Array(0);

/**
 * Arrival in a crowd (src/world/crowd-arrival.ts): each held-back agent that touches the arrived crowd at its goal
 * arrives where it stands, and so does an arrived agent the crowd has pushed beyond its hold distance while it still
 * stands in that crowd (otherwise, under contacts alone, arrived agents pushed out walk back in and push, and the
 * crowd never settles). Compute, then apply: every decision reads the statuses as the velocity pass left them, so
 * the result does not depend on the order of the agents (the crowd grows by one ring of contacts per frame).
 */
function crowdArrivals(world: CrowdWorld, nav: NavigationStore, blocked: number): number {
  const px = world.position.x, py = world.position.y, rad = world.agent.radius;
  const pvx = world.preferredVelocity.x, pvy = world.preferredVelocity.y;
  const hash = world.hash;
  crowdArrivalArgs[2] = hashMaxRadius(hash, rad);
  const returning = nav.returning;
  if (_arrivals.length < blocked) _arrivals = new Int32Array(_blocked.length);
  let arrivals = 0;
  for (let k = 0; k < blocked; k++) {
    const a = _blocked[k];
    crowdArrivalArgs[1] = nav.arriveRadius[a];
    // A returning agent stuck on its way back and blocked for good stops where it stands (src/world/orders.ts: it
    // shoves no one, so it would otherwise press against whatever blocks it forever); one just pushed out of its
    // arrival (heldBack 0) walks back first.
    const blockedStops = returning[a] !== 0 && nav.heldBack[a] >= CROWD_HOLD_SECONDS;
    if (touchesArrivedCrowd(world, hash, a, nav.goalX, nav.goalY, nav.status, GRID_NAV_ARRIVED, returning, blockedStops)) _arrivals[arrivals++] = a;
  }
  for (let k = 0; k < arrivals; k++) {
    const a = _arrivals[k];
    const dx = px[a] - nav.goalX[a], dy = py[a] - nav.goalY[a];
    nav.status[a] = GRID_NAV_ARRIVED;
    nav.arrivedAt[a] = Math.sqrt(dx * dx + dy * dy);
    nav.returning[a] = 0;
    pvx[a] = 0;
    pvy[a] = 0;
  }
  return arrivals;
}

/**
 * Arrival check and final approach shared by both modes. Returns true if it wrote the velocity (arrived, or
 * heading straight for the goal point).
 */
function arrive(nav: NavigationStore, eid: number, px: Float64Array, py: Float64Array, maxSpeed: Float64Array, pvx: Float64Array, pvy: Float64Array, straight: boolean): boolean {
  const x = px[eid], y = py[eid], speed = maxSpeed[eid];
  const dx = nav.goalX[eid] - x, dy = nav.goalY[eid] - y;
  const d = Math.sqrt(dx * dx + dy * dy);
  const r = nav.arriveRadius[eid];
  // Hysteresis: an arrived agent stays arrived until pushed more than 2 radii away (or, when it arrived in a crowd
  // at distance arrivedAt, more than one radius beyond that).
  const hold = nav.arrivedAt[eid] + r > 2 * r ? nav.arrivedAt[eid] + r : 2 * r;
  if (d <= r || (nav.status[eid] === GRID_NAV_ARRIVED && d <= hold)) {
    if (nav.status[eid] !== GRID_NAV_ARRIVED) nav.arrivedAt[eid] = 0;
    nav.status[eid] = GRID_NAV_ARRIVED;
    pvx[eid] = 0;
    pvy[eid] = 0;
    return true;
  }
  if (!straight) return false;
  const slow = nav.slowRadius[eid];
  let s = slow > 0 && d < slow ? speed * (d / slow) : speed;
  // Never pass the goal before the next update (_ahead seconds away): a step longer than the arrival disc is wide
  // (speed · dt > 2 · arriveRadius, e.g. a fast unit with slowRadius 0, or a far LOD agent updated one frame in N)
  // could otherwise jump across the disc and back forever.
  const ahead = _ahead[0];
  if (ahead > 0 && s * ahead > d) s = d / ahead;
  pvx[eid] = (dx / d) * s;
  pvy[eid] = (dy / d) * s;
  nav.status[eid] = GRID_NAV_MOVING;
  return true;
}

function flowVelocity(st: NavigationState, nav: NavigationStore, eid: number, px: Float64Array, py: Float64Array, maxSpeed: Float64Array, pvx: Float64Array, pvy: Float64Array): void {
  const field = st.slotField[nav.fieldSlot[eid]]!;
  const grid = st.grid;
  const x = px[eid], y = py[eid], speed = maxSpeed[eid];
  const r = sampleFlowFieldAt(field, px, py, eid, _dir);
  if (r === 'goal') {
    arrive(nav, eid, px, py, maxSpeed, pvx, pvy, true);
    return;
  }
  if (arrive(nav, eid, px, py, maxSpeed, pvx, pvy, false)) return;
  const cs = grid.cellSize;
  const w = field.width, h = field.height;
  const cx = Math.floor((x - grid.originX) / cs);
  const cy = Math.floor((y - grid.originY) / cs);
  if (r === 'unreachable') {
    // Pushed into a wall or off a ledge: head for the best reachable neighbour cell, if any. From a walkable cell
    // (one the field cannot reach), a diagonal neighbour counts only when the field's corner rule allows the move:
    // otherwise the way leads through the point where two blocked cells touch, which bodies cannot pass (the agent
    // pressed into that corner for good with status 'moving'; found by the grid navigation fuzz property).
    const walk = grid.walkable;
    const ownWalkable = cx >= 0 && cy >= 0 && cx < w && cy < h && walk[cy * w + cx] === 1;
    const cornerRule = ownWalkable && !field.cornerCutting;
    let best = -1;
    let bestV = Infinity;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = cx + dx, ny = cy + dy;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
        if (cornerRule && dx !== 0 && dy !== 0 && (walk[cy * w + nx] !== 1 || walk[ny * w + cx] !== 1)) continue;
        const v = field.integration[ny * w + nx];
        if (v < bestV) { bestV = v; best = ny * w + nx; }
      }
    }
    if (best < 0) {
      nav.status[eid] = GRID_NAV_UNREACHABLE;
      pvx[eid] = 0;
      pvy[eid] = 0;
      return;
    }
    const bx = grid.originX + ((best % w) + 0.5) * cs - x;
    const by = grid.originY + (((best - (best % w)) / w) + 0.5) * cs - y;
    const bl = Math.sqrt(bx * bx + by * by);
    pvx[eid] = bl > 0 ? (bx / bl) * speed : 0;
    pvy[eid] = bl > 0 ? (by / bl) * speed : 0;
    nav.status[eid] = GRID_NAV_MOVING;
    return;
  }
  // The blend of the four surrounding cells' directions is a way downhill only where it agrees with the agent's own
  // cell's move (the exact Dijkstra step, always legal: without corner cutting a straight line along it stays in
  // walkable cells for at least a cell). Beside a wall it need not: a blocked stencil cell weighs nothing, and on a
  // ridge of the field (the own cell's move a tie between two ways round the wall) the other cells' moves, all
  // horizontal, outvoted the own cell's and the blend pointed straight into the blocked neighbour's face, where
  // ORCA's obstacle line cancels the whole velocity: the agent pressed there for good (found by the grid navigation
  // fuzz property, seed 875748568; test/grid/flow-wall-blend.test.ts). A blend at a right angle or more to the own
  // move is replaced by that move. Pressing straight into a blocked neighbour's face then cannot happen without
  // corner cutting: every legal move from the cell is parallel to that face or away from it.
  const own = cy * w + cx;
  const odx = field.dirX[own], ody = field.dirY[own];
  if (_dir[0] * odx + _dir[1] * ody <= 0) { _dir[0] = odx; _dir[1] = ody; }
  // Moving: remaining distance ≈ integration value × cell size (exact in cells on unit-cost grids).
  const remaining = field.integration[own] * cs;
  const slow = nav.slowRadius[eid];
  let s = slow > 0 && remaining < slow ? speed * Math.max(remaining / slow, 0.25) : speed;
  // Never enter a blocked cell before the next update (_ahead seconds away): the sampled direction holds only near
  // the agent, and a far LOD agent (updated, and pushed out of walls by contacts, one frame in N) or a step longer
  // than the way to a wall walked its centre into a building (found by the grid navigation fuzz property).
  const ahead = _ahead[0];
  if (ahead > 0) {
    // nor pass the goal point (as arrive() caps in the goal cell): a far agent that crossed the whole goal cell
    // between updates was sent back across it, and back again, for good
    const gx = nav.goalX[eid] - x, gy = nav.goalY[eid] - y, dg = Math.sqrt(gx * gx + gy * gy);
    if (s * ahead > dg) s = dg / ahead;
    // A step that ends inside the agent's own cell (the usual case: a step is a few centimetres, a cell metres) cannot
    // reach a blocked one: no cell walk then (it cost the 100k horde ~0.4 ms per frame).
    const ex = (x - grid.originX) / cs - cx + (_dir[0] * s * ahead) / cs, ey = (y - grid.originY) / cs - cy + (_dir[1] * s * ahead) / cs;
    if (!(ex > 1e-6 && ex < 1 - 1e-6 && ey > 1e-6 && ey < 1 - 1e-6)) {
      _ray[0] = x; _ray[1] = y; _ray[2] = s * ahead;
      // stop a micrometre per metre of cell short of the border: landing on it, round-off may put the centre across,
      // and contacts then project the body out on the wrong side
      freeRun(grid, _ray);
      const free = _ray[3] - 1e-6 * cs;
      if (free < s * ahead) s = free > 0 ? free / ahead : 0;
    }
  }
  pvx[eid] = _dir[0] * s;
  pvy[eid] = _dir[1] * s;
  nav.status[eid] = GRID_NAV_MOVING;
}

/** Cells of the path window string-pulled per agent update (the corners beyond it are not needed yet). */
const SMOOTH_WINDOW = 16;
const _smoothCells = new Int32Array(SMOOTH_WINDOW + 1);
const _smoothPortals = new Float64Array(8 * (SMOOTH_WINDOW + 1));
const _smoothCorners = new Float64Array(2 * 8); // start and up to 3 corners (stopAfter 4)
/** gridPathPortalsAt's geometry: cell size, origin, start, goal (doubles never cross a call on the per-frame path). */
const _smoothGeo = new Float64Array(7);

/**
 * The next corner of agent eid's string-pulled path into _smoothCorners[2..4): the funnel (src/funnel/funnel.ts)
 * over the portals (gridPathPortals, with the grid's walkable flags) of the cells from the agent's own cell `here`
 * (8-adjacent to path[idx], ensured by the caller) through the next SMOOTH_WINDOW − 1 path cells, ending at the goal
 * point when the window reaches it and otherwise at the window's last cell centre (a stand-in: corners before it are
 * exact unless the true path bends beyond it). Every leg of the funnelled path lies in those cells (and free cells
 * beside diagonal steps), so the agent never heads into a blocked cell. False if there is no corner beyond the start
 * (the caller then steers to the next cell centre). Without corner cutting only: cornerCutting paths may step
 * diagonally past one blocked corner, which the portals do not model.
 */
function nextSmoothCorner(grid: Grid, nav: NavigationStore, eid: number, path: Int32Array, len: number, idx: number, here: number, px: Float64Array, py: Float64Array, radius: Float64Array): boolean {
  const w = grid.width, cs = grid.cellSize;
  let n = len - idx < SMOOTH_WINDOW ? len - idx : SMOOTH_WINDOW;
  _smoothCells[0] = here;
  for (let k = 0; k < n; k++) _smoothCells[k + 1] = path[idx + k];
  n++;
  let gx: number, gy: number;
  if (idx + n - 1 === len) { gx = nav.goalX[eid]; gy = nav.goalY[eid]; }
  else {
    const last = _smoothCells[n - 1], lx = last % w;
    gx = grid.originX + (lx + 0.5) * cs; gy = grid.originY + ((last - lx) / w + 0.5) * cs;
  }
  const geo = _smoothGeo;
  geo[0] = cs; geo[1] = grid.originX; geo[2] = grid.originY; geo[3] = px[eid]; geo[4] = py[eid]; geo[5] = gx; geo[6] = gy;
  const np = gridPathPortalsAt(_smoothCells, n, w, geo, _smoothPortals, grid.walkable);
  const nc = funnel(_smoothPortals, np, 0, _smoothCorners, 4);
  if (nc < 2) return false;
  // An agent standing on a corner (the speed cap toward a corner lands it there) gets that corner back, within
  // round-off: take the next one, or it would stop on the corner for good.
  const x = px[eid], y = py[eid], eps = 1e-6 * cs;
  let k = 1;
  if (Math.abs(_smoothCorners[2] - x) + Math.abs(_smoothCorners[3] - y) <= eps) {
    if (nc < 3) return false;
    k = 2;
  }
  const vx = _smoothCorners[2 * k], vy = _smoothCorners[2 * k + 1];
  _smoothAtGoal = idx + n - 1 === len && nc === k + 1 && vx === gx && vy === gy;
  _smoothCorners[2] = vx; _smoothCorners[3] = vy;
  if (k + 1 < nc) {
    // A corner of the r = 0 path is a wall vertex: aim the agent's radius (at most 0.45 cell, so a one-cell passage
    // keeps room) out from it, along the bisector away from the inside of the turn (the incoming direction minus the
    // outgoing one), so the body clears the corner instead of grazing it (the funnel's own clearance radius would
    // cost trigonometry per corner). From there the straight line to the next corner passes outside the vertex.
    const ax = vx - _smoothCorners[2 * k - 2], ay = vy - _smoothCorners[2 * k - 1];
    const bx = _smoothCorners[2 * k + 2] - vx, by = _smoothCorners[2 * k + 3] - vy;
    const la = Math.sqrt(ax * ax + ay * ay), lb = Math.sqrt(bx * bx + by * by);
    if (la > 0 && lb > 0) {
      const nx = ax / la - bx / lb, ny = ay / la - by / lb, ln = Math.sqrt(nx * nx + ny * ny);
      const rad = radius[eid] < 0.45 * cs ? radius[eid] : 0.45 * cs;
      if (ln > 1e-12) { _smoothCorners[2] = vx + (nx / ln) * rad; _smoothCorners[3] = vy + (ny / ln) * rad; }
    }
  }
  return true;
}
/** Set by nextSmoothCorner: the corner it found is the goal point itself (nothing left beyond it). */
let _smoothAtGoal = false;

/**
 * freeRun's input (x, y, the longest distance of interest; the direction in _dir) and output (_ray[3]): an array,
 * not double arguments or a double result, which V8 boxes in calls it does not inline.
 */
const _ray = new Float64Array(4);
/**
 * How far the straight line from (_ray[0], _ray[1]) along the unit direction _dir stays in walkable cells of the
 * grid, up to _ray[2] metres (the result when nothing blocks it), into _ray[3]: a cell walk along the line
 * (Amanatides & Woo 1987). The start's own cell is taken as walkable.
 */
function freeRun(grid: Grid, ray: Float64Array): void {
  const cs = grid.cellSize, w = grid.width, h = grid.height, walk = grid.walkable;
  const dx = _dir[0], dy = _dir[1], maxLen = ray[2];
  const u = (ray[0] - grid.originX) / cs, v = (ray[1] - grid.originY) / cs;
  let cx = Math.floor(u), cy = Math.floor(v);
  const stepX = dx > 0 ? 1 : dx < 0 ? -1 : 0, stepY = dy > 0 ? 1 : dy < 0 ? -1 : 0;
  // distance along the line to the next vertical (x) and horizontal (y) cell border, and between borders
  let tx = dx > 0 ? ((cx + 1 - u) * cs) / dx : dx < 0 ? ((u - cx) * cs) / -dx : Infinity;
  let ty = dy > 0 ? ((cy + 1 - v) * cs) / dy : dy < 0 ? ((v - cy) * cs) / -dy : Infinity;
  const ddx = dx !== 0 ? cs / Math.abs(dx) : Infinity, ddy = dy !== 0 ? cs / Math.abs(dy) : Infinity;
  for (;;) {
    let t: number;
    if (tx < ty) { t = tx; cx += stepX; tx += ddx; } else { t = ty; cy += stepY; ty += ddy; }
    if (!(t < maxLen)) { ray[3] = maxLen; return; }
    if (cx < 0 || cy < 0 || cx >= w || cy >= h || walk[cy * w + cx] !== 1) { ray[3] = t; return; }
  }
}

/** Returns 1 if it requested a re-plan. */
function pathVelocity(world: CrowdWorld, st: NavigationState, nav: NavigationStore, eid: number, px: Float64Array, py: Float64Array, maxSpeed: Float64Array, pvx: Float64Array, pvy: Float64Array): number {
  const x = px[eid], y = py[eid], speed = maxSpeed[eid];
  const len = nav.pathLength[eid];
  if (len === 0) {
    // Waiting for a first path, or unreachable.
    pvx[eid] = 0;
    pvy[eid] = 0;
    if (nav.status[eid] === GRID_NAV_UNREACHABLE && leftFailedRegion(world, st, nav, eid)) {
      requestReplan(world, st, nav, eid);
      return 1;
    }
    return 0;
  }
  if (arrive(nav, eid, px, py, maxSpeed, pvx, pvy, false)) return 0;
  const grid = st.grid;
  const path = st.queue.cells[eid]!;
  const w = grid.width;
  const cs = grid.cellSize;
  const cx = Math.floor((x - grid.originX) / cs);
  const cy = Math.floor((y - grid.originY) / cs);
  let idx = nav.pathIndex[eid];
  // Advance past waypoints whose cell the agent has entered. A smoothed path cuts across cells, so the agent may
  // enter a path cell a few ahead without entering the ones between (a corner passed exactly), or a free cell beside
  // a diagonal step that is not on the path at all: over the next SMOOTH_WINDOW waypoints, the next one is the
  // furthest that the agent's cell is, or touches by a legal move (orthogonal, or diagonal with both cells beside it
  // walkable). The index only moves forward.
  const here = cy * w + cx;
  if (st.smoothPaths) {
    const end = idx + SMOOTH_WINDOW < len ? idx + SMOOTH_WINDOW : len;
    const walk = grid.walkable;
    for (let k = end - 1; k >= idx; k--) {
      const c = path[k];
      if (c === here) { idx = k + 1 < len - 1 ? k + 1 : len - 1; break; }
      const kx = c % w, ky = (c - kx) / w, ddx = kx - cx, ddy = ky - cy;
      if (ddx < -1 || ddx > 1 || ddy < -1 || ddy > 1) continue;
      if (ddx !== 0 && ddy !== 0 && (cx < 0 || cy < 0 || cx >= w || cy >= grid.height
        || walk[cy * w + kx] !== 1 || walk[ky * w + cx] !== 1)) continue;
      idx = k;
      break;
    }
  }
  while (idx < len - 1 && path[idx] === here) idx++;
  // On track if the agent's cell touches the next waypoint's cell (8-neighbourhood).
  let wx = path[idx] % w;
  let wy = (path[idx] - wx) / w;
  if (Math.abs(wx - cx) > 1 || Math.abs(wy - cy) > 1) {
    // Pushed off the path: re-acquire the furthest path cell near the agent within a window around idx.
    let found = -1;
    const lo = idx - 8 > 0 ? idx - 8 : 0;
    const hi = idx + 8 < len - 1 ? idx + 8 : len - 1;
    for (let k = hi; k >= lo; k--) {
      const kx = path[k] % w, ky = (path[k] - kx) / w;
      if (Math.abs(kx - cx) <= 1 && Math.abs(ky - cy) <= 1) { found = k; break; }
    }
    if (found < 0) {
      // Too far from the path: plan a new one from here (keep still until it arrives).
      requestReplan(world, st, nav, eid);
      nav.pathLength[eid] = 0;
      nav.pathIndex[eid] = 0;
      pvx[eid] = 0;
      pvy[eid] = 0;
      return 1;
    }
    idx = found;
    wx = path[idx] % w;
    wy = (path[idx] - wx) / w;
  }
  nav.pathIndex[eid] = idx;
  if (idx === len - 1) {
    // Final leg: the goal point itself, with arrival slowdown.
    arrive(nav, eid, px, py, maxSpeed, pvx, pvy, true);
    if (nav.status[eid] === GRID_NAV_MOVING && st.queue.status[eid] === PATH_PENDING) nav.status[eid] = GRID_NAV_WAITING_FOR_PATH;
    return 0;
  }
  let tx = grid.originX + (wx + 0.5) * cs - x;
  let ty = grid.originY + (wy + 0.5) * cs - y;
  let atGoal = false;
  if (st.smoothPaths && !st.cornerCutting && nextSmoothCorner(grid, nav, eid, path, len, idx, here, px, py, world.agent.radius)) {
    tx = _smoothCorners[2] - x;
    ty = _smoothCorners[3] - y;
    atGoal = _smoothAtGoal;
  }
  const d = Math.sqrt(tx * tx + ty * ty);
  // Remaining distance: to this waypoint (or corner), then about one cell per remaining waypoint; exactly d when the
  // string-pulled path runs straight to the goal.
  const remaining = atGoal ? d : d + (len - 1 - idx) * cs;
  const slow = nav.slowRadius[eid];
  let s = slow > 0 && remaining < slow ? speed * (remaining / slow) : speed;
  // Never pass the waypoint (smoothed: the corner, or the goal when heading straight for it) before the next update
  // (_ahead seconds away), as arrive() does for the goal: the waypoint advances only when an update finds the agent
  // in its cell, so an agent that crossed the whole cell between updates (a far LOD agent updated one frame in N, or
  // a step longer than a cell) was sent back to it, and back again, for good (found by the grid navigation fuzz
  // property).
  const ahead = _ahead[0];
  if (ahead > 0 && s * ahead > d) s = d / ahead;
  if (d > 1e-9) {
    pvx[eid] = (tx / d) * s;
    pvy[eid] = (ty / d) * s;
  } else {
    pvx[eid] = 0;
    pvy[eid] = 0;
  }
  // While a re-plan is pending the agent keeps following its old path.
  nav.status[eid] = st.queue.status[eid] === PATH_PENDING ? GRID_NAV_WAITING_FOR_PATH : GRID_NAV_MOVING;
  return 0;
}
