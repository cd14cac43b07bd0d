/**
 * Property-based tests of the kernels with fast-check, shared by the quick fixed-seed run in `npm test`
 * (test/reliability/fuzz.test.ts) and the long run of `npm run fuzz` (scripts/fuzz.ts). Every property compares the
 * kernel against an independent oracle written here (brute force, Dijkstra, sampling, closed forms) and checks that
 * no output is NaN and nothing throws on valid input.
 */
import fc from 'fast-check';
import { createSpatialHash, rebuildSpatialHash, queryRadius, queryKNearest, queryKNearestBatch } from '../../src/spatial/hash';
import { createGrid, setBlocked, type Grid } from '../../src/grid/grid';
import { findPath, findPathJps } from '../../src/grid/search';
import { buildFlowField } from '../../src/grid/flowfield';
import { funnel, polylineLength } from '../../src/funnel/funnel';
import { linearProgram2, LINE_STRIDE, LP_EPSILON } from '../../src/avoidance/lp';
import { createOrcaAgent, createOrcaNeighbours, orcaVelocity, orcaLastLines, ORCA_FEASIBLE, ORCA_PAPER, ORCA_NO_OVERLAP } from '../../src/avoidance/orca';
import { createObstacleSet, addObstacleToSet, queryObstacleSegments } from '../../src/avoidance/obstacles';
import { sphereShape, capsuleShape, boxShape, cylinderShape, hullShape, createPose, setPoseQuat, type Shape } from '../../src/collision/shapes';
import { gjkDistance, gjkOverlap, createDistanceOutput, GJK_MAX_ITERATIONS } from '../../src/collision/gjk';
import { contactManifold, createManifold, createManifoldInput } from '../../src/collision/manifold';
import { EPA_MAX_ITERATIONS } from '../../src/collision/epa';
import { circleShape, polygonShape, createPose2, setPose2, type Shape2, type Pose2 } from '../../src/collision/shapes2d';
import { contactManifold2, createManifold2, createManifold2Input, GJK2_MAX_ITERATIONS, EPA2_MAX_ITERATIONS } from '../../src/collision/manifold2d';
import { buildNavmesh } from '../../src/navmesh/build';
import { createNavQuery, createNavPathResult, findNavPath } from '../../src/navmesh/search';
import { corridorPortals } from '../../src/navmesh/portals';
import { locateTriangle, pointInTriangle } from '../../src/navmesh/locate';
import { raycastMesh, corridorShortcut } from '../../src/navmesh/corridor';
import { DegenerateGeometryError, InvalidArgumentError } from '../../src/core/errors';
import { formationSlots, formationSpacing, slotsRadius, FORMATION_LINE, FORMATION_COLUMN, FORMATION_WEDGE, FORMATION_BOX, FORMATION_CIRCLE, FORMATION_SHAPE_NAMES } from '../../src/formation/slots';
import { assignSlots, assignSlotsOptimal, assignSlotsGreedy, HUNGARIAN_MAX } from '../../src/formation/assign';
import { advanceAnchor, createAnchorState, type AnchorParams } from '../../src/formation/anchor';
import { createCrowd, type CrowdWorld } from '../../src/world/crowd';
import { createFormation, getFormation, addFormationMember, removeFormationMember, setFormationPath, setFormationShape, formationSlotError } from '../../systems/formation';
import { formationComponent } from '../../components/formation';
import { spawnAgent, despawnAgent, setAgentPosition, setAgentVelocity, setPreferredVelocity } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { setNavmesh, setNavGoal, moveNavGoal, getAgentCorridor, setNavTrianglesBlocked, type FunnelState } from '../../systems/funnel';
import { enableLod } from '../../systems/lod';
import { lodComponent, LOD_STEER, LOD_ORCA, LOD_ALL } from '../../components/lod';
import { corridorComponent, NAV_ARRIVED, NAV_FOLLOWING, NAV_REPLAN, NAV_UNREACHABLE } from '../../components/corridor';
import { createRng, rngFloat, rngInt, type Rng } from '../../src/core/rng';
import { addObstacle, enableOrca, setOrcaOptions } from '../../components/orca';
import { setNavigationGrid, setAgentGoal, setGroupGoal, agentPathCells, agentFlowField, type AgentGoalOptions } from '../../systems/navigation';
import { navigationComponent, GRID_NAV_ARRIVED, GRID_NAV_MOVING, GRID_NAV_UNREACHABLE, GRID_NAV_WAITING_FOR_PATH, GRID_NAV_MODE_FLOW, GRID_NAV_MODE_PATH } from '../../components/navigation';
import { stateHash, hashBytes } from '../../src/reliability/hash';
import { snapshot } from '../../src/reliability/snapshot';
import type { Navmesh } from '../../src/navmesh/build';

export interface FuzzProperty {
  readonly name: string;
  /** A defect this property found that its owner has not fixed yet (see docs/RELIABILITY.md), if any. */
  readonly knownDefect?: string;
  /** Runs in the quick (npm test) mode; the long mode multiplies it. */
  readonly quickRuns: number;
  readonly property: fc.IPropertyWithHooks<unknown> | fc.IProperty<unknown>;
}

class PropertyFailure extends Error {}

/**
 * Edge-case families. Each property names, with a predicate on the generated case, the family of cases that once
 * exposed a defect (near-parallel LP lines, tiny coordinate gaps, coincident neighbours, nearly flipped shapes). All
 * of those defects are fixed (2026-11-29), so both runs keep these cases; the counts show how often each run reached
 * the family. `skipKnownDefects(true)` moves such cases just outside the family instead (a tiny quaternion component
 * snapped to 0, a near-parallel line turned by 0.1 rad): for a defect found and not yet fixed, so the quick run keeps
 * guarding everything else while an `it.fails` regression in fuzz.test.ts pins the exact counterexample.
 */
let _skipKnown = false;
export function skipKnownDefects(on: boolean): void { _skipKnown = on; }
let _knownHits = 0;
export function knownDefectHits(): number { return _knownHits; }
/** True when the case should be moved out of a known-defect family (quick mode); counts every hit. */
function knownDefect(applies: boolean): boolean {
  if (!applies) return false;
  _knownHits++;
  return _skipKnown;
}
function check(cond: boolean, message: string): void {
  if (!cond) throw new PropertyFailure(message);
}
function finite(v: number, what: string): void {
  check(Number.isFinite(v), `${what} is not finite: ${v}`);
}

const dbl = (min: number, max: number) => fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
/** Uniform on a fine grid: fast-check's doubles favour 0 and the bounds (good at finding edge cases), this does not. */
const uni = (min: number, max: number) => fc.integer({ min: 0, max: 1 << 30 }).map((k) => min + (max - min) * (k / (1 << 30)));
/** Half edge-case-biased, half uniform. */
const mix = (min: number, max: number) => fc.oneof(dbl(min, max), uni(min, max));

// ------------------------------------------------------------------------------------------------ spatial hash

const hashCase = fc.record({
  cellSize: dbl(0.05, 50),
  scale: fc.constantFrom(1, 10, 1000, 1e6),
  pts: fc.array(fc.tuple(dbl(-1, 1), dbl(-1, 1)), { maxLength: 150 }),
  dupes: fc.nat(20),
  queries: fc.array(fc.record({ x: dbl(-1.2, 1.2), y: dbl(-1.2, 1.2), r: dbl(0, 3), k: fc.nat(24) }), { minLength: 1, maxLength: 8 }),
});

/** Distances below 1.5e-154 square to 0 (or a denormal): the kernels' cell pruning and their d² tests disagree there. */
const TINY = 1e-150;
function hasTinyGap(c: { pts: [number, number][]; queries: { x: number; y: number }[] }): boolean {
  for (const q of c.queries) for (const p of c.pts) {
    const dx = Math.abs(q.x - p[0]), dy = Math.abs(q.y - p[1]);
    if ((dx > 0 && dx < TINY) || (dy > 0 && dy < TINY)) return true;
  }
  return false;
}

const spatialHashProperty = fc.property(hashCase, (c) => {
  if (knownDefect(hasTinyGap(c))) {
    const snap = (v: number) => (Math.abs(v) < TINY ? 0 : v);
    c = { ...c, pts: c.pts.map(([x, y]) => [snap(x), snap(y)] as [number, number]), queries: c.queries.map((q) => ({ ...q, x: snap(q.x), y: snap(q.y) })) };
    if (hasTinyGap(c)) return;
  }
  const n = c.pts.length + Math.min(c.dupes, c.pts.length);
  const cap = Math.max(1, n) + 1;
  const xs = new Float64Array(cap + 1), ys = new Float64Array(cap + 1);
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const p = c.pts[i < c.pts.length ? i : i - c.pts.length]; // exact duplicates too
    const id = i + 1;
    xs[id] = p[0] * c.scale; ys[id] = p[1] * c.scale; ids[i] = id;
  }
  const cell = c.cellSize * (c.scale > 10 ? c.scale / 10 : 1);
  const hash = createSpatialHash(cap, cell);
  rebuildSpatialHash(hash, xs, ys, ids, n);
  const out = new Int32Array(n + 1), outD = new Float64Array(n + 1);
  for (const q of c.queries) {
    const qx = q.x * c.scale, qy = q.y * c.scale, r = q.r * cell;
    // radius query vs brute force, as sets
    const got = Array.from(out.subarray(0, queryRadius(hash, qx, qy, r, -1, out))).sort((a, b) => a - b);
    const want: number[] = [];
    for (let i = 0; i < n; i++) { const dx = xs[ids[i]] - qx, dy = ys[ids[i]] - qy; if (dx * dx + dy * dy <= r * r) want.push(ids[i]); }
    check(JSON.stringify(got) === JSON.stringify(want), `queryRadius(${qx}, ${qy}, ${r}) = [${got}] but brute force = [${want}]`);
    // k nearest vs brute force sorted by (d², id)
    const k = Math.min(q.k, n + 1);
    const m = queryKNearest(hash, qx, qy, r, k, -1, out, outD);
    const all = want.map((id) => { const dx = xs[id] - qx, dy = ys[id] - qy; return { id, d: dx * dx + dy * dy }; })
      .sort((a, b) => a.d - b.d || a.id - b.id).slice(0, k);
    check(m === all.length, `queryKNearest returned ${m} neighbours, brute force ${all.length}`);
    for (let i = 0; i < m; i++) {
      check(out[i] === all[i].id && outD[i] === all[i].d, `kNN[${i}] = ${out[i]} (d² ${outD[i]}) but brute force ${all[i].id} (d² ${all[i].d})`);
    }
  }
  // The batch query (every entry's k nearest, itself excluded) at the first query's radius: the dense grid, the
  // hashed cells of a sparse box (large scales), exact tie ranking (the duplicates) and the fallback all answer
  // through it. Skipped when two points are a tiny gap apart (the same known disagreement as above, between points).
  if (n > 0 && !pointsTinyGap(xs, ys, ids, n)) {
    const r = c.queries[0].r * cell, k = Math.max(1, Math.min(c.queries[0].k, n));
    const bIds = new Int32Array(n * k), bD2 = new Float64Array(n * k), counts = new Int32Array(n);
    const total = queryKNearestBatch(hash, 0, n, r, k, bIds, bD2, counts, null, -1, 'slot');
    let sum = 0;
    for (let t = 0; t < n; t++) {
      const self = hash.sortedIds[t], sx = xs[self], sy = ys[self];
      const all: { id: number; d: number }[] = [];
      for (let i = 0; i < n; i++) {
        const id = ids[i];
        if (id === self) continue;
        const dx = xs[id] - sx, dy = ys[id] - sy, d = dx * dx + dy * dy;
        if (d <= r * r) all.push({ id, d });
      }
      all.sort((a, b2) => a.d - b2.d || a.id - b2.id);
      const want = all.slice(0, k);
      check(counts[t] === want.length, `batch: entry ${self} got ${counts[t]} neighbours, brute force ${want.length}`);
      for (let i = 0; i < want.length; i++) {
        check(bIds[t * k + i] === want[i].id && bD2[t * k + i] === want[i].d, `batch: entry ${self} neighbour ${i} = ${bIds[t * k + i]} (d² ${bD2[t * k + i]}) but brute force ${want[i].id} (d² ${want[i].d})`);
      }
      sum += want.length;
    }
    check(total === sum, `batch returned ${total} neighbours in all, brute force ${sum}`);
  }
});

/** Two points of the hash a tiny (but non-zero) gap apart on an axis (see TINY). */
function pointsTinyGap(xs: Float64Array, ys: Float64Array, ids: Int32Array, n: number): boolean {
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
    const dx = Math.abs(xs[ids[i]] - xs[ids[j]]), dy = Math.abs(ys[ids[i]] - ys[ids[j]]);
    if ((dx > 0 && dx < TINY) || (dy > 0 && dy < TINY)) return true;
  }
  return false;
}

// ------------------------------------------------------------------------------------------------ grids

interface GridCase { w: number; h: number; blocked: boolean[]; costs: number[]; conn: 4 | 8; corner: boolean; s: number; g: number; uniform: boolean }
const gridCase: fc.Arbitrary<GridCase> = fc.record({ w: fc.integer({ min: 1, max: 22 }), h: fc.integer({ min: 1, max: 22 }), density: dbl(0, 0.5), uniform: fc.boolean(), conn: fc.constantFrom<4 | 8>(4, 8), corner: fc.boolean(), seed: fc.nat() })
  .chain((p) => fc.record({
    w: fc.constant(p.w), h: fc.constant(p.h), conn: fc.constant(p.conn), corner: fc.constant(p.corner), uniform: fc.constant(p.uniform),
    blocked: fc.array(fc.double({ min: 0, max: 1, noNaN: true }).map((v) => v < p.density), { minLength: p.w * p.h, maxLength: p.w * p.h }),
    costs: fc.array(fc.constantFrom(1, 1, 1.5, 2, 3, 7.25), { minLength: p.w * p.h, maxLength: p.w * p.h }),
    s: fc.nat(p.w * p.h - 1), g: fc.nat(p.w * p.h - 1),
  }));

function makeGrid(c: GridCase): Grid {
  return createGrid(c.w, c.h, { walkable: c.blocked.map((b) => (b ? 0 : 1)), cost: c.uniform ? undefined : c.costs });
}

/** Legal moves from cell i under the same rules as the kernels (documented in src/grid/search.ts), with step costs. */
function neighbours(grid: Grid, i: number, conn: 4 | 8, corner: boolean): Array<[number, number]> {
  const w = grid.width, h = grid.height, x = i % w, y = (i - x) / w;
  const out: Array<[number, number]> = [];
  const ok = (cx: number, cy: number) => cx >= 0 && cy >= 0 && cx < w && cy < h && grid.walkable[cy * w + cx] === 1;
  for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
    if (dx === 0 && dy === 0) continue;
    const diag = dx !== 0 && dy !== 0;
    if (diag && conn === 4) continue;
    if (!ok(x + dx, y + dy)) continue;
    if (diag) {
      const a = ok(x + dx, y), b = ok(x, y + dy);
      if (corner ? !(a || b) : !(a && b)) continue;
    }
    const j = (y + dy) * w + x + dx;
    out.push([j, (diag ? Math.SQRT2 : 1) * (grid.cost[i] + grid.cost[j]) / 2]);
  }
  return out;
}

/** Plain O(n²) Dijkstra from a set of sources: the oracle for A*, JPS and flow fields. */
function dijkstra(grid: Grid, sources: number[], conn: 4 | 8, corner: boolean): Float64Array {
  const n = grid.width * grid.height;
  const d = new Float64Array(n).fill(Infinity);
  const done = new Uint8Array(n);
  for (const s of sources) if (grid.walkable[s]) d[s] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && d[i] < Infinity && (u < 0 || d[i] < d[u])) u = i;
    if (u < 0) break;
    done[u] = 1;
    for (const [v, c] of neighbours(grid, u, conn, corner)) if (d[u] + c < d[v]) d[v] = d[u] + c;
  }
  return d;
}

function close(a: number, b: number): boolean {
  return a === b || Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function checkPath(grid: Grid, cells: Int32Array, start: number, goal: number, cost: number, conn: 4 | 8, corner: boolean): void {
  check(cells.length >= 1 && cells[0] === start && cells[cells.length - 1] === goal, `path does not run from ${start} to ${goal}: [${Array.from(cells)}]`);
  let sum = 0;
  for (let k = 1; k < cells.length; k++) {
    const step = neighbours(grid, cells[k - 1], conn, corner).find(([j]) => j === cells[k]);
    check(step !== undefined, `illegal step ${cells[k - 1]} → ${cells[k]} (blocked, not adjacent, or cuts a corner)`);
    sum += step![1];
  }
  check(close(sum, cost), `path steps sum to ${sum} but the reported cost is ${cost}`);
}

const astarProperty = fc.property(gridCase, (c) => {
  const grid = makeGrid(c);
  const start = { x: c.s % c.w, y: Math.floor(c.s / c.w) }, goal = { x: c.g % c.w, y: Math.floor(c.g / c.w) };
  const res = findPath(grid, start, goal, { connectivity: c.conn, cornerCutting: c.corner });
  const d = dijkstra(grid, [c.s], c.conn, c.corner);
  if (d[c.g] === Infinity) {
    check(res.status === 'unreachable', `A* says ${res.status} but Dijkstra finds no route`);
    return;
  }
  check(res.status === 'found', `A* says ${res.status} but Dijkstra finds cost ${d[c.g]}`);
  finite(res.cost, 'A* cost');
  check(close(res.cost, d[c.g]), `A* cost ${res.cost} but Dijkstra ${d[c.g]}`);
  checkPath(grid, res.cells, c.s, c.g, res.cost, c.conn, c.corner);
});

const jpsProperty = fc.property(gridCase, (c) => {
  const grid = createGrid(c.w, c.h, { walkable: c.blocked.map((b) => (b ? 0 : 1)) }); // JPS: uniform costs, 8-connected, no corner cutting
  const start = { x: c.s % c.w, y: Math.floor(c.s / c.w) }, goal = { x: c.g % c.w, y: Math.floor(c.g / c.w) };
  const res = findPathJps(grid, start, goal);
  const d = dijkstra(grid, [c.s], 8, false);
  if (d[c.g] === Infinity) { check(res.status === 'unreachable', `JPS says ${res.status} but Dijkstra finds no route`); return; }
  check(res.status === 'found', `JPS says ${res.status} but Dijkstra finds cost ${d[c.g]}`);
  check(close(res.cost, d[c.g]), `JPS cost ${res.cost} but Dijkstra ${d[c.g]}`);
  checkPath(grid, res.cells, c.s, c.g, res.cost, 8, false);
});

const flowFieldProperty = fc.property(gridCase, fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), (c, extraGoals) => {
  const grid = makeGrid(c);
  const n = c.w * c.h;
  const goalCells = [c.g, ...extraGoals.map((v) => v % n)];
  const field = buildFlowField(grid, goalCells.map((i) => ({ x: i % c.w, y: Math.floor(i / c.w) })), { connectivity: c.conn, cornerCutting: c.corner });
  const d = dijkstra(grid, goalCells, c.conn, c.corner);
  for (let i = 0; i < n; i++) {
    const v = field.integration[i];
    check(!Number.isNaN(v), `integration[${i}] is NaN`);
    check(d[i] === Infinity ? v === Infinity : close(v, d[i]), `integration[${i}] = ${v} but Dijkstra ${d[i]}`);
    const dx = field.dirX[i], dy = field.dirY[i];
    finite(dx, `dirX[${i}]`); finite(dy, `dirY[${i}]`);
    const nx = field.next[i];
    if (v === Infinity || v === 0) { check(nx === -1 || v !== Infinity, `unreachable cell ${i} has next ${nx}`); continue; }
    // the next cell is a legal move that realises the cost: integration[i] = cost(i, next) + integration[next]
    const step = neighbours(grid, i, c.conn, c.corner).find(([j]) => j === nx);
    check(step !== undefined, `next[${i}] = ${nx} is not a legal move`);
    check(close(v, step![1] + field.integration[nx]), `integration[${i}] = ${v} ≠ step ${step![1]} + integration[next] ${field.integration[nx]}`);
    check(Math.abs(Math.hypot(dx, dy) - 1) < 1e-6, `direction at ${i} is not unit: (${dx}, ${dy})`);
  }
});

// ------------------------------------------------------------------------------------------------ funnel

/**
 * A corridor of vertical portals at x = 0, 1, 2, ...: portal i spans y ∈ [lo_i, hi_i]; walking towards +x, left is
 * the upper end. The corridor is the union of the trapezoids between consecutive portals (convex cells).
 */
const corridorCase = fc.record({
  spans: fc.array(fc.tuple(dbl(-5, 5), dbl(0.05, 4)), { minLength: 2, maxLength: 25 }),
  s: dbl(0, 1), g: dbl(0, 1), radius: fc.constantFrom(0, 0, 0.05, 0.3),
});

const funnelProperty = fc.property(corridorCase, (c) => {
  const m = c.spans.length;
  const lo = c.spans.map(([a]) => a), hi = c.spans.map(([a, b]) => a + b);
  const sy = lo[0] + c.s * (hi[0] - lo[0]), gy = lo[m - 1] + c.g * (hi[m - 1] - lo[m - 1]);
  // portals: start (degenerate), interior portals 1..m-2, goal (degenerate)
  const portals: number[] = [0, sy, 0, sy];
  for (let i = 1; i < m - 1; i++) portals.push(i, hi[i], i, lo[i]);
  portals.push(m - 1, gy, m - 1, gy);
  const out = new Float64Array(4096);
  const count = portals.length / 4;
  const np = funnel(portals, count, c.radius, out);
  check(np >= 2, `funnel returned ${np}`);
  for (let i = 0; i < 2 * np; i++) finite(out[i], `out[${i}]`);
  check(out[0] === 0 && out[1] === sy && out[2 * np - 2] === m - 1 && out[2 * np - 1] === gy, 'path does not start at the start and end at the goal');
  if (c.radius > 0) return;
  // r = 0: every point of the path lies inside the corridor (sampled densely along each leg)
  const eps = 1e-9;
  for (let k = 1; k < np; k++) {
    const x0 = out[2 * k - 2], y0 = out[2 * k - 1], x1 = out[2 * k], y1 = out[2 * k + 1];
    check(x1 >= x0 - eps, `path goes backwards at leg ${k}`);
    for (let t = 0; t <= 16; t++) {
      const x = x0 + (x1 - x0) * t / 16, y = y0 + (y1 - y0) * t / 16;
      const i = Math.min(m - 2, Math.max(0, Math.floor(x)));
      const f = x - i;
      const ylo = lo[i] + (lo[i + 1] - lo[i]) * f, yhi = hi[i] + (hi[i + 1] - hi[i]) * f;
      check(y >= ylo - 1e-7 && y <= yhi + 1e-7, `path point (${x}, ${y}) leaves the corridor [${ylo}, ${yhi}]`);
    }
  }
  // and it is no longer than another path inside the corridor: the polyline through the portal midpoints
  const mids = [0, sy];
  for (let i = 1; i < m - 1; i++) mids.push(i, (lo[i] + hi[i]) / 2);
  mids.push(m - 1, gy);
  check(polylineLength(out, np) <= polylineLength(mids, mids.length / 2) + 1e-9, 'funnel path is longer than the midpoint path');
});

// ------------------------------------------------------------------------------------------------ ORCA LP

const lineCase = fc.record({
  lines: fc.array(fc.record({ px: dbl(-3, 3), py: dbl(-3, 3), a: dbl(0, 6.283185307179586) }), { minLength: 0, maxLength: 12 }),
  radius: dbl(0.01, 3), ox: dbl(-4, 4), oy: dbl(-4, 4),
});

function satisfies(lines: Float64Array, count: number, vx: number, vy: number, tol: number): number {
  for (let i = 0; i < count; i++) {
    const o = i * LINE_STRIDE;
    if (lines[o + 2] * (lines[o + 1] - vy) - lines[o + 3] * (lines[o] - vx) > tol) return i;
  }
  return -1;
}

const lpProperty = fc.property(lineCase, (c) => {
  const n = c.lines.length;
  const lines = new Float64Array(n * LINE_STRIDE);
  c.lines.forEach((l, i) => { lines.set([l.px, l.py, Math.cos(l.a), Math.sin(l.a)], i * LINE_STRIDE); });
  let nearParallel = false;
  for (let pass = 0; pass < 2; pass++) {
    nearParallel = false;
    for (let i = 0; i < n; i++) for (let j = 0; j < i; j++) {
      const det = lines[i * 4 + 2] * lines[j * 4 + 3] - lines[i * 4 + 3] * lines[j * 4 + 2];
      if (Math.abs(det) > LP_EPSILON) continue;
      nearParallel = true;
      if (pass === 0 && _skipKnown) { const a = c.lines[i].a + 0.1 * (i + 1); lines[i * 4 + 2] = Math.cos(a); lines[i * 4 + 3] = Math.sin(a); }
    }
    if (pass === 0 && !knownDefect(nearParallel)) break;
  }
  if (_skipKnown && nearParallel) return; // still parallel after turning (rare): not this run's business
  const out = new Float64Array(2);
  const res = linearProgram2(lines, n, c.radius, c.ox, c.oy, false, out);
  finite(out[0], 'lp x'); finite(out[1], 'lp y');
  // brute-force oracle: sample the disc on a polar grid
  let bestD = Infinity, anyFeasible = false;
  for (let ri = 0; ri <= 40; ri++) for (let ai = 0; ai < 96; ai++) {
    const rr = c.radius * ri / 40, a = ai * Math.PI * 2 / 96;
    const x = rr * Math.cos(a), y = rr * Math.sin(a);
    if (satisfies(lines, n, x, y, -1e-6) >= 0) continue; // strictly inside every half-plane by a margin
    anyFeasible = true;
    bestD = Math.min(bestD, Math.hypot(x - c.ox, y - c.oy));
  }
  if (res === n) {
    const bad = satisfies(lines, n, out[0], out[1], 1e-7 * (1 + c.radius));
    check(bad < 0, `LP claims feasible but violates line ${bad}`);
    check(Math.hypot(out[0], out[1]) <= c.radius * (1 + 1e-9) + 1e-12, 'LP result outside the speed disc');
    check(Math.hypot(out[0] - c.ox, out[1] - c.oy) <= bestD + 1e-7, `LP optimum is farther from the target than a sampled feasible point (${bestD})`);
  } else {
    check(res >= 0 && res < n, `LP returned ${res}`);
    check(!anyFeasible, 'LP claims infeasible but sampling found a feasible point');
  }
});

const orcaCase = fc.record({
  agent: fc.record({ vx: mix(-2, 2), vy: mix(-2, 2), px: mix(-2, 2), py: mix(-2, 2), radius: mix(0.1, 1), maxSpeed: mix(0, 3), th: mix(0.1, 10), tho: mix(0.1, 5) }),
  nbs: fc.array(fc.record({ x: mix(-6, 6), y: mix(-6, 6), vx: mix(-2, 2), vy: mix(-2, 2), r: mix(0.1, 1), share: fc.constantFrom(0, 0.5, 1, 0.25) }), { maxLength: 12 }),
  boxes: fc.array(fc.record({ x: mix(-6, 6), y: mix(-6, 6), hw: mix(0.1, 2), hh: mix(0.1, 2) }), { maxLength: 3 }),
  mode: fc.constantFrom(ORCA_PAPER, ORCA_NO_OVERLAP),
  dt: dbl(0.005, 0.1),
});

const _orcaLines = new Float64Array(4 * 256);
/** A neighbour within 1 µm of the agent's own position: exactly or almost coincident centres. */
function coincidentNeighbour(c: { nbs: { x: number; y: number }[] }): boolean {
  return c.nbs.some((b) => Math.hypot(b.x, b.y) <= 1e-6);
}
const orcaProperty = fc.property(orcaCase, (c) => {
  if (knownDefect(coincidentNeighbour(c))) {
    // move coincident neighbours 1 cm away along x (the rest of the case is kept)
    c = { ...c, nbs: c.nbs.map((b) => (Math.hypot(b.x, b.y) <= 1e-6 ? { ...b, x: 0.01 } : b)) };
  }
  const a = createOrcaAgent();
  a.x = 0; a.y = 0; a.vx = c.agent.vx; a.vy = c.agent.vy; a.prefVx = c.agent.px; a.prefVy = c.agent.py;
  a.radius = c.agent.radius; a.maxSpeed = c.agent.maxSpeed; a.timeHorizon = c.agent.th; a.obstacleTimeHorizon = c.agent.tho;
  const nb = createOrcaNeighbours(16);
  nb.count = c.nbs.length;
  c.nbs.forEach((b, i) => { nb.x[i] = b.x; nb.y[i] = b.y; nb.vx[i] = b.vx; nb.vy[i] = b.vy; nb.radius[i] = b.r; nb.share[i] = b.share; nb.id[i] = i + 1; });
  const set = createObstacleSet();
  for (const b of c.boxes) {
    // boxes that contain the agent's centre are skipped: an agent inside a static obstacle is a different case
    if (Math.abs(b.x) < b.hw && Math.abs(b.y) < b.hh) continue;
    addObstacleToSet(set, [[b.x - b.hw, b.y - b.hh], [b.x + b.hw, b.y - b.hh], [b.x + b.hw, b.y + b.hh], [b.x - b.hw, b.y + b.hh]]);
  }
  const ids = new Int32Array(64), d2 = new Float64Array(64);
  const no = set.vertexCount > 0 ? queryObstacleSegments(set, 0, 0, a.obstacleTimeHorizon * a.maxSpeed + a.radius, ids, d2) : 0;
  const out = { x: 0, y: 0 };
  const status = orcaVelocity(a, nb, set, ids, no, c.dt, out, c.mode);
  finite(out.x, 'orca vx'); finite(out.y, 'orca vy');
  const { lines, obstacleLines } = orcaLastLines(_orcaLines);
  // Second family (found by the long run): the 3D fallback with two anti-parallel agent lines leaves the speed disc.
  let antiParallel = false;
  for (let i = obstacleLines; i < lines; i++) for (let j = obstacleLines; j < i; j++) {
    const dx1 = _orcaLines[4 * i + 2], dy1 = _orcaLines[4 * i + 3], dx2 = _orcaLines[4 * j + 2], dy2 = _orcaLines[4 * j + 3];
    if (Math.abs(dx1 * dy2 - dy1 * dx2) <= LP_EPSILON && dx1 * dx2 + dy1 * dy2 < 0) antiParallel = true;
  }
  if (knownDefect(status !== ORCA_FEASIBLE && antiParallel)) return;
  check(Math.hypot(out.x, out.y) <= a.maxSpeed * (1 + 1e-9) + 1e-9, `ORCA velocity ${Math.hypot(out.x, out.y)} exceeds maxSpeed ${a.maxSpeed}`);
  for (let i = 0; i < 4 * lines; i++) finite(_orcaLines[i], `orca line component ${i}`);
  for (let i = 0; i < lines; i++) {
    const len = Math.hypot(_orcaLines[4 * i + 2], _orcaLines[4 * i + 3]);
    check(Math.abs(len - 1) < 1e-9, `ORCA line ${i} has a non-unit direction (length ${len})`);
  }
  const tol = 1e-6 * (1 + a.maxSpeed);
  if (status === ORCA_FEASIBLE) {
    const bad = satisfies(_orcaLines, lines, out.x, out.y, tol);
    check(bad < 0, `ORCA reports feasible but violates line ${bad} of ${lines}`);
  }
  // obstacle lines are hard: whenever they can be satisfied together within the speed disc, the result does
  if (obstacleLines > 0) {
    const tmp = new Float64Array(2);
    const ok = linearProgram2(_orcaLines, obstacleLines, a.maxSpeed, 0, 0, false, tmp) === obstacleLines;
    if (ok) {
      const bad = satisfies(_orcaLines, obstacleLines, out.x, out.y, tol);
      check(bad < 0, `obstacle line ${bad} violated although the obstacle lines are feasible (status ${status})`);
    }
  }
});

// ------------------------------------------------------------------------------------------------ collision

const shapeArb: fc.Arbitrary<Shape> = fc.oneof(
  dbl(0.05, 2).map((r) => sphereShape(r)),
  fc.tuple(dbl(0.05, 1), dbl(0, 2)).map(([r, h]) => capsuleShape(r, h)),
  fc.tuple(dbl(0.05, 2), dbl(0.05, 2), dbl(0.05, 2)).map(([x, y, z]) => boxShape(x, y, z)),
  fc.tuple(dbl(0.05, 2), dbl(0.05, 2)).map(([r, h]) => cylinderShape(r, h)),
  fc.array(fc.tuple(dbl(-1.5, 1.5), dbl(-1.5, 1.5), dbl(-1.5, 1.5)), { minLength: 6, maxLength: 16 }).map((pts) => {
    try { return hullShape(pts.flat()); } catch { return boxShape(0.5, 0.5, 0.5); } // coplanar clouds: documented throw
  }),
);
const poseArb = fc.record({ x: dbl(-3, 3), y: dbl(-3, 3), z: dbl(-3, 3), q: fc.tuple(dbl(-1, 1), dbl(-1, 1), dbl(-1, 1), dbl(-1, 1)) })
  .filter((p) => p.q[0] ** 2 + p.q[1] ** 2 + p.q[2] ** 2 + p.q[3] ** 2 > 1e-3);

/**
 * Two orientations whose relative rotation is a hair (< 1e-6) off a symmetric one (identity, quarter or half turns
 * about the axes): some entry of Raᵀ·Rb is within 1e-6 of 0 or ±1 without being exactly that. These are the poses
 * where the manifold defect shows (deep overlaps report negative depth).
 */
function nearlySymmetric(qa: readonly number[], qb: readonly number[]): boolean {
  const a = setPoseQuat(createPose(), 0, 0, 0, qa[0], qa[1], qa[2], qa[3]);
  const b = setPoseQuat(createPose(), 0, 0, 0, qb[0], qb[1], qb[2], qb[3]);
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) {
    let e = 0;
    for (let k = 0; k < 3; k++) e += a[3 + 3 * k + i] * b[3 + 3 * k + j];
    const m = Math.abs(e);
    if ((m > 0 && m < 1e-6) || (m !== 1 && Math.abs(m - 1) < 1e-6)) return true;
  }
  return false;
}

const collisionProperty = fc.property(shapeArb, shapeArb, poseArb, poseArb, dbl(0, 0.2), (sa, sb, pa, pb, margin) => {
  const qa = pa.q as number[];
  let qb = pb.q as number[];
  if (knownDefect(nearlySymmetric(qa, qb))) {
    for (let t = 1; t <= 4 && nearlySymmetric(qa, qb); t++) qb = [qb[0] + 0.07 * t, qb[1] - 0.04 * t, qb[2] + 0.03 * t, qb[3]];
  }
  const poseA = setPoseQuat(createPose(), pa.x, pa.y, pa.z, qa[0], qa[1], qa[2], qa[3]);
  const poseB = setPoseQuat(createPose(), pb.x, pb.y, pb.z, qb[0], qb[1], qb[2], qb[3]);
  const d = gjkDistance(sa, poseA, sb, poseB, createDistanceOutput());
  finite(d.distance, 'gjk distance');
  check(d.distance >= 0, `negative distance ${d.distance}`);
  check(d.iterations <= GJK_MAX_ITERATIONS, `GJK used ${d.iterations} iterations`);
  if (!d.overlap) {
    for (let i = 0; i < 3; i++) { finite(d.pointA[i], 'pointA'); finite(d.pointB[i], 'pointB'); finite(d.normal[i], 'normal'); }
    const gap = Math.hypot(d.pointB[0] - d.pointA[0], d.pointB[1] - d.pointA[1], d.pointB[2] - d.pointA[2]);
    check(Math.abs(gap - d.distance) <= 1e-6 * (1 + d.distance), `closest points are ${gap} apart, distance says ${d.distance}`);
    check(Math.abs(Math.hypot(d.normal[0], d.normal[1], d.normal[2]) - 1) < 1e-9, 'normal not unit');
  }
  // sphere-sphere closed form
  if (sa.kind === 'sphere' && sb.kind === 'sphere') {
    const exact = Math.max(0, Math.hypot(pb.x - pa.x, pb.y - pa.y, pb.z - pa.z) - sa.radius - sb.radius);
    check(Math.abs(d.distance - exact) <= 1e-9, `sphere distance ${d.distance}, exact ${exact}`);
  }
  const ov = gjkOverlap(sa, poseA, sb, poseB);
  check(ov === d.overlap || d.distance < 1e-6, `gjkOverlap ${ov} disagrees with gjkDistance (distance ${d.distance})`);
  const m = contactManifold(createManifoldInput(sa, poseA, sb, poseB, margin), createManifold());
  check(m.count >= 0 && m.count <= 4, `manifold count ${m.count}`);
  check(m.gjkIterations <= GJK_MAX_ITERATIONS && m.epaIterations <= EPA_MAX_ITERATIONS, `iterations gjk ${m.gjkIterations} epa ${m.epaIterations}`);
  if (m.count > 0) {
    finite(m.depth, 'manifold depth');
    check(Math.abs(Math.hypot(m.normal[0], m.normal[1], m.normal[2]) - 1) < 1e-6, 'manifold normal not unit');
    for (let i = 0; i < 3 * m.count; i++) finite(m.points[i], `manifold point ${i}`);
    for (let i = 0; i < m.count; i++) finite(m.depths[i], `manifold depth ${i}`);
    check(m.depth >= -margin - 1e-6, `manifold depth ${m.depth} below -margin ${-margin}`);
  }
  if (d.overlap && d.distance === 0 && ov) check(m.count > 0, 'shapes overlap but the manifold is empty');
  if (d.distance > margin + 1e-6) check(m.count === 0, `shapes are ${d.distance} apart (margin ${margin}) but the manifold has ${m.count} points`);
});

/** Axis-aligned boxes (no rotation): the penetration depth has a closed form, the smallest axis overlap. */
const boxDepthProperty = fc.property(
  fc.tuple(dbl(0.1, 2), dbl(0.1, 2), dbl(0.1, 2)), fc.tuple(dbl(0.1, 2), dbl(0.1, 2), dbl(0.1, 2)), fc.tuple(dbl(-2, 2), dbl(-2, 2), dbl(-2, 2)),
  (ha, hb, off) => {
    const a = boxShape(...ha), b = boxShape(...hb);
    const overlaps = [0, 1, 2].map((i) => ha[i] + hb[i] - Math.abs(off[i]));
    const depth = Math.min(...overlaps);
    const m = contactManifold(createManifoldInput(a, createPose(), b, createPose(off[0], off[1], off[2])), createManifold());
    if (depth <= 1e-6) { if (depth < -1e-6) check(m.count === 0, `separated boxes (gap ${-depth}) gave ${m.count} contacts`); return; }
    check(m.count > 0, 'overlapping boxes gave no contact');
    check(Math.abs(m.depth - depth) <= 1e-6 * (1 + depth), `box depth ${m.depth}, exact ${depth}`);
  });

// ------------------------------------------------------------------------------------------------ 2D manifold

const shape2Arb: fc.Arbitrary<Shape2> = fc.oneof(
  dbl(0.05, 2).map((r) => circleShape(r)),
  fc.tuple(fc.array(fc.tuple(dbl(-1.5, 1.5), dbl(-1.5, 1.5)), { minLength: 3, maxLength: 10 }), fc.oneof(fc.constant(0), dbl(0, 0.3))).map(([pts, radius]) => {
    try { return polygonShape(pts.flat(), radius); } catch { return polygonShape([-0.5, -0.3, 0.5, -0.3, 0.5, 0.3, -0.5, 0.3], radius); } // degenerate hull: documented throw
  }),
);
const pose2Arb = fc.record({ x: dbl(-3, 3), y: dbl(-3, 3), angle: dbl(-7, 7) });

/** World vertices of a sharp polygon (through the pose's own cos/sin, as the kernel uses them). */
function worldVerts(s: Shape2, p: Pose2): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.count; i++) {
    const x = s.verts[2 * i], y = s.verts[2 * i + 1];
    out.push(p[0] + p[2] * x - p[3] * y, p[1] + p[3] * x + p[2] * y);
  }
  return out;
}
/** Overlap of the two vertex sets' projections on axis (nx, ny): positive = overlap length, negative = gap. */
function axisOverlap(va: number[], vb: number[], nx: number, ny: number): number {
  let a0 = Infinity, a1 = -Infinity, b0 = Infinity, b1 = -Infinity;
  for (let i = 0; i < va.length; i += 2) { const d = va[i] * nx + va[i + 1] * ny; a0 = Math.min(a0, d); a1 = Math.max(a1, d); }
  for (let i = 0; i < vb.length; i += 2) { const d = vb[i] * nx + vb[i + 1] * ny; b0 = Math.min(b0, d); b1 = Math.max(b1, d); }
  return Math.min(a1 - b0, b1 - a0);
}
/** Distance between two disjoint convex polygons (world vertices): the smallest vertex-to-edge distance either way. */
function polygonDistance(va: number[], vb: number[]): number {
  let d = Infinity;
  for (const [p, q] of [[va, vb], [vb, va]]) {
    for (let i = 0; i < p.length; i += 2) d = Math.min(d, signedDistance(q, p[i], p[i + 1]));
  }
  return d;
}
/** Signed distance from (px, py) to a convex polygon given by world vertices (CCW): negative inside. */
function signedDistance(v: number[], px: number, py: number): number {
  const n = v.length / 2;
  let inside = true, best = Infinity, maxLine = -Infinity;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n, ax = v[2 * i], ay = v[2 * i + 1], ex = v[2 * j] - ax, ey = v[2 * j + 1] - ay, l = Math.hypot(ex, ey);
    const line = (ex * (py - ay) - ey * (px - ax)) / -l; // > 0 on the outer side (right of a CCW edge)
    if (line > 0) inside = false;
    maxLine = Math.max(maxLine, line);
    const t = Math.max(0, Math.min(1, ((px - ax) * ex + (py - ay) * ey) / (l * l)));
    best = Math.min(best, Math.hypot(px - ax - t * ex, py - ay - t * ey));
  }
  return inside ? maxLine : best;
}

/**
 * 2D manifold (contactManifold2) against closed forms, for circles and sharp or rounded polygons: circle–circle by
 * the centre distance, circle–polygon by the signed distance of the centre to the polygon's core, polygon–polygon by
 * the separating axis theorem on the cores (the penetration is the smallest overlap over both polygons' edge
 * normals) or, for disjoint cores, their exact distance (smallest vertex–edge distance); radii added. Also:
 * finite outputs, at most 2 points, unit normal, iteration caps, and the shapes' overlap along the reported normal
 * equal to the reported depth (a correct normal is a direction of least penetration).
 */
const manifold2Property = fc.property(shape2Arb, shape2Arb, pose2Arb, pose2Arb, dbl(0, 0.2), (sa, sb, pa, pb, margin) => {
  const poseA = setPose2(createPose2(), pa.x, pa.y, pa.angle), poseB = setPose2(createPose2(), pb.x, pb.y, pb.angle);
  const m = contactManifold2(createManifold2Input(sa, poseA, sb, poseB, margin), createManifold2());
  check(m.count >= 0 && m.count <= 2, `count ${m.count}`);
  check(m.gjkIterations <= GJK2_MAX_ITERATIONS && m.epaIterations <= EPA2_MAX_ITERATIONS, `iterations gjk ${m.gjkIterations} epa ${m.epaIterations}`);
  const scale = sa.boundingRadius + sb.boundingRadius;
  const tol = 1e-6 * (1 + scale);
  if (m.count > 0) {
    finite(m.depth, 'depth');
    check(Math.abs(Math.hypot(m.normal[0], m.normal[1]) - 1) < 1e-9, 'normal not unit');
    for (let i = 0; i < 2 * m.count; i++) finite(m.points[i], `point ${i}`);
    for (let i = 0; i < m.count; i++) finite(m.depths[i], `depth ${i}`);
  }
  // The reference penetration depth of the rounded shapes (negative: their gap), from the cores: a polygon's core is
  // the polygon, a circle's its centre. Overlapping cores: their penetration (SAT for two polygons, the signed distance
  // of the centre for circle-polygon) plus both radii; disjoint cores: both radii minus the cores' exact distance.
  const rr = sa.radius + sb.radius;
  let ref: number;
  if (sa.kind === 'circle' && sb.kind === 'circle') ref = rr - Math.hypot(pb.x - pa.x, pb.y - pa.y);
  else if (sa.kind === 'circle') ref = rr - signedDistance(worldVerts(sb, poseB), poseA[0], poseA[1]);
  else if (sb.kind === 'circle') ref = rr - signedDistance(worldVerts(sa, poseA), poseB[0], poseB[1]);
  else {
    const va = worldVerts(sa, poseA), vb = worldVerts(sb, poseB);
    let sat = Infinity;
    for (const v of [va, vb]) {
      const n = v.length / 2;
      for (let i = 0; i < n; i++) {
        const j = (i + 1) % n, ex = v[2 * j] - v[2 * i], ey = v[2 * j + 1] - v[2 * i + 1], l = Math.hypot(ex, ey);
        sat = Math.min(sat, axisOverlap(va, vb, ey / l, -ex / l));
      }
    }
    // SAT's smallest overlap is the cores' penetration; separated, their exact distance is a vertex-edge distance
    ref = sat > 0 ? sat + rr : rr - polygonDistance(va, vb);
  }
  if (ref < -margin - tol) check(m.count === 0, `shapes ${-ref} apart (margin ${margin}) but ${m.count} contacts`);
  if (ref > tol) {
    check(m.count > 0, `shapes overlap by ${ref} but no contact`);
    check(Math.abs(m.depth - ref) <= tol, `depth ${m.depth}, reference ${ref}`);
    if (sa.kind === 'polygon' && sb.kind === 'polygon' && ref > rr + tol) {
      const along = axisOverlap(worldVerts(sa, poseA), worldVerts(sb, poseB), m.normal[0], m.normal[1]) + rr;
      check(Math.abs(along - m.depth) <= tol, `overlap along the reported normal ${along}, depth ${m.depth}`);
    }
  } else if (ref < -tol && m.count > 0) {
    check(Math.abs(m.depth - ref) <= tol, `speculative depth ${m.depth}, reference gap ${ref}`);
  }
});

// ------------------------------------------------------------------------------------------------ navmesh

/*
 * Random polygon maps: a rectangular boundary split into a 3 × 3 grid of cells; up to 6 cells hold one obstacle, a
 * star polygon of 3–7 vertices (jittered angles in equal sectors, so it is simple; concave in general; n = 3 gives
 * any triangle) or an axis-aligned box, centred in its cell and at most 0.4 of the cell's smaller side from the
 * centre, so obstacles keep ≥ 0.1·cell from each other and from the boundary. With `wall`, the middle column holds
 * no obstacle but a wall that sticks out of the boundary at both ends (the builder clips it): the free space is then
 * two components, left and right of it. Radius > 0 stays below 0.4 of that clearance margin over the circumscribed
 * k-gon's 1/cos(π/8), so inflated obstacles never merge or reach the shrunk boundary: the free space stays connected
 * (one component per side of the wall), which the reachability oracle below relies on.
 */
type Pt = [number, number];
interface NavCase { w: number; h: number; ox: number; oy: number; cells: number[]; kinds: { verts: number; box: boolean; angles: number[]; radii: number[] }[]; wall: boolean; wallA: number; wallB: number; rf: number; pts: [number, number][]; look: number; edgeStart: number | null }
const navCase: fc.Arbitrary<NavCase> = fc.record({
  w: uni(3, 60), h: uni(3, 60), ox: uni(-100, 100), oy: uni(-100, 100),
  cells: fc.uniqueArray(fc.nat(8), { maxLength: 6 }),
  kinds: fc.array(fc.record({ verts: fc.integer({ min: 3, max: 7 }), box: fc.boolean(), angles: fc.array(uni(0.1, 0.9), { minLength: 7, maxLength: 7 }), radii: fc.array(uni(0.25, 1), { minLength: 7, maxLength: 7 }) }), { minLength: 6, maxLength: 6 }),
  wall: fc.boolean(), wallA: uni(0.3, 0.45), wallB: uni(0.55, 0.7), rf: uni(0.05, 1),
  pts: fc.array(fc.tuple(uni(0, 1), uni(0, 1)), { minLength: 24, maxLength: 24 }),
  look: fc.nat(40),
  edgeStart: fc.option(fc.nat(), { freq: 3 }),
});

interface NavMap { boundary: Pt[]; obstacles: Pt[][]; /** x range of the wall, or null */ wall: [number, number] | null; margin: number; scale: number }

export function makeNavMap(c: NavCase): NavMap {
  const x0 = c.ox, y0 = c.oy, cw = c.w / 3, ch = c.h / 3, m = Math.min(cw, ch);
  const boundary: Pt[] = [[x0, y0], [x0 + c.w, y0], [x0 + c.w, y0 + c.h], [x0, y0 + c.h]];
  const obstacles: Pt[][] = [];
  c.cells.forEach((cell, k) => {
    const col = cell % 3, row = (cell - col) / 3;
    if (c.wall && col === 1) return;
    const cx = x0 + (col + 0.5) * cw, cy = y0 + (row + 0.5) * ch, kind = c.kinds[k];
    if (kind.box) {
      const hx = 0.4 * m * kind.radii[0] / Math.SQRT2, hy = 0.4 * m * kind.radii[1] / Math.SQRT2;
      obstacles.push([[cx - hx, cy - hy], [cx + hx, cy - hy], [cx + hx, cy + hy], [cx - hx, cy + hy]]);
      return;
    }
    const n = kind.verts, poly: Pt[] = [];
    for (let i = 0; i < n; i++) {
      const a = ((i + kind.angles[i]) * 2 * Math.PI) / n, r = 0.4 * m * kind.radii[i];
      poly.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
    }
    if (Math.abs(shoelace(poly)) > 1e-6 * m * m) obstacles.push(poly); // a (nearly) collinear triangle is bad input, tested apart
  });
  let wall: [number, number] | null = null;
  if (c.wall) {
    const a = x0 + cw * (1 + c.wallA), b = x0 + cw * (1 + c.wallB);
    wall = [a, b];
    obstacles.push([[a, y0 - 1], [b, y0 - 1], [b, y0 + c.h + 1], [a, y0 + c.h + 1]]);
  }
  return { boundary, obstacles, wall, margin: 0.1 * m, scale: Math.max(c.w, c.h) + Math.abs(c.ox) + Math.abs(c.oy) };
}

/** Signed area (positive counter-clockwise), shoelace formula. */
function shoelace(p: Pt[]): number {
  let a = 0;
  for (let i = 0; i < p.length; i++) { const q = p[i], r = p[(i + 1) % p.length]; a += q[0] * r[1] - r[0] * q[1]; }
  return a / 2;
}
/** Even-odd point in polygon (crossing number). Points on the border may go either way: callers add tolerances. */
function inPoly(poly: Pt[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i], b = poly[j];
    if ((a[1] > y) !== (b[1] > y) && x < ((b[0] - a[0]) * (y - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}
function segDist(x: number, y: number, a: Pt, b: Pt): number {
  const dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
  const t = l2 > 0 ? Math.max(0, Math.min(1, ((x - a[0]) * dx + (y - a[1]) * dy) / l2)) : 0;
  return Math.hypot(x - a[0] - t * dx, y - a[1] - t * dy);
}
/** Distance from (x, y) to the polygon's border, negative inside. */
function polyDist(poly: Pt[], x: number, y: number): number {
  let d = Infinity;
  for (let i = 0; i < poly.length; i++) d = Math.min(d, segDist(x, y, poly[i], poly[(i + 1) % poly.length]));
  return inPoly(poly, x, y) ? -d : d;
}
/** Clearance of a point in the original map: distance to the nearest obstacle or boundary edge, negative when inside an obstacle or outside the boundary. */
function clearance(map: NavMap, x: number, y: number): number {
  let d = -polyDist(map.boundary, x, y);
  for (const o of map.obstacles) d = Math.min(d, polyDist(o, x, y));
  return d;
}
function orient2(a: Pt, b: Pt, c: Pt): number { return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]); }
/**
 * Is segment a→b in the (closed) free space of the original map? Exact up to round-off: it must not cross any
 * polygon edge properly, and every piece between the obstacle vertices lying on it must have its midpoint in free
 * space (this catches a segment that enters an obstacle through one vertex and leaves through another).
 */
function segmentFreeExact(map: NavMap, a: Pt, b: Pt, tol: number): boolean {
  const ts = [0, 1];
  const dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
  for (const poly of [map.boundary, ...map.obstacles]) {
    for (let i = 0; i < poly.length; i++) {
      const c = poly[i], d = poly[(i + 1) % poly.length];
      const o1 = orient2(a, b, c), o2 = orient2(a, b, d), o3 = orient2(c, d, a), o4 = orient2(c, d, b);
      if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return false;
      if (l2 > 0 && segDist(c[0], c[1], a, b) <= tol) ts.push(Math.max(0, Math.min(1, ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / l2)));
    }
  }
  ts.sort((p, q) => p - q);
  for (let i = 0; i + 1 < ts.length; i++) {
    if (ts[i + 1] - ts[i] < 1e-12) continue;
    const t = (ts[i] + ts[i + 1]) / 2;
    if (clearance(map, a[0] + t * dx, a[1] + t * dy) < -tol) return false;
  }
  return true;
}
/** Smallest distance from segment a→b to any obstacle or boundary edge (0 if it crosses one). */
function segmentClearance(map: NavMap, a: Pt, b: Pt): number {
  let d = Infinity;
  for (const poly of [map.boundary, ...map.obstacles]) {
    for (let i = 0; i < poly.length; i++) {
      const c = poly[i], e = poly[(i + 1) % poly.length];
      const o1 = orient2(a, b, c), o2 = orient2(a, b, e), o3 = orient2(c, e, a), o4 = orient2(c, e, b);
      if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return 0;
      d = Math.min(d, segDist(a[0], a[1], c, e), segDist(b[0], b[1], c, e), segDist(c[0], c[1], a, b), segDist(e[0], e[1], a, b));
    }
  }
  return d;
}
/**
 * Euclidean shortest path length in the original map at radius 0: Dijkstra over the visibility graph of start, goal
 * and every obstacle vertex (Lozano-Pérez & Wesley 1979; shortest paths bend only at obstacle vertices), O(n²) edge
 * tests with segmentFreeExact. Boundary vertices are left out: the boundary is a rectangle, convex, so a shortest
 * path never bends at its corners.
 */
function visibilityShortest(map: NavMap, s: Pt, g: Pt, tol: number): number {
  const nodes: Pt[] = [s, g];
  for (const o of map.obstacles) for (const p of o) if (clearance(map, p[0], p[1]) > -tol && inPoly(map.boundary, p[0], p[1])) nodes.push(p);
  const n = nodes.length, d = new Float64Array(n).fill(Infinity), done = new Uint8Array(n);
  d[0] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && d[i] < Infinity && (u < 0 || d[i] < d[u])) u = i;
    if (u < 0 || u === 1) break;
    done[u] = 1;
    for (let v = 0; v < n; v++) {
      if (done[v]) continue;
      const w = d[u] + Math.hypot(nodes[v][0] - nodes[u][0], nodes[v][1] - nodes[u][1]);
      if (w < d[v] && segmentFreeExact(map, nodes[u], nodes[v], tol)) d[v] = w;
    }
  }
  return d[1];
}

const ARC = 8; // buildNavmesh's default arcSegments: the circumscribed octagon reaches r / cos(π/8) from a corner
const navQueryScratch = { portals: new Float64Array(4 * 4100), points: new Float64Array(2 * 4100), ray: new Int32Array(4096), corr: new Int32Array(8192) };

/**
 * Navmesh builder and path query on random maps (radius 0 and > 0), against oracles written here: the free area by
 * the shoelace formula, point-in-polygon for triangle centroids, the clearance of the original map, a visibility-graph
 * Dijkstra for the shortest length, an exact segment-in-free-space test for straight paths and rays, and the wall's
 * side for reachability. Also raycastMesh and corridorShortcut on the result.
 */
const navmeshProperty = fc.property(navCase, fc.boolean(), (c, inflated) => {
  const map = makeNavMap(c);
  const radius = inflated ? 0.4 * map.margin * c.rf * Math.cos(Math.PI / ARC) : 0;
  const tol = 1e-9 * map.scale;
  const mesh = buildNavmesh({ boundary: map.boundary, obstacles: map.obstacles }, { radius });
  const V = mesh.vertices, T = mesh.triangles, N = mesh.neighbours;
  check(mesh.triangleCount > 0, 'no triangles');
  for (let i = 0; i < 2 * mesh.vertexCount; i++) finite(V[i], `vertex coordinate ${i}`);
  let area = 0;
  for (let t = 0; t < mesh.triangleCount; t++) {
    const a = T[3 * t], b = T[3 * t + 1], d = T[3 * t + 2];
    const tri: Pt[] = [[V[2 * a], V[2 * a + 1]], [V[2 * b], V[2 * b + 1]], [V[2 * d], V[2 * d + 1]]];
    const at = shoelace(tri);
    check(at > 0, `triangle ${t} has signed area ${at} (degenerate or clockwise)`);
    area += at;
    const gx = (tri[0][0] + tri[1][0] + tri[2][0]) / 3, gy = (tri[0][1] + tri[1][1] + tri[2][1]) / 3;
    check(inPoly(map.boundary, gx, gy), `triangle ${t}'s centroid (${gx}, ${gy}) is outside the boundary`);
    for (let k = 0; k < map.obstacles.length; k++) check(!inPoly(map.obstacles[k], gx, gy), `triangle ${t}'s centroid (${gx}, ${gy}) is inside obstacle ${k}`);
    if (radius > 0) { // inflation keeps every point of the mesh at least r from the original map's walls (docs/NAVMESH.md)
      for (const [px, py] of [...tri, [gx, gy]]) {
        const cl = clearance(map, px, py);
        check(cl >= radius - tol, `triangle ${t}: point (${px}, ${py}) has clearance ${cl} < radius ${radius}`);
      }
    }
    for (let k = 0; k < 3; k++) { // neighbour links are symmetric, across the same edge reversed, within one component
      const u = N[3 * t + k];
      if (u < 0) continue;
      check(u < mesh.triangleCount, `neighbour ${u} out of range`);
      const p = T[3 * t + k], q = T[3 * t + (k + 1) % 3];
      let back = -1;
      for (let j = 0; j < 3; j++) if (N[3 * u + j] === t) back = j;
      check(back >= 0, `triangle ${t} links to ${u} across edge ${k} but ${u} does not link back`);
      check(T[3 * u + back] === q && T[3 * u + (back + 1) % 3] === p, `triangles ${t} and ${u} link across different edges`);
      check(mesh.component[t] === mesh.component[u], `neighbours ${t} and ${u} in different components`);
    }
  }
  if (radius === 0) {
    // No obstacle touches another or the boundary, and the wall's clipped part is a rectangle: the free area is the
    // boundary's minus each obstacle's (clipped to the boundary for the wall).
    let free = Math.abs(shoelace(map.boundary));
    for (const o of map.obstacles) free -= Math.abs(shoelace(o));
    if (map.wall) free += 2 * (map.wall[1] - map.wall[0]); // the wall sticks out 1 m at each end
    check(Math.abs(area - free) <= 1e-9 * Math.abs(shoelace(map.boundary)), `triangles cover ${area} m², the free area is ${free} m²`);
  }
  // Start/goal points in free space, by rejection: clearance ≥ 0 at radius 0 (strictly inside, so on the mesh), and
  // beyond the circumscribed k-gon's reach r / cos(π/k) at radius > 0 (then they are on the inflated mesh too).
  const need = radius > 0 ? (radius / Math.cos(Math.PI / ARC)) * 1.001 + tol : 1e-9 * map.scale;
  const free: Pt[] = [];
  for (const [u, v] of c.pts) {
    const x = c.ox + u * c.w, y = c.oy + v * c.h;
    if (clearance(map, x, y) > need) free.push([x, y]);
  }
  // Edge-case family (once a defect, fixed 2026-11-29 in findNavPath): the first start is the midpoint of an
  // interior mesh edge, so it lies on (or within round-off of) an edge shared by two triangles. Point location puts
  // it in either; the corridor must not then begin behind it (the funnel detoured through the edge's far end).
  const interior: number[] = [];
  for (let e = 0; e < 3 * mesh.triangleCount; e++) if (N[e] > e / 3) interior.push(e);
  if (c.edgeStart !== null && interior.length > 0 && !knownDefect(true)) {
    const e = interior[c.edgeStart % interior.length], t = (e / 3) | 0, k = e % 3;
    const a = T[3 * t + k], b = T[3 * t + (k + 1) % 3];
    free.unshift([(V[2 * a] + V[2 * b]) / 2, (V[2 * a + 1] + V[2 * b + 1]) / 2]);
  }
  const query = createNavQuery(mesh), res = createNavPathResult();
  const { portals, points, ray, corr } = navQueryScratch;
  for (let qi = 0; qi + 1 < free.length && qi < 6; qi += 2) {
    const s = free[qi], g = free[qi + 1];
    const status = findNavPath(query, s[0], s[1], g[0], g[1], res);
    const side = (p: Pt) => (map.wall === null ? 0 : p[0] < map.wall[0] ? -1 : 1);
    if (side(s) !== side(g)) {
      check(status === 'unreachable', `start and goal on opposite sides of the wall, status ${status}`);
      check(res.length === Infinity, `unreachable but length ${res.length}`);
      continue;
    }
    check(status === 'found', `start (${s}) and goal (${g}) are connected in the map but the status is ${status}`);
    check(res.startX === s[0] && res.startY === s[1] && res.goalX === g[0] && res.goalY === g[1], `endpoints moved: (${res.startX}, ${res.startY}) → (${res.goalX}, ${res.goalY})`);
    finite(res.length, 'path length');
    const straight = Math.hypot(g[0] - s[0], g[1] - s[1]);
    check(res.length >= straight * (1 - 1e-12), `path length ${res.length} < straight distance ${straight}`);
    const count = corridorPortals(mesh, res.corridor, res.corridorLength, s[0], s[1], g[0], g[1], portals);
    const np = funnel(portals, count, 0, points);
    // the funnel drops exact repeats, so start = goal is a one-point path (found by the long run: both sampled points equal)
    check(np >= (straight > 0 ? 2 : 1), `funnel returned ${np} (start-goal distance ${straight})`);
    check(points[0] === s[0] && points[1] === s[1] && points[2 * np - 2] === g[0] && points[2 * np - 1] === g[1], 'funnelled path does not run from start to goal');
    const plen = polylineLength(points, np);
    check(Math.abs(plen - res.length) <= 1e-9 * Math.max(1, res.length), `funnelled length ${plen}, search length ${res.length}`);
    // every path point, sampled densely, is in the map's free space (radius 0) or keeps the radius (radius > 0)
    for (let i = 0; i + 1 < np; i++) {
      const ax = points[2 * i], ay = points[2 * i + 1], bx = points[2 * i + 2], by = points[2 * i + 3];
      for (let k = 0; k <= 32; k++) {
        const x = ax + ((bx - ax) * k) / 32, y = ay + ((by - ay) * k) / 32, cl = clearance(map, x, y);
        check(cl >= radius - tol, `path point (${x}, ${y}) on leg ${i} has clearance ${cl} (radius ${radius})`);
      }
    }
    if (radius === 0) {
      const best = visibilityShortest(map, s, g, tol);
      check(Math.abs(res.length - best) <= 1e-9 * Math.max(1, best), `path length ${res.length}, visibility-graph shortest ${best}`);
      if (segmentFreeExact(map, s, g, tol)) check(Math.abs(res.length - straight) <= 1e-9 * Math.max(1, straight), `straight segment free but length ${res.length} ≠ ${straight}`);
    } else if (segmentClearance(map, s, g) > need) {
      check(Math.abs(res.length - straight) <= 1e-9 * Math.max(1, straight), `straight segment clear of the inflated obstacles but length ${res.length} ≠ ${straight}`);
    }
    // raycastMesh from the start triangle to the goal: reaches it exactly when the segment is free
    const st = locateTriangle(mesh, s[0], s[1]);
    check(st >= 0 && pointInTriangle(mesh, res.corridor[0], s[0], s[1]), `start triangle ${st}; the corridor's first triangle ${res.corridor[0]} does not hold the start`);
    const nr = raycastMesh(mesh, st, s[0], s[1], g[0], g[1], ray);
    const clearSeg = segmentClearance(map, s, g);
    if (radius === 0 ? clearSeg > tol && segmentFreeExact(map, s, g, tol) : clearSeg > need) {
      check(nr > 0, `the segment is free (clearance ${clearSeg}) but raycastMesh stopped after ${-nr} triangles`);
    } else if (radius === 0 ? !segmentFreeExact(map, s, g, tol) : clearSeg < radius * (1 - 1e-6)) {
      check(nr < 0, `the segment crosses an obstacle (clearance ${clearSeg}) but raycastMesh reached the goal`);
    }
    if (nr > 0) check(pointInTriangle(mesh, ray[nr - 1], g[0], g[1]), 'raycastMesh ended in a triangle without the goal');
    for (let i = 0; i + 1 < Math.abs(nr); i++) check(N[3 * ray[i]] === ray[i + 1] || N[3 * ray[i] + 1] === ray[i + 1] || N[3 * ray[i] + 2] === ray[i + 1], `ray triangles ${ray[i]}, ${ray[i + 1]} not adjacent`);
    // corridorShortcut: the new corridor is a chain of adjacent triangles from the start's to the goal's, no longer,
    // and its funnelled path is still in free space and no shorter than the optimum
    const len = res.corridorLength;
    corr.set(res.corridor.subarray(0, len));
    const nl = corridorShortcut(mesh, corr, 0, len, s[0], s[1], c.look, ray);
    check(nl >= 1 && nl <= len, `corridorShortcut length ${nl} from ${len}`);
    check(corr[0] === res.corridor[0] && corr[nl - 1] === res.corridor[len - 1], 'shortcut corridor does not run from the start triangle to the goal triangle');
    for (let i = 0; i + 1 < nl; i++) check(N[3 * corr[i]] === corr[i + 1] || N[3 * corr[i] + 1] === corr[i + 1] || N[3 * corr[i] + 2] === corr[i + 1], `shortcut corridor: ${corr[i]}, ${corr[i + 1]} not adjacent`);
    const cs = corridorPortals(mesh, corr, nl, s[0], s[1], g[0], g[1], portals);
    const ns = funnel(portals, cs, 0, points);
    const slen = polylineLength(points, ns);
    check(slen >= res.length * (1 - 1e-9), `shortcut corridor's path ${slen} shorter than the shortest ${res.length}`);
    for (let i = 0; i + 1 < ns; i++) {
      const ax = points[2 * i], ay = points[2 * i + 1], bx = points[2 * i + 2], by = points[2 * i + 3];
      for (let k = 0; k <= 16; k++) {
        const x = ax + ((bx - ax) * k) / 16, y = ay + ((by - ay) * k) / 16, cl = clearance(map, x, y);
        check(cl >= radius - tol, `shortcut path point (${x}, ${y}) has clearance ${cl} (radius ${radius})`);
      }
    }
  }
});

/**
 * Bad polygons: a ring with fewer than 3 distinct points, all points collinear (zero area), a bow-tie, or a NaN /
 * infinite coordinate, as the boundary or as an obstacle: buildNavmesh throws the documented typed error
 * (DegenerateGeometryError, or InvalidArgumentError naming the coordinate), never returns a mesh.
 */
const navmeshBadInputProperty = fc.property(
  fc.constantFrom('few', 'collinear', 'bowtie', 'nan', 'inf'), fc.boolean(), uni(1, 50), fc.tuple(uni(-1, 1), uni(-1, 1)), fc.array(uni(0.05, 0.95), { minLength: 5, maxLength: 5 }), fc.nat(3),
  (kind, asBoundary, size, dir, ts, at) => {
    const d = Math.hypot(dir[0], dir[1]) > 1e-3 ? dir : [1, 0.5];
    const base: Pt = [0.5 * size, 0.5 * size];
    let ring: Pt[];
    if (kind === 'few') ring = [[base[0], base[1]], [base[0] + d[0] * ts[0], base[1] + d[1] * ts[0]], [base[0], base[1]]];
    // Exactly collinear in floating point: base + k·(dx, dy) with small integers k and dyadic base, dx, dy, so every
    // coordinate is exact (a line through arbitrary doubles is not: round-off makes a real, if tiny, triangle, which
    // the builder rightly accepts; the long run first had such a case here).
    else if (kind === 'collinear') { const q = (v: number) => Math.round(v * 1024) / 1024, dx = q(d[0]), dy = q(d[1]) || 1 / 1024, bx = q(base[0]), by = q(base[1]); ring = ts.map((t) => { const k = Math.round(t * 20) - 10; return [bx + k * dx, by + k * dy] as Pt; }); }
    else if (kind === 'bowtie') { const a = 0.1 * size + ts[0] * 0.2 * size, b = 0.6 * size + ts[1] * 0.3 * size; ring = [[a, a], [b, b], [b, a], [a, b]]; }
    else { const a = 0.2 * size, b = 0.4 * size; ring = [[a, a], [b, a], [b, b], [a, b]]; ring[at] = [ring[at][0], kind === 'nan' ? NaN : -Infinity]; }
    const rect: Pt[] = [[0, 0], [size, 0], [size, size], [0, size]];
    let mesh: unknown = null, err: unknown = null;
    try { mesh = buildNavmesh(asBoundary ? { boundary: ring } : { boundary: rect, obstacles: [ring] }); } catch (e) { err = e; }
    check(mesh === null, `${kind} ${asBoundary ? 'boundary' : 'obstacle'} accepted`);
    const field = asBoundary ? 'map.boundary' : 'map.obstacles[0]';
    if (kind === 'nan' || kind === 'inf') check(err instanceof InvalidArgumentError && (err as Error).message.includes(`${field}[${at}][1]`), `${kind}: expected InvalidArgumentError naming ${field}[${at}][1], got ${String(err)}`);
    else check(err instanceof DegenerateGeometryError && (err as Error).message.includes(field), `${kind}: expected DegenerateGeometryError naming ${field}, got ${String(err)}`);
  });

// ------------------------------------------------------------------------------------------------ navmesh builder: merged obstacles, concave boundaries

/*
 * Maps the first navmesh property avoids: a concave boundary (a skyline of integer columns, or a star polygon) with
 * obstacles that touch, overlap, share edges or a single vertex (pinch points), touch the boundary or stick out of
 * it. Boxes sit on the integer grid, so touching is exact; star polygons are anywhere (their centre strictly inside
 * the boundary, so no obstacle lies wholly outside it) and overlap the boxes and each other. Coordinates are scaled
 * by a power of two and shifted by an integer, which keeps the grid exact.
 */
interface MergeCase {
  sky: boolean; cols: number[]; starN: number; starA: number[]; starR: number[];
  boxes: { rel: number; x: number; y: number; w: number; h: number }[];
  stars: { u: number; v: number; n: number; a: number[]; r: number[]; size: number }[];
  scale: number; ox: number; oy: number; inflated: boolean; rf: number; samples: number;
}
const mergeCase: fc.Arbitrary<MergeCase> = fc.record({
  sky: fc.boolean(), cols: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 2, maxLength: 8 }),
  starN: fc.integer({ min: 4, max: 12 }), starA: fc.array(uni(0.1, 0.9), { minLength: 12, maxLength: 12 }), starR: fc.array(uni(0.35, 1), { minLength: 12, maxLength: 12 }),
  // rel: 0 anywhere on the grid; 1 sharing a side with the previous box, 2 meeting it at one corner, 3 overlapping it
  boxes: fc.array(fc.record({ rel: fc.constantFrom(0, 0, 1, 2, 3), x: fc.integer({ min: -1, max: 8 }), y: fc.integer({ min: -1, max: 6 }), w: fc.integer({ min: 1, max: 3 }), h: fc.integer({ min: 1, max: 3 }) }), { maxLength: 10 }),
  stars: fc.array(fc.record({ u: uni(0, 1), v: uni(0, 1), n: fc.integer({ min: 3, max: 7 }), a: fc.array(uni(0.1, 0.9), { minLength: 7, maxLength: 7 }), r: fc.array(uni(0.25, 1), { minLength: 7, maxLength: 7 }), size: uni(0.2, 1.6) }), { maxLength: 5 }),
  scale: fc.constantFrom(0.25, 1, 4, 16), ox: fc.integer({ min: -60, max: 60 }), oy: fc.integer({ min: -60, max: 60 }),
  inflated: fc.boolean(), rf: uni(0.02, 0.3), samples: fc.nat(),
});

function makeMergeMap(c: MergeCase): { boundary: Pt[]; obstacles: Pt[][]; size: number } {
  const k = c.cols.length, H = Math.max(...c.cols);
  let boundary: Pt[];
  if (c.sky) {
    // bottom edge, then the skyline right to left: a simple orthogonal polygon, concave wherever heights change
    boundary = [[0, 0], [k, 0]];
    for (let i = k - 1; i >= 0; i--) boundary.push([i + 1, c.cols[i]], [i, c.cols[i]]);
  } else {
    boundary = [];
    const cx = k / 2, cy = H / 2, R = Math.max(k, H) / 2;
    for (let i = 0; i < c.starN; i++) {
      const a = ((i + c.starA[i]) * 2 * Math.PI) / c.starN;
      boundary.push([cx + R * c.starR[i] * Math.cos(a), cy + R * c.starR[i] * Math.sin(a)]);
    }
  }
  const inside = (x: number, y: number) => polyDist(boundary, x, y) < -1e-9;
  const obstacles: Pt[][] = [];
  const kept: { x: number; y: number; w: number; h: number }[] = [];
  for (const b0 of c.boxes) {
    const p = kept[kept.length - 1], b = { ...b0 };
    if (p !== undefined && b.rel === 1) { b.x = p.x + p.w; b.y = p.y + Math.min(p.h - 1, Math.abs(b0.y) % p.h); }
    else if (p !== undefined && b.rel === 2) { b.x = p.x + p.w; b.y = p.y + p.h; }
    else if (p !== undefined && b.rel === 3) { b.x = p.x + (p.w > 1 ? 1 : 0); b.y = p.y + (p.h > 1 ? 1 : 0); }
    if (!inside(b.x + b.w / 2, b.y + b.h / 2)) continue;
    // families reached (counted for the report): boxes overlapping, sharing an edge, meeting at one corner only
    // (a pinch), or reaching the boundary's bounding box edge or beyond it (touching or clipped)
    for (const o of kept) {
      const ix = Math.min(b.x + b.w, o.x + o.w) - Math.max(b.x, o.x), iy = Math.min(b.y + b.h, o.y + o.h) - Math.max(b.y, o.y);
      if (ix > 0 && iy > 0) builderStats.overlapping++;
      else if ((ix === 0 && iy > 0) || (iy === 0 && ix > 0)) builderStats.sharedSide++;
      else if (ix === 0 && iy === 0) builderStats.pinches++;
    }
    if (b.x <= 0 || b.y <= 0 || b.x + b.w >= k) builderStats.atBoundary++;
    kept.push(b);
    obstacles.push([[b.x, b.y], [b.x + b.w, b.y], [b.x + b.w, b.y + b.h], [b.x, b.y + b.h]]);
  }
  for (const s of c.stars) {
    const cx = s.u * k, cy = s.v * H;
    if (!inside(cx, cy)) continue;
    const poly: Pt[] = [];
    for (let i = 0; i < s.n; i++) {
      const a = ((i + s.a[i]) * 2 * Math.PI) / s.n, r = 0.5 * s.size * s.r[i];
      poly.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
    }
    // A star of 3 vertices need not contain its centre: keep it only if it overlaps the boundary (slab oracle), as
    // the builder rejects an obstacle wholly outside (tested apart, in the bad-input property's spirit).
    const overlap = Math.abs(shoelace(boundary)) - freeAreaSlabs(boundary, [poly]);
    if (Math.abs(shoelace(poly)) > 1e-6 * s.size * s.size && overlap > 1e-6 * s.size * s.size) obstacles.push(poly);
  }
  const tf = (p: Pt): Pt => [c.ox + c.scale * p[0], c.oy + c.scale * p[1]];
  return { boundary: boundary.map(tf), obstacles: obstacles.map((o) => o.map(tf)), size: c.scale * Math.max(k, H) };
}

/**
 * Exact area of {inside the boundary, outside every obstacle} by vertical slabs (no navmesh code, no clipper): cut
 * the plane at every vertex x and every x where two edges cross; inside a slab no edges cross, so the free length
 * of a vertical cross-section is linear in x and the slab's area is its width times the cross-section at the
 * middle. A cross-section's free pieces are found by testing each interval's midpoint with point-in-polygon.
 */
function freeAreaSlabs(boundary: Pt[], obstacles: Pt[][]): number {
  const polys = [boundary, ...obstacles];
  const edges: [Pt, Pt][] = [];
  for (const p of polys) for (let i = 0; i < p.length; i++) edges.push([p[i], p[(i + 1) % p.length]]);
  const xs: number[] = [];
  for (const [a] of edges) xs.push(a[0]);
  for (let i = 0; i < edges.length; i++) for (let j = i + 1; j < edges.length; j++) {
    const [a, b] = edges[i], [c, d] = edges[j];
    const o1 = orient2(a, b, c), o2 = orient2(a, b, d), o3 = orient2(c, d, a), o4 = orient2(c, d, b);
    if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) {
      const t = o3 / (o3 - o4);
      xs.push(a[0] + t * (b[0] - a[0]));
    }
  }
  xs.sort((p, q) => p - q);
  const free = (x: number, y: number) => inPoly(boundary, x, y) && !obstacles.some((o) => inPoly(o, x, y));
  let area = 0;
  for (let s = 0; s + 1 < xs.length; s++) {
    const x0 = xs[s], x1 = xs[s + 1];
    if (!(x1 > x0)) continue;
    const xm = (x0 + x1) / 2;
    const ys: number[] = [];
    for (const [a, b] of edges) {
      if ((a[0] < xm) !== (b[0] < xm)) ys.push(a[1] + ((xm - a[0]) / (b[0] - a[0])) * (b[1] - a[1]));
    }
    ys.sort((p, q) => p - q);
    let len = 0;
    for (let i = 0; i + 1 < ys.length; i++) if (ys[i + 1] > ys[i] && free(xm, (ys[i] + ys[i + 1]) / 2)) len += ys[i + 1] - ys[i];
    area += (x1 - x0) * len;
  }
  return area;
}

/** Clearance against arbitrary rings (the NavMap form without a wall). */
function ringsClearance(boundary: Pt[], obstacles: Pt[][], x: number, y: number): number {
  let d = -polyDist(boundary, x, y);
  for (const o of obstacles) d = Math.min(d, polyDist(o, x, y));
  return d;
}

/**
 * Does segment a→b stay in free space, up to `tol`? It is cut at every point where it meets a polygon edge and at
 * every polygon vertex within tol of it; between cuts it is wholly in or out of each polygon, so each piece's
 * midpoint decides (deeper than tol inside an obstacle or outside the boundary: it leaves). Unlike
 * segmentFreeExact, a crossing within round-off of a touching edge (merged obstacles meet at such points) is not
 * a leaving by itself.
 */
function segmentInFree(boundary: Pt[], obstacles: Pt[][], a: Pt, b: Pt, tol: number): boolean {
  const dx = b[0] - a[0], dy = b[1] - a[1], l2 = dx * dx + dy * dy;
  if (!(l2 > 0)) return ringsClearance(boundary, obstacles, a[0], a[1]) >= -tol;
  const ts = [0, 1];
  for (const poly of [boundary, ...obstacles]) {
    for (let i = 0; i < poly.length; i++) {
      const c = poly[i], d = poly[(i + 1) % poly.length];
      const ex = d[0] - c[0], ey = d[1] - c[1], den = dx * ey - dy * ex;
      if (den !== 0) {
        const t = ((c[0] - a[0]) * ey - (c[1] - a[1]) * ex) / den, u = ((c[0] - a[0]) * dy - (c[1] - a[1]) * dx) / den;
        if (t > 0 && t < 1 && u >= 0 && u <= 1) ts.push(t);
      }
      if (segDist(c[0], c[1], a, b) <= tol) ts.push(Math.max(0, Math.min(1, ((c[0] - a[0]) * dx + (c[1] - a[1]) * dy) / l2)));
    }
  }
  ts.sort((p, q) => p - q);
  for (let i = 0; i + 1 < ts.length; i++) {
    const t = (ts[i] + ts[i + 1]) / 2;
    if (ringsClearance(boundary, obstacles, a[0] + t * dx, a[1] + t * dy) < -tol) return false;
  }
  return true;
}

export const builderStats = { paths: 0, overlapping: 0, sharedSide: 0, pinches: 0, atBoundary: 0, cases: 0, noFreeSpace: 0, triangles: 0, components: 0, multiComponent: 0, samplesFree: 0, samplesBlocked: 0, sharedEdges: 0, obstacles: 0 };

/**
 * buildNavmesh on maps with merged obstacles and concave boundaries, against oracles that use no navmesh or
 * clipping code: at radius 0 the triangles' total area equals the slab integral of the free space (relative 1e-9),
 * at radius > 0 every triangle point sampled keeps the radius from the original walls and every sampled point
 * beyond the circumscribed octagon's reach is covered; pointwise, a sampled point away from every wall is covered
 * by a triangle exactly when it is in free space (radius 0), and by at most one; every triangle CCW with positive
 * area and its centroid in free space; links symmetric across the same edge; a wall edge (no neighbour) lies on an
 * original polygon's border and an interior edge lies in free space (radius 0, exact segment test: nothing is
 * linked across a wall, nothing walled off inside free space); component ids are the neighbour graph's connected components.
 * Paths between sampled free points: 'found' exactly when that BFS connects their triangles, no shorter than the
 * straight line, the funnelled corridor as long as the search's length and (sampled) in free space.
 * "No free space" is accepted only when the oracle's free area is 0 (radius 0) or no sampled point clears the
 * octagon's reach.
 */
const navmeshMergeProperty = fc.property(mergeCase, (c) => {
  const { boundary, obstacles, size } = makeMergeMap(c);
  const radius = c.inflated ? c.rf * c.scale : 0;
  const tol = 1e-9 * (size + Math.abs(c.ox) + Math.abs(c.oy));
  const reach = radius / Math.cos(Math.PI / ARC);
  const oracleArea = radius === 0 ? freeAreaSlabs(boundary, obstacles) : NaN;
  // Sample points: a jittered grid over the boundary's bounding box.
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of boundary) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  const srng = createRng(c.samples + 1);
  const G = 24, samples: Pt[] = [];
  for (let i = 0; i < G; i++) for (let j = 0; j < G; j++) samples.push([x0 + ((i + rngFloat(srng)) / G) * (x1 - x0), y0 + ((j + rngFloat(srng)) / G) * (y1 - y0)]);
  let mesh: Navmesh;
  try {
    mesh = buildNavmesh({ boundary, obstacles }, { radius });
  } catch (e) {
    check(e instanceof DegenerateGeometryError && /no free space/.test((e as Error).message), `buildNavmesh threw ${String(e)}`);
    if (radius === 0) check(oracleArea <= 1e-9 * Math.abs(shoelace(boundary)), `"no free space" but the free area is ${oracleArea}`);
    else for (const [x, y] of samples) check(ringsClearance(boundary, obstacles, x, y) <= reach + tol, `"no free space" at radius ${radius} but (${x}, ${y}) has clearance ${ringsClearance(boundary, obstacles, x, y)}`);
    builderStats.noFreeSpace++;
    return;
  }
  builderStats.cases++;
  builderStats.obstacles += obstacles.length;
  const V = mesh.vertices, T = mesh.triangles, N = mesh.neighbours, nt = mesh.triangleCount;
  builderStats.triangles += nt;
  const P = (v: number): Pt => [V[2 * v], V[2 * v + 1]];
  let area = 0;
  for (let t = 0; t < nt; t++) {
    const tri = [P(T[3 * t]), P(T[3 * t + 1]), P(T[3 * t + 2])];
    for (const [x, y] of tri) { finite(x, `triangle ${t} x`); finite(y, `triangle ${t} y`); }
    const at = shoelace(tri);
    check(at > 0, `triangle ${t} has signed area ${at}`);
    area += at;
    const gx = (tri[0][0] + tri[1][0] + tri[2][0]) / 3, gy = (tri[0][1] + tri[1][1] + tri[2][1]) / 3;
    const cg = ringsClearance(boundary, obstacles, gx, gy);
    check(cg >= radius - tol, `triangle ${t}'s centroid (${gx}, ${gy}) has clearance ${cg} (radius ${radius}): not in free space`);
    if (radius > 0) {
      for (const [px, py] of tri) {
        const cl = ringsClearance(boundary, obstacles, px, py);
        check(cl >= radius - tol, `triangle ${t}: vertex (${px}, ${py}) has clearance ${cl} < radius ${radius}`);
      }
    }
    for (let k = 0; k < 3; k++) {
      const p = T[3 * t + k], q = T[3 * t + (k + 1) % 3], u = N[3 * t + k];
      const mx = (V[2 * p] + V[2 * q]) / 2, my = (V[2 * p + 1] + V[2 * q + 1]) / 2;
      const cm = ringsClearance(boundary, obstacles, mx, my);
      if (u < 0) {
        // a wall: on an original polygon's border (radius 0), or at least the radius from it and at most the octagon's reach
        if (radius === 0) check(Math.abs(cm) <= tol, `triangle ${t}'s wall edge ${k} has its midpoint (${mx}, ${my}) ${cm} from every original border`);
        else check(cm >= radius - tol && cm <= reach + tol, `triangle ${t}'s wall edge ${k}: midpoint clearance ${cm}, radius ${radius}, octagon reach ${reach}`);
        continue;
      }
      builderStats.sharedEdges++;
      check(u < nt, `neighbour ${u} out of range`);
      let back = -1;
      for (let j = 0; j < 3; j++) if (N[3 * u + j] === t) back = j;
      check(back >= 0 && T[3 * u + back] === q && T[3 * u + (back + 1) % 3] === p, `triangles ${t} and ${u} are not linked back across the same edge`);
      check(mesh.component[t] === mesh.component[u], `neighbours ${t} and ${u} in different components`);
      // an interior edge lies in free space (radius 0: exactly, split at the polygon vertices on it): a link never
      // crosses an obstacle, however thin
      if (radius === 0) check(segmentInFree(boundary, obstacles, P(p), P(q), tol), `triangles ${t} and ${u} are linked across an edge (${P(p)})-(${P(q)}) that leaves free space`);
    }
  }
  // component ids = connected components of the neighbour graph (BFS written here)
  const label = new Int32Array(nt).fill(-1);
  let comps = 0;
  for (let s = 0; s < nt; s++) {
    if (label[s] >= 0) continue;
    const stack = [s];
    label[s] = comps;
    while (stack.length > 0) { const t = stack.pop()!; for (let k = 0; k < 3; k++) { const u = N[3 * t + k]; if (u >= 0 && label[u] < 0) { label[u] = comps; stack.push(u); } } }
    comps++;
  }
  const seen = new Map<number, number>();
  for (let t = 0; t < nt; t++) {
    const m = seen.get(mesh.component[t]);
    if (m === undefined) seen.set(mesh.component[t], label[t]);
    else check(m === label[t], `component id ${mesh.component[t]} spans two neighbour-graph components`);
  }
  check(seen.size === comps, `${seen.size} component ids for ${comps} connected components`);
  builderStats.components += comps;
  if (comps > 1) builderStats.multiComponent++;
  if (radius === 0) check(Math.abs(area - oracleArea) <= 1e-9 * Math.abs(shoelace(boundary)), `triangles cover ${area}, the free space (slab integral) ${oracleArea}`);
  // pointwise coverage
  const covering = (x: number, y: number): number => {
    let n = 0;
    for (let t = 0; t < nt; t++) if (triDist(mesh, t, x, y) === 0) n++;
    return n;
  };
  // Paths between sampled free points (strictly inside one triangle each): 'found' exactly when the BFS above puts
  // both triangles in one component (pinch vertices and merged obstacles give the search several-wedge vertices),
  // at least the straight distance, and the funnelled corridor as long as the search says, in free space.
  const pick: { p: Pt; t: number }[] = [];
  for (let i = 0; i < samples.length && pick.length < 8; i += 37) {
    const [x, y] = samples[i];
    if (ringsClearance(boundary, obstacles, x, y) <= (radius > 0 ? reach : 0) + tol) continue;
    const t = oracleTri(mesh, x, y, tol);
    if (t >= 0 && triDist(mesh, t, x, y) === 0) pick.push({ p: [x, y], t });
  }
  const query = createNavQuery(mesh), res = createNavPathResult();
  const { portals, points } = navQueryScratch;
  for (let i = 0; i + 1 < pick.length; i += 2) {
    const a = pick[i], b = pick[i + 1];
    const status = findNavPath(query, a.p[0], a.p[1], b.p[0], b.p[1], res);
    const same = label[a.t] === label[b.t];
    builderStats.paths++;
    check(status === (same ? 'found' : 'unreachable'), `path (${a.p}) → (${b.p}): ${status}, the triangles are ${same ? '' : 'not '}connected`);
    if (!same) continue;
    const straight = Math.hypot(b.p[0] - a.p[0], b.p[1] - a.p[1]);
    check(res.length >= straight * (1 - 1e-12), `path length ${res.length} below the straight distance ${straight}`);
    const np = funnel(portals, corridorPortals(mesh, res.corridor, res.corridorLength, a.p[0], a.p[1], b.p[0], b.p[1], portals), 0, points);
    check(Math.abs(polylineLength(points, np) - res.length) <= 1e-9 * Math.max(1, res.length), `funnelled length ${polylineLength(points, np)}, search length ${res.length}`);
    for (let k = 0; k + 1 < np; k++) {
      for (let j = 0; j <= 16; j++) {
        const x = points[2 * k] + ((points[2 * k + 2] - points[2 * k]) * j) / 16, y = points[2 * k + 1] + ((points[2 * k + 3] - points[2 * k + 1]) * j) / 16;
        const cl = ringsClearance(boundary, obstacles, x, y);
        check(cl >= radius - tol, `path point (${x}, ${y}) has clearance ${cl} (radius ${radius})`);
      }
    }
  }
  for (const [x, y] of samples) {
    const cl = ringsClearance(boundary, obstacles, x, y);
    if (radius === 0) {
      if (Math.abs(cl) <= tol) continue; // on a border: either answer
      let near = false; // near a mesh edge a point is in two triangles: count only interior points of the mesh
      const n = covering(x, y);
      if (n > 1) for (let t = 0; t < nt && !near; t++) for (let k = 0; k < 3; k++) if (segDist(x, y, P(T[3 * t + k]), P(T[3 * t + (k + 1) % 3])) <= tol) near = true;
      if (cl > 0) { builderStats.samplesFree++; check(n >= 1, `(${x}, ${y}) is in free space (clearance ${cl}) but on no triangle`); }
      else { builderStats.samplesBlocked++; check(n === 0, `(${x}, ${y}) is inside an obstacle or outside the boundary (clearance ${cl}) but on ${n} triangles`); }
      check(n <= 1 || near, `(${x}, ${y}) is inside ${n} triangles (they overlap)`);
    } else {
      const n = covering(x, y);
      if (cl > reach + tol) { builderStats.samplesFree++; check(n >= 1, `(${x}, ${y}) clears the inflated walls (clearance ${cl}, octagon reach ${reach}) but is on no triangle`); }
      if (cl < radius - tol) { builderStats.samplesBlocked++; check(n === 0, `(${x}, ${y}) has clearance ${cl} < radius ${radius} but is on a triangle`); }
    }
  }
});

// ------------------------------------------------------------------------------------------------ funnel system

/** Distance from (x, y) to mesh triangle t (0 inside, by exact orientation; else the nearest edge's distance). */
function triDist(mesh: Navmesh, t: number, x: number, y: number): number {
  const V = mesh.vertices, T = mesh.triangles;
  const a: Pt = [V[2 * T[3 * t]], V[2 * T[3 * t] + 1]], b: Pt = [V[2 * T[3 * t + 1]], V[2 * T[3 * t + 1] + 1]], d: Pt = [V[2 * T[3 * t + 2]], V[2 * T[3 * t + 2] + 1]];
  const p: Pt = [x, y];
  if (orient2(a, b, p) >= 0 && orient2(b, d, p) >= 0 && orient2(d, a, p) >= 0) return 0;
  return Math.min(segDist(x, y, a, b), segDist(x, y, b, d), segDist(x, y, d, a));
}
/** Distance from (x, y) to the whole mesh, by brute force over every triangle. */
function meshDist(mesh: Navmesh, x: number, y: number): number {
  let d = Infinity;
  for (let t = 0; t < mesh.triangleCount && d > 0; t++) d = Math.min(d, triDist(mesh, t, x, y));
  return d;
}
function adjacent(N: Int32Array, a: number, b: number): boolean {
  return N[3 * a] === b || N[3 * a + 1] === b || N[3 * a + 2] === b;
}
/** A uniformly random point of triangle t, pulled 10% toward its centroid (off its edges). */
function pointInTri(mesh: Navmesh, t: number, rng: Rng): Pt {
  const V = mesh.vertices, T = mesh.triangles;
  let u = rngFloat(rng), v = rngFloat(rng);
  if (u + v > 1) { u = 1 - u; v = 1 - v; }
  const w = 1 - u - v, k = 0.9, c = (1 - k) / 3;
  const [a, b, d] = [T[3 * t], T[3 * t + 1], T[3 * t + 2]];
  const la = k * u + c, lb = k * v + c, ld = k * w + c;
  return [la * V[2 * a] + lb * V[2 * b] + ld * V[2 * d], la * V[2 * a + 1] + lb * V[2 * b + 1] + ld * V[2 * d + 1]];
}

interface FunnelSysCase {
  map: NavCase; inflated: boolean; agents: number; frames: number; seed: number; pushP: number; goalP: number; spawnP: number;
  maxCornerPortals: number; maxReplansPerFrame: number; maxExp: number; shortcutInterval: number; shortcutLookahead: number;
  lookahead: number; arrivalSlowdown: number; arriveDistance: number; minTurnSpeed: number; dt: number; maxSpeed: number;
}
const funnelSysCase: fc.Arbitrary<FunnelSysCase> = fc.record({
  map: navCase, inflated: fc.boolean(), agents: fc.integer({ min: 1, max: 4 }), frames: fc.integer({ min: 10, max: 90 }), seed: fc.nat(),
  pushP: uni(0, 0.3), goalP: uni(0, 0.3), spawnP: uni(0, 0.06),
  maxCornerPortals: fc.constantFrom(3, 4, 6, 17, 128), maxReplansPerFrame: fc.constantFrom(1, 2, 16), maxExp: fc.constantFrom(1, 2, 8, 64, 16384),
  shortcutInterval: fc.constantFrom(0, 1, 3, 8), shortcutLookahead: fc.constantFrom(2, 3, 16),
  lookahead: uni(0.2, 4), arrivalSlowdown: uni(0.2, 2), arriveDistance: uni(0.01, 0.2), minTurnSpeed: uni(0.2, 1),
  dt: fc.constantFrom(1 / 60, 1 / 30, 0.1), maxSpeed: uni(0.5, 3),
});
const _fsCorr = new Int32Array(4096);
/** What the funnel system property reached (for the report; counted over all runs, shrinking included). */
export const funnelSystemStats = { cases: 0, frames: 0, agentFrames: 0, following: 0, replanWaiting: 0, offMesh: 0, legsChecked: 0, maxCorridor: 0, longCorridors: 0, truncated: 0, keep: 0, extend: 0, shrink: 0, replanMoves: 0, frontRepairs: 0, unreachable: 0, arrivedCalm: 0, unreachableCalm: 0 };

/**
 * The funnel system's per-frame corridor upkeep (systems/funnel.ts: corridorMoveStart, the visibility shortcut,
 * portal prefixes of maxCornerPortals, sliced re-plans under a budget, moveNavGoal's keep / extend / shrink /
 * re-plan) on the random navmesh maps above, radius 0 and > 0, with 1–5 agents. Every frame, seeded disturbances:
 * pushes (setAgentPosition to a random free point anywhere, across obstacles and the wall included; into a triangle
 * next to the agent's; or a short random shove, which at radius > 0 may land off the inflated mesh), goal moves
 * (moveNavGoal to a random free point, or into the corridor's last triangle, a neighbour of it, or the one before
 * it: keep, extend, shrink), despawns and spawns with setNavGoal. The pipeline runs funnel + integrate only.
 * Checked after every step, against the position the funnel saw (position.previous, saved by integrate), with
 * oracles written here:
 *  - following: the corridor (the pool slice, equal to getAgentCorridor) is a chain of adjacent triangles, its first
 *    triangle holds the agent (or, off the mesh, is the nearest triangle: brute-force distance over all triangles),
 *    its last holds the goal; agent and goal on the same side of the wall; the preferred velocity points at the
 *    next corner with a speed in [vmax·min(minTurnSpeed, d/arrivalSlowdown), vmax] (docs/NAVMESH.md, step 5; also
 *    capped at d/dt, so the lower bound is the smaller of the two, and a step never passes the goal), and
 *    when the agent is in its first triangle the leg to that corner lies, sampled, in the corridor's triangles and
 *    in free space (clearance ≥ radius from the original polygons);
 *  - arrived, waiting to re-plan (NAV_REPLAN) and unreachable agents have a zero preferred velocity ("stops");
 *  - no NaN in position, velocity, preferred velocity; nothing throws;
 *  - setNavGoal's status is 'found' exactly when agent and goal are connected (the wall's side; at radius 0 also a
 *    visibility-graph Dijkstra on the original polygons), moveNavGoal's 'unreachable' only when they are not;
 * then, without disturbances, every agent still following, re-planning or unreachable (pushed across the wall meanwhile) arrives (NAV_ARRIVED or within
 * arriveDistance) when its goal is reachable, and ends NAV_UNREACHABLE when it is not.
 */
const funnelSystemProperty = fc.property(funnelSysCase, (c) => {
  const map = makeNavMap(c.map);
  const radius = c.inflated ? 0.4 * map.margin * c.map.rf * Math.cos(Math.PI / ARC) : 0;
  const tol = 1e-9 * map.scale;
  const mesh = buildNavmesh({ boundary: map.boundary, obstacles: map.obstacles }, { radius });
  const N = mesh.neighbours;
  const need = radius > 0 ? (radius / Math.cos(Math.PI / ARC)) * 1.001 + tol : 1e-9 * map.scale;
  const rng = createRng(c.seed + 1);
  const x0 = c.map.ox, y0 = c.map.oy, W = c.map.w, H = c.map.h;
  // Free points lie at x ≤ wall[0] or x ≥ wall[1] (a point on the wall's face belongs to that face's side).
  const side = (x: number): number => (map.wall === null ? 0 : x <= (map.wall[0] + map.wall[1]) / 2 ? -1 : 1);
  /** A random point with clearance above `min` in the original map (on the mesh when min = need), or null. */
  const freePoint = (min: number): Pt | null => {
    for (let k = 0; k < 60; k++) {
      const x = x0 + rngFloat(rng) * W, y = y0 + rngFloat(rng) * H;
      if (clearance(map, x, y) > min) return [x, y];
    }
    return null;
  };
  /** Oracle: is the goal reachable from p? The wall's side; at radius 0 from a free point, also the visibility graph (and its length). */
  const reach = (p: Pt, g: Pt): { ok: boolean; len: number } => {
    const ok = side(p[0]) === side(g[0]);
    if (radius === 0 && clearance(map, p[0], p[1]) > tol) {
      const len = visibilityShortest(map, p, g, tol);
      check((len < Infinity) === ok, `visibility graph (${len}) and the wall's side disagree on reachability from (${p}) to (${g})`);
      return { ok, len };
    }
    return { ok, len: Math.hypot(g[0] - p[0], g[1] - p[1]) };
  };

  const world: CrowdWorld = createCrowd({ maxAgents: 8, seed: 1 + (c.seed % 1000) });
  const en = world.enabled;
  en.lod = false; en.navigation = false; en.steering = false; en.boids = false; en.orca = false; en.contacts = false;
  const opts = {
    maxCornerPortals: c.maxCornerPortals, maxReplansPerFrame: c.maxReplansPerFrame, maxSearchExpansionsPerFrame: c.maxExp,
    shortcutInterval: c.shortcutInterval, shortcutLookahead: c.shortcutLookahead, lookahead: c.lookahead,
    arrivalSlowdown: c.arrivalSlowdown, arriveDistance: c.arriveDistance, minTurnSpeed: c.minTurnSpeed,
  };
  const fs: FunnelState = setNavmesh(world, mesh, opts);
  const nav = corridorComponent(world);
  const P = world.position, PV = world.preferredVelocity, VEL = world.velocity;

  const spawnWithGoal = (): void => {
    const p = freePoint(need), g = freePoint(need);
    if (p === null || g === null || world.agents.count >= 5) return;
    const eid = spawnAgent(world, { x: p[0], y: p[1], radius: Math.max(radius, 0.1), maxSpeed: c.maxSpeed });
    const status = setNavGoal(world, eid, g[0], g[1]);
    const r = reach(p, g);
    check(status === (r.ok ? 'found' : 'unreachable'), `setNavGoal from (${p}) to (${g}): ${status}, oracle ${r.ok ? 'reachable' : 'unreachable'}`);
  };
  for (let i = 0; i < c.agents; i++) spawnWithGoal();

  const pushAgent = (eid: number): void => {
    const kind = rngInt(rng, 5);
    let q: Pt | null = null;
    if (kind === 0) q = freePoint(need);
    else if (kind === 3) {
      // onto an edge of the agent's triangle or the next one (a shared edge: two triangles hold the point)
      let t = locateTriangle(mesh, P.x[eid], P.y[eid]);
      const nb = t >= 0 ? N[3 * t + rngInt(rng, 3)] : -1;
      if (nb >= 0 && rngInt(rng, 2) === 0) t = nb;
      if (t >= 0) {
        const k = rngInt(rng, 3), a = mesh.triangles[3 * t + k], b = mesh.triangles[3 * t + (k + 1) % 3], u = rngInt(rng, 2) === 0 ? 0.5 : rngFloat(rng);
        q = [mesh.vertices[2 * a] + u * (mesh.vertices[2 * b] - mesh.vertices[2 * a]), mesh.vertices[2 * a + 1] + u * (mesh.vertices[2 * b + 1] - mesh.vertices[2 * a + 1])];
      }
    } else if (kind === 4 && radius > 0) {
      // off the inflated mesh but in the map's free space: within the radius of an obstacle's vertex (as avoidance
      // and contacts push agents against walls)
      const o = map.obstacles[rngInt(rng, map.obstacles.length)];
      if (o !== undefined) {
        const v = o[rngInt(rng, o.length)], a = rngFloat(rng) * 2 * Math.PI, l = rngFloat(rng) * radius;
        const x = v[0] + l * Math.cos(a), y = v[1] + l * Math.sin(a);
        if (clearance(map, x, y) > tol) q = [x, y];
      }
    }
    else if (kind === 1) {
      const t = locateTriangle(mesh, P.x[eid], P.y[eid]);
      const nb = t >= 0 ? N[3 * t + rngInt(rng, 3)] : -1;
      if (nb >= 0) q = pointInTri(mesh, nb, rng);
    } else if (kind === 2) {
      const a = rngFloat(rng) * 2 * Math.PI, l = rngFloat(rng) * 0.5;
      const x = P.x[eid] + l * Math.cos(a), y = P.y[eid] + l * Math.sin(a);
      if (clearance(map, x, y) > (radius > 0 ? tol : need)) q = [x, y];
    }
    if (q !== null) setAgentPosition(world, eid, q[0], q[1]);
  };
  const moveGoal = (eid: number): void => {
    let g: Pt | null = null;
    const slot = nav.slot[eid], len = nav.length[eid];
    if (rngInt(rng, 2) === 0 && slot >= 0 && len > 0 && (nav.state[eid] === NAV_FOLLOWING || nav.state[eid] === NAV_ARRIVED)) {
      const last = fs.pool[slot * fs.maxCorridor + len - 1];
      const pick = rngInt(rng, 3);
      let t = last;
      if (pick === 1) { const nb = N[3 * last + rngInt(rng, 3)]; if (nb >= 0) t = nb; }
      else if (pick === 2 && len > 1) t = fs.pool[slot * fs.maxCorridor + len - 2];
      g = pointInTri(mesh, t, rng);
    } else g = freePoint(need);
    if (g === null) return;
    const p: Pt = [P.x[eid], P.y[eid]];
    const before = nav.replans[eid], lenBefore = nav.length[eid], stBefore = nav.state[eid];
    const status = moveNavGoal(world, eid, g[0], g[1]);
    if (stBefore === NAV_FOLLOWING || stBefore === NAV_ARRIVED) {
      const dl = nav.length[eid] - lenBefore, t = locateTriangle(mesh, g[0], g[1]);
      const kept = status === 'found' && before === nav.replans[eid] && slot >= 0 && t >= 0 && fs.pool[slot * fs.maxCorridor + nav.length[eid] - 1] === t;
      if (kept && dl === 0) funnelSystemStats.keep++; else if (kept && dl === 1) funnelSystemStats.extend++; else if (kept && dl === -1) funnelSystemStats.shrink++; else funnelSystemStats.replanMoves++;
    } else funnelSystemStats.replanMoves++;
    const r = reach(p, g);
    check(status === 'found' || status === 'unreachable', `moveNavGoal status ${status}`);
    if (r.ok) check(status === 'found', `moveNavGoal from (${p}) to (${g}): ${status}, but the oracle connects them`);
  };

  /** The invariants after a step; returns the count of agents still following or re-planning. */
  const checkAll = (frame: number): number => {
    let active = 0;
    const { dense, count } = world.agents;
    for (let i = 0; i < count; i++) {
      const eid = dense[i];
      const where = `frame ${frame}, agent ${eid}`;
      finite(P.x[eid], `${where} x`); finite(P.y[eid], `${where} y`); finite(VEL.x[eid], `${where} vx`); finite(VEL.y[eid], `${where} vy`);
      finite(PV.x[eid], `${where} preferred vx`); finite(PV.y[eid], `${where} preferred vy`);
      const px = P.previousX[eid], py = P.previousY[eid], pvx = PV.x[eid], pvy = PV.y[eid];
      const st = nav.state[eid];
      funnelSystemStats.agentFrames++;
      if (st === NAV_REPLAN) funnelSystemStats.replanWaiting++;
      if (st === NAV_UNREACHABLE) funnelSystemStats.unreachable++;
      if (st === NAV_ARRIVED || st === NAV_REPLAN || st === NAV_UNREACHABLE) {
        check(pvx === 0 && pvy === 0, `${where}: state ${st} but preferred velocity (${pvx}, ${pvy})`);
        if (st === NAV_REPLAN) active++;
        continue;
      }
      if (st !== NAV_FOLLOWING) continue;
      active++;
      const slot = nav.slot[eid], len = nav.length[eid], off = slot * fs.maxCorridor;
      funnelSystemStats.following++;
      funnelSystemStats.maxCorridor = Math.max(funnelSystemStats.maxCorridor, len);
      if (len + 1 > 16) funnelSystemStats.longCorridors++;
      if (len + 1 > c.maxCornerPortals) funnelSystemStats.truncated++;
      check(slot >= 0 && len >= 1 && len <= fs.maxCorridor, `${where}: slot ${slot}, length ${len}`);
      const n = getAgentCorridor(world, eid, _fsCorr);
      check(n === len, `${where}: getAgentCorridor returned ${n}, length ${len}`);
      for (let k = 0; k < len; k++) {
        const t = fs.pool[off + k];
        check(t >= 0 && t < mesh.triangleCount && _fsCorr[k] === t, `${where}: corridor[${k}] = ${t} (getAgentCorridor ${_fsCorr[k]})`);
        if (k > 0) check(adjacent(N, fs.pool[off + k - 1], t), `${where}: corridor triangles ${fs.pool[off + k - 1]}, ${t} (at ${k - 1}, ${k}) are not neighbours`);
      }
      const first = fs.pool[off], last = fs.pool[off + len - 1];
      const gx = nav.goalX[eid], gy = nav.goalY[eid];
      const dFirst = triDist(mesh, first, px, py);
      if (dFirst > tol) {
        funnelSystemStats.offMesh++;
        const dMesh = meshDist(mesh, px, py);
        check(dFirst <= dMesh + tol, `${where}: position (${px}, ${py}) is ${dFirst} from the corridor's first triangle ${first} but ${dMesh} from the mesh`);
      }
      const dLast = triDist(mesh, last, gx, gy);
      check(dLast <= tol, `${where}: goal (${gx}, ${gy}) is ${dLast} outside the corridor's last triangle ${last}`);
      check(side(px) === side(gx), `${where}: following a corridor across the wall`);
      // preferred velocity: toward the next corner, within [vmax·min(minTurnSpeed, d/arrivalSlowdown), vmax]
      const cx = nav.cornerX[eid], cy = nav.cornerY[eid];
      finite(cx, `${where} corner x`); finite(cy, `${where} corner y`);
      const dx = cx - px, dy = cy - py, d = Math.hypot(dx, dy), sp = Math.hypot(pvx, pvy), vmax = world.agent.maxSpeed[eid];
      check(sp <= vmax * (1 + 1e-12), `${where}: preferred speed ${sp} > maxSpeed ${vmax}`);
      // the speed is also capped at d/dt: one step never passes the corner or the goal (systems/funnel.ts; a
      // stand-in goal of a truncated pull may be passed, so only the goal's bound is checked from above)
      const isGoal = cx === gx && cy === gy, low = Math.min(vmax * Math.min(c.minTurnSpeed, d / c.arrivalSlowdown), d / c.dt);
      if (isGoal) check(sp * c.dt <= d * (1 + 1e-12), `${where}: preferred speed ${sp} steps ${sp * c.dt} m, past the goal ${d} m away`);
      if (d >= 1e-9) {
        check(sp >= low * (1 - 1e-9), `${where}: preferred speed ${sp} below min(vmax·min(minTurnSpeed, d/arrivalSlowdown), d/dt) = ${low} (corner ${d} m away)`);
        check(Math.abs(dx * pvy - dy * pvx) <= 1e-9 * d * sp && dx * pvx + dy * pvy > 0, `${where}: preferred velocity (${pvx}, ${pvy}) does not point at the corner (${cx}, ${cy})`);
      }
      if (dFirst <= tol) {
        funnelSystemStats.legsChecked++;
        // the first leg, sampled: in the corridor's triangles and in free space (clearance ≥ radius)
        for (let k = 0; k <= 16; k++) {
          const qx = px + (dx * k) / 16, qy = py + (dy * k) / 16;
          let inCorr = false;
          for (let j = 0; j < len && !inCorr; j++) inCorr = triDist(mesh, fs.pool[off + j], qx, qy) <= tol;
          check(inCorr, `${where}: point (${qx}, ${qy}) of the leg to the corner (${cx}, ${cy}) is outside the corridor`);
          const cl = clearance(map, qx, qy);
          check(cl >= radius - tol, `${where}: point (${qx}, ${qy}) of the leg to the corner has clearance ${cl} (radius ${radius})`);
        }
      }
    }
    return active;
  };

  // Disturbed phase.
  for (let f = 0; f < c.frames; f++) {
    const { dense } = world.agents;
    for (let i = 0; i < world.agents.count; i++) {
      const eid = dense[i];
      if (rngFloat(rng) < c.pushP) pushAgent(eid);
      if (rngFloat(rng) < c.goalP) moveGoal(eid);
    }
    if (rngFloat(rng) < c.spawnP && world.agents.count > 1) despawnAgent(world, dense[rngInt(rng, world.agents.count)]);
    if (rngFloat(rng) < c.spawnP || world.agents.count === 0) spawnWithGoal();
    const firstBefore = new Map<number, number>();
    for (let i = 0; i < world.agents.count; i++) { const e = world.agents.dense[i]; if (nav.state[e] === NAV_FOLLOWING) firstBefore.set(e, fs.pool[nav.slot[e] * fs.maxCorridor]); }
    step(world, c.dt);
    for (const [e, t] of firstBefore) if (nav.state[e] === NAV_FOLLOWING && nav.slot[e] >= 0 && adjacent(N, fs.pool[nav.slot[e] * fs.maxCorridor], t) && fs.pool[nav.slot[e] * fs.maxCorridor + 1] === t) funnelSystemStats.frontRepairs++;
    checkAll(f);
    funnelSystemStats.frames++;
  }
  // Calm phase: no disturbances until every following agent has arrived or found its goal unreachable. The cap is
  // generous: twice the oracle's length plus the map's half-perimeter at the slowest corner speed, the exponential
  // arrival ramp, and slack for sliced re-plans.
  const { dense, count } = world.agents;
  if (map.wall !== null && count > 0 && rngInt(rng, 2) === 0) {
    // one last push: a following agent to the far side of the wall from its goal (it must end NAV_UNREACHABLE)
    const eid = dense[rngInt(rng, count)];
    for (let k = 0; k < 20 && nav.state[eid] === NAV_FOLLOWING; k++) {
      const q = freePoint(need);
      if (q !== null && side(q[0]) !== side(nav.goalX[eid])) { setAgentPosition(world, eid, q[0], q[1]); break; }
    }
  }
  const watch: { eid: number; ok: boolean }[] = [];
  let capSeconds = 10;
  for (let i = 0; i < count; i++) {
    const eid = dense[i];
    // Unreachable agents too: one pushed across the wall to its goal's side during the disturbances must set off.
    if (nav.state[eid] !== NAV_FOLLOWING && nav.state[eid] !== NAV_REPLAN && nav.state[eid] !== NAV_UNREACHABLE) continue;
    const r = reach([P.x[eid], P.y[eid]], [nav.goalX[eid], nav.goalY[eid]]);
    watch.push({ eid, ok: r.ok });
    const vmax = world.agent.maxSpeed[eid];
    capSeconds = Math.max(capSeconds, (2 * r.len + W + H) / (vmax * c.minTurnSpeed) + (c.arrivalSlowdown / vmax) * Math.log(1 + c.arrivalSlowdown / c.arriveDistance) + 10);
  }
  const cap = Math.ceil(capSeconds / c.dt) + 500;
  let f = 0;
  for (; f < cap; f++) {
    step(world, c.dt);
    if (checkAll(c.frames + f) === 0) break;
  }
  funnelSystemStats.cases++;
  funnelSystemStats.frames += f;
  for (const w of watch) {
    const st = nav.state[w.eid];
    if (w.ok) funnelSystemStats.arrivedCalm++; else funnelSystemStats.unreachableCalm++;
    const dg = Math.hypot(P.x[w.eid] - nav.goalX[w.eid], P.y[w.eid] - nav.goalY[w.eid]);
    if (w.ok) check(st === NAV_ARRIVED || dg <= c.arriveDistance, `agent ${w.eid}: reachable goal (${nav.goalX[w.eid]}, ${nav.goalY[w.eid]}) not reached after ${f} calm frames (state ${st}, ${dg} m away, replans ${nav.replans[w.eid]})`);
    else check(st === NAV_UNREACHABLE, `agent ${w.eid}: goal across the wall but state ${st} after ${f} calm frames`);
  }
});

// ------------------------------------------------------------------------------------------------ funnel system: map changes and LOD

/** The triangle holding (x, y) for an oracle: the only one within tol, or off the mesh the only nearest (by more than tol); −1 when ambiguous. */
function oracleTri(mesh: Navmesh, x: number, y: number, tol: number): number {
  let best = -1, d1 = Infinity, d2 = Infinity;
  for (let t = 0; t < mesh.triangleCount; t++) {
    const d = triDist(mesh, t, x, y);
    if (d < d1) { d2 = d1; d1 = d; best = t; } else if (d < d2) d2 = d;
  }
  return d2 > d1 + tol ? best : -1;
}
/** Breadth-first search over open triangles (neighbour links, closed triangles skipped): can `from` reach `to`? */
function openReach(mesh: Navmesh, closed: Uint8Array, from: number, to: number): boolean {
  if (closed[from] || closed[to]) return false;
  const seen = new Uint8Array(mesh.triangleCount), queue = [from];
  seen[from] = 1;
  for (let i = 0; i < queue.length; i++) {
    const t = queue[i];
    if (t === to) return true;
    for (let k = 0; k < 3; k++) { const u = mesh.neighbours[3 * t + k]; if (u >= 0 && !closed[u] && !seen[u]) { seen[u] = 1; queue.push(u); } }
  }
  return false;
}

export interface FunnelMapCase {
  map: NavCase; cells2: number[]; wall2: boolean; inflated: boolean; agents: number; frames: number; seed: number;
  closeP: number; openP: number; goalP: number; pushP: number; replaceAt: number | null; replaceTwice: boolean;
  lod: { interval: number; near: number; mid: number; fx: number; fy: number } | null;
  maxCornerPortals: number; maxReplansPerFrame: number; maxExp: number; shortcutInterval: number;
  lookahead: number; arrivalSlowdown: number; arriveDistance: number; minTurnSpeed: number; dt: number; maxSpeed: number;
}
const funnelMapCase: fc.Arbitrary<FunnelMapCase> = fc.record({
  map: navCase, cells2: fc.uniqueArray(fc.nat(8), { maxLength: 6 }), wall2: fc.boolean(), inflated: fc.boolean(),
  agents: fc.integer({ min: 1, max: 4 }), frames: fc.integer({ min: 10, max: 80 }), seed: fc.nat(),
  closeP: uni(0, 0.4), openP: uni(0, 0.3), goalP: uni(0, 0.15), pushP: uni(0, 0.1),
  replaceAt: fc.option(fc.nat(79), { freq: 2 }), replaceTwice: fc.boolean(),
  lod: fc.option(fc.record({ interval: fc.constantFrom(2, 3, 4, 8), near: uni(0, 0.5), mid: uni(0, 0.5), fx: uni(0, 1), fy: uni(0, 1) }), { freq: 2 }),
  maxCornerPortals: fc.constantFrom(3, 6, 128), maxReplansPerFrame: fc.constantFrom(1, 2, 16), maxExp: fc.constantFrom(1, 8, 16384),
  shortcutInterval: fc.constantFrom(0, 1, 8),
  lookahead: uni(0.2, 4), arrivalSlowdown: uni(0.2, 2), arriveDistance: uni(0.01, 0.2), minTurnSpeed: uni(0.2, 1),
  dt: fc.constantFrom(1 / 60, 1 / 30, 0.1), maxSpeed: uni(0.5, 3),
});
/** What the map-change property reached (counted over all runs, shrinking included). */
export const funnelMapStats = { cases: 0, frames: 0, closes: 0, opens: 0, replaced: 0, statusChecked: 0, statusUnreachable: 0, statusAmbiguous: 0, updated: 0, skippedByLod: 0, overshoots: 0, standInPasses: 0, followingChecked: 0, arrivedCalm: 0, unreachableCalm: 0, calmAmbiguous: 0 };
/** Is (x, y) exactly one of the mesh's vertices? */
function meshVertexAt(mesh: Navmesh, x: number, y: number): boolean {
  const V = mesh.vertices;
  for (let i = 0; i < mesh.vertexCount; i++) if (V[2 * i] === x && V[2 * i + 1] === y) return true;
  return false;
}

/**
 * The funnel system while the map changes: triangles closed and reopened mid-run (setNavTrianglesBlocked: the
 * agent's own triangle, triangles of its corridor, a triangle and its neighbours, random ones), the mesh replaced
 * mid-run (setNavmesh again with a mesh of other obstacles, once or twice, or the same mesh again), and LOD on
 * (far agents' funnel update one frame in 2–8), with goal changes and teleports. Pipeline: LOD, funnel, integrate.
 * Oracles written here: the closed set as the test keeps it; reachability by a breadth-first search over open
 * triangles (cross-checked with the wall's side while nothing is closed); the LOD tier from the distance to the
 * focus point. Checked after every step:
 *  - nothing is NaN; setNavGoal says 'found' exactly when the BFS connects the agent's and the goal's triangles
 *    (when each is unambiguous: not on a shared edge);
 *  - the funnel ran for an agent exactly when its LOD tier is not far, or (frame + id) mod N = 0, or it changed tier
 *    this frame; an agent it did not run for kept its preferred velocity (it was not touched);
 *  - an agent the funnel ran for: arrived, waiting or unreachable has a zero preferred velocity; following, its
 *    corridor is a chain of neighbouring OPEN triangles of the current mesh from the agent's (or nearest) triangle
 *    to the goal's; its preferred velocity points at the next corner; the leg to it lies in the corridor and in
 *    free space (clearance ≥ radius); and where it stood inside its first triangle, its step either stays on that
 *    leg, in the corridor's open triangles, or past a stand-in goal ends in them too, or (past the corner) leaves
 *    the open mesh by no more than it overshot;
 * then, after one last change (half the time an agent's goal sealed in by closed triangles, or everything reopened),
 * in a calm phase (no more changes, LOD still on), every agent still following, re-planning or unreachable (it may have been pushed into its goal's region) reaches its
 * goal when the BFS connects it (at its first update of the calm phase), and ends NAV_UNREACHABLE when not.
 */
export function funnelMapRun(c: FunnelMapCase): void {
  const map1 = makeNavMap(c.map);
  const map2 = makeNavMap({ ...c.map, cells: c.cells2, wall: c.wall2 });
  const radius = c.inflated ? 0.4 * map1.margin * c.map.rf * Math.cos(Math.PI / ARC) : 0; // the margin is the same for both maps
  const tol = 1e-9 * map1.scale;
  const mesh1 = buildNavmesh({ boundary: map1.boundary, obstacles: map1.obstacles }, { radius });
  const mesh2 = buildNavmesh({ boundary: map2.boundary, obstacles: map2.obstacles }, { radius });
  const need = radius > 0 ? (radius / Math.cos(Math.PI / ARC)) * 1.001 + tol : 1e-9 * map1.scale;
  const rng = createRng(c.seed + 7);
  const x0 = c.map.ox, y0 = c.map.oy, W = c.map.w, H = c.map.h;
  let map = map1, mesh = mesh1, closed = new Uint8Array(mesh.triangleCount);

  const world: CrowdWorld = createCrowd({ maxAgents: 8, seed: 1 + (c.seed % 1000) });
  const en = world.enabled;
  en.lod = c.lod !== null; en.navigation = false; en.steering = false; en.boids = false; en.orca = false; en.contacts = false;
  const opts = {
    maxCornerPortals: c.maxCornerPortals, maxReplansPerFrame: c.maxReplansPerFrame, maxSearchExpansionsPerFrame: c.maxExp,
    shortcutInterval: c.shortcutInterval, lookahead: c.lookahead, arrivalSlowdown: c.arrivalSlowdown, arriveDistance: c.arriveDistance, minTurnSpeed: c.minTurnSpeed,
  };
  let fs: FunnelState = setNavmesh(world, mesh, opts);
  const nav = corridorComponent(world);
  const lod = lodComponent(world);
  const P = world.position, PV = world.preferredVelocity, VEL = world.velocity;
  const span = Math.hypot(W, H);
  const nearR = c.lod ? c.lod.near * span : 0, midR = c.lod ? nearR + c.lod.mid * span : 0;
  const fx = x0 + (c.lod ? c.lod.fx : 0) * W, fy = y0 + (c.lod ? c.lod.fy : 0) * H;
  if (c.lod) enableLod(world, { nearRadius: Math.max(nearR, 1e-3), midRadius: Math.max(midR, 1e-3), hysteresis: 0, farInterval: c.lod.interval, focus: [fx, fy] });
  const tierOf = new Map<number, number>(); // the oracle's tier per agent (hysteresis 0: a boundary is crossed once passed)

  const freePoint = (min: number): Pt | null => {
    for (let k = 0; k < 60; k++) {
      const x = x0 + rngFloat(rng) * W, y = y0 + rngFloat(rng) * H;
      if (clearance(map, x, y) > min) return [x, y];
    }
    return null;
  };
  /** Oracle reachability from p to g on the current mesh and closed set; null when a triangle is ambiguous. */
  const reach = (p: Pt, g: Pt): boolean | null => {
    const s = oracleTri(mesh, p[0], p[1], tol), t = oracleTri(mesh, g[0], g[1], tol);
    if (s < 0 || t < 0) return null;
    const ok = openReach(mesh, closed, s, t);
    let anyClosed = false;
    for (let i = 0; i < closed.length && !anyClosed; i++) anyClosed = closed[i] !== 0;
    if (!anyClosed && map.wall !== null && clearance(map, p[0], p[1]) > tol && clearance(map, g[0], g[1]) > tol) {
      const side = (x: number) => (x <= (map.wall![0] + map.wall![1]) / 2 ? -1 : 1);
      check(ok === (side(p[0]) === side(g[0])), `BFS (${ok}) and the wall's side disagree from (${p}) to (${g})`);
    }
    return ok;
  };
  const setGoal = (eid: number, g: Pt): void => {
    const p: Pt = [P.x[eid], P.y[eid]];
    const status = setNavGoal(world, eid, g[0], g[1]);
    const r = reach(p, [nav.goalX[eid], nav.goalY[eid]]);
    if (r === null) { funnelMapStats.statusAmbiguous++; return; }
    funnelMapStats.statusChecked++;
    if (!r) funnelMapStats.statusUnreachable++;
    check(status === (r ? 'found' : 'unreachable'), `setNavGoal from (${p}) to (${g}): ${status}, the BFS over open triangles says ${r ? 'reachable' : 'unreachable'}`);
  };
  const spawn = (): void => {
    const p = freePoint(need), g = freePoint(need);
    if (p === null || g === null || world.agents.count >= 5) return;
    const eid = spawnAgent(world, { x: p[0], y: p[1], radius: Math.max(radius, 0.1), maxSpeed: c.maxSpeed });
    setGoal(eid, g);
  };
  for (let i = 0; i < c.agents; i++) spawn();

  const closeSome = (): void => {
    const tris: number[] = [];
    const kind = rngInt(rng, 4), { dense, count } = world.agents;
    const eid = count > 0 ? dense[rngInt(rng, count)] : -1;
    if (kind === 0 && eid >= 0) { const t = locateTriangle(mesh, P.x[eid], P.y[eid]); if (t >= 0) tris.push(t); }
    else if (kind === 1 && eid >= 0 && nav.state[eid] === NAV_FOLLOWING && nav.slot[eid] >= 0) tris.push(fs.pool[nav.slot[eid] * fs.maxCorridor + rngInt(rng, nav.length[eid])]);
    else if (kind === 2) { const t = rngInt(rng, mesh.triangleCount); tris.push(t); for (let k = 0; k < 3; k++) if (mesh.neighbours[3 * t + k] >= 0) tris.push(mesh.neighbours[3 * t + k]); }
    else tris.push(rngInt(rng, mesh.triangleCount));
    if (tris.length === 0) return;
    setNavTrianglesBlocked(world, tris, true);
    for (const t of tris) closed[t] = 1;
    funnelMapStats.closes++;
  };
  const openSome = (): void => {
    const list: number[] = [];
    for (let t = 0; t < closed.length; t++) if (closed[t]) list.push(t);
    if (list.length === 0) return;
    const pick = rngInt(rng, 2) === 0 ? list : [list[rngInt(rng, list.length)]];
    setNavTrianglesBlocked(world, pick, false);
    for (const t of pick) closed[t] = 0;
    funnelMapStats.opens++;
  };
  const replace = (): void => {
    const other = mesh === mesh1 ? mesh2 : mesh1;
    // the other map's mesh, or (one case in four) the same mesh again: every corridor is re-planned either way
    if (rngInt(rng, 4) !== 0) { mesh = other; map = other === mesh1 ? map1 : map2; }
    fs = setNavmesh(world, mesh, opts);
    closed = new Uint8Array(mesh.triangleCount);
    funnelMapStats.replaced++;
  };

  const pvBefore = new Map<number, [number, number, number]>();
  /** Checks after a step (frame = the frame number the step ran as). `calm`: the agents whose oracle is not yet fixed get it at their first update. */
  const checkAll = (frame: number, calm: Map<number, boolean | null> | null): number => {
    let active = 0;
    const { dense, count } = world.agents;
    check(fs.blocked.length === closed.length && fs.blocked.every((v, i) => (v !== 0) === (closed[i] !== 0)), 'the funnel state\'s closed set differs from the calls made');
    for (let i = 0; i < count; i++) {
      const eid = dense[i];
      const where = `frame ${frame}, agent ${eid}`;
      finite(P.x[eid], `${where} x`); finite(P.y[eid], `${where} y`); finite(VEL.x[eid], `${where} vx`); finite(VEL.y[eid], `${where} vy`);
      finite(PV.x[eid], `${where} preferred vx`); finite(PV.y[eid], `${where} preferred vy`);
      const px = P.previousX[eid], py = P.previousY[eid], pvx = PV.x[eid], pvy = PV.y[eid], st = nav.state[eid];
      // LOD: the funnel runs for near and mid agents every frame, for far ones when (frame + id) mod N = 0
      let updated = true;
      if (c.lod) {
        const d = Math.hypot(px - fx, py - fy), cur = tierOf.get(eid) ?? 0;
        let tier = d <= nearR ? 0 : d <= midR ? 1 : 2;
        if ((d === nearR || d === midR) && tier !== cur) tier = cur; // on a boundary with hysteresis 0 the tier is kept
        tierOf.set(eid, tier);
        // (an agent that changes tier is updated on that frame too: its last update was for the old interval)
        updated = tier !== 2 || (frame + eid) % c.lod.interval === 0 || tier !== cur;
        check(((lod.flags[eid] & LOD_STEER) !== 0) === updated, `${where}: LOD_STEER ${lod.flags[eid] & LOD_STEER}, the oracle's tier ${tier} (distance ${d}) says ${updated ? '' : 'not '}updated`);
      }
      const before = pvBefore.get(eid);
      if (st === NAV_ARRIVED) { check(pvx === 0 && pvy === 0, `${where}: arrived with preferred velocity (${pvx}, ${pvy})`); continue; }
      if (!updated) {
        funnelMapStats.skippedByLod++;
        if (before !== undefined) check(pvx === before[0] && pvy === before[1], `${where}: not updated this frame (LOD) but its preferred velocity changed from (${before[0]}, ${before[1]}) to (${pvx}, ${pvy})`);
        if (st === NAV_FOLLOWING || st === NAV_REPLAN) active++;
        continue;
      }
      if (calm !== null && calm.has(eid) && calm.get(eid) === undefined) {
        // the calm phase's oracle, from where the funnel saw the agent at its first update
        calm.set(eid, reach([px, py], [nav.goalX[eid], nav.goalY[eid]]));
      }
      if (st === NAV_UNREACHABLE && before !== undefined && before[2] !== NAV_UNREACHABLE) check(pvx === 0 && pvy === 0, `${where}: became unreachable but keeps preferred velocity (${pvx}, ${pvy})`);
      if (st !== NAV_FOLLOWING && st !== NAV_REPLAN) continue;
      active++;
      funnelMapStats.updated++;
      if (st === NAV_REPLAN) { check(pvx === 0 && pvy === 0, `${where}: waiting to re-plan with preferred velocity (${pvx}, ${pvy})`); continue; }
      funnelMapStats.followingChecked++;
      const slot = nav.slot[eid], len = nav.length[eid], off = slot * fs.maxCorridor;
      check(slot >= 0 && len >= 1 && len <= fs.maxCorridor, `${where}: slot ${slot}, length ${len}`);
      for (let k = 0; k < len; k++) {
        const t = fs.pool[off + k];
        check(t >= 0 && t < mesh.triangleCount, `${where}: corridor[${k}] = ${t} is not a triangle of the current mesh`);
        check(!closed[t], `${where}: corridor[${k}] = ${t} is closed`);
        if (k > 0) check(adjacent(mesh.neighbours, fs.pool[off + k - 1], t), `${where}: corridor triangles ${fs.pool[off + k - 1]}, ${t} are not neighbours`);
      }
      const first = fs.pool[off], last = fs.pool[off + len - 1], gx = nav.goalX[eid], gy = nav.goalY[eid];
      const dFirst = triDist(mesh, first, px, py);
      if (dFirst > tol) check(dFirst <= meshDist(mesh, px, py) + tol, `${where}: (${px}, ${py}) is ${dFirst} from the corridor's first triangle ${first}, ${meshDist(mesh, px, py)} from the mesh`);
      check(triDist(mesh, last, gx, gy) <= tol, `${where}: the goal (${gx}, ${gy}) is not in the corridor's last triangle ${last}`);
      const cx = nav.cornerX[eid], cy = nav.cornerY[eid];
      const dx = cx - px, dy = cy - py, d = Math.hypot(dx, dy), sp = Math.hypot(pvx, pvy);
      check(sp <= world.agent.maxSpeed[eid] * (1 + 1e-12), `${where}: preferred speed ${sp} above maxSpeed`);
      if (d >= 1e-9 && sp > 0) check(Math.abs(dx * pvy - dy * pvx) <= 1e-9 * d * sp && dx * pvx + dy * pvy > 0, `${where}: preferred velocity (${pvx}, ${pvy}) does not point at the corner (${cx}, ${cy})`);
      if (dFirst > tol) continue;
      const inCorridor = (qx: number, qy: number): boolean => { for (let j = 0; j < len; j++) if (triDist(mesh, fs.pool[off + j], qx, qy) <= tol) return true; return false; };
      for (let k = 0; k <= 16; k++) {
        const qx = px + (dx * k) / 16, qy = py + (dy * k) / 16;
        check(inCorridor(qx, qy), `${where}: point (${qx}, ${qy}) of the leg to the corner (${cx}, ${cy}) is outside the corridor`);
        const cl = clearance(map, qx, qy);
        check(cl >= radius - tol, `${where}: point (${qx}, ${qy}) of the leg to the corner has clearance ${cl} (radius ${radius})`);
      }
      // the step itself (velocity = preferred velocity: unlimited acceleration and turn rate)
      const stepLen = Math.hypot(P.x[eid] - px, P.y[eid] - py);
      if (stepLen <= d * (1 + 1e-12)) check(inCorridor(P.x[eid], P.y[eid]), `${where}: stepped to (${P.x[eid]}, ${P.y[eid]}), off its corridor's open triangles, short of the corner`);
      else if (!(cx === gx && cy === gy) && !meshVertexAt(mesh, cx, cy)) {
        // Past a stand-in goal (a truncated pull's point inside a portal, neither the goal nor a mesh vertex, the
        // only other corners at radius 0): allowed since 2026-11-30 as far as the straight line runs on inside the
        // corridor, so the step ends in its open triangles.
        funnelMapStats.standInPasses++;
        check(inCorridor(P.x[eid], P.y[eid]), `${where}: stepped ${stepLen - d} m past the stand-in goal (${cx}, ${cy}) to (${P.x[eid]}, ${P.y[eid]}), off its corridor's open triangles`);
      } else {
        funnelMapStats.overshoots++;
        let off2 = Infinity;
        for (let t = 0; t < mesh.triangleCount && off2 > 0; t++) if (!closed[t]) off2 = Math.min(off2, triDist(mesh, t, P.x[eid], P.y[eid]));
        check(off2 <= stepLen - d + tol, `${where}: overshot the corner by ${stepLen - d} but ended ${off2} from the open mesh`);
      }
    }
    return active;
  };
  const recordBefore = (): void => {
    pvBefore.clear();
    const { dense, count } = world.agents;
    for (let i = 0; i < count; i++) { const e = dense[i]; pvBefore.set(e, [PV.x[e], PV.y[e], nav.state[e]]); }
  };

  for (let f = 0; f < c.frames; f++) {
    if (c.replaceAt !== null && (f === c.replaceAt || (c.replaceTwice && f === c.replaceAt + 7))) replace();
    if (rngFloat(rng) < c.closeP) closeSome();
    if (rngFloat(rng) < c.openP) openSome();
    const { dense } = world.agents;
    for (let i = 0; i < world.agents.count; i++) {
      const eid = dense[i];
      if (rngFloat(rng) < c.goalP) { const g = freePoint(need); if (g !== null) setGoal(eid, g); }
      if (rngFloat(rng) < c.pushP) { const q = freePoint(need); if (q !== null) setAgentPosition(world, eid, q[0], q[1]); }
    }
    if (world.agents.count === 0) spawn();
    recordBefore();
    const frame = world.time.frame;
    step(world, c.dt);
    checkAll(frame, null);
    funnelMapStats.frames++;
  }
  // One last change in half the cases: seal a following agent's goal (its triangle and the neighbours closed), so
  // that it must end NAV_UNREACHABLE; or reopen every triangle.
  const last = rngInt(rng, 4);
  if (last <= 1 && world.agents.count > 0) {
    const e = world.agents.dense[rngInt(rng, world.agents.count)], t = locateTriangle(mesh, nav.goalX[e], nav.goalY[e]);
    if (t >= 0 && (nav.state[e] === NAV_FOLLOWING || nav.state[e] === NAV_REPLAN)) {
      const tris = [t];
      for (let k = 0; k < 3; k++) if (mesh.neighbours[3 * t + k] >= 0) tris.push(mesh.neighbours[3 * t + k]);
      setNavTrianglesBlocked(world, tris, true);
      for (const u of tris) closed[u] = 1;
      funnelMapStats.closes++;
    }
  } else if (last === 2) {
    const all: number[] = [];
    for (let t = 0; t < closed.length; t++) if (closed[t]) all.push(t);
    if (all.length > 0) { setNavTrianglesBlocked(world, all, false); closed.fill(0); funnelMapStats.opens++; }
  }
  // Calm phase: no more changes. Each agent still following or re-planning gets its oracle at its first update.
  const calm = new Map<number, boolean | null>();
  // (unreachable agents too: one pushed into its goal's open region during the changes must set off)
  for (let i = 0; i < world.agents.count; i++) { const e = world.agents.dense[i]; if (nav.state[e] === NAV_FOLLOWING || nav.state[e] === NAV_REPLAN || nav.state[e] === NAV_UNREACHABLE) calm.set(e, undefined as unknown as null); }
  let capSeconds = 10;
  for (const e of calm.keys()) {
    const vmax = world.agent.maxSpeed[e];
    // every open triangle's perimeter bounds a path through them; generous: twice the map's perimeter per corridor
    capSeconds = Math.max(capSeconds, (4 * (W + H) + 2 * span) / (vmax * c.minTurnSpeed) + (c.arrivalSlowdown / vmax) * Math.log(1 + c.arrivalSlowdown / c.arriveDistance) + 10);
  }
  const cap = Math.ceil(capSeconds / c.dt) + 500;
  let f = 0;
  for (; f < cap; f++) {
    recordBefore();
    const frame = world.time.frame;
    step(world, c.dt);
    if (checkAll(frame, calm) === 0) break;
  }
  funnelMapStats.cases++;
  funnelMapStats.frames += f;
  for (const [e, ok] of calm) {
    if (ok === null || ok === undefined) { funnelMapStats.calmAmbiguous++; continue; }
    const st = nav.state[e], dg = Math.hypot(P.x[e] - nav.goalX[e], P.y[e] - nav.goalY[e]);
    if (ok) { funnelMapStats.arrivedCalm++; check(st === NAV_ARRIVED || dg <= c.arriveDistance, `agent ${e}: reachable goal (${nav.goalX[e]}, ${nav.goalY[e]}) not reached after ${f} calm frames (state ${st}, ${dg} m away, replans ${nav.replans[e]})`); }
    else { funnelMapStats.unreachableCalm++; check(st === NAV_UNREACHABLE, `agent ${e}: the BFS says its goal is unreachable but its state is ${st} after ${f} calm frames`); }
  }
}
const funnelMapProperty = fc.property(funnelMapCase, funnelMapRun);

// ------------------------------------------------------------------------------------------------ formations

const pointsArb = (n: number, scale: number) => fc.array(fc.tuple(mix(-1, 1), mix(-1, 1)).map(([x, y]) => [x * scale, y * scale] as Pt), { minLength: n, maxLength: n });
const assignCase = fc.record({ n: fc.integer({ min: 1, max: 7 }), scale: fc.constantFrom(1, 10, 1000), dupes: fc.nat(3) })
  .chain((p) => fc.record({ n: fc.constant(p.n), dupes: fc.constant(p.dupes), members: pointsArb(p.n, p.scale), slots: pointsArb(p.n, p.scale) }));

function travel(m: Pt[], s: Pt[], perm: ArrayLike<number>): number {
  let t = 0;
  for (let i = 0; i < m.length; i++) t += Math.hypot(m[i][0] - s[perm[i]][0], m[i][1] - s[perm[i]][1]);
  return t;
}
function isPermutation(out: Int32Array, n: number): boolean {
  const seen = new Uint8Array(n);
  for (let i = 0; i < n; i++) { const j = out[i]; if (!(j >= 0 && j < n) || seen[j]) return false; seen[j] = 1; }
  return true;
}
/** Minimum total travel over all n! permutations (Heap's algorithm). */
function bruteForceAssignment(m: Pt[], s: Pt[]): number {
  const n = m.length, p = Array.from({ length: n }, (_, i) => i), c = new Array(n).fill(0);
  let best = travel(m, s, p);
  for (let i = 1; i < n;) {
    if (c[i] < i) {
      const k = i % 2 === 0 ? 0 : c[i];
      [p[k], p[i]] = [p[i], p[k]];
      best = Math.min(best, travel(m, s, p));
      c[i]++; i = 1;
    } else { c[i] = 0; i++; }
  }
  return best;
}

/**
 * Slot assignment, n ≤ 7: assignSlotsOptimal's permutation has the brute-force minimum travel over all n!
 * permutations; assignSlotsGreedy and assignSlots return permutations whose travel is their reported cost, greedy
 * no better than the optimum; coincident members and slots included.
 */
const assignProperty = fc.property(assignCase, (c) => {
  const m = c.members.slice(), s = c.slots.slice(), n = c.n;
  for (let k = 0; k < c.dupes && n > 1; k++) m[(k + 1) % n] = m[0]; // coincident members (ties)
  const mx = m.map((p) => p[0]), my = m.map((p) => p[1]), sx = s.map((p) => p[0]), sy = s.map((p) => p[1]);
  const best = bruteForceAssignment(m, s);
  const tolc = 1e-9 * Math.max(1, best);
  const outO = new Int32Array(n), outG = new Int32Array(n), outA = new Int32Array(n);
  const co = assignSlotsOptimal(mx, my, sx, sy, n, outO);
  check(isPermutation(outO, n), `optimal: not a permutation [${Array.from(outO)}]`);
  check(Math.abs(travel(m, s, outO) - co) <= tolc, `optimal reports ${co}, its permutation travels ${travel(m, s, outO)}`);
  check(Math.abs(co - best) <= tolc, `optimal travel ${co}, brute force ${best}`);
  const cg = assignSlotsGreedy(mx, my, sx, sy, n, outG);
  check(isPermutation(outG, n), `greedy: not a permutation [${Array.from(outG)}]`);
  check(Math.abs(travel(m, s, outG) - cg) <= tolc, `greedy reports ${cg}, its permutation travels ${travel(m, s, outG)}`);
  check(cg >= best - tolc, `greedy travel ${cg} below the brute-force minimum ${best}`);
  const ca = assignSlots(mx, my, sx, sy, n, outA);
  check(Array.from(outA).join() === Array.from(outO).join() && ca === co, 'assignSlots (n ≤ 32) differs from assignSlotsOptimal');
});

/**
 * Larger groups (8..40): no brute force, but a necessary condition of optimality written here: no pair of members
 * gains by swapping slots (2-opt), for assignSlotsOptimal (n ≤ 32); assignSlots above 32 is exactly the greedy
 * assignment; both permutations with their reported travel.
 */
const largeCase = fc.record({ n: fc.integer({ min: 8, max: 40 }), scale: fc.constantFrom(1, 100) })
  .chain((p) => fc.record({ n: fc.constant(p.n), m: pointsArb(p.n, p.scale), s: pointsArb(p.n, p.scale) }));
const assignLargeProperty = fc.property(largeCase, ({ n, m, s }) => {
  const mx = m.map((p) => p[0]), my = m.map((p) => p[1]), sx = s.map((p) => p[0]), sy = s.map((p) => p[1]);
  const out = new Int32Array(n), outG = new Int32Array(n);
  const cost = assignSlots(mx, my, sx, sy, n, out);
  check(isPermutation(out, n), 'assignSlots: not a permutation');
  check(Math.abs(travel(m, s, out) - cost) <= 1e-9 * Math.max(1, cost), `assignSlots reports ${cost}, travel ${travel(m, s, out)}`);
  if (n <= HUNGARIAN_MAX) {
    const d = (i: number, j: number) => Math.hypot(m[i][0] - s[j][0], m[i][1] - s[j][1]);
    for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
      const now = d(i, out[i]) + d(j, out[j]), swapped = d(i, out[j]) + d(j, out[i]);
      check(swapped >= now - 1e-9 * Math.max(1, now), `members ${i} and ${j} gain ${now - swapped} by swapping slots`);
    }
  } else {
    const cg = assignSlotsGreedy(mx, my, sx, sy, n, outG);
    check(Array.from(out).join() === Array.from(outG).join() && cost === cg, 'assignSlots above 32 differs from the greedy assignment');
  }
});

/**
 * formationSlots, every shape and n in 1..60, spacing from 1 cm to 100 m: finite; no two slots closer than the
 * spacing (slots.ts: "no two slots are closer than spacing"); centred on the centroid (docs/FORMATIONS.md); line,
 * column and circle neighbours exactly one spacing apart (circle: "chord between neighbours is the spacing");
 * slotsRadius equals the largest slot distance from the centre; formationSpacing equals the two largest radii (by
 * sorting) plus the gap.
 */
const slotsProperty = fc.property(fc.constantFrom(FORMATION_LINE, FORMATION_COLUMN, FORMATION_WEDGE, FORMATION_BOX, FORMATION_CIRCLE), fc.integer({ min: 1, max: 60 }), mix(0.01, 100),
  fc.array(mix(0, 3), { minLength: 1, maxLength: 12 }), mix(0, 2), (shape, n, spacing, radii, gap) => {
    const out = new Float64Array(2 * n);
    formationSlots(shape, n, spacing, out);
    for (let i = 0; i < 2 * n; i++) finite(out[i], `slot coordinate ${i}`);
    let mx = 0, my = 0, far = 0, closest = Infinity;
    for (let i = 0; i < n; i++) {
      mx += out[2 * i]; my += out[2 * i + 1];
      far = Math.max(far, Math.hypot(out[2 * i], out[2 * i + 1]));
      for (let j = i + 1; j < n; j++) closest = Math.min(closest, Math.hypot(out[2 * i] - out[2 * j], out[2 * i + 1] - out[2 * j + 1]));
    }
    check(closest >= spacing * (1 - 1e-9), `${FORMATION_SHAPE_NAMES[shape]} n=${n}: slots ${closest} apart, spacing ${spacing}`);
    check(Math.hypot(mx / n, my / n) <= 1e-9 * n * spacing, `${FORMATION_SHAPE_NAMES[shape]} n=${n}: centroid (${mx / n}, ${my / n})`);
    if ((shape === FORMATION_LINE || shape === FORMATION_COLUMN || shape === FORMATION_CIRCLE) && n >= 2) {
      for (let i = 0; i + 1 < n; i++) {
        const dd = Math.hypot(out[2 * i] - out[2 * i + 2], out[2 * i + 1] - out[2 * i + 3]);
        check(Math.abs(dd - spacing) <= 1e-9 * spacing, `${FORMATION_SHAPE_NAMES[shape]} n=${n}: neighbours ${i}, ${i + 1} are ${dd} apart, spacing ${spacing}`);
      }
    }
    const sr = slotsRadius(out, n);
    check(Math.abs(sr - far) <= 1e-12 * Math.max(1, far), `slotsRadius ${sr}, farthest slot ${far}`);
    const sorted = radii.slice().sort((a, b) => b - a);
    const want = sorted[0] + (sorted.length > 1 ? sorted[1] : sorted[0]) + gap;
    const got = formationSpacing(radii, radii.length, gap);
    check(got === want, `formationSpacing ${got}, two largest radii + gap ${want}`);
  });


// ------------------------------------------------------------------------------------------------ formation anchor

interface RefAnchor { x: number; y: number; hx: number; hy: number; wp: number; v: number; w: number }
/**
 * The anchor's unicycle written out with angles (Math.atan2/cos/sin), independent of advanceAnchor's vector form and
 * cached dcos/dsin: skip reached waypoints (distance ≤ waypointRadius) but the last; finished within
 * 0.05·waypointRadius + 1e-9 of the last; ang = atan2(h × u, h · u) (exactly behind: +π, the kernel's documented
 * side, "the sign of c" with c = 0 counted as left); turn = clamp(ang, ±ω_cap·dt), ω_cap = min(maxTurnRate,
 * margin·memberMaxSpeed/(2·extent)) when extent > 0; v = clamp(min(cruise, margin·vMax − |ω|·extent), 0) ·
 * clamp(slow, 0, 1), on the last waypoint also v ≤ arriveGain·dist and v·dt ≤ dist.
 */
let _refAmbiguous = false;
/** The last reference step's "turn cut short by the limit" decision was within round-off (see refAnchorStep). */
let _refLimitAmbiguous = false;
/** The last reference step's decision itself: the turn was cut short by the limit. */
let _refCut = false;
/**
 * Relative uncertainty of the last step's speed when the turn's speed cap bound it: the cap divides by |sin ang|,
 * known to eps (see refAnchorStep), so it is known to eps / |sin ang| relative; 0 when the cap did not bind.
 */
let _refCapRel = 0;
/** Distance to the current waypoint in the reference's last step (the turn's conditioning: see anchorProperty). */
let _refDist = Infinity;
/** Round-off scale of the coordinates (set by the property; 1e-13 × (1 + the largest coordinate) metres). */
let _refEps = 0;
function refAnchorStep(s: RefAnchor, path: Float64Array, n: number, p: AnchorParams, slow: number, dt: number, side = 0, limited = 0): boolean {
  _refAmbiguous = false;
  _refLimitAmbiguous = false;
  _refCapRel = 0;
  let capRel = 0;
  while (s.wp < n - 1 && Math.hypot(path[2 * s.wp] - s.x, path[2 * s.wp + 1] - s.y) <= p.waypointRadius) s.wp++;
  if (s.wp >= n) return false;
  const dx = path[2 * s.wp] - s.x, dy = path[2 * s.wp + 1] - s.y, dist = Math.hypot(dx, dy), last = s.wp === n - 1;
  _refDist = dist;
  if (last && dist <= p.waypointRadius * 0.05 + 1e-9) { s.wp = n; s.v = 0; s.w = 0; return false; }
  const budget = p.margin * p.memberMaxSpeed, wCap = Math.min(p.maxTurnRate, p.extent > 0 ? budget / (2 * p.extent) : Infinity);
  let turn = 0, arcCap = Infinity;
  if (dist > 0) {
    const cr = s.hx * dy - s.hy * dx, dt_ = s.hx * dx + s.hy * dy;
    // Within 1e-9 rad of straight behind, the side of the turn is decided by round-off (h and u differ from the
    // kernel's in the last bits): flagged, and the caller may re-run the step on the kernel's side.
    _refAmbiguous = dt_ < 0 && Math.abs(cr) <= 1e-9 * dist + _refEps;
    let ang = cr === 0 && dt_ < 0 ? Math.PI : Math.atan2(cr, dt_);
    if (_refAmbiguous && side !== 0) ang = side * Math.abs(ang);
    const lim = wCap * dt;
    // Whether the limit cuts the turn short is decided by the kernel as cos(ang) < cos(lim): with the direction known
    // to eps rad (position round-off / dist, plus two ulps of the cosines), that decides |ang| vs lim only outside a
    // window of eps / |sin ang| (at most sqrt(2 eps) where cos is flat, near 0 and π). Inside it either answer is
    // right: flagged, and the caller may re-run the step with the kernel's (`limited` = 1 cut short, −1 not).
    const eps = 4.5e-16 + _refEps / dist;
    _refLimitAmbiguous = Math.abs(Math.abs(ang) - lim) <= eps / Math.max(Math.abs(Math.sin(ang)), Math.sqrt(2 * eps));
    const cut = limited !== 0 ? limited > 0 : Math.abs(ang) > lim;
    _refCut = cut;
    turn = cut ? (ang >= 0 ? lim : -lim) : ang;
    // a turn the limit cuts short: v ≤ ω_cap·dist / (2·|sin ang|), ang the waypoint's angle from the heading
    if (cut) { arcCap = (wCap * dist) / (2 * Math.abs(Math.sin(ang))); capRel = eps / Math.abs(Math.sin(ang)); }
    const co = Math.cos(turn), si = Math.sin(turn), nx = s.hx * co - s.hy * si, ny = s.hx * si + s.hy * co, h = Math.hypot(nx, ny);
    s.hx = nx / h; s.hy = ny / h;
    if (!cut) turn = Math.max(-lim, Math.min(lim, turn)); // (the heading took the whole turn; ω is reported within the limit)
  }
  s.w = turn / dt;
  let v = Math.max(0, Math.min(p.cruiseSpeed, budget - Math.abs(s.w) * p.extent, arcCap)) * Math.max(0, Math.min(1, slow));
  if (arcCap <= Math.min(p.cruiseSpeed, budget - Math.abs(s.w) * p.extent)) _refCapRel = capRel;
  if (last) v = Math.min(v, p.arriveGain * dist, dist / dt);
  s.x += s.hx * v * dt; s.y += s.hy * v * dt; s.v = v;
  return true;
}

const anchorCase = fc.record({
  n: fc.integer({ min: 2, max: 8 }),
  pts: fc.array(fc.tuple(uni(-30, 30), uni(-30, 30)), { minLength: 8, maxLength: 8 }),
  // edge cases: the first waypoint on the start, a repeated waypoint, a waypoint straight behind (180° turn), a
  // path back along itself, every point on the x axis (exact zeros in h × u)
  atStart: fc.boolean(), repeat: fc.option(fc.nat(7)), behind: fc.boolean(), reverse: fc.option(fc.nat(7)), collinear: fc.boolean(),
  h0: uni(0, 2 * Math.PI), axisHeading: fc.boolean(),
  p: fc.record({
    cruiseSpeed: uni(0.05, 5), maxTurnRate: uni(0.05, 4), memberMaxSpeed: uni(0.1, 6),
    extent: fc.oneof(fc.constant(0), uni(0, 10)), margin: uni(0.05, 1), waypointRadius: fc.oneof(uni(0.02, 4), fc.constant(0)), arriveGain: uni(0.1, 5),
  }),
  // dt up to 5 s: with maxTurnRate up to 4 rad/s the turn limit ω_cap·dt goes well past π
  dt: fc.oneof(uni(0.005, 0.1), uni(0.1, 5)), varyDt: fc.boolean(), dts: fc.array(uni(0.005, 2), { minLength: 7, maxLength: 7 }),
  slows: fc.array(fc.oneof(fc.constant(1), fc.constant(0), uni(-0.5, 1.5)), { minLength: 13, maxLength: 13 }),
  steps: fc.integer({ min: 1, max: 400 }),
});

/**
 * advanceAnchor (src/formation/anchor.ts) against the angle-based reference unicycle above, for up to 400 steps
 * with a fixed or varying dt and slow factors outside [0, 1] included: each step, started from the kernel's state,
 * gives the same return value and waypoint, positions within 1e-9 m and ω·dt within 1e-9 rad (looser only as far as
 * the turn is ill-conditioned: see below); the reference run alone from the start stays within 1e-6 m of the
 * kernel's whole trajectory while both drive to the same waypoint. Invariants from the file's derivation: |ω| ≤ ω_cap,
 * speed + |ω|·extent ≤ margin·memberMaxSpeed, on the last waypoint v ≤ arriveGain·dist and the step no longer than
 * the distance (it never passes the last waypoint), unit heading, finite state; once finished it stays put within
 * 0.05·waypointRadius + 1e-9 of the last waypoint with speed and ω 0.
 */
/** Counts over all runs (for the report): U-turns whose side round-off decided, steps within micrometres of a
 * waypoint (ill-conditioned turn), free-running comparisons ended early, and the free run's worst distance. */
export let anchorAmbiguous = 0, anchorIllConditioned = 0, anchorFreeEnded = 0, anchorFreeWorst = 0;
const anchorProperty = fc.property(anchorCase, (c) => {
  const n = c.n, path = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) { path[2 * i] = c.pts[i][0]; path[2 * i + 1] = c.collinear ? 0 : c.pts[i][1]; }
  const sx = c.collinear ? 0 : 1.5, sy = c.collinear ? 0 : -2.5;
  if (c.atStart) { path[0] = sx; path[1] = sy; }
  if (c.repeat !== null && n > 1) { const i = 1 + (c.repeat % (n - 1)); path[2 * i] = path[2 * i - 2]; path[2 * i + 1] = path[2 * i - 1]; }
  if (c.reverse !== null && n > 2) { const i = 2 + (c.reverse % (n - 2)); path[2 * i] = path[2 * i - 4]; path[2 * i + 1] = path[2 * i - 3]; }
  const hx0 = c.axisHeading || c.collinear ? 1 : Math.cos(c.h0), hy0 = c.axisHeading || c.collinear ? 0 : Math.sin(c.h0);
  if (c.behind) { const i = c.atStart && n > 2 ? 1 : 0; path[2 * i] = sx - 7 * hx0; path[2 * i + 1] = sy - 7 * hy0; }
  const p: AnchorParams = { ...c.p };
  let big = Math.max(Math.abs(sx), Math.abs(sy));
  for (let i = 0; i < 2 * n; i++) big = Math.max(big, Math.abs(path[i]));
  _refEps = 1e-13 * (1 + big);
  const st = createAnchorState(sx, sy, hx0, hy0);
  const ref: RefAnchor = { x: sx, y: sy, hx: st.hx, hy: st.hy, wp: 0, v: 0, w: 0 };
  const free: RefAnchor = { ...ref };
  let freeOn = true;
  const budget = p.margin * p.memberMaxSpeed;
  const wCap = Math.min(p.maxTurnRate, p.extent > 0 ? budget / (2 * p.extent) : Infinity);
  const lx = path[2 * n - 2], ly = path[2 * n - 1];
  let done = false;
  for (let k = 0; k < c.steps; k++) {
    const dt = c.varyDt ? c.dts[k % 7] : c.dt, slow = c.slows[k % 13];
    const bx = st.x, by = st.y, distLast = Math.hypot(lx - bx, ly - by);
    // Per step, the reference starts from the kernel's state (position, heading, waypoint).
    ref.x = st.x; ref.y = st.y; ref.hx = st.hx; ref.hy = st.hy; ref.wp = st.waypoint;
    const a = advanceAnchor(st, path, n, p, slow, dt);
    const saved = { ...ref };
    let b = refAnchorStep(ref, path, n, p, slow, dt);
    let side = 0;
    if (_refAmbiguous && Math.sign(st.omega) !== Math.sign(ref.w) && st.omega !== 0) {
      // a U-turn whose side round-off decides: either side is right; follow the kernel's and compare the rest
      Object.assign(ref, saved);
      side = Math.sign(st.omega);
      b = refAnchorStep(ref, path, n, p, slow, dt, side);
      anchorAmbiguous++;
    }
    if (_refLimitAmbiguous && Math.hypot(st.x - ref.x, st.y - ref.y) > 1e-9) {
      // the limit decision within round-off (see refAnchorStep): the other answer is right too; follow the kernel's
      const cutFirst = _refCut;
      Object.assign(ref, saved);
      b = refAnchorStep(ref, path, n, p, slow, dt, side, cutFirst ? -1 : 1);
      anchorAmbiguous++;
    }
    const refDist = _refDist, capRel = _refCapRel;
    const where = `step ${k} (dt ${dt}, slow ${slow})`;
    if (freeOn) {
      // The reference run on its own from the start: the whole trajectory within 1e-6 m while both drive to the
      // same waypoint and until the anchor first passes a waypoint closer than two steps' length without reaching
      // it. Such a pass turns the heading by an angle that is (step length / distance) times as sensitive to the
      // position, so round-off grows with every one (1.4e-9 m after 312 steps of 6 m; 1.8e-6 m after a few hundred
      // passes about a waypoint of radius 0, which can only be reached exactly). A waypoint reached on one side of
      // round-off and not the other, or a U-turn's side, also ends the comparison.
      const savedFree = { ...free };
      let fb = refAnchorStep(free, path, n, p, slow, dt);
      if (_refAmbiguous && Math.sign(st.omega) !== Math.sign(free.w) && st.omega !== 0) { Object.assign(free, savedFree); fb = refAnchorStep(free, path, n, p, slow, dt, Math.sign(st.omega)); }
      if (fb !== a || free.wp !== st.waypoint || _refLimitAmbiguous) { freeOn = false; anchorFreeEnded++; }
      else {
        const ef = Math.hypot(st.x - free.x, st.y - free.y);
        anchorFreeWorst = Math.max(anchorFreeWorst, ef);
        check(ef <= 1e-6, `${where}: position (${st.x}, ${st.y}), the free-running reference (${free.x}, ${free.y}), ${ef} m apart`);
        if (fb && _refDist < 2 * Math.max(free.v, p.cruiseSpeed) * dt && free.wp < n - 1) { freeOn = false; anchorFreeEnded++; }
      }
    }
    for (const [v, name] of [[st.x, 'x'], [st.y, 'y'], [st.hx, 'hx'], [st.hy, 'hy'], [st.speed, 'speed'], [st.omega, 'omega']] as [number, string][]) finite(v, `${where} ${name}`);
    check(a === b, `${where}: advanceAnchor returned ${a}, the reference ${b} (waypoint ${st.waypoint} vs ${ref.wp})`);
    check(st.waypoint === ref.wp, `${where}: waypoint ${st.waypoint}, reference ${ref.wp}`);
    // The direction to a waypoint `dist` away is known only to (position round-off)/dist rad: when the anchor is
    // within micrometres of a waypoint (radius 0, or the end of a braking approach) the two implementations' turns
    // legitimately differ by more than 1e-9 rad, and the step moves that apart by speed·dt times it.
    const slack = refDist > 0 ? _refEps / refDist : Infinity, turnTol = 1e-9 + slack;
    if (slack > 1e-9) anchorIllConditioned++;
    const ex = Math.hypot(st.x - ref.x, st.y - ref.y);
    check(ex <= 1e-9 + (st.speed > 0 ? 2 * st.speed * dt * (slack + capRel) : 0), `${where}: position (${st.x}, ${st.y}), reference (${ref.x}, ${ref.y}), ${ex} m apart`);
    check(Math.abs(st.omega - ref.w) * dt <= turnTol, `${where}: ω ${st.omega}, reference ${ref.w} (waypoint ${refDist} m away)`);
    // (a speed the turn's cap set is known to capRel relative: its 1/|sin α| amplifies the direction's round-off)
    check(Math.abs(st.speed - ref.v) <= 1e-9 + 2 * st.speed * capRel, `${where}: speed ${st.speed}, reference ${ref.v}`);
    check(Math.abs(Math.hypot(st.hx, st.hy) - 1) <= 1e-12, `${where}: heading length ${Math.hypot(st.hx, st.hy)}`);
    check(Math.abs(st.omega) <= wCap * (1 + 1e-12) + 1e-12, `${where}: |ω| ${Math.abs(st.omega)} > ω_cap ${wCap}`);
    check(st.speed >= 0 && st.speed + Math.abs(st.omega) * p.extent <= budget + 1e-9, `${where}: speed ${st.speed} + |ω|·extent ${Math.abs(st.omega) * p.extent} > margin·memberMaxSpeed ${budget}`);
    const moved = Math.hypot(st.x - bx, st.y - by);
    check(Math.abs(moved - st.speed * dt) <= 1e-9 * (1 + moved), `${where}: moved ${moved}, speed·dt ${st.speed * dt}`);
    if (a && st.waypoint === n - 1) {
      check(moved <= distLast * (1 + 1e-12) + 1e-12, `${where}: stepped ${moved} with the last waypoint ${distLast} away (passed it)`);
      check(st.speed <= p.arriveGain * distLast * (1 + 1e-12) + 1e-12, `${where}: speed ${st.speed} above the braking ramp arriveGain·dist = ${p.arriveGain * distLast}`);
    }
    if (!a) {
      check(st.waypoint === n && st.speed === 0 && st.omega === 0, `${where}: finished with waypoint ${st.waypoint}, speed ${st.speed}, ω ${st.omega}`);
      check(Math.hypot(st.x - lx, st.y - ly) <= p.waypointRadius * 0.05 + 1e-9, `${where}: finished ${Math.hypot(st.x - lx, st.y - ly)} from the last waypoint`);
      check(moved === 0, `${where}: moved ${moved} on the finishing call`);
      if (done) break;
      done = true; // one more call: a finished anchor stays finished and still
    }
  }
});

// ------------------------------------------------------------------------------------------------ formation system

interface FormationSysCase {
  shape: number; n: number; radii: number[]; speeds: number[]; pos: [number, number][]; scatter: number;
  gap: number; cruise: number; maxTurnRate: number; margin: number; slowing: number; heading: number;
  path: [number, number][]; pathLen: number; dt: number; frames: number; seed: number; eventP: number;
}
const formationSysCase: fc.Arbitrary<FormationSysCase> = fc.record({
  shape: fc.constantFrom(FORMATION_LINE, FORMATION_COLUMN, FORMATION_WEDGE, FORMATION_BOX, FORMATION_CIRCLE), n: fc.integer({ min: 1, max: 12 }),
  radii: fc.array(uni(0.1, 1), { minLength: 16, maxLength: 16 }), speeds: fc.array(uni(0.5, 4), { minLength: 16, maxLength: 16 }),
  pos: fc.array(fc.tuple(uni(-1, 1), uni(-1, 1)), { minLength: 16, maxLength: 16 }), scatter: fc.constantFrom(0, 1, 5, 30),
  // (speeds, margin and path size bound the run time: the anchor crawls at margin·vmin/2 in turns)
  gap: uni(0, 1), cruise: uni(0.2, 3), maxTurnRate: uni(0.1, 3), margin: uni(0.4, 1), slowing: uni(0.2, 3), heading: uni(-Math.PI, Math.PI),
  path: fc.array(fc.tuple(uni(-15, 15), uni(-15, 15)), { minLength: 5, maxLength: 5 }), pathLen: fc.integer({ min: 0, max: 5 }),
  dt: fc.constantFrom(1 / 60, 1 / 30, 0.1), frames: fc.integer({ min: 0, max: 300 }), seed: fc.nat(), eventP: uni(0, 0.05),
});
/** What the formation system property reached (counted over all runs, shrinking included). */
export const formationSystemStats = { orbiting: 0, cases: 0, frames: 0, reassigned: 0, bruteForced: 0, swapChecked: 0, events: 0, finished: 0, members: 0, worstEnd: 0 };

/**
 * The formation system in a world (systems/formation.ts: slot assignment, the anchor driven by advanceAnchor with
 * the members' speed budget and slot errors, members steered by arrive-at-a-moving-target): 1–12 members of
 * varied radii and speeds scattered around the anchor, every shape, a path of 0–5 waypoints, and (seeded, during the
 * first phase) members despawned, spawned and added, removed, teleported, the shape changed and a new path given.
 * Pipeline: formation + steering + integrate. Oracles written here: after every step, nothing is NaN; the members'
 * slots are a permutation of 0..n−1; the group's spacing is the two largest radii plus the gap (by sorting), its
 * anchor parameters the slowest member's speed and the farthest slot's distance; the anchor's speed and turn keep
 * speed + |ω|·extent ≤ margin·vmin; at every re-assignment, the members' travel to the slots (placed with the
 * anchor's pose at that moment) is the brute-force minimum over all n! permutations (n ≤ 7) or admits no improving
 * swap of two members (n ≤ 12), and equals the reported cost. Then, undisturbed, the anchor finishes its path
 * within the time its speed bound allows and every member ends within 1 cm of its slot.
 */
export function formationSysRun(c: FormationSysCase, full?: FormationFullOptions): string {
  const world = createCrowd({ maxAgents: 32, seed: 1 + (c.seed % 1000) });
  const en = world.enabled;
  en.lod = false; en.navigation = false; en.funnel = false; en.boids = false; en.orca = false; en.contacts = false;
  // the full pipeline (formationFullProperty): LOD, spatial hash, formation + steering, ORCA, integrate, contacts; an
  // arena (a rectangle of walls: ORCA obstacles, immovable for contacts) round the origin; the gap widened so a
  // member can pass between two settled ones (sparse)
  const arena = full ? full.arena : Infinity;
  const gap = full ? c.gap + 2.5 * Math.max(...c.radii) : c.gap;
  const checks = full ? full.checks : true;
  const dt = c.dt;
  if (full) {
    en.lod = true; en.orca = true; en.contacts = true;
    // no symmetry-breaking nudge: it moves every agent with a non-zero preferred velocity by up to 0.01 m/s a step,
    // which keeps a member settling on its slot jittering beyond 1 cm (measured 1.8 cm: vmax 0.5, slowing 0.2 m)
    setOrcaOptions(world, { symmetryBreaking: 0 });
    addObstacle(world, [[-arena, -arena], [arena, -arena], [arena, arena], [-arena, arena], [-arena, -arena]], { closed: false });
  }
  const span = 2 * Math.SQRT2 * arena;
  const nearR = full ? Math.max(full.lod.near * span, 1e-3) : 0, midR = full ? Math.max(nearR + full.lod.mid * span, 1e-3) : 0;
  const fx = full ? (full.lod.fx - 0.5) * 2 * arena : 0, fy = full ? (full.lod.fy - 0.5) * 2 * arena : 0;
  if (full) enableLod(world, { nearRadius: nearR, midRadius: midR, hysteresis: full.lod.hyst, farInterval: full.lod.interval, focus: [fx, fy] });
  const tierOf = new Map<number, number>();
  let calmOrca = false;
  const inArena = (v: number, r: number): number => Math.max(-arena + 1.01 * r, Math.min(arena - 1.01 * r, v));
  const rng = createRng(c.seed + 11);
  const group = createFormation(world, { shape: c.shape, x: 0, y: 0, heading: c.heading, speed: c.cruise, maxTurnRate: c.maxTurnRate, gap, margin: c.margin, memberSlowingRadius: c.slowing });
  const g = getFormation(world, group);
  const fm = formationComponent(world);
  const P = world.position;
  let next = 0;
  const join = (): void => {
    if (g.count >= 12) return;
    const k = next++ % 16, p = c.pos[k];
    const sc = full && full.edge ? arena : c.scatter; // edge: scattered up to the arena's walls
    let x = inArena(p[0] * sc, c.radii[k]), y = inArena(p[1] * sc, c.radii[k]);
    if (full) {
      // not onto another body (contacts would push the pair apart by up to a diameter, through a wall:
      // docs/COLLISION.md); moved by up to 5 m until clear
      const clear = (): boolean => { for (let q = 0; q < world.agents.count; q++) { const o = world.agents.dense[q]; if (Math.hypot(P.x[o] - x, P.y[o] - y) <= c.radii[k] + world.agent.radius[o]) return false; } return true; };
      for (let t = 0; t < 30 && !clear(); t++) { x = inArena(x + (rngFloat(rng) - 0.5) * 10, c.radii[k]); y = inArena(y + (rngFloat(rng) - 0.5) * 10, c.radii[k]); }
      if (!clear()) return;
    }
    const e = spawnAgent(world, { x, y, radius: c.radii[k], maxSpeed: c.speeds[k] });
    if (full) { enableOrca(world, e, { timeHorizon: full.timeHorizon, obstacleTimeHorizon: full.obstacleTimeHorizon }); tierOf.delete(e); }
    addFormationMember(world, group, e);
  };
  for (let i = 0; i < c.n; i++) join();
  const path: number[] = [];
  for (let i = 0; i < c.pathLen; i++) path.push(c.path[i][0], c.path[i][1]);
  setFormationPath(world, group, path);

  const members = (): number[] => Array.from(g.members.subarray(0, g.count));
  /** Checks after a step; `pre` is the anchor pose and member positions before it, `wasDirty` whether it re-assigned. */
  const checkAll = (where: string, pre: { x: number; y: number; hx: number; hy: number }, wasDirty: boolean): void => {
    const ms = members(), n = ms.length;
    const a = g.anchor;
    for (const v of [a.x, a.y, a.hx, a.hy, a.speed, a.omega]) finite(v, `${where}: anchor state`);
    for (const e of ms) { finite(P.x[e], `${where}: member ${e} x`); finite(P.y[e], `${where}: member ${e} y`); finite(world.velocity.x[e], `${where}: member ${e} vx`); finite(world.velocity.y[e], `${where}: member ${e} vy`); }
    // (the full pipeline's checks first, for every agent: the LOD oracle keeps each agent's tier frame by frame, and a
    // frame it missed while the group was empty left it a stale tier: found 2026-12-01, an agent removed from the
    // formation was flagged as changing tier)
    if (full) {
      storesFinite(world, where);
      for (let i = 0; i < world.agents.count; i++) {
        const e = world.agents.dense[i], x = P.x[e], y = P.y[e];
        const out = Math.max(Math.abs(x), Math.abs(y)) - arena; // the centre beyond the arena's walls
        check(out <= CONTACT_SLOP, `${where}: agent ${e} at (${x}, ${y}) is ${out} m beyond the arena's wall`);
        formationFullStats.deepestWall = Math.max(formationFullStats.deepestWall, out + world.agent.radius[e]);
        const o = lodOracle(tierOf, e, Math.hypot(P.previousX[e] - fx, P.previousY[e] - fy), nearR, midR, full.lod.hyst, world.time.frame - 1, full.lod.interval);
        checkLodFlags(world, e, o, `${where}, agent ${e}`, calmOrca);
        if (o.tier === 0) formationFullStats.nearFrames++;
        if (!o.steer) formationFullStats.skippedByLod++;
      }
    }
    if (n === 0) { check(a.speed === 0 && a.omega === 0, `${where}: an empty group's anchor moves`); return; }
    const slotOf = new Int32Array(n);
    for (let i = 0; i < n; i++) { slotOf[i] = fm.slot[ms[i]]; check(fm.group[ms[i]] === group, `${where}: member ${ms[i]} not in the group`); }
    check(isPermutation(slotOf, n), `${where}: slots [${Array.from(slotOf)}] are not a permutation of 0..${n - 1}`);
    const radii = ms.map((e) => world.agent.radius[e]).sort((p, q) => q - p);
    const spacing = radii[0] + (n > 1 ? radii[1] : radii[0]) + gap;
    check(Math.abs(g.spacing - spacing) <= 1e-12 * spacing, `${where}: spacing ${g.spacing}, two largest radii + gap ${spacing}`);
    let extent = 0;
    for (let j = 0; j < n; j++) extent = Math.max(extent, Math.hypot(g.slots[2 * j], g.slots[2 * j + 1]));
    const vmin = Math.min(...ms.map((e) => world.agent.maxSpeed[e]));
    check(g.params.memberMaxSpeed === vmin && Math.abs(g.params.extent - extent) <= 1e-12 * (1 + extent), `${where}: anchor parameters vMax ${g.params.memberMaxSpeed} (slowest member ${vmin}), extent ${g.params.extent} (farthest slot ${extent})`);
    check(a.speed >= 0 && a.speed + Math.abs(a.omega) * extent <= c.margin * vmin * (1 + 1e-9) + 1e-12, `${where}: anchor speed ${a.speed} + |ω| ${Math.abs(a.omega)} · extent ${extent} above margin · vmin ${c.margin * vmin}`);
    if (!wasDirty) return;
    // a re-assignment ran in this step, before the anchor moved: slots placed with the pre-step pose, members
    // where they stood (position.previous)
    formationSystemStats.reassigned++;
    const mp: Pt[] = ms.map((e) => [P.previousX[e], P.previousY[e]]);
    const sp: Pt[] = [];
    for (let j = 0; j < n; j++) { const ox = g.slots[2 * j], oy = g.slots[2 * j + 1]; sp.push([pre.x + pre.hx * ox - pre.hy * oy, pre.y + pre.hy * ox + pre.hx * oy]); }
    const got = travel(mp, sp, slotOf), tolc = 1e-9 * Math.max(1, got);
    check(Math.abs(got - g.lastAssignmentCost) <= tolc, `${where}: reported assignment cost ${g.lastAssignmentCost}, the permutation travels ${got}`);
    if (n <= 7) {
      formationSystemStats.bruteForced++;
      const best = bruteForceAssignment(mp, sp);
      check(Math.abs(got - best) <= tolc, `${where}: assignment travels ${got}, the brute-force minimum is ${best}`);
    } else {
      formationSystemStats.swapChecked++;
      const d = (i: number, j: number) => Math.hypot(mp[i][0] - sp[j][0], mp[i][1] - sp[j][1]);
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
        const now = d(i, slotOf[i]) + d(j, slotOf[j]), swapped = d(i, slotOf[j]) + d(j, slotOf[i]);
        check(swapped >= now - 1e-9 * Math.max(1, now), `${where}: members ${ms[i]} and ${ms[j]} gain ${now - swapped} by swapping slots`);
      }
    }
  };
  const stepChecked = (where: string): void => {
    const pre = { x: g.anchor.x, y: g.anchor.y, hx: g.anchor.hx, hy: g.anchor.hy };
    const wasDirty = g.dirty;
    step(world, dt);
    if (!checks) return;
    formationSystemStats.frames++;
    checkAll(where, pre, wasDirty);
  };

  // Disturbed phase.
  for (let f = 0; f < c.frames; f++) {
    if (rngFloat(rng) < c.eventP) {
      formationSystemStats.events++;
      const kind = rngInt(rng, 6), ms = members();
      const e = ms.length > 0 ? ms[rngInt(rng, ms.length)] : -1;
      if (kind === 0 && e >= 0) despawnAgent(world, e);
      else if (kind === 1) join();
      else if (kind === 2 && e >= 0) removeFormationMember(world, e);
      else if (kind === 3 && e >= 0) {
        const r = world.agent.radius[e];
        const tx = inArena(P.x[e] + (rngFloat(rng) - 0.5) * 20, r), ty = inArena(P.y[e] + (rngFloat(rng) - 0.5) * 20, r);
        let onBody = false; // in the full pipeline, not onto another body (see join)
        for (let q = 0; q < world.agents.count && full; q++) { const o = world.agents.dense[q]; if (o !== e && Math.hypot(P.x[o] - tx, P.y[o] - ty) <= r + world.agent.radius[o]) onBody = true; }
        if (!onBody) setAgentPosition(world, e, tx, ty);
        if (full) { setAgentVelocity(world, e, 0, 0); setPreferredVelocity(world, e, 0, 0); } // a teleport stops the agent (see funnelFullRun)
      }
      else if (kind === 4) setFormationShape(world, group, rngInt(rng, 5));
      else {
        const k = 1 + rngInt(rng, 4), pts: number[] = [];
        for (let i = 0; i < k; i++) pts.push((rngFloat(rng) - 0.5) * 30, (rngFloat(rng) - 0.5) * 30);
        setFormationPath(world, group, pts);
      }
    }
    stepChecked(`frame ${f}`);
  }
  if (g.count === 0) join();
  if (full) { calmRules(world, full.lod.interval); calmOrca = true; }
  // Calm phase: until the anchor has finished its path and every member is within 1 cm of its slot. The cap: the
  // path's length at the anchor's slowest turning speed (margin·vmin/2, or cruise), a full turn per waypoint, the
  // members' worst walk at their slowest speed, and time for the arrive ramps to settle (the error decays as
  // e^(−vmax·t/slowing)).
  const a = g.anchor;
  formationSlotError(world, g.members[0], new Float64Array(2)); // re-assigns now if membership changed: params current
  let len = 0, px = a.x, py = a.y;
  for (let i = a.waypoint; i < g.pathPoints; i++) { len += Math.hypot(g.path[2 * i] - px, g.path[2 * i + 1] - py); px = g.path[2 * i]; py = g.path[2 * i + 1]; }
  const ms0 = members();
  const vmin = Math.min(...ms0.map((e) => world.agent.maxSpeed[e]));
  let walk = 0;
  for (const e of ms0) walk = Math.max(walk, Math.hypot(P.x[e] - a.x, P.y[e] - a.y));
  // Each remaining waypoint may take up to a full turn at ω_cap (2π/ω_cap s; a wide formation of slow members
  // turns at under 0.01 rad/s).
  const wCap = Math.min(c.maxTurnRate, g.params.extent > 0 ? (c.margin * vmin) / (2 * g.params.extent) : Infinity);
  const capS = (len + 2 * Math.PI * 10) / Math.min(c.cruise, c.margin * vmin / 2) + (g.pathPoints - a.waypoint + 1) * 2 * Math.PI / wCap +
    (walk + 3 * g.spacing * 12) / vmin + 40 * c.slowing / vmin + 20;
  // In the full pipeline, doubled for ORCA (members slowing for each other and the walls), plus one encounter per
  // member (timeHorizon + 10 s): with the widened gap a member passes between settled ones.
  const cap = Math.ceil((full ? 2 * capS + g.count * (full.timeHorizon + 10) : capS) / dt);
  let f = 0, worst = Infinity;
  const slotPos = new Float64Array(2);
  // a member whose slot lies outside the arena (or within its radius of a wall) cannot reach it
  const reachable = (e: number): boolean => !full || Math.max(Math.abs(slotPos[0]), Math.abs(slotPos[1])) <= arena - 1.01 * world.agent.radius[e];
  let limited = 0, limitedWp = -1; // consecutive frames turning at the limit toward one waypoint
  // In the full pipeline, a slot that leaves the arena (the anchor's turning circles reach far beyond the waypoints
  // when a wide formation of slow members turns at under 0.01 rad/s) holds its member at the wall and the anchor
  // waits for it: no liveness claim for such a run (counted), its frames stay checked.
  let outside = false;
  for (; f < cap; f++) {
    stepChecked(`calm frame ${f}`);
    if (full) {
      for (const e of members()) { formationSlotError(world, e, slotPos); if (!reachable(e)) outside = true; }
      if (outside) break;
    }
    if (a.waypoint === limitedWp && Math.abs(a.omega) >= 0.999 * wCap) limited++; else { limited = 0; limitedWp = a.waypoint; }
    if (a.waypoint < g.pathPoints && g.pathPoints > 0) continue;
    worst = 0;
    for (const e of members()) worst = Math.max(worst, formationSlotError(world, e, slotPos));
    if (worst <= 0.01) break;
  }
  if (!checks) return worldFingerprint(world);
  if (full) { formationFullStats.cases++; formationFullStats.frames += f; if (outside) { formationFullStats.slotOutside++; return worldFingerprint(world); } }
  formationSystemStats.cases++;
  formationSystemStats.members += g.count;
  // Circling (fixed 2026-11-30; fuzz.test.ts pins the hand case): advanceAnchor turning at its limit toward a
  // waypoint inside its tightest circle ran round it for good. Runs that end turning at the limit toward one waypoint
  // for a full turn are still counted; an unfinished path fails below.
  if (a.waypoint < g.pathPoints && g.pathPoints > 0 && limited * dt >= (2 * Math.PI) / wCap) formationSystemStats.orbiting++;
  if (g.pathPoints > 0) { check(a.waypoint >= g.pathPoints, `the anchor did not finish its path in ${f} calm frames (waypoint ${a.waypoint} of ${g.pathPoints}, at (${a.x}, ${a.y}), speed ${a.speed})`); formationSystemStats.finished++; }
  check(worst <= 0.01, `members are up to ${worst} m from their slots after ${f} calm frames (anchor stopped at (${a.x}, ${a.y}))`);
  formationSystemStats.worstEnd = Math.max(formationSystemStats.worstEnd, worst);
  return worldFingerprint(world);
}
const formationSysProperty = fc.property(formationSysCase, (c) => { formationSysRun(c); });

/** The full pipeline's options of the formation system run (formationFullProperty). */
export interface FormationFullOptions {
  checks: boolean; arena: number; edge: boolean; timeHorizon: number; obstacleTimeHorizon: number;
  lod: { interval: number; near: number; mid: number; hyst: number; fx: number; fy: number };
}
const formationFullOptions = fc.record({
  checks: fc.constant(true), arena: fc.constantFrom(50, 55, 65), edge: fc.boolean(), timeHorizon: uni(0.5, 5), obstacleTimeHorizon: uni(0.2, 2),
  // far interval 1–8 and the case's dt (1/60, 1/30 or 0.1 s: a member steps up to 0.4 m, beyond the smallest radius,
  // 0.1 m): restored 2026-12-01 once the contacts pass kept every agent out of walls in every frame, with a swept
  // test (it was restricted to interval 1 and dt 1/60 s while far members walked through the arena's wall between
  // contacts passes: docs/RELIABILITY.md)
  lod: fc.record({ interval: fc.constantFrom(1, 2, 3, 4, 8), near: uni(0, 0.5), mid: uni(0, 0.5), hyst: fc.constantFrom(0, 0.01, 0.1), fx: uni(0, 1), fy: uni(0, 1) }),
});
/** What the full-pipeline formation property reached (counted over all runs, shrinking included). */
export const formationFullStats = { cases: 0, frames: 0, nearFrames: 0, skippedByLod: 0, slotOutside: 0, deepestWall: 0, betweenUpdates: 0 };
/**
 * The formation system property above in the real frame pipeline (step: LOD, spatial hash, formation + steering,
 * ORCA, integrate, contacts): members run ORCA, an arena of walls (an open polyline square of half-side 50–65 m
 * round the origin: ORCA obstacles, immovable for contacts) bounds the field, in half the cases with members
 * scattered up to the walls (the formation system has no path finding: walls inside the field, or an arena smaller
 * than the formation's sweep, leave slots a member cannot reach and the anchor waiting for it; the arena holds the
 * paths (±15 m) plus the widest formation, 12 members in a line, 30 m), LOD is on with random radii, focus,
 * hysteresis and far interval 1–8, and the gap is widened by 2.5 × the largest radius so a member can pass between
 * two settled ones (a sparse formation). Teleports stay in the arena and stop the member. Every check of the
 * property holds (slots a permutation, re-assignments optimal by brute force or 2-swap, spacing, anchor budget),
 * and after every step: no NaN in any per-agent store; no centre beyond the arena's walls by more than the contacts
 * slop; LOD flags by the documented rule, desired = preferred velocity outside the near tier. Then, undisturbed,
 * the anchor finishes its path and every member whose final slot lies inside the arena (farther than its radius from
 * the walls: the arena is convex, so the straight way there is free) ends within 1 cm of it, within twice the
 * property's bound plus one encounter (timeHorizon + 10 s) per member. Determinism: the case runs twice in two worlds;
 * stateHash and snapshot hashes must be identical.
 */
const formationFullProperty = fc.property(formationSysCase, formationFullOptions, (c, o) => {
  const a = formationSysRun(c, o), b = formationSysRun(c, { ...o, checks: false });
  check(a === b, `two worlds with the same seed and inputs ended in different states: ${a} vs ${b}`);
});

// ------------------------------------------------------------------------------------------------ full pipeline: shared oracles

/** Every per-agent store of the world (world.registry: the core stores and every system's), live agents only: no NaN anywhere, ±Infinity only in stores whose default is infinite (the parameters maxAccel, maxTurnRate). */
function storesFinite(world: CrowdWorld, where: string): void {
  const { dense, count } = world.agents;
  for (const s of world.registry.stores) {
    if (!(s.array instanceof Float64Array || s.array instanceof Float32Array)) continue;
    const infOk = !Number.isFinite(s.defaultValue);
    for (let i = 0; i < count; i++) {
      const v = s.array[dense[i]];
      check(v === v && (infOk || Number.isFinite(v)), `${where}: store ${s.name} of agent ${dense[i]} is ${v}`);
    }
  }
}
/**
 * The LOD rule (docs/LOD.md), written from the docs: a boundary at R is crossed outward beyond R + h and inward
 * within R − h (crossing several at once when clear of each); a new agent starts near. `tierOf` keeps the oracle's
 * tier per agent; returns whether the agent runs steering (the funnel, navigation, formations) this frame: not far,
 * or (frame + id) mod N = 0, or its tier changed this frame.
 */
function lodOracle(tierOf: Map<number, number>, eid: number, d: number, near: number, mid: number, h: number, frame: number, interval: number): { tier: number; steer: boolean } {
  const cur = tierOf.get(eid) ?? 0, R = [near, mid];
  let t = d <= near ? 0 : d <= mid ? 1 : 2;
  if (t > cur) { let nt = cur; while (nt < t && d > R[nt] + h) nt++; t = nt; }
  else if (t < cur) { let nt = cur; while (nt > t && d < R[nt - 1] - h) nt--; t = nt; }
  tierOf.set(eid, t);
  return { tier: t, steer: t !== 2 || (frame + eid) % interval === 0 || t !== cur };
}
/**
 * Checks an agent's LOD flags against the oracle, and that ORCA did not touch an agent it skipped (desired velocity
 * = preferred). ORCA runs in the near tier (default rules), or in every tier with `orcaEverywhere` (calmRules).
 */
function checkLodFlags(world: CrowdWorld, eid: number, o: { tier: number; steer: boolean }, where: string, orcaEverywhere = false): void {
  const lod = lodComponent(world);
  const orca = orcaEverywhere || o.tier === 0;
  check(lod.tier[eid] === o.tier, `${where}: LOD tier ${lod.tier[eid]}, the oracle's ${o.tier}`);
  check(((lod.flags[eid] & LOD_STEER) !== 0) === o.steer, `${where}: LOD_STEER ${lod.flags[eid] & LOD_STEER}, the oracle says ${o.steer ? '' : 'not '}updated`);
  check(((lod.flags[eid] & LOD_ORCA) !== 0) === orca, `${where}: LOD_ORCA ${lod.flags[eid] & LOD_ORCA} in tier ${o.tier}`);
  if (!orca) check(world.desiredVelocity.x[eid] === world.preferredVelocity.x[eid] && world.desiredVelocity.y[eid] === world.preferredVelocity.y[eid], `${where}: tier ${o.tier} (no ORCA) but desired velocity (${world.desiredVelocity.x[eid]}, ${world.desiredVelocity.y[eid]}) ≠ preferred (${world.preferredVelocity.x[eid]}, ${world.preferredVelocity.y[eid]})`);
}
/**
 * The calm phases' LOD rules: the default tiers (near everything, mid without ORCA, far staggered without ORCA) with
 * ORCA added to mid and far. Arrival needs avoidance between agents that meet: two far agents (no ORCA) rounding
 * one corner from opposite sides were pushed back by contacts along their centre line, symmetrically, for good
 * (funnel full-pipeline property, 2026-11-30: a period-8 cycle 7 mm from the corner; documented in docs/LOD.md).
 * Steering and contacts stay staggered in the far tier.
 */
function calmRules(world: CrowdWorld, interval: number): void {
  enableLod(world, { rules: [{ flags: LOD_ALL, interval: 1 }, { flags: LOD_ALL, interval: 1 }, { flags: LOD_ALL, interval }] });
}
/** The state's fingerprint for the determinism check: stateHash plus the hash of the whole snapshot (every store and system state). */
function worldFingerprint(world: CrowdWorld): string {
  return `${stateHash(world)}/${hashBytes(snapshot(world))}`;
}
const CONTACT_SLOP = 0.001; // the contacts system's default slop (configureContacts), metres

// ------------------------------------------------------------------------------------------------ funnel system in the full pipeline

/**
 * An upper bound on the shortest path from p to g through the mesh, independent of the engine: Dijkstra over the
 * triangles (p's nearest to g's), each step from a triangle's centroid to the shared edge's midpoint to the next
 * centroid, plus p to the first centroid and the last centroid to g. The polyline lies in the mesh (each piece in
 * a convex triangle), so the shortest path is no longer (the navmesh property checks that the search finds it).
 */
function dualPathLength(mesh: Navmesh, px: number, py: number, gx: number, gy: number): number {
  const V = mesh.vertices, T = mesh.triangles, N = mesh.neighbours, n = mesh.triangleCount;
  const near = (x: number, y: number): number => { let b = 0, d = Infinity; for (let t = 0; t < n && d > 0; t++) { const q = triDist(mesh, t, x, y); if (q < d) { d = q; b = t; } } return b; };
  const cx = (t: number) => (V[2 * T[3 * t]] + V[2 * T[3 * t + 1]] + V[2 * T[3 * t + 2]]) / 3, cy = (t: number) => (V[2 * T[3 * t] + 1] + V[2 * T[3 * t + 1] + 1] + V[2 * T[3 * t + 2] + 1]) / 3;
  const s = near(px, py), g = near(gx, gy);
  const dist = new Float64Array(n).fill(Infinity), done = new Uint8Array(n);
  dist[s] = Math.hypot(cx(s) - px, cy(s) - py);
  for (;;) {
    let u = -1;
    for (let t = 0; t < n; t++) if (!done[t] && dist[t] < Infinity && (u < 0 || dist[t] < dist[u])) u = t;
    if (u < 0 || u === g) break;
    done[u] = 1;
    for (let k = 0; k < 3; k++) {
      const v = N[3 * u + k];
      if (v < 0 || done[v]) continue;
      const a = T[3 * u + k], b = T[3 * u + (k + 1) % 3], mx = (V[2 * a] + V[2 * b]) / 2, my = (V[2 * a + 1] + V[2 * b + 1]) / 2;
      const w = dist[u] + Math.hypot(mx - cx(u), my - cy(u)) + Math.hypot(cx(v) - mx, cy(v) - my);
      if (w < dist[v]) dist[v] = w;
    }
  }
  return dist[g] + Math.hypot(gx - cx(g), gy - cy(g));
}

export interface FunnelFullCase {
  map: NavCase; agents: number; frames: number; seed: number; closeP: number; openP: number; goalP: number; pushP: number; spawnP: number;
  lod: { interval: number; near: number; mid: number; hyst: number; fx: number; fy: number };
  maxCornerPortals: number; maxReplansPerFrame: number; maxExp: number; shortcutInterval: number;
  lookahead: number; arrivalSlowdown: number; arriveDistance: number; minTurnSpeed: number; dt: number; maxSpeed: number;
  timeHorizon: number; obstacleTimeHorizon: number; radiusK: number;
  /**
   * ORCA yieldWhenIdle of every agent (docs/ORCA.md, "Idle agents yield"); absent: the default (true). Replays
   * recorded before idle agents yielded (2026-11-30) set false to run as they were found.
   */
  yieldWhenIdle?: boolean;
}
const funnelFullCase: fc.Arbitrary<FunnelFullCase> = fc.record({
  map: navCase, agents: fc.integer({ min: 1, max: 4 }), frames: fc.integer({ min: 10, max: 80 }), seed: fc.nat(),
  closeP: uni(0, 0.3), openP: uni(0, 0.3), goalP: uni(0, 0.1), pushP: uni(0, 0.05), spawnP: uni(0, 0.05),
  lod: fc.record({ interval: fc.constantFrom(1, 2, 3, 4, 8), near: uni(0, 0.5), mid: uni(0, 0.5), hyst: fc.constantFrom(0, 0.01, 0.1), fx: uni(0, 1), fy: uni(0, 1) }),
  maxCornerPortals: fc.constantFrom(3, 6, 128), maxReplansPerFrame: fc.constantFrom(1, 2, 16), maxExp: fc.constantFrom(1, 8, 16384),
  shortcutInterval: fc.constantFrom(0, 1, 8),
  lookahead: uni(0.2, 4), arrivalSlowdown: uni(0.2, 2), arriveDistance: uni(0.01, 0.2), minTurnSpeed: uni(0.2, 1),
  dt: fc.constantFrom(1 / 60, 1 / 30, 0.1), maxSpeed: uni(0.5, 3),
  timeHorizon: uni(0.5, 5), obstacleTimeHorizon: uni(0.2, 2), radiusK: uni(0.5, 1),
});
/** What the full-pipeline funnel property reached (counted over all runs, shrinking included). */
export const funnelFullStats = { cases: 0, frames: 0, agentFrames: 0, followingChecked: 0, skippedByLod: 0, nearFrames: 0, statusChecked: 0, statusUnreachable: 0, closes: 0, opens: 0, arrivedCalm: 0, unreachableCalm: 0, calmAmbiguous: 0, worstCalmRatio: 0, deepestWall: 0 };

/**
 * The funnel system in the real frame pipeline (step: LOD, spatial hash, funnel, ORCA, integrate, contacts) on the
 * navmesh maps above, inflated by the agents' radius class: ORCA on for every agent with the map's walls as static
 * obstacles (the obstacle polygons, the wall, and the boundary as an open polyline), which the contacts system also
 * treats as immovable; LOD always on with a random focus, radii, hysteresis and far interval (1–8); seeded
 * disturbances: triangles closed and reopened, goal changes, teleports to free points, spawns and despawns. Oracles
 * written here; after every step:
 *  - no NaN in any per-agent store of the world's registry (no ±Infinity except infinite-default parameters);
 *  - no agent centre inside an obstacle or outside the boundary by more than the contacts slop (even-odd point in
 *    polygon and segment distances on the original polygons);
 *  - LOD tier, steering and ORCA flags equal the documented rule (hysteresis, staggering, update on a tier change);
 *    an agent outside the near tier kept desired = preferred velocity (ORCA skipped it), and an agent not updated
 *    this frame kept its preferred velocity bit for bit;
 *  - every following agent's corridor is a chain of neighbouring triangles; for an agent updated this frame the
 *    triangles are open, the first holds the agent (or is nearest to it: ORCA and contacts leave agents within
 *    their radius of a wall, off the inflated mesh), the last holds the goal, and its preferred velocity points at
 *    the next corner at no more than maxSpeed; arrived, waiting and newly unreachable agents stop;
 *  - setNavGoal says 'found' exactly when a BFS over open triangles connects the agent's and the goal's triangles;
 * then every triangle is reopened and, undisturbed, every agent still following or re-planning reaches its goal
 * within the bound below when the BFS connects it (components: the wall's two sides), and ends NAV_UNREACHABLE when
 * not. Determinism: the case is run twice in two worlds; their stateHash and snapshot hashes must be identical.
 *
 * The time bound (sparse crowd: at most 5 agents of radius ≤ 0.04 × the map's smallest cell side, so the bodies
 * cover under 0.3% of the map): the map-change property's single-agent bound T₁ = (4(W + H) + 2·diagonal) /
 * (vmax·minTurnSpeed) + the arrival ramp (arrivalSlowdown/vmax · ln(1 + arrivalSlowdown/arriveDistance)) + 10 s,
 * doubled for ORCA's obstacle lines (an agent heading at a wall within obstacleTimeHorizon·vmax slows to the
 * distance left over that horizon, at worst half speed on average along a leg that ends near a wall), plus, per
 * other agent, one encounter: ORCA's reciprocal half-planes let each agent keep at least half its speed sideways,
 * so passing costs at most a detour of a few radii and timeHorizon seconds (counted as timeHorizon + 10 s).
 */
export function funnelFullRun(c: FunnelFullCase, checks: boolean): string {
  const map = makeNavMap(c.map);
  const radius = 0.4 * map.margin * c.map.rf * Math.cos(Math.PI / ARC); // mesh inflation radius
  const agentR = radius * c.radiusK;
  const tol = 1e-9 * map.scale;
  const mesh = buildNavmesh({ boundary: map.boundary, obstacles: map.obstacles }, { radius });
  const need = (radius / Math.cos(Math.PI / ARC)) * 1.001 + tol;
  const rng = createRng(c.seed + 13);
  const x0 = c.map.ox, y0 = c.map.oy, W = c.map.w, H = c.map.h, span = Math.hypot(W, H);
  let closed = new Uint8Array(mesh.triangleCount);

  const world: CrowdWorld = createCrowd({ maxAgents: 8, seed: 1 + (c.seed % 1000) });
  const en = world.enabled;
  en.navigation = false; en.steering = false; en.boids = false; // LOD, spatial hash, funnel, ORCA, integrate, contacts
  for (const o of map.obstacles) addObstacle(world, o);
  addObstacle(world, [...map.boundary, map.boundary[0]], { closed: false });
  const opts = {
    maxCornerPortals: c.maxCornerPortals, maxReplansPerFrame: c.maxReplansPerFrame, maxSearchExpansionsPerFrame: c.maxExp,
    shortcutInterval: c.shortcutInterval, lookahead: c.lookahead, arrivalSlowdown: c.arrivalSlowdown, arriveDistance: c.arriveDistance, minTurnSpeed: c.minTurnSpeed,
  };
  const fs: FunnelState = setNavmesh(world, mesh, opts);
  const nav = corridorComponent(world);
  const P = world.position, PV = world.preferredVelocity;
  const nearR = Math.max(c.lod.near * span, 1e-3), midR = Math.max(nearR + c.lod.mid * span, 1e-3);
  const fx = x0 + c.lod.fx * W, fy = y0 + c.lod.fy * H;
  enableLod(world, { nearRadius: nearR, midRadius: midR, hysteresis: c.lod.hyst, farInterval: c.lod.interval, focus: [fx, fy] });
  const tierOf = new Map<number, number>();
  let calmOrca = false;

  const freePoint = (min: number): Pt | null => {
    for (let k = 0; k < 60; k++) {
      const x = x0 + rngFloat(rng) * W, y = y0 + rngFloat(rng) * H;
      if (clearance(map, x, y) > min) return [x, y];
    }
    return null;
  };
  const side = (x: number): number => (map.wall === null ? 0 : x <= (map.wall[0] + map.wall[1]) / 2 ? -1 : 1);
  /** BFS reachability over open triangles; null when a triangle is ambiguous (on a shared edge). */
  const reach = (p: Pt, g: Pt): boolean | null => {
    const s = oracleTri(mesh, p[0], p[1], tol), t = oracleTri(mesh, g[0], g[1], tol);
    return s < 0 || t < 0 ? null : openReach(mesh, closed, s, t);
  };
  const setGoal = (eid: number, g: Pt): void => {
    const p: Pt = [P.x[eid], P.y[eid]];
    const status = setNavGoal(world, eid, g[0], g[1]);
    if (!checks) return;
    const r = reach(p, [nav.goalX[eid], nav.goalY[eid]]);
    if (r === null) return;
    funnelFullStats.statusChecked++;
    if (!r) funnelFullStats.statusUnreachable++;
    check(status === (r ? 'found' : 'unreachable'), `setNavGoal from (${p}) to (${g}): ${status}, the BFS over open triangles says ${r ? 'reachable' : 'unreachable'}`);
  };
  /** Clear of every other agent's body (bodies do not start overlapping: contacts would push them apart by up to a diameter, through a wall; docs/COLLISION.md). */
  const clearOfOthers = (p: Pt, self: number): boolean => {
    for (let q = 0; q < world.agents.count; q++) { const e = world.agents.dense[q]; if (e !== self && Math.hypot(P.x[e] - p[0], P.y[e] - p[1]) <= 2 * agentR) return false; }
    return true;
  };
  const spawn = (): void => {
    const p = freePoint(need), g = freePoint(need);
    if (p === null || g === null || world.agents.count >= 5 || !clearOfOthers(p, -1)) return;
    const eid = spawnAgent(world, { x: p[0], y: p[1], radius: agentR, maxSpeed: c.maxSpeed });
    enableOrca(world, eid, { timeHorizon: c.timeHorizon, obstacleTimeHorizon: c.obstacleTimeHorizon, neighbourDistance: 10 * radius + 3 * c.maxSpeed * c.timeHorizon, yieldWhenIdle: c.yieldWhenIdle ?? true });
    tierOf.delete(eid);
    setGoal(eid, g);
  };
  for (let i = 0; i < c.agents; i++) spawn();

  const pvBefore = new Map<number, [number, number, number]>();
  let deepest = 0;
  const checkAll = (frame: number): number => {
    let active = 0;
    const { dense, count } = world.agents;
    const where0 = `frame ${frame}`;
    storesFinite(world, where0);
    for (let i = 0; i < count; i++) {
      const eid = dense[i];
      const where = `frame ${frame}, agent ${eid}`;
      const x = P.x[eid], y = P.y[eid];
      // walls: the centre inside an obstacle or outside the boundary by at most the slop
      let depth = Math.max(0, polyDist(map.boundary, x, y));
      for (const o of map.obstacles) depth = Math.max(depth, -polyDist(o, x, y));
      deepest = Math.max(deepest, depth);
      check(depth <= CONTACT_SLOP + tol, `${where}: centre (${x}, ${y}) is ${depth} m inside a wall (radius ${agentR})`);
      const px = P.previousX[eid], py = P.previousY[eid], pvx = PV.x[eid], pvy = PV.y[eid], st = nav.state[eid];
      const o = lodOracle(tierOf, eid, Math.hypot(px - fx, py - fy), nearR, midR, c.lod.hyst, frame, c.lod.interval);
      checkLodFlags(world, eid, o, where, calmOrca);
      if (o.tier === 0) funnelFullStats.nearFrames++;
      funnelFullStats.agentFrames++;
      if (st === NAV_FOLLOWING || st === NAV_REPLAN) active++;
      if (st === NAV_FOLLOWING) {
        const slot = nav.slot[eid], len = nav.length[eid], off = slot * fs.maxCorridor;
        check(slot >= 0 && len >= 1 && len <= fs.maxCorridor, `${where}: slot ${slot}, length ${len}`);
        for (let k = 0; k < len; k++) {
          const t = fs.pool[off + k];
          check(t >= 0 && t < mesh.triangleCount, `${where}: corridor[${k}] = ${t} is not a triangle`);
          if (k > 0) check(adjacent(mesh.neighbours, fs.pool[off + k - 1], t), `${where}: corridor triangles ${fs.pool[off + k - 1]}, ${t} are not neighbours`);
        }
      }
      const before = pvBefore.get(eid);
      if (!o.steer) {
        funnelFullStats.skippedByLod++;
        if (before !== undefined) check(pvx === before[0] && pvy === before[1], `${where}: not updated this frame (LOD) but its preferred velocity changed from (${before[0]}, ${before[1]}) to (${pvx}, ${pvy})`);
        continue;
      }
      if (st === NAV_ARRIVED || st === NAV_REPLAN) { check(pvx === 0 && pvy === 0, `${where}: state ${st} with preferred velocity (${pvx}, ${pvy})`); continue; }
      if (st === NAV_UNREACHABLE && before !== undefined && before[2] !== NAV_UNREACHABLE) check(pvx === 0 && pvy === 0, `${where}: became unreachable but keeps preferred velocity (${pvx}, ${pvy})`);
      if (st !== NAV_FOLLOWING) continue;
      funnelFullStats.followingChecked++;
      const off = nav.slot[eid] * fs.maxCorridor, len = nav.length[eid];
      for (let k = 0; k < len; k++) check(!closed[fs.pool[off + k]], `${where}: corridor[${k}] = ${fs.pool[off + k]} is closed`);
      const first = fs.pool[off], last = fs.pool[off + len - 1], gx = nav.goalX[eid], gy = nav.goalY[eid];
      const dFirst = triDist(mesh, first, px, py);
      if (dFirst > tol) check(dFirst <= meshDist(mesh, px, py) + tol, `${where}: (${px}, ${py}) is ${dFirst} from the corridor's first triangle ${first}, ${meshDist(mesh, px, py)} from the mesh`);
      check(triDist(mesh, last, gx, gy) <= tol, `${where}: the goal (${gx}, ${gy}) is not in the corridor's last triangle ${last}`);
      const cx = nav.cornerX[eid], cy = nav.cornerY[eid];
      const dx = cx - px, dy = cy - py, d = Math.hypot(dx, dy), sp = Math.hypot(pvx, pvy);
      check(sp <= world.agent.maxSpeed[eid] * (1 + 1e-12), `${where}: preferred speed ${sp} above maxSpeed`);
      if (d >= 1e-9 && sp > 0) check(Math.abs(dx * pvy - dy * pvx) <= 1e-9 * d * sp && dx * pvx + dy * pvy > 0, `${where}: preferred velocity (${pvx}, ${pvy}) does not point at the corner (${cx}, ${cy})`);
    }
    return active;
  };
  const recordBefore = (): void => {
    pvBefore.clear();
    const { dense, count } = world.agents;
    for (let i = 0; i < count; i++) { const e = dense[i]; pvBefore.set(e, [PV.x[e], PV.y[e], nav.state[e]]); }
  };
  const stepChecked = (): number => {
    if (checks) recordBefore();
    const frame = world.time.frame;
    step(world, c.dt);
    return checks ? checkAll(frame) : -1;
  };

  for (let f = 0; f < c.frames; f++) {
    if (rngFloat(rng) < c.closeP) {
      const { dense, count } = world.agents, tris: number[] = [];
      const kind = rngInt(rng, 3), eid = count > 0 ? dense[rngInt(rng, count)] : -1;
      if (kind === 0 && eid >= 0 && nav.state[eid] === NAV_FOLLOWING && nav.slot[eid] >= 0) tris.push(fs.pool[nav.slot[eid] * fs.maxCorridor + rngInt(rng, nav.length[eid])]);
      else if (kind === 1) { const t = rngInt(rng, mesh.triangleCount); tris.push(t); for (let k = 0; k < 3; k++) if (mesh.neighbours[3 * t + k] >= 0) tris.push(mesh.neighbours[3 * t + k]); }
      else tris.push(rngInt(rng, mesh.triangleCount));
      if (tris.length > 0) { setNavTrianglesBlocked(world, tris, true); for (const t of tris) closed[t] = 1; funnelFullStats.closes++; }
    }
    if (rngFloat(rng) < c.openP) {
      const list: number[] = [];
      for (let t = 0; t < closed.length; t++) if (closed[t]) list.push(t);
      if (list.length > 0) {
        const pick = rngInt(rng, 2) === 0 ? list : [list[rngInt(rng, list.length)]];
        setNavTrianglesBlocked(world, pick, false);
        for (const t of pick) closed[t] = 0;
        funnelFullStats.opens++;
      }
    }
    const { dense } = world.agents;
    for (let i = 0; i < world.agents.count; i++) {
      const eid = dense[i];
      if (rngFloat(rng) < c.goalP) { const g = freePoint(need); if (g !== null) setGoal(eid, g); }
      // a teleport stops the agent: its velocity, kept, would carry it on for the frames LOD skips it (no funnel,
      // no contacts) and, from a point next to a wall, through it (docs/COLLISION.md: tunnelling)
      if (rngFloat(rng) < c.pushP) { const q = freePoint(need); if (q !== null && clearOfOthers(q, eid)) { setAgentPosition(world, eid, q[0], q[1]); setAgentVelocity(world, eid, 0, 0); setPreferredVelocity(world, eid, 0, 0); } }
    }
    if (rngFloat(rng) < c.spawnP && world.agents.count > 1) { const e = dense[rngInt(rng, world.agents.count)]; despawnAgent(world, e); tierOf.delete(e); }
    if (rngFloat(rng) < c.spawnP || world.agents.count === 0) spawn();
    stepChecked();
    if (checks) funnelFullStats.frames++;
  }
  // Calm phase: every triangle reopened, no more disturbances, ORCA in every tier (calmRules).
  calmRules(world, c.lod.interval);
  calmOrca = true;
  const all: number[] = [];
  for (let t = 0; t < closed.length; t++) if (closed[t]) all.push(t);
  if (all.length > 0) { setNavTrianglesBlocked(world, all, false); closed = new Uint8Array(mesh.triangleCount); }
  const watch: { eid: number; ok: boolean | null }[] = [];
  let single = 0;
  const { dense, count } = world.agents;
  for (let i = 0; i < count; i++) {
    const e = dense[i];
    if (nav.state[e] !== NAV_FOLLOWING && nav.state[e] !== NAV_REPLAN) continue;
    // components are the wall's sides (obstacles keep a tenth of a cell apart, more than two radii); the BFS decides
    // when the triangles are unambiguous and must agree with the side
    const r = reach([P.x[e], P.y[e]], [nav.goalX[e], nav.goalY[e]]);
    const bySide = side(P.x[e]) === side(nav.goalX[e]);
    if (checks && r !== null && clearance(map, P.x[e], P.y[e]) > tol) check(r === bySide, `agent ${e}: the BFS (${r}) and the wall's side disagree`);
    watch.push({ eid: e, ok: r ?? bySide });
    const vmax = world.agent.maxSpeed[e];
    const len = (r ?? bySide) ? dualPathLength(mesh, P.x[e], P.y[e], nav.goalX[e], nav.goalY[e]) : 0;
    single = Math.max(single, len / (vmax * c.minTurnSpeed) + (c.arrivalSlowdown / vmax) * Math.log(1 + c.arrivalSlowdown / c.arriveDistance) + 10);
  }
  // sliced re-plans: a search expands each triangle and vertex a few times at most; agents queue one after another
  const searchS = (count * 4 * (mesh.triangleCount + mesh.vertices.length / 2) / c.maxExp) * c.dt;
  const boundS = 2 * single + searchS + (count - 1) * (c.timeHorizon + 10);
  const cap = Math.ceil(boundS / c.dt) + 500;
  let f = 0;
  for (; f < cap; f++) {
    const active = stepChecked();
    if (!checks) { let a = 0; for (let i = 0; i < world.agents.count; i++) { const s = nav.state[world.agents.dense[i]]; if (s === NAV_FOLLOWING || s === NAV_REPLAN) a++; } if (a === 0) break; }
    else if (active === 0) break;
  }
  if (checks) {
    funnelFullStats.cases++;
    funnelFullStats.frames += f;
    funnelFullStats.deepestWall = Math.max(funnelFullStats.deepestWall, deepest);
    if (watch.length > 0 && boundS > 0) funnelFullStats.worstCalmRatio = Math.max(funnelFullStats.worstCalmRatio, (f * c.dt) / boundS);
    for (const w of watch) {
      const st = nav.state[w.eid], dg = Math.hypot(P.x[w.eid] - nav.goalX[w.eid], P.y[w.eid] - nav.goalY[w.eid]);
      if (w.ok) { funnelFullStats.arrivedCalm++; check(st === NAV_ARRIVED || dg <= c.arriveDistance, `agent ${w.eid}: reachable goal (${nav.goalX[w.eid]}, ${nav.goalY[w.eid]}) not reached after ${f} calm frames, bound ${boundS} s (state ${st}, at (${P.x[w.eid]}, ${P.y[w.eid]}), ${dg} m away, replans ${nav.replans[w.eid]}, tier ${lodComponent(world).tier[w.eid]})`); }
      else { funnelFullStats.unreachableCalm++; check(st === NAV_UNREACHABLE, `agent ${w.eid}: its goal is across the wall but its state is ${st} after ${f} calm frames`); }
    }
  }
  return worldFingerprint(world);
}
const funnelFullProperty = fc.property(funnelFullCase, (c) => {
  const a = funnelFullRun(c, true), b = funnelFullRun(c, false);
  check(a === b, `two worlds with the same seed and inputs ended in different states: ${a} vs ${b}`);
});

// ------------------------------------------------------------------------------------------------ grid navigation in the full pipeline

export interface GridNavCase {
  w: number; h: number; cs: number; ox: number; oy: number; blocked: boolean[]; costs: number[]; uniform: boolean; conn: 4 | 8;
  agents: { flow: boolean; rk: number; speed: number; sx: number; sy: number; gx: number; gy: number }[]; group: boolean; wide: boolean;
  frames: number; seed: number; goalP: number; pushP: number; blockP: number; maxExp: number; dt: number;
  lod: { interval: number; near: number; mid: number; hyst: number; fx: number; fy: number };
  timeHorizon: number; obstacleTimeHorizon: number; arriveK: number | null; slowK: number | null;
  /** Path agents follow their string-pulled path (setNavigationGrid smoothPaths); absent in cases recorded before it: raw. */
  smooth?: boolean;
}
const gridNavCase: fc.Arbitrary<GridNavCase> = fc.record({ w: fc.integer({ min: 2, max: 16 }), h: fc.integer({ min: 2, max: 16 }), density: uni(0, 0.4) })
  .chain((p) => fc.record({
    w: fc.constant(p.w), h: fc.constant(p.h), cs: fc.constantFrom(0.5, 1, 2.5), ox: uni(-50, 50), oy: uni(-50, 50),
    blocked: fc.array(uni(0, 1).map((v) => v < p.density), { minLength: p.w * p.h, maxLength: p.w * p.h }),
    costs: fc.array(fc.constantFrom(1, 1, 1.5, 2, 3, 7.25), { minLength: p.w * p.h, maxLength: p.w * p.h }), uniform: fc.boolean(),
    conn: fc.constantFrom<4 | 8>(4, 8),
    agents: fc.array(fc.record({ flow: fc.boolean(), rk: uni(0.1, 0.35), speed: uni(0.5, 3), sx: uni(0, 1), sy: uni(0, 1), gx: uni(0, 1), gy: uni(0, 1) }), { minLength: 1, maxLength: 4 }),
    group: fc.boolean(), wide: fc.boolean(), frames: fc.integer({ min: 10, max: 80 }), seed: fc.nat(), goalP: uni(0, 0.05), pushP: uni(0, 0.03), blockP: uni(0, 0.2),
    maxExp: fc.constantFrom(1, 4, 8192), dt: fc.constantFrom(1 / 60, 1 / 30, 0.1),
    lod: fc.record({ interval: fc.constantFrom(1, 2, 3, 4, 8), near: uni(0, 0.7), mid: uni(0, 0.7), hyst: fc.constantFrom(0, 0.01, 0.1), fx: uni(0, 1), fy: uni(0, 1) }),
    timeHorizon: uni(0.5, 5), obstacleTimeHorizon: uni(0.2, 2), arriveK: fc.option(uni(0.1, 0.5)), slowK: fc.option(uni(0, 3)),
    smooth: fc.boolean(),
  }));
/** What the grid navigation property reached (counted over all runs, shrinking included). */
export const gridNavStats = { cases: 0, frames: 0, agentFrames: 0, skippedByLod: 0, nearFrames: 0, pathsChecked: 0, flowChecked: 0, edits: 0, arrivedCalm: 0, unreachableCalm: 0, calmSkipped: 0, worstCalmRatio: 0, deepestWall: 0, waitingFrames: 0 };

/**
 * Grid navigation (systems/navigation.ts: A* paths through the time-sliced queue and shared flow fields, group
 * orders, re-plans after edits and pushes) in the real frame pipeline (step: LOD, spatial hash, navigation, ORCA,
 * integrate, contacts), on random grids (2–16 cells a side, 0.5–2.5 m cells, up to 40% blocked, unit or mixed
 * costs, 4- or 8-connected, no corner cutting), 1–4 agents of radius 0.1–0.2 cells (or 0.1–0.35), path or flow mode (or one
 * group order), ORCA on for every agent with the walls as obstacles (every border between a blocked and a walkable
 * cell, and the grid's outline, as open polylines, collinear runs merged), contacts on, LOD always on with random
 * radii, hysteresis and far interval 1–8. Seeded disturbances: new goals, teleports (the agent stopped and its order
 * given again), cells blocked mid-run (never one within a radius of an agent; its sides added as obstacles).
 * Oracles written here; after every step:
 *  - no NaN in any per-agent store (no ±Infinity except infinite-default parameters);
 *  - no agent centre inside a blocked cell or off the grid by more than the contacts slop (distance to the nearest
 *    walkable cell's square);
 *  - LOD tier, steering and ORCA flags by the documented rule; an agent outside the near tier has desired = preferred
 *    velocity; an agent not updated this frame kept its preferred velocity;
 *  - a path agent's path (agentPathCells) is a chain of neighbouring cells under the connectivity, ending in the goal
 *    cell, each diagonal step with both side cells walkable, all walkable when planned on the current grid version;
 *    an agent waiting for a first path, arrived or unreachable stands (zero preferred velocity) when updated;
 *  - a flow agent follows the field of its goal cell; preferred speeds within maxSpeed;
 * then, undisturbed, every agent whose goal cell is walkable and in its own component (4-connected BFS over walkable
 * cells: the same components as 8-connected moves without corner cutting, and the only ones bodies of radius < half
 * a cell can pass) arrives within the bound below, and every other one ends 'unreachable'.
 * Determinism: the case runs twice in two worlds; stateHash and snapshot hashes must be identical.
 *
 * The time bound: a path through the walkable cells is at most (walkable cells)·√2·cs long; at full speed that
 * takes L/vmax; the arrival ramp (speed ∝ distance within slowRadius, at least a quarter speed for flow agents)
 * adds (slowRadius/vmax)·ln(slowRadius/arriveRadius) + 4·slowRadius/vmax; sliced A* waits at most (agents ×
 * walkable cells / expansions per frame) frames; doubled for ORCA's obstacle lines (an agent heading at a wall
 * within obstacleTimeHorizon slows, at worst to half its speed on average per cell); plus per other agent one
 * encounter (timeHorizon + 10 s) and 10 s. Bodies are under 0.7 cells wide, so no single agent blocks a corridor
 * (sparse: at most 4 agents and encounters pass).
 */
export function gridNavRun(c: GridNavCase, checks: boolean): string {
  const W = c.w, H = c.h, cs = c.cs, ox = c.ox, oy = c.oy;
  const grid = createGrid(W, H, { originX: ox, originY: oy, cellSize: cs, walkable: c.blocked.map((b) => (b ? 0 : 1)), cost: c.uniform ? undefined : c.costs });
  const walk = (x: number, y: number): boolean => x >= 0 && y >= 0 && x < W && y < H && grid.walkable[y * W + x] === 1;
  const rng = createRng(c.seed + 17);
  const world: CrowdWorld = createCrowd({ maxAgents: 8, seed: 1 + (c.seed % 1000), cellSize: cs });
  const en = world.enabled;
  en.funnel = false; en.steering = false; en.boids = false; // LOD, spatial hash, navigation, ORCA, integrate, contacts
  const st = setNavigationGrid(world, grid, { connectivity: c.conn, cornerCutting: false, maxExpansionsPerFrame: c.maxExp, smoothPaths: c.smooth ?? false });
  const nav = navigationComponent(world);
  const P = world.position, PV = world.preferredVelocity;
  // walls: every cell border between walkable and blocked (or off-grid), collinear runs merged, as open polylines
  const addWalls = (): void => {
    for (let j = 0; j <= H; j++) {
      let run = -1;
      for (let i = 0; i <= W; i++) {
        const edge = i < W && walk(i, j - 1) !== walk(i, j);
        if (edge && run < 0) run = i;
        if (!edge && run >= 0) { addObstacle(world, [[ox + run * cs, oy + j * cs], [ox + i * cs, oy + j * cs]], { closed: false }); run = -1; }
      }
    }
    for (let i = 0; i <= W; i++) {
      let run = -1;
      for (let j = 0; j <= H; j++) {
        const edge = j < H && walk(i - 1, j) !== walk(i, j);
        if (edge && run < 0) run = j;
        if (!edge && run >= 0) { addObstacle(world, [[ox + i * cs, oy + run * cs], [ox + i * cs, oy + j * cs]], { closed: false }); run = -1; }
      }
    }
  };
  addWalls();
  const span = Math.hypot(W, H) * cs;
  const nearR = Math.max(c.lod.near * span, 1e-3), midR = Math.max(nearR + c.lod.mid * span, 1e-3);
  const fx = ox + c.lod.fx * W * cs, fy = oy + c.lod.fy * H * cs;
  enableLod(world, { nearRadius: nearR, midRadius: midR, hysteresis: c.lod.hyst, farInterval: c.lod.interval, focus: [fx, fy] });
  const tierOf = new Map<number, number>();
  let calmOrca = false;

  const walkableCells: number[] = [];
  const refreshWalkable = (): void => { walkableCells.length = 0; for (let k = 0; k < W * H; k++) if (grid.walkable[k] === 1) walkableCells.push(k); };
  refreshWalkable();
  if (walkableCells.length === 0) return 'no walkable cell';
  /** A point in a random walkable cell, at least `r` from the cell's blocked or off-grid sides (the cell's centre region). */
  const pointIn = (u: number, v: number, r: number): Pt => {
    const k = walkableCells[Math.min(walkableCells.length - 1, Math.floor(u * walkableCells.length))];
    const i = k % W, j = (k - i) / W, m = Math.min(r * 1.01, 0.5 * cs);
    return [ox + i * cs + m + v * (cs - 2 * m), oy + j * cs + m + rngFloat(rng) * (cs - 2 * m)];
  };
  const orders = new Map<number, { x: number; y: number; flow: boolean }>();
  const give = (eid: number, x: number, y: number, flow: boolean): void => {
    const o: AgentGoalOptions = { mode: flow ? 'flow' : 'path' };
    if (c.arriveK !== null) o.arriveRadius = c.arriveK * cs;
    if (c.slowK !== null) o.slowRadius = c.slowK * cs;
    setAgentGoal(world, eid, x, y, o);
    orders.set(eid, { x, y, flow });
  };
  const radii = new Map<number, number>();
  /** Clear of every other agent's body (a level does not start with bodies overlapping: contacts would push them apart by more than a radius, through walls; docs/COLLISION.md). */
  const clearOfOthers = (p: Pt, r: number, self: number): boolean => {
    for (let q = 0; q < world.agents.count; q++) { const e = world.agents.dense[q]; if (e !== self && Math.hypot(P.x[e] - p[0], P.y[e] - p[1]) <= r + world.agent.radius[e]) return false; }
    return true;
  };
  for (const a of c.agents) {
    // radius 0.1–0.35 cells (wide), else 0.1–0.2 (sparse: see the calm phase)
    const r = (c.wide ? a.rk : 0.1 + (a.rk - 0.1) * 0.4) * cs;
    let p = pointIn(a.sx, a.sy, r);
    for (let k = 0; k < 20 && !clearOfOthers(p, r, -1); k++) p = pointIn(rngFloat(rng), rngFloat(rng), r);
    if (!clearOfOthers(p, r, -1)) continue;
    const eid = spawnAgent(world, { x: p[0], y: p[1], radius: r, maxSpeed: a.speed });
    radii.set(eid, r);
    enableOrca(world, eid, { timeHorizon: c.timeHorizon, obstacleTimeHorizon: c.obstacleTimeHorizon, neighbourDistance: 3 * cs + 3 * a.speed * c.timeHorizon });
  }
  const ids = Array.from(world.agents.dense.subarray(0, world.agents.count));
  if (c.group && ids.length > 1) {
    const g = pointIn(c.agents[0].gx, c.agents[0].gy, GOAL_MARGIN * cs);
    const o: AgentGoalOptions = {};
    if (c.slowK !== null) o.slowRadius = c.slowK * cs;
    setGroupGoal(world, ids, g[0], g[1], o);
    for (const e of ids) orders.set(e, { x: g[0], y: g[1], flow: true });
  } else ids.forEach((e, k) => { const g = pointIn(c.agents[k].gx, c.agents[k].gy, GOAL_MARGIN * cs); give(e, g[0], g[1], c.agents[k].flow); });

  /** Depth of (x, y) in the blocked region: 0 in a walkable cell, else the distance to the nearest walkable cell's square. */
  const wallDepth = (x: number, y: number): number => {
    const i = Math.floor((x - ox) / cs), j = Math.floor((y - oy) / cs);
    if (walk(i, j)) return 0;
    let d = Infinity;
    for (const k of walkableCells) {
      const a = k % W, b = (k - a) / W;
      const qx = Math.max(ox + a * cs, Math.min(ox + (a + 1) * cs, x)), qy = Math.max(oy + b * cs, Math.min(oy + (b + 1) * cs, y));
      d = Math.min(d, Math.hypot(x - qx, y - qy));
    }
    return d;
  };
  /** 4-connected component labels of the walkable cells. */
  const components = (): Int32Array => {
    const lab = new Int32Array(W * H).fill(-1);
    let n = 0;
    for (const k of walkableCells) {
      if (lab[k] >= 0) continue;
      const q = [k]; lab[k] = n;
      for (let t = 0; t < q.length; t++) {
        const u = q[t], i = u % W, j = (u - i) / W;
        for (const [di, dj] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
          const a = i + di, b = j + dj;
          if (walk(a, b) && lab[b * W + a] < 0) { lab[b * W + a] = n; q.push(b * W + a); }
        }
      }
      n++;
    }
    return lab;
  };

  const pvBefore = new Map<number, [number, number]>();
  let deepest = 0;
  const checkAll = (frame: number): number => {
    let active = 0;
    const { dense, count } = world.agents;
    storesFinite(world, `frame ${frame}`);
    for (let i = 0; i < count; i++) {
      const eid = dense[i];
      const where = `frame ${frame}, agent ${eid}`;
      const x = P.x[eid], y = P.y[eid];
      const depth = wallDepth(x, y);
      deepest = Math.max(deepest, depth);
      check(depth <= CONTACT_SLOP + 1e-9 * (Math.abs(x) + Math.abs(y)), `${where}: centre (${x}, ${y}) is ${depth} m inside a blocked cell or off the grid (radius ${world.agent.radius[eid]})`);
      const px = P.previousX[eid], py = P.previousY[eid], pvx = PV.x[eid], pvy = PV.y[eid], s = nav.status[eid];
      const o = lodOracle(tierOf, eid, Math.hypot(px - fx, py - fy), nearR, midR, c.lod.hyst, frame, c.lod.interval);
      checkLodFlags(world, eid, o, where, calmOrca);
      if (o.tier === 0) gridNavStats.nearFrames++;
      gridNavStats.agentFrames++;
      if (s === GRID_NAV_MOVING || s === GRID_NAV_WAITING_FOR_PATH) active++;
      if (s === GRID_NAV_WAITING_FOR_PATH) gridNavStats.waitingFrames++;
      check(Math.hypot(pvx, pvy) <= world.agent.maxSpeed[eid] * (1 + 1e-12), `${where}: preferred speed ${Math.hypot(pvx, pvy)} above maxSpeed`);
      const before = pvBefore.get(eid);
      if (!o.steer) {
        gridNavStats.skippedByLod++;
        if (before !== undefined) check(pvx === before[0] && pvy === before[1], `${where}: not updated this frame (LOD) but its preferred velocity changed`);
      }
      const order = orders.get(eid)!;
      if (order.flow) {
        check(nav.mode[eid] === GRID_NAV_MODE_FLOW, `${where}: flow order but mode ${nav.mode[eid]}`);
        const field = agentFlowField(world, eid);
        check(field !== null && field.goals.length === 1 && field.goals[0] === nav.goalCell[eid], `${where}: not on the field of its goal cell`);
        gridNavStats.flowChecked++;
      } else {
        check(nav.mode[eid] === GRID_NAV_MODE_PATH, `${where}: path order but mode ${nav.mode[eid]}`);
        const path = agentPathCells(world, eid);
        if (o.steer && path.length === 0) check(pvx === 0 && pvy === 0, `${where}: no path (status ${s}) but preferred velocity (${pvx}, ${pvy})`);
        if (path.length > 0) {
          gridNavStats.pathsChecked++;
          check(path[path.length - 1] === nav.goalCell[eid], `${where}: path ends in cell ${path[path.length - 1]}, the goal is cell ${nav.goalCell[eid]}`);
          const current = nav.pathVersion[eid] === grid.version;
          for (let k = 0; k < path.length; k++) {
            const a = path[k] % W, b = (path[k] - a) / W;
            if (current) check(walk(a, b), `${where}: path cell ${k} (${a}, ${b}) is blocked on the grid it was planned on`);
            if (k === 0) continue;
            const a0 = path[k - 1] % W, b0 = (path[k - 1] - a0) / W, da = Math.abs(a - a0), db = Math.abs(b - b0);
            check(da <= 1 && db <= 1 && da + db >= 1 && (c.conn === 8 || da + db === 1), `${where}: path cells ${k - 1}, ${k} are not neighbours`);
            if (current && da + db === 2) check(walk(a0, b) && walk(a, b0), `${where}: path cuts the corner between (${a0}, ${b0}) and (${a}, ${b})`);
          }
        }
      }
      if (o.steer && (s === GRID_NAV_ARRIVED || s === GRID_NAV_UNREACHABLE)) check(pvx === 0 && pvy === 0, `${where}: status ${s} with preferred velocity (${pvx}, ${pvy})`);
    }
    return active;
  };
  const stepChecked = (): number => {
    if (checks) { pvBefore.clear(); for (let i = 0; i < world.agents.count; i++) { const e = world.agents.dense[i]; pvBefore.set(e, [PV.x[e], PV.y[e]]); } }
    const frame = world.time.frame;
    step(world, c.dt);
    if (checks) return checkAll(frame);
    let a = 0;
    for (let i = 0; i < world.agents.count; i++) { const s = nav.status[world.agents.dense[i]]; if (s === GRID_NAV_MOVING || s === GRID_NAV_WAITING_FOR_PATH) a++; }
    return a;
  };

  for (let f = 0; f < c.frames; f++) {
    if (rngFloat(rng) < c.blockP && walkableCells.length > 1) {
      // block a walkable cell (its sides become walls) that no agent reaches before it can react: farther than its
      // radius plus its travel until its next update (maxSpeed·dt·interval), and off every path agent's path (an
      // agent keeps following its old path while its re-plan waits in the queue, and beyond ORCA's reach with steps
      // longer than its radius it would walk into the new wall: tunnelling, docs/COLLISION.md)
      const k = walkableCells[rngInt(rng, walkableCells.length)], i = k % W, j = (k - i) / W;
      let free = true;
      for (let q = 0; q < world.agents.count && free; q++) {
        const e = world.agents.dense[q], r = world.agent.radius[e];
        const qx = Math.max(ox + i * cs, Math.min(ox + (i + 1) * cs, P.x[e])), qy = Math.max(oy + j * cs, Math.min(oy + (j + 1) * cs, P.y[e]));
        free = Math.hypot(P.x[e] - qx, P.y[e] - qy) > r + world.agent.maxSpeed[e] * c.dt * c.lod.interval + 0.1 * cs;
        if (free && !orders.get(e)!.flow) free = !agentPathCells(world, e).includes(k);
      }
      if (free) {
        setBlocked(grid, i, j, true);
        refreshWalkable();
        const x0 = ox + i * cs, y0 = oy + j * cs;
        addObstacle(world, [[x0, y0], [x0 + cs, y0], [x0 + cs, y0 + cs], [x0, y0 + cs], [x0, y0]], { closed: false });
        gridNavStats.edits++;
      }
    }
    for (let q = 0; q < world.agents.count; q++) {
      const e = world.agents.dense[q], o = orders.get(e)!;
      if (rngFloat(rng) < c.goalP) { const g = pointIn(rngFloat(rng), rngFloat(rng), GOAL_MARGIN * cs); give(e, g[0], g[1], o.flow); }
      if (rngFloat(rng) < c.pushP) {
        const p = pointIn(rngFloat(rng), rngFloat(rng), world.agent.radius[e] + 0.1 * cs);
        if (!clearOfOthers(p, world.agent.radius[e], e)) continue;
        setAgentPosition(world, e, p[0], p[1]); setAgentVelocity(world, e, 0, 0); setPreferredVelocity(world, e, 0, 0);
        const g = orders.get(e)!;
        give(e, g.x, g.y, g.flow); // a teleported unit gets its order again (an unreachable one is not re-planned when moved)
      }
    }
    stepChecked();
    if (checks) gridNavStats.frames++;
  }
  calmRules(world, c.lod.interval); // ORCA in every tier from now on (see calmRules)
  calmOrca = true;
  // Calm phase: no more disturbances. The oracle: the agent's cell (or, within the slop of a blocked cell, the
  // nearest walkable one) and the goal cell in one component.
  const lab = components();
  const watch: { eid: number; ok: boolean }[] = [];
  let longest = 0, slowest = Infinity, maxSlow = 0, minArrive = Infinity;
  for (let q = 0; q < world.agents.count; q++) {
    const e = world.agents.dense[q];
    const i = Math.floor((P.x[e] - ox) / cs), j = Math.floor((P.y[e] - oy) / cs);
    if (!walk(i, j)) { if (checks) gridNavStats.calmSkipped++; continue; }
    const gc = nav.goalCell[e];
    watch.push({ eid: e, ok: grid.walkable[gc] === 1 && lab[gc] === lab[j * W + i] });
    slowest = Math.min(slowest, world.agent.maxSpeed[e]);
    maxSlow = Math.max(maxSlow, nav.slowRadius[e]);
    minArrive = Math.min(minArrive, nav.arriveRadius[e]);
  }
  longest = walkableCells.length * Math.SQRT2 * cs;
  const n = world.agents.count;
  const boundS = watch.length === 0 ? 0 : 2 * (longest / slowest + (maxSlow / slowest) * Math.log(1 + maxSlow / minArrive) + 4 * maxSlow / slowest + (n * walkableCells.length / c.maxExp + 2) * c.dt) + (n - 1) * (c.timeHorizon + 10) + 10;
  const cap = Math.ceil(boundS / c.dt) + 10;
  // Sparse: bodies under 0.4 cells wide, so two pass each other in a one-cell corridor. Then arrival is claimed, and
  // an agent that has arrived leaves the map (despawned), so a parked body never corks a corridor or covers another's
  // goal; so does one that stops unreachable when that is its expected end (not in its goal's component, or not
  // watched: it started the calm phase in a blocked cell). Found 2026-12-01 once walls held every agent: a parked
  // unreachable body 0.14 m from another agent's goal kept that agent 0.25 m short of it for good (seed 711671237;
  // the same end state on the code before the wall fixes, where earlier wall failures hid it). Wider bodies are
  // still checked for safety, paths and the unreachable status.
  let sparse = true;
  for (let q = 0; q < world.agents.count; q++) sparse = sparse && world.agent.radius[world.agents.dense[q]] <= 0.2 * cs;
  const arrivedAt = new Map<number, number>(), unreachableAt = new Map<number, number>();
  const expectArrival = new Set<number>();
  for (const w of watch) if (w.ok) expectArrival.add(w.eid);
  let f = 0;
  for (; f < cap; f++) {
    const active = stepChecked();
    if (sparse) {
      for (let q = world.agents.count - 1; q >= 0; q--) {
        const e = world.agents.dense[q];
        if (nav.status[e] === GRID_NAV_ARRIVED) { arrivedAt.set(e, f); despawnAgent(world, e); tierOf.delete(e); }
        else if (nav.status[e] === GRID_NAV_UNREACHABLE && !expectArrival.has(e)) { unreachableAt.set(e, f); despawnAgent(world, e); tierOf.delete(e); }
      }
    }
    if (active === 0) break;
  }
  if (checks) {
    gridNavStats.cases++;
    gridNavStats.frames += f;
    gridNavStats.deepestWall = Math.max(gridNavStats.deepestWall, deepest);
    if (watch.length > 0) gridNavStats.worstCalmRatio = Math.max(gridNavStats.worstCalmRatio, (f * c.dt) / boundS);
    for (const w of watch) {
      if (arrivedAt.has(w.eid)) { check(w.ok, `agent ${w.eid}: arrived at a goal the BFS says is unreachable`); gridNavStats.arrivedCalm++; continue; }
      if (unreachableAt.has(w.eid)) { gridNavStats.unreachableCalm++; continue; } // (removed with that status: !w.ok)
      const s = nav.status[w.eid], dg = Math.hypot(P.x[w.eid] - nav.goalX[w.eid], P.y[w.eid] - nav.goalY[w.eid]);
      if (w.ok && !sparse) { gridNavStats.calmSkipped++; continue; }
      if (w.ok) { gridNavStats.arrivedCalm++; check(s === GRID_NAV_ARRIVED || dg <= nav.arriveRadius[w.eid], `agent ${w.eid}: reachable goal (${nav.goalX[w.eid]}, ${nav.goalY[w.eid]}) not reached after ${f} calm frames, bound ${boundS} s (status ${s}, at (${P.x[w.eid]}, ${P.y[w.eid]}), ${dg} m away, mode ${nav.mode[w.eid]}, tier ${lodComponent(world).tier[w.eid]})`); }
      else { gridNavStats.unreachableCalm++; check(s === GRID_NAV_UNREACHABLE, `agent ${w.eid}: goal cell ${nav.goalCell[w.eid]} not in its component but status ${s} after ${f} calm frames`); }
    }
  }
  void st;
  return worldFingerprint(world);
}
const GOAL_MARGIN = 0.36; // goals lie at least this many cells from their cell's sides (more than any radius: reachable by the centre)
const gridNavProperty = fc.property(gridNavCase, (c) => {
  const a = gridNavRun(c, true), b = gridNavRun(c, false);
  check(a === b, `two worlds with the same seed and inputs ended in different states: ${a} vs ${b}`);
});

export const FUZZ_PROPERTIES: FuzzProperty[] = [
  { name: 'spatial hash: radius, k-nearest and batch k-nearest queries equal brute force', quickRuns: 150, property: spatialHashProperty },
  { name: 'A*: status and cost equal Dijkstra, path legal and its steps sum to the cost', quickRuns: 150, property: astarProperty },
  { name: 'JPS: cost equals Dijkstra on uniform grids, path legal', quickRuns: 150, property: jpsProperty },
  { name: 'flow field: integration equals multi-source Dijkstra, next pointers realise it, unit directions', quickRuns: 100, property: flowFieldProperty },
  { name: 'funnel: finite path from start to goal; at radius 0 inside the corridor and no longer than the midpoint path', quickRuns: 300, property: funnelProperty },
  { name: 'ORCA 2D LP: feasible results satisfy every line and are optimal vs sampling; infeasible only when sampling finds nothing', quickRuns: 200, property: lpProperty },
  { name: 'orcaVelocity: finite, unit line directions, within max speed, satisfies all lines when feasible and the obstacle lines whenever they are feasible', quickRuns: 300, property: orcaProperty },
  { name: 'GJK/EPA/manifold: finite outputs, iteration caps, closest points consistent, sphere closed form, manifold agrees with distance', quickRuns: 300, property: collisionProperty },
  { name: 'manifold: axis-aligned box depth equals the smallest axis overlap', quickRuns: 200, property: boxDepthProperty },
  { name: '2D manifold: depth equals closed forms (circles) and the separating axis theorem (polygons, rounded too), no contact beyond the margin, finite, caps', quickRuns: 400, property: manifold2Property },
  { name: 'navmesh: free area (shoelace), centroids outside obstacles, symmetric links, shortest length equals a visibility-graph Dijkstra, paths in free space, unreachable across a wall; raycast and shortcut agree with exact segment tests', quickRuns: 300, property: navmeshProperty },
  { name: 'navmesh merged obstacles: touching, overlapping and pinched obstacles in concave boundaries; area equals a slab integral, coverage equals point-in-polygon, walls on real borders, components', quickRuns: 60, property: navmeshMergeProperty },
  { name: 'navmesh bad input: few points, collinear, bow-tie, NaN/infinite rings throw the documented typed error', quickRuns: 200, property: navmeshBadInputProperty },
  { name: 'formation assignment: optimal equals brute force over all permutations (n ≤ 7), greedy no better, costs equal the permutations\' travel', quickRuns: 300, property: assignProperty },
  { name: 'formation assignment, n 8..40: optimal has no improving 2-swap, above 32 assignSlots is greedy', quickRuns: 100, property: assignLargeProperty },
  { name: 'formation slots: finite, never closer than the spacing, centred, neighbours one spacing apart, slotsRadius and formationSpacing exact', quickRuns: 400, property: slotsProperty },
  { name: 'formation anchor: advanceAnchor equals an angle-based reference unicycle (1e-9 m per step), turn and speed caps, brakes without passing the last waypoint', quickRuns: 300, property: anchorProperty },
  { name: 'funnel system: under pushes, goal moves and respawns, corridors are neighbour chains from the agent to the goal, preferred velocity toward a corner along a free leg, statuses match reachability, reachable goals reached', quickRuns: 20, property: funnelSystemProperty },
  { name: 'funnel system with map changes: closed and reopened triangles, the mesh replaced mid-run, LOD staggering; corridors of open triangles, statuses equal a BFS over open triangles, far agents untouched between updates, reachable goals reached', quickRuns: 30, property: funnelMapProperty },
  { name: 'funnel system in the full pipeline: ORCA with the walls as obstacles, contacts, staggered LOD; no NaN in any store, no centre inside a wall beyond the slop, LOD flags by the rule, corridors neighbour chains of open triangles, statuses equal a BFS, reachable goals reached within a derived bound, deterministic', quickRuns: 40, property: funnelFullProperty,
    knownDefect: 'an agent rounding an obstacle corner next to an arrived agent stands a fraction of a millimetre from the corner for good: the funnel steers it at the mesh vertex, which lies 0.07 mm outside the two bodies, and ORCA keeps it back (long run 2026-11-30, clock seed 867308320, failed in seed 867308326 after 314 cases; also on the old code at maxCornerPortals 128; pinned as it.fails in fuzz.test.ts)' },
  { name: 'grid navigation in the full pipeline: A* paths and flow fields with ORCA (walls as obstacles), contacts, staggered LOD, cells blocked mid-run; no NaN in any store, no centre in a blocked cell beyond the slop, LOD flags by the rule, paths neighbour chains to the goal, statuses equal a BFS, reachable goals reached within a derived bound, deterministic', quickRuns: 60, property: gridNavProperty },
  { name: 'formation system: in a world, slots a permutation, re-assignments optimal (brute force, 2-swap), spacing and anchor budget, members on their slots once the anchor stops', quickRuns: 15, property: formationSysProperty },
  { name: 'formation system in the full pipeline: ORCA with an arena of walls, contacts, staggered LOD; every formation system check, no NaN in any store, no centre beyond a wall by more than the slop, LOD flags by the rule, members on reachable slots within a derived bound, deterministic', quickRuns: 8, property: formationFullProperty },
];

/** Run one property; returns null on success or the fast-check report. */
export function runProperty(p: FuzzProperty, seed: number, numRuns: number): string | null {
  const r = fc.check(p.property as fc.IProperty<unknown>, { seed, numRuns });
  if (!r.failed) return null;
  const err = r.errorInstance instanceof Error ? r.errorInstance.message : String(r.errorInstance);
  return `${p.name}\n${err}\n${fc.defaultReportMessage(r) ?? ''}`;
}
