/**
 * Test helpers: read Moving AI maps and scenarios from ../shared/data/maps (beside the checkout; see its README).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGrid, parseMovingAiMap, type Grid } from '../../src/grid/grid';

export const MAPS_DIR = fileURLToPath(new URL('../../../shared/data/maps/', import.meta.url));

export function loadMap(name: string): Grid {
  return parseMovingAiMap(readFileSync(MAPS_DIR + name, 'utf8'));
}

export interface ScenQuery { map: string; sx: number; sy: number; gx: number; gy: number; optimal: number }

/** Every .scen file in the maps folder. */
export function scenFiles(): string[] {
  return readdirSync(MAPS_DIR).filter((f) => f.endsWith('.scen')).sort();
}

/** Parse a .scen file: `version 1`, then tab-separated `bucket map W H sx sy gx gy optimal`. */
export function loadScen(name: string): ScenQuery[] {
  const lines = readFileSync(MAPS_DIR + name, 'utf8').split(/\r?\n/);
  if (!/^version\s/.test(lines[0])) throw new Error(`${name}: no version line`);
  const out: ScenQuery[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const f = lines[i].split('\t');
    if (f.length < 9) throw new Error(`${name}:${i + 1}: expected 9 fields`);
    out.push({ map: f[1], sx: +f[4], sy: +f[5], gx: +f[6], gy: +f[7], optimal: +f[8] });
  }
  return out;
}

/**
 * Independent oracle: all-cells cost to `goals` by plain Bellman-Ford relaxation sweeps until nothing changes
 * (no heap, no buckets, no heuristic). Move rules written out from the definition: orthogonal steps cost 1,
 * diagonal √2, times the mean of the two cells' costs; a diagonal needs both orthogonal neighbours walkable
 * (or one, with corner cutting). Slow (O(cells² ) worst case): small grids only.
 */
export function bruteForceCosts(grid: Grid, goals: number[], connectivity: 4 | 8 = 8, cornerCutting = false): Float64Array {
  const { width: w, height: h, walkable, cost } = grid;
  const d = new Float64Array(w * h).fill(Infinity);
  for (const g of goals) if (walkable[g]) d[g] = 0;
  const open = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && walkable[y * w + x] === 1;
  let changed = true;
  while (changed) {
    changed = false;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (!open(x, y)) continue;
        const i = y * w + x;
        for (let dy = -1; dy <= 1; dy++) {
          for (let dx = -1; dx <= 1; dx++) {
            if (dx === 0 && dy === 0) continue;
            const diag = dx !== 0 && dy !== 0;
            if (diag && connectivity === 4) continue;
            if (!open(x + dx, y + dy)) continue;
            if (diag) {
              const a = open(x + dx, y), b = open(x, y + dy);
              if (cornerCutting ? !(a || b) : !(a && b)) continue;
            }
            const j = (y + dy) * w + x + dx;
            const c = d[j] + (diag ? Math.SQRT2 : 1) * 0.5 * (cost[i] + cost[j]);
            if (c < d[i] - 1e-12) { d[i] = c; changed = true; }
          }
        }
      }
    }
  }
  return d;
}

/** Check that `cells` is a legal move sequence and return its cost (throws on an illegal step). */
export function pathCost(grid: Grid, cells: ArrayLike<number>, connectivity: 4 | 8 = 8, cornerCutting = false): number {
  const { width: w, walkable, cost } = grid;
  let total = 0;
  for (let k = 0; k < cells.length; k++) {
    if (walkable[cells[k]] !== 1) throw new Error(`path cell ${cells[k]} is blocked`);
    if (k === 0) continue;
    const a = cells[k - 1], b = cells[k];
    const ax = a % w, ay = Math.floor(a / w), bx = b % w, by = Math.floor(b / w);
    const dx = bx - ax, dy = by - ay;
    if (Math.abs(dx) > 1 || Math.abs(dy) > 1 || (dx === 0 && dy === 0)) throw new Error(`step ${a}→${b} is not a move`);
    const diag = dx !== 0 && dy !== 0;
    if (diag) {
      if (connectivity === 4) throw new Error(`diagonal step ${a}→${b} on a 4-connected search`);
      const p = walkable[ay * w + bx] === 1, q = walkable[by * w + ax] === 1;
      if (cornerCutting ? !(p || q) : !(p && q)) throw new Error(`step ${a}→${b} cuts a corner`);
    }
    total += (diag ? Math.SQRT2 : 1) * 0.5 * (cost[a] + cost[b]);
  }
  return total;
}

/** A seeded random grid: `density` blocked fraction, optional random costs in [1, maxCost]. */
export function randomGrid(rng: { state: Uint32Array }, w: number, h: number, density: number, maxCost = 1, rngFloat: (r: { state: Uint32Array }) => number): Grid {
  const walk = new Uint8Array(w * h);
  const cost = new Float64Array(w * h);
  for (let i = 0; i < w * h; i++) {
    walk[i] = rngFloat(rng) < density ? 0 : 1;
    cost[i] = maxCost === 1 ? 1 : 1 + Math.floor(rngFloat(rng) * 4 * (maxCost - 1)) / 4; // quarter steps in [1, maxCost)
  }
  return createGrid(w, h, { walkable: walk, cost });
}
