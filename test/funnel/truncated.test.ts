/**
 * Truncated corridors (maxCornerPortals) and agents pushed back off their corridor: the mechanism of the loop the
 * long fuzz run of 'funnel system in the full pipeline' found (seed 709362359, docs/RELIABILITY.md), taken apart on
 * the map it happened on, moved to the origin. A 3 m square room, a wall at x ∈ [1.3, 1.55] and a small
 * triangular pillar; the mesh (radius 2 mm) joins the pillar's right vertex to the room's corners by long diagonal
 * edges with a sliver triangle between two of them. An agent that had just crossed the upper diagonal was turned
 * back across the sliver by ORCA, re-planned from two triangles back, headed for the middle of the diagonal behind
 * it (the stand-in goal of a 3-portal pull), stopped there and was turned back again: 104 re-plans in 160 s.
 */
import { describe, expect, it } from 'vitest';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent } from '../../src/world/agents';
import { integrateSystem } from '../../systems/integrate';
import { buildNavmesh } from '../../src/navmesh/build';
import { portal, distToSegment, type P } from './portal-geometry';
import { setNavmesh, setNavGoal, getAgentCorridor, funnelRange } from '../../systems/funnel';
import { corridorComponent, NAV_FOLLOWING } from '../../components/corridor';
import { corridorMoveStart, raycastMesh } from '../../src/navmesh/corridor';
import { closestPointOnTriangle, locateTriangle, pointInTriangle } from '../../src/navmesh/locate';

const pillar: P[] = [[0.598, 0.521], [0.433, 0.574], [0.469, 0.405]];
const wall: P[] = [[1.3, -1], [1.55, -1], [1.55, 4], [1.3, 4]];
const mesh = buildNavmesh({ boundary: [[0, 0], [3, 0], [3, 3], [0, 3]], obstacles: [pillar, wall] }, { radius: 0.002 });
const goal: P = [0.9016, 0.184]; // below the pillar's right vertex, in the left room
const dt = 0.1, vmax = 2.84;

const neighbours = (a: number, b: number): boolean => [0, 1, 2].some((k) => mesh.neighbours[3 * a + k] === b);

/** One agent at p with a navmesh goal, maxCornerPortals 3 (a pull of the start, one portal and a stand-in goal). */
function oneAgent(p: P) {
  const world = createCrowd({ maxAgents: 2 });
  const state = setNavmesh(world, mesh, { maxCornerPortals: 3, shortcutInterval: 0, lookahead: 0.2, arrivalSlowdown: 0.2 });
  const e = spawnAgent(world, { x: p[0], y: p[1], radius: 0.0015, maxSpeed: vmax });
  expect(setNavGoal(world, e, goal[0], goal[1])).toBe('found');
  const cor = new Int32Array(64);
  const n = getAgentCorridor(world, e, cor);
  return { world, state, e, corridor: Array.from(cor.subarray(0, n)) };
}

describe('stand-in goal of a truncated corridor', () => {
  it('lies where the straight line to the goal crosses the last portal, not at the portal\'s middle behind the agent', () => {
    // Just west of the upper diagonal, where ORCA put the agent: its corridor goes back across the sliver.
    const p: P = [0.9289, 1.6952];
    const { world, state, e, corridor } = oneAgent(p);
    expect(corridor.length).toBeGreaterThan(3); // truncated: 3 portals are the start, edge 0→1 and a point of edge 1→2
    const [L, R] = portal(mesh, corridor[1], corridor[2]);
    const mid: P = [(L[0] + R[0]) / 2, (L[1] + R[1]) / 2];
    const gx = goal[0] - p[0], gy = goal[1] - p[1];
    // Preconditions, by hand: the straight way to the goal is free, and the portal's middle lies behind the agent.
    expect(raycastMesh(mesh, locateTriangle(mesh, p[0], p[1]), p[0], p[1], goal[0], goal[1], new Int32Array(64))).toBeGreaterThan(0);
    expect((mid[0] - p[0]) * gx + (mid[1] - p[1]) * gy).toBeLessThan(0);

    expect(funnelRange(world, state, 0, 1, dt)).toBe(1);
    const nav = corridorComponent(world);
    const c: P = [nav.cornerX[e], nav.cornerY[e]];
    const g = Math.hypot(gx, gy);
    // The corner is on the straight line to the goal (the taut path of the whole corridor) and on portal 1→2.
    expect(Math.abs(gx * (c[1] - p[1]) - gy * (c[0] - p[0])) / g).toBeLessThan(1e-9);
    expect((c[0] - p[0]) * gx + (c[1] - p[1]) * gy).toBeGreaterThan(0);
    expect(distToSegment(c, L, R)).toBeLessThan(1e-9);
    // ... and the agent heads for the goal (before: for the middle of the portal, 6.7 cm back up the diagonal).
    const vx = world.preferredVelocity.x[e], vy = world.preferredVelocity.y[e];
    expect((vx * gx + vy * gy) / (Math.hypot(vx, vy) * g)).toBeGreaterThan(1 - 1e-12);
  });

  it('is passed at full speed while the straight line runs on inside the corridor (before: the agent slowed to stop on it)', () => {
    // 1 cm before the middle of the upper diagonal, on the line from it to the goal: the old and the new stand-in
    // are both (within round-off) that middle, 1 cm ahead, much less than a step (vmax·dt = 0.284 m).
    const probe = oneAgent([0.9289, 1.6952]).corridor;
    const [L, R] = portal(mesh, probe[1], probe[2]);
    const mid: P = [(L[0] + R[0]) / 2, (L[1] + R[1]) / 2];
    const ux = goal[0] - mid[0], uy = goal[1] - mid[1], ul = Math.hypot(ux, uy);
    const p: P = [mid[0] - (0.01 * ux) / ul, mid[1] - (0.01 * uy) / ul];
    const { world, state, e, corridor } = oneAgent(p);
    expect(corridor.length).toBeGreaterThan(3);
    expect(distToSegment(mid, ...portal(mesh, corridor[1], corridor[2]))).toBeLessThan(1e-12); // the same portal

    funnelRange(world, state, 0, 1, dt);
    const vx = world.preferredVelocity.x[e], vy = world.preferredVelocity.y[e];
    expect(Math.hypot(vx, vy)).toBeCloseTo(vmax, 12); // before: 0.01 m / 0.1 s = 0.1 m/s
    expect((vx * ux + vy * uy) / (vmax * ul)).toBeGreaterThan(1 - 1e-9);
    // The step (maxAccel is unlimited by default) goes through the stand-in and ends inside the corridor's
    // triangles: the cap that keeps an agent from passing a point between updates now measures how far the line
    // runs on inside the corridor, and here that is more than a step.
    world.desiredVelocity.x[e] = vx; world.desiredVelocity.y[e] = vy;
    integrateSystem(world, dt);
    const q: P = [world.position.x[e], world.position.y[e]];
    expect(Math.hypot(q[0] - p[0], q[1] - p[1])).toBeCloseTo(vmax * dt, 12);
    expect(corridor.some((t) => pointInTriangle(mesh, t, q[0], q[1]))).toBe(true);
  });
});

describe('corridorMoveStart walking back to the corridor', () => {
  // The corridor from just east of the upper diagonal, and a point just west of it: two triangles back, across
  // the sliver between the diagonal's two edges, neither on the corridor nor next to its first triangle.
  const ahead: P = [0.955, 1.76], back: P = [0.9289, 1.6952];
  const world = createCrowd({ maxAgents: 1 });
  setNavmesh(world, mesh);
  const e = spawnAgent(world, { x: ahead[0], y: ahead[1] });
  setNavGoal(world, e, goal[0], goal[1]);
  const cor = new Int32Array(64);
  const corridor = Array.from(cor.subarray(0, getAgentCorridor(world, e, cor)));
  const tBack = locateTriangle(mesh, back[0], back[1]);
  const q = new Float64Array(2);
  const away = Math.sqrt(closestPointOnTriangle(mesh, corridor[0], back[0], back[1], q));

  it('puts the triangles on the straight way back in front of the corridor (before: −1, a re-plan)', () => {
    // Preconditions: tBack is off the corridor, not next to its first triangle, and a sliver lies between them.
    expect(corridor.includes(tBack)).toBe(false);
    expect(neighbours(corridor[0], tBack)).toBe(false);
    const sliver = [0, 1, 2].map((k) => mesh.neighbours[3 * tBack + k]).find((t) => t >= 0 && neighbours(t, corridor[0]));
    expect(sliver).toBeDefined();
    expect(away).toBeGreaterThan(0);
    expect(away).toBeLessThan(0.01);

    const buf = new Int32Array(64);
    buf.set(corridor);
    const n = corridorMoveStart(mesh, buf, 0, corridor.length, buf.length, back[0], back[1], 16, null, 0.1);
    // Detour's dtMergeCorridorStartMoved, by hand: the walk is [first, sliver, tBack]; reversed, then the rest.
    expect(Array.from(buf.subarray(0, n))).toEqual([tBack, sliver, ...corridor]);
    for (let i = 1; i < n; i++) expect(neighbours(buf[i - 1], buf[i])).toBe(true);
    expect(pointInTriangle(mesh, buf[0], back[0], back[1])).toBe(true);
  });

  it('does not walk farther than maxWalk (0, the default: no walk), nor into a closed triangle', () => {
    const buf = new Int32Array(64);
    const again = (maxWalk: number | undefined, blocked: Uint8Array | null = null): number => {
      buf.set(corridor);
      return maxWalk === undefined
        ? corridorMoveStart(mesh, buf, 0, corridor.length, buf.length, back[0], back[1])
        : corridorMoveStart(mesh, buf, 0, corridor.length, buf.length, back[0], back[1], 16, blocked, maxWalk);
    };
    expect(again(undefined)).toBe(-1);
    expect(again(0)).toBe(-1);
    expect(again(away * 0.99)).toBe(-1);
    expect(again(away * 1.01)).toBe(corridor.length + 2);
    const blocked = new Uint8Array(mesh.triangleCount);
    const sliver = [0, 1, 2].map((k) => mesh.neighbours[3 * tBack + k]).find((t) => t >= 0 && neighbours(t, corridor[0]))!;
    blocked[sliver] = 1;
    expect(again(1, blocked)).toBe(-1);
    // Capacity: the two triangles in front must fit.
    buf.set(corridor);
    expect(corridorMoveStart(mesh, buf, 0, corridor.length, corridor.length + 1, back[0], back[1], 16, null, 1)).toBe(-1);
  });

  it('in the funnel system, an agent pushed back across the sliver keeps following without a re-plan', () => {
    const w = createCrowd({ maxAgents: 1 });
    const s = setNavmesh(w, mesh, { maxCornerPortals: 3, shortcutInterval: 0 });
    const a = spawnAgent(w, { x: ahead[0], y: ahead[1], radius: 0.0015, maxSpeed: vmax });
    setNavGoal(w, a, goal[0], goal[1]);
    const nav = corridorComponent(w);
    w.position.x[a] = back[0]; w.position.y[a] = back[1]; // as ORCA's step did: no teleport, no history reset
    funnelRange(w, s, 0, 1, dt);
    expect(nav.replans[a]).toBe(0);
    expect(nav.state[a]).toBe(NAV_FOLLOWING);
    const n = getAgentCorridor(w, a, cor);
    expect(cor[0]).toBe(tBack);
    expect(n).toBe(corridor.length + 2);
    // Heading for the goal along the straight line (the stand-in where it crosses the diagonal).
    const gx = goal[0] - back[0], gy = goal[1] - back[1], vx = w.preferredVelocity.x[a], vy = w.preferredVelocity.y[a];
    expect((vx * gx + vy * gy) / (Math.hypot(vx, vy) * Math.hypot(gx, gy))).toBeGreaterThan(1 - 1e-9);
  });
});
