/**
 * contactsSystem and immovable geometry: every agent kept out of obstacle segments and static shapes in every frame
 * whatever its LOD tier, swept tests against tunnelling, sided projection and depenetration for closed obstacles.
 * Every test here but the two marked otherwise is a regression test: run against the code before these fixes (the
 * contacts system of commit 3184978, with this file in place) it failed, and its comment gives the measured old
 * result.
 */
import { describe, expect, it } from 'vitest';
import { createCrowd, type CrowdWorld } from '../../src/world/crowd';
import { spawnAgent, setPreferredVelocity, setAgentVelocity, setAgentPosition } from '../../src/world/agents';
import { lodComponent, LOD_ALL, LOD_CONTACTS } from '../../components/lod';
import { step } from '../../src/world/step';
import { contactsSystem, addStaticShape, configureContacts, dropContactsCache } from '../../systems/contacts';
import { enableLod } from '../../systems/lod';
import { boxShape2 } from '../../src/collision/shapes2d';
import { addObstacle } from '../../components/orca';
import { diagnoseWorld } from '../../src/reliability/diagnose';
import { gridFromAscii } from '../../src/grid/grid';
import { gridWallRings } from '../../src/grid/walls';
import { createRng, rand } from './helpers';

/** Distance from (px, py) to segment (a, b), by hand (independent of the system's grid and projection). */
function segDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax, ey = by - ay;
  let t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(px - ax - t * ex, py - ay - t * ey);
}

/** Even-odd point-in-polygon (ray crossing), the independent "inside" oracle. */
function inPolygon(px: number, py: number, pts: [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i], [xj, yj] = pts[j];
    if ((yi > py) !== (yj > py) && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Distance from a point to a polygon's boundary (brute force over its edges). */
function polyDist(px: number, py: number, pts: [number, number][]): number {
  let d = Infinity;
  for (let i = 0; i < pts.length; i++) {
    const [ax, ay] = pts[i], [bx, by] = pts[(i + 1) % pts.length];
    d = Math.min(d, segDist(px, py, ax, ay, bx, by));
  }
  return d;
}

describe('contacts: walls in every frame, whatever the LOD tier', () => {
  it('a far agent walking into a wall between its contacts passes (far interval 8) stays its radius from it in every frame', () => {
    // Hand: the wall is x = 0, the agent (r 0.3) walks west at 2 m/s (0.067 m a step, under its radius). Measured
    // on the old code: contacts one frame in 8 let it walk on between passes (x = 0.27 at step 10), its centre
    // crossed the wall, the next pass projected it out on the far side, and it walked on (x = −3.2 at step 60).
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    addObstacle(world, [[0, -10], [0, 10]], { closed: false });
    enableLod(world, { nearRadius: 0.001, midRadius: 0.001, hysteresis: 0, farInterval: 8, focus: [-100, -100] });
    const e = spawnAgent(world, { x: 1, y: 0, radius: 0.3, maxSpeed: 2, maxAccel: Infinity });
    const flags = lodComponent(world).flags;
    let skipped = 0;
    for (let s = 0; s < 60; s++) {
      setPreferredVelocity(world, e, -2, 0);
      step(world, 1 / 30);
      if ((flags[e] & LOD_CONTACTS) === 0) skipped++;
      expect(world.position.x[e], `step ${s}`).toBeGreaterThanOrEqual(0.3 - 1e-9);
    }
    expect(skipped).toBeGreaterThan(45); // the agent looked for contacts in few of these frames
    expect(world.position.x[e]).toBeCloseTo(0.3, 9); // held at the wall
  });

  it('a far agent skipped this frame and pushed into a wall by an active neighbour is projected out of it', () => {
    // Hand: wall x = 0; p (skipped, r 0.3) at x = 0.31, the active a (r 0.3) at x = 0.61 overlaps it by 0.3. One
    // pass moves each by half the depth: p to ~0.16, into the wall; p is then projected back to x = 0.3 exactly and
    // the later passes push a away. Measured on the old code: p ended at x = 0.160 (14 cm inside the wall).
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    addObstacle(world, [[0, -10], [0, 10]], { closed: false });
    configureContacts(world, { iterations: 1000 });
    const p = spawnAgent(world, { x: 0.31, y: 0, radius: 0.3 });
    const a = spawnAgent(world, { x: 0.61, y: 0, radius: 0.3 });
    const flags = lodComponent(world).flags;
    flags[p] = LOD_ALL & ~LOD_CONTACTS;
    contactsSystem(world);
    expect(world.position.x[p]).toBeGreaterThanOrEqual(0.3 - 1e-12);
    expect(world.position.x[a] - world.position.x[p]).toBeGreaterThanOrEqual(0.6 - 1e-3); // overlap within slop
    expect(world.position.y[p]).toBe(0);
  });
});

describe('contacts: swept tests (a step longer than the radius does not tunnel through a thin wall)', () => {
  // An agent of radius 0.1 at x = 0.5 moving west at 30 m/s, dt 1/30 s: integration moves it 1 m, to x = −0.5,
  // across a wall at x ∈ [0, 0.05] (its centre lands beyond it, farther than its radius: a projection of the end
  // point alone finds nothing to do). Hand: it slides back to the wall's east face plus its radius, keeping its
  // motion along the wall, and loses its velocity through it.
  const fast = (build: (w: CrowdWorld) => void, face: number) => {
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    build(world);
    const e = spawnAgent(world, { x: 0.5, y: 0, radius: 0.1, maxSpeed: 40, maxAccel: Infinity });
    setAgentVelocity(world, e, -30, 3);
    setPreferredVelocity(world, e, -30, 3);
    step(world, 1 / 30);
    expect(world.position.x[e]).toBeCloseTo(face + 0.1, 12);
    expect(world.position.y[e]).toBeCloseTo(0.1, 12); // the 3 m/s along the wall, kept
    expect(world.velocity.x[e]).toBeCloseTo(0, 12);
    return world;
  };
  it('an open wall (x = 0; the old code left the agent at x = −0.5, beyond it)', () => {
    fast((w) => addObstacle(w, [[0, -10], [0, 10]], { closed: false }), 0);
  });
  it('a thin closed obstacle, 5 cm thick (the old code left it at x = −0.5, beyond it)', () => {
    const w = fast((w) => addObstacle(w, [[0, -10], [0.05, -10], [0.05, 10], [0, 10]]), 0.05);
    expect(diagnoseWorld(w).insideObstacles).toEqual([]);
  });
  it('a thin static box, 5 cm thick (the old code left it at x = −0.5, beyond it)', () => {
    fast((w) => addStaticShape(w, boxShape2(0.025, 10), 0.025, 0), 0.05);
  });
  it('a far agent at dt 0.1 s and 4 m/s (40 cm a step, radius 0.1 m) does not leave an arena of open walls', () => {
    // The formation full-pipeline property's finding (docs/RELIABILITY.md), by hand: a far member walking to a slot
    // beyond the arena wall. Measured on the old code: x = 5.30 after step 1 (0.3 m beyond the wall; walked on, 16.4 m
    // after 30 steps).
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    addObstacle(world, [[-5, -5], [5, -5], [5, 5], [-5, 5], [-5, -5]], { closed: false });
    enableLod(world, { nearRadius: 0.001, midRadius: 0.001, hysteresis: 0, farInterval: 8, focus: [-100, -100] });
    const e = spawnAgent(world, { x: 4.55, y: 0, radius: 0.1, maxSpeed: 4, maxAccel: Infinity });
    for (let s = 0; s < 30; s++) {
      setPreferredVelocity(world, e, 4, 0.5);
      step(world, 0.1);
      expect(world.position.x[e], `step ${s}`).toBeLessThanOrEqual(5 - 0.1 + 1e-9);
    }
  });
});

describe('contacts: closed obstacles are sided', () => {
  // A light agent L (r 0.3) touching a closed box's east face, a heavy agent H (mass 1000) overlapping it by
  // 0.55 m: one Jacobi pass moves L by (0.55 − slop/2)·1/1.001 = 0.5490 m west, its centre across the face.
  const shove = (boxWest: number, lx: number) => {
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    const box: [number, number][] = [[boxWest, -10], [lx - 0.3, -10], [lx - 0.3, 10], [boxWest, 10]];
    addObstacle(world, box);
    configureContacts(world, { iterations: 1 });
    const l = spawnAgent(world, { x: lx, y: 0, radius: 0.3 });
    const h = spawnAgent(world, { x: lx + 0.05, y: 0, radius: 0.3, mass: 1000 });
    contactsSystem(world);
    return { world, l, h, box };
  };
  it('crowd pressure across a wall edge: a centre pushed into a 1 m box slides back to the free side (the old code held it inside, at x = 0.7)', () => {
    const { world, l, box } = shove(0, 1.3);
    // hand: back to the east face x = 1 plus the radius, where the pass started
    expect(world.position.x[l]).toBeCloseTo(1.3, 12);
    expect(inPolygon(world.position.x[l], world.position.y[l], box)).toBe(false);
    expect(diagnoseWorld(world).insideObstacles).toEqual([]);
  });
  it('the same push through a 10 cm box does not put the centre on the far side (the old code: x = −0.3, west of it)', () => {
    const { world, l } = shove(0, 0.4);
    expect(world.position.x[l]).toBeCloseTo(0.4, 12);
  });
  it('a dense crowd shoved into a thin closed wall for 3 s: no centre ever inside it or beyond it (point in polygon)', () => {
    // Not a regression test of its own (the old code passed it too): the sided projection in a jam, with heavy
    // agents behind light ones at the default pass budget.
    const world = createCrowd({ maxAgents: 128, seed: 3 });
    const box: [number, number][] = [[0, -20], [0.1, -20], [0.1, 20], [0, 20]];
    addObstacle(world, box);
    const rng = createRng(5);
    const ids: number[] = [];
    for (let i = 0; i < 100; i++) ids.push(spawnAgent(world, { x: rand(rng, 0.45, 3), y: rand(rng, -2, 2), radius: 0.3, mass: i % 3 === 0 ? 50 : 1, maxSpeed: 4, maxAccel: 100 }));
    for (let s = 0; s < 90; s++) {
      for (const e of ids) setPreferredVelocity(world, e, -4, rand(rng, -1, 1));
      step(world, 1 / 30);
      for (const e of ids) {
        const x = world.position.x[e], y = world.position.y[e];
        expect(inPolygon(x, y, box) || x < 0, `step ${s}: agent ${e} at (${x}, ${y})`).toBe(false);
        expect(polyDist(x, y, box)).toBeGreaterThanOrEqual(0.3 - 1e-3);
      }
    }
  });
});

describe('contacts: an agent starting inside a closed obstacle is pushed out (depenetration)', () => {
  // Each case: one step without motion; the expected place is the nearest free point the agent's radius from the
  // walls, derived by hand (nearest edge, then the corner rule); checked against point in polygon and the distance
  // to every edge. Measured on the old code (segments immovable from both sides): the agents stayed where they were
  // put ((1, 2), (2, 1), (12, 5), (1.3, 2.5), the teleport at (3.5, 2)) or were pushed deeper ((3.9, 3.8) to
  // (3.7, 3.7), the L's (0.8, 0.8) to (0.79, 0.79)), and in the thin wall (0.08, 1) left through the farther face,
  // to x = −0.3 ((0.03, 0) went to −0.3 as now).
  const place = (build: (w: CrowdWorld) => void, x: number, y: number, r: number) => {
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    build(world);
    const e = spawnAgent(world, { x, y, radius: r });
    step(world, 1 / 60);
    return { world, x: world.position.x[e], y: world.position.y[e] };
  };
  const square: [number, number][] = [[0, 0], [4, 0], [4, 4], [0, 4]];
  it('a 4 m square: out through the nearest side, its radius beyond it', () => {
    const a = place((w) => addObstacle(w, square), 1, 2, 0.3); // nearest side x = 0 (1 m)
    expect([a.x, a.y]).toEqual([expect.closeTo(-0.3, 12), expect.closeTo(2, 12)]);
    const b = place((w) => addObstacle(w, square), 2, 1, 0.3); // nearest side y = 0
    expect([b.x, b.y]).toEqual([expect.closeTo(2, 12), expect.closeTo(-0.3, 12)]);
    const c = place((w) => addObstacle(w, square), 3.9, 3.8, 0.3); // near a convex corner: x = 4 is 0.1 away, y = 4 0.2
    expect([c.x, c.y]).toEqual([expect.closeTo(4.3, 12), expect.closeTo(3.8, 12)]);
    for (const p of [a, b, c]) {
      expect(inPolygon(p.x, p.y, square)).toBe(false);
      expect(polyDist(p.x, p.y, square)).toBeGreaterThanOrEqual(0.3 - 1e-12);
      expect(diagnoseWorld(p.world).insideObstacles).toEqual([]);
    }
  });
  it('a thin wall (10 cm): out through the nearer face, never the farther one', () => {
    const thin: [number, number][] = [[0, -5], [0.1, -5], [0.1, 5], [0, 5]];
    const a = place((w) => addObstacle(w, thin), 0.03, 0, 0.3);
    expect([a.x, a.y]).toEqual([expect.closeTo(-0.3, 12), expect.closeTo(0, 12)]);
    const b = place((w) => addObstacle(w, thin), 0.08, 1, 0.3);
    expect([b.x, b.y]).toEqual([expect.closeTo(0.4, 12), expect.closeTo(1, 12)]);
  });
  it('the concave corner of an L: to the corner of free space its radius from both walls', () => {
    // The L's reflex vertex (1, 1); from (0.8, 0.8) the nearest boundary point is that vertex (0.28 m; the outer
    // sides are 0.8 away), so the centre goes out along (1, 1)/√2 to 0.3 past it, 0.21 from both walls of the free
    // quadrant x > 1, y > 1, and the projection then puts it at (1.3, 1.3).
    const L: [number, number][] = [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]];
    const p = place((w) => addObstacle(w, L), 0.8, 0.8, 0.3);
    expect([p.x, p.y]).toEqual([expect.closeTo(1.3, 12), expect.closeTo(1.3, 12)]);
    expect(inPolygon(p.x, p.y, L)).toBe(false);
    expect(polyDist(p.x, p.y, L)).toBeGreaterThanOrEqual(0.3 - 1e-12);
  });
  it('outside an arena (enclose: true) is solid: the agent is put inside, its radius from the wall', () => {
    const arena: [number, number][] = [[0, 0], [10, 0], [10, 10], [0, 10]];
    const p = place((w) => addObstacle(w, arena, { enclose: true }), 12, 5, 0.3);
    expect([p.x, p.y]).toEqual([expect.closeTo(9.7, 12), expect.closeTo(5, 12)]);
    expect(inPolygon(p.x, p.y, arena)).toBe(true);
    expect(diagnoseWorld(p.world).insideObstacles).toEqual([]);
  });
  it('a grid map\'s walls (gridWallRings): an agent in a blocked cell goes to the nearest walkable cell', () => {
    // Cell (1, 2) is blocked; (1.3, 2.5) is 0.3 from the walkable cell (0, 2) and 0.7 from the pocket (2, 2).
    const g = gridFromAscii(['......', '.####.', '.#..#.', '.####.', '......']);
    const p = place((w) => { for (const r of gridWallRings(g)) addObstacle(w, r.points, { enclose: r.encloses === 'walkable' }); }, 1.3, 2.5, 0.2);
    expect([p.x, p.y]).toEqual([expect.closeTo(0.8, 12), expect.closeTo(2.5, 12)]);
    expect(g.walkable[Math.floor(p.y) * g.width + Math.floor(p.x)]).toBe(1);
    expect(diagnoseWorld(p.world).insideObstacles).toEqual([]);
  });
  it('an agent teleported into a building goes out too, and an open wall stays two-sided', () => {
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    addObstacle(world, square);
    addObstacle(world, [[10, -5], [10, 5]], { closed: false });
    const e = spawnAgent(world, { x: -3, y: 2, radius: 0.3 });
    const w = spawnAgent(world, { x: 9.9, y: 0, radius: 0.3 }); // west of the open wall, within its radius
    step(world, 1 / 60);
    setAgentPosition(world, e, 3.5, 2); // nearest side x = 4
    step(world, 1 / 60);
    expect([world.position.x[e], world.position.y[e]]).toEqual([expect.closeTo(4.3, 12), expect.closeTo(2, 12)]);
    expect(world.position.x[w]).toBeCloseTo(9.7, 12); // pushed out on its own side (hand: 10 − 0.3)
  });
});

describe('contacts: the wall checks\' caches change no result', () => {
  // A determinism check of the skips (the cached disc of each agent lets the wall checks be skipped; a world whose
  // cache is dropped every step runs them all). The old code also gave identical positions, but its final
  // diagnosis failed: 20 agents inside obstacles.
  it('bit-identical positions with and without the segment-distance cache (LOD on, closed, open and enclosing walls, fast agents, teleports)', () => {
    const make = () => {
      const world = createCrowd({ maxAgents: 128, seed: 8 });
      addObstacle(world, [[-12, -12], [12, -12], [12, 12], [-12, 12]], { enclose: true });
      addObstacle(world, [[-3, -3], [3, -3], [3, -2.9], [-3, -2.9]]); // thin
      addObstacle(world, [[4, 4], [8, 4], [8, 5], [5, 5], [5, 8], [4, 8]]); // an L
      addObstacle(world, [[-8, 2], [-2, 6]], { closed: false });
      addStaticShape(world, boxShape2(0.05, 3), -6, -6);
      enableLod(world, { nearRadius: 4, midRadius: 8, hysteresis: 0, farInterval: 4, focus: [0, 0] });
      const rng = createRng(3);
      for (let i = 0; i < 100; i++) spawnAgent(world, { x: rand(rng, -11, 11), y: rand(rng, -11, 11), radius: rand(rng, 0.1, 0.4), maxSpeed: 12, maxAccel: Infinity });
      return world;
    };
    const kept = make(), fresh = make();
    for (let s = 0; s < 120; s++) {
      for (const w of [kept, fresh]) {
        const r2 = createRng(1000 + s);
        for (let i = 0; i < w.agents.count; i++) {
          const e = w.agents.dense[i];
          setPreferredVelocity(w, e, rand(r2, -12, 12), rand(r2, -12, 12));
          if (s % 17 === 5 && i % 9 === 0) setAgentPosition(w, e, rand(r2, -14, 14), rand(r2, -14, 14));
        }
      }
      step(kept, 1 / 20);
      dropContactsCache(fresh);
      step(fresh, 1 / 20);
    }
    expect(Array.from(kept.position.x.subarray(0, 101))).toEqual(Array.from(fresh.position.x.subarray(0, 101)));
    expect(Array.from(kept.position.y.subarray(0, 101))).toEqual(Array.from(fresh.position.y.subarray(0, 101)));
    // and the crowd stayed in free space (every fast agent, every frame kept out; teleports put out)
    const d = diagnoseWorld(kept, { tolerance: 1e-3 });
    expect(d.insideObstacles).toEqual([]);
  });
});
