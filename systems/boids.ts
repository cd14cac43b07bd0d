import type { CrowdWorld } from '../src/world/crowd';
import { InvalidArgumentError } from '../src/core/errors';
import { requireInteger, requireNonNegative, requirePositive } from '../src/core/validate';
import { requireAgent } from '../src/world/agents';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';
import { queryKNearestAt, queryKNearestBatchSlots, queryRadiusAt } from '../src/spatial/hash';
import { hashHoldsLiveAgents } from './spatial-hash';
import { boidsAccelerationAt } from '../src/boids/boids';
import { boidsTopologicalSorted, type BoidsBatchNeighbours } from '../src/boids/fused';
import { boidsComponent, BOIDS_MAX_NEIGHBOURS, BOIDS_METRIC, BOIDS_TOPOLOGICAL, type BoidsStore } from '../components/boids';
import { lodComponent, LOD_BOIDS } from '../components/lod';
import { steeringComponent } from '../components/steering';

/** Options of setBoids; only given fields change. */
export interface BoidsConfig {
  enabled?: boolean;
  /** 'metric' (everyone within radius) or 'topological' (k nearest). */
  mode?: 'metric' | 'topological';
  radius?: number;
  k?: number;
  separation?: number;
  alignment?: number;
  cohesion?: number;
  minSpeed?: number;
  inertial?: boolean;
  horizon?: number;
}

/** Configure an agent's flocking. Validates everything first (typed errors naming the field), then applies. */
export function setBoids(world: CrowdWorld, eid: number, cfg: BoidsConfig): void {
  requireAgent(world, eid);
  if (cfg === null || typeof cfg !== 'object') throw new InvalidArgumentError('cfg', cfg, 'must be an object');
  if (cfg.mode !== undefined && cfg.mode !== 'metric' && cfg.mode !== 'topological') throw new InvalidArgumentError('cfg.mode', cfg.mode, "must be 'metric' or 'topological'");
  if (cfg.radius !== undefined) requirePositive('cfg.radius', cfg.radius);
  if (cfg.k !== undefined) requireInteger('cfg.k', cfg.k, 1, BOIDS_MAX_NEIGHBOURS);
  if (cfg.separation !== undefined) requireNonNegative('cfg.separation', cfg.separation);
  if (cfg.alignment !== undefined) requireNonNegative('cfg.alignment', cfg.alignment);
  if (cfg.cohesion !== undefined) requireNonNegative('cfg.cohesion', cfg.cohesion);
  if (cfg.minSpeed !== undefined) requireNonNegative('cfg.minSpeed', cfg.minSpeed);
  if (cfg.horizon !== undefined) requireNonNegative('cfg.horizon', cfg.horizon);
  if (cfg.enabled !== undefined && typeof cfg.enabled !== 'boolean') throw new InvalidArgumentError('cfg.enabled', cfg.enabled, 'must be a boolean');
  if (cfg.inertial !== undefined && typeof cfg.inertial !== 'boolean') throw new InvalidArgumentError('cfg.inertial', cfg.inertial, 'must be a boolean');
  const b = boidsComponent(world);
  b.enabled[eid] = cfg.enabled === undefined ? 1 : cfg.enabled ? 1 : 0;
  if (cfg.mode !== undefined) b.mode[eid] = cfg.mode === 'metric' ? BOIDS_METRIC : BOIDS_TOPOLOGICAL;
  if (cfg.radius !== undefined) b.radius[eid] = cfg.radius;
  if (cfg.k !== undefined) b.k[eid] = cfg.k;
  if (cfg.separation !== undefined) b.wSep[eid] = cfg.separation;
  if (cfg.alignment !== undefined) b.wAli[eid] = cfg.alignment;
  if (cfg.cohesion !== undefined) b.wCoh[eid] = cfg.cohesion;
  if (cfg.minSpeed !== undefined) b.minSpeed[eid] = cfg.minSpeed;
  if (cfg.inertial !== undefined) b.inertial[eid] = cfg.inertial ? 1 : 0;
  if (cfg.horizon !== undefined) b.horizon[eid] = cfg.horizon;
}

// Scratch owned by the boids system.
const _boidsNbr = new Int32Array(BOIDS_MAX_NEIGHBOURS);
const _boidsDist2 = new Float64Array(BOIDS_MAX_NEIGHBOURS);
let _boidsAx = new Float64Array(0);
let _boidsAy = new Float64Array(0);
let _boidsFused = new Uint8Array(0);
let _boidsVxS = new Float64Array(0);
let _boidsVyS = new Float64Array(0);
let _boidsUseS = new Uint8Array(0);
let _boidsKS = new Int32Array(0);
let _boidsRS = new Float64Array(0);
let _boidsSepS = new Float64Array(0);
let _boidsAliS = new Float64Array(0);
let _boidsCohS = new Float64Array(0);
let _boidsAxS = new Float64Array(0);
let _boidsAyS = new Float64Array(0);
let _boidsSlotOf = new Int32Array(0);
// The batch query's output (see batchNeighbours): k ids and distances per slot, and counts.
const _boidsPre: BoidsBatchNeighbours = { slots: new Int32Array(0), dist2: new Float64Array(0), counts: new Int32Array(0), k: 0, r: 0 };

/** Largest k for which boidsSystem answers the topological agents with one batch query (its output holds k per agent). */
const BATCH_MAX_K = 16;
/**
 * Largest agents × k the batch query's output may hold (12 bytes per entry: an id and a squared distance, ~50 MB);
 * bigger crowds (e.g. a million agents with k = 7) take the fused ring search alone, with the same results.
 */
const BATCH_MAX_ENTRIES = 1 << 22;
/** The batch radius adapts so that between these fractions of the topological agents need their own ring search. */
const BATCH_SEARCH_HIGH = 0.04;
const BATCH_SEARCH_LOW = 0.01;

/** world.systems.boids: the batch query's radius, adapted frame to frame (it changes speed only, never results). */
interface BoidsState {
  batchRadius: Float64Array;
}
function boidsState(world: CrowdWorld): BoidsState {
  let s = world.systems.boids as BoidsState | undefined;
  if (s === undefined) { s = { batchRadius: new Float64Array(1) }; world.systems.boids = s; }
  return s;
}

/**
 * Boids system: for every live agent with boids enabled (and the LOD boids flag), gather its neighbourhood from the
 * world's spatial hash — metric (queryRadius, up to BOIDS_MAX_NEIGHBOURS) or topological (queryKNearest, the k
 * nearest within `radius`) — compute separation + alignment + cohesion in one pass (src/boids/boids), and add the
 * result to the preferred velocity. Two passes: all accelerations are computed from the same positions and
 * velocities, then applied, so the result does not depend on iteration order.
 *
 * Apply: inertial agents get preferred = v + a·dt (free flocking: the flock's own momentum carries it); others, and
 * inertial agents that have steering behaviours set, get preferred += a·horizon (a correction to what
 * navigation/steering wrote). A panicking agent (steering panic override) gets no boids correction at all. Then the speed is clamped to [minSpeed, maxSpeed]
 * (a stopped agent that must keep minSpeed sets off along +x, deterministically).
 */
export function boidsSystem(world: CrowdWorld, dt: number): void {
  requirePositive('dt', dt);
  const t0 = nowMs();
  const n = world.agents.count;
  const cap = world.capacity + 1;
  if (_boidsAx.length < cap) { _boidsAx = new Float64Array(cap); _boidsAy = new Float64Array(cap); _boidsFused = new Uint8Array(cap); }
  const hash = world.hash;
  let found: number;
  if (hashHoldsLiveAgents(world)) {
    // The hash holds exactly the live agents (it does right after spatialHashSystem): work in its cell order.
    // Topological agents without a layer mask take the fused slot-space pass (src/boids/fused); the others
    // (metric, or filtering neighbours by layer) the generic per-agent queries. Gather: per-agent data into slot
    // order (see the passes below), so the fused pass reads sequentially.
    if (_boidsVxS.length < n) {
      _boidsVxS = new Float64Array(cap); _boidsVyS = new Float64Array(cap); _boidsUseS = new Uint8Array(cap);
      _boidsKS = new Int32Array(cap); _boidsRS = new Float64Array(cap); _boidsSepS = new Float64Array(cap);
      _boidsAliS = new Float64Array(cap); _boidsCohS = new Float64Array(cap); _boidsAxS = new Float64Array(cap); _boidsAyS = new Float64Array(cap);
    }
    const b = boidsComponent(world);
    const lodFlags = lodComponent(world).flags;
    const sid = hash.sortedIds, vx = world.velocity.x, vy = world.velocity.y, maskA = world.agent.mask;
    if (_boidsSlotOf.length < cap) _boidsSlotOf = new Int32Array(cap);
    // Every agent's slot, then both passes in entity (dense) order: the per-agent stores are read nearly
    // sequentially and the slot-ordered arrays written scattered, which is cheaper than scattered reads (a store does
    // not stall the loop; a load that misses the cache does).
    const dense = world.agents.dense;
    for (let t = 0; t < n; t++) _boidsSlotOf[sid[t]] = t;
    // Pass 1: who flocks, and who takes the fused pass.
    let others = 0, fusedCount = 0;
    for (let i = 0; i < n; i++) {
      const e = dense[i], t = _boidsSlotOf[e];
      const flocks = b.enabled[e] !== 0 && (lodFlags[e] & LOD_BOIDS) !== 0;
      const fused = flocks && b.mode[e] === BOIDS_TOPOLOGICAL && maskA[e] === -1;
      _boidsFused[e] = fused ? 1 : 0;
      _boidsUseS[t] = fused ? 1 : 0;
      if (fused) fusedCount++;
      else if (!flocks) { _boidsAx[e] = 0; _boidsAy[e] = 0; } else others++;
    }
    found = 0;
    if (fusedCount > 0) {
      // Pass 2 (only with topological agents: a metric crowd skips it): velocities of every agent (any agent can be
      // a neighbour) and the fused agents' parameters, into slot order.
      let kMax = 0, rMax = 0;
      for (let i = 0; i < n; i++) {
        const e = dense[i], t = _boidsSlotOf[e];
        _boidsVxS[t] = vx[e]; _boidsVyS[t] = vy[e];
        if (_boidsFused[e] === 0) continue;
        const k = b.k[e], r = b.radius[e];
        _boidsKS[t] = k; _boidsRS[t] = r;
        _boidsSepS[t] = b.wSep[e]; _boidsAliS[t] = b.wAli[e]; _boidsCohS[t] = b.wCoh[e];
        if (k > kMax) kMax = k;
        if (r > rMax) rMax = r;
      }
      // Most agents topological: one batch k-nearest query over the whole hash first (src/spatial/knn-dense.ts, its
      // fastest kernel), with a radius that usually holds k neighbours; the few agents it does not settle run the
      // ring search in the fused pass. Same neighbours either way, so the same accelerations.
      const batch = fusedCount >= 64 && 2 * fusedCount >= n && kMax <= BATCH_MAX_K && n * kMax <= BATCH_MAX_ENTRIES;
      if (batch) batchNeighbours(world, n, kMax, rMax);
      found = boidsTopologicalSorted(hash, 0, n, _boidsUseS, _boidsVxS, _boidsVyS, _boidsKS, _boidsRS, _boidsSepS, _boidsAliS, _boidsCohS, _boidsAxS, _boidsAyS, batch ? _boidsPre : null);
      if (batch) adaptBatchRadius(world, n, fusedCount, rMax);
      // Scatter back to entity order for the apply pass.
      for (let t = 0; t < n; t++) {
        if (_boidsUseS[t] === 0) continue;
        const e = sid[t];
        _boidsAx[e] = _boidsAxS[t]; _boidsAy[e] = _boidsAyS[t];
      }
    }
    if (others > 0) found += boidsAccelerations(world, sid, 0, n, _boidsAx, _boidsAy, _boidsFused);
  } else {
    found = boidsAccelerations(world, world.agents.dense, 0, n, _boidsAx, _boidsAy, null);
  }
  const flocking = boidsApply(world, 0, n, dt, _boidsAx, _boidsAy);
  profileCount(world.profiler, 'boids', 'agents', flocking);
  profileCount(world.profiler, 'boids', 'neighbours', found);
  profileRecord(world.profiler, 'boids', t0);
}

/**
 * The batch query behind the fused pass: the kMax nearest of every hash slot within the adapted batch radius (at
 * most rMax, the largest search radius of the topological agents), into _boidsPre.
 */
function batchNeighbours(world: CrowdWorld, n: number, kMax: number, rMax: number): void {
  const st = boidsState(world);
  let r = st.batchRadius[0];
  if (!(r > 0)) r = world.hash.gridCellSize; // first frame: one cell (the hash's cell is sized to the neighbourhood)
  if (r > rMax) r = rMax;
  st.batchRadius[0] = r;
  const need = n * kMax;
  if (_boidsPre.slots.length < need) { _boidsPre.slots = new Int32Array(need + (need >> 2)); _boidsPre.dist2 = new Float64Array(need + (need >> 2)); }
  if (_boidsPre.counts.length < n) _boidsPre.counts = new Int32Array(world.capacity + 1);
  // neighbours named by hash slot: the fused pass works in slot space (no id -> slot lookup per neighbour)
  queryKNearestBatchSlots(world.hash, 0, n, r, kMax, _boidsPre.slots, _boidsPre.dist2, _boidsPre.counts, null, -1);
  _boidsPre.k = kMax;
  _boidsPre.r = r;
}

/**
 * Adapt the batch radius for the next frame: grow it by 15% when more than 4% of the topological agents needed
 * their own ring search (too few neighbours within it), shrink it by 5% below 1% (it scans more than it needs).
 */
function adaptBatchRadius(world: CrowdWorld, n: number, fusedCount: number, rMax: number): void {
  const st = boidsState(world);
  const r = st.batchRadius[0], counts = _boidsPre.counts;
  let searched = 0;
  for (let t = 0; t < n; t++) {
    if (_boidsUseS[t] !== 0 && counts[t] < _boidsKS[t] && _boidsRS[t] > r) searched++;
  }
  let next = r;
  if (searched > BATCH_SEARCH_HIGH * fusedCount) next = r * 1.15;
  else if (searched < BATCH_SEARCH_LOW * fusedCount) next = r * 0.95;
  st.batchRadius[0] = next < rMax ? next : rMax;
}

/**
 * Compute pass over the agents order[start .. start+count) (the hash's sortedIds, or the dense list): boids
 * accelerations (m/s²) into outAx/outAy[eid] (length ≥ capacity + 1); agents not flocking this frame get 0. Needs
 * the spatial hash built from the current positions. Reads only positions and velocities, so any split of the
 * order into ranges gives the same result. Agents with skip[eid] = 1 (handled elsewhere) are left untouched.
 * @returns the total number of neighbours used.
 */
export function boidsAccelerations(
  world: CrowdWorld, order: Int32Array, start: number, count: number, outAx: Float64Array, outAy: Float64Array, skip: Uint8Array | null,
): number {
  const b: BoidsStore = boidsComponent(world);
  const lodFlags = lodComponent(world).flags;
  const px = world.position.x, py = world.position.y, vx = world.velocity.x, vy = world.velocity.y;
  const layer = world.agent.layer, maskA = world.agent.mask;
  const hash = world.hash;
  const nbr = _boidsNbr, d2 = _boidsDist2;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const eid = order[start + i];
    if (skip !== null && skip[eid] !== 0) continue;
    if (b.enabled[eid] === 0 || (lodFlags[eid] & LOD_BOIDS) === 0) { outAx[eid] = 0; outAy[eid] = 0; continue; }
    const mask = maskA[eid];
    // Array-and-index forms of the query and kernel: no double crosses a call boundary, so nothing is boxed.
    const m = b.mode[eid] === BOIDS_METRIC
      ? queryRadiusAt(hash, px, py, eid, b.radius, eid, eid, nbr, mask === -1 ? null : layer, mask)
      : queryKNearestAt(hash, px, py, eid, b.radius, eid, b.k[eid], eid, nbr, d2, mask === -1 ? null : layer, mask);
    total += m;
    boidsAccelerationAt(eid, px, py, vx, vy, nbr, m, b.wSep, b.wAli, b.wCoh, eid, outAx, outAy, eid);
  }
  return total;
}

/**
 * Apply pass over dense[start .. start+count): add the accelerations ax/ay[eid] to the preferred velocities (see
 * boidsSystem).
 * @returns the number of flocking agents.
 */
export function boidsApply(world: CrowdWorld, start: number, count: number, dt: number, ax: Float64Array, ay: Float64Array): number {
  const b = boidsComponent(world);
  const steer = steeringComponent(world);
  const beh = steer.behaviours, panic = steer.panic;
  const lodFlags = lodComponent(world).flags;
  const dense = world.agents.dense;
  const vx = world.velocity.x, vy = world.velocity.y;
  const px = world.preferredVelocity.x, py = world.preferredVelocity.y;
  const maxSpeed = world.agent.maxSpeed;
  let flocking = 0;
  for (let i = 0; i < count; i++) {
    const eid = dense[start + i];
    // A panicking agent's flee replaces everything, boids included.
    if (b.enabled[eid] === 0 || (lodFlags[eid] & LOD_BOIDS) === 0 || panic[eid] !== 0) continue;
    flocking++;
    let x: number, y: number;
    // Inertial only while no steering behaviour wrote this agent's preferred velocity this frame.
    if (b.inertial[eid] !== 0 && beh[eid] === 0) { x = vx[eid] + ax[eid] * dt; y = vy[eid] + ay[eid] * dt; }
    else { const h = b.horizon[eid]; x = px[eid] + ax[eid] * h; y = py[eid] + ay[eid] * h; }
    const vmax = maxSpeed[eid], vmin = b.minSpeed[eid] < vmax ? b.minSpeed[eid] : vmax;
    const s2 = x * x + y * y;
    if (s2 > vmax * vmax) { const k = vmax / Math.sqrt(s2); x *= k; y *= k; }
    else if (s2 < vmin * vmin) {
      if (s2 > 0) { const k = vmin / Math.sqrt(s2); x *= k; y *= k; } else { x = vmin; y = 0; }
    }
    px[eid] = x; py[eid] = y;
  }
  return flocking;
}
