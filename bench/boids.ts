/**
 * Boids benchmark (issue 5): 100,000 flocking agents with topological k = 7 neighbourhoods, one frame =
 * spatial hash rebuild + steering system + boids system (what a murmuration costs per frame), on one core.
 * Target: under 8 ms per frame including the hash. The scene is a flock at ~1.5 m² per agent (mean nearest-neighbour
 * distance ≈ 0.6 m) in a square, headings within ±45° (a travelling flock), speeds 1 m/s; a quarter of the agents
 * also wander (so the steering system has real work), the rest flock freely. Agents move between timed frames
 * (integration, untimed), so the hash and the neighbourhoods change from frame to frame as in a game.
 * Also reported: the same with metric r = 2 m neighbourhoods, 10,000 agents, and, side by side in the same frames,
 * the generic accelerations pass (one queryKNearest per agent) that the fused topological pass replaces.
 */
import { createRng, rngFloat } from '../src/core/rng';
import { createCrowd, type CrowdWorld } from '../src/world/crowd';
import { spawnAgent } from '../src/world/agents';
import { spatialHashSystem } from '../systems/spatial-hash';
import { steeringSystem, setSteering } from '../systems/steering';
import { boidsAccelerations, boidsSystem, setBoids } from '../systems/boids';
import { integrateSystem } from '../systems/integrate';
import { preferredToDesired } from '../src/world/step';
import { STEER_WANDER } from '../components/steering';
import { row, type BenchModule } from './harness';
import { performance } from 'node:perf_hooks';

const AREA_PER_AGENT = 1.5; // m²
const DT = 1 / 60;

export function flockScene(n: number, mode: 'topological' | 'metric'): CrowdWorld {
  // Cell 2 m: the 7th-nearest distance at this density is ~1.3 m, so a k = 7 query touches ~3×3 cells.
  const world = createCrowd({ maxAgents: n, seed: 77, neighbourRadius: 2, cellSize: 2 });
  const rng = createRng(77);
  const side = Math.sqrt(AREA_PER_AGENT * n);
  for (let i = 0; i < n; i++) {
    const h = (rngFloat(rng) - 0.5) * (Math.PI / 2);
    const e = spawnAgent(world, { x: (rngFloat(rng) - 0.5) * side, y: (rngFloat(rng) - 0.5) * side, vx: Math.cos(h), vy: Math.sin(h), radius: 0.2, maxSpeed: 2 });
    setBoids(world, e, { mode, radius: mode === 'metric' ? 2 : 8, k: 7, minSpeed: 1 });
    if (i % 4 === 0) setSteering(world, e, { behaviours: STEER_WANDER, weights: { wander: 0.3 } });
  }
  return world;
}

function measure(world: CrowdWorld, samples: number) {
  const hash: number[] = [], steer: number[] = [], boids: number[] = [], frame: number[] = [], generic: number[] = [], cpu: number[] = [];
  const ax = new Float64Array(world.capacity + 1), ay = new Float64Array(world.capacity + 1);
  for (let k = 0; k < samples + 3; k++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    spatialHashSystem(world);
    const t1 = performance.now();
    steeringSystem(world, DT);
    const t2 = performance.now();
    boidsSystem(world, DT);
    const t3 = performance.now();
    const c1 = process.cpuUsage(c0);
    // Side by side, same frame: the generic path (one queryKNearest per agent in cell order + boidsAcceleration).
    const t4 = performance.now();
    boidsAccelerations(world, world.hash.sortedIds, 0, world.agents.count, ax, ay, null);
    const t5 = performance.now();
    preferredToDesired(world);
    integrateSystem(world, DT);
    if (k >= 3) { hash.push(t1 - t0); steer.push(t2 - t1); boids.push(t3 - t2); frame.push(t3 - t0); generic.push(t5 - t4); cpu.push((c1.user + c1.system) / 1000); }
  }
  return { hash, steer, boids, frame, generic, cpu };
}

export const boidsBench: BenchModule = {
  name: 'boids',
  run(ctx) {
    const samples = ctx.quick ? 10 : 40;
    for (const [n, mode] of [[100_000, 'topological'], [100_000, 'metric'], [10_000, 'topological']] as const) {
      const world = flockScene(n, mode);
      const m = measure(world, samples);
      const label = `${n / 1000}k ${mode === 'topological' ? 'k=7' : 'metric r=2'}`;
      const nbrs = world.profiler.byName.boids.counters.neighbours / n;
      const med = (a: number[]) => a.slice().sort((p, q) => p - q)[a.length >> 1];
      // cpuMs: process CPU time of the same frames (excludes time the OS gave to other jobs on a shared machine).
      ctx.record(row('boids', `hash+steering+boids, ${label}`, 'ms', m.frame, n === 100_000 && mode === 'topological' ? 8 : undefined, { meanNeighbours: nbrs, cpuMs: med(m.cpu) }));
      ctx.record(row('boids', `  spatial hash rebuild, ${label}`, 'ms', m.hash));
      ctx.record(row('boids', `  steering (25% wander), ${label}`, 'ms', m.steer));
      ctx.record(row('boids', `  boids, ${label}`, 'ms', m.boids));
      ctx.record(row('boids', `  boids accelerations via per-agent hash queries, ${label}`, 'ms', m.generic, undefined, { systemOverGeneric: med(m.boids) / med(m.generic) }));
    }
  },
};
