/**
 * Navmesh benchmark (issue 4).
 *
 * Scene: a seeded 500 m square with 500 star-shaped (mostly concave) obstacles of 3–7 vertices on a jittered grid.
 * 1. Build time (validation, polygon-clipping union/inflation, constrained Delaunay, adjacency, grid index) at
 *    radius 0 and 0.5 m.
 * 2. Query time: findNavPath (optimal any-angle A*) + corridorPortals + funnel, µs per query, over seeded random
 *    start/goal pairs on the mesh; also the A* alone.
 * 3. Funnel cost per portal: funnel over the corridors of those queries, ns per portal.
 * 4. funnelSystem: ms per frame for agents following corridors across the map.
 * 5. Baseline: Detour-style A* over triangles (node = entry-edge midpoint, as dtNavMeshQuery::findPath) + funnel,
 *    written here for comparison only: its time per query and how much longer its paths are than the optimum.
 */
import { performance } from 'node:perf_hooks';
import TinyQueue from 'tinyqueue';
import { createRng, rngFloat, rngRange, type Rng } from '../src/core/rng';
import { buildNavmesh, type Navmesh, type PolygonMap } from '../src/navmesh/build';
import { locateTriangle } from '../src/navmesh/locate';
import { createNavQuery, createNavPathResult, findNavPath } from '../src/navmesh/search';
import { corridorPortals } from '../src/navmesh/portals';
import { funnel, polylineLength } from '../src/funnel/funnel';
import { createCrowd } from '../src/world/crowd';
import { spawnAgent } from '../src/world/agents';
import { setNavmesh, setNavGoal, funnelSystem } from '../systems/funnel';
import { row, timeMs, type BenchModule } from './harness';

type P = [number, number];

function star(rng: Rng, cx: number, cy: number, radius: number, n: number): P[] {
  const pts: P[] = [];
  const phase = rngRange(rng, 0, 2 * Math.PI);
  for (let i = 0; i < n; i++) {
    const a = phase + ((i + rngRange(rng, 0.2, 0.8)) * 2 * Math.PI) / n;
    const r = radius * rngRange(rng, 0.35, 1);
    pts.push([cx + r * Math.cos(a), cy + r * Math.sin(a)]);
  }
  return pts;
}

/** The benchmark scene: `count` obstacles in a square of side `size` metres (shared with docs and demos). */
export function navmeshBenchMap(seed: number, count: number, size: number): PolygonMap {
  const rng = createRng(seed);
  const per = Math.ceil(Math.sqrt(count));
  const cell = size / per;
  const obstacles: P[][] = [];
  for (let i = 0; i < count; i++) {
    const cx = ((i % per) + 0.5 + rngRange(rng, -0.15, 0.15)) * cell;
    const cy = (Math.floor(i / per) + 0.5 + rngRange(rng, -0.15, 0.15)) * cell;
    obstacles.push(star(rng, cx, cy, cell * 0.3, 3 + Math.floor(rngFloat(rng) * 5)));
  }
  return { boundary: [[0, 0], [size, 0], [size, size], [0, size]], obstacles };
}

/** Detour-style corridor search (baseline): A* over triangles, positions at entry-edge midpoints. */
function midpointAStar(mesh: Navmesh, sx: number, sy: number, gx: number, gy: number, out: Int32Array): number {
  const s = locateTriangle(mesh, sx, sy), g = locateTriangle(mesh, gx, gy);
  if (s < 0 || g < 0) return 0;
  const nt = mesh.triangleCount;
  if (_bg.length < nt) { _bg = new Float64Array(nt); _bp = new Int32Array(nt); _bx = new Float64Array(2 * nt); _bc = new Uint8Array(nt); _bf = new Float64Array(nt); }
  _bg.fill(Infinity, 0, nt); _bc.fill(0, 0, nt);
  const { vertices: V, triangles: T, neighbours: N } = mesh;
  const open = _bq;
  open.data.length = 0;
  open.length = 0;
  _bg[s] = 0; _bp[s] = -1; _bx[2 * s] = sx; _bx[2 * s + 1] = sy; _bf[s] = hyp(gx - sx, gy - sy);
  open.push(s);
  while (open.length > 0) {
    const t = open.pop()!;
    if (_bc[t]) continue;
    _bc[t] = 1;
    if (t === g) break;
    for (let k = 0; k < 3; k++) {
      const u = N[3 * t + k];
      if (u < 0 || _bc[u]) continue;
      const a = T[3 * t + k], b = T[3 * t + (k + 1) % 3];
      const mx = 0.5 * (V[2 * a] + V[2 * b]), my = 0.5 * (V[2 * a + 1] + V[2 * b + 1]);
      const ng = _bg[t] + hyp(mx - _bx[2 * t], my - _bx[2 * t + 1]) + (u === g ? hyp(gx - mx, gy - my) : 0);
      if (ng < _bg[u]) {
        _bg[u] = ng; _bp[u] = t; _bx[2 * u] = mx; _bx[2 * u + 1] = my;
        _bf[u] = ng + (u === g ? 0 : 0.999 * hyp(gx - mx, gy - my));
        open.push(u);
      }
    }
  }
  if (!_bc[g]) return 0;
  let n = 0;
  for (let t = g; t >= 0; t = _bp[t]) out[n++] = t;
  out.subarray(0, n).reverse();
  return n;
}
function hyp(x: number, y: number): number { return Math.sqrt(x * x + y * y); }
const _bq = new TinyQueue<number>([], (a, b) => (_bf[a] < _bf[b] ? -1 : _bf[a] > _bf[b] ? 1 : a - b));
let _bg = new Float64Array(0), _bp = new Int32Array(0), _bx = new Float64Array(0), _bc = new Uint8Array(0), _bf = new Float64Array(0);

function median(a: number[]): number {
  const s = [...a].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) >> 1] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
}

export const navmeshBench: BenchModule = {
  name: 'navmesh',
  run(ctx) {
    const size = 500;
    const map = navmeshBenchMap(42, 500, size);
    for (const radius of [0, 0.5]) {
      const samples = timeMs(() => { buildNavmesh(map, { radius }); }, ctx.quick ? 2 : 7, 1);
      const mesh = buildNavmesh(map, { radius });
      ctx.record(row('navmesh', `build, 500 obstacles, radius ${radius}`, 'ms', samples, undefined, { triangles: mesh.triangleCount, vertices: mesh.vertexCount }));
    }

    const mesh = buildNavmesh(map, { radius: 0.5 });
    const q = createNavQuery(mesh, 1 << 20);
    const res = createNavPathResult(1 << 16);
    const rng = createRng(7);
    const queries = ctx.quick ? 200 : 1000;
    const pts: number[] = [];
    while (pts.length < 4 * queries) {
      const x = rngRange(rng, 0, size), y = rngRange(rng, 0, size);
      if (locateTriangle(mesh, x, y) >= 0) pts.push(x, y);
    }
    const portals = new Float64Array(4 * (1 << 16));
    const out = new Float64Array(2 * (1 << 17));
    const full: number[] = [], search: number[] = [], perPortal: number[] = [], nodes: number[] = [];
    const corridors: Int32Array[] = [];
    const ends: number[][] = [];
    // Warm-up.
    for (let i = 0; i < 20; i++) findNavPath(q, pts[4 * i], pts[4 * i + 1], pts[4 * i + 2], pts[4 * i + 3], res);
    // Pass 1: the whole query (search + portals + funnel). Pass 2: the search alone, on the same queries.
    for (let i = 0; i < queries; i++) {
      const sx = pts[4 * i], sy = pts[4 * i + 1], gx = pts[4 * i + 2], gy = pts[4 * i + 3];
      const t0 = performance.now();
      findNavPath(q, sx, sy, gx, gy, res);
      if (res.status === 'found') {
        const np = corridorPortals(mesh, res.corridor, res.corridorLength, res.startX, res.startY, res.goalX, res.goalY, portals);
        funnel(portals, np, 0, out);
      }
      full.push((performance.now() - t0) * 1000);
      nodes.push(q.nodesExpanded);
      if (res.status === 'found') { corridors.push(res.corridor.slice(0, res.corridorLength)); ends.push([res.startX, res.startY, res.goalX, res.goalY]); }
    }
    for (let i = 0; i < queries; i++) {
      const t0 = performance.now();
      findNavPath(q, pts[4 * i], pts[4 * i + 1], pts[4 * i + 2], pts[4 * i + 3], res);
      search.push((performance.now() - t0) * 1000);
    }
    ctx.record(row('navmesh', 'query A*+portals+funnel, 500 obstacles', 'us', full, undefined, { medianExpanded: median(nodes), found: corridors.length }));
    ctx.record(row('navmesh', 'query A* only, 500 obstacles', 'us', search));

    // Funnel per portal: repeat each corridor's funnel enough times to be measurable.
    let totalPortals = 0;
    for (let i = 0; i < corridors.length; i++) {
      const c = corridors[i], e = ends[i];
      const np = corridorPortals(mesh, c, c.length, e[0], e[1], e[2], e[3], portals);
      const reps = 20;
      const t0 = performance.now();
      for (let r = 0; r < reps; r++) funnel(portals, np, 0, out);
      perPortal.push(((performance.now() - t0) * 1e6) / (reps * np));
      totalPortals += np;
    }
    ctx.record(row('navmesh', 'funnel per portal (r = 0)', 'ns', perPortal, undefined, { meanPortals: totalPortals / Math.max(1, corridors.length) }));
    const perPortalR: number[] = [];
    for (let i = 0; i < corridors.length; i++) {
      const c = corridors[i], e = ends[i];
      const np = corridorPortals(mesh, c, c.length, e[0], e[1], e[2], e[3], portals);
      const t0 = performance.now();
      for (let r = 0; r < 20; r++) funnel(portals, np, 0.5, out);
      perPortalR.push(((performance.now() - t0) * 1e6) / (20 * np));
    }
    ctx.record(row('navmesh', 'funnel per portal (r = 0.5, tangent discs)', 'ns', perPortalR));

    // Baseline: Detour-style midpoint A* + funnel, same queries; path length relative to the optimum.
    const base: number[] = [], excess: number[] = [];
    const cor = new Int32Array(mesh.triangleCount);
    for (let i = 0; i < queries; i++) {
      const sx = pts[4 * i], sy = pts[4 * i + 1], gx = pts[4 * i + 2], gy = pts[4 * i + 3];
      const t0 = performance.now();
      const n = midpointAStar(mesh, sx, sy, gx, gy, cor);
      let len = NaN;
      if (n > 0) {
        const np = corridorPortals(mesh, cor, n, sx, sy, gx, gy, portals);
        len = polylineLength(out, funnel(portals, np, 0, out));
      }
      base.push((performance.now() - t0) * 1000);
      if (n > 0 && findNavPath(q, sx, sy, gx, gy, res) === 'found') excess.push(len / res.length - 1);
    }
    const exs = [...excess].sort((a, b) => a - b);
    ctx.record(row('navmesh', 'baseline: Detour-style midpoint A*+funnel (not optimal)', 'us', base, undefined, {
      medianExcessPct: 100 * median(excess), p95ExcessPct: 100 * exs[Math.floor(0.95 * (exs.length - 1))], maxExcessPct: 100 * exs[exs.length - 1],
    }));

    // funnelSystem: agents following corridors.
    const agents = ctx.quick ? 1000 : 10000;
    const world = createCrowd({ maxAgents: agents, seed: 1 });
    setNavmesh(world, mesh, { maxCorridor: 4096 });
    for (let i = 0; i < agents; i++) {
      const k = i % queries;
      const eid = spawnAgent(world, { x: pts[4 * k], y: pts[4 * k + 1], maxSpeed: 1.5 });
      setNavGoal(world, eid, pts[4 * k + 2], pts[4 * k + 3]);
    }
    const frame = timeMs(() => funnelSystem(world, 1 / 60), ctx.quick ? 20 : 100, 5);
    ctx.record(row('navmesh', `funnelSystem, ${agents} agents following corridors`, 'ms', frame));
  },
};
