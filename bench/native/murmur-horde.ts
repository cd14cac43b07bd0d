/**
 * Murmur's side of the DetourCrowd comparison (bench/native/README.md): the all-near horde of bench/horde.ts (LOD
 * off: every agent runs navigation, steering, boids separation, ORCA and contacts) at N agents, whole `step` per
 * frame, median over 120 frames after 30 warm-up frames, as bench/horde.ts and detour-horde.cpp time it.
 * Run: `node scripts/run-ts.mjs bench/native/murmur-horde.ts <agents>`.
 */
import { performance } from 'node:perf_hooks';
import { createHorde } from '../../demos/scenarios/horde';

const agents = Number(process.argv[2] ?? 10_000);
const inst = createHorde({ agents, seed: 1, lod: false });
for (let i = 0; i < 30; i++) inst.tick();
const t: number[] = [];
for (let f = 0; f < 120; f++) { const t0 = performance.now(); inst.tick(); t.push(performance.now() - t0); }
t.sort((a, b) => a - b);
let moving = 0, speed = 0;
const w = inst.world;
for (let i = 0; i < w.agents.count; i++) {
  const e = w.agents.dense[i], s = Math.hypot(w.velocity.x[e], w.velocity.y[e]);
  speed += s; if (s > 0.1) moving++;
}
console.log(`Murmur horde, ${w.agents.count} agents, all near: step median ${t[60].toFixed(1)} ms, min ${t[0].toFixed(1)}, max ${t[119].toFixed(1)} (frames 30-149); at frame 150 ${moving} moving, mean speed ${(speed / w.agents.count).toFixed(2)} m/s`);
