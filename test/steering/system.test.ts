import { describe, expect, it } from 'vitest';
import { createCrowd, type CrowdWorld } from '../../src/world/crowd';
import { setPreferredVelocity, spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { setSteering, setSteeringWalls, steeringSystem } from '../../systems/steering';
import {
  STEER_ARRIVE, STEER_AVOID_WALLS, STEER_FOLLOW, STEER_PURSUE, STEER_SEEK, STEER_WANDER,
} from '../../components/steering';
import { createSegmentGrid, querySegmentGrid } from '../../src/steering/segment-grid';
import { createRng, rngFloat } from '../../src/core/rng';
import { InvalidArgumentError, UnknownEntityError } from '../../src/core/errors';
import { enableLod } from '../../systems/lod';
import { lodComponent, TIER_FAR } from '../../components/lod';

function world1(seed = 1): CrowdWorld {
  const w = createCrowd({ maxAgents: 64, seed });
  w.enabled.orca = false;
  return w;
}

describe('steeringSystem', () => {
  it('arrive (through the whole pipeline, default smoothing) stops within 1% of the slowing radius without overshoot', () => {
    for (const dt of [1 / 60, 1 / 20]) {
      const w = world1();
      const e = spawnAgent(w, { x: 0, y: 0, maxSpeed: 3 });
      setSteering(w, e, { behaviours: STEER_ARRIVE, target: { x: 10, y: 0 }, slowingRadius: 2 });
      let maxX = -Infinity;
      for (let t = 0; t < 20; t += dt) { step(w, dt); maxX = Math.max(maxX, w.position.x[e]); }
      expect(maxX).toBeLessThanOrEqual(10); // never passed the target
      expect(10 - w.position.x[e]).toBeLessThanOrEqual(0.01 * 2);
      expect(Math.hypot(w.velocity.x[e], w.velocity.y[e])).toBeLessThan(1e-6); // at rest
    }
  });

  it('pursue intercepts a moving agent in fewer steps than seek', () => {
    const stepsTo = (flag: number) => {
      const w = world1();
      const hunter = spawnAgent(w, { x: 0, y: 0, maxSpeed: 2 });
      const prey = spawnAgent(w, { x: 20, y: -5, vx: 0, vy: 1.2, maxSpeed: 1.2 });
      setSteering(w, hunter, { behaviours: flag, pursueEid: prey });
      for (let k = 1; k < 3000; k++) {
        setPreferredVelocity(w, prey, 0, 1.2);
        if (flag === STEER_SEEK) setSteering(w, hunter, { target: { x: w.position.x[prey], y: w.position.y[prey] } });
        step(w, 1 / 30);
        // Intercepted = bodies touch (the contacts pass keeps them from overlapping: radii 0.5 + 0.5).
        if (Math.hypot(w.position.x[prey] - w.position.x[hunter], w.position.y[prey] - w.position.y[hunter]) < 1.05) return k;
      }
      return Infinity;
    };
    const p = stepsTo(STEER_PURSUE), s = stepsTo(STEER_SEEK);
    expect(p).toBeLessThan(s);
    expect(Number.isFinite(p)).toBe(true);
  });

  it('panic flee overrides every other behaviour (no blend)', () => {
    const w = world1();
    const e = spawnAgent(w, { x: 0, y: 0, maxSpeed: 2 });
    setSteering(w, e, { behaviours: STEER_SEEK | STEER_WANDER, target: { x: 10, y: 0 }, threat: { x: 3, y: 0 }, panic: true, smoothing: 0 });
    step(w, 0.1);
    expect(w.preferredVelocity.x[e]).toBeCloseTo(-2, 12);
    expect(w.preferredVelocity.y[e]).toBe(0);
  });

  it('follow takes the preferred velocity navigation wrote as the desired velocity (clamped)', () => {
    const w = world1();
    const e = spawnAgent(w, { x: 0, y: 0, maxSpeed: 1 });
    setSteering(w, e, { behaviours: STEER_FOLLOW, smoothing: 0 });
    setPreferredVelocity(w, e, 3, 4); // as a navigation system would
    step(w, 0.1);
    expect(w.preferredVelocity.x[e]).toBeCloseTo(0.6, 12);
    expect(w.preferredVelocity.y[e]).toBeCloseTo(0.8, 12);
  });

  it('the turn-rate filter bounds the heading change per step', () => {
    const w = world1();
    const e = spawnAgent(w, { x: 0, y: 0, vx: 1, vy: 0, maxSpeed: 1 });
    setSteering(w, e, { behaviours: STEER_SEEK, target: { x: -10, y: 0.01 }, turnRate: 1, smoothing: 0 });
    let prev = Math.atan2(w.velocity.y[e], w.velocity.x[e]);
    for (let k = 0; k < 60; k++) {
      step(w, 1 / 30);
      const h = Math.atan2(w.velocity.y[e], w.velocity.x[e]);
      let d = Math.abs(h - prev); if (d > Math.PI) d = 2 * Math.PI - d;
      expect(d).toBeLessThanOrEqual(1 / 30 + 1e-9);
      prev = h;
    }
  });

  it('wall avoidance: 40 agents following a flow toward a wall never cross it (control: without it they all do)', () => {
    expect(wallCrossings(STEER_AVOID_WALLS | STEER_FOLLOW)).toBe(0);
    expect(wallCrossings(STEER_FOLLOW)).toBe(40);
  });

  function wallCrossings(flags: number): number {
    const w = world1();
    // Steering alone is under test: the contacts pass would push the crowd piled against the wall through it, since
    // these segments are steering walls only (give real walls to ORCA/contacts as static obstacles too).
    w.enabled.contacts = false;
    // A zig-zag wall across x ≈ 10, open beyond y = ±12.
    const walls = [10, -12, 11, -4, 11, -4, 9, 4, 9, 4, 10, 12];
    setSteeringWalls(w, walls, 2);
    const rng = createRng(3);
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) {
      const e = spawnAgent(w, { x: rngFloat(rng) * 5, y: -8 + 16 * rngFloat(rng), radius: 0.3, maxSpeed: 1.5 });
      setSteering(w, e, { behaviours: flags });
      ids.push(e);
    }
    const side = (x: number, y: number, s: number) => {
      const o = 4 * s, ax = walls[o], ay = walls[o + 1], bx = walls[o + 2], by = walls[o + 3];
      return Math.sign((bx - ax) * (y - ay) - (by - ay) * (x - ax));
    };
    const crosses = (x0: number, y0: number, x1: number, y1: number) => {
      for (let s = 0; s < 3; s++) {
        const o = 4 * s;
        const d1 = side(x0, y0, s), d2 = side(x1, y1, s);
        const o1 = Math.sign((x1 - x0) * (walls[o + 1] - y0) - (y1 - y0) * (walls[o] - x0));
        const o2 = Math.sign((x1 - x0) * (walls[o + 3] - y0) - (y1 - y0) * (walls[o + 2] - x0));
        if (d1 !== d2 && o1 !== o2) return true;
      }
      return false;
    };
    let hits = 0;
    for (let k = 0; k < 30 * 20; k++) {
      for (const e of ids) setPreferredVelocity(w, e, 1.5, 0); // a uniform flow field pointing +x
      const x0 = ids.map((e) => w.position.x[e]), y0 = ids.map((e) => w.position.y[e]);
      step(w, 1 / 30);
      ids.forEach((e, i) => { if (crosses(x0[i], y0[i], w.position.x[e], w.position.y[e])) hits++; });
    }
    expect(w.profiler.byName.steering.counters.steered).toBe(40);
    return hits;
  }

  it('is deterministic (wander from the world PRNG): same seed → identical, other seed → different', () => {
    const run = (seed: number) => {
      const w = world1(seed);
      for (let i = 0; i < 10; i++) {
        const e = spawnAgent(w, { x: i, y: 0, vx: 1, vy: 0 });
        setSteering(w, e, { behaviours: STEER_WANDER });
      }
      for (let k = 0; k < 100; k++) step(w, 1 / 30);
      return Array.from(w.position.x.subarray(1, 11));
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
  });

  it('rejects bad configuration with typed errors naming the field, leaving the agent unchanged', () => {
    const w = world1();
    const e = spawnAgent(w, { x: 0, y: 0 });
    expect(() => setSteering(w, e, { behaviours: 1024 })).toThrow(InvalidArgumentError);
    expect(() => setSteering(w, e, { target: { x: NaN, y: 0 } })).toThrow(/cfg.target.x/);
    expect(() => setSteering(w, e, { slowingRadius: 0 })).toThrow(/cfg.slowingRadius/);
    expect(() => setSteering(w, e, { weights: { sek: 1 } as never })).toThrow(/cfg.weights/);
    expect(() => setSteering(w, e, { pursueEid: 42 })).toThrow(UnknownEntityError);
    expect(() => setSteering(w, 42, {})).toThrow(UnknownEntityError);
    expect(() => setSteering(w, e, { behaviours: STEER_SEEK, turnRate: -1 })).toThrow(/cfg.turnRate/);
    step(w, 0.1);
    expect(w.preferredVelocity.x[e]).toBe(0); // the failed calls configured nothing
    expect(() => setSteeringWalls(w, [0, 0, 1])).toThrow(/segments/);
    expect(() => steeringSystem(w, 0)).toThrow(/dt/);
    expect(() => steeringSystem(w, NaN)).toThrow(InvalidArgumentError);
  });
});

describe('querySegmentGrid', () => {
  it('returns every segment whose bounding box meets the query box, each once (brute-force reference)', () => {
    const rng = createRng(5);
    const segs: number[] = [];
    for (let i = 0; i < 300; i++) {
      const x = rngFloat(rng) * 100, y = rngFloat(rng) * 100;
      segs.push(x, y, x + (rngFloat(rng) - 0.5) * 20, y + (rngFloat(rng) - 0.5) * 20);
    }
    const g = createSegmentGrid(segs, 5);
    const out = new Int32Array(400);
    for (let q = 0; q < 50; q++) {
      const x0 = rngFloat(rng) * 100, y0 = rngFloat(rng) * 100, x1 = x0 + 6, y1 = y0 + 6;
      const n = querySegmentGrid(g, x0, y0, x1, y1, out);
      const got = new Set(out.subarray(0, n));
      expect(got.size).toBe(n);
      for (let s = 0; s < 300; s++) {
        const o = 4 * s;
        const overlaps = Math.min(segs[o], segs[o + 2]) <= x1 && Math.max(segs[o], segs[o + 2]) >= x0 && Math.min(segs[o + 1], segs[o + 3]) <= y1 && Math.max(segs[o + 1], segs[o + 3]) >= y0;
        if (overlaps) expect(got.has(s)).toBe(true);
      }
    }
  });
});

describe('steering under LOD staggering (far agents updated one frame in N)', () => {
  // A far agent keeps one update's velocity for N frames, so each update stands for N·dt of time. Before 2026-11-30
  // the steering system used dt: the turn limit let a far agent turn N times slower than its turn rate, and the
  // smoothing lagged N times longer, which broke arrive's overdamped bound τ ≤ R / (4 maxSpeed): 0.84 m past the
  // target at maxSpeed 3, R = 2, N = 8.
  function farWorld(): CrowdWorld {
    const world = createCrowd({ seed: 1 });
    enableLod(world, { nearRadius: 1, midRadius: 2, hysteresis: 0.1, farInterval: 8, focus: [1000, 1000] });
    return world;
  }

  it('arrive never passes the target and comes to rest inside the stop radius (far tier, interval 8)', () => {
    const world = farWorld();
    const e = spawnAgent(world, { x: 0, y: 0, maxSpeed: 3 });
    setSteering(world, e, { behaviours: STEER_ARRIVE, target: { x: 10, y: 0 }, slowingRadius: 2, stopRadius: 0.02 });
    let maxX = 0;
    for (let t = 0; t < 600; t++) { step(world, 1 / 60); maxX = Math.max(maxX, world.position.x[e]); }
    expect(lodComponent(world).tier[e]).toBe(TIER_FAR);
    expect(maxX).toBeLessThanOrEqual(10);
    expect(10 - world.position.x[e]).toBeLessThanOrEqual(0.02);
  });

  it('the turn limit holds per second of simulated time, not per update (hand bound: ω·t ± one update)', () => {
    // Moving +x at 2 m/s (16 frames of seeking ahead first, so every far update has run once), then seek a target
    // straight behind-left: the heading turns at the limit ω = 1 rad/s. The old code turned a far agent 0.117 rad
    // in that second.
    const omega = 1;
    for (const lod of [false, true]) {
      const world = lod ? farWorld() : createCrowd({ seed: 1 });
      const e = spawnAgent(world, { x: 0, y: 0, vx: 2, vy: 0, maxSpeed: 2 });
      setSteering(world, e, { behaviours: STEER_SEEK, target: { x: 1000, y: 0 }, turnRate: omega, smoothing: 0 });
      for (let t = 0; t < 16; t++) step(world, 1 / 60);
      setSteering(world, e, { target: { x: -1000, y: 1 } });
      for (let t = 0; t < 60; t++) step(world, 1 / 60); // one second
      const heading = Math.atan2(world.velocity.y[e], world.velocity.x[e]);
      // Turned ω · 1 s; a far agent's updates fall on a stagger, so allow one update (8 frames) either side.
      const slack = lod ? (8 / 60) * omega : 0;
      expect(heading).toBeGreaterThanOrEqual(omega - slack - 1e-9);
      expect(heading).toBeLessThanOrEqual(omega + slack + 1e-9);
    }
  });
});
