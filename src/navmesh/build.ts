/**
 * Navmesh construction from a polygon map {boundary, obstacles[]}.
 *
 * Pipeline (all at build time; queries afterwards allocate nothing but the search's growable pools):
 *   1. validate and repair every ring (rings.ts);
 *   2. free space = boundary ⊖ D(r) minus ⋃ (obstacle ⊕ D(r)) with polygon-clipping (inflate.ts); at r = 0 this
 *      is boundary minus the union of obstacles, which also merges overlapping obstacles and clips obstacles that
 *      stick out of the boundary;
 *   3. constrained Delaunay triangulation of the free-space rings (Delaunator + Constrainautor, robust predicates);
 *   4. inside/outside labelling by flood fill from the constraint edges (free space lies left of every ring edge
 *      once outer rings are counter-clockwise and holes clockwise);
 *   5. flat arrays: vertices, triangles (CCW), neighbours across each edge, "corner" flags (vertices where the free
 *      space is reflex: the only places a shortest path can bend), connected components, and a uniform grid of
 *      triangle bounding boxes for point location.
 *
 * One mesh serves one agent radius (like one Recast tile set per agent size): build one mesh per size class.
 */
import Delaunator from 'delaunator';
import Constrainautor from '@kninnug/constrainautor';
import polygonClipping, { type MultiPolygon } from 'polygon-clipping';
import { DegenerateGeometryError, InvalidArgumentError, MalformedInputError } from '../core/errors';
import { requireInteger, requireNonNegative } from '../core/validate';
import { cleanRing, isConvex, orient, ringsOverlap, type CleanRing, type Ring } from './rings';
import { edgeSweeps, inflatedPieces, kgonOffsets, ringPairs, type Pair } from './inflate';
import { packNavmesh } from './buffer';

/** A polygon map: an outer boundary and obstacle polygons (holes), each a list of [x, y] points in metres. */
export interface PolygonMap {
  boundary: Ring;
  obstacles?: ReadonlyArray<Ring>;
}

export interface NavmeshOptions {
  /** Agent radius in metres: obstacles grow and the boundary shrinks by it. @default 0 */
  radius?: number;
  /** Sides of the polygon circumscribing the agent disc when inflating (≥ 4). @default 8 */
  arcSegments?: number;
}

/** A triangulated navigation mesh: flat typed arrays, all views of one buffer (see navmeshFromBuffer). */
export interface Navmesh {
  /** The one buffer every array below is a view of (transfer it to a worker, share it, or save it). */
  readonly buffer: ArrayBuffer | SharedArrayBuffer;
  /** Agent radius the mesh was built for (metres). */
  readonly radius: number;
  readonly vertexCount: number;
  readonly triangleCount: number;
  /** x, y per vertex. */
  readonly vertices: Float64Array;
  /** Three vertex indices per triangle, counter-clockwise. */
  readonly triangles: Uint32Array;
  /** Triangle across edge k (vertex k → vertex k+1) of each triangle, or -1 for a wall. */
  readonly neighbours: Int32Array;
  /** 1 where the free space is reflex at the vertex (a convex obstacle corner): paths bend only there. */
  readonly corner: Uint8Array;
  /** Connected-component id per triangle (unreachable goals are detected in O(1)). */
  readonly component: Int32Array;
  /** Bounding box of the free space. */
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  /** Point-location grid: cell size (m), columns, rows, CSR start per cell (length cols·rows + 1), triangle ids. */
  readonly gridCell: number;
  readonly gridCols: number;
  readonly gridRows: number;
  readonly gridStart: Uint32Array;
  readonly gridTris: Uint32Array;
}

/** Build a navmesh for agents of `options.radius`. Throws typed errors on malformed or degenerate input. */
export function buildNavmesh(map: PolygonMap, options: NavmeshOptions = {}): Navmesh {
  if (map === null || typeof map !== 'object') throw new MalformedInputError('map', map, 'must be an object {boundary, obstacles}');
  const radius = options.radius ?? 0;
  requireNonNegative('options.radius', radius);
  const arcSegments = options.arcSegments ?? 8;
  requireInteger('options.arcSegments', arcSegments, 4, 64);

  const boundary = cleanRing('map.boundary', map.boundary);
  const obstaclesIn = map.obstacles ?? [];
  if (!Array.isArray(obstaclesIn)) throw new MalformedInputError('map.obstacles', obstaclesIn, 'must be an array of polygons');
  const obstacles: CleanRing[] = [];
  for (let i = 0; i < obstaclesIn.length; i++) {
    const o = cleanRing(`map.obstacles[${i}]`, obstaclesIn[i]);
    if (!ringsOverlap(o, boundary)) {
      throw new DegenerateGeometryError(`map.obstacles[${i}]`, obstaclesIn[i], 'obstacle lies entirely outside the boundary');
    }
    obstacles.push(o);
  }

  // --- 2. Free space as a MultiPolygon. ---
  const clips: Pair[][][] = [];
  if (radius > 0) {
    const kgon = kgonOffsets(radius, arcSegments);
    for (const p of edgeSweeps(boundary, kgon)) clips.push(p);
    for (const o of obstacles) for (const p of inflatedPieces(o, kgon, isConvex(o))) clips.push(p);
  } else {
    for (const o of obstacles) clips.push([ringPairs(o)]);
  }
  const subject: Pair[][] = [ringPairs(boundary)];
  const free: MultiPolygon = clips.length > 0 ? polygonClipping.difference(subject, ...clips) : [subject];

  // --- Rings of the free space, oriented so free space is on the left of every edge. ---
  const ptIndex = new Map<string, number>();
  const coords: number[] = [];
  const edges: [number, number][] = [];
  const cornerList: number[] = [];
  const ringVerts: number[] = [];
  for (const poly of free) {
    for (let ri = 0; ri < poly.length; ri++) {
      const raw = poly[ri];
      let r: CleanRing;
      try {
        // The clipper's rings may touch themselves at a vertex (a pinch), which is legal here: no
        // self-intersection check, only duplicate/collinear repair.
        r = cleanRing('free space ring', raw, false);
      } catch {
        continue; // a zero-area sliver below the collinearity tolerance: nothing walkable in it
      }
      // cleanRing returns CCW; holes (ri > 0) must run clockwise so that free space is on their left.
      if (ri > 0) { r.xs.reverse(); r.ys.reverse(); }
      const n = r.xs.length;
      ringVerts.length = 0;
      for (let i = 0; i < n; i++) {
        const key = `${r.xs[i]},${r.ys[i]}`;
        let id = ptIndex.get(key);
        if (id === undefined) {
          id = coords.length / 2;
          ptIndex.set(key, id);
          coords.push(r.xs[i], r.ys[i]);
          cornerList.push(0);
        }
        ringVerts.push(id);
      }
      for (let i = 0; i < n; i++) {
        const a = (i + n - 1) % n, c = (i + 1) % n;
        // Walking with free space on the left, a right turn (orient < 0) means the free angle exceeds 180°.
        if (orient(r.xs[a], r.ys[a], r.xs[i], r.ys[i], r.xs[c], r.ys[c]) < 0) cornerList[ringVerts[i]] = 1;
        edges.push([ringVerts[i], ringVerts[c]]);
      }
    }
  }
  const nv = coords.length / 2;
  if (nv < 3 || edges.length === 0) {
    throw new DegenerateGeometryError('map', map, radius > 0
      ? `no free space is left once obstacles are inflated by radius ${radius}`
      : 'no free space: the obstacles cover the whole boundary');
  }

  // --- 3. Constrained Delaunay triangulation. ---
  const coordArr = new Float64Array(coords);
  const del = new Delaunator(coordArr);
  let con: Constrainautor;
  try {
    con = new Constrainautor(del);
    for (const [a, b] of edges) con.constrainOne(a, b);
  } catch (e) {
    throw new DegenerateGeometryError('map', map, `triangulation failed (near-coincident vertices or crossing edges): ${(e as Error).message}`);
  }
  const tris = del.triangles;
  const half = del.halfedges;
  const ntAll = tris.length / 3;
  const constrained = new Uint8Array(tris.length);
  // --- 4. Label triangles: 1 free, 2 blocked, by flood fill from both sides of every constraint edge. ---
  // Delaunator's triangles are counter-clockwise in a y-down frame, i.e. clockwise in our y-up frame, so the
  // triangle owning half-edge a→b lies to the RIGHT of a→b: the blocked side, since free space is on the left.
  const label = new Uint8Array(ntAll);
  const stack: number[] = [];
  const seed = (he: number, lab: number): void => {
    constrained[he] = 1;
    const t = Math.floor(he / 3);
    if (label[t] === 0) { label[t] = lab; stack.push(t); }
  };
  for (const [a, b] of edges) {
    const he = con.findEdge(a, b);
    if (he === Infinity) throw new DegenerateGeometryError('map', map, 'triangulation lost a boundary edge');
    // Constrainautor encodes "only b→a exists" as the negated id, and half-edge 0 as −0: test the sign bit.
    if (he > 0 || Object.is(he, 0)) {
      seed(he, 2);
      if (half[he] >= 0) seed(half[he], 1);
    } else {
      seed(-he, 1); // only b→a exists (hull edge): its triangle, right of b→a, is left of a→b: free
    }
  }
  while (stack.length > 0) {
    const t = stack.pop()!;
    for (let k = 0; k < 3; k++) {
      const he = 3 * t + k;
      if (constrained[he]) continue;
      const tw = half[he];
      if (tw < 0) continue;
      const u = Math.floor(tw / 3);
      if (label[u] === 0) { label[u] = label[t]; stack.push(u); }
    }
  }

  // --- 5. Compact the free triangles into flat arrays. ---
  const remap = new Int32Array(ntAll).fill(-1);
  let nt = 0;
  for (let t = 0; t < ntAll; t++) if (label[t] === 1) remap[t] = nt++;
  if (nt === 0) throw new DegenerateGeometryError('map', map, 'no free space after triangulation');
  const triangles = new Uint32Array(3 * nt);
  const neighbours = new Int32Array(3 * nt);
  for (let t = 0; t < ntAll; t++) {
    const m = remap[t];
    if (m < 0) continue;
    // Reverse to counter-clockwise (y-up): our vertex order (v0, v2, v1); our edge k runs along Delaunator
    // half-edge HE_OF_EDGE[k] backwards (edge 0: v0→v2 is half-edge 2 reversed, and so on).
    triangles[3 * m] = tris[3 * t];
    triangles[3 * m + 1] = tris[3 * t + 2];
    triangles[3 * m + 2] = tris[3 * t + 1];
    for (let k = 0; k < 3; k++) {
      const he = 3 * t + HE_OF_EDGE[k];
      const tw = half[he];
      neighbours[3 * m + k] = tw < 0 || constrained[he] ? -1 : remap[Math.floor(tw / 3)];
    }
  }
  const vertices = coordArr;
  const corner = new Uint8Array(cornerList);

  // Connected components (BFS over neighbours).
  const component = new Int32Array(nt).fill(-1);
  let comp = 0;
  for (let s = 0; s < nt; s++) {
    if (component[s] >= 0) continue;
    component[s] = comp;
    stack.push(s);
    while (stack.length > 0) {
      const t = stack.pop()!;
      for (let k = 0; k < 3; k++) {
        const u = neighbours[3 * t + k];
        if (u >= 0 && component[u] < 0) { component[u] = comp; stack.push(u); }
      }
    }
    comp++;
  }

  // Point-location grid: cells about the size of an average triangle, each listing the triangles whose bounding
  // box overlaps it (counting sort into one flat array, flatbush-style).
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < 3 * nt; i++) {
    const v = triangles[i];
    const x = vertices[2 * v], y = vertices[2 * v + 1];
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const w = Math.max(maxX - minX, 1e-9), h = Math.max(maxY - minY, 1e-9);
  const target = Math.max(1, Math.min(nt, 1 << 20));
  const gridCell = Math.sqrt((w * h) / target) * 1.5;
  const gridCols = Math.max(1, Math.ceil(w / gridCell));
  const gridRows = Math.max(1, Math.ceil(h / gridCell));
  const gridStart = new Uint32Array(gridCols * gridRows + 1);
  const cellRange = new Int32Array(4 * nt);
  for (let t = 0; t < nt; t++) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (let k = 0; k < 3; k++) {
      const v = triangles[3 * t + k];
      const x = vertices[2 * v], y = vertices[2 * v + 1];
      if (x < x0) x0 = x;
      if (x > x1) x1 = x;
      if (y < y0) y0 = y;
      if (y > y1) y1 = y;
    }
    const c0 = clampInt(Math.floor((x0 - minX) / gridCell), gridCols), c1 = clampInt(Math.floor((x1 - minX) / gridCell), gridCols);
    const r0 = clampInt(Math.floor((y0 - minY) / gridCell), gridRows), r1 = clampInt(Math.floor((y1 - minY) / gridCell), gridRows);
    cellRange[4 * t] = c0; cellRange[4 * t + 1] = c1; cellRange[4 * t + 2] = r0; cellRange[4 * t + 3] = r1;
    for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) gridStart[r * gridCols + c + 1]++;
  }
  for (let i = 0; i < gridCols * gridRows; i++) gridStart[i + 1] += gridStart[i];
  const gridTris = new Uint32Array(gridStart[gridCols * gridRows]);
  const fill = gridStart.slice(0, gridCols * gridRows);
  for (let t = 0; t < nt; t++) {
    for (let r = cellRange[4 * t + 2]; r <= cellRange[4 * t + 3]; r++) {
      for (let c = cellRange[4 * t]; c <= cellRange[4 * t + 1]; c++) gridTris[fill[r * gridCols + c]++] = t;
    }
  }

  return packNavmesh({
    radius, vertexCount: nv, triangleCount: nt, vertices, triangles, neighbours, corner, component,
    minX, minY, maxX, maxY, gridCell, gridCols, gridRows, gridStart, gridTris,
  });
}

const HE_OF_EDGE = [2, 1, 0];

function clampInt(v: number, n: number): number {
  return v < 0 ? 0 : v >= n ? n - 1 : v;
}

/** Validate a triangle index argument. */
export function requireTriangle(mesh: Navmesh, field: string, t: number): void {
  if (!Number.isInteger(t) || t < 0 || t >= mesh.triangleCount) {
    throw new InvalidArgumentError(field, t, `must be a triangle index in [0, ${mesh.triangleCount - 1}]`);
  }
}
