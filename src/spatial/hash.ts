import { CapacityError, InvalidArgumentError, MalformedInputError, OutOfRangeError } from '../core/errors';
import { knnBatchDense } from './knn-dense';
import { spatialHashBucket } from './bucket';
import { selectNearestKeys } from './select';
import { requireFinite, requireInteger, requireNonNegative, requirePositive } from '../core/validate';

/**
 * Uniform-grid spatial hash over the ground plane, rebuilt from scratch every frame.
 *
 * Layout. Space is cut into square cells of side `cellSize`; a point (x, y) lies in the integer cell
 * (floor(x / cellSize), floor(y / cellSize)). The world is unbounded, so cells are not stored in a dense 2D array:
 * each cell is hashed into a power-of-two table of buckets, and every bucket owns one contiguous run of the sorted
 * entry arrays (`cellStart[b] .. cellStart[b + 1]`). Different cells may share a bucket; every entry therefore also
 * stores its own cell coordinates, and a query visiting cell (i, j) skips entries of other cells in the bucket, so
 * a collision costs a few comparisons but never a duplicate or a miss.
 *
 * Rebuild is a counting sort (Knuth, TAOCP vol. 3, 5.2 "distribution counting"): count entries per bucket, prefix-sum
 * the counts into run starts, scatter. It is O(n + buckets), stable (entries keep input order inside a bucket, so the
 * result is deterministic) and allocates nothing: every array lives in one ArrayBuffer (or SharedArrayBuffer) sized
 * at creation, as flatbush does for its whole index.
 *
 * Bucket function. A plain multiplicative hash (Teschner et al. 2003, "Optimized spatial hashing for collision
 * detection of deformable objects") scatters neighbouring cells over the whole table, so a 3x3 neighbourhood query
 * touches nine random cache lines. We instead tile the plane: the table is viewed as a W x H grid (W * H = table
 * size, both powers of two); inside one W x H tile of cells, the bucket is the row-major index of the cell, so
 * neighbouring cells sit in neighbouring buckets and their entries are adjacent in the sorted arrays. Each tile adds
 * its own pseudo-random offset (a hash of the tile coordinates, zero for the tile at the origin), so a crowd
 * larger than one tile, or periodic in W, spreads over the table like a random hash instead of piling into one
 * bucket. Queries made in sorted (cell) order then walk memory nearly sequentially.
 *
 * Limits. Cell coordinates must fit comfortably in int32: |x| / cellSize < 2^30, and |x| <= 1e15 m (beyond that
 * double spacing exceeds 0.1 m and squared distances lose meaning). Rebuild rejects positions outside these limits,
 * NaN and infinities with a typed error, before touching the stored index.
 */
export interface SpatialHash {
  /** Maximum number of entries a rebuild accepts. */
  readonly capacity: number;
  /** Cell side in metres used by the NEXT rebuild. Queries use `gridCellSize`, the size the contents were built with. */
  cellSize: number;
  /** Number of entries stored by the last rebuild. */
  count: number;
  /** Cell side (metres) of the current contents, and its reciprocal. */
  gridCellSize: number;
  gridInvCellSize: number;
  /** Buckets used by the current contents: a power of two <= `tableCapacity`. */
  tableSize: number;
  /** log2(table width) and log2(table height) of the tiled bucket layout; tableSize = 2^(widthBits + heightBits). */
  widthBits: number;
  heightBits: number;
  /** Largest table the buffers allow (power of two >= capacity, at least 16). */
  readonly tableCapacity: number;
  /** The single buffer all arrays below are views of (SharedArrayBuffer when created with `shared: true`). */
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  /** The buffer's header: layout tag, capacities and the built state, so another thread can open it. */
  readonly header: Float64Array;
  /** Entry positions, ids and cell coordinates in bucket order (length `capacity`, first `count` valid). */
  readonly sortedX: Float64Array;
  readonly sortedY: Float64Array;
  readonly sortedIds: Int32Array;
  readonly sortedCellX: Int32Array;
  readonly sortedCellY: Int32Array;
  /** Bucket b's entries are sorted slots [cellStart[b], cellStart[b + 1]) (length tableCapacity + 1). */
  readonly cellStart: Int32Array;
  /** Rebuild scratch: per-bucket counts, then scatter cursors (length tableCapacity). */
  readonly cellCursor: Int32Array;
  /** Rebuild scratch: the bucket of input entry i (length capacity). */
  readonly entryBucket: Int32Array;
  /**
   * The same memory as two views: sortedX then sortedY (length 2 capacity), and sortedIds, sortedCellX, sortedCellY,
   * entryBucket, cellStart, cellCursor in that order. The rebuild's loops index these instead of the six arrays: V8
   * checks each typed array a loop touches on every iteration, so fewer arrays make a cheaper loop.
   */
  readonly floatRegion: Float64Array;
  readonly intRegion: Int32Array;
  /**
   * Counter for profiling: entries examined by queries since the last rebuild (candidates whose cell matched and
   * whose distance was computed). Reset to 0 by every rebuild.
   */
  scanned: number;
  /**
   * The version of the world's agent list (AgentList.version) whose live agents the contents are, when the world's
   * spatialHashSystem built them; -1 after any other rebuild. Systems walk `sortedIds` as the live agents only when
   * this matches (hashHoldsLiveAgents): equal counts alone do not prove equal sets.
   */
  agentsVersion: number;
}

/** Largest |cell coordinate| accepted; leaves head-room below 2^31 for neighbouring cells and ring arithmetic. */
const CELL_LIMIT = 1073741824; // 2^30
/** Largest |coordinate| accepted, metres. */
export const SPATIAL_HASH_MAX_COORDINATE = 1e15;
/** Smallest bucket table, so tiny hashes still spread cells. */
const MIN_TABLE = 16;

function nextPow2(n: number): number {
  let p = 1;
  while (p < n) p *= 2;
  return p;
}

/**
 * Create an empty spatial hash for up to `capacity` entries.
 * @param capacity maximum entries per rebuild (integer >= 1; the world passes maxAgents).
 * @param cellSize cell side in metres (> 0); the usual choice is the neighbour query radius (see docs/SPATIAL_HASH.md).
 * @param options.shared allocate the buffer as a SharedArrayBuffer so workers can read the index.
 */
export function createSpatialHash(capacity: number, cellSize: number, options?: { shared?: boolean }): SpatialHash {
  requireInteger('capacity', capacity, 1, 1 << 28);
  requirePositive('cellSize', cellSize);
  const shared = options?.shared ?? false;
  if (typeof shared !== 'boolean') throw new InvalidArgumentError('options.shared', shared, 'must be a boolean');
  const tableCapacity = Math.max(MIN_TABLE, nextPow2(capacity));
  const bytes = spatialHashBytes(capacity, tableCapacity);
  let buffer: ArrayBuffer | SharedArrayBuffer;
  if (shared) {
    if (typeof SharedArrayBuffer === 'undefined') {
      throw new InvalidArgumentError('options.shared', shared, 'SharedArrayBuffer is not available here (browsers need cross-origin isolation)');
    }
    buffer = new SharedArrayBuffer(bytes);
  } else {
    buffer = new ArrayBuffer(bytes);
  }
  const hash = viewSpatialHash(buffer, capacity, tableCapacity, cellSize);
  hash.header[H_MAGIC] = HEADER_MAGIC;
  hash.header[H_CAPACITY] = capacity;
  hash.header[H_TABLE_CAPACITY] = tableCapacity;
  writeHeader(hash);
  return hash;
}

// Buffer layout: a Float64 header describing the built state (so another thread can open the same buffer), then
// the Float64 arrays (8-byte aligned), then the Int32 arrays.
const HEADER_LENGTH = 8;
const H_MAGIC = 0, H_CAPACITY = 1, H_TABLE_CAPACITY = 2, H_COUNT = 3, H_CELL = 4, H_TABLE = 5, H_WBITS = 6, H_HBITS = 7;
/** Marks a buffer laid out by createSpatialHash (layout version 1). */
const HEADER_MAGIC = 0x5350_4831; // 'SPH1'

function spatialHashBytes(capacity: number, tableCapacity: number): number {
  return HEADER_LENGTH * 8 + 2 * capacity * 8 + (4 * capacity + (tableCapacity + 1) + tableCapacity) * 4;
}

/** Typed-array views over a buffer laid out as createSpatialHash lays it out. */
function viewSpatialHash(buffer: ArrayBuffer | SharedArrayBuffer, capacity: number, tableCapacity: number, cellSize: number): SpatialHash {
  const header = new Float64Array(buffer, 0, HEADER_LENGTH);
  let off = HEADER_LENGTH * 8;
  const floatRegion = new Float64Array(buffer, off, 2 * capacity);
  const intRegion = new Int32Array(buffer, off + 2 * capacity * 8, 4 * capacity + 2 * tableCapacity + 1);
  const f64 = (n: number): Float64Array => { const a = new Float64Array(buffer, off, n); off += n * 8; return a; };
  const i32 = (n: number): Int32Array => { const a = new Int32Array(buffer, off, n); off += n * 4; return a; };
  const sortedX = f64(capacity);
  const sortedY = f64(capacity);
  const sortedIds = i32(capacity);
  const sortedCellX = i32(capacity);
  const sortedCellY = i32(capacity);
  const entryBucket = i32(capacity);
  const cellStart = i32(tableCapacity + 1);
  const cellCursor = i32(tableCapacity);
  return {
    capacity,
    cellSize,
    count: 0,
    gridCellSize: cellSize,
    gridInvCellSize: 1 / cellSize,
    tableSize: MIN_TABLE,
    widthBits: 2,
    heightBits: 2,
    tableCapacity,
    buffer,
    header,
    sortedX,
    sortedY,
    sortedIds,
    sortedCellX,
    sortedCellY,
    cellStart,
    cellCursor,
    entryBucket,
    floatRegion,
    intRegion,
    scanned: 0,
    agentsVersion: -1,
  };
}

/** Record the built state in the buffer's header (after every rebuild). */
function writeHeader(hash: SpatialHash): void {
  const header = hash.header;
  header[H_COUNT] = hash.count;
  header[H_CELL] = hash.gridCellSize;
  header[H_TABLE] = hash.tableSize;
  header[H_WBITS] = hash.widthBits;
  header[H_HBITS] = hash.heightBits;
}

/**
 * Open a spatial hash from the buffer of one made by createSpatialHash, typically its SharedArrayBuffer posted to
 * a worker: the result reads the same memory. Only the thread that rebuilds should call rebuildSpatialHash; a
 * reader calls syncSpatialHash after each rebuild (and after the rebuilder's writes are visible to it, e.g. after a
 * message or Atomics.wait), then queries as usual. Throws MalformedInputError if the buffer is not such a hash.
 */
export function openSpatialHash(buffer: ArrayBuffer | SharedArrayBuffer): SpatialHash {
  const ok = (buffer instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer))
    && buffer.byteLength >= HEADER_LENGTH * 8;
  if (!ok) throw new MalformedInputError('buffer', buffer, 'is not an ArrayBuffer or SharedArrayBuffer holding a spatial hash');
  const header = new Float64Array(buffer, 0, HEADER_LENGTH);
  const capacity = header[H_CAPACITY], tableCapacity = header[H_TABLE_CAPACITY];
  if (header[H_MAGIC] !== HEADER_MAGIC || !Number.isInteger(capacity) || capacity < 1
    || tableCapacity !== Math.max(MIN_TABLE, nextPow2(capacity)) || buffer.byteLength !== spatialHashBytes(capacity, tableCapacity)) {
    throw new MalformedInputError('buffer', buffer, 'has no valid spatial hash header (was it made by createSpatialHash?)');
  }
  const hash = viewSpatialHash(buffer, capacity, tableCapacity, header[H_CELL]);
  syncSpatialHash(hash);
  return hash;
}

/** Refresh a hash's built state (count, cell size, table shape) from its buffer's header; see openSpatialHash. */
export function syncSpatialHash(hash: SpatialHash): void {
  const header = hash.header;
  hash.count = header[H_COUNT];
  hash.gridCellSize = header[H_CELL];
  hash.gridInvCellSize = 1 / header[H_CELL];
  hash.tableSize = header[H_TABLE];
  hash.widthBits = header[H_WBITS];
  hash.heightBits = header[H_HBITS];
}

/**
 * Set the cell side (metres, > 0) used by the next rebuild. The current contents stay queryable with their old
 * cell size until then, so the hash is never in a stale state.
 */
export function setSpatialHashCellSize(hash: SpatialHash, cellSize: number): void {
  requirePositive('cellSize', cellSize);
  hash.cellSize = cellSize;
}

export { spatialHashBucket } from './bucket';

/**
 * Rebuild the hash from positions indexed by entity id: for i in [0, count), id = ids[i], position
 * (xs[id], ys[id]). Allocation-free counting sort; O(count + table size).
 *
 * Throws (before modifying the stored index, which stays as it was):
 * - CapacityError if count > capacity; InvalidArgumentError if count is not an integer >= 0 or ids is too short;
 * - InvalidArgumentError naming `xs[id]`/`ys[id]` if a position is NaN or infinite, or `ids[i]` if an id does not
 *   index xs/ys; OutOfRangeError if |coordinate| > 1e15 or |coordinate| / cellSize >= 2^30.
 */
export function rebuildSpatialHash(hash: SpatialHash, xs: Float64Array, ys: Float64Array, ids: Int32Array, count: number): void {
  requireInteger('count', count, 0);
  if (count > hash.capacity) {
    throw new CapacityError('count', count, `exceeds the spatial hash capacity ${hash.capacity}`);
  }
  if (ids.length < count) throw new InvalidArgumentError('ids', ids, `holds ${ids.length} ids but count is ${count}`);
  const cs = hash.cellSize;
  requirePositive('hash.cellSize', cs);
  const inv = 1 / cs;

  // Table size for this frame: the smallest power of two >= count (load factor <= 1 entry per bucket), at least
  // MIN_TABLE, at most the allocated table. Depends only on count, so the layout is deterministic.
  let tableSize = MIN_TABLE;
  while (tableSize < count && tableSize < hash.tableCapacity) tableSize *= 2;
  const bits = Math.log2(tableSize) | 0;
  const wBits = (bits + 1) >> 1;
  const hBits = bits >> 1;
  const wMask = (1 << wBits) - 1;
  const hMask = (1 << hBits) - 1;
  const mask = tableSize - 1;

  // Coordinates are accepted in [-lim, lim]: keeps |cell| < 2^30 and |x| <= 1e15. A single range test per axis
  // also rejects NaN (every comparison with NaN is false) and +-Infinity, so validation is free in the counting pass.
  const lim = Math.min(SPATIAL_HASH_MAX_COORDINATE, (CELL_LIMIT - 1) * cs);

  // Every hash array is indexed through two whole-region views (see SpatialHash.floatRegion): offsets of
  // sortedY, sortedCellX, sortedCellY, entryBucket, cellStart and cellCursor inside them.
  const F = hash.floatRegion, I = hash.intRegion;
  const cap = hash.capacity;
  const oY = cap, oCx = cap, oCy = 2 * cap, oB = 3 * cap, oStart = 4 * cap, oCur = 4 * cap + hash.tableCapacity + 1;
  I.fill(0, oCur, oCur + tableSize);

  // Pass 1: cell and bucket of every entry, counted per bucket. Writes scratch only.
  for (let i = 0; i < count; i++) {
    const id = ids[i];
    const x = xs[id];
    const y = ys[id];
    if (!(x >= -lim && x <= lim && y >= -lim && y <= lim)) rejectPosition(xs, ys, ids, i, lim, cs);
    const cx = Math.floor(x * inv);
    const cy = Math.floor(y * inv);
    // Inlined spatialHashBucket (same arithmetic).
    let h = Math.imul(cx >> wBits, 73856093) ^ Math.imul(cy >> hBits, 19349663);
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    const b = ((((cy & hMask) << wBits) | (cx & wMask)) + h) & mask;
    I[oB + i] = b;
    I[oCur + b]++;
  }

  // Pass 2: exclusive prefix sum -> run starts; the cursor array becomes the scatter position of each bucket.
  let sum = 0;
  for (let b = 0; b < tableSize; b++) {
    const c = I[oCur + b];
    I[oStart + b] = sum;
    I[oCur + b] = sum;
    sum += c;
  }
  I[oStart + tableSize] = sum;

  // Pass 3: stable scatter into bucket order, with copies of x, y and cell coordinates for cache-friendly queries.
  for (let i = 0; i < count; i++) {
    const id = ids[i];
    const x = xs[id];
    const y = ys[id];
    const t = I[oCur + I[oB + i]]++;
    F[t] = x;
    F[oY + t] = y;
    I[t] = id;
    I[oCx + t] = Math.floor(x * inv);
    I[oCy + t] = Math.floor(y * inv);
  }

  hash.count = count;
  hash.gridCellSize = cs;
  hash.gridInvCellSize = inv;
  hash.tableSize = tableSize;
  hash.widthBits = wBits;
  hash.heightBits = hBits;
  hash.scanned = 0;
  hash.agentsVersion = -1;
  writeHeader(hash);
}

/** Error path of rebuild's range test (kept out of the loop so the loop stays small). Always throws. */
function rejectPosition(xs: Float64Array, ys: Float64Array, ids: Int32Array, i: number, lim: number, cs: number): never {
  const id = ids[i];
  if (!(id >= 0 && id < xs.length && id < ys.length)) {
    throw new InvalidArgumentError(`ids[${i}]`, id, `is not a valid index into xs (length ${xs.length}) and ys (length ${ys.length})`);
  }
  const x = xs[id];
  const y = ys[id];
  const field = !(x >= -lim && x <= lim) ? `xs[${id}]` : `ys[${id}]`;
  const v = !(x >= -lim && x <= lim) ? x : y;
  if (!Number.isFinite(v)) throw new InvalidArgumentError(field, v, `position of entity ${id} must be a finite number`);
  throw new OutOfRangeError(field, v, `position of entity ${id} is outside the spatial hash range ±${lim} m (|coordinate| <= 1e15 and |coordinate| / cellSize (${cs}) < 2^30)`);
}

// ---------------------------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------------------------

// Rounding slack for cell pruning, metres: slack = 1e-12 * (|x| + |y| + r + cs). A point is filed in cell
// floor(x * inv), and x * inv is rounded, so a point may sit a few ulps outside its cell's nominal interval
// [i * cs, (i + 1) * cs). Cell lower bounds are lowered by this slack so pruning never drops a point the exact
// distance test would accept. 1e-12 relative is thousands of ulps: generous, yet far below any cell size
// (|x| / cs < 2^30 keeps it under cs / 1000). Written out at each query rather than as a helper: in the large query
// functions V8 does not always inline a helper, and a call boxes its four double arguments and its result.

function validateQueryPoint(x: number, y: number, r: number): void {
  requireFinite('x', x);
  requireFinite('y', y);
  requireNonNegative('r', r);
}

/**
 * All ids within distance r of (x, y) (dx*dx + dy*dy <= r*r), excluding `excludeId` (-1 = none). Writes up to
 * outIds.length ids and returns the count written (the search stops when outIds is full). Order: deterministic
 * (row by row over the cells, sorted-array order inside a row), not sorted by distance. With `layers`, only ids with
 * (layers[id] & mask) !== 0 are accepted.
 */
export function queryRadius(
  hash: SpatialHash, x: number, y: number, r: number, excludeId: number, outIds: Int32Array,
  layers: Int32Array | null = null, mask = -1,
): number {
  validateQueryPoint(x, y, r);
  _queryX[0] = x;
  _queryY[0] = y;
  _queryR[0] = r;
  return queryRadiusAt(hash, _queryX, _queryY, 0, _queryR, 0, excludeId, outIds, layers, mask);
}

// Argument scratch of the double-taking wrappers (queryRadius, queryKNearest, queryKNearestBatch).
const _queryX = new Float64Array(1);
const _queryY = new Float64Array(1);
const _queryR = new Float64Array(1);

/**
 * queryRadius around (xs[i], ys[i]) with radius rs[ri]: the allocation-free form for per-frame systems. V8 passes
 * arguments tagged, so a fractional double handed to a call it does not inline (these queries are far too large to
 * inline) is boxed into a fresh HeapNumber on every call; reading the point from arrays keeps it unboxed.
 */
export function queryRadiusAt(
  hash: SpatialHash, xs: Float64Array, ys: Float64Array, i: number, rs: Float64Array, ri: number, excludeId: number, outIds: Int32Array,
  layers: Int32Array | null = null, mask = -1,
): number {
  const x = xs[i], y = ys[i], r = rs[ri];
  validateQueryPoint(x, y, r);
  requireInteger('excludeId', excludeId);
  requireInteger('mask', mask);
  const cap = outIds.length;
  const count = hash.count;
  if (count === 0 || cap === 0) return 0;
  const hasLayers = layers !== null;
  const lay = layers as Int32Array;
  const r2 = r * r;
  const sx = hash.sortedX, sy = hash.sortedY, sid = hash.sortedIds;
  const cs = hash.gridCellSize, inv = hash.gridInvCellSize;
  const slack = 1e-12 * (Math.abs(x) + Math.abs(y) + r + cs); // pruning slack, see above

  // Cell range of the query disc, padded by the slack; done in doubles so huge r cannot overflow int32.
  const fx0 = Math.floor((x - r - slack) * inv), fx1 = Math.floor((x + r + slack) * inv);
  const fy0 = Math.floor((y - r - slack) * inv), fy1 = Math.floor((y + r + slack) * inv);
  const cells = (fx1 - fx0 + 1) * (fy1 - fy0 + 1);
  let n = 0;
  let scanned = 0;
  if (!(cells <= count) || !(fx0 > -CELL_LIMIT && fx1 < CELL_LIMIT && fy0 > -CELL_LIMIT && fy1 < CELL_LIMIT)) {
    // More cells than entries (r >> cell size, or a sparse hash): one linear pass over all entries is cheaper
    // than visiting the cells, and handles query ranges beyond the cell-coordinate limit.
    for (let t = 0; t < count; t++) {
      const dx = sx[t] - x, dy = sy[t] - y;
      if (dx * dx + dy * dy > r2) continue;
      const id = sid[t];
      if (id === excludeId || (hasLayers && (lay[id] & mask) === 0)) continue;
      outIds[n++] = id;
      if (n === cap) break;
    }
    hash.scanned += count;
    return n;
  }

  // The hash's arrays through its region views (see SpatialHash.floatRegion), as in kNearestSmall.
  const F = hash.floatRegion, I = hash.intRegion;
  const oY = hash.capacity, oCx = oY, oCy = 2 * oY, oStart = 4 * oY;
  const wBits = hash.widthBits, hBits = hash.heightBits;
  const wMask = (1 << wBits) - 1, hMask = (1 << hBits) - 1, tMask = hash.tableSize - 1;
  const i0 = fx0 | 0, i1 = fx1 | 0, j0 = fy0 | 0, j1 = fy1 | 0;
  const span = i1 - i0;
  const sameTile = i0 >> wBits === i1 >> wBits;
  // Accepted ids are written at slot n unconditionally and n advances by +(accepted): no data-dependent branch
  // (see kNearestSmall). n < cap holds at every write, because the loop stops as soon as n reaches cap.
  outer: for (let j = j0; j <= j1; j++) {
    const rowBits = (j & hMask) << wBits;
    const rowHash = Math.imul(j >> hBits, 19349663);
    let h = Math.imul(i0 >> wBits, 73856093) ^ rowHash;
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    const b0 = ((rowBits | (i0 & wMask)) + h) & tMask;
    if (sameTile && b0 + span <= tMask) {
      // One tile: the row's buckets b0..b0 + span are consecutive, one run of the sorted arrays.
      const e = I[oStart + b0 + span + 1];
      for (let t = I[oStart + b0]; t < e; t++) {
        // Entries of other rows sharing these buckets are skipped (they may be in another row of this query, which
        // would count them twice). Entries of this row outside columns i0..i1 need no test: they lie beyond r
        // (the column range holds every point within r), so the distance test below rejects them.
        if (I[oCy + t] !== j) continue;
        const id = I[t];
        if (hasLayers && (lay[id] & mask) === 0) continue;
        const ddx = F[t] - x, ddy = F[oY + t] - y;
        outIds[n] = id;
        n += +(ddx * ddx + ddy * ddy <= r2) & +(id !== excludeId);
        scanned++;
        if (n === cap) break outer;
      }
      continue;
    }
    // The row crosses a tile edge: cell by cell, skipping cells the disc misses.
    let dy = Math.max(j * cs - y, y - (j + 1) * cs) - slack;
    if (dy < 0) dy = 0;
    const dy2 = dy * dy;
    for (let i = i0; i <= i1; i++) {
      let dx = Math.max(i * cs - x, x - (i + 1) * cs) - slack;
      if (dx < 0) dx = 0;
      if (dx * dx + dy2 > r2) continue; // cell entirely outside the disc (corner cells)
      let hc = Math.imul(i >> wBits, 73856093) ^ rowHash;
      hc ^= hc >>> 16;
      hc = Math.imul(hc, 0x85ebca6b);
      hc ^= hc >>> 13;
      const b = ((rowBits | (i & wMask)) + hc) & tMask;
      const e = I[oStart + b + 1];
      for (let t = I[oStart + b]; t < e; t++) {
        if (I[oCx + t] !== i || I[oCy + t] !== j) continue; // another cell sharing the bucket
        const id = I[t];
        if (hasLayers && (lay[id] & mask) === 0) continue;
        const ddx = F[t] - x, ddy = F[oY + t] - y;
        outIds[n] = id;
        n += +(ddx * ddx + ddy * ddy <= r2) & +(id !== excludeId);
        scanned++;
        if (n === cap) break outer;
      }
    }
  }
  hash.scanned += scanned;
  return n;
}

/**
 * The k nearest ids within distance r of (x, y), sorted by ascending distance, ties broken by the smaller id
 * (so the answer is unique and deterministic), excluding `excludeId` (-1 = none). Writes ids to outIds[0..n) and
 * squared distances (m²) to outDist2[0..n); returns n <= k. With `layers`, only ids with (layers[id] & mask) !== 0
 * are accepted (an agent's layer bits against the query's mask).
 *
 * Search: when the disc covers at most SMALL_QUERY_CELLS cells (r up to the cell size), kNearestSmall scans those
 * cells and sorts the survivors (by a sorting network on quantised keys, select.ts). Otherwise kNearestCore runs a
 * ring search seeded by the 3 x 3 block around the query cell, then rings of cells farther out, nearest ring first.
 * Once k candidates are held, the search radius becomes the k-th distance (RVO2's kd-tree query shrinks its radius
 * the same way; van den Berg et al., agent.cpp insertAgentNeighbor). A cell is skipped
 * when its nearest point is beyond the radius, and the search stops at the first ring whose nearest point is.
 * Candidates enter by bounded insertion sort, O(k) each. Both paths give the same answer.
 */
export function queryKNearest(
  hash: SpatialHash, x: number, y: number, r: number, k: number, excludeId: number,
  outIds: Int32Array, outDist2: Float64Array, layers?: Int32Array | null, mask?: number,
): number {
  validateQueryPoint(x, y, r);
  requireInteger('k', k, 0);
  requireInteger('excludeId', excludeId);
  if (outIds.length < k) throw new InvalidArgumentError('outIds', outIds, `must hold at least k = ${k} ids`);
  if (outDist2.length < k) throw new InvalidArgumentError('outDist2', outDist2, `must hold at least k = ${k} distances`);
  const m = mask ?? -1;
  requireInteger('mask', m);
  _queryX[0] = x;
  _queryY[0] = y;
  _queryR[0] = r;
  return kNearestSmall(hash, _queryX, _queryY, 0, _queryR, 0, k, excludeId, outIds, outDist2, 0, layers ?? null, m);
}

/**
 * queryKNearest around (xs[i], ys[i]) with radius rs[ri]: the allocation-free form for per-frame systems (see
 * queryRadiusAt).
 */
export function queryKNearestAt(
  hash: SpatialHash, xs: Float64Array, ys: Float64Array, i: number, rs: Float64Array, ri: number, k: number, excludeId: number,
  outIds: Int32Array, outDist2: Float64Array, layers?: Int32Array | null, mask?: number,
): number {
  validateQueryPoint(xs[i], ys[i], rs[ri]);
  requireInteger('k', k, 0);
  requireInteger('excludeId', excludeId);
  if (outIds.length < k) throw new InvalidArgumentError('outIds', outIds, `must hold at least k = ${k} ids`);
  if (outDist2.length < k) throw new InvalidArgumentError('outDist2', outDist2, `must hold at least k = ${k} distances`);
  const m = mask ?? -1;
  requireInteger('mask', m);
  return kNearestSmall(hash, xs, ys, i, rs, ri, k, excludeId, outIds, outDist2, 0, layers ?? null, m);
}

/**
 * Sort candidates cd/ci[a0, a1) by (d², id) in place, keeping at most `keep` of them: all while there are at most
 * `full`, else a bounded list of the best `keep` (a newcomer must beat the last kept). The result occupies
 * [a0, a0 + held); returns held. Insertion sort: the lists here hold a few dozen entries at most in a crowd.
 */
function sortCandidates(cd: Float64Array, ci: Int32Array, a0: number, a1: number, keep: number, full: number): number {
  const lim = a1 - a0 <= full ? a1 - a0 : keep;
  const lastKept = a0 + lim - 1;
  let held = 0;
  for (let a = a0; a < a1; a++) {
    const d2 = cd[a], id = ci[a];
    let p: number;
    if (held < lim) {
      p = a0 + held;
      held++;
    } else {
      const ld = cd[lastKept];
      if (d2 > ld || (d2 === ld && id > ci[lastKept])) continue;
      p = lastKept;
    }
    while (p > a0) {
      const pd = cd[p - 1];
      if (pd < d2 || (pd === d2 && ci[p - 1] < id)) break;
      cd[p] = pd;
      ci[p] = ci[p - 1];
      p--;
    }
    cd[p] = d2;
    ci[p] = id;
  }
  return held;
}

/**
 * Largest number of cells the single-query fast path (kNearestSmall) visits; beyond it, the ring search runs. The
 * fast path cannot prune by the k-th distance, so on wider discs it measures too many candidates: with r = 1.5
 * cell sizes (16 cells) it took 80 ms for 100k queries against 59 ms for the ring search (CPU, 2026-11-29).
 */
const SMALL_QUERY_CELLS = 9;
/**
 * A wider disc still takes the fast path when its cells hold few entries (a sparse crowd): every row of its cell
 * range is one run of buckets (no tile boundary crossed) and the runs hold at most SPARSE_QUERY_ENTRIES_PER_K · k +
 * SPARSE_QUERY_ENTRIES entries, at most SPARSE_QUERY_ROWS rows. The ring search visits its cells one by one (a bucket
 * hash per cell), which costs more than scanning that many entries: 10,000 agents on one circle, 4.5 m apart, k = 10
 * within 15 m on 7.5 m cells (25 cells, about 6 neighbours found), 2026-11-29. Only the speed depends on the path.
 */
const SPARSE_QUERY_ROWS = 8;
const SPARSE_QUERY_ENTRIES_PER_K = 4;
const SPARSE_QUERY_ENTRIES = 16;

/**
 * Whether rows j0..j1 of cells i0..i1 are each one run of consecutive buckets (the row lies in one tile and does not
 * wrap the table) holding at most `limit` entries in all (the runs may include entries of other cells sharing the
 * buckets; they count too, since the scan reads them).
 */
function sparseRows(hash: SpatialHash, i0: number, i1: number, j0: number, j1: number, limit: number): boolean {
  const wBits = hash.widthBits, hBits = hash.heightBits;
  if (i0 >> wBits !== i1 >> wBits) return false;
  const tMask = hash.tableSize - 1;
  const I = hash.intRegion, oStart = 4 * hash.capacity, span = i1 - i0;
  let total = 0;
  for (let j = j0; j <= j1; j++) {
    const b0 = spatialHashBucket(i0, j, wBits, hBits);
    if (b0 + span > tMask) return false;
    total += I[oStart + b0 + span + 1] - I[oStart + b0];
    if (total > limit) return false;
  }
  return true;
}

/**
 * Single k-nearest query when the disc covers at most 3 x 3 cells (r up to the cell size: the usual case). Three
 * steps:
 *
 * 1. Candidates. Visit the cells of the disc's bounding square (at most 3 x 3), a row at a time: the cells of one row usually lie
 *    in one tile of the bucket table, so their buckets are consecutive and their entries one contiguous run of the
 *    sorted arrays, scanned in one loop (rows that cross a tile edge go cell by cell).
 * 2. Compaction. Every candidate's d² and id are written at slot m, and m advances by
 *    +(d² <= r²) & +(id !== excludeId). V8 turns that boolean-to-number into a flag-to-register move, so no
 *    branch depends on the data. In a crowd about half the
 *    candidates fail the test at random, and a compare-and-branch there mispredicts often. Measured on the 100k
 *    crowd's real candidate sets (about 25 per query): 15.5 ms with the branch, 10.3 ms with a sign-bit trick,
 *    7.3 ms with +(d² <= r²) (CPU time, 2026-11-29, shared 2-core EPYC VM).
 * 3. Order. Up to 24 survivors: selectNearestKeys (select.ts) turns each into an int32 key (quantised d², index),
 *    sorts the keys with a branch-free sorting network and writes the first k, unless two of the first k + 1
 *    quantised distances are equal. Otherwise (ties, more survivors): insertion-sort them exactly by (d², id), or
 *    when there are many keep a bounded list of the best k, and copy out the first k.
 *
 * Replacing the ring search's bounded insertion with steps 2-3 took the 100k-agent frame from 57 ms to 44 ms
 * (CPU time, queries in slot order); the network in step 3 took 100k queries in id order from 66 to 52 ms
 * (2026-11-29). Wider discs go to the ring search, kNearestCore.
 */
function kNearestSmall(
  hash: SpatialHash, xs: Float64Array, ys: Float64Array, xi: number, rs: Float64Array, ri: number, k: number, excludeId: number,
  outIds: Int32Array, outDist2: Float64Array, off: number, layers: Int32Array | null, mask: number,
): number {
  // The query point and radius come as arrays plus indices, not doubles: see queryRadiusAt.
  const x = xs[xi], y = ys[xi], r = rs[ri];
  const count = hash.count;
  if (count === 0 || k === 0) return 0;
  const inv = hash.gridInvCellSize;
  // Cell range. The acceptance test is the rounded fl(dx² + dy²) <= fl(r²), which can pass a point whose exact
  // |dx| exceeds r by a relative 4 ulps (2^-53 each: one rounding in r², two in d², one in dx). rr = r (1 + 1e-14)
  // covers that with room. For a representable p.x >= x - rr, rounded subtraction, the rounded product by inv and
  // floor are all monotone, so floor(p.x * inv) >= floor(fl(x - rr) * inv): every accepted entry lies in
  // [i0, i1] x [j0, j1] with no further slack.
  // The relative bound fails when the squares underflow: with r = 0, a point at |dx| = 5e-324 has
  // fl(dx²) = 0 <= fl(r²) = 0 and is accepted (as queryRadius accepts it), yet lies outside [x − r, x + r]. Any
  // accepted d² below the normal range (2^-1022) has |dx| < 2^-511, so an absolute 2^-510 on top covers every
  // underflow case; for any r above ~1e-140 it is absorbed by rounding and changes nothing.
  const rr = r * (1 + 1e-14) + 2.983336292480083e-154; // + 2^-510
  const fi0 = Math.floor((x - rr) * inv), fi1 = Math.floor((x + rr) * inv);
  const fj0 = Math.floor((y - rr) * inv), fj1 = Math.floor((y + rr) * inv);
  if (!(fi0 > -CELL_LIMIT && fi1 < CELL_LIMIT && fj0 > -CELL_LIMIT && fj1 < CELL_LIMIT)) {
    return kNearestCore(hash, xs, ys, xi, rs, ri, k, excludeId, outIds, outDist2, off, layers, mask);
  }
  if ((fi1 - fi0 + 1) * (fj1 - fj0 + 1) > SMALL_QUERY_CELLS
    && !(fj1 - fj0 < SPARSE_QUERY_ROWS && sparseRows(hash, fi0 | 0, fi1 | 0, fj0 | 0, fj1 | 0, SPARSE_QUERY_ENTRIES_PER_K * k + SPARSE_QUERY_ENTRIES))) {
    return kNearestCore(hash, xs, ys, xi, rs, ri, k, excludeId, outIds, outDist2, off, layers, mask);
  }
  if (_candD2.length < count) growCandidates(count);
  const cd = _candD2, ci = _candId;
  const hasLayers = layers !== null;
  const lay = layers as Int32Array;
  // The hash's arrays through its two region views (see SpatialHash.floatRegion): the scan loop then checks three
  // typed arrays per candidate instead of seven. F[t] = x, F[cap + t] = y; I[t] = id, I[cap + t] = cell x,
  // I[2 cap + t] = cell y, I[4 cap + b] = cellStart[b].
  const F = hash.floatRegion, I = hash.intRegion;
  const cap = hash.capacity, oCx = cap, oCy = 2 * cap, oStart = 4 * cap;
  const cs = hash.gridCellSize;
  const wBits = hash.widthBits, hBits = hash.heightBits;
  const wMask = (1 << wBits) - 1, hMask = (1 << hBits) - 1, tMask = hash.tableSize - 1;
  const r2 = r * r;
  const slack = 1e-12 * (Math.abs(x) + Math.abs(y) + r + cs); // pruning slack, see above
  const i0 = fi0 | 0, i1 = fi1 | 0, j0 = fj0 | 0, j1 = fj1 | 0;
  let m = 0;
  let scanned = 0;
  const span = i1 - i0;
  const sameTile = i0 >> wBits === i1 >> wBits;
  for (let j = j0; j <= j1; j++) {
    const rowBits = (j & hMask) << wBits;
    const rowHash = Math.imul(j >> hBits, 19349663);
    let h = Math.imul(i0 >> wBits, 73856093) ^ rowHash;
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    const b0 = ((rowBits | (i0 & wMask)) + h) & tMask;
    if (sameTile && b0 + span <= tMask) {
      // Cells i0..i1 of this row lie in one tile, so their buckets are b0..b0 + span, one contiguous run of the
      // sorted arrays: scan it once, keeping entries of this row (other rows share buckets; entries of this row
      // outside i0..i1 lie beyond r, since the range holds every point within r, and fail the d² test).
      const e = I[oStart + b0 + span + 1];
      for (let t = I[oStart + b0]; t < e; t++) {
        if (I[oCy + t] !== j) continue; // other rows sharing the buckets (this row's other columns fail the d² test)
        const id = I[t];
        if (hasLayers && (lay[id] & mask) === 0) continue;
        const ddx = F[t] - x, ddy = F[cap + t] - y;
        const d2 = ddx * ddx + ddy * ddy;
        cd[m] = d2;
        ci[m] = id;
        m += +(d2 <= r2) & +(id !== excludeId); // advance only if d² <= r² and not excluded (branch-free, step 2 above)
        scanned++;
      }
      continue;
    }
    // The row crosses a tile boundary (or the table's end): cell by cell.
    let dy = Math.max(j * cs - y, y - (j + 1) * cs) - slack;
    if (dy < 0) dy = 0;
    const dy2 = dy * dy;
    for (let i = i0; i <= i1; i++) {
      let dx = Math.max(i * cs - x, x - (i + 1) * cs) - slack;
      if (dx < 0) dx = 0;
      if (dx * dx + dy2 > r2) continue; // the disc misses this cell (corner cells)
      let h = Math.imul(i >> wBits, 73856093) ^ rowHash;
      h ^= h >>> 16;
      h = Math.imul(h, 0x85ebca6b);
      h ^= h >>> 13;
      const b = ((rowBits | (i & wMask)) + h) & tMask;
      const e = I[oStart + b + 1];
      for (let t = I[oStart + b]; t < e; t++) {
        if (I[oCx + t] !== i || I[oCy + t] !== j) continue; // another cell sharing the bucket
        const id = I[t];
        if (hasLayers && (lay[id] & mask) === 0) continue;
        const ddx = F[t] - x, ddy = F[cap + t] - y;
        const d2 = ddx * ddx + ddy * ddy;
        cd[m] = d2;
        ci[m] = id;
        m += +(d2 <= r2) & +(id !== excludeId);
        scanned++;
      }
    }
  }
  hash.scanned += scanned;
  // Order the survivors by (d², id): a sorting network on quantised keys when it can decide (select.ts), else an
  // exact insertion sort of all of them while few, or a bounded list of the best k.
  const quick = selectNearestKeys(cd, ci, m, k, r2, outIds, outDist2, off);
  if (quick >= 0) return quick;
  const held = sortCandidates(cd, ci, 0, m, k, 2 * k);
  const n = held < k ? held : k;
  for (let a = 0; a < n; a++) {
    outIds[off + a] = ci[a];
    outDist2[off + a] = cd[a];
  }
  return n;
}

/** Where queryKNearestBatch writes each entry's results: at its entity id (default) or at its sorted slot. */
export type KNearestBatchIndex = 'id' | 'slot';

/**
 * Batch k-nearest query for the entries in sorted slots [start, start + count) of the hash, each excluding itself.
 * Slot t holds entity id = hash.sortedIds[t] at (sortedX[t], sortedY[t]). Results equal one queryKNearest call per
 * entry. With `indexBy = 'id'` (default), entity id's neighbours go to outIds[id * k .. id * k + n), sorted as
 * queryKNearest sorts them, their squared distances to the same offsets of outDist2, and n to outCounts[id]. With
 * `indexBy = 'slot'`, the same go to offset t * k and outCounts[t]. Disjoint slot ranges write disjoint outputs in
 * both modes, so ranges can be split across workers. Returns the total number of neighbours written.
 *
 * The dense kernel of knn-dense.ts answers the range: a per-call dense copy of the entries on a grid of cell r,
 * two agents of a cell scanned together, sorting networks; it hands back the few queries it cannot decide
 * (quantisation ties, over-crowded cells), which the single-query search answers here. When it declines (r = 0,
 * entries spread too sparsely for a dense grid, r above the cell size with far more than k entries per disc) every
 * entry runs the single-query search, in slot order. Results are the same either way. 'slot' output is written
 * nearly sequentially; 'id' output scatters the writes over memory and costs more (100k agents: 28 against 21 ms
 * CPU, 2026-11-29), so prefer 'slot' when the consumer can loop over slots.
 */
export function queryKNearestBatch(
  hash: SpatialHash, start: number, count: number, r: number, k: number,
  outIds: Int32Array, outDist2: Float64Array, outCounts: Int32Array, layers?: Int32Array | null, mask?: number,
  indexBy: KNearestBatchIndex = 'id',
): number {
  if (indexBy !== 'id' && indexBy !== 'slot') throw new InvalidArgumentError('indexBy', indexBy, "must be 'id' or 'slot'");
  return kNearestBatch(hash, start, count, r, k, outIds, outDist2, outCounts, layers, mask, indexBy === 'slot', false);
}

/**
 * queryKNearestBatch with 'slot' output whose neighbours are named by their hash SLOT instead of their entity id
 * (sortedIds[slot] is the id): for a consumer that works in slot space and would otherwise map every id back to its
 * slot, one random read per neighbour. Same neighbours in the same order.
 * @internal not part of the public API (not exported from src/index.ts)
 */
export function queryKNearestBatchSlots(
  hash: SpatialHash, start: number, count: number, r: number, k: number,
  outSlots: Int32Array, outDist2: Float64Array, outCounts: Int32Array, layers?: Int32Array | null, mask?: number,
): number {
  return kNearestBatch(hash, start, count, r, k, outSlots, outDist2, outCounts, layers, mask, true, true);
}

function kNearestBatch(
  hash: SpatialHash, start: number, count: number, r: number, k: number,
  outIds: Int32Array, outDist2: Float64Array, outCounts: Int32Array, layers: Int32Array | null | undefined, mask: number | undefined,
  bySlot: boolean, slotNeighbours: boolean,
): number {
  requireInteger('start', start, 0);
  requireInteger('count', count, 0);
  const end = start + count;
  if (end > hash.count) {
    throw new OutOfRangeError('start + count', end, `exceeds the ${hash.count} entries of the spatial hash`);
  }
  requireNonNegative('r', r);
  requireInteger('k', k, 0);
  const m = mask ?? -1;
  requireInteger('mask', m);
  const lay = layers ?? null;
  const sx = hash.sortedX, sy = hash.sortedY, sid = hash.sortedIds;
  // Output bounds, checked once: the largest index written must have k slots and a count.
  let maxIndex = end - 1;
  if (!bySlot) {
    maxIndex = -1;
    for (let t = start; t < end; t++) if (sid[t] > maxIndex) maxIndex = sid[t];
  }
  const need = (maxIndex + 1) * k;
  const what = bySlot ? '(start + count)' : '(max id + 1)';
  if (outIds.length < need) throw new InvalidArgumentError('outIds', outIds, `must hold ${what} * k = ${need} ids`);
  if (outDist2.length < need) throw new InvalidArgumentError('outDist2', outDist2, `must hold ${what} * k = ${need} distances`);
  if (outCounts.length < maxIndex + 1) throw new InvalidArgumentError('outCounts', outCounts, `must hold ${what} = ${maxIndex + 1} counts`);
  _queryR[0] = r;
  // The dense kernel (knn-dense.ts) answers nearly every entry and lists the rest, which the single-query search
  // below answers; when it declines (r = 0, boxes wider than 2^30 cells, wide discs better served by the ring search),
  // every entry takes the single-query search. Same results either way. The single-query search names neighbours
  // by id: with slotNeighbours they are mapped to slots (slotOfIds, built once per call that needs it).
  let total = 0, nFallback = -1;
  const fallback = _batchFallback.length < hash.count ? (_batchFallback = new Int32Array(hash.count)) : _batchFallback;
  if (k > 0 && end > start) {
    const dense = knnBatchDense(hash, start, end, r, k, outIds, outDist2, outCounts, lay, m, bySlot, fallback, _batchResult, slotNeighbours);
    if (dense >= 0) {
      total = dense;
      nFallback = _batchResult[0];
    }
  }
  if (nFallback < 0) {
    // declined: every entry
    nFallback = 0;
    for (let t = start; t < end; t++) fallback[nFallback++] = t;
  }
  if (slotNeighbours && nFallback > 0) slotOfIds(hash);
  const slotOf = _batchSlotOf;
  for (let f = 0; f < nFallback; f++) {
    const t = fallback[f];
    const id = sid[t];
    const o = bySlot ? t : id;
    const n = kNearestSmall(hash, sx, sy, t, _queryR, 0, k, id, outIds, outDist2, o * k, lay, m);
    if (slotNeighbours) for (let a = o * k; a < o * k + n; a++) outIds[a] = slotOf[outIds[a]];
    outCounts[o] = n;
    total += n;
  }
  return total;
}

/** _batchSlotOf[id] = the hash slot of entity id, for every entry (grown to the largest id). */
function slotOfIds(hash: SpatialHash): void {
  const sid = hash.sortedIds, n = hash.count;
  let maxId = 0;
  for (let t = 0; t < n; t++) if (sid[t] > maxId) maxId = sid[t];
  if (_batchSlotOf.length <= maxId) _batchSlotOf = new Int32Array(2 * maxId + 2);
  const slotOf = _batchSlotOf;
  for (let t = 0; t < n; t++) slotOf[sid[t]] = t;
}
let _batchSlotOf = new Int32Array(1024);

// Batch scratch: the slots the dense kernel leaves to the single-query search, and its fallback count.
let _batchFallback = new Int32Array(1024);
const _batchResult = new Int32Array(1);

// Single-query scratch, module scope (one set per thread/worker): the candidates' d² and ids. Grown only when the
// hash holds more entries than ever before, never per frame in steady state.
let _candD2 = new Float64Array(1024);
let _candId = new Int32Array(1024);

function growCandidates(n: number): void {
  let c = _candD2.length;
  while (c < n) c *= 2;
  _candD2 = new Float64Array(c);
  _candId = new Int32Array(c);
}

/**
 * kNN kernel of queryKNearest (ring search). Arguments are already validated. Results go to
 * outIds/outDist2[off .. off + n).
 */
function kNearestCore(
  hash: SpatialHash, xs: Float64Array, ys: Float64Array, xi: number, rs: Float64Array, ri: number, k: number, excludeId: number,
  outIds: Int32Array, outDist2: Float64Array, off: number, layers: Int32Array | null, mask: number,
): number {
  const x = xs[xi], y = ys[xi], r = rs[ri];
  const count = hash.count;
  if (count === 0 || k === 0) return 0;
  const hasLayers = layers !== null;
  const lay = layers as Int32Array;
  const sx = hash.sortedX, sy = hash.sortedY, sid = hash.sortedIds;
  const cs = hash.gridCellSize, inv = hash.gridInvCellSize;
  const r2 = r * r;
  const last = off + k - 1;
  let bound2 = r2; // current search radius squared: r², then the k-th distance once k candidates are held
  let n = 0;
  let scanned = 0;

  const fcx = Math.floor(x * inv), fcy = Math.floor(y * inv);
  // Ring search is only worth it while it visits fewer cells than a linear pass would examine entries.
  const budget = count + 8;
  let fullScan = !(fcx > -CELL_LIMIT && fcx < CELL_LIMIT && fcy > -CELL_LIMIT && fcy < CELL_LIMIT);
  if (!fullScan) {
    const slack = 1e-12 * (Math.abs(x) + Math.abs(y) + r + cs); // pruning slack, see above
    const cx = fcx | 0, cy = fcy | 0;
    const scx = hash.sortedCellX, scy = hash.sortedCellY, start = hash.cellStart;
    const wBits = hash.widthBits, hBits = hash.heightBits;
    const wMask = (1 << wBits) - 1, hMask = (1 << hBits) - 1, tMask = hash.tableSize - 1;
    // Distances from (x, y) to the edges of its own cell; ring R's nearest point is at least
    // min(left + (R-1) cs, right + (R-1) cs, ...) away, i.e. min(left, right, bottom, top) + (R - 1) cs.
    const edge = Math.min(x - cx * cs, (cx + 1) * cs - x, y - cy * cs, (cy + 1) * cs - y);

    // Rings 0 and 1 together: the 3 x 3 block around the query cell, scanned as row runs with branch-free
    // compaction and then sorted, as in kNearestSmall (the bounded insertion of the ring loop mispredicts about
    // once per candidate, and in a crowd the k nearest usually sit in this block). The sort is kept short: every
    // point closer than L2 = edge + cs (ring 2's lower bound) lies in the block, so when at least k survivors
    // are within min(r, L2), only those are sorted; they are the k nearest so far, and their k-th distance is at
    // most L2, so the ring loop from ring 2 usually stops at once. Otherwise all survivors within r are sorted.
    const l2 = edge + cs - slack;
    const blockR2 = l2 > 0 && l2 * l2 < r2 ? l2 * l2 : r2;
    if (_candD2.length < 2 * count) growCandidates(2 * count);
    const cd = _candD2, ci = _candId;
    // Two compacted lists in one pass: within r at [0, m), within min(r, L2) at [count, q).
    let m = 0;
    let q = count;
    const i0 = cx - 1, sameTile = i0 >> wBits === (cx + 1) >> wBits;
    for (let j = cy - 1; j <= cy + 1; j++) {
      const rowBits = (j & hMask) << wBits;
      const rowHash = Math.imul(j >> hBits, 19349663);
      for (let i = i0; i <= cx + 1; i++) {
        let h = Math.imul(i >> wBits, 73856093) ^ rowHash;
        h ^= h >>> 16;
        h = Math.imul(h, 0x85ebca6b);
        h ^= h >>> 13;
        const b = ((rowBits | (i & wMask)) + h) & tMask;
        // One tile and no wrap: the row's three buckets are consecutive, scan them as one run.
        const run = i === i0 && sameTile && b + 2 <= tMask;
        const e = start[run ? b + 3 : b + 1];
        for (let t = start[b]; t < e; t++) {
          if (scy[t] !== j || (run ? (scx[t] - i0) >>> 0 > 2 : scx[t] !== i)) continue; // other cells' entries
          const id = sid[t];
          if (hasLayers && (lay[id] & mask) === 0) continue;
          const ddx = sx[t] - x, ddy = sy[t] - y;
          const d2 = ddx * ddx + ddy * ddy;
          const keepIt = +(id !== excludeId);
          cd[m] = d2;
          ci[m] = id;
          m += +(d2 <= r2) & keepIt;
          cd[q] = d2;
          ci[q] = id;
          q += +(d2 <= blockR2) & keepIt;
          scanned++;
        }
        if (run) break;
      }
    }
    let from = 0;
    let held: number;
    if (q - count >= k) {
      from = count;
      held = sortCandidates(cd, ci, count, q, k, 2 * k);
    } else {
      held = sortCandidates(cd, ci, 0, m, k, 2 * k);
    }
    n = held < k ? held : k;
    for (let a = 0; a < n; a++) {
      outIds[off + a] = ci[from + a];
      outDist2[off + a] = cd[from + a];
    }
    if (n === k) bound2 = outDist2[last];
    let cellsSeen = 9;

    for (let ring = 2; ; ring++) {
      const lb = edge + (ring - 1) * cs - slack;
      if (lb > 0 && lb * lb > bound2) break; // every farther cell is beyond the search radius
      cellsSeen += 8 * ring;
      if (cellsSeen > budget) { fullScan = true; break; }
      const j0 = cy - ring, j1 = cy + ring;
      for (let j = j0; j <= j1; j++) {
        let dy = Math.max(j * cs - y, y - (j + 1) * cs) - slack;
        if (dy < 0) dy = 0;
        const dy2 = dy * dy;
        if (dy2 > bound2) continue; // whole row of this ring beyond the radius
        const rowBits = (j & hMask) << wBits;
        const rowHash = Math.imul(j >> hBits, 19349663);
        // Top and bottom rows of the ring are visited in full, the rows between only at their two ends.
        const step = j === j0 || j === j1 ? 1 : 2 * ring;
        for (let i = cx - ring; i <= cx + ring; i += step) {
          let dx = Math.max(i * cs - x, x - (i + 1) * cs) - slack;
          if (dx < 0) dx = 0;
          if (dx * dx + dy2 > bound2) continue; // nearest point of the cell beyond the radius
          let h = Math.imul(i >> wBits, 73856093) ^ rowHash;
          h ^= h >>> 16;
          h = Math.imul(h, 0x85ebca6b);
          h ^= h >>> 13;
          const b = ((rowBits | (i & wMask)) + h) & tMask;
          const e = start[b + 1];
          for (let t = start[b]; t < e; t++) {
            if (scx[t] !== i || scy[t] !== j) continue; // another cell sharing the bucket
            scanned++;
            const ddx = sx[t] - x, ddy = sy[t] - y;
            const d2 = ddx * ddx + ddy * ddy;
            if (d2 > bound2) continue;
            const id = sid[t];
            if (id === excludeId || (hasLayers && (lay[id] & mask) === 0)) continue;
            // Bounded insertion sort by (d2, id). When full, the newcomer must beat the k-th entry.
            let p: number;
            if (n < k) {
              p = off + n;
              n++;
            } else {
              const ld = outDist2[last];
              if (d2 > ld || (d2 === ld && id > outIds[last])) continue;
              p = last;
            }
            while (p > off) {
              const pd = outDist2[p - 1];
              if (pd < d2 || (pd === d2 && outIds[p - 1] < id)) break;
              outDist2[p] = pd;
              outIds[p] = outIds[p - 1];
              p--;
            }
            outDist2[p] = d2;
            outIds[p] = id;
            if (n === k) bound2 = outDist2[last]; // list full: shrink the search radius to the k-th distance
          }
        }
      }
    }
  }

  if (fullScan) {
    // Linear pass over all entries (r much larger than the cell size with few entries in range, or a query point
    // beyond the cell-coordinate limit). Starts afresh; the (d2, id) order makes the result identical to the ring
    // search's.
    n = 0;
    bound2 = r2;
    for (let t = 0; t < count; t++) {
      const ddx = sx[t] - x, ddy = sy[t] - y;
      const d2 = ddx * ddx + ddy * ddy;
      if (d2 > bound2) continue;
      const id = sid[t];
      if (id === excludeId || (hasLayers && (lay[id] & mask) === 0)) continue;
      let p: number;
      if (n < k) {
        p = off + n;
        n++;
      } else {
        const ld = outDist2[last];
        if (d2 > ld || (d2 === ld && id > outIds[last])) continue;
        p = last;
      }
      while (p > off) {
        const pd = outDist2[p - 1];
        if (pd < d2 || (pd === d2 && outIds[p - 1] < id)) break;
        outDist2[p] = pd;
        outIds[p] = outIds[p - 1];
        p--;
      }
      outDist2[p] = d2;
      outIds[p] = id;
      if (n === k) bound2 = outDist2[last];
    }
    scanned += count;
  }
  hash.scanned += scanned;
  return n;
}
