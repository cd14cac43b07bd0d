import { describe, expect, it } from 'vitest';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent, setAgentPosition } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { enableOrca } from '../../components/orca';
import { buildNavmesh, type Navmesh, type PolygonMap } from '../../src/navmesh/build';
import { setNavmesh, setNavGoal, moveNavGoal, setNavTrianglesBlocked, getAgentCorridor, funnelSystem } from '../../systems/funnel';
import { corridorComponent, NAV_ARRIVED, NAV_FOLLOWING, NAV_REPLAN, NAV_UNREACHABLE } from '../../components/corridor';
import { corridorMoveStart } from '../../src/navmesh/corridor';
import { closestPointOnTriangle, locateTriangle, pointInTriangle } from '../../src/navmesh/locate';
import { createNavQuery, createNavPathResult, findNavPath } from '../../src/navmesh/search';
import { corridorPortals } from '../../src/navmesh/portals';
import { funnel } from '../../src/funnel/funnel';

type P = [number, number];
const rect = (x0: number, y0: number, x1: number, y1: number): P[] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
// A 40 × 20 room split by a wall at x ∈ [18, 22] with two gaps: A (y 4–7) and B (y 13–16).
const obstacles = [rect(18, -1, 22, 4), rect(18, 7, 22, 13), rect(18, 16, 22, 21)];
const map: PolygonMap = { boundary: rect(0, 0, 40, 20), obstacles };

function insideObstacle(x: number, y: number): boolean {
  for (const o of obstacles) if (x > o[0][0] && x < o[1][0] && y > o[0][1] && y < o[2][1]) return true;
  return false;
}

/** y of triangle t's centroid. */
function centroidY(mesh: Navmesh, t: number): number {
  const T = mesh.triangles, V = mesh.vertices;
  return (V[2 * T[3 * t] + 1] + V[2 * T[3 * t + 1] + 1] + V[2 * T[3 * t + 2] + 1]) / 3;
}

function setup() {
  const world = createCrowd({ maxAgents: 16, seed: 3 });
  const mesh = buildNavmesh(map, { radius: 0.5 });
  setNavmesh(world, mesh);
  const eid = spawnAgent(world, { x: 5, y: 5, radius: 0.5, maxSpeed: 2 });
  return { world, mesh, eid };
}

describe('corridorMoveStart', () => {
  it('advances past triangles the agent has left and repairs a one-triangle sideways push (hand-built corridor)', () => {
    const mesh = buildNavmesh(map);
    const a = locateTriangle(mesh, 5, 5);
    // Corridor: a, then a neighbour of a.
    const nb = mesh.neighbours[3 * a] >= 0 ? mesh.neighbours[3 * a] : mesh.neighbours[3 * a + 1] >= 0 ? mesh.neighbours[3 * a + 1] : mesh.neighbours[3 * a + 2];
    const buf = new Int32Array(8);
    buf[0] = a; buf[1] = nb;
    // A point inside nb: its centroid.
    const T = mesh.triangles, V = mesh.vertices;
    const cx = (V[2 * T[3 * nb]] + V[2 * T[3 * nb + 1]] + V[2 * T[3 * nb + 2]]) / 3;
    const cy = (V[2 * T[3 * nb] + 1] + V[2 * T[3 * nb + 1] + 1] + V[2 * T[3 * nb + 2] + 1]) / 3;
    expect(corridorMoveStart(mesh, buf, 0, 2, 8, cx, cy)).toBe(1);
    expect(buf[0]).toBe(nb);
    // Now pushed back into a (adjacent to the new first triangle): a is put in front.
    const ax = (V[2 * T[3 * a]] + V[2 * T[3 * a + 1]] + V[2 * T[3 * a + 2]]) / 3;
    const ay = (V[2 * T[3 * a] + 1] + V[2 * T[3 * a + 1] + 1] + V[2 * T[3 * a + 2] + 1]) / 3;
    expect(corridorMoveStart(mesh, buf, 0, 1, 8, ax, ay)).toBe(2);
    expect(Array.from(buf.slice(0, 2))).toEqual([a, nb]);
  });
});

describe('funnelSystem (scenario: runs to completion)', () => {
  it('walks an agent to its goal through the nearer gap, never entering an obstacle', () => {
    const { world, eid } = setup();
    expect(setNavGoal(world, eid, 35, 5)).toBe('found');
    const c = corridorComponent(world);
    let crossedY = NaN;
    for (let f = 0; f < 60 * 40 && c.state[eid] !== NAV_ARRIVED; f++) {
      const xPrev = world.position.x[eid];
      step(world, 1 / 60);
      const x = world.position.x[eid], y = world.position.y[eid];
      expect(insideObstacle(x, y), `frame ${f} at (${x}, ${y})`).toBe(false);
      if (xPrev < 20 && x >= 20) crossedY = y;
    }
    expect(c.state[eid]).toBe(NAV_ARRIVED);
    expect(Math.hypot(world.position.x[eid] - 35, world.position.y[eid] - 5)).toBeLessThan(0.1);
    expect(crossedY).toBeGreaterThanOrEqual(4.5 - 1e-9);
    expect(crossedY).toBeLessThanOrEqual(6.5 + 1e-9);
  });

  it('an agent pushed sideways (as by a neighbour) keeps a corridor that starts where it is and still reaches the goal', () => {
    const { world, eid } = setup();
    setNavGoal(world, eid, 35, 5);
    const c = corridorComponent(world);
    for (let f = 0; f < 60; f++) step(world, 1 / 60);
    // Shove it 9 m sideways (into the upper half of the room).
    const cor = new Int32Array(4096);
    const n0 = getAgentCorridor(world, eid, cor);
    const before = Array.from(cor.slice(0, n0));
    setAgentPosition(world, eid, world.position.x[eid], world.position.y[eid] + 9);
    const mesh = (world.systems.funnel as { mesh: Navmesh }).mesh;
    const landed = locateTriangle(mesh, world.position.x[eid], world.position.y[eid]);
    const N = mesh.neighbours;
    // Off the corridor, not next to its start, and farther from it than a step and a body width (1.03 m; nearer,
    // the agent walks back to the corridor: corridorMoveStart's maxWalk).
    const offCorridor = !before.includes(landed) && ![0, 1, 2].some((k) => N[3 * before[0] + k] === landed) &&
      closestPointOnTriangle(mesh, before[0], world.position.x[eid], world.position.y[eid], new Float64Array(2)) > 1.04 ** 2;
    const replansBefore = c.replans[eid];
    step(world, 1 / 60);
    // Whatever happened (start advanced, front repaired, or re-planned), the corridor now starts where the agent is.
    const n1 = getAgentCorridor(world, eid, cor);
    expect(n1).toBeGreaterThan(0);
    expect(pointInTriangle(mesh, cor[0], world.position.x[eid], world.position.y[eid]) || cor[0] === landed).toBe(true);
    if (offCorridor) expect(c.replans[eid]).toBe(replansBefore + 1);
    for (let f = 0; f < 60 * 40 && c.state[eid] !== NAV_ARRIVED; f++) {
      step(world, 1 / 60);
      expect(insideObstacle(world.position.x[eid], world.position.y[eid])).toBe(false);
    }
    expect(c.state[eid]).toBe(NAV_ARRIVED);
    expect(Math.hypot(world.position.x[eid] - 35, world.position.y[eid] - 5)).toBeLessThan(0.1);
  });

  it('an agent shoved into a triangle neither on nor next to its corridor, farther than a step and a body width from it, re-plans from there and arrives', () => {
    const { world, mesh, eid } = setup();
    setNavGoal(world, eid, 35, 5);
    const c = corridorComponent(world);
    for (let f = 0; f < 30; f++) step(world, 1 / 60);
    const cor = new Int32Array(4096);
    const n = getAgentCorridor(world, eid, cor);
    const on = new Set(Array.from(cor.slice(0, n)));
    const N = mesh.neighbours;
    // Find a free point (scan a 0.5 m lattice) whose triangle is off the corridor and not adjacent to its start,
    // more than 2 m from its first triangle: within vmax·dt + 2·radius = 1.03 m of it the agent would walk back
    // to the corridor instead (corridorMoveStart's maxWalk; test/funnel/truncated.test.ts).
    const q = new Float64Array(2);
    let target: [number, number] | null = null;
    for (let y = 1; y < 19 && !target; y += 0.5) {
      for (let x = 1; x < 17 && !target; x += 0.5) {
        const t = locateTriangle(mesh, x, y);
        if (t >= 0 && !on.has(t) && ![0, 1, 2].some((k) => N[3 * cor[0] + k] === t) && closestPointOnTriangle(mesh, cor[0], x, y, q) > 4) target = [x, y];
      }
    }
    expect(target).not.toBeNull();
    setAgentPosition(world, eid, target![0], target![1]);
    const before = c.replans[eid];
    step(world, 1 / 60);
    expect(c.replans[eid]).toBe(before + 1);
    const n2 = getAgentCorridor(world, eid, cor);
    expect(n2).toBeGreaterThan(0);
    expect(pointInTriangle(mesh, cor[0], world.position.x[eid], world.position.y[eid])).toBe(true);
    for (let f = 0; f < 60 * 40 && c.state[eid] !== NAV_ARRIVED; f++) {
      step(world, 1 / 60);
      expect(insideObstacle(world.position.x[eid], world.position.y[eid])).toBe(false);
    }
    expect(c.state[eid]).toBe(NAV_ARRIVED);
  });

  it('a corridor through a closed gap re-plans through the other gap', () => {
    const { world, mesh, eid } = setup();
    setNavGoal(world, eid, 35, 5);
    const c = corridorComponent(world);
    for (let f = 0; f < 30; f++) step(world, 1 / 60);
    // Close gap A: every triangle whose centroid lies in the gap.
    const closed: number[] = [];
    const T = mesh.triangles, V = mesh.vertices;
    for (let t = 0; t < mesh.triangleCount; t++) {
      const cx = (V[2 * T[3 * t]] + V[2 * T[3 * t + 1]] + V[2 * T[3 * t + 2]]) / 3;
      const cy = (V[2 * T[3 * t] + 1] + V[2 * T[3 * t + 1] + 1] + V[2 * T[3 * t + 2] + 1]) / 3;
      if (cx > 17 && cx < 23 && cy > 3 && cy < 8) closed.push(t);
    }
    expect(closed.length).toBeGreaterThan(0);
    setNavTrianglesBlocked(world, closed, true);
    const replansBefore = c.replans[eid];
    step(world, 1 / 60);
    expect(c.replans[eid]).toBe(replansBefore + 1);
    expect(c.state[eid]).toBe(NAV_FOLLOWING);
    const cor = new Int32Array(4096);
    const n = getAgentCorridor(world, eid, cor);
    for (let i = 0; i < n; i++) expect(closed).not.toContain(cor[i]);
    let crossedY = NaN;
    for (let f = 0; f < 60 * 60 && c.state[eid] !== NAV_ARRIVED; f++) {
      const xPrev = world.position.x[eid];
      step(world, 1 / 60);
      if (xPrev < 20 && world.position.x[eid] >= 20) crossedY = world.position.y[eid];
      expect(insideObstacle(world.position.x[eid], world.position.y[eid])).toBe(false);
    }
    expect(c.state[eid]).toBe(NAV_ARRIVED);
    expect(crossedY).toBeGreaterThanOrEqual(13);
    expect(crossedY).toBeLessThanOrEqual(16);
  });

  it('closing both gaps makes the goal unreachable: a status, and the agent stops', () => {
    const { world, mesh, eid } = setup();
    setNavGoal(world, eid, 35, 5);
    const closed: number[] = [];
    const T = mesh.triangles, V = mesh.vertices;
    for (let t = 0; t < mesh.triangleCount; t++) {
      const cx = (V[2 * T[3 * t]] + V[2 * T[3 * t + 1]] + V[2 * T[3 * t + 2]]) / 3;
      if (cx > 17.5 && cx < 22.5) closed.push(t);
    }
    setNavTrianglesBlocked(world, closed, true);
    funnelSystem(world, 1 / 60);
    const c = corridorComponent(world);
    expect(c.state[eid]).toBe(NAV_UNREACHABLE);
    expect(world.preferredVelocity.x[eid]).toBe(0);
    expect(world.preferredVelocity.y[eid]).toBe(0);
    expect(setNavGoal(world, eid, 35, 15)).toBe('unreachable');
  });

  it('steers to the next corner and slows for the turn by the documented formula (corners from an independent full funnel)', () => {
    const { world, mesh, eid } = setup();
    // In gap A near its far end, heading round the lower block's inflated top-right corner down to (23.2, 0.8).
    const sx = 20.8, sy = 4.75, gx = 22.8, gy = 0.8;
    setAgentPosition(world, eid, sx, sy);
    expect(setNavGoal(world, eid, gx, gy)).toBe('found');
    funnelSystem(world, 1 / 60);
    // Independent corners: search + portals + full funnel (no stopAfter, no prefixes).
    const q = createNavQuery(mesh), res = createNavPathResult();
    expect(findNavPath(q, sx, sy, gx, gy, res)).toBe('found');
    const portals = new Float64Array(4 * (res.corridorLength + 1)), pts = new Float64Array(256);
    const n = funnel(portals, corridorPortals(mesh, res.corridor, res.corridorLength, sx, sy, gx, gy, portals), 0, pts);
    expect(n).toBeGreaterThanOrEqual(4);
    const c1x = pts[2], c1y = pts[3];
    const c = corridorComponent(world);
    expect(c.cornerX[eid]).toBe(c1x);
    expect(c.cornerY[eid]).toBe(c1y);
    const lookahead = 2, vmax = 2;
    const d = Math.hypot(c1x - sx, c1y - sy);
    expect(d).toBeLessThan(lookahead);
    // The documented turn: toward the first later corner at least `lookahead` beyond c1 (or the last point).
    let j = 2;
    while (j < n - 1 && Math.hypot(pts[2 * j] - c1x, pts[2 * j + 1] - c1y) < lookahead) j++;
    const ux = (c1x - sx) / d, uy = (c1y - sy) / d;
    const e = Math.hypot(pts[2 * j] - c1x, pts[2 * j + 1] - c1y);
    const cosT = ux * (pts[2 * j] - c1x) / e + uy * (pts[2 * j + 1] - c1y) / e;
    const cornerSpeed = vmax * Math.max(0.2, 0.5 * (1 + cosT));
    const speed = cornerSpeed + (vmax - cornerSpeed) * (d / lookahead);
    expect(speed).toBeLessThan(0.9 * vmax); // a real slowdown
    expect(world.preferredVelocity.x[eid]).toBeCloseTo(ux * speed, 12);
    expect(world.preferredVelocity.y[eid]).toBeCloseTo(uy * speed, 12);
  });

  it('rejects bad input with typed errors', () => {
    const { world, eid } = setup();
    expect(() => setNavGoal(world, eid, NaN, 1)).toThrow(/x/);
    expect(() => setNavGoal(world, 999, 1, 1)).toThrow();
    expect(() => setNavTrianglesBlocked(world, [-1], true)).toThrow(/triangles\[0\]/);
  });
});

describe('funnelSystem determinism and budget', () => {
  it('same inputs give bit-identical trajectories (two worlds side by side)', () => {
    const run = () => {
      const world = createCrowd({ maxAgents: 16, seed: 9 });
      setNavmesh(world, buildNavmesh(map, { radius: 0.5 }));
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        const eid = spawnAgent(world, { x: 2 + i, y: 2 + 2 * i, radius: 0.5, maxSpeed: 1 + 0.3 * i });
        setNavGoal(world, eid, 38 - i, 18 - 2 * i);
        ids.push(eid);
      }
      for (let f = 0; f < 300; f++) step(world, 1 / 60);
      return ids.flatMap((e) => [world.position.x[e], world.position.y[e]]);
    };
    expect(run()).toEqual(run());
  });

  it('spreads re-plans over frames with maxReplansPerFrame, in dense order', () => {
    const world = createCrowd({ maxAgents: 16, seed: 3 });
    const mesh = buildNavmesh(map, { radius: 0.5 });
    setNavmesh(world, mesh, { maxReplansPerFrame: 2 });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const eid = spawnAgent(world, { x: 3, y: 2 + 3 * i, radius: 0.5 });
      setNavGoal(world, eid, 35, 5);
      ids.push(eid);
    }
    const c = corridorComponent(world);
    // Replacing the mesh invalidates every corridor: 5 re-plans needed, 2 per frame.
    setNavmesh(world, mesh, { maxReplansPerFrame: 2 });
    const following = () => ids.filter((e) => c.state[e] === NAV_FOLLOWING).length;
    funnelSystem(world, 1 / 60);
    expect(following()).toBe(2);
    expect(c.state[ids[0]]).toBe(NAV_FOLLOWING);
    expect(c.state[ids[2]]).toBe(NAV_REPLAN);
    funnelSystem(world, 1 / 60);
    expect(following()).toBe(4);
    funnelSystem(world, 1 / 60);
    expect(following()).toBe(5);
  });
});

describe('moveNavGoal', () => {
  it('follows a moving target: keeps or extends the corridor for small moves, re-plans for jumps, and catches it', () => {
    const { world, eid } = setup();
    const c = corridorComponent(world);
    expect(setNavGoal(world, eid, 10, 10)).toBe('found');
    // The target walks right along y = 10 at 1 m/s (slower than the agent's 2 m/s), on the near side of the wall.
    let tx = 10, ty = 10;
    const replans0 = c.replans[eid];
    for (let f = 0; f < 60 * 4; f++) {
      tx += 1 / 60;
      expect(moveNavGoal(world, eid, tx, ty)).toBe('found');
      step(world, 1 / 60);
    }
    // Small moves never needed a re-plan through the system.
    expect(c.replans[eid]).toBe(replans0);
    // A jump to the other side of the wall re-plans at once (through gap B).
    expect(moveNavGoal(world, eid, 30, 15)).toBe('found');
    const cor = new Int32Array(4096);
    const n = getAgentCorridor(world, eid, cor);
    const mesh = (world.systems.funnel as { mesh: Navmesh }).mesh;
    expect(cor[n - 1]).toBe(locateTriangle(mesh, 30, 15));
    for (let f = 0; f < 60 * 30 && c.state[eid] !== NAV_ARRIVED; f++) step(world, 1 / 60);
    expect(c.state[eid]).toBe(NAV_ARRIVED);
    expect(Math.hypot(world.position.x[eid] - 30, world.position.y[eid] - 15)).toBeLessThan(0.1);
  });
});

describe('moveNavGoal keeps a corridor only while it is still valid', () => {
  // Before 2026-11-30 a small goal move kept the corridor and returned 'found' even when the agent had since been
  // moved off it, or a triangle on it had been closed; the next frame re-planned and reported unreachable. Oracle:
  // the gaps in the wall are closed (every triangle with its centroid in the wall's x range), so a BFS-obvious
  // partition: the left half cannot reach the right half.
  function closeWall(world: ReturnType<typeof setup>['world'], mesh: Navmesh): number[] {
    const tris: number[] = [];
    for (let t = 0; t < mesh.triangleCount; t++) {
      const T = mesh.triangles, V = mesh.vertices;
      const cx = (V[2 * T[3 * t]] + V[2 * T[3 * t + 1]] + V[2 * T[3 * t + 2]]) / 3;
      if (cx > 17 && cx < 23) tris.push(t);
    }
    setNavTrianglesBlocked(world, tris, true);
    return tris;
  }

  it('an agent teleported across the closed wall: a small goal move re-plans and reports unreachable', () => {
    const { world, mesh, eid } = setup();
    expect(setNavGoal(world, eid, 10, 10)).toBe('found');
    step(world, 1 / 60);
    closeWall(world, mesh);
    setAgentPosition(world, eid, 30, 10); // the far side: no open way back to (10, 10)
    expect(moveNavGoal(world, eid, 10.05, 10)).toBe('unreachable');
    expect(corridorComponent(world).state[eid]).toBe(NAV_UNREACHABLE);
  });

  it('a triangle on the corridor closed since: a small goal move re-plans (round the other gap)', () => {
    const { world, mesh, eid } = setup();
    expect(setNavGoal(world, eid, 30, 5.5)).toBe('found'); // through gap A (y 4–7)
    const cor = new Int32Array(4096);
    const n = getAgentCorridor(world, eid, cor);
    // Close every triangle of gap A's passage (x 18–22, y 4–7, shrunk by the 0.5 m radius), found by sampling it:
    // gap B stays open.
    const gapSet = new Set<number>();
    for (let x = 17.6; x <= 22.4; x += 0.1) for (let y = 4.55; y <= 6.45; y += 0.1) gapSet.add(locateTriangle(mesh, x, y));
    gapSet.delete(-1);
    const gapA = [...gapSet];
    expect(gapA.some((t) => Array.from(cor.subarray(0, n)).includes(t))).toBe(true);
    expect(gapA).not.toContain(cor[0]);
    expect(gapA.length).toBeGreaterThan(0);
    setNavTrianglesBlocked(world, gapA, true);
    expect(moveNavGoal(world, eid, 30.05, 5.5)).toBe('found');
    const m = getAgentCorridor(world, eid, cor);
    for (let i = 0; i < m; i++) expect(gapA).not.toContain(cor[i]);
  });
});

describe('unreachable agents and doors', () => {
  it('an agent whose goal is behind closed doors waits (no re-plan per frame) and sets off when a door opens', () => {
    const { world, mesh, eid } = setup();
    const c = corridorComponent(world);
    // Close both gaps: every triangle with a vertex in the wall's x range (the inflated wall spans 17.5–22.5).
    const doors = new Set<number>();
    for (let x = 17.6; x <= 22.4; x += 0.1) for (let y = 0.55; y <= 19.45; y += 0.1) doors.add(locateTriangle(mesh, x, y));
    doors.delete(-1);
    setNavTrianglesBlocked(world, [...doors], true);
    expect(setNavGoal(world, eid, 30, 10)).toBe('unreachable');
    const replans = c.replans[eid];
    for (let f = 0; f < 30; f++) step(world, 1 / 60);
    expect(c.state[eid]).toBe(NAV_UNREACHABLE);
    expect(c.replans[eid]).toBe(replans); // the closed set did not change: no search
    // An unrelated change of the closed set (a triangle on the left, re-opened at once): the doors still separate
    // the agent's open region from its goal's, so no search (before 2026-11-30: one), still unreachable.
    const left = locateTriangle(mesh, 3, 18);
    setNavTrianglesBlocked(world, [left], true);
    setNavTrianglesBlocked(world, [left], false);
    for (let f = 0; f < 30; f++) step(world, 1 / 60);
    expect(c.state[eid]).toBe(NAV_UNREACHABLE);
    expect(c.replans[eid]).toBe(replans);
    // One door of two opened and closed again within the frame: still separated, no search.
    const doorA = [...doors].filter((t) => centroidY(mesh, t) < 10);
    setNavTrianglesBlocked(world, doorA, false);
    setNavTrianglesBlocked(world, doorA, true);
    step(world, 1 / 60);
    expect(c.replans[eid]).toBe(replans);
    // Open the doors: the agent re-plans and arrives.
    setNavTrianglesBlocked(world, [...doors], false);
    for (let f = 0; f < 60 * 30 && c.state[eid] !== NAV_ARRIVED; f++) step(world, 1 / 60);
    expect(c.state[eid]).toBe(NAV_ARRIVED);
    expect(Math.hypot(world.position.x[eid] - 30, world.position.y[eid] - 10)).toBeLessThan(0.1);
  });
  it('an unreachable agent pushed across the closed doors is searched again and arrives; pushed around on its own side, it is not searched (BFS partition by hand)', () => {
    const { world, mesh, eid } = setup();
    const c = corridorComponent(world);
    const doors = new Set<number>();
    for (let x = 17.6; x <= 22.4; x += 0.1) for (let y = 0.55; y <= 19.45; y += 0.1) doors.add(locateTriangle(mesh, x, y));
    doors.delete(-1);
    setNavTrianglesBlocked(world, [...doors], true);
    expect(setNavGoal(world, eid, 30, 10)).toBe('unreachable');
    const replans = c.replans[eid];
    // Pushed around on the left (x < 17.5, the closed doors' side): reachability cannot change, so no search.
    for (const [x, y] of [[8, 15], [3, 3], [15, 10], [12, 18]] as P[]) {
      setAgentPosition(world, eid, x, y);
      for (let f = 0; f < 5; f++) step(world, 1 / 60);
      expect(c.state[eid]).toBe(NAV_UNREACHABLE);
    }
    expect(c.replans[eid]).toBe(replans);
    // Pushed through to the right half (e.g. by a crowd or a teleport): the goal's side. One search, then it arrives.
    setAgentPosition(world, eid, 26, 3);
    step(world, 1 / 60);
    expect(c.replans[eid]).toBe(replans + 1);
    expect(c.state[eid]).toBe(NAV_FOLLOWING);
    for (let f = 0; f < 60 * 30 && c.state[eid] !== NAV_ARRIVED; f++) step(world, 1 / 60);
    expect(c.state[eid]).toBe(NAV_ARRIVED);
    expect(Math.hypot(world.position.x[eid] - 30, world.position.y[eid] - 10)).toBeLessThan(0.1);
  });

  it('an agent standing in a closed triangle is unreachable; stepping out of it into the open is searched again', () => {
    const { world, mesh, eid } = setup();
    const c = corridorComponent(world);
    const door = locateTriangle(mesh, 20, 5.5); // in gap A
    expect(door).toBeGreaterThanOrEqual(0);
    setNavTrianglesBlocked(world, [door], true);
    // Put the agent in the closed triangle: a search from there fails at once.
    const T = mesh.triangles, V = mesh.vertices;
    const cx = (V[2 * T[3 * door]] + V[2 * T[3 * door + 1]] + V[2 * T[3 * door + 2]]) / 3;
    const cy = (V[2 * T[3 * door] + 1] + V[2 * T[3 * door + 1] + 1] + V[2 * T[3 * door + 2] + 1]) / 3;
    setAgentPosition(world, eid, cx, cy);
    expect(setNavGoal(world, eid, 5, 10)).toBe('unreachable');
    const replans = c.replans[eid];
    step(world, 1 / 60);
    expect(c.replans[eid]).toBe(replans);
    setAgentPosition(world, eid, 10, 10); // out into the open left half
    step(world, 1 / 60);
    expect(c.replans[eid]).toBe(replans + 1);
    expect(c.state[eid]).toBe(NAV_FOLLOWING);
  });
});

describe('arrival in a crowd (navmesh)', () => {
  for (const orca of [true, false]) {
    it(`30 agents each ordered to the same point all arrive and stand still (${orca ? 'ORCA' : 'contacts only'}; before: at most the first arrived)`, () => {
      const world = createCrowd({ maxAgents: 32, seed: 5, neighbourRadius: 3, cellSize: 3 });
      const mesh = buildNavmesh(map, { radius: 0.4 });
      setNavmesh(world, mesh);
      const c = corridorComponent(world);
      const eids: number[] = [];
      for (let i = 0; i < 30; i++) {
        const e = spawnAgent(world, { x: 2 + (i % 6) * 1.2, y: 2 + Math.floor(i / 6) * 1.2, radius: 0.4, maxSpeed: 2, maxAccel: 10 });
        if (orca) enableOrca(world, e, { neighbourDistance: 3, maxNeighbours: 8, timeHorizon: 1.5, obstacleTimeHorizon: 0.5 });
        expect(setNavGoal(world, e, 12, 12)).toBe('found');
        eids.push(e);
      }
      // The farthest agent is ~14 m away at 2 m/s; 40 s is generous.
      for (let f = 0; f < 40 * 30 && !eids.every((e) => c.state[e] === NAV_ARRIVED); f++) step(world, 1 / 30);
      for (const e of eids) expect(c.state[e]).toBe(NAV_ARRIVED);
      for (let f = 0; f < 60; f++) step(world, 1 / 30);
      for (const e of eids) {
        expect(Math.hypot(world.velocity.x[e], world.velocity.y[e])).toBeLessThan(1e-3);
        // packed round the goal: density ≥ 1/2, piled on one side: within 2·r·√(N/0.5)
        expect(Math.hypot(world.position.x[e] - 12, world.position.y[e] - 12)).toBeLessThanOrEqual(2 * 0.4 * Math.sqrt(30 / 0.5));
      }
    });
  }
});

describe('arrived navmesh agents pushed away', () => {
  it('walk back to their goal (before: they stayed wherever they were pushed); a nudge within the hold distance does not wake them', () => {
    const { world, eid } = setup();
    const c = corridorComponent(world);
    expect(setNavGoal(world, eid, 10, 10)).toBe('found');
    for (let f = 0; f < 60 * 20 && c.state[eid] !== NAV_ARRIVED; f++) step(world, 1 / 60);
    expect(c.state[eid]).toBe(NAV_ARRIVED);
    const replans = c.replans[eid];
    // A nudge of 0.08 m (within 2 · arriveDistance = 0.1 m): stays arrived, no search.
    setAgentPosition(world, eid, world.position.x[eid] + 0.08, world.position.y[eid]);
    for (let f = 0; f < 30; f++) step(world, 1 / 60);
    expect(c.state[eid]).toBe(NAV_ARRIVED);
    expect(c.replans[eid]).toBe(replans);
    // Shoved 3 m away: it re-plans and comes back.
    setAgentPosition(world, eid, 13, 10);
    step(world, 1 / 60);
    expect(c.state[eid]).not.toBe(NAV_ARRIVED);
    for (let f = 0; f < 60 * 10 && c.state[eid] !== NAV_ARRIVED; f++) step(world, 1 / 60);
    expect(c.state[eid]).toBe(NAV_ARRIVED);
    expect(Math.hypot(world.position.x[eid] - 10, world.position.y[eid] - 10)).toBeLessThanOrEqual(0.05);
    expect(c.replans[eid]).toBe(replans + 1);
  });
});

describe('funnelSystem sliced re-plans', () => {
  it('spreads one search over frames under maxSearchExpansionsPerFrame and ends with the same corridor', () => {
    const world = createCrowd({ maxAgents: 4, seed: 3 });
    const mesh = buildNavmesh(map, { radius: 0.5 });
    const eid = spawnAgent(world, { x: 3, y: 18, radius: 0.5 });
    setNavmesh(world, mesh);
    expect(setNavGoal(world, eid, 37, 2)).toBe('found');
    const cor = new Int32Array(4096);
    const ref = Array.from(cor.slice(0, getAgentCorridor(world, eid, cor)));
    // Replace the mesh (same geometry): every corridor is re-planned, now with 2 expansions per frame.
    setNavmesh(world, mesh, { maxSearchExpansionsPerFrame: 2 });
    const c = corridorComponent(world);
    let frames = 0;
    while (c.state[eid] === NAV_REPLAN && frames < 1000) {
      funnelSystem(world, 1 / 60);
      frames++;
      if (c.state[eid] === NAV_REPLAN) {
        expect(world.preferredVelocity.x[eid]).toBe(0);
        expect(world.preferredVelocity.y[eid]).toBe(0);
      }
    }
    expect(frames).toBeGreaterThan(3);
    expect(c.state[eid]).toBe(NAV_FOLLOWING);
    expect(Array.from(cor.slice(0, getAgentCorridor(world, eid, cor)))).toEqual(ref);
    expect(c.replans[eid]).toBe(1);
  });
});

describe('funnelSystem sliced re-plan and closing triangles', () => {
  it('restarts a sliced re-plan when triangles close mid-search, so the corridor avoids them', () => {
    const world = createCrowd({ maxAgents: 4, seed: 3 });
    const mesh = buildNavmesh(map, { radius: 0.5 });
    const eid = spawnAgent(world, { x: 3, y: 5, radius: 0.5 });
    setNavmesh(world, mesh, { maxSearchExpansionsPerFrame: 1 });
    setNavGoal(world, eid, 37, 5);
    setNavmesh(world, mesh, { maxSearchExpansionsPerFrame: 1 }); // force a sliced re-plan
    const c = corridorComponent(world);
    funnelSystem(world, 1 / 60);
    funnelSystem(world, 1 / 60);
    expect(c.state[eid]).toBe(NAV_REPLAN);
    // Close gap A while the search is under way.
    const closed: number[] = [];
    const T = mesh.triangles, V = mesh.vertices;
    for (let t = 0; t < mesh.triangleCount; t++) {
      const cx = (V[2 * T[3 * t]] + V[2 * T[3 * t + 1]] + V[2 * T[3 * t + 2]]) / 3;
      const cy = (V[2 * T[3 * t] + 1] + V[2 * T[3 * t + 1] + 1] + V[2 * T[3 * t + 2] + 1]) / 3;
      if (cx > 17 && cx < 23 && cy > 3 && cy < 8) closed.push(t);
    }
    setNavTrianglesBlocked(world, closed, true);
    for (let f = 0; f < 2000 && c.state[eid] === NAV_REPLAN; f++) funnelSystem(world, 1 / 60);
    expect(c.state[eid]).toBe(NAV_FOLLOWING);
    const cor = new Int32Array(4096);
    const n = getAgentCorridor(world, eid, cor);
    for (let i = 0; i < n; i++) expect(closed).not.toContain(cor[i]);
  });
});
