import { describe, expect, it } from 'vitest';
import { createGrid, gridFromAscii, setBlocked, type Grid } from '../../src/grid/grid';
import { createGridRegions, gridCellsConnected, refreshGridRegions } from '../../src/grid/regions';
import { createGridSearch, findPath, type FindPathOptions } from '../../src/grid/search';
import { createRng, rngFloat, rngInt } from '../../src/core/rng';
import { InvalidArgumentError, OutOfRangeError } from '../../src/core/errors';
import { loadMap } from './maps';

/** Brute-force reachability oracle: breadth-first search over legal moves of the given rule (independent of the labels). */
function bfsReach(grid: Grid, sx: number, sy: number, connectivity: 4 | 8, cut: boolean): Uint8Array {
  const w = grid.width, h = grid.height, seen = new Uint8Array(w * h);
  const open = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && grid.walkable[y * w + x] === 1;
  if (!open(sx, sy)) return seen;
  const queue = [sy * w + sx];
  seen[sy * w + sx] = 1;
  while (queue.length > 0) {
    const c = queue.pop()!, x = c % w, y = (c - x) / w;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      if ((dx === 0 && dy === 0) || !open(x + dx, y + dy)) continue;
      if (dx !== 0 && dy !== 0) {
        if (connectivity === 4) continue;
        const a = open(x + dx, y), b = open(x, y + dy);
        if (cut ? !(a || b) : !(a && b)) continue;
      }
      const n = (y + dy) * w + x + dx;
      if (!seen[n]) { seen[n] = 1; queue.push(n); }
    }
  }
  return seen;
}

function randomGrid(seed: number, w: number, h: number, density: number): Grid {
  const rng = createRng(seed);
  const walkable = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) walkable[i] = rngFloat(rng) < density ? 0 : 1;
  return createGrid(w, h, { walkable });
}

describe('grid regions', () => {
  it('same region ⇔ reachable, for every move rule (brute-force BFS over legal moves, random grids 10–45 % blocked)', () => {
    const rules: [4 | 8, boolean][] = [[4, false], [8, false], [8, true]];
    let pairs = 0, connected = 0;
    for (let seed = 1; seed <= 24; seed++) {
      const grid = randomGrid(seed, 13 + (seed % 7), 9 + (seed % 5), 0.1 + 0.35 * ((seed % 4) / 3));
      const regions = refreshGridRegions(createGridRegions(grid));
      const rng = createRng(1000 + seed);
      for (let q = 0; q < 6; q++) {
        const sx = rngInt(rng, grid.width), sy = rngInt(rng, grid.height);
        const [conn, cut] = rules[q % 3];
        const seen = bfsReach(grid, sx, sy, conn, cut);
        for (let y = 0; y < grid.height; y++) for (let x = 0; x < grid.width; x++) {
          const c = gridCellsConnected(regions, { x: sx, y: sy }, { x, y });
          expect(c).toBe(seen[y * grid.width + x] === 1);
          pairs++;
          if (c) connected++;
        }
      }
    }
    // both answers occur many times (the test can fail either way)
    expect(connected).toBeGreaterThan(pairs / 5);
    expect(pairs - connected).toBeGreaterThan(pairs / 10);
  });

  it('labels: −1 exactly on blocked cells, 0..count−1 elsewhere; two rooms and a door by hand', () => {
    const grid = gridFromAscii(['...#...', '...#...', '...#...']);
    const regions = refreshGridRegions(createGridRegions(grid));
    expect(regions.count).toBe(2);
    expect(regions.labels[3]).toBe(-1);
    expect(regions.labels[0]).not.toBe(regions.labels[6]);
    expect(gridCellsConnected(regions, { x: 0, y: 0 }, { x: 6, y: 2 })).toBe(false);
    expect(gridCellsConnected(regions, { x: 3, y: 0 }, { x: 3, y: 0 })).toBe(false); // blocked
    setBlocked(grid, 3, 1, false); // open the door: refreshed on the next question (the grid's version changed)
    expect(gridCellsConnected(regions, { x: 0, y: 0 }, { x: 6, y: 2 })).toBe(true);
    expect(regions.count).toBe(1);
    // Diagonal-only contact does not join (no legal diagonal between two blocked corners under any rule).
    const diag = gridFromAscii(['.#', '#.']);
    expect(gridCellsConnected(createGridRegions(diag), { x: 0, y: 0 }, { x: 1, y: 1 })).toBe(false);
  });

  it('findPath with regions: identical results to findPath without (status and cost) on a Moving AI map, and unreachable goals cost no expansions', () => {
    const grid = loadMap('den312d.map');
    // Wall off a band so that some queries are unreachable.
    for (let y = 0; y < grid.height; y++) if (grid.walkable[y * grid.width + 30] === 1) setBlocked(grid, 30, y, true);
    const regions = createGridRegions(grid);
    const rng = createRng(77);
    const plain: FindPathOptions = { search: createGridSearch(0) };
    const withRegions: FindPathOptions = { search: createGridSearch(0), regions };
    let unreachable = 0, found = 0, expandedSaved = 0;
    for (let q = 0; q < 300; q++) {
      let s, g;
      do { s = { x: rngInt(rng, grid.width), y: rngInt(rng, grid.height) }; } while (!grid.walkable[s.y * grid.width + s.x]);
      do { g = { x: rngInt(rng, grid.width), y: rngInt(rng, grid.height) }; } while (!grid.walkable[g.y * grid.width + g.x]);
      const opts = q % 2 === 0 ? {} : { goalRadius: 3 };
      const a = findPath(grid, s, g, { ...plain, ...opts });
      const expandedA = a.expanded;
      const statusA = a.status, costA = a.cost;
      const b = findPath(grid, s, g, { ...withRegions, ...opts });
      expect(b.status).toBe(statusA);
      expect(b.cost).toBe(costA);
      if (statusA === 'unreachable') {
        unreachable++;
        expect(b.expanded).toBe(0);
        expandedSaved += expandedA;
      } else found++;
    }
    expect(unreachable).toBeGreaterThan(30);
    expect(found).toBeGreaterThan(30);
    expect(expandedSaved).toBeGreaterThan(unreachable * 100);
  });

  it('bad input: regions of another grid, cells off the grid, not a grid', () => {
    const a = gridFromAscii(['...']), b = gridFromAscii(['...']);
    expect(() => findPath(a, { x: 0, y: 0 }, { x: 2, y: 0 }, { regions: createGridRegions(b) })).toThrow(InvalidArgumentError);
    expect(() => gridCellsConnected(createGridRegions(a), { x: 0, y: 0 }, { x: 3, y: 0 })).toThrow(OutOfRangeError);
    expect(() => createGridRegions(null as unknown as Grid)).toThrow(InvalidArgumentError);
  });
});
