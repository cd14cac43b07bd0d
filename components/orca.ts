import type { CrowdWorld } from '../src/world/crowd';
import { defineAgentComponent, type StoreAllocator } from '../src/world/registry';
import { requireAgent } from '../src/world/agents';
import { InvalidArgumentError } from '../src/core/errors';
import { requireInteger, requireNonNegative, requireNonNegativeOrInfinity, requirePositive } from '../src/core/validate';
import { addObstacleToSet, clearObstacleSet, createObstacleSet, type ObstacleOptions, type ObstacleSet } from '../src/avoidance/obstacles';

/**
 * Per-agent ORCA parameters (structure of arrays indexed by entity id). Radius, max speed, layer and mask are the
 * agent's own (world.agent, set by spawnAgent / setAgentParams); these are the avoidance-specific ones.
 */
export interface OrcaStore {
  /** 1 = the ORCA system computes this agent's desired velocity. @default 0 */
  readonly enabled: Uint8Array;
  /** Only agents within this distance are neighbours, metres (> 0). @default 10 */
  readonly neighbourDistance: Float64Array;
  /** At most this many nearest neighbours are considered (integer 0..ORCA_MAX_NEIGHBOURS). @default 10 */
  readonly maxNeighbours: Int32Array;
  /** Look-ahead for other agents, seconds (> 0). @default 5 */
  readonly timeHorizon: Float64Array;
  /** Look-ahead for static obstacles, seconds (> 0). @default 2 */
  readonly obstacleTimeHorizon: Float64Array;
  /** Avoidance priority (>= 0, Infinity = never yields); see orcaShare. @default 1 */
  readonly priority: Float64Array;
  /**
   * 1 = while the agent has no order (src/world/orders.ts: idle, arrived, unreachable, walking back to where it
   * arrived) it yields to neighbours moving on one: it takes the whole avoidance of where they want to go (their
   * preferred velocity), so it steps aside or is pushed ahead, and the contacts pass gives it the larger part of
   * their overlap (ContactsOptions.yieldShare). 0 = it holds its ground like any moving agent (a "hold position"
   * unit). Priority Infinity never yields either. See docs/ORCA.md, "Idle agents yield". @default 1
   */
  readonly yieldWhenIdle: Uint8Array;
}

/** Largest accepted maxNeighbours. */
export const ORCA_MAX_NEIGHBOURS = 256;

/** The ORCA component of a world (defined on first use). */
export function orcaComponent(world: CrowdWorld): OrcaStore {
  return defineAgentComponent(world, 'orca', makeOrcaStore);
}

// Module scope: an arrow written inside orcaComponent would be a fresh closure (an allocation) on every call.
const makeOrcaStore = (a: StoreAllocator): OrcaStore => ({
  enabled: a.u8(0),
  neighbourDistance: a.f64(10),
  maxNeighbours: a.i32(10),
  timeHorizon: a.f64(5),
  obstacleTimeHorizon: a.f64(2),
  priority: a.f64(1),
  yieldWhenIdle: a.u8(1),
});

/** Per-world ORCA state: the static obstacles and the world-wide options. */
export interface OrcaWorldState {
  readonly obstacles: ObstacleSet;
  /**
   * Symmetry breaking: every step, each ORCA agent with a non-zero preferred velocity has it nudged by a vector
   * with components uniform in [-s, s] m/s drawn from the world's seeded PRNG, in dense (spawn) order. Perfectly
   * symmetric set-ups (two agents exactly head-on, four blocks) otherwise can deadlock ORCA. @default 0.01
   */
  symmetryBreaking: number;
  /**
   * 'paper' (default): the paper's ORCA and infeasible-case fallback, as RVO2 (ORCA_PAPER). 'noOverlap': ORCA plus
   * hard contact lines, so bodies never interpenetrate, at the risk of gridlock in converging crowds
   * (ORCA_NO_OVERLAP; see docs/ORCA.md).
   */
  fallback: 'noOverlap' | 'paper';
  /**
   * How the ORCA system finds each agent's neighbours (docs/ORCA.md, Neighbours): 'auto' (default) picks by measured
   * cost among 'single' (per-agent queries), 'batch' (a batch pre-pass at a covering radius) and 'batch-full' (a
   * batch pre-pass at the largest neighbour distance). Every choice gives the same neighbours, hence the same
   * results; pinning one makes the profiler's counters reproducible from run to run and spares the probe steps.
   */
  neighbourSearch: OrcaNeighbourSearch;
}

/** The ORCA system's neighbour searches (see OrcaWorldState.neighbourSearch). */
export type OrcaNeighbourSearch = 'auto' | 'single' | 'batch' | 'batch-full';

/** The ORCA state of a world (created on first use). */
export function orcaState(world: CrowdWorld): OrcaWorldState {
  let st = world.systems.orca as OrcaWorldState | undefined;
  if (st === undefined) {
    st = { obstacles: createObstacleSet(), symmetryBreaking: 1e-2, fallback: 'paper', neighbourSearch: 'auto' };
    world.systems.orca = st;
  }
  return st;
}

/** ORCA parameters accepted by enableOrca / setOrcaParams (units and defaults: see OrcaStore). */
export interface OrcaParams {
  neighbourDistance?: number;
  maxNeighbours?: number;
  timeHorizon?: number;
  obstacleTimeHorizon?: number;
  priority?: number;
  /** Yield to agents moving on an order while this one has none (OrcaStore.yieldWhenIdle). @default true */
  yieldWhenIdle?: boolean;
}

/** Set some of an agent's ORCA parameters (validated first, then applied together). Does not enable ORCA. */
export function setOrcaParams(world: CrowdWorld, eid: number, params: OrcaParams): void {
  requireAgent(world, eid);
  if (params === null || typeof params !== 'object') throw new InvalidArgumentError('params', params, 'must be an object');
  const c = orcaComponent(world);
  const nd = params.neighbourDistance === undefined ? c.neighbourDistance[eid] : requirePositive('params.neighbourDistance', params.neighbourDistance);
  const mn = params.maxNeighbours === undefined ? c.maxNeighbours[eid] : requireInteger('params.maxNeighbours', params.maxNeighbours, 0, ORCA_MAX_NEIGHBOURS);
  const th = params.timeHorizon === undefined ? c.timeHorizon[eid] : requirePositive('params.timeHorizon', params.timeHorizon);
  const tho = params.obstacleTimeHorizon === undefined ? c.obstacleTimeHorizon[eid] : requirePositive('params.obstacleTimeHorizon', params.obstacleTimeHorizon);
  const pr = params.priority === undefined ? c.priority[eid] : requireNonNegativeOrInfinity('params.priority', params.priority);
  const yi = params.yieldWhenIdle;
  if (yi !== undefined && typeof yi !== 'boolean') throw new InvalidArgumentError('params.yieldWhenIdle', yi, 'must be a boolean');
  c.neighbourDistance[eid] = nd;
  c.maxNeighbours[eid] = mn;
  c.timeHorizon[eid] = th;
  c.obstacleTimeHorizon[eid] = tho;
  c.priority[eid] = pr;
  if (yi !== undefined) c.yieldWhenIdle[eid] = yi ? 1 : 0;
}

/** Turn ORCA on for an agent, optionally setting its parameters. */
export function enableOrca(world: CrowdWorld, eid: number, params: OrcaParams = {}): void {
  setOrcaParams(world, eid, params);
  orcaComponent(world).enabled[eid] = 1;
}

/** Turn ORCA off for an agent (its desired velocity is then its preferred velocity). */
export function disableOrca(world: CrowdWorld, eid: number): void {
  requireAgent(world, eid);
  orcaComponent(world).enabled[eid] = 0;
}

/**
 * Add a static obstacle: a polygon (`closed: true`, the default; either winding) or an open polyline (a wall seen
 * from both sides), as [x, y] points in metres. Returns the obstacle's index. Throws DegenerateGeometryError for
 * too few distinct points, zero area or a self-intersecting polygon. Obstacles are for level loading: adding one
 * marks the obstacle grid for a rebuild at the next step.
 */
export function addObstacle(world: CrowdWorld, points: ReadonlyArray<readonly [number, number]>, options: ObstacleOptions = {}): number {
  return addObstacleToSet(orcaState(world).obstacles, points, options);
}

/**
 * Remove every static obstacle of the world (a level change, or walls rebuilt after a map edit: clear, then add the
 * new ones). The ORCA and contacts systems notice at their next run.
 */
export function clearObstacles(world: CrowdWorld): void {
  clearObstacleSet(orcaState(world).obstacles);
}

/** The world's obstacle set (read-only use: drawing, queries). */
export function getObstacles(world: CrowdWorld): ObstacleSet {
  return orcaState(world).obstacles;
}

/**
 * Set world-wide ORCA options: `symmetryBreaking` in m/s (>= 0; 0 disables the nudge), `fallback` ('noOverlap' or
 * 'paper'), `neighbourSearch` ('auto', 'single', 'batch' or 'batch-full'). Validated first, then applied together.
 */
export function setOrcaOptions(
  world: CrowdWorld,
  options: { symmetryBreaking?: number; fallback?: 'noOverlap' | 'paper'; neighbourSearch?: OrcaNeighbourSearch },
): void {
  if (options === null || typeof options !== 'object') throw new InvalidArgumentError('options', options, 'must be an object');
  const st = orcaState(world);
  const sb = options.symmetryBreaking === undefined ? st.symmetryBreaking : requireNonNegative('options.symmetryBreaking', options.symmetryBreaking);
  const fb = options.fallback ?? st.fallback;
  if (fb !== 'noOverlap' && fb !== 'paper') throw new InvalidArgumentError('options.fallback', fb, "must be 'noOverlap' or 'paper'");
  const ns = options.neighbourSearch ?? st.neighbourSearch ?? 'auto';
  if (ns !== 'auto' && ns !== 'single' && ns !== 'batch' && ns !== 'batch-full') {
    throw new InvalidArgumentError('options.neighbourSearch', ns, "must be 'auto', 'single', 'batch' or 'batch-full'");
  }
  st.symmetryBreaking = sb;
  st.fallback = fb;
  st.neighbourSearch = ns;
}
