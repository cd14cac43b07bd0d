/**
 * Spatial hash benchmark: a crowd spread uniformly at ~1 agent per 4 m² (a dense but moving crowd; Fruin's level of
 * service C/D boundary is ~1 person per 2-3 m², so this is a busy plaza rather than a queue), neighbour radius 4 m.
 * Measures rebuild alone, and rebuild + a k = 10 nearest query for every agent through queryKNearestBatch, at 10k
 * and 100k agents. Issue 2 target: the latter under 8 ms per frame at 100k on one core. Also reports the same
 * neighbours through one queryKNearest call per agent, a radius query per agent, and (full run) a cell-size sweep.
 * Every row carries process CPU time next to wall time (see timeWallCpu).
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
import { performance } from 'node:perf_hooks';
import { row, summarize, type BenchModule } from './harness';

/**
 * Like harness.timeMs, but also records the process CPU time of each call (ms): on the shared development machine
 * wall time includes waiting for a core, CPU time mostly does not, so the two side by side show how noisy a run was.
 */
function timeWallCpu(fn: () => void, samples: number, warmup = 3): { wall: number[]; cpu: number[] } {
  for (let i = 0; i < warmup; i++) fn();
  const wall: number[] = [], cpu: number[] = [];
  for (let i = 0; i < samples; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    fn();
    const t1 = performance.now();
    const c1 = process.cpuUsage();
    wall.push(t1 - t0);
    cpu.push((c1.user + c1.system - c0.user - c0.system) / 1000);
  }
  return { wall, cpu };
}

function cpuExtra(cpu: number[], extra: Record<string, number | string> = {}): Record<string, number | string> {
  const c = summarize(cpu);
  return { cpuMedianMs: c.median, cpuMinMs: c.min, ...extra };
}

const RADIUS = 4; // metres
const K = 10;
const AREA_PER_AGENT = 4; // m²

interface Scene { n: number; xs: Float64Array; ys: Float64Array; ids: Int32Array }

export function uniformScene(n: number, seed: number): Scene {
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

/** n agents in 64 square blobs of 1 agent per m² (a queue or a choke point), blob centres on a seeded grid. */
function clumpedScene(n: number, seed: number): Scene {
  const rng = createRng(seed);
  const blobs = 64, perBlob = Math.ceil(n / blobs), side = Math.sqrt(perBlob); // 1 agent per m² inside a blob
  const xs = new Float64Array(n), ys = new Float64Array(n), ids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const b = (i / perBlob) | 0;
    const cx = ((b % 8) - 3.5) * 3 * side, cy = (((b / 8) | 0) - 3.5) * 3 * side;
    xs[i] = cx + (rngFloat(rng) - 0.5) * side;
    ys[i] = cy + (rngFloat(rng) - 0.5) * side;
    ids[i] = i;
  }
  return { n, xs, ys, ids };
}

export const spatialBench: BenchModule = {
  name: 'spatial',
  run(ctx) {
    const sizes = [10_000, 100_000];
    const samples = ctx.quick ? 15 : 40;
    for (const n of sizes) {
      const s = uniformScene(n, 12345 + n);
      const label = n >= 1000 ? `${n / 1000}k` : String(n);
      const hash = createSpatialHash(n, RADIUS);
      const outIds = new Int32Array(n * K), outD2 = new Float64Array(n * K), outCounts = new Int32Array(n);
      const target = n === 100_000 ? 8 : undefined;

      const rebuild = timeWallCpu(() => rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n), samples);
      ctx.record(row('spatial-hash', `rebuild, ${label} uniform, cell ${RADIUS} m`, 'ms', rebuild.wall, undefined, cpuExtra(rebuild.cpu)));

      // The issue-2 target: rebuild + the k nearest of every agent, through the batch (sorted order, slot output).
      let total = 0;
      const frame = timeWallCpu(() => {
        rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n);
        total = queryKNearestBatch(hash, 0, n, RADIUS, K, outIds, outD2, outCounts, null, -1, 'slot');
      }, samples);
      ctx.record(row('spatial-hash', `rebuild+kNN batch k=${K} r=${RADIUS}, ${label}, cell ${RADIUS} m, slot output`, 'ms', frame.wall, target, cpuExtra(frame.cpu, {
        meanNeighbours: total / n,
        scannedPerAgent: hash.scanned / n,
      })));

      // The same with id-indexed output (the batch's default layout).
      const byIdOut = timeWallCpu(() => {
        rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n);
        queryKNearestBatch(hash, 0, n, RADIUS, K, outIds, outD2, outCounts, null, -1, 'id');
      }, Math.max(5, samples >> 2));
      ctx.record(row('spatial-hash', `rebuild+kNN batch k=${K}, ${label}, id-indexed output`, 'ms', byIdOut.wall, undefined, cpuExtra(byIdOut.cpu)));

      // Same neighbours through the single-query API (ring search), one call per agent in entity-id order.
      const qIds = new Int32Array(K), qD2 = new Float64Array(K);
      const byId = timeWallCpu(() => {
        rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n);
        for (let i = 0; i < n; i++) queryKNearest(hash, s.xs[i], s.ys[i], RADIUS, K, i, qIds, qD2);
      }, Math.max(5, samples >> 2));
      ctx.record(row('spatial-hash', `rebuild+queryKNearest x${label} k=${K} (id order)`, 'ms', byId.wall, undefined, cpuExtra(byId.cpu, {
        scannedPerAgent: hash.scanned / n,
      })));

      // Radius query for every agent (metric neighbours), in cell-sorted order.
      const rIds = new Int32Array(64);
      let found = 0;
      const radius = timeWallCpu(() => {
        rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n);
        found = 0;
        const sx = hash.sortedX, sy = hash.sortedY, sid = hash.sortedIds;
        for (let t = 0; t < n; t++) found += queryRadius(hash, sx[t], sy[t], RADIUS, sid[t], rIds);
      }, Math.max(5, samples >> 2));
      ctx.record(row('spatial-hash', `rebuild+queryRadius x${label} r=${RADIUS} (sorted)`, 'ms', radius.wall, undefined, cpuExtra(radius.cpu, { meanFound: found / n })));

      // Cell-size sweep for the batch frame (cell size relative to the query radius).
      if (!ctx.quick && n === 100_000) {
        for (const f of [0.5, 0.75, 1.5, 2]) {
          setSpatialHashCellSize(hash, RADIUS * f);
          const sweep = timeWallCpu(() => {
            rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n);
            queryKNearestBatch(hash, 0, n, RADIUS, K, outIds, outD2, outCounts, null, -1, 'slot');
          }, Math.max(5, samples >> 2));
          ctx.record(row('spatial-hash', `rebuild+kNN batch k=${K} r=${RADIUS}, ${label}, cell ${RADIUS * f} m`, 'ms', sweep.wall, undefined, cpuExtra(sweep.cpu, {
            scannedPerAgent: hash.scanned / n,
          })));
        }
        setSpatialHashCellSize(hash, RADIUS);
        // The same frame for a clumped crowd: blobs about 4 times denser than the uniform crowd, so many queries
        // have more survivors than the batch kernel's sorting networks take and go to its exact fallback.
        const c = clumpedScene(n, 777);
        const clumped = timeWallCpu(() => {
          rebuildSpatialHash(hash, c.xs, c.ys, c.ids, n);
          total = queryKNearestBatch(hash, 0, n, RADIUS, K, outIds, outD2, outCounts, null, -1, 'slot');
        }, Math.max(5, samples >> 2));
        ctx.record(row('spatial-hash', `rebuild+kNN batch k=${K} r=${RADIUS}, ${label} in blobs (~1 per m²), cell ${RADIUS} m, slot output`, 'ms', clumped.wall, undefined, cpuExtra(clumped.cpu, {
          meanNeighbours: total / n,
          scannedPerAgent: hash.scanned / n,
        })));
        // A query radius well above the cell size (ORCA-style neighbour distance): the block-seeded ring search.
        const wide = timeWallCpu(() => {
          rebuildSpatialHash(hash, s.xs, s.ys, s.ids, n);
          queryKNearestBatch(hash, 0, n, 10, K, outIds, outD2, outCounts, null, -1, 'slot');
        }, Math.max(5, samples >> 2));
        ctx.record(row('spatial-hash', `rebuild+kNN batch k=${K} r=10, ${label}, cell ${RADIUS} m (ring search)`, 'ms', wide.wall, undefined, cpuExtra(wide.cpu, {
          scannedPerAgent: hash.scanned / n,
        })));
      }
    }
  },
};
