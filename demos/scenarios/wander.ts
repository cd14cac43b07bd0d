/**
 * Wander: agents drift in a square (about 4 m² each) with a random-walk heading and simple separation from their
 * spatial-hash neighbours; walls turn them back toward the middle. The foundation's first demo and the baseline
 * for the pipeline cost per agent.
 */
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { rngFloat, rngRange } from '../../src/core/rng';
import { datan2, dcos, dsin } from '../../src/core/dmath';
import { queryRadius } from '../../src/spatial/hash';
import { nowMs, profileCount, profileRecord } from '../../src/world/profiler';
import { registerScenario, type ScenarioInstance, type ScenarioOptions } from './registry';

const SPEED = 1.2;
const RADIUS = 0.3;
const SEPARATION_RADIUS = 1.2;
const MAX_NEIGHBOURS = 16;

export function createWander({ agents, seed }: ScenarioOptions): ScenarioInstance {
  const half = Math.sqrt(agents * 4) / 2;
  const world = createCrowd({ maxAgents: Math.max(agents, 1), seed, neighbourRadius: SEPARATION_RADIUS });
  const heading = new Float64Array(world.capacity + 1);
  for (let i = 0; i < agents; i++) {
    const eid = spawnAgent(world, {
      x: rngRange(world.rng, -half, half),
      y: rngRange(world.rng, -half, half),
      radius: RADIUS,
      maxSpeed: SPEED * 1.5,
      maxAccel: 4,
    });
    heading[eid] = rngRange(world.rng, -Math.PI, Math.PI);
  }
  const neighbours = new Int32Array(MAX_NEIGHBOURS);
  const dt = 1 / 30;

  function wanderAndSeparate(): void {
    const t0 = nowMs();
    const { dense, count } = world.agents;
    const px = world.position.x, py = world.position.y;
    const pvx = world.preferredVelocity.x, pvy = world.preferredVelocity.y;
    const rng = world.rng;
    let scanned = 0;
    for (let i = 0; i < count; i++) {
      const eid = dense[i];
      const x = px[eid], y = py[eid];
      // Random walk of the heading; outside the square, turn toward the centre.
      let h = heading[eid] + (rngFloat(rng) - 0.5) * 0.6;
      if (x < -half || x > half || y < -half || y > half) {
        const toward = datan2(-y, -x);
        h += dsin(toward - h) > 0 ? 0.2 : -0.2;
      }
      heading[eid] = h;
      let vx = dcos(h) * SPEED, vy = dsin(h) * SPEED;
      // Separation: push away from each neighbour within SEPARATION_RADIUS, stronger when closer.
      const n = queryRadius(world.hash, x, y, SEPARATION_RADIUS, eid, neighbours);
      scanned += n;
      for (let k = 0; k < n; k++) {
        const o = neighbours[k];
        const dx = x - px[o], dy = y - py[o];
        const d2 = dx * dx + dy * dy;
        if (d2 < 1e-12) continue;
        const d = Math.sqrt(d2);
        const push = (SEPARATION_RADIUS - d) / (SEPARATION_RADIUS * d) * 2.5;
        vx += dx * push;
        vy += dy * push;
      }
      pvx[eid] = vx;
      pvy[eid] = vy;
    }
    profileCount(world.profiler, 'scenario', 'neighbours', scanned);
    profileRecord(world.profiler, 'scenario', t0);
  }

  return {
    world,
    dt,
    bounds: { minX: -half, minY: -half, maxX: half, maxY: half },
    obstacles: [],
    tick() {
      // The hash from the previous step's rebuild is what neighbours see (positions move < 5 cm a step).
      wanderAndSeparate();
      step(world, dt);
    },
  };
}

export const wanderScenario = registerScenario({
  name: 'wander',
  description: 'agents wandering in a square with separation from hash neighbours',
  defaultAgents: 20000,
  create: createWander,
});
