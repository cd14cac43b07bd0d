import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, MalformedInputError, OutOfRangeError } from '../../src/core/errors';
import {
  cellIndex, cellToWorld, createGrid, gridCostRange, gridFromAscii, isWalkable, parseMovingAiMap, setBlocked, setCost,
  worldToCell,
} from '../../src/grid/grid';
import { loadMap } from './maps';
import { createRng, rngFloat, rngInt } from '../../src/core/rng';

describe('createGrid', () => {
  it('builds width × height walkable cells of cost 1, or from arrays', () => {
    const g = createGrid(3, 2);
    expect(g.walkable.length).toBe(6);
    expect(Array.from(g.walkable)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(Array.from(g.cost)).toEqual([1, 1, 1, 1, 1, 1]);
    const h = createGrid(2, 2, { walkable: [1, 0, true, false], cost: [1, 2, 3, 4], cellSize: 0.5, originX: -1 });
    expect(Array.from(h.walkable)).toEqual([1, 0, 1, 0]);
    expect(Array.from(h.cost)).toEqual([1, 2, 3, 4]);
    expect(h.cellSize).toBe(0.5);
  });

  it('rejects zero, negative and non-integer sizes, bad cell sizes, wrong array lengths and bad costs', () => {
    expect(() => createGrid(0, 5)).toThrow(InvalidArgumentError);
    expect(() => createGrid(5, -1)).toThrow(/height/);
    expect(() => createGrid(2.5, 5)).toThrow(/width/);
    expect(() => createGrid(5, 5, { cellSize: 0 })).toThrow(/options\.cellSize/);
    expect(() => createGrid(5, 5, { originX: NaN })).toThrow(/options\.originX/);
    expect(() => createGrid(2, 2, { walkable: [1, 1, 1] })).toThrow(/options\.walkable/);
    expect(() => createGrid(2, 2, { cost: [1, 1, 0, 1] })).toThrow(/options\.cost\[2\]/);
    expect(() => createGrid(2, 2, { cost: [1, 1, Infinity, 1] })).toThrow(/options\.cost\[2\]/);
  });
});

describe('gridFromAscii', () => {
  it('reads rows, blocked characters and terrain costs', () => {
    const g = gridFromAscii(`
      ..#
      ~.@
    `, { costs: { '~': 3 } });
    expect(g.width).toBe(3);
    expect(g.height).toBe(2);
    expect(Array.from(g.walkable)).toEqual([1, 1, 0, 1, 1, 0]);
    expect(g.cost[3]).toBe(3);
    expect(gridCostRange(g)).toEqual({ min: 1, max: 3 });
  });

  it('rejects ragged rows, empty input and bad costs', () => {
    expect(() => gridFromAscii(['...', '..'])).toThrow(MalformedInputError);
    expect(() => gridFromAscii(['...', '..'])).toThrow(/rows\[1\]/);
    expect(() => gridFromAscii('')).toThrow(/no rows/);
    expect(() => gridFromAscii(['.~'], { costs: { '~': -2 } })).toThrow(/costs/);
  });
});

describe('parseMovingAiMap', () => {
  it('parses the benchmark maps with the documented sizes (README of the maps folder)', () => {
    const brc = loadMap('brc202d.map');
    expect([brc.width, brc.height]).toEqual([530, 481]); // header: height 481, width 530
    const den = loadMap('den312d.map');
    expect([den.width, den.height]).toEqual([65, 81]);
    const arena = loadMap('arena.map');
    expect([arena.width, arena.height]).toEqual([49, 49]);
    // arena.map row 0 is all 'T' (blocked); row 1 is "TTT............TTTT.TTT...": column 3 passable.
    expect(arena.walkable[0]).toBe(0);
    expect(arena.walkable[49 + 3]).toBe(1);
    expect(arena.walkable[49 + 2]).toBe(0);
  });

  it('maps terrain characters: . G S passable; @ O T W blocked', () => {
    const g = parseMovingAiMap('type octile\nheight 1\nwidth 7\nmap\n.GS@OTW\n');
    expect(Array.from(g.walkable)).toEqual([1, 1, 1, 0, 0, 0, 0]);
  });

  it('rejects malformed text naming the line', () => {
    const ok = 'type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n';
    expect(() => parseMovingAiMap(ok)).not.toThrow();
    expect(() => parseMovingAiMap(ok.replace('octile', 'hex'))).toThrow(/line 1.*octile/);
    expect(() => parseMovingAiMap(ok.replace('height 2\n', ''))).toThrow(/lacks 'height'/);
    expect(() => parseMovingAiMap(ok.replace('width 3', 'width x'))).toThrow(/line 3/);
    expect(() => parseMovingAiMap(ok.replace('width 3', 'width 0'))).toThrow(MalformedInputError);
    expect(() => parseMovingAiMap(ok.replace('map\n', ''))).toThrow(/line 4|'map'/);
    expect(() => parseMovingAiMap(ok.replace('.@.', '.@'))).toThrow(/line 6.*2 characters/);
    expect(() => parseMovingAiMap(ok.replace('.@.', '.?.'))).toThrow(/unknown terrain character '\?'/);
    expect(() => parseMovingAiMap(ok.replace('.@.\n', ''))).toThrow(/1 map rows/);
    expect(() => parseMovingAiMap(ok + '...\n')).toThrow(/extra text/);
    expect(() => parseMovingAiMap(42 as unknown as string)).toThrow(MalformedInputError);
  });
});

describe('setBlocked / setCost', () => {
  it('edit cells and bump the version only on a change', () => {
    const g = createGrid(4, 4);
    setBlocked(g, 1, 2, true);
    expect(g.walkable[9]).toBe(0);
    expect(g.version).toBe(1);
    setBlocked(g, 1, 2, true);
    expect(g.version).toBe(1);
    setCost(g, 0, 0, 2.5);
    expect(g.cost[0]).toBe(2.5);
    expect(g.version).toBe(2);
    expect(gridCostRange(g)).toEqual({ min: 1, max: 2.5 });
    setBlocked(g, 0, 0, true);
    expect(gridCostRange(g)).toEqual({ min: 1, max: 1 }); // blocked cells do not count
  });

  it('keeps the cost range current through 20,000 seeded edits without rescanning (oracle: a full scan of a copy after every edit)', () => {
    const rng = createRng(8);
    const g = createGrid(24, 24);
    const costs = [1, 1, 1, 2, 3, 0.5, 7];
    let rescans = 0;
    gridCostRange(g);
    for (let e = 0; e < 20000; e++) {
      const x = rngInt(rng, 24), y = rngInt(rng, 24);
      if (rngFloat(rng) < 0.5) setBlocked(g, x, y, rngFloat(rng) < 0.55);
      else setCost(g, x, y, costs[rngInt(rng, costs.length)]);
      if (g.statsVersion !== g.version) rescans++;
      const got = gridCostRange(g);
      let lo = Infinity, hi = 0;
      for (let i = 0; i < g.walkable.length; i++) if (g.walkable[i] === 1) { lo = Math.min(lo, g.cost[i]); hi = Math.max(hi, g.cost[i]); }
      expect(got).toEqual({ min: lo === Infinity ? 1 : lo, max: hi === 0 ? 1 : hi });
    }
    // Rescans happen only when the last cell at an extreme leaves: none of these edits emptied an extreme.
    expect(rescans).toBeLessThan(200);
    // Directed: the only cell at an extreme leaves (rescan, then the right range); a cost beyond extends in place.
    const h = createGrid(3, 1);
    setCost(h, 1, 0, 2); setCost(h, 2, 0, 3);
    expect(gridCostRange(h)).toEqual({ min: 1, max: 3 });
    setBlocked(h, 0, 0, true);
    expect(h.statsVersion).not.toBe(h.version);
    expect(gridCostRange(h)).toEqual({ min: 2, max: 3 });
    setCost(h, 0, 0, 0.5); // a blocked cell: the range does not change
    expect(h.statsVersion).toBe(h.version);
    setBlocked(h, 0, 0, false); // cost 0.5 arrives below the minimum
    expect(h.statsVersion).toBe(h.version);
    expect(gridCostRange(h)).toEqual({ min: 0.5, max: 3 });
  });

  it('reject out-of-range cells and bad costs', () => {
    const g = createGrid(4, 4);
    expect(() => setBlocked(g, 4, 0, true)).toThrow(OutOfRangeError);
    expect(() => setBlocked(g, 0, -1, true)).toThrow(/y/);
    expect(() => setCost(g, 0, 0, 0)).toThrow(/cost/);
    expect(() => setCost(g, 0, 0, NaN)).toThrow(InvalidArgumentError);
    expect(() => cellIndex(g, 1, 9)).toThrow(OutOfRangeError);
    expect(g.version).toBe(0);
  });
});

describe('world ↔ cell mapping', () => {
  it('maps points to cells and cells to centres with origin and cell size', () => {
    const g = createGrid(10, 10, { originX: -5, originY: 2, cellSize: 0.5 });
    const c = worldToCell(g, -4.76, 2.99, { x: 0, y: 0 });
    expect(c).toEqual({ x: 0, y: 1 });
    const p = cellToWorld(g, 3, 4, { x: 0, y: 0 });
    expect(p).toEqual({ x: -5 + 3.5 * 0.5, y: 2 + 4.5 * 0.5 });
    expect(worldToCell(g, p.x, p.y, { x: 0, y: 0 })).toEqual({ x: 3, y: 4 });
    expect(isWalkable(g, 3, 4)).toBe(true);
    expect(isWalkable(g, -1, 4)).toBe(false);
    expect(isWalkable(g, 10, 0)).toBe(false);
  });
});
