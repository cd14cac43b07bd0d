/**
 * Grid search: A* (Hart, Nilsson & Raphael 1968) and jump point search (Harabor & Grastien 2011, in the
 * no-corner-cutting form of their 2014 paper) over a Grid, with reusable search state.
 *
 * Search state. Everything a search writes (g, parent, heap position, "touched in this search" marks) lives in a
 * GridSearch: typed arrays sized to the largest grid searched so far, reused across searches and across grids.
 * Instead of clearing them per search we bump a generation counter: a cell's g and parent are meaningful only when
 * `mark[cell] === generation`. A search therefore costs time proportional to the cells it touches, never to the
 * grid, and never writes to the grid (PathFinding.js stores search state on its grid nodes, so users clone the grid
 * before every search).
 *
 * Open set. Keys are f = g + ε·h, ties broken by the larger g (the node nearer the goal along its path, so equal-f
 * plateaus are crossed along one line instead of being flooded; Amit Patel's "Heuristics" notes). JPS keeps its few
 * open cells in an indexed binary min-heap of cell indices in typed arrays (`heapPos[cell]` gives decrease-key in
 * O(log n)). A* uses a two-level bucket queue (Dial's buckets, 1969, with a heap inside the current bucket, a
 * variant of the multi-level buckets of Cherkassky, Goldberg & Radzik 1996): the bucket number of a key is
 * b = floor(f / δ). Open cells whose b is at most the current bucket sit in the heap; later ones wait unsorted in
 * one of 128 circular lists and enter the heap when their bucket comes up. The pop order is still exactly the heap
 * order over every open cell: floor and a product with a positive constant are monotone in f, so each waiting
 * cell's key exceeds each heap cell's. δ is (√2·c_max + 2·hScale)/120: one expansion raises a key by at most a
 * step's cost plus the heuristic's rise (≤ hScale times the norm of a unit step, ≤ 2 here), so new keys land at
 * most 121 buckets ahead and the slots never wrap onto a live bucket. The heap stays a few cells deep (6.6 on
 * average on den312d against 57 for one heap over the whole open set), and the sift-down of a deep heap was most of
 * A*'s time per expansion (2026-11). The lists hold entries appended to a pool (cell, next entry); a waiting cell
 * whose key drops leaves its entry behind (lazy deletion: an entry whose cell is no longer waiting, heapPos ≠ −2,
 * is skipped when its bucket comes up) instead of searching its list for the predecessor to unlink it (measured
 * 2026-11-29: 0.98× the time per query on den312d). heapPos is the heap slot (≥ 0), −2 waiting in a bucket, −1
 * closed, −4 held (below). Closed cells are not reopened: with a consistent heuristic (all ours with ε = 1) the
 * first expansion is optimal, and with ε > 1 Likhachev et al. (ARA*, 2003) show the result is still within ε of
 * optimal without reopening.
 *
 * The held cell. On a plateau of equal f (an open room under the octile heuristic) most expansions generate a
 * child with the parent's f and a larger g: the next cell to pop. Such a child, when its key is at least as good as
 * every open cell's (the heap's top, and the child held so far in this expansion), is held aside and expanded next
 * without entering the heap: no sift-up to the root and no sift-down after popping it. A held cell displaced by a
 * better child, or overtaken by a decrease-key in the heap, joins the heap; a search stopped by its budget keeps its
 * held cell in the search state. The order of expansion is still by the same key (f, then larger g; exact ties in
 * either order; without tie-breaking a child is held only when its f is strictly the smallest, so equal keys keep
 * the heap's order): the same optimal costs, and the same mean expansions on the benchmark maps as a plain heap
 * (measured before the successor pruning below: 324.0 per den312d query, 11,377.8 per brc202d query) in 0.87× the
 * time on den312d (2026-11-29).
 *
 * Move masks. A cell's legal moves (walkable neighbours, the corner rule) depend on the grid only, so A* keeps them
 * per cell for the grid version being searched and reuses them across queries (one load instead of up to eight
 * walkability tests; filled lazily, so a search still touches only the cells it expands, and a grid edit just
 * starts a new epoch; den312d: 0.95× the time per query, 2026-11-29).
 *
 * Successor pruning. With uniform costs, 8-connectivity without corner cutting and a consistent key (ε = 1), A*
 * generates only the successors jump point search would (Harabor & Grastien 2011; the no-corner-cutting rules of
 * their 2014 paper, as in stepJps below), one step at a time instead of jumping. Arriving diagonally: the diagonal
 * and its two components. Arriving straight along +x (the other directions by symmetry): the next cell along x
 * only, plus, for each side s = ±y whose cell beside the parent (p + s) is blocked, the "forced" side cell c + s
 * and the diagonal c + x + s. Every other move reaches its cell no more cheaply than a route from p that does not
 * pass through c: strictly dominated (back to p, the back diagonals, the cross diagonals), or tied (after a
 * straight step, the forward diagonal c + x + s costs 1 + √2 from p, the same as p → p + s → c + x + s with the
 * diagonal taken first). Pruning the ties keeps one canonical shortest path per cell, diagonal steps as early as
 * the obstacles allow, which is JPS's optimality argument; the cost is unchanged (checked against Bellman-Ford on
 * 1,600 random queries over obstacle densities 5-45%, and against every published optimal length of the Moving AI
 * scenarios in the tests). A* examines 1.1 neighbours per expansion on den312d and 1.03 on brc202d instead of up to
 * eight (2.5 and 2.7 with strict pruning only, which it used until 2026-11-29; den312d: 0.73× the time per query,
 * with 1.5% more expansions).
 *
 * Heuristics are norms of (dx, dy) = |cell − goal| scaled by the grid's cheapest cell cost c_min, since no step of
 * length L costs less than L·c_min:
 *   octile     max(dx,dy) + (√2−1)·min(dx,dy)   exact distance on an empty 8-connected grid
 *   manhattan  dx + dy                          exact on an empty 4-connected grid; overestimates with diagonals
 *   euclidean  √(dx² + dy²)                     admissible for both, weaker
 *   none       0                                Dijkstra
 * Each is a norm N, so |N(a) − N(b)| ≤ N(a − b) ≤ (cost of the step a→b)/c_min: consistent. A goal region of
 * radius r (cells within Euclidean distance r of the goal) uses max(0, N(cell − goal) − κ·r) where κ bounds N over
 * the unit circle (octile √(4−2√2) ≈ 1.0824, manhattan √2, euclidean 1): by the triangle inequality it never
 * exceeds N to the nearest goal-region cell, and max(0, ·) keeps it consistent.
 */
import { InvalidArgumentError } from '../core/errors';
import { requireInteger } from '../core/validate';
import { type Grid, refreshCostStats, requireGridCell } from './grid';
import { refreshGridRegions, type GridRegions } from './regions';

export type GridHeuristic = 'octile' | 'manhattan' | 'euclidean' | 'none';
/** 'larger-g' (default): among equal f prefer the larger g. 'nudge': multiply h by (1 + p), p = 1/(2·(width+height)),
 * Amit Patel's alternative (may return paths up to (1 + p) × optimal; reported in `epsilon`). 'none': f only. */
export type GridTieBreak = 'larger-g' | 'nudge' | 'none';
export type PathStatus = 'found' | 'unreachable' | 'budget';

export interface FindPathOptions {
  /** 4 (orthogonal moves only) or 8 (diagonals too). @default 8 */
  connectivity?: 4 | 8;
  /**
   * false (default): a diagonal step needs both orthogonally adjacent cells walkable (no clipping wall corners).
   * true: a diagonal step needs at least one of them walkable (never squeezes between two blocked corners).
   */
  cornerCutting?: boolean;
  /** @default 'octile' when 8-connected, 'manhattan' when 4-connected */
  heuristic?: GridHeuristic;
  /** ε ≥ 1: f = g + ε·h. Larger expands fewer cells; the cost is at most ε × optimal. @default 1 */
  weight?: number;
  /** @default 'larger-g' */
  tieBreak?: GridTieBreak;
  /** Accept any walkable cell whose centre is within this many cells (Euclidean) of the goal. @default 0 */
  goalRadius?: number;
  /** Stop with status 'budget' after this many expansions; resume with resumePath. @default Infinity */
  maxExpansions?: number;
  /** Reusable search state (grown to fit the grid). @default a module-wide shared GridSearch */
  search?: GridSearch;
  /**
   * Region labels of this grid (createGridRegions). When given, a goal outside the start's region is reported
   * 'unreachable' without a search (which would otherwise expand every cell the start can reach); the labels are
   * refreshed first if the grid was edited (O(cells), once per edit).
   */
  regions?: GridRegions;
}

export interface PathResult {
  status: PathStatus;
  /** Path cost (Σ step length × mean cell cost); Infinity unless found. */
  cost: number;
  /**
   * Cell indices (y·width + x) from start to the goal cell reached, inclusive; empty unless found. Short paths are
   * views into a shared pooled buffer (each result its own range, never reused): `slice()` before transferring
   * `cells.buffer` to a worker.
   */
  cells: Int32Array;
  /** Cells expanded (A*) or jump points expanded (JPS) so far in this query, over all resumptions. */
  expanded: number;
  /** Suboptimality bound of a found path: cost ≤ epsilon × optimal (1 for plain A* and JPS). */
  epsilon: number;
  /** The search state that holds this query (pass to resumePath after 'budget'). */
  search: GridSearch;
}

const ALGO_ASTAR = 0;
const ALGO_JPS = 1;
const H_OCTILE = 0, H_MANHATTAN = 1, H_EUCLIDEAN = 2, H_NONE = 3;
const ST_IDLE = 0, ST_SEARCHING = 1, ST_FOUND = 2, ST_UNREACHABLE = 3;
const SQRT2 = Math.SQRT2;
const OCTILE_K = SQRT2 - 1;
// max over unit vectors of the norms above (see header comment).
const KAPPA = [Math.sqrt(4 - 2 * SQRT2), SQRT2, 1, 0];
/** A*'s open set: bucket slots (a power of two) and how many of them one step's key increase may span. */
const BUCKETS = 128;
const BUCKET_MASK = BUCKETS - 1;
const BUCKET_SPAN = BUCKETS - 8;

/** Reusable A* and JPS state. Create one per concurrent search (e.g. one per path queue); reuse it forever. */
export interface GridSearch {
  capacity: number;
  mark: Uint32Array;
  g: Float64Array;
  parent: Int32Array;
  heapPos: Int32Array;
  /** Heap slots: cell, f and tie-break key (g, or 0 without tie-breaking), kept together in heap order. */
  heap: Int32Array;
  heapF: Float64Array;
  heapG: Float64Array;
  heapSize: number;
  /** A*'s bucketed open set (see "Open set" above): first entry per bucket slot, and each cell's key. */
  bucketHead: Int32Array;
  cellF: Float64Array;
  /** A*: each touched cell's heuristic value in the current query. */
  hCell: Float64Array;
  /** A*: the move (MOVE_DX/MOVE_DY index) by which each cell was last reached; 8 for the start. */
  moveIn: Uint8Array;
  /** Current bucket number (keys below (bucket + 1) / bucketInv are in the heap), cells held in later buckets. */
  bucket: number;
  bucketed: number;
  /** A*'s held cell (see "The held cell"; −1: none) and its key, kept across budgeted calls. */
  held: number;
  heldF: number;
  heldG: number;
  /** Bucket entries, appended in a pool: the cell and the next entry of its slot's list; entCount in use. */
  entCell: Int32Array;
  entNext: Int32Array;
  entCount: number;
  bucketInv: number;
  /** JPS: walkable flags packed by rows and by columns (see ensureJpsBits), for `bitsGrid` at `bitsVersion`. */
  rowBits: Int32Array;
  colBits: Int32Array;
  rowStride: number;
  colStride: number;
  bitsGrid: Grid | null;
  bitsVersion: number;
  generation: number;
  /**
   * A*: each cell's legal moves (bits in MOVE_DX/MOVE_DY order) for `maskGrid` at `maskVersion` with connectivity
   * and corner rule `maskMode`, valid where maskStamp[cell] === maskEpoch (filled as cells are expanded).
   */
  maskStamp: Uint32Array;
  moveMask: Uint8Array;
  maskEpoch: number;
  maskGrid: Grid | null;
  maskVersion: number;
  maskMode: number;
  // ---- the current query ----
  grid: Grid | null;
  gridVersion: number;
  algorithm: number;
  startCell: number;
  goalCell: number;
  goalX: number;
  goalY: number;
  goalRadius: number;
  goalRadius2: number;
  hKind: number;
  /** c_min · ε (· (1+p) with nudge): multiplies the heuristic norm. */
  hScale: number;
  /** κ·r subtracted for goal regions. */
  hShift: number;
  epsilon: number;
  tieBreakG: boolean;
  diagonals: boolean;
  cornerCutting: boolean;
  /** JPS: cost of one orthogonal step (the uniform cell cost). */
  unitCost: number;
  state: number;
  reached: number;
  expanded: number;
  /** Region labels to reject unreachable goals at once (FindPathOptions.regions), or null. */
  regions: GridRegions | null;
}

/** A search state able to search grids of up to `capacity` cells without growing. */
export function createGridSearch(capacity = 0): GridSearch {
  requireInteger('capacity', capacity, 0, 2 ** 30);
  return {
    capacity,
    mark: new Uint32Array(capacity),
    g: new Float64Array(capacity),
    parent: new Int32Array(capacity),
    heapPos: new Int32Array(capacity),
    heap: new Int32Array(capacity),
    heapF: new Float64Array(capacity),
    heapG: new Float64Array(capacity),
    heapSize: 0,
    bucketHead: new Int32Array(BUCKETS).fill(-1),
    cellF: new Float64Array(capacity),
    hCell: new Float64Array(capacity),
    moveIn: new Uint8Array(capacity),
    bucket: 0,
    bucketed: 0,
    held: -1,
    heldF: 0,
    heldG: 0,
    entCell: new Int32Array(1024),
    entNext: new Int32Array(1024),
    entCount: 0,
    bucketInv: 1,
    rowBits: new Int32Array(0),
    colBits: new Int32Array(0),
    rowStride: 0,
    colStride: 0,
    bitsGrid: null,
    bitsVersion: -1,
    generation: 0,
    maskStamp: new Uint32Array(capacity),
    moveMask: new Uint8Array(capacity),
    maskEpoch: 1,
    maskGrid: null,
    maskVersion: -1,
    maskMode: -1,
    grid: null,
    gridVersion: -1,
    algorithm: ALGO_ASTAR,
    startCell: -1,
    goalCell: -1,
    goalX: 0,
    goalY: 0,
    goalRadius: 0,
    goalRadius2: 0,
    hKind: H_OCTILE,
    hScale: 1,
    hShift: 0,
    epsilon: 1,
    tieBreakG: true,
    diagonals: true,
    cornerCutting: false,
    unitCost: 1,
    state: ST_IDLE,
    reached: -1,
    expanded: 0,
    regions: null,
  };
}

function ensureCapacity(s: GridSearch, n: number): void {
  if (s.capacity >= n) return;
  s.capacity = n;
  s.mark = new Uint32Array(n);
  s.g = new Float64Array(n);
  s.parent = new Int32Array(n);
  s.heapPos = new Int32Array(n);
  s.heap = new Int32Array(n);
  s.heapF = new Float64Array(n);
  s.heapG = new Float64Array(n);
  s.cellF = new Float64Array(n);
  s.hCell = new Float64Array(n);
  s.moveIn = new Uint8Array(n);
  s.generation = 0;
  s.maskStamp = new Uint32Array(n);
  s.moveMask = new Uint8Array(n);
  s.maskGrid = null;
}

let sharedSearch: GridSearch | null = null;
function defaultSearch(): GridSearch {
  if (sharedSearch === null) sharedSearch = createGridSearch(0);
  return sharedSearch;
}

/**
 * Set up a query on `search` without expanding anything (validates every argument). Then call stepGridSearch.
 * `algorithm` is 'astar' or 'jps'.
 */
export function beginGridSearch(
  search: GridSearch,
  grid: Grid,
  start: { readonly x: number; readonly y: number },
  goal: { readonly x: number; readonly y: number },
  options: FindPathOptions = {},
  algorithm: 'astar' | 'jps' = 'astar',
): void {
  if (grid === null || typeof grid !== 'object' || !(grid.walkable instanceof Uint8Array)) {
    throw new InvalidArgumentError('grid', grid, 'must be a Grid (createGrid, gridFromAscii, parseMovingAiMap)');
  }
  const startCell = requireGridCell(grid, 'start', start);
  const goalCell = requireGridCell(grid, 'goal', goal);
  const connectivity = options.connectivity ?? 8;
  if (connectivity !== 4 && connectivity !== 8) throw new InvalidArgumentError('options.connectivity', connectivity, 'must be 4 or 8');
  const cornerCutting = options.cornerCutting ?? false;
  if (typeof cornerCutting !== 'boolean') throw new InvalidArgumentError('options.cornerCutting', cornerCutting, 'must be a boolean');
  const hName = options.heuristic ?? (connectivity === 8 ? 'octile' : 'manhattan');
  const hKind = hName === 'octile' ? H_OCTILE : hName === 'manhattan' ? H_MANHATTAN : hName === 'euclidean' ? H_EUCLIDEAN : hName === 'none' ? H_NONE : -1;
  if (hKind < 0) throw new InvalidArgumentError('options.heuristic', hName, "must be 'octile', 'manhattan', 'euclidean' or 'none'");
  const weight = options.weight ?? 1;
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 1) {
    throw new InvalidArgumentError('options.weight', weight, 'must be a finite number ≥ 1');
  }
  const tieBreak = options.tieBreak ?? 'larger-g';
  if (tieBreak !== 'larger-g' && tieBreak !== 'nudge' && tieBreak !== 'none') {
    throw new InvalidArgumentError('options.tieBreak', tieBreak, "must be 'larger-g', 'nudge' or 'none'");
  }
  const goalRadius = options.goalRadius ?? 0;
  if (typeof goalRadius !== 'number' || !Number.isFinite(goalRadius) || goalRadius < 0) {
    throw new InvalidArgumentError('options.goalRadius', goalRadius, 'must be a finite number ≥ 0');
  }
  const regions = options.regions ?? null;
  if (regions !== null && (typeof regions !== 'object' || !(regions.labels instanceof Int32Array) || regions.grid !== grid)) {
    throw new InvalidArgumentError('options.regions', regions, 'must be createGridRegions(grid) of this same grid');
  }
  let algo = ALGO_ASTAR;
  refreshCostStats(grid);
  if (algorithm === 'jps') {
    algo = ALGO_JPS;
    if (connectivity !== 8 || cornerCutting) {
      throw new InvalidArgumentError('options', 'connectivity/cornerCutting', 'JPS is 8-connected without corner cutting only');
    }
    if (goalRadius !== 0) throw new InvalidArgumentError('options.goalRadius', goalRadius, 'JPS supports a single goal cell only (use findPath)');
    if (grid.minCost !== grid.maxCost) {
      throw new InvalidArgumentError('grid.cost', `${grid.minCost}..${grid.maxCost}`, 'JPS needs every walkable cell to have the same cost (use findPath)');
    }
  } else if (algorithm !== 'astar') {
    throw new InvalidArgumentError('algorithm', algorithm, "must be 'astar' or 'jps'");
  }
  let p = 0;
  if (tieBreak === 'nudge') p = 1 / (2 * (grid.width + grid.height));
  search.grid = grid;
  search.algorithm = algo;
  search.startCell = startCell;
  search.goalCell = goalCell;
  search.goalX = goal.x;
  search.goalY = goal.y;
  search.goalRadius = goalRadius;
  search.goalRadius2 = goalRadius * goalRadius;
  search.hKind = hKind;
  search.epsilon = weight * (1 + p);
  search.tieBreakG = tieBreak === 'larger-g';
  search.diagonals = connectivity === 8;
  search.cornerCutting = cornerCutting;
  search.unitCost = grid.minCost;
  search.expanded = 0;
  search.regions = regions;
  restart(search);
}

/** (Re)initialise the open set for the stored query against the grid's current contents. */
function restart(s: GridSearch): void {
  const grid = s.grid!;
  ensureCapacity(s, grid.width * grid.height);
  refreshCostStats(grid);
  s.gridVersion = grid.version;
  s.hScale = grid.minCost * s.epsilon;
  s.hShift = KAPPA[s.hKind] * s.goalRadius;
  s.unitCost = grid.minCost;
  s.reached = -1;
  s.heapSize = 0;
  if (s.entCount !== 0) s.bucketHead.fill(-1);
  s.entCount = 0;
  s.bucketed = 0;
  s.held = -1;
  // Bucket width: one step raises f by at most its cost (≤ √2·maxCost) plus the heuristic's rise (≤ hScale times
  // the norm of a unit step, ≤ 2 for every norm here), so a new key lands at most BUCKET_SPAN + 1 buckets after
  // the current one and the slots never wrap onto a live bucket.
  s.bucketInv = BUCKET_SPAN / (SQRT2 * grid.maxCost + 2 * s.hScale);
  if (s.generation >= 0xfffffffe) {
    s.mark.fill(0);
    s.generation = 0;
  }
  s.generation++;
  const start = s.startCell;
  if (grid.walkable[start] !== 1 || (s.goalRadius === 0 && grid.walkable[s.goalCell] !== 1) ||
      (s.regions !== null && !goalInStartRegion(s, refreshGridRegions(s.regions).labels))) {
    s.state = ST_UNREACHABLE;
    return;
  }
  s.state = ST_SEARCHING;
  const w = grid.width;
  const sx = start % w;
  s.mark[start] = s.generation;
  s.g[start] = 0;
  s.parent[start] = -1;
  s.moveIn[start] = 8;
  const f0 = heuristic(s, sx, (start - sx) / w);
  s.bucket = Math.floor(f0 * s.bucketInv);
  heapPush(s, start, f0, 0);
}

/**
 * Is the goal (or, with a goal radius, a walkable cell within it) in the start's region? A search can only reach
 * cells of its start's region (see regions.ts), so otherwise it would end 'unreachable' after expanding all of them.
 */
function goalInStartRegion(s: GridSearch, labels: Int32Array): boolean {
  const region = labels[s.startCell];
  if (s.goalRadius === 0) return labels[s.goalCell] === region;
  // Goal region: cells whose centre is within goalRadius of the goal (the search's own test, on squared distances).
  const grid = s.grid!, w = grid.width;
  const r = s.goalRadius, r2 = s.goalRadius2;
  const x0 = Math.max(0, Math.ceil(s.goalX - r)), x1 = Math.min(w - 1, Math.floor(s.goalX + r));
  const y0 = Math.max(0, Math.ceil(s.goalY - r)), y1 = Math.min(grid.height - 1, Math.floor(s.goalY + r));
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const dx = x - s.goalX, dy = y - s.goalY;
      if (dx * dx + dy * dy <= r2 && labels[y * w + x] === region) return true;
    }
  }
  return false;
}

function heuristic(s: GridSearch, x: number, y: number): number {
  let dx = x - s.goalX;
  let dy = y - s.goalY;
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  let n: number;
  switch (s.hKind) {
    case H_OCTILE: n = dx > dy ? dx + OCTILE_K * dy : dy + OCTILE_K * dx; break;
    case H_MANHATTAN: n = dx + dy; break;
    case H_EUCLIDEAN: n = Math.sqrt(dx * dx + dy * dy); break;
    default: return 0;
  }
  n -= s.hShift;
  return n > 0 ? n * s.hScale : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Indexed binary heap over cell indices. Each slot keeps its cell's f and tie key next to it (heapF, heapG in heap
// order), so sifting compares contiguous memory instead of chasing per-cell arrays across a large grid (measured
// ~2× faster on brc202d than keying through f[cell], 2026-11). The order is f ascending, then tie key descending;
// without tie-breaking the tie key is always 0. stepAStar and stepJps sift inline (no double crosses a call);
// heapPush below only seeds the start.

function siftUp(s: GridSearch, pos: number, node: number, f: number, tg: number): void {
  const heap = s.heap, hf = s.heapF, hg = s.heapG, heapPos = s.heapPos;
  while (pos > 0) {
    const up = (pos - 1) >> 1;
    const uf = hf[up];
    if (f > uf || (f === uf && tg <= hg[up])) break;
    const other = heap[up];
    heap[pos] = other;
    hf[pos] = uf;
    hg[pos] = hg[up];
    heapPos[other] = pos;
    pos = up;
  }
  heap[pos] = node;
  hf[pos] = f;
  hg[pos] = tg;
  heapPos[node] = pos;
}

function heapPush(s: GridSearch, node: number, f: number, tg: number): void {
  siftUp(s, s.heapSize++, node, f, tg);
}



/**
 * Expand up to `maxExpansions` cells of the query held by `search`. Returns 'found', 'unreachable', or 'budget'
 * when the allowance ran out first (call again to continue where it stopped). If the grid was edited since the
 * query began (its version changed), the query restarts from scratch against the new grid.
 */
export function stepGridSearch(search: GridSearch, maxExpansions = Infinity): PathStatus {
  if (search.grid === null || search.state === ST_IDLE) {
    throw new InvalidArgumentError('search', 'idle', 'has no query: call beginGridSearch (or findPath) first');
  }
  if (typeof maxExpansions !== 'number' || Number.isNaN(maxExpansions) || maxExpansions < 0) {
    throw new InvalidArgumentError('maxExpansions', maxExpansions, 'must be a number ≥ 0 (Infinity allowed)');
  }
  if (search.grid.version !== search.gridVersion) restart(search);
  if (search.state === ST_FOUND) return 'found';
  if (search.state === ST_UNREACHABLE) return 'unreachable';
  return search.algorithm === ALGO_JPS ? stepJps(search, maxExpansions) : stepAStar(search, maxExpansions);
}

/** A*'s moves in relaxation order: left, right, up, down, then up-left, up-right, down-left, down-right. */
const MOVE_DX = [-1, 1, 0, 0, -1, 1, -1, 1];
const MOVE_DY = [0, 0, -1, 1, -1, -1, 1, 1];
/**
 * Moves kept after arriving by move a (index as above; 8 marks the start: all). Arriving straight, the forward move
 * (FORCED_ADD adds the forced ones); arriving diagonally, its two components and the diagonal itself.
 */
const PRUNE_KEEP = [1, 2, 4, 8, 1 | 4 | 16, 2 | 4 | 32, 1 | 8 | 64, 2 | 8 | 128, 255];
/** Forced moves after a straight arrival a (0-3), by which of the parent's side cells are blocked (bits of its mask). */
const FORCED_ADD = new Int32Array(64);
for (let sb = 0; sb < 16; sb++) {
  // a = 0 (left), 1 (right): sides up (4) and down (8); a = 2 (up), 3 (down): sides left (1) and right (2)
  FORCED_ADD[0 * 16 + sb] = ((sb & 4) !== 0 ? 4 | 16 : 0) | ((sb & 8) !== 0 ? 8 | 64 : 0);
  FORCED_ADD[1 * 16 + sb] = ((sb & 4) !== 0 ? 4 | 32 : 0) | ((sb & 8) !== 0 ? 8 | 128 : 0);
  FORCED_ADD[2 * 16 + sb] = ((sb & 1) !== 0 ? 1 | 16 : 0) | ((sb & 2) !== 0 ? 2 | 32 : 0);
  FORCED_ADD[3 * 16 + sb] = ((sb & 1) !== 0 ? 1 | 64 : 0) | ((sb & 2) !== 0 ? 2 | 128 : 0);
}
/** Index offsets of the same moves for the grid being searched (filled per stepAStar call). */
const _astarMoveOffset = new Int32Array(8);

/** Double the bucket entry pool (kept for later queries). */
function growEntries(s: GridSearch): void {
  const cell = new Int32Array(2 * s.entCell.length), next = new Int32Array(2 * s.entNext.length);
  cell.set(s.entCell);
  next.set(s.entNext);
  s.entCell = cell;
  s.entNext = next;
}

function stepAStar(s: GridSearch, budget: number): PathStatus {
  // Everything the loop touches is a local: typed arrays, heap size, query constants. The open-set operations are
  // written inline: no double crosses a call (V8 passes arguments tagged, so a g or f handed to a helper that is
  // not inlined is boxed into a fresh HeapNumber; 2026-11, ~110 KB per navigation call before this was fixed).
  const grid = s.grid!;
  const w = grid.width;
  const h = grid.height;
  const walk = grid.walkable;
  const cost = grid.cost;
  const g = s.g, mark = s.mark, parent = s.parent, heapPos = s.heapPos, moveIn = s.moveIn;
  const heap = s.heap, hf = s.heapF, hg = s.heapG;
  const head = s.bucketHead, cellF = s.cellF, hCell = s.hCell;
  let entCell = s.entCell, entNext = s.entNext, entCount = s.entCount;
  const bucketInv = s.bucketInv;
  const gen = s.generation;
  const diagonals = s.diagonals;
  const cut = s.cornerCutting;
  const tieG = s.tieBreakG;
  const goalX = s.goalX, goalY = s.goalY, goalCell = s.goalCell, region = s.goalRadius > 0, radius2 = s.goalRadius2;
  const kind = s.hKind, shift = s.hShift, scale = s.hScale;
  // The default heuristic without a goal region: v − 0 > 0 unless v = 0, and then v·scale is 0 too.
  const plainOctile = kind === H_OCTILE && shift === 0;
  // Step cost between cells a and b: length × (cost[a] + cost[b]) / 2. When every walkable cell costs the same u
  // (restart refreshed the cost range) that is exactly u or √2·u: halving and doubling are exact in binary, so
  // (√2/2)·(u + u) and √2·u round to the same double. The constants spare two cost loads per neighbour.
  const uniform = grid.minCost === grid.maxCost;
  const stepO = s.unitCost, stepD = SQRT2 * s.unitCost;
  const HO = 0.5, HD = 0.5 * SQRT2;
  // Successor pruning needs uniform costs, 8-connectivity without corner cutting and a consistent key
  // (ε = 1 exactly, not the 'nudge' tie-break; Manhattan overestimates diagonal steps).
  const prune = uniform && diagonals && !cut && s.epsilon === 1 && kind !== H_MANHATTAN;
  const off = _astarMoveOffset;
  for (let k = 0; k < 8; k++) off[k] = MOVE_DY[k] * w + MOVE_DX[k];
  // Row of a cell index c: floor((c + ½) / w) by multiplication. (c + ½)/w is at least ½/w ≥ 2⁻¹⁶ away from an
  // integer and the product's relative error is 2⁻⁵³ of a value below 2³⁰, so the floor is exact (and cheaper
  // than an integer division).
  const invW = 1 / w;
  const mode = (diagonals ? 1 : 0) | (cut ? 2 : 0);
  if (s.maskGrid !== grid || s.maskVersion !== grid.version || s.maskMode !== mode) {
    s.maskGrid = grid; s.maskVersion = grid.version; s.maskMode = mode;
    if (s.maskEpoch >= 0xfffffffe) { s.maskStamp.fill(0); s.maskEpoch = 0; }
    s.maskEpoch++;
  }
  const mstamp = s.maskStamp, mmask = s.moveMask, epoch = s.maskEpoch;
  let size = s.heapSize;
  let bucket = s.bucket, bucketed = s.bucketed;
  let n = 0;
  // The best cell generated by the last expansion when it is at least as good as every other open cell: expanded
  // next without passing through the heap (−1: none). heapPos −4 marks it.
  let held = s.held, heldF = s.heldF, heldG = s.heldG;
  for (;;) {
    let c: number;
    if (held >= 0) {
      if (n >= budget) {
        s.held = held;
        s.heldF = heldF;
        s.heldG = heldG;
        s.heapSize = size;
        s.bucket = bucket;
        s.bucketed = bucketed;
        s.entCount = entCount;
        s.expanded += n;
        return 'budget';
      }
      c = held;
      held = -1;
      heapPos[c] = -1; // closed
    } else {
    while (size === 0) {
      // The current bucket is used up: move the next non-empty one into the heap (see "Open set" above).
      if (bucketed === 0) break;
      let slot: number;
      do {
        bucket++;
        slot = bucket & BUCKET_MASK;
      } while (head[slot] < 0);
      for (let e = head[slot]; e >= 0; e = entNext[e]) {
        const v = entCell[e];
        if (heapPos[v] !== -2) continue; // stale: moved to an earlier bucket or the heap, or closed
        const f = cellF[v], tg = tieG ? g[v] : 0;
        let pos = size++;
        while (pos > 0) {
          const up = (pos - 1) >> 1;
          const uf = hf[up];
          if (f > uf || (f === uf && tg <= hg[up])) break;
          const other = heap[up];
          heap[pos] = other;
          hf[pos] = uf;
          hg[pos] = hg[up];
          heapPos[other] = pos;
          pos = up;
        }
        heap[pos] = v;
        hf[pos] = f;
        hg[pos] = tg;
        heapPos[v] = pos;
        bucketed--;
      }
      head[slot] = -1;
    }
    if (size === 0) break;
    if (n >= budget) {
      s.held = -1;
      s.heapSize = size;
      s.bucket = bucket;
      s.bucketed = bucketed;
      s.entCount = entCount;
      s.expanded += n;
      return 'budget';
    }
    // Pop the minimum (f ascending, tie key descending) and sift the last slot down from the root.
    c = heap[0];
    heapPos[c] = -1; // closed
    size--;
    if (size > 0) {
      const node = heap[size], f = hf[size], tg = hg[size];
      const half = size >> 1;
      let pos = 0;
      while (pos < half) {
        let child = 2 * pos + 1;
        let cf = hf[child];
        let cg = hg[child];
        const right = child + 1;
        if (right < size) {
          const rf = hf[right];
          if (rf < cf || (rf === cf && hg[right] > cg)) {
            child = right;
            cf = rf;
            cg = hg[right];
          }
        }
        if (f < cf || (f === cf && tg >= cg)) break;
        const cn = heap[child];
        heap[pos] = cn;
        hf[pos] = cf;
        hg[pos] = cg;
        heapPos[cn] = pos;
        pos = child;
      }
      heap[pos] = node;
      hf[pos] = f;
      hg[pos] = tg;
      heapPos[node] = pos;
    }
    }
    n++;
    const cy = Math.floor((c + 0.5) * invW);
    const cx = c - cy * w;
    if (region ? (cx - goalX) * (cx - goalX) + (cy - goalY) * (cy - goalY) <= radius2 : c === goalCell) {
      s.heapSize = size;
      s.bucket = bucket;
      s.bucketed = bucketed;
      s.entCount = entCount;
      s.held = -1;
      s.expanded += n;
      s.reached = c;
      s.state = ST_FOUND;
      return 'found';
    }
    const gc = g[c];
    const cc = cost[c];
    // Legal moves as bits 0..7 in MOVE_DX/MOVE_DY order. A diagonal step needs both orthogonally adjacent cells
    // open without corner cutting (then they are in the grid), at least one with it.
    let moves: number;
    if (mstamp[c] === epoch) {
      moves = mmask[c];
    } else {
      // Legal moves as bits 0..7 in MOVE_DX/MOVE_DY order, cached per cell for this grid version and mode. A
      // diagonal step needs both orthogonally adjacent cells open without corner cutting, at least one with it.
      const hasL = cx > 0, hasR = cx < w - 1, hasU = cy > 0, hasD = cy < h - 1;
      const l = hasL && walk[c - 1] === 1;
      const r = hasR && walk[c + 1] === 1;
      const u = hasU && walk[c - w] === 1;
      const d = hasD && walk[c + w] === 1;
      moves = (l ? 1 : 0) | (r ? 2 : 0) | (u ? 4 : 0) | (d ? 8 : 0);
      if (diagonals) {
        if (!cut) {
          if (l && u && walk[c - w - 1] === 1) moves |= 16;
          if (r && u && walk[c - w + 1] === 1) moves |= 32;
          if (l && d && walk[c + w - 1] === 1) moves |= 64;
          if (r && d && walk[c + w + 1] === 1) moves |= 128;
        } else {
          if (hasU && hasL && (l || u) && walk[c - w - 1] === 1) moves |= 16;
          if (hasU && hasR && (r || u) && walk[c - w + 1] === 1) moves |= 32;
          if (hasD && hasL && (l || d) && walk[c + w - 1] === 1) moves |= 64;
          if (hasD && hasR && (r || d) && walk[c + w + 1] === 1) moves |= 128;
        }
      }
      mmask[c] = moves;
      mstamp[c] = epoch;
    }
    if (prune) {
      const a = moveIn[c];
      let keep = PRUNE_KEEP[a];
      if (a < 4) {
        // the side moves are forced where the parent's side cell is blocked (its mask, computed when it was expanded)
        const mp = mmask[c - off[a]];
        keep |= FORCED_ADD[16 * a + (~mp & (a < 2 ? 12 : 3))];
      }
      moves &= keep;
    }
    while (moves !== 0) {
      // Lowest remaining move first (the same order as before pruning).
      const low = moves & -moves;
      moves ^= low;
      const k = 31 - Math.clz32(low);
      const m = c + off[k];
      const ng = uniform ? gc + (k < 4 ? stepO : stepD) : gc + (k < 4 ? HO : HD) * (cc + cost[m]);
      let pos: number;
      let hv = 0;
      if (mark[m] !== gen) {
        mark[m] = gen;
        pos = -3; // new
        // Heuristic (the norm by kind, minus the goal-region shift, scaled; 0 for 'none'), kept for the cell's
        // later decrease-keys in this query.
        const ax = Math.abs(cx + MOVE_DX[k] - goalX), ay = Math.abs(cy + MOVE_DY[k] - goalY);
        if (plainOctile) {
          hv = (Math.max(ax, ay) + OCTILE_K * Math.min(ax, ay)) * scale;
        } else if (kind !== H_NONE) {
          let v = kind === H_OCTILE ? (ax > ay ? ax + OCTILE_K * ay : ay + OCTILE_K * ax)
            : kind === H_MANHATTAN ? ax + ay : Math.sqrt(ax * ax + ay * ay);
          v -= shift;
          hv = v > 0 ? v * scale : 0;
        }
        hCell[m] = hv;
      } else if (ng < g[m] && (pos = heapPos[m]) !== -1) {
        // Open with a worse g (in the heap, pos ≥ 0, or in a bucket, pos = −2). Closed cells (−1) are not
        // reopened; see the header.
        hv = hCell[m];
      } else {
        continue;
      }
      g[m] = ng;
      parent[m] = c;
      moveIn[m] = k;
      const f = ng + hv; // key
      const tg = tieG ? ng : 0; // tie key
      // the cell to put into the heap (below), unless it goes to a later bucket or is held
      let pn = m, pf = f, pg = tg;
      if (pos === -2) {
        // Leaving its bucket: its entry stays there and is skipped when that bucket comes up (heapPos no longer −2).
        bucketed--;
        pos = -3;
      }
      if (pos < 0) {
        const b = Math.floor(f * bucketInv);
        if (b > bucket) {
          // A later bucket: a new entry in front of its list, keyed when the bucket comes up.
          if (entCount === entCell.length) {
            growEntries(s);
            entCell = s.entCell; entNext = s.entNext;
          }
          const sl = b & BUCKET_MASK;
          entCell[entCount] = m;
          entNext[entCount] = head[sl];
          head[sl] = entCount++;
          heapPos[m] = -2;
          cellF[m] = f;
          bucketed++;
          continue;
        }
        // The new cell is held when it is at least as good as every open cell: the heap's top, or the cell held so
        // far (which then goes into the heap in its place).
        if (held < 0
          ? size === 0 || f < hf[0] || (f === hf[0] && (tg > hg[0] || (tieG && tg === hg[0])))
          : f < heldF || (f === heldF && (tg > heldG || (tieG && tg === heldG)))) {
          const o = held, of = heldF, og = heldG;
          held = m; heldF = f; heldG = tg; heapPos[m] = -4;
          if (o < 0) continue;
          pn = o; pf = of; pg = og;
        }
        pos = size++;
      }
      // Put cell pn with key (pf, pg) at heap slot pos and sift it up. If that made a heap cell better than the held
      // one (a decrease-key), the held one joins the heap the same way.
      for (;;) {
        while (pos > 0) {
          const up = (pos - 1) >> 1;
          const uf = hf[up];
          if (pf > uf || (pf === uf && pg <= hg[up])) break;
          const other = heap[up];
          heap[pos] = other;
          hf[pos] = uf;
          hg[pos] = hg[up];
          heapPos[other] = pos;
          pos = up;
        }
        heap[pos] = pn;
        hf[pos] = pf;
        hg[pos] = pg;
        heapPos[pn] = pos;
        if (!(held >= 0 && (pf < heldF || (pf === heldF && pg > heldG)))) break;
        pn = held; pf = heldF; pg = heldG;
        held = -1;
        pos = size++;
      }
    }
  }
  s.heapSize = 0;
  s.bucket = bucket;
  s.bucketed = 0;
  s.entCount = entCount;
  s.held = -1;
  s.expanded += n;
  s.state = ST_UNREACHABLE;
  return 'unreachable';
}

// ---------------------------------------------------------------------------------------------------------------
// Jump point search, 8-connected, no corner cutting, uniform cost.
//
// Canonical paths take diagonal steps as early as possible. Pruning at a cell n reached from its parent p:
// * Diagonal arrival (dx, dy): without corner cutting both (x−dx, y) and (x, y−dy) are open, so every neighbour
//   other than (x+dx, y), (x, y+dy), (x+dx, y+dy) is reached at least as cheaply from p without n: e.g.
//   (x−dx, y+dy) costs 2 via (x−dx, y) against √2 + 1 via n. No forced neighbours.
// * Straight arrival (dx, 0): the natural successor is (x+dx, y). The side cell (x, y+s) is "forced" when it is
//   open but (x−dx, y+s) is blocked: then p cannot reach it diagonally (√2) nor via (x−dx, y+s) (2), and the
//   only optimal route is p → n → (x, y+s); (x+dx, y+s) is forced with it (1+√2 via n; the diagonal-first route
//   through (x, y+s) is gone). Vertical arrivals are the same with x and y swapped.
// A straight jump stops at a cell with a forced neighbour (or the goal). A diagonal scan does not stop: at each
// cell whose straight component jumps find something, those jump points become successors directly (see jumpD),
// and it stops only at the goal or a blocked step. Successive jump points are therefore joined by diagonal steps
// followed by straight ones, the diagonal-first octile route, so a jump costs its octile length times the uniform
// cell cost, and a path is rebuilt by walking each link diagonal-first (writePath).

// The scans read the walkable flags packed 32 to a word, once by rows and once by columns (built per grid
// version; see ensureJpsBits), and test a whole 31-cell stretch at once, the word-at-a-time scanning of Harabor &
// Grastien's "block-based" JPS (2014). In a window whose bit b is the cell b steps ahead (bit 0 the cell the scan
// leaves), with W the scanned line and S one side line:
//   blocked ahead   ~W                  the scan dies at the first one;
//   forced          S & ~(S shifted by one towards the start)   an open side cell whose side cell one step back
//                                       is blocked (the test of the header, for all 31 cells in three operations).
// The jump point is the first forced cell (or the goal) before the first blocked one. Lines carry 32 zero bits of
// margin on each side and a zero line beyond each edge, so scans stop at the grid's edges without bounds checks and
// edge sides never force. Scans return a step count (0: no jump point), so the caller finds the jump point's
// cell, coordinates and length without a division.

/** Bit position of cell 0 in a packed line (the margin), and the 31 cells a window advances by. */
const LINE_MARGIN = 32;
// A window of 32 bits from bit position q ≥ 0 of a line at word `base`: word w = q >> 5 shifted right by q & 31,
// with the next word's low bits shifted in above (a shift by 32 is a shift by 0 in JavaScript, hence the aligned
// case apart). The three lines a scan reads share that word index and shift.

/**
 * Scan line l (lines of `stride` words, line l at (l + 1)·stride) from position a in direction d (±1); return the
 * steps to the first jump point, or 0. (goalA, goalL): the goal in the same (along, line) coordinates.
 */
function jumpLine(bits: Int32Array, stride: number, a: number, l: number, d: number, goalA: number, goalL: number): number {
  const mid = (l + 1) * stride, before = mid - stride, after = mid + stride;
  let toGoal = 0x7fffffff;
  if (l === goalL) {
    const k = (goalA - a) * d;
    if (k > 0) toGoal = k;
  }
  if (d > 0) {
    // Window bit b = cell a + done + b; candidates b = 1..31.
    for (let q = a + LINE_MARGIN, done = 0; ; q += 31, done += 31) {
      const wi = q >> 5, sh = q & 31;
      let wl: number, sb: number, sa: number;
      if (sh === 0) {
        wl = bits[mid + wi]; sb = bits[before + wi]; sa = bits[after + wi];
      } else {
        const rs = 32 - sh;
        wl = (bits[mid + wi] >>> sh) | (bits[mid + wi + 1] << rs);
        sb = (bits[before + wi] >>> sh) | (bits[before + wi + 1] << rs);
        sa = (bits[after + wi] >>> sh) | (bits[after + wi + 1] << rs);
      }
      const blocked = ~wl & ~1;
      const forced = ((sb & ~(sb << 1)) | (sa & ~(sa << 1))) & ~1;
      let stop = forced === 0 ? 32 : 31 - Math.clz32(forced & -forced);
      const wall = blocked === 0 ? 32 : 31 - Math.clz32(blocked & -blocked);
      if (toGoal - done < stop) stop = toGoal - done;
      if (stop < wall) return done + stop;
      if (wall < 32) return 0;
    }
  }
  // Window bit 31 − b = cell a − done − b; candidates b = 1..31.
  for (let q = a + LINE_MARGIN - 31, done = 0; ; q -= 31, done += 31) {
    const wi = q >> 5, sh = q & 31;
    let wl: number, sb: number, sa: number;
    if (sh === 0) {
      wl = bits[mid + wi]; sb = bits[before + wi]; sa = bits[after + wi];
    } else {
      const rs = 32 - sh;
      wl = (bits[mid + wi] >>> sh) | (bits[mid + wi + 1] << rs);
      sb = (bits[before + wi] >>> sh) | (bits[before + wi + 1] << rs);
      sa = (bits[after + wi] >>> sh) | (bits[after + wi + 1] << rs);
    }
    const blocked = ~wl & 0x7fffffff;
    const forced = ((sb & ~(sb >>> 1)) | (sa & ~(sa >>> 1))) & 0x7fffffff;
    let stop = forced === 0 ? 32 : Math.clz32(forced);
    const wall = blocked === 0 ? 32 : Math.clz32(blocked);
    if (toGoal - done < stop) stop = toGoal - done;
    if (stop < wall) return done + stop;
    if (wall < 32) return 0;
  }
}

/** Scan from (x, y) along (dx, 0). */
function jumpH(rows: Int32Array, rowStride: number, x: number, y: number, dx: number, goalX: number, goalY: number): number {
  return jumpLine(rows, rowStride, x, y, dx, goalX, goalY);
}

/** Scan from (x, y) along (0, dy). */
function jumpV(cols: Int32Array, colStride: number, x: number, y: number, dy: number, goalX: number, goalY: number): number {
  return jumpLine(cols, colStride, y, x, dy, goalY, goalX);
}

/**
 * Scan diagonally from cell i = (x, y) along (dx, dy) and append the successors found to the JPS successor buffer
 * from slot ns; return the new count. Diagonal jump points are not generated as nodes ("pruning intermediate jump
 * points", Harabor & Grastien 2014): where the straight scans from a diagonal cell find jump points, those are
 * appended directly, reached by the diagonal and then the straight scan, and the diagonal scan goes on. Expanding
 * the diagonal cell would have generated exactly these successors (its diagonal-arrival rule: both straight
 * components and the diagonal), at the same cost, so the search graph is the usual one with each such cell
 * contracted away; it saves a heap push, a pop and the repeated straight scans per diagonal jump point.
 */
function jumpD(
  rows: Int32Array, rowStride: number, cols: Int32Array, colStride: number, w: number,
  goal: number, goalX: number, goalY: number, i: number, x: number, y: number, dx: number, dy: number, ns: number,
): number {
  const vstep = dy * w;
  // Cells are read from the packed rows (the lines the straight scans just read, so in cache; beyond the grid's
  // edges they read as blocked).
  for (let k = 1; ; k++) {
    // No corner cutting: both orthogonal cells must be open.
    if (rowBit(rows, rowStride, x + dx, y) === 0 || rowBit(rows, rowStride, x, y + dy) === 0) break;
    x += dx;
    y += dy;
    if (rowBit(rows, rowStride, x, y) === 0) break;
    i += vstep + dx;
    if (i === goal) {
      ns = addSuccessor(ns, i, x, y, k, 0);
      break;
    }
    const kh = jumpLine(rows, rowStride, x, y, dx, goalX, goalY);
    if (kh > 0) {
      ns = addSuccessor(ns, i + kh * dx, x + kh * dx, y, k, kh);
    }
    const kv = jumpLine(cols, colStride, y, x, dy, goalY, goalX);
    if (kv > 0) {
      ns = addSuccessor(ns, i + kv * vstep, x, y + kv * dy, k, kv);
    }
  }
  return ns;
}

/** Walkable flag (0 or 1) of cell (x, y) from the packed rows; cells within the margin beyond the grid read 0. */
function rowBit(rows: Int32Array, rowStride: number, x: number, y: number): number {
  const q = x + LINE_MARGIN;
  return (rows[(y + 1) * rowStride + (q >> 5)] >>> (q & 31)) & 1;
}

/**
 * Bring the packed rows and columns of `s` up to date with `grid` (one pass over the grid after each edit or grid
 * change, like the cost range; searches on an unchanged grid reuse them). Rows: line y + 1 of width + 64 bits
 * (cell x at bit x + 32); columns: line x + 1 of height + 64 bits; one spare word per line for two-word reads.
 */
function ensureJpsBits(s: GridSearch, grid: Grid): void {
  if (s.bitsGrid === grid && s.bitsVersion === grid.version) return;
  const w = grid.width, h = grid.height, walk = grid.walkable;
  const rowStride = ((w + 2 * LINE_MARGIN) >> 5) + 1;
  const colStride = ((h + 2 * LINE_MARGIN) >> 5) + 1;
  const rowWords = (h + 2) * rowStride, colWords = (w + 2) * colStride;
  if (s.rowBits.length < rowWords) s.rowBits = new Int32Array(rowWords);
  if (s.colBits.length < colWords) s.colBits = new Int32Array(colWords);
  const rows = s.rowBits, cols = s.colBits;
  rows.fill(0, 0, rowWords);
  cols.fill(0, 0, colWords);
  for (let y = 0; y < h; y++) {
    const rowBase = (y + 1) * rowStride;
    const cb = y + LINE_MARGIN, colWord = cb >> 5, colBit = 1 << (cb & 31);
    for (let x = 0, i = y * w; x < w; x++, i++) {
      if (walk[i] !== 1) continue;
      const rb = x + LINE_MARGIN;
      rows[rowBase + (rb >> 5)] |= 1 << (rb & 31);
      cols[(x + 1) * colStride + colWord] |= colBit;
    }
  }
  s.rowStride = rowStride;
  s.colStride = colStride;
  s.bitsGrid = grid;
  s.bitsVersion = grid.version;
}

/**
 * Successors of the JPS expansion under way, five integers each (one cache line holds three): cell, x, y, and the
 * route from the expanded cell (diagonal steps, then straight steps; either may be 0). One expansion appends at
 * most 4 straight jumps and, per diagonal cell scanned, two straight ones or the goal: grown in stepJps to
 * 8·(shorter side) + 16 successors.
 */
let _jpsSucc = new Int32Array(5 * 64);

/** Append successor cell j = (x, y), reached by kd diagonal then ks straight steps, at slot ns; return ns + 1. */
function addSuccessor(ns: number, j: number, x: number, y: number, kd: number, ks: number): number {
  const succ = _jpsSucc, o = 5 * ns;
  succ[o] = j;
  succ[o + 1] = x;
  succ[o + 2] = y;
  succ[o + 3] = kd;
  succ[o + 4] = ks;
  return ns + 1;
}

/** Append a straight jump of k steps to cell j = (x, y); return ns + 1. */
function addJump(ns: number, j: number, x: number, y: number, k: number): number {
  return addSuccessor(ns, j, x, y, 0, k);
}

function stepJps(s: GridSearch, budget: number): PathStatus {
  // Locals and inline heap operations as in stepAStar. The successors of one expansion are collected first (cell,
  // coordinates, route), then relaxed by one copy of the relaxation code.
  const grid = s.grid!;
  const w = grid.width;
  const h = grid.height;
  const goal = s.goalCell;
  const g = s.g, mark = s.mark, parent = s.parent, heapPos = s.heapPos;
  const heap = s.heap, hf = s.heapF, hg = s.heapG;
  const gen = s.generation;
  const tieG = s.tieBreakG;
  const goalX = s.goalX, goalY = s.goalY;
  const kind = s.hKind, shift = s.hShift, scale = s.hScale;
  const unit = s.unitCost;
  const plainOctile = kind === H_OCTILE && shift === 0; // as in stepAStar
  ensureJpsBits(s, grid);
  const need = 8 * (w < h ? w : h) + 16;
  if (_jpsSucc.length < 5 * need) _jpsSucc = new Int32Array(5 * need);
  const rows = s.rowBits, cols = s.colBits, rowStride = s.rowStride, colStride = s.colStride;
  const invW = 1 / w; // rows by multiplication, as in stepAStar
  let size = s.heapSize;
  let n = 0;
  while (size > 0) {
    if (n >= budget) {
      s.heapSize = size;
      s.expanded += n;
      return 'budget';
    }
    const c = heap[0];
    heapPos[c] = -1; // closed
    size--;
    if (size > 0) {
      const node = heap[size], f = hf[size], tg = hg[size];
      const half = size >> 1;
      let pos = 0;
      while (pos < half) {
        let child = 2 * pos + 1;
        let cf = hf[child];
        let cg = hg[child];
        const right = child + 1;
        if (right < size) {
          const rf = hf[right];
          if (rf < cf || (rf === cf && hg[right] > cg)) {
            child = right;
            cf = rf;
            cg = hg[right];
          }
        }
        if (f < cf || (f === cf && tg >= cg)) break;
        const cn = heap[child];
        heap[pos] = cn;
        hf[pos] = cf;
        hg[pos] = cg;
        heapPos[cn] = pos;
        pos = child;
      }
      heap[pos] = node;
      hf[pos] = f;
      hg[pos] = tg;
      heapPos[node] = pos;
    }
    n++;
    if (c === goal) {
      s.heapSize = size;
      s.expanded += n;
      s.reached = c;
      s.state = ST_FOUND;
      return 'found';
    }
    const cy = Math.floor((c + 0.5) * invW);
    const cx = c - cy * w;
    const p = parent[c];
    let ns = 0;
    let k: number;
    // Straight jumps append (cell, x, y, 0 diagonal steps, k straight steps); diagonal scans append their own.
    if (p < 0) {
      // Start: all eight directions.
      if ((k = jumpH(rows, rowStride, cx, cy, 1, goalX, goalY)) > 0) ns = addJump(ns, c + k, cx + k, cy, k);
      if ((k = jumpH(rows, rowStride, cx, cy, -1, goalX, goalY)) > 0) ns = addJump(ns, c - k, cx - k, cy, k);
      if ((k = jumpV(cols, colStride, cx, cy, 1, goalX, goalY)) > 0) ns = addJump(ns, c + k * w, cx, cy + k, k);
      if ((k = jumpV(cols, colStride, cx, cy, -1, goalX, goalY)) > 0) ns = addJump(ns, c - k * w, cx, cy - k, k);
      ns = jumpD(rows, rowStride, cols, colStride, w, goal, goalX, goalY, c, cx, cy, 1, 1, ns);
      ns = jumpD(rows, rowStride, cols, colStride, w, goal, goalX, goalY, c, cx, cy, 1, -1, ns);
      ns = jumpD(rows, rowStride, cols, colStride, w, goal, goalX, goalY, c, cx, cy, -1, 1, ns);
      ns = jumpD(rows, rowStride, cols, colStride, w, goal, goalX, goalY, c, cx, cy, -1, -1, ns);
    } else {
      // Arrival direction: the last leg of the route from the parent (diagonal steps first, then straight).
      const py = Math.floor((p + 0.5) * invW);
      const px = p - py * w;
      const ex = cx - px, ey = cy - py;
      const adx = ex < 0 ? -ex : ex, ady = ey < 0 ? -ey : ey;
      const dx = adx >= ady ? (ex > 0 ? 1 : -1) : 0;
      const dy = ady >= adx ? (ey > 0 ? 1 : -1) : 0;
      if (dx !== 0 && dy !== 0) {
        if ((k = jumpH(rows, rowStride, cx, cy, dx, goalX, goalY)) > 0) ns = addJump(ns, c + k * dx, cx + k * dx, cy, k);
        if ((k = jumpV(cols, colStride, cx, cy, dy, goalX, goalY)) > 0) ns = addJump(ns, c + k * dy * w, cx, cy + k * dy, k);
        ns = jumpD(rows, rowStride, cols, colStride, w, goal, goalX, goalY, c, cx, cy, dx, dy, ns);
      } else if (dx !== 0) {
        if ((k = jumpH(rows, rowStride, cx, cy, dx, goalX, goalY)) > 0) ns = addJump(ns, c + k * dx, cx + k * dx, cy, k);
        // Forced side cells (x, y±1) whose "behind" cell (x−dx, y±1) is blocked.
        if (rowBit(rows, rowStride, cx, cy - 1) === 1 && rowBit(rows, rowStride, cx - dx, cy - 1) === 0) {
          if ((k = jumpV(cols, colStride, cx, cy, -1, goalX, goalY)) > 0) ns = addJump(ns, c - k * w, cx, cy - k, k);
          ns = jumpD(rows, rowStride, cols, colStride, w, goal, goalX, goalY, c, cx, cy, dx, -1, ns);
        }
        if (rowBit(rows, rowStride, cx, cy + 1) === 1 && rowBit(rows, rowStride, cx - dx, cy + 1) === 0) {
          if ((k = jumpV(cols, colStride, cx, cy, 1, goalX, goalY)) > 0) ns = addJump(ns, c + k * w, cx, cy + k, k);
          ns = jumpD(rows, rowStride, cols, colStride, w, goal, goalX, goalY, c, cx, cy, dx, 1, ns);
        }
      } else {
        if ((k = jumpV(cols, colStride, cx, cy, dy, goalX, goalY)) > 0) ns = addJump(ns, c + k * dy * w, cx, cy + k * dy, k);
        if (rowBit(rows, rowStride, cx - 1, cy) === 1 && rowBit(rows, rowStride, cx - 1, cy - dy) === 0) {
          if ((k = jumpH(rows, rowStride, cx, cy, -1, goalX, goalY)) > 0) ns = addJump(ns, c - k, cx - k, cy, k);
          ns = jumpD(rows, rowStride, cols, colStride, w, goal, goalX, goalY, c, cx, cy, -1, dy, ns);
        }
        if (rowBit(rows, rowStride, cx + 1, cy) === 1 && rowBit(rows, rowStride, cx + 1, cy - dy) === 0) {
          if ((k = jumpH(rows, rowStride, cx, cy, 1, goalX, goalY)) > 0) ns = addJump(ns, c + k, cx + k, cy, k);
          ns = jumpD(rows, rowStride, cols, colStride, w, goal, goalX, goalY, c, cx, cy, 1, dy, ns);
        }
      }
    }
    // Relax the jump points. A route of kd diagonal then ks straight steps has octile length (kd + ks) + (√2−1)·kd.
    const gc = g[c];
    const succ = _jpsSucc;
    for (let o = 0, end = 5 * ns; o < end; o += 5) {
      const j = succ[o], kd = succ[o + 3];
      const ng = gc + (kd + succ[o + 4] + OCTILE_K * kd) * unit;
      let pos: number;
      if (mark[j] !== gen) {
        mark[j] = gen;
        pos = size++;
      } else if (ng < g[j] && (pos = heapPos[j]) >= 0) {
        // Open with a worse g: decrease-key. Closed jump points are not reopened.
      } else {
        continue;
      }
      g[j] = ng;
      parent[j] = c;
      let ax = succ[o + 1] - goalX, ay = succ[o + 2] - goalY;
      if (ax < 0) ax = -ax;
      if (ay < 0) ay = -ay;
      let hv = 0;
      if (plainOctile) {
        hv = (Math.max(ax, ay) + OCTILE_K * Math.min(ax, ay)) * scale;
      } else if (kind !== H_NONE) {
        let v = kind === H_OCTILE ? (ax > ay ? ax + OCTILE_K * ay : ay + OCTILE_K * ax)
          : kind === H_MANHATTAN ? ax + ay : Math.sqrt(ax * ax + ay * ay);
        v -= shift;
        hv = v > 0 ? v * scale : 0;
      }
      const f = ng + hv, tg = tieG ? ng : 0;
      while (pos > 0) {
        const up = (pos - 1) >> 1;
        const uf = hf[up];
        if (f > uf || (f === uf && tg <= hg[up])) break;
        const other = heap[up];
        heap[pos] = other;
        hf[pos] = uf;
        hg[pos] = hg[up];
        heapPos[other] = pos;
        pos = up;
      }
      heap[pos] = j;
      hf[pos] = f;
      hg[pos] = tg;
      heapPos[j] = pos;
    }
  }
  s.heapSize = 0;
  s.expanded += n;
  s.state = ST_UNREACHABLE;
  return 'unreachable';
}

// ---------------------------------------------------------------------------------------------------------------
// Results

/** Number of cells in the found path of `search` (0 unless its state is 'found'). */
export function gridSearchPathLength(search: GridSearch): number {
  if (search.state !== ST_FOUND) return 0;
  const parent = search.parent;
  let len = 1;
  if (search.algorithm !== ALGO_JPS) {
    // A*: every parent link is one step.
    for (let c = parent[search.reached]; c >= 0; c = parent[c]) len++;
    return len;
  }
  // JPS: a jump is diagonal steps then straight ones (either may be none), so it covers max(|dx|, |dy|) steps.
  const w = search.grid!.width;
  for (let c = search.reached, p = parent[c]; p >= 0; c = p, p = parent[c]) {
    const cx = c % w, px = p % w;
    const dx = cx > px ? cx - px : px - cx;
    const dy = Math.abs((c - cx) - (p - px)) / w;
    len += dx > dy ? dx : dy;
  }
  return len;
}

/**
 * Write the found path's cells (start first) into `out` (caller-owned, length ≥ gridSearchPathLength) and return
 * the count. JPS jump points are expanded back into every cell between them. Returns 0 unless found.
 */
export function readGridSearchPath(search: GridSearch, out: Int32Array): number {
  const len = gridSearchPathLength(search);
  if (len === 0) return 0;
  if (out.length < len) throw new InvalidArgumentError('out.length', out.length, `must be at least the path length ${len}`);
  return writePath(search, out, len);
}

/** Write the found path of `len` cells (gridSearchPathLength) into `out`. */
function writePath(search: GridSearch, out: Int32Array, len: number): number {
  const w = search.grid!.width;
  const parent = search.parent;
  let k = len - 1;
  let c = search.reached;
  out[k] = c;
  if (search.algorithm !== ALGO_JPS) {
    for (let p = parent[c]; p >= 0; p = parent[p]) out[--k] = p;
    return len;
  }
  for (let p = parent[c]; p >= 0; c = p, p = parent[c]) {
    // Walk from jump point c back to p: the route left p diagonally for min(|dx|, |dy|) steps, then went straight,
    // so going back it is straight for ||dx| − |dy|| steps, then diagonal.
    const cx = c % w, px = p % w;
    const ex = px - cx, ey = ((p - px) - (c - cx)) / w;
    const ax = ex < 0 ? -ex : ex, ay = ey < 0 ? -ey : ey;
    const sx = ex > 0 ? 1 : ex < 0 ? -1 : 0;
    const sy = ey > 0 ? w : ey < 0 ? -w : 0;
    const straight = ax > ay ? sx : sy;
    let i = c;
    for (let t = ax > ay ? ax - ay : ay - ax; t > 0; t--) out[--k] = i += straight;
    for (let t = ax < ay ? ax : ay; t > 0; t--) out[--k] = i += sx + sy;
  }
  return len;
}

/** Cost of the found path (Infinity unless found). */
export function gridSearchCost(search: GridSearch): number {
  return search.state === ST_FOUND ? search.g[search.reached] : Infinity;
}

// Result cells come from a pooled slab, as Node's Buffer.allocUnsafe does: each result gets its own disjoint range
// of a shared 64 KiB ArrayBuffer, and a fresh slab is started when one is full. A typed array over its own small
// ArrayBuffer costs a backing-store allocation (measured ~0.8–1.3 µs for 47–200 cells against ~0.05 µs for a view,
// Node 20, 2026-11: more than a whole JPS query's expansions on den312d). Longer paths get their own buffer.
const CELL_SLAB_BYTES = 1 << 16;
let _cellSlab = new ArrayBuffer(CELL_SLAB_BYTES);
let _cellSlabUsed = 0;

function allocCells(n: number): Int32Array {
  const bytes = 4 * n;
  if (n === 0 || bytes > CELL_SLAB_BYTES >> 2) return new Int32Array(n);
  // byteLength 0: the slab was transferred (detached) by a user; start a new one.
  if (_cellSlabUsed + bytes > _cellSlab.byteLength) {
    _cellSlab = new ArrayBuffer(CELL_SLAB_BYTES);
    _cellSlabUsed = 0;
  }
  const cells = new Int32Array(_cellSlab, _cellSlabUsed, n);
  _cellSlabUsed += bytes;
  return cells;
}

function toResult(search: GridSearch, status: PathStatus): PathResult {
  let cells: Int32Array;
  if (status === 'found') {
    const len = gridSearchPathLength(search);
    cells = allocCells(len);
    writePath(search, cells, len);
  } else {
    cells = allocCells(0);
  }
  return {
    status,
    cost: status === 'found' ? search.g[search.reached] : Infinity,
    cells,
    expanded: search.expanded,
    epsilon: search.epsilon,
    search,
  };
}

/**
 * A* from `start` to `goal` (cells `{x, y}`). Returns status 'found' with the cost and cells, 'unreachable' (start
 * or goal blocked, or no route), or 'budget' when `options.maxExpansions` ran out (continue with resumePath).
 * Throws on malformed arguments only. Allocates only the result and its `cells` array.
 */
export function findPath(
  grid: Grid,
  start: { readonly x: number; readonly y: number },
  goal: { readonly x: number; readonly y: number },
  options: FindPathOptions = {},
): PathResult {
  const search = options.search ?? defaultSearch();
  beginGridSearch(search, grid, start, goal, options, 'astar');
  return toResult(search, stepGridSearch(search, options.maxExpansions ?? Infinity));
}

/**
 * Jump point search from `start` to `goal`: same optimal cost as findPath (8-connected, no corner cutting), far
 * fewer heap operations on open maps. Requires uniform cell costs and a single goal cell (throws otherwise).
 * Options: heuristic, weight, tieBreak, maxExpansions, search.
 */
export function findPathJps(
  grid: Grid,
  start: { readonly x: number; readonly y: number },
  goal: { readonly x: number; readonly y: number },
  options: FindPathOptions = {},
): PathResult {
  const search = options.search ?? defaultSearch();
  beginGridSearch(search, grid, start, goal, options, 'jps');
  return toResult(search, stepGridSearch(search, options.maxExpansions ?? Infinity));
}

/** Continue a query that stopped with 'budget', for up to `maxExpansions` more expansions. */
export function resumePath(search: GridSearch, maxExpansions = Infinity): PathResult {
  return toResult(search, stepGridSearch(search, maxExpansions));
}
