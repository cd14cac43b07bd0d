import type { CrowdWorld } from '../src/world/crowd';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';
import { queryKNearestAt, queryKNearestBatch } from '../src/spatial/hash';
import { hashHoldsLiveAgents } from './spatial-hash';
import { rngFloat } from '../src/core/rng';
import { ORCA_FEASIBLE, ORCA_NO_OVERLAP, ORCA_PAPER, createOrcaAgent, createOrcaNeighbours, orcaVelocityUnchecked } from '../src/avoidance/orca';
import { obstacleDistanceLowerBoundAt, queryObstacleSegmentsAt, type ObstacleSet } from '../src/avoidance/obstacles';
import { orcaComponent, orcaState, ORCA_MAX_NEIGHBOURS } from '../components/orca';
import { ORDER_IDLE, orderLevelAt, orderStores, sameSpotAt } from '../src/world/orders';
import { LOD_ORCA, lodComponent } from '../components/lod';

// Scratch owned by the ORCA system (module scope, grown only when the agent count or obstacle count grows).
const _orcaAgent = createOrcaAgent();
const _orcaNb = createOrcaNeighbours(ORCA_MAX_NEIGHBOURS);
const _orcaKnnIds = new Int32Array(ORCA_MAX_NEIGHBOURS);
const _orcaKnnDist2 = new Float64Array(ORCA_MAX_NEIGHBOURS);
// A class instance, not an `{ x, y }` literal: literals of that shape share one hidden-class chain across the whole
// program, and once any of them stores a non-double the fields turn tagged, so every double stored into them is
// boxed. This class's fields only ever hold doubles.
class OrcaVelocityOut {
  x = 0;
  y = 0;
}
const _orcaOut = new OrcaVelocityOut();
// Query point and radius for queryKNearestAt: a fractional double passed to a call V8 does not inline is boxed into
// a fresh HeapNumber; passed in a Float64Array it is not.
const _orcaQX = new Float64Array(1);
const _orcaQY = new Float64Array(1);
const _orcaQR = new Float64Array(1);
const _orcaSegQuery = new Float64Array(3);
let _orcaObsIds = new Int32Array(64);
let _orcaObsDist2 = new Float64Array(64);
/**
 * Per-entity guess of the neighbour search radius: last step's distance to the k-th neighbour plus the distance
 * two agents can close in one step. The k nearest within the guess are the k nearest overall whenever k are
 * found (everything else is farther than the guess); otherwise the search is repeated with the full neighbour
 * distance. So the guess only affects speed, never the result. (A smaller disc visits fewer hash cells: 2026-11-29,
 * 10k-agent circle swap, about 2x fewer candidates.)
 */
let _orcaKthGuess = new Float64Array(0);
/** Per-entity new velocities (compute pass) and whether one was computed this step. */
let _orcaNewVx = new Float64Array(0);
let _orcaNewVy = new Float64Array(0);
let _orcaDone = new Uint8Array(0);
/**
 * Per-entity packed data, one 64-byte record (a cache line) per entity: x, y, vx, vy, radius (negated when the agent
 * runs ORCA this step without an order, src/world/orders.ts: it yields; radii are > 0, so the sign is free and its
 * flip exact), priority (-1 if the agent does not run ORCA this step), and the symmetry-breaking nudge (x, y) drawn
 * in the pack pass. A neighbour's data is then one cache line instead of eight scattered array reads. (2026-11-30,
 * side by side with the code before the yield rule on the 10k circle swap: with the nudge in an array of its own,
 * read in hash-slot order, the ORCA system took ~4 % more time; with it here, ~2.5 %, most of it the order levels of
 * the pack pass.)
 */
const PACK = 8;
let _orcaPack = new Float64Array(0);
/**
 * Clearance an idle agent keeps from where a moving neighbour wants to go, in units of its own radius: it avoids the
 * neighbour's intended motion with their combined radius plus this. Without it the idle agent stops exactly where the
 * mover's straight line grazes it, and a mover touching it (for which ORCA's obstacle is then nearly a half-plane)
 * still cannot move: a mover squeezed between a wall and an idle agent stayed so for good (den312d, 2026-11-30). With
 * it, a touching idle agent is moved off by the clearance within a step and a gap opens.
 */
const YIELD_CLEARANCE = 0.25;
/**
 * Batch neighbour pre-pass output, by hash slot (stride: the k orcaBatchNeighbours returns): the k nearest within one
 * shared radius for every slot of the compute range, from the dense batch kernel (queryKNearestBatch).
 */
let _orcaBatchIds = new Int32Array(0);
let _orcaBatchD2 = new Float64Array(0);
let _orcaBatchCounts = new Int32Array(0);
/**
 * Neighbour paths. All three give the same neighbour lists; which is fastest depends on the crowd:
 * - PATH_SINGLE: every agent runs its own queries (guessed radius, then full distance if needed);
 * - PATH_BATCH_COVER: the batch pre-pass at the radius covering BATCH_COVER of last step's k-th distances; agents it
 *   does not answer run their own queries;
 * - PATH_BATCH_FULL: the batch pre-pass at the largest neighbour distance, which answers every agent (prefix rule,
 *   see orcaCompute).
 * Measured 2026-11-29, ORCA system ms per step: 10k circle swap (10 neighbours within 15 m, ~45 candidates per
 * query) single 9.1, cover 6.7 (full declines to single queries at 15 m); 25k horde (6 within 3 m, ~17
 * candidates) single 11.5, cover 12.8, full 10.6. So the system picks by measurement, per world: it runs the path
 * it believes fastest and now and then times another one once (after BATCH_PROBE_FIRST steps, the interval doubling
 * while the choice holds), then keeps the one with the lowest cost per agent (system time / agents, smoothed; pack
 * and apply cost the same on every path). Only the speed depends on the choice, never the result.
 */
const PATH_SINGLE = 0, PATH_BATCH_COVER = 1, PATH_BATCH_FULL = 2, PATHS = 3;
interface BatchTuner {
  /** Smoothed ms per ORCA agent of each path; -1 until measured. */
  cost: Float64Array;
  /** Path in use. */
  mode: number;
  /** Steps since the last probe, and steps between probes now. */
  sinceProbe: number;
  period: number;
  /** Which of the two other paths the next probe times (0 or 1). */
  flip: number;
}
const _batchTuners = new WeakMap<CrowdWorld, BatchTuner>();
/**
 * Steps between two timings of a path not in use: BATCH_PROBE_FIRST after a switch, doubled each time a probe
 * confirms the path in use, up to BATCH_PROBE_MAX. A probe costs more than its path's steady cost (the first calls of
 * a path after a long pause run less optimised code: 15-25 ms against 11 ms in the 25k horde), so a settled
 * choice is re-checked rarely.
 */
const BATCH_PROBE_FIRST = 16;
const BATCH_PROBE_MAX = 1024;
/** Weight of a new timing in the smoothed cost of the path in use. */
const BATCH_COST_SMOOTHING = 0.2;

function batchTuner(world: CrowdWorld): BatchTuner {
  let t = _batchTuners.get(world);
  if (t === undefined) {
    t = { cost: new Float64Array(PATHS).fill(-1), mode: PATH_BATCH_COVER, sinceProbe: 0, period: BATCH_PROBE_FIRST, flip: 0 };
    _batchTuners.set(world, t);
  }
  return t;
}

/** Whether the last orcaCompute call ran the batch pre-pass (1) or not (0). */
let _orcaBatchRan = 0;
/** The last step's cost per agent, passed in an array (a double argument to a call V8 does not inline is boxed). */
const _tunerTime = new Float64Array(1);

function tunerUpdate(tuner: BatchTuner, path: number, probing: boolean, time: Float64Array): void {
  const c = time[0], cost = tuner.cost;
  cost[path] = probing || cost[path] < 0 ? c : cost[path] + BATCH_COST_SMOOTHING * (c - cost[path]);
  if (!probing) return;
  let mode = tuner.mode;
  for (let q = 0; q < PATHS; q++) if (cost[q] >= 0 && cost[q] < cost[mode]) mode = q;
  tuner.period = mode === tuner.mode ? Math.min(2 * tuner.period, BATCH_PROBE_MAX) : BATCH_PROBE_FIRST;
  tuner.mode = mode;
}

/** The batch radius of the last pre-pass. */
const _orcaBatchR = new Float64Array(1);
/** Histogram of the agents' guessed search radii, for the batch radius (see orcaBatchNeighbours). */
const GUESS_BINS = 32;
const _orcaGuessHist = new Int32Array(GUESS_BINS);
/**
 * Fraction of the active agents whose last k-th neighbour distance the batch radius should cover. The batch cost
 * grows with R², the agents it misses pay their own queries: 0.9 measured best among 0.5-0.95 on the 10k circle
 * swap (2026-11-29), and histogramming last step's k-th distance measured better than the guess with its motion
 * slack (the batch radius needs no slack: a miss only costs time).
 */
const BATCH_COVER = 0.9;

/**
 * Per world, beside it (a pure cache: every result is the same without it, so snapshots do not carry it): for each
 * entity, a lower bound `low` of the distance from (bx, by) to every obstacle segment, taken against the obstacle set
 * `set` at its `version` (bumped by every add and clear; the bounds are reset when it changes). The distance to the
 * segments is 1-Lipschitz, so an agent at p with reach R (its max(obstacleTimeHorizon, dt) · maxSpeed + radius) has no
 * segment within R while low − |p − (bx, by)| > R: its segment query
 * is skipped (the agents in open ground, most frames). A bound is taken, over reach + OBSTACLE_BOUND_PAD, when a
 * query finds nothing and the agent has moved OBSTACLE_RESCAN from where the last one was taken.
 */
interface ObstacleBounds {
  low: Float64Array;
  bx: Float64Array;
  by: Float64Array;
  set: ObstacleSet | null;
  version: number;
  skipped: number;
}
const _obstacleBounds = new WeakMap<CrowdWorld, ObstacleBounds>();
/** Extra scan radius of a bound beyond the agent's reach (m): a bound then lasts until the agent has moved that far. */
const OBSTACLE_BOUND_PAD = 2;
/** Distance (m) an agent must move from its last bound before a query that found nothing takes a new one. */
const OBSTACLE_RESCAN = 0.5;

/**
 * Forget the ORCA system's obstacle-distance bounds (they are rebuilt as agents query). Results do not change: for
 * tests of that claim.
 * @internal not part of the public API (not exported from src/index.ts)
 */
export function dropOrcaObstacleBounds(world: CrowdWorld): void {
  _obstacleBounds.delete(world);
}

function obstacleBounds(world: CrowdWorld, set: ObstacleSet): ObstacleBounds {
  let b = _obstacleBounds.get(world);
  const n = world.capacity + 1;
  if (b === undefined || b.low.length < n) {
    b = { low: new Float64Array(n).fill(-Infinity), bx: new Float64Array(n), by: new Float64Array(n), set, version: set.version, skipped: 0 };
    _obstacleBounds.set(world, b);
  }
  if (b.set !== set || b.version !== set.version) {
    b.low.fill(-Infinity);
    b.set = set; b.version = set.version;
  }
  return b;
}

/**
 * The obstacle segments within reach of agent eid at (q[0], q[1]), reach q[2] (read from the array: doubles passed to
 * a call that is not inlined are boxed), into obsIds/obsDist2; returns their number. Skips the query when the agent's
 * bound proves there are none (see ObstacleBounds); exactly the same result either way.
 */
function obstacleNeighbours(set: ObstacleSet, b: ObstacleBounds, eid: number, q: Float64Array, obsIds: Int32Array, obsDist2: Float64Array): number {
  const x = q[0], y = q[1], reach = q[2];
  const mx = x - b.bx[eid], my = y - b.by[eid], m2 = mx * mx + my * my;
  // round-off slack of the distances compared (relative to the coordinates' size)
  const free = b.low[eid] - reach - (1e-9 + 1e-12 * ((x < 0 ? -x : x) + (y < 0 ? -y : y) + reach));
  if (free > 0 && m2 < free * free) { b.skipped++; return 0; }
  const n = queryObstacleSegmentsAt(set, q, obsIds, obsDist2);
  if (n === 0 && (!(b.low[eid] >= 0) || m2 >= OBSTACLE_RESCAN * OBSTACLE_RESCAN)) {
    q[2] = reach + OBSTACLE_BOUND_PAD;
    b.low[eid] = obstacleDistanceLowerBoundAt(set, q);
    b.bx[eid] = x; b.by[eid] = y;
    q[2] = reach;
  }
  return n;
}

function ensureScratch(capacity: number): void {
  if (_orcaNewVx.length < capacity + 1) {
    _orcaNewVx = new Float64Array(capacity + 1);
    _orcaNewVy = new Float64Array(capacity + 1);
    _orcaDone = new Uint8Array(capacity + 1);
    _orcaKthGuess = new Float64Array(capacity + 1);
    _orcaPack = new Float64Array((capacity + 1) * PACK);
    _orcaBatchCounts = new Int32Array(capacity + 1);
  }
}

/**
 * ORCA system: for every agent with ORCA enabled (and the LOD_ORCA flag this frame), the new collision-free velocity
 * from the ORCA kernel (van den Berg et al. 2011), written to world.desiredVelocity; integration then steers the
 * velocity toward it.
 *
 * Per agent: neighbours are the maxNeighbours nearest agents within neighbourDistance whose layer is in the agent's
 * mask (world.hash, queryKNearest; nearest first, ties by id); obstacle segments come from the static obstacle grid
 * within max(obstacleTimeHorizon, dt) * maxSpeed + radius. The preferred velocity is world.desiredVelocity as left by the
 * earlier passes, nudged by the symmetry-breaking perturbation (orcaState(world).symmetryBreaking).
 *
 * Reciprocity: a neighbour that itself runs ORCA this frame shares the avoidance by priority (orcaShare); one that
 * does not (ORCA disabled, or skipped by LOD) is a moving obstacle and this agent takes all of it.
 *
 * Passes: pack (dense order: every agent's data into one cache line, and the symmetry-breaking draws), compute (in
 * the spatial hash's slot order, so consecutive agents query the same cells and read neighbouring records), apply. Compute-then-apply: every new velocity is computed from the state at the start of the pass, so the
 * result does not depend on the iteration order (as RVO2's doStep).
 */
export function orcaSystem(world: CrowdWorld, dt: number): void {
  const t0 = nowMs();
  ensureScratch(world.capacity);
  orcaPack(world);
  // Slot order when the hash holds exactly the live agents (rebuilt this step, no spawn or despawn since), else dense order.
  const hash = world.hash;
  const useSlots = hashHoldsLiveAgents(world);
  const ids = useSlots ? hash.sortedIds : world.agents.dense;
  const n = world.agents.count;
  // Neighbour path for this step (see BatchTuner): the one measured faster, or the other one as a probe.
  const tuner = batchTuner(world);
  // A search pinned by setOrcaOptions({ neighbourSearch }) runs as is; 'auto' measures.
  const ns = orcaState(world).neighbourSearch;
  const pinned = ns === 'single' ? PATH_SINGLE : ns === 'batch' ? PATH_BATCH_COVER : ns === 'batch-full' ? PATH_BATCH_FULL : -1;
  let path = pinned >= 0 ? pinned : tuner.mode;
  const probing = pinned < 0 && ++tuner.sinceProbe >= tuner.period;
  if (probing) {
    tuner.sinceProbe = 0;
    path = (path + 1 + tuner.flip) % PATHS;
    tuner.flip ^= 1;
  }
  orcaCompute(world, ids, 0, n, dt, path === PATH_SINGLE ? 0 : path === PATH_BATCH_COVER ? 1 : 2);
  orcaApply(world, ids, 0, n);
  // Cost per agent of the path this step ran (when the batch was declined, the single path ran: not its measure).
  if (pinned < 0 && n > 0 && (path === PATH_SINGLE || _orcaBatchRan === 1)) {
    _tunerTime[0] = (nowMs() - t0) / n;
    tunerUpdate(tuner, path, probing, _tunerTime);
  }
  profileRecord(world.profiler, 'orca', t0);
}

/** Pack pass: per-entity records for neighbour reads (see _orcaPack). */
export function orcaPack(world: CrowdWorld): void {
  ensureScratch(world.capacity);
  const C = orcaComponent(world);
  const eps = orcaState(world).symmetryBreaking;
  const rng = world.rng;
  const pvx = world.desiredVelocity.x, pvy = world.desiredVelocity.y;
  const lodFlags = lodComponent(world).flags;
  const dense = world.agents.dense, n = world.agents.count;
  const px = world.position.x, py = world.position.y, vx = world.velocity.x, vy = world.velocity.y;
  const radius = world.agent.radius, enabled = C.enabled, prio = C.priority;
  const pack = _orcaPack;
  const stores = orderStores(world);
  for (let i = 0; i < n; i++) {
    const eid = dense[i];
    const o = eid * PACK;
    pack[o] = px[eid];
    pack[o + 1] = py[eid];
    pack[o + 2] = vx[eid];
    pack[o + 3] = vy[eid];
    const active = enabled[eid] !== 0 && (lodFlags[eid] & LOD_ORCA) !== 0;
    // (the order level only for agents that run ORCA: an inactive neighbour is a moving obstacle whatever it is)
    pack[o + 4] = active && orderLevelAt(stores, eid) === ORDER_IDLE ? -radius[eid] : radius[eid];
    pack[o + 5] = active ? prio[eid] : -1;
    // Symmetry breaking: drawn here, in dense order, so the draws do not depend on the compute order.
    if (active && eps > 0 && (pvx[eid] !== 0 || pvy[eid] !== 0)) {
      pack[o + 6] = eps * (2 * rngFloat(rng) - 1);
      pack[o + 7] = eps * (2 * rngFloat(rng) - 1);
    } else {
      pack[o + 6] = 0;
      pack[o + 7] = 0;
    }
  }
}

/**
 * Compute pass over ids[start .. start + count) (entity ids: the hash's sortedIds or the dense list; disjoint ranges
 * write disjoint outputs, so ranges can be split across workers). Needs orcaPack first. `path` selects the
 * neighbour search: 0 single queries, 1 the batch pre-pass at a covering radius, 2 at the full neighbour distance
 * (orcaBatchNeighbours; same neighbours on every path, only the speed differs). Writes new velocities to the
 * system's per-entity scratch; orcaApply stores them.
 */
export function orcaCompute(world: CrowdWorld, ids: Int32Array, start: number, count: number, dt: number, path: 0 | 1 | 2 = 1): void {
  ensureScratch(world.capacity);
  const C = orcaComponent(world);
  const st = orcaState(world);
  const lodFlags = lodComponent(world).flags;
  const kthGuess = _orcaKthGuess;
  const obstacles = st.obstacles;
  const hasObstacles = obstacles.vertexCount > 0;
  const bounds = hasObstacles ? obstacleBounds(world, obstacles) : null;
  if (bounds !== null) bounds.skipped = 0; // this call's count, for the profiler
  if (_orcaObsIds.length < obstacles.vertexCount) {
    _orcaObsIds = new Int32Array(obstacles.vertexCount);
    _orcaObsDist2 = new Float64Array(obstacles.vertexCount);
  }
  const obsIds = _orcaObsIds, obsDist2 = _orcaObsDist2;
  const mode = st.fallback === 'paper' ? ORCA_PAPER : ORCA_NO_OVERLAP;

  const hash = world.hash;
  const dvx = world.desiredVelocity.x, dvy = world.desiredVelocity.y;
  const maxSpeed = world.agent.maxSpeed;
  const layer = world.agent.layer, mask = world.agent.mask;
  const enabled = C.enabled, nDist = C.neighbourDistance, maxN = C.maxNeighbours;
  const tau = C.timeHorizon, tauO = C.obstacleTimeHorizon, prio = C.priority;
  const agent = _orcaAgent, nb = _orcaNb, out = _orcaOut;
  const nbX = nb.x, nbY = nb.y, nbVx = nb.vx, nbVy = nb.vy, nbR = nb.radius, nbS = nb.share, nbId = nb.id;
  const knnIds = _orcaKnnIds, knnD2 = _orcaKnnDist2;
  const newVx = _orcaNewVx, newVy = _orcaNewVy, done = _orcaDone;
  const pack = _orcaPack, stores = orderStores(world), radius = world.agent.radius;

  const batchK = path !== 0 ? orcaBatchNeighbours(world, ids, start, count, path === 2) : 0;
  const batchR = batchK > 0 ? _orcaBatchR[0] : 0;
  const bIds = _orcaBatchIds, bD2 = _orcaBatchD2, bCounts = _orcaBatchCounts;
  let agents = 0, neighbours = 0, segments = 0, fallbacks = 0, fullQueries = 0, batchHits = 0, yieldPairs = 0;
  for (let i = start, end = start + count; i < end; i++) {
    const eid = ids[i];
    if (enabled[eid] === 0 || (lodFlags[eid] & LOD_ORCA) === 0) {
      done[eid] = 0;
      continue;
    }
    agents++;
    const o = eid * PACK;
    const x = pack[o], y = pack[o + 1];
    const rs = pack[o + 4], myIdle = rs < 0, r = myIdle ? -rs : rs, vmax = maxSpeed[eid];
    const prefX = dvx[eid] + pack[o + 6], prefY = dvy[eid] + pack[o + 7];
    agent.x = x;
    agent.y = y;
    agent.vx = pack[o + 2];
    agent.vy = pack[o + 3];
    agent.prefVx = prefX;
    agent.prefVy = prefY;
    agent.radius = r;
    agent.maxSpeed = vmax;
    agent.timeHorizon = tau[eid];
    agent.obstacleTimeHorizon = tauO[eid];
    agent.id = eid;

    // Neighbour agents: k nearest within the neighbour distance, filtered by layer & mask; first within the
    // guessed radius (see _orcaKthGuess), again within the full distance if that found fewer than k.
    const rMax = nDist[eid], kMax = maxN[eid], m = mask[eid];
    let n = 0;
    let nbIds = knnIds, nbOff = 0;
    // The batch list (the batchK nearest within batchR, sorted as the single query sorts): let p be the length of
    // its prefix within rMax, at most kMax. If p = kMax, those are the kMax nearest within rMax (found within both
    // radii). If p < kMax and batchR >= rMax, the list holds every agent within rMax (one within rMax that is not
    // listed would be nearer than entry p, which lies beyond rMax, or the list would not be full): the answer is the
    // prefix. Otherwise the agent runs its own queries.
    let p = -1;
    if (batchK > 0) {
      const c = bCounts[i], off = i * batchK, rMax2 = rMax * rMax;
      p = 0;
      while (p < c && p < kMax && bD2[off + p] <= rMax2) p++;
      if (p < kMax && batchR < rMax) p = -1;
    }
    if (p >= 0) {
      n = p;
      nbIds = bIds;
      nbOff = i * batchK;
      kthGuess[eid] = n === kMax && n > 0 ? Math.sqrt(bD2[nbOff + n - 1]) : rMax;
      batchHits++;
    } else {
      const guess = kthGuess[eid] + 2 * vmax * dt;
      _orcaQX[0] = x;
      _orcaQY[0] = y;
      _orcaQR[0] = guess;
      if (guess > 0 && guess < rMax) n = queryKNearestAt(hash, _orcaQX, _orcaQY, 0, _orcaQR, 0, kMax, eid, knnIds, knnD2, layer, m);
      if (n < kMax) {
        n = queryKNearestAt(hash, _orcaQX, _orcaQY, 0, nDist, eid, kMax, eid, knnIds, knnD2, layer, m);
        fullQueries++;
      }
      kthGuess[eid] = n === kMax && n > 0 ? Math.sqrt(knnD2[n - 1]) : rMax;
    }
    const myP = prio[eid];
    for (let k = 0; k < n; k++) {
      const j = nbIds[nbOff + k];
      const q = j * PACK;
      nbX[k] = pack[q];
      nbY[k] = pack[q + 1];
      const pj = pack[q + 5], rj = pack[q + 4], jIdle = rj < 0;
      nbR[k] = jIdle ? -rj : rj;
      nbId[k] = j;
      nbVx[k] = pack[q + 2];
      nbVy[k] = pack[q + 3];
      if (pj >= 0 && jIdle !== myIdle && !sameSpotAt(stores, radius, eid, j)) {
        // Idle agents yield (docs/ORCA.md): exactly one of the two has an order. Shares of one velocity obstacle
        // cannot do it: ORCA builds the obstacle from current velocities, so a mover stalled against an idle unit
        // (both at rest, touching) gets u = 0 and both half-planes pass through their current velocities, at any
        // split: neither moves again (the den312d walkers stuck for good). So each takes the whole avoidance of its
        // own obstacle: the idle agent avoids where the mover wants to go (its preferred velocity, still in
        // desiredVelocity until orcaApply: it steps aside, or runs ahead of it down a corridor), the mover avoids the
        // idle one as it actually moves (it follows a unit being shoved ahead instead of running into it, and stops
        // at one that cannot get away). Where the mover wants to go counts only at close range, blended in from its
        // current velocity as the gap closes from 2c to c: a mover stalled against a wall, whose preferred velocity
        // points through it, otherwise kept idle agents out of a lane maxSpeed·timeHorizon long behind the wall.
        yieldPairs++;
        nbS[k] = 1;
        if (myIdle) {
          const c = YIELD_CLEARANCE * r, rr = nbR[k] + r;
          const ex = nbX[k] - x, ey = nbY[k] - y, gap = Math.sqrt(ex * ex + ey * ey) - rr;
          const wgt = gap <= c ? 1 : gap >= 2 * c ? 0 : (2 * c - gap) / c;
          const cvx = nbVx[k], cvy = nbVy[k];
          nbVx[k] = cvx + wgt * (dvx[j] - cvx); nbVy[k] = cvy + wgt * (dvy[j] - cvy);
          nbR[k] += c;
        }
        continue;
      }
      // A neighbour that avoids too shares by priority; one that does not is a moving obstacle (take it all).
      // orcaShare(myP, pj) (src/avoidance/orca), written out: V8 does not always inline it here, and a call boxes
      // both double arguments, per neighbour.
      nbS[k] = pj < 0 ? 1 : myP === pj ? 0.5 : pj === Infinity ? 1 : myP === Infinity ? 0 : pj / (myP + pj);
    }
    nb.count = n;
    neighbours += n;

    // Obstacle segments within reach this horizon: max(tau_obstacle, dt) * maxSpeed + radius (the kernel looks
    // ahead at least one step: a segment a step's travel away matters even when tau_obstacle is shorter).
    let nObs = 0;
    if (hasObstacles) {
      _orcaSegQuery[0] = x;
      _orcaSegQuery[1] = y;
      // Math.max, not a ternary: a phi of this double and the (tagged) parameter dt boxed one HeapNumber per agent.
      _orcaSegQuery[2] = Math.max(tauO[eid], dt) * vmax + r;
      nObs = obstacleNeighbours(obstacles, bounds!, eid, _orcaSegQuery, obsIds, obsDist2);
      segments += nObs;
    }
    if (orcaVelocityUnchecked(agent, nb, obstacles, obsIds, nObs, dt, out, mode) !== ORCA_FEASIBLE) fallbacks++;
    newVx[eid] = out.x;
    newVy[eid] = out.y;
    done[eid] = 1;
  }
  _orcaBatchRan = batchK > 0 ? 1 : 0;
  const p = world.profiler;
  profileCount(p, 'orca', 'agents', agents);
  profileCount(p, 'orca', 'neighbours', neighbours);
  profileCount(p, 'orca', 'obstacleSegments', segments);
  profileCount(p, 'orca', 'fallbacks', fallbacks);
  profileCount(p, 'orca', 'yieldPairs', yieldPairs);
  profileCount(p, 'orca', 'fullRadiusQueries', fullQueries);
  profileCount(p, 'orca', 'batchNeighbourLists', batchHits);
  profileCount(p, 'orca', 'obstacleQueriesSkipped', bounds === null ? 0 : bounds.skipped);
}

/**
 * Batch neighbour pre-pass for the compute range, when it runs in hash slot order (ids is hash.sortedIds) and at least
 * half of the range's agents (and 64) run ORCA, all with one layer mask: the k nearest within one radius R for every
 * slot, by the dense batch kernel (queryKNearestBatch: a dense grid copy, branch-free candidate keys, sorting
 * networks; about 180 ns per query on the 10k circle swap against about 440 ns for the single-query search). k is
 * the largest maxNeighbours of the range. R: with `full`, the largest neighbour distance (every agent is answered,
 * see the prefix rule in orcaCompute); otherwise the smallest radius that covers BATCH_COVER of the last k-th
 * neighbour distances of the agents that found their k (_orcaKthGuess), read off a histogram, at most the smallest
 * neighbour distance (declined when fewer than half found their k). Returns the stride k of the batch output, or 0
 * when the batch did not run (its radius is left in _orcaBatchR).
 */
function orcaBatchNeighbours(world: CrowdWorld, ids: Int32Array, start: number, count: number, full: boolean): number {
  const hash = world.hash;
  if (ids !== hash.sortedIds || count < 64) return 0;
  const C = orcaComponent(world);
  const lodFlags = lodComponent(world).flags;
  const enabled = C.enabled, nDist = C.neighbourDistance, maxN = C.maxNeighbours;
  const mask = world.agent.mask;
  const kthGuess = _orcaKthGuess;
  const end = start + count;
  let active = 0, k = 0, rMin = Infinity, rMaxAll = 0, m0 = 0;
  for (let i = start; i < end; i++) {
    const eid = ids[i];
    if (enabled[eid] === 0 || (lodFlags[eid] & LOD_ORCA) === 0) continue;
    if (active === 0) m0 = mask[eid];
    else if (mask[eid] !== m0) return 0;
    active++;
    if (maxN[eid] > k) k = maxN[eid];
    if (nDist[eid] < rMin) rMin = nDist[eid];
    if (nDist[eid] > rMaxAll) rMaxAll = nDist[eid];
  }
  if (2 * active < count || k === 0 || !(rMin > 0)) return 0;
  let R = rMaxAll;
  if (!full) {
    // Histogram over [0, rMin) of last step's k-th distances of the agents that found their k (the others found
    // fewer than k within their neighbour distance and will most likely again: they run their own full query).
    const hist = _orcaGuessHist;
    hist.fill(0);
    const binScale = GUESS_BINS / rMin;
    let found = 0;
    for (let i = start; i < end; i++) {
      const eid = ids[i];
      if (enabled[eid] === 0 || (lodFlags[eid] & LOD_ORCA) === 0) continue;
      const g = kthGuess[eid];
      if (!(g < nDist[eid])) continue;
      found++;
      const b = g * binScale;
      hist[b < GUESS_BINS - 1 ? b | 0 : GUESS_BINS - 1]++;
    }
    if (2 * found < count) return 0;
    const want = Math.ceil(BATCH_COVER * found);
    let acc = 0, bin = 0;
    while (bin < GUESS_BINS - 1 && (acc += hist[bin]) < want) bin++;
    R = bin === GUESS_BINS - 1 ? rMin : (bin + 1) / binScale;
  }
  const size = hash.count * k;
  if (_orcaBatchIds.length < size) {
    _orcaBatchIds = new Int32Array(size);
    _orcaBatchD2 = new Float64Array(size);
  }
  if (_orcaBatchCounts.length < hash.count) _orcaBatchCounts = new Int32Array(hash.count);
  queryKNearestBatch(hash, start, count, R, k, _orcaBatchIds, _orcaBatchD2, _orcaBatchCounts, world.agent.layer, m0, 'slot');
  _orcaBatchR[0] = R;
  return k;
}

/** Apply pass over ids[start .. start + count): store the computed velocities as desired velocities. */
export function orcaApply(world: CrowdWorld, ids: Int32Array, start: number, count: number): void {
  const dvx = world.desiredVelocity.x, dvy = world.desiredVelocity.y;
  const newVx = _orcaNewVx, newVy = _orcaNewVy, done = _orcaDone;
  for (let i = start, end = start + count; i < end; i++) {
    const eid = ids[i];
    if (done[eid] === 0) continue;
    dvx[eid] = newVx[eid];
    dvy[eid] = newVy[eid];
  }
}
