/**
 * Per-agent collision shape for the contacts system. By default an agent is a circle of its `agent.radius` (an
 * upright cylinder seen from above); `setAgentShape` gives it any 2D convex shape (a polygon, a rounded box, a
 * larger circle) from a per-world shape table, oriented by a per-agent angle.
 */
import type { CrowdWorld } from '../src/world/crowd';
import { defineAgentComponent, type StoreAllocator } from '../src/world/registry';
import { requireAgent } from '../src/world/agents';
import { requireFinite } from '../src/core/validate';
import { InvalidArgumentError } from '../src/core/errors';
import type { Shape2 } from '../src/collision/shapes2d';

export interface AgentShapeStore {
  /** Index into the world's shape table, or -1 for the default circle of radius agent.radius. */
  readonly shape: Int32Array;
  /** Orientation of the shape about z, radians (counter-clockwise). */
  readonly angle: Float64Array;
}

export function agentShapeComponent(world: CrowdWorld): AgentShapeStore {
  return defineAgentComponent(world, 'collisionShape', makeCollisionShapeStore);
}

// Module scope: an arrow written inside agentShapeComponent would be a fresh closure (an allocation) on every call.
const makeCollisionShapeStore = (a: StoreAllocator): AgentShapeStore => ({ shape: a.i32(-1), angle: a.f64(0) });

/** The world's table of agent shapes (shared by every agent using the same shape object). */
export function agentShapeTable(world: CrowdWorld): Shape2[] {
  let t = world.systems.collisionShapes as Shape2[] | undefined;
  if (!t) { t = []; (world.systems as Record<string, unknown>).collisionShapes = t; }
  return t;
}

/**
 * Give agent `eid` a convex shape (created with circleShape, polygonShape or boxShape2), rotated by `angle` radians;
 * `null` restores the default circle of radius agent.radius. The same shape object may be shared by many agents.
 * @throws UnknownEntityError for a dead entity, InvalidArgumentError for a non-finite angle or a non-shape
 */
export function setAgentShape(world: CrowdWorld, eid: number, shape: Shape2 | null, angle = 0): void {
  requireAgent(world, eid);
  requireFinite('angle', angle);
  const store = agentShapeComponent(world);
  if (shape === null) { store.shape[eid] = -1; store.angle[eid] = angle; return; }
  if (typeof shape !== 'object' || (shape.kind !== 'circle' && shape.kind !== 'polygon')) {
    throw new InvalidArgumentError('shape', shape, 'must be a Shape2 from circleShape, polygonShape or boxShape2');
  }
  const table = agentShapeTable(world);
  let k = table.indexOf(shape);
  if (k < 0) { k = table.length; table.push(shape); }
  store.shape[eid] = k;
  store.angle[eid] = angle;
}

/** Set the orientation (radians) of agent `eid`'s shape. */
export function setAgentShapeAngle(world: CrowdWorld, eid: number, angle: number): void {
  requireAgent(world, eid);
  requireFinite('angle', angle);
  agentShapeComponent(world).angle[eid] = angle;
}
