/**
 * A flow agent beside a wall whose blended direction points straight into the wall's face: the mechanism of the
 * stall the long fuzz run of 'grid navigation in the full pipeline' found on 2026-12-02 (seed 875748568, a far agent
 * 8.6 m short of a reachable goal after 17,605 calm frames; docs/RELIABILITY.md), on a hand-made map with the same
 * neighbourhood (4-connected, unit costs, 1 m cells, the goal in cell (0, 3)):
 *
 *     x: 0 1 2 3 4
 *   y 0  . . . . .      integration          directions
 *     1  . # a . .       3 4 5 6 7            S W W S S
 *     2  . # # . .       2 # 6 5 6            S # E S S
 *     3  G . . . .       1 # # 4 5            S # # S S
 *                        0 1 2 3 4            - W W W W
 *
 * Cell a = (2, 1) lies on the ridge between the two ways round the block: north then west, or east then south, both
 * 6 steps; Dijkstra's tie went east. The cells above it, (1, 0) and (2, 0), point west. At a point in the upper half
 * of a, near the face of the blocked cell (1, 1), the bilinear stencil is (1, 0), (2, 0), (1, 1) (blocked: weight 0)
 * and a: all four directions are horizontal and the two pointing west outweigh a's east, so the sample is pure west,
 * into the face. ORCA's obstacle line for that face cancels all of a velocity perpendicular to it: the agent stood
 * there for good, 'moving'. The fix (systems/navigation.ts, flowVelocity): a blend that does not agree with the own
 * cell's move (dot product ≤ 0) is replaced by that move.
 */
import { describe, expect, it } from 'vitest';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { gridFromAscii } from '../../src/grid/grid';
import { gridWallRings } from '../../src/grid/walls';
import { buildFlowField, sampleFlowField } from '../../src/grid/flowfield';
import { setNavigationGrid, setAgentGoal, navigationStatus } from '../../systems/navigation';
import { addObstacle, enableOrca } from '../../components/orca';
import { enableLod } from '../../systems/lod';

const MAP = ['.....', '.#...', '.##..', '.....'];
const START = { x: 2.1, y: 1.07 }; // cell a, 0.1 m (the radius) from the blocked cell's face, 0.07 m below row 0
const GOAL = { x: 0.5, y: 3.5 };

describe('a flow agent on a ridge beside a wall (grid navigation fuzz finding, 2026-12-02)', () => {
  it('the sampled direction there is pure west, into the face of the blocked cell (the precondition, checked by hand)', () => {
    const grid = gridFromAscii(MAP);
    const field = buildFlowField(grid, [{ x: 0, y: 3 }], { connectivity: 4 });
    // a's own move is east (the tie); the cells above point west
    expect([field.dirX[1 * 5 + 2], field.dirY[1 * 5 + 2]]).toEqual([1, 0]);
    expect([field.dirX[1], field.dirY[1], field.dirX[2], field.dirY[2]]).toEqual([-1, 0, -1, 0]);
    // by hand: u − ½ = 1.6, v − ½ = 0.57, so tx = 0.6, ty = 0.57; weights (1,0) 0.4·0.43, (2,0) 0.6·0.43, (1,1) 0
    // (blocked), a 0.6·0.57: x = −0.172 − 0.258 + 0.342 = −0.088, y = 0, normalised (−1, 0)
    const d = { x: 0, y: 0 };
    expect(sampleFlowField(field, START.x, START.y, d)).toBe('moving');
    expect(d.x).toBe(-1);
    expect(d.y).toBe(0);
  });

  for (const far of [false, true]) {
    it(`the agent reaches its goal${far ? ' as a far agent (LOD interval 3, as in the fuzz case)' : ''} (before: it pressed into the wall's face for good)`, () => {
      const grid = gridFromAscii(MAP);
      const world = createCrowd({ maxAgents: 2, seed: 1, cellSize: 1 });
      world.enabled.steering = false; world.enabled.boids = false; world.enabled.funnel = false;
      setNavigationGrid(world, grid, { connectivity: 4 });
      for (const r of gridWallRings(grid)) addObstacle(world, r.points, { enclose: r.encloses === 'walkable' });
      if (far) enableLod(world, { nearRadius: 0.001, midRadius: 0.002, hysteresis: 0, farInterval: 3, focus: [-100, -100] });
      const e = spawnAgent(world, { x: START.x, y: START.y, radius: 0.1, maxSpeed: 0.5 });
      enableOrca(world, e, { timeHorizon: 2, obstacleTimeHorizon: 0.2 });
      setAgentGoal(world, e, GOAL.x, GOAL.y, { mode: 'flow' });
      // the way round either side is about 6.5 m: 13 s at 0.5 m/s; allow 60 s
      let f = 0;
      for (; f < 60 * 30 && navigationStatus(world, e) !== 'arrived'; f++) step(world, 1 / 30);
      expect(navigationStatus(world, e)).toBe('arrived');
      expect(f).toBeLessThan(20 * 30);
    });
  }
});
