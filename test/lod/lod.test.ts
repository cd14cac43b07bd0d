import { describe, expect, it } from 'vitest';
import { createCrowd, spawnAgent, step, setAgentPosition, setPreferredVelocity } from '../../src/index';
import { enableLod, setFocusPoints, setLodBudget, getLodStats, lodSystem } from '../../systems/lod';
import { lodComponent, LOD_ALL, LOD_BOIDS, LOD_CONTACTS, LOD_ORCA, LOD_STEER, TIER_FAR, TIER_MID, TIER_NEAR } from '../../components/lod';
import { assignTiers } from '../../src/lod/tiers';
import { budgetUpdate, createBudget } from '../../src/lod/budget';

describe('assignTiers (hand-checked distances)', () => {
  it('assigns by distance to the nearest focus point', () => {
    const ids = Int32Array.from([1, 2, 3, 4]);
    const xs = Float64Array.from([0, 5, 25, 100, -95]);
    const ys = new Float64Array(5);
    const fx = Float64Array.from([0, -100]), fy = Float64Array.from([0, 0]);
    const tier = new Uint8Array(5);
    assignTiers(ids, 0, 4, xs, ys, fx, fy, 2, Float64Array.from([10, 50]), 3, 0, tier);
    // eid1 at 5 → near; eid2 at 25 → mid; eid3 at 100 → far (100 from origin, 200 from the other); eid4 at 5 from (-100,0) → near
    expect(Array.from(tier.subarray(1))).toEqual([TIER_NEAR, TIER_MID, TIER_FAR, TIER_NEAR]);
  });
  it('hysteresis: no flicker inside the band, switches beyond it', () => {
    const ids = Int32Array.from([1]);
    const xs = new Float64Array(2), ys = new Float64Array(2);
    const f = new Float64Array(1);
    const radii = Float64Array.from([10, 50]);
    const tier = new Uint8Array(2);
    const at = (d: number) => { xs[1] = d; assignTiers(ids, 0, 1, xs, ys, f, f, 1, radii, 3, 2, tier); return tier[1]; };
    expect(at(9)).toBe(TIER_NEAR);
    expect(at(11)).toBe(TIER_NEAR); // inside band (10, 12]
    expect(at(11.9)).toBe(TIER_NEAR);
    expect(at(12.1)).toBe(TIER_MID); // beyond 10 + 2
    expect(at(9)).toBe(TIER_MID); // inside band [8, 10)
    expect(at(7.9)).toBe(TIER_NEAR);
    // oscillating around the boundary by ±1.5 never changes the tier
    let changes = 0, last = tier[1];
    for (let i = 0; i < 100; i++) { const t = at(10 + (i % 2 ? 1.5 : -1.5)); if (t !== last) changes++; last = t; }
    expect(changes).toBe(0);
    // a far jump crosses two boundaries at once
    expect(at(200)).toBe(TIER_FAR);
    expect(at(3)).toBe(TIER_NEAR);
  });
});

describe('lodSystem', () => {
  it('sets system flags per tier and staggers far agents: each updated exactly once per N frames', () => {
    const w = createCrowd({ maxAgents: 300 });
    for (let i = 0; i < 300; i++) spawnAgent(w, { x: i, y: 0 });
    enableLod(w, { nearRadius: 50, midRadius: 100, hysteresis: 0, farInterval: 5, focus: [0, 0] });
    const lod = lodComponent(w);
    const updates = new Int32Array(w.capacity + 1);
    const N = 5, frames = 40;
    // The first step moves every agent from the default (near) tier to its own; an agent is updated on the frame it
    // changes tier (its last update was made for the old tier's interval), so every agent runs then.
    step(w, 0.01);
    for (let i = 0; i < w.agents.count; i++) expect(lod.flags[w.agents.dense[i]] & LOD_STEER).toBe(LOD_STEER);
    for (let f = 0; f < frames; f++) {
      step(w, 0.01);
      for (let i = 0; i < w.agents.count; i++) {
        const e = w.agents.dense[i];
        if (lod.flags[e] & LOD_STEER) updates[e]++;
      }
    }
    const stats = getLodStats(w);
    expect(stats.near + stats.mid + stats.far).toBe(300);
    for (let i = 0; i < w.agents.count; i++) {
      const e = w.agents.dense[i];
      const t = lod.tier[e];
      if (t === TIER_FAR) {
        expect(updates[e]).toBe(frames / N);
        expect(lod.flags[e] & (LOD_ORCA | LOD_BOIDS)).toBe(0);
        // contacts are staggered with steering
        expect((lod.flags[e] & LOD_CONTACTS) !== 0).toBe((lod.flags[e] & LOD_STEER) !== 0);
      } else {
        expect(updates[e]).toBe(frames);
      }
      if (t === TIER_NEAR) expect(lod.flags[e]).toBe(LOD_ALL);
      if (t === TIER_MID) expect(lod.flags[e]).toBe(LOD_STEER | LOD_BOIDS | LOD_CONTACTS);
    }
    // the cost is even across frames: far agents updating per frame differ by at most one bucket's share
    const perFrame: number[] = [];
    for (let f = 0; f < N; f++) {
      lodSystem(w);
      let n = 0;
      for (let i = 0; i < w.agents.count; i++) { const e = w.agents.dense[i]; if (lod.tier[e] === TIER_FAR && lod.flags[e] & LOD_STEER) n++; }
      perFrame.push(n);
      w.time.frame++;
    }
    expect(Math.max(...perFrame) - Math.min(...perFrame)).toBeLessThanOrEqual(1);
  });
  it('tier changes keep velocities (no jump)', () => {
    const w = createCrowd({ maxAgents: 4 });
    const a = spawnAgent(w, { x: 40, y: 0, vx: 1.25, vy: 0.5, maxSpeed: 2 });
    setPreferredVelocity(w, a, 1.25, 0.5);
    enableLod(w, { nearRadius: 10, midRadius: 20, focus: [0, 0] });
    step(w, 0.1);
    expect(lodComponent(w).tier[a]).toBe(TIER_FAR);
    setAgentPosition(w, a, 1, 0);
    setFocusPoints(w, [0, 0]);
    lodSystem(w);
    expect(lodComponent(w).tier[a]).toBe(TIER_NEAR);
    expect(w.velocity.x[a]).toBe(1.25);
    expect(w.velocity.y[a]).toBe(0.5);
  });
  it('rejects bad options', () => {
    const w = createCrowd({ maxAgents: 4 });
    expect(() => enableLod(w, { nearRadius: -1 })).toThrow(/nearRadius/);
    expect(() => enableLod(w, { nearRadius: 10, midRadius: 5 })).toThrow(/midRadius/);
    expect(() => enableLod(w, { focus: [1, NaN] })).toThrow(/focus\[1\]/);
    expect(() => setLodBudget(w, { targetMs: 1 })).toThrow(/enableLod/);
    enableLod(w);
    expect(() => setLodBudget(w, { targetMs: 0 })).toThrow(/targetMs/);
  });
});

describe('frame budget', () => {
  it('budgetUpdate moves r toward r·sqrt(T/C) (hand computation)', () => {
    const b = createBudget(4, 1, 100);
    b.window = 1;
    b.gain = 1;
    // cost 16 vs target 4 → sqrt(1/4) = 0.5 → r halves
    expect(budgetUpdate(b, 16, 20)).toBeCloseTo(10, 12);
    expect(b.state).toBe('shrinking');
    expect(budgetUpdate(b, 4.1, 10)).toBe(10); // within the 5% dead band
    expect(budgetUpdate(b, 1, 10)).toBeCloseTo(20, 12); // sqrt(4) = 2
    expect(budgetUpdate(b, 0.01, 90)).toBe(100); // clamped to max
  });
  it('converges to within 10% of the target within 120 frames when the cost exceeds it (deterministic cost model: 2 µs per near agent + 0.5 ms)', () => {
    const w = createCrowd({ maxAgents: 20000, seed: 3 });
    // uniform crowd on a 300 m square
    for (let i = 0; i < 20000; i++) {
      const x = ((i * 7919) % 20000) / 20000 * 300 - 150;
      const y = ((i * 104729) % 20000) / 20000 * 300 - 150;
      spawnAgent(w, { x, y });
    }
    enableLod(w, { nearRadius: 120, midRadius: 200, focus: [0, 0] });
    const costOf = (world: typeof w) => 0.5 + 0.002 * getLodStats(world).near;
    setLodBudget(w, { targetMs: 8, minRadius: 5, maxRadius: 200, cost: costOf });
    for (let i = 0; i < 120; i++) lodSystem(w), w.time.frame++;
    const cost = costOf(w);
    expect(cost).toBeGreaterThan(8 * 0.9);
    expect(cost).toBeLessThan(8 * 1.1);
    // and it started well above: at r=120 most of the square is near
    w.systems.lod && setLodBudget(w, null);
  });
});
