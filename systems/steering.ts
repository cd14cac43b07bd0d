import type { CrowdWorld } from '../src/world/crowd';
import { InvalidArgumentError } from '../src/core/errors';
import { requireFinite, requireInteger, requireNonNegative, requireNonNegativeOrInfinity, requirePositive } from '../src/core/validate';
import { requireAgent } from '../src/world/agents';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';
import { arriveMoving, evade, flee, followVelocity, pursue, seek, vec2Out, wander } from '../src/steering/behaviours';
import { accumulateTruncated } from '../src/steering/combine';
import { limitTurn, smoothVelocity } from '../src/steering/filters';
import { avoidSegments, DEFAULT_FEELER_PARAMS, type FeelerParams } from '../src/steering/obstacles';
import { createSegmentGrid, querySegmentGrid, type SegmentGrid } from '../src/steering/segment-grid';
import {
  steeringComponent, STEER_ALL, STEER_ARRIVE, STEER_AVOID_WALLS, STEER_EVADE, STEER_FLEE, STEER_FOLLOW, STEER_PURSUE,
  STEER_SEEK, STEER_WANDER, type SteeringStore,
} from '../components/steering';
import { lodComponent, LOD_STEER } from '../components/lod';

/** World-level steering state: the wall segments and their grid. */
export interface SteeringWorldState {
  walls: SegmentGrid | null;
  feelers: FeelerParams;
}

function steeringState(world: CrowdWorld): SteeringWorldState {
  let s = world.systems.steering as SteeringWorldState | undefined;
  if (s === undefined) {
    s = { walls: null, feelers: { ...DEFAULT_FEELER_PARAMS } };
    world.systems.steering = s;
  }
  return s;
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
 * Entities referenced by pursueEid/threatEid must be live agents; 0 clears them.
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
}

// Scratch owned by the steering system (no allocation per frame).
const _steerB = vec2Out();
const _steerAcc = vec2Out();
const _steerOut = vec2Out();
const _steerSeek = vec2Out();
const _steerArrive = vec2Out();
const _steerFollow = vec2Out();
const _steerPursue = vec2Out();
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
  const acc = _steerAcc, b = _steerB;
  let steered = 0, wallHits = 0;
  for (let i = 0; i < count; i++) {
    const eid = dense[start + i];
    const flags = s.behaviours[eid];
    const isPanic = s.panic[eid] !== 0;
    if ((flags === 0 && !isPanic) || (lodFlags[eid] & LOD_STEER) === 0) continue;
    steered++;
    const x = posX[eid], y = posY[eid], vx = velX[eid], vy = velY[eid];
    const vmax = maxSpeedA[eid];
    acc.x = 0; acc.y = 0;
    let arriving = false;
    if (isPanic) {
      // Override: flee the threat (entity's predicted position if set, else the point) at full speed; nothing else.
      const te = s.threatEid[eid];
      if (live(world, te)) evade(x, y, posX[te], posY[te], velX[te], velY[te], vmax, s.maxPrediction[eid], Infinity, acc);
      else flee(x, y, s.threatX[eid], s.threatY[eid], vmax, Infinity, acc);
    } else {
      // Goal-directed behaviours first (their sum is also the "intended direction" that picks the wall-slide side).
      let ix = 0, iy = 0;
      if (flags & STEER_PURSUE) {
        const pe = s.pursueEid[eid];
        if (live(world, pe)) pursue(x, y, posX[pe], posY[pe], velX[pe], velY[pe], vmax, s.maxPrediction[eid], _steerPursue);
        else { _steerPursue.x = 0; _steerPursue.y = 0; }
        ix += _steerPursue.x; iy += _steerPursue.y;
      }
      if (flags & STEER_SEEK) {
        seek(x, y, s.targetX[eid], s.targetY[eid], vmax, _steerSeek);
        ix += _steerSeek.x; iy += _steerSeek.y;
      }
      if (flags & STEER_ARRIVE) {
        arriveMoving(x, y, s.targetX[eid], s.targetY[eid], s.targetVx[eid], s.targetVy[eid], vmax, s.slowingRadius[eid], s.stopRadius[eid], dt, _steerArrive);
        ix += _steerArrive.x; iy += _steerArrive.y;
        arriving = true;
      }
      if (flags & STEER_FOLLOW) {
        followVelocity(prefX[eid], prefY[eid], vmax, _steerFollow);
        ix += _steerFollow.x; iy += _steerFollow.y;
      }
      let room = true;
      if ((flags & STEER_AVOID_WALLS) && walls !== null) {
        feel.lookAhead = s.lookAhead[eid];
        const r = radiusA[eid];
        const reach = r * feel.clearance + r + Math.sqrt(vx * vx + vy * vy) * feel.lookAhead;
        let nc = querySegmentGrid(walls, x - reach, y - reach, x + reach, y + reach, _steerWallCand);
        if (nc === _steerWallCand.length) {
          _steerWallCand = new Int32Array(_steerWallCand.length * 2); // rare growth: a very dense wall area
          nc = querySegmentGrid(walls, x - reach, y - reach, x + reach, y + reach, _steerWallCand);
        }
        const h = avoidSegments(x, y, vx, vy, ix, iy, r, vmax, walls.segments, _steerWallCand, nc, feel, b);
        if (h > 0) { wallHits++; room = accumulateTruncated(acc, b.x, b.y, s.wAvoid[eid], vmax); }
      }
      if (room && (flags & STEER_EVADE)) {
        const te = s.threatEid[eid];
        if (live(world, te)) {
          evade(x, y, posX[te], posY[te], velX[te], velY[te], vmax, s.maxPrediction[eid], s.panicDistance[eid], b);
          room = accumulateTruncated(acc, b.x, b.y, s.wEvade[eid], vmax);
        }
      }
      if (room && (flags & STEER_FLEE)) {
        flee(x, y, s.threatX[eid], s.threatY[eid], vmax, s.panicDistance[eid], b);
        room = accumulateTruncated(acc, b.x, b.y, s.wFlee[eid], vmax);
      }
      if (room && (flags & STEER_PURSUE)) room = accumulateTruncated(acc, _steerPursue.x, _steerPursue.y, s.wPursue[eid], vmax);
      if (room && (flags & STEER_SEEK)) room = accumulateTruncated(acc, _steerSeek.x, _steerSeek.y, s.wSeek[eid], vmax);
      if (room && (flags & STEER_ARRIVE)) room = accumulateTruncated(acc, _steerArrive.x, _steerArrive.y, s.wArrive[eid], vmax);
      if (room && (flags & STEER_FOLLOW)) room = accumulateTruncated(acc, _steerFollow.x, _steerFollow.y, s.wFollow[eid], vmax);
      if (flags & STEER_WANDER) {
        // The wander angle advances every frame (even when the budget is full) so its random walk is frame-regular.
        s.wanderAngle[eid] = wander(vx, vy, s.wanderAngle[eid], rng, s.wanderDistance[eid], s.wanderRadius[eid], s.wanderJitter[eid], vmax, dt, b);
        if (room) accumulateTruncated(acc, b.x, b.y, s.wWander[eid], vmax);
      }
    }
    // Filters: smoothing (overdamped bound while arriving), then turn rate.
    let tau = s.smoothing[eid];
    if (arriving) {
      const bound = vmax > 0 ? s.slowingRadius[eid] / (4 * vmax) : tau;
      if (bound < tau) tau = bound;
    }
    smoothVelocity(vx, vy, acc.x, acc.y, tau, dt, _steerOut);
    limitTurn(vx, vy, _steerOut.x, _steerOut.y, s.turnRate[eid], dt, _steerOut);
    outVx[i] = _steerOut.x; outVy[i] = _steerOut.y;
  }
  return steered + wallHits * 0x1000000;
}
