import type { CrowdWorld } from '../src/world/crowd';
import { defineAgentComponent, type StoreAllocator } from '../src/world/registry';

/**
 * Per-agent formation membership (SoA, indexed by entity id): the group entity the agent belongs to (0 = none) and
 * its slot index in the group's current shape (−1 = unassigned). Written by the formation API and system.
 */
export interface FormationStore {
  readonly group: Int32Array;
  readonly slot: Int32Array;
}

export function formationComponent(world: CrowdWorld): FormationStore {
  return defineAgentComponent(world, 'formation', makeFormationStore);
}

// Module scope: an arrow written inside formationComponent would be a fresh closure (an allocation) on every call.
const makeFormationStore = (a: StoreAllocator): FormationStore => ({ group: a.i32(0), slot: a.i32(-1) });
