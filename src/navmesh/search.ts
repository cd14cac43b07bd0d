/**
 * Optimal any-angle A* over the navmesh triangles, returning the corridor (triangle sequence) of the Euclidean
 * shortest path and its length.
 *
 * Plain A* over triangle centroids or edge midpoints (Detour's dtNavMeshQuery::findPath) returns *a* corridor
 * whose funnelled path can be far from the shortest one. We search instead in the manner of Polyanya (Cui, Harabor
 * & Grastien, "Compromise-free pathfinding on a navigation mesh", IJCAI 2017): a search node is a *cone* — a root
 * point r (the start or a mesh vertex where the path bends) and an interval [L, R] on a triangle edge, with every
 * point of the interval visible from r — plus the triangle the cone is entering. Written in our own words:
 *
 *   expand interval node (r, [L, R], Q):
 *     if the goal is in Q and inside the cone: push a final node, f = g(r) + |r − goal|
 *     for each edge u→w of Q other than the entry edge:
 *       clip u→w to the cone (two orientation half-planes) → [P0, P1] or empty
 *       a clipped endpoint that is a corner vertex (reflex for free space) is visible: relax it as a new root
 *       if the edge has a neighbour triangle: push interval node (r, [P1, P0], neighbour)
 *   expand vertex node v (reached with g(v)):
 *     for each triangle T around v (within the sector v was reached from):
 *       goal in T → final node; relax T's other two corners; push (v, opposite edge of T, triangle beyond)
 *
 * Shortest paths in a polygonal domain bend only at reflex vertices (Lee & Preparata 1984), so roots are only
 * corner vertices; every straight leg is a cone propagated triangle by triangle. g(v) is relaxed Dijkstra-style
 * with lazy deletion ("root pruning" in the Polyanya paper): a node whose root has since been reached more cheaply
 * is dropped. The heuristic of an interval node is the length of the shortest r → interval → goal path (reflect the
 * goal across the interval's line when it lies on r's side), admissible and consistent, so the first final node
 * popped is optimal. A vertex root expands only the directions in which the path is taut there (see expandVertex),
 * the counterpart of the paper's "non-observable successors".
 *
 * The corridor is read back along the parent chain; where the path bends at a vertex, the triangles swept around
 * it are filled in by walking the vertex's fan. The funnel over that corridor reproduces the same path.
 */
import type { Navmesh } from './build';
import { nearestPointOnMeshAt, pointInTriangleAt } from './locate';
import { requireFinite, requireInteger } from '../core/validate';
import { InvalidArgumentError } from '../core/errors';

/** Outcome of a path query. Unreachable goals and exhausted node budgets are statuses, not exceptions. */
export type NavPathStatus = 'found' | 'unreachable' | 'node-limit' | 'corridor-overflow';

const KIND_START = 0, KIND_INTERVAL = 1, KIND_VERTEX = 2, KIND_FINAL = 3;

/** Reusable search state for one mesh: node pools and the open list. Not shared between threads. */
export interface NavQuery {
  readonly mesh: Navmesh;
  /** Hard cap on search nodes per query (memory bound). */
  readonly maxNodes: number;
  /** Nodes created by the last query (for profiling). */
  nodesCreated: number;
  /** Nodes expanded by the last query. */
  nodesExpanded: number;
  cap: number;
  kind: Uint8Array;
  parent: Int32Array;
  root: Int32Array;
  poly: Int32Array;
  via: Int32Array;
  entry: Int8Array;
  g: Float64Array;
  f: Float64Array;
  iv: Float64Array; // lx, ly, rx, ry per node
  bestG: Float64Array;
  stamp: Uint32Array;
  searchId: number;
  /**
   * Open list: a binary min-heap of node ids in heap[0 .. heapSize), ordered by f, ties by the older (smaller) id.
   * Typed and sized with the node arrays, so pushing never allocates.
   */
  heap: Int32Array;
  heapSize: number;
  chain: Int32Array;
  fan: Int32Array;
  /**
   * Optional per-triangle flags (1 = closed, e.g. a door or a dynamic obstacle): closed triangles are treated as
   * walls. While set, every vertex may be a bend point (closing triangles creates new reflex corners).
   */
  blocked: Uint8Array | null;
  /** State of the current (possibly sliced) search. */
  state: NavPathStatus | 'in-progress';
  /** Per-search scalars saved between slices: start x, y, goal x, y, the start's and the goal's on-vertex tolerance²; goal triangle; node count; overflow. */
  sg: Float64Array;
  goalTri: number;
  nodeCount: number;
  overflow: boolean;
  cornerFlags: Uint8Array;
  found: number;
  /**
   * 1 where free space meets the vertex in more than one wedge (more than two wall edges end there: obstacles
   * touching at a vertex). Closed triangles can split any vertex they touch: `vertexTris` (CSR by vertex, start in
   * `vertexStart`) tells which. Root pruning at such a vertex is kept per wedge, in `wedgeBestG` / `wedgeStamp`
   * (indexed 3·t + corner, t the wedge's lowest triangle id).
   */
  multiWedge: Uint8Array;
  vertexStart: Int32Array;
  vertexTris: Int32Array;
  wedgeBestG: Float64Array;
  wedgeStamp: Uint32Array;
}

/** Result of findNavPath: corridor (caller-owned, fixed capacity), snapped endpoints and the path length. */
export interface NavPathResult {
  status: NavPathStatus;
  /** Triangle ids from the start's triangle to the goal's. */
  corridor: Int32Array;
  corridorLength: number;
  /** Start and goal after snapping onto the mesh (equal to the inputs when they were on it). */
  startX: number;
  startY: number;
  goalX: number;
  goalY: number;
  /** Euclidean length of the shortest path (metres); Infinity unless found. */
  length: number;
}

/** Create a query for `mesh`. `maxNodes` bounds the work of one query. @default 65536 */
export function createNavQuery(mesh: Navmesh, maxNodes = 65536): NavQuery {
  requireInteger('maxNodes', maxNodes, 16, 1 << 26);
  const cap = Math.min(maxNodes, 1024);
  const q: NavQuery = {
    mesh, maxNodes, nodesCreated: 0, nodesExpanded: 0, cap,
    kind: new Uint8Array(cap), parent: new Int32Array(cap), root: new Int32Array(cap), poly: new Int32Array(cap),
    via: new Int32Array(cap), entry: new Int8Array(cap), g: new Float64Array(cap), f: new Float64Array(cap),
    iv: new Float64Array(4 * cap),
    bestG: new Float64Array(mesh.vertexCount), stamp: new Uint32Array(mesh.vertexCount), searchId: 0,
    heap: new Int32Array(cap), heapSize: 0,
    chain: new Int32Array(256), fan: new Int32Array(64), blocked: null,
    state: 'unreachable', sg: new Float64Array(6), goalTri: -1, nodeCount: 0, overflow: false, cornerFlags: mesh.corner, found: -1,
    multiWedge: new Uint8Array(mesh.vertexCount), vertexStart: new Int32Array(mesh.vertexCount + 1), vertexTris: new Int32Array(3 * mesh.triangleCount),
    wedgeBestG: new Float64Array(3 * mesh.triangleCount), wedgeStamp: new Uint32Array(3 * mesh.triangleCount),
  };
  const T = mesh.triangles, N = mesh.neighbours, nt = mesh.triangleCount;
  const walls = new Uint8Array(mesh.vertexCount);
  for (let i = 0; i < 3 * nt; i++) {
    q.vertexStart[T[i] + 1]++;
    if (N[i] < 0) { // wall edge T[i] → T[next]: one wall end at each of its vertices
      const t = (i / 3) | 0, b = T[3 * t + (i - 3 * t + 1) % 3];
      if (walls[T[i]] < 255) walls[T[i]]++;
      if (walls[b] < 255) walls[b]++;
    }
  }
  for (let v = 0; v < mesh.vertexCount; v++) { q.vertexStart[v + 1] += q.vertexStart[v]; q.multiWedge[v] = walls[v] > 2 ? 1 : 0; }
  const fill = q.vertexStart.slice(0, mesh.vertexCount);
  for (let i = 0; i < 3 * nt; i++) q.vertexTris[fill[T[i]]++] = (i / 3) | 0;
  return q;
}

/** Create a path result able to hold `maxCorridor` triangles. @default 4096 */
export function createNavPathResult(maxCorridor = 4096): NavPathResult {
  requireInteger('maxCorridor', maxCorridor, 2, 1 << 26);
  return { status: 'unreachable', corridor: new Int32Array(maxCorridor), corridorLength: 0, startX: 0, startY: 0, goalX: 0, goalY: 0, length: Infinity };
}

function grow(q: NavQuery): void {
  const cap = Math.min(q.cap * 2, q.maxNodes);
  const g8 = (a: Uint8Array): Uint8Array => { const b = new Uint8Array(cap); b.set(a); return b; };
  const g32 = (a: Int32Array): Int32Array => { const b = new Int32Array(cap); b.set(a); return b; };
  const g8s = (a: Int8Array): Int8Array => { const b = new Int8Array(cap); b.set(a); return b; };
  const g64 = (a: Float64Array, k: number): Float64Array => { const b = new Float64Array(k * cap); b.set(a); return b; };
  q.kind = g8(q.kind); q.parent = g32(q.parent); q.root = g32(q.root); q.poly = g32(q.poly); q.via = g32(q.via);
  q.entry = g8s(q.entry); q.g = g64(q.g, 1); q.f = g64(q.f, 1); q.iv = g64(q.iv, 4);
  q.heap = g32(q.heap);
  q.cap = cap;
}

/*
 * The open list. Order: lower f first, then the smaller node id (the older node): a strict total order, so the pop
 * sequence, and with it the search, is fully determined (any correct heap pops the same sequence). Replaces a
 * TinyQueue, whose backing array was emptied per search and regrown by push (2.8 KB per re-plan in the funnel system).
 */
function before(f: Float64Array, a: number, b: number): boolean {
  const fa = f[a], fb = f[b];
  return fa < fb || (fa === fb && a < b);
}

function heapPush(q: NavQuery, node: number): void {
  const h = q.heap, f = q.f;
  let i = q.heapSize++;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const p = h[parent];
    if (!before(f, node, p)) break;
    h[i] = p;
    i = parent;
  }
  h[i] = node;
}

function heapPop(q: NavQuery): number {
  const h = q.heap, f = q.f;
  const top = h[0];
  const n = --q.heapSize;
  if (n > 0) {
    const last = h[n];
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= n) break;
      if (c + 1 < n && before(f, h[c + 1], h[c])) c++;
      if (!before(f, h[c], last)) break;
      h[i] = h[c];
      i = c;
    }
    h[i] = last;
  }
  return top;
}

// Per-query scalars kept at module scope so the helpers below need no closures.
let _goalTri = -1, _n = 0, _overflow = false;
// start x, y, goal x, y of the current query; [4], [5]: squared distances within which the start, the goal counts as
// on a vertex
const _sg = new Float64Array(6);

function newNode(q: NavQuery, kind: number, parent: number, root: number, poly: number, via: number): number {
  if (_n >= q.cap) {
    if (q.cap >= q.maxNodes) { _overflow = true; return -1; }
    grow(q);
  }
  const i = _n++;
  q.kind[i] = kind; q.parent[i] = parent; q.root[i] = root; q.poly[i] = poly; q.via[i] = via;
  q.entry[i] = -1;
  return i;
}

/*
 * Hot-path calling convention: doubles never cross a call. V8 boxes a double passed to (or returned from) a function
 * it does not inline, and the search's helpers are not all inlined: that allocated ~240 bytes per search node
 * (sampling heap profiler, 2026-11-29). Callers put g, interval endpoints and results in _a instead.
 *   _a[0] g (cost of the root)    _a[1] result of intervalH    _a[2..3] root x, y    _a[4..7] L x, y, R x, y
 */
const _a = new Float64Array(8);

/** Relax corner vertex v with cost g = _a[0], reached inside triangle `arrival`. */
function relaxVertex(q: NavQuery, v: number, arrival: number, via: number, parent: number): void {
  const g = _a[0];
  // Root pruning: a vertex is a root once, at its cheapest arrival. Where free space meets v in several wedges
  // (obstacles touching at v, or closed triangles splitting its fan), arrivals in different wedges lead on into
  // different places, so each wedge keeps its own cheapest arrival: pruning across wedges lost the only path to
  // a goal behind a closed triangle (found by the funnel map-change fuzz property, 2026-11-30).
  const multi = isMultiWedge(q, v);
  const key = multi ? wedgeKey(q, v, arrival) : -1;
  if (multi) {
    if (q.wedgeStamp[key] === q.searchId && !(g < q.wedgeBestG[key] - 1e-12 * (1 + g))) return;
  } else if (q.stamp[v] === q.searchId && !(g < q.bestG[v] - 1e-12 * (1 + g))) return;
  const V = q.mesh.vertices;
  const node = newNode(q, KIND_VERTEX, parent, v, arrival, via);
  if (node < 0) return;
  const hx = _sg[2] - V[2 * v], hy = _sg[3] - V[2 * v + 1];
  q.g[node] = g;
  q.f[node] = g + Math.sqrt(hx * hx + hy * hy);
  if (multi) { q.wedgeStamp[key] = q.searchId; q.wedgeBestG[key] = g; }
  if (q.stamp[v] !== q.searchId || g < q.bestG[v]) { q.stamp[v] = q.searchId; q.bestG[v] = g; }
  heapPush(q, node);
}

/** May free space meet vertex v in more than one wedge? (Static pinch vertices, and any vertex of a closed triangle.) */
function isMultiWedge(q: NavQuery, v: number): boolean {
  if (q.multiWedge[v] !== 0) return true;
  const b = q.blocked;
  if (b === null) return false;
  for (let i = q.vertexStart[v], e = q.vertexStart[v + 1]; i < e; i++) if (b[q.vertexTris[i]] !== 0) return true;
  return false;
}

/** The wedge of vertex v holding triangle t, as 3·m + (v's corner in m), m the wedge's lowest triangle id. */
function wedgeKey(q: NavQuery, v: number, t0: number): number {
  const T = q.mesh.triangles;
  let m = t0;
  for (let dir = 0; dir < 2; dir++) {
    let t = t0;
    for (let guard = 0; guard < 1024; guard++) {
      const k = localIndex(T, t, v);
      const nb = nbr(q, t, dir === 0 ? k : (k + 2) % 3);
      if (nb < 0 || nb === t0) break;
      if (nb < m) m = nb;
      t = nb;
    }
  }
  return 3 * m + localIndex(T, m, v);
}

/**
 * Lower bound of the length of root → (point of segment LR) → goal (Polyanya's interval heuristic): reflect the goal
 * across line LR if it is on the root's side; go straight if that line passes through [L, R], else via the nearer
 * endpoint. Reads root and interval from _a[2..7], writes the bound to _a[1].
 */
function intervalH(): void {
  const rx = _a[2], ry = _a[3], lx = _a[4], ly = _a[5], px = _a[6], py = _a[7];
  let gx = _sg[2], gy = _sg[3];
  const sr = ((px - lx) * (ry - ly) - (py - ly) * (rx - lx)), sg = ((px - lx) * (gy - ly) - (py - ly) * (gx - lx));
  if ((sr > 0 && sg > 0) || (sr < 0 && sg < 0)) {
    // Reflect across line L→P: g' = 2·proj − g.
    const dx = px - lx, dy = py - ly;
    const len2 = dx * dx + dy * dy;
    if (len2 > 0) {
      const t = ((gx - lx) * dx + (gy - ly) * dy) / len2;
      gx = 2 * (lx + t * dx) - gx;
      gy = 2 * (ly + t * dy) - gy;
    }
  }
  const d1 = ((gx - rx) * (ly - ry) - (gy - ry) * (lx - rx)), d2 = ((gx - rx) * (py - ry) - (gy - ry) * (px - rx));
  if ((d1 <= 0 && d2 >= 0) || (d1 >= 0 && d2 <= 0)) {
    _a[1] = Math.sqrt((gx - rx) * (gx - rx) + (gy - ry) * (gy - ry));
  } else {
    const ex = Math.abs(d1) < Math.abs(d2) ? lx : px, ey = Math.abs(d1) < Math.abs(d2) ? ly : py;
    _a[1] = Math.sqrt((ex - rx) * (ex - rx) + (ey - ry) * (ey - ry)) + Math.sqrt((gx - ex) * (gx - ex) + (gy - ey) * (gy - ey));
  }
}

/**
 * Push an interval node (root, [L, R]) with g = _a[0] and L, R in _a[4..7], entering triangle `poly` through the
 * edge whose endpoints are w (L side) and u (R side).
 */
function pushInterval(q: NavQuery, parent: number, root: number, via: number, poly: number, u: number, w: number, push: boolean): number {
  const V = q.mesh.vertices;
  _a[2] = root < 0 ? _sg[0] : V[2 * root];
  _a[3] = root < 0 ? _sg[1] : V[2 * root + 1];
  intervalH();
  const node = newNode(q, KIND_INTERVAL, parent, root, poly, via);
  if (node < 0) return -1;
  q.g[node] = _a[0];
  q.f[node] = _a[0] + _a[1];
  const T = q.mesh.triangles;
  // Entry edge of `poly`: its CCW edge w → u.
  let e = 0;
  for (let k = 0; k < 3; k++) if (T[3 * poly + k] === w && T[3 * poly + (k + 1) % 3] === u) e = k;
  q.entry[node] = e;
  const iv = q.iv;
  iv[4 * node] = _a[4]; iv[4 * node + 1] = _a[5]; iv[4 * node + 2] = _a[6]; iv[4 * node + 3] = _a[7];
  if (push) heapPush(q, node);
  return node;
}

/** Neighbour across edge k of t, honouring closed triangles. */
function nbr(q: NavQuery, t: number, k: number): number {
  const nb = q.mesh.neighbours[3 * t + k];
  return nb >= 0 && q.blocked !== null && q.blocked[nb] !== 0 ? -1 : nb;
}

/** Local index (0..2) of vertex v in triangle t, or -1. */
function localIndex(T: Uint32Array, t: number, v: number): number {
  if (T[3 * t] === v) return 0;
  if (T[3 * t + 1] === v) return 1;
  if (T[3 * t + 2] === v) return 2;
  return -1;
}

/**
 * Collect the sector of triangles around vertex v that contains triangle `from` into q.fan; returns the count.
 * Crossing the edge v → next of a counter-clockwise triangle turns clockwise around v, crossing prev → v turns
 * counter-clockwise. The wall rays that bound the sector are left in _wall (cw x, y, ccw x, y; vectors from v);
 * _fanClosed is set when the sector is a full turn (no wall at v).
 */
function fanSector(q: NavQuery, v: number, from: number): number {
  const { triangles: T, vertices: V } = q.mesh;
  const vx = V[2 * v], vy = V[2 * v + 1];
  let n = 0;
  q.fan[n++] = from;
  let t = from;
  _fanClosed = false;
  for (let guard = 0; guard < 1024; guard++) {
    const k = localIndex(T, t, v);
    const nb = nbr(q, t, k);
    if (nb < 0) {
      const p = T[3 * t + (k + 1) % 3];
      _wall[0] = V[2 * p] - vx; _wall[1] = V[2 * p + 1] - vy;
      break;
    }
    if (nb === from) { _fanClosed = true; return n; }
    if (n >= q.fan.length) { const f = new Int32Array(2 * n); f.set(q.fan); q.fan = f; }
    q.fan[n++] = nb;
    t = nb;
  }
  t = from;
  for (let guard = 0; guard < 1024; guard++) {
    const k = localIndex(T, t, v);
    const nb = nbr(q, t, (k + 2) % 3);
    if (nb < 0) {
      const p = T[3 * t + (k + 2) % 3];
      _wall[2] = V[2 * p] - vx; _wall[3] = V[2 * p + 1] - vy;
      break;
    }
    if (nb === from) break;
    if (n >= q.fan.length) { const f = new Int32Array(2 * n); f.set(q.fan); q.fan = f; }
    q.fan[n++] = nb;
    t = nb;
  }
  return n;
}

let _fanClosed = false;
// Doubles live in a typed array, not in module-scope `let`s: V8 boxes a double stored into a context slot, which
// allocated on every expansion (GC was 19% of query time; measured 2026-11-29).
const _wall = new Float64Array(4); // cw x, y, ccw x, y

/** Does direction (x, y) lie in the counter-clockwise arc from c1 to c2 (arc < π), with a small tolerance? */
function inArc(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): boolean {
  const l = Math.sqrt(x * x + y * y);
  const e1 = -1e-12 * Math.sqrt(c1x * c1x + c1y * c1y) * l, e2 = -1e-12 * Math.sqrt(c2x * c2x + c2y * c2y) * l;
  return c1x * y - c1y * x >= e1 && x * c2y - y * c2x >= e2;
}

/**
 * Find the shortest path from (sx, sy) to (gx, gy). Points off the mesh are first moved to the nearest point on it
 * (result.startX/Y, goalX/Y tell where). Writes the corridor into `out`; returns (and stores) the status.
 * Equivalent to beginNavPath + stepNavPath(q, Infinity) + finishNavPath.
 */
export function findNavPath(q: NavQuery, sx: number, sy: number, gx: number, gy: number, out: NavPathResult): NavPathStatus {
  beginNavPath(q, sx, sy, gx, gy);
  stepNavPath(q, Infinity);
  return finishNavPath(q, out);
}

/**
 * Start a search that can be run in slices (Detour's sliced pathfinding): call stepNavPath with an expansion budget
 * each frame until it stops returning 'in-progress', then finishNavPath. A query runs one search at a time;
 * beginning another abandons the previous one. Returns 'in-progress', or 'unreachable' when that is known at once.
 */
export function beginNavPath(q: NavQuery, sx: number, sy: number, gx: number, gy: number): NavPathStatus | 'in-progress' {
  requireFinite('sx', sx); requireFinite('sy', sy); requireFinite('gx', gx); requireFinite('gy', gy);
  _begin[0] = sx; _begin[1] = sy; _begin[2] = gx; _begin[3] = gy;
  return beginNavPathAt(q, _begin);
}

const _begin = new Float64Array(4);

/**
 * beginNavPath with start and goal read from sg[0..4) = sx, sy, gx, gy, unchecked (the caller guarantees finite
 * values): the form the funnel system calls on re-plans, so no doubles are boxed across the call.
 */
export function beginNavPathAt(q: NavQuery, sg: Float64Array): NavPathStatus | 'in-progress' {
  const mesh = q.mesh;
  _pt[0] = sg[0]; _pt[1] = sg[1];
  const startTri = nearestPointOnMeshAt(mesh, _pt, _pt);
  _sg[0] = _pt[0]; _sg[1] = _pt[1];
  _pt[0] = sg[2]; _pt[1] = sg[3];
  _goalTri = nearestPointOnMeshAt(mesh, _pt, _pt);
  _sg[2] = _pt[0]; _sg[3] = _pt[1];
  q.nodesCreated = 0; q.nodesExpanded = 0;
  q.found = -1;
  _n = 0;
  _overflow = false;
  q.heapSize = 0;
  _corner = q.blocked !== null ? _allCorners(mesh.vertexCount) : mesh.corner;
  if (startTri < 0 || _goalTri < 0 || mesh.component[startTri] !== mesh.component[_goalTri] ||
      (q.blocked !== null && (q.blocked[startTri] !== 0 || q.blocked[_goalTri] !== 0))) {
    // No search: the vertex tolerances below are not set, so clear them rather than save what the last search in
    // the process left in the scratch (two worlds with the same inputs then had different snapshots: 2026-11-30).
    _sg[4] = 0; _sg[5] = 0;
    saveSearch(q);
    return (q.state = 'unreachable');
  }
  q.searchId = (q.searchId + 1) >>> 0;
  if (q.searchId === 0) { q.stamp.fill(0); q.wedgeStamp.fill(0); q.searchId = 1; }
  const { vertices: V, triangles: T } = mesh;
  const corner = _corner;

  // Start node: the start sees its whole triangle.
  const sgd = Math.sqrt((_sg[2] - _sg[0]) * (_sg[2] - _sg[0]) + (_sg[3] - _sg[1]) * (_sg[3] - _sg[1]));
  const start = newNode(q, KIND_START, -1, -1, startTri, -1);
  q.g[start] = 0; q.f[start] = sgd;
  if (startTri === _goalTri) {
    const fin = newNode(q, KIND_FINAL, start, -1, startTri, -1);
    q.g[fin] = sgd; q.f[fin] = sgd;
    heapPush(q, fin);
  }
  // A start on a vertex v (or within 1e-9 of the start triangle's longest edge of it) is also a root at v, whether
  // or not v is a corner: from there the cones through the triangle's two edges at v are seen (nearly) edge-on and
  // carry nothing into the rest of v's fan, which only a vertex node reaches in straight lines (expandVertex opens
  // every direction for it). Before 2026-11-30 a start on a convex boundary vertex, e.g. a room's corner, found
  // paths along the walls from there too long or not at all. The detour s → v adds at most 2·1e-9 relative.
  let longest = 0;
  for (let k = 0; k < 3; k++) {
    const a = T[3 * startTri + k], b = T[3 * startTri + (k + 1) % 3];
    const ex = V[2 * b] - V[2 * a], ey = V[2 * b + 1] - V[2 * a + 1];
    if (ex * ex + ey * ey > longest) longest = ex * ex + ey * ey;
  }
  _sg[4] = 1e-18 * longest;
  longest = 0;
  for (let k = 0; k < 3; k++) {
    const a = T[3 * _goalTri + k], b = T[3 * _goalTri + (k + 1) % 3];
    const ex = V[2 * b] - V[2 * a], ey = V[2 * b + 1] - V[2 * a + 1];
    if (ex * ex + ey * ey > longest) longest = ex * ex + ey * ey;
  }
  _sg[5] = 1e-18 * longest; // the same for the goal (see expandVertex)
  for (let k = 0; k < 3; k++) {
    const v = T[3 * startTri + k];
    const dx = V[2 * v] - _sg[0], dy = V[2 * v + 1] - _sg[1];
    if (corner[v] || dx * dx + dy * dy <= _sg[4]) { _a[0] = Math.sqrt(dx * dx + dy * dy); relaxVertex(q, v, startTri, -1, start); }
  }
  for (let k = 0; k < 3; k++) {
    const nb = nbr(q, startTri, k);
    if (nb < 0) continue;
    const u = T[3 * startTri + k], w = T[3 * startTri + (k + 1) % 3];
    _a[0] = 0; _a[4] = V[2 * w]; _a[5] = V[2 * w + 1]; _a[6] = V[2 * u]; _a[7] = V[2 * u + 1];
    pushInterval(q, start, -1, -1, nb, u, w, true);
  }
  saveSearch(q);
  return (q.state = 'in-progress');
}

/**
 * Run the search begun by beginNavPath for at most `maxExpansions` node expansions (Infinity: to the end). Returns
 * 'in-progress' while the budget ran out first, else the outcome ('found', 'unreachable', 'node-limit').
 */
export function stepNavPath(q: NavQuery, maxExpansions: number): NavPathStatus | 'in-progress' {
  if (!(maxExpansions > 0)) throw new InvalidArgumentError('maxExpansions', maxExpansions, 'must be greater than 0');
  if (q.state !== 'in-progress') return q.state;
  loadSearch(q);
  const stopAt = q.nodesExpanded + maxExpansions;
  let found = -1;
  while (q.heapSize > 0 && q.nodesExpanded < stopAt) {
    const node = heapPop(q);
    const kind = q.kind[node];
    if (kind === KIND_FINAL) { found = node; break; }
    const root = q.root[node];
    const g = q.g[node];
    // Root pruning: drop nodes whose root has since been reached more cheaply.
    // (At a vertex of several wedges bestG is the cheapest over all of them: a vertex node is checked against its
    // own wedge's best, and cones from it are kept.)
    if (root >= 0 && g > q.bestG[root] + 1e-12 * (1 + g) &&
        (!isMultiWedge(q, root) || (kind === KIND_VERTEX && g > q.wedgeBestG[wedgeKey(q, root, q.poly[node])] + 1e-12 * (1 + g)))) continue;
    q.nodesExpanded++;
    if (kind === KIND_VERTEX) expandVertex(q, node, root);
    else {
      // A cone whose single successor cone would be popped next anyway (f no greater than the open list's best)
      // is expanded at once, without a trip through the open list (after Polyanya's one-successor rule, kept in
      // strict f order so no extra nodes are expanded).
      let cur = expandInterval(q, node, root);
      while (cur >= 0 && !_overflow) {
        q.nodesExpanded++;
        cur = expandInterval(q, cur, root); // same root, so the same g
      }
    }
    if (_overflow) break;
  }
  q.nodesCreated = _n;
  saveSearch(q);
  if (found >= 0) { q.found = found; return (q.state = 'found'); }
  if (_overflow) return (q.state = 'node-limit');
  if (q.heapSize === 0) return (q.state = 'unreachable');
  return 'in-progress';
}

/**
 * Write the outcome of the last search into `out`: status, snapped start and goal, and (when found) the corridor
 * and length. Returns the status ('in-progress' searches are reported as such and leave the corridor empty).
 */
export function finishNavPath(q: NavQuery, out: NavPathResult): NavPathStatus {
  out.startX = q.sg[0]; out.startY = q.sg[1]; out.goalX = q.sg[2]; out.goalY = q.sg[3];
  out.corridorLength = 0;
  out.length = Infinity;
  if (q.state === 'in-progress') throw new InvalidArgumentError('query', 'in-progress', 'search not finished: call stepNavPath until it completes');
  if (q.state !== 'found') return (out.status = q.state);
  out.length = q.f[q.found];
  if (!buildCorridor(q, q.found, out)) return (out.status = 'corridor-overflow');
  // The start must not lie on the corridor's first portal, nor the goal on its last. A point on (or within the
  // point-location tolerance of) a shared edge is located in whichever triangle the grid lists first, possibly the
  // one beyond the edge; the funnel then sees that portal from its wrong side and the string-pulled path detours
  // through a portal endpoint, while the search's length is right (found by the navmesh fuzz property, 2026-11-29:
  // a 4 m square room, start (2, 2) on its diagonal, goal (0.1, 0.2): 8.27 m via the corner (4, 4) instead of
  // 2.62 m; and a goal 5e-10 m on the near side of a diagonal, next to its end: 0.9 µm detour). Drop leading
  // triangles whose successor also holds the start (as corridorMoveStart does each frame) and trailing triangles
  // whose predecessor also holds the goal. Both points stay in (or within that tolerance of) the corridor's ends.
  _pt[0] = out.startX; _pt[1] = out.startY;
  let k = 0;
  while (k + 1 < out.corridorLength && pointInTriangleAt(q.mesh, out.corridor[k + 1], _pt)) k++;
  if (k > 0) {
    out.corridor.copyWithin(0, k, out.corridorLength);
    out.corridorLength -= k;
  }
  _pt[0] = out.goalX; _pt[1] = out.goalY;
  while (out.corridorLength > 1 && pointInTriangleAt(q.mesh, out.corridor[out.corridorLength - 2], _pt)) out.corridorLength--;
  return (out.status = 'found');
}

/** Sliced searches keep their per-search scalars in the query between slices. */
function saveSearch(q: NavQuery): void {
  q.sg[0] = _sg[0]; q.sg[1] = _sg[1]; q.sg[2] = _sg[2]; q.sg[3] = _sg[3]; q.sg[4] = _sg[4]; q.sg[5] = _sg[5];
  q.goalTri = _goalTri; q.nodeCount = _n; q.overflow = _overflow; q.cornerFlags = _corner;
}
function loadSearch(q: NavQuery): void {
  _sg[0] = q.sg[0]; _sg[1] = q.sg[1]; _sg[2] = q.sg[2]; _sg[3] = q.sg[3]; _sg[4] = q.sg[4]; _sg[5] = q.sg[5];
  _goalTri = q.goalTri; _n = q.nodeCount; _overflow = q.overflow; _corner = q.cornerFlags;
}

const _pt = new Float64Array(2);
let _ones = new Uint8Array(0);
let _corner: Uint8Array = _ones;
function _allCorners(n: number): Uint8Array {
  if (_ones.length < n) _ones = new Uint8Array(n).fill(1);
  return _ones;
}

/*
 * Taut-path pruning at a bend. A shortest path bends at corner v only around the obstacle wedge there: arriving
 * along a = v − (parent root), a left turn is taut only if the sector's counter-clockwise wall ray wCcw lies left of
 * a, and then the outgoing direction lies between a and wCcw; a right turn symmetrically between wCw and a. (Any
 * other outgoing direction leaves a shortcut that cuts the corner, and that shorter path is found through the
 * parent's own cones.) If a points into the wedge (a head-on touch) no turn is taut. Fan triangles, neighbour
 * corners and the goal outside both cones are skipped. Root pruning stays exact: a later, costlier arrival at v
 * from another direction is dominated (Cui et al. 2017, Lemma 3, in our terms).
 */
function expandVertex(q: NavQuery, node: number, v: number): void {
  const g = q.g[node]; // read here, not passed: a double argument to a call V8 does not inline is boxed
  const { vertices: V, triangles: T } = q.mesh;
  const corner = _corner;
  const vx = V[2 * v], vy = V[2 * v + 1];
  const n = fanSector(q, v, q.poly[node]);
  // The goal on v (within the tolerance of beginNavPathAt) is reached here whatever the direction of the hair
  // between them: the taut-turn tests below would judge that direction (a goal 1e-13 m inside the obstacle corner,
  // snapped back onto its face, lay "behind" the wall and was unreachable or reached the long way round).
  const gdx0 = _sg[2] - vx, gdy0 = _sg[3] - vy;
  const goalOnV = gdx0 * gdx0 + gdy0 * gdy0 <= _sg[5];
  if (goalOnV) {
    for (let i = 0; i < n; i++) {
      if (q.fan[i] !== _goalTri) continue;
      const fin = newNode(q, KIND_FINAL, node, v, _goalTri, _goalTri);
      if (fin >= 0) { const d = Math.sqrt(gdx0 * gdx0 + gdy0 * gdy0); q.g[fin] = g + d; q.f[fin] = g + d; heapPush(q, fin); }
      break;
    }
  }
  if (_fanClosed) return; // no wall at v: nothing to bend around
  const pr = q.root[q.parent[node]];
  const ax = vx - (pr < 0 ? _sg[0] : V[2 * pr]), ay = vy - (pr < 0 ? _sg[1] : V[2 * pr + 1]);
  // The start sits on v (within the tolerance of beginNavPathAt): every direction is possible.
  const any = pr < 0 ? ax * ax + ay * ay <= _sg[4] : ax === 0 && ay === 0;
  const wLx = _wall[2], wLy = _wall[3], wRx = _wall[0], wRy = _wall[1];
  const left = any || ax * wLy - ay * wLx > 0;
  const right = any || wRx * ay - wRy * ax > 0;
  if (!left && !right) return;
  for (let i = 0; i < n; i++) {
    const t = q.fan[i];
    const k = localIndex(T, t, v);
    const u = T[3 * t + (k + 1) % 3], w = T[3 * t + (k + 2) % 3];
    const ux = V[2 * u], uy = V[2 * u + 1], wx = V[2 * w], wy = V[2 * w + 1];
    // Clip the opposite edge u → w to the allowed arcs (each < π, adjacent at a): parameter range [lo, hi].
    let lo = 0, hi = 1;
    if (!any) {
      lo = 2; hi = -1;
      _arc[0] = vx; _arc[1] = vy; _arc[2] = ux; _arc[3] = uy; _arc[4] = wx; _arc[5] = wy;
      // Read _clip only after this call's clipArc wrote it: with no left turn, what it holds is the previous
      // expansion's interval (a spurious arc, and a result that depended on the process's search history).
      if (left) {
        _arc[6] = ax; _arc[7] = ay; _arc[8] = wLx; _arc[9] = wLy; clipArc();
        if (_clip[0] <= _clip[1]) { lo = _clip[0]; hi = _clip[1]; }
      }
      if (right) { _arc[6] = wRx; _arc[7] = wRy; _arc[8] = ax; _arc[9] = ay; clipArc(); }
      if (right && _clip[0] <= _clip[1]) { if (_clip[0] < lo) lo = _clip[0]; if (_clip[1] > hi) hi = _clip[1]; }
      if (lo > hi) continue;
      if (lo < 1e-12) lo = 0;
      if (hi > 1 - 1e-12) hi = 1;
    }
    if (t === _goalTri && !goalOnV) {
      const gdx = _sg[2] - vx, gdy = _sg[3] - vy;
      if (any || (left && inArc(ax, ay, wLx, wLy, gdx, gdy)) || (right && inArc(wRx, wRy, ax, ay, gdx, gdy))) {
        const fin = newNode(q, KIND_FINAL, node, v, t, t);
        if (fin >= 0) {
          const d = Math.sqrt(gdx * gdx + gdy * gdy);
          q.g[fin] = g + d; q.f[fin] = g + d;
          heapPush(q, fin);
        }
      }
    }
    if (lo === 0 && corner[u]) { _a[0] = g + Math.sqrt((ux - vx) * (ux - vx) + (uy - vy) * (uy - vy)); relaxVertex(q, u, t, t, node); }
    if (hi === 1 && corner[w]) { _a[0] = g + Math.sqrt((wx - vx) * (wx - vx) + (wy - vy) * (wy - vy)); relaxVertex(q, w, t, t, node); }
    const nb = nbr(q, t, (k + 1) % 3);
    if (nb < 0 || hi - lo <= 1e-12) continue;
    _a[0] = g; _a[4] = ux + hi * (wx - ux); _a[5] = uy + hi * (wy - uy); _a[6] = ux + lo * (wx - ux); _a[7] = uy + lo * (wy - uy);
    pushInterval(q, node, v, t, nb, u, w, true);
  }
}

const _clip = new Float64Array(2); // lo, hi
const _arc = new Float64Array(10); // clipArc's inputs (doubles never cross a call; see _a)

/**
 * Parameter range [_clip[0], _clip[1]] of segment u → w whose directions from v lie in the counter-clockwise arc c1 → c2
 * (< π; inputs in _arc: v, u, w, c1, c2): cross(c1, P(t) − v) ≥ 0 and cross(P(t) − v, c2) ≥ 0, both linear in t.
 * Empty when _clip[0] > _clip[1].
 */
function clipArc(): void {
  const vx = _arc[0], vy = _arc[1], ux = _arc[2], uy = _arc[3], wx = _arc[4], wy = _arc[5];
  const c1x = _arc[6], c1y = _arc[7], c2x = _arc[8], c2y = _arc[9];
  const dux = ux - vx, duy = uy - vy, dwx = wx - vx, dwy = wy - vy;
  let lo = 0, hi = 1;
  const lu = Math.sqrt(dux * dux + duy * duy), lw = Math.sqrt(dwx * dwx + dwy * dwy);
  const l1 = Math.sqrt(c1x * c1x + c1y * c1y), l2 = Math.sqrt(c2x * c2x + c2y * c2y);
  // f ≥ 0 constraints with relative tolerance (directions exactly on an arc boundary count as inside).
  let fu = c1x * duy - c1y * dux, fw = c1x * dwy - c1y * dwx;
  if (Math.abs(fu) <= 1e-12 * l1 * lu) fu = 0;
  if (Math.abs(fw) <= 1e-12 * l1 * lw) fw = 0;
  if (fu < 0 && fw < 0) { _clip[0] = 2; _clip[1] = -1; return; }
  if (fu < 0) lo = Math.max(lo, fu / (fu - fw));
  else if (fw < 0) hi = Math.min(hi, fu / (fu - fw));
  fu = dux * c2y - duy * c2x; fw = dwx * c2y - dwy * c2x;
  if (Math.abs(fu) <= 1e-12 * l2 * lu) fu = 0;
  if (Math.abs(fw) <= 1e-12 * l2 * lw) fw = 0;
  if (fu < 0 && fw < 0) { _clip[0] = 2; _clip[1] = -1; return; }
  if (fu < 0) lo = Math.max(lo, fu / (fu - fw));
  else if (fw < 0) hi = Math.min(hi, fu / (fu - fw));
  _clip[0] = lo; _clip[1] = hi;
}

/** Expand an interval node; returns its only successor (not pushed) when it has exactly one, else −1. */
function expandInterval(q: NavQuery, node: number, root: number): number {
  const g = q.g[node]; // the root's cost (every interval node carries its root's g)
  const { vertices: V, triangles: T } = q.mesh;
  const corner = _corner;
  const Q = q.poly[node];
  const j = q.entry[node];
  const rx = root < 0 ? _sg[0] : V[2 * root], ry = root < 0 ? _sg[1] : V[2 * root + 1];
  const iv = q.iv;
  const lx = iv[4 * node], ly = iv[4 * node + 1], Rx = iv[4 * node + 2], Ry = iv[4 * node + 3];
  const lenL = Math.sqrt((lx - rx) * (lx - rx) + (ly - ry) * (ly - ry)), lenR = Math.sqrt((Rx - rx) * (Rx - rx) + (Ry - ry) * (Ry - ry));

  // The cone: points X with orient(r, R, X) ≥ 0 (left of the right ray) and orient(r, L, X) ≤ 0 (right of the
  // left ray). Tolerances are relative (|ray|·|X − r|·1e-11) so that a vertex exactly on a ray counts as inside.
  if (Q === _goalTri) {
    const dg = Math.sqrt((_sg[2] - rx) * (_sg[2] - rx) + (_sg[3] - ry) * (_sg[3] - ry));
    const fr = ((Rx - rx) * (_sg[3] - ry) - (Ry - ry) * (_sg[2] - rx)), fl = ((lx - rx) * (_sg[3] - ry) - (ly - ry) * (_sg[2] - rx));
    if (fr >= -1e-11 * lenR * dg && fl <= 1e-11 * lenL * dg) {
      const fin = newNode(q, KIND_FINAL, node, root, Q, -1);
      if (fin >= 0) { q.g[fin] = g + dg; q.f[fin] = g + dg; heapPush(q, fin); }
    }
  }
  let succ0 = -1, succ1 = -1;
  for (let s = 1; s <= 2; s++) {
    const k = (j + s) % 3;
    const u = T[3 * Q + k], w = T[3 * Q + (k + 1) % 3];
    const ux = V[2 * u], uy = V[2 * u + 1], wx = V[2 * w], wy = V[2 * w + 1];
    const du = Math.sqrt((ux - rx) * (ux - rx) + (uy - ry) * (uy - ry)), dw = Math.sqrt((wx - rx) * (wx - rx) + (wy - ry) * (wy - ry));
    let lo = 0, hi = 1;
    // Right ray half-plane: fR ≥ 0.
    let fu = ((Rx - rx) * (uy - ry) - (Ry - ry) * (ux - rx)), fw = ((Rx - rx) * (wy - ry) - (Ry - ry) * (wx - rx));
    if (Math.abs(fu) <= 1e-11 * lenR * du) fu = 0;
    if (Math.abs(fw) <= 1e-11 * lenR * dw) fw = 0;
    if (fu < 0 && fw < 0) continue;
    if (fu < 0) lo = Math.max(lo, fu / (fu - fw));
    else if (fw < 0) hi = Math.min(hi, fu / (fu - fw));
    // Left ray half-plane: fL ≤ 0.
    fu = ((lx - rx) * (uy - ry) - (ly - ry) * (ux - rx)); fw = ((lx - rx) * (wy - ry) - (ly - ry) * (wx - rx));
    if (Math.abs(fu) <= 1e-11 * lenL * du) fu = 0;
    if (Math.abs(fw) <= 1e-11 * lenL * dw) fw = 0;
    if (fu > 0 && fw > 0) continue;
    if (fu > 0) lo = Math.max(lo, fu / (fu - fw));
    else if (fw > 0) hi = Math.min(hi, fu / (fu - fw));
    if (lo > hi) continue;
    if (lo < 1e-12) lo = 0;
    if (hi > 1 - 1e-12) hi = 1;
    // Visible corner vertices become roots.
    if (lo === 0 && corner[u]) { _a[0] = g + du; relaxVertex(q, u, Q, -1, node); }
    if (hi === 1 && corner[w]) { _a[0] = g + dw; relaxVertex(q, w, Q, -1, node); }
    const nb = nbr(q, Q, k);
    if (nb < 0 || hi - lo <= 1e-12) continue;
    const p0x = ux + lo * (wx - ux), p0y = uy + lo * (wy - uy);
    const p1x = ux + hi * (wx - ux), p1y = uy + hi * (wy - uy);
    // A cone seen edge-on (root on the edge's line) carries nothing forward: its endpoints were relaxed above.
    const o = (p0x - rx) * (p1y - ry) - (p0y - ry) * (p1x - rx);
    const l0 = Math.sqrt((p0x - rx) * (p0x - rx) + (p0y - ry) * (p0y - ry)), l01 = Math.sqrt((p1x - p0x) * (p1x - p0x) + (p1y - p0y) * (p1y - p0y));
    if (Math.abs(o) <= 1e-11 * l0 * l01) continue;
    _a[0] = g; _a[4] = p1x; _a[5] = p1y; _a[6] = p0x; _a[7] = p0y;
    const child = pushInterval(q, node, root, -1, nb, u, w, false);
    if (succ0 < 0) succ0 = child; else succ1 = child;
  }
  if (succ1 >= 0) { heapPush(q, succ0); heapPush(q, succ1); return -1; }
  // A single successor that would be popped next anyway skips the open list.
  if (succ0 >= 0 && q.heapSize > 0 && q.f[succ0] > q.f[q.heap[0]]) { heapPush(q, succ0); return -1; }
  return succ0;
}

/** Read the corridor back from the final node. Returns false if it does not fit in `out.corridor`. */
function buildCorridor(q: NavQuery, found: number, out: NavPathResult): boolean {
  let m = 0;
  for (let n = found; n >= 0; n = q.parent[n]) {
    if (m >= q.chain.length) { const c = new Int32Array(2 * m); c.set(q.chain); q.chain = c; }
    q.chain[m++] = n;
  }
  const T = q.mesh.triangles;
  const cor = out.corridor;
  let len = 0;
  cor[len++] = q.poly[q.chain[m - 1]];
  for (let i = m - 2; i >= 0; i--) {
    const n = q.chain[i];
    const via = q.via[n];
    if (via >= 0) {
      // Walk the fan of the parent's root vertex from the corridor's last triangle to `via`.
      const v = q.root[q.parent[n]];
      const from = cor[len - 1];
      if (from !== via) {
        let ok = false;
        for (let dir = 0; dir < 2 && !ok; dir++) {
          let t = from, l = len;
          for (let guard = 0; guard < 1024; guard++) {
            const k = localIndex(T, t, v);
            const nb = nbr(q, t, dir === 0 ? k : (k + 2) % 3);
            if (nb < 0 || nb === from) break;
            if (l >= cor.length) return false;
            cor[l++] = nb;
            t = nb;
            if (nb === via) { ok = true; len = l; break; }
          }
        }
      }
    }
    if (q.kind[n] === KIND_INTERVAL) {
      if (len >= cor.length) return false;
      cor[len++] = q.poly[n];
    }
  }
  out.corridorLength = len;
  return true;
}
