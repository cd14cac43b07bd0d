/** contactsSystem: detection into the SoA buffer, resolution by inverse mass, walls, determinism, capacity. */
import { describe, expect, it } from 'vitest';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent, setPreferredVelocity, despawnAgent, setAgentParams } from '../../src/world/agents';
import { lodComponent, LOD_ALL, LOD_CONTACTS } from '../../components/lod';
import { rngFloat } from '../../src/core/rng';
import { step } from '../../src/world/step';
import { spatialHashSystem } from '../../systems/spatial-hash';
import { contactsSystem, getContacts, addStaticShape, configureContacts, staticShapeCount, dropContactsCache } from '../../systems/contacts';
import { setAgentShape } from '../../components/shape';
import { boxShape2, polygonShape } from '../../src/collision/shapes2d';
import { createRng, rand } from './helpers';
import { addObstacle } from '../../components/orca';
import { setSteeringWalls } from '../../systems/steering';
import { profileEntry } from '../../src/world/profiler';

function detectOnly(world: ReturnType<typeof createCrowd>): void {
  configureContacts(world, { iterations: 0 });
  spatialHashSystem(world);
  contactsSystem(world);
}

describe('contactsSystem', () => {
  it('writes every overlapping agent pair once, matching a brute-force O(n²) check', () => {
    const world = createCrowd({ maxAgents: 400, seed: 3 });
    const rng = createRng(7);
    for (let i = 0; i < 300; i++) spawnAgent(world, { x: rand(rng, 0, 15), y: rand(rng, 0, 15), radius: rand(rng, 0.2, 0.6) });
    detectOnly(world);
    const buf = getContacts(world);
    // brute force over all pairs
    const expected = new Map<string, number>();
    const d = world.agents.dense;
    for (let i = 0; i < world.agents.count; i++) for (let j = i + 1; j < world.agents.count; j++) {
      const a = Math.min(d[i], d[j]), b = Math.max(d[i], d[j]);
      const dist = Math.hypot(world.position.x[b] - world.position.x[a], world.position.y[b] - world.position.y[a]);
      const depth = world.agent.radius[a] + world.agent.radius[b] - dist;
      if (depth >= 0) expected.set(`${a},${b}`, depth);
    }
    expect(buf.count).toBe(expected.size);
    for (let c = 0; c < buf.count; c++) {
      const key = `${buf.a[c]},${buf.b[c]}`;
      expect(expected.has(key), key).toBe(true);
      expect(buf.depth[c]).toBeCloseTo(expected.get(key)!, 12);
      // normal points from a to b
      const nx = world.position.x[buf.b[c]] - world.position.x[buf.a[c]], ny = world.position.y[buf.b[c]] - world.position.y[buf.a[c]];
      expect(buf.nx[c] * nx + buf.ny[c] * ny).toBeGreaterThan(0);
    }
  });

  it('keeps its pair list across frames only while it is exact: 60 frames of moves, teleports, despawns, spawns, growing radii and LOD flags, every buffer equal to brute force', () => {
    const world = createCrowd({ maxAgents: 400, seed: 4 });
    const rng = createRng(21);
    for (let i = 0; i < 250; i++) spawnAgent(world, { x: rand(rng, 0, 12), y: rand(rng, 0, 12), radius: rand(rng, 0.2, 0.4) });
    configureContacts(world, { iterations: 0 });
    const flags = lodComponent(world).flags;
    let reused = 0, built = 0;
    for (let f = 0; f < 60; f++) {
      const dense = world.agents.dense;
      // small moves (the list should survive these), and now and then an event that must invalidate it
      for (let i = 0; i < world.agents.count; i++) {
        const e = dense[i];
        world.position.x[e] += rand(rng, -0.03, 0.03); world.position.y[e] += rand(rng, -0.03, 0.03);
        // LOD: about a third of the agents skip contacts this frame (changes every frame)
        flags[e] = rngFloat(rng) < 0.35 ? LOD_ALL & ~LOD_CONTACTS : LOD_ALL;
      }
      if (f % 10 === 3) { const e = dense[f % world.agents.count]; world.position.x[e] = rand(rng, 0, 12); world.position.y[e] = rand(rng, 0, 12); }
      if (f % 10 === 5) despawnAgent(world, dense[(7 * f) % world.agents.count]);
      if (f % 10 === 7) { const e = spawnAgent(world, { x: rand(rng, 0, 12), y: rand(rng, 0, 12), radius: 0.3 }); flags[e] = LOD_ALL; }
      if (f % 10 === 9) setAgentParams(world, dense[(3 * f) % world.agents.count], { radius: 0.8 });
      contactsSystem(world);
      const lists = profileEntry(world.profiler, 'contacts').counters.pairLists;
      if (lists === 0) reused++; else built++;
      // brute force: every touching pair with at least one agent looking for contacts, owned by the smaller id when
      // both look, else by the one that does
      const expected = new Map<string, number>();
      const n = world.agents.count;
      const active = (e: number) => (flags[e] & LOD_CONTACTS) !== 0;
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
        let a = Math.min(dense[i], dense[j]), b = Math.max(dense[i], dense[j]);
        if (!active(a) && !active(b)) continue;
        if (!active(a)) { const t = a; a = b; b = t; }
        const depth = world.agent.radius[a] + world.agent.radius[b] - Math.hypot(world.position.x[b] - world.position.x[a], world.position.y[b] - world.position.y[a]);
        if (depth >= 0) expected.set(`${a},${b}`, depth);
      }
      const buf = getContacts(world);
      expect(buf.count, `frame ${f}`).toBe(expected.size);
      for (let c = 0; c < buf.count; c++) {
        const key = `${buf.a[c]},${buf.b[c]}`;
        expect(expected.has(key), `frame ${f}: ${key}`).toBe(true);
        expect(buf.depth[c]).toBeCloseTo(expected.get(key)!, 12);
      }
    }
    // both paths ran: lists kept across frames, and rebuilt (the events above, and the drift)
    expect(reused).toBeGreaterThan(10);
    expect(built).toBeGreaterThan(6);
  });

  it('the pair list kept across frames (adaptive skin) changes no result: bit-identical to a world whose list is rebuilt every frame', () => {
    const make = () => {
      const world = createCrowd({ maxAgents: 300, seed: 6 });
      const rng = createRng(9);
      for (let i = 0; i < 250; i++) {
        const e = spawnAgent(world, { x: rand(rng, 0, 9), y: rand(rng, 0, 9), radius: 0.3, maxSpeed: 1.5 });
        setPreferredVelocity(world, e, rand(rng, -1, 1), rand(rng, -1, 1));
      }
      world.enabled.orca = false;
      return world;
    };
    const kept = make(), fresh = make();
    let keptBuilds = 0, maxSkin = 0;
    for (let s = 0; s < 90; s++) {
      step(kept, 1 / 30);
      keptBuilds += profileEntry(kept.profiler, 'contacts').counters.pairLists;
      maxSkin = Math.max(maxSkin, profileEntry(kept.profiler, 'contacts').counters.pairListSkin);
      dropContactsCache(fresh); // fresh rebuilds its pair list every step
      step(fresh, 1 / 30);
    }
    expect(profileEntry(fresh.profiler, 'contacts').counters.pairLists).toBe(1);
    expect(keptBuilds).toBeLessThan(60); // kept's list did serve several frames
    expect(maxSkin).toBeGreaterThan(1); // and its skin adapted (fresh's stays at the minimum): no effect on the result
    expect(profileEntry(fresh.profiler, 'contacts').counters.pairListSkin).toBe(1);
    expect(Array.from(kept.position.x.subarray(0, 251))).toEqual(Array.from(fresh.position.x.subarray(0, 251)));
    expect(Array.from(kept.position.y.subarray(0, 251))).toEqual(Array.from(fresh.position.y.subarray(0, 251)));
  });

  it('pushes two overlapping agents apart by inverse mass (hand derivation)', () => {
    const world = createCrowd({ maxAgents: 8 });
    const a = spawnAgent(world, { x: 0, y: 0, radius: 0.5, mass: 1 });
    const b = spawnAgent(world, { x: 0.8, y: 0, radius: 0.5, mass: 3 });
    configureContacts(world, { iterations: 1, slop: 0 });
    spatialHashSystem(world);
    contactsSystem(world);
    // depth 0.2 split by inverse masses 1 : 1/3 → A moves 0.15 left, B 0.05 right
    expect(world.position.x[a]).toBeCloseTo(-0.15, 12);
    expect(world.position.x[b]).toBeCloseTo(0.85, 12);
    expect(getContacts(world).count).toBe(1);
    expect(getContacts(world).depth[0]).toBeCloseTo(0.2, 12);
  });

  it('polygon agents against static walls: contacts found and no agent left inside a wall', () => {
    const world = createCrowd({ maxAgents: 64, seed: 5 });
    const wall = addStaticShape(world, boxShape2(0.25, 5), 3, 0); // wall at x ∈ [2.75, 3.25]
    expect(staticShapeCount(world)).toBe(1);
    const crate = polygonShape([-0.4, -0.3, 0.4, -0.3, 0.4, 0.3, -0.4, 0.3]);
    const ids: number[] = [];
    for (let i = 0; i < 8; i++) {
      const e = spawnAgent(world, { x: 2.6, y: -3 + i * 0.8, radius: 0.3 });
      if (i % 2 === 0) setAgentShape(world, e, crate, 0.3 * i);
      ids.push(e);
    }
    detectOnly(world);
    const buf = getContacts(world);
    let wallContacts = 0;
    for (let c = 0; c < buf.count; c++) if (buf.b[c] === -1 - wall) { wallContacts++; expect(buf.nx[c]).toBeGreaterThan(0.5); }
    expect(wallContacts).toBe(8);
    configureContacts(world, { iterations: 4, slop: 0.001 });
    contactsSystem(world);
    detectOnly(world);
    for (let c = 0; c < buf.count; c++) if (buf.b[c] < 0) expect(buf.depth[c]).toBeLessThanOrEqual(0.001 + 1e-9);
  });

  it('a dense crowd pushing into walls for 3 s never stays inside a wall, and runs deterministically', () => {
    const run = () => {
      const world = createCrowd({ maxAgents: 600, seed: 11 });
      // a box corridor: walls left, right, bottom
      addStaticShape(world, boxShape2(0.5, 10), -0.5, 5);
      addStaticShape(world, boxShape2(0.5, 10), 10.5, 5);
      addStaticShape(world, boxShape2(6, 0.5), 5, -0.5);
      const rng = createRng(2);
      for (let i = 0; i < 500; i++) {
        const e = spawnAgent(world, { x: rand(rng, 0.5, 9.5), y: rand(rng, 0.5, 12), radius: 0.25, maxSpeed: 2 });
        setPreferredVelocity(world, e, rand(rng, -1, 1), -2); // everyone shoves down into the floor
      }
      world.enabled.orca = false;
      let minX = Infinity, maxX = -Infinity, minY = Infinity;
      for (let s = 0; s < 180; s++) {
        const dense = world.agents.dense;
        for (let i = 0; i < world.agents.count; i++) setPreferredVelocity(world, dense[i], world.velocity.x[dense[i]] * 0.5, -2);
        step(world, 1 / 60);
        // after the contacts pass no agent overlaps a wall by more than the slop
        for (let i = 0; i < world.agents.count; i++) {
          const e = dense[i], x = world.position.x[e], y = world.position.y[e];
          minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y);
        }
      }
      expect(minX).toBeGreaterThanOrEqual(0.25 - 0.0011);
      expect(maxX).toBeLessThanOrEqual(9.75 + 0.0011);
      expect(minY).toBeGreaterThanOrEqual(0.25 - 0.0011);
      return Array.from(world.position.x.subarray(0, 501)).concat(Array.from(world.position.y.subarray(0, 501)));
    };
    const a = run(), b = run();
    expect(a).toEqual(b);
  });

  it('counts overflow instead of writing past the capacity', () => {
    const world = createCrowd({ maxAgents: 64 });
    for (let i = 0; i < 20; i++) spawnAgent(world, { x: i * 0.1, y: 0, radius: 0.5 });
    configureContacts(world, { capacity: 10 });
    detectOnly(world);
    const buf = getContacts(world);
    expect(buf.count).toBe(10);
    expect(buf.overflow).toBeGreaterThan(0);
  });

  it('automatic capacity: grows after a frame that overflowed until every contact fits', () => {
    const world = createCrowd({ maxAgents: 500 });
    const rng = createRng(8);
    for (let i = 0; i < 400; i++) spawnAgent(world, { x: rand(rng, 0, 4), y: rand(rng, 0, 4), radius: 0.6 });
    configureContacts(world, { iterations: 0 });
    spatialHashSystem(world);
    contactsSystem(world);
    const first = getContacts(world);
    expect(first.overflow).toBeGreaterThan(0);
    let frames = 1;
    while (getContacts(world).overflow > 0 && frames < 20) { contactsSystem(world); frames++; }
    const buf = getContacts(world);
    expect(buf.overflow).toBe(0);
    expect(buf.count).toBe(first.count + first.overflow);
  });

  it('rejects bad options and shapes with typed errors', () => {
    const world = createCrowd({ maxAgents: 4 });
    expect(() => configureContacts(world, { slop: -1 })).toThrow(/slop/);
    expect(() => configureContacts(world, { iterations: 1.5 })).toThrow(/iterations/);
    expect(() => addStaticShape(world, boxShape2(1, 1), NaN, 0)).toThrow(/x/);
    expect(() => addStaticShape(world, {} as never, 0, 0)).toThrow(/shape/);
    const e = spawnAgent(world, { x: 0, y: 0 });
    expect(() => setAgentShape(world, e, boxShape2(1, 1), Infinity)).toThrow(/angle/);
    expect(() => setAgentShape(world, 999, boxShape2(1, 1))).toThrow();
  });
});

/** Distance from (px, py) to segment (a, b), by hand (independent of the system's grid and projection). */
function segDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax, ey = by - ay;
  let t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(px - ax - t * ex, py - ay - t * ey);
}

describe('contactsSystem with ORCA obstacles and steering walls (immovable static geometry)', () => {
  // A U-shaped pen: ORCA polyline on the left (x = 0), steering wall on the right (x = 6), ORCA box as the floor
  // (y in [-1, 0]), and an ORCA triangle inside; everyone is shoved down and sideways into them.
  const segments: [number, number, number, number][] = [
    [0, -1, 0, 20], [6, -1, 6, 20], // left polyline, right steering wall
    [-1, -1, 7, -1], [7, -1, 7, 0], [7, 0, -1, 0], [-1, 0, -1, -1], // floor box
    [2.5, 2, 3.5, 2], [3.5, 2, 3, 3], [3, 3, 2.5, 2], // triangle
  ];
  const build = () => {
    const world = createCrowd({ maxAgents: 200, seed: 4 });
    configureContacts(world, { iterations: 1000 }); // iterate to slop (the default 4 bounds the frame cost instead)
    addObstacle(world, [[0, -1], [0, 20]], { closed: false });
    addObstacle(world, [[-1, -1], [7, -1], [7, 0], [-1, 0]]);
    addObstacle(world, [[2.5, 2], [3.5, 2], [3, 3]]);
    setSteeringWalls(world, [6, -1, 6, 20]);
    const rng = createRng(9);
    const ids: number[] = [];
    for (let i = 0; i < 120; i++) {
      let x = 0, y = 0;
      do { x = rand(rng, 0.3, 5.7); y = rand(rng, 0.3, 8); } while (segDist(x, y, 2.5, 2, 3.5, 2) < 0.6 && y < 3.3 && y > 1.7);
      ids.push(spawnAgent(world, { x, y, radius: 0.25, maxSpeed: 3 }));
    }
    return { world, ids, rng };
  };

  it('after every step: no agent inside an obstacle segment or wall by more than 1e-3, no pair overlapping by more than 1e-3 (brute force)', () => {
    const { world, ids, rng } = build();
    let worstWall = -Infinity, worstPair = -Infinity, maxPasses = 0;
    for (let s = 0; s < 120; s++) {
      for (const e of ids) setPreferredVelocity(world, e, rand(rng, -3, 3), -3);
      step(world, 1 / 30);
      maxPasses = Math.max(maxPasses, profileEntry(world.profiler, 'contacts').counters.passes);
      for (let i = 0; i < ids.length; i++) {
        const a = ids[i], xa = world.position.x[a], ya = world.position.y[a];
        expect(Number.isFinite(xa) && Number.isFinite(ya)).toBe(true);
        for (const [ax, ay, bx, by] of segments) worstWall = Math.max(worstWall, 0.25 - segDist(xa, ya, ax, ay, bx, by));
        // centre inside the floor box or the triangle would be a tunnelled body
        expect(ya > -1 && ya < 0 && xa > -1 && xa < 7).toBe(false);
        for (let j = i + 1; j < ids.length; j++) {
          const b = ids[j];
          worstPair = Math.max(worstPair, 0.5 - Math.hypot(world.position.x[b] - xa, world.position.y[b] - ya));
        }
      }
    }
    expect(worstWall).toBeLessThanOrEqual(1e-3);
    expect(worstPair).toBeLessThanOrEqual(1e-3);
    expect(maxPasses).toBeLessThan(1000); // converged every frame, not stopped by the budget
  });

  it('is deterministic (bit-identical positions for the same inputs)', () => {
    const run = () => {
      const { world, ids, rng } = build();
      for (let s = 0; s < 40; s++) {
        for (const e of ids) setPreferredVelocity(world, e, rand(rng, -3, 3), -3);
        step(world, 1 / 30);
      }
      return ids.flatMap((e) => [world.position.x[e], world.position.y[e]]);
    };
    const a = run(), b = run();
    expect(a.every((v, i) => Object.is(v, b[i]))).toBe(true);
  });

  it('picks up an obstacle added after the first frame (the segment grid is rebuilt when the set changes)', () => {
    const world = createCrowd({ maxAgents: 8, seed: 1 });
    const a = spawnAgent(world, { x: 0.1, y: 0, radius: 0.5 });
    step(world, 1 / 60);
    expect(world.position.x[a]).toBe(0.1); // nothing to push against yet
    addObstacle(world, [[0, -3], [0, 3]], { closed: false });
    step(world, 1 / 60);
    // hand: the centre goes to the closest point (0, 0) plus the radius along the away direction
    expect(world.position.x[a]).toBeCloseTo(0.5, 12);
    expect(world.position.y[a]).toBeCloseTo(0, 12);
    setSteeringWalls(world, [1, -3, 1, 3]);
    const b = spawnAgent(world, { x: 1.2, y: 5, radius: 0.3 });
    world.position.y[b] = 0; world.position.previousY[b] = 0; // moved onto the steering wall after spawning
    step(world, 1 / 60);
    expect(world.position.x[b]).toBeCloseTo(1.3, 12);
  });
});
