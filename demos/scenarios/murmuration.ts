/**
 * Murmuration: a few thousand free-flocking boids (Reynolds 1987) with a cruise speed, topological (k nearest,
 * Ballerini et al. 2008) or metric neighbourhoods, kept over the arena by a soft boundary (a turn toward the centre
 * once a bird is beyond the arena radius), and an optional predator the birds flee (a push away from it within
 * its fear radius). The switch between metric and topological is the point of the demo: under the predator's cuts
 * and at the edges, metric flocks lose neighbours and fray, topological ones close up again.
 *
 * The flocking itself is Murmur's boids system; this file adds only the scene: birds, boundary, predator.
 */
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { rngFloat } from '../../src/core/rng';
import { dcos, dsin } from '../../src/core/dmath';
import { setBoids, type BoidsConfig } from '../../systems/boids';
import { nowMs, profileRecord } from '../../src/world/profiler';
import { registerScenario, type ScenarioInstance, type ScenarioOptions } from './registry';

export interface MurmurationInstance extends ScenarioInstance {
  /** Entity ids of the birds. */
  readonly birds: Int32Array;
  /** Current flocking settings (applied to every bird by `configure`). */
  readonly boids: Required<Pick<BoidsConfig, 'mode' | 'k' | 'radius' | 'separation' | 'alignment' | 'cohesion'>>;
  /** Apply `boids` (after changing it) to every bird. */
  configure(): void;
  /** Predator position and whether it is active; fear radius in metres. */
  readonly predator: { x: number; y: number; active: boolean; fearRadius: number; strength: number };
  /** Arena radius, metres. */
  readonly arenaRadius: number;
}

const CRUISE = 5; // m/s
const MAX_SPEED = 8; // m/s
const RADIUS = 0.25; // m

export function createMurmuration({ agents, seed }: ScenarioOptions): MurmurationInstance {
  // Density ~ one bird per 6 m² at the start, in a disc; the arena is twice the starting radius.
  const startR = Math.sqrt((agents * 6) / Math.PI);
  const arenaRadius = 2 * startR + 20;
  const world = createCrowd({ maxAgents: Math.max(1, agents), seed, neighbourRadius: 6, fixedDt: 1 / 30 });
  const birds = new Int32Array(agents);
  const rng = world.rng;
  // A partly ordered start (headings within ±70° of +x) so the flock forms in seconds, not minutes.
  for (let i = 0; i < agents; i++) {
    const a = 2 * Math.PI * rngFloat(rng), r = startR * Math.sqrt(rngFloat(rng));
    const h = (rngFloat(rng) - 0.5) * 2.4;
    birds[i] = spawnAgent(world, {
      x: r * dcos(a), y: r * dsin(a), vx: CRUISE * dcos(h), vy: CRUISE * dsin(h), radius: RADIUS, maxSpeed: MAX_SPEED, maxAccel: 30,
    });
  }
  const boids = { mode: 'topological' as 'topological' | 'metric', k: 7, radius: 8, separation: 0.6, alignment: 3, cohesion: 0.3 };
  function configure(): void {
    for (let i = 0; i < birds.length; i++) setBoids(world, birds[i], { ...boids, minSpeed: CRUISE * 0.7, inertial: true });
  }
  configure();
  const predator = { x: 0, y: 0, active: false, fearRadius: 18, strength: 25 };
  const dt = 1 / 30;

  // Scene forces, before the pipeline: they change the current velocity, which free-flocking boids integrate.
  function scene(): void {
    const t0 = nowMs();
    const px = world.position.x, py = world.position.y, vx = world.velocity.x, vy = world.velocity.y;
    const R2 = arenaRadius * arenaRadius;
    const f2 = predator.fearRadius * predator.fearRadius;
    for (let i = 0; i < birds.length; i++) {
      const e = birds[i];
      const x = px[e], y = py[e];
      const d2 = x * x + y * y;
      if (d2 > R2) {
        // Beyond the arena: accelerate toward the centre, harder the further out (12 m/s² per arena radius).
        const d = Math.sqrt(d2);
        const k = (12 * dt * (d - arenaRadius)) / (arenaRadius * d) + (2 * dt) / d;
        vx[e] -= x * k * CRUISE;
        vy[e] -= y * k * CRUISE;
      }
      if (predator.active) {
        const dx = x - predator.x, dy = y - predator.y;
        const q2 = dx * dx + dy * dy;
        if (q2 < f2 && q2 > 1e-9) {
          // Flee: acceleration away from the predator, linear in closeness.
          const q = Math.sqrt(q2);
          const a = (predator.strength * (1 - q / predator.fearRadius) * dt) / q;
          vx[e] += dx * a;
          vy[e] += dy * a;
        }
      }
    }
    profileRecord(world.profiler, 'scenario', t0);
  }

  return {
    world,
    dt,
    bounds: { minX: -arenaRadius, minY: -arenaRadius, maxX: arenaRadius, maxY: arenaRadius },
    obstacles: [],
    birds,
    boids,
    configure,
    predator,
    arenaRadius,
    tick() {
      scene();
      step(world, dt);
    },
    goals: () => (predator.active ? [predator.x, predator.y] : []),
    status() {
      // Polarisation: |mean unit heading|, 1 = everyone flies the same way.
      let sx = 0, sy = 0;
      for (let i = 0; i < birds.length; i++) {
        const e = birds[i];
        const s = Math.sqrt(world.velocity.x[e] ** 2 + world.velocity.y[e] ** 2);
        if (s > 1e-9) { sx += world.velocity.x[e] / s; sy += world.velocity.y[e] / s; }
      }
      return `polarisation ${(Math.sqrt(sx * sx + sy * sy) / Math.max(1, birds.length)).toFixed(3)}`;
    },
  };
}

export const murmurationScenario = registerScenario({
  name: 'murmuration',
  description: 'free-flocking boids (topological k = 7) over an arena, cruise speed, soft boundary',
  defaultAgents: 3000,
  create: createMurmuration,
});
