/**
 * Heap-growth check, run in its own process with --expose-gc by test/world/heap.test.ts:
 * runs the 10k-agent wander scenario for STEPS steps, forcing GC and sampling heapUsed every 1,000 steps after a
 * warm-up, and prints the samples as JSON. Per-frame code must allocate nothing that survives, so the heap must not
 * grow.
 */
import { getScenario } from '../../demos/scenarios/index';

declare const gc: () => void;
const steps = Number(process.argv[2] ?? 10000);
const agents = Number(process.argv[3] ?? 10000);
const inst = getScenario('wander').create({ agents, seed: 7 });
const samples: number[] = [];
for (let i = 0; i < steps; i++) {
  inst.tick();
  if ((i + 1) % 1000 === 0) {
    gc();
    gc();
    samples.push(process.memoryUsage().heapUsed);
  }
}
console.log(JSON.stringify({ steps, agents, samples }));
