import type { CrowdWorld } from './crowd';
import { InvalidArgumentError } from '../core/errors';
import { nowMs, profileFrame } from './profiler';
import { spatialHashSystem } from '../../systems/spatial-hash';
import { integrateSystem } from '../../systems/integrate';
import { formationSystem } from '../../systems/formation';
import { steeringSystem } from '../../systems/steering';
import { boidsSystem } from '../../systems/boids';
import { orcaSystem } from '../../systems/orca';
import { lodSystem } from '../../systems/lod';
import { navigationSystem } from '../../systems/navigation';
import { funnelSystem } from '../../systems/funnel';
import { contactsSystem } from '../../systems/contacts';

/**
 * One simulation step of `dt` seconds: the fixed pipeline, in order. Each pass is a system that can also be called
 * alone on a world (for profiling or custom pipelines); `world.enabled` switches passes off.
 */
export function step(world: CrowdWorld, dt: number): void {
  if (typeof dt !== 'number' || !(dt > 0) || !Number.isFinite(dt)) {
    throw new InvalidArgumentError('dt', dt, 'time step must be a finite number of seconds greater than 0');
  }
  const on = world.enabled;
  const t0 = nowMs();
  // 1. LOD: assign quality tiers from distance to the focus points, within the frame budget.
  if (on.lod) lodSystem(world);
  // 2. Spatial hash: rebuild the neighbour index from positions.
  if (on.spatialHash) spatialHashSystem(world);
  // 3. Navigation: flow fields and grid A* paths → preferred velocity.
  if (on.navigation) navigationSystem(world, dt);
  // 4. Funnel: navmesh corridors → next corner → preferred velocity.
  if (on.funnel) funnelSystem(world, dt);
  // 5. Steering: behaviours and formations combine into the preferred velocity.
  if (on.steering) formationSystem(world, dt);
  if (on.steering) steeringSystem(world, dt);
  // 6. Boids: separation, alignment, cohesion corrections to the preferred velocity.
  if (on.boids) boidsSystem(world, dt);
  // 7. Avoidance input: desired velocity starts as the preferred velocity.
  preferredToDesired(world);
  // 8. ORCA: collision-free desired velocities for agents with avoidance.
  if (on.orca) orcaSystem(world, dt);
  // 9. Integrate: velocities toward desired within limits, then positions.
  if (on.integrate) integrateSystem(world, dt);
  // 10. Contacts: convex contact generation and positional resolution.
  if (on.contacts) contactsSystem(world, dt);
  world.time.frame++;
  world.time.seconds += dt;
  profileFrame(world.profiler, t0);
}

/** Copy every live agent's preferred velocity into its desired velocity (avoidance then overrides it). */
export function preferredToDesired(world: CrowdWorld): void {
  const dense = world.agents.dense, n = world.agents.count;
  const px = world.preferredVelocity.x, py = world.preferredVelocity.y;
  const dx = world.desiredVelocity.x, dy = world.desiredVelocity.y;
  for (let i = 0; i < n; i++) {
    const eid = dense[i];
    dx[eid] = px[eid];
    dy[eid] = py[eid];
  }
}

/**
 * Fixed-timestep driver for a game loop: adds `frameSeconds` of real time, runs 0..maxStepsPerAdvance steps of
 * `config.fixedDt`, and returns the interpolation alpha in [0, 1) for rendering between the previous and current
 * positions (see interpolatePosition). Time beyond the step cap is dropped (counted in time.droppedSteps) so a slow
 * frame cannot start a spiral of ever more steps.
 */
export function advance(world: CrowdWorld, frameSeconds: number): number {
  if (typeof frameSeconds !== 'number' || !Number.isFinite(frameSeconds) || frameSeconds < 0) {
    throw new InvalidArgumentError('frameSeconds', frameSeconds, 'must be a finite number of seconds ≥ 0');
  }
  const cfg = world.config;
  const time = world.time;
  time.accumulator += frameSeconds;
  let steps = 0;
  while (time.accumulator >= cfg.fixedDt && steps < cfg.maxStepsPerAdvance) {
    step(world, cfg.fixedDt);
    time.accumulator -= cfg.fixedDt;
    steps++;
  }
  if (time.accumulator >= cfg.fixedDt) {
    const dropped = Math.floor(time.accumulator / cfg.fixedDt);
    time.droppedSteps += dropped;
    time.accumulator -= dropped * cfg.fixedDt;
  }
  return time.accumulator / cfg.fixedDt;
}

/** Render position of agent `eid`: previous + alpha·(current − previous), written into `out` ([x, y]). */
export function interpolatePosition(world: CrowdWorld, eid: number, alpha: number, out: Float64Array | number[]): Float64Array | number[] {
  const p = world.position;
  out[0] = p.previousX[eid] + alpha * (p.x[eid] - p.previousX[eid]);
  out[1] = p.previousY[eid] + alpha * (p.y[eid] - p.previousY[eid]);
  return out;
}
