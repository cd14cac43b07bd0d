/**
 * Writes the inputs and Murmur's answers for the native baselines (bench/native/README.md) to a folder (default
 * /tmp/murmur-native): the issue-2 scene of bench/spatial.ts (100,000 agents, 4 m² each, k = 10 within 4 m, cell 4 m)
 * and the first frame of bench/boids.ts's flock (100,000 agents, 1.5 m² each, k = 7 within 8 m, cell 2 m), and the
 * 100,000 seeded box pairs of bench/collision.ts with Murmur's GJK + EPA manifold depth and normal per pair, and the
 * all-near horde of bench/horde.ts at spawn, 10,000 and 25,000 agents (for DetourCrowd).
 * Run: `node scripts/run-ts.mjs bench/native/export-scenes.ts [folder]`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createSpatialHash, rebuildSpatialHash, queryKNearestBatch } from '../../src/spatial/hash';
import { contactManifold, createManifold, createManifoldInput } from '../../src/collision/manifold';
import { uniformScene } from '../spatial';
import { flockScene } from '../boids';
import { boxPairs } from '../collision';
import { createHorde } from '../../demos/scenarios/horde';

const dir = process.argv[2] ?? '/tmp/murmur-native';
mkdirSync(dir, { recursive: true });

/** header (n, k, r, cell as float64), positions xy interleaved, Murmur's neighbour ids (id-indexed, k per agent), counts */
function writeKnnScene(name: string, xs: Float64Array, ys: Float64Array, k: number, r: number, cell: number): void {
  const n = xs.length, ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const pos = new Float64Array(4 + 2 * n);
  pos[0] = n; pos[1] = k; pos[2] = r; pos[3] = cell;
  for (let i = 0; i < n; i++) { pos[4 + 2 * i] = xs[i]; pos[5 + 2 * i] = ys[i]; }
  const h = createSpatialHash(n, cell);
  rebuildSpatialHash(h, xs, ys, ids, n);
  const outIds = new Int32Array(n * k), outD2 = new Float64Array(n * k), outCounts = new Int32Array(n);
  queryKNearestBatch(h, 0, n, r, k, outIds, outD2, outCounts, null, -1, 'id');
  writeFileSync(`${dir}/${name}.pos.bin`, Buffer.from(pos.buffer));
  writeFileSync(`${dir}/${name}.ids.bin`, Buffer.from(outIds.buffer));
  writeFileSync(`${dir}/${name}.counts.bin`, Buffer.from(outCounts.buffer));
}

{ // bench/spatial.ts: the issue-2 scene
  const sc = uniformScene(100_000, 12345 + 100_000);
  writeKnnScene('spatial-k10', sc.xs, sc.ys, 10, 4, 4);
}
{ // bench/boids.ts: the flock's spawn positions, in dense order (agent i of the scene = dense[i])
  const world = flockScene(100_000, 'topological');
  const n = world.agents.count, xs = new Float64Array(n), ys = new Float64Array(n);
  for (let i = 0; i < n; i++) { const e = world.agents.dense[i]; xs[i] = world.position.x[e]; ys[i] = world.position.y[e]; }
  writeKnnScene('boids-k7', xs, ys, 7, 8, 2);
}
{ // bench/collision.ts: per shape hx hy hz, then the 12 pose numbers (position, row-major rotation)
  const n = 100_000, { shapes, poses } = boxPairs(n);
  const rec = new Float64Array(2 * n * 15);
  for (let i = 0; i < 2 * n; i++) {
    rec[15 * i] = shapes[i].hx; rec[15 * i + 1] = shapes[i].hy; rec[15 * i + 2] = shapes[i].hz;
    rec.set(poses[i].subarray(0, 12), 15 * i + 3);
  }
  writeFileSync(`${dir}/boxes.bin`, Buffer.from(rec.buffer));
  const input = createManifoldInput(shapes[0], poses[0], shapes[1], poses[1]);
  input.fastPaths = false; // the GJK + EPA + clipping path the issue-8 figure times
  const man = createManifold(), out = new Float64Array(5 * n);
  for (let i = 0; i < n; i++) {
    input.shapeA = shapes[2 * i]; input.poseA = poses[2 * i]; input.shapeB = shapes[2 * i + 1]; input.poseB = poses[2 * i + 1];
    contactManifold(input, man);
    out[5 * i] = man.count; out[5 * i + 1] = man.depth; out.set(man.normal, 5 * i + 2);
  }
  writeFileSync(`${dir}/murmur-boxes.bin`, Buffer.from(out.buffer));
}
// bench/horde.ts: the all-near horde (LOD off) at spawn, for DetourCrowd (detour-horde.cpp). Header: agents, city
// side (m), goal x, goal y, agent radius; then per agent (dense order) x, y, max speed, max acceleration.
for (const agents of [10_000, 25_000]) {
  const h = createHorde({ agents, seed: 1, lod: false });
  const w = h.world, n = w.agents.count, rec = new Float64Array(5 + 4 * n);
  rec[0] = n; rec[1] = h.bounds.maxX; rec[2] = h.goal.x; rec[3] = h.goal.y; rec[4] = w.agent.radius[w.agents.dense[0]];
  for (let i = 0; i < n; i++) {
    const e = w.agents.dense[i];
    rec[5 + 4 * i] = w.position.x[e]; rec[6 + 4 * i] = w.position.y[e]; rec[7 + 4 * i] = w.agent.maxSpeed[e]; rec[8 + 4 * i] = w.agent.maxAccel[e];
  }
  writeFileSync(`${dir}/horde-${agents / 1000}k.bin`, Buffer.from(rec.buffer));
}
console.log(`wrote the native baseline inputs to ${dir}`);
