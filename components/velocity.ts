import { createVec2Store, type Vec2Store } from './vec2';

/** Current velocity, metres per second: what integration moved the agent by in the last step. */
export type VelocityStore = Vec2Store;

export function createVelocityStore(capacity: number, shared: boolean): VelocityStore {
  return createVec2Store(capacity, shared);
}
