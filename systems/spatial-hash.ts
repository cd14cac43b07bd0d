import type { CrowdWorld } from '../src/world/crowd';
import { rebuildSpatialHash, setSpatialHashCellSize } from '../src/spatial/hash';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';

/**
 * Spatial hash system: rebuilds the world's neighbour index from the live agents' positions (counting sort into flat
 * arrays, no allocation). Every later system queries `world.hash`.
 */
export function spatialHashSystem(world: CrowdWorld): void {
  const t0 = nowMs();
  const hash = world.hash;
  if (hash.cellSize !== world.config.cellSize) setSpatialHashCellSize(hash, world.config.cellSize);
  rebuildSpatialHash(hash, world.position.x, world.position.y, world.agents.dense, world.agents.count);
  hash.agentsVersion = world.agents.version;
  profileCount(world.profiler, 'spatialHash', 'agents', world.agents.count);
  profileRecord(world.profiler, 'spatialHash', t0);
}

/**
 * True if the world's spatial hash holds exactly the live agents: spatialHashSystem built it and no agent has been
 * spawned or despawned since. Systems then work in the hash's slot order (`hash.sortedIds`: neighbours in
 * consecutive slots, cache-friendly); otherwise they walk the dense list. Positions may still have moved since the
 * rebuild (a system run alone after integrate): queries then see the positions of the rebuild, as always.
 *
 * @example
 * const world = createCrowd({ seed: 1 });
 * spawnAgent(world, { x: 0, y: 0 });
 * spatialHashSystem(world);
 * hashHoldsLiveAgents(world); // true
 * spawnAgent(world, { x: 1, y: 0 });
 * hashHoldsLiveAgents(world); // false until the next rebuild
 */
export function hashHoldsLiveAgents(world: CrowdWorld): boolean {
  const hash = world.hash;
  return hash.agentsVersion === world.agents.version && hash.count === world.agents.count;
}
