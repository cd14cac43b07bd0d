import { allocTyped } from '../src/world/alloc';

/**
 * The dense list of live agents, in the stable order every system iterates (spawn order, with swap-remove on
 * despawn: deterministic for a given history). `denseIndex[eid]` is the agent's position in `dense`, or -1.
 * Systems take (start, count) ranges over `dense`, so a frame can be split across workers.
 */
export interface AgentList {
  readonly dense: Int32Array;
  readonly denseIndex: Int32Array;
  count: number;
  /**
   * Bumped by every spawn and despawn (and a snapshot restore): names the set of live agents, so a structure built
   * from that set (the world's spatial hash: SpatialHash.agentsVersion) can tell whether it still holds exactly it.
   */
  version: number;
}

export function createAgentList(capacity: number, shared: boolean): AgentList {
  const denseIndex = allocTyped<Int32Array>(Int32Array, capacity + 1, shared);
  denseIndex.fill(-1);
  return { dense: allocTyped<Int32Array>(Int32Array, capacity, shared), denseIndex, count: 0, version: 0 };
}
