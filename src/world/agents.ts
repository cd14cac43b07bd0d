import { addComponent, addEntity, removeEntity, $internal } from 'bitecs';
import { CapacityError, InvalidArgumentError, OutOfRangeError, UnknownEntityError } from '../core/errors';
import { SPATIAL_HASH_MAX_COORDINATE } from '../spatial/hash';
import { requireFinite, requireInteger, requireNonNegative, requirePositive, requirePositiveOrInfinity } from '../core/validate';
import type { CrowdWorld } from './crowd';
import { resetAgentSlots } from './registry';

/** What a new agent starts with. Positions in metres, speeds in m/s, acceleration in m/s², turn rate in rad/s. */
export interface AgentInit {
  x: number;
  y: number;
  /** Initial velocity. @default 0 */
  vx?: number;
  vy?: number;
  /** Body radius (> 0). @default 0.5 */
  radius?: number;
  /** Speed limit (≥ 0). @default 1.5 */
  maxSpeed?: number;
  /** Acceleration limit (> 0; Infinity = instant, as in RVO2). @default Infinity */
  maxAccel?: number;
  /** Turn-rate limit (> 0; Infinity = none). @default Infinity */
  maxTurnRate?: number;
  /** Mass for contact resolution (> 0, or Infinity for immovable). @default 1 */
  mass?: number;
  /** Layer bits (integer). @default 1 */
  layer?: number;
  /** Layers this agent reacts to (integer bit mask). @default -1 (all) */
  mask?: number;
}

/**
 * A position the spatial hash can index: finite and |v| <= min(1e15 m, (2^30 − 1) cells). Checked at spawn and
 * teleport so an out-of-range position is refused by the call that sets it, not by the next step's hash rebuild.
 */
function requireCoordinate(world: CrowdWorld, field: string, v: number): number {
  requireFinite(field, v);
  const lim = Math.min(SPATIAL_HASH_MAX_COORDINATE, (1073741824 - 1) * world.config.cellSize);
  if (!(Math.abs(v) <= lim)) throw new OutOfRangeError(field, v, `must be within ±${lim} m (the spatial hash range)`);
  return v;
}

/**
 * Spawn an agent and return its entity id. Every field is validated before anything is written, so a bad init
 * throws (naming the field and value) and leaves the world unchanged.
 */
export function spawnAgent(world: CrowdWorld, init: AgentInit): number {
  if (init === null || typeof init !== 'object') throw new InvalidArgumentError('init', init, 'must be an object with x and y');
  const x = requireCoordinate(world, 'init.x', init.x);
  const y = requireCoordinate(world, 'init.y', init.y);
  const vx = requireFinite('init.vx', init.vx ?? 0);
  const vy = requireFinite('init.vy', init.vy ?? 0);
  const radius = requirePositive('init.radius', init.radius ?? 0.5);
  const maxSpeed = requireNonNegative('init.maxSpeed', init.maxSpeed ?? 1.5);
  const maxAccel = requirePositiveOrInfinity('init.maxAccel', init.maxAccel ?? Infinity);
  const maxTurnRate = requirePositiveOrInfinity('init.maxTurnRate', init.maxTurnRate ?? Infinity);
  const mass = requirePositiveOrInfinity('init.mass', init.mass ?? 1, 'Infinity = immovable');
  const layer = requireInteger('init.layer', init.layer ?? 1, -2147483648, 2147483647);
  const mask = requireInteger('init.mask', init.mask ?? -1, -2147483648, 2147483647);
  const agents = world.agents;
  requireEntitySlot(world, 'maxAgents');

  const eid = addEntity(world);
  if (eid > world.capacity) {
    // Cannot happen while ids are recycled densely; guard so a bitecs change can never write out of bounds.
    removeEntity(world, eid);
    throw new CapacityError('maxAgents', world.capacity, `entity id ${eid} exceeds the store capacity`);
  }
  resetAgentSlots(world.registry, eid);
  const c = world.components;
  addComponent(world, eid, c.Position);
  addComponent(world, eid, c.Velocity);
  addComponent(world, eid, c.PreferredVelocity);
  addComponent(world, eid, c.DesiredVelocity);
  addComponent(world, eid, c.Agent);

  world.position.x[eid] = x;
  world.position.y[eid] = y;
  world.position.previousX[eid] = x;
  world.position.previousY[eid] = y;
  world.velocity.x[eid] = vx;
  world.velocity.y[eid] = vy;
  world.desiredVelocity.x[eid] = vx;
  world.desiredVelocity.y[eid] = vy;
  const a = world.agent;
  a.radius[eid] = radius;
  a.maxSpeed[eid] = maxSpeed;
  a.maxAccel[eid] = maxAccel;
  a.maxTurnRate[eid] = maxTurnRate;
  a.invMass[eid] = inverseMass(mass);
  a.layer[eid] = layer;
  a.mask[eid] = mask;

  agents.denseIndex[eid] = agents.count;
  agents.dense[agents.count++] = eid;
  agents.version++;
  return eid;
}

/** Live bitecs entities of the world: agents plus other entities such as formation groups. */
export function liveEntityCount(world: CrowdWorld): number {
  return (world as unknown as { [$internal]: { entityIndex: { aliveCount: number } } })[$internal].entityIndex.aliveCount;
}

/**
 * Throw CapacityError (changing nothing) unless one more entity fits. Stores have capacity + 1 slots and bitecs
 * recycles ids densely, so while live entities stay ≤ capacity every id stays ≤ capacity. Agents and other
 * entities (formation groups) share this budget.
 */
export function requireEntitySlot(world: CrowdWorld, field: string): void {
  const live = liveEntityCount(world);
  if (live >= world.capacity) {
    throw new CapacityError(field, world.capacity, `the world is full (${world.agents.count} live agents, ${live - world.agents.count} other entities)`);
  }
}

/** True if `eid` is a live agent of this world. */
export function isAgent(world: CrowdWorld, eid: number): boolean {
  return Number.isInteger(eid) && eid > 0 && eid <= world.capacity && world.agents.denseIndex[eid] >= 0;
}

/** Throw UnknownEntityError unless `eid` is a live agent. `field` names the argument in the message. */
export function requireAgent(world: CrowdWorld, eid: number, field = 'eid'): number {
  if (!isAgent(world, eid)) throw new UnknownEntityError(field, eid);
  return eid;
}

/**
 * Remove an agent. The last agent of the dense list takes its place (swap-remove), so iteration order stays
 * deterministic for a given history. Despawn hooks of the systems run first.
 */
export function despawnAgent(world: CrowdWorld, eid: number): void {
  requireAgent(world, eid);
  const hooks = world.registry.despawnHooks;
  for (let i = 0; i < hooks.length; i++) hooks[i](world, eid);
  const agents = world.agents;
  const i = agents.denseIndex[eid];
  const last = agents.count - 1;
  const moved = agents.dense[last];
  agents.dense[i] = moved;
  agents.denseIndex[moved] = i;
  agents.denseIndex[eid] = -1;
  agents.count = last;
  agents.version++;
  removeEntity(world, eid);
}

/** Teleport an agent (also resets its interpolation history, so it does not streak across the screen). */
export function setAgentPosition(world: CrowdWorld, eid: number, x: number, y: number): void {
  requireAgent(world, eid);
  requireCoordinate(world, 'x', x);
  requireCoordinate(world, 'y', y);
  world.position.x[eid] = x;
  world.position.y[eid] = y;
  world.position.previousX[eid] = x;
  world.position.previousY[eid] = y;
}

/** Set an agent's current velocity (m/s). */
export function setAgentVelocity(world: CrowdWorld, eid: number, vx: number, vy: number): void {
  requireAgent(world, eid);
  requireFinite('vx', vx);
  requireFinite('vy', vy);
  world.velocity.x[eid] = vx;
  world.velocity.y[eid] = vy;
}

/** Set an agent's preferred velocity directly (m/s), for games that drive agents themselves. */
export function setPreferredVelocity(world: CrowdWorld, eid: number, vx: number, vy: number): void {
  requireAgent(world, eid);
  requireFinite('vx', vx);
  requireFinite('vy', vy);
  world.preferredVelocity.x[eid] = vx;
  world.preferredVelocity.y[eid] = vy;
}

/** Change an agent's physical limits; only the given fields change. Validated first, applied all at once. */
export function setAgentParams(world: CrowdWorld, eid: number, params: Partial<Pick<AgentInit, 'radius' | 'maxSpeed' | 'maxAccel' | 'maxTurnRate' | 'mass' | 'layer' | 'mask'>>): void {
  requireAgent(world, eid);
  if (params === null || typeof params !== 'object') throw new InvalidArgumentError('params', params, 'must be an object');
  const a = world.agent;
  const radius = params.radius === undefined ? a.radius[eid] : requirePositive('params.radius', params.radius);
  const maxSpeed = params.maxSpeed === undefined ? a.maxSpeed[eid] : requireNonNegative('params.maxSpeed', params.maxSpeed);
  const maxAccel = params.maxAccel === undefined ? a.maxAccel[eid] : requirePositiveOrInfinity('params.maxAccel', params.maxAccel);
  const maxTurnRate = params.maxTurnRate === undefined ? a.maxTurnRate[eid] : requirePositiveOrInfinity('params.maxTurnRate', params.maxTurnRate);
  const invMass = params.mass === undefined ? a.invMass[eid] : inverseMass(requirePositiveOrInfinity('params.mass', params.mass, 'Infinity = immovable'));
  const layer = params.layer === undefined ? a.layer[eid] : requireInteger('params.layer', params.layer, -2147483648, 2147483647);
  const mask = params.mask === undefined ? a.mask[eid] : requireInteger('params.mask', params.mask, -2147483648, 2147483647);
  a.radius[eid] = radius;
  a.maxSpeed[eid] = maxSpeed;
  a.maxAccel[eid] = maxAccel;
  a.maxTurnRate[eid] = maxTurnRate;
  a.invMass[eid] = invMass;
  a.layer[eid] = layer;
  a.mask[eid] = mask;
}

/** 1 / mass, with an infinite mass immovable (0). */
function inverseMass(mass: number): number {
  return mass === Infinity ? 0 : 1 / mass;
}

/** The number of live agents. */
export function agentCount(world: CrowdWorld): number {
  return world.agents.count;
}
