/**
 * Wraps one of the ORCA engineer's standard scenes (src/avoidance/scenes.ts: circle swap, corridor, blocks; the
 * same definitions the ORCA tests and benchmark use) as a shared scenario: each step drives the agents toward their
 * goals (driveOrcaScene), then runs the pipeline; done when every agent has arrived.
 */
import { step } from '../../src/world/step';
import { driveOrcaScene, type OrcaScene } from '../../src/avoidance/scenes';
import type { ScenarioInstance } from './registry';

export interface OrcaScenarioInstance extends ScenarioInstance {
  readonly scene: OrcaScene;
  /** Agents within arrival distance of their goal after the last step. */
  arrived(): number;
}

export function orcaScenario(scene: OrcaScene, margin: number): OrcaScenarioInstance {
  const { world, eids, goalX, goalY } = scene;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < eids.length; i++) {
    const e = eids[i];
    minX = Math.min(minX, world.position.x[e], goalX[i]); maxX = Math.max(maxX, world.position.x[e], goalX[i]);
    minY = Math.min(minY, world.position.y[e], goalY[i]); maxY = Math.max(maxY, world.position.y[e], goalY[i]);
  }
  let arrived = 0;
  const goals: number[] = [];
  for (let i = 0; i < eids.length; i++) goals.push(goalX[i], goalY[i]);
  return {
    world,
    scene,
    dt: scene.dt,
    bounds: { minX: minX - margin, minY: minY - margin, maxX: maxX + margin, maxY: maxY + margin },
    obstacles: scene.obstacles.map((o) => ({ points: o.points.flat(), closed: o.closed })),
    arrived: () => arrived,
    tick() {
      arrived = driveOrcaScene(scene);
      step(world, scene.dt);
    },
    done: () => arrived === eids.length,
    goals: () => goals,
    status: () => `arrived ${arrived}/${eids.length} after ${world.time.seconds.toFixed(1)} s`,
  };
}
