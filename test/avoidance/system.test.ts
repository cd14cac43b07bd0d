import { describe, expect, it } from 'vitest';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent, setPreferredVelocity, setAgentVelocity, setAgentParams, setAgentPosition } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { spatialHashSystem } from '../../systems/spatial-hash';
import { orcaSystem } from '../../systems/orca';
import { addObstacle, clearObstacles, disableOrca, enableOrca, getObstacles, orcaComponent, orcaState, setOrcaOptions, setOrcaParams } from '../../components/orca';
import { restore, snapshot } from '../../src/reliability/snapshot';
import { LOD_ALL, LOD_ORCA, lodComponent } from '../../components/lod';
import { addObstacleToSet, createObstacleSet, obstacleDistanceLowerBoundAt, queryObstacleSegments } from '../../src/avoidance/obstacles';
import { dropOrcaObstacleBounds, orcaApply, orcaCompute, orcaPack } from '../../systems/orca';
import { createHorde } from '../../demos/scenarios/horde';
import { createCircleSwapScene, driveOrcaScene } from '../../src/avoidance/scenes';
import { createOrcaAgent, createOrcaNeighbours, orcaShare, orcaVelocity } from '../../src/avoidance/orca';
import { createRng, rngRange } from '../../src/core/rng';
import { DegenerateGeometryError, InvalidArgumentError, UnknownEntityError } from '../../src/core/errors';
import type { CrowdWorld } from '../../src/world/crowd';

describe('enableOrca / setOrcaParams', () => {
  it('rejects bad parameters with the field named, and unknown entities', () => {
    const world = createCrowd({ maxAgents: 4 });
    const e = spawnAgent(world, { x: 0, y: 0 });
    const bad: [object, string][] = [
      [{ timeHorizon: 0 }, 'params.timeHorizon'],
      [{ timeHorizon: -1 }, 'params.timeHorizon'],
      [{ obstacleTimeHorizon: NaN }, 'params.obstacleTimeHorizon'],
      [{ neighbourDistance: 0 }, 'params.neighbourDistance'],
      [{ maxNeighbours: 1.5 }, 'params.maxNeighbours'],
      [{ maxNeighbours: 1000 }, 'params.maxNeighbours'],
      [{ priority: -1 }, 'params.priority'],
    ];
    for (const [p, field] of bad) {
      expect(() => enableOrca(world, e, p)).toThrow(InvalidArgumentError);
      expect(() => enableOrca(world, e, p)).toThrow(field);
    }
    // Nothing was applied by the failed calls.
    expect(orcaComponent(world).enabled[e]).toBe(0);
    expect(() => enableOrca(world, 99)).toThrow(UnknownEntityError);
    setOrcaParams(world, e, { priority: Infinity, maxNeighbours: 4 });
    expect(orcaComponent(world).priority[e]).toBe(Infinity);
    expect(orcaComponent(world).maxNeighbours[e]).toBe(4);
    expect(() => setOrcaOptions(world, { symmetryBreaking: -1 })).toThrow('options.symmetryBreaking');
    expect(() => setOrcaOptions(world, { fallback: 'soft' as 'paper' })).toThrow('options.fallback');
  });
});

describe('addObstacle', () => {
  it('rejects degenerate geometry', () => {
    const world = createCrowd({ maxAgents: 4 });
    expect(() => addObstacle(world, [[0, 0], [1, 0]])).toThrow(DegenerateGeometryError);
    expect(() => addObstacle(world, [[0, 0], [1, 0], [2, 0]])).toThrow('zero area');
    expect(() => addObstacle(world, [[0, 0], [3, 3], [3, 0], [0, 2]])).toThrow('self-intersecting');
    expect(() => addObstacle(world, [[0, 0], [0, 0]], { closed: false })).toThrow(DegenerateGeometryError);
    expect(() => addObstacle(world, [[0, 0], [NaN, 1], [1, 1]])).toThrow(InvalidArgumentError);
    expect(getObstacles(world).obstacleCount).toBe(0);
  });
  it('stores polygons counter-clockwise with convexity, polylines as a two-sided ring', () => {
    const set = createObstacleSet();
    // Clockwise L-shape: one reflex vertex at (1, 1).
    addObstacleToSet(set, [[0, 0], [0, 2], [1, 2], [1, 1], [2, 1], [2, 0]]);
    let area2 = 0, reflex = 0;
    for (let v = 0; v < 6; v++) {
      const u = set.next[v];
      area2 += set.x[v] * set.y[u] - set.x[u] * set.y[v];
      if (set.convex[v] === 0) { reflex++; expect([set.x[v], set.y[v]]).toEqual([1, 1]); }
      expect(set.prev[u]).toBe(v);
      expect(Math.hypot(set.dirX[v], set.dirY[v])).toBeCloseTo(1, 14);
    }
    expect(area2).toBeGreaterThan(0);
    expect(reflex).toBe(1);
    // Polyline a-b-c (a left turn at b): ring a, b, c, b; ends convex; b convex on one side, reflex on the other.
    const base = set.vertexCount;
    addObstacleToSet(set, [[10, 0], [12, 0], [12, 2]], { closed: false });
    expect(set.vertexCount - base).toBe(4);
    expect(Array.from(set.convex.subarray(base, base + 4))).toEqual([1, 1, 1, 0]);
  });
});

describe('addObstacle enclose (a ring keeping agents inside)', () => {
  it('stores the ring clockwise (solid outside, on the left of every edge), either input winding; its corners are reflex', () => {
    for (const ring of [[[0, 0], [10, 0], [10, 10], [0, 10]], [[0, 0], [0, 10], [10, 10], [10, 0]]] as [number, number][][]) {
      const set = createObstacleSet();
      addObstacleToSet(set, ring, { enclose: true });
      let area2 = 0;
      for (let v = 0; v < 4; v++) {
        const u = set.next[v];
        area2 += set.x[v] * set.y[u] - set.x[u] * set.y[v];
        expect(set.convex[v]).toBe(0); // seen from inside, an arena's corners are concave
      }
      expect(area2).toBe(-200);
    }
    const world = createCrowd({ maxAgents: 2 });
    expect(() => addObstacle(world, [[0, 0], [1, 0]], { closed: false, enclose: true })).toThrow(InvalidArgumentError);
    expect(() => addObstacle(world, [[0, 0], [1, 0], [1, 1]], { enclose: 'yes' as unknown as boolean })).toThrow(InvalidArgumentError);
  });

  it('an agent driven at the arena wall stops short of it, with the same velocities as against a thick solid wall on the same line (bit-identical)', () => {
    const run = (enclosed: boolean): number[] => {
      const world = createCrowd({ maxAgents: 2, seed: 1 });
      if (enclosed) addObstacle(world, [[-20, -20], [20, -20], [20, 20], [-20, 20]], { enclose: true });
      else addObstacle(world, [[20, -60], [60, -60], [60, 60], [20, 60]]); // solid, its west edge on x = 20
      const eid = spawnAgent(world, { x: 10, y: 0.3, radius: 0.5, maxSpeed: 2, maxAccel: 100 });
      enableOrca(world, eid, { neighbourDistance: 5, maxNeighbours: 4, timeHorizon: 2, obstacleTimeHorizon: 2 });
      const xs: number[] = [];
      for (let f = 0; f < 600; f++) {
        setPreferredVelocity(world, eid, 2, 0);
        step(world, 1 / 60);
        xs.push(world.position.x[eid], world.velocity.x[eid]);
      }
      return xs;
    };
    const a = run(true), b = run(false);
    expect(a).toEqual(b);
    let maxX = -Infinity;
    for (let k = 0; k < a.length; k += 2) maxX = Math.max(maxX, a[k]);
    expect(maxX).toBeLessThanOrEqual(20 - 0.5 + 1e-9); // never touches the wall
    expect(maxX).toBeGreaterThan(19); // and it did walk up to it
  });

  it('self-intersection on large rings (bucketed test) reports what the all-pairs test reports', () => {
    // A 200-vertex zig-zag ring, valid; then one vertex moved across an edge far along the ring.
    const pts: [number, number][] = [];
    for (let i = 0; i < 100; i++) pts.push([i, i % 2 === 0 ? 0 : 1]);
    for (let i = 99; i >= 0; i--) pts.push([i, 5 + (i % 2 === 0 ? 0 : 1)]);
    const set = createObstacleSet();
    addObstacleToSet(set, pts);
    const bad = pts.map((p) => [p[0], p[1]] as [number, number]);
    bad[150] = [bad[150][0], -0.5]; // its two edges now cross the bottom zig-zag
    expect(() => addObstacleToSet(set, bad)).toThrow('self-intersecting');
    // Touching counts too: a vertex placed on another edge.
    const touch = pts.map((p) => [p[0], p[1]] as [number, number]);
    touch[150] = [49.5, 0.5];
    expect(() => addObstacleToSet(set, touch)).toThrow('self-intersecting');
  });
});

describe('clearObstacles', () => {
  it('ORCA and contacts see walls replaced by the same number of vertices (the caches compare the set version): the agent stops at the new wall', () => {
    const world = createCrowd({ maxAgents: 2, seed: 1 });
    addObstacle(world, [[100, -1], [101, -1], [101, 1], [100, 1]]); // far away
    const eid = spawnAgent(world, { x: 0, y: 0, radius: 0.5, maxSpeed: 2, maxAccel: 100 });
    enableOrca(world, eid, { timeHorizon: 2, obstacleTimeHorizon: 2 });
    for (let f = 0; f < 30; f++) { setPreferredVelocity(world, eid, 2, 0); step(world, 1 / 60); } // bounds taken: open ground
    clearObstacles(world);
    expect(getObstacles(world).obstacleCount).toBe(0);
    // Four vertices again, 1.2 m ahead: inside the distance the agent's last bound (against the far wall) let it go
    // without a segment query, so a cache keyed by the vertex count would walk it through this wall.
    const wx = world.position.x[eid] + 1.2;
    addObstacle(world, [[wx, -1], [wx + 1, -1], [wx + 1, 1], [wx, 1]]);
    let maxX = -Infinity;
    for (let f = 0; f < 300; f++) {
      setPreferredVelocity(world, eid, 2, 0);
      step(world, 1 / 60);
      maxX = Math.max(maxX, world.position.x[eid]);
    }
    expect(maxX).toBeLessThanOrEqual(wx - 0.5 + 1e-9);
    expect(maxX).toBeGreaterThan(wx - 1);
    // Contacts alone (no ORCA): an agent teleported against the replacing wall (same vertex count) is pushed off it.
    disableOrca(world, eid);
    clearObstacles(world);
    addObstacle(world, [[10, -1], [11, -1], [11, 1], [10, 1]]);
    setPreferredVelocity(world, eid, 0, 0);
    step(world, 1 / 60);
    clearObstacles(world);
    addObstacle(world, [[-14, -3], [-10, -3], [-10, 3], [-14, 3]]);
    setAgentPosition(world, eid, -9.8, 0.3);
    step(world, 1 / 60);
    expect(world.position.x[eid]).toBeGreaterThanOrEqual(-10 + 0.5 - 1e-6);
  });
});

describe('queryObstacleSegments', () => {
  it('returns exactly the brute-force set (outer side, within range), nearest first', () => {
    const rng = createRng(11);
    const set = createObstacleSet();
    for (let k = 0; k < 30; k++) {
      const cx = rngRange(rng, -50, 50), cy = rngRange(rng, -50, 50), s = rngRange(rng, 0.5, 3);
      if (k % 3 === 2) addObstacleToSet(set, [[cx, cy], [cx + 2 * s, cy + s], [cx + 3 * s, cy - s]], { closed: false });
      else addObstacleToSet(set, [[cx, cy], [cx + s, cy], [cx + s, cy + 2 * s], [cx, cy + s]]);
    }
    const out = new Int32Array(set.vertexCount), d2 = new Float64Array(set.vertexCount);
    for (let q = 0; q < 300; q++) {
      const x = rngRange(rng, -60, 60), y = rngRange(rng, -60, 60), range = rngRange(rng, 0.5, 15);
      const n = queryObstacleSegments(set, x, y, range, out, d2);
      const brute: [number, number][] = [];
      for (let v = 0; v < set.vertexCount; v++) {
        const u = set.next[v];
        const ex = set.x[u] - set.x[v], ey = set.y[u] - set.y[v], rx = x - set.x[v], ry = y - set.y[v];
        if (ex * ry - ey * rx >= 0) continue;
        const t = Math.min(1, Math.max(0, (rx * ex + ry * ey) / (ex * ex + ey * ey)));
        const dd = (rx - t * ex) ** 2 + (ry - t * ey) ** 2;
        if (dd < range * range) brute.push([dd, v]);
      }
      brute.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      expect(Array.from(out.subarray(0, n))).toEqual(brute.map((b) => b[1]));
    }
  });
});

describe('obstacleDistanceLowerBoundAt', () => {
  it('equals the brute-force distance to the nearest segment (either side), capped at the range', () => {
    const rng = createRng(12);
    const set = createObstacleSet();
    for (let k = 0; k < 30; k++) {
      const cx = rngRange(rng, -50, 50), cy = rngRange(rng, -50, 50), s = rngRange(rng, 0.5, 3);
      if (k % 3 === 2) addObstacleToSet(set, [[cx, cy], [cx + 2 * s, cy + s], [cx + 3 * s, cy - s]], { closed: false });
      else addObstacleToSet(set, [[cx, cy], [cx + s, cy], [cx + s, cy + 2 * s], [cx, cy + s]]);
    }
    const q = new Float64Array(3);
    let capped = 0, found = 0;
    for (let t = 0; t < 500; t++) {
      const x = rngRange(rng, -60, 60), y = rngRange(rng, -60, 60), range = rngRange(rng, 0.5, 15);
      let d = Infinity;
      for (let v = 0; v < set.vertexCount; v++) {
        const u = set.next[v];
        const ex = set.x[u] - set.x[v], ey = set.y[u] - set.y[v], rx = x - set.x[v], ry = y - set.y[v];
        const tt = Math.min(1, Math.max(0, (rx * ex + ry * ey) / (ex * ex + ey * ey)));
        d = Math.min(d, Math.hypot(rx - tt * ex, ry - tt * ey));
      }
      q[0] = x; q[1] = y; q[2] = range;
      const lb = obstacleDistanceLowerBoundAt(set, q);
      if (d >= range) { expect(lb).toBe(range); capped++; } else { expect(Math.abs(lb - d)).toBeLessThan(1e-12 * (1 + d)); found++; }
    }
    expect(capped).toBeGreaterThan(50);
    expect(found).toBeGreaterThan(50);
  });
});

describe('orcaSystem obstacle-query bounds', () => {
  it('skipping the segment queries the bounds rule out changes nothing: horde with LOD off, bit-identical to recomputing every query (bounds dropped each frame)', () => {
    const a = createHorde({ agents: 600, seed: 21, lod: false }), b = createHorde({ agents: 600, seed: 21, lod: false });
    let skipped = 0;
    for (let f = 0; f < 150; f++) {
      a.tick();
      dropOrcaObstacleBounds(b.world);
      b.tick();
      skipped += a.world.profiler.byName.orca.counters.obstacleQueriesSkipped ?? 0;
      expect(b.world.profiler.byName.orca.counters.obstacleQueriesSkipped ?? 0).toBe(0);
    }
    expect(skipped).toBeGreaterThan(10_000); // the bounds did skip most queries in the open streets
    expect(Array.from(a.world.position.x)).toEqual(Array.from(b.world.position.x));
    expect(Array.from(a.world.position.y)).toEqual(Array.from(b.world.position.y));
    expect(Array.from(a.world.velocity.x)).toEqual(Array.from(b.world.velocity.x));
  });
});

/** Brute-force k nearest (independent of the spatial hash), with the layer filter. */
function bruteNearest(world: CrowdWorld, eid: number, r: number, k: number): number[] {
  const { x, y } = world.position;
  const c: [number, number][] = [];
  for (let i = 0; i < world.agents.count; i++) {
    const j = world.agents.dense[i];
    if (j === eid || (world.agent.layer[j] & world.agent.mask[eid]) === 0) continue;
    const d = (x[j] - x[eid]) ** 2 + (y[j] - y[eid]) ** 2;
    if (d <= r * r) c.push([d, j]);
  }
  c.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return c.slice(0, k).map((p) => p[1]);
}

describe('orcaSystem', () => {
  it('equals orcaVelocity on brute-force neighbour lists (no symmetry nudge), for every agent', () => {
    const world = createCrowd({ maxAgents: 64, seed: 5, neighbourRadius: 3 });
    const rng = createRng(5);
    setOrcaOptions(world, { symmetryBreaking: 0 });
    addObstacle(world, [[-1, -1], [1, -1], [1, 1], [-1, 1]]);
    const eids: number[] = [];
    for (let i = 0; i < 40; i++) {
      let x = 0, y = 0;
      while (Math.abs(x) < 1.6 && Math.abs(y) < 1.6) { x = rngRange(rng, -8, 8); y = rngRange(rng, -8, 8); }
      const e = spawnAgent(world, { x, y, radius: 0.4, maxSpeed: 1.5, vx: rngRange(rng, -1, 1), vy: rngRange(rng, -1, 1), layer: 1 + (i % 2), mask: i % 5 === 0 ? 1 : -1 });
      enableOrca(world, e, { neighbourDistance: 4, maxNeighbours: 6, timeHorizon: 2, obstacleTimeHorizon: 1, priority: i % 7 === 0 ? Infinity : 1 + (i % 3) });
      setPreferredVelocity(world, e, rngRange(rng, -1.5, 1.5), rngRange(rng, -1.5, 1.5));
      eids.push(e);
    }
    disableOrca(world, eids[3]); // a non-avoiding neighbour for the others
    spatialHashSystem(world);
    for (const e of eids) { world.desiredVelocity.x[e] = world.preferredVelocity.x[e]; world.desiredVelocity.y[e] = world.preferredVelocity.y[e]; }
    orcaSystem(world, 0.1);
    const C = orcaComponent(world);
    const set = getObstacles(world);
    const ids = new Int32Array(set.vertexCount), d2 = new Float64Array(set.vertexCount);
    for (const e of eids) {
      if (e === eids[3]) {
        expect(world.desiredVelocity.x[e]).toBe(world.preferredVelocity.x[e]);
        continue;
      }
      const a = createOrcaAgent();
      Object.assign(a, {
        x: world.position.x[e], y: world.position.y[e], vx: world.velocity.x[e], vy: world.velocity.y[e],
        prefVx: world.preferredVelocity.x[e], prefVy: world.preferredVelocity.y[e], radius: 0.4, maxSpeed: 1.5,
        timeHorizon: 2, obstacleTimeHorizon: 1, id: e,
      });
      const near = bruteNearest(world, e, 4, 6);
      const nb = createOrcaNeighbours(6);
      nb.count = near.length;
      near.forEach((j, k) => {
        nb.x[k] = world.position.x[j]; nb.y[k] = world.position.y[j]; nb.vx[k] = world.velocity.x[j]; nb.vy[k] = world.velocity.y[j];
        nb.radius[k] = 0.4; nb.id[k] = j;
        nb.share[k] = C.enabled[j] ? orcaShare(C.priority[e], C.priority[j]) : 1;
      });
      const n = queryObstacleSegments(set, a.x, a.y, 1 * 1.5 + 0.4, ids, d2);
      const out = { x: 0, y: 0 };
      orcaVelocity(a, nb, set, ids, n, 0.1, out);
      expect(world.desiredVelocity.x[e]).toBe(out.x);
      expect(world.desiredVelocity.y[e]).toBe(out.y);
    }
  });

  it.each(['batch', 'batch-full'] as const)('%s neighbour lists (dense pre-pass, crowds of 64+ with one mask): every agent still equals orcaVelocity on brute-force lists', (path) => {
    // 600 agents (400 within 15 m of the centre, 200 within 30 m), mixed maxNeighbours (4..12) and neighbour distances (3..6 m), one mask, an
    // obstacle, 30 pipeline steps so that the per-agent radius guesses spread; then one ORCA pass checked agent by
    // agent against the kernel fed brute-force neighbour lists (independent of the hash and of the batch).
    const world = createCrowd({ maxAgents: 600, seed: 9, neighbourRadius: 3 });
    const rng = createRng(9);
    setOrcaOptions(world, { symmetryBreaking: 0 });
    addObstacle(world, [[-2, -2], [2, -2], [2, 2], [-2, 2]]);
    const eids: number[] = [];
    for (let i = 0; i < 600; i++) {
      let x = 0, y = 0;
      // denser inside 15 m than outside, so that some agents have their k within their distance and some do not
      const side = i < 400 ? 15 : 30;
      while (Math.abs(x) < 2.6 && Math.abs(y) < 2.6) { x = rngRange(rng, -side, side); y = rngRange(rng, -side, side); }
      const e = spawnAgent(world, { x, y, radius: 0.3, maxSpeed: 1.5, layer: 1 + (i % 2), mask: 3 });
      enableOrca(world, e, { neighbourDistance: 3 + (i % 4), maxNeighbours: 4 + (i % 9), timeHorizon: 2, obstacleTimeHorizon: 1, priority: 1 + (i % 3) });
      setPreferredVelocity(world, e, -x / 60, -y / 60);
      eids.push(e);
    }
    setOrcaOptions(world, { neighbourSearch: path });
    for (let s = 0; s < 30; s++) step(world, 0.1);
    spatialHashSystem(world);
    for (const e of eids) { world.desiredVelocity.x[e] = world.preferredVelocity.x[e]; world.desiredVelocity.y[e] = world.preferredVelocity.y[e]; }
    orcaSystem(world, 0.1);
    // the covering batch answered most, the full-distance batch all
    expect(world.profiler.byName.orca.counters.batchNeighbourLists).toBeGreaterThan(path === 'batch' ? 200 : 599);
    const C = orcaComponent(world);
    let short = 0, total = 0; // agents with fewer than k within their neighbour distance: the full batch's prefix rule
    for (const e of eids) {
      const n = bruteNearest(world, e, C.neighbourDistance[e], C.maxNeighbours[e]).length;
      total += n;
      if (n < C.maxNeighbours[e]) short++;
    }
    expect(short).toBeGreaterThan(50);
    expect(world.profiler.byName.orca.counters.neighbours).toBe(total); // far neighbours may not change a velocity
    const set = getObstacles(world);
    const ids = new Int32Array(set.vertexCount), d2 = new Float64Array(set.vertexCount);
    for (const e of eids) {
      const a = createOrcaAgent();
      Object.assign(a, {
        x: world.position.x[e], y: world.position.y[e], vx: world.velocity.x[e], vy: world.velocity.y[e],
        prefVx: world.preferredVelocity.x[e], prefVy: world.preferredVelocity.y[e], radius: 0.3, maxSpeed: 1.5,
        timeHorizon: 2, obstacleTimeHorizon: 1, id: e,
      });
      const near = bruteNearest(world, e, C.neighbourDistance[e], C.maxNeighbours[e]);
      const nb = createOrcaNeighbours(16);
      nb.count = near.length;
      near.forEach((j, k) => {
        nb.x[k] = world.position.x[j]; nb.y[k] = world.position.y[j]; nb.vx[k] = world.velocity.x[j]; nb.vy[k] = world.velocity.y[j];
        nb.radius[k] = 0.3; nb.id[k] = j;
        nb.share[k] = orcaShare(C.priority[e], C.priority[j]);
      });
      const n = queryObstacleSegments(set, a.x, a.y, 1 * 1.5 + 0.3, ids, d2);
      const out = { x: 0, y: 0 };
      orcaVelocity(a, nb, set, ids, n, 0.1, out);
      expect(world.desiredVelocity.x[e]).toBe(out.x);
      expect(world.desiredVelocity.y[e]).toBe(out.y);
    }
  });

  it('the neighbour path (covering or full-distance batch pre-pass, single queries, measured choice) changes nothing: 10k-style circle swap bit-identical over 120 steps', () => {
    const run = (path: 'auto' | 'batch' | 'single' | 'batch-full') => {
      const scene = createCircleSwapScene(400, { rings: 'concentric', cellSize: 7.5 });
      setOrcaOptions(scene.world, { neighbourSearch: path });
      let batchLists = 0;
      for (let s = 0; s < 120; s++) {
        driveOrcaScene(scene);
        step(scene.world, scene.dt);
        batchLists += scene.world.profiler.byName.orca.counters.batchNeighbourLists ?? 0;
      }
      return { w: scene.world, batchLists };
    };
    const a = run('batch'), b = run('single'), c = run('auto'), d = run('batch-full');
    expect(a.batchLists).toBeGreaterThan(120 * 200); // the batch answered most lists every step
    expect(b.batchLists).toBe(0);
    expect(c.batchLists).toBeGreaterThan(0);
    expect(d.batchLists).toBe(120 * 400); // the full-distance batch answers every agent
    for (const o of [b, c, d]) {
      expect(Array.from(o.w.position.x)).toEqual(Array.from(a.w.position.x));
      expect(Array.from(o.w.position.y)).toEqual(Array.from(a.w.position.y));
      expect(Array.from(o.w.velocity.x)).toEqual(Array.from(a.w.velocity.x));
      expect(Array.from(o.w.velocity.y)).toEqual(Array.from(a.w.velocity.y));
    }
  });

  it('split into ranges of the hash order (as across workers), on every neighbour path: the same velocities as orcaSystem', () => {
    const make = () => {
      const scene = createCircleSwapScene(600, { rings: 'concentric', cellSize: 7.5 });
      for (let s = 0; s < 20; s++) { driveOrcaScene(scene); step(scene.world, scene.dt); }
      driveOrcaScene(scene);
      // the pipeline up to ORCA: the hash and desired = preferred (no boids/steering in this scene)
      scene.world.enabled.orca = false; scene.world.enabled.integrate = false; scene.world.enabled.contacts = false;
      step(scene.world, scene.dt);
      return scene;
    };
    const ref = make();
    setOrcaOptions(ref.world, { neighbourSearch: 'single' });
    orcaSystem(ref.world, ref.dt);
    for (const path of [0, 1, 2] as const) {
      const { world, dt } = make();
      const ids = world.hash.sortedIds, n = world.agents.count, half = n >> 1;
      orcaPack(world);
      orcaCompute(world, ids, 0, half, dt, path);
      orcaCompute(world, ids, half, n - half, dt, path);
      orcaApply(world, ids, 0, n);
      expect(Array.from(world.desiredVelocity.x), `path ${path}`).toEqual(Array.from(ref.world.desiredVelocity.x));
      expect(Array.from(world.desiredVelocity.y), `path ${path}`).toEqual(Array.from(ref.world.desiredVelocity.y));
      if (path !== 0) expect(world.profiler.byName.orca.counters.batchNeighbourLists, `path ${path}`).toBeGreaterThan(0);
    }
  });

  it('setOrcaOptions neighbourSearch pins the path per world (reproducible counters, same results), kept by snapshots; bad values rejected', () => {
    const runWith = (search: 'single' | 'batch' | 'batch-full' | 'auto') => {
      const scene = createCircleSwapScene(400, { rings: 'concentric', cellSize: 7.5 });
      setOrcaOptions(scene.world, { neighbourSearch: search });
      const lists: number[] = [];
      for (let s = 0; s < 60; s++) {
        driveOrcaScene(scene);
        step(scene.world, scene.dt);
        lists.push(scene.world.profiler.byName.orca.counters.batchNeighbourLists ?? 0);
      }
      return { w: scene.world, lists };
    };
    const single = runWith('single'), batch = runWith('batch'), batch2 = runWith('batch'), full = runWith('batch-full');
    expect(single.lists.every((c) => c === 0)).toBe(true);
    expect(batch.lists.every((c) => c > 0)).toBe(true); // every step on the batch (no probes of the other paths)
    expect(batch2.lists).toEqual(batch.lists); // counters reproducible from run to run
    expect(full.lists.every((c) => c === 400)).toBe(true);
    for (const o of [batch, full]) expect(Array.from(o.w.position.x)).toEqual(Array.from(single.w.position.x));
    expect(orcaState(batch.w).neighbourSearch).toBe('batch');
    const restored = createCrowd({ maxAgents: 400 });
    restore(restored, snapshot(batch.w));
    expect(orcaState(restored).neighbourSearch).toBe('batch');
    expect(() => setOrcaOptions(single.w, { neighbourSearch: 'fast' as never })).toThrow('options.neighbourSearch');
    expect(orcaState(single.w).neighbourSearch).toBe('single'); // nothing half-applied
    expect(() => setOrcaOptions(single.w, { symmetryBreaking: 0.5, neighbourSearch: 'x' as never })).toThrow(InvalidArgumentError);
    expect(orcaState(single.w).symmetryBreaking).toBe(0.01);
  });

  it('layers and masks: an agent ignores neighbours outside its mask, the other still avoids it', () => {
    const world = createCrowd({ maxAgents: 4, neighbourRadius: 5 });
    setOrcaOptions(world, { symmetryBreaking: 0 });
    const a = spawnAgent(world, { x: 0, y: 0, radius: 0.5, maxSpeed: 2, layer: 1, mask: 1 });
    const b = spawnAgent(world, { x: 4, y: 0.1, radius: 0.5, maxSpeed: 2, layer: 2, mask: 3 });
    for (const e of [a, b]) enableOrca(world, e, { timeHorizon: 4 });
    setAgentVelocity(world, a, 1, 0); setPreferredVelocity(world, a, 1, 0);
    setAgentVelocity(world, b, -1, 0); setPreferredVelocity(world, b, -1, 0);
    world.enabled.integrate = false;
    step(world, 0.1);
    // a's mask (1) excludes b's layer (2): a keeps its preferred velocity; b (mask 3) sees a and dodges.
    expect(world.desiredVelocity.x[a]).toBe(1);
    expect(world.desiredVelocity.y[a]).toBe(0);
    expect(Math.hypot(world.desiredVelocity.x[b] + 1, world.desiredVelocity.y[b])).toBeGreaterThan(0.1);
  });

  it('priority Infinity never yields; its partner takes the whole avoidance', () => {
    const world = createCrowd({ maxAgents: 4, neighbourRadius: 5 });
    setOrcaOptions(world, { symmetryBreaking: 0 });
    const tank = spawnAgent(world, { x: 0, y: 0, radius: 0.5, maxSpeed: 2 });
    const unit = spawnAgent(world, { x: 4, y: 0.1, radius: 0.5, maxSpeed: 2 });
    enableOrca(world, tank, { timeHorizon: 4, priority: Infinity });
    enableOrca(world, unit, { timeHorizon: 4 });
    setAgentVelocity(world, tank, 1, 0); setPreferredVelocity(world, tank, 1, 0);
    setAgentVelocity(world, unit, -1, 0); setPreferredVelocity(world, unit, -1, 0);
    world.enabled.integrate = false;
    step(world, 0.1);
    expect(world.desiredVelocity.x[tank]).toBe(1);
    expect(world.desiredVelocity.y[tank]).toBe(0);
    const dodge = Math.hypot(world.desiredVelocity.x[unit] + 1, world.desiredVelocity.y[unit]);
    // Same pair with equal priorities: each dodges half as much as the unit alone does here.
    setOrcaParams(world, tank, { priority: 1 });
    step(world, 0.1);
    const half = Math.hypot(world.desiredVelocity.x[unit] + 1, world.desiredVelocity.y[unit]);
    expect(dodge).toBeCloseTo(2 * half, 10);
  });

  it('an agent whose LOD_ORCA flag is off keeps desired = preferred, and counts as non-avoiding for others', () => {
    const world = createCrowd({ maxAgents: 4, neighbourRadius: 5 });
    setOrcaOptions(world, { symmetryBreaking: 0 });
    const a = spawnAgent(world, { x: 0, y: 0, radius: 0.5, maxSpeed: 2 });
    const b = spawnAgent(world, { x: 3, y: 0.2, radius: 0.5, maxSpeed: 2 });
    for (const e of [a, b]) enableOrca(world, e, { timeHorizon: 4 });
    setAgentVelocity(world, a, 1, 0); setPreferredVelocity(world, a, 1, 0);
    setAgentVelocity(world, b, -1, 0); setPreferredVelocity(world, b, -1, 0);
    lodComponent(world).flags[b] = LOD_ALL & ~LOD_ORCA;
    world.enabled.integrate = false;
    world.enabled.lod = false;
    step(world, 0.1);
    expect(world.desiredVelocity.x[b]).toBe(-1);
    const full = Math.hypot(world.desiredVelocity.x[a] - 1, world.desiredVelocity.y[a]);
    lodComponent(world).flags[b] = LOD_ALL;
    step(world, 0.1);
    const shared = Math.hypot(world.desiredVelocity.x[a] - 1, world.desiredVelocity.y[a]);
    expect(full).toBeCloseTo(2 * shared, 10);
  });

  it('validates at the parameter setters: spawn rejects a zero radius before ORCA ever sees it', () => {
    const world = createCrowd({ maxAgents: 4 });
    expect(() => spawnAgent(world, { x: 0, y: 0, radius: 0 })).toThrow('init.radius');
    const e = spawnAgent(world, { x: 0, y: 0 });
    expect(() => setAgentParams(world, e, { radius: -1 })).toThrow('params.radius');
    expect(() => setAgentVelocity(world, e, NaN, 0)).toThrow(InvalidArgumentError);
  });
});
