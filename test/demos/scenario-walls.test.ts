import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createAstar } from '../../demos/scenarios/astar';
import { setBlocked } from '../../src/grid/grid';
import { getObstacles } from '../../components/orca';
import { obstaclePolygons, solidDepth } from '../../src/reliability/diagnose';
import { MAPS_DIR } from '../grid/maps';

/** Agents whose centre lies in a blocked cell or off the grid (the oracle: the grid's own cells, cell size 1). */
function inWalls(inst: ReturnType<typeof createAstar>): number {
  const w = inst.world, g = inst.grid;
  let bad = 0;
  for (let i = 0; i < w.agents.count; i++) {
    const e = w.agents.dense[i];
    const cx = Math.floor(w.position.x[e] - g.originX), cy = Math.floor(w.position.y[e] - g.originY);
    if (cx < 0 || cy < 0 || cx >= g.width || cy >= g.height || g.walkable[cy * g.width + cx] !== 1) bad++;
  }
  return bad;
}

describe('astar scenario: walls', () => {
  it('300 walkers shoving past each other on den312d never stand in a blocked cell (the map walls are obstacles for the contacts pass; before: 2,955 of 3,000 frames had some)', () => {
    const inst = createAstar({ agents: 300, seed: 1, map: { name: 'den312d.map', text: readFileSync(MAPS_DIR + 'den312d.map', 'utf8') } });
    let frames = 0;
    for (let f = 0; f < 900; f++) {
      inst.tick();
      if (inWalls(inst) > 0) frames++;
    }
    expect(frames).toBe(0);
  });

  it('walls painted during the run are obstacles from the next tick on: every painted cell lies in the solid of the rebuilt obstacle set (winding oracle)', () => {
    const inst = createAstar({ agents: 20, seed: 2, map: { name: 'den312d.map', text: readFileSync(MAPS_DIR + 'den312d.map', 'utf8') } });
    for (let f = 0; f < 30; f++) inst.tick();
    const g = inst.grid, w = inst.world;
    const v0 = getObstacles(w).version;
    const painted: [number, number][] = [];
    for (let y = 2; y < g.height - 2 && painted.length < 12; y += 5) {
      for (let x = 2; x < g.width - 2 && painted.length < 12; x += 7) {
        if (g.walkable[y * g.width + x] === 1) { setBlocked(g, x, y, true); painted.push([x, y]); }
      }
    }
    expect(painted.length).toBeGreaterThan(5);
    inst.tick();
    expect(getObstacles(w).version).not.toBe(v0);
    const polys = obstaclePolygons(getObstacles(w));
    for (const [x, y] of painted) expect(solidDepth(polys, x + 0.5, y + 0.5)).toBeGreaterThan(0.49);
    // and a walkable cell next to one is free space
    for (const [x, y] of painted) {
      if (g.walkable[y * g.width + x + 1] === 1) expect(solidDepth(polys, x + 1.5, y + 0.5)).toBe(0);
    }
  });
});
