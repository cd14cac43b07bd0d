import type { Grid } from './grid';
import { InvalidArgumentError } from '../core/errors';

/**
 * The walls of a grid as outline rings, for the systems that need geometry rather than cells: ORCA's static
 * obstacles, the steering system's wall feelers and the contacts system's immovable segments.
 *
 * Construction. Every cell edge with a walkable cell on one side and a blocked cell (or the outside of the grid) on
 * the other is a wall edge, directed so that the blocked side is on its LEFT (world axes: x = column, y = row, both
 * increasing). Every lattice point then has as many wall edges leaving it as arriving, so the edges form closed
 * rings; each ring is followed edge to edge. At a saddle point (two blocked cells meeting only at a corner, the two
 * walkable cells at the other corners) two edges leave; the ring takes the left turn, which keeps going around the
 * same blocked cell: blocked cells that touch only at a corner belong to different outlines, and walkable cells that
 * touch only at a corner are apart, as in every grid search (a diagonal step between two blocked corners is never
 * legal). A ring that passes the same lattice point twice (a blocked region closing on itself at a saddle) is split
 * there into simple rings. Runs of collinear edges are merged into one segment.
 *
 * The solid side of each ring is on the left of its edges, so its signed area tells what it encloses: positive
 * (counter-clockwise), a blocked region (add it as an obstacle polygon); negative (clockwise), a walkable region
 * with the solid outside it (the border of the map, or a pocket inside a wall: add it with `enclose: true`). The
 * rings of one grid never cross; they may touch at saddle points.
 */
export interface GridWallRing {
  /** Corner points in world coordinates (metres), the solid side on the left of each edge; not repeated at the end. */
  readonly points: [number, number][];
  /** 'blocked': the ring's inside is solid (counter-clockwise). 'walkable': its outside is (clockwise). */
  readonly encloses: 'blocked' | 'walkable';
}

// Directions of a wall edge: 0 east (+x), 1 north (+y), 2 west, 3 south. Turning left is d + 1 (mod 4).
const DX = [1, 0, -1, 0];
const DY = [0, 1, 0, -1];

/**
 * Trace the wall outlines of `grid` (see the module comment). Cells outside the grid count as blocked, so the walls
 * along the grid's border are included. Setup-time code: allocates its result; O(cells + wall edges).
 */
export function gridWallRings(grid: Grid): GridWallRing[] {
  if (grid === null || typeof grid !== 'object' || !(grid.walkable instanceof Uint8Array)) {
    throw new InvalidArgumentError('grid', grid, 'must be a Grid from createGrid');
  }
  const W = grid.width, H = grid.height, walk = grid.walkable;
  const open = (x: number, y: number) => x >= 0 && y >= 0 && x < W && y < H && walk[y * W + x] === 1;
  const P = W + 1; // lattice points per row; point (i, j) has index j·P + i
  // out[4 v + d] = 1 while the wall edge leaving point v in direction d is not yet traced.
  const out = new Uint8Array(4 * P * (H + 1));
  let edges = 0;
  for (let j = 0; j <= H; j++) {
    for (let i = 0; i <= W; i++) {
      const v = j * P + i;
      // east edge (i, j) → (i + 1, j): left is cell (i, j), right is cell (i, j − 1)
      if (i < W && !open(i, j) && open(i, j - 1)) { out[4 * v] = 1; edges++; }
      // west edge (i, j) → (i − 1, j): left is cell (i − 1, j − 1), right is cell (i − 1, j)
      if (i > 0 && !open(i - 1, j - 1) && open(i - 1, j)) { out[4 * v + 2] = 1; edges++; }
      // north edge (i, j) → (i, j + 1): left is cell (i − 1, j), right is cell (i, j)
      if (j < H && !open(i - 1, j) && open(i, j)) { out[4 * v + 1] = 1; edges++; }
      // south edge (i, j) → (i, j − 1): left is cell (i, j − 1), right is cell (i − 1, j − 1)
      if (j > 0 && !open(i, j - 1) && open(i - 1, j - 1)) { out[4 * v + 3] = 1; edges++; }
    }
  }
  const rings: GridWallRing[] = [];
  const seenAt = new Int32Array(P * (H + 1)).fill(-1); // position of a point in the ring being traced, −1 if absent
  const pts: number[] = []; // lattice point indices of the ring being traced
  const dirs: number[] = []; // direction of the edge leaving pts[k]
  for (let start = 0; start < P * (H + 1) && edges > 0; start++) {
    for (let d0 = 0; d0 < 4; d0++) {
      if (out[4 * start + d0] === 0) continue;
      // Walk from `start` along unused edges (the first one d0, then the left turn first at every point) until no
      // edge leaves the current point; whenever the walk reaches a point already on it, the stretch since then is
      // a closed simple ring: emit it and drop it from the walk. Every point has as many wall edges in as out, so
      // the walk can only stop at `start`, with everything emitted.
      let v = start, d = d0;
      pts.length = 0; dirs.length = 0;
      for (;;) {
        const at = seenAt[v];
        if (at >= 0) {
          emitRing(grid, pts.slice(at), dirs.slice(at), P, rings);
          for (let k = at; k < pts.length; k++) seenAt[pts[k]] = -1;
          pts.length = at; dirs.length = at;
        }
        let nd = -1;
        if (pts.length === 0 && v === start && out[4 * v + d0] === 1) nd = d0;
        else {
          for (let t = 0; t < 3; t++) {
            const c = (d + (t === 0 ? 1 : t === 1 ? 0 : 3)) & 3; // left, straight, right (never back)
            if (out[4 * v + c] === 1) { nd = c; break; }
          }
        }
        if (nd < 0) break;
        seenAt[v] = pts.length;
        pts.push(v);
        dirs.push(nd);
        out[4 * v + nd] = 0;
        edges--;
        const i = v % P, j = (v - i) / P;
        v = (j + DY[nd]) * P + i + DX[nd];
        d = nd;
      }
      if (pts.length !== 0) throw new Error('gridWallRings: an open wall chain (internal error)');
    }
  }
  return rings;
}

/** Merge collinear runs of one simple ring (lattice points with their leaving directions) and append it. */
function emitRing(grid: Grid, pts: number[], dirs: number[], P: number, rings: GridWallRing[]): void {
  const n = pts.length;
  const points: [number, number][] = [];
  let area2 = 0;
  for (let k = 0; k < n; k++) {
    // a corner where the direction changes (the edge arriving at pts[k] is dirs[k − 1])
    if (dirs[k] === dirs[(k + n - 1) % n]) continue;
    const v = pts[k], i = v % P, j = (v - i) / P;
    points.push([grid.originX + i * grid.cellSize, grid.originY + j * grid.cellSize]);
  }
  const m = points.length;
  for (let k = 0; k < m; k++) {
    const a = points[k], b = points[(k + 1) % m];
    area2 += a[0] * b[1] - b[0] * a[1];
  }
  rings.push({ points, encloses: area2 > 0 ? 'blocked' : 'walkable' });
}
