/**
 * Static obstacles for ORCA: polygons and open polylines stored as rings of directed segments in flat typed arrays,
 * plus a uniform grid over the segments (built once, rebuilt only when obstacles are added) for neighbour queries.
 *
 * Representation (as the ORCA paper's obstacle construction needs, van den Berg et al. 2011, section 6):
 * - every vertex v has a successor next[v]; the segment v -> next[v] is an obstacle edge with unit direction
 *   dir[v]. A closed polygon is stored counter-clockwise, so its solid interior lies to the LEFT of every edge and
 *   an agent outside sees an edge only from its right side;
 * - convex[v] = 1 when the boundary turns left (or goes straight) at v: the vertex bulges out and its velocity
 *   obstacle is a rounded cone; a reflex (concave) vertex is hidden by its two edges and only extends them;
 * - an open polyline p0..pn-1 is stored as the zero-area ring p0, p1, ..., pn-1, pn-2, ..., p1: both sides of the
 *   wall are edges, each seen from its own side; the end points are "convex" (the ring turns around there) and each
 *   interior bend is convex on one side and reflex on the other. A two-point wall is the ring p0 -> p1 -> p0.
 *
 * The grid: cells of side `cellSize` over the bounding box of all segments; each segment is listed in every cell
 * its bounding box overlaps (conservative), in counting-sort CSR form (cellStart[c]..cellStart[c+1] into
 * cellItems). A query visits the cells overlapping the query square and de-duplicates segments with a stamp array,
 * module scratch shared by every set (not part of the set: it is not state, and a snapshot must not depend on how
 * many queries ran).
 */
import { DegenerateGeometryError, InvalidArgumentError } from '../core/errors';
import { requireFinite, requirePositive } from '../core/validate';

export interface ObstacleSet {
  /** Number of stored vertices (= number of directed segments). */
  vertexCount: number;
  /** Number of obstacles (polygons and polylines) added. */
  obstacleCount: number;
  /** Bumped by every change (add, clear): caches built from the set (the systems' distance bounds) compare it. */
  version: number;
  x: Float64Array;
  y: Float64Array;
  /** Unit direction of the segment from this vertex to next[v]. */
  dirX: Float64Array;
  dirY: Float64Array;
  next: Int32Array;
  prev: Int32Array;
  /** 1 if the vertex is convex (see module comment), else 0. */
  convex: Uint8Array;
  /** Which obstacle (0-based, in order added) each vertex belongs to. */
  owner: Int32Array;
  /** Grid side length in metres, or 0 for automatic. */
  cellSizeOption: number;
  /** Current grid (valid when !indexDirty). */
  cellSize: number;
  originX: number;
  originY: number;
  cols: number;
  rows: number;
  cellStart: Int32Array;
  cellItems: Int32Array;
  indexDirty: boolean;
}

export interface ObstacleOptions {
  /** true (default): a closed polygon (either winding; stored counter-clockwise). false: an open polyline (a wall). */
  closed?: boolean;
  /**
   * Closed rings only. false (default): the inside of the ring is solid, agents keep out of it. true: the ring
   * encloses the agents and its outside is solid (an arena's wall, or the border of a walkable region: RVO2's
   * obstacle listed clockwise); stored clockwise, so the solid side is still on the LEFT of every edge and ORCA
   * sees each edge only from the open side. Either winding is accepted. @default false
   */
  enclose?: boolean;
}

/**
 * An empty obstacle set. `cellSize` (metres) fixes the side of the query grid; by default it is chosen from the
 * obstacles' extent so that there are about two cells per segment.
 */
export function createObstacleSet(options: { capacity?: number; cellSize?: number } = {}): ObstacleSet {
  const cap = Math.max(8, options.capacity ?? 64);
  let cellSizeOption = 0;
  if (options.cellSize !== undefined) cellSizeOption = requirePositive('options.cellSize', options.cellSize);
  return {
    vertexCount: 0,
    obstacleCount: 0,
    version: 0,
    x: new Float64Array(cap),
    y: new Float64Array(cap),
    dirX: new Float64Array(cap),
    dirY: new Float64Array(cap),
    next: new Int32Array(cap),
    prev: new Int32Array(cap),
    convex: new Uint8Array(cap),
    owner: new Int32Array(cap),
    cellSizeOption,
    cellSize: 1,
    originX: 0,
    originY: 0,
    cols: 0,
    rows: 0,
    cellStart: new Int32Array(1),
    cellItems: new Int32Array(0),
    indexDirty: true,
  };
}

function grow(set: ObstacleSet, need: number): void {
  if (need <= set.x.length) return;
  let cap = set.x.length;
  while (cap < need) cap *= 2;
  const f = (a: Float64Array) => { const b = new Float64Array(cap); b.set(a); return b; };
  const i = (a: Int32Array) => { const b = new Int32Array(cap); b.set(a); return b; };
  set.x = f(set.x);
  set.y = f(set.y);
  set.dirX = f(set.dirX);
  set.dirY = f(set.dirY);
  set.next = i(set.next);
  set.prev = i(set.prev);
  set.owner = i(set.owner);
  const c = new Uint8Array(cap);
  c.set(set.convex);
  set.convex = c;
}

/** Do open segments (a,b) and (c,d) properly cross or touch (collinear overlap included)? */
function segmentsIntersect(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const d1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx);
  const d2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx);
  const d3 = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  const d4 = (bx - ax) * (dy - ay) - (by - ay) * (dx - ax);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  const onSeg = (px: number, py: number, qx: number, qy: number, rx: number, ry: number) =>
    Math.min(px, qx) <= rx && rx <= Math.max(px, qx) && Math.min(py, qy) <= ry && ry <= Math.max(py, qy);
  if (d1 === 0 && onSeg(cx, cy, dx, dy, ax, ay)) return true;
  if (d2 === 0 && onSeg(cx, cy, dx, dy, bx, by)) return true;
  if (d3 === 0 && onSeg(ax, ay, bx, by, cx, cy)) return true;
  if (d4 === 0 && onSeg(ax, ay, bx, by, dx, dy)) return true;
  return false;
}

/**
 * First pair of non-adjacent edges of the closed ring (px, py) that cross or touch, or null. Edges are bucketed in a
 * uniform grid over the ring's bounding box (about one cell per edge) and only edges sharing a cell are tested, so
 * rings of thousands of vertices (a grid map's wall outline, imported level geometry) take near-linear time instead
 * of the n² pairs; small rings test every pair.
 */
function ringCrossing(px: number[], py: number[]): [number, number] | null {
  const n = px.length;
  if (n <= 64) {
    for (let i = 0; i < n; i++) {
      const i2 = (i + 1) % n;
      for (let j = i + 1; j < n; j++) {
        const j2 = (j + 1) % n;
        if (j === i2 || i === j2) continue; // adjacent edges share a vertex
        if (segmentsIntersect(px[i], py[i], px[i2], py[i2], px[j], py[j], px[j2], py[j2])) return [i, j];
      }
    }
    return null;
  }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let i = 0; i < n; i++) {
    if (px[i] < x0) x0 = px[i];
    if (px[i] > x1) x1 = px[i];
    if (py[i] < y0) y0 = py[i];
    if (py[i] > y1) y1 = py[i];
  }
  const side = Math.max(1, Math.ceil(Math.sqrt(n)));
  const cw = (x1 - x0) / side || 1, ch = (y1 - y0) / side || 1;
  const cellOf = (v: number, o: number, c: number) => Math.min(side - 1, Math.max(0, Math.floor((v - o) / c)));
  const cells: number[][] = Array.from({ length: side * side }, () => []);
  for (let i = 0; i < n; i++) {
    const i2 = (i + 1) % n;
    const ca = cellOf(Math.min(px[i], px[i2]), x0, cw), cb = cellOf(Math.max(px[i], px[i2]), x0, cw);
    const ra = cellOf(Math.min(py[i], py[i2]), y0, ch), rb = cellOf(Math.max(py[i], py[i2]), y0, ch);
    for (let r = ra; r <= rb; r++) for (let c = ca; c <= cb; c++) cells[r * side + c].push(i);
  }
  // Two edges that cross or touch share a point, hence a cell holding both (each is listed in every cell its
  // bounding box overlaps). Pairs are reported lowest first, as the all-pairs loop reports them.
  let best: [number, number] | null = null;
  for (const list of cells) {
    for (let a = 0; a < list.length; a++) {
      for (let b = a + 1; b < list.length; b++) {
        const i = Math.min(list[a], list[b]), j = Math.max(list[a], list[b]);
        const i2 = (i + 1) % n, j2 = (j + 1) % n;
        if (j === i2 || i === j2) continue;
        if (best !== null && (i > best[0] || (i === best[0] && j >= best[1]))) continue;
        if (segmentsIntersect(px[i], py[i], px[i2], py[i2], px[j], py[j], px[j2], py[j2])) best = [i, j];
      }
    }
  }
  return best;
}

/**
 * Add a polygon (closed, default) or an open polyline to the set. `points` are [x, y] pairs in metres.
 * Throws InvalidArgumentError for non-finite coordinates and DegenerateGeometryError for fewer than 3 distinct
 * points (polygon) / 2 (polyline), zero area, or a self-intersecting polygon. Returns the obstacle's index.
 * Not for the per-frame path: it may grow the buffers and marks the query grid for rebuilding.
 */
export function addObstacleToSet(set: ObstacleSet, points: ReadonlyArray<readonly [number, number]>, options: ObstacleOptions = {}): number {
  const closed = options.closed ?? true;
  const enclose = options.enclose ?? false;
  if (typeof enclose !== 'boolean') throw new InvalidArgumentError('options.enclose', enclose, 'must be a boolean');
  if (enclose && !closed) throw new InvalidArgumentError('options.enclose', enclose, 'applies to closed rings only (closed: true)');
  if (!Array.isArray(points)) throw new InvalidArgumentError('points', points, 'must be an array of [x, y] pairs');
  // Copy, validate and drop consecutive duplicates (and a repeated closing point).
  const px: number[] = [];
  const py: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    if (!p || p.length < 2) throw new InvalidArgumentError(`points[${i}]`, p, 'must be an [x, y] pair');
    const x = requireFinite(`points[${i}][0]`, p[0]);
    const y = requireFinite(`points[${i}][1]`, p[1]);
    const n = px.length;
    if (n > 0 && px[n - 1] === x && py[n - 1] === y) continue;
    px.push(x);
    py.push(y);
  }
  if (closed && px.length > 1 && px[0] === px[px.length - 1] && py[0] === py[py.length - 1]) {
    px.pop();
    py.pop();
  }
  const n = px.length;
  if (closed) {
    if (n < 3) throw new DegenerateGeometryError('points', points, 'a closed obstacle needs at least 3 distinct points');
    let area2 = 0;
    for (let i = 0; i < n; i++) {
      const j = (i + 1) % n;
      area2 += px[i] * py[j] - px[j] * py[i];
    }
    if (area2 === 0) throw new DegenerateGeometryError('points', points, 'polygon has zero area');
    const crossing = ringCrossing(px, py);
    if (crossing !== null) {
      throw new DegenerateGeometryError('points', points, `polygon is self-intersecting (edges ${crossing[0]} and ${crossing[1]})`);
    }
    // Make the solid side the left of every edge: counter-clockwise for a solid inside, clockwise for an enclosure.
    if ((area2 < 0) !== enclose) {
      px.reverse();
      py.reverse();
    }
  } else {
    if (n < 2) throw new DegenerateGeometryError('points', points, 'an open obstacle needs at least 2 distinct points');
    // Walk back along the interior points to close the zero-area ring.
    for (let i = n - 2; i >= 1; i--) {
      px.push(px[i]);
      py.push(py[i]);
    }
  }
  const m = px.length;
  const base = set.vertexCount;
  grow(set, base + m);
  const id = set.obstacleCount;
  for (let k = 0; k < m; k++) {
    const v = base + k;
    const nx = (k + 1) % m, pv = (k + m - 1) % m;
    set.x[v] = px[k];
    set.y[v] = py[k];
    set.next[v] = base + nx;
    set.prev[v] = base + pv;
    set.owner[v] = id;
    const ex = px[nx] - px[k], ey = py[nx] - py[k];
    const len = Math.sqrt(ex * ex + ey * ey);
    set.dirX[v] = ex / len;
    set.dirY[v] = ey / len;
    // Convex when the turn prev -> v -> next is left or straight: det(v - prev, next - v) >= 0.
    const turn = (px[k] - px[pv]) * ey - (py[k] - py[pv]) * ex;
    set.convex[v] = turn >= 0 ? 1 : 0;
  }
  set.vertexCount = base + m;
  set.obstacleCount = id + 1;
  set.version++;
  set.indexDirty = true;
  return id;
}

/**
 * Remove every obstacle from the set (a level change, or walls rebuilt after a map edit: clear, then add the new
 * ones). Keeps the buffers; indices restart at 0.
 */
export function clearObstacleSet(set: ObstacleSet): void {
  set.vertexCount = 0;
  set.obstacleCount = 0;
  set.version++;
  set.indexDirty = true;
}

/** (Re)build the query grid. Called automatically by the query after obstacles were added. */
export function buildObstacleIndex(set: ObstacleSet): void {
  const n = set.vertexCount;
  const { x, y, next } = set;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let v = 0; v < n; v++) {
    if (x[v] < minX) minX = x[v];
    if (x[v] > maxX) maxX = x[v];
    if (y[v] < minY) minY = y[v];
    if (y[v] > maxY) maxY = y[v];
  }
  if (n === 0) {
    set.cols = 0;
    set.rows = 0;
    set.cellStart = new Int32Array(1);
    set.cellItems = new Int32Array(0);
    set.indexDirty = false;
    return;
  }
  const w = maxX - minX, h = maxY - minY;
  let cs = set.cellSizeOption;
  if (cs <= 0) {
    // About two cells per segment, at most 1024 cells along the longer side.
    cs = Math.max(Math.sqrt((w * h) / (2 * n)), Math.max(w, h) / 1024, 1e-3);
  }
  const cols = Math.max(1, Math.min(1 << 15, Math.floor(w / cs) + 1));
  const rows = Math.max(1, Math.min(1 << 15, Math.floor(h / cs) + 1));
  const cellStart = new Int32Array(cols * rows + 1);
  // Pass 1: count the cells each segment's bounding box covers; pass 2: prefix sums; pass 3: fill.
  for (let pass = 0; pass < 2; pass++) {
    const fill = pass === 1 ? cellStart.slice(0, cols * rows) : null;
    const items = pass === 1 ? new Int32Array(cellStart[cols * rows]) : null;
    for (let v = 0; v < n; v++) {
      const u = next[v];
      const c0 = Math.min(cols - 1, Math.floor((Math.min(x[v], x[u]) - minX) / cs));
      const c1 = Math.min(cols - 1, Math.floor((Math.max(x[v], x[u]) - minX) / cs));
      const r0 = Math.min(rows - 1, Math.floor((Math.min(y[v], y[u]) - minY) / cs));
      const r1 = Math.min(rows - 1, Math.floor((Math.max(y[v], y[u]) - minY) / cs));
      for (let r = r0; r <= r1; r++) {
        for (let c = c0; c <= c1; c++) {
          const cell = r * cols + c;
          if (fill === null) cellStart[cell + 1]++;
          else items![fill[cell]++] = v;
        }
      }
    }
    if (pass === 0) {
      for (let c = 0; c < cols * rows; c++) cellStart[c + 1] += cellStart[c];
    } else {
      set.cellItems = items!;
    }
  }
  set.cellStart = cellStart;
  set.cellSize = cs;
  set.originX = minX;
  set.originY = minY;
  set.cols = cols;
  set.rows = rows;
  set.indexDirty = false;
}

/**
 * The obstacle segments an agent at (px, py) must consider: those whose supporting line has the agent strictly on
 * its right (outside) and whose closest point is nearer than `range` (ORCA uses obstacleTimeHorizon * maxSpeed +
 * radius). Writes vertex ids (segment v -> next[v]) into `out`, nearest first (ties by id), and their squared
 * distances into `outDistSq`; returns the count, at most out.length. No allocation (after the first call that
 * builds the grid).
 */
export function queryObstacleSegments(
  set: ObstacleSet, px: number, py: number, range: number, out: Int32Array, outDistSq: Float64Array,
): number {
  _segQuery[0] = px;
  _segQuery[1] = py;
  _segQuery[2] = range;
  return queryObstacleSegmentsAt(set, _segQuery, out, outDistSq);
}

const _segQuery = new Float64Array(3);
// De-duplication stamps of queryObstacleSegmentsAt (a segment listed in several cells is taken once per query):
// _segStamp[v] === _segStampValue marks segment v as seen by the current query. Shared by every set: a query's
// value is new, so marks left by other sets or queries never match.
let _segStamp = new Uint32Array(64);
let _segStampValue = 0;
// The grid cells a query square covers: columns _cells[0]..[1], rows _cells[2]..[3] (see queryCells).
const _cells = new Int32Array(4);

/**
 * The grid cells overlapping the square of half side query[2] around (query[0], query[1]), clamped to the grid, into
 * _cells; false when the grid is empty or the square misses it. Builds the index if obstacles were added.
 */
function queryCells(set: ObstacleSet, query: Float64Array): boolean {
  const px = query[0], py = query[1], range = query[2];
  if (set.indexDirty) buildObstacleIndex(set);
  const cols = set.cols, rows = set.rows;
  if (cols === 0) return false;
  const cs = set.cellSize, ox = set.originX, oy = set.originY;
  const fc0 = Math.floor((px - range - ox) / cs), fc1 = Math.floor((px + range - ox) / cs);
  const fr0 = Math.floor((py - range - oy) / cs), fr1 = Math.floor((py + range - oy) / cs);
  if (fc1 < 0 || fr1 < 0 || fc0 >= cols || fr0 >= rows) return false;
  _cells[0] = fc0 < 0 ? 0 : fc0; _cells[1] = fc1 >= cols ? cols - 1 : fc1;
  _cells[2] = fr0 < 0 ? 0 : fr0; _cells[3] = fr1 >= rows ? rows - 1 : fr1;
  return true;
}

/**
 * A lower bound of the distance from (query[0], query[1]) to every segment of the set, capped at query[2]: the
 * exact distance to the nearest segment when one lies within query[2], else query[2]. Every segment counts, on
 * either side (unlike queryObstacleSegmentsAt, which keeps those with the point outside). The distance to the set is
 * 1-Lipschitz, so at any point p it is at least the returned value minus |p − (query[0], query[1])|: a caller can skip
 * its segment queries while that stays above its range (systems/orca.ts). No allocation.
 */
export function obstacleDistanceLowerBoundAt(set: ObstacleSet, query: Float64Array): number {
  const px = query[0], py = query[1], range = query[2];
  if (!queryCells(set, query)) return range;
  const cols = set.cols, c0 = _cells[0], c1 = _cells[1], r0 = _cells[2], r1 = _cells[3];
  const x = set.x, y = set.y, next = set.next, cellStart = set.cellStart, cellItems = set.cellItems;
  let best = range * range;
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const cell = r * cols + c;
      const end = cellStart[cell + 1];
      for (let k = cellStart[cell]; k < end; k++) {
        const v = cellItems[k];
        const ax = x[v], ay = y[v], u = next[v];
        const ex = x[u] - ax, ey = y[u] - ay;
        const rx = px - ax, ry = py - ay;
        const lenSq = ex * ex + ey * ey;
        let t = lenSq > 0 ? (rx * ex + ry * ey) / lenSq : 0;
        if (t < 0) t = 0;
        else if (t > 1) t = 1;
        const qx = rx - t * ex, qy = ry - t * ey;
        const dSq = qx * qx + qy * qy;
        if (dSq < best) best = dSq;
      }
    }
  }
  return Math.sqrt(best);
}

/**
 * queryObstacleSegments for the point (query[0], query[1]) and range query[2]: the allocation-free form per-frame
 * systems call. V8 passes arguments tagged, so a fractional double handed to a call it does not inline is boxed into
 * a fresh HeapNumber on every call; read from a Float64Array it is not.
 */
export function queryObstacleSegmentsAt(set: ObstacleSet, query: Float64Array, out: Int32Array, outDistSq: Float64Array): number {
  const px = query[0], py = query[1], range = query[2];
  if (out.length === 0 || !queryCells(set, query)) return 0;
  const cols = set.cols, c0 = _cells[0], c1 = _cells[1], r0 = _cells[2], r1 = _cells[3];
  const { x, y, next, cellStart, cellItems } = set;
  if (_segStamp.length < set.vertexCount) _segStamp = new Uint32Array(Math.max(64, 2 * set.vertexCount));
  const stamp = _segStamp;
  let sv = (_segStampValue + 1) >>> 0;
  if (sv === 0) {
    stamp.fill(0);
    sv = 1;
  }
  _segStampValue = sv;
  const rangeSq = range * range;
  const cap = out.length;
  let count = 0;
  for (let r = r0; r <= r1; r++) {
    for (let c = c0; c <= c1; c++) {
      const cell = r * cols + c;
      const end = cellStart[cell + 1];
      for (let k = cellStart[cell]; k < end; k++) {
        const v = cellItems[k];
        if (stamp[v] === sv) continue;
        stamp[v] = sv;
        const ax = x[v], ay = y[v], u = next[v];
        const ex = x[u] - ax, ey = y[u] - ay;
        const rx = px - ax, ry = py - ay;
        // Outside = strictly right of the directed segment: det(e, r) < 0.
        if (ex * ry - ey * rx >= 0) continue;
        // Squared distance from the agent to the segment (closest point clamped to the ends).
        const lenSq = ex * ex + ey * ey;
        let t = (rx * ex + ry * ey) / lenSq;
        if (t < 0) t = 0;
        else if (t > 1) t = 1;
        const qx = rx - t * ex, qy = ry - t * ey;
        const dSq = qx * qx + qy * qy;
        if (dSq >= rangeSq) continue;
        // Insertion sort, nearest first; ties ordered by vertex id for determinism.
        let i = count < cap ? count : cap - 1;
        if (count >= cap && (dSq > outDistSq[cap - 1] || (dSq === outDistSq[cap - 1] && v > out[cap - 1]))) continue;
        while (i > 0 && (outDistSq[i - 1] > dSq || (outDistSq[i - 1] === dSq && out[i - 1] > v))) {
          out[i] = out[i - 1];
          outDistSq[i] = outDistSq[i - 1];
          i--;
        }
        out[i] = v;
        outDistSq[i] = dSq;
        if (count < cap) count++;
      }
    }
  }
  return count;
}
