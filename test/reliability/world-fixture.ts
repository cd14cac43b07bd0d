/**
 * A world that exercises every system that exists, with a scripted stream of inputs (spawns, despawns, goal and
 * behaviour changes) derived only from the frame number, so two runs, or a run continued after a restore, get the
 * same inputs without carrying any input-generator state. Used by the snapshot, determinism and soak tests.
 */
import { createCrowd, type CrowdWorld } from '../../src/world/crowd';
import { despawnAgent, spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { enableLod } from '../../systems/lod';
import { addObstacle, enableOrca } from '../../components/orca';
import { setSteering, setSteeringWalls } from '../../systems/steering';
import { setBoids } from '../../systems/boids';
import { STEER_ARRIVE, STEER_AVOID_WALLS, STEER_SEEK, STEER_WANDER, STEER_PURSUE, steeringComponent } from '../../components/steering';
import { dcos, dsin } from '../../src/core/dmath';

/** Stateless 32-bit integer hash (Wang/Jenkins-style avalanche): input events as a pure function of (frame, k). */
export function eventHash(frame: number, k: number): number {
  let h = (Math.imul(frame, 0x9e3779b1) ^ Math.imul(k + 1, 0x85ebca6b)) >>> 0;
  h ^= h >>> 16; h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15; h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return h >>> 0;
}
/** Uniform in [0, 1) from (frame, k). */
export function eventFloat(frame: number, k: number): number {
  return eventHash(frame, k) / 4294967296;
}

export const ARENA = 30;
/** The square obstacle in the middle of the arena (ORCA obstacle and steering walls). */
export const BLOCK: ReadonlyArray<readonly [number, number]> = [[-4, -4], [4, -4], [4, 4], [-4, 4]];

/** Set up the world's static level and system options (the same for an original world and a restore target). */
export function setupLevel(world: CrowdWorld): void {
  enableLod(world, { nearRadius: 20, midRadius: 35, focus: [0, 0] });
  addObstacle(world, BLOCK);
  addObstacle(world, [[-ARENA, -ARENA], [ARENA, -ARENA], [ARENA, ARENA], [-ARENA, ARENA], [-ARENA, -ARENA]], { closed: false });
  const walls: number[] = [];
  for (let i = 0; i < 4; i++) { const a = BLOCK[i], b = BLOCK[(i + 1) % 4]; walls.push(a[0], a[1], b[0], b[1]); }
  setSteeringWalls(world, walls);
}

export function createFixtureWorld(seed: number, maxAgents = 400): CrowdWorld {
  const world = createCrowd({ maxAgents, seed, neighbourRadius: 4 });
  setupLevel(world);
  return world;
}

/** Spawn one agent with a behaviour mix chosen from (frame, k); returns its id, or 0 if the world is full. */
export function spawnScripted(world: CrowdWorld, frame: number, k: number): number {
  if (world.agents.count >= world.capacity) return 0;
  // Outside the central block: pick a ring position.
  const ang = eventFloat(frame, k) * 6.283185307179586;
  const rad = 6 + eventFloat(frame, k + 1) * (ARENA - 8);
  const x = rad * dcos(ang), y = rad * dsin(ang);
  const eid = spawnAgent(world, { x, y, radius: 0.3 + 0.2 * eventFloat(frame, k + 2), maxSpeed: 1.5, maxAccel: 6 });
  const kind = eventHash(frame, k + 3) % 4;
  if (kind === 0) {
    enableOrca(world, eid, { timeHorizon: 3 });
    setSteering(world, eid, { behaviours: STEER_ARRIVE | STEER_AVOID_WALLS, target: { x: -x, y: -y } });
  } else if (kind === 1) {
    setSteering(world, eid, { behaviours: STEER_WANDER | STEER_AVOID_WALLS });
    enableOrca(world, eid);
  } else if (kind === 2) {
    setSteering(world, eid, { behaviours: STEER_SEEK, target: { x: 0, y: ARENA - 2 } });
    setBoids(world, eid, { enabled: true, inertial: false });
  } else {
    const n = world.agents.count;
    const target = n > 1 ? world.agents.dense[eventHash(frame, k + 4) % (n - 1)] : 0;
    setSteering(world, eid, target > 0 && target !== eid ? { behaviours: STEER_PURSUE, pursueEid: target } : { behaviours: STEER_WANDER });
    enableOrca(world, eid);
  }
  return eid;
}

/**
 * Inputs of frame `frame`: every 7th frame spawn one or two, every 5th despawn one (about balanced), every 13th
 * retarget one. A despawned
 * agent that others pursue is released by its pursuers first (setSteering rejects dead targets).
 */
export function applyInputs(world: CrowdWorld, frame: number): void {
  if (frame % 7 === 0) {
    const n = 1 + (eventHash(frame, 100) % 2);
    for (let i = 0; i < n; i++) spawnScripted(world, frame, 10 * i);
  }
  if (frame % 5 === 0 && world.agents.count > 10) {
    const victim = world.agents.dense[eventHash(frame, 200) % world.agents.count];
    releasePursuers(world, victim);
    despawnAgent(world, victim);
  }
  if (frame % 13 === 0 && world.agents.count > 0) {
    const eid = world.agents.dense[eventHash(frame, 300) % world.agents.count];
    setSteering(world, eid, { behaviours: STEER_ARRIVE | STEER_AVOID_WALLS, target: { x: (eventFloat(frame, 301) - 0.5) * 50, y: (eventFloat(frame, 302) - 0.5) * 50 } });
  }
}

/** Clear every reference to `victim` (pursuit target, threat) before it is despawned. */
export function releasePursuers(world: CrowdWorld, victim: number): void {
  const s = steeringComponent(world);
  const { dense, count } = world.agents;
  for (let i = 0; i < count; i++) {
    const e = dense[i];
    if (s.pursueEid[e] === victim) { s.pursueEid[e] = 0; s.behaviours[e] &= ~STEER_PURSUE; }
    if (s.threatEid[e] === victim) s.threatEid[e] = 0;
  }
}

/** Populate a fresh fixture world with `n` agents (frame -1 inputs). */
export function populate(world: CrowdWorld, n: number): void {
  for (let i = 0; i < n; i++) spawnScripted(world, 1_000_000 + i, 0);
}

/** One frame: scripted inputs, then the pipeline. */
export function tick(world: CrowdWorld, dt = 1 / 30): void {
  applyInputs(world, world.time.frame);
  step(world, dt);
}
