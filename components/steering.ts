import type { CrowdWorld } from '../src/world/crowd';
import { defineAgentComponent, type StoreAllocator } from '../src/world/registry';

/** Behaviour bits of SteeringStore.behaviours. Several may be set; they combine in the priority order below. */
export const STEER_AVOID_WALLS = 1;
export const STEER_EVADE = 2;
export const STEER_FLEE = 4;
export const STEER_PURSUE = 8;
export const STEER_SEEK = 16;
export const STEER_ARRIVE = 32;
export const STEER_FOLLOW = 64;
export const STEER_WANDER = 128;
/** Every valid bit. */
export const STEER_ALL = 255;

/**
 * Per-agent steering configuration and state (SoA, indexed by entity id). Defaults are the values in brackets.
 * Priority order of the truncated sum: avoid walls → evade → flee → pursue → seek → arrive → follow → wander.
 * `panic` = 1 overrides everything: the agent flees its threat (point, or `threatEid`'s predicted position) at full
 * speed.
 */
export interface SteeringStore {
  /** Bit set of STEER_* behaviours [0 = steering leaves the preferred velocity alone]. */
  readonly behaviours: Uint32Array;
  /** 1 = panic override (flee the threat, ignore everything else) [0]. */
  readonly panic: Uint8Array;
  /** Seek/arrive target, metres, and its velocity (m/s) for arrive at a moving target [0]. */
  readonly targetX: Float64Array;
  readonly targetY: Float64Array;
  readonly targetVx: Float64Array;
  readonly targetVy: Float64Array;
  /** Entity pursued by STEER_PURSUE [0 = none]. */
  readonly pursueEid: Int32Array;
  /** Threat point fled by STEER_FLEE and panic, metres [0]. */
  readonly threatX: Float64Array;
  readonly threatY: Float64Array;
  /** Entity evaded by STEER_EVADE (and by panic, when set, instead of the threat point) [0 = none]. */
  readonly threatEid: Int32Array;
  /** Weights, dimensionless [1]. */
  readonly wAvoid: Float64Array;
  readonly wEvade: Float64Array;
  readonly wFlee: Float64Array;
  readonly wPursue: Float64Array;
  readonly wSeek: Float64Array;
  readonly wArrive: Float64Array;
  readonly wFollow: Float64Array;
  readonly wWander: Float64Array;
  /** Arrive slowing radius, metres [2]. */
  readonly slowingRadius: Float64Array;
  /** Arrive stop radius, metres [0.02 = 1% of the default slowing radius]. */
  readonly stopRadius: Float64Array;
  /** Flee/evade ignores threats farther than this, metres [10]. */
  readonly panicDistance: Float64Array;
  /** Pursue/evade prediction cap, seconds [3]. */
  readonly maxPrediction: Float64Array;
  /** Wander circle distance ahead [2] and radius [1], metres; jitter, rad/√s [2]; current angle (state) [0]. */
  readonly wanderDistance: Float64Array;
  readonly wanderRadius: Float64Array;
  readonly wanderJitter: Float64Array;
  readonly wanderAngle: Float64Array;
  /** Wall feelers: look-ahead time, seconds [1]. */
  readonly lookAhead: Float64Array;
  /** Velocity smoothing time constant τ, seconds [0.1; 0 = off]. */
  readonly smoothing: Float64Array;
  /** Heading filter: maximum turn rate, rad/s [Infinity = off]. */
  readonly turnRate: Float64Array;
}

/** The steering component of a world (defined on first use). */
export function steeringComponent(world: CrowdWorld): SteeringStore {
  return defineAgentComponent(world, 'steering', makeSteeringStore);
}

// Module scope: an arrow written inside steeringComponent would be a fresh closure (an allocation) on every call.
const makeSteeringStore = (a: StoreAllocator): SteeringStore => ({
  behaviours: a.u32(0),
  panic: a.u8(0),
  targetX: a.f64(0), targetY: a.f64(0), targetVx: a.f64(0), targetVy: a.f64(0),
  pursueEid: a.i32(0),
  threatX: a.f64(0), threatY: a.f64(0),
  threatEid: a.i32(0),
  wAvoid: a.f64(1), wEvade: a.f64(1), wFlee: a.f64(1), wPursue: a.f64(1),
  wSeek: a.f64(1), wArrive: a.f64(1), wFollow: a.f64(1), wWander: a.f64(1),
  slowingRadius: a.f64(2),
  stopRadius: a.f64(0.02),
  panicDistance: a.f64(10),
  maxPrediction: a.f64(3),
  wanderDistance: a.f64(2), wanderRadius: a.f64(1), wanderJitter: a.f64(2), wanderAngle: a.f64(0),
  lookAhead: a.f64(1),
  smoothing: a.f64(0.1),
  turnRate: a.f64(Infinity),
});
