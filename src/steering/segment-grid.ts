/**
 * A uniform grid over obstacle segments, so wall avoidance tests only the segments near an agent instead of all of
 * them. Built once when the walls change (not per frame); queries allocate nothing.
 *
 * Each segment is entered in every cell its bounding box overlaps (conservative: a few cells too many for diagonal
 * walls, never a miss). Storage is compressed rows (CSR): cellStart[c] .. cellStart[c + 1] index `items`, built by
 * a counting sort like the spatial hash. A query over a box visits its cells and de-duplicates segments with a
 * per-segment stamp (a segment spanning several cells is reported once).
 */
import { InvalidArgumentError } from '../core/errors';
import { requirePositive } from '../core/validate';

export interface SegmentGrid {
  /** The segments, [x0, y0, x1, y1, ...], metres (a copy owned by the grid). */
  readonly segments: Float64Array;
  readonly segmentCount: number;
  readonly cellSize: number;
  readonly originX: number;
  readonly originY: number;
  readonly cols: number;
  readonly rows: number;
  readonly cellStart: Int32Array;
  readonly items: Int32Array;
  /** Query de-duplication: stamp[s] === queryStamp when s was already reported by the current query. */
  readonly stamp: Uint32Array;
  queryStamp: number;
}

/**
 * Build a grid over `segments` ([x0, y0, x1, y1, ...]). The cell count is capped at ~4 per segment (cells grow when the
 * walls span a large area), so memory stays O(segments).
 */
export function createSegmentGrid(segments: ArrayLike<number>, cellSize: number): SegmentGrid {
  requirePositive('cellSize', cellSize);
  if (segments.length % 4 !== 0) throw new InvalidArgumentError('segments', segments.length, 'length must be a multiple of 4 ([x0, y0, x1, y1, ...])');
  const n = segments.length / 4;
  const seg = new Float64Array(segments.length);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < segments.length; i++) {
    const v = segments[i];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new InvalidArgumentError(`segments[${i}]`, v, 'must be a finite number');
    seg[i] = v;
    if ((i & 1) === 0) { if (v < minX) minX = v; if (v > maxX) maxX = v; } else { if (v < minY) minY = v; if (v > maxY) maxY = v; }
  }
  if (n === 0) { minX = minY = 0; maxX = maxY = 0; }
  let cs = cellSize;
  let cols = Math.floor((maxX - minX) / cs) + 1, rows = Math.floor((maxY - minY) / cs) + 1;
  const maxCells = Math.max(16, 4 * n);
  while (cols * rows > maxCells) {
    cs *= 2;
    cols = Math.floor((maxX - minX) / cs) + 1; rows = Math.floor((maxY - minY) / cs) + 1;
  }
  const cellStart = new Int32Array(cols * rows + 1);
  const cellRange = (s: number, visit: (c: number) => void) => {
    const o = 4 * s;
    const x0 = Math.min(seg[o], seg[o + 2]), x1 = Math.max(seg[o], seg[o + 2]);
    const y0 = Math.min(seg[o + 1], seg[o + 3]), y1 = Math.max(seg[o + 1], seg[o + 3]);
    const c0 = Math.floor((x0 - minX) / cs), c1 = Math.floor((x1 - minX) / cs);
    const r0 = Math.floor((y0 - minY) / cs), r1 = Math.floor((y1 - minY) / cs);
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) visit(r * cols + c);
  };
  // Count, prefix-sum, scatter (build time only, so closures are fine here).
  for (let s = 0; s < n; s++) cellRange(s, (c) => { cellStart[c + 1]++; });
  for (let c = 0; c < cols * rows; c++) cellStart[c + 1] += cellStart[c];
  const items = new Int32Array(cellStart[cols * rows]);
  const cursor = cellStart.slice(0, cols * rows);
  for (let s = 0; s < n; s++) cellRange(s, (c) => { items[cursor[c]++] = s; });
  return { segments: seg, segmentCount: n, cellSize: cs, originX: minX, originY: minY, cols, rows, cellStart, items, stamp: new Uint32Array(n), queryStamp: 0 };
}

/**
 * Indices of the segments whose cells overlap the box [x0, x1] × [y0, y1], each once, in cell order; at most
 * out.length. @returns the count written.
 */
export function querySegmentGrid(g: SegmentGrid, x0: number, y0: number, x1: number, y1: number, out: Int32Array): number {
  const b = _qBox;
  b[0] = x0; b[1] = y0; b[2] = x1; b[3] = y1;
  return querySegmentGridArr(g, b, 0, out);
}

const _qBox = new Float64Array(4);

/**
 * querySegmentGrid in array form: the box is box[bi ..] = x0, y0, x1, y1 (no double crosses the call, so nothing is
 * boxed when V8 does not inline it into a large caller such as the steering system).
 */
export function querySegmentGridArr(g: SegmentGrid, box: Float64Array, bi: number, out: Int32Array): number {
  const x0 = box[bi], y0 = box[bi + 1], x1 = box[bi + 2], y1 = box[bi + 3];
  if (g.segmentCount === 0) return 0;
  let st = (g.queryStamp + 1) >>> 0;
  if (st === 0) { g.stamp.fill(0); st = 1; }
  g.queryStamp = st;
  const inv = 1 / g.cellSize;
  let c0 = Math.floor((x0 - g.originX) * inv), c1 = Math.floor((x1 - g.originX) * inv);
  let r0 = Math.floor((y0 - g.originY) * inv), r1 = Math.floor((y1 - g.originY) * inv);
  if (c1 < 0 || r1 < 0 || c0 >= g.cols || r0 >= g.rows) return 0;
  if (c0 < 0) c0 = 0;
  if (r0 < 0) r0 = 0;
  if (c1 >= g.cols) c1 = g.cols - 1;
  if (r1 >= g.rows) r1 = g.rows - 1;
  const start = g.cellStart, items = g.items, stamp = g.stamp, cap = out.length;
  let n = 0;
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const cell = r * g.cols + c;
      for (let t = start[cell], e = start[cell + 1]; t < e; t++) {
        const s = items[t];
        if (stamp[s] === st) continue;
        stamp[s] = st;
        if (n === cap) return n;
        out[n++] = s;
      }
    }
  }
  return n;
}

