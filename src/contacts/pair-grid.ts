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
 * Layout. Cell (i, j) = (floor((x − x0) / h), floor((y − y0) / h)) over the bounding box of the entries, at most
 * MAX_CELLS cells along an axis (h is enlarged for a sparse crowd spread over a huge area: slower, still exact).
 * Entries are sorted by (j, i) with two stable counting sorts (LSD radix sort: by i, then by j; Knuth, TAOCP vol. 3,
 * 5.2), so each row of cells is one run sorted by column, and entries of one cell keep their input order.
 *
 * Sweep (the "half stencil" of cell lists in molecular dynamics, Allen and Tildesley, "Computer Simulation of
 * Liquids", 1987, section 5.3.2): each entry u of row j is paired with the entries after it in its row whose column is
 * at most i(u) + 1, and with the entries of row j + 1 whose column is within 1 of i(u) (a window that only moves
 * forward as u advances). Two entries in neighbouring cells (or one cell) meet exactly once, so with h ≥ the largest
 * reach every pair within reach is examined once, and every memory access walks forward through the sorted arrays.
 */

/** Largest number of cells along an axis. */
const MAX_CELLS = 4096;

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
  /** Row j's entries are slots [rowStart[j], rowStart[j + 1]) (length MAX_CELLS + 1). */
  rowStart: Int32Array;
  /** Scratch: per-column counts (length MAX_CELLS + 1), entry cells and the order after the first sort pass. */
  colStart: Int32Array;
  cellI: Int32Array;
  cellJ: Int32Array;
  order: Int32Array;
  /** Entries in (row, column) order: id, column, position, radius and query flag. */
  ids: Int32Array;
  col: Int32Array;
  xs: Float64Array;
  ys: Float64Array;
  rs: Float64Array;
  query: Uint8Array;
}

/**
 * Candidate pairs, by owner: the partners of owner q are b[off[q] .. off[q] + cnt[q]), in increasing id (off and cnt
 * are indexed by entity id and meaningful for the owners listed in the last gatherPairs call).
 */
export interface PairList {
  off: Int32Array;
  cnt: Int32Array;
  b: Int32Array;
  /** Pairs stored. */
  count: number;
  /** Scratch: the pairs in sweep order (owner, partner). */
  sweepA: Int32Array;
  sweepB: Int32Array;
}

function allocate(g: PairGrid, capacity: number): void {
  g.capacity = capacity;
  g.cellI = new Int32Array(capacity); g.cellJ = new Int32Array(capacity); g.order = new Int32Array(capacity);
  g.ids = new Int32Array(capacity); g.col = new Int32Array(capacity); g.xs = new Float64Array(capacity); g.ys = new Float64Array(capacity);
  g.rs = new Float64Array(capacity); g.query = new Uint8Array(capacity);
}

/** An empty grid for up to `capacity` entries (grown by buildPairGrid when a build needs more). */
export function createPairGrid(capacity: number): PairGrid {
  const e = new Int32Array(0), f = new Float64Array(0);
  const g: PairGrid = {
    capacity: 0, cellSize: 1, x0: 0, y0: 0, cols: 0, rows: 0, count: 0,
    rowStart: new Int32Array(MAX_CELLS + 1), colStart: new Int32Array(MAX_CELLS + 1),
    cellI: e, cellJ: e, order: e, ids: e, col: e, xs: f, ys: f, rs: f, query: new Uint8Array(0),
  };
  allocate(g, Math.max(1, capacity));
  return g;
}

/** An empty pair list for entity ids below `ids` (grown by gatherPairs when needed). */
export function createPairList(ids: number): PairList {
  return { off: new Int32Array(ids), cnt: new Int32Array(ids), b: new Int32Array(1024), count: 0, sweepA: new Int32Array(1024), sweepB: new Int32Array(1024) };
}

/**
 * File entities ids[0..count) at (xs[id], ys[id]) with radius rs[id] into cells of side at least `cellSize`
 * (> 0, metres); an entity is a query when (flags[id] & bit) ≠ 0. Grows the grid's arrays when count exceeds its
 * capacity (the only allocation). Positions must be finite (a NaN files into cell (0, 0) and matches nothing).
 */
export function buildPairGrid(
  g: PairGrid, xs: Float64Array, ys: Float64Array, rs: Float64Array, flags: Uint8Array, bit: number,
  ids: Int32Array, count: number, cellSize: number,
): void {
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
  const h = Math.max(cellSize, (maxX - minX) / (MAX_CELLS - 1), (maxY - minY) / (MAX_CELLS - 1));
  const inv = 1 / h;
  const cols = Math.min(MAX_CELLS, Math.floor((maxX - minX) * inv) + 1), rows = Math.min(MAX_CELLS, Math.floor((maxY - minY) * inv) + 1);
  const ci = g.cellI, cj = g.cellJ, colStart = g.colStart, rowStart = g.rowStart, order = g.order;
  colStart.fill(0, 0, cols + 1);
  rowStart.fill(0, 0, rows + 1);
  // cells (clamped: round-off at the far edge of the box, and NaN, stay inside the grid) and their counts
  for (let k = 0; k < count; k++) {
    const id = ids[k];
    let i = Math.floor((xs[id] - minX) * inv) | 0, j = Math.floor((ys[id] - minY) * inv) | 0;
    i = i < 0 ? 0 : i >= cols ? cols - 1 : i;
    j = j < 0 ? 0 : j >= rows ? rows - 1 : j;
    ci[k] = i; cj[k] = j;
    colStart[i + 1]++; rowStart[j + 1]++;
  }
  for (let i = 0; i < cols; i++) colStart[i + 1] += colStart[i];
  for (let j = 0; j < rows; j++) rowStart[j + 1] += rowStart[j];
  // pass 1: stable by column (order[] holds input indices); pass 2: stable by row, into the entry arrays
  for (let k = 0; k < count; k++) order[colStart[ci[k]]++] = k;
  const sid = g.ids, scol = g.col, sx = g.xs, sy = g.ys, sr = g.rs, sq = g.query;
  for (let t = 0; t < count; t++) {
    const k = order[t];
    const j = cj[k];
    const s = rowStart[j]++;
    const id = ids[k];
    sid[s] = id; scol[s] = ci[k]; sx[s] = xs[id]; sy[s] = ys[id]; sr[s] = rs[id]; sq[s] = (flags[id] & bit) !== 0 ? 1 : 0;
  }
  // the scatter advanced each row start to the next row's: shift back
  for (let j = rows; j > 0; j--) rowStart[j] = rowStart[j - 1];
  rowStart[0] = 0;
  g.count = count; g.cellSize = h; g.x0 = minX; g.y0 = minY; g.cols = cols; g.rows = rows;
}

/**
 * Every pair of grid entries (p, q) with at least one query among them and
 *   |x_p − x_q|² ≤ (r_p + r_q + pad)²
 * (positions and radii are the grid's copies, those of the build), listed once under its owner: the smaller id when
 * both are queries, else the query. Owners' runs are laid out in the order of owners[0..ownerCount) (which must
 * list every query of the build), each run sorted by increasing partner id, so the result does not depend on the
 * grid's internal order. Requires 2 · max(r) + pad ≤ the cell size. Grows out's arrays by doubling when full.
 */
export function gatherPairs(g: PairGrid, pad: number, owners: Int32Array, ownerCount: number, out: PairList): void {
  let pa = out.sweepA, pb = out.sweepB, cap = pa.length;
  let n = 0;
  const rowStart = g.rowStart, rows = g.rows, sid = g.ids, scol = g.col, sx = g.xs, sy = g.ys, sr = g.rs, sq = g.query;
  for (let j = 0; j < rows; j++) {
    const e0 = rowStart[j + 1];
    const e1 = j + 1 < rows ? rowStart[j + 2] : e0; // next row: [e0, e1)
    let w = e0; // first entry of the next row whose column can still meet the current one (column ≥ i − 1)
    for (let u = rowStart[j]; u < e0; u++) {
      const iu = scol[u], qu = sq[u], idu = sid[u];
      const x = sx[u], y = sy[u], ru = sr[u] + pad;
      while (w < e1 && scol[w] < iu - 1) w++;
      // same row: entries after u in this cell and the next; then the next row's three cells
      for (let pass = 0; pass < 2; pass++) {
        let v = pass === 0 ? u + 1 : w;
        const end = pass === 0 ? e0 : e1;
        for (; v < end; v++) {
          if (scol[v] > iu + 1) break;
          const qv = sq[v];
          if ((qu | qv) === 0) continue; // neither looks for contacts this frame
          const dx = sx[v] - x, dy = sy[v] - y, reach = ru + sr[v];
          if (dx * dx + dy * dy > reach * reach) continue;
          if (n === cap) {
            cap *= 2;
            const ga = new Int32Array(cap), gb = new Int32Array(cap);
            ga.set(pa); gb.set(pb);
            pa = ga; pb = gb; out.sweepA = pa; out.sweepB = pb;
          }
          const idv = sid[v];
          // owner: the smaller id when both are queries, else the query
          const ownU = qu !== 0 && (qv === 0 || idu < idv);
          pa[n] = ownU ? idu : idv; pb[n] = ownU ? idv : idu; n++;
        }
      }
    }
  }
  // group by owner (counting sort in the owners' order), then sort each run by partner id (runs are short)
  const off = out.off, cnt = out.cnt;
  for (let k = 0; k < ownerCount; k++) cnt[owners[k]] = 0;
  for (let p = 0; p < n; p++) cnt[pa[p]]++;
  let sum = 0;
  for (let k = 0; k < ownerCount; k++) { const e = owners[k]; off[e] = sum; sum += cnt[e]; cnt[e] = 0; }
  if (out.b.length < n) out.b = new Int32Array(Math.max(n, 2 * out.b.length));
  const b = out.b;
  for (let p = 0; p < n; p++) {
    const a = pa[p], e = pb[p];
    const s0 = off[a];
    let k = s0 + cnt[a]++;
    while (k > s0 && b[k - 1] > e) { b[k] = b[k - 1]; k--; }
    b[k] = e;
  }
  out.count = n;
}
