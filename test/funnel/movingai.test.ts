/**
 * Funnel over real grid paths: Moving AI benchmark maps and scenarios (../shared/data/maps, published optimal
 * lengths), paths from PathFinding.js 0.4.18 A* (an independent library, used only in tests and benchmarks).
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
// @ts-expect-error PathFinding.js ships no types
import PF from 'pathfinding';
import { gridPathPortals } from '../../src/funnel/grid';
import { funnel, polylineLength } from '../../src/funnel/funnel';

interface PfGrid { clone(): PfGrid }
const pf = PF as {
  Grid: new (w: number, h: number, matrix: number[][]) => PfGrid;
  AStarFinder: new (opt: object) => { findPath(sx: number, sy: number, gx: number, gy: number, grid: PfGrid): number[][] };
  DiagonalMovement: { OnlyWhenNoObstacles: number };
  Heuristic: { octile: unknown };
};

function loadMap(name: string): { w: number; h: number; blocked: Uint8Array } {
  const lines = readFileSync(`../shared/data/maps/${name}`, 'utf8').split('\n');
  const h = Number(lines[1].split(' ')[1]), w = Number(lines[2].split(' ')[1]);
  const blocked = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) blocked[y * w + x] = '.GS'.includes(lines[4 + y][x]) ? 0 : 1;
  return { w, h, blocked };
}

function crossesBlocked(ax: number, ay: number, bx: number, by: number, blocked: Uint8Array, w: number, h: number): boolean {
  const x0 = Math.max(0, Math.floor(Math.min(ax, bx)) - 1), x1 = Math.min(w - 1, Math.floor(Math.max(ax, bx)) + 1);
  const y0 = Math.max(0, Math.floor(Math.min(ay, by)) - 1), y1 = Math.min(h - 1, Math.floor(Math.max(ay, by)) + 1);
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      if (!blocked[y * w + x]) continue;
      // Liang–Barsky clip against the cell; crossing = the clipped piece's midpoint strictly inside the cell.
      let t0 = 0, t1 = 1;
      const dx = bx - ax, dy = by - ay;
      const p = [-dx, dx, -dy, dy], q = [ax - x, x + 1 - ax, ay - y, y + 1 - ay];
      let empty = false;
      for (let i = 0; i < 4 && !empty; i++) {
        if (p[i] === 0) { if (q[i] < 0) empty = true; continue; }
        const t = q[i] / p[i];
        if (p[i] < 0) t0 = Math.max(t0, t); else t1 = Math.min(t1, t);
      }
      if (empty || t1 - t0 <= 1e-12) continue;
      const m = (t0 + t1) / 2, mx = ax + m * dx, my = ay + m * dy;
      if (mx > x + 1e-9 && mx < x + 1 - 1e-9 && my > y + 1e-9 && my < y + 1 - 1e-9) return true;
    }
  }
  return false;
}

describe('gridPathPortals + funnel on Moving AI benchmark scenarios (PathFinding.js paths, published optima)', () => {
  for (const [mapName, scen] of [['arena.map', 'arena.map.scen'], ['random-32-32-10.map', 'random-32-32-10-random-1.scen'], ['random-32-32-20.map', 'random-32-32-20-random-1.scen']]) {
    it(`${mapName}: never longer than the optimal octile length, never through a blocked cell`, () => {
      const { w, h, blocked } = loadMap(mapName);
      const matrix: number[][] = [];
      for (let y = 0; y < h; y++) matrix.push(Array.from(blocked.subarray(y * w, (y + 1) * w)));
      const grid = new pf.Grid(w, h, matrix);
      const finder = new pf.AStarFinder({ diagonalMovement: pf.DiagonalMovement.OnlyWhenNoObstacles, heuristic: pf.Heuristic.octile });
      const rows = readFileSync(`../shared/data/maps/${scen}`, 'utf8').split('\n').slice(1).filter((l) => l.trim().length > 0);
      const portals = new Float64Array(4 * w * h), out = new Float64Array(2 * w * h);
      let shorter = 0, improved = 0;
      const walkable = blocked.map((b) => 1 - b);
      const portals2 = new Float64Array(8 * w * h);
      for (const row of rows) {
        const f = row.split('\t');
        const sx = Number(f[4]), sy = Number(f[5]), gx = Number(f[6]), gy = Number(f[7]), optimal = Number(f[8]);
        const path = finder.findPath(sx, sy, gx, gy, grid.clone());
        // The path source is right: its octile length is the published optimum.
        let len = 0;
        for (let i = 1; i < path.length; i++) len += Math.hypot(path[i][0] - path[i - 1][0], path[i][1] - path[i - 1][1]);
        expect(Math.abs(len - optimal), row).toBeLessThan(1e-4);
        const cells = path.map(([x, y]) => y * w + x);
        const np = gridPathPortals(cells, cells.length, w, 1, 0, 0, sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, portals);
        const n = funnel(portals, np, 0, out);
        const pulled = polylineLength(out, n);
        // (The published optimum is rounded to 8 decimals: compare with the exact length of the same cell path.)
        expect(pulled, row).toBeLessThanOrEqual(len + 1e-9);
        if (pulled < len - 1e-6) shorter++;
        for (let i = 0; i + 1 < n; i++) {
          expect(crossesBlocked(out[2 * i], out[2 * i + 1], out[2 * i + 2], out[2 * i + 3], blocked, w, h), `${row} leg ${i}`).toBe(false);
        }
        // With the walkable flags, diagonal steps go through a free side cell: never longer, still never blocked.
        const np2 = gridPathPortals(cells, cells.length, w, 1, 0, 0, sx + 0.5, sy + 0.5, gx + 0.5, gy + 0.5, portals2, walkable);
        const n2 = funnel(portals2, np2, 0, out);
        const pulled2 = polylineLength(out, n2);
        expect(pulled2, row).toBeLessThanOrEqual(pulled + 1e-9);
        if (pulled2 < pulled - 1e-6) improved++;
        for (let i = 0; i + 1 < n2; i++) {
          expect(crossesBlocked(out[2 * i], out[2 * i + 1], out[2 * i + 2], out[2 * i + 3], blocked, w, h), `${row} walkable leg ${i}`).toBe(false);
        }
      }
      // Any-angle paths are strictly shorter than octile ones on most queries.
      expect(shorter).toBeGreaterThan(rows.length / 2);
      expect(improved).toBeGreaterThan(rows.length / 2); // 120/130, 424/461, 379/409 when written
    });
  }
});
