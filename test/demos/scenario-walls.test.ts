import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createAstar } from '../../demos/scenarios/astar';
import { setBlocked } from '../../src/grid/grid';
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

  it('walls painted during the run are obstacles from the next tick on', () => {
    const inst = createAstar({ agents: 120, seed: 2, map: { name: 'den312d.map', text: readFileSync(MAPS_DIR + 'den312d.map', 'utf8') } });
    for (let f = 0; f < 60; f++) inst.tick();
    // Paint a wall across the cells next to some walkers (not on them).
    const g = inst.grid, w = inst.world;
    let painted = 0;
    for (let i = 0; i < w.agents.count && painted < 20; i++) {
      const e = w.agents.dense[i];
      const cx = Math.floor(w.position.x[e]) + 1, cy = Math.floor(w.position.y[e]);
      if (cx < g.width && g.walkable[cy * g.width + cx] === 1) {
        let occupied = false;
        for (let j = 0; j < w.agents.count; j++) {
          const o = w.agents.dense[j];
          if (Math.abs(w.position.x[o] - (cx + 0.5)) < 1 && Math.abs(w.position.y[o] - (cy + 0.5)) < 1) occupied = true;
        }
        if (!occupied) { setBlocked(g, cx, cy, true); painted++; }
      }
    }
    expect(painted).toBeGreaterThan(5);
    let frames = 0;
    for (let f = 0; f < 600; f++) {
      inst.tick();
      if (inWalls(inst) > 0) frames++;
    }
    expect(frames).toBe(0);
  });
});
