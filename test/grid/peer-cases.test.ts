/**
 * Situations PathFinding.js users reported (qiao/PathFinding.js issues), reproduced on Murmur's grid search and flow
 * fields. The oracle is a brute-force Bellman-Ford relaxation written here from the documented move rules:
 * orthogonal steps cost the mean of the two cells' costs, diagonal steps √2 times that; a diagonal step needs both
 * orthogonal neighbours walkable (cornerCutting false) or at least one (cornerCutting true).
 */
import { describe, expect, it } from 'vitest';
import { createRng, rngFloat, rngInt } from '../../src/core/rng';
import { createGrid, gridFromAscii, type Grid } from '../../src/grid/grid';
import { createGridSearch, findPath, findPathJps } from '../../src/grid/search';
import { buildFlowField, flowFieldCostAt } from '../../src/grid/flowfield';

function oracle(grid: Grid, goal: number, cornerCutting: boolean): Float64Array {
  const { width: w, height: h, walkable, cost } = grid;
  const d = new Float64Array(w * h).fill(Infinity);
  if (walkable[goal]) d[goal] = 0;
  const ok = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && walkable[y * w + x] === 1;
  for (let changed = true; changed;) {
    changed = false;
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      if (!ok(x, y)) continue;
      const i = y * w + x;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        if ((dx === 0 && dy === 0) || !ok(x + dx, y + dy)) continue;
        if (dx !== 0 && dy !== 0) {
          const a = ok(x + dx, y), b = ok(x, y + dy);
          if (cornerCutting ? !(a || b) : !(a && b)) continue;
        }
        const j = (y + dy) * w + x + dx;
        const step = ((dx !== 0 && dy !== 0) ? Math.SQRT2 : 1) * (cost[i] + cost[j]) / 2;
        if (d[j] + step < d[i] - 1e-12) { d[i] = d[j] + step; changed = true; }
      }
    }
  }
  return d;
}

/** A PathFinding.js matrix (0 walkable, 1 blocked) as a Murmur grid. */
function fromMatrix(m: number[][]): Grid {
  return gridFromAscii(m.map((row) => row.map((c) => (c ? '#' : '.')).join('')));
}

function checkLegal(grid: Grid, cells: Int32Array, cornerCutting: boolean): void {
  const w = grid.width;
  for (let k = 1; k < cells.length; k++) {
    const ax = cells[k - 1] % w, ay = (cells[k - 1] / w) | 0, bx = cells[k] % w, by = (cells[k] / w) | 0;
    const dx = bx - ax, dy = by - ay;
    expect(Math.max(Math.abs(dx), Math.abs(dy)), `step ${k} must join neighbouring cells`).toBe(1);
    if (dx !== 0 && dy !== 0) {
      const a = grid.walkable[ay * w + bx] === 1, b = grid.walkable[by * w + ax] === 1;
      expect(cornerCutting ? a || b : a && b, `diagonal step ${k} clips a corner`).toBe(true);
    }
  }
}

describe('peer cases: grid search (PathFinding.js reports)', () => {
  // qiao/PathFinding.js#21 "Diagonal Issue" (https://github.com/qiao/PathFinding.js/issues/21): "Place walls around
  // the goal except one diagonal block ... JPS won't find a solution, but there is one." Under Murmur's documented
  // rules a diagonal step between two blocked orthogonal cells is never legal (neither corner rule squeezes), so the
  // brute-force oracle says unreachable: A*, JPS and the flow field must agree. Opening one orthogonal cell beside
  // that diagonal makes it reachable with cornerCutting true only (one orthogonal walkable), at the oracle's cost.
  it('goal walled in except one diagonal gap: all searches agree with the brute-force rules (PathFinding.js#21)', () => {
    const rows = [
      '..........',
      '..........',
      '....###...',
      '....#G#...',
      '....##....',
      '..........',
    ];
    const grid = gridFromAscii(rows.map((r) => r.replace('G', '.')));
    const goal = { x: 5, y: 3 }, start = { x: 0, y: 0 };
    const gi = goal.y * grid.width + goal.x, si = start.y * grid.width + start.x;
    for (const cornerCutting of [false, true]) {
      const want = oracle(grid, gi, cornerCutting)[si];
      expect(want).toBe(Infinity);
      expect(findPath(grid, start, goal, { cornerCutting }).status).toBe('unreachable');
      expect(flowFieldCostAt(buildFlowField(grid, goal, { cornerCutting }), start.x + 0.5, start.y + 0.5)).toBe(Infinity);
    }
    expect(findPathJps(grid, start, goal).status).toBe('unreachable');

    // Open the wall cell (6, 3) east of the goal: now reachable orthogonally, at the oracle's cost, under both rules.
    const opened = gridFromAscii(rows.map((r, y) => (y === 3 ? '....#G....' : r).replace('G', '.')));
    for (const cornerCutting of [false, true]) {
      const want = oracle(opened, gi, cornerCutting)[si];
      const r = findPath(opened, start, goal, { cornerCutting });
      expect(r.status).toBe('found');
      expect(r.cost).toBeCloseTo(want, 9);
      checkLegal(opened, r.cells, cornerCutting);
    }
    const j = findPathJps(opened, start, goal);
    expect(j.cost).toBeCloseTo(oracle(opened, gi, false)[si], 9);

    // A pocket whose only exits are diagonal squeezes between two blocked cells: enclosed under both rules.
    const half = gridFromAscii([
      '.....',
      '.###.',
      '.#.#.',
      '.#..#',
      '.####',
    ]);
    // goal (2, 2); its open neighbour (2, 3) then (3, 3); from (3, 3) the diagonal to (4, 2) has (4, 3) blocked and
    // (3, 2) blocked → illegal under both rules; so the goal is enclosed.
    const hg = 2 * 5 + 2;
    for (const cornerCutting of [false, true]) {
      expect(oracle(half, hg, cornerCutting)[0]).toBe(Infinity);
      expect(findPath(half, { x: 0, y: 0 }, { x: 2, y: 2 }, { cornerCutting }).status).toBe('unreachable');
    }
  });

  // qiao/PathFinding.js#37 "Allow Diagonal" (https://github.com/qiao/PathFinding.js/issues/37): with
  // dontCrossCorners false the reporter expected a path from (2, 2) to (4, 2) on this exact matrix, which needs
  // the diagonal squeezes (2,2)→(3,3)→(4,2) between blocked corners. Murmur's grid never squeezes (documented):
  // the oracle and every search say unreachable, with either corner rule.
  it('the issue\'s matrix: a path exists only through corner squeezes, which Murmur never takes (PathFinding.js#37)', () => {
    const grid = fromMatrix([
      [1, 1, 1, 1, 1, 1, 1],
      [1, 1, 1, 1, 1, 1, 1],
      [1, 1, 0, 1, 0, 1, 1],
      [1, 1, 1, 0, 1, 1, 1],
      [1, 1, 1, 1, 1, 1, 1],
    ]);
    const gi = 2 * 7 + 4, si = 2 * 7 + 2;
    for (const cornerCutting of [false, true]) {
      expect(oracle(grid, gi, cornerCutting)[si]).toBe(Infinity);
      expect(findPath(grid, { x: 2, y: 2 }, { x: 4, y: 2 }, { cornerCutting }).status).toBe('unreachable');
    }
    expect(findPathJps(grid, { x: 2, y: 2 }, { x: 4, y: 2 }).status).toBe('unreachable');
  });

  // qiao/PathFinding.js#17 "Avoid corner cutting" and #158 "dontCrossCorners no effect"
  // (https://github.com/qiao/PathFinding.js/issues/17, /issues/158): the corner rule must hold on every step and
  // must not cost optimality. Seeded random grids: A* with both rules and JPS equal the oracle's cost, and every
  // diagonal step obeys its rule.
  it('corner rules hold on every step and paths stay optimal, both rules, A* and JPS (PathFinding.js#17, #158)', () => {
    const rng = createRng(17158);
    let found = 0;
    for (let k = 0; k < 120; k++) {
      const w = 8 + rngInt(rng, 13), h = 8 + rngInt(rng, 13);
      const walk = new Uint8Array(w * h);
      for (let i = 0; i < w * h; i++) walk[i] = rngFloat(rng) < 0.3 ? 0 : 1;
      const grid = createGrid(w, h, { walkable: walk });
      const s = rngInt(rng, w * h), g = rngInt(rng, w * h);
      const start = { x: s % w, y: (s / w) | 0 }, goal = { x: g % w, y: (g / w) | 0 };
      for (const cornerCutting of [false, true]) {
        const want = oracle(grid, g, cornerCutting)[s];
        const r = findPath(grid, start, goal, { cornerCutting });
        if (want === Infinity) { expect(r.status).toBe('unreachable'); continue; }
        found++;
        expect(r.status).toBe('found');
        expect(r.cost).toBeCloseTo(want, 9);
        checkLegal(grid, r.cells, cornerCutting);
        expect(r.cells[0]).toBe(s);
        expect(r.cells[r.cells.length - 1]).toBe(g);
      }
      const j = findPathJps(grid, start, goal);
      const want = oracle(grid, g, false)[s];
      if (want === Infinity) expect(j.status).toBe('unreachable');
      else {
        expect(j.cost).toBeCloseTo(want, 9);
        // qiao/PathFinding.js#50 "JumpPointFinder path incomplete?": JPS returned only the jump points. Murmur's
        // JPS result must list every cell, each a legal single step from the previous one.
        checkLegal(grid, j.cells, false);
      }
    }
    expect(found).toBeGreaterThan(60);
  });

  // qiao/PathFinding.js#214 "Unable to find multiple paths with same startNode"
  // (https://github.com/qiao/PathFinding.js/issues/214): search state stored on the grid made a second search from
  // the same start fail unless the grid was cloned. Murmur keeps state in a reusable GridSearch: many searches from
  // one start through one search object (and through the default shared one) must each equal the oracle.
  it('many searches from one start reuse one search state without cloning the grid (PathFinding.js#214)', () => {
    const rng = createRng(214);
    const w = 24, h = 18;
    const walk = new Uint8Array(w * h);
    for (let i = 0; i < w * h; i++) walk[i] = rngFloat(rng) < 0.25 ? 0 : 1;
    const start = { x: 1, y: 1 };
    walk[w + 1] = 1;
    const grid = createGrid(w, h, { walkable: walk });
    const before = grid.walkable.slice();
    const search = createGridSearch();
    let checked = 0;
    for (let g = 0; g < w * h; g += 7) {
      if (!walk[g]) continue;
      const goal = { x: g % w, y: (g / w) | 0 };
      const want = oracle(grid, g, false)[w + 1];
      for (const r of [findPath(grid, start, goal, { search }), findPathJps(grid, start, goal, { search }), findPath(grid, start, goal)]) {
        if (want === Infinity) expect(r.status).toBe('unreachable');
        else { expect(r.status).toBe('found'); expect(r.cost).toBeCloseTo(want, 9); checked++; }
      }
    }
    expect(checked).toBeGreaterThan(60);
    expect(Array.from(grid.walkable)).toEqual(Array.from(before));
  });

  // qiao/PathFinding.js#153 "Incorrect start cell" (https://github.com/qiao/PathFinding.js/issues/153): from a start
  // on the grid's border (x = 0) the returned path began at (0, 0). prettymuchbryce/easystarjs#21 (start equal to the
  // end returned a path wandering to a neighbour and back). Oracle: every path begins at its start cell and ends at
  // its goal cell, costs what the brute force says, and start = goal gives one cell at cost 0; a blocked start or
  // goal is unreachable, for A* and JPS.
  it('paths start at their start cell, also on the border; start = goal is one cell; blocked ends unreachable (PathFinding.js#153, easystarjs#21)', () => {
    const grid = createGrid(10, 10);
    for (const [x, y] of [[3, 3], [3, 4], [4, 3], [6, 6], [7, 2]]) grid.walkable[y * 10 + x] = 0;
    const w = 10;
    for (const start of [{ x: 0, y: 9 }, { x: 0, y: 0 }, { x: 9, y: 0 }, { x: 9, y: 9 }, { x: 0, y: 5 }, { x: 5, y: 0 }]) {
      for (const goal of [{ x: 9, y: 5 }, { x: 2, y: 8 }, { x: 0, y: 0 }, start]) {
        const si = start.y * w + start.x, gi = goal.y * w + goal.x;
        const want = oracle(grid, gi, false)[si];
        for (const r of [findPath(grid, start, goal), findPathJps(grid, start, goal)]) {
          expect(r.status).toBe('found');
          expect(r.cells[0]).toBe(si);
          expect(r.cells[r.cells.length - 1]).toBe(gi);
          expect(r.cost).toBeCloseTo(want, 9);
          if (si === gi) { expect(r.cells.length).toBe(1); expect(r.cost).toBe(0); }
          checkLegal(grid, r.cells, false);
        }
      }
    }
    for (const [s, g] of [[{ x: 3, y: 3 }, { x: 9, y: 9 }], [{ x: 0, y: 0 }, { x: 6, y: 6 }], [{ x: 3, y: 3 }, { x: 3, y: 3 }]]) {
      expect(findPath(grid, s, g).status).toBe('unreachable');
      expect(findPathJps(grid, s, g).status).toBe('unreachable');
    }
  });
});
