import { describe, expect, it } from 'vitest';
import { createRng, rngFloat, rngInt } from '../../src/core/rng';
import { createGrid, gridFromAscii, setBlocked, setCost } from '../../src/grid/grid';
import {
  buildFlowField, clearFlowFieldCache, createFlowFieldCache, flowFieldCostAt, getFlowField, rebuildFlowField,
  sampleFlowField,
} from '../../src/grid/flowfield';
import { findPath } from '../../src/grid/search';
import { bruteForceCosts, loadMap, loadScen, randomGrid, scenFiles } from './maps';

describe('buildFlowField: Moving AI benchmark (published optimal lengths)', () => {
  for (const file of scenFiles()) {
    it(`integration value at every start of ${file} equals the published optimal length within 1e-4`, () => {
      const queries = loadScen(file);
      const grid = loadMap(queries[0].map);
      const field = buildFlowField(grid, { x: 0, y: 0 });
      for (const q of queries) {
        buildFlowField(grid, { x: q.gx, y: q.gy }, {}, field);
        const v = field.integration[q.sy * grid.width + q.sx];
        if (Math.abs(v - q.optimal) > 1e-4) throw new Error(`${file} ${q.sx},${q.sy}→${q.gx},${q.gy}: ${v} vs ${q.optimal}`);
      }
    });
  }
});

describe('buildFlowField vs brute-force Bellman-Ford oracle', () => {
  const cases = [
    { name: '8-connected, terrain costs 1..5', conn: 8 as const, cut: false, maxCost: 5 },
    { name: '4-connected, terrain costs', conn: 4 as const, cut: false, maxCost: 3 },
    { name: '8-connected with corner cutting', conn: 8 as const, cut: true, maxCost: 2 },
    { name: '8-connected uniform', conn: 8 as const, cut: false, maxCost: 1 },
  ];
  for (const c of cases) {
    it(`${c.name}: every cell's value matches the oracle; unreachable cells are Infinity`, () => {
      const rng = createRng(17);
      for (let t = 0; t < 25; t++) {
        const grid = randomGrid(rng, 19, 14, 0.3, c.maxCost, rngFloat);
        const goals = [rngInt(rng, 19 * 14)];
        if (t % 2 === 1) goals.push(rngInt(rng, 19 * 14), rngInt(rng, 19 * 14)); // multi-goal: nearest goal
        const oracle = bruteForceCosts(grid, goals, c.conn, c.cut);
        const field = buildFlowField(grid, goals.map((g) => ({ x: g % 19, y: Math.floor(g / 19) })), { connectivity: c.conn, cornerCutting: c.cut });
        let reachable = 0;
        for (let i = 0; i < oracle.length; i++) {
          if (oracle[i] === Infinity) expect(field.integration[i]).toBe(Infinity);
          else {
            reachable++;
            expect(field.integration[i]).toBeCloseTo(oracle[i], 9);
          }
        }
        expect(field.reachableCount).toBe(reachable);
      }
    });
  }

  it('following `next` from any reachable cell reaches a goal, paying exactly the integration value', () => {
    const rng = createRng(2);
    const grid = randomGrid(rng, 40, 30, 0.25, 3, rngFloat);
    const goal = { x: 20, y: 15 };
    setBlocked(grid, 20, 15, false);
    const f = buildFlowField(grid, goal);
    for (let c = 0; c < 1200; c++) {
      if (f.integration[c] === Infinity) continue;
      let cur = c, paid = 0, steps = 0;
      while (f.next[cur] >= 0) {
        const n = f.next[cur];
        const diag = (n % 40) !== (cur % 40) && Math.floor(n / 40) !== Math.floor(cur / 40);
        paid += (diag ? Math.SQRT2 : 1) * 0.5 * (grid.cost[cur] + grid.cost[n]);
        // The direction vector points at the next cell.
        const dx = (n % 40) - (cur % 40), dy = Math.floor(n / 40) - Math.floor(cur / 40);
        const len = Math.sqrt(dx * dx + dy * dy);
        expect(f.dirX[cur]).toBeCloseTo(dx / len, 6);
        expect(f.dirY[cur]).toBeCloseTo(dy / len, 6);
        cur = n;
        if (++steps > 1200) throw new Error('cycle in next');
      }
      expect(cur).toBe(goal.y * 40 + goal.x);
      expect(paid).toBeCloseTo(f.integration[c], 9);
    }
  });

  it('agrees with A* from every cell (symmetric edge costs), on den312d to one goal', () => {
    const grid = loadMap('den312d.map');
    const goal = { x: 30, y: 40 };
    const f = buildFlowField(grid, goal);
    for (let c = 0; c < grid.walkable.length; c += 7) {
      if (!grid.walkable[c]) continue;
      const r = findPath(grid, { x: c % grid.width, y: Math.floor(c / grid.width) }, goal);
      expect(r.status === 'found' ? r.cost : Infinity).toBeCloseTo(f.integration[c], 9);
    }
  });
});

describe('buildFlowField edge cases', () => {
  it('a blocked goal leaves every cell unreachable; a 1×1 grid is its own goal', () => {
    const grid = gridFromAscii(['...', '.#.', '...']);
    const f = buildFlowField(grid, { x: 1, y: 1 });
    expect(f.reachableCount).toBe(0);
    expect(Array.from(f.integration).every((v) => v === Infinity)).toBe(true);
    const one = buildFlowField(createGrid(1, 1), { x: 0, y: 0 });
    expect(one.integration[0]).toBe(0);
    expect(one.next[0]).toBe(-1);
  });

  it('rejects out-of-range goals, empty goal lists and bad options', () => {
    const grid = createGrid(4, 4);
    expect(() => buildFlowField(grid, { x: 4, y: 0 })).toThrow(/goals\[0\]\.x/);
    expect(() => buildFlowField(grid, [])).toThrow(/goals/);
    expect(() => buildFlowField(grid, { x: 0, y: 0 }, { connectivity: 3 as 4 })).toThrow(/connectivity/);
  });

  it('rebuildFlowField sees grid edits', () => {
    const grid = gridFromAscii(['.....', '.....', '.....']);
    const f = buildFlowField(grid, { x: 4, y: 1 });
    expect(f.integration[5]).toBe(4);
    setBlocked(grid, 2, 0, true);
    setBlocked(grid, 2, 1, true);
    setBlocked(grid, 2, 2, true);
    rebuildFlowField(f);
    expect(f.integration[5]).toBe(Infinity);
    expect(f.gridVersion).toBe(grid.version);
  });
});

describe('sampleFlowField', () => {
  it('returns the cell direction at a cell centre, unit vectors elsewhere, goal and unreachable statuses', () => {
    const grid = gridFromAscii(['......', '......', '...#..', '......'], { cellSize: 2, originX: 10 });
    const f = buildFlowField(grid, { x: 5, y: 0 });
    const out = { x: 0, y: 0 };
    // Centre of cell (1, 2): world (10 + 1.5·2, 2.5·2).
    expect(sampleFlowField(f, 13, 5, out)).toBe('moving');
    const c = 2 * 6 + 1;
    expect(out.x).toBeCloseTo(f.dirX[c], 6);
    expect(out.y).toBeCloseTo(f.dirY[c], 6);
    // Between cell centres: a unit vector inside the cone of the four corner directions.
    expect(sampleFlowField(f, 12.7, 3.9, out)).toBe('moving');
    expect(Math.hypot(out.x, out.y)).toBeCloseTo(1, 9);
    expect(out.x).toBeGreaterThan(0);
    expect(sampleFlowField(f, 21, 1, out)).toBe('goal');
    expect(out).toEqual({ x: 0, y: 0 });
    expect(sampleFlowField(f, 17, 5, out)).toBe('unreachable'); // blocked cell (3, 2)
    expect(sampleFlowField(f, 0, 0, out)).toBe('unreachable'); // off the grid
    expect(sampleFlowField(f, NaN, 0, out)).toBe('unreachable');
    expect(flowFieldCostAt(f, 21, 1)).toBe(0);
    expect(flowFieldCostAt(f, -100, 1)).toBe(Infinity);
  });

  it('bilinear weights match a hand computation (directions set by hand on a 2×2 field)', () => {
    const grid = createGrid(2, 2);
    const f = buildFlowField(grid, { x: 0, y: 0 });
    // Overwrite the solved field: every cell non-goal, reachable, with chosen directions.
    f.next.fill(0);
    f.integration.fill(1);
    const dirs = [[1, 0], [0, 1], [0, 1], [1, 0]]; // cells (0,0), (1,0), (0,1), (1,1)
    dirs.forEach(([x, y], i) => { f.dirX[i] = x; f.dirY[i] = y; });
    const out = { x: 0, y: 0 };
    // Point (0.75, 0.75): centres at 0.5 and 1.5, so tx = ty = 0.25; weights 0.5625, 0.1875, 0.1875, 0.0625
    // → sum (0.5625 + 0.0625, 0.1875 + 0.1875) = (0.625, 0.375), normalised.
    expect(sampleFlowField(f, 0.75, 0.75, out)).toBe('moving');
    const n = Math.hypot(0.625, 0.375);
    expect(out.x).toBeCloseTo(0.625 / n, 6);
    expect(out.y).toBeCloseTo(0.375 / n, 6);
    // The middle of the four centres: equal weights → (0.5, 0.5) normalised.
    sampleFlowField(f, 1, 1, out);
    expect(out.x).toBeCloseTo(Math.SQRT1_2, 6);
    expect(out.y).toBeCloseTo(Math.SQRT1_2, 6);
    // An unreachable neighbour gets weight 0: make (1,0) unreachable; at (1,1) the blend is (0.5, 0.25) normalised.
    f.integration[1] = Infinity;
    sampleFlowField(f, 1, 1, out);
    const m = Math.hypot(0.5, 0.25);
    expect(out.x).toBeCloseTo(0.5 / m, 6);
    expect(out.y).toBeCloseTo(0.25 / m, 6);
  });

  it('varies continuously: nearby points give nearby directions (no 8-direction snapping)', () => {
    const grid = createGrid(30, 30);
    const f = buildFlowField(grid, { x: 25, y: 3 });
    const a = { x: 0, y: 0 }, b = { x: 0, y: 0 };
    let maxJump = 0;
    for (let t = 0; t <= 200; t++) {
      const x = 2 + t * 0.05, y = 20 + t * 0.02;
      sampleFlowField(f, x, y, a);
      sampleFlowField(f, x + 0.05, y + 0.02, b);
      maxJump = Math.max(maxJump, Math.hypot(a.x - b.x, a.y - b.y));
    }
    expect(maxJump).toBeLessThan(0.1); // snapping between 8 directions would jump by ≥ 0.76
  });

  it('cells cut off by a wall sample unreachable', () => {
    const grid = gridFromAscii(['..#..', '..#..']);
    const f = buildFlowField(grid, { x: 0, y: 0 });
    const out = { x: 0, y: 0 };
    expect(sampleFlowField(f, 4.5, 0.5, out)).toBe('unreachable');
    expect(sampleFlowField(f, 1.5, 1.5, out)).toBe('moving');
  });
});

describe('flow field cache', () => {
  it('returns the same field for the same goals (any order), counts hits and misses', () => {
    const grid = createGrid(20, 20);
    const cache = createFlowFieldCache(2);
    const a = getFlowField(cache, grid, [{ x: 1, y: 1 }, { x: 5, y: 5 }]);
    const b = getFlowField(cache, grid, [{ x: 5, y: 5 }, { x: 1, y: 1 }, { x: 1, y: 1 }]);
    expect(b).toBe(a);
    expect(cache.hits).toBe(1);
    expect(cache.misses).toBe(1);
  });

  it('evicts the least recently used field at capacity and reuses its arrays', () => {
    const grid = createGrid(20, 20);
    const cache = createFlowFieldCache(2);
    const a = getFlowField(cache, grid, { x: 1, y: 1 });
    const b = getFlowField(cache, grid, { x: 2, y: 2 });
    getFlowField(cache, grid, { x: 1, y: 1 }); // a is now the most recent
    const c = getFlowField(cache, grid, { x: 3, y: 3 }); // evicts b
    expect(c).toBe(b); // same object, rebuilt for the new goal
    expect(c.integration[3 * 20 + 3]).toBe(0);
    expect(getFlowField(cache, grid, { x: 1, y: 1 })).toBe(a);
    expect(cache.misses).toBe(3);
    clearFlowFieldCache(cache);
    getFlowField(cache, grid, { x: 1, y: 1 });
    expect(cache.misses).toBe(4);
  });

  it('a grid edit invalidates cached fields: the next lookup re-solves', () => {
    const grid = gridFromAscii(['.....', '.....']);
    const cache = createFlowFieldCache(4);
    const f = getFlowField(cache, grid, { x: 4, y: 0 });
    expect(f.integration[0]).toBe(4);
    setCost(grid, 2, 0, 3);
    setCost(grid, 2, 1, 3);
    const g = getFlowField(cache, grid, { x: 4, y: 0 });
    expect(g).toBe(f);
    expect(cache.rebuilds).toBe(1);
    // Oracle: the cheapest crossing of column 2 costs 0.5·(1+3) twice instead of 1 twice → 4 + 2.
    expect(g.integration[0]).toBeCloseTo(6, 12);
    expect(g.integration[0]).toBeCloseTo(bruteForceCosts(grid, [4])[0], 12);
  });

  it('rejects a bad capacity', () => {
    expect(() => createFlowFieldCache(0)).toThrow(/capacity/);
  });
});
