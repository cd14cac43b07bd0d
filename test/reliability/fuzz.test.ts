import { describe, expect, it } from 'vitest';
import { FUZZ_PROPERTIES, runProperty, funnelMapRun, gridNavRun, funnelFullRun } from './fuzz-properties';
import { linearProgram2 } from '../../src/avoidance/lp';
import { cylinderShape, boxShape, createPose, setPoseQuat } from '../../src/collision/shapes';
import { contactManifold, createManifold, createManifoldInput } from '../../src/collision/manifold';
import { createSpatialHash, rebuildSpatialHash, queryKNearest, queryRadius } from '../../src/spatial/hash';
import { createOrcaAgent, createOrcaNeighbours, orcaVelocity } from '../../src/avoidance/orca';
import { buildNavmesh } from '../../src/navmesh/build';
import { createNavQuery, createNavPathResult, findNavPath } from '../../src/navmesh/search';
import { corridorPortals } from '../../src/navmesh/portals';
import { funnel, polylineLength } from '../../src/funnel/funnel';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { addObstacle, enableOrca } from '../../components/orca';
import { setNavmesh, setNavGoal, moveNavGoal } from '../../systems/funnel';
import { corridorComponent, NAV_ARRIVED, NAV_UNREACHABLE } from '../../components/corridor';
import { corridorMoveStart } from '../../src/navmesh/corridor';
import { locateTriangle } from '../../src/navmesh/locate';
import { advanceAnchor, createAnchorState } from '../../src/formation/anchor';
import { enableLod } from '../../systems/lod';
import { createGrid, setBlocked } from '../../src/grid/grid';
import { setNavigationGrid, setAgentGoal, navigationStatus, agentPathCells } from '../../systems/navigation';

// The quick, fixed-seed run of every kernel property (the long run with fresh seeds is `npm run fuzz`).
const SEED = 20261129;

describe('fuzz (fast-check, fixed seed)', () => {
  for (const p of FUZZ_PROPERTIES) {
    it(p.name, () => {
      // Edge-case families included (no defect is open; see skipKnownDefects in fuzz-properties.ts).
      const report = runProperty(p, SEED, p.quickRuns);
      expect(report, report ?? '').toBeNull();
    });
  }
});

// Counterexamples the fuzzer found, pinned exactly. They are defects in other engineers' kernels, reported in
// docs/RELIABILITY.md; `it.fails` passes while the defect is there and fails once it is fixed (then make it `it`).
describe('fuzz findings (fixed defects, kept as regression tests)', () => {
  it('ORCA LP: nearly parallel lines a round-off apart (long fuzz run 2026-11-29) are feasible with the optimum at the origin (hand: every line passes within 2e-152 of the origin, the target lies within 2e-92 of it)', () => {
    const cases: { lines: { px: number; py: number; a: number }[]; radius: number; ox: number; oy: number }[] = [
      { lines: [{ px: 0, py: 5.106074251589216e-286, a: 0 }, { px: 0, py: 1.4244030704734773e-285, a: 1.1402935486485953e-62 }, { px: 0, py: 5.106074251589216e-286, a: 5e-324 }], radius: 0.5000000000000001, ox: 0, oy: -7.027741031323102e-162 },
      { lines: [{ px: 0, py: 1.9917916057858546e-156, a: 1.5734996043960276e-171 }, { px: 0, py: 1.909264351874874e-152, a: 1.0275035877004912e-30 }, { px: 0, py: 1.9917916057858543e-156, a: 0 }], radius: 0.16445074052895245, ox: 0, oy: -1.808231626473809e-92 },
      { lines: [{ px: -3.469446951953615e-18, py: 0, a: 0 }, { px: 0, py: -5e-324, a: 0 }], radius: 0.03958909784790374, ox: 0, oy: -3.9589097847903746e-14 },
    ];
    for (const c of cases) {
      const lines = new Float64Array(4 * c.lines.length);
      c.lines.forEach((l, i) => lines.set([l.px, l.py, Math.cos(l.a), Math.sin(l.a)], 4 * i));
      const out = new Float64Array(2);
      expect(linearProgram2(lines, c.lines.length, c.radius, c.ox, c.oy, false, out)).toBe(c.lines.length);
      expect(Math.hypot(out[0], out[1])).toBeLessThan(1e-12);
    }
  });
  it('ORCA LP: two almost-coincident lines through the origin leave the upper half-disc feasible (LP must not report infeasible)', () => {
    const a = 6.283175307179587; // 2π − 1e-5: direction (1, −1e-5), |det| with (1, 0) below LP_EPSILON
    const lines = new Float64Array([0, 0, 1, 0, 7.41103e-319, -5e-324, Math.cos(a), Math.sin(a)]);
    const out = new Float64Array(2);
    // v = (0, 0.005) satisfies both lines by a margin of 5e-3: the program is feasible.
    expect(linearProgram2(lines, 2, 0.01, 0, 0, false, out)).toBe(2);
  });
  it('contactManifold: small cylinder flipped 180° about x, tilted 1e-13 rad, inside a box: depth must be 0.55 (hand: box half 0.5 + cylinder half height 0.05)', () => {
    const cyl = cylinderShape(0.05, 0.05), box = boxShape(0.5, 0.5, 0.5);
    const m = contactManifold(createManifoldInput(cyl, setPoseQuat(createPose(), 0, 0, 0, 1, 0, 1e-13, 0), box, createPose(), 0), createManifold());
    expect(m.depth).toBeCloseTo(0.55, 6);
  });
  it('spatial hash: k-nearest with r = 0 finds a point whose squared distance underflows to 0 (as queryRadius does)', () => {
    const h = createSpatialHash(4, 0.05);
    const xs = new Float64Array(2), ys = new Float64Array(2);
    rebuildSpatialHash(h, xs, ys, new Int32Array([1]), 1); // one point at (0, 0)
    const ids = new Int32Array(1), d2 = new Float64Array(1);
    expect(queryRadius(h, -5e-324, 0, 0, -1, ids)).toBe(1); // (5e-324)² = 0 <= 0²: a neighbour by the contract
    expect(queryKNearest(h, -5e-324, 0, 0, 1, -1, ids, d2)).toBe(1);
  });
  it('orcaVelocity: a coincident neighbour with a relative velocity of 6e-162 m/s (share 0.25): the result stays within maxSpeed (hand: the speed disc is a hard limit)', () => {
    const a = createOrcaAgent();
    a.radius = 0.1; a.maxSpeed = 1; a.timeHorizon = 0.1; a.obstacleTimeHorizon = 0.1;
    const nb = createOrcaNeighbours(1);
    nb.count = 1; nb.radius[0] = 0.1; nb.share[0] = 0.25; nb.id[0] = 1; // at the agent's own position
    nb.vy[0] = 5.966246622653461e-162; // a relative velocity whose square underflows to 0
    const out = { x: 0, y: 0 };
    orcaVelocity(a, nb, null, new Int32Array(0), 0, 0.005, out);
    // measured 2026-11-29: |v| = 1.0145 (the pair's line has a direction of length 1.0145, not 1); with vy = 0 exactly it is fine
    expect(Math.hypot(out.x, out.y)).toBeLessThanOrEqual(1 + 1e-12);
  });
  it('orcaVelocity: two deeply overlapping neighbours on the same side (anti-parallel lines, 3D fallback): the result stays within maxSpeed', () => {
    const a = createOrcaAgent();
    a.radius = 0.1; a.maxSpeed = 0.004452209501492843; a.timeHorizon = 0.1; a.obstacleTimeHorizon = 0.1;
    const nb = createOrcaNeighbours(2);
    nb.count = 2;
    nb.x[0] = 0.01; nb.vx[0] = -0.4259220424739836; nb.radius[0] = 0.3265018188764433; nb.share[0] = 1; nb.id[0] = 1;
    nb.x[1] = 0.01; nb.vy[1] = 0.000004570706519556417; nb.radius[1] = 0.3367108810554173; nb.share[1] = 1; nb.id[1] = 2;
    const out = { x: 0, y: 0 };
    orcaVelocity(a, nb, null, new Int32Array(0), 0, 0.02347847493854659, out);
    // measured 2026-11-29: |v| = 9.98 × maxSpeed (lines (0, −1) and (0, 1) at x = ±18.17; linearProgram3 result)
    expect(Math.hypot(out.x, out.y)).toBeLessThanOrEqual(a.maxSpeed * (1 + 1e-9));
  });
  it('findNavPath: a start on a shared triangle edge or goal within round-off of one does not lie on the corridor\'s first/last portal, so the funnelled path is the straight one (navmesh fuzz property, 2026-11-29)', () => {
    // Hand: in an empty convex room the shortest path is the straight segment. Before the fix, the start on the
    // mesh's diagonal was located in the triangle behind it and the funnel detoured through the diagonal's far end:
    // 8.27 m via (4, 4) in the 4 m room, 113.26 m via (-100, -47.53) in the fuzz counterexample.
    const cases = [
      { box: [0, 0, 4, 4], s: [2, 2], g: [0.1, 0.2] }, // (2, 2) lies exactly on the diagonal (0, 0)-(4, 4)
      { box: [0, 0, 4, 4], s: [1, 1], g: [0.1, 3] },
      // the long run's counterexample: a start 7e-15 m beyond the diagonal, located in the triangle before it
      { box: [-100, -100, -100 + 30.689679122529924, -100 + 52.471221931278706], s: [-100 + 0.9999999823048711 * 30.689679122529924, -100 + 1.7695128917694092e-8 * 52.471221931278706], g: [-100 + 8.381903171539307e-9 * 30.689679122529924, -100 + 5.587935447692871e-9 * 52.471221931278706] },
      // a later counterexample: the goal 5e-10 m on the near side of the diagonal, 0.4 µm from its end (0.9 µm detour)
      { box: [-39.193811267614365, -23.15275352448225, -39.193811267614365 + 15.94291212502867, -23.15275352448225 + 56.437386768870056], s: [-39.193811267614365 + 0.9999999776482582 * 15.94291212502867, -23.15275352448225 + 8.381903171539307e-9 * 56.437386768870056], g: [-39.193811267614365 + 7.450580596923828e-9 * 15.94291212502867, -23.15275352448225 + 0.9999999925494194 * 56.437386768870056] },
    ];
    for (const c of cases) {
      const [x0, y0, x1, y1] = c.box;
      const mesh = buildNavmesh({ boundary: [[x0, y0], [x1, y0], [x1, y1], [x0, y1]] });
      const res = createNavPathResult();
      expect(findNavPath(createNavQuery(mesh), c.s[0], c.s[1], c.g[0], c.g[1], res)).toBe('found');
      const portals = new Float64Array(4 * (res.corridorLength + 1)), out = new Float64Array(64);
      const n = funnel(portals, corridorPortals(mesh, res.corridor, res.corridorLength, c.s[0], c.s[1], c.g[0], c.g[1], portals), 0, out);
      const straight = Math.hypot(c.g[0] - c.s[0], c.g[1] - c.s[1]);
      expect(Math.abs(res.length - straight)).toBeLessThanOrEqual(1e-12 * straight);
      expect(n).toBe(2);
      expect(Math.abs(polylineLength(out, n) - straight)).toBeLessThanOrEqual(1e-12 * straight);
    }
  });
});

describe('fuzz findings: funnel system and formation anchor (fixed 2026-11-29, kept as regression tests)', () => {
  it('setNavGoal / moveNavGoal to an unreachable goal stop the agent: zero preferred velocity, no drift (funnel system property)', () => {
    // Hand: a 20 × 10 room cut in two by a wall through its whole height; an agent walking on the left gets a goal
    // on the right. The status is 'unreachable' and "the agent then stops" (systems/funnel.ts, setNavGoal). Before
    // the fix the funnel system skipped the NAV_UNREACHABLE agent but left its last preferred velocity in place, so
    // the agent kept walking, through the wall and out of the map.
    const rect = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    const mesh = buildNavmesh({ boundary: rect(0, 0, 20, 10), obstacles: [rect(9, -1, 11, 11)] });
    for (const how of ['move', 'set'] as const) {
      const world = createCrowd({ maxAgents: 4 });
      setNavmesh(world, mesh);
      const eid = spawnAgent(world, { x: 2, y: 5, radius: 0.3, maxSpeed: 2 });
      expect(setNavGoal(world, eid, 7, 5)).toBe('found');
      for (let f = 0; f < 10; f++) step(world, 1 / 60);
      expect(world.preferredVelocity.x[eid]).toBeGreaterThan(1); // walking right
      const status = how === 'move' ? moveNavGoal(world, eid, 15, 5) : setNavGoal(world, eid, 15, 5);
      expect(status).toBe('unreachable');
      expect(corridorComponent(world).state[eid]).toBe(NAV_UNREACHABLE);
      const x = world.position.x[eid];
      for (let f = 0; f < 120; f++) step(world, 1 / 60);
      expect(world.preferredVelocity.x[eid]).toBe(0);
      expect(world.preferredVelocity.y[eid]).toBe(0);
      expect(world.position.x[eid]).toBe(x); // before the fix: 2 m/s for 2 s, x grew by 4 m into the wall
    }
  });
  it('advanceAnchor: a turn limit above π with the waypoint straight behind reports the turn it made, π/dt, not the limit (formation anchor property, 2026-11-29)', () => {
    // The fuzz counterexample: waypointRadius 0, the anchor 4e-5 m past its waypoint with the heading pointing away,
    // ω_cap·dt = 1.84 · 1.85 = 3.40 rad ≥ π, so any turn is allowed: the heading becomes the waypoint's direction
    // (a half turn) and ω = ±π/dt (hand). There h · u rounds to just below −1 = cos(limit); the old code took the
    // rate-limited branch, rotated by the cached (cos, sin) = (−1, 0), the right heading, but reported
    // ω = ω_cap = 1.840 rad/s instead of π/dt = 1.702 (and capped the speed by that larger ω when extent > 0).
    const p = { cruiseSpeed: 0.06081647430546582, maxTurnRate: 1.8403741447720678, memberMaxSpeed: 1.2163293482735755, extent: 0, margin: 0.05000000442378223, waypointRadius: 0, arriveGain: 0.1 };
    const st = createAnchorState(0, 0);
    st.x = -5.500042283380404; st.y = -2.5000004091142802; st.hx = -0.9999531953082114; st.hy = -0.009675081028002283;
    const path = new Float64Array([-5.5, -2.5, -30, -30]);
    const dt = 1.8462890004226937;
    const ux = -5.5 - st.x, uy = -2.5 - st.y, d = Math.hypot(ux, uy);
    expect(advanceAnchor(st, path, 2, p, 0.9998907968401909, dt)).toBe(true);
    expect(Math.abs(Math.abs(st.omega) * dt - Math.PI)).toBeLessThan(1e-9); // h × u ≈ 5e-12 here: the half turn up to that
    expect(Math.abs(st.hx * ux / d + st.hy * uy / d - 1)).toBeLessThan(1e-12); // now facing the waypoint
  });
});

describe('fuzz findings: corridor upkeep off the mesh (fixed 2026-11-29, kept as a regression test)', () => {
  // A 20 × 10 room with a 4 × 4 box, meshed for radius 0.5: the box's left face is inflated to x ≈ 7.46, so (7.8, 5.3)
  // is free space in the map (0.2 m from the box) but off the mesh, as avoidance or contacts leave agents against
  // walls. Its nearest mesh point (7.46, 5.3) lies in the triangle a re-plan starts the corridor with (hand).
  const rect = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  const mesh = buildNavmesh({ boundary: rect(0, 0, 20, 10), obstacles: [rect(8, 3, 12, 7)] }, { radius: 0.5 });
  it('corridorMoveStart keeps a corridor whose first triangle is the nearest one to an off-mesh agent', () => {
    const res = createNavPathResult();
    expect(findNavPath(createNavQuery(mesh), 7.8, 5.3, 18, 5, res)).toBe('found');
    expect(locateTriangle(mesh, 7.8, 5.3)).toBe(-1); // off the mesh
    expect(res.startX).toBeLessThan(7.5); // snapped onto it (the circumscribed octagon reaches 0.54 m left of the face)
    const buf = Int32Array.from(res.corridor.subarray(0, res.corridorLength));
    // Before the fix: −1 (the nearest triangle is not a neighbour of the first, it is the first), so the funnel
    // system re-planned this agent every frame.
    expect(corridorMoveStart(mesh, buf, 0, res.corridorLength, buf.length, 7.8, 5.3)).toBe(res.corridorLength);
    expect(buf[0]).toBe(res.corridor[0]);
  });
  it('funnel system: an agent standing off the mesh with sliced re-plans reaches its goal (it waited in NAV_REPLAN for good)', () => {
    const world = createCrowd({ maxAgents: 4 });
    setNavmesh(world, mesh, { maxSearchExpansionsPerFrame: 1 });
    const eid = spawnAgent(world, { x: 7.8, y: 5.3, radius: 0.5, maxSpeed: 2 });
    expect(setNavGoal(world, eid, 18, 5)).toBe('found');
    const nav = corridorComponent(world);
    for (let f = 0; f < 60 * 30 && nav.state[eid] !== NAV_ARRIVED; f++) step(world, 1 / 60);
    // measured before the fix: state NAV_REPLAN after 30 s, 1,800 re-plans, the agent never moved
    expect(nav.state[eid]).toBe(NAV_ARRIVED);
    expect(nav.replans[eid]).toBeLessThanOrEqual(1);
  });
});

describe('fuzz findings: arrival under LOD staggering and map changes (fixed 2026-11-30, kept as regression tests)', () => {
  const rect = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  // Hand: the arrival ramp gives speed vmax·d/arrivalSlowdown, held for `interval` frames of dt until the funnel runs
  // again, so the agent covers g·d with g = vmax·dt·interval/arrivalSlowdown. For g > 2 it lands farther beyond the
  // goal than it started before it, and swings about the goal for good (once d > arrivalSlowdown at full speed).
  const arrive = (lod: boolean, maxSpeed: number): { state: number; d: number } => {
    const world = createCrowd({ maxAgents: 4 });
    const en = world.enabled;
    en.orca = false; en.boids = false; en.steering = false; en.contacts = false; en.navigation = false;
    setNavmesh(world, buildNavmesh({ boundary: rect(0, 0, 10, 10) }), { arrivalSlowdown: 0.2, arriveDistance: 0.01 });
    // the focus 1 km away: every agent is in the far tier, its funnel updated one frame in 2
    if (lod) enableLod(world, { nearRadius: 1, midRadius: 1, hysteresis: 0, farInterval: 2, focus: [1000, 1000] });
    else en.lod = false;
    const eid = spawnAgent(world, { x: 2.03, y: 5.01, radius: 0.3, maxSpeed });
    expect(setNavGoal(world, eid, 8, 5)).toBe('found');
    const nav = corridorComponent(world);
    for (let f = 0; f < 600 && nav.state[eid] !== NAV_ARRIVED; f++) step(world, 0.1);
    return { state: nav.state[eid], d: Math.hypot(world.position.x[eid] - 8, world.position.y[eid] - 5) };
  };
  it('a far-tier agent (funnel every 2nd frame) arrives: g = 2.04, it swung 0.2 m about its goal for good (funnel map-change property, quick run\'s first case)', () => {
    const r = arrive(true, 2.0404920070432127);
    expect(r.state).toBe(NAV_ARRIVED);
    expect(r.d).toBeLessThanOrEqual(0.01);
  });
  it('without LOD, a fast agent whose step exceeds twice the slowdown distance arrives too (g = 2.5; it never did before the fix)', () => {
    const r = arrive(false, 5);
    expect(r.state).toBe(NAV_ARRIVED);
    expect(r.d).toBeLessThanOrEqual(0.01);
  });
});

describe('fuzz findings: search and re-plans under closed triangles (fixed 2026-11-30, kept as regression tests)', () => {
  it('findNavPath: a vertex split into two wedges by a closed triangle keeps each wedge\'s own cheapest arrival (root pruning across wedges lost the only path)', () => {
    // The map of the funnel map-change property's counterexample: a 3 m room with two small triangles near its
    // bottom corners. Closing the big triangle (-97, -97), (-99.16, -99.43), (-97.44, -99.34) leaves one way from
    // the start (upper left) to the goal (upper right): down the left, under both obstacles, up the right. Its
    // vertex (-97.44, -99.34) (an obstacle's corner) then meets free space in two wedges; the search reached it
    // first, more cheaply, in the wedge above the obstacle, pruned the later arrival in the wedge that leads on to
    // the goal, and reported 'unreachable'.
    const mesh = buildNavmesh({ boundary: [[-100, -100], [-97, -100], [-97, -97], [-100, -97]], obstacles: [
      [[-99.15525051054337, -99.4267212338836], [-99.56691306063588, -99.42568551745227], [-99.53182755219626, -99.59795513342303]],
      [[-97.4361254777332, -99.33754553306049], [-97.56691306063588, -99.42568551745227], [-97.53736966576156, -99.61501200510409]]] });
    const shut = locateTriangle(mesh, -97.86, -98.59);
    const V = mesh.vertices, T = mesh.triangles;
    const corners = [0, 1, 2].map((k) => [V[2 * T[3 * shut + k]], V[2 * T[3 * shut + k] + 1]].join());
    expect(corners.sort()).toEqual(['-97,-97', '-97.4361254777332,-99.33754553306049', '-99.15525051054337,-99.4267212338836'].sort());
    const q = createNavQuery(mesh), res = createNavPathResult();
    q.blocked = new Uint8Array(mesh.triangleCount);
    q.blocked[shut] = 1;
    const s = [-99.60311855521367, -98.99856461499616], g = [-97.04187059099786, -97.40921147470362];
    // breadth-first search over open triangles (hand oracle): connected
    const from = locateTriangle(mesh, s[0], s[1]), to = locateTriangle(mesh, g[0], g[1]);
    const seen = new Set([from]), queue = [from];
    for (let i = 0; i < queue.length; i++) for (let k = 0; k < 3; k++) { const u = mesh.neighbours[3 * queue[i] + k]; if (u >= 0 && u !== shut && !seen.has(u)) { seen.add(u); queue.push(u); } }
    expect(seen.has(to)).toBe(true);
    expect(findNavPath(q, s[0], s[1], g[0], g[1], res)).toBe('found'); // before the fix: 'unreachable'
    const cor = Array.from(res.corridor.subarray(0, res.corridorLength));
    expect(cor).not.toContain(shut);
    const portals = new Float64Array(4 * (res.corridorLength + 1)), out = new Float64Array(2 * (res.corridorLength + 2));
    const n = funnel(portals, corridorPortals(mesh, res.corridor, res.corridorLength, s[0], s[1], g[0], g[1], portals), 0, out);
    expect(Math.abs(polylineLength(out, n) - res.length)).toBeLessThan(1e-9); // the corridor holds a path of that length
    expect(res.length).toBeGreaterThan(Math.hypot(g[0] - s[0], g[1] - s[1])); // around, not through, the closed triangle
  });
  it('findNavPath: the same at a pinch (two obstacles touching tip to tip), without closed triangles: the shortest path bends there in the other wedge', () => {
    // Hand: a thin triangle pointing right with its tip at P = (5, 5), and a tall one pointing down onto P. From
    // S = (4, 5.5), above the thin one, to G = (5.6, 6), right of the tall one, the pinch is closed (docs/NAVMESH.md):
    // the shortest way is round the thin triangle's left end and back along its lower edge to P, bending there in
    // the lower wedge: |S − (2, 5.1)| + 0.2 + |(2, 4.9) − P| + |P − G|. The search reached P first, cheaply, in
    // the upper wedge (straight from S) and pruned the arrival from below: 29.36 m round the tall one's top.
    const mesh = buildNavmesh({ boundary: [[0, 0], [10, 0], [10, 25], [0, 25]], obstacles: [[[2, 4.9], [5, 5], [2, 5.1]], [[5, 5], [6, 20], [5.2, 20]]] });
    const res = createNavPathResult();
    expect(findNavPath(createNavQuery(mesh), 4, 5.5, 5.6, 6, res)).toBe('found');
    const hand = Math.hypot(2, 0.4) + 0.2 + Math.hypot(3, 0.1) + Math.hypot(0.6, 1);
    expect(Math.abs(res.length - hand)).toBeLessThan(1e-9);
  });
  // The two funnel-system counterexamples, replayed through the property (exact inputs; a later change to the
  // property's random stream would turn these into ordinary cases, so each also states what it once did).
  it('funnel system: a far agent (LOD interval 2) no longer passes a stand-in goal by two steps into a closed triangle (it stopped there, NAV_UNREACHABLE, though its goal was reachable)', () => {
    expect(() => funnelMapRun({"map":{"w":9.741793155670166,"h":3,"ox":-100,"oy":-100,"cells":[5,4,1,0,2,3],"kinds":[{"verts":3,"box":false,"angles":[0.6466037772595883,0.2205743804574013,0.11756960973143578,0.1,0.1,0.1,0.1],"radii":[0.8739918726496398,0.509833186166361,0.7775457901880145,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.3929898329079151,0.1,0.1,0.1,0.1],"radii":[0.25,0.2500000062864274,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":true,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.27070153155364096,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":4,"box":false,"angles":[0.1,0.24370271936059,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.9389070242177695,0.25,0.25,0.25,0.25,0.25]}],"wall":false,"wallA":0.3,"wallB":0.55,"rf":0.5208966447040438,"pts":[[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0]],"look":0,"edgeStart":null},"cells2":[],"wall2":false,"inflated":true,"agents":3,"frames":62,"seed":2147483638,"closeP":0.19945910423994065,"openP":0,"goalP":0.02334962817840278,"pushP":0.09986901711672545,"replaceAt":null,"replaceTwice":false,"lod":{"interval":2,"near":0,"mid":0,"fx":0,"fy":0},"maxCornerPortals":3,"maxReplansPerFrame":1,"maxExp":1,"shortcutInterval":0,"lookahead":0.2,"arrivalSlowdown":0.2,"arriveDistance":0.01,"minTurnSpeed":0.2,"dt":0.016666666666666666,"maxSpeed":2.054613832850009})).not.toThrow();
  });
  it('LOD: an agent leaving the mid tier for the far one (interval 8) is updated on that frame: it kept a one-frame velocity for 8 frames, passed its goal and walked through a wall (then NAV_UNREACHABLE)', () => {
    expect(() => funnelMapRun({"map":{"w":3,"h":3,"ox":-100,"oy":-100,"cells":[0,2,8],"kinds":[{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.6964629399590194,0.7405529799871147,0.25,0.25,0.25,0.25,0.25]},{"verts":5,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.3249248245265335,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.2626846805214882,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]}],"wall":true,"wallA":0.3282884341198951,"wallB":0.55,"rf":0.05,"pts":[[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0]],"look":0,"edgeStart":null},"cells2":[],"wall2":false,"inflated":false,"agents":4,"frames":11,"seed":477338125,"closeP":0,"openP":0,"goalP":0.04070024848915636,"pushP":0.05622962098568678,"replaceAt":null,"replaceTwice":false,"lod":{"interval":8,"near":0,"mid":0.44986189901828766,"fx":0.7217269251123071,"fy":2.7939677238464355e-9},"maxCornerPortals":3,"maxReplansPerFrame":1,"maxExp":1,"shortcutInterval":0,"lookahead":0.2,"arrivalSlowdown":0.2,"arriveDistance":0.01,"minTurnSpeed":0.2,"dt":0.1,"maxSpeed":1.2751723635010421})).not.toThrow();
  });
  it('funnel system: a sliced re-plan that fails after its agent was moved to another triangle starts again from there (the agent was declared NAV_UNREACHABLE from its old position)', () => {
    expect(() => funnelMapRun({"map":{"w":7.8336204551160336,"h":3,"ox":-100,"oy":-100,"cells":[6,3,1,0,2],"kinds":[{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.6656349301338196,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":true,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":5,"box":false,"angles":[0.1,0.1,0.1676268421113491,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.288391110021621,0.8322434911970049,0.6391048871446401,0.25,0.25]},{"verts":3,"box":true,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.6243019544053823,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]}],"wall":false,"wallA":0.3,"wallB":0.55,"rf":0.5208968234248459,"pts":[[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0]],"look":0,"edgeStart":null},"cells2":[],"wall2":false,"inflated":true,"agents":3,"frames":61,"seed":2147483638,"closeP":0.21943838074803354,"openP":0,"goalP":0.024509732192382217,"pushP":0.09986901711672545,"replaceAt":16,"replaceTwice":false,"lod":null,"maxCornerPortals":3,"maxReplansPerFrame":1,"maxExp":1,"shortcutInterval":0,"lookahead":0.2,"arrivalSlowdown":0.2,"arriveDistance":0.01,"minTurnSpeed":0.2,"dt":0.016666666666666666,"maxSpeed":0.5})).not.toThrow();
  });
});

describe('fuzz findings: the formation anchor circling a waypoint (fixed 2026-11-30)', () => {
  // Fixed by v ≤ ω_cap·d/(2·|sin α|) while the turn limit cuts a turn short (src/formation/anchor.ts). The formation
  // system now calls advanceAnchor's pieces directly, so they still inline (test/world/allocation.test.ts).
  it('advanceAnchor reaches a waypoint inside its turning circle: it slows so the circle tangent to its heading through the waypoint is one it can turn (formation system property)', () => {
    // Hand: heading +x at the origin, the waypoint (0, 2) straight to the left. At 1 m/s and 0.2 rad/s the anchor's
    // tightest circle has radius 5 m, centred at (0, 5): the waypoint, 3 m from that centre, lies inside it, and
    // turning at the limit toward it only ever runs round that circle (measured before the fix: 100,000 steps of
    // 1/30 s, never closer than 2 m, as the last waypoint and as an intermediate one of radius 1). The circle through
    // the waypoint tangent to the heading has curvature 2·sin α / d; at v ≤ ω·d / (2·sin α) the turn can follow it.
    const p = { cruiseSpeed: 1, maxTurnRate: 0.2, memberMaxSpeed: 1, extent: 0, margin: 1, waypointRadius: 1, arriveGain: 1 };
    for (const path of [new Float64Array([0, 2]), new Float64Array([0, 2, 30, 2])]) {
      const st = createAnchorState(0, 0, 1, 0);
      const n = path.length / 2;
      let k = 0;
      while (k < 100000 && advanceAnchor(st, path, n, p, 1, 1 / 30)) k++;
      expect(st.waypoint).toBe(n); // finished
      expect(k).toBeLessThan(3000); // measured with the fix: 482 and 1,460 steps
      expect(Math.hypot(st.x - path[2 * n - 2], st.y - path[2 * n - 1])).toBeLessThanOrEqual(0.05 + 1e-9);
    }
  });
});

describe('fuzz findings: grid navigation in the full pipeline (2026-11-30)', () => {
  // Found by the 'grid navigation in the full pipeline' property: a flow agent in a walkable cell that its goal's
  // field cannot reach headed for a diagonal neighbour through the point where two blocked cells touch (a move the
  // field itself forbids without corner cutting), so it walked through the wall corner without contacts, and with
  // them (the wall edges as obstacles) pressed into the corner for good with status 'moving', never 'unreachable'.
  it('a flow agent cut off from its goal except across a blocked corner stops as unreachable (hand: 2 × 2 grid, the goal diagonally across two blocked cells)', () => {
    for (const conn of [4, 8] as const) {
      const world = createCrowd({ maxAgents: 4, seed: 1 });
      // row 0: walkable, blocked; row 1: blocked, walkable
      setNavigationGrid(world, createGrid(2, 2, { walkable: [1, 0, 0, 1] }), { connectivity: conn, cornerCutting: false });
      const e = spawnAgent(world, { x: 0.5, y: 0.5, radius: 0.2, maxSpeed: 1 });
      setAgentGoal(world, e, 1.5, 1.5, { mode: 'flow' });
      for (let i = 0; i < 60; i++) step(world, 1 / 30);
      expect(navigationStatus(world, e)).toBe('unreachable');
      expect(world.preferredVelocity.x[e]).toBe(0);
      expect(world.preferredVelocity.y[e]).toBe(0);
      expect(world.position.x[e]).toBeLessThan(1); // still in its own cell: it did not pass the corner at (1, 1)
      expect(world.position.y[e]).toBeLessThan(1);
    }
  });
  it('the same corner with corner cutting on is a legal move: the agent arrives', () => {
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    setNavigationGrid(world, createGrid(2, 2, { walkable: [1, 0, 0, 1] }), { connectivity: 8, cornerCutting: true });
    const e = spawnAgent(world, { x: 0.5, y: 0.5, radius: 0.2, maxSpeed: 1 });
    world.enabled.contacts = false; // the corner is a wall for bodies; the grid rule allows the move
    setAgentGoal(world, e, 1.5, 1.5, { mode: 'flow' });
    for (let i = 0; i < 200 && navigationStatus(world, e) !== 'arrived'; i++) step(world, 1 / 30);
    expect(navigationStatus(world, e)).toBe('arrived');
  });
});

describe('fuzz findings: grid paths under LOD staggering (2026-11-30)', () => {
  // Found by the 'grid navigation in the full pipeline' property. A path agent advances to its next waypoint only
  // when an update finds it in the waypoint's cell; a far agent (updated one frame in 3) moving 0.57 m per update
  // through 0.5 m cells crossed the waypoint's cell between updates, was sent back to it, crossed it again, and
  // swung about it for good. The speed toward a waypoint is now capped so it is not passed before the next update.
  it('a far agent (interval 3) walking a 0.5 m corridor at 1.9 m/s, dt 0.1 s, reaches its goal from every start in its cell', () => {
    for (const x0 of [0.05, 0.1, 0.2, 0.3, 0.4, 0.45]) {
      const world = createCrowd({ maxAgents: 4, seed: 1 });
      setNavigationGrid(world, createGrid(8, 1, { cellSize: 0.5 }));
      enableLod(world, { nearRadius: 0.001, midRadius: 0.001, hysteresis: 0, farInterval: 3, focus: [-100, -100] });
      const e = spawnAgent(world, { x: x0, y: 0.25, radius: 0.1, maxSpeed: 1.9 });
      setAgentGoal(world, e, 3.75, 0.25);
      let i = 0;
      for (; i < 300 && navigationStatus(world, e) !== 'arrived'; i++) step(world, 0.1);
      // measured before the fix: from 0.1 and 0.4 still 'moving' after 300 steps, swinging about x = 0.86 and 2.68
      expect(navigationStatus(world, e)).toBe('arrived');
      expect(i).toBeLessThan(60); // 3.7 m at 1.9 m/s is 20 steps; with the cap measured 24–27
    }
  });
  it('the property\'s counterexample: a far path agent in the full pipeline reaches its goal round a corner', () => {
    expect(gridNavRun({"w":7,"h":3,"cs":0.5,"ox":-50,"oy":-50,"blocked":[false,false,false,false,true,true,true,true,true,false,false,true,true,true,false,true,true,false,false,true,true],"costs":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"uniform":false,"conn":4,"agents":[{"flow":false,"rk":0.1,"speed":1.9032772975042462,"sx":0.4444444449618459,"sy":0.31634757202118635,"gx":0,"gy":0}],"group":false,"wide":true,"frames":10,"seed":29,"goalP":0,"pushP":0,"blockP":0,"maxExp":1,"dt":0.1,"lod":{"interval":3,"near":0,"mid":0,"hyst":0,"fx":0,"fy":0},"timeHorizon":0.5,"obstacleTimeHorizon":0.2,"arriveK":null,"slowK":null}, true)).toMatch(/\//);
  });
});

describe('fuzz findings: flow agents under LOD staggering (2026-11-30)', () => {
  // Found by the 'grid navigation in the full pipeline' property: a far flow agent (updated one frame in 3) kept its
  // sampled direction for 0.57 m through 0.5 m cells and walked its centre into a blocked cell between the frames
  // contacts ran for it (it then stayed inside: a centre deeper than its radius is projected out on the far side).
  // The speed is now capped so the straight line to the next update stays in walkable cells.
  it('a far flow agent (interval 3, 2.5 m/s, dt 0.1 s) rounds an L-shaped corridor of 0.5 m cells without its centre entering a blocked cell', () => {
    // walkable: the bottom row up to column 3 and column 3 upward (an L); everything else blocked. Measured before
    // the fix: the centre went 7.8 cm (from x = 0.1) and 3 cm (from x = 0.25) into the blocked cell (4, 0).
    const W = 6, H = 4, walkable: number[] = [];
    for (let j = 0; j < H; j++) for (let i = 0; i < W; i++) walkable.push((j === 0 && i <= 3) || i === 3 ? 1 : 0);
    for (const x0 of [0.1, 0.25]) {
      const world = createCrowd({ maxAgents: 4, seed: 1, cellSize: 0.5 });
      setNavigationGrid(world, createGrid(W, H, { cellSize: 0.5, walkable }));
      enableLod(world, { nearRadius: 0.001, midRadius: 0.001, hysteresis: 0, farInterval: 3, focus: [-100, -100] });
      const e = spawnAgent(world, { x: x0, y: 0.25, radius: 0.1, maxSpeed: 2.5 });
      setAgentGoal(world, e, 1.75, 1.75, { mode: 'flow' });
      let deepest = 0;
      for (let i = 0; i < 300 && navigationStatus(world, e) !== 'arrived'; i++) {
        step(world, 0.1);
        const x = world.position.x[e], y = world.position.y[e];
        const cx = Math.floor(x / 0.5), cy = Math.floor(y / 0.5);
        if (!(cx >= 0 && cy >= 0 && cx < W && cy < H && walkable[cy * W + cx] === 1)) {
          // depth: distance to the walkable L (the row y ∈ [0, 0.5], x ∈ [0, 2]; the column x ∈ [1.5, 2], y ∈ [0, 2])
          const toRow = Math.hypot(Math.max(0, y - 0.5, -y), Math.max(0, x - 2, -x));
          const toCol = Math.hypot(Math.max(0, 1.5 - x, x - 2), Math.max(0, y - 2, -y));
          deepest = Math.max(deepest, Math.min(toRow, toCol));
        }
      }
      expect(navigationStatus(world, e)).toBe('arrived');
      expect(deepest).toBeLessThanOrEqual(1e-3); // the contacts slop
    }
  });
  it('the property\'s counterexample: a far flow agent next to the grid\'s edge stays on the grid', () => {
    expect(gridNavRun({"w":7,"h":3,"cs":0.5,"ox":-50,"oy":-50,"blocked":[false,false,false,false,true,true,true,true,true,false,false,false,false,false,false,true,true,true,true,false,true],"costs":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"uniform":false,"conn":4,"agents":[{"flow":true,"rk":0.1,"speed":1.905195645056665,"sx":0,"sy":0.5928328698500991,"gx":0.36363636422902346,"gy":0},{"flow":false,"rk":0.1,"speed":0.5,"sx":0,"sy":0,"gx":0,"gy":0}],"group":false,"wide":true,"frames":10,"seed":0,"goalP":0,"pushP":0,"blockP":0,"maxExp":1,"dt":0.1,"lod":{"interval":3,"near":0,"mid":0,"hyst":0,"fx":0,"fy":0},"timeHorizon":0.5,"obstacleTimeHorizon":0.2,"arriveK":null,"slowK":0}, true)).toMatch(/\//);
  });
});

describe('fuzz findings: grid edits next to a diagonal path step (2026-11-30)', () => {
  // Found by the 'grid navigation in the full pipeline' property: a cell blocked beside a diagonal step of an agent's
  // path (not on it) made that step cut a corner the rule forbids, but only blocked path cells triggered a re-plan;
  // the agent walked into the point where the two blocked cells touch and stayed there, 'moving', for good.
  it('blocking a side cell of a diagonal path step re-plans the path round it', () => {
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    const grid = createGrid(4, 3);
    setNavigationGrid(world, grid, { connectivity: 8, cornerCutting: false });
    world.enabled.contacts = false;
    const e = spawnAgent(world, { x: 0.5, y: 0.5, radius: 0.2, maxSpeed: 1 });
    setAgentGoal(world, e, 3.5, 2.5);
    step(world, 1 / 30);
    const path = Array.from(agentPathCells(world, e));
    const k = path.findIndex((c, i) => i > 0 && c % 4 !== path[i - 1] % 4 && Math.floor(c / 4) !== Math.floor(path[i - 1] / 4));
    expect(k).toBeGreaterThan(0); // the shortest path from (0, 0) to (3, 2) has diagonal steps
    const a = path[k - 1], b = path[k];
    const side = [Math.floor(a / 4) * 4 + (b % 4), Math.floor(b / 4) * 4 + (a % 4)].find((c) => !path.includes(c))!;
    setBlocked(grid, side % 4, Math.floor(side / 4), true);
    for (let i = 0; i < 3; i++) step(world, 1 / 30);
    const now = Array.from(agentPathCells(world, e));
    for (let i = 1; i < now.length; i++) {
      const p = now[i - 1], q = now[i];
      if (p % 4 !== q % 4 && Math.floor(p / 4) !== Math.floor(q / 4)) {
        expect(grid.walkable[Math.floor(p / 4) * 4 + (q % 4)]).toBe(1); // measured before the fix: the old path, through the blocked corner
        expect(grid.walkable[Math.floor(q / 4) * 4 + (p % 4)]).toBe(1);
      }
    }
    for (let i = 0; i < 600 && navigationStatus(world, e) !== 'arrived'; i++) step(world, 1 / 30);
    expect(navigationStatus(world, e)).toBe('arrived');
  });
});

describe('fuzz findings: flow agents passing the goal cell under LOD staggering (2026-11-30)', () => {
  // Found by the 'grid navigation in the full pipeline' property (long run, seed 711246703): arrive() caps a flow
  // agent's speed toward its goal point only once it is in the goal cell; a far agent (interval 8, dt 0.1 s) crossed
  // the whole goal cell between updates, was sent back across it, and swung about it for good. The speed toward the
  // goal point is now capped from outside the goal cell too.
  it('a far flow agent (interval 8) in a 0.5 m corridor reaches its goal from every start and speed', () => {
    for (const x0 of [0.1, 0.2, 0.3, 0.4]) for (const sp of [1.2, 1.7, 2.5]) {
      const world = createCrowd({ maxAgents: 4, seed: 1, cellSize: 0.5 });
      setNavigationGrid(world, createGrid(12, 1, { cellSize: 0.5 }));
      enableLod(world, { nearRadius: 0.001, midRadius: 0.001, hysteresis: 0, farInterval: 8, focus: [-100, -100] });
      const e = spawnAgent(world, { x: x0, y: 0.25, radius: 0.1, maxSpeed: sp });
      setAgentGoal(world, e, 3.25, 0.25, { mode: 'flow' });
      let i = 0;
      for (; i < 600 && navigationStatus(world, e) !== 'arrived'; i++) step(world, 0.1);
      // measured before the fix: 6 of these 12 still 'moving' after 600 steps (x0 0.3 and 0.4 at 1.7 m/s, all at 2.5)
      expect(navigationStatus(world, e)).toBe('arrived');
    }
  });
});

describe('fuzz findings: a flow agent beside a wall on a ridge of its field (fixed 2026-12-02)', () => {
  // Found by the long run of 'grid navigation in the full pipeline' (seed 875748568, shrunk; also on older
  // commits). Agent 1, a flow agent (conn 4, 1 m cells, radius 0.1 m), ends the disturbed phase in cell (7, 2), 0.1 m
  // from the east face of (6, 2), blocked mid-run, and 5–45 mm below row 1. Its own cell's move is east (a tie with
  // north: both ways round the walls cost 14); the cells above it, (6, 1) and (7, 1), point west, and (6, 2) weighs
  // nothing in the bilinear blend, so the sampled direction is pure west, straight into that face: ORCA's obstacle
  // line cancelled the whole velocity and it stood there, 'moving', for good. Failed before the fix with: "agent 1:
  // reachable goal (-49.48318024355583, -42.480193093838544) not reached after 17605 calm frames, bound
  // 586.4995564970172 s (status 1, at (-42.89999999999999, -47.99511101198413), 8.587932333398252 m away, mode 1,
  // tier 2)". Fixed in systems/navigation.ts (flowVelocity: a blend that does not agree with the own cell's move
  // is replaced by that move); the mechanism on a hand-made map in test/grid/flow-wall-blend.test.ts.
  it('the property\'s counterexample: a flow agent pressed into a wall\'s face by its blended direction reaches its goal (before: 8.6 m short after 17,605 calm frames)', () => {
    expect(gridNavRun({"w":13,"h":8,"cs":1,"ox":-50,"oy":-50,"blocked":[false,true,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,true,false,true,false,false,false,true,false,false,false,true,true,false,false,false,false,true,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,true,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false],"costs":[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],"uniform":false,"conn":4,"agents":[{"flow":true,"rk":0.1,"speed":0.5,"sx":0.19791666697710752,"sy":0,"gx":0.9375,"gy":0},{"flow":false,"rk":0.1,"speed":0.5,"sx":0,"sy":0,"gx":0,"gy":0}],"group":false,"wide":false,"frames":58,"seed":20,"goalP":0.0204143971670419,"pushP":0,"blockP":0.10314440093934536,"maxExp":1,"dt":0.03333333333333333,"lod":{"interval":1,"near":0,"mid":0,"hyst":0,"fx":0,"fy":0},"timeHorizon":0.5,"obstacleTimeHorizon":0.2,"arriveK":null,"slowK":2.236334259621799,"smooth":false}, true)).toMatch(/\//);
  });
});

describe('fuzz findings: contacts and LOD (2026-11-30, fixed 2026-12-01)', () => {
  // Found by the long run of 'grid navigation in the full pipeline' (seed 711246703, first failing case, not shrunk).
  // A far agent skipped by the contacts pass this frame (LOD) was still moved when a neighbour that runs contacts
  // resolved their overlap, but it was not projected out of the walls (only agents the pass ran for were checked
  // against obstacle segments); the push, 4 mm toward the grid's edge, carried its straight line between updates
  // 4 mm off the grid. Every agent is now kept out of walls in every frame, whatever its tier (systems/contacts.ts);
  // this failed before the fix (it was pinned as it.fails) and passes after it.
  it('contacts + LOD: a far agent pushed by a neighbour on a frame it skips contacts keeps its centre on the grid', () => {
    expect(gridNavRun({"w":4,"h":14,"cs":0.5,"ox":7.773143332451582,"oy":-36.957426089793444,"blocked":[false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,true,false,false,false,false,false,false,false,false,false,true,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false,false],"costs":[1.5,7.25,2,1,1.5,3,1,1,1.5,1,2,1,1,1,1.5,2,1,1,3,1,1,2,7.25,7.25,1.5,2,1,3,3,1,7.25,7.25,3,1,2,7.25,1,3,7.25,1.5,1,2,1,2,1,1,1,1.5,1,1,3,3,7.25,3,1,1],"uniform":false,"conn":8,"agents":[{"flow":true,"rk":0.2648651170544326,"speed":1.735119013581425,"sx":0.15736272279173136,"sy":0.9355655331164598,"gx":0.07908900268375874,"gy":0.09799741581082344},{"flow":true,"rk":0.29842932932078836,"speed":2.476924599148333,"sx":0.8571123983711004,"sy":0.9470940930768847,"gx":0.0862064715474844,"gy":0.09901992417871952},{"flow":false,"rk":0.33431302374228833,"speed":2.004856930114329,"sx":0.9498738255351782,"sy":0.8127838354557753,"gx":0.38536252453923225,"gy":0.1214853310957551},{"flow":false,"rk":0.19411573177203534,"speed":2.199828887358308,"sx":0.21654480043798685,"sy":0.10054362006485462,"gx":0.05169142875820398,"gy":0.12986356485635042}],"group":false,"wide":false,"frames":74,"seed":897029328,"goalP":0.030127682397142055,"pushP":7.543712854385375e-10,"blockP":0.03214620500802994,"maxExp":8192,"dt":0.1,"lod":{"interval":8,"near":0.09150400571525097,"mid":0.10990795781835913,"hyst":0.1,"fx":1.5832483768463135e-8,"fy":0.37696471251547337},"timeHorizon":2.7512206146493554,"obstacleTimeHorizon":0.5296724306419491,"arriveK":null,"slowK":1.0553386565297842}, true)).toMatch(/\//);
  });
});

/**
 * The corner-next-to-a-parked-agent case below: an agent rounds an obstacle corner next to which an arrived agent
 * stands (yielding as its ORCA params say). Returns both agents' corridor states after at most 60 s, and how far
 * the parked agent was moved from its spot at most.
 */
function cornerNextToParked(parkedYields: boolean): { mover: number; parked: number; parkedMoved: number; radius: number } {
  const rect = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
  const boundary = rect(-2, -3, 3, 12), obstacles = [rect(-0.352, 0, 0, 0.17), rect(0.541, -0.0067, 1.107, 0.177)];
  const radius = 0.0317, r = radius / 2, vmax = 0.578;
  const world = createCrowd({ maxAgents: 4, seed: 1 });
  world.enabled.navigation = false; world.enabled.steering = false; world.enabled.boids = false;
  for (const o of obstacles) addObstacle(world, o);
  addObstacle(world, [...boundary, boundary[0]], { closed: false });
  setNavmesh(world, buildNavmesh({ boundary, obstacles }, { radius }), { lookahead: 0.55, arrivalSlowdown: 1.31, arriveDistance: 0.2, minTurnSpeed: 1 });
  const nav = corridorComponent(world);
  // Parked just below the gap's left corner (the mesh vertex (0, −0.0343)), arrived on the spot.
  const px = 0.0277, py = -0.05;
  const parked = spawnAgent(world, { x: px, y: py, radius: r, maxSpeed: vmax });
  enableOrca(world, parked, { timeHorizon: 0.68, obstacleTimeHorizon: 1.12, yieldWhenIdle: parkedYields });
  setNavGoal(world, parked, px, py);
  // From under the left box, to a goal beyond the gap (the taut path bends at that corner).
  const e = spawnAgent(world, { x: -0.084, y: -0.093, radius: r, maxSpeed: vmax });
  enableOrca(world, e, { timeHorizon: 0.68, obstacleTimeHorizon: 1.12 });
  expect(setNavGoal(world, e, -0.268, 10.63)).toBe('found');
  let parkedMoved = 0;
  for (let f = 0; f < 60 * 60 && nav.state[e] !== NAV_ARRIVED; f++) {
    step(world, 1 / 60);
    parkedMoved = Math.max(parkedMoved, Math.hypot(world.position.x[parked] - px, world.position.y[parked] - py));
  }
  return { mover: nav.state[e], parked: nav.state[parked], parkedMoved, radius: r };
}

describe('fuzz findings: open (2026-11-30)', () => {
  // Open defect (docs/RELIABILITY.md), found by the long run of 'funnel system in the full pipeline' after the
  // stand-in fix (clock seed 867308320, failed in seed 867308326 after 314 cases; present on the old code too, with
  // the default maxCornerPortals 128). An agent rounding the corner of an obstacle (a vertex of the inflated mesh)
  // next to which an arrived agent stands: the funnel steers it at the vertex itself, which lies 0.07 mm outside
  // the parked agent's body plus its own, and ORCA's reciprocal half-plane keeps it a fraction of a millimetre back:
  // it stands 0.6 mm from the vertex for good, though the gap between the corner and the parked body is 4 cm for a
  // 3.2 cm body. Hand-made here (the fuzz map's two boxes and the parked agent, moved to the origin).
  // Found before idle agents yielded: since they do (docs/ORCA.md), the arrived agent steps aside and the mover gets
  // past (next test), so the defect is pinned with a parked agent that holds its ground (yieldWhenIdle: false, the
  // same as any unit standing there on an order of its own): it is still there (measured 2026-12-02 after merging
  // main into 'yield': the mover stands at (−0.0006, −0.0340) after 60 s).
  it.fails('funnel + ORCA: an agent rounding an obstacle corner next to a parked agent that does not yield reaches its goal (it stands 0.6 mm from the corner for good)', () => {
    const r = cornerNextToParked(false);
    expect(r.parked).toBe(NAV_ARRIVED);
    expect(r.mover).toBe(NAV_ARRIVED); // 10.7 m of path at 0.578 m/s: about 21 s (from (-0.2, -0.05): 1,252 frames)
  });
});

describe('fuzz findings: open (2026-12-02)', () => {
  // Open defect (docs/RELIABILITY.md), found by the long run of 'funnel system in the full pipeline' on main after
  // the stand-in change of 2026-12-02 (seed 20261202, failed in seed 20261350 after about 7,450 cases; shrunk). It
  // came with that change: the same seed holds on 45785c6, the commit before it, and fails identically on 69ad617,
  // the merge of the change. One far agent (LOD interval 1), maxCornerPortals 3, its corridor planned while
  // triangles were closed: in the calm phase it goes back and forth by 1.7 cm next to the corner it is steered at
  // (0.9 cm from it) for good. Heading for the corner it steps out of its corridor's first triangle into a
  // neighbour (the corridor gains that triangle), from there the pull sends it back (preferred velocity
  // (-0.70, -2.07) against (1.08, -0.45) toward the corner), and back in the first triangle it heads for the
  // corner again. 3.93 m short of its goal after 5,151 calm frames (bound 77.5 s).
  it.fails('funnel + ORCA: a far agent on a truncated detour next to an obstacle corner reaches its goal (it goes back and forth 1.7 cm by the corner for good)', () => {
    funnelFullRun({"map":{"w":8.851263019256294,"h":3,"ox":-100,"oy":-100,"cells":[0,5,1,4],"kinds":[{"verts":3,"box":false,"angles":[0.1,0.1,0.36487655416131026,0.10187163800001145,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.42023485004901884,0.1,0.1,0.1,0.1,0.1],"radii":[0.49839986441656947,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":4,"box":false,"angles":[0.1,0.11611231565475465,0.12263665571808816,0.4287366345524788,0.1,0.1,0.1],"radii":[0.6027650299947709,0.9999999783467501,0.6312760226428509,0.6111773063894361,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]}],"wall":false,"wallA":0.3,"wallB":0.55,"rf":0.21110582854598758,"pts":[[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0]],"look":0,"edgeStart":null},"agents":1,"frames":41,"seed":169413954,"closeP":0.07946975184604525,"openP":0.13350110901519655,"goalP":0.0576454627327621,"pushP":0,"spawnP":0,"lod":{"interval":1,"near":0,"mid":0,"hyst":0,"fx":0,"fy":0},"maxCornerPortals":3,"maxReplansPerFrame":1,"maxExp":16384,"shortcutInterval":0,"lookahead":0.2,"arrivalSlowdown":0.2,"arriveDistance":0.01,"minTurnSpeed":0.2,"dt":0.016666666666666666,"maxSpeed":2.1805698722600937,"timeHorizon":0.5,"obstacleTimeHorizon":1.9849270783364772,"radiusK":0.9162041298113763}, true);
  });
});

describe('idle agents yield at the corner of the open corner defect (2026-12-02)', () => {
  // The open defect's case above with the parked (arrived, idle) agent yielding, the default: it steps aside for the
  // mover (1.2 cm, measured; a loose bound here: less than its own width), stays arrived, and the mover reaches its
  // goal (in 1,247 frames). Seen when the pinned it.fails above, written before idle agents yielded, started to
  // pass after merging main into 'yield': with yielding the defect is avoided, not fixed.
  it('an agent rounding an obstacle corner next to a parked agent that yields reaches its goal', () => {
    const r = cornerNextToParked(true);
    expect(r.parked).toBe(NAV_ARRIVED);
    expect(r.mover).toBe(NAV_ARRIVED);
    expect(r.parkedMoved).toBeGreaterThan(0);
    expect(r.parkedMoved).toBeLessThan(2 * r.radius);
  });
});

describe('fuzz findings: funnel + ORCA at a truncated corridor turning round an obstacle corner (fixed 2026-12-02)', () => {
  // Found by the long run of 'funnel system in the full pipeline' (seed 20261231, the 28th case, not shrunk; the
  // same state, bit for bit, on main and on the walls branch). Agent 3's goal was set while 13 triangles were
  // closed: its corridor went 18 m west, round the bottom-right corner of a box and back east, and stayed so when
  // they reopened. Round that corner the corridor's triangles fan about one mesh vertex; with maxCornerPortals 3
  // the stand-in goal (the portal's point nearest the goal, clamped to its ends) was that vertex, and from the fan's
  // top triangle the far end of a 19 m portal to the east. Aiming at a portal's end, the agent never had to cross
  // the portal: ORCA's obstacle line held it back as it neared the box, its jitter took it through the fan's
  // triangles in turn, and it stood within 2 cm of the vertex, 22.8 m from its goal, after 20,188 calm frames (mid
  // tier, one re-plan). Fixed in systems/funnel.ts (the stand-in keeps the agent's radius from the portal's ends,
  // and is its point nearest the agent when the goal is not beyond it); the mechanism on its own in
  // test/funnel/truncated-loop.test.ts. Failed before the fix with this message: "agent 3: reachable goal
  // (-47.735341369255806, 40.624413411144836) not reached after 20188 calm frames" (22.78 m away, replans 1, tier 1).
  it('an agent whose corridor loops round an obstacle corner reaches its goal (before: 22.8 m short after 20,188 calm frames)', () => {
    funnelFullRun({"map":{"w":58.335703264921904,"h":3.0000013802200556,"ox":-99.99999534338713,"oy":38.56669440865517,"cells":[8,0,4,7,2,1],"kinds":[{"verts":4,"box":false,"angles":[0.8999999888241291,0.14552285447716715,0.26415433511137965,0.34466936215758326,0.899999999254942,0.10000002160668374,0.6714343182742596],"radii":[0.25000001466833055,0.49372483347542584,0.9206909742206335,0.999999990221113,0.4604328856803477,0.25000001257285476,0.27271219436079264]},{"verts":5,"box":false,"angles":[0.22787574082612994,0.10000000223517419,0.1331881381571293,0.40701219290494917,0.19509431868791582,0.6514572612941265,0.9],"radii":[0.9302356233820319,0.2500000139698386,0.8175353242550045,0.28020924935117364,0.813271465478465,0.9476294296327978,0.9999999790452421]},{"verts":3,"box":false,"angles":[0.6279535822570324,0.2140187956392765,0.1759485058486462,0.10000000298023225,0.6656828291714192,0.29817085713148117,0.1481212690472603],"radii":[0.9846041433047503,0.9752528499811888,0.5135336671955884,0.6919348556548357,0.2500000132713467,0.2500000153668225,0.25000001047737896]},{"verts":7,"box":true,"angles":[0.10000002160668374,0.3946511596441269,0.10000000670552255,0.5981749504804611,0.4728975452482701,0.37156096175313,0.7247827723622322],"radii":[0.9790748644154519,0.8621791119221598,0.3490866348147392,0.6394163558725268,0.8937116647139192,0.4328339893836528,0.8659298543352634]},{"verts":7,"box":false,"angles":[0.48257167562842374,0.35587470009922983,0.10000001639127731,0.10000000670552255,0.10000001639127731,0.8999999843537808,0.10000000596046449],"radii":[0.2500000181607902,0.25000001257285476,1,0.9999999888241291,0.9999999972060323,0.9025723268277943,0.6112940718885511]},{"verts":3,"box":true,"angles":[0.10000000447034836,0.18378873392939568,0.1,0.5609267488121986,0.7145061001181603,0.8998443014919758,0.25069252252578733],"radii":[0.2500000041909516,0.6144484160467982,0.25000000977888703,0.25000000558793545,0.3811430111527443,0.9999999860301614,0.2500000111758709]}],"wall":false,"wallA":0.3000000041909516,"wallB":0.5500000033527613,"rf":0.7920598703436553,"pts":[[0.9552098251879215,0.4244573097676039],[0.1264028511941433,0.6373314540833235],[0.9952978324145079,0],[0.34820600785315037,0.3686918057501316],[0.9999999776482582,0.495479934848845],[0.3690863847732544,1.3969838619232178e-8],[0.7592173675075173,0.7941856188699603],[0.11482624989002943,0.7414752384647727],[0.19579559657722712,2.7008354663848877e-8],[0.9999999776482582,0.7443152088671923],[0.9607492443174124,0.013770468533039093],[0.1276790965348482,9.313225746154785e-10],[0.8311048718169332,0.2118774326518178],[1.30385160446167e-8,0.14775094110518694],[0.5464094439521432,1.0244548320770264e-8],[0.604163215495646,1.0244548320770264e-8],[0.5477293878793716,0.5698174824938178],[0.8199823182076216,1.4901161193847656e-8],[2.7939677238464355e-8,1.210719347000122e-8],[6.51925802230835e-9,0.09494763240218163],[1.4901161193847656e-8,0.783394887112081],[0.06787933222949505,1.7695128917694092e-8],[4.6566128730773926e-9,0.7145316181704402],[9.313225746154785e-9,0.8404585579410195]],"look":2,"edgeStart":null},"agents":3,"frames":48,"seed":1388900504,"closeP":0.23744031032547352,"openP":0.03221092326566577,"goalP":0.05622196411713958,"pushP":0.01089559504762292,"spawnP":1.1641532182693481e-9,"lod":{"interval":4,"near":0.26714671310037374,"mid":0.37967744562774897,"hyst":0.1,"fx":2.2351741790771484e-8,"fy":0.05564147047698498},"maxCornerPortals":3,"maxReplansPerFrame":16,"maxExp":1,"shortcutInterval":1,"lookahead":0.35240183528512714,"arrivalSlowdown":0.7433761632069946,"arriveDistance":0.09309433451853692,"minTurnSpeed":0.608114193379879,"dt":0.03333333333333333,"maxSpeed":0.5000000023283064,"timeHorizon":3.3981041507795453,"obstacleTimeHorizon":0.6554288329556585,"radiusK":0.9800705024972558}, true);
  });
  // Found by the long run from seed 20261231 after the fix above (seed 20261252, the 3rd case; also on the code
  // before it, 2.14 m short). A far agent (interval 4) on a corridor of 10 m sliver triangles round closed ones,
  // pushed a centimetre sideways across two slivers by ORCA's obstacle lines as it headed south for an obstacle's
  // corner, was walked back into its corridor; the stand-in, the point nearest the goal on the next long portal,
  // lay 2 m back up it, so it went 0.4 m back, then 0.4 m on, for good. Fixed in systems/funnel.ts (for a goal not
  // beyond the portal the stand-in is the portal's point nearest the agent); failed before the fix with this
  // message: "agent 1: reachable goal (-97.48286484486759, 118.23721822865471) not reached after 3531 calm frames".
  it('a far agent pushed across slivers of a detour reaches its goal (before: 2.1 m short after 3,531 calm frames)', () => {
    funnelFullRun({"map":{"w":3.0000001592561603,"h":32.41804630961269,"ox":-99.99999478459358,"oy":99.9999986961484,"cells":[3,6,4,0,1],"kinds":[{"verts":6,"box":false,"angles":[0.8999999918043614,0.8302949912846088,0.899999987334013,0.1,0.9,0.10000002160668374,0.10000001713633538],"radii":[0.2500000139698386,0.25000000977888703,0.25000000069849193,0.2500000048894435,0.2500000132713467,0.9999999874271452,0.41011937614530325]},{"verts":7,"box":true,"angles":[0.3564323343336583,0.8999999985098839,0.10000000596046449,0.531428399682045,0.3423303052783012,0.5881628565490246,0.29254789724946023],"radii":[0.2500000069849193,0.9999999958090484,0.9813306014984846,0.7355071329511702,0.8219789476133883,0.25000000069849193,0.25000000069849193]},{"verts":6,"box":true,"angles":[0.8999999798834324,0.8999999970197677,0.1000000223517418,0.10000001713633538,0.10000000074505806,0.10000000447034836,0.10000001937150955],"radii":[0.999999989522621,0.25000000838190317,0.9999999972060323,0.954092469997704,0.9999999839346856,0.250000020256266,0.2662386088632047]},{"verts":5,"box":true,"angles":[0.7473208323121071,0.3092715561389923,0.8999999888241291,0.1,0.6009582929313183,0.3521525040268898,0.10000001937150955],"radii":[0.9999999860301614,0.9754948089830577,0.2500000160653144,0.25000000838190317,0.8868966535665095,0.25000000139698386,0.44992859521880746]},{"verts":3,"box":false,"angles":[0.8999999836087227,0.9,0.3258335284888745,0.3116865180432796,0.8999999977648259,0.2109838329255581,0.7320059135556222],"radii":[0.8432324917521328,0.2500000181607902,0.6284529340919107,0.9999999867286533,0.3416769311297685,0.8487671979237348,0.9161758224945515]},{"verts":7,"box":true,"angles":[0.788135588914156,0.7296627178788185,0.10000000223517419,0.36104164943099026,0.10000000670552255,0.10000001192092896,0.8999999888241291],"radii":[0.9999999965075403,0.9999999881256372,0.9999999937135726,0.25000000069849193,0.25000001466833055,0.3224913156591356,0.999999990221113]}],"wall":false,"wallA":0.44999999832361937,"wallB":0.6999999986030161,"rf":0.6886254839599133,"pts":[[1.30385160446167e-8,6.51925802230835e-9],[6.51925802230835e-9,0.7775983167812228],[0.9999999813735485,0.12094499822705984],[0.5863207653164864,2.421438694000244e-8],[5.587935447692871e-9,0.3554606894031167],[0.11841689050197601,0.49450573325157166],[2.7939677238464355e-8,0.9999999767169356],[6.51925802230835e-9,0.8518225606530905],[0.4401356726884842,0.9999999953433871],[6.51925802230835e-9,0.9999999739229679],[0.9999999888241291,0.9999999953433871],[2.514570951461792e-8,2.2351741790771484e-8],[0.934806888923049,0.999999986961484],[0.7824489939957857,0.3283667853102088],[0.9338788604363799,0.026469476521015167],[0.9999999785795808,0.6523658931255341],[0.48019852954894304,0.3495401469990611],[8.381903171539307e-9,1.862645149230957e-9],[0.9999999823048711,0.9999999878928065],[0.8182902671396732,0.6501390328630805],[1.4901161193847656e-8,0.02882037404924631],[0.34748243167996407,0.38150621205568314],[0.4016050426289439,5.587935447692871e-9],[0.880913014523685,0.000019257888197898865]],"look":14,"edgeStart":null},"agents":1,"frames":13,"seed":15,"closeP":0.17975773299112915,"openP":0.012702763080596924,"goalP":0.017304988391697407,"pushP":0.03615257483907044,"spawnP":0.02549490951932967,"lod":{"interval":4,"near":0.25250267144292593,"mid":1.3969838619232178e-9,"hyst":0.1,"fx":0.0958296600729227,"fy":0.09476359095424414},"maxCornerPortals":3,"maxReplansPerFrame":2,"maxExp":16384,"shortcutInterval":1,"lookahead":3.9999999115243554,"arrivalSlowdown":1.999999994970858,"arriveDistance":0.05260018535889686,"minTurnSpeed":0.20000001564621928,"dt":0.03333333333333333,"maxSpeed":2.999999941792339,"timeHorizon":4.322277380153537,"obstacleTimeHorizon":1.9999999782070517,"radiusK":0.999999986961484}, true);
  });
});

describe('fuzz findings: funnel + ORCA next to stand-in goals (fixed 2026-11-30)', () => {
  // Found by the long runs of 'funnel system in the full pipeline' (maxCornerPortals 3: a pull of the start, one
  // portal and a stand-in goal on the next). The stand-in was the middle of that portal; on a long portal it lay
  // far off the way to the goal, behind the agent. Fixed in systems/funnel.ts (the stand-in is where the straight
  // line to the goal crosses the portal, and is passed at full speed while the line runs on inside the corridor)
  // and src/navmesh/corridor.ts (an agent pushed back across a sliver walks back to its corridor instead of
  // re-planning); the mechanism, piece by piece, in test/funnel/truncated.test.ts.
  // Seed 709362359: agent 2 walked to the middle of a long diagonal portal and stopped there (the speed cap), set off
  // for the next one at 2.84 m/s, and from rest ORCA's half-planes (two agents 1.6 and 2.3 m away behind a wall,
  // timeHorizon 4.5 s) turned the step back across a sliver into a triangle two off its corridor; the re-plan from
  // there led back to the same middle: 104 re-plans in 160 s, 1.58 m from the goal.
  // Recorded before idle agents yielded (2026-11-30): with yielding the other agent, arrived, steps aside for agent 2
  // and the replay no longer reaches the loop, so it runs with yielding off as it was found (yieldWhenIdle: false),
  // so that it still tests the stand-in fix.
  it('an agent next to a stand-in goal arrives instead of re-planning for good (before: 104 re-plans in 160 s)', () => {
    funnelFullRun({"map":{"w":3,"h":3,"ox":-100,"oy":-100,"cells":[0],"kinds":[{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":true,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.6624882749747485,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]}],"wall":true,"wallA":0.3,"wallB":0.55,"rf":0.05,"pts":[[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0]],"look":0,"edgeStart":null},"agents":2,"frames":10,"seed":1518052988,"closeP":0.16019630413502453,"openP":0,"goalP":0.058491959981620316,"pushP":0.014293957548215986,"spawnP":0.03001009444706142,"lod":{"interval":1,"near":0,"mid":0,"hyst":0,"fx":0,"fy":0},"maxCornerPortals":3,"maxReplansPerFrame":1,"maxExp":1,"shortcutInterval":0,"lookahead":0.2,"arrivalSlowdown":0.2,"arriveDistance":0.042979412246495485,"minTurnSpeed":0.2,"dt":0.1,"maxSpeed":2.843749974388629,"timeHorizon":4.540386503562331,"obstacleTimeHorizon":1.906949109956622,"radiusK":0.7615725831128657,"yieldWhenIdle":false}, true);
  });
  // Seed 711715263 (after 37 cases, shrunk): a single far agent (interval 3) 0.32 m from its goal, turned by ORCA's
  // obstacle lines near a corner of the room out of its corridor's first triangle into the sliver next to it, saw
  // from there only the middle of a long portal 1.7 m behind it, walked back at full speed into its old triangle,
  // saw the goal again (ORCA slowing it to 0.2 m/s by the walls), and so on, for good.
  it('a far agent 0.32 m from its goal arrives instead of alternating between the goal and a stand-in 1.7 m behind it', () => {
    funnelFullRun({"map":{"w":3,"h":17.85471560060978,"ox":-100,"oy":-100,"cells":[6],"kinds":[{"verts":3,"box":false,"angles":[0.1,0.15926379561424256,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]},{"verts":3,"box":false,"angles":[0.1,0.1,0.1,0.1,0.1,0.1,0.1],"radii":[0.25,0.25,0.25,0.25,0.25,0.25,0.25]}],"wall":false,"wallA":0.3,"wallB":0.55,"rf":0.34031533608213066,"pts":[[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0],[0,0]],"look":0,"edgeStart":null},"agents":1,"frames":15,"seed":13,"closeP":0,"openP":0,"goalP":0.05103596076369286,"pushP":0.021868285071104766,"spawnP":0,"lod":{"interval":3,"near":0,"mid":0,"hyst":0,"fx":0,"fy":0},"maxCornerPortals":3,"maxReplansPerFrame":1,"maxExp":1,"shortcutInterval":0,"lookahead":0.2,"arrivalSlowdown":0.2,"arriveDistance":0.01,"minTurnSpeed":0.2,"dt":0.016666666666666666,"maxSpeed":1.8679160829633474,"timeHorizon":0.5,"obstacleTimeHorizon":1.5662677250802517,"radiusK":0.5000000139698386}, true);
  });
});
