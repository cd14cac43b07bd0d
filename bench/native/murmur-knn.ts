/**
 * Murmur's side of the native k-nearest baseline (bench/native/README.md): rebuild + queryKNearestBatch ('slot'
 * output, as bench/spatial.ts times it) on a scene written by export-scenes.ts, 21 timed frames after 3 warm-ups,
 * wall and process CPU time. Run: `node scripts/run-ts.mjs bench/native/murmur-knn.ts [folder] [scene]`.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createSpatialHash, rebuildSpatialHash, queryKNearestBatch } from '../../src/spatial/hash';

const dir = process.argv[2] ?? '/tmp/murmur-native', scene = process.argv[3] ?? 'spatial-k10';
const buf = readFileSync(`${dir}/${scene}.pos.bin`);
const all = new Float64Array(buf.buffer, buf.byteOffset, buf.byteLength / 8);
const n = all[0], k = all[1], r = all[2], cell = all[3];
const xs = new Float64Array(n), ys = new Float64Array(n), ids = new Int32Array(n);
for (let i = 0; i < n; i++) { xs[i] = all[4 + 2 * i]; ys[i] = all[5 + 2 * i]; ids[i] = i; }
const h = createSpatialHash(n, cell);
const outIds = new Int32Array(n * k), outD2 = new Float64Array(n * k), outCounts = new Int32Array(n);
const wall: number[] = [], cpu: number[] = [];
for (let f = 0; f < 24; f++) {
  const c0 = process.cpuUsage(), t0 = performance.now();
  rebuildSpatialHash(h, xs, ys, ids, n);
  queryKNearestBatch(h, 0, n, r, k, outIds, outD2, outCounts, null, -1, 'slot');
  const t1 = performance.now(), c1 = process.cpuUsage(c0);
  if (f >= 3) { wall.push(t1 - t0); cpu.push((c1.user + c1.system) / 1000); }
}
wall.sort((a, b) => a - b); cpu.sort((a, b) => a - b);
console.log(`${scene}: Murmur rebuild + queryKNearestBatch k = ${k} within ${r} m, cell ${cell} m: median ${wall[10].toFixed(2)} ms, min ${wall[0].toFixed(2)}, max ${wall[20].toFixed(2)} (CPU median ${cpu[10].toFixed(2)} ms)`);
