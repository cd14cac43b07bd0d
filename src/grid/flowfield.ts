/**
 * Flow fields (Emerson, "Crowd Pathfinding and Steering Using Flow Field Tiles", Game AI Pro 2013; Pentheny,
 * "Efficient Crowd Simulation for Mobile Games", Game AI Pro 2013): one search from the goal serves every agent.
 *
 * 1. Integration field: the exact cost from every cell to the nearest goal cell, by Dijkstra outward from all goal
 *    cells at once over the same 8-neighbour moves and corner rule as findPath (edge cost = step length × mean of
 *    the two cells' costs, symmetric, so the value at a start equals A*'s optimal cost from that start).
 * 2. Direction field: each reachable cell points at its Dijkstra predecessor (the neighbour m minimising
 *    integration[m] + cost(cell, m)); a unit vector per cell, (0, 0) at goals and unreachable cells.
 * 3. Agents sample the direction field with bilinear interpolation between the four nearest cell centres, so a
 *    crowd turns smoothly instead of moving in 8 directions.
 *
 * Priority queue. Edge weights are at least w = c_min (an orthogonal step between two cheapest cells). Dijkstra
 * with buckets of width w is exact (Dinitz 1978; the "Dial with wide buckets" argument): if u and v share bucket
 * k = ⌊d/w⌋ then d_u + cost(u, v) ≥ d_u + w ≥ (k+1)·w > d_v, so no cell of the current bucket can improve another
 * and the whole bucket may be settled in any order. Buckets are array stacks with lazy deletion (an improved cell is
 * pushed again; stale copies are skipped), kept in a ring of B ≥ ⌈√2·c_max / c_min⌉ + 2 slots since a relaxation
 * reaches at most √2·c_max/w buckets ahead. The solve is O(cells + distance range / w) with no heap. The ring size
 * bounds the cost ratio: c_max / c_min must be ≤ MAX_FLOW_COST_RATIO.
 *
 * Two solvers share that argument: solveUniform for grids whose walkable cells all cost the same (the common case,
 * and the 1024² benchmark; buckets of width 1 in units of the cell cost, three live buckets, the grid's own arrays,
 * no padded copy) and solveGeneral for terrain costs (the padded ring of B buckets below).
 *
 * Performance notes (1024 × 1024, 20% random obstacles, loaded shared machine, 2026-11): first version, intrusive
 * doubly-linked buckets (O(1) decrease-key) with bounds checks and x/y divisions per cell, ~100 ms; the same on a
 * padded grid ~75 ms; array-stack buckets ~72 ms; one distance test per neighbour (blocked = −1, settled checked
 * only at pop) ~58 ms CPU, later ~48 ms. The uniform solver (see solveUniform for what was tried) ~38 ms CPU side by
 * side with 48 for the padded one. Time per settled cell grows by ~60% from a 256² grid (fits in L2) to 1024², so
 * the memory touched per cell matters as much as the branches. Second round (faster passes, move masks kept per
 * grid version, look-ahead loads; see solveUniform): ~1.17× less CPU on an unchanged grid, ~1.1× after an edit.
 */
import { InvalidArgumentError } from '../core/errors';
import { requireInteger } from '../core/validate';
import { type Grid, refreshCostStats, requireGridCell } from './grid';

/** Largest c_max / c_min a flow field accepts (sizes the bucket ring; see header). */
export const MAX_FLOW_COST_RATIO = 10000;

export interface FlowFieldOptions {
  /** 4 or 8 neighbours. @default 8 */
  connectivity?: 4 | 8;
  /** Same meaning as in findPath. @default false */
  cornerCutting?: boolean;
}

export interface FlowField {
  readonly width: number;
  readonly height: number;
  /** The grid this field was built from, and its version at build time. */
  grid: Grid;
  gridVersion: number;
  /** Goal cell indices (walkable ones only), ascending. */
  goals: Int32Array;
  goalCount: number;
  connectivity: 4 | 8;
  cornerCutting: boolean;
  /** Cost to the nearest goal per cell; Infinity = blocked or unreachable. */
  integration: Float64Array;
  /** Next cell towards the goal (the Dijkstra predecessor); −1 at goals and unreachable cells. */
  next: Int32Array;
  /** Unit direction towards the goal per cell (cells per cell, i.e. also world units per world unit). */
  dirX: Float32Array;
  dirY: Float32Array;
  /** Number of cells with a finite integration value (goals included). */
  reachableCount: number;
}

// Scratch for the solve, module-wide and grown on demand (the solve is not re-entrant). The solve works on a copy of
// the grid padded with one ring of blocked cells, (w+2) × (h+2), so neighbour tests need no bounds checks and no
// division to recover x and y; results are copied back to the unpadded field at the end.
//
// Branch economy (the sweep is bound by unpredictable branches, not memory): a blocked cell's distance is −1, so
// the single test `nd < dist[m]` rejects blocked cells, settled cells (their distance is final, ≤ nd) and
// non-improvements at once; the settled flag is consulted only when a cell is popped. Tried first: a per-neighbour
// state byte (unseen/queued/settled/blocked) checked before the distance: ~30% more CPU time on 1024², 2026-11.
// Floating-point note: two optimal routes summed in different orders can differ by an ulp, so a settled cell may
// still be "improved" by an ulp; it is then re-pushed but skipped as settled when popped (no re-expansion).
let _ffDist = new Float64Array(0);
let _ffDone = new Uint8Array(0);
let _ffWalk = new Uint8Array(0); // padded walkable flags, 0/1
let _ffPred = new Uint8Array(0); // direction code from the cell to its predecessor (see CODE_DX/DY)
let _ffCost = new Float64Array(0);
// Ring of bucket stacks: _ffBucket[slot] holds padded cell indices, _ffLen[slot] how many. Grown by doubling.
let _ffBucket: Int32Array[] = [];
let _ffLen = new Int32Array(0);
let _ffInvW = 1;
let _ffMask = 0;
let _ffCur = 0;

// Predecessor direction codes: (dx, dy) from a cell to the neighbour it came from.
// Codes 0–7 are moves; NO_PRED (8): walkable without predecessor (goal or unreachable); BLOCKED_CODE (9).
const CODE_DX = [1, -1, 0, 0, 1, -1, 1, -1, 0, 0, 0];
const CODE_DY = [0, 0, 1, -1, 1, 1, -1, -1, 0, 0, 0];
const NO_PRED = 8;
const BLOCKED_CODE = 9;
const GOAL_CODE = 10; // uniform solver only: a goal (no predecessor, but reached)
// Branch-free tables indexed by code or by the 0/1 walkable flag (random obstacles make these branches
// unpredictable): initial distance and code by flag; unit direction, next-cell mask and integration offset by code.
const INIT_DIST = new Float64Array([-1, Infinity]);
const INIT_CODE = new Uint8Array([BLOCKED_CODE, NO_PRED]);
const CODE_UX = new Float32Array(11);
const CODE_UY = new Float32Array(11);
const CODE_NEXT_MASK = new Int32Array(11);
const CODE_INTEG_ADD = new Float64Array(11);
for (let k = 0; k < 11; k++) {
  const s = k < 4 ? 1 : k < 8 ? Math.SQRT1_2 : 0;
  CODE_UX[k] = CODE_DX[k] * s;
  CODE_UY[k] = CODE_DY[k] * s;
  CODE_NEXT_MASK[k] = k < 8 ? -1 : 0;
  CODE_INTEG_ADD[k] = k === BLOCKED_CODE ? Infinity : 0; // −1 + ∞ = ∞ for blocked cells
}
const _ffNextAdd = new Int32Array(11);
// Padded goal cells of the current solve.
let _ffSeeds = new Int32Array(16);
// The uniform solver's ring: 4 bucket slots of _uCap entries each, slot s at [s·_uCap, (s+1)·_uCap).
let _uQ = new Int32Array(0);
let _uCap = 0;
const _uTails = new Int32Array(2);
const _uSink = new Int32Array(1); // keeps settleUniform's look-ahead loads alive
const PF = 8; // settleUniform's look-ahead distance, in pops (4 to 16 measured alike)
const U_CHUNK = 4096;
const U_MIN_CAP = 16 * U_CHUNK;
// Per cell i: st[2i] its move mask, zeroed once settled (see solveUniform); st[2i + 1] its direction code (CODE_DX/DY;
// NO_PRED while never reached, GOAL_CODE at goals). Interleaved: a cell's mask and code share a cache line.
let _uState = new Uint8Array(0);
// The same bytes seen as one 16-bit word per cell (mask and code together: one store per cell in buildMoveMasks) and
// as 32-bit words of two cells (one load per two cells in writeDirections). Allocated for an even cell count.
let _uState16 = new Uint16Array(0);
let _uState32 = new Int32Array(0);
// Byte order: where the mask and code bytes sit in those words (little-endian: mask | code << 8, and the second
// cell's code in bits 24–31), so the passes are right on either platform.
const ST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const ST16_MASK_SHIFT = ST_LITTLE ? 0 : 8;
const ST16_CODE_SHIFT = ST_LITTLE ? 8 : 0;
const ST32_CODE0_SHIFT = ST_LITTLE ? 8 : 16;
const ST32_CODE1_SHIFT = ST_LITTLE ? 24 : 0;
let _uZero = new Uint8Array(0); // a row of blocked cells beyond the grid's top and bottom edges
// buildMoveMasks' word path: the zero row and a row of column codes as 32-bit words, and an Int32 view of the grid's
// walkable flags (kept while the grid's array stays the same).
let _uZero32 = new Int32Array(0);
let _uCols = new Uint8Array(0);
let _uCols32 = new Int32Array(0);
let _walk32: Int32Array<ArrayBufferLike> = new Int32Array(0);
// Initial state words depend only on the grid's walkable flags and the move rule, not on the goals: they are kept per
// grid (and per rule: 4-connected, 8-connected, 8 with corner cutting) for the grid version they were built from, so
// further fields on an unchanged grid copy 2 bytes per cell instead of rebuilding them. The arrays are allocated
// once per grid and rule and rebuilt in place after an edit; the WeakMap lets them go with the grid.
interface StateWordCache {
  n: number;
  words: (Uint16Array | null)[];
  version: Float64Array;
}
const _stateWordCache = new WeakMap<Grid, StateWordCache>();
// Move mask of a cell from its 3 × 3 neighbourhood: index bits 0–2 the column to the left (above, same row, below),
// 3–5 the cell's own column, 6–8 the column to the right, 1 = walkable. Mask bit k: the step with direction code k
// (destination c − (CODE_DY[k]·w + CODE_DX[k])) is allowed: 0 left, 1 right, 2 up, 3 down, 4 up-left, 5 up-right,
// 6 down-left, 7 down-right. Diagonals need both orthogonal cells they pass (or one, with corner cutting).
function moveMaskTable(diagonals: boolean, cut: boolean): Uint8Array {
  const t = new Uint8Array(512);
  for (let i = 0; i < 512; i++) {
    const b = (k: number): number => (i >> k) & 1;
    const ul = b(0), l = b(1), dl = b(2), u = b(3), self = b(4), d = b(5), ur = b(6), r = b(7), dr = b(8);
    let mk = l | (r << 1) | (u << 2) | (d << 3);
    if (diagonals) {
      const corner = (p: number, q: number): number => (cut ? p | q : p & q);
      mk |= ((ul & corner(l, u)) << 4) | ((ur & corner(r, u)) << 5) | ((dl & corner(l, d)) << 6) | ((dr & corner(r, d)) << 7);
    }
    t[i] = self === 1 ? mk : 0;
  }
  return t;
}
// The initial 16-bit state word of a cell by its 3 × 3 neighbourhood: its move mask, and code NO_PRED.
function stateWordTable(diagonals: boolean, cut: boolean): Uint16Array {
  const masks = moveMaskTable(diagonals, cut);
  const t = new Uint16Array(512);
  for (let i = 0; i < 512; i++) t[i] = (masks[i] << ST16_MASK_SHIFT) | (NO_PRED << ST16_CODE_SHIFT);
  return t;
}
const STATE_TABLE_4 = stateWordTable(false, false);
const STATE_TABLE_8 = stateWordTable(true, false);
const STATE_TABLE_8_CUT = stateWordTable(true, true);
// writeDirections' tables. Per code k: the next-cell mask and offset (next = (cell & mask) + offset; the offsets
// depend on the grid width and are refreshed per solve). Per pair of codes (k0 << 4 | k1): the unit directions of two
// neighbouring cells as one Float64 whose 8 bytes are the two Float32 values in memory order, so one 8-byte store
// writes dirX[o] and dirX[o + 1] (a memory image, right whatever the byte order; none of these bit patterns is a NaN,
// so the double is moved unchanged).
const _dirNext = new Int32Array(2 * 16);
const DIR_PAIR_X = new Float64Array(256);
const DIR_PAIR_Y = new Float64Array(256);
{
  const fx = new Float32Array(DIR_PAIR_X.buffer), fy = new Float32Array(DIR_PAIR_Y.buffer);
  for (let k0 = 0; k0 < 11; k0++) {
    for (let k1 = 0; k1 < 11; k1++) {
      const i = (k0 << 4) | k1;
      fx[2 * i] = CODE_UX[k0];
      fx[2 * i + 1] = CODE_UX[k1];
      fy[2 * i] = CODE_UY[k0];
      fy[2 * i + 1] = CODE_UY[k1];
    }
  }
}
// Float64 views of the field's dirX / dirY (pairs of cells), kept while the field's arrays stay the same (no
// allocation per solve).
let _dirX64: Float64Array<ArrayBufferLike> = new Float64Array(0);
let _dirY64: Float64Array<ArrayBufferLike> = new Float64Array(0);

function ensureScratch(n: number, buckets: number, needCost: boolean): void {
  if (_ffDist.length < n) {
    _ffDist = new Float64Array(n);
    _ffDone = new Uint8Array(n);
    _ffWalk = new Uint8Array(n);
    _ffPred = new Uint8Array(n);
  }
  if (needCost && _ffCost.length < n) _ffCost = new Float64Array(n);
  while (_ffBucket.length < buckets) _ffBucket.push(new Int32Array(1024));
  if (_ffLen.length < buckets) _ffLen = new Int32Array(buckets);
}

/**
 * Offer padded cell m the distance nd, coming from the neighbour in direction `code`, while settling bucket
 * _ffCur. Returns the number of bucket entries pushed (0 or 1).
 */
function relaxCell(m: number, nd: number, code: number): number {
  if (!(nd < _ffDist[m])) return 0;
  let b = Math.floor(nd * _ffInvW);
  if (b <= _ffCur) b = _ffCur + 1; // rounding guard: a relaxation always lands in a later bucket (see header)
  _ffDist[m] = nd;
  _ffPred[m] = code;
  const sl = b & _ffMask;
  let bk = _ffBucket[sl];
  if (_ffLen[sl] === bk.length) bk = growBucket(sl);
  bk[_ffLen[sl]++] = m;
  return 1;
}

function growBucket(slot: number): Int32Array {
  const old = _ffBucket[slot];
  const grown = new Int32Array(old.length * 2);
  grown.set(old);
  _ffBucket[slot] = grown;
  return grown;
}

function validateOptions(options: FlowFieldOptions): { connectivity: 4 | 8; cornerCutting: boolean } {
  const connectivity = options.connectivity ?? 8;
  if (connectivity !== 4 && connectivity !== 8) throw new InvalidArgumentError('options.connectivity', connectivity, 'must be 4 or 8');
  const cornerCutting = options.cornerCutting ?? false;
  if (typeof cornerCutting !== 'boolean') throw new InvalidArgumentError('options.cornerCutting', cornerCutting, 'must be a boolean');
  return { connectivity, cornerCutting };
}

type CellLike = { readonly x: number; readonly y: number };

function goalIndices(grid: Grid, goals: CellLike | readonly CellLike[]): number[] {
  const list: readonly CellLike[] = Array.isArray(goals) ? goals : [goals as CellLike];
  if (list.length === 0) throw new InvalidArgumentError('goals', goals, 'must name at least one cell');
  const idx: number[] = [];
  for (let i = 0; i < list.length; i++) idx.push(requireGridCell(grid, `goals[${i}]`, list[i]));
  idx.sort((a, b) => a - b);
  const out: number[] = [];
  for (let i = 0; i < idx.length; i++) if (i === 0 || idx[i] !== idx[i - 1]) out.push(idx[i]);
  return out;
}

function allocField(grid: Grid): FlowField {
  const n = grid.width * grid.height;
  return {
    width: grid.width,
    height: grid.height,
    grid,
    gridVersion: -1,
    goals: new Int32Array(0),
    goalCount: 0,
    connectivity: 8,
    cornerCutting: false,
    integration: new Float64Array(n),
    next: new Int32Array(n),
    dirX: new Float32Array(n),
    dirY: new Float32Array(n),
    reachableCount: 0,
  };
}

/**
 * Build (or rebuild into `out`, if it has the grid's size) the integration and direction fields towards one goal
 * cell or the nearest of several. Blocked goal cells are ignored; if none is walkable every cell is unreachable.
 */
export function buildFlowField(grid: Grid, goals: CellLike | readonly CellLike[], options: FlowFieldOptions = {}, out?: FlowField): FlowField {
  if (grid === null || typeof grid !== 'object' || !(grid.walkable instanceof Uint8Array)) {
    throw new InvalidArgumentError('grid', grid, 'must be a Grid');
  }
  const opts = validateOptions(options);
  const goalList = goalIndices(grid, goals);
  const field = out !== undefined && out.width === grid.width && out.height === grid.height ? out : allocField(grid);
  field.grid = grid;
  field.connectivity = opts.connectivity;
  field.cornerCutting = opts.cornerCutting;
  if (field.goals.length < goalList.length) field.goals = new Int32Array(goalList.length);
  field.goalCount = goalList.length;
  for (let i = 0; i < goalList.length; i++) field.goals[i] = goalList[i];
  solveFlowField(field);
  return field;
}

/** Recompute `field` in place against its grid's current contents (same goals and options). */
export function rebuildFlowField(field: FlowField): void {
  solveFlowField(field);
}

const SQRT2 = Math.SQRT2;

function solveFlowField(field: FlowField): void {
  const grid = field.grid;
  refreshCostStats(grid);
  const w = grid.width;
  const h = grid.height;
  const walk = grid.walkable;
  const cost = grid.cost;
  const minC = grid.minCost;
  const ratio = grid.maxCost / minC;
  if (ratio > MAX_FLOW_COST_RATIO) {
    throw new InvalidArgumentError('grid.cost', `${grid.minCost}..${grid.maxCost}`, `flow fields need max/min cell cost ≤ ${MAX_FLOW_COST_RATIO}`);
  }
  const uniform = grid.maxCost === minC;
  // Ring size of the general solver: a power of two ≥ ⌈√2·ratio⌉ + 2, so slot = bucket & (B − 1).
  let B = 4;
  while (B < Math.ceil(SQRT2 * ratio) + 2) B *= 2;
  const diagonals = field.connectivity === 8;
  const cut = field.cornerCutting;
  if (uniform) {
    solveUniform(field, minC, diagonals, cut);
    field.gridVersion = grid.version;
    return;
  }
  const W = w + 2;
  const P = W * (h + 2);
  ensureScratch(P, B, true);
  const dist = _ffDist, done = _ffDone, pred = _ffPred, pw = _ffWalk;
  const pcost = _ffCost;

  // Padded copy: border and blocked cells −1, walkable cells +∞.
  dist.fill(-1, 0, W);
  dist.fill(-1, P - W, P);
  pw.fill(0, 0, W);
  pw.fill(0, P - W, P);
  for (let y = 0; y < h; y++) {
    const row = (y + 1) * W;
    dist[row] = -1;
    dist[row + W - 1] = -1;
    pw[row] = 0;
    pw[row + W - 1] = 0;
    for (let x = 0, o = y * w, p = row + 1; x < w; x++, o++, p++) {
      const wk = walk[o];
      pw[p] = wk;
      dist[p] = INIT_DIST[wk];
      pred[p] = INIT_CODE[wk];
      pcost[p] = cost[o];
    }
  }
  done.fill(0, 0, P);

  // Goal cells (padded indices) at distance 0; blocked goals and duplicates are skipped.
  if (_ffSeeds.length < field.goalCount) _ffSeeds = new Int32Array(field.goalCount);
  let seedCount = 0;
  for (let i = 0; i < field.goalCount; i++) {
    const gcell = field.goals[i];
    const gx = gcell % w;
    const p = ((gcell - gx) / w + 1) * W + gx + 1;
    if (dist[p] !== Infinity) continue; // blocked (or a duplicate)
    dist[p] = 0;
    _ffSeeds[seedCount++] = p;
  }

  field.reachableCount = solveGeneral(W, B, minC, seedCount, diagonals, cut);

  // Copy back: integration (+∞ for blocked and unreachable), next cell and unit direction from the direction code.
  const integ = field.integration, next = field.next, dirX = field.dirX, dirY = field.dirY;
  const nextAdd = _ffNextAdd;
  for (let k = 0; k < 11; k++) nextAdd[k] = k < 8 ? CODE_DY[k] * w + CODE_DX[k] : -1;
  for (let y = 0; y < h; y++) {
    for (let x = 0, o = y * w, p = (y + 1) * W + 1; x < w; x++, o++, p++) {
      const k = pred[p];
      integ[o] = dist[p] + CODE_INTEG_ADD[k];
      next[o] = (o & CODE_NEXT_MASK[k]) + nextAdd[k];
      dirX[o] = CODE_UX[k];
      dirY[o] = CODE_UY[k];
    }
  }
  field.gridVersion = grid.version;
}

/**
 * General costs: buckets of width w = c_min in a ring of B array stacks (see header). Returns the number of
 * settled (reachable) cells.
 */
function solveGeneral(W: number, B: number, minC: number, seedCount: number, diagonals: boolean, cut: boolean): number {
  const dist = _ffDist, done = _ffDone, pw = _ffWalk, buckets = _ffBucket, lens = _ffLen, pcost = _ffCost;
  const mask = B - 1;
  lens.fill(0, 0, B);
  _ffInvW = 1 / minC;
  _ffMask = mask;
  let pending = 0; // bucket entries not yet popped
  for (let i = 0; i < seedCount; i++) {
    let bk = buckets[0];
    if (lens[0] === bk.length) bk = growBucket(0);
    bk[lens[0]++] = _ffSeeds[i];
    pending++;
  }
  // Buckets hold cells lazily: a cell improved again is pushed again and its older copies are skipped when popped.
  let reachable = 0;
  let cur = 0;
  const hO = 0.5, hD = 0.5 * SQRT2;
  while (pending > 0) {
    const slot = cur & mask;
    const bucket = buckets[slot];
    const len = lens[slot];
    _ffCur = cur;
    pending -= len;
    for (let e = 0; e < len; e++) {
      const c = bucket[e];
      if (done[c] === 1) continue; // older copy of a settled cell
      done[c] = 1;
      reachable++;
      const dc = dist[c];
      const cc = pcost[c];
      // Orthogonal steps (length 1), then diagonal steps (length √2) under the corner rule (both orthogonal cells
      // walkable, or one with corner cutting). Direction codes: see CODE_DX/DY. Blocked neighbours fail inside
      // relaxCell (distance −1), whatever their pcost.
      pending += relaxCell(c - 1, dc + hO * (cc + pcost[c - 1]), 0) + relaxCell(c + 1, dc + hO * (cc + pcost[c + 1]), 1)
        + relaxCell(c - W, dc + hO * (cc + pcost[c - W]), 2) + relaxCell(c + W, dc + hO * (cc + pcost[c + W]), 3);
      if (diagonals) {
        const l = pw[c - 1], r = pw[c + 1], u = pw[c - W], d = pw[c + W];
        if (cut ? l | u : l & u) pending += relaxCell(c - W - 1, dc + hD * (cc + pcost[c - W - 1]), 4);
        if (cut ? r | u : r & u) pending += relaxCell(c - W + 1, dc + hD * (cc + pcost[c - W + 1]), 5);
        if (cut ? l | d : l & d) pending += relaxCell(c + W - 1, dc + hD * (cc + pcost[c + W - 1]), 6);
        if (cut ? r | d : r & d) pending += relaxCell(c + W + 1, dc + hD * (cc + pcost[c + W + 1]), 7);
      }
    }
    lens[slot] = 0;
    cur++;
  }
  return reachable;
}

/**
 * Uniform costs (every walkable cell costs c_min): the common case, solved straight into the field's arrays.
 *
 * Distances are measured in units of c_min (an orthogonal step is 1, a diagonal one √2; scaled back at the end
 * when c_min ≠ 1), so buckets have width 1. Bucket k holds keys d with k ≤ d ≤ k + 1 (closed on the right).
 * Exactness (Dial 1969 with buckets as wide as the shortest edge; Dinitz 1978): let v be popped from bucket k with
 * key d_v ≤ k + 1 and suppose a shorter path exists. Its first unsettled cell u has its exact distance as key (its
 * predecessor on the path is settled and relaxed it), and d_u ≤ true(v) < d_v ≤ k + 1, so u sits in a bucket
 * ≤ d_u < k + 1, i.e. in bucket k itself (lower buckets are fully settled), with d_u ≥ k. The rest of the path has
 * at least one step (u ≠ v) of cost ≥ 1, so true(v) ≥ d_u + 1 ≥ k + 1 ≥ d_v: a contradiction. So every cell of
 * bucket k is final, whatever order its cells are popped in.
 *
 * Where relaxations land, from a cell c of bucket k (k ≤ d_c ≤ k + 1): an orthogonal key fl(d_c + 1) lies in
 * [k + 1, k + 2] (rounding is monotone and k + 1, k + 2 are exact doubles), so always bucket k + 1. A diagonal key
 * fl(d_c + √2) lies in [k + 1, k + 3]: bucket k + 1 if it is ≤ k + 2, else k + 2. Every diagonal key from c is the
 * same, so that choice is made once per popped cell (as a 0/1 integer selecting the tail pointer, no branch).
 * Three live buckets: a ring of 4 slots, one flat Int32Array.
 *
 * Layout. The grid is not copied: a move mask per cell (bit k: the step with direction code k, see CODE_DX/DY,
 * from this cell stays on the grid, lands on a walkable cell and passes the corner rule) is built in one streaming
 * pass (or copied from the grid's cache of them, see initialStateWords), and the solve writes the field's
 * integration array and a direction code per cell at each improvement (about 1.04 improvements per settled cell on
 * random obstacles), so there is no padded distance array and no copy-back pass; one streaming pass at the end turns
 * the codes into next, dirX and dirY. A step the mask forbids is redirected to the cell itself
 * (m = c + (offset & −bit)), which never improves (d_c + step > d_c), so the only data-dependent branch left per
 * neighbour is the improvement test itself, which
 * reads the neighbour's code byte first: NO_PRED means never reached (distance +∞), an improvement without loading
 * the distance (goals carry GOAL_CODE instead, which the final pass treats as NO_PRED). The
 * mask doubles as the settled flag: it is zeroed when the cell is settled, so stale entries (a cell improved again
 * after it was pushed, ~4% of pops) are skipped. A cell reached through a move has a nonzero mask (moves are
 * symmetric: same endpoints, same corner cells), so only an isolated goal has mask 0 before settling; goals are
 * counted at seeding for that reason.
 *
 * Measured side by side (1024², 20% random obstacles, CPU ms per build, median, loaded shared 2-core machine,
 * 2026-11-29), each step against the previous solver (padded copy, one bucket ring for all costs, direction codes,
 * copy-back pass) at 48–51 in the same run:
 *   - branch-free relaxation on the padded layout (imp = +(nd < d) as a 0/1 integer, key and code written to a sink
 *     index when imp = 0, tail advanced by imp): 47–52, no gain (V8 spilled registers and kept every bounds check;
 *     ~25 instructions per neighbour instead of ~10 plus mispredictions);
 *   - this unpadded layout writing next/dirX/dirY at each improvement: 45.7; direction codes during the solve and
 *     one streaming pass for next/dirX/dirY afterwards: 44; move masks from the 512-entry table: 41.7; mask and
 *     code interleaved in one array: 38.8; a never-reached neighbour recognised by its code byte (NO_PRED; goals get
 *     GOAL_CODE) before its distance is read: 37.0 vs 40.2 (the first visit of a cell ahead of the front no longer
 *     waits for a cold line of the 8-byte distance array, only for the 4× denser state array);
 *   - the same solver on a padded distance copy (no mask bit needed for orthogonal steps, a copy-back pass): 43,
 *     slower: the extra 8 MB array costs more than the saved instructions;
 *   - sorting each bucket by cell index (TypedArray sort) before settling it: 60, and the settle itself got slower
 *     (row-major order breaks the locality of the ring order in which cells were pushed);
 *   - a software "prefetch" (reading the rows above and below the cell 8 or 40 entries ahead into a dummy sum):
 *     no change (38.6 vs 38.6);
 *   - dropping dominated steps (after a move p → c, steps to cells that p reaches strictly cheaper lie on no shortest
 *     path: what is left are jump point search's natural and forced neighbours, ~3.5 of 8; integration stayed
 *     bit-identical, all tests passed): through a [code, mask] table with the redirect-to-self trick 39.5 vs 37.1,
 *     with a branch per kept step 38.0 vs 38.1. The dropped tests were the cheap ones (cells behind the front:
 *     cached lines, predictable outcomes); the cost is in the tests ahead of the front. Not kept;
 *   - also skipping settled neighbours by their mask byte before anything else: 44.9 vs 36.8 (one more
 *     unpredictable branch per neighbour costs more than the warm distance load it saves).
 * Phases of one build (wall ms, same machine): masks 3.4, fill 0.3, bucket sweep 29.8, next/direction pass 3.8.
 *
 * Second round (issue #3's missed 30 ms target; CPU ms per build, side by side with a frozen copy of the solver
 * above, bit-identical fields throughout, loaded shared machine, 2026-11-29), against ~35.5 ms idle before:
 *   - the streaming passes: one 16-bit state word per cell (mask and NO_PRED from one table), four cells per
 *     iteration (TurboFan re-checks every array once per loop iteration, so unrolling amortises it), rows of whole
 *     32-bit words built from column codes four cells per operation; the direction pass reading two cells per 32-bit
 *     load and writing both cells' directions with one 8-byte store, four cells per iteration: masks 3.6 → 2.1,
 *     directions 4.0 → 2.1;
 *   - the state words kept per grid and move rule for the grid version they came from (initialStateWords): on an
 *     unchanged grid a build copies 2 bytes per cell instead of rebuilding them, 2.1 → 0.15;
 *   - the look-ahead loads in settleUniform: 2–3 %. A perf profile (cpu-clock samples on V8's jitdump) put the
 *     sweep's stalls on the popped cell's mask load and its vertical neighbours' code loads (~20 % of samples); with
 *     the look-ahead they move onto the look-ahead loads, and ordinary loads, unlike prefetches, still hold up
 *     retirement, so most of the latency remains. Also loading the distance lines ahead: 0.82× (cold lines).
 * Tried and dropped in that round: the settle loop rewritten with int32 locals and literal constants, one function
 * per connectivity (no change: the tagged-parameter checks it removed were off the critical path); all eight tests
 * made branch-free into a bit set (setcc), then a loop over its bits for the writes: 45.9 vs 38.4; the loop
 * duplicated per arrival direction (a switch on the popped cell's code, so each copy's branches see a more biased
 * history): 42.6 vs 37.0; the popped cell's mask carried in a byte queue beside q, off the dependent-load chain:
 * ±0 (−10 % natively); 16-bit state-word reads in the settle loop: ±0.
 * The same sweep compiled natively (gcc -O2, same machine) takes ~22 ms against V8's ~29: the algorithm, not the
 * JIT, sets the cost: ~1.5 mispredicted first-reach tests per settled cell (0 % obstacles: 11.6 ns per cell, 20 %:
 * 20.5, in cache) and cache misses on the front. Natively, too, nothing tried moves it much: branch-free relaxation
 * (writes to a sink) +15–25 %; a loop over only the unsettled allowed neighbours (each cell clearing its bit in its
 * neighbours' masks) ±0; arrival-relative test order +20 %; exact Dijkstra by merging two FIFOs (orthogonal and
 * diagonal relaxations, first reach final, no distance compares) ±0, with a branch-free merge +30 %; 8×8 to 32×32
 * tiled layouts −5 %; true prefetch instructions −15 %.
 */
function solveUniform(field: FlowField, minC: number, diagonals: boolean, cut: boolean): void {
  const grid = field.grid;
  const w = grid.width, h = grid.height, n = w * h;
  const walk = grid.walkable;
  const integ = field.integration, next = field.next, dirX = field.dirX, dirY = field.dirY;
  fillInf(integ);
  if (_uState.length < 2 * n) {
    _uState = new Uint8Array(2 * (n + (n & 1)));
    _uState16 = new Uint16Array(_uState.buffer);
    _uState32 = new Int32Array(_uState.buffer);
  }
  const st = _uState;
  initialStateWords(grid, diagonals, cut, _uState16);

  let cap = _uCap;
  const need = Math.max(U_MIN_CAP, field.goalCount + 16);
  if (cap < need) {
    cap = need;
    _uQ = new Int32Array(4 * cap);
    _uCap = cap;
  }
  let q = _uQ;
  let reachable = 0;
  let len0 = 0;
  for (let i = 0; i < field.goalCount; i++) {
    const g = field.goals[i];
    if (walk[g] !== 1 || integ[g] === 0) continue; // blocked (or a duplicate)
    integ[g] = 0;
    st[2 * g + 1] = GOAL_CODE;
    q[len0++] = g;
    if (st[2 * g] === 0) reachable++; // an isolated goal: skipped when popped, reachable all the same
  }
  let len1 = 0; // entries in the slots of buckets cur and cur + 1 (cur + 2 is empty between buckets)
  let cur = 0;
  const tails = _uTails;
  while (len0 + len1 > 0) {
    tails[0] = ((cur + 1) & 3) * cap + len1;
    tails[1] = ((cur + 2) & 3) * cap;
    // In chunks of U_CHUNK pops, so the ring always has room for every push of a chunk (≤ 8 per pop, 4 of them
    // diagonal) and the hot loop needs no capacity test.
    for (let off = 0; off < len0; off += U_CHUNK) {
      const used1 = tails[0] - ((cur + 1) & 3) * cap, used2 = tails[1] - ((cur + 2) & 3) * cap;
      if (used1 + 8 * U_CHUNK > cap || used2 + 4 * U_CHUNK > cap) {
        // Grow the ring: double every slot, keeping offsets within slots.
        const nc = cap * 2;
        const nq = new Int32Array(4 * nc);
        for (let sl = 0; sl < 4; sl++) nq.set(q.subarray(sl * cap, sl * cap + cap), sl * nc);
        q = nq; cap = nc; _uQ = nq; _uCap = nc;
        tails[0] = ((cur + 1) & 3) * cap + used1;
        tails[1] = ((cur + 2) & 3) * cap + used2;
      }
      const s0 = (cur & 3) * cap;
      reachable += settleUniform(q, s0 + off, s0 + Math.min(len0, off + U_CHUNK), cur, w, diagonals, st, integ);
    }
    len0 = tails[0] - ((cur + 1) & 3) * cap;
    len1 = tails[1] - ((cur + 2) & 3) * cap;
    cur++;
  }
  if (minC !== 1) for (let i = 0; i < n; i++) integ[i] *= minC; // back to cost units (∞ stays ∞)
  field.reachableCount = reachable;
  writeDirections(w, n, next, dirX, dirY);
}

/** Write the grid's initial state words (see _stateWordCache) into st16[0..w·h), from the cache when current. */
function initialStateWords(grid: Grid, diagonals: boolean, cut: boolean, st16: Uint16Array): void {
  const n = grid.width * grid.height;
  const rule = !diagonals ? 0 : cut ? 2 : 1;
  let entry = _stateWordCache.get(grid);
  if (entry === undefined || entry.n !== n) {
    entry = { n, words: [null, null, null], version: new Float64Array([-1, -1, -1]) };
    _stateWordCache.set(grid, entry);
  }
  let words = entry.words[rule];
  if (words === null) {
    words = new Uint16Array(n);
    entry.words[rule] = words;
  }
  if (entry.version[rule] !== grid.version) {
    buildMoveMasks(grid.walkable, grid.width, grid.height, diagonals, cut, words);
    entry.version[rule] = grid.version;
  }
  st16.set(words);
}

function fillInf(a: Float64Array): void {
  a.fill(Infinity);
}

/**
 * Next cell and unit direction of every cell from its direction code (NO_PRED and GOAL_CODE: −1, (0, 0)), in one
 * streaming pass over the state words: two cells per 32-bit load, and their two directions per 8-byte store.
 */
function writeDirections(w: number, n: number, next: Int32Array, dirX: Float32Array, dirY: Float32Array): void {
  const tab = _dirNext;
  for (let k = 0; k < 11; k++) {
    tab[2 * k] = CODE_NEXT_MASK[k];
    tab[2 * k + 1] = k < 8 ? CODE_DY[k] * w + CODE_DX[k] : -1;
  }
  const pairs = n >> 1;
  if ((dirX.byteOffset & 7) === 0 && (dirY.byteOffset & 7) === 0) {
    if (_dirX64.buffer !== dirX.buffer || _dirX64.byteOffset !== dirX.byteOffset || _dirX64.length !== pairs) {
      _dirX64 = new Float64Array(dirX.buffer, dirX.byteOffset, pairs);
    }
    if (_dirY64.buffer !== dirY.buffer || _dirY64.byteOffset !== dirY.byteOffset || _dirY64.length !== pairs) {
      _dirY64 = new Float64Array(dirY.buffer, dirY.byteOffset, pairs);
    }
    writeDirectionPairs(_uState32, pairs, next, _dirX64, _dirY64, tab, DIR_PAIR_X, DIR_PAIR_Y, ST32_CODE0_SHIFT, ST32_CODE1_SHIFT);
  } else {
    for (let o = 0; o < 2 * pairs; o++) writeDirectionCell(o, next, dirX, dirY, tab);
  }
  if ((n & 1) === 1) writeDirectionCell(n - 1, next, dirX, dirY, tab);
}

/** writeDirections for one cell. */
function writeDirectionCell(o: number, next: Int32Array, dirX: Float32Array, dirY: Float32Array, tab: Int32Array): void {
  const k = _uState[2 * o + 1];
  next[o] = (o & tab[2 * k]) + tab[2 * k + 1];
  dirX[o] = CODE_UX[k];
  dirY[o] = CODE_UY[k];
}

// Kept apart from writeDirections so the loop is compiled with every array a parameter (TurboFan re-checks each
// array once per iteration: two cells per iteration halve that overhead).
function writeDirectionPairs(
  st32: Int32Array, pairs: number, next: Int32Array, dx: Float64Array, dy: Float64Array, tab: Int32Array,
  pairX: Float64Array, pairY: Float64Array, sh0: number, sh1: number,
): void {
  let j = 0;
  for (; j + 2 <= pairs; j = (j + 2) | 0) {
    const s = st32[j], s2 = st32[j + 1];
    const k0 = (s >>> sh0) & 15, k1 = (s >>> sh1) & 15, k2 = (s2 >>> sh0) & 15, k3 = (s2 >>> sh1) & 15;
    const o = j << 1;
    next[o] = (o & tab[k0 << 1]) + tab[(k0 << 1) | 1];
    next[o + 1] = ((o + 1) & tab[k1 << 1]) + tab[(k1 << 1) | 1];
    next[o + 2] = ((o + 2) & tab[k2 << 1]) + tab[(k2 << 1) | 1];
    next[o + 3] = ((o + 3) & tab[k3 << 1]) + tab[(k3 << 1) | 1];
    const pk = (k0 << 4) | k1, pk2 = (k2 << 4) | k3;
    dx[j] = pairX[pk];
    dx[j + 1] = pairX[pk2];
    dy[j] = pairY[pk];
    dy[j + 1] = pairY[pk2];
  }
  for (; j < pairs; j = (j + 1) | 0) {
    const s = st32[j];
    const k0 = (s >>> sh0) & 15, k1 = (s >>> sh1) & 15;
    const o = j << 1, o1 = o | 1;
    next[o] = (o & tab[k0 << 1]) + tab[(k0 << 1) | 1];
    next[o1] = (o1 & tab[k1 << 1]) + tab[(k1 << 1) | 1];
    const pk = (k0 << 4) | k1;
    dx[j] = pairX[pk];
    dy[j] = pairY[pk];
  }
}

/**
 * Initial state words (see solveUniform and stateWordTable) of a w × h grid into st16[0..w·h): the move mask (bit k
 * set when the step with direction code k is allowed from that cell) and code NO_PRED. One streaming pass over
 * three rows of the walkable flags, with a row of zeros (blocked) standing in beyond the top and bottom edges.
 */
function buildMoveMasks(walk: Uint8Array, w: number, h: number, diagonals: boolean, cut: boolean, st16: Uint16Array): void {
  if (_uZero.length < w) {
    _uZero = new Uint8Array(w + 3 - ((w + 3) & 3));
    _uZero32 = new Int32Array(_uZero.buffer);
    _uCols = new Uint8Array(_uZero.length);
    _uCols32 = new Int32Array(_uCols.buffer);
  }
  const table = !diagonals ? STATE_TABLE_4 : cut ? STATE_TABLE_8_CUT : STATE_TABLE_8;
  if ((w & 3) === 0 && (walk.byteOffset & 3) === 0) {
    // Rows of whole 32-bit words: the column codes of a row, 4 cells per operation, then one byte per cell.
    if (_walk32.buffer !== walk.buffer || _walk32.byteOffset !== walk.byteOffset || _walk32.length !== walk.length >> 2) {
      _walk32 = new Int32Array(walk.buffer, walk.byteOffset, walk.length >> 2);
    }
    const w4 = w >> 2;
    for (let y = 0; y < h; y++) {
      columnCodes(y > 0 ? _walk32 : _uZero32, y > 0 ? (y - 1) * w4 : 0, _walk32, y * w4, y < h - 1 ? _walk32 : _uZero32, y < h - 1 ? (y + 1) * w4 : 0, w4, _uCols32);
      buildMaskRowCols(_uCols, y * w, w, table, st16);
    }
    return;
  }
  for (let y = 0; y < h; y++) {
    buildMaskRow(y > 0 ? walk : _uZero, y > 0 ? (y - 1) * w : 0, walk, y * w, y < h - 1 ? walk : _uZero, y < h - 1 ? (y + 1) * w : 0, w, table, st16);
  }
}

/**
 * Column codes (above | centre << 1 | below << 2) of one row, four cells per 32-bit operation: the walkable flags
 * are 0 or 1, so each byte's code stays within its byte.
 */
function columnCodes(up: Int32Array, ou: number, mid: Int32Array, om: number, dn: Int32Array, od: number, w4: number, cols: Int32Array): void {
  for (let j = 0; j < w4; j = (j + 1) | 0) cols[j] = up[ou + j] | (mid[om + j] << 1) | (dn[od + j] << 2);
}

/** buildMaskRow from precomputed column codes cols[0..w). */
function buildMaskRowCols(cols: Uint8Array, om: number, w: number, table: Uint16Array, st16: Uint16Array): void {
  const last = (w - 1) | 0;
  let win = cols[0] << 3; // the column left of the grid: blocked
  let x = 0;
  for (; x + 4 <= last; x = (x + 4) | 0) {
    win |= cols[x + 1] << 6;
    st16[om + x] = table[win];
    win = (win >> 3) | (cols[x + 2] << 6);
    st16[om + x + 1] = table[win];
    win = (win >> 3) | (cols[x + 3] << 6);
    st16[om + x + 2] = table[win];
    win = (win >> 3) | (cols[x + 4] << 6);
    st16[om + x + 3] = table[win];
    win >>= 3;
  }
  for (; x < last; x = (x + 1) | 0) {
    win |= cols[x + 1] << 6;
    st16[om + x] = table[win];
    win >>= 3;
  }
  st16[om + last] = table[win]; // the last column: nothing to its right
}

/**
 * One row of buildMoveMasks: a sliding 3 × 3 window whose 9 bits index `table`. A column is
 * (above | centre << 1 | below << 2) and the window (left | centre << 3 | right << 6), so stepping right is a shift
 * by 3. Four cells per iteration (TurboFan re-checks each array once per iteration).
 */
function buildMaskRow(
  up: Uint8Array, ou: number, mid: Uint8Array, om: number, dn: Uint8Array, od: number, w: number, table: Uint16Array, st16: Uint16Array,
): void {
  const last = (w - 1) | 0;
  let win = (up[ou] | (mid[om] << 1) | (dn[od] << 2)) << 3; // the column left of the grid: blocked
  let x = 0;
  for (; x + 4 <= last; x = (x + 4) | 0) {
    const a = (x + 1) | 0, b = (x + 2) | 0, c = (x + 3) | 0, d = (x + 4) | 0;
    win |= (up[ou + a] | (mid[om + a] << 1) | (dn[od + a] << 2)) << 6;
    st16[om + x] = table[win];
    win = (win >> 3) | ((up[ou + b] | (mid[om + b] << 1) | (dn[od + b] << 2)) << 6);
    st16[om + a] = table[win];
    win = (win >> 3) | ((up[ou + c] | (mid[om + c] << 1) | (dn[od + c] << 2)) << 6);
    st16[om + b] = table[win];
    win = (win >> 3) | ((up[ou + d] | (mid[om + d] << 1) | (dn[od + d] << 2)) << 6);
    st16[om + c] = table[win];
    win >>= 3;
  }
  for (; x < last; x = (x + 1) | 0) {
    const a = (x + 1) | 0;
    win |= (up[ou + a] | (mid[om + a] << 1) | (dn[od + a] << 2)) << 6;
    st16[om + x] = table[win];
    win >>= 3;
  }
  st16[om + last] = table[win]; // the last column: nothing to its right
}

/**
 * Settle the entries q[from..to) of bucket `cur` (see solveUniform), appending improved neighbours at the tails
 * _uTails[0] (bucket cur + 1) and _uTails[1] (bucket cur + 2). Returns the number of cells settled.
 */
function settleUniform(
  q: Int32Array, from: number, to: number, cur: number, w: number, diagonals: boolean, st: Uint8Array, integ: Float64Array,
): number {
  let n1 = _uTails[0] | 0, n2 = _uTails[1] | 0;
  const hi = cur + 2;
  const wm = (w - 1) | 0, wp = (w + 1) | 0;
  let settled = 0;
  // Touch the state lines of the cell PF pops ahead (its row and the rows above and below) so they are in cache
  // by the time it is settled: the loads of a popped cell's mask and of its vertical neighbours' codes were the
  // sweep's main stalls (perf, 2026-11-29). JavaScript has no prefetch instruction, so these are ordinary loads into
  // a sum kept in _uSink (else they would be optimised away); ~3% less CPU side by side, same fields.
  let touch = 0;
  const lim = (st.length >> 1) | 0, W = w | 0;
  for (let e = from; e < to; e++) {
    const ea = e + PF;
    if (ea < to) {
      const cf = q[ea];
      const up = cf - W, dn = cf + W;
      touch = (touch + st[cf << 1]) | 0;
      if (up >= 0) touch = (touch + st[up << 1]) | 0;
      if (dn < lim) touch = (touch + st[dn << 1]) | 0;
    }
    const c = q[e];
    const mk = st[c << 1];
    if (mk === 0) continue; // settled already (an older copy)
    st[c << 1] = 0;
    settled++;
    const dc = integ[c];
    // Orthogonal steps → bucket cur + 1. A forbidden step becomes m = c, which never improves.
    const dO = dc + 1;
    let m = c - (mk & 1);
    if (st[(m << 1) | 1] === NO_PRED || dO < integ[m]) { integ[m] = dO; st[(m << 1) | 1] = 0; q[n1] = m; n1 = (n1 + 1) | 0; }
    m = c + ((mk >> 1) & 1);
    if (st[(m << 1) | 1] === NO_PRED || dO < integ[m]) { integ[m] = dO; st[(m << 1) | 1] = 1; q[n1] = m; n1 = (n1 + 1) | 0; }
    m = c - (w & -((mk >> 2) & 1));
    if (st[(m << 1) | 1] === NO_PRED || dO < integ[m]) { integ[m] = dO; st[(m << 1) | 1] = 2; q[n1] = m; n1 = (n1 + 1) | 0; }
    m = c + (w & -((mk >> 3) & 1));
    if (st[(m << 1) | 1] === NO_PRED || dO < integ[m]) { integ[m] = dO; st[(m << 1) | 1] = 3; q[n1] = m; n1 = (n1 + 1) | 0; }
    if (diagonals) {
      // Diagonal steps → bucket cur + 1, or cur + 2 when t = 1, appended through tail p.
      const dD = dc + SQRT2;
      const t = +(dD > hi);
      let p = n1 + ((n2 - n1) & -t);
      m = c - (wp & -((mk >> 4) & 1));
      if (st[(m << 1) | 1] === NO_PRED || dD < integ[m]) { integ[m] = dD; st[(m << 1) | 1] = 4; q[p] = m; p = (p + 1) | 0; }
      m = c - (wm & -((mk >> 5) & 1));
      if (st[(m << 1) | 1] === NO_PRED || dD < integ[m]) { integ[m] = dD; st[(m << 1) | 1] = 5; q[p] = m; p = (p + 1) | 0; }
      m = c + (wm & -((mk >> 6) & 1));
      if (st[(m << 1) | 1] === NO_PRED || dD < integ[m]) { integ[m] = dD; st[(m << 1) | 1] = 6; q[p] = m; p = (p + 1) | 0; }
      m = c + (wp & -((mk >> 7) & 1));
      if (st[(m << 1) | 1] === NO_PRED || dD < integ[m]) { integ[m] = dD; st[(m << 1) | 1] = 7; q[p] = m; p = (p + 1) | 0; }
      n1 = (n1 + ((p - n1) & (t - 1))) | 0;
      n2 = (n2 + ((p - n2) & -t)) | 0;
    }
  }
  _uTails[0] = n1;
  _uTails[1] = n2;
  _uSink[0] = touch;
  return settled;
}

// ---------------------------------------------------------------------------------------------------------------
// Sampling

/** What an agent at a sampled point should do. */
export type FlowSampleStatus = 'moving' | 'goal' | 'unreachable';

/**
 * Direction to follow at world point (wx, wy), written into `out` as a unit vector, by bilinear interpolation of
 * the four cell-centre directions around the point (cells that are blocked, unreachable or off the grid get weight
 * 0 and the blend is renormalised; if the blend cancels out, the containing cell's own direction is used).
 * Returns 'goal' (out = 0) when the point's cell is a goal cell, 'unreachable' (out = 0) when the point's cell is
 * blocked, unreachable or off the grid, else 'moving'. Allocates nothing.
 */
export function sampleFlowField(field: FlowField, wx: number, wy: number, out: { x: number; y: number }): FlowSampleStatus {
  _sampleX[0] = wx;
  _sampleY[0] = wy;
  const r = sampleFlowFieldAt(field, _sampleX, _sampleY, 0, _sampleOut);
  out.x = _sampleOut[0];
  out.y = _sampleOut[1];
  return r;
}

const _sampleX = new Float64Array(1);
const _sampleY = new Float64Array(1);
const _sampleOut = new Float64Array(2);

/**
 * sampleFlowField for the point (xs[i], ys[i]), writing the direction into out[0], out[1]: the allocation-free
 * form per-frame systems call. Passing the coordinates as arrays and an index, and returning the direction in a
 * Float64Array, keeps every double unboxed: a double passed as an argument to a call V8 does not inline, or stored
 * into an `{x, y}` object whose field representation was generalised by another use of the same shape, is boxed
 * into a fresh HeapNumber (measured 2026-11-29: ~50 bytes per sample before).
 */
export function sampleFlowFieldAt(field: FlowField, xs: Float64Array, ys: Float64Array, i: number, out: Float64Array): FlowSampleStatus {
  const wx = xs[i], wy = ys[i];
  const grid = field.grid;
  const w = field.width;
  const h = field.height;
  const inv = 1 / grid.cellSize;
  const u = (wx - grid.originX) * inv;
  const v = (wy - grid.originY) * inv;
  const cx = Math.floor(u);
  const cy = Math.floor(v);
  out[0] = 0;
  out[1] = 0;
  if (!(cx >= 0 && cy >= 0 && cx < w && cy < h)) return 'unreachable'; // also catches NaN
  const own = cy * w + cx;
  const integ = field.integration;
  if (integ[own] === Infinity) return 'unreachable';
  if (field.next[own] < 0) return 'goal';
  const dirX = field.dirX, dirY = field.dirY;
  // Cell centres sit at integer + 0.5: shift so the four surrounding centres are (x0|x0+1, y0|y0+1).
  const fu = u - 0.5;
  const fv = v - 0.5;
  const x0 = Math.floor(fu);
  const y0 = Math.floor(fv);
  const tx = fu - x0;
  const ty = fv - y0;
  let sx = 0;
  let sy = 0;
  for (let k = 0; k < 4; k++) {
    const x = x0 + (k & 1);
    const y = y0 + (k >> 1);
    if (x < 0 || y < 0 || x >= w || y >= h) continue;
    const c = y * w + x;
    if (integ[c] === Infinity) continue;
    const wgt = ((k & 1) === 1 ? tx : 1 - tx) * ((k >> 1) === 1 ? ty : 1 - ty);
    sx += wgt * dirX[c];
    sy += wgt * dirY[c];
  }
  const len2 = sx * sx + sy * sy;
  if (len2 < 1e-12) {
    out[0] = dirX[own];
    out[1] = dirY[own];
  } else {
    const il = 1 / Math.sqrt(len2);
    out[0] = sx * il;
    out[1] = sy * il;
  }
  return 'moving';
}

/** Integration value (cost to the nearest goal) of the cell containing world point (wx, wy); Infinity off-grid. */
export function flowFieldCostAt(field: FlowField, wx: number, wy: number): number {
  const grid = field.grid;
  const cx = Math.floor((wx - grid.originX) / grid.cellSize);
  const cy = Math.floor((wy - grid.originY) / grid.cellSize);
  if (!(cx >= 0 && cy >= 0 && cx < field.width && cy < field.height)) return Infinity;
  return field.integration[cy * field.width + cx];
}

// ---------------------------------------------------------------------------------------------------------------
// Cache

/**
 * A fixed-capacity cache of flow fields keyed by (grid, goal cells, options). A field built from an older grid
 * version is rebuilt in place on its next lookup; when full, the least recently used field is evicted and its
 * arrays are reused if the grid size matches.
 */
export interface FlowFieldCache {
  readonly capacity: number;
  fields: (FlowField | null)[];
  keys: string[];
  lastUsed: Float64Array;
  clock: number;
  /** Lookups served without any solve. */
  hits: number;
  /** Lookups that built a new field (cold or evicted). */
  misses: number;
  /** Lookups that re-solved a stale field after a grid edit. */
  rebuilds: number;
}

/** A cache of up to `capacity` flow fields (each costs ~25 bytes per grid cell). @default capacity 8 */
export function createFlowFieldCache(capacity = 8): FlowFieldCache {
  requireInteger('capacity', capacity, 1, 4096);
  return {
    capacity,
    fields: new Array<FlowField | null>(capacity).fill(null),
    keys: new Array<string>(capacity).fill(''),
    lastUsed: new Float64Array(capacity),
    clock: 0,
    hits: 0,
    misses: 0,
    rebuilds: 0,
  };
}

function cacheKey(goalList: number[], o: { connectivity: 4 | 8; cornerCutting: boolean }): string {
  return `${o.connectivity}${o.cornerCutting ? 'c' : 'n'}:${goalList.join(',')}`;
}

/**
 * The flow field towards `goals` on `grid`, from the cache if present and current, re-solved if the grid changed
 * since, else built (evicting the least recently used entry when full). Goal order and duplicates do not matter.
 */
export function getFlowField(cache: FlowFieldCache, grid: Grid, goals: CellLike | readonly CellLike[], options: FlowFieldOptions = {}): FlowField {
  if (grid === null || typeof grid !== 'object' || !(grid.walkable instanceof Uint8Array)) {
    throw new InvalidArgumentError('grid', grid, 'must be a Grid');
  }
  const opts = validateOptions(options);
  const goalList = goalIndices(grid, goals);
  const key = cacheKey(goalList, opts);
  const t = ++cache.clock;
  let victim = 0;
  for (let i = 0; i < cache.capacity; i++) {
    const f = cache.fields[i];
    if (f !== null && f.grid === grid && cache.keys[i] === key) {
      cache.lastUsed[i] = t;
      if (f.gridVersion !== grid.version) {
        cache.rebuilds++;
        solveFlowField(f);
      } else {
        cache.hits++;
      }
      return f;
    }
    if (f === null) {
      if (cache.fields[victim] !== null) victim = i;
    } else if (cache.fields[victim] !== null && cache.lastUsed[i] < cache.lastUsed[victim]) {
      victim = i;
    }
  }
  cache.misses++;
  const old = cache.fields[victim];
  const field = buildFlowField(grid, goals, opts, old ?? undefined);
  cache.fields[victim] = field;
  cache.keys[victim] = key;
  cache.lastUsed[victim] = t;
  return field;
}

/** Drop every cached field. */
export function clearFlowFieldCache(cache: FlowFieldCache): void {
  for (let i = 0; i < cache.capacity; i++) {
    cache.fields[i] = null;
    cache.keys[i] = '';
    cache.lastUsed[i] = 0;
  }
}

