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
  profileCount(world.profiler, 'spatialHash', 'agents', world.agents.count);
  profileRecord(world.profiler, 'spatialHash', t0);
}
