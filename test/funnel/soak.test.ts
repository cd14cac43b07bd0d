import { describe, expect, it } from 'vitest';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent, setAgentPosition } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { buildNavmesh } from '../../src/navmesh/build';
import { locateTriangle } from '../../src/navmesh/locate';
import { setNavmesh, setNavGoal, setNavTrianglesBlocked, moveNavGoal, getAgentCorridor } from '../../systems/funnel';
import { corridorComponent, NAV_ARRIVED, NAV_FOLLOWING, NAV_UNREACHABLE, NAV_REPLAN } from '../../components/corridor';
import { createRng, rngFloat, rngInt, rngRange } from '../../src/core/rng';
import { randomMap } from '../navmesh/maps';

/**
 * Soak: random pushes, doors closing and opening, moving goals, on random maps. The system must never throw,
 * never produce a non-finite or over-speed preferred velocity, and keep every following agent's corridor adjacent
 * and ending at its goal's triangle. Same seed → same trajectories.
 */
function soak(seed: number): number[] {
  const map = randomMap(seed + 40);
  const mesh = buildNavmesh(map, { radius: 0.5 });
  const world = createCrowd({ maxAgents: 64, seed });
  setNavmesh(world, mesh, { maxReplansPerFrame: 4 });
  const rng = createRng(seed);
  const freePoint = (): [number, number] => {
    for (;;) {
      const x = rngRange(rng, 0, 100), y = rngRange(rng, 0, 100);
      if (locateTriangle(mesh, x, y) >= 0) return [x, y];
    }
  };
  const ids: number[] = [];
  for (let i = 0; i < 24; i++) {
    const [x, y] = freePoint();
    const eid = spawnAgent(world, { x, y, radius: 0.5, maxSpeed: 1 + rngFloat(rng) * 3 });
    const [gx, gy] = freePoint();
    setNavGoal(world, eid, gx, gy);
    ids.push(eid);
  }
  const c = corridorComponent(world);
  const cor = new Int32Array(8192);
  const closed: number[] = [];
  for (let f = 0; f < 600; f++) {
    if (f % 20 === 0) {
      const e = ids[rngInt(rng, ids.length)];
      const [x, y] = freePoint();
      setAgentPosition(world, e, x, y); // a hard shove
    }
    if (f % 45 === 0) {
      if (closed.length > 0 && rngFloat(rng) < 0.5) setNavTrianglesBlocked(world, closed.splice(0, closed.length), false);
      else { const t = rngInt(rng, mesh.triangleCount); closed.push(t); setNavTrianglesBlocked(world, [t], true); }
    }
    if (f % 33 === 0) {
      const e = ids[rngInt(rng, ids.length)];
      const [gx, gy] = freePoint();
      moveNavGoal(world, e, gx, gy);
    }
    step(world, 1 / 60);
    for (const e of ids) {
      const vx = world.preferredVelocity.x[e], vy = world.preferredVelocity.y[e];
      expect(Number.isFinite(vx) && Number.isFinite(vy)).toBe(true);
      expect(Math.hypot(vx, vy)).toBeLessThanOrEqual(world.agent.maxSpeed[e] + 1e-9);
      expect(Number.isFinite(world.position.x[e]) && Number.isFinite(world.position.y[e])).toBe(true);
      const st = c.state[e];
      expect([NAV_ARRIVED, NAV_FOLLOWING, NAV_UNREACHABLE, NAV_REPLAN]).toContain(st);
      if (st === NAV_FOLLOWING) {
        const n = getAgentCorridor(world, e, cor);
        expect(n).toBeGreaterThan(0);
        for (let k = 0; k + 1 < n; k++) {
          const a = cor[k], b = cor[k + 1];
          expect(mesh.neighbours[3 * a] === b || mesh.neighbours[3 * a + 1] === b || mesh.neighbours[3 * a + 2] === b).toBe(true);
        }
        expect(cor[n - 1]).toBe(locateTriangle(mesh, c.goalX[e], c.goalY[e]));
      }
    }
  }
  return ids.flatMap((e) => [world.position.x[e], world.position.y[e], c.state[e]]);
}

describe('funnelSystem soak (random shoves, doors, moving goals)', () => {
  it('never throws, keeps velocities finite and within maxSpeed, keeps corridors valid, and is deterministic', () => {
    for (const seed of [1, 2, 3]) {
      const a = soak(seed);
      expect(soak(seed)).toEqual(a);
    }
  });
});
