import { describe, expect, it } from 'vitest';
import { createGrid, gridFromAscii, type Grid } from '../../src/grid/grid';
import { gridWallRings, type GridWallRing } from '../../src/grid/walls';
import { addObstacleToSet, createObstacleSet } from '../../src/avoidance/obstacles';
import { createRng, rngFloat } from '../../src/core/rng';
import { InvalidArgumentError } from '../../src/core/errors';
import { loadMap } from './maps';

/**
 * Oracle: the winding number of every cell centre with respect to all rings, by a scanline over the rings' vertical
 * edges (independent of the tracing). Rings keep the solid side on their left, so a point outside every ring (the
 * solid outside of the grid) has winding 0, a walkable cell −1 (inside the map border's clockwise ring and no
 * counter-clockwise blocked ring), a blocked cell 0. Returns the cells whose winding disagrees with the grid.
 */
function windingMismatches(grid: Grid, rings: GridWallRing[]): number {
  const W = grid.width, H = grid.height, cs = grid.cellSize;
  const byRow: { x: number; w: number }[][] = Array.from({ length: H }, () => []);
  for (const r of rings) {
    const p = r.points;
    for (let k = 0; k < p.length; k++) {
      const a = p[k], b = p[(k + 1) % p.length];
      if (a[0] !== b[0]) continue; // horizontal edges never cross a row's centre line
      const y0 = Math.min(a[1], b[1]), y1 = Math.max(a[1], b[1]);
      const sign = b[1] > a[1] ? 1 : -1; // upward edge: the point to its left (west) gains +1 (counter-clockwise)
      for (let j = 0; j < H; j++) {
        const yc = grid.originY + (j + 0.5) * cs;
        if (yc > y0 && yc < y1) byRow[j].push({ x: a[0], w: sign });
      }
    }
  }
  let bad = 0;
  for (let j = 0; j < H; j++) {
    // winding of a point = sum of signs of the edges to its RIGHT (a ray to +x: upward edges count +1)
    const edges = byRow[j].sort((u, v) => u.x - v.x);
    let total = 0;
    for (const e of edges) total += e.w;
    let k = 0, right = total;
    for (let i = 0; i < W; i++) {
      const xc = grid.originX + (i + 0.5) * cs;
      while (k < edges.length && edges[k].x < xc) { right -= edges[k].w; k++; }
      const expected = grid.walkable[j * W + i] === 1 ? -1 : 0;
      if (right !== expected) bad++;
    }
  }
  return bad;
}

/** Number of cell edges between a walkable cell and a blocked cell or the outside (the wall length in cells). */
function wallEdges(grid: Grid): number {
  const W = grid.width, H = grid.height;
  const open = (x: number, y: number) => x >= 0 && y >= 0 && x < W && y < H && grid.walkable[y * W + x] === 1;
  let n = 0;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    if (!open(x, y)) continue;
    if (!open(x - 1, y)) n++;
    if (!open(x + 1, y)) n++;
    if (!open(x, y - 1)) n++;
    if (!open(x, y + 1)) n++;
  }
  return n;
}

function perimeter(rings: GridWallRing[]): number {
  let s = 0;
  for (const r of rings) for (let k = 0; k < r.points.length; k++) {
    const a = r.points[k], b = r.points[(k + 1) % r.points.length];
    s += Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);
  }
  return s;
}

function signedArea2(p: [number, number][]): number {
  let a = 0;
  for (let k = 0; k < p.length; k++) { const u = p[k], v = p[(k + 1) % p.length]; a += u[0] * v[1] - v[0] * u[1]; }
  return a;
}

/** Every ring is simple, axis-aligned with no collinear middle points, and accepted by the obstacle set. */
function checkRings(grid: Grid, rings: GridWallRing[]): void {
  const set = createObstacleSet();
  for (const r of rings) {
    const p = r.points;
    expect(new Set(p.map(([x, y]) => `${x},${y}`)).size).toBe(p.length);
    for (let k = 0; k < p.length; k++) {
      const a = p[(k + p.length - 1) % p.length], b = p[k], c = p[(k + 1) % p.length];
      expect(a[0] === b[0] || a[1] === b[1]).toBe(true);
      const straight = (a[0] === b[0] && b[0] === c[0]) || (a[1] === b[1] && b[1] === c[1]);
      expect(straight).toBe(false);
    }
    expect(signedArea2(p) > 0).toBe(r.encloses === 'blocked');
    addObstacleToSet(set, p, { enclose: r.encloses === 'walkable' }); // throws on a self-intersecting ring
  }
  expect(perimeter(rings)).toBeCloseTo(wallEdges(grid) * grid.cellSize, 9);
  expect(windingMismatches(grid, rings)).toBe(0);
}

describe('gridWallRings', () => {
  it('a 3 × 3 room with a pillar, by hand: the border clockwise around the walkable cells, the pillar counter-clockwise', () => {
    const grid = gridFromAscii(['...', '.#.', '...']);
    const rings = gridWallRings(grid);
    expect(rings.length).toBe(2);
    const border = rings.find((r) => r.encloses === 'walkable')!;
    const pillar = rings.find((r) => r.encloses === 'blocked')!;
    expect(border.points.length).toBe(4);
    expect(signedArea2(border.points)).toBe(-18); // clockwise 3 × 3
    expect(new Set(pillar.points.map(String))).toEqual(new Set(['1,1', '2,1', '2,2', '1,2']));
    expect(signedArea2(pillar.points)).toBe(2);
    checkRings(grid, rings);
  });

  it('cells touching only at a corner stay apart (saddles): two pillars, two pockets', () => {
    const grid = gridFromAscii(['....', '.#..', '..#.', '....']);
    const rings = gridWallRings(grid);
    expect(rings.filter((r) => r.encloses === 'blocked').length).toBe(2);
    checkRings(grid, rings);
    // walkable cells touching only at a corner inside a wall: two separate pockets
    const pockets = gridFromAscii(['####', '#.##', '##.#', '####']);
    const pr = gridWallRings(pockets);
    expect(pr.filter((r) => r.encloses === 'walkable').length).toBe(2);
    expect(pr.filter((r) => r.encloses === 'blocked').length).toBe(0); // all blocked cells are the outside's
    checkRings(pockets, pr);
  });

  it('a blocked ring closing on itself at a saddle splits into simple rings; origin and cell size are applied', () => {
    const grid = gridFromAscii(['......', '.###..', '.#.#..', '.##.#.', '......'], { originX: -3, originY: 10, cellSize: 0.5 });
    const rings = gridWallRings(grid);
    checkRings(grid, rings);
    for (const r of rings) for (const [x, y] of r.points) {
      expect(Number.isInteger((x + 3) / 0.5)).toBe(true);
      expect(Number.isInteger((y - 10) / 0.5)).toBe(true);
    }
  });

  it('random grids of every density (winding-number oracle on every cell, wall length, simple rings)', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = createRng(seed);
      const w = 5 + (seed % 17), h = 4 + (seed % 13), density = (seed % 10) / 10;
      const walkable = new Uint8Array(w * h);
      for (let i = 0; i < w * h; i++) walkable[i] = rngFloat(rng) < density ? 0 : 1;
      const grid = createGrid(w, h, { walkable, cellSize: 1 + (seed % 3) * 0.25, originX: seed - 20, originY: 7 - seed });
      checkRings(grid, gridWallRings(grid));
    }
  });

  it('Moving AI maps (den312d, brc202d): every cell agrees with the winding number, every ring is a valid obstacle', () => {
    for (const name of ['den312d.map', 'brc202d.map']) {
      const grid = loadMap(name);
      const rings = gridWallRings(grid);
      expect(rings.length).toBeGreaterThan(2);
      checkRings(grid, rings);
    }
  });

  it('empty and full grids; bad input', () => {
    const empty = gridWallRings(createGrid(4, 3));
    expect(empty.length).toBe(1);
    expect(empty[0].encloses).toBe('walkable');
    expect(gridWallRings(createGrid(4, 3, { walkable: new Uint8Array(12) })).length).toBe(0);
    expect(() => gridWallRings(null as unknown as Grid)).toThrow(InvalidArgumentError);
  });
});
