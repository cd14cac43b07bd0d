import type { CrowdWorld } from '../src/world/crowd';
import { InvalidArgumentError } from '../src/core/errors';
import { requireFinite, requireInteger, requireNonNegative, requireNonNegativeOrInfinity, requirePositive } from '../src/core/validate';
import { requireAgent } from '../src/world/agents';
import { onDespawn } from '../src/world/registry';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';
import { arriveMovingArr, evadeArr, fleeArr, followVelocityArr, pursueArr, seekArr, wanderArr } from '../src/steering/behaviours';
import { accumulateTruncatedArr } from '../src/steering/combine';
import { limitTurnArr, smoothVelocityArr } from '../src/steering/filters';
import { avoidSegmentsArr, DEFAULT_FEELER_PARAMS, type FeelerParams } from '../src/steering/obstacles';
import { createSegmentGrid, querySegmentGridArr, type SegmentGrid } from '../src/steering/segment-grid';
import {
  steeringComponent, STEER_ALL, STEER_ARRIVE, STEER_AVOID_WALLS, STEER_EVADE, STEER_FLEE, STEER_FOLLOW, STEER_PURSUE,
  STEER_SEEK, STEER_WANDER, type SteeringStore,
} from '../components/steering';
import { lodComponent, LOD_STEER } from '../components/lod';
import { lodRulesInEffect } from './lod';

/**
 * World-level steering state: the wall segments and their grid, and the agents that reference other agents
 * (pursueEid or threatEid set through setSteering), in the order they were first set: when an agent is despawned,
 * the references to it among them are cleared (clearReferencesTo), before bitecs can give its id to a new agent.
 */
export interface SteeringWorldState {
  walls: SegmentGrid | null;
  feelers: FeelerParams;
  referrers: Int32Array;
  referrerCount: number;
  /** 1 for the entities in referrers[0 .. referrerCount). */
  isReferrer: Uint8Array;
}

function steeringState(world: CrowdWorld): SteeringWorldState {
  let s = world.systems.steering as SteeringWorldState | undefined;
  if (s === undefined) {
    s = { walls: null, feelers: { ...DEFAULT_FEELER_PARAMS }, referrers: new Int32Array(0), referrerCount: 0, isReferrer: new Uint8Array(0) };
    world.systems.steering = s;
  }
  // The hook is per world (also a world whose steering state came from a snapshot): registered once.
  if (!world.registry.despawnHooks.includes(clearReferencesTo)) onDespawn(world, clearReferencesTo);
  return s;
}

/** Note agent eid as one whose pursueEid/threatEid points at another agent (see SteeringWorldState). */
function addReferrer(world: CrowdWorld, eid: number): void {
  const st = steeringState(world);
  if (st.isReferrer.length <= eid) st.isReferrer = growU8(st.isReferrer, world.capacity + 1);
  if (st.isReferrer[eid] !== 0) return;
  if (st.referrerCount === st.referrers.length) {
    const next = new Int32Array(Math.max(16, 2 * st.referrers.length));
    next.set(st.referrers);
    st.referrers = next;
  }
  st.referrers[st.referrerCount++] = eid;
  st.isReferrer[eid] = 1;
}

function growU8(a: Uint8Array, n: number): Uint8Array {
  const b = new Uint8Array(n);
  b.set(a);
  return b;
}

/**
 * Despawn hook: clear every pursueEid/threatEid that points at the despawned agent, and drop the referrers that no
 * longer point anywhere (or are the despawned agent itself). O(referrers), in list order, so deterministic.
 * Without it a reference would follow the id to whichever agent is spawned into it next.
 */
function clearReferencesTo(world: CrowdWorld, dead: number): void {
  const st = world.systems.steering as SteeringWorldState | undefined;
  if (st === undefined || st.referrerCount === 0) return;
  const s = steeringComponent(world);
  const list = st.referrers;
  let kept = 0;
  for (let i = 0; i < st.referrerCount; i++) {
    const r = list[i];
    if (s.pursueEid[r] === dead) s.pursueEid[r] = 0;
    if (s.threatEid[r] === dead) s.threatEid[r] = 0;
    if (r === dead || (s.pursueEid[r] === 0 && s.threatEid[r] === 0)) { st.isReferrer[r] = 0; continue; }
    list[kept++] = r;
  }
  st.referrerCount = kept;
}

/**
 * Set the static wall segments that STEER_AVOID_WALLS avoids: [x0, y0, x1, y1, ...] in metres (e.g. a grid's wall
 * edges or a navmesh's boundary edges). Replaces previous walls; builds a segment grid (cell `cellSize`, default 4 m)
 * so each agent only tests nearby walls. Pass an empty array to clear.
 */
export function setSteeringWalls(world: CrowdWorld, segments: ArrayLike<number>, cellSize = 4): void {
  const grid = createSegmentGrid(segments, cellSize);
  steeringState(world).walls = grid.segmentCount > 0 ? grid : null;
}

/** Options of setSteering; every field is optional and only given fields change. */
export interface SteeringConfig {
  /** Bit set of STEER_* flags. */
  behaviours?: number;
  panic?: boolean;
  target?: { x: number; y: number };
  /** Velocity of the seek/arrive target (arrive at a moving target), m/s. */
  targetVelocity?: { x: number; y: number };
  pursueEid?: number;
  threat?: { x: number; y: number };
  threatEid?: number;
  weights?: Partial<Record<'avoid' | 'evade' | 'flee' | 'pursue' | 'seek' | 'arrive' | 'follow' | 'wander', number>>;
  slowingRadius?: number;
  stopRadius?: number;
  panicDistance?: number;
  maxPrediction?: number;
  wander?: { distance?: number; radius?: number; jitter?: number };
  lookAhead?: number;
  smoothing?: number;
  turnRate?: number;
}

const WEIGHT_KEYS = ['avoid', 'evade', 'flee', 'pursue', 'seek', 'arrive', 'follow', 'wander'] as const;

/**
 * Configure an agent's steering. Validates everything first (typed errors naming the field), then applies.
 * Entities referenced by pursueEid/threatEid must be live agents; 0 clears them. When the referenced agent is
 * despawned, the reference is cleared (to 0) at once, so it never follows the id to an agent spawned into it later.
 * (Set references through here: writes straight into the component's arrays are not tracked.)
 */
export function setSteering(world: CrowdWorld, eid: number, cfg: SteeringConfig): void {
  requireAgent(world, eid);
  if (cfg === null || typeof cfg !== 'object') throw new InvalidArgumentError('cfg', cfg, 'must be an object');
  if (cfg.behaviours !== undefined) {
    requireInteger('cfg.behaviours', cfg.behaviours, 0, STEER_ALL);
  }
  const vec = (f: string, v: { x: number; y: number } | undefined) => {
    if (v === undefined) return;
    if (v === null || typeof v !== 'object') throw new InvalidArgumentError(f, v, 'must be an {x, y} object');
    requireFinite(`${f}.x`, v.x); requireFinite(`${f}.y`, v.y);
  };
  vec('cfg.target', cfg.target); vec('cfg.targetVelocity', cfg.targetVelocity); vec('cfg.threat', cfg.threat);
  if (cfg.pursueEid !== undefined && cfg.pursueEid !== 0) requireAgent(world, cfg.pursueEid, 'cfg.pursueEid');
  if (cfg.threatEid !== undefined && cfg.threatEid !== 0) requireAgent(world, cfg.threatEid, 'cfg.threatEid');
  if (cfg.weights !== undefined) {
    for (const k of Object.keys(cfg.weights)) {
      if (!(WEIGHT_KEYS as readonly string[]).includes(k)) throw new InvalidArgumentError('cfg.weights', k, `unknown weight; valid: ${WEIGHT_KEYS.join(', ')}`);
      requireNonNegative(`cfg.weights.${k}`, (cfg.weights as Record<string, number>)[k]);
    }
  }
  if (cfg.slowingRadius !== undefined) requirePositive('cfg.slowingRadius', cfg.slowingRadius);
  if (cfg.stopRadius !== undefined) requireNonNegative('cfg.stopRadius', cfg.stopRadius);
  if (cfg.panicDistance !== undefined) requireNonNegativeOrInfinity('cfg.panicDistance', cfg.panicDistance);
  if (cfg.maxPrediction !== undefined) requireNonNegative('cfg.maxPrediction', cfg.maxPrediction);
  if (cfg.wander !== undefined) {
    if (cfg.wander.distance !== undefined) requireNonNegative('cfg.wander.distance', cfg.wander.distance);
    if (cfg.wander.radius !== undefined) requireNonNegative('cfg.wander.radius', cfg.wander.radius);
    if (cfg.wander.jitter !== undefined) requireNonNegative('cfg.wander.jitter', cfg.wander.jitter);
  }
  if (cfg.lookAhead !== undefined) requireNonNegative('cfg.lookAhead', cfg.lookAhead);
  if (cfg.smoothing !== undefined) requireNonNegative('cfg.smoothing', cfg.smoothing);
  if (cfg.turnRate !== undefined) requireNonNegativeOrInfinity('cfg.turnRate', cfg.turnRate);
  if (cfg.turnRate !== undefined && !(cfg.turnRate > 0)) throw new InvalidArgumentError('cfg.turnRate', cfg.turnRate, 'must be greater than 0 (Infinity = off)');
  if (cfg.panic !== undefined && typeof cfg.panic !== 'boolean') throw new InvalidArgumentError('cfg.panic', cfg.panic, 'must be a boolean');

  const s = steeringComponent(world);
  if (cfg.behaviours !== undefined) s.behaviours[eid] = cfg.behaviours;
  if (cfg.panic !== undefined) s.panic[eid] = cfg.panic ? 1 : 0;
  if (cfg.target) { s.targetX[eid] = cfg.target.x; s.targetY[eid] = cfg.target.y; }
  if (cfg.targetVelocity) { s.targetVx[eid] = cfg.targetVelocity.x; s.targetVy[eid] = cfg.targetVelocity.y; }
  if (cfg.pursueEid !== undefined) s.pursueEid[eid] = cfg.pursueEid;
  if (cfg.threat) { s.threatX[eid] = cfg.threat.x; s.threatY[eid] = cfg.threat.y; }
  if (cfg.threatEid !== undefined) s.threatEid[eid] = cfg.threatEid;
  const w = cfg.weights;
  if (w) {
    if (w.avoid !== undefined) s.wAvoid[eid] = w.avoid;
    if (w.evade !== undefined) s.wEvade[eid] = w.evade;
    if (w.flee !== undefined) s.wFlee[eid] = w.flee;
    if (w.pursue !== undefined) s.wPursue[eid] = w.pursue;
    if (w.seek !== undefined) s.wSeek[eid] = w.seek;
    if (w.arrive !== undefined) s.wArrive[eid] = w.arrive;
    if (w.follow !== undefined) s.wFollow[eid] = w.follow;
    if (w.wander !== undefined) s.wWander[eid] = w.wander;
  }
  if (cfg.slowingRadius !== undefined) s.slowingRadius[eid] = cfg.slowingRadius;
  if (cfg.stopRadius !== undefined) s.stopRadius[eid] = cfg.stopRadius;
  if (cfg.panicDistance !== undefined) s.panicDistance[eid] = cfg.panicDistance;
  if (cfg.maxPrediction !== undefined) s.maxPrediction[eid] = cfg.maxPrediction;
  if (cfg.wander) {
    if (cfg.wander.distance !== undefined) s.wanderDistance[eid] = cfg.wander.distance;
    if (cfg.wander.radius !== undefined) s.wanderRadius[eid] = cfg.wander.radius;
    if (cfg.wander.jitter !== undefined) s.wanderJitter[eid] = cfg.wander.jitter;
  }
  if (cfg.lookAhead !== undefined) s.lookAhead[eid] = cfg.lookAhead;
  if (cfg.smoothing !== undefined) s.smoothing[eid] = cfg.smoothing;
  if (cfg.turnRate !== undefined) s.turnRate[eid] = cfg.turnRate;
  if (s.pursueEid[eid] !== 0 || s.threatEid[eid] !== 0) addReferrer(world, eid);
}

// Scratch owned by the steering system (no allocation per frame). The kernels are called in their array forms:
// steeringRange is too large for V8 to inline them, and every double passed to or returned from a call that is not
// inlined is boxed into a fresh HeapNumber (hundreds of KB per frame at 1,000 agents). Inputs go through _steerIn;
// results land in _steerV at the slots below (three doubles each: x, y, scalar result).
const _steerIn = new Float64Array(16);
const _steerV = new Float64Array(24);
const ACC = 0, B = 3, SEEK = 6, ARRIVE = 9, FOLLOW = 12, PURSUE = 15, OUT = 18, WB = 21; // WB: weight, budget
const _steerFeelers: FeelerParams = { ...DEFAULT_FEELER_PARAMS };
let _steerWallCand = new Int32Array(256);
let _steerNewVx = new Float64Array(0);
let _steerNewVy = new Float64Array(0);

/**
 * Steering system: for every live agent with steering behaviours (and the LOD update flag), combine its behaviours
 * into a desired velocity and write it, filtered, to world.preferredVelocity. Agents without behaviours keep the
 * preferred velocity navigation wrote.
 *
 * Per agent: (1) panic override, or the prioritised truncated sum of avoid-walls → evade → flee → pursue → seek →
 * arrive → follow → wander with budget maxSpeed; (2) velocity smoothing toward it from the current velocity with
 * time constant τ (capped at R/(4·maxSpeed) while arriving, so arrive stays overdamped: see src/steering/behaviours);
 * (3) the turn-rate filter. Computed for all agents first, then applied (follow reads navigation's preferred
 * velocity, which must not be overwritten mid-pass).
 */
export function steeringSystem(world: CrowdWorld, dt: number): void {
  requirePositive('dt', dt);
  const t0 = nowMs();
  const n = world.agents.count;
  if (_steerNewVx.length < n) { _steerNewVx = new Float64Array(n); _steerNewVy = new Float64Array(n); }
  const stats = steeringRange(world, 0, n, dt, _steerNewVx, _steerNewVy);
  const dense = world.agents.dense;
  const s = steeringComponent(world);
  const beh = s.behaviours, panic = s.panic;
  const lodFlags = lodComponent(world).flags;
  const px = world.preferredVelocity.x, py = world.preferredVelocity.y;
  for (let i = 0; i < n; i++) {
    const eid = dense[i];
    if ((beh[eid] === 0 && panic[eid] === 0) || (lodFlags[eid] & LOD_STEER) === 0) continue;
    px[eid] = _steerNewVx[i]; py[eid] = _steerNewVy[i];
  }
  profileCount(world.profiler, 'steering', 'steered', stats & 0xffffff);
  profileCount(world.profiler, 'steering', 'wallHits', Math.floor(stats / 0x1000000));
  profileRecord(world.profiler, 'steering', t0);
}

function live(world: CrowdWorld, e: number): boolean {
  return e > 0 && e <= world.capacity && world.agents.denseIndex[e] >= 0;
}

/**
 * Compute pass over dense[start .. start+count): new preferred velocities into outVx/outVy[i − start] (entries of
 * agents without steering are left untouched). Returns steered + 2^24·wallHits (profiling counters).
 */
export function steeringRange(world: CrowdWorld, start: number, count: number, dt: number, outVx: Float64Array, outVy: Float64Array): number {
  const s: SteeringStore = steeringComponent(world);
  const st = steeringState(world);
  const walls = st.walls;
  const lodFlags = lodComponent(world).flags;
  const dense = world.agents.dense;
  const posX = world.position.x, posY = world.position.y;
  const velX = world.velocity.x, velY = world.velocity.y;
  const prefX = world.preferredVelocity.x, prefY = world.preferredVelocity.y;
  const maxSpeedA = world.agent.maxSpeed, radiusA = world.agent.radius;
  const rng = world.rng;
  const feel = _steerFeelers;
  feel.feelerAngle = st.feelers.feelerAngle; feel.slide = st.feelers.slide; feel.clearance = st.feelers.clearance;
  const a = _steerIn, v = _steerV;
  // Time one update stands for: dt × the agent's LOD tier rule's interval when the LOD pass staggers it (the agent
  // keeps this update's velocity until its next), else dt. Arrive's per-update cap, wander's jitter, velocity
  // smoothing and the turn limit all use it: with plain dt a far agent updated one frame in 8 turned 8 times slower
  // than its turn rate and its smoothing lagged 8 times longer, which broke arrive's no-overshoot bound
  // τ ≤ R / (4 maxSpeed) (0.84 m past the target at maxSpeed 3, R = 2).
  const lodRules = lodRulesInEffect(world);
  const tiers = lodComponent(world).tier;
  let steered = 0, wallHits = 0;
  for (let i = 0; i < count; i++) {
    const eid = dense[start + i];
    const flags = s.behaviours[eid];
    const isPanic = s.panic[eid] !== 0;
    if ((flags === 0 && !isPanic) || (lodFlags[eid] & LOD_STEER) === 0) continue;
    steered++;
    const x = posX[eid], y = posY[eid], vx = velX[eid], vy = velY[eid];
    const vmax = maxSpeedA[eid];
    const adt = lodRules !== null ? dt * lodRules[tiers[eid]].interval : dt;
    v[ACC] = 0; v[ACC + 1] = 0;
    v[WB + 1] = vmax;
    let arriving = false;
    if (isPanic) {
      // Override: flee the threat (entity's predicted position if set, else the point) at full speed; nothing else.
      const te = s.threatEid[eid];
      a[0] = x; a[1] = y;
      if (live(world, te)) {
        a[2] = posX[te]; a[3] = posY[te]; a[4] = velX[te]; a[5] = velY[te]; a[6] = vmax; a[7] = s.maxPrediction[eid]; a[8] = Infinity;
        evadeArr(a, 0, v, ACC);
      } else {
        a[2] = s.threatX[eid]; a[3] = s.threatY[eid]; a[4] = vmax; a[5] = Infinity;
        fleeArr(a, 0, v, ACC);
      }
    } else {
      // Goal-directed behaviours first (their sum is also the "intended direction" that picks the wall-slide side).
      let ix = 0, iy = 0;
      if (flags & STEER_PURSUE) {
        const pe = s.pursueEid[eid];
        if (live(world, pe)) {
          a[0] = x; a[1] = y; a[2] = posX[pe]; a[3] = posY[pe]; a[4] = velX[pe]; a[5] = velY[pe]; a[6] = vmax; a[7] = s.maxPrediction[eid];
          pursueArr(a, 0, v, PURSUE);
        } else { v[PURSUE] = 0; v[PURSUE + 1] = 0; }
        ix += v[PURSUE]; iy += v[PURSUE + 1];
      }
      if (flags & STEER_SEEK) {
        a[0] = x; a[1] = y; a[2] = s.targetX[eid]; a[3] = s.targetY[eid]; a[4] = vmax;
        seekArr(a, 0, v, SEEK);
        ix += v[SEEK]; iy += v[SEEK + 1];
      }
      if (flags & STEER_ARRIVE) {
        a[0] = x; a[1] = y; a[2] = s.targetX[eid]; a[3] = s.targetY[eid]; a[4] = s.targetVx[eid]; a[5] = s.targetVy[eid];
        a[6] = vmax; a[7] = s.slowingRadius[eid]; a[8] = s.stopRadius[eid];
        a[9] = adt;
        arriveMovingArr(a, 0, v, ARRIVE);
        ix += v[ARRIVE]; iy += v[ARRIVE + 1];
        arriving = true;
      }
      if (flags & STEER_FOLLOW) {
        a[0] = prefX[eid]; a[1] = prefY[eid]; a[2] = vmax;
        followVelocityArr(a, 0, v, FOLLOW);
        ix += v[FOLLOW]; iy += v[FOLLOW + 1];
      }
      let room = true;
      if ((flags & STEER_AVOID_WALLS) && walls !== null) {
        feel.lookAhead = s.lookAhead[eid];
        const r = radiusA[eid];
        const reach = r * feel.clearance + r + Math.sqrt(vx * vx + vy * vy) * feel.lookAhead;
        a[0] = x - reach; a[1] = y - reach; a[2] = x + reach; a[3] = y + reach;
        let nc = querySegmentGridArr(walls, a, 0, _steerWallCand);
        if (nc === _steerWallCand.length) {
          _steerWallCand = new Int32Array(_steerWallCand.length * 2); // rare growth: a very dense wall area
          nc = querySegmentGridArr(walls, a, 0, _steerWallCand);
        }
        a[0] = x; a[1] = y; a[2] = vx; a[3] = vy; a[4] = ix; a[5] = iy; a[6] = r; a[7] = vmax;
        const h = avoidSegmentsArr(a, 0, walls.segments, _steerWallCand, nc, feel, v, B);
        if (h > 0) { wallHits++; v[WB] = s.wAvoid[eid]; room = accumulateTruncatedArr(v, ACC, v, B, v, WB); }
      }
      if (room && (flags & STEER_EVADE)) {
        const te = s.threatEid[eid];
        if (live(world, te)) {
          a[0] = x; a[1] = y; a[2] = posX[te]; a[3] = posY[te]; a[4] = velX[te]; a[5] = velY[te]; a[6] = vmax; a[7] = s.maxPrediction[eid]; a[8] = s.panicDistance[eid];
          evadeArr(a, 0, v, B);
          v[WB] = s.wEvade[eid]; room = accumulateTruncatedArr(v, ACC, v, B, v, WB);
        }
      }
      if (room && (flags & STEER_FLEE)) {
        a[0] = x; a[1] = y; a[2] = s.threatX[eid]; a[3] = s.threatY[eid]; a[4] = vmax; a[5] = s.panicDistance[eid];
        fleeArr(a, 0, v, B);
        v[WB] = s.wFlee[eid]; room = accumulateTruncatedArr(v, ACC, v, B, v, WB);
      }
      if (room && (flags & STEER_PURSUE)) { v[WB] = s.wPursue[eid]; room = accumulateTruncatedArr(v, ACC, v, PURSUE, v, WB); }
      if (room && (flags & STEER_SEEK)) { v[WB] = s.wSeek[eid]; room = accumulateTruncatedArr(v, ACC, v, SEEK, v, WB); }
      if (room && (flags & STEER_ARRIVE)) { v[WB] = s.wArrive[eid]; room = accumulateTruncatedArr(v, ACC, v, ARRIVE, v, WB); }
      if (room && (flags & STEER_FOLLOW)) { v[WB] = s.wFollow[eid]; room = accumulateTruncatedArr(v, ACC, v, FOLLOW, v, WB); }
      if (flags & STEER_WANDER) {
        // The wander angle advances every frame (even when the budget is full) so its random walk is frame-regular.
        a[0] = vx; a[1] = vy; a[2] = s.wanderAngle[eid]; a[3] = s.wanderDistance[eid]; a[4] = s.wanderRadius[eid];
        a[5] = s.wanderJitter[eid]; a[6] = vmax; a[7] = adt;
        wanderArr(a, 0, rng, v, B);
        s.wanderAngle[eid] = v[B + 2];
        if (room) { v[WB] = s.wWander[eid]; accumulateTruncatedArr(v, ACC, v, B, v, WB); }
      }
    }
    // Filters: smoothing (overdamped bound while arriving), then turn rate.
    let tau = s.smoothing[eid];
    if (arriving) {
      const bound = vmax > 0 ? s.slowingRadius[eid] / (4 * vmax) : tau;
      if (bound < tau) tau = bound;
    }
    a[0] = vx; a[1] = vy; a[2] = v[ACC]; a[3] = v[ACC + 1]; a[4] = tau; a[5] = adt;
    smoothVelocityArr(a, 0, v, OUT);
    a[0] = vx; a[1] = vy; a[2] = v[OUT]; a[3] = v[OUT + 1]; a[4] = s.turnRate[eid]; a[5] = adt;
    limitTurnArr(a, 0, v, OUT);
    outVx[i] = v[OUT]; outVy[i] = v[OUT + 1];
  }
  return steered + wallHits * 0x1000000;
}
