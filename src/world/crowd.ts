import { createWorld, type World } from 'bitecs';
import { createRng, type Rng } from '../core/rng';
import { InvalidArgumentError } from '../core/errors';
import { requireInteger, requirePositive } from '../core/validate';
import { createSpatialHash, type SpatialHash } from '../spatial/hash';
import { createProfiler, type Profiler } from './profiler';
import { createRegistry, registerStore, type ComponentRegistry } from './registry';
import { createPositionStore, type PositionStore } from '../../components/position';
import { createVelocityStore, type VelocityStore } from '../../components/velocity';
import { createPreferredVelocityStore, type PreferredVelocityStore } from '../../components/preferred-velocity';
import { createDesiredVelocityStore, type DesiredVelocityStore } from '../../components/desired-velocity';
import { createAgentParamsStore, type AgentParamsStore } from '../../components/agent-params';
import { createAgentList, type AgentList } from '../../components/agent-list';

/** Options of createCrowd. Every field is optional. */
export interface CrowdOptions {
  /** Maximum live agents; stores are preallocated for this many. @default 65536 (up to 4,194,304) */
  maxAgents?: number;
  /** Seed of the world's PRNG. Same seed and inputs → bit-identical simulation. @default 1 */
  seed?: number;
  /** Allocate the per-agent stores on SharedArrayBuffer (for worker threads). @default false */
  sharedMemory?: boolean;
  /** Neighbour search radius used by the default systems, metres. @default 4 */
  neighbourRadius?: number;
  /** Spatial hash cell size, metres. @default neighbourRadius */
  cellSize?: number;
  /** Fixed time step of `advance`, seconds. @default 1/60 */
  fixedDt?: number;
  /** Most fixed steps one `advance` call may run (guards against the spiral of death). @default 5 */
  maxStepsPerAdvance?: number;
}

/** The resolved configuration held by a world. */
export interface CrowdConfig {
  readonly maxAgents: number;
  readonly seed: number;
  readonly sharedMemory: boolean;
  neighbourRadius: number;
  cellSize: number;
  fixedDt: number;
  maxStepsPerAdvance: number;
}

/** Which pipeline passes run in `step`. All default to true; a pass with no agents to serve costs ~nothing. */
export interface PipelineSwitches {
  lod: boolean;
  spatialHash: boolean;
  navigation: boolean;
  funnel: boolean;
  steering: boolean;
  boids: boolean;
  orca: boolean;
  integrate: boolean;
  contacts: boolean;
}

/** Simulation clock. */
export interface CrowdTime {
  /** Steps taken. */
  frame: number;
  /** Simulated seconds elapsed. */
  seconds: number;
  /** Unsimulated time carried by `advance`, seconds. */
  accumulator: number;
  /** Steps dropped by `advance` because of maxStepsPerAdvance. */
  droppedSteps: number;
}

/** What a Murmur world holds (on top of the bitecs world internals). */
export interface CrowdData {
  readonly capacity: number;
  readonly config: CrowdConfig;
  readonly rng: Rng;
  readonly agents: AgentList;
  readonly position: PositionStore;
  readonly velocity: VelocityStore;
  readonly preferredVelocity: PreferredVelocityStore;
  readonly desiredVelocity: DesiredVelocityStore;
  readonly agent: AgentParamsStore;
  readonly hash: SpatialHash;
  readonly profiler: Profiler;
  readonly registry: ComponentRegistry;
  readonly enabled: PipelineSwitches;
  readonly time: CrowdTime;
  /** bitecs component references for the core stores, for use with bitecs `query`. */
  readonly components: {
    readonly Position: PositionStore;
    readonly Velocity: VelocityStore;
    readonly PreferredVelocity: PreferredVelocityStore;
    readonly DesiredVelocity: DesiredVelocityStore;
    readonly Agent: AgentParamsStore;
  };
  /** Per-system state that later systems attach (navigation, orca, lod, contacts, ...). */
  readonly systems: Record<string, unknown>;
}

/** A bitecs world holding a Murmur crowd. */
export type CrowdWorld = World<CrowdData>;

export const DEFAULT_MAX_AGENTS = 65536;
export const MAX_MAX_AGENTS = 4_194_304;

/**
 * Create a crowd world: a bitecs world whose SoA stores are preallocated for `maxAgents` agents, with a seeded PRNG,
 * the configuration, the spatial hash and the profiler.
 */
export function createCrowd(options: CrowdOptions = {}): CrowdWorld {
  if (options === null || typeof options !== 'object') throw new InvalidArgumentError('options', options, 'must be an object');
  const maxAgents = requireInteger('options.maxAgents', options.maxAgents ?? DEFAULT_MAX_AGENTS, 1, MAX_MAX_AGENTS);
  const seed = options.seed ?? 1;
  if (typeof seed !== 'number' || !Number.isFinite(seed)) throw new InvalidArgumentError('options.seed', seed, 'must be a finite number');
  const sharedMemory = options.sharedMemory ?? false;
  if (typeof sharedMemory !== 'boolean') throw new InvalidArgumentError('options.sharedMemory', sharedMemory, 'must be a boolean');
  const neighbourRadius = requirePositive('options.neighbourRadius', options.neighbourRadius ?? 4);
  const cellSize = requirePositive('options.cellSize', options.cellSize ?? neighbourRadius);
  const fixedDt = requirePositive('options.fixedDt', options.fixedDt ?? 1 / 60);
  const maxStepsPerAdvance = requireInteger('options.maxStepsPerAdvance', options.maxStepsPerAdvance ?? 5, 1, 1000);

  const config: CrowdConfig = { maxAgents, seed, sharedMemory, neighbourRadius, cellSize, fixedDt, maxStepsPerAdvance };
  const position = createPositionStore(maxAgents, sharedMemory);
  const velocity = createVelocityStore(maxAgents, sharedMemory);
  const preferredVelocity = createPreferredVelocityStore(maxAgents, sharedMemory);
  const desiredVelocity = createDesiredVelocityStore(maxAgents, sharedMemory);
  const agent = createAgentParamsStore(maxAgents, sharedMemory);
  const registry = createRegistry();
  registerStore(registry, 'position.x', position.x, 0);
  registerStore(registry, 'position.y', position.y, 0);
  registerStore(registry, 'position.previousX', position.previousX, 0);
  registerStore(registry, 'position.previousY', position.previousY, 0);
  registerStore(registry, 'velocity.x', velocity.x, 0);
  registerStore(registry, 'velocity.y', velocity.y, 0);
  registerStore(registry, 'preferredVelocity.x', preferredVelocity.x, 0);
  registerStore(registry, 'preferredVelocity.y', preferredVelocity.y, 0);
  registerStore(registry, 'desiredVelocity.x', desiredVelocity.x, 0);
  registerStore(registry, 'desiredVelocity.y', desiredVelocity.y, 0);
  registerStore(registry, 'agent.radius', agent.radius, 0.5);
  registerStore(registry, 'agent.maxSpeed', agent.maxSpeed, 1.5);
  registerStore(registry, 'agent.maxAccel', agent.maxAccel, Infinity);
  registerStore(registry, 'agent.maxTurnRate', agent.maxTurnRate, Infinity);
  registerStore(registry, 'agent.invMass', agent.invMass, 1);
  registerStore(registry, 'agent.layer', agent.layer, 1);
  registerStore(registry, 'agent.mask', agent.mask, -1);

  const data: CrowdData = {
    capacity: maxAgents,
    config,
    rng: createRng(seed),
    agents: createAgentList(maxAgents, sharedMemory),
    position,
    velocity,
    preferredVelocity,
    desiredVelocity,
    agent,
    hash: createSpatialHash(maxAgents, cellSize, { shared: sharedMemory }),
    profiler: createProfiler(),
    registry,
    enabled: { lod: true, spatialHash: true, navigation: true, funnel: true, steering: true, boids: true, orca: true, integrate: true, contacts: true },
    time: { frame: 0, seconds: 0, accumulator: 0, droppedSteps: 0 },
    components: { Position: position, Velocity: velocity, PreferredVelocity: preferredVelocity, DesiredVelocity: desiredVelocity, Agent: agent },
    systems: Object.create(null),
  };
  return createWorld(data);
}
