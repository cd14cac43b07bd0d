/**
 * Collision benchmarks: the 3D box–box manifold (GJK + EPA + clipping) per pair, the 2D polygon manifold, GJK
 * distance alone, and the contacts system on a dense pile of agents against walls.
 *
 * Per-pair timings: the pairs are timed in batches of 100 (performance.now() resolution is too coarse for a single
 * sub-microsecond call); a sample is the batch time / 100, and the median is over all batches (100,000 pairs in the
 * full run, 10,000 with --quick). Pairs are seeded and precomputed, so only the kernel is timed.
 */
import { performance } from 'node:perf_hooks';
import type { BenchModule } from './harness';
import { row } from './harness';
import { createRng, rngFloat } from '../src/core/rng';
import { boxShape, createPose, setPoseQuat } from '../src/collision/shapes';
import { contactManifold, createManifold, createManifoldInput } from '../src/collision/manifold';
import { createDistanceOutput, gjkDistance } from '../src/collision/gjk';
import { polygonShape, createPose2, setPose2 } from '../src/collision/shapes2d';
import { contactManifold2, createManifold2, createManifold2Input } from '../src/collision/manifold2d';
import { createCrowd } from '../src/world/crowd';
import { spawnAgent } from '../src/world/agents';
import { spatialHashSystem } from '../systems/spatial-hash';
import { contactsSystem, addStaticShape, configureContacts, getContacts } from '../systems/contacts';
import { boxShape2 } from '../src/collision/shapes2d';

const BATCH = 100;

/** Seeded overlapping-ish box pairs: half extents 0.3–1.5 m, random orientations, centres 0–2 m apart. */
export function boxPairs(n: number): { shapes: ReturnType<typeof boxShape>[]; poses: Float64Array[] } {
  const rng = createRng(12345);
  const shapes: ReturnType<typeof boxShape>[] = [];
  const poses: Float64Array[] = [];
  const q = () => {
    const u1 = rngFloat(rng), u2 = rngFloat(rng) * 2 * Math.PI, u3 = rngFloat(rng) * 2 * Math.PI;
    const a = Math.sqrt(1 - u1), b = Math.sqrt(u1);
    return [a * Math.sin(u2), a * Math.cos(u2), b * Math.sin(u3), b * Math.cos(u3)];
  };
  for (let i = 0; i < 2 * n; i++) {
    shapes.push(boxShape(0.3 + 1.2 * rngFloat(rng), 0.3 + 1.2 * rngFloat(rng), 0.3 + 1.2 * rngFloat(rng)));
    const r = q();
    const p = createPose();
    const s = i % 2 === 0 ? 0 : 2;
    setPoseQuat(p, s * (rngFloat(rng) - 0.5), s * (rngFloat(rng) - 0.5), s * (rngFloat(rng) - 0.5), r[0], r[1], r[2], r[3]);
    poses.push(p);
  }
  return { shapes, poses };
}

/** Per-pair wall-clock samples (µs, batches of 100); `lastCpuUs` gets the process CPU time per pair over the run. */
let lastCpuUs = 0;
function timePairs(n: number, call: (i: number) => void): number[] {
  for (let i = 0; i < Math.min(n, 2000); i++) call(i); // warm-up
  const samples: number[] = [];
  const c0 = process.cpuUsage();
  for (let b = 0; b < n / BATCH; b++) {
    const t0 = performance.now();
    for (let k = 0; k < BATCH; k++) call(b * BATCH + k);
    samples.push(((performance.now() - t0) * 1000) / BATCH);
  }
  const c1 = process.cpuUsage(c0);
  // CPU time is less disturbed than wall time on the shared machine (other processes do not add to it)
  lastCpuUs = (c1.user + c1.system) / n;
  return samples;
}

export const collisionBench: BenchModule = {
  name: 'collision',
  run(ctx) {
    const n = ctx.quick ? 10_000 : 100_000;
    // (the system runs first, before the per-pair benches fill the heap with 400,000 shapes and poses)
    // ---- contacts system: dense pile of agents against walls ----
    const agents = ctx.quick ? 2000 : 10_000;
    const world = createCrowd({ maxAgents: agents, seed: 9, cellSize: 1 });
    const side = Math.sqrt(agents) * 0.5; // radius 0.3 agents at 0.5 m spacing: every agent overlaps its neighbours
    addStaticShape(world, boxShape2(0.5, side), -0.5, side / 2);
    addStaticShape(world, boxShape2(0.5, side), side + 0.5, side / 2);
    addStaticShape(world, boxShape2(side, 0.5), side / 2, -0.5);
    const r2 = createRng(4);
    for (let i = 0; i < agents; i++) spawnAgent(world, { x: rngFloat(r2) * side, y: rngFloat(r2) * side, radius: 0.3 });
    configureContacts(world, { iterations: 4 });
    const frames: number[] = [];
    const saveX = Float64Array.from(world.position.x), saveY = Float64Array.from(world.position.y);
    const reps = ctx.quick ? 5 : 20;
    let contacts = 0, cpuMs = 0;
    const warm = 30; // let the JIT optimise the system (the first frames run in the interpreter)
    for (let f = 0; f < reps + warm; f++) {
      world.position.x.set(saveX); world.position.y.set(saveY); // same dense pile every frame
      spatialHashSystem(world);
      const t0 = performance.now(), c0 = process.cpuUsage();
      contactsSystem(world);
      const c1 = process.cpuUsage(c0);
      if (f >= warm) { frames.push(performance.now() - t0); cpuMs += (c1.user + c1.system) / 1000 / reps; }
      contacts = getContacts(world).count;
    }
    ctx.record(row('collision', `contacts system, ${agents} agents dense pile + walls (4 iterations)`, 'ms', frames, undefined, { cpuMsPerFrame: cpuMs, contacts }));
    // ---- 3D box–box manifold: the general GJK + EPA + clipping pipeline, then the SAT fast path ----
    const { shapes, poses } = boxPairs(n);
    const input = createManifoldInput(shapes[0], poses[0], shapes[1], poses[1]);
    const man = createManifold();
    const set = (i: number) => { input.shapeA = shapes[2 * i]; input.poseA = poses[2 * i]; input.shapeB = shapes[2 * i + 1]; input.poseB = poses[2 * i + 1]; };
    let touching = 0, points = 0;
    for (let i = 0; i < n; i++) { set(i); contactManifold(input, man); if (man.count > 0) { touching++; points += man.count; } }
    input.fastPaths = false;
    // iteration counts of the GJK/EPA path (untimed pass): mean GJK iterations, mean and largest EPA expansions
    let gjkIt = 0, epaIt = 0, epaMax = 0;
    for (let i = 0; i < n; i++) { set(i); contactManifold(input, man); gjkIt += man.gjkIterations; epaIt += man.epaIterations; if (man.epaIterations > epaMax) epaMax = man.epaIterations; }
    const box = timePairs(n, (i) => { set(i); contactManifold(input, man); });
    const boxCpu = lastCpuUs;
    ctx.record(row('collision', `box-box manifold (GJK+EPA+clip), ${n} pairs`, 'us', box, 1, {
      cpuUsPerPair: boxCpu, touching: touching / n, pointsPerContact: points / Math.max(1, touching), gjkIterations: gjkIt / n, epaIterations: epaIt / n, epaIterationsMax: epaMax,
    }));
    input.fastPaths = true;
    const sat = timePairs(n, (i) => { set(i); contactManifold(input, man); });
    ctx.record(row('collision', `box-box manifold (SAT fast path+clip), ${n} pairs`, 'us', sat, 1, { cpuUsPerPair: lastCpuUs }));
    // ---- GJK distance only ----
    const dist = createDistanceOutput();
    const gjk = timePairs(n, (i) => { gjkDistance(shapes[2 * i], poses[2 * i], shapes[2 * i + 1], poses[2 * i + 1], dist); });
    ctx.record(row('collision', `box-box GJK distance/overlap, ${n} pairs`, 'us', gjk, undefined, { cpuUsPerPair: lastCpuUs }));
    // ---- 2D polygon pairs ----
    const rng = createRng(777);
    const polys = [] as ReturnType<typeof polygonShape>[];
    const p2 = [] as Float64Array[];
    for (let i = 0; i < 2 * n; i++) {
      const k = 3 + Math.floor(rngFloat(rng) * 6), pts: number[] = [];
      for (let j = 0; j < k; j++) { const t = (2 * Math.PI * (j + 0.8 * rngFloat(rng))) / k; pts.push(Math.cos(t) * (0.4 + rngFloat(rng)), Math.sin(t) * (0.4 + rngFloat(rng))); }
      polys.push(polygonShape(pts));
      p2.push(i % 2 === 0 ? createPose2(0, 0, rngFloat(rng) * 6) : setPose2(createPose2(), 2 * rngFloat(rng) - 1, 2 * rngFloat(rng) - 1, rngFloat(rng) * 6));
    }
    const in2 = createManifold2Input(polys[0], p2[0], polys[1], p2[1]);
    const m2 = createManifold2();
    const poly = timePairs(n, (i) => { in2.shapeA = polys[2 * i]; in2.poseA = p2[2 * i]; in2.shapeB = polys[2 * i + 1]; in2.poseB = p2[2 * i + 1]; contactManifold2(in2, m2); });
    ctx.record(row('collision', `2D polygon manifold (3-8 gons), ${n} pairs`, 'us', poly, undefined, { cpuUsPerPair: lastCpuUs }));
  },
};
