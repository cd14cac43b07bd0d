/**
 * The flow field's two bucket-queue solvers (src/grid/flowfield.ts): the uniform-cost one (move masks, buckets of
 * width 1 in units of the cell cost, settled in any order within a bucket) and the general one (terrain costs,
 * buckets of width c_min). Every value is checked against the brute-force Bellman-Ford oracle in ./maps, which
 * knows nothing of buckets or settling order.
 */
import { describe, expect, it } from 'vitest';
import { createRng, rngFloat, rngInt } from '../../src/core/rng';
import { createGrid, setBlocked, type Grid } from '../../src/grid/grid';
import { buildFlowField, type FlowField } from '../../src/grid/flowfield';
import { bruteForceCosts, randomGrid } from './maps';

const CASES = [
  { name: '8-connected', conn: 8 as const, cut: false },
  { name: '8-connected with corner cutting', conn: 8 as const, cut: true },
  { name: '4-connected', conn: 4 as const, cut: false },
];

/** Every cell against the oracle (relative 1e-9: summation order only), reachableCount, and every `next` step paying exactly. */
function checkAgainstOracle(grid: Grid, goals: number[], conn: 4 | 8, cut: boolean, f: FlowField): void {
  const w = grid.width;
  const oracle = bruteForceCosts(grid, goals, conn, cut);
  let reachable = 0;
  for (let i = 0; i < oracle.length; i++) {
    const v = f.integration[i];
    if (oracle[i] === Infinity) {
      if (v !== Infinity) throw new Error(`cell ${i}: ${v}, oracle unreachable`);
      if (f.next[i] !== -1 || f.dirX[i] !== 0 || f.dirY[i] !== 0) throw new Error(`cell ${i}: unreachable but has a direction`);
      continue;
    }
    reachable++;
    if (Math.abs(v - oracle[i]) > 1e-9 * Math.max(1, oracle[i])) throw new Error(`cell ${i}: ${v} vs oracle ${oracle[i]}`);
    const n = f.next[i];
    if (n < 0) {
      if (v !== 0) throw new Error(`cell ${i}: no next cell but cost ${v}`);
      continue;
    }
    // The next cell is a legal move whose cost, added to the next cell's value, gives this cell's value.
    const dx = (n % w) - (i % w), dy = Math.floor(n / w) - Math.floor(i / w);
    if (Math.abs(dx) > 1 || Math.abs(dy) > 1 || (conn === 4 && dx !== 0 && dy !== 0)) throw new Error(`cell ${i}: next ${n} is not a neighbour`);
    const step = (dx !== 0 && dy !== 0 ? Math.SQRT2 : 1) * 0.5 * (grid.cost[i] + grid.cost[n]);
    if (Math.abs(f.integration[n] + step - v) > 1e-9 * Math.max(1, v)) throw new Error(`cell ${i}: next ${n} does not pay ${v}`);
    const len = Math.sqrt(dx * dx + dy * dy);
    if (Math.abs(f.dirX[i] - dx / len) > 1e-7 || Math.abs(f.dirY[i] - dy / len) > 1e-7) throw new Error(`cell ${i}: direction`);
  }
  expect(f.reachableCount).toBe(reachable);
}

function uniformGrid(rng: ReturnType<typeof createRng>, w: number, h: number, density: number, c: number): Grid {
  const walk = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) walk[i] = rngFloat(rng) < density ? 0 : 1;
  return createGrid(w, h, { walkable: walk, cost: new Float64Array(w * h).fill(c) });
}

describe('buildFlowField, uniform-cost solver vs brute-force Bellman-Ford oracle', () => {
  for (const k of CASES) {
    it(`${k.name}: cell cost 1 and 2.5, one and several goals, 48×36 grids with 10–35% obstacles`, () => {
      const rng = createRng(101);
      for (let t = 0; t < 12; t++) {
        const grid = uniformGrid(rng, 48, 36, 0.1 + 0.25 * rngFloat(rng), t % 3 === 2 ? 2.5 : 1);
        const goals = [rngInt(rng, 48 * 36)];
        if (t % 2 === 1) for (let g = 0; g < 4; g++) goals.push(rngInt(rng, 48 * 36));
        const f = buildFlowField(grid, goals.map((g) => ({ x: g % 48, y: Math.floor(g / 48) })), { connectivity: k.conn, cornerCutting: k.cut });
        checkAgainstOracle(grid, goals, k.conn, k.cut, f);
      }
    });
  }

  it('single rows, single columns and small grids (move masks at every border, byte and 32-bit-word rows)', () => {
    for (const [w, h] of [[1, 1], [1, 9], [9, 1], [2, 2], [3, 2], [4, 1], [4, 3], [8, 2]]) { // widths 4, 8: word rows
      for (const conn of [4, 8] as const) {
        const grid = createGrid(w, h);
        const goals = [w * h - 1];
        checkAgainstOracle(grid, goals, conn, false, buildFlowField(grid, { x: w - 1, y: h - 1 }, { connectivity: conn }));
      }
    }
  });

  it('an isolated goal counts as reachable; a diagonal past one blocked corner needs corner cutting (hand-derived costs)', () => {
    // Goal (1, 1) is walled in. From goal (4, 1), cell (6, 2) is one step right then a diagonal past the blocked
    // corner (5, 2): 1 + √2 with corner cutting; without, right, right, down: 3.
    const walk = [
      0, 0, 0, 1, 1, 1, 1,
      0, 1, 0, 1, 1, 1, 1,
      0, 0, 0, 1, 1, 0, 1,
    ];
    const grid = createGrid(7, 3, { walkable: walk });
    const goals = [1 * 7 + 1, 1 * 7 + 4];
    for (const cut of [false, true]) {
      const f = buildFlowField(grid, goals.map((g) => ({ x: g % 7, y: Math.floor(g / 7) })), { cornerCutting: cut });
      checkAgainstOracle(grid, goals, 8, cut, f);
      expect(f.integration[8]).toBe(0);
      expect(f.integration[2 * 7 + 6]).toBeCloseTo(cut ? 1 + Math.SQRT2 : 3, 12);
    }
  });

  it('thousands of goals (the bucket ring grows mid-bucket) match the oracle, and the field is bit-identical when rebuilt', () => {
    // 10,000 goals at the centres of 3 × 3 blocks: each pushes up to 8 cells of its own block into bucket 1, more
    // than the ring's initial 65,536 entries per bucket.
    const rng = createRng(5);
    const w = 300, h = 300;
    const grid = uniformGrid(rng, w, h, 0.05, 1);
    const goals: number[] = [];
    for (let y = 1; y < h; y += 3) for (let x = 1; x < w; x += 3) goals.push(y * w + x);
    const goalCells = goals.map((g) => ({ x: g % w, y: Math.floor(g / w) }));
    const f = buildFlowField(grid, goalCells);
    checkAgainstOracle(grid, goals, 8, false, f);
    const again = buildFlowField(grid, goalCells);
    expect(Buffer.from(again.integration.buffer).equals(Buffer.from(f.integration.buffer))).toBe(true);
    expect(Buffer.from(again.next.buffer).equals(Buffer.from(f.next.buffer))).toBe(true);
    expect(Buffer.from(again.dirX.buffer).equals(Buffer.from(f.dirX.buffer))).toBe(true);
    expect(Buffer.from(again.dirY.buffer).equals(Buffer.from(f.dirY.buffer))).toBe(true);
  });
});

describe('buildFlowField, uniform-cost solver: per-grid state words and the direction pass', () => {
  it('one grid, every move rule in turn and edits in between: each field matches the oracle and a fresh grid copy', () => {
    // The move masks are kept per grid, rule and version: a field after an edit, or under another rule, must not see
    // stale masks. Compared with the oracle and, bit for bit, with the same solve on a fresh copy of the grid.
    const rng = createRng(77);
    const w = 41, h = 29;
    const grid = uniformGrid(rng, w, h, 0.25, 1);
    const rules = [CASES[0], CASES[2], CASES[1], CASES[0], CASES[1], CASES[2]];
    for (let t = 0; t < rules.length; t++) {
      const k = rules[t];
      const goal = rngInt(rng, w * h);
      const cell = { x: goal % w, y: Math.floor(goal / w) };
      const f = buildFlowField(grid, cell, { connectivity: k.conn, cornerCutting: k.cut });
      checkAgainstOracle(grid, [goal], k.conn, k.cut, f);
      const copy = createGrid(w, h, { walkable: grid.walkable });
      const g = buildFlowField(copy, cell, { connectivity: k.conn, cornerCutting: k.cut });
      expect(Buffer.from(g.integration.buffer).equals(Buffer.from(f.integration.buffer))).toBe(true);
      expect(Buffer.from(g.next.buffer).equals(Buffer.from(f.next.buffer))).toBe(true);
      // Edit: flip a dozen cells (setBlocked bumps the version) before the next field.
      for (let e = 0; e < 12; e++) {
        const c = rngInt(rng, w * h);
        setBlocked(grid, c % w, Math.floor(c / w), grid.walkable[c] === 1);
      }
    }
  });

  it('directions written cell by cell when the output arrays are not 8-byte aligned, odd cell counts', () => {
    // writeDirections stores two cells' directions at once through a Float64 view; an `out` field whose dirX/dirY
    // start 4 bytes into their buffer takes the per-cell path. Both must give the same field.
    const rng = createRng(9);
    for (const [w, h] of [[33, 21], [32, 20]]) {
      const grid = uniformGrid(rng, w, h, 0.2, 1);
      const goal = { x: 5, y: 7 };
      grid.walkable[7 * w + 5] = 1;
      grid.version++;
      const ref = buildFlowField(grid, goal);
      const n = w * h;
      const out = buildFlowField(grid, goal);
      out.dirX = new Float32Array(new ArrayBuffer(4 * n + 4), 4, n);
      out.dirY = new Float32Array(new ArrayBuffer(4 * n + 4), 4, n);
      buildFlowField(grid, goal, {}, out);
      expect(Array.from(out.dirX)).toEqual(Array.from(ref.dirX));
      expect(Array.from(out.dirY)).toEqual(Array.from(ref.dirY));
      expect(Array.from(out.next)).toEqual(Array.from(ref.next));
      checkAgainstOracle(grid, [7 * w + 5], 8, false, out);
    }
  });
});

describe('buildFlowField, terrain-cost solver vs brute-force Bellman-Ford oracle', () => {
  for (const k of CASES) {
    it(`${k.name}: costs in quarter steps up to 8 (buckets of width c_min, a ring of ⌈√2·ratio⌉ + 2 or more), 40×30 grids`, () => {
      const rng = createRng(202);
      for (let t = 0; t < 10; t++) {
        const grid = randomGrid(rng, 40, 30, 0.1 + 0.2 * rngFloat(rng), 2 + 6 * rngFloat(rng), rngFloat);
        const goals = [rngInt(rng, 40 * 30)];
        if (t % 2 === 0) goals.push(rngInt(rng, 40 * 30), rngInt(rng, 40 * 30));
        const f = buildFlowField(grid, goals.map((g) => ({ x: g % 40, y: Math.floor(g / 40) })), { connectivity: k.conn, cornerCutting: k.cut });
        checkAgainstOracle(grid, goals, k.conn, k.cut, f);
      }
    });
  }

  it('fractional costs far from 1 (0.5 to 97): the bucket width follows c_min', () => {
    const rng = createRng(303);
    for (let t = 0; t < 6; t++) {
      const w = 36, h = 28;
      const walk = new Uint8Array(w * h);
      const cost = new Float64Array(w * h);
      for (let i = 0; i < w * h; i++) {
        walk[i] = rngFloat(rng) < 0.2 ? 0 : 1;
        cost[i] = 0.5 + 96.5 * rngFloat(rng) * rngFloat(rng);
      }
      const grid = createGrid(w, h, { walkable: walk, cost });
      const goals = [rngInt(rng, w * h), rngInt(rng, w * h)];
      checkAgainstOracle(grid, goals, 8, false, buildFlowField(grid, goals.map((g) => ({ x: g % w, y: Math.floor(g / w) }))));
    }
  });
});
