/**
 * 2D contact manifolds (circles and convex polygons in the ground plane): the 3D pipeline of manifold.ts with one
 * dimension less. GJK on the cores (with radii added analytically) or EPA when the cores overlap gives the normal
 * and depth; the contact "plane" is a line through A's deepest point; each shape's feature is the edge most aligned
 * with the normal among the two edges at its support vertex (or its single core point); both features are
 * projected on the line's tangent and clipped to their common interval, which yields at most two points, each with
 * its own depth (interpolated along each edge) and an id naming the vertex it came from.
 *
 * Box2D v2.4's b2CollidePolygons uses SAT instead of GJK/EPA for the normal but the same reference/incident edge
 * clipping; planck.js (its port) is the test oracle in test/collision/planck.test.ts.
 */
import { requireNonNegative } from '../core/validate';
import { InvalidArgumentError } from '../core/errors';
import type { Pose2, Shape2 } from './shapes2d';

export interface Manifold2Input {
  shapeA: Shape2;
  poseA: Pose2;
  shapeB: Shape2;
  poseB: Pose2;
  /** Speculative distance: pairs closer than this report contacts with negative depth (metres). @default 0 */
  margin: number;
}

export interface Manifold2 {
  /** 0 (apart by more than the margin; normal and depth zeroed), 1 or 2 points. */
  count: number;
  /** Unit normal from A to B (world). */
  readonly normal: Float64Array;
  /** Penetration depth (metres; negative = separation within margin). */
  depth: number;
  /** Points x0, y0, x1, y1 (world), midway between the surfaces. */
  readonly points: Float64Array;
  readonly depths: Float64Array;
  /**
   * Feature ids: vertex of A 1·2^24 + i, vertex of B 2·2^24 + j, deepest point 4·2^24, an end of the exact interval
   * of two sharp polygons 8·2^24 + 128·(up edge) + (down edge) (edges of A 0..63, of B 64..127).
   */
  readonly ids: Float64Array;
  gjkIterations: number;
  epaIterations: number;
}

export function createManifold2(): Manifold2 {
  return { count: 0, normal: new Float64Array(2), depth: 0, points: new Float64Array(4), depths: new Float64Array(2), ids: new Float64Array(2), gjkIterations: 0, epaIterations: 0 };
}

export function createManifold2Input(shapeA: Shape2, poseA: Pose2, shapeB: Shape2, poseB: Pose2, margin = 0): Manifold2Input {
  return { shapeA, poseA, shapeB, poseB, margin };
}

/** Warm-start cache for 2D queries: the last normal (A's frame). */
export interface GjkCache2 { readonly dir: Float64Array; valid: boolean }
export function createGjkCache2(): GjkCache2 { return { dir: new Float64Array(2), valid: false }; }

const ID_A = 1 << 24, ID_B = 2 << 24, ID_DEEP = 4 << 24, ID_EDGE2 = 8 << 24;
const MAX_EDGES2 = 64;
export const GJK2_MAX_ITERATIONS = 32;
export const EPA2_MAX_ITERATIONS = 48;

// Module scratch of doubles in one Float64Array, not module-level `let`s: a double stored into a module variable (a
// context slot) is boxed into a fresh HeapNumber on every write, and these are written several times per pair (the
// contacts system ran ~0.7 MB per frame through them with 100 box-shaped agents; 2026-11-29). Slots:
//   relative pose of B in A's frame (x_A = R x_B + t): cos, sin, tx, ty; core support points of A and B (A's frame);
//   GJK's closest point v and witness points on A and B; GJK's distance; EPA's normal, depth and witness points;
//   the contact line (normal n, tangent t, origin o); the last exact contact interval [lo, hi].
const K_RC = 0;
const K_RS = 1;
const K_RTX = 2;
const K_RTY = 3;
const K_SUP_AX = 4;
const K_SUP_AY = 5;
const K_SUP_BX = 6;
const K_SUP_BY = 7;
const K_V_X = 8;
const K_V_Y = 9;
const K_P_AX = 10;
const K_P_AY = 11;
const K_P_BX = 12;
const K_P_BY = 13;
const K_GJK_DIST2 = 14;
const K_EPA_NX = 15;
const K_EPA_NY = 16;
const K_EPA_DEPTH = 17;
const K_EPA_AX = 18;
const K_EPA_AY = 19;
const K_EPA_BX = 20;
const K_EPA_BY = 21;
const K_N_X2 = 22;
const K_N_Y2 = 23;
const K_T_X2 = 24;
const K_T_Y2 = 25;
const K_O_X2 = 26;
const K_O_Y2 = 27;
const K_REGION_LO = 28;
const K_REGION_HI = 29;
const K_DIR_X = 30;
const K_DIR_Y = 31;
// a contact point being emitted: tangent coordinate s, the surfaces' heights there (A above, B below), and the
// pair's drop threshold (depth below which a point is not reported), margin and size
const K_S = 32;
const K_HA = 33;
const K_HB = 34;
const K_DROP = 35;
const K_MARGIN = 36;
const K_SCALE = 37;
const D = new Float64Array(38);
D[K_RC] = 1; D[K_N_X2] = 1; D[K_T_Y2] = 1;

// ---- relative pose: B in A's frame, x_A = R x_B + t ----

// support points of the cores (A's frame)
// The search direction is read from D[K_DIR_X], D[K_DIR_Y] times sg = ±1 (exact), not passed as arguments: a double
// argument of a call V8 does not inline is boxed.
function coreSupportA(s: Shape2, sg: number): number {
  const dx = sg * D[K_DIR_X], dy = sg * D[K_DIR_Y];
  const v = s.verts;
  let best = 0, bd = v[0] * dx + v[1] * dy;
  for (let i = 1; i < s.count; i++) { const d = v[2 * i] * dx + v[2 * i + 1] * dy; if (d > bd) { bd = d; best = i; } }
  D[K_SUP_AX] = v[2 * best]; D[K_SUP_AY] = v[2 * best + 1];
  return best;
}
function coreSupportB(s: Shape2, sg: number): number {
  const dx = sg * D[K_DIR_X], dy = sg * D[K_DIR_Y];
  // direction into B's frame: Rᵀ d
  const ex = D[K_RC] * dx + D[K_RS] * dy, ey = -D[K_RS] * dx + D[K_RC] * dy;
  const v = s.verts;
  let best = 0, bd = v[0] * ex + v[1] * ey;
  for (let i = 1; i < s.count; i++) { const d = v[2 * i] * ex + v[2 * i + 1] * ey; if (d > bd) { bd = d; best = i; } }
  const x = v[2 * best], y = v[2 * best + 1];
  D[K_SUP_BX] = D[K_RC] * x - D[K_RS] * y + D[K_RTX]; D[K_SUP_BY] = D[K_RS] * x + D[K_RC] * y + D[K_RTY];
  return best;
}

// ---- GJK simplex (A's frame): w = a − b ----
const _sw = new Float64Array(6), _sa = new Float64Array(6), _sb = new Float64Array(6), _sl = new Float64Array(3);
let sn = 0;

/** Support point of D = A − B along the direction in D[K_DIR_X], D[K_DIR_Y] into simplex slot k. */
function pushSupport(a: Shape2, b: Shape2, k: number, full: boolean): void {
  const dx = D[K_DIR_X], dy = D[K_DIR_Y];
  coreSupportA(a, 1);
  coreSupportB(b, -1);
  let ax = D[K_SUP_AX], ay = D[K_SUP_AY], bx = D[K_SUP_BX], by = D[K_SUP_BY];
  if (full) {
    const l = Math.sqrt(dx * dx + dy * dy);
    if (l > 0) { ax += (a.radius * dx) / l; ay += (a.radius * dy) / l; bx -= (b.radius * dx) / l; by -= (b.radius * dy) / l; }
  }
  _sa[2 * k] = ax; _sa[2 * k + 1] = ay; _sb[2 * k] = bx; _sb[2 * k + 1] = by;
  _sw[2 * k] = ax - bx; _sw[2 * k + 1] = ay - by;
}

function keep(i: number, j: number, n: number): void {
  // compact the simplex to vertices i (and j when n = 2); the caller writes the barycentric weights _sl after
  const xi = _sw[2 * i], yi = _sw[2 * i + 1], axi = _sa[2 * i], ayi = _sa[2 * i + 1], bxi = _sb[2 * i], byi = _sb[2 * i + 1];
  if (n === 2) {
    const xj = _sw[2 * j], yj = _sw[2 * j + 1], axj = _sa[2 * j], ayj = _sa[2 * j + 1], bxj = _sb[2 * j], byj = _sb[2 * j + 1];
    _sw[2] = xj; _sw[3] = yj; _sa[2] = axj; _sa[3] = ayj; _sb[2] = bxj; _sb[3] = byj;
  }
  _sw[0] = xi; _sw[1] = yi; _sa[0] = axi; _sa[1] = ayi; _sb[0] = bxi; _sb[1] = byi;
  sn = n;
}

/** Closest point of the simplex to the origin (Voronoi regions); returns false when the origin is inside. */
function solve2d(): boolean {
  const w = _sw;
  if (sn === 1) { _sl[0] = 1; return true; }
  if (sn === 2) {
    const ex = w[2] - w[0], ey = w[3] - w[1], ee = ex * ex + ey * ey;
    const t = ee > 0 ? -(w[0] * ex + w[1] * ey) / ee : 0;
    if (t <= 0) { keep(0, 0, 1); _sl[0] = 1; } else if (t >= 1) { keep(1, 1, 1); _sl[0] = 1; } else { _sl[0] = 1 - t; _sl[1] = t; }
    return true;
  }
  // triangle: Ericson 5.1.5 with p = 0, in 2D
  const ax = w[0], ay = w[1], bx = w[2], by = w[3], cx = w[4], cy = w[5];
  const abx = bx - ax, aby = by - ay, acx = cx - ax, acy = cy - ay;
  const d1 = -(abx * ax + aby * ay), d2 = -(acx * ax + acy * ay);
  if (d1 <= 0 && d2 <= 0) { keep(0, 0, 1); _sl[0] = 1; return true; }
  const d3 = -(abx * bx + aby * by), d4 = -(acx * bx + acy * by);
  if (d3 >= 0 && d4 <= d3) { keep(1, 1, 1); _sl[0] = 1; return true; }
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) { const t = d1 / (d1 - d3); keep(0, 1, 2); _sl[0] = 1 - t; _sl[1] = t; return true; }
  const d5 = -(abx * cx + aby * cy), d6 = -(acx * cx + acy * cy);
  if (d6 >= 0 && d5 <= d6) { keep(2, 2, 1); _sl[0] = 1; return true; }
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) { const t = d2 / (d2 - d6); keep(0, 2, 2); _sl[0] = 1 - t; _sl[1] = t; return true; }
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) { const t = (d4 - d3) / ((d4 - d3) + (d5 - d6)); keep(1, 2, 2); _sl[0] = 1 - t; _sl[1] = t; return true; }
  return false; // inside the triangle
}

function updateV2(): void {
  D[K_V_X] = 0; D[K_V_Y] = 0; D[K_P_AX] = 0; D[K_P_AY] = 0; D[K_P_BX] = 0; D[K_P_BY] = 0;
  for (let k = 0; k < sn; k++) {
    const l = _sl[k];
    D[K_V_X] += l * _sw[2 * k]; D[K_V_Y] += l * _sw[2 * k + 1]; D[K_P_AX] += l * _sa[2 * k]; D[K_P_AY] += l * _sa[2 * k + 1]; D[K_P_BX] += l * _sb[2 * k]; D[K_P_BY] += l * _sb[2 * k + 1];
  }
}

let gjkOverlap2 = false, gjkIters2 = 0;

/** GJK on the cores (full = false) or whole shapes, from direction (dx, dy). */
function gjk2(a: Shape2, b: Shape2, full: boolean): void {
  const dx = D[K_DIR_X], dy = D[K_DIR_Y];
  if (!(dx * dx + dy * dy > 0)) { D[K_DIR_X] = 1; D[K_DIR_Y] = 0; }
  pushSupport(a, b, 0, full);
  sn = 1; _sl[0] = 1; updateV2();
  const scale = a.boundingRadius + b.boundingRadius + Math.sqrt(D[K_RTX] * D[K_RTX] + D[K_RTY] * D[K_RTY]);
  const abs2 = (1e-13 * scale) * (1e-13 * scale);
  gjkOverlap2 = false;
  let it = 0;
  for (; it < GJK2_MAX_ITERATIONS; it++) {
    const vv = D[K_V_X] * D[K_V_X] + D[K_V_Y] * D[K_V_Y];
    if (vv <= abs2) { gjkOverlap2 = true; break; }
    const k = sn;
    D[K_DIR_X] = -D[K_V_X]; D[K_DIR_Y] = -D[K_V_Y];
    pushSupport(a, b, k, full);
    const vw = D[K_V_X] * _sw[2 * k] + D[K_V_Y] * _sw[2 * k + 1];
    if (vv - vw <= 1e-12 * vv) break;
    let dup = false;
    for (let j = 0; j < k; j++) if (_sw[2 * j] === _sw[2 * k] && _sw[2 * j + 1] === _sw[2 * k + 1]) dup = true;
    if (dup) break;
    const ox = D[K_V_X], oy = D[K_V_Y], oax = D[K_P_AX], oay = D[K_P_AY], obx = D[K_P_BX], oby = D[K_P_BY];
    sn = k + 1;
    if (!solve2d()) { gjkOverlap2 = true; it++; break; }
    updateV2();
    if (D[K_V_X] * D[K_V_X] + D[K_V_Y] * D[K_V_Y] >= vv) { D[K_V_X] = ox; D[K_V_Y] = oy; D[K_P_AX] = oax; D[K_P_AY] = oay; D[K_P_BX] = obx; D[K_P_BY] = oby; it++; break; }
  }
  gjkIters2 = it;
  // distances below round-off relative to the configuration's size count as touching (as in 3D)
  if (!gjkOverlap2 && D[K_V_X] * D[K_V_X] + D[K_V_Y] * D[K_V_Y] <= (1e-10 * scale) * (1e-10 * scale)) gjkOverlap2 = true;
  D[K_GJK_DIST2] = gjkOverlap2 ? 0 : Math.sqrt(D[K_V_X] * D[K_V_X] + D[K_V_Y] * D[K_V_Y]);
}

// ---- EPA in 2D: an ordered polygon (counter-clockwise) inside D = A − B, grown towards its nearest edge ----
// It runs on the cores (polygons, points), whose difference is a polygon: EPA then ends exactly, on one of its edges,
// and the caller adds the radii. (On the rounded shapes themselves it crept along the arcs of a rounded corner until
// its iteration cap and could fold the polygon through round-off: a disc centred on a box reported depth 0.02 instead
// of 0.46; found by the 2D manifold fuzz property, 2026-11-29.)
const EMAX = EPA2_MAX_ITERATIONS + 8;
const _ew = new Float64Array(2 * EMAX), _ea = new Float64Array(2 * EMAX), _eb = new Float64Array(2 * EMAX);
let en = 0, epaIters = 0;

/** Insert the support point along D[K_DIR_X], D[K_DIR_Y] into the EPA polygon at index `at`. */
function epaPush(a: Shape2, b: Shape2, at: number): void {
  pushSupport(a, b, 2, false); // slot 2 of the GJK scratch as a temporary
  for (let i = en; i > at; i--) {
    _ew[2 * i] = _ew[2 * i - 2]; _ew[2 * i + 1] = _ew[2 * i - 1]; _ea[2 * i] = _ea[2 * i - 2]; _ea[2 * i + 1] = _ea[2 * i - 1]; _eb[2 * i] = _eb[2 * i - 2]; _eb[2 * i + 1] = _eb[2 * i - 1];
  }
  _ew[2 * at] = _sw[4]; _ew[2 * at + 1] = _sw[5]; _ea[2 * at] = _sa[4]; _ea[2 * at + 1] = _sa[5]; _eb[2 * at] = _sb[4]; _eb[2 * at + 1] = _sb[5];
  en++;
}

const AX = [1, -1, 0, 0], AY = [0, 0, 1, -1];

function epa2(a: Shape2, b: Shape2): void {
  const scale = a.boundingRadius + b.boundingRadius;
  const tol = 1e-10 * scale;
  en = 0;
  for (let k = 0; k < sn; k++) { _ew[2 * k] = _sw[2 * k]; _ew[2 * k + 1] = _sw[2 * k + 1]; _ea[2 * k] = _sa[2 * k]; _ea[2 * k + 1] = _sa[2 * k + 1]; _eb[2 * k] = _sb[2 * k]; _eb[2 * k + 1] = _sb[2 * k + 1]; }
  en = sn;
  // blow up a point or a segment to a triangle
  for (let k = 0; en === 1 && k < 4; k++) {
    D[K_DIR_X] = AX[k]; D[K_DIR_Y] = AY[k];
    epaPush(a, b, 1);
    const dx = _ew[2] - _ew[0], dy = _ew[3] - _ew[1];
    if (dx * dx + dy * dy <= (1e-9 * scale) * (1e-9 * scale)) en = 1;
  }
  if (en === 1) { setFlat2(1, 0); return; }
  if (en === 2) {
    const ex = _ew[2] - _ew[0], ey = _ew[3] - _ew[1];
    D[K_DIR_X] = -ey; D[K_DIR_Y] = ex;
    epaPush(a, b, 2);
    let ar = ex * (_ew[5] - _ew[1]) - ey * (_ew[4] - _ew[0]);
    if (Math.abs(ar) <= 1e-9 * scale * Math.sqrt(ex * ex + ey * ey)) {
      en = 2;
      D[K_DIR_X] = ey; D[K_DIR_Y] = -ex;
      epaPush(a, b, 2);
      ar = ex * (_ew[5] - _ew[1]) - ey * (_ew[4] - _ew[0]);
      if (Math.abs(ar) <= 1e-9 * scale * Math.sqrt(ex * ex + ey * ey)) { setFlat2(-ey, ex); return; } // D is a segment
    }
  }
  // counter-clockwise
  const ar = (_ew[2] - _ew[0]) * (_ew[5] - _ew[1]) - (_ew[3] - _ew[1]) * (_ew[4] - _ew[0]);
  if (ar < 0) {
    for (let c = 0; c < 2; c++) {
      let t = _ew[2 + c]; _ew[2 + c] = _ew[4 + c]; _ew[4 + c] = t;
      t = _ea[2 + c]; _ea[2 + c] = _ea[4 + c]; _ea[4 + c] = t;
      t = _eb[2 + c]; _eb[2 + c] = _eb[4 + c]; _eb[4 + c] = t;
    }
  }
  let it = 0, bi = 0, bnx = 1, bny = 0, bd = 0;
  for (; ; it++) {
    // nearest edge: outward normal of edge i → i+1 of a CCW polygon is (ey, −ex)/|e|
    bd = Infinity;
    for (let i = 0; i < en; i++) {
      const j = i + 1 === en ? 0 : i + 1;
      const ex = _ew[2 * j] - _ew[2 * i], ey = _ew[2 * j + 1] - _ew[2 * i + 1];
      const l = Math.sqrt(ex * ex + ey * ey);
      if (!(l > 0)) continue;
      const nx = ey / l, ny = -ex / l;
      const d = nx * _ew[2 * i] + ny * _ew[2 * i + 1];
      if (d < bd) { bd = d; bi = i; bnx = nx; bny = ny; }
    }
    if (it >= EPA2_MAX_ITERATIONS || en >= EMAX) break;
    D[K_DIR_X] = bnx; D[K_DIR_Y] = bny;
    pushSupport(a, b, 2, false);
    const gain = bnx * _sw[4] + bny * _sw[5] - bd;
    if (gain <= tol) break;
    epaPush(a, b, bi + 1); // along the same direction
  }
  epaIters = it;
  const i = bi, j = i + 1 === en ? 0 : i + 1;
  // origin's projection on the edge: p = d n, barycentric along the edge
  const ex = _ew[2 * j] - _ew[2 * i], ey = _ew[2 * j + 1] - _ew[2 * i + 1];
  const ee = ex * ex + ey * ey;
  let t = ee > 0 ? ((bnx * bd - _ew[2 * i]) * ex + (bny * bd - _ew[2 * i + 1]) * ey) / ee : 0;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  D[K_EPA_NX] = bnx; D[K_EPA_NY] = bny; D[K_EPA_DEPTH] = bd;
  D[K_EPA_AX] = _ea[2 * i] + t * (_ea[2 * j] - _ea[2 * i]); D[K_EPA_AY] = _ea[2 * i + 1] + t * (_ea[2 * j + 1] - _ea[2 * i + 1]);
  D[K_EPA_BX] = _eb[2 * i] + t * (_eb[2 * j] - _eb[2 * i]); D[K_EPA_BY] = _eb[2 * i + 1] + t * (_eb[2 * j + 1] - _eb[2 * i + 1]);
}

function setFlat2(nx: number, ny: number): void {
  const l = Math.sqrt(nx * nx + ny * ny) || 1;
  D[K_EPA_NX] = nx / l; D[K_EPA_NY] = ny / l; D[K_EPA_DEPTH] = 0; epaIters = 0;
  D[K_EPA_AX] = _ea[0]; D[K_EPA_AY] = _ea[1]; D[K_EPA_BX] = _eb[0]; D[K_EPA_BY] = _eb[1];
}

// ---- features on the tangent line ----
// feature of a shape: up to 2 points (s along the tangent, h along the normal, id)
const _fs = new Float64Array(4), _fh = new Float64Array(4), _fid = new Float64Array(4);
let nFA2 = 0, nFB2 = 0;

/** Feature of A (side 0, direction +n) or B (side 1, direction −n) into slots 2·side, 2·side + 1. */
function feature2(s: Shape2, side: number): number {
  const sg = side === 0 ? 1 : -1;
  const dx = sg * D[K_N_X2], dy = sg * D[K_N_Y2];
  let i: number;
  D[K_DIR_X] = D[K_N_X2]; D[K_DIR_Y] = D[K_N_Y2];
  if (side === 0) i = coreSupportA(s, sg); else i = coreSupportB(s, sg);
  const base = 2 * side;
  if (s.count === 1) { setFeat(base, side, i, s); return 1; }
  // the edge most aligned with d among the two at vertex i
  const n = s.count, prev = i === 0 ? n - 1 : i - 1;
  let enx = s.normals[2 * i], eny = s.normals[2 * i + 1], pnx = s.normals[2 * prev], pny = s.normals[2 * prev + 1];
  if (side === 1) {
    const a = D[K_RC] * enx - D[K_RS] * eny, b = D[K_RS] * enx + D[K_RC] * eny; enx = a; eny = b;
    const c = D[K_RC] * pnx - D[K_RS] * pny, e = D[K_RS] * pnx + D[K_RC] * pny; pnx = c; pny = e;
  }
  const i0 = enx * dx + eny * dy >= pnx * dx + pny * dy ? i : prev;
  const i1 = i0 + 1 === n ? 0 : i0 + 1;
  setFeat(base, side, i0, s);
  setFeat(base + 1, side, i1, s);
  return 2;
}
function setFeat(slot: number, side: number, vi: number, s: Shape2): void {
  let x = s.verts[2 * vi], y = s.verts[2 * vi + 1];
  if (side === 1) { const a = D[K_RC] * x - D[K_RS] * y + D[K_RTX], b = D[K_RS] * x + D[K_RC] * y + D[K_RTY]; x = a; y = b; }
  const px = x - D[K_O_X2], py = y - D[K_O_Y2];
  _fs[slot] = px * D[K_T_X2] + py * D[K_T_Y2];
  _fh[slot] = px * D[K_N_X2] + py * D[K_N_Y2] + (side === 0 ? s.radius : -s.radius);
  _fid[slot] = (side === 0 ? ID_A : ID_B) + vi;
}
/** Height of a feature (slots base, base+1, count n) at tangent coordinate s = D[K_S] (linear, clamped) into D[o]. */
function featHeight(base: number, n: number, upper: boolean, o: number): void {
  if (n === 1) { D[o] = _fh[base]; return; }
  const s = D[K_S], s0 = _fs[base], s1 = _fs[base + 1], ds = s1 - s0;
  if (Math.abs(ds) <= 1e-12 * (Math.abs(s0) + Math.abs(s1) + 1e-300)) {
    // edge along the normal: its extreme end faces the other shape
    D[o] = upper ? Math.max(_fh[base], _fh[base + 1]) : Math.min(_fh[base], _fh[base + 1]);
    return;
  }
  let t = (s - s0) / ds;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  D[o] = _fh[base] + t * (_fh[base + 1] - _fh[base]);
}

/**
 * 2D contact manifold of two shapes. Writes `out` (count 0 when apart by more than input.margin), updates the
 * cache when given. Never allocates.
 */
export function contactManifold2(input: Manifold2Input, out: Manifold2, cache?: GjkCache2): Manifold2 {
  const margin = input.margin;
  if (!(margin >= 0)) requireNonNegative('input.margin', margin);
  const a = input.shapeA, b = input.shapeB, pa = input.poseA, pb = input.poseB;
  // rel = poseA⁻¹ poseB
  const dx = pb[0] - pa[0], dy = pb[1] - pa[1], ca = pa[2], sa = pa[3];
  D[K_RTX] = ca * dx + sa * dy; D[K_RTY] = -sa * dx + ca * dy;
  D[K_RC] = ca * pb[2] + sa * pb[3]; D[K_RS] = ca * pb[3] - sa * pb[2];
  if (!Number.isFinite(D[K_RTX] + D[K_RTY] + D[K_RC] + D[K_RS])) throw new InvalidArgumentError('input.poseA/poseB', NaN, 'poses must be finite');
  out.gjkIterations = 0; out.epaIterations = 0;
  const r = a.radius + b.radius;
  let nx: number, ny: number, depth: number, ax: number, ay: number, bx: number, by: number;
  if (a.kind === 'circle' && b.kind === 'circle') {
    // analytic: centres at 0 and t
    const d2 = D[K_RTX] * D[K_RTX] + D[K_RTY] * D[K_RTY];
    if (d2 > (r + margin) * (r + margin)) { out.count = 0; out.depth = 0; out.normal[0] = 0; out.normal[1] = 0; return out; }
    const d = Math.sqrt(d2);
    // (nearly) coincident centres: any direction is a valid normal; +x, deterministic (also avoids dividing by a
    // denormal distance whose square root has lost its precision)
    if (d > 1e-12 * r) { nx = D[K_RTX] / d; ny = D[K_RTY] / d; } else { nx = 1; ny = 0; }
    depth = r - d;
    ax = nx * a.radius; ay = ny * a.radius; bx = D[K_RTX] - nx * b.radius; by = D[K_RTY] - ny * b.radius;
  } else {
    let sx = D[K_RTX] + D[K_RC] * b.cx - D[K_RS] * b.cy - a.cx, sy = D[K_RTY] + D[K_RS] * b.cx + D[K_RC] * b.cy - a.cy;
    if (cache && cache.valid) { sx = cache.dir[0]; sy = cache.dir[1]; }
    D[K_DIR_X] = sx; D[K_DIR_Y] = sy;
    gjk2(a, b, false);
    out.gjkIterations = gjkIters2;
    if (!gjkOverlap2 && D[K_GJK_DIST2] > 1e-9 * (a.boundingRadius + b.boundingRadius)) {
      if (D[K_GJK_DIST2] - r > margin) {
        if (cache) { cache.dir[0] = -D[K_V_X]; cache.dir[1] = -D[K_V_Y]; cache.valid = true; }
        out.count = 0; out.depth = 0; out.normal[0] = 0; out.normal[1] = 0; return out;
      }
      nx = -D[K_V_X] / D[K_GJK_DIST2]; ny = -D[K_V_Y] / D[K_GJK_DIST2];
      depth = r - D[K_GJK_DIST2];
      ax = D[K_P_AX] + nx * a.radius; ay = D[K_P_AY] + ny * a.radius; bx = D[K_P_BX] - nx * b.radius; by = D[K_P_BY] - ny * b.radius;
    } else {
      epa2(a, b);
      out.epaIterations = epaIters;
      // EPA ran on the cores: the rounded shapes' penetration is the cores' plus both radii, along the same normal
      // (D = D_core ⊕ disc(r_A + r_B)), and the surface points lie a radius out from the core points.
      nx = D[K_EPA_NX]; ny = D[K_EPA_NY]; depth = D[K_EPA_DEPTH] + r;
      ax = D[K_EPA_AX] + nx * a.radius; ay = D[K_EPA_AY] + ny * a.radius; bx = D[K_EPA_BX] - nx * b.radius; by = D[K_EPA_BY] - ny * b.radius;
    }
  }
  if (cache) { cache.dir[0] = nx; cache.dir[1] = ny; cache.valid = true; }
  out.depth = depth;
  out.normal[0] = ca * nx - sa * ny; out.normal[1] = sa * nx + ca * ny;
  // contact line through A's deepest point, tangent t = (−n_y, n_x)
  D[K_N_X2] = nx; D[K_N_Y2] = ny; D[K_T_X2] = -ny; D[K_T_Y2] = nx; D[K_O_X2] = ax; D[K_O_Y2] = ay;
  let count = 0;
  const scale = a.boundingRadius + b.boundingRadius;
  const drop = -margin - 1e-9 * scale;
  D[K_DROP] = drop; D[K_MARGIN] = margin; D[K_SCALE] = scale;
  regionValid = false;
  if (a.kind === 'polygon' && b.kind === 'polygon' && a.radius === 0 && b.radius === 0) {
    // sharp polygons: the exact contact interval (see exactInterval2), its ends and the deepest point
    count = exactContacts2(out, pa, a, b);
  } else {
  nFA2 = feature2(a, 0);
  nFB2 = feature2(b, 1);
  // clip: the common interval of the two features along the tangent
  if (nFA2 === 2 && nFB2 === 2) {
    const aLo = Math.min(_fs[0], _fs[1]), aHi = Math.max(_fs[0], _fs[1]);
    const bLo = Math.min(_fs[2], _fs[3]), bHi = Math.max(_fs[2], _fs[3]);
    const lo = Math.max(aLo, bLo), hi = Math.min(aHi, bHi);
    if (lo <= hi + 1e-9 * scale) {
      const loId = aLo >= bLo ? _fid[_fs[0] <= _fs[1] ? 0 : 1] : _fid[_fs[2] <= _fs[3] ? 2 : 3];
      const hiId = aHi <= bHi ? _fid[_fs[0] >= _fs[1] ? 0 : 1] : _fid[_fs[2] >= _fs[3] ? 2 : 3];
      D[K_S] = lo;
      count = emit2(out, pa, loId, 0);
      D[K_S] = hi;
      if (hi - lo > 1e-9 * scale) count = emit2(out, pa, hiId, count);
    }
  } else {
    // a point feature (circle or the fallback) against anything
    const s = nFB2 === 1 ? _fs[2] : _fs[0];
    const id = nFB2 === 1 ? _fid[2] : _fid[0];
    D[K_S] = s;
    count = emit2(out, pa, id, 0);
  }
  }
  if (count === 0) {
    // round-off lost the overlap interval: report the deepest point
    out.points[0] = pa[0] + ca * 0.5 * (ax + bx) - sa * 0.5 * (ay + by);
    out.points[1] = pa[1] + sa * 0.5 * (ax + bx) + ca * 0.5 * (ay + by);
    out.depths[0] = depth; out.ids[0] = ID_DEEP;
    count = 1;
  }
  out.count = count;
  return out;
}

// The point's tangent coordinate, the surfaces' heights and the drop threshold travel in D (K_S, K_HA, K_HB, K_DROP),
// not as arguments and return values: doubles crossing a call V8 does not inline are boxed.

/** Emit the point of the two features at s = D[K_S] as contact k (if deep enough); returns the new count. */
function emit2(out: Manifold2, pa: Pose2, id: number, k: number): number {
  featHeight(0, nFA2, true, K_HA);
  featHeight(2, nFB2, false, K_HB);
  return emitAt(out, pa, id, k);
}

/** Emit contact k at s = D[K_S] between heights D[K_HA] (A) and D[K_HB] (B) unless shallower than D[K_DROP]. */
function emitAt(out: Manifold2, pa: Pose2, id: number, k: number): number {
  const s = D[K_S], ha = D[K_HA], hb = D[K_HB];
  const d = ha - hb;
  if (!(d >= D[K_DROP])) return k;
  const h = 0.5 * (ha + hb);
  const x = D[K_O_X2] + s * D[K_T_X2] + h * D[K_N_X2], y = D[K_O_Y2] + s * D[K_T_Y2] + h * D[K_N_Y2];
  out.points[2 * k] = pa[0] + pa[2] * x - pa[3] * y;
  out.points[2 * k + 1] = pa[1] + pa[3] * x + pa[2] * y;
  out.depths[k] = d;
  out.ids[k] = id;
  return k + 1;
}

// ---- exact contact interval of two sharp polygons ----
//
// On the line q(s) + h·n (s along the tangent), polygon edge i (outward normal m through vertex p) allows
// m·(q − p) ≤ 0, i.e. h·(m·n) ≤ c − s·(m·t) with c = m·(p − o). Edges with m·n > 0 bound h from above ("up"),
// edges with m·n < 0 from below ("down"). Both polygons overlap on the line iff every up bound of either is above
// every down bound of either; multiplying U ≥ D by (m_U·n)(−m_D·n) ≥ 0 gives the division-free linear condition
//   (−m_D·n)(c_U − s a_U) + (m_U·n)(c_D − s a_D) ≥ 0,
// so the contact region (the shadow of A ∩ B on the contact line) is an interval: the 3D exactRegion in 1D. Its
// ends are where the surfaces cross or a silhouette ends the overlap; the depth h_A(s) − h_B(s) is concave and peaks
// at the deepest point found by GJK/EPA (s = 0).

const _ec = new Float64Array(2 * MAX_EDGES2), _ea2 = new Float64Array(2 * MAX_EDGES2), _emn = new Float64Array(2 * MAX_EDGES2);

function loadEdges2(s: Shape2, side: number, n: number): number {
  for (let i = 0; i < s.count; i++) {
    let mx = s.normals[2 * i], my = s.normals[2 * i + 1], px = s.verts[2 * i], py = s.verts[2 * i + 1];
    if (side === 1) {
      const a = D[K_RC] * mx - D[K_RS] * my, b = D[K_RS] * mx + D[K_RC] * my; mx = a; my = b;
      const c = D[K_RC] * px - D[K_RS] * py + D[K_RTX], d = D[K_RS] * px + D[K_RC] * py + D[K_RTY]; px = c; py = d;
    }
    _emn[n] = mx * D[K_N_X2] + my * D[K_N_Y2];
    _ea2[n] = mx * D[K_T_X2] + my * D[K_T_Y2];
    _ec[n] = mx * (px - D[K_O_X2]) + my * (py - D[K_O_Y2]);
    n++;
  }
  return n;
}

/**
 * Both polygons' bounding heights on the contact line at s = D[K_S]: A's upper bound into D[K_HA], B's lower bound
 * into D[K_HB] (their difference is the depth there).
 */
function heightsAt(nA: number, n: number): void {
  const s = D[K_S];
  let hA = Infinity, hB = -Infinity;
  // (near-)vertical edges bound s, not h: at a silhouette their (c − a s)/m·n is 0/0
  for (let i = 0; i < nA; i++) if (_emn[i] > 1e-12) { const v = (_ec[i] - s * _ea2[i]) / _emn[i]; if (v < hA) hA = v; }
  for (let i = nA; i < n; i++) if (_emn[i] < -1e-12) { const v = (_ec[i] - s * _ea2[i]) / _emn[i]; if (v > hB) hB = v; }
  D[K_HA] = hA; D[K_HB] = hB;
}

function exactContacts2(out: Manifold2, pa: Pose2, a: Shape2, b: Shape2): number {
  const margin = D[K_MARGIN], scale = D[K_SCALE];
  const nA = loadEdges2(a, 0, 0);
  const n = loadEdges2(b, 1, nA);
  let lo = -4 * scale, hi = 4 * scale, idLo = ID_DEEP, idHi = ID_DEEP;
  for (let i = 0; i < n; i++) {
    const mu = _emn[i];
    if (mu < 0) continue;
    for (let j = 0; j < n; j++) {
      const md = _emn[j];
      if (md >= 0) continue;
      // k0 + k1 s ≥ 0
      const k0 = -md * _ec[i] + mu * _ec[j] + margin * (-md) * mu;
      const k1 = md * _ea2[i] - mu * _ea2[j];
      const id = ID_EDGE2 + i * 128 + j;
      if (k1 > 1e-15) { const s = -k0 / k1; if (s > lo) { lo = s; idLo = id; } }
      else if (k1 < -1e-15) { const s = -k0 / k1; if (s < hi) { hi = s; idHi = id; } }
      else if (k0 < 0) { lo = 1; hi = 0; }
    }
  }
  if (lo > hi) {
    if (lo - hi > 1e-9 * scale) return 0;
    const m = 0.5 * (lo + hi); lo = m; hi = m;
  }
  D[K_REGION_LO] = lo; D[K_REGION_HI] = hi; regionValid = true;
  regionPose = pa;
  // candidates: both ends and the deepest point (clamped into the interval)
  const s0 = 0 < lo ? lo : 0 > hi ? hi : 0;
  const slop = 1e-9 * scale;
  // (the point goes through D[K_S], heights through D[K_HA], D[K_HB]: see emitAt)
  if (hi - lo <= slop) { D[K_S] = lo; heightsAt(nA, n); return emitAt(out, pa, idLo, 0); }
  D[K_S] = lo; heightsAt(nA, n);
  const dLo = D[K_HA] - D[K_HB];
  D[K_S] = hi; heightsAt(nA, n);
  const dHi = D[K_HA] - D[K_HB];
  // the ends, unless the deepest point is deeper than both: then it replaces the shallower end
  D[K_S] = s0; heightsAt(nA, n);
  const dMid = D[K_HA] - D[K_HB];
  let k = 0;
  if (dMid > Math.max(dLo, dHi) + slop) {
    const sEnd = dLo >= dHi ? lo : hi, idEnd = dLo >= dHi ? idLo : idHi;
    k = emitAt(out, pa, ID_DEEP, k); // heights at s0 from above
    D[K_S] = sEnd; heightsAt(nA, n);
    k = emitAt(out, pa, idEnd, k);
  } else {
    D[K_S] = lo; heightsAt(nA, n);
    k = emitAt(out, pa, idLo, k);
    D[K_S] = hi; heightsAt(nA, n);
    k = emitAt(out, pa, idHi, k);
  }
  return k;
}

let regionValid = false;
let regionPose: Pose2 | null = null;

/**
 * The whole contact interval of the last contactManifold2 call between two sharp polygons (before the choice of
 * two points): writes its two ends (x0, y0, x1, y1, world) into out and returns 2, or 0 when the last call used
 * the feature path (circles, rounded polygons) or found no contact. For drawing and tests.
 */
export function lastContactRegion2(out: Float64Array): number {
  if (!regionValid || !regionPose) return 0;
  const p = regionPose;
  for (let k = 0; k < 2; k++) {
    const s = k === 0 ? D[K_REGION_LO] : D[K_REGION_HI];
    const x = D[K_O_X2] + s * D[K_T_X2], y = D[K_O_Y2] + s * D[K_T_Y2];
    out[2 * k] = p[0] + p[2] * x - p[3] * y; out[2 * k + 1] = p[1] + p[3] * x + p[2] * y;
  }
  return 2;
}
