/** Geometry helpers shared by the truncated-corridor tests: a portal's end points and a point-to-segment distance. */
import type { Navmesh } from '../../src/navmesh/build';

export type P = [number, number];

/** The portal (shared edge) from triangle a to its neighbour b: its two end points. */
export function portal(m: Navmesh, a: number, b: number): [P, P] {
  const T = m.triangles, V = m.vertices, N = m.neighbours;
  const k = [0, 1, 2].find((j) => N[3 * a + j] === b);
  if (k === undefined) throw new Error(`triangles ${a} and ${b} are not neighbours`);
  const u = T[3 * a + k], w = T[3 * a + (k + 1) % 3];
  return [[V[2 * u], V[2 * u + 1]], [V[2 * w], V[2 * w + 1]]];
}

/** Distance from p to the segment a–b. */
export function distToSegment(p: P, a: P, b: P): number {
  const ex = b[0] - a[0], ey = b[1] - a[1];
  const t = Math.max(0, Math.min(1, ((p[0] - a[0]) * ex + (p[1] - a[1]) * ey) / (ex * ex + ey * ey)));
  return Math.hypot(p[0] - a[0] - t * ex, p[1] - a[1] - t * ey);
}
