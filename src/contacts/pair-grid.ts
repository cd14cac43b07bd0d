/**
 * Broad phase of the contacts system: every pair of agents within a contact reach of each other, found once, by a
 * sweep over a uniform grid of the agents' CURRENT positions whose cell is as wide as the largest reach.
 *
 * Why not the world's spatial hash: that index is built at the start of the frame (before integration moves the
 * agents) with the neighbour-query cell size (metres, sized for ORCA and boids radii), so a contact query against it
 * must be padded by every agent's move, scans the many agents of a large cell to keep the few within a contact
 * radius, and finds each pair twice (once from each side). Measured on the 100k horde, the per-agent queries cost
 * about 80 % of their time in the few random memory reads that start each row of cells; the sweep below reads
 * memory in order.
 *
 * Layout. Cell (i, j) = (floor((x − x0) / h), floor((y − y0) / h)) over the bounding box of the entries, with at
 * most 4 · count + 4096 cells (h is enlarged for a sparse crowd spread over a large area: slower, still exact).
 * Entries are sorted by the row-major cell index j · cols + i with one stable counting sort (Knuth, TAOCP vol. 3,
 * 5.2), so each row of cells is one run sorted by column, and entries of one cell keep their input order. (Two
 * passes of a radix sort, by column then by row, avoid the cell table but scatter every field over one write stream
 * per row: measured 3x slower at 100k agents.)
 *
 * Sweep (the "half stencil" of cell lists in molecular dynamics, Allen and Tildesley, "Computer Simulation of
 * Liquids", 1987, section 5.3.2): each entry u of row j is paired with the entries after it in its row whose column is
 * at most i(u) + 1, and with the entries of row j + 1 whose column is within 1 of i(u) (a window that only moves
 * forward as u advances). Two entries in neighbouring cells (or one cell) meet exactly once, so with h ≥ the largest
 * reach every pair within reach is examined once, and every memory access walks forward through the sorted arrays.
 */

/** Cells allowed per entry (plus CELL_SLACK): bounds the counting table. */
const CELLS_PER_ENTRY = 4;
const CELL_SLACK = 4096;

export interface PairGrid {
  /** Entries the arrays hold. */
  capacity: number;
  /** Cell side (metres) of the current contents, and the grid's origin and size in cells. */
  cellSize: number;
  x0: number;
  y0: number;
  cols: number;
  rows: number;
  /** Entries stored by the last build. */
  count: number;
  /** Row j's entries are slots [rowStart[j], rowStart[j + 1]). */
  rowStart: Int32Array;
  /** Scratch: per-cell counts, then scatter cursors; each input entry's cell and column. */
  cellStart: Int32Array;
  cellOf: Int32Array;
  colOf: Int32Array;
  /** Entries in (row, column) order: id, column, position and radius. */
  ids: Int32Array;
  col: Int32Array;
  xs: Float64Array;
  ys: Float64Array;
  rs: Float64Array;
}

/**
 * Candidate pairs as adjacency lists: the partners of entity e are b[off[e] .. off[e] + cnt[e]), in increasing id
 * (each pair appears in both of its entities' lists; off and cnt are indexed by entity id and meaningful for the
 * entities of the last gatherPairs call).
 */
export interface PairList {
  off: Int32Array;
  cnt: Int32Array;
  b: Int32Array;
  /** Pairs stored (each once; b holds 2 · count ids). */
  count: number;
  /** Scratch: the pairs in sweep order, the directed pairs sorted by partner, and per-id counts. */
  sweepA: Int32Array;
  sweepB: Int32Array;
  tmpA: Int32Array;
  tmpB: Int32Array;
  byId: Int32Array;
}

function allocate(g: PairGrid, capacity: number): void {
  g.capacity = capacity;
  g.cellOf = new Int32Array(capacity); g.colOf = new Int32Array(capacity);
  g.cellStart = new Int32Array(CELLS_PER_ENTRY * capacity + CELL_SLACK + 1); g.rowStart = new Int32Array(CELLS_PER_ENTRY * capacity + CELL_SLACK + 1);
  g.ids = new Int32Array(capacity); g.col = new Int32Array(capacity); g.xs = new Float64Array(capacity); g.ys = new Float64Array(capacity);
  g.rs = new Float64Array(capacity);
}

/** An empty grid for up to `capacity` entries (grown by buildPairGrid when a build needs more). */
export function createPairGrid(capacity: number): PairGrid {
  const e = new Int32Array(0), f = new Float64Array(0);
  const g: PairGrid = {
    capacity: 0, cellSize: 1, x0: 0, y0: 0, cols: 0, rows: 0, count: 0,
    rowStart: e, cellStart: e, cellOf: e, colOf: e, ids: e, col: e, xs: f, ys: f, rs: f,
  };
  allocate(g, Math.max(1, capacity));
  return g;
}

/** An empty pair list for entity ids below `ids` (grown by gatherPairs when needed). */
export function createPairList(ids: number): PairList {
  return { off: new Int32Array(ids), cnt: new Int32Array(ids), b: new Int32Array(1024), count: 0, sweepA: new Int32Array(1024), sweepB: new Int32Array(1024),
    tmpA: new Int32Array(1024), tmpB: new Int32Array(1024), byId: new Int32Array(ids + 1) };
}

/**
 * File entities ids[0..count) at (xs[id], ys[id]) with radius rs[id] into cells of side at least `cellSize`
 * (> 0, metres). Grows the grid's arrays when count exceeds its capacity (the only allocation). Positions must be
 * finite (a NaN files into cell (0, 0) and matches nothing).
 */
export function buildPairGrid(g: PairGrid, xs: Float64Array, ys: Float64Array, rs: Float64Array, ids: Int32Array, count: number, cellSize: number): void {
  if (count > g.capacity) allocate(g, Math.max(count, 2 * g.capacity));
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let k = 0; k < count; k++) {
    const id = ids[k], x = xs[id], y = ys[id];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (!(maxX >= minX)) { minX = 0; maxX = 0; }
  if (!(maxY >= minY)) { minY = 0; maxY = 0; }
  // cell side: at least cellSize, enlarged until the grid has at most CELLS_PER_ENTRY · count + CELL_SLACK cells
  const limit = CELLS_PER_ENTRY * count + CELL_SLACK;
  let h = cellSize, cols = 0, rows = 0;
  for (;;) {
    cols = Math.floor((maxX - minX) / h) + 1; rows = Math.floor((maxY - minY) / h) + 1;
    if (cols * rows <= limit) break;
    h *= Math.max(1.01, Math.sqrt((cols * rows) / limit));
  }
  const inv = 1 / h, cells = cols * rows;
  const cellOf = g.cellOf, colOf = g.colOf, cellStart = g.cellStart, rowStart = g.rowStart;
  cellStart.fill(0, 0, cells + 1);
  // cells (clamped: round-off at the far edge of the box, and NaN, stay inside the grid) and their counts
  for (let k = 0; k < count; k++) {
    const id = ids[k];
    let i = Math.floor((xs[id] - minX) * inv) | 0, j = Math.floor((ys[id] - minY) * inv) | 0;
    i = i < 0 ? 0 : i >= cols ? cols - 1 : i;
    j = j < 0 ? 0 : j >= rows ? rows - 1 : j;
    const c = j * cols + i;
    cellOf[k] = c; colOf[k] = i;
    cellStart[c + 1]++;
  }
  for (let c = 0; c < cells; c++) cellStart[c + 1] += cellStart[c];
  for (let j = 0; j <= rows; j++) rowStart[j] = cellStart[j * cols];
  // stable scatter into cell order
  const sid = g.ids, scol = g.col, sx = g.xs, sy = g.ys, sr = g.rs;
  for (let k = 0; k < count; k++) {
    const id = ids[k];
    const s = cellStart[cellOf[k]]++;
    sid[s] = id; scol[s] = colOf[k]; sx[s] = xs[id]; sy[s] = ys[id]; sr[s] = rs[id];
  }
  g.count = count; g.cellSize = h; g.x0 = minX; g.y0 = minY; g.cols = cols; g.rows = rows;
}

/**
 * Every pair of grid entries (p, q) with
 *   |x_p − x_q|² ≤ (r_p + r_q + pad)²
 * (positions and radii are the grid's copies, those of the build), as adjacency lists laid out in the order of
 * ids[0..count) (the ids of the build), each sorted by increasing partner id, so the result does not depend on the
 * grid's internal order. Requires 2 · max(r) + pad ≤ the cell size. Grows out's arrays when full.
 */
export function gatherPairs(g: PairGrid, pad: number, ids: Int32Array, count: number, out: PairList): void {
  let pa = out.sweepA, pb = out.sweepB, cap = pa.length;
  let n = 0;
  const rowStart = g.rowStart, rows = g.rows, sid = g.ids, scol = g.col, sx = g.xs, sy = g.ys, sr = g.rs;
  for (let j = 0; j < rows; j++) {
    const e0 = rowStart[j + 1];
    const e1 = j + 1 < rows ? rowStart[j + 2] : e0; // next row: [e0, e1)
    let w = e0; // first entry of the next row whose column can still meet the current one (column ≥ i − 1)
    for (let u = rowStart[j]; u < e0; u++) {
      const iu = scol[u], idu = sid[u];
      const x = sx[u], y = sy[u], ru = sr[u] + pad;
      while (w < e1 && scol[w] < iu - 1) w++;
      // room for this entry's pairs: at most (e0 − u − 1) + (e1 − w) more
      if (n + (e0 - u - 1) + (e1 - w) > cap) {
        cap = Math.max(2 * cap, n + (e0 - u - 1) + (e1 - w));
        const ga = new Int32Array(cap), gb = new Int32Array(cap);
        ga.set(pa); gb.set(pb);
        pa = ga; pb = gb; out.sweepA = pa; out.sweepB = pb;
      }
      const lim = iu + 1;
      // same row: the entries after u in its cell and the next
      for (let v = u + 1; v < e0; v++) {
        if (scol[v] > lim) break;
        const dx = sx[v] - x, dy = sy[v] - y, reach = ru + sr[v];
        if (dx * dx + dy * dy > reach * reach) continue;
        pa[n] = idu; pb[n] = sid[v]; n++;
      }
      // next row: columns i − 1 .. i + 1
      for (let v = w; v < e1; v++) {
        if (scol[v] > lim) break;
        const dx = sx[v] - x, dy = sy[v] - y, reach = ru + sr[v];
        if (dx * dx + dy * dy > reach * reach) continue;
        pa[n] = idu; pb[n] = sid[v]; n++;
      }
    }
  }
  // adjacency lists, each sorted by partner id, by a two-digit LSD radix sort of the 2n directed pairs (Knuth,
  // TAOCP vol. 3, 5.2.5): a counting sort by partner id into (tmpA, tmpB), then a stable one by owner into the runs
  // laid out in ids order. (Inserting each partner into its sorted place directly cost twice the sweep in a
  // 10,000-agent pile; this costs about as much as the sweep.)
  const off = out.off, cnt = out.cnt;
  if (out.tmpA.length < 2 * n) { out.tmpA = new Int32Array(Math.max(2 * n, 2 * out.tmpA.length)); out.tmpB = new Int32Array(out.tmpA.length); }
  if (out.b.length < 2 * n) out.b = new Int32Array(Math.max(2 * n, 2 * out.b.length));
  const ta = out.tmpA, tb = out.tmpB, b = out.b;
  // digit 1, partner id: an id-indexed prefix over [0, maxId] (the ids need not come sorted), so the partners of
  // each owner reach digit 2 in increasing id order
  let maxId = 0;
  for (let k = 0; k < count; k++) { const e = ids[k]; if (e > maxId) maxId = e; }
  const byId = out.byId.length > maxId + 1 ? out.byId : (out.byId = new Int32Array(2 * (maxId + 2)));
  byId.fill(0, 0, maxId + 2);
  for (let p = 0; p < n; p++) { byId[pa[p] + 1]++; byId[pb[p] + 1]++; }
  for (let e = 0; e <= maxId; e++) byId[e + 1] += byId[e];
  for (let p = 0; p < n; p++) {
    const a = pa[p], e = pb[p];
    let t = byId[e]++; ta[t] = a; tb[t] = e; // a's partner e
    t = byId[a]++; ta[t] = e; tb[t] = a; // e's partner a
  }
  // digit 2, owner: runs laid out in ids order; the scatter keeps the partner order of digit 1
  for (let k = 0; k < count; k++) cnt[ids[k]] = 0;
  for (let t = 0; t < 2 * n; t++) cnt[ta[t]]++;
  let sum = 0;
  for (let k = 0; k < count; k++) { const e = ids[k]; off[e] = sum; sum += cnt[e]; cnt[e] = 0; }
  for (let t = 0; t < 2 * n; t++) { const a = ta[t]; b[off[a] + cnt[a]++] = tb[t]; }
  out.count = n;
}
