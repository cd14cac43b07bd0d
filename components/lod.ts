import type { CrowdWorld } from '../src/world/crowd';
import { defineAgentComponent, type StoreAllocator } from '../src/world/registry';

/** LOD tier numbers. */
export const TIER_NEAR = 0;
export const TIER_MID = 1;
export const TIER_FAR = 2;

/** Bits of `LodStore.flags`: which per-agent systems run for the agent this frame. */
export const LOD_STEER = 1; // navigation, funnel, steering, formations
export const LOD_BOIDS = 2; // boids
export const LOD_ORCA = 4; // ORCA avoidance
export const LOD_CONTACTS = 8; // agent–agent contacts (every agent is kept out of walls in every frame regardless)
export const LOD_ALL = LOD_STEER | LOD_BOIDS | LOD_ORCA | LOD_CONTACTS;

/**
 * Per-agent level of detail, written by the LOD system first in each frame and read by every later system:
 *  - `tier[eid]`: TIER_NEAR / TIER_MID / TIER_FAR (default near);
 *  - `flags[eid]`: LOD_STEER | LOD_BOIDS | LOD_ORCA | LOD_CONTACTS bits for THIS frame (default all), from the tier
 *    rules; a far agent's LOD_STEER and LOD_CONTACTS bits are set on one frame in N, staggered round-robin, and on
 *    the frame it enters the tier.
 * A world without the LOD system keeps the defaults: everything runs for everyone.
 */
export interface LodStore {
  readonly tier: Uint8Array;
  readonly flags: Uint8Array;
}

export function lodComponent(world: CrowdWorld): LodStore {
  return defineAgentComponent(world, 'lod', makeLodStore);
}

// Module scope: an arrow written inside lodComponent would be a fresh closure (an allocation) on every call.
const makeLodStore = (a: StoreAllocator): LodStore => ({ tier: a.u8(TIER_NEAR), flags: a.u8(LOD_ALL) });
