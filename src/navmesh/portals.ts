/**
 * Portals of a navmesh corridor, in the layout `funnel` reads: 4 numbers per portal (left x, left y, right x,
 * right y as seen walking from start to goal), the start and goal as degenerate first and last portals.
 */
import type { Navmesh } from './build';
import { InvalidArgumentError } from '../core/errors';

/**
 * Write the portals of `corridor[0..length)` between (sx, sy) and (gx, gy) into `out` (caller-owned, at least
 * 4·(length + 1) numbers). Returns the portal count (length + 1). Throws if two consecutive corridor triangles
 * are not adjacent.
 */
export function corridorPortals(
  mesh: Navmesh, corridor: ArrayLike<number>, length: number, sx: number, sy: number, gx: number, gy: number, out: Float64Array,
): number {
  const need = 4 * (length + 1);
  if (out.length < need) throw new InvalidArgumentError('out', out.length, `must hold at least ${need} numbers`);
  const { vertices: V, triangles: T, neighbours: N } = mesh;
  out[0] = sx; out[1] = sy; out[2] = sx; out[3] = sy;
  let n = 1;
  for (let i = 0; i + 1 < length; i++) {
    const a = corridor[i], b = corridor[i + 1];
    let k = 0;
    while (k < 3 && N[3 * a + k] !== b) k++;
    if (k === 3) throw new InvalidArgumentError(`corridor[${i + 1}]`, b, `is not adjacent to triangle ${a}`);
    // Edge u → w of a (a on its left); walking from a into b, w is on the left and u on the right.
    const u = T[3 * a + k], w = T[3 * a + (k + 1) % 3];
    out[4 * n] = V[2 * w]; out[4 * n + 1] = V[2 * w + 1]; out[4 * n + 2] = V[2 * u]; out[4 * n + 3] = V[2 * u + 1];
    n++;
  }
  out[4 * n] = gx; out[4 * n + 1] = gy; out[4 * n + 2] = gx; out[4 * n + 3] = gy;
  return n + 1;
}
