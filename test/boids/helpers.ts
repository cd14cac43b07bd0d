/**
 * Measurement helpers for flock tests, computed by brute force (O(n²)), independently of the spatial hash and the
 * boids kernel: polarisation, radius of gyration, nearest-neighbour distance, overlaps, connected components.
 */
import { createCrowd, type CrowdWorld } from '../../src/world/crowd';
import { spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { createRng, rngFloat } from '../../src/core/rng';
import { setBoids, type BoidsConfig } from '../../systems/boids';

/** |mean of unit headings| over agents with non-zero speed. */
export function polarisation(world: CrowdWorld): number {
  const { dense, count } = world.agents;
  let sx = 0, sy = 0, m = 0;
  for (let i = 0; i < count; i++) {
    const e = dense[i];
    const vx = world.velocity.x[e], vy = world.velocity.y[e];
    const s = Math.hypot(vx, vy);
    if (s > 1e-9) { sx += vx / s; sy += vy / s; m++; }
  }
  return m === 0 ? 0 : Math.hypot(sx, sy) / m;
}

/** Radius of gyration: √(mean |p − centroid|²). */
export function radiusOfGyration(world: CrowdWorld): number {
  const { dense, count } = world.agents;
  let cx = 0, cy = 0;
  for (let i = 0; i < count; i++) { cx += world.position.x[dense[i]]; cy += world.position.y[dense[i]]; }
  cx /= count; cy /= count;
  let s = 0;
  for (let i = 0; i < count; i++) {
    const dx = world.position.x[dense[i]] - cx, dy = world.position.y[dense[i]] - cy;
    s += dx * dx + dy * dy;
  }
  return Math.sqrt(s / count);
}

/** Mean and minimum nearest-neighbour distance (centre to centre). */
export function nearestNeighbourStats(world: CrowdWorld): { mean: number; min: number } {
  const { dense, count } = world.agents;
  const X = world.position.x, Y = world.position.y;
  let sum = 0, min = Infinity;
  for (let i = 0; i < count; i++) {
    let best = Infinity;
    const a = dense[i];
    for (let j = 0; j < count; j++) {
      if (i === j) continue;
      const b = dense[j];
      const d = Math.hypot(X[a] - X[b], Y[a] - Y[b]);
      if (d < best) best = d;
    }
    sum += best;
    if (best < min) min = best;
  }
  return { mean: sum / count, min };
}

/** Number of connected components of the graph linking agents closer than `link` metres (union-find). */
export function components(world: CrowdWorld, link: number): number {
  return componentSizes(world, link).length;
}

/** Sizes of the connected components (largest first) of the graph linking agents closer than `link` metres. */
export function componentSizes(world: CrowdWorld, link: number): number[] {
  const { dense, count } = world.agents;
  const X = world.position.x, Y = world.position.y;
  const parent = new Int32Array(count);
  for (let i = 0; i < count; i++) parent[i] = i;
  const find = (i: number): number => { while (parent[i] !== i) { parent[i] = parent[parent[i]]; i = parent[i]; } return i; };
  for (let i = 0; i < count; i++) {
    for (let j = i + 1; j < count; j++) {
      if (Math.hypot(X[dense[i]] - X[dense[j]], Y[dense[i]] - Y[dense[j]]) <= link) {
        const a = find(i), b = find(j);
        if (a !== b) parent[a] = b;
      }
    }
  }
  const size = new Map<number, number>();
  for (let i = 0; i < count; i++) { const r = find(i); size.set(r, (size.get(r) ?? 0) + 1); }
  return [...size.values()].sort((a, b) => b - a);
}

export interface FlockOptions {
  n: number;
  seed: number;
  /** Initial disc radius, metres. */
  discRadius: number;
  /** Initial speed, m/s; 0 = at rest. */
  speed: number;
  /** Initial headings uniform in ±spread radians about +x (π = fully random). @default π */
  spread?: number;
  radius: number;
  maxSpeed: number;
  boids: BoidsConfig;
}

/** A seeded flock of n agents uniformly in a disc, with boids configured; ORCA off (boids alone are under test). */
export function makeFlock(o: FlockOptions): CrowdWorld {
  const world = createCrowd({ maxAgents: o.n + 8, seed: o.seed, neighbourRadius: 4 });
  world.enabled.orca = false;
  const rng = createRng(o.seed);
  for (let i = 0; i < o.n; i++) {
    const r = o.discRadius * Math.sqrt(rngFloat(rng)), a = 2 * Math.PI * rngFloat(rng), h = (o.spread ?? Math.PI) * (2 * rngFloat(rng) - 1);
    const e = spawnAgent(world, { x: r * Math.cos(a), y: r * Math.sin(a), vx: o.speed * Math.cos(h), vy: o.speed * Math.sin(h), radius: o.radius, maxSpeed: o.maxSpeed });
    setBoids(world, e, o.boids);
  }
  return world;
}

export function run(world: CrowdWorld, seconds: number, dt = 1 / 30, each?: (w: CrowdWorld) => void): void {
  const steps = Math.round(seconds / dt);
  for (let k = 0; k < steps; k++) { step(world, dt); if (each) each(world); }
}
