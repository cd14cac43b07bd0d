/**
 * Path-corridor maintenance kernels (Detour's dtPathCorridor is the model, Mononen 2009–2012): a corridor is the
 * triangle sequence from the agent's triangle to the goal's. As the agent moves, the start advances; if the agent
 * is pushed into a neighbouring triangle the corridor grows at the front; pushed a short way farther off (within a
 * bound the caller gives), the triangles on the straight way back to the corridor are put in front; if it is moved
 * anywhere else, or a triangle on the corridor is closed, the corridor is invalid and the caller re-plans. Corridors
 * are slices of a caller-owned Int32Array (offset, length), so a whole crowd's corridors live in one flat buffer.
 */
import type { Navmesh } from './build';
import { closestPointOnTriangleAt, locateTriangleAt, nearestPointOnMeshAt, pointInTriangleAt } from './locate';

const _p = new Float64Array(2);

/**
 * Advance the start of corridor buf[off .. off+len) to the triangle holding (x, y). Looks up to `lookahead`
 * triangles ahead (the agent may have crossed several thin triangles in one frame). If none does and the point lies
 * in a triangle adjacent to the first, that triangle is put in front (the agent was pushed sideways out of the
 * corridor by one triangle). A point off the mesh counts as being in its nearest triangle: on the corridor within
 * `lookahead`, the start advances to it; next to the first, it is put in front. A point farther off, but at most
 * `maxWalk` metres from the first triangle, is walked back to: the triangles the straight segment from the first
 * triangle's nearest point to it crosses (through open triangles) are put in front, from the last corridor
 * triangle (within `lookahead`) they cross; so an agent pushed back across a sliver keeps its corridor (0, the
 * default: no walk). Returns the new length, or −1 if the corridor cannot be repaired (re-plan), or if it would
 * exceed `capacity`.
 */
export function corridorMoveStart(
  mesh: Navmesh, buf: Int32Array, off: number, len: number, capacity: number, x: number, y: number, lookahead = 16,
  blocked: Uint8Array | null = null, maxWalk = 0,
): number {
  _xy[0] = x; _xy[1] = y; _xy[2] = maxWalk;
  return corridorMoveStartAt(mesh, buf, off, len, capacity, _xy, lookahead, blocked);
}

const _xy = new Float64Array(3);
/** Triangles of a walk back to the corridor (corridorMoveStartAt): a longer walk re-plans instead. */
const _walk = new Int32Array(64);
const _q = new Float64Array(3);

/**
 * corridorMoveStart with the point read from xy[0], xy[1] and maxWalk from xy[2]: the form the funnel system calls
 * per agent per frame (a fractional double passed to a call V8 does not inline is boxed, 16 bytes per argument per
 * call).
 */
export function corridorMoveStartAt(
  mesh: Navmesh, buf: Int32Array, off: number, len: number, capacity: number, xy: Float64Array, lookahead: number,
  blocked: Uint8Array | null,
): number {
  if (len <= 0) return -1;
  let found = -1;
  const end = Math.min(len, lookahead);
  // Scan forward: in steady state the agent is still in the first triangle. Interiors are disjoint, so only on a
  // shared edge does a later triangle also hold the point, and then the later one is taken (the start point must
  // not lie on the first portal: the funnel's two sides would point in opposite directions). Typically two tests.
  for (let i = 0; i < end; i++) {
    if (pointInTriangleAt(mesh, buf[off + i], xy)) {
      found = i;
      while (found + 1 < end && pointInTriangleAt(mesh, buf[off + found + 1], xy)) found++;
      break;
    }
  }
  if (found > 0) {
    buf.copyWithin(off, off + found, off + len);
    return len - found;
  }
  if (found === 0) return len;
  // Off the corridor: which triangle is the agent in now (or nearest to, if pushed off the mesh)?
  let t = locateTriangleAt(mesh, xy);
  const onMesh = t >= 0;
  if (!onMesh) t = nearestPointOnMeshAt(mesh, xy, _p);
  if (t < 0 || (blocked !== null && blocked[t] !== 0)) return -1;
  // Pushed off the mesh beside the corridor (against a wall, by avoidance or contacts): the nearest triangle may be
  // on the corridor already, then the corridor is kept from there (the funnel system clamps the start into it).
  // Re-planning instead would give the same corridor every frame, and a sliced re-plan would never let it move.
  for (let i = 0; i < end; i++) {
    if (buf[off + i] !== t) continue;
    if (i > 0) buf.copyWithin(off, off + i, off + len);
    return len - i;
  }
  const first = buf[off];
  const N = mesh.neighbours;
  if (N[3 * first] === t || N[3 * first + 1] === t || N[3 * first + 2] === t) {
    if (len + 1 > capacity) return -1;
    buf.copyWithin(off + 1, off, off + len);
    buf[off] = t;
    return len + 1;
  }
  // Farther off, but near: walk back (Detour's dtPathCorridor::movePosition walks the surface from the old position
  // to the new one and merges the polygons it visited into the corridor, dtMergeCorridorStartMoved). The walk here
  // is the straight segment from Q, the first triangle's point nearest the agent (or, off the mesh, its nearest mesh
  // point), to the agent, through open triangles: walk[0] = first, walk[n − 1] holds the agent. With j the last
  // corridor triangle (within lookahead) the walk crosses, at walk[v], the corridor becomes walk[n − 1], ...,
  // walk[v] = buf[j], then buf[j + 1 ...]: a chain of neighbours from the agent's triangle to the goal's. Found by
  // the long fuzz run of the full pipeline (seed 709362359): ORCA turned an agent's step back across a sliver into
  // the triangle beyond it, two off its corridor's start, and the re-plan from there, every time, was the agent's
  // whole problem in a loop (a sliced re-plan also stops it for as many frames as the search takes).
  const maxWalk = xy[2];
  if (!(maxWalk > 0)) return -1;
  const ex = onMesh ? xy[0] : _p[0], ey = onMesh ? xy[1] : _p[1];
  _q[0] = ex; _q[1] = ey;
  closestPointOnTriangleAt(mesh, first, _q);
  if (_q[2] > maxWalk * maxWalk) return -1;
  _seg[0] = _q[0]; _seg[1] = _q[1]; _seg[2] = ex; _seg[3] = ey;
  const n = raycastMeshAt(mesh, first, _seg, _walk, blocked);
  if (n <= 0) return -1;
  let j = end - 1, v = -1;
  for (; j >= 0 && v < 0; j--) {
    const u = buf[off + j];
    for (let w = 0; w < n; w++) if (_walk[w] === u) { v = w; break; }
  }
  j++; // the loop stepped once past the match (walk[0] = first matches at j = 0 at the latest)
  const front = n - v, rest = len - j - 1;
  if (front + rest > capacity) return -1;
  buf.copyWithin(off + front, off + j + 1, off + len);
  for (let w = 0; w < front; w++) buf[off + w] = _walk[n - 1 - w];
  return front + rest;
}

/** Is any triangle of the corridor closed in `blocked`? (A corridor through a closed door must be re-planned.) */
export function corridorBlocked(buf: Int32Array, off: number, len: number, blocked: Uint8Array | null): boolean {
  if (blocked === null) return false;
  for (let i = 0; i < len; i++) if (blocked[buf[off + i]] !== 0) return true;
  return false;
}

/**
 * Walk the mesh along the segment (sx, sy) → (ex, ey), starting in triangle `startTri` (which must contain the
 * start). Writes the triangles crossed into `outTris` (up to its length) and returns their count if the end point
 * was reached, or minus the count if the segment hits a wall or a closed triangle first (Detour's raycast).
 * Through a vertex the walk turns around it (clockwise first) to the triangle that holds the segment's direction.
 */
export function raycastMesh(
  mesh: Navmesh, startTri: number, sx: number, sy: number, ex: number, ey: number, outTris: Int32Array,
  blocked: Uint8Array | null = null,
): number {
  _seg[0] = sx; _seg[1] = sy; _seg[2] = ex; _seg[3] = ey;
  return raycastMeshAt(mesh, startTri, _seg, outTris, blocked);
}

const _seg = new Float64Array(4);
const _pt = new Float64Array(2);

/** raycastMesh with the segment read from seg[0..4) = sx, sy, ex, ey (per-frame form: no doubles boxed across calls). */
function raycastMeshAt(mesh: Navmesh, startTri: number, seg: Float64Array, outTris: Int32Array, blocked: Uint8Array | null): number {
  const sx = seg[0], sy = seg[1], ex = seg[2], ey = seg[3];
  _pt[0] = ex; _pt[1] = ey;
  const { vertices: V, triangles: T, neighbours: N } = mesh;
  let t = startTri, prev = -1, n = 0;
  const cap = outTris.length;
  for (let guard = 0; guard <= mesh.triangleCount; guard++) {
    if (n >= cap) return -n;
    outTris[n++] = t;
    if (pointInTriangleAt(mesh, t, _pt)) return n;
    // Exit edge a→b: the end lies strictly outside it (orient(a, b, e) < 0) and the segment's line separates a and
    // b (or touches one), so the segment crosses that edge on its way out.
    let next = -2, via = -1;
    for (let k = 0; k < 3; k++) {
      const a = T[3 * t + k], b = T[3 * t + (k + 1) % 3];
      const ax = V[2 * a], ay = V[2 * a + 1], bx = V[2 * b], by = V[2 * b + 1];
      if ((bx - ax) * (ey - ay) - (by - ay) * (ex - ax) >= 0) continue;
      const oa = (ex - sx) * (ay - sy) - (ey - sy) * (ax - sx);
      const ob = (ex - sx) * (by - sy) - (ey - sy) * (bx - sx);
      if ((oa > 0 && ob > 0) || (oa < 0 && ob < 0)) continue;
      // Leaving exactly through a vertex (the segment's line passes through an end of the exit edge): the
      // segment goes on into whichever triangle around that vertex holds its direction, not necessarily the one
      // across this edge (a ray grazing an obstacle corner was reported blocked). Walk the vertex's fan below.
      if (oa === 0 || ob === 0) { via = oa === 0 ? a : b; break; }
      const nb = N[3 * t + k];
      if (nb === prev && nb >= 0) continue; // never step back
      next = nb;
      break;
    }
    if (via >= 0) {
      // Turn around `via` both ways from t, across edges at `via` only, to the triangle whose corner at `via`
      // contains the direction (ex − sx, ey − sy); a wall or a closed triangle ends that way. Clockwise first, then
      // counter-clockwise (deterministic). Crossing edge via → next of a CCW triangle turns clockwise around it.
      const vx = V[2 * via], vy = V[2 * via + 1], dx = ex - sx, dy = ey - sy;
      let found = -1, foundLen = 0;
      for (let dir = 0; dir < 2 && found < 0; dir++) {
        let u = t, len = 0;
        for (let guard = 0; guard <= mesh.triangleCount; guard++) {
          const j = T[3 * u] === via ? 0 : T[3 * u + 1] === via ? 1 : 2;
          if (u !== t) {
            const p = T[3 * u + (j + 1) % 3], q = T[3 * u + (j + 2) % 3];
            const px = V[2 * p] - vx, py = V[2 * p + 1] - vy, qx = V[2 * q] - vx, qy = V[2 * q + 1] - vy;
            if (px * dy - py * dx >= 0 && dx * qy - dy * qx >= 0) { found = u; foundLen = len; break; }
          }
          const nb = N[3 * u + (dir === 0 ? j : (j + 2) % 3)];
          if (nb < 0 || nb === t || (blocked !== null && blocked[nb] !== 0)) break;
          if (n + len >= cap) return -n;
          outTris[n + len++] = nb;
          u = nb;
        }
      }
      if (found < 0) return -n;
      n += foundLen - 1; // the walk wrote the fan triangles up to `found`; the loop writes `found` itself again
      prev = foundLen >= 2 ? outTris[n - 1] : t;
      t = found;
      continue;
    }
    if (next < 0 || (blocked !== null && blocked[next] !== 0)) return -n;
    prev = t;
    t = next;
  }
  return -n;
}

/**
 * Visibility shortcut (Detour's optimizePathVisibility): cast a ray from (x, y), in the corridor's first triangle,
 * to the middle of the portal `lookIndex` triangles ahead. If nothing blocks it, the triangles the ray crossed
 * replace the corridor up to that portal, when that makes the corridor shorter. `scratch` receives the ray's
 * triangles (its length bounds the walk). Returns the new corridor length.
 */
export function corridorShortcut(
  mesh: Navmesh, buf: Int32Array, off: number, len: number, x: number, y: number, lookIndex: number,
  scratch: Int32Array, blocked: Uint8Array | null = null,
): number {
  _xy[0] = x; _xy[1] = y;
  return corridorShortcutAt(mesh, buf, off, len, _xy, lookIndex, scratch, blocked);
}

/** corridorShortcut with the start point read from xy[0], xy[1] (the form the funnel system calls per frame). */
export function corridorShortcutAt(
  mesh: Navmesh, buf: Int32Array, off: number, len: number, xy: Float64Array, lookIndex: number,
  scratch: Int32Array, blocked: Uint8Array | null,
): number {
  const j = Math.min(len - 1, lookIndex);
  if (j < 2) return len;
  const a = buf[off + j - 1], b = buf[off + j];
  const { vertices: V, triangles: T, neighbours: N } = mesh;
  let k = 0;
  while (k < 3 && N[3 * a + k] !== b) k++;
  if (k === 3) return len;
  const u = T[3 * a + k], w = T[3 * a + (k + 1) % 3];
  const mx = 0.5 * (V[2 * u] + V[2 * w]), my = 0.5 * (V[2 * u + 1] + V[2 * w + 1]);
  _seg[0] = xy[0]; _seg[1] = xy[1]; _seg[2] = mx; _seg[3] = my;
  const n = raycastMeshAt(mesh, buf[off], _seg, scratch, blocked);
  if (n <= 0) return len;
  const last = scratch[n - 1];
  const suffix = last === a ? j : last === b ? j + 1 : -1;
  if (suffix < 0) return len;
  const newLen = n + (len - suffix);
  if (newLen >= len) return len;
  buf.copyWithin(off + n, off + suffix, off + len);
  for (let i = 0; i < n; i++) buf[off + i] = scratch[i]; // (no subarray view: nothing allocated per frame)
  return newLen;
}
