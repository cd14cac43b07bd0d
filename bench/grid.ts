/**
 * Grid navigation benchmark.
 *
 * 1. 1,000 seeded random solvable queries on each of brc202d, den312d and lak303d (Moving AI maps, read from
 *    ../shared/data/maps relative to the repo root): our A*, our JPS and PathFinding.js 0.4.18 A*, all 8-connected
 *    without corner cutting (PF: DiagonalMovement.OnlyWhenNoObstacles, octile heuristic), side by side on the same
 *    queries. PathFinding.js keeps search state on its grid nodes, so a user must clone the grid before every
 *    search: the "PF A*" row includes that clone, the "PF A* (search only)" row clones outside the timed region.
 *    Every PF path's length is checked against our A* cost (mismatches are reported in `extra`).
 * 2. Flow field on a 1024 × 1024 grid with 20% seeded random obstacles: integration + direction field, target 30 ms;
 *    again with a grid edit before each build (the move masks, kept per grid version, are rebuilt every time).
 * 3. Region labels (src/grid/regions.ts): labelling the 1024² grid and brc202d, and 200 unreachable queries on
 *    brc202d walled in two, with and without options.regions (side by side, same queries).
 * 4. The navigation system alone on brc202d: 10,000 agents following one group flow field (ms per frame), and
 *    1,000 agents each asking for an A* path at once (frames until all are served at 8192 expansions per frame).
 *
 * PathFinding.js is a devDependency used only here.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
// PathFinding.js is CommonJS without type declarations; the bench runner keeps it external (loaded from node_modules).
// @ts-expect-error no types for 'pathfinding'
import PF from 'pathfinding';
import { createRng, rngFloat, rngInt } from '../src/core/rng';
import { createGrid, parseMovingAiMap, setBlocked, type Grid } from '../src/grid/grid';
import { createGridSearch, findPath, findPathJps } from '../src/grid/search';
import { buildFlowField } from '../src/grid/flowfield';
import { createGridRegions, refreshGridRegions } from '../src/grid/regions';
import { row, summarize, timeMs, type BenchModule } from './harness';
import { createCrowd } from '../src/world/crowd';
import { spawnAgent } from '../src/world/agents';
import { step } from '../src/world/step';
import { navigationSystem, navigationStatus, setAgentGoal, setGroupGoal, setNavigationGrid } from '../systems/navigation';

interface PfNode { x: number; y: number }
interface PfGrid { clone(): PfGrid; nodes: PfNode[][] }
interface PfFinder { findPath(sx: number, sy: number, gx: number, gy: number, grid: PfGrid): number[][] }
const pf = PF as {
  Grid: new (w: number, h: number, matrix: number[][]) => PfGrid;
  AStarFinder: new (opt: object) => PfFinder;
  DiagonalMovement: { OnlyWhenNoObstacles: number };
  Heuristic: { octile: unknown };
};

function loadMap(name: string): Grid {
  return parseMovingAiMap(readFileSync(`../shared/data/maps/${name}`, 'utf8'));
}

function pfLength(path: number[][]): number {
  let len = 0;
  for (let i = 1; i < path.length; i++) {
    const dx = Math.abs(path[i][0] - path[i - 1][0]);
    const dy = Math.abs(path[i][1] - path[i - 1][1]);
    len += dx + dy === 2 ? Math.SQRT2 : 1;
  }
  return len;
}

export const gridBench: BenchModule = {
  name: 'grid',
  run(ctx) {
    const queries = ctx.quick ? 100 : 1000;
    for (const mapName of ['brc202d.map', 'den312d.map', 'lak303d.map']) {
      const grid = loadMap(mapName);
      const w = grid.width;
      const search = createGridSearch(w * grid.height);
      // Seeded random solvable queries (both cells walkable and connected; checked untimed with our A*).
      const rng = createRng(2026);
      const qs: number[] = [];
      const optimal: number[] = [];
      while (qs.length < 4 * queries) {
        const s = rngInt(rng, grid.walkable.length);
        const g = rngInt(rng, grid.walkable.length);
        if (!grid.walkable[s] || !grid.walkable[g]) continue;
        const r = findPath(grid, { x: s % w, y: (s - (s % w)) / w }, { x: g % w, y: (g - (g % w)) / w }, { search });
        if (r.status !== 'found') continue;
        qs.push(s % w, (s - (s % w)) / w, g % w, (g - (g % w)) / w);
        optimal.push(r.cost);
      }
      const matrix: number[][] = [];
      for (let y = 0; y < grid.height; y++) {
        const rowCells: number[] = [];
        for (let x = 0; x < w; x++) rowCells.push(grid.walkable[y * w + x] ? 0 : 1);
        matrix.push(rowCells);
      }
      const pfGrid = new pf.Grid(w, grid.height, matrix);
      const finder = new pf.AStarFinder({ diagonalMovement: pf.DiagonalMovement.OnlyWhenNoObstacles, heuristic: pf.Heuristic.octile });

      const tA: number[] = [], tJ: number[] = [], tP: number[] = [], tPs: number[] = [];
      let expA = 0, expJ = 0, pfMismatch = 0, jpsMismatch = 0;
      const start = { x: 0, y: 0 }, goal = { x: 0, y: 0 };
      // Warm-up: every finder runs the whole query set once, untimed, so that each is measured in its steady state
      // (V8 needs ~1,500 JPS queries on den312d before its per-query time settles: 2026-11-29, the first 1,000 after
      // a 50-query warm-up averaged 7-20 us per 100-query block against 3.2 us later).
      for (let i = 0; i < queries; i++) {
        start.x = qs[4 * i]; start.y = qs[4 * i + 1]; goal.x = qs[4 * i + 2]; goal.y = qs[4 * i + 3];
        findPath(grid, start, goal, { search });
        findPathJps(grid, start, goal, { search });
        finder.findPath(start.x, start.y, goal.x, goal.y, pfGrid.clone());
      }
      for (let i = 0; i < queries; i++) {
        start.x = qs[4 * i]; start.y = qs[4 * i + 1]; goal.x = qs[4 * i + 2]; goal.y = qs[4 * i + 3];
        let t0 = performance.now();
        const a = findPath(grid, start, goal, { search });
        tA.push((performance.now() - t0) * 1000);
        expA += a.expanded;
        t0 = performance.now();
        const j = findPathJps(grid, start, goal, { search });
        tJ.push((performance.now() - t0) * 1000);
        expJ += j.expanded;
        if (Math.abs(j.cost - optimal[i]) > 1e-6) jpsMismatch++;
        t0 = performance.now();
        const p = finder.findPath(start.x, start.y, goal.x, goal.y, pfGrid.clone());
        tP.push((performance.now() - t0) * 1000);
        if (Math.abs(pfLength(p) - optimal[i]) > 1e-6) pfMismatch++;
        const clone = pfGrid.clone();
        t0 = performance.now();
        finder.findPath(start.x, start.y, goal.x, goal.y, clone);
        tPs.push((performance.now() - t0) * 1000);
      }
      const sA = summarize(tA), sJ = summarize(tJ), sP = summarize(tP), sPs = summarize(tPs);
      const label = `${mapName.replace('.map', '')} ${grid.width}x${grid.height}, ${queries} queries`;
      ctx.record(row('grid-astar', `our A* ${label}`, 'us', tA, undefined, {
        meanExpanded: expA / queries,
        pfOverOurs_mean: sP.mean / sA.mean, pfOverOurs_median: sP.median / sA.median,
        pfSearchOnlyOverOurs_mean: sPs.mean / sA.mean, target_ratio: '≥5',
      }));
      ctx.record(row('grid-astar', `our JPS ${label}`, 'us', tJ, undefined, {
        meanExpanded: expJ / queries,
        pfOverJps_mean: sP.mean / sJ.mean, pfOverJps_median: sP.median / sJ.median,
        pfSearchOnlyOverJps_mean: sPs.mean / sJ.mean, astarOverJps_mean: sA.mean / sJ.mean,
        costMismatches: jpsMismatch, target_ratio: '≥20',
      }));
      ctx.record(row('grid-astar', `PF A* incl. grid.clone() ${label}`, 'us', tP, undefined, { lengthMismatches: pfMismatch }));
      ctx.record(row('grid-astar', `PF A* search only ${label}`, 'us', tPs));
    }

    // Flow field: 1024 × 1024, 20% random obstacles, goal at the centre.
    const N = 1024;
    const rng = createRng(7);
    const walk = new Uint8Array(N * N);
    for (let i = 0; i < N * N; i++) walk[i] = rngFloat(rng) < 0.2 ? 0 : 1;
    walk[(N / 2) * N + N / 2] = 1;
    const big = createGrid(N, N, { walkable: walk });
    let field = buildFlowField(big, { x: N / 2, y: N / 2 });
    // Also CPU time per build (process.cpuUsage): on a shared, loaded machine wall time includes waiting for a core.
    const cpu: number[] = [];
    const samples = timeMs(() => {
      const c0 = process.cpuUsage();
      field = buildFlowField(big, { x: N / 2, y: N / 2 }, {}, field);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }, ctx.quick ? 5 : 25, 2);
    ctx.record(row('grid-flow', 'flow field 1024x1024 20% obstacles (integration+direction)', 'ms', samples, 30, {
      reachableCells: field.reachableCount,
      cpuMsMedian: summarize(cpu.slice(2)).median,
    }));
    // The same after a grid edit before every build (corner cell (0, 0) toggled: a new grid version), so the move
    // masks, kept per grid version, are rebuilt each time: the cost of re-solving a field on a changing map.
    const cpuEdit: number[] = [];
    let blocked = false;
    const samplesEdit = timeMs(() => {
      blocked = !blocked;
      setBlocked(big, 0, 0, blocked);
      const c0 = process.cpuUsage();
      field = buildFlowField(big, { x: N / 2, y: N / 2 }, {}, field);
      const c = process.cpuUsage(c0);
      cpuEdit.push((c.user + c.system) / 1000);
    }, ctx.quick ? 5 : 25, 2);
    ctx.record(row('grid-flow', 'flow field 1024x1024 20% obstacles, after a grid edit (masks rebuilt)', 'ms', samplesEdit, 30, {
      reachableCells: field.reachableCount,
      cpuMsMedian: summarize(cpuEdit.slice(2)).median,
    }));
    setBlocked(big, 0, 0, false);

    // Region labels: labelling cost (once per grid edit), and unreachable queries with and without them, side by side.
    {
      const regions = createGridRegions(big);
      const label = timeMs(() => { big.version++; refreshGridRegions(regions); }, ctx.quick ? 5 : 20, 2);
      ctx.record(row('grid-regions', `refreshGridRegions 1024x1024 20% obstacles (${regions.count} regions)`, 'ms', label));
      const brc0 = loadMap('brc202d.map');
      for (let y = 0; y < brc0.height; y++) if (brc0.walkable[y * brc0.width + 265]) setBlocked(brc0, 265, y, true); // wall off the east half
      const rb = createGridRegions(brc0);
      const lb = timeMs(() => { brc0.version++; refreshGridRegions(rb); }, ctx.quick ? 5 : 20, 2);
      ctx.record(row('grid-regions', `refreshGridRegions brc202d 530x481 (walled in two)`, 'ms', lb));
      refreshGridRegions(rb);
      // 200 seeded queries from the west half to the east half: all unreachable.
      const r5 = createRng(99), qsU: number[] = [];
      while (qsU.length < 4 * 200) {
        const a = rngInt(r5, brc0.walkable.length), b = rngInt(r5, brc0.walkable.length);
        if (!brc0.walkable[a] || !brc0.walkable[b] || a % brc0.width >= 265 || b % brc0.width <= 265) continue;
        qsU.push(a % brc0.width, Math.floor(a / brc0.width), b % brc0.width, Math.floor(b / brc0.width));
      }
      const srch = createGridSearch(brc0.width * brc0.height);
      const s0 = { x: 0, y: 0 }, g0 = { x: 0, y: 0 };
      const tPlain: number[] = [], tReg: number[] = [];
      let wrong = 0;
      for (let rep = 0; rep < 2; rep++) {
        for (let i = 0; i < qsU.length / 4; i++) {
          s0.x = qsU[4 * i]; s0.y = qsU[4 * i + 1]; g0.x = qsU[4 * i + 2]; g0.y = qsU[4 * i + 3];
          const t0 = performance.now();
          const a = findPath(brc0, s0, g0, { search: srch });
          const t1 = performance.now();
          const b = findPath(brc0, s0, g0, { search: srch, regions: rb });
          const t2 = performance.now();
          if (rep === 1) { tPlain.push((t1 - t0) * 1000); tReg.push((t2 - t1) * 1000); }
          if (a.status !== 'unreachable' || b.status !== 'unreachable') wrong++;
        }
      }
      const sp = summarize(tPlain), sr = summarize(tReg);
      ctx.record(row('grid-regions', 'unreachable A* query brc202d (west to walled-off east), plain', 'us', tPlain, undefined, { wrongStatus: wrong }));
      ctx.record(row('grid-regions', 'unreachable A* query brc202d, with options.regions', 'us', tReg, undefined, { plainOverRegions_median: sp.median / sr.median }));
    }

    // Navigation system on brc202d.
    const brc = loadMap('brc202d.map');
    const walkCells: number[] = [];
    for (let i = 0; i < brc.walkable.length; i++) if (brc.walkable[i]) walkCells.push(i);
    const agents = ctx.quick ? 2000 : 10000;
    {
      const world = createCrowd({ maxAgents: agents, seed: 5 });
      setNavigationGrid(world, brc);
      const r2 = createRng(11);
      const ids: number[] = [];
      for (let i = 0; i < agents; i++) {
        const c = walkCells[rngInt(r2, walkCells.length)];
        ids.push(spawnAgent(world, { x: (c % brc.width) + 0.5, y: Math.floor(c / brc.width) + 0.5, maxSpeed: 3 }));
      }
      const goalCell = walkCells[rngInt(r2, walkCells.length)];
      setGroupGoal(world, ids, (goalCell % brc.width) + 0.5, Math.floor(goalCell / brc.width) + 0.5);
      const frames = timeMs(() => navigationSystem(world, 1 / 60), ctx.quick ? 20 : 100, 5);
      ctx.record(row('grid-nav', `navigationSystem, ${agents} agents on one flow field (brc202d)`, 'ms', frames));
    }
    {
      const n = ctx.quick ? 200 : 1000;
      const world = createCrowd({ maxAgents: n, seed: 6 });
      setNavigationGrid(world, brc, { maxExpansionsPerFrame: 8192 });
      const r3 = createRng(12);
      const ids: number[] = [];
      for (let i = 0; i < n; i++) {
        const c = walkCells[rngInt(r3, walkCells.length)];
        const id = spawnAgent(world, { x: (c % brc.width) + 0.5, y: Math.floor(c / brc.width) + 0.5, maxSpeed: 3 });
        const gcell = walkCells[rngInt(r3, walkCells.length)];
        setAgentGoal(world, id, (gcell % brc.width) + 0.5, Math.floor(gcell / brc.width) + 0.5);
        ids.push(id);
      }
      world.enabled.integrate = false; // agents stay put: this measures path serving only
      const perFrame: number[] = [];
      let frames = 0;
      while (ids.some((e) => navigationStatus(world, e) === 'waiting-for-path') && frames < 100000) {
        const t0 = performance.now();
        step(world, 1 / 60);
        perFrame.push(performance.now() - t0);
        frames++;
      }
      ctx.record(row('grid-nav', `${n} simultaneous A* requests (brc202d), step() ms per frame at 8192 expansions`, 'ms', perFrame, undefined, {
        framesToServeAll: frames,
      }));
    }
  },
};
