import { createVec2Store, type Vec2Store } from './vec2';

/**
 * Desired velocity, metres per second: the collision-free velocity chosen by avoidance (ORCA), or the preferred
 * velocity for agents that avoidance does not handle. Integration steers the current velocity toward it within the
 * agent's acceleration and turn-rate limits.
 */
export type DesiredVelocityStore = Vec2Store;

export function createDesiredVelocityStore(capacity: number, shared: boolean): DesiredVelocityStore {
  return createVec2Store(capacity, shared);
}
