import type { CrowdWorld } from '../src/world/crowd';
import { defineAgentComponent } from '../src/world/registry';

/** LOD tier numbers. Near agents get every system every frame; mid skip ORCA; far run navigation/steering staggered. */
export const TIER_NEAR = 0;
export const TIER_MID = 1;
export const TIER_FAR = 2;

/**
 * Per-agent level of detail, written by the LOD system at the start of each frame and read by every later system:
 *  - `tier[eid]`: TIER_NEAR / TIER_MID / TIER_FAR (default near, so a world without LOD runs everything at full quality);
 *  - `update[eid]`: 1 when the agent's expensive per-agent logic (navigation, steering, boids) runs this frame:
 *    always 1 for near and mid agents; for far agents 1 on one frame out of N, staggered round-robin.
 * Systems honour it like this: ORCA handles an agent only if tier === TIER_NEAR (other agents are seen as moving
 * obstacles with their current velocities); boids only if tier <= TIER_MID and update === 1; navigation and
 * steering only if update === 1 (far agents keep their last preferred velocity between updates). Integration runs
 * for everyone every frame.
 */
export interface LodStore {
  readonly tier: Uint8Array;
  readonly update: Uint8Array;
}

export function lodComponent(world: CrowdWorld): LodStore {
  return defineAgentComponent(world, 'lod', (a) => ({ tier: a.u8(TIER_NEAR), update: a.u8(1) }));
}
