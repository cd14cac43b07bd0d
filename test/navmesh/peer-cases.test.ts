/**
 * Situations users of recastnavigation (Detour's findStraightPath, dtPathCorridor, DetourCrowd) and of other
 * navmesh/visibility libraries reported, reproduced on Murmur's navmesh search, funnel and funnel system. Oracles:
 * hand geometry, and the visibility-graph Dijkstra of test/navmesh/oracle.ts (on the original polygons, independent
 * of the mesh).
 */
import { describe, expect, it } from 'vitest';
import { buildNavmesh, type PolygonMap } from '../../src/navmesh/build';
import { createNavQuery, createNavPathResult, findNavPath } from '../../src/navmesh/search';
import { corridorPortals } from '../../src/navmesh/portals';
import { funnel, polylineLength } from '../../src/funnel/funnel';
import { locateTriangle, pointInTriangle, nearestPointOnMesh } from '../../src/navmesh/locate';
import { raycastMesh } from '../../src/navmesh/corridor';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent, setAgentPosition } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { setNavmesh, setNavGoal, getAgentCorridor } from '../../systems/funnel';
import { corridorComponent, NAV_ARRIVED } from '../../components/corridor';
import { visibilityGraphShortest, segmentFree, type P } from './oracle';
import { rectMap } from './maps';

const rect = (x0: number, y0: number, x1: number, y1: number): P[] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];

function pathThrough(map: PolygonMap, s: P, g: P) {
  const mesh = buildNavmesh(map);
  const q = createNavQuery(mesh), r = createNavPathResult();
  const status = findNavPath(q, s[0], s[1], g[0], g[1], r);
  if (status !== 'found') return { status, mesh, r, points: new Float64Array(0), n: 0 };
  const portals = new Float64Array(4 * (r.corridorLength + 1));
  const count = corridorPortals(mesh, r.corridor, r.corridorLength, r.startX, r.startY, r.goalX, r.goalY, portals);
  const points = new Float64Array(256);
  const n = funnel(portals, count, 0, points);
  return { status, mesh, r, points, n };
}

/** Largest distance of the path's points from the straight line s–g. */
function offLine(points: Float64Array, n: number, s: P, g: P): number {
  const ex = g[0] - s[0], ey = g[1] - s[1], l = Math.hypot(ex, ey);
  let worst = 0;
  for (let i = 0; i < n; i++) worst = Math.max(worst, Math.abs((points[2 * i] - s[0]) * ey - (points[2 * i + 1] - s[1]) * ex) / l);
  return worst;
}

describe('peer cases: funnel (findStraightPath)', () => {
  // recastnavigation/recastnavigation#515 "A small bug in DetourNavMeshQuery/findStraightPath"
  // (https://github.com/recastnavigation/recastnavigation/issues/515): when the apex and the funnel's left and right
  // points are collinear both area tests are zero and a spurious corner is added. And #735 "findStraightPath string
  // pulling problem" (https://github.com/recastnavigation/recastnavigation/issues/735): a vertex shared by portals
  // (repeated, overlapping points) made a strange turn. Oracle by hand: a straight corridor whose left endpoints
  // all lie on the start–goal line, portals that repeat, and zero-width portals on the line give exactly the two
  // points start and goal. Murmur defect found here (fixed 2026-11-30): the first case gave [start, (9, 1), goal],
  // the spurious collinear corner of the recast issue.
  it('collinear apex/left/right and repeated or zero-width portals add no corner (recast#515, #735)', () => {
    const cases: number[][] = [];
    // left endpoints on y = 1 (the line of travel), right endpoints below
    const a: number[] = [0, 1, 0, 1];
    for (let x = 1; x <= 9; x++) a.push(x, 1, x, -1);
    a.push(10, 1, 10, 1);
    cases.push(a);
    // right endpoints on the line y = 0, left endpoints above; every portal twice
    const b: number[] = [0, 0, 0, 0];
    for (let x = 1; x <= 9; x++) b.push(x, 2, x, 0, x, 2, x, 0);
    b.push(10, 0, 10, 0);
    cases.push(b);
    // a fan of portals all sharing the left endpoint (5, 1) on the line (triangles around one vertex), and a
    // zero-width portal exactly at that vertex
    const c: number[] = [0, 1, 0, 1, 5, 1, 4, -1, 5, 1, 5, -1, 5, 1, 5, 1, 5, 1, 6, -1, 5, 1, 7, -0.5, 10, 1, 10, 1];
    cases.push(c);
    const out = new Float64Array(64);
    for (const p of cases) {
      const count = p.length / 4;
      const n = funnel(p, count, 0, out);
      expect(n, JSON.stringify(Array.from(out.subarray(0, 2 * Math.max(n, 0))))).toBe(2);
      expect(polylineLength(out, n)).toBeCloseTo(10, 12);
    }
  });

  // recastnavigation/recastnavigation#302 "Get Strange path for path follow and path straight"
  // (https://github.com/recastnavigation/recastnavigation/issues/302) and isaac-mason/recast-navigation-js#452
  // "Agent takes an unnecessary longer path when there's a direct straight path to the target"
  // (https://github.com/isaac-mason/recast-navigation-js/issues/452): the path bent at a vertex shared by several
  // polygons although the goal was in plain sight. Oracle: the straight line s–g (here grazing two obstacle corners,
  // so the mesh has vertices on it where many triangles meet) is free, so the path is that line: its length is
  // |g − s| and every point lies on it.
  it('a goal in plain sight across a vertex shared by many triangles is reached in a straight line (recast#302, recast-navigation-js#452)', () => {
    const map: PolygonMap = {
      boundary: rect(0, 0, 12, 12),
      obstacles: [rect(2, 3, 3, 4).map(([x, y]) => [x, y] as P), rect(5, 4, 6, 5), rect(7, 8, 8, 9), rect(8, 6, 9, 7), [[4, 6], [3.5, 9], [2, 7]]],
    };
    // (3, 3) and (5, 5) are corners on the diagonal y = x, (8, 8)... (7, 8)-(8, 9) has corner (8, 8)? no: its
    // corners are (7, 8), (8, 8), (8, 9), (7, 9): (8, 8) lies on y = x too, and rect(8, 6, 9, 7) leaves the line free.
    for (const [s, g] of [[[1, 1], [10, 10]], [[0.5, 0.5], [11.5, 11.5]], [[10, 10], [1, 1]]] as [P, P][]) {
      const { status, r, points, n } = pathThrough(map, s, g);
      expect(status).toBe('found');
      const straight = Math.hypot(g[0] - s[0], g[1] - s[1]);
      expect(visibilityGraphShortest({ boundary: map.boundary as P[], obstacles: map.obstacles as P[][] }, s, g)).toBeCloseTo(straight, 9);
      expect(r.length).toBeCloseTo(straight, 9);
      expect(polylineLength(points, n)).toBeCloseTo(straight, 9);
      expect(offLine(points, n, s, g)).toBeLessThan(1e-9);
    }
  });

  // Start or goal exactly on a boundary vertex, on an obstacle edge or on an obstacle corner:
  // TaipanRex/pyvisgraph#39 "Start or end point on polygon boundary" (a KeyError) and jannikmi/extremitypathfinder#33
  // (start and end at polygon vertices: "output is undefined"). Recast snaps such points with findNearestPoly.
  // Oracle: the visibility-graph Dijkstra from the same points; the path must be found and equally long.
  // Murmur defect found here (fixed 2026-11-30): a start on (or within ~1e-11 of) a convex vertex such as a room's
  // corner gave paths along the walls that were far too long, or 'unreachable' ((0, 0) → (0, 10): unreachable;
  // (0, 10) → (3, 5): 17.7 m instead of 5.83 m), and a start outside the room snaps exactly onto such a corner.
  it('start or goal on a boundary vertex, an obstacle edge or an obstacle corner (pyvisgraph#39, extremitypathfinder#33)', () => {
    const map = { boundary: rect(0, 0, 10, 10), obstacles: [rect(3, 2, 6, 7), [[7, 1], [9, 3], [8, 5]] as P[]] };
    const pts: P[] = [[0, 0], [10, 10], [0, 10], [3, 5], [6, 2], [6, 7], [4.5, 2], [9, 3], [8, 2], [7, 1], [10, 4]];
    let checked = 0;
    for (const s of pts) for (const g of pts) {
      if (s === g) continue;
      const want = visibilityGraphShortest(map, s, g);
      const { status, r, points, n } = pathThrough(map, s, g);
      expect(status, `${s} → ${g}`).toBe('found');
      expect(r.startX).toBeCloseTo(s[0], 9); expect(r.startY).toBeCloseTo(s[1], 9);
      expect(r.goalX).toBeCloseTo(g[0], 9); expect(r.goalY).toBeCloseTo(g[1], 9);
      expect(r.length, `${s} → ${g}`).toBeCloseTo(want, 6);
      expect(polylineLength(points, n), `${s} → ${g}`).toBeCloseTo(want, 6);
      checked++;
    }
    expect(checked).toBe(110);
    // Starts a hair away from a convex corner (inside, outside, on the triangulation's edges there) and a start
    // outside the room that snaps exactly onto its corner: same lengths as the oracle from the (snapped) point.
    const goals: P[] = [[0, 10], [10, 0], [1, 9], [4.5, 8], [9.5, 9.5], [7, 0.5]];
    const near: [P, P][] = [
      [[1e-13, 1e-13], [1e-13, 1e-13]], [[1e-11, 0], [1e-11, 0]], [[-1e-13, -1e-13], [-1e-13, -1e-13]],
      [[10 - 1e-12, 10 - 1e-12], [10 - 1e-12, 10 - 1e-12]], [[1e-12, 10 - 3e-12], [1e-12, 10 - 3e-12]],
      [[-2, 12], [0, 10]], [[13, -1], [10, 0]],
    ];
    for (const [s, snapped] of near) for (const g of goals) {
      // (a goal a hair from the start is in plain sight; the oracle's segment tests are not meant for 1e-12 m legs)
      const d = Math.hypot(g[0] - snapped[0], g[1] - snapped[1]);
      const want = d < 1e-6 ? d : visibilityGraphShortest(map, snapped, g);
      const { status, r, points, n } = pathThrough(map, s, g);
      expect(status, `${s} → ${g}`).toBe('found');
      expect(r.length, `${s} → ${g}`).toBeCloseTo(want, 6);
      expect(polylineLength(points, n), `${s} → ${g}`).toBeCloseTo(want, 6);
    }
  });

  // The goal a hair from an obstacle corner (1e-13 m inside the block, or just outside it): snapped or located within
  // the point-location tolerance, then judged by the corner's taut-turn test as lying "behind" the wall. Murmur
  // defect found here (fixed 2026-11-30): (17.7, 2.6) → (15 + 1e-13, 3 + 7e-14) was 'unreachable' (2.73 m by hand)
  // and (17.7, 2.6) → (18 + 1e-13, 9 + 7e-14) came out 11.73 m instead of 6.5 m; 240 of 3,476 such queries on
  // seeded maps were wrong. Oracle: the visibility-graph length to the corner itself (by hand for the first two).
  it('a goal within round-off of an obstacle corner is reached the short way (DotRecast#80 snapping)', () => {
    const map = { boundary: rect(0, 0, 20, 20), obstacles: [rect(15, 3, 18, 9), rect(10, 4, 12, 9)] };
    const cases: [P, P, P][] = [
      [[17.7, 2.6], [15 + 1e-13, 3 + 7e-14], [15, 3]],
      [[17.7, 2.6], [18 + 1e-13, 9 + 7e-14], [18, 9]],
      [[17.7, 2.6], [15 - 1e-13, 3 - 7e-14], [15, 3]],
      [[10.3, 10.1], [10 + 1e-13, 4 + 7e-14], [10, 4]],
      [[2.2, 17.9], [12 - 1e-13, 4 + 1e-13], [12, 4]],
    ];
    expect(visibilityGraphShortest(map, [17.7, 2.6], [15, 3])).toBeCloseTo(Math.hypot(2.7, 0.4), 12);
    expect(visibilityGraphShortest(map, [17.7, 2.6], [18, 9])).toBeCloseTo(6.5, 12); // (17.7, 2.6) → (18, 3) → (18, 9)
    for (const [s, g, corner] of cases) {
      const want = visibilityGraphShortest(map, s, corner);
      const { status, r, points, n } = pathThrough(map, s, g);
      expect(status, `${s} → ${g}`).toBe('found');
      expect(r.length, `${s} → ${g}`).toBeCloseTo(want, 9);
      expect(polylineLength(points, n), `${s} → ${g}`).toBeCloseTo(want, 9);
    }
  });

  // A goal outside the mesh (inside an obstacle, or outside the boundary): recast snaps it with findNearestPoly and
  // users of DotRecast report odd paths when the snap lands elsewhere (ikpil/DotRecast#80 "Pathfinding is going off
  // the navmesh", https://github.com/ikpil/DotRecast/issues/80). Oracle by hand: the nearest point of the free space
  // (on the obstacle's face, or on the boundary), and the path to it equals the visibility-graph length to that point.
  it('a goal inside an obstacle or outside the boundary snaps to the nearest free point (DotRecast#80)', () => {
    const map = { boundary: rect(0, 0, 10, 10), obstacles: [rect(3, 2, 6, 7)] };
    const cases: [P, P][] = [
      [[5.5, 4], [6, 4]],     // inside the block, nearest its east face
      [[3.2, 6.9], [3.2, 7]], // inside, nearest its north face
      [[14, 5], [10, 5]],     // east of the room
      [[-3, -4], [0, 0]],     // beyond the south-west corner
    ];
    for (const [g, snapped] of cases) {
      const s: P = [1, 9];
      const { status, r, points, n } = pathThrough(map, s, g);
      expect(status, `goal ${g}`).toBe('found');
      expect(r.goalX, `goal ${g}`).toBeCloseTo(snapped[0], 9);
      expect(r.goalY, `goal ${g}`).toBeCloseTo(snapped[1], 9);
      const want = visibilityGraphShortest(map, s, snapped);
      expect(r.length).toBeCloseTo(want, 6);
      expect(polylineLength(points, n)).toBeCloseTo(want, 6);
      const out = new Float64Array(2);
      const mesh = buildNavmesh(map);
      expect(nearestPointOnMesh(mesh, g[0], g[1], out)).toBeGreaterThanOrEqual(0);
      expect(Math.hypot(out[0] - snapped[0], out[1] - snapped[1])).toBeLessThan(1e-9);
    }
  });
});

describe('peer cases: path corridor after a push (DetourCrowd)', () => {
  // recastnavigation/recastnavigation#24 "Poly ref under agent not restored when using requestMoveVelocity()"
  // (https://github.com/recastnavigation/recastnavigation/issues/24) and willdavis/VRoxel#67 "agents can be pushed
  // off the map": once an agent is moved by something other than its corridor (a push, a teleport), the polygon
  // under it goes stale. Oracle: after each push (several triangles sideways, backwards, across the room) the
  // corridor's first triangle contains the agent, and the agent still arrives at the goal without entering an
  // obstacle (exact rectangle test).
  it('pushed or teleported agents re-anchor their corridor and still arrive (recast#24)', () => {
    const obstacles = [rect(8, -1, 10, 6), rect(8, 9, 10, 21), rect(20, 4, 22, 16)];
    const map: PolygonMap = { boundary: rect(0, 0, 30, 20), obstacles };
    const mesh = buildNavmesh(map, { radius: 0.5 });
    const world = createCrowd({ maxAgents: 8, seed: 24 });
    setNavmesh(world, mesh);
    const e = spawnAgent(world, { x: 2, y: 2, radius: 0.5, maxSpeed: 2 });
    expect(setNavGoal(world, e, 27, 18)).toBe('found');
    const inside = (x: number, y: number) => obstacles.some((o) => x > o[0][0] + 1e-9 && x < o[1][0] - 1e-9 && y > o[0][1] + 1e-9 && y < o[2][1] - 1e-9);
    const pushes: Record<number, P> = { 40: [5, 15], 120: [2, 2], 200: [15, 18], 260: [24, 2] };
    const buf = new Int32Array(4096);
    let arrivedAt = -1;
    for (let k = 0; k < 60 * 60 && arrivedAt < 0; k++) {
      if (pushes[k]) {
        setAgentPosition(world, e, pushes[k][0], pushes[k][1]);
        step(world, 1 / 60);
        const n = getAgentCorridor(world, e, buf);
        if (n > 0) {
          expect(pointInTriangle(mesh, buf[0], world.position.x[e], world.position.y[e]) || locateTriangle(mesh, world.position.x[e], world.position.y[e]) === buf[0], `push at ${k}`).toBe(true);
        }
        continue;
      }
      step(world, 1 / 60);
      expect(inside(world.position.x[e], world.position.y[e]), `frame ${k}`).toBe(false);
      if (corridorComponent(world).state[e] === NAV_ARRIVED) arrivedAt = k;
    }
    expect(arrivedAt).toBeGreaterThan(260);
    expect(Math.hypot(world.position.x[e] - 27, world.position.y[e] - 18)).toBeLessThan(0.5);
  });
});

describe('peer cases: raycast along the mesh (dtNavMeshQuery::raycast)', () => {
  // Rays through vertices: recastnavigation/recastnavigation#263 "Issue with point on edge of polygon in
  // dtPointInPolygon?" (https://github.com/recastnavigation/recastnavigation/issues/263: a navigation raycast's hit
  // point on a polygon edge was then rejected) and Scirra/Construct-bugs#2824 "Raycast fails to register collision at
  // corners" (https://github.com/Scirra/Construct-bugs/issues/2824). Murmur defect found here (fixed 2026-11-30):
  // raycastMesh left a vertex through the first qualifying edge in triangle order, so a ray grazing an obstacle
  // corner was reported blocked (0.5 % of lattice rays on integer-rectangle maps; corridorShortcut then missed the
  // shortcut). Oracle: segmentFree on the original polygons (touching a corner is free), by hand for the first case.
  it('rays grazing obstacle corners or running through mesh vertices agree with the polygon oracle (recast#263, Construct#2824)', () => {
    const map = { boundary: rect(0, 0, 20, 20), obstacles: [rect(1, 5, 3, 10), rect(14, 0, 16, 3)] };
    const mesh = buildNavmesh(map);
    const out = new Int32Array(256);
    // y = x + 9 touches the block [1, 3] × [5, 10] only at its corner (1, 10): free by hand
    expect(raycastMesh(mesh, locateTriangle(mesh, 0.5, 9.5), 0.5, 9.5, 3, 12, out)).toBeGreaterThan(0);
    // y = x + 8.9 cuts the block's corner off: blocked by hand
    expect(raycastMesh(mesh, locateTriangle(mesh, 0.5, 9.4), 0.5, 9.4, 3, 11.9, out)).toBeLessThan(0);
    let total = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const m = rectMap(seed);
      const mm = buildNavmesh(m);
      for (let sx = 0.5; sx < 20; sx += 2) for (let sy = 0.5; sy < 20; sy += 3) for (let ex = 0; ex <= 20; ex += 1) for (let ey = 0; ey <= 20; ey += 4) {
        const t = locateTriangle(mm, sx, sy);
        if (t < 0 || locateTriangle(mm, ex, ey) < 0) continue;
        const want = segmentFree(m, [sx, sy], [ex, ey]);
        const n = raycastMesh(mm, t, sx, sy, ex, ey, out);
        total++;
        if ((n > 0) !== want) throw new Error(`map ${seed}: ray (${sx}, ${sy}) → (${ex}, ${ey}): oracle ${want ? 'free' : 'blocked'}, raycast ${n}`);
        // a free ray's triangles are a walk of neighbours from the start's triangle to the end's
        if (n > 0) for (let i = 1; i < n; i++) expect(Array.from(mm.neighbours.subarray(3 * out[i - 1], 3 * out[i - 1] + 3))).toContain(out[i]);
      }
    }
    expect(total).toBeGreaterThan(25000);
  });
});
