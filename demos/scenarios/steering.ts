/**
 * Steering: a walled yard with a few inner walls; a flock of prey wander (and evade the hunters when they come
 * within the panic distance), hunters pursue the prey nearest to them (exact-intercept pursuit), and everyone keeps
 * off the walls with feelers. Caught prey (a hunter within a body length) respawn at a random free spot, so the
 * chase goes on. All movement is Murmur's steering system (prioritised truncated sum + smoothing); this file only
 * picks targets and respawns.
 *
 * Agents despawned from outside (a game removing units) leave the prey and hunter lists in a despawn hook, before
 * bitecs can recycle their ids: hunters chasing a despawned prey drop it (pursuit cleared), prey fleeing a despawned
 * hunter drop it as their threat, and an agent later spawned into a recycled id is neither prey nor hunter.
 */
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent, setAgentPosition } from '../../src/world/agents';
import { onDespawn } from '../../src/world/registry';
import { step } from '../../src/world/step';
import { rngRange } from '../../src/core/rng';
import { setSteering, setSteeringWalls } from '../../systems/steering';
import { STEER_AVOID_WALLS, STEER_EVADE, STEER_PURSUE, STEER_WANDER } from '../../components/steering';
import { registerScenario, type DrawnObstacle, type ScenarioInstance, type ScenarioOptions } from './registry';
import { addToList, createAgentList, removeFromList } from './agent-list';

export interface SteeringInstance extends ScenarioInstance {
  /** The live prey and hunters (despawned agents leave these lists). */
  readonly prey: Int32Array;
  readonly hunters: Int32Array;
  /** Current target (prey entity, 0 = none) of each hunter, parallel to `hunters`. */
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
  const prey = createAgentList(world, preyCount), hunters = createAgentList(world, hunterCount);
  // targets[h]: the prey hunters.ids[h] pursues (0 = none); shifted with the hunter list.
  const targets = new Int32Array(hunterCount);
  let targetsView = targets.subarray(0, hunterCount);
  const spawnPrey = (): number => spawnAgent(world, { x: rngRange(rng, -S + 3, S - 3), y: rngRange(rng, -S + 3, S - 3), radius: 0.4, maxSpeed: 3, maxAccel: 12 });
  const spawnHunter = (): number => spawnAgent(world, { x: rngRange(rng, -5, 5), y: rngRange(rng, -S + 3, -S + 8), radius: 0.6, maxSpeed: 3.6, maxAccel: 10 });
  for (let i = 0; i < preyCount; i++) addToList(prey, spawnPrey());
  for (let i = 0; i < hunterCount; i++) addToList(hunters, spawnHunter());
  const settings = { panicDistance: 8, wanderJitter: 2, lookAhead: 1 };
  // Per entity id: 1 while a prey evades, and the hunter it evades (so setSteering runs on a change, not per frame).
  const evading = new Uint8Array(world.capacity + 1);
  const threatOf = new Int32Array(world.capacity + 1);
  function configurePrey(e: number): void {
    setSteering(world, e, {
      behaviours: STEER_AVOID_WALLS | STEER_WANDER, wander: { distance: 2, radius: 1, jitter: settings.wanderJitter },
      weights: { wander: 0.6 }, lookAhead: settings.lookAhead, panicDistance: settings.panicDistance, smoothing: 0.1,
    });
    evading[e] = 0; threatOf[e] = 0; // behaviours were reset: the next think() sets evasion again where due
  }
  function configureHunter(e: number): void {
    setSteering(world, e, { behaviours: STEER_AVOID_WALLS | STEER_PURSUE | STEER_WANDER, weights: { wander: 0.2 }, lookAhead: settings.lookAhead, maxPrediction: 2, smoothing: 0.15 });
  }
  function configure(): void {
    for (let i = 0; i < prey.count; i++) configurePrey(prey.ids[i]);
    for (let i = 0; i < hunters.count; i++) configureHunter(hunters.ids[i]);
  }
  configure();
  let caught = 0;
  const px = world.position.x, py = world.position.y;

  // An agent despawned from outside: drop it from the lists and drop every reference to it, while its id is still
  // live (hooks run before bitecs frees the id). Runs once per despawn, not per frame.
  onDespawn(world, (_w, eid) => {
    evading[eid] = 0; threatOf[eid] = 0;
    const h = removeFromList(hunters, eid);
    if (h >= 0) {
      for (let i = h; i < hunters.count; i++) targets[i] = targets[i + 1];
      targets[hunters.count] = 0;
      targetsView = targets.subarray(0, hunters.count);
      // Prey evading this hunter forget it; think() picks the nearest remaining hunter (or none). (The steering
      // system's own despawn hook clears the threatEid and pursueEid references themselves.)
      for (let i = 0; i < prey.count; i++) if (threatOf[prey.ids[i]] === eid) threatOf[prey.ids[i]] = 0;
      return;
    }
    if (removeFromList(prey, eid) < 0) return;
    for (let i = 0; i < hunters.count; i++) if (targets[i] === eid) targets[i] = 0;
  });

  function think(): void {
    const pd2 = settings.panicDistance * settings.panicDistance;
    const preyIds = prey.ids, hunterIds = hunters.ids, preyN = prey.count, hunterN = hunters.count;
    // Hunters chase the nearest prey (brute force: a handful of hunters).
    for (let h = 0; h < hunterN; h++) {
      const he = hunterIds[h];
      let best = 0, bd = Infinity;
      for (let i = 0; i < preyN; i++) {
        const d = (px[preyIds[i]] - px[he]) ** 2 + (py[preyIds[i]] - py[he]) ** 2;
        if (d < bd) { bd = d; best = preyIds[i]; }
      }
      if (best !== targets[h]) { targets[h] = best; setSteering(world, he, { pursueEid: best }); }
      if (bd < 1.0) {
        // Caught: the prey reappears elsewhere.
        caught++;
        setAgentPosition(world, best, rngRange(rng, -S + 3, S - 3), rngRange(rng, -S + 3, S - 3));
      }
    }
    // Prey evade the nearest hunter inside the panic distance, else wander.
    for (let i = 0; i < preyN; i++) {
      const e = preyIds[i];
      let threat = 0, bd = Infinity;
      for (let h = 0; h < hunterN; h++) {
        const d = (px[hunterIds[h]] - px[e]) ** 2 + (py[hunterIds[h]] - py[e]) ** 2;
        if (d < bd) { bd = d; threat = hunterIds[h]; }
      }
      const near = bd < pd2 ? 1 : 0;
      if (near !== evading[e] || (near === 1 && threat !== threatOf[e])) {
        evading[e] = near;
        threatOf[e] = near ? threat : 0;
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
    get prey() { return prey.view; },
    get hunters() { return hunters.view; },
    get targets() { return targetsView; },
    settings,
    configure,
    caught: () => caught,
    tick() { think(); step(world, 1 / 30); },
    goals: () => {
      const g: number[] = [];
      for (let h = 0; h < hunters.count; h++) if (targets[h] !== 0) g.push(px[targets[h]], py[targets[h]]);
      return g;
    },
    status: () => `${hunters.count} hunters, ${prey.count} prey, caught ${caught}`,
    spawnOwn() {
      // Hunters first while they are short (there are few of them), else prey.
      if (hunters.count < hunters.ids.length) {
        const e = spawnHunter();
        addToList(hunters, e);
        targets[hunters.count - 1] = 0; // think() picks its prey
        targetsView = targets.subarray(0, hunters.count);
        configureHunter(e);
        return e;
      }
      if (prey.count < prey.ids.length) {
        const e = spawnPrey();
        addToList(prey, e);
        configurePrey(e);
        return e;
      }
      return 0;
    },
  };
}

export const steeringScenario = registerScenario({
  name: 'steering',
  description: 'steering behaviours: hunters pursue, prey wander and evade, everyone avoids walls with feelers',
  defaultAgents: 80,
  create: createSteering,
});
