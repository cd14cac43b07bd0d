import { createVec2Store, type Vec2Store } from './vec2';

/**
 * Preferred velocity, metres per second: where the agent wants to go this frame, ignoring other agents. Written by
 * navigation, funnel, steering and boids (in that order); read by avoidance.
 */
export type PreferredVelocityStore = Vec2Store;

export function createPreferredVelocityStore(capacity: number, shared: boolean): PreferredVelocityStore {
  return createVec2Store(capacity, shared);
}
