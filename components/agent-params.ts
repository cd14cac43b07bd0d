import { allocTyped } from '../src/world/alloc';

/** Physical limits of each agent. */
export interface AgentParamsStore {
  /** Body radius, metres (> 0). */
  readonly radius: Float64Array;
  /** Speed limit, metres per second (≥ 0). */
  readonly maxSpeed: Float64Array;
  /** Acceleration limit, metres per second² (> 0; Infinity = velocity changes instantly, as in RVO2). */
  readonly maxAccel: Float64Array;
  /** Turn-rate limit, radians per second (> 0; Infinity = no limit). */
  readonly maxTurnRate: Float64Array;
  /** Inverse mass for contact resolution (0 = immovable). */
  readonly invMass: Float64Array;
  /** Layer bits this agent belongs to (avoidance and contacts filter neighbours by layer & mask). */
  readonly layer: Int32Array;
  /** Layers this agent reacts to. */
  readonly mask: Int32Array;
}

export function createAgentParamsStore(capacity: number, shared: boolean): AgentParamsStore {
  const n = capacity + 1;
  return {
    radius: allocTyped<Float64Array>(Float64Array, n, shared),
    maxSpeed: allocTyped<Float64Array>(Float64Array, n, shared),
    maxAccel: allocTyped<Float64Array>(Float64Array, n, shared),
    maxTurnRate: allocTyped<Float64Array>(Float64Array, n, shared),
    invMass: allocTyped<Float64Array>(Float64Array, n, shared),
    layer: allocTyped<Int32Array>(Int32Array, n, shared),
    mask: allocTyped<Int32Array>(Int32Array, n, shared),
  };
}
