import type { CrowdWorld } from '../src/world/crowd';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';
import { queryKNearest } from '../src/spatial/hash';
import { rngFloat } from '../src/core/rng';
import { ORCA_FEASIBLE, ORCA_NO_OVERLAP, ORCA_PAPER, createOrcaAgent, createOrcaNeighbours, orcaShare, orcaVelocityUnchecked } from '../src/avoidance/orca';
import { queryObstacleSegments } from '../src/avoidance/obstacles';
import { orcaComponent, orcaState, ORCA_MAX_NEIGHBOURS } from '../components/orca';
import { LOD_ORCA, lodComponent } from '../components/lod';

// Scratch owned by the ORCA system (module scope, grown only when the agent count or obstacle count grows).
const _orcaAgent = createOrcaAgent();
const _orcaNb = createOrcaNeighbours(ORCA_MAX_NEIGHBOURS);
const _orcaKnnIds = new Int32Array(ORCA_MAX_NEIGHBOURS);
const _orcaKnnDist2 = new Float64Array(ORCA_MAX_NEIGHBOURS);
const _orcaOut = { x: 0, y: 0 };
let _orcaObsIds = new Int32Array(64);
let _orcaObsDist2 = new Float64Array(64);
let _orcaNewVx = new Float64Array(0);
let _orcaNewVy = new Float64Array(0);
let _orcaDone = new Uint8Array(0);

/**
 * ORCA system: for every agent with ORCA enabled (and the LOD_ORCA flag this frame), the new collision-free velocity
 * from `orcaVelocity` (van den Berg et al. 2011), written to world.desiredVelocity; integration then steers the
 * velocity toward it.
 *
 * Per agent: neighbours are the maxNeighbours nearest agents within neighbourDistance whose layer is in the agent's
 * mask (world.hash, queryKNearest; nearest first, ties by id); obstacle segments come from the static obstacle grid
 * within obstacleTimeHorizon * maxSpeed + radius. The preferred velocity is world.desiredVelocity as left by the
 * earlier passes, nudged by the symmetry-breaking perturbation (orcaState(world).symmetryBreaking).
 *
 * Reciprocity: a neighbour that itself runs ORCA this frame shares the avoidance by priority (orcaShare); one that
 * does not (ORCA disabled, or skipped by LOD) is a moving obstacle and this agent takes all of it.
 *
 * Compute, then apply: all new velocities are computed from the velocities at the start of the pass, then written,
 * so the result does not depend on iteration order (as RVO2's doStep).
 */
export function orcaSystem(world: CrowdWorld, dt: number): void {
  const t0 = nowMs();
  orcaRange(world, 0, world.agents.count, dt);
  profileRecord(world.profiler, 'orca', t0);
}

/**
 * The ORCA pass over dense[start .. start + count): compute every new velocity, then apply. Exposed so the range can
 * be split (workers); the symmetry-breaking draws come from world.rng in dense order within the range.
 */
export function orcaRange(world: CrowdWorld, start: number, count: number, dt: number): void {
  const C = orcaComponent(world);
  const st = orcaState(world);
  const lodFlags = lodComponent(world).flags;
  if (_orcaNewVx.length < count) {
    _orcaNewVx = new Float64Array(count);
    _orcaNewVy = new Float64Array(count);
    _orcaDone = new Uint8Array(count);
  }
  const obstacles = st.obstacles;
  const hasObstacles = obstacles.vertexCount > 0;
  if (_orcaObsIds.length < obstacles.vertexCount) {
    _orcaObsIds = new Int32Array(obstacles.vertexCount);
    _orcaObsDist2 = new Float64Array(obstacles.vertexCount);
  }
  const obsIds = _orcaObsIds, obsDist2 = _orcaObsDist2;
  const eps = st.symmetryBreaking;
  const mode = st.fallback === 'paper' ? ORCA_PAPER : ORCA_NO_OVERLAP;
  const rng = world.rng;

  const dense = world.agents.dense;
  const hash = world.hash;
  const px = world.position.x, py = world.position.y;
  const vx = world.velocity.x, vy = world.velocity.y;
  const dvx = world.desiredVelocity.x, dvy = world.desiredVelocity.y;
  const radius = world.agent.radius, maxSpeed = world.agent.maxSpeed;
  const layer = world.agent.layer, mask = world.agent.mask;
  const enabled = C.enabled, nDist = C.neighbourDistance, maxN = C.maxNeighbours;
  const tau = C.timeHorizon, tauO = C.obstacleTimeHorizon, prio = C.priority;
  const agent = _orcaAgent, nb = _orcaNb, out = _orcaOut;
  const nbX = nb.x, nbY = nb.y, nbVx = nb.vx, nbVy = nb.vy, nbR = nb.radius, nbS = nb.share, nbId = nb.id;
  const knnIds = _orcaKnnIds, knnD2 = _orcaKnnDist2;
  const newVx = _orcaNewVx, newVy = _orcaNewVy, done = _orcaDone;

  let agents = 0, neighbours = 0, segments = 0, fallbacks = 0;
  // ---- compute ----
  for (let i = 0; i < count; i++) {
    const eid = dense[start + i];
    if (enabled[eid] === 0 || (lodFlags[eid] & LOD_ORCA) === 0) {
      done[i] = 0;
      continue;
    }
    agents++;
    const x = px[eid], y = py[eid];
    const r = radius[eid], vmax = maxSpeed[eid];
    let prefX = dvx[eid], prefY = dvy[eid];
    if (eps > 0 && (prefX !== 0 || prefY !== 0)) {
      prefX += eps * (2 * rngFloat(rng) - 1);
      prefY += eps * (2 * rngFloat(rng) - 1);
    }
    agent.x = x;
    agent.y = y;
    agent.vx = vx[eid];
    agent.vy = vy[eid];
    agent.prefVx = prefX;
    agent.prefVy = prefY;
    agent.radius = r;
    agent.maxSpeed = vmax;
    agent.timeHorizon = tau[eid];
    agent.obstacleTimeHorizon = tauO[eid];
    agent.id = eid;

    // Neighbour agents: k nearest within the neighbour distance, filtered by layer & mask.
    const n = queryKNearest(hash, x, y, nDist[eid], maxN[eid], eid, knnIds, knnD2, layer, mask[eid]);
    const myP = prio[eid];
    for (let k = 0; k < n; k++) {
      const j = knnIds[k];
      nbX[k] = px[j];
      nbY[k] = py[j];
      nbVx[k] = vx[j];
      nbVy[k] = vy[j];
      nbR[k] = radius[j];
      nbId[k] = j;
      // A neighbour that avoids too shares by priority; one that does not is a moving obstacle (take it all).
      nbS[k] = enabled[j] !== 0 && (lodFlags[j] & LOD_ORCA) !== 0 ? orcaShare(myP, prio[j]) : 1;
    }
    nb.count = n;
    neighbours += n;

    // Obstacle segments within reach this horizon: tau_obstacle * maxSpeed + radius.
    let m = 0;
    if (hasObstacles) {
      m = queryObstacleSegments(obstacles, x, y, tauO[eid] * vmax + r, obsIds, obsDist2);
      segments += m;
    }
    if (orcaVelocityUnchecked(agent, nb, obstacles, obsIds, m, dt, out, mode) !== ORCA_FEASIBLE) fallbacks++;
    newVx[i] = out.x;
    newVy[i] = out.y;
    done[i] = 1;
  }
  // ---- apply ----
  for (let i = 0; i < count; i++) {
    if (done[i] === 0) continue;
    const eid = dense[start + i];
    dvx[eid] = newVx[i];
    dvy[eid] = newVy[i];
  }
  const p = world.profiler;
  profileCount(p, 'orca', 'agents', agents);
  profileCount(p, 'orca', 'neighbours', neighbours);
  profileCount(p, 'orca', 'obstacleSegments', segments);
  profileCount(p, 'orca', 'fallbacks', fallbacks);
}
