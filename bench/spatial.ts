/**
 * Spatial hash benchmark: a crowd spread uniformly at ~1 agent per 4 m² (a dense but moving crowd; Fruin's level of
 * service C/D boundary is ~1 person per 2-3 m², so this is a busy plaza rather than a queue), neighbour radius 4 m.
 * Measures rebuild alone, and rebuild + a k = 10 nearest query for every agent made in cell-sorted order (the
 * batch helper), at 10k and 100k agents. Issue 2 target: the latter under 8 ms per frame at 100k on one core.
 * Also reports the same queries made in entity-id order, and a cell-size sweep, to document the tuning choices.
 */
import { createRng, rngFloat } from '../src/core/rng';
import {
  createSpatialHash,
  queryKNearest,
  queryKNearestBatch,
  queryRadius,
  rebuildSpatialHash,
  setSpatialHashCellSize,
} from '../src/spatial/hash';
import { row, timeMs, type BenchModule } from './harness';

const RADIUS = 4; // metres
const K = 10;
const AREA_PER_AGENT = 4; // m²

interface Scene { n: number; xs: Float64Array; ys: Float64Array; ids: Int32Array }

function uniformScene(n: number, seed: number): Scene {
  const rng = createRng(seed);
  const side = Math.sqrt(AREA_PER_AGENT * n);
  const xs = new Float64Array(n), ys = new Float64Array(n), ids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = (rngFloat(rng) - 0.5) * side;
    ys[i] = (rngFloat(rng) - 0.5) * side;
    ids[i] = i;
  }
  return { n, xs, ys, ids };
}

export const spatialBench: BenchModule = {
  name: 'spatial',
  run(ctx) {
    const sizes = ctx.quick ? [10_000, 100_000] : [10_000, 100_000];
    const samples = ctx.quick ? 15 : 60;
    for (const n of sizes) {
      const s = uniformScene(n, 12345 + n);
      const label = n >= 1000 ? `${n / 1000}k` : String(n);
      const hash = createSpatialHash(n, RADIUS);
      const outIds = new Int32Array(n * K), outD2 = new Float64Array(n * K), outCounts = new Int32Array(n);
      const target = n === 100_000 ? 8 : undefined;

      const rebuild = timeMs(() => rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n), samples);
      ctx.record(row('spatial-hash', `rebuild, ${label} uniform, cell ${RADIUS} m`, 'ms', rebuild));

      let total = 0;
      const frame = timeMs(() => {
        rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n);
        total = queryKNearestBatch(hash, 0, n, RADIUS, K, outIds, outD2, outCounts);
      }, samples);
      ctx.record(row('spatial-hash', `rebuild+kNN k=${K} r=${RADIUS}, ${label}, cell ${RADIUS} m (sorted)`, 'ms', frame, target, {
        meanNeighbours: total / n,
        scannedPerQuery: hash.scanned / n,
      }));

      // Same queries in entity-id order through the single-query API (what a naive system loop would do).
      const qIds = new Int32Array(K), qD2 = new Float64Array(K);
      const byId = timeMs(() => {
        rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n);
        for (let i = 0; i < n; i++) queryKNearest(hash, s.xs[i], s.ys[i], RADIUS, K, i, qIds, qD2);
      }, Math.max(5, samples >> 2));
      ctx.record(row('spatial-hash', `rebuild+kNN k=${K}, ${label}, cell ${RADIUS} m (id order)`, 'ms', byId));

      // Radius query for every agent (metric neighbours), sorted order.
      const rIds = new Int32Array(64);
      let found = 0;
      const radius = timeMs(() => {
        rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n);
        found = 0;
        const sx = hash.sortedX, sy = hash.sortedY, sid = hash.sortedIds;
        for (let t = 0; t < n; t++) found += queryRadius(hash, sx[t], sy[t], RADIUS, sid[t], rIds);
      }, Math.max(5, samples >> 2));
      ctx.record(row('spatial-hash', `rebuild+radius r=${RADIUS}, ${label} (sorted)`, 'ms', radius, undefined, { meanFound: found / n }));

      // Cell-size sweep for the kNN frame (cell size relative to the query radius).
      if (!ctx.quick || n === 100_000) {
        for (const f of [0.5, 0.75, 1.5]) {
          setSpatialHashCellSize(hash, RADIUS * f);
          const sweep = timeMs(() => {
            rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n);
            queryKNearestBatch(hash, 0, n, RADIUS, K, outIds, outD2, outCounts);
          }, Math.max(5, samples >> 2));
          ctx.record(row('spatial-hash', `rebuild+kNN k=${K} r=${RADIUS}, ${label}, cell ${RADIUS * f} m (sorted)`, 'ms', sweep, undefined, {
            scannedPerQuery: hash.scanned / n,
          }));
        }
        setSpatialHashCellSize(hash, RADIUS);
      }
    }
  },
};
