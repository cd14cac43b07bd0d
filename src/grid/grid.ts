/**
 * The navigation grid: width × height square cells, each walkable or blocked, each with a movement cost
 * (terrain weight: plains 1, mountains 3, …), placed in the world by an origin and a cell size.
 *
 * Storage is flat and row-major: cell (x, y) lives at index `y * width + x`, x being the column and y the row
 * (the Moving AI convention: y = 0 is the first row of the map text). All arrays are typed and allocated once,
 * so a grid can be sent to a worker or saved as it is.
 *
 * Move costs. A step between two cells a and b costs `length × (cost[a] + cost[b]) / 2`, where `length` is 1 for
 * an orthogonal step and √2 for a diagonal one. Averaging the two cells' costs makes every edge symmetric, so the
 * cost from start to goal equals the cost from goal to start. That is what lets a flow field (a search outward
 * from the goal) agree exactly with A* (a search outward from the start). With every cost 1 this is the Moving AI
 * octile metric (straight 1, diagonal √2).
 *
 * Edits (`setBlocked`, `setCost`) bump `version`, which path caches, flow-field caches and in-flight searches
 * compare against to know they are stale.
 */
import { MalformedInputError, OutOfRangeError, InvalidArgumentError } from '../core/errors';
import { requireFinite, requireInteger, requirePositive } from '../core/validate';

/** The largest grid side accepted (cells). 2^15 × 2^15 cells would already be 8 GiB of costs. */
export const MAX_GRID_SIDE = 1 << 15;

export interface Grid {
  /** Columns (cells along x). */
  readonly width: number;
  /** Rows (cells along y). */
  readonly height: number;
  /** World x of the left edge of column 0 (metres). @default 0 */
  readonly originX: number;
  /** World y of the top edge of row 0 (metres). @default 0 */
  readonly originY: number;
  /** Side of one cell (metres). @default 1 */
  readonly cellSize: number;
  /** 1 = walkable, 0 = blocked; index `y * width + x`. Write through setBlocked so `version` changes. */
  readonly walkable: Uint8Array;
  /** Movement cost of each cell (> 0; ignored for blocked cells). Write through setCost. */
  readonly cost: Float64Array;
  /** Incremented by every edit. */
  version: number;
  /** Cached cost range of walkable cells, valid while `statsVersion === version`. Internal. */
  statsVersion: number;
  minCost: number;
  maxCost: number;
  /** Walkable cells whose cost equals minCost / maxCost (kept by setBlocked and setCost while the stats are current). Internal. */
  minCount: number;
  maxCount: number;
}

export interface GridOptions {
  /** World x of the grid's left edge (metres). @default 0 */
  originX?: number;
  /** World y of the grid's top edge (metres). @default 0 */
  originY?: number;
  /** Cell side (metres). @default 1 */
  cellSize?: number;
  /** Initial walkable flags, row-major, length width × height (truthy = walkable). @default all walkable */
  walkable?: ArrayLike<number | boolean>;
  /** Initial costs, row-major, each finite and > 0. @default all 1 */
  cost?: ArrayLike<number>;
}

/** Create a grid of `width` × `height` cells. Throws InvalidArgumentError on bad sizes, origin, cell size or costs. */
export function createGrid(width: number, height: number, options: GridOptions = {}): Grid {
  requireInteger('width', width, 1, MAX_GRID_SIDE);
  requireInteger('height', height, 1, MAX_GRID_SIDE);
  const originX = requireFinite('options.originX', options.originX ?? 0);
  const originY = requireFinite('options.originY', options.originY ?? 0);
  const cellSize = requirePositive('options.cellSize', options.cellSize ?? 1);
  const n = width * height;
  const walkable = new Uint8Array(n);
  const cost = new Float64Array(n);
  if (options.walkable !== undefined) {
    if (options.walkable.length !== n) {
      throw new InvalidArgumentError('options.walkable', options.walkable, `must have width × height = ${n} entries`);
    }
    for (let i = 0; i < n; i++) walkable[i] = options.walkable[i] ? 1 : 0;
  } else {
    walkable.fill(1);
  }
  if (options.cost !== undefined) {
    if (options.cost.length !== n) {
      throw new InvalidArgumentError('options.cost', options.cost, `must have width × height = ${n} entries`);
    }
    for (let i = 0; i < n; i++) {
      const c = options.cost[i];
      if (typeof c !== 'number' || !Number.isFinite(c) || !(c > 0)) {
        throw new InvalidArgumentError(`options.cost[${i}]`, c, 'must be a finite number greater than 0');
      }
      cost[i] = c;
    }
  } else {
    cost.fill(1);
  }
  return { width, height, originX, originY, cellSize, walkable, cost, version: 0, statsVersion: -1, minCost: 1, maxCost: 1, minCount: 0, maxCount: 0 };
}

export interface AsciiGridOptions extends Omit<GridOptions, 'walkable' | 'cost'> {
  /** Characters that mark a blocked cell. @default '#@OTW' */
  blocked?: string;
  /** Cost of walkable characters other than '.', e.g. `{ '~': 3 }`. Characters not listed (and not blocked) cost 1. */
  costs?: Readonly<Record<string, number>>;
}

/**
 * Build a grid from ASCII rows (an array of strings, or one string with newline-separated rows; blank leading and
 * trailing lines and surrounding indentation are ignored when a single string is given). Every row must have the
 * same length. By default `#`, `@`, `O`, `T`, `W` are blocked and every other character is walkable with cost 1.
 */
export function gridFromAscii(rows: string | readonly string[], options: AsciiGridOptions = {}): Grid {
  let lines: string[];
  if (typeof rows === 'string') {
    lines = rows.split('\n').map((l) => l.trim());
    while (lines.length > 0 && lines[0] === '') lines.shift();
    while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  } else if (Array.isArray(rows)) {
    lines = rows.slice() as string[];
  } else {
    throw new InvalidArgumentError('rows', rows, 'must be a string or an array of strings');
  }
  if (lines.length === 0) throw new MalformedInputError('rows', rows, 'has no rows');
  const width = lines[0].length;
  if (width === 0) throw new MalformedInputError('rows[0]', lines[0], 'is empty');
  for (let y = 0; y < lines.length; y++) {
    if (typeof lines[y] !== 'string') throw new MalformedInputError(`rows[${y}]`, lines[y], 'must be a string');
    if (lines[y].length !== width) {
      throw new MalformedInputError(`rows[${y}]`, lines[y], `has ${lines[y].length} characters; row 0 has ${width}`);
    }
  }
  const blocked = options.blocked ?? '#@OTW';
  const costs = options.costs ?? {};
  for (const k of Object.keys(costs)) {
    const c = costs[k];
    if (typeof c !== 'number' || !Number.isFinite(c) || !(c > 0)) {
      throw new InvalidArgumentError(`options.costs[${JSON.stringify(k)}]`, c, 'must be a finite number greater than 0');
    }
  }
  const height = lines.length;
  const grid = createGrid(width, height, options);
  for (let y = 0; y < height; y++) {
    const line = lines[y];
    for (let x = 0; x < width; x++) {
      const ch = line[x];
      const i = y * width + x;
      if (blocked.includes(ch)) grid.walkable[i] = 0;
      else if (costs[ch] !== undefined) grid.cost[i] = costs[ch];
    }
  }
  return grid;
}

/**
 * Parse a Moving AI `.map` file (Sturtevant, "Benchmarks for Grid-Based Pathfinding", 2012):
 *
 *     type octile
 *     height H
 *     width W
 *     map
 *     <H rows of W characters>
 *
 * Passable: `.` `G` `S`; blocked: `@` `O` `T` `W`. Any other character, a missing or non-numeric header field,
 * a row of the wrong length or a wrong row count throws a MalformedInputError naming the line.
 */
export function parseMovingAiMap(text: string, options: Omit<GridOptions, 'walkable' | 'cost'> = {}): Grid {
  if (typeof text !== 'string') throw new MalformedInputError('text', text, 'must be the text of a .map file');
  const lines = text.split(/\r?\n/);
  let li = 0;
  let width = -1;
  let height = -1;
  let sawType = false;
  // Header: "type octile", "height H", "width W" in any order, then "map".
  for (;; li++) {
    if (li >= lines.length) throw new MalformedInputError('text', text.slice(0, 80), "ends before the 'map' line");
    const line = lines[li].trim();
    if (line === '') continue;
    if (line === 'map') { li++; break; }
    const parts = line.split(/\s+/);
    const key = parts[0];
    if (parts.length !== 2) throw new MalformedInputError(`line ${li + 1}`, line, "expected 'key value' in the header");
    if (key === 'type') {
      if (parts[1] !== 'octile') throw new MalformedInputError(`line ${li + 1}`, line, "map type must be 'octile'");
      sawType = true;
    } else if (key === 'height' || key === 'width') {
      const v = Number(parts[1]);
      if (!Number.isInteger(v) || v < 1 || v > MAX_GRID_SIDE) {
        throw new MalformedInputError(`line ${li + 1}`, line, `${key} must be an integer in 1..${MAX_GRID_SIDE}`);
      }
      if (key === 'height') height = v; else width = v;
    } else {
      throw new MalformedInputError(`line ${li + 1}`, line, `unknown header field '${key}'`);
    }
  }
  if (!sawType) throw new MalformedInputError('text', text.slice(0, 80), "header lacks 'type octile'");
  if (height < 0) throw new MalformedInputError('text', text.slice(0, 80), "header lacks 'height'");
  if (width < 0) throw new MalformedInputError('text', text.slice(0, 80), "header lacks 'width'");
  const grid = createGrid(width, height, options);
  const walkable = grid.walkable;
  for (let y = 0; y < height; y++, li++) {
    if (li >= lines.length || (lines[li].trim() === '' && lines.slice(li).every((l) => l.trim() === ''))) {
      throw new MalformedInputError('text', `${y} rows`, `has ${y} map rows; header says height ${height}`);
    }
    const line = lines[li].replace(/\s+$/, '');
    if (line.length !== width) {
      throw new MalformedInputError(`line ${li + 1}`, line, `map row ${y} has ${line.length} characters; header says width ${width}`);
    }
    for (let x = 0; x < width; x++) {
      const ch = line.charCodeAt(x);
      let w: number;
      switch (ch) {
        case 46: /* . */ case 71: /* G */ case 83: /* S */ w = 1; break;
        case 64: /* @ */ case 79: /* O */ case 84: /* T */ case 87: /* W */ w = 0; break;
        default:
          throw new MalformedInputError(`line ${li + 1}`, line, `unknown terrain character '${line[x]}' at column ${x}`);
      }
      walkable[y * width + x] = w;
    }
  }
  for (; li < lines.length; li++) {
    if (lines[li].trim() !== '') throw new MalformedInputError(`line ${li + 1}`, lines[li], `extra text after ${height} map rows`);
  }
  return grid;
}

function requireCell(grid: Grid, x: number, y: number): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= grid.width) {
    throw new OutOfRangeError('x', x, `must be an integer column in 0..${grid.width - 1}`);
  }
  if (typeof y !== 'number' || !Number.isInteger(y) || y < 0 || y >= grid.height) {
    throw new OutOfRangeError('y', y, `must be an integer row in 0..${grid.height - 1}`);
  }
  return y * grid.width + x;
}

/** Validate a cell named `field` (an `{x, y}` object) and return its index. Throws OutOfRangeError. */
export function requireGridCell(grid: Grid, field: string, cell: { readonly x: number; readonly y: number }): number {
  if (cell === null || typeof cell !== 'object') throw new InvalidArgumentError(field, cell, 'must be an {x, y} cell');
  const { x, y } = cell;
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x >= grid.width) {
    throw new OutOfRangeError(`${field}.x`, x, `must be an integer column in 0..${grid.width - 1}`);
  }
  if (typeof y !== 'number' || !Number.isInteger(y) || y < 0 || y >= grid.height) {
    throw new OutOfRangeError(`${field}.y`, y, `must be an integer row in 0..${grid.height - 1}`);
  }
  return y * grid.width + x;
}

/** Block (`blocked = true`) or open a cell; bumps `grid.version` if the flag changes. Throws OutOfRangeError. */
export function setBlocked(grid: Grid, x: number, y: number, blocked: boolean): void {
  const i = requireCell(grid, x, y);
  const w = blocked ? 0 : 1;
  if (grid.walkable[i] !== w) {
    const current = grid.statsVersion === grid.version;
    grid.walkable[i] = w;
    grid.version++;
    if (current && (w === 0 ? statsRemove(grid, grid.cost[i]) : statsAdd(grid, grid.cost[i]))) grid.statsVersion = grid.version;
  }
}

/** Set a cell's movement cost (finite, > 0); bumps `grid.version` if it changes. */
export function setCost(grid: Grid, x: number, y: number, cost: number): void {
  const i = requireCell(grid, x, y);
  requirePositive('cost', cost);
  const old = grid.cost[i];
  if (old !== cost) {
    const current = grid.statsVersion === grid.version;
    grid.cost[i] = cost;
    grid.version++;
    if (current && (grid.walkable[i] === 0 || (statsRemove(grid, old) && statsAdd(grid, cost)))) grid.statsVersion = grid.version;
  }
}

/*
 * Incremental cost range. A full rescan of a 1024² grid takes ~2.5 ms, and an edit (a door closing, a building
 * placed) used to cost one before the next flow field or search. The range changes only when a cell at an extreme
 * leaves or a cell beyond one arrives, so setBlocked and setCost keep it current with the number of walkable cells
 * at each extreme, and fall back to the rescan when the last cell at an extreme leaves (or the grid had none).
 * Each returns false when the stats can no longer be kept.
 */
function statsRemove(grid: Grid, c: number): boolean {
  if (c === grid.minCost && --grid.minCount === 0) return false;
  if (c === grid.maxCost && --grid.maxCount === 0) return false;
  return true;
}

function statsAdd(grid: Grid, c: number): boolean {
  if (grid.minCount === 0) return false; // no walkable cell yet: the range is a placeholder
  if (c < grid.minCost) { grid.minCost = c; grid.minCount = 1; } else if (c === grid.minCost) grid.minCount++;
  if (c > grid.maxCost) { grid.maxCost = c; grid.maxCount = 1; } else if (c === grid.maxCost) grid.maxCount++;
  return true;
}

/** Whether cell (x, y) is inside the grid and walkable (cells outside the grid count as blocked). */
export function isWalkable(grid: Grid, x: number, y: number): boolean {
  return x >= 0 && y >= 0 && x < grid.width && y < grid.height && (x | 0) === x && (y | 0) === y
    && grid.walkable[y * grid.width + x] === 1;
}

/** Row-major index of cell (x, y). Throws OutOfRangeError outside the grid. */
export function cellIndex(grid: Grid, x: number, y: number): number {
  return requireCell(grid, x, y);
}

/**
 * Cheapest and dearest cost among walkable cells (1 and 1 on a grid with no walkable cell). Recomputed lazily
 * after edits (one O(cells) pass), then cached until the next edit. Heuristics are scaled by the minimum so
 * they never overestimate.
 */
export function gridCostRange(grid: Grid): { min: number; max: number } {
  refreshCostStats(grid);
  return { min: grid.minCost, max: grid.maxCost };
}

/** Internal: bring grid.minCost / grid.maxCost up to date. */
export function refreshCostStats(grid: Grid): void {
  if (grid.statsVersion === grid.version) return;
  const { walkable, cost } = grid;
  let lo = Infinity, hi = 0, nLo = 0, nHi = 0;
  for (let i = 0, n = walkable.length; i < n; i++) {
    if (walkable[i] === 1) {
      const c = cost[i];
      if (c < lo) { lo = c; nLo = 1; } else if (c === lo) nLo++;
      if (c > hi) { hi = c; nHi = 1; } else if (c === hi) nHi++;
    }
  }
  grid.minCost = lo === Infinity ? 1 : lo;
  grid.maxCost = hi === 0 ? 1 : hi;
  grid.minCount = nLo;
  grid.maxCount = nHi;
  grid.statsVersion = grid.version;
}

/**
 * World point → cell. Writes the column and row containing (wx, wy) into `out` (they may lie outside the grid;
 * check with isWalkable) and returns `out`. Cell (x, y) covers [originX + x·cellSize, originX + (x+1)·cellSize).
 */
export function worldToCell(grid: Grid, wx: number, wy: number, out: { x: number; y: number }): { x: number; y: number } {
  out.x = Math.floor((wx - grid.originX) / grid.cellSize);
  out.y = Math.floor((wy - grid.originY) / grid.cellSize);
  return out;
}

/** Cell → world point at the cell's centre, written into `out`. */
export function cellToWorld(grid: Grid, x: number, y: number, out: { x: number; y: number }): { x: number; y: number } {
  out.x = grid.originX + (x + 0.5) * grid.cellSize;
  out.y = grid.originY + (y + 0.5) * grid.cellSize;
  return out;
}

/** Copy of a grid (own arrays, same version). Useful to compare before/after edits. */
export function cloneGrid(grid: Grid): Grid {
  return {
    ...grid,
    walkable: grid.walkable.slice(),
    cost: grid.cost.slice(),
  };
}
