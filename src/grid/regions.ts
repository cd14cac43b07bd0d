import type { Grid } from './grid';
import { requireGridCell } from './grid';
import { InvalidArgumentError } from '../core/errors';

/**
 * Connected regions of a grid's walkable cells, for O(1) reachability questions ("can any unit get there?") and
 * for knowing when a search cannot succeed before running it.
 *
 * Why 4-connected components answer every move rule the grid searches allow. A path with orthogonal moves only
 * joins 4-connected cells by definition. A diagonal step from a to d = a + (±1, ±1) is legal only when at least one
 * of the two orthogonally adjacent cells b is walkable (cornerCutting: at least one; default: both), and then
 * a → b → d is a 4-connected route between the same cells. So two walkable cells are joined by a legal path of any
 * connectivity (4 or 8) and either corner rule exactly when they are in the same 4-connected component. Cell costs
 * do not matter: every walkable cell can be entered at a finite cost.
 */
export interface GridRegions {
  /** Region of each cell (row-major, `y * width + x`): 0 .. count − 1, or −1 for a blocked cell. */
  readonly labels: Int32Array;
  /** Number of regions. */
  count: number;
  /** The grid.version the labels were computed for (−1: not yet). */
  version: number;
  /** The grid these labels are for. */
  readonly grid: Grid;
}

/** Allocate region labels for `grid` (computed on the first refreshGridRegions). */
export function createGridRegions(grid: Grid): GridRegions {
  if (grid === null || typeof grid !== 'object' || !(grid.walkable instanceof Uint8Array)) {
    throw new InvalidArgumentError('grid', grid, 'must be a Grid from createGrid');
  }
  const n = grid.width * grid.height;
  return { labels: new Int32Array(n), count: 0, version: -1, grid };
}

/** Flood-fill stack shared by every labelling (one entry per cell of the largest grid labelled so far). */
let _stack = new Int32Array(0);

/**
 * Bring the labels up to date with the grid: O(cells) when the grid was edited since (its version changed), O(1)
 * otherwise. Returns `regions`. Allocation-free.
 */
export function refreshGridRegions(regions: GridRegions): GridRegions {
  const grid = regions.grid;
  if (regions.version === grid.version) return regions;
  const w = grid.width, h = grid.height, n = w * h;
  if (_stack.length < n) _stack = new Int32Array(n);
  const walk = grid.walkable, L = regions.labels, stack = _stack;
  for (let i = 0; i < n; i++) L[i] = walk[i] === 1 ? -2 : -1; // −2: walkable, not labelled yet
  let label = 0;
  for (let seed = 0; seed < n; seed++) {
    if (L[seed] !== -2) continue;
    L[seed] = label;
    let top = 0;
    stack[top++] = seed;
    // Each cell is pushed once (labelled when pushed), so the stack never holds more than n entries.
    while (top > 0) {
      const c = stack[--top];
      const x = c % w;
      if (x > 0 && L[c - 1] === -2) { L[c - 1] = label; stack[top++] = c - 1; }
      if (x < w - 1 && L[c + 1] === -2) { L[c + 1] = label; stack[top++] = c + 1; }
      if (c >= w && L[c - w] === -2) { L[c - w] = label; stack[top++] = c - w; }
      if (c + w < n && L[c + w] === -2) { L[c + w] = label; stack[top++] = c + w; }
    }
    label++;
  }
  regions.count = label;
  regions.version = grid.version;
  return regions;
}

/**
 * Can a path (any connectivity and corner rule) join cells a and b of the regions' grid? False if either is
 * blocked; true for a = b walkable. Refreshes the labels if the grid changed. Throws OutOfRangeError for cells off
 * the grid.
 */
export function gridCellsConnected(regions: GridRegions, a: { x: number; y: number }, b: { x: number; y: number }): boolean {
  const ia = requireGridCell(regions.grid, 'a', a), ib = requireGridCell(regions.grid, 'b', b);
  const L = refreshGridRegions(regions).labels;
  return L[ia] >= 0 && L[ia] === L[ib];
}
