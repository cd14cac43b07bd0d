/**
 * Path-corridor maintenance kernels (Detour's dtPathCorridor is the model, Mononen 2009–2012): a corridor is the
 * triangle sequence from the agent's triangle to the goal's. As the agent moves, the start advances; if the agent
 * is pushed into a neighbouring triangle the corridor grows at the front; if it is pushed anywhere else, or a
 * triangle on the corridor is closed, the corridor is invalid and the caller re-plans. Corridors are slices of a
 * caller-owned Int32Array (offset, length), so a whole crowd's corridors live in one flat buffer.
 */
import type { Navmesh } from './build';
import { locateTriangle, nearestPointOnMesh, pointInTriangle } from './locate';

const _p = new Float64Array(2);

/**
 * Advance the start of corridor buf[off .. off+len) to the triangle holding (x, y). Looks up to `lookahead`
 * triangles ahead (the agent may have crossed several thin triangles in one frame) and takes the furthest one that
 * contains the point. If none does and the point lies in a triangle adjacent to the first, that triangle is put in
 * front (the agent was pushed sideways out of the corridor by one triangle). Returns the new length, or −1 if the
 * corridor cannot be repaired (re-plan), or if it would exceed `capacity`.
 */
export function corridorMoveStart(
  mesh: Navmesh, buf: Int32Array, off: number, len: number, capacity: number, x: number, y: number, lookahead = 16,
  blocked: Uint8Array | null = null,
): number {
  if (len <= 0) return -1;
  let found = -1;
  const end = Math.min(len, lookahead);
  for (let i = end - 1; i >= 0; i--) {
    if (pointInTriangle(mesh, buf[off + i], x, y)) { found = i; break; }
  }
  if (found > 0) {
    buf.copyWithin(off, off + found, off + len);
    return len - found;
  }
  if (found === 0) return len;
  // Off the corridor: which triangle is the agent in now (or nearest to, if pushed off the mesh)?
  let t = locateTriangle(mesh, x, y);
  if (t < 0) t = nearestPointOnMesh(mesh, x, y, _p);
  if (t < 0 || (blocked !== null && blocked[t] !== 0)) return -1;
  const first = buf[off];
  const N = mesh.neighbours;
  if (N[3 * first] === t || N[3 * first + 1] === t || N[3 * first + 2] === t) {
    if (len + 1 > capacity) return -1;
    buf.copyWithin(off + 1, off, off + len);
    buf[off] = t;
    return len + 1;
  }
  return -1;
}

/** Is any triangle of the corridor closed in `blocked`? (A corridor through a closed door must be re-planned.) */
export function corridorBlocked(buf: Int32Array, off: number, len: number, blocked: Uint8Array | null): boolean {
  if (blocked === null) return false;
  for (let i = 0; i < len; i++) if (blocked[buf[off + i]] !== 0) return true;
  return false;
}
