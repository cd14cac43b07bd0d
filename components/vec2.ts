import { allocTyped } from '../src/world/alloc';

/** A 2D vector per entity, structure-of-arrays: `x[eid]`, `y[eid]`. Metres or metres per second. */
export interface Vec2Store {
  readonly x: Float64Array;
  readonly y: Float64Array;
}

/** Allocate a Vec2Store for entity ids 0..capacity. */
export function createVec2Store(capacity: number, shared: boolean): Vec2Store {
  return {
    x: allocTyped<Float64Array>(Float64Array, capacity + 1, shared),
    y: allocTyped<Float64Array>(Float64Array, capacity + 1, shared),
  };
}
