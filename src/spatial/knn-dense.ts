import type { SpatialHash } from './hash';
import { sortKeys12, sortKeys16, sortKeys20, sortKeys24, sortKeys8 } from './sort-keys';

/**
 * Batch k-nearest kernel behind queryKNearestBatch when the query radius is at most the cell size (every query's
 * disc then lies in the 3 x 3 cells around its own cell). Results are identical to one queryKNearest per entry:
 * the k nearest within r, ordered by (d², id), the entry itself excluded.
 *
 * Why a separate kernel. The hash's own query walks bucket runs, skips entries of other cells sharing a bucket,
 * reads five arrays per candidate, and sorts the survivors by insertion (about one mispredicted branch per
 * survivor). At 100k agents, k = 10, r = cell = 4 m that cost ~450 ns per query, half of it in the sort. This
 * kernel does four things instead (measured figures are CPU time on the shared 2-core EPYC VM, 2026-11-29):
 *
 * 1. Dense copy. Once per call, the entries are counting-sorted again, by a dense row-major cell index over the
 *    occupied bounding box (padded by one cell), into one interleaved array E = [x, y, id] per entry. No two cells
 *    share a run, so a row of three cells around a query is ONE contiguous run of E, with no cell filter, and the
 *    candidate loop reads a single array. (V8 re-checks each typed array's map and reloads its base pointer on
 *    every loop iteration, so the number of arrays a loop touches is most of its cost.) O(n + cells); skipped
 *    (the caller falls back to per-query search) when the bounding box holds more than 4n + 4096 cells.
 * 2. Keys. For each candidate in the three runs, d² is computed exactly as the hash's queries compute it, and
 *    the candidate is kept (branch-free: keys[m] is written always, m advances by +(d² <= r²)) as
 *    an int32 key (floor(d² S) << 8) | p, where p < 256 is its position in the scanned runs and S scales r² to
 *    2^22. Two agents of the same cell with the same cell range are scanned together, which shares the loads and
 *    the loop overhead (2.2 -> 1.6 ns per candidate and agent). The query itself passes too (d² = 0, q = 0): when
 *    the keys decide (below) it is the first sorted key, and it is skipped there.
 * 3. Order. Up to 24 kept keys are sorted by a branch-free sorting network (sort-keys.ts); more (a crowded
 *    query) by a bounded insertion that keeps the k + 1 smallest. floor(d² S) is monotone in d², so if the
 *    quantised distances q = key >> 8 of the first min(m, k + 1) sorted keys are all distinct, their order is the
 *    exact d² order and nothing further down can belong in the top k (anything later has q >= q[k] > q[k - 1],
 *    hence a larger d²). Otherwise (a quantisation tie: equal or nearly equal distances, about 1 query in 10^5 in
 *    a uniform crowd, nearly every query on a lattice) the query goes to the exact fallback, as do queries with
 *    more than 256 candidates.
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
/** Dense bounding boxes above this many cells (beyond 4 per entry) are not worth a dense copy. */
const DENSE_CELLS_PER_ENTRY = 4;
const DENSE_CELLS_SLACK = 4096;

// Per-call scratch (module scope, one set per thread/worker).
let _e = new Float64Array(3 * 1024); // [x, y, id] per entry, in dense cell order
let _slotPos = new Int32Array(1024); // position in _e of the entry in hash slot t, -1 if the layer filter drops it
let _slotCell = new Int32Array(1024); // dense cell index of hash slot t
let _cellStart = new Int32Array(4096 + 2); // dense cell c's entries are _e positions [_cellStart[c], _cellStart[c + 1])
/** Keys of the two agents scanned together: agent A at [0, 64), agent B at [64, 128). */
const _keys = new Int32Array(2 * MAX_CANDIDATES);
/** Loop-invariant doubles read inside the per-agent loop from an array, so V8 keeps them unboxed there. */
const _params = new Float64Array(2);

function growEntries(n: number): void {
  let c = _slotPos.length;
  while (c < n) c *= 2;
  _e = new Float64Array(3 * c);
  _slotPos = new Int32Array(c);
  _slotCell = new Int32Array(c);
}

function growCells(cells: number): void {
  let c = _cellStart.length;
  while (c < cells + 2) c *= 2;
  _cellStart = new Int32Array(c);
}

/**
 * Answer the batch query for sorted slots [start, end) (see queryKNearestBatch; arguments already validated,
 * 0 <= r <= hash.gridCellSize, k >= 1, start < end). Writes each answered slot's neighbours at o * k and its
 * count at outCounts[o] (o = slot or id), appends unanswered slots to `fallback` and stores how many in
 * result[0]; returns the number of neighbours written. Returns -1 (and writes nothing) when the occupied
 * bounding box is too sparse for a dense copy.
 */
export function knnBatchDense(
  hash: SpatialHash, start: number, end: number, r: number, k: number,
  outIds: Int32Array, outDist2: Float64Array, outCounts: Int32Array, layers: Int32Array | null, mask: number,
  bySlot: boolean, fallback: Int32Array, result: Int32Array,
): number {
  const n = hash.count;
  const sx = hash.sortedX, sy = hash.sortedY, sid = hash.sortedIds, scx = hash.sortedCellX, scy = hash.sortedCellY;

  // 1. Dense copy. Bounding box of the occupied cells, padded by one cell on every side so that the 3 x 3 block
  // of any entry's cell lies inside the grid.
  let minX = scx[0], maxX = minX, minY = scy[0], maxY = minY;
  for (let t = 1; t < n; t++) {
    const cx = scx[t], cy = scy[t];
    if (cx < minX) minX = cx;
    if (cx > maxX) maxX = cx;
    if (cy < minY) minY = cy;
    if (cy > maxY) maxY = cy;
  }
  const width = maxX - minX + 3, height = maxY - minY + 3; // cell coordinates are < 2^30 in magnitude: exact
  if (width * height > DENSE_CELLS_PER_ENTRY * n + DENSE_CELLS_SLACK) return -1;
  const cells = width * height;
  if (_slotPos.length < n) growEntries(n);
  if (_cellStart.length < cells + 2) growCells(cells);
  const e = _e, slotPos = _slotPos, slotCell = _slotCell, cellStart = _cellStart;
  const ox = minX - 1, oy = minY - 1;
  const hasLayers = layers !== null;
  const lay = layers as Int32Array;
  // Counting sort, counts shifted by two so that the prefix sum leaves cell c's start at cellStart[c + 1], which
  // the scatter then advances to cell c's end, i.e. cell c + 1's start (no separate cursor array).
  for (let c = 0; c < cells + 2; c++) cellStart[c] = 0;
  for (let t = 0; t < n; t++) {
    const c = (scy[t] - oy) * width + (scx[t] - ox);
    slotCell[t] = c;
    if (hasLayers && (lay[sid[t]] & mask) === 0) continue; // never a candidate
    cellStart[c + 2]++;
  }
  for (let c = 2; c < cells + 2; c++) cellStart[c] += cellStart[c - 1];
  for (let t = 0; t < n; t++) {
    const id = sid[t];
    if (hasLayers && (lay[id] & mask) === 0) {
      slotPos[t] = -1;
      continue;
    }
    const p = cellStart[slotCell[t] + 1]++;
    slotPos[t] = p;
    e[3 * p] = sx[t];
    e[3 * p + 1] = sy[t];
    e[3 * p + 2] = id;
  }

  // Key scale: survivors (d² <= r²) map to q <= 2^22, so keys stay below 2^30 + 256. Any candidate lies within two
  // cells of the query on each axis (d² <= 8 cs², up to rounding), so d² S <= 2^27 and the int32 conversion never
  // leaves its fast range even for the candidates that are then dropped (their shifted keys wrap, unused).
  const cs = hash.gridCellSize, inv = hash.gridInvCellSize;
  const r2 = r * r;
  _params[0] = Math.min(4194304 / r2, 16777216 / (cs * cs));
  _params[1] = r2;
  // Cell range of a query as the hash's single query computes it (hash.ts, kNearestSmall): r (1 + 1e-14) + 2^-510
  // bounds every accepted point, so cells outside [floor((x - rr) inv), floor((x + rr) inv)] hold none.
  const rr = r * (1 + 1e-14) + 2.983336292480083e-154;
  const keys = _keys;
  let total = 0, scanned = 0, nFallback = 0;
  let t = start;
  while (t < end) {
    const S = _params[0], rSq = _params[1];
    const x = sx[t], y = sy[t], gx = scx[t], gy = scy[t];
    const i0 = Math.floor((x - rr) * inv) - gx, i1 = Math.floor((x + rr) * inv) - gx;
    const j0 = Math.floor((y - rr) * inv) - gy, j1 = Math.floor((y + rr) * inv) - gy;
    if (!(i0 >= -1 && i1 <= 1 && j0 >= -1 && j1 <= 1)) {
      fallback[nFallback++] = t;
      t++;
      continue;
    }
    // The query's cells are rows j0..j1 (relative), columns i0..i1 of each: up to three runs of E.
    const c0 = slotCell[t] + j0 * width;
    const a0 = cellStart[c0 + i0], e0 = cellStart[c0 + i1 + 1];
    let a1 = e0, e1 = e0, a2 = e0, e2 = e0;
    if (j1 > j0) {
      a1 = cellStart[c0 + width + i0];
      e1 = cellStart[c0 + width + i1 + 1];
      a2 = e1;
      e2 = e1;
      if (j1 > j0 + 1) {
        a2 = cellStart[c0 + 2 * width + i0];
        e2 = cellStart[c0 + 2 * width + i1 + 1];
      }
    }
    const l0 = e0 - a0, l01 = l0 + e1 - a1, P = l01 + e2 - a2;
    if (P > MAX_CANDIDATES) {
      fallback[nFallback++] = t;
      t++;
      continue;
    }
    // Pair with the next slot when it sits in the same cell with the same cell range (same runs).
    let pair = false;
    const tb = t + 1;
    if (tb < end && slotCell[tb] === slotCell[t]) {
      const xb = sx[tb], yb = sy[tb];
      pair = Math.floor((xb - rr) * inv) - gx === i0 && Math.floor((xb + rr) * inv) - gx === i1
        && Math.floor((yb - rr) * inv) - gy === j0 && Math.floor((yb + rr) * inv) - gy === j1;
    }
    let mA = 0;
    let mB = MAX_CANDIDATES;
    // The scan: every candidate's key is written at the lane's slot m, and m advances only if the candidate is
    // within r (no data-dependent branch; the query itself is kept too and skipped after the sort, which is
    // cheaper than one more test per candidate). Unrolled by two candidates: V8 re-checks
    // each typed array and reloads its base pointer once per loop iteration, so fewer iterations cost less
    // (measured 1.8 -> 1.7 ns per candidate and agent for pairs, 2.5 -> 2.0 for single agents).
    let p = 0;
    for (let run = 0; run < 3; run++) {
      const ws = 3 * (run === 0 ? a0 : run === 1 ? a1 : a2), we = 3 * (run === 0 ? e0 : run === 1 ? e1 : e2);
      let w = ws;
      if (pair) {
        const xb = sx[tb], yb = sy[tb];
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
    // Position p of the scanned runs back to its place in E: p < l0 is run 0, then run 1, then run 2.
    const d01 = a1 - e0, d12 = a2 - e1;
    const lanes = pair ? 2 : 1;
    for (let lane = 0; lane < lanes; lane++) {
      const ts = t + lane;
      const base = lane * MAX_CANDIDATES;
      const m = lane === 0 ? mA : mB - MAX_CANDIDATES;
      // The query itself is among its candidates (d² = 0, so q = 0) unless the layer filter dropped it: when the
      // keys decide, it is the first sorted key (another q = 0 would be a tie with it), and is skipped.
      const skip = slotPos[ts] >= 0 ? 1 : 0;
      scanned += P;
      const id = sid[ts];
      const o = bySlot ? ts : id;
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
      // Write the first n = min(m, k), checking that the quantised distances of the first min(m, k + 1) are
      // distinct (see the file comment); on a tie the exact search overwrites what was written.
      const n = m - skip < k ? m - skip : k;
      const tie = writeWinners(keys, base + skip, m - skip, n, skip - 1, e, sx, sy, ts, a0, l0, l01, d01, d12, outIds, outDist2, off);
      if (tie !== 0) {
        fallback[nFallback++] = ts;
      } else {
        outCounts[o] = n;
        total += n;
      }
    }
    t += lanes;
  }
  hash.scanned += scanned;
  result[0] = nFallback;
  return total;
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
 * Write the first n sorted keys' neighbours (id, exact d²) at outIds/outDist2[off ..), the query being slot t; returns
 * non-zero if the quantised distances of the first min(m, n + 1) keys are not all distinct (the caller then
 * discards this output). A function of its own so that V8 keeps its few loop invariants in registers: inside the
 * large batch loop they were spilled and reloaded on every iteration.
 */
function writeWinners(
  keys: Int32Array, base: number, m: number, n: number, prevQ: number, e: Float64Array, sx: Float64Array, sy: Float64Array, t: number,
  a0: number, l0: number, l01: number, d01: number, d12: number, outIds: Int32Array, outDist2: Float64Array, off: number,
): number {
  const xq = sx[t], yq = sy[t];
  let prev = prevQ, tie = 0;
  for (let a = 0; a < n; a++) {
    const key = keys[base + a];
    const q = key >> P_BITS;
    tie |= +(q === prev);
    prev = q;
    const p = key & P_MASK;
    const w = 3 * (a0 + p + (-(+(p >= l0)) & d01) + (-(+(p >= l01)) & d12));
    const dx = e[w] - xq, dy = e[w + 1] - yq;
    outIds[off + a] = e[w + 2];
    outDist2[off + a] = dx * dx + dy * dy;
  }
  if (m > n) tie |= +((keys[base + n] >> P_BITS) === prev);
  return tie;
}
