/**
 * Steering: a walled yard with a few inner walls; a flock of prey wander (and evade the hunters when they come
 * within the panic distance), hunters pursue the prey nearest to them (exact-intercept pursuit), and everyone keeps
 * off the walls with feelers. Caught prey (a hunter within a body length) respawn at a random free spot, so the
 * chase goes on. All movement is Murmur's steering system (prioritised truncated sum + smoothing); this file only
 * picks targets and respawns.
 */
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent, setAgentPosition } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { rngRange } from '../../src/core/rng';
import { setSteering, setSteeringWalls } from '../../systems/steering';
import { STEER_AVOID_WALLS, STEER_EVADE, STEER_PURSUE, STEER_WANDER } from '../../components/steering';
import { registerScenario, type DrawnObstacle, type ScenarioInstance, type ScenarioOptions } from './registry';

export interface SteeringInstance extends ScenarioInstance {
  readonly prey: Int32Array;
  readonly hunters: Int32Array;
  /** Current target (prey entity) of each hunter. */
  readonly targets: Int32Array;
  /** Prey caught so far. */
  caught(): number;
  readonly settings: { panicDistance: number; wanderJitter: number; lookAhead: number };
  /** Re-apply `settings` to every agent. */
  configure(): void;
}

const S = 40; // yard half-size, metres

export function createSteering({ agents, seed }: ScenarioOptions): SteeringInstance {
  const hunterCount = Math.max(1, Math.min(6, Math.round(agents / 15)));
  const preyCount = Math.max(1, agents - hunterCount);
  const world = createCrowd({ maxAgents: preyCount + hunterCount, seed, neighbourRadius: 4 });
  // Walls as segments [x0, y0, x1, y1, ...]: the yard and three inner walls.
  const walls = [
    -S, -S, S, -S, S, -S, S, S, S, S, -S, S, -S, S, -S, -S,
    -20, -10, -20, 20, 0, -25, 0, 5, 15, 10, 30, 10,
  ];
  setSteeringWalls(world, walls);
  const obstacles: DrawnObstacle[] = [];
  for (let i = 0; i < walls.length; i += 4) obstacles.push({ points: walls.slice(i, i + 4), closed: false });
  const rng = world.rng;
  const prey = new Int32Array(preyCount), hunters = new Int32Array(hunterCount), targets = new Int32Array(hunterCount);
  for (let i = 0; i < preyCount; i++) prey[i] = spawnAgent(world, { x: rngRange(rng, -S + 3, S - 3), y: rngRange(rng, -S + 3, S - 3), radius: 0.4, maxSpeed: 3, maxAccel: 12 });
  for (let i = 0; i < hunterCount; i++) hunters[i] = spawnAgent(world, { x: rngRange(rng, -5, 5), y: rngRange(rng, -S + 3, -S + 8), radius: 0.6, maxSpeed: 3.6, maxAccel: 10 });
  const settings = { panicDistance: 8, wanderJitter: 2, lookAhead: 1 };
  function configure(): void {
    for (let i = 0; i < preyCount; i++) {
      setSteering(world, prey[i], {
        behaviours: STEER_AVOID_WALLS | STEER_WANDER, wander: { distance: 2, radius: 1, jitter: settings.wanderJitter },
        weights: { wander: 0.6 }, lookAhead: settings.lookAhead, panicDistance: settings.panicDistance, smoothing: 0.1,
      });
    }
    for (let i = 0; i < hunterCount; i++) {
      setSteering(world, hunters[i], { behaviours: STEER_AVOID_WALLS | STEER_PURSUE | STEER_WANDER, weights: { wander: 0.2 }, lookAhead: settings.lookAhead, maxPrediction: 2, smoothing: 0.15 });
    }
  }
  configure();
  let caught = 0;
  const px = world.position.x, py = world.position.y;
  const evading = new Uint8Array(world.capacity + 1);

  function think(): void {
    const pd2 = settings.panicDistance * settings.panicDistance;
    // Hunters chase the nearest prey (brute force: a handful of hunters).
    for (let h = 0; h < hunterCount; h++) {
      const he = hunters[h];
      let best = prey[0], bd = Infinity;
      for (let i = 0; i < preyCount; i++) {
        const d = (px[prey[i]] - px[he]) ** 2 + (py[prey[i]] - py[he]) ** 2;
        if (d < bd) { bd = d; best = prey[i]; }
      }
      if (best !== targets[h]) { targets[h] = best; setSteering(world, he, { pursueEid: best }); }
      if (bd < 1.0) {
        // Caught: the prey reappears elsewhere.
        caught++;
        setAgentPosition(world, best, rngRange(rng, -S + 3, S - 3), rngRange(rng, -S + 3, S - 3));
      }
    }
    // Prey evade the nearest hunter inside the panic distance, else wander.
    for (let i = 0; i < preyCount; i++) {
      const e = prey[i];
      let threat = 0, bd = Infinity;
      for (let h = 0; h < hunterCount; h++) {
        const d = (px[hunters[h]] - px[e]) ** 2 + (py[hunters[h]] - py[e]) ** 2;
        if (d < bd) { bd = d; threat = hunters[h]; }
      }
      const near = bd < pd2 ? 1 : 0;
      if (near !== evading[e] || near) {
        evading[e] = near;
        setSteering(world, e, near
          ? { behaviours: STEER_AVOID_WALLS | STEER_EVADE | STEER_WANDER, threatEid: threat }
          : { behaviours: STEER_AVOID_WALLS | STEER_WANDER });
      }
    }
  }

  return {
    world,
    dt: 1 / 30,
    bounds: { minX: -S, minY: -S, maxX: S, maxY: S },
    obstacles,
    prey,
    hunters,
    targets,
    settings,
    configure,
    caught: () => caught,
    tick() { think(); step(world, 1 / 30); },
    goals: () => {
      const g: number[] = [];
      for (let h = 0; h < hunterCount; h++) g.push(px[targets[h]], py[targets[h]]);
      return g;
    },
    status: () => `${hunterCount} hunters, ${preyCount} prey, caught ${caught}`,
  };
}

export const steeringScenario = registerScenario({
  name: 'steering',
  description: 'steering behaviours: hunters pursue, prey wander and evade, everyone avoids walls with feelers',
  defaultAgents: 80,
  create: createSteering,
});
