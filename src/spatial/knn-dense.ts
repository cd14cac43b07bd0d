import type { SpatialHash } from './hash';
import { spatialHashBucket } from './bucket';
import { sortKeys12, sortKeys16, sortKeys20, sortKeys24, sortKeys8 } from './sort-keys';

/**
 * Batch k-nearest kernel behind queryKNearestBatch. Results are identical to one queryKNearest per entry: the k
 * nearest within r, ordered by (d², id), the entry itself excluded.
 *
 * Why a separate kernel. The hash's own query walks bucket runs, skips entries of other cells sharing a bucket,
 * reads five arrays per candidate, and sorts the survivors by insertion (about one mispredicted branch per
 * survivor). At 100k agents, k = 10, r = cell = 4 m that cost ~450 ns per query, half of it in the sort. This
 * kernel does four things instead (measured figures are CPU time on the shared 2-core EPYC VM, 2026-11-29):
 *
 * 1. Dense copy. Once per call, the entries are counting-sorted again into a dense grid of its own, with square
 *    cells of side r (whatever the hash's cell size) over the bounding box of the entries (padded), into one
 *    interleaved array E = [x, y, id] per entry. A query's disc then lies in the 3 x 3 cells around its own (4 x 4
 *    when x ± r falls exactly on cell edges); no two cells share a run, so each row of them is ONE contiguous run of
 *    E, with no cell filter, and the candidate loop reads a single array. (V8 re-checks each typed array's map and
 *    reloads its base pointer on every loop iteration, so the number of arrays a loop touches is most of its
 *    cost.) O(n + cells). A box of more than 4n + 4096 cells (a sparse crowd over a large world) is not laid out
 *    densely: its cells are hashed (the spatial hash's bucket function over a table of about 2n buckets), so a row
 *    of cells is still one run, possibly holding far cells' entries that fail the d² test. Declined (the caller
 *    then runs the single-query search for every entry) for r = 0, a box wider than 2^30 cells, or when r exceeds
 *    the hash's cell size and a query would keep far more than k survivors (the ring search, which shrinks its
 *    radius to the k-th distance, is faster there).
 * 2. Keys. For each candidate in the runs, d² is computed exactly as the hash's queries compute it, and
 *    the candidate is kept (branch-free: keys[m] is written always, m advances by +(d² <= r²)) as
 *    an int32 key (floor(d² S) << 8) | p, where p < 256 is its position in the scanned runs and S scales r² to
 *    2^22. Two agents of the same cell with the same cell range (consecutive slots: the hash files by cell too)
 *    are scanned together, which shares the loads and
 *    the loop overhead (2.2 -> 1.6 ns per candidate and agent). The query itself passes too (d² = 0, q = 0): when
 *    the keys decide (below) it is the first sorted key, and it is skipped there.
 * 3. Order. Up to 24 kept keys are sorted by a branch-free sorting network (sort-keys.ts); more (a crowded
 *    query) by a bounded insertion that keeps the k + 1 smallest. floor(d² S) is monotone in d², so if the
 *    quantised distances q = key >> 8 of the first min(m, k + 1) sorted keys are all distinct, their order is the
 *    exact d² order and nothing further down can belong in the top k (anything later has q >= q[k] > q[k - 1],
 *    hence a larger d²). Otherwise (a quantisation tie: equal or nearly equal distances, 2 of the 100k queries of
 *    the benchmark crowd, nearly every query on a lattice or a ring) resolveTies ranks the tied keys by exact
 *    (d², id) when all survivors were sorted by a network; the query goes to the exact fallback when they were not
 *    (more than 24 survivors), and with more than 256 candidates.
 * 4. Output. d² is recomputed from E for the k winners (same formula and operands, so bit-identical) and written
 *    with the id.
 *
 * Queries this kernel does not answer are appended to `fallback` (sorted slots); the caller answers them with the
 * general single-query search. Everything allocation-free in steady state: module scratch grows only when a hash
 * with more entries than ever before is queried.
 */

/** Bits of a key that hold the candidate's position p in the scanned runs. */
const P_BITS = 8;
const P_MASK = (1 << P_BITS) - 1;
/** Largest number of candidates (entries in the query's cell range) the key format can index. */
const MAX_CANDIDATES = 1 << P_BITS;
/** Largest number of survivors sorted by a network; more are ranked by a bounded insertion of their keys. */
const MAX_NETWORK = 24;
/**
 * Most rows of dense cells (side r) a query's range can span: 3, or 4 when x ± r falls exactly on cell edges.
 * writeWinners maps candidates back through at most this many runs.
 */
const MAX_ROWS = 4;
/** Padding of the dense grid around the entries' bounding box, in cells: a query's range reaches 2 cells out. */
const PAD = 3;
/** Dense grids above this many cells (beyond 4 per entry) are not worth building: the cells are hashed instead. */
const DENSE_CELLS_PER_ENTRY = 4;
const DENSE_CELLS_SLACK = 4096;
/** Hashed cells (sparse crowds): the smallest table has 2^MIN_TABLE_BITS buckets. */
const MIN_TABLE_BITS = 10;
/** Boxes wider than this many cells (coordinates relative to the box) are declined: cell indices stay int32. */
const CELL_COORD_LIMIT = 1 << 30;


// Per-call scratch (module scope, one set per thread/worker).
let _e = new Float64Array(3 * 1024); // [x, y, id] per entry, in dense cell order (NaN x, y: rejected by the layer filter)
// The integer scratch, one array in four regions (one array, so loops that use several regions check one typed
// array per iteration instead of several), capacity cap entries:
//   [0, cap)             slotPos: position in _e of the entry in hash slot t, -1 if the layer filter drops it
//   [cap, 2 cap)         slotCell: dense cell index of hash slot t
//   [2 cap, 3 cap)       denseSlot: hash slot of the entry at position p of _e
//   [3 cap, ...)         cellStart: dense cell c's entries are _e positions [cellStart[c], cellStart[c + 1]),
//                        room for DENSE_CELLS_PER_ENTRY * cap + DENSE_CELLS_SLACK cells (+ 2)
let _cap = 1024;
let _ints = new Int32Array(intsLength(1024));
/** Keys of the two agents scanned together: agent A at [0, MAX_CANDIDATES), agent B after it. */
const _keys = new Int32Array(2 * MAX_CANDIDATES);
/** [start, end) of each row's run of _e for the current scan. */
const _runs = new Int32Array(2 * MAX_ROWS);
/** Loop-invariant doubles read inside the per-agent loop from an array, so V8 keeps them unboxed there. */
const _params = new Float64Array(2);
/** Positions of the (one or two) queries being answered: x of lane 0 and 1, then y of lane 0 and 1. */
const _q = new Float64Array(4);

function intsLength(cap: number): number {
  return 3 * cap + DENSE_CELLS_PER_ENTRY * cap + DENSE_CELLS_SLACK + 2;
}

function growEntries(n: number): void {
  let c = _cap;
  while (c < n) c *= 2;
  _cap = c;
  _e = new Float64Array(3 * c);
  _ints = new Int32Array(intsLength(c));
}

/**
 * Answer the batch query for sorted slots [start, end) (see queryKNearestBatch; arguments already validated,
 * k >= 1, start < end). Writes each answered slot's neighbours at o * k and its count at outCounts[o] (o = slot
 * or id; neighbours named by entity id, or by hash slot when `slotNeighbours`), appends unanswered slots to
 * `fallback` and stores how many in result[0]; returns the number of
 * neighbours written. Returns -1 (and writes nothing) when it declines: r = 0, a bounding box wider than 2^30
 * cells of side r, or r above the hash's cell size with far more than k entries per disc.
 */
export function knnBatchDense(
  hash: SpatialHash, start: number, end: number, r: number, k: number,
  outIds: Int32Array, outDist2: Float64Array, outCounts: Int32Array, layers: Int32Array | null, mask: number,
  bySlot: boolean, fallback: Int32Array, result: Int32Array, slotNeighbours = false,
): number {
  const n = hash.count;
  if (!(r > 0)) return -1;
  // The hash's arrays through its region views (SpatialHash.floatRegion/intRegion): fewer typed arrays per loop.
  // x of slot t = F[t], y = F[oY + t]; id = H[t], cell x = H[oY + t], cell y = H[2 oY + t].
  const F = hash.floatRegion, H = hash.intRegion, oY = hash.capacity, oCy = 2 * hash.capacity;
  const invF = hash.gridCellSize === r ? hash.gridInvCellSize : 1 / r; // the hash's own reciprocal when grids coincide

  // 1. Dense grid of cell r over the bounding box of the entries, padded by PAD cells on every side so that every
  // query's cell range lies inside it. Cell coordinates are computed in doubles relative to the box
  // (exact: the box check below keeps them small), so huge coordinates cannot overflow int32.
  // When the hash's cells are already of side r (the usual setting), its stored cell coordinates are the dense
  // grid's, and the box comes from them (no floor per entry); otherwise from the positions.
  const sameGrid = hash.gridCellSize === r;
  let ox: number, oy: number, width: number, height: number;
  if (sameGrid) {
    let minX = H[oY], maxX = minX, minY = H[oCy], maxY = minY;
    for (let t = 1; t < n; t++) {
      const cx = H[oY + t], cy = H[oCy + t];
      if (cx < minX) minX = cx;
      if (cx > maxX) maxX = cx;
      if (cy < minY) minY = cy;
      if (cy > maxY) maxY = cy;
    }
    ox = minX - PAD;
    oy = minY - PAD;
    width = maxX - ox + 1 + PAD;
    height = maxY - oy + 1 + PAD;
  } else {
    let minX = F[0], maxX = minX, minY = F[oY], maxY = minY;
    for (let t = 1; t < n; t++) {
      const x = F[t], y = F[oY + t];
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    ox = Math.floor(minX * invF) - PAD;
    oy = Math.floor(minY * invF) - PAD;
    width = Math.floor(maxX * invF) - ox + 1 + PAD;
    height = Math.floor(maxY * invF) - oy + 1 + PAD;
    // Wide discs in a dense crowd (about pi r² n / area survivors per query, far more than k) are better served by
    // the hash's ring search, which shrinks its radius to the k-th distance (r = 10 m at 1 agent per 4 m²: 57 ms
    // against 101 ms here for 100k agents). It runs when r exceeds the hash's cell size.
    const area = (maxX - minX) * (maxY - minY);
    if (r > hash.gridCellSize && Math.PI * r * r * n > (4 * k + 16) * area) return -1;
  }
  // A box of more than DENSE_CELLS_PER_ENTRY cells per entry (a sparse crowd over a large world) is not laid out
  // densely: its cells are hashed into a table of about 2n buckets instead, seen as one tile (spatialHashBucket),
  // which keeps the cells of one tile row in consecutive buckets, so a query's row of cells is still one run of E (with the
  // entries of any other cells sharing those buckets: far away, they fail the d² test). A query whose row crosses
  // a tile edge or the table's end goes to the fallback.
  if (!(width < CELL_COORD_LIMIT && height < CELL_COORD_LIMIT)) return -1;
  const hashed = !(width * height <= DENSE_CELLS_PER_ENTRY * n + DENSE_CELLS_SLACK);
  let tableBits = MIN_TABLE_BITS;
  while ((1 << tableBits) < 2 * n) tableBits++;
  const tMask = (1 << tableBits) - 1, wBits = tableBits >> 1, hBits = tableBits - wBits;
  const cells = hashed ? tMask + 1 : width * height;
  if (_cap < n) growEntries(n); // cells <= DENSE_CELLS_PER_ENTRY n + DENSE_CELLS_SLACK fit the cellStart region
  const e = _e, I = _ints;
  const SC = _cap, DS = 2 * _cap, CS = 3 * _cap; // region offsets: slotCell, denseSlot, cellStart (slotPos at 0)
  const hasLayers = layers !== null;
  const lay = layers as Int32Array;
  // Counting sort, counts shifted by two so that the prefix sum leaves cell c's start at cellStart[c + 1], which
  // the scatter then advances to cell c's end, i.e. cell c + 1's start (no separate cursor array). Entries the
  // layer filter rejects are kept (they still ask their own query) with NaN coordinates: d² is then NaN, and
  // d² <= r² is false, so they are never anyone's candidate.
  for (let c = CS; c < CS + cells + 2; c++) I[c] = 0;
  if (hashed) {
    for (let t = 0; t < n; t++) {
      const cx = sameGrid ? H[oY + t] - ox : Math.floor(F[t] * invF) - ox;
      const cy = sameGrid ? H[oCy + t] - oy : Math.floor(F[oY + t] * invF) - oy;
      const c = spatialHashBucket(cx, cy, wBits, hBits);
      I[SC + t] = c;
      I[CS + c + 2]++;
    }
  } else if (sameGrid) {
    for (let t = 0; t < n; t++) {
      const c = (H[oCy + t] - oy) * width + (H[oY + t] - ox);
      I[SC + t] = c;
      I[CS + c + 2]++;
    }
  } else {
    for (let t = 0; t < n; t++) {
      const c = (Math.floor(F[oY + t] * invF) - oy) * width + (Math.floor(F[t] * invF) - ox);
      I[SC + t] = c;
      I[CS + c + 2]++;
    }
  }
  for (let c = CS + 2; c < CS + cells + 2; c++) I[c] += I[c - 1];
  for (let t = 0; t < n; t++) {
    const id = H[t];
    const p = I[CS + I[SC + t] + 1]++;
    I[DS + p] = t;
    e[3 * p + 2] = slotNeighbours ? t : id; // what the output names a neighbour by
    if (hasLayers && (lay[id] & mask) === 0) {
      I[t] = -1;
      e[3 * p] = NaN;
      e[3 * p + 1] = NaN;
    } else {
      I[t] = p;
      e[3 * p] = F[t];
      e[3 * p + 1] = F[oY + t];
    }
  }

  // Key scale: survivors (d² <= r²) map to q <= 2^22, so keys stay below 2^30 + 256. A candidate's cell is within
  // 2 cells of the query's on each axis, so |dx|, |dy| < 3 r (up to rounding),
  // d² < 18 r² and d² S < 2^27: the int32 conversion stays in its fast range even for the candidates that are
  // then dropped (their shifted keys wrap, unused).
  const r2 = r * r;
  _params[0] = 4194304 / r2;
  _params[1] = r2;
  // Cell range of a query as the hash's single query computes it (hash.ts, kNearestSmall): r (1 + 1e-14) + 2^-510
  // bounds every accepted point, so cells outside [floor((x - rr) invF), floor((x + rr) invF)] hold none.
  const rr = r * (1 + 1e-14) + 2.983336292480083e-154;
  const keys = _keys, runs = _runs, Q = _q;
  let total = 0, scanned = 0, nFallback = 0;
  // Query order. When the hash's cells are the dense grid's (cell size = r, the usual setting), slot order: the
  // hash files entries by cell, so agents of one cell follow each other and pair up, and reads and writes go in
  // slot order (measured a few % faster than dense order). Otherwise dense order, so that agents of one dense cell
  // meet (slot order paired fewer: 24.6 against 22.9 ms CPU at 100k agents with 8 m hash cells and r = 4 m).
  const denseOrder = !sameGrid;
  const uEnd = denseOrder ? n : end;
  let u = denseOrder ? 0 : start;
  while (u < uEnd) {
    const t = denseOrder ? I[DS + u] : u;
    if (t < start || t >= end) {
      u++;
      continue;
    }
    const S = _params[0], rSq = _params[1];
    // The query's position: in dense order from E (read in sequence; the slot arrays would be read at random), unless
    // the layer filter blanked its entry (NaN).
    let x = denseOrder ? e[3 * u] : F[t], y = denseOrder ? e[3 * u + 1] : F[oY + t];
    if (x !== x) { x = F[t]; y = F[oY + t]; }
    Q[0] = x; Q[2] = y;
    const i0 = Math.floor((x - rr) * invF) - ox, i1 = Math.floor((x + rr) * invF) - ox;
    const j0 = Math.floor((y - rr) * invF) - oy, j1 = Math.floor((y + rr) * invF) - oy;
    const rows = j1 - j0 + 1;
    // The query's cells: rows j0..j1, columns i0..i1 of each, one run of E per row.
    let P = 0;
    if (hashed) {
      // one run of consecutive buckets per row, unless the row crosses a tile edge (or the table's end)
      const span = i1 - i0;
      if (rows > MAX_ROWS || i0 >> wBits !== i1 >> wBits) P = MAX_CANDIDATES + 1;
      else {
        for (let row = 0; row < rows; row++) {
          const b0 = spatialHashBucket(i0, j0 + row, wBits, hBits);
          if (b0 + span > tMask) { P = MAX_CANDIDATES + 1; break; }
          const a = I[CS + b0], b = I[CS + b0 + span + 1];
          runs[2 * row] = a;
          runs[2 * row + 1] = b;
          P += b - a;
        }
      }
    } else if (rows > MAX_ROWS || i0 < 0 || i1 >= width || j0 < 0 || j1 >= height) {
      // Outside the padded grid: only when rr far exceeds r (r below ~1e-140, where its absolute 2^-510 term
      // dominates) or the cell coordinates lost integer precision (|x| / r beyond 2^53); the fallback answers.
      P = MAX_CANDIDATES + 1;
    } else {
      for (let row = 0; row < rows; row++) {
        const c = CS + (j0 + row) * width;
        const a = I[c + i0], b = I[c + i1 + 1];
        runs[2 * row] = a;
        runs[2 * row + 1] = b;
        P += b - a;
      }
    }
    if (rows > MAX_ROWS || P > MAX_CANDIDATES) {
      fallback[nFallback++] = t;
      u++;
      continue;
    }
    // Pair with the next query when it sits in the same dense cell with the same cell range (same runs).
    let pair = false;
    const tb = u + 1 < uEnd ? (denseOrder ? I[DS + u + 1] : u + 1) : -1;
    if (tb >= start && tb < end && (denseOrder || I[SC + tb] === I[SC + t])) {
      let xb = denseOrder ? e[3 * u + 3] : F[tb], yb = denseOrder ? e[3 * u + 4] : F[oY + tb];
      if (xb !== xb) { xb = F[tb]; yb = F[oY + tb]; }
      Q[1] = xb; Q[3] = yb;
      pair = Math.floor((xb - rr) * invF) - ox === i0 && Math.floor((xb + rr) * invF) - ox === i1
        && Math.floor((yb - rr) * invF) - oy === j0 && Math.floor((yb + rr) * invF) - oy === j1;
    }
    // The scan: every candidate's key is written at the lane's slot m, and m advances only if the candidate is
    // within r (no data-dependent branch; the query itself is kept too and skipped after the sort, which is
    // cheaper than one more test per candidate). Unrolled by two candidates: V8 re-checks each typed array and
    // reloads its base pointer once per loop iteration, so fewer iterations cost less.
    let mA = 0;
    let mB = MAX_CANDIDATES;
    let p = 0;
    for (let row = 0; row < rows; row++) {
      let w = 3 * runs[2 * row];
      const we = 3 * runs[2 * row + 1];
      if (pair) {
        const xb = Q[1], yb = Q[3];
        for (; w + 3 < we; w += 6) {
          const ex = e[w], ey = e[w + 1], fx = e[w + 3], fy = e[w + 4];
          const dxa = ex - x, dya = ey - y, dxb = ex - xb, dyb = ey - yb;
          const fxa = fx - x, fya = fy - y, fxb = fx - xb, fyb = fy - yb;
          const da = dxa * dxa + dya * dya, db = dxb * dxb + dyb * dyb;
          const ga = fxa * fxa + fya * fya, gb = fxb * fxb + fyb * fyb;
          keys[mA] = (((da * S) | 0) << P_BITS) | p;
          keys[mB] = (((db * S) | 0) << P_BITS) | p;
          mA += +(da <= rSq);
          mB += +(db <= rSq);
          keys[mA] = (((ga * S) | 0) << P_BITS) | (p + 1);
          keys[mB] = (((gb * S) | 0) << P_BITS) | (p + 1);
          mA += +(ga <= rSq);
          mB += +(gb <= rSq);
          p += 2;
        }
        if (w < we) {
          const ex = e[w], ey = e[w + 1];
          const dxa = ex - x, dya = ey - y, dxb = ex - xb, dyb = ey - yb;
          const da = dxa * dxa + dya * dya, db = dxb * dxb + dyb * dyb;
          keys[mA] = (((da * S) | 0) << P_BITS) | p;
          keys[mB] = (((db * S) | 0) << P_BITS) | p;
          mA += +(da <= rSq);
          mB += +(db <= rSq);
          p++;
        }
      } else {
        for (; w + 3 < we; w += 6) {
          const dx = e[w] - x, dy = e[w + 1] - y, fx = e[w + 3] - x, fy = e[w + 4] - y;
          const d2 = dx * dx + dy * dy, g2 = fx * fx + fy * fy;
          keys[mA] = (((d2 * S) | 0) << P_BITS) | p;
          mA += +(d2 <= rSq);
          keys[mA] = (((g2 * S) | 0) << P_BITS) | (p + 1);
          mA += +(g2 <= rSq);
          p += 2;
        }
        if (w < we) {
          const dx = e[w] - x, dy = e[w + 1] - y;
          const d2 = dx * dx + dy * dy;
          keys[mA] = (((d2 * S) | 0) << P_BITS) | p;
          mA += +(d2 <= rSq);
          p++;
        }
      }
    }
    // Candidate p back to its place in E: p < L1 is in run 0 (from A0), then run 1, ... (at most MAX_ROWS = 4 runs).
    // u = A0 + p + sum over runs r >= 1 with p >= Lr of Dr, where Dr = (start of run r) - (end of run r - 1).
    const big = MAX_CANDIDATES + 1;
    const A0 = runs[0];
    const L1 = rows > 1 ? runs[1] - runs[0] : big, D1 = rows > 1 ? runs[2] - runs[1] : 0;
    const L2 = rows > 2 ? L1 + runs[3] - runs[2] : big, D2 = rows > 2 ? runs[4] - runs[3] : 0;
    const L3 = rows > 3 ? L2 + runs[5] - runs[4] : big, D3 = rows > 3 ? runs[6] - runs[5] : 0;
    const lanes = pair ? 2 : 1;
    for (let lane = 0; lane < lanes; lane++) {
      const ts = lane === 0 ? t : tb;
      const base = lane * MAX_CANDIDATES;
      const m = lane === 0 ? mA : mB - MAX_CANDIDATES;
      scanned += P;
      // The query itself is among its candidates (d² = 0, so q = 0) unless the layer filter dropped it: when the
      // keys decide, it is the first sorted key (another q = 0 would be a tie with it), and is skipped.
      // the lane's own entry in E (-1 if the layer filter blanked it): in dense order the scan position itself
      const sp = denseOrder ? u + lane : I[ts];
      const selfPos = denseOrder && e[3 * sp] !== e[3 * sp] ? -1 : sp;
      const skip = selfPos >= 0 ? 1 : 0;
      const o = bySlot ? ts : H[ts];
      const off = o * k;
      if (m <= 12) {
        if (m <= 8) sortKeys8(keys, base, m);
        else sortKeys12(keys, base, m);
      } else if (m <= 16) {
        sortKeys16(keys, base, m);
      } else if (m <= 20) {
        sortKeys20(keys, base, m);
      } else if (m <= MAX_NETWORK) {
        sortKeys24(keys, base, m);
      } else {
        smallestKeys(keys, base, m, m < k + 1 + skip ? m : k + 1 + skip); // crowded: only the first k + 1 (+ itself) matter
      }
      const nOut = m - skip < k ? m - skip : k;
      let tie = writeWinners(keys, base + skip, m - skip, nOut, skip - 1, e, A0, L1, D1, L2, D2, L3, D3, Q, 2, lane, outIds, outDist2, off);
      // A quantisation tie among the winners: when every survivor was sorted (a network), the tied keys are
      // contiguous and complete, and resolveTies orders them exactly; otherwise the fallback answers the query.
      if (tie !== 0 && m <= MAX_NETWORK) {
        _tieArgs[0] = A0; _tieArgs[1] = L1; _tieArgs[2] = D1; _tieArgs[3] = L2; _tieArgs[4] = D2; _tieArgs[5] = L3; _tieArgs[6] = D3;
        resolveTies(keys, base, m, nOut, selfPos, e, H, slotNeighbours, Q, 2, lane, outIds, outDist2, off);
        tie = 0;
      }
      if (tie !== 0) {
        fallback[nFallback++] = ts;
      } else {
        outCounts[o] = nOut;
        total += nOut;
      }
    }
    u += lanes;
  }
  hash.scanned += scanned;
  result[0] = nFallback;
  return total;
}

// resolveTies scratch: the run mapping (a0, l1, d1, l2, d2, l3, d3; see the batch loop), and the tied candidates.
const _tieArgs = new Int32Array(7);
const _tieD2 = new Float64Array(MAX_NETWORK);
const _tieId = new Int32Array(MAX_NETWORK);
const _tieName = new Int32Array(MAX_NETWORK);

/**
 * Exact order when quantised distances tie (equal or nearly equal distances: lattices, rings, mirror-symmetric
 * crowds). keys[base .. base + m) are ALL the survivors of the query (slot t, its own entry at E position `selfPos`,
 * -1 if filtered out), sorted by (q, p); q = floor(d² S) is monotone in d², so keys of equal q are contiguous and
 * anything after the last key whose q equals the n-th winner's q is strictly farther than every winner. The keys up
 * to there (the query itself excluded) are ranked by exact (d², entity id), as the single-query search ranks them,
 * and the first n written. Only on ties; allocation-free.
 */
function resolveTies(
  keys: Int32Array, base: number, m: number, n: number, selfPos: number, e: Float64Array, H: Int32Array, slotNames: boolean,
  F: Float64Array, oY: number, t: number, outIds: Int32Array, outDist2: Float64Array, off: number,
): void {
  const a0 = _tieArgs[0], l1 = _tieArgs[1], d1 = _tieArgs[2], l2 = _tieArgs[3], d2 = _tieArgs[4], l3 = _tieArgs[5], d3 = _tieArgs[6];
  const xq = F[t], yq = F[oY + t];
  const cd = _tieD2, ci = _tieId, cn = _tieName;
  let held = 0, lastQ = -1, a = 0;
  for (; a < m; a++) {
    const key = keys[base + a];
    const q = key >> P_BITS;
    if (held >= n && q !== lastQ) break; // past the n-th winner's group
    const p = key & P_MASK;
    const pos = a0 + p + (-(+(p >= l1)) & d1) + (-(+(p >= l2)) & d2) + (-(+(p >= l3)) & d3);
    if (pos === selfPos) continue;
    const w = 3 * pos;
    const dx = e[w] - xq, dy = e[w + 1] - yq;
    const name = e[w + 2];
    const id = slotNames ? H[name] : name;
    const dd = dx * dx + dy * dy;
    // insertion by (d², id)
    let h = held++;
    while (h > 0 && (cd[h - 1] > dd || (cd[h - 1] === dd && ci[h - 1] > id))) {
      cd[h] = cd[h - 1]; ci[h] = ci[h - 1]; cn[h] = cn[h - 1];
      h--;
    }
    cd[h] = dd; ci[h] = id; cn[h] = name;
    if (held <= n) lastQ = q;
  }
  for (let b = 0; b < n; b++) {
    outIds[off + b] = cn[b];
    outDist2[off + b] = cd[b];
  }
}

/**
 * Sort the `keep` smallest of keys[base .. base + m) into keys[base .. base + keep) (1 <= keep <= m), by bounded
 * insertion: once `keep` are held, a key enters only if it is below the largest held. For crowded queries (more
 * survivors than the largest network): with m much larger than keep most keys are rejected by one comparison.
 * Keys are distinct (their low bits are the candidate position), so the order is total.
 */
function smallestKeys(keys: Int32Array, base: number, m: number, keep: number): void {
  const lastKept = base + keep - 1;
  let held = 0;
  for (let a = base; a < base + m; a++) {
    const key = keys[a];
    let p: number;
    if (held < keep) {
      p = base + held;
      held++;
    } else {
      if (key > keys[lastKept]) continue;
      p = lastKept;
    }
    while (p > base && keys[p - 1] > key) {
      keys[p] = keys[p - 1];
      p--;
    }
    keys[p] = key;
  }
}

/**
 * Write the first n sorted keys' neighbours (id, exact d²) at outIds/outDist2[off ..), the query being at
 * (F[t], F[oY + t]) (the caller's query-position scratch); candidate p is entry a0 + p + the sum of the run offsets dr with p >= lr (see the batch loop).
 * Returns non-zero if the quantised distances of the first min(m, n + 1) keys, and prevQ before them, are not all
 * distinct (the caller then discards this output). A function of its own so that V8 keeps its few loop invariants
 * in registers: inside the large batch loop they were spilled and reloaded on every iteration.
 */
function writeWinners(
  keys: Int32Array, base: number, m: number, n: number, prevQ: number, e: Float64Array,
  a0: number, l1: number, d1: number, l2: number, d2: number, l3: number, d3: number,
  F: Float64Array, oY: number, t: number, outIds: Int32Array, outDist2: Float64Array, off: number,
): number {
  const xq = F[t], yq = F[oY + t];
  let prev = prevQ, tie = 0;
  for (let a = 0; a < n; a++) {
    const key = keys[base + a];
    const q = key >> P_BITS;
    tie |= +(q === prev);
    prev = q;
    const p = key & P_MASK;
    const w = 3 * (a0 + p + (-(+(p >= l1)) & d1) + (-(+(p >= l2)) & d2) + (-(+(p >= l3)) & d3));
    const dx = e[w] - xq, dy = e[w + 1] - yq;
    outIds[off + a] = e[w + 2];
    outDist2[off + a] = dx * dx + dy * dy;
  }
  if (m > n) tie |= +((keys[base + n] >> P_BITS) === prev);
  return tie;
}
