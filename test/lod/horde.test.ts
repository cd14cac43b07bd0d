import { describe, expect, it } from 'vitest';
import { createCorridorHorde, meanArrival } from '../../demos/scenarios/horde';
import { createCrowd, spawnAgent, step, setPreferredVelocity } from '../../src/index';
import { enableOrca, setOrcaOptions } from '../../components/orca';
import { enableLod, getLodStats } from '../../systems/lod';
import { lodComponent, TIER_NEAR, TIER_FAR } from '../../components/lod';

describe('LOD quality against full quality', () => {
  it('corridor horde: mean arrival time with LOD on is within 10% of LOD off (same seed)', () => {
    const run = (lod: boolean) => {
      const inst = createCorridorHorde({ agents: 300, seed: 11, lod, length: 90 });
      let steps = 0;
      while (!inst.done!() && steps < 20000) { inst.tick(); steps++; }
      expect(inst.done!()).toBe(true);
      return { mean: meanArrival(inst), lodStats: getLodStats(inst.world) };
    };
    const off = run(false);
    const on = run(true);
    // LOD really was on: some agents were far at the end of the run
    expect(on.lodStats.far + on.lodStats.mid).toBeGreaterThan(0);
    expect(Math.abs(on.mean - off.mean) / off.mean).toBeLessThan(0.1);
  });
});

describe('ORCA guarantee in the near tier', () => {
  it("counter-flow at the focus with LOD on (a far group elsewhere, 'noOverlap' ORCA): no near pair overlaps by more than 1e-3 at any step (brute-force pair check), everyone arrives", () => {
    const w = createCrowd({ maxAgents: 400, seed: 4, neighbourRadius: 10 });
    setOrcaOptions(w, { fallback: 'noOverlap' });
    const near: number[] = [];
    const gx: number[] = [], gy: number[] = [];
    // Two 6×5 blocks of agents (radius 0.5, 2.4 m apart, so the goal lattice leaves room to pass) walking through each other, lanes offset by half a spacing.
    for (let side = 0; side < 2; side++) {
      for (let i = 0; i < 30; i++) {
        const x = (side ? 20 : -20) + (side ? 1 : -1) * (i % 6) * 2.4;
        const y = Math.floor(i / 6) * 2.4 + (side ? 1.2 : 0) - 6;
        const e = spawnAgent(w, { x, y, radius: 0.5, maxSpeed: 1.5 });
        enableOrca(w, e, { neighbourDistance: 8, maxNeighbours: 10, timeHorizon: 4, obstacleTimeHorizon: 2 });
        near.push(e);
        gx.push(x + (side ? -52 : 52)); // translate the block: front agents stay in front
        gy.push(y);
      }
    }
    // a far group walking in a line 500 m away (no interaction with the crossing)
    const far: number[] = [];
    for (let i = 0; i < 200; i++) {
      const e = spawnAgent(w, { x: 500 + (i % 20) * 3, y: Math.floor(i / 20) * 3, radius: 0.5, maxSpeed: 1 });
      enableOrca(w, e);
      far.push(e);
    }
    enableLod(w, { nearRadius: 60, midRadius: 150, focus: [0, 0] });
    const lod = lodComponent(w);
    const n = near.length;
    let worst = 0;
    for (let s = 0; s < 700; s++) {
      near.forEach((e, i) => {
        const dx = gx[i] - w.position.x[e], dy = gy[i] - w.position.y[e];
        const d = Math.hypot(dx, dy);
        const sp = Math.min(1.5, d / 0.5);
        setPreferredVelocity(w, e, d > 1e-9 ? (dx / d) * sp : 0, d > 1e-9 ? (dy / d) * sp : 0);
      });
      for (const e of far) setPreferredVelocity(w, e, 1, 0);
      step(w, 0.1);
      for (let a = 0; a < n; a++) {
        expect(lod.tier[near[a]]).toBe(TIER_NEAR);
        for (let b = a + 1; b < n; b++) {
          const i = near[a], j = near[b];
          const d = Math.hypot(w.position.x[i] - w.position.x[j], w.position.y[i] - w.position.y[j]);
          worst = Math.max(worst, 1 - d);
        }
      }
    }
    expect(worst).toBeLessThan(1e-3);
    expect(far.every((e) => lod.tier[e] === TIER_FAR)).toBe(true);
    near.forEach((e, i) => expect(Math.hypot(w.position.x[e] - gx[i], w.position.y[e] - gy[i])).toBeLessThan(0.5));
  });
});
