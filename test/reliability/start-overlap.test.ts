import { describe, expect, it } from 'vitest';
import { createCrowd, spawnAgent, step } from '../../src/index';
import { enableOrca, addObstacle } from '../../components/orca';
import { diagnoseWorld } from '../../src/reliability/diagnose';
import { gridFromAscii } from '../../src/grid/grid';
import { gridWallRings } from '../../src/grid/walls';

// Agents that start inside an obstacle or on top of each other: resolved or reported, never NaN.
function allFinite(w: ReturnType<typeof createCrowd>): boolean {
  for (let i = 0; i < w.agents.count; i++) {
    const e = w.agents.dense[i];
    if (![w.position.x[e], w.position.y[e], w.velocity.x[e], w.velocity.y[e]].every(Number.isFinite)) return false;
  }
  return true;
}

describe('diagnoseWorld and start-up overlaps', () => {
  for (const orca of [false, true]) {
    it(`20 agents spawned on exactly the same point (ORCA ${orca ? 'on' : 'off'}) are reported, then pushed apart without NaN`, () => {
      const w = createCrowd({ maxAgents: 32, seed: 1 });
      for (let i = 0; i < 20; i++) { const e = spawnAgent(w, { x: 5, y: 5, radius: 0.4 }); if (orca) enableOrca(w, e); }
      const d0 = diagnoseWorld(w);
      expect(d0.overlaps.length).toBe(20 * 19 / 2); // every pair, depth 0.8 (hand: 0.4 + 0.4 − 0)
      expect(d0.overlaps[0].depth).toBeCloseTo(0.8, 12);
      for (let s = 0; s < 300; s++) { step(w, 1 / 30); expect(allFinite(w)).toBe(true); }
      const d1 = diagnoseWorld(w, { tolerance: 0.02 });
      expect(d1.nonFinite).toEqual([]);
      expect(d1.overlaps).toEqual([]); // resolved: no pair overlaps by more than 2 cm after 10 s
    });
  }

  it('agents spawned inside a building are reported, then pushed out by the first step (contacts depenetration), and stay out and finite', () => {
    const w = createCrowd({ maxAgents: 8, seed: 1 });
    addObstacle(w, [[0, 0], [4, 0], [4, 4], [0, 4]]);
    const still = spawnAgent(w, { x: 1, y: 2, radius: 0.3 });
    const mover = spawnAgent(w, { x: 2, y: 1, radius: 0.3 });
    enableOrca(w, still); enableOrca(w, mover);
    const d0 = diagnoseWorld(w);
    expect(d0.insideObstacles.map((o) => o.eid).sort()).toEqual([still, mover].sort());
    expect(d0.insideObstacles.find((o) => o.eid === still)!.depth).toBeCloseTo(1, 12); // hand: nearest wall x = 0
    w.preferredVelocity.x[mover] = 1.2;
    step(w, 1 / 30);
    // hand: each to the nearest free point its radius from the wall: still across x = 0, mover across y = 0 (1 m
    // away; x = 0 and x = 4 are 2 m). The old code held both in (segments were immovable from both sides).
    expect(w.position.x[still]).toBeCloseTo(-0.3, 12);
    expect(w.position.y[still]).toBeCloseTo(2, 12);
    expect(w.position.y[mover]).toBeCloseTo(-0.3, 12);
    for (let s = 0; s < 300; s++) {
      w.preferredVelocity.x[mover] = 1.2;
      step(w, 1 / 30);
      expect(allFinite(w)).toBe(true);
      expect(diagnoseWorld(w, { tolerance: 0 }).insideObstacles).toEqual([]);
    }
  });

  it('enclosures: outside an arena counts as inside a wall, a pillar within it too; grid wall rings with two walkable regions (hand-placed agents)', () => {
    const w = createCrowd({ maxAgents: 8, seed: 1 });
    addObstacle(w, [[0, 0], [10, 0], [10, 10], [0, 10]], { enclose: true });
    addObstacle(w, [[4, 4], [6, 4], [6, 6], [4, 6]]);
    const free = spawnAgent(w, { x: 2, y: 2, radius: 0.3 });
    const out = spawnAgent(w, { x: 12, y: 5, radius: 0.3 });
    const pillar = spawnAgent(w, { x: 5, y: 4.5, radius: 0.3 });
    const d = diagnoseWorld(w);
    expect(d.insideObstacles.map((o) => o.eid).sort()).toEqual([out, pillar].sort());
    expect(d.insideObstacles.find((o) => o.eid === out)!.depth).toBeCloseTo(2, 12); // hand: the arena's x = 10 wall
    expect(d.insideObstacles.find((o) => o.eid === pillar)!.depth).toBeCloseTo(0.5, 12);
    expect(d.insideObstacles.some((o) => o.eid === free)).toBe(false);
    // A grid with a walkable pocket sealed inside a wall: two enclosures; agents in either region are free.
    const g = gridFromAscii(['......', '.####.', '.#..#.', '.####.', '......']);
    const w2 = createCrowd({ maxAgents: 8, seed: 1 });
    for (const r of gridWallRings(g)) addObstacle(w2, r.points, { enclose: r.encloses === 'walkable' });
    const main = spawnAgent(w2, { x: 0.5, y: 0.5, radius: 0.2 });
    const pocket = spawnAgent(w2, { x: 2.5, y: 2.5, radius: 0.2 });
    const wall = spawnAgent(w2, { x: 1.5, y: 2.5, radius: 0.2 });
    const d2 = diagnoseWorld(w2);
    expect(d2.insideObstacles.map((o) => o.eid)).toEqual([wall]);
    expect(d2.insideObstacles[0].depth).toBeCloseTo(0.5, 12);
    expect([main, pocket].some((e) => d2.insideObstacles.some((o) => o.eid === e))).toBe(false);
  });

  it('a NaN written behind the API is reported by diagnoseWorld (and refused by the next step)', () => {
    const w = createCrowd({ maxAgents: 4, seed: 1 });
    const e = spawnAgent(w, { x: 0, y: 0 });
    w.velocity.y[e] = NaN;
    expect(diagnoseWorld(w).nonFinite).toEqual([e]);
    step(w, 1 / 30); // integrate zeroes a non-finite desired velocity instead of spreading it
    expect(Number.isFinite(w.position.y[e])).toBe(true);
  });
});
