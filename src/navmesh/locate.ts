/**
 * Point location and nearest point on a navmesh, through the mesh's uniform grid of triangle bounding boxes.
 * Neither allocates.
 */
import type { Navmesh } from './build';

/**
 * Index of a triangle containing (x, y) (points on shared edges go to the first triangle listed in the grid cell,
 * deterministically), or -1 if the point is off the mesh. Tolerance: 1e-12 of the triangle's edge scale.
 */
export function locateTriangle(mesh: Navmesh, x: number, y: number): number {
  _loc[0] = x; _loc[1] = y;
  return locateTriangleAt(mesh, _loc);
}

const _loc = new Float64Array(2);

/** locateTriangle with the point read from xy[0], xy[1] (per-frame form: no doubles boxed across the call). */
export function locateTriangleAt(mesh: Navmesh, xy: Float64Array): number {
  const x = xy[0], y = xy[1];
  const { gridCell, gridCols, gridRows, gridStart, gridTris } = mesh;
  const c = Math.floor((x - mesh.minX) / gridCell), r = Math.floor((y - mesh.minY) / gridCell);
  if (!(c >= 0 && c < gridCols && r >= 0 && r < gridRows)) {
    // Points exactly on the max edge of the box fall one cell out; clamp them back, reject the rest.
    if (!(x >= mesh.minX && x <= mesh.maxX && y >= mesh.minY && y <= mesh.maxY)) return -1;
  }
  const cc = c < 0 ? 0 : c >= gridCols ? gridCols - 1 : c;
  const rr = r < 0 ? 0 : r >= gridRows ? gridRows - 1 : r;
  const cell = rr * gridCols + cc;
  for (let i = gridStart[cell], e = gridStart[cell + 1]; i < e; i++) {
    const t = gridTris[i];
    if (pointInTriangleAt(mesh, t, xy)) return t;
  }
  return -1;
}

/** Is (x, y) inside or on triangle t (counter-clockwise)? */
export function pointInTriangle(mesh: Navmesh, t: number, x: number, y: number): boolean {
  _pit[0] = x; _pit[1] = y;
  return pointInTriangleAt(mesh, t, _pit);
}

const _pit = new Float64Array(2);

/** pointInTriangle with the point read from xy[0], xy[1] (the per-frame form: no doubles boxed across the call). */
export function pointInTriangleAt(mesh: Navmesh, t: number, xy: Float64Array): boolean {
  const x = xy[0], y = xy[1];
  const V = mesh.vertices, T = mesh.triangles;
  const a = T[3 * t], b = T[3 * t + 1], c = T[3 * t + 2];
  const ax = V[2 * a], ay = V[2 * a + 1], bx = V[2 * b], by = V[2 * b + 1], cx = V[2 * c], cy = V[2 * c + 1];
  // Each edge's orientation test, with a tolerance relative to |edge|·|point - vertex| (scale of the cross product).
  const e1 = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
  const e2 = (cx - bx) * (y - by) - (cy - by) * (x - bx);
  const e3 = (ax - cx) * (y - cy) - (ay - cy) * (x - cx);
  const s = (Math.abs(bx - ax) + Math.abs(by - ay) + Math.abs(cx - bx) + Math.abs(cy - by)) ** 2 * 1e-12;
  return e1 >= -s && e2 >= -s && e3 >= -s;
}

/**
 * Closest point of triangle t to (px, py), written to out[0], out[1]; returns the squared distance.
 * Region tests on the barycentric coordinates (Ericson, Real-Time Collision Detection, 5.1.5).
 */
export function closestPointOnTriangle(mesh: Navmesh, t: number, px: number, py: number, out: Float64Array): number {
  _cpt[0] = px; _cpt[1] = py;
  closestPointOnTriangleAt(mesh, t, _cpt);
  out[0] = _cpt[0]; out[1] = _cpt[1];
  return _cpt[2];
}

const _cpt = new Float64Array(3);

/**
 * closestPointOnTriangle in array form, for the per-frame callers: reads the point from io[0], io[1] and writes the
 * closest point to io[0], io[1] and the squared distance to io[2]. (A double returned from, or passed to, a call V8
 * does not inline is boxed: one heap number per call, which in nearestPointOnMesh's ring search was 36 KB a frame
 * for 1,000 agents in the rts scenario.)
 */
export function closestPointOnTriangleAt(mesh: Navmesh, t: number, io: Float64Array): void {
  const px = io[0], py = io[1];
  const V = mesh.vertices, T = mesh.triangles;
  const ia = T[3 * t], ib = T[3 * t + 1], ic = T[3 * t + 2];
  const ax = V[2 * ia], ay = V[2 * ia + 1], bx = V[2 * ib], by = V[2 * ib + 1], cx = V[2 * ic], cy = V[2 * ic + 1];
  const abx = bx - ax, aby = by - ay, acx = cx - ax, acy = cy - ay, apx = px - ax, apy = py - ay;
  let qx: number, qy: number;
  const d1 = abx * apx + aby * apy, d2 = acx * apx + acy * apy;
  if (d1 <= 0 && d2 <= 0) { qx = ax; qy = ay; } // vertex region A
  else {
    const bpx = px - bx, bpy = py - by;
    const d3 = abx * bpx + aby * bpy, d4 = acx * bpx + acy * bpy;
    if (d3 >= 0 && d4 <= d3) { qx = bx; qy = by; } // vertex region B
    else {
      const vc = d1 * d4 - d3 * d2;
      if (vc <= 0 && d1 >= 0 && d3 <= 0) { const v = d1 / (d1 - d3); qx = ax + v * abx; qy = ay + v * aby; } // edge AB
      else {
        const cpx = px - cx, cpy = py - cy;
        const d5 = abx * cpx + aby * cpy, d6 = acx * cpx + acy * cpy;
        if (d6 >= 0 && d5 <= d6) { qx = cx; qy = cy; } // vertex region C
        else {
          const vb = d5 * d2 - d1 * d6;
          if (vb <= 0 && d2 >= 0 && d6 <= 0) { const w = d2 / (d2 - d6); qx = ax + w * acx; qy = ay + w * acy; } // edge AC
          else {
            const va = d3 * d6 - d5 * d4;
            if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) { // edge BC
              const w = (d4 - d3) / (d4 - d3 + (d5 - d6));
              qx = bx + w * (cx - bx); qy = by + w * (cy - by);
            } else { // inside: barycentric combination
              const den = 1 / (va + vb + vc);
              const v = vb * den, w = vc * den;
              qx = ax + abx * v + acx * w; qy = ay + aby * v + acy * w;
            }
          }
        }
      }
    }
  }
  const dx = px - qx, dy = py - qy;
  io[0] = qx; io[1] = qy; io[2] = dx * dx + dy * dy;
}

const _np = new Float64Array(3);

/**
 * Nearest point of the mesh to (x, y): writes it to out[0], out[1] and returns its triangle (-1 only for an empty
 * mesh). A point on the mesh is returned unchanged. Searches grid rings outward from the point's cell and stops
 * once the next ring cannot hold anything closer than the best so far. `maxDistance` (metres, default Infinity)
 * bounds the search: beyond it the result is -1.
 */
export function nearestPointOnMesh(mesh: Navmesh, x: number, y: number, out: Float64Array, maxDistance = Infinity): number {
  _loc[0] = x; _loc[1] = y;
  return nearestPointOnMeshAt(mesh, _loc, out, maxDistance);
}

/** nearestPointOnMesh with the point read from xy[0], xy[1] (per-frame form; `out` may be `xy`). */
export function nearestPointOnMeshAt(mesh: Navmesh, xy: Float64Array, out: Float64Array, maxDistance = Infinity): number {
  const x = xy[0], y = xy[1];
  const inside = locateTriangleAt(mesh, xy);
  if (inside >= 0) { out[0] = x; out[1] = y; return inside; }
  const { gridCell, gridCols, gridRows, gridStart, gridTris } = mesh;
  let c = Math.floor((x - mesh.minX) / gridCell), r = Math.floor((y - mesh.minY) / gridCell);
  c = c < 0 ? 0 : c >= gridCols ? gridCols - 1 : c;
  r = r < 0 ? 0 : r >= gridRows ? gridRows - 1 : r;
  // Distance from the point to the clamped cell (the point may lie outside the grid box).
  const cx0 = mesh.minX + c * gridCell, cy0 = mesh.minY + r * gridCell;
  const ox = x < cx0 ? cx0 - x : x > cx0 + gridCell ? x - cx0 - gridCell : 0;
  const oy = y < cy0 ? cy0 - y : y > cy0 + gridCell ? y - cy0 - gridCell : 0;
  const offset = Math.sqrt(ox * ox + oy * oy);
  let best = -1, bestD2 = maxDistance === Infinity ? Infinity : maxDistance * maxDistance;
  const maxRing = Math.max(gridCols, gridRows);
  for (let ring = 0; ring <= maxRing; ring++) {
    // A cell k rings out is separated from the point's (clamped) cell by k - 1 whole cells along x or y, and
    // clamping picks the grid cell nearest the point, so every cell of ring k is ≥ max((k - 1)·cell, offset) away.
    const lower = Math.max(offset, (ring - 1) * gridCell);
    if (lower * lower > bestD2) break;
    for (let rr = r - ring; rr <= r + ring; rr++) {
      if (rr < 0 || rr >= gridRows) continue;
      const edgeRow = rr === r - ring || rr === r + ring;
      for (let cc = c - ring; cc <= c + ring; cc += edgeRow ? 1 : 2 * ring) {
        if (cc < 0 || cc >= gridCols) { if (ring === 0) break; continue; }
        const cell = rr * gridCols + cc;
        for (let i = gridStart[cell], e = gridStart[cell + 1]; i < e; i++) {
          const t = gridTris[i];
          _np[0] = x; _np[1] = y;
          closestPointOnTriangleAt(mesh, t, _np);
          const d2 = _np[2];
          if (d2 < bestD2 || (d2 === bestD2 && t < best)) { bestD2 = d2; best = t; out[0] = _np[0]; out[1] = _np[1]; }
        }
        if (ring === 0) break;
      }
    }
  }
  return best;
}
