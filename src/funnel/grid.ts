/**
 * Portals for a grid cell path, so that `funnel` turns grid A* paths into any-angle paths. Takes plain arrays
 * (cell indices, width, cell size, origin) so it serves any grid representation.
 *
 * Between orthogonal neighbours the portal is their shared edge. Between diagonal neighbours it is their shared
 * corner (a zero-width portal): the funnelled path then passes exactly through that corner, which is safe whatever
 * the two cells beside the diagonal hold (a wider diagonal portal would let the path cut through cells next to the
 * path that may be blocked). Consecutive portals lie on the boundary of the convex cell between them, so each
 * straight leg of the result stays inside the path's cells: it never crosses a blocked cell, and it is never longer
 * than the cell path (each leg is the straight segment between points the cell path also visits in order, or
 * shorter by the triangle inequality).
 */
import { InvalidArgumentError } from '../core/errors';
import { requireFinite, requireInteger, requirePositive } from '../core/validate';

/**
 * Write the portals of a grid path into `out` (4 numbers per portal: left x, y, right x, y as seen walking from
 * start to goal), the start point and goal point as the first and last degenerate portals. `cells[0..count)` are
 * cell indices (index = row·width + column; column i spans [originX + i·cellSize, originX + (i+1)·cellSize], rows
 * likewise along y, y up). Consecutive cells must be 8-neighbours. Returns the portal count (count + 1).
 */
export function gridPathPortals(
  cells: ArrayLike<number>, count: number, width: number, cellSize: number, originX: number, originY: number,
  startX: number, startY: number, goalX: number, goalY: number, out: Float64Array,
): number {
  requireInteger('count', count, 1);
  requireInteger('width', width, 1);
  requirePositive('cellSize', cellSize);
  requireFinite('originX', originX); requireFinite('originY', originY);
  requireFinite('startX', startX); requireFinite('startY', startY); requireFinite('goalX', goalX); requireFinite('goalY', goalY);
  const need = 4 * (count + 1);
  if (out.length < need) throw new InvalidArgumentError('out', out.length, `must hold at least ${need} numbers`);
  out[0] = startX; out[1] = startY; out[2] = startX; out[3] = startY;
  let n = 1;
  for (let i = 0; i + 1 < count; i++) {
    const a = cells[i], b = cells[i + 1];
    const ax = a % width, ay = (a - ax) / width, bx = b % width, by = (b - bx) / width;
    const dx = bx - ax, dy = by - ay;
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0 || dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx === 0 && dy === 0)) {
      throw new InvalidArgumentError(`cells[${i + 1}]`, b, `must be an 8-neighbour of cells[${i}] = ${a}`);
    }
    const x0 = originX + ax * cellSize, y0 = originY + ay * cellSize;
    const x1 = x0 + cellSize, y1 = y0 + cellSize;
    let lx: number, ly: number, rx: number, ry: number;
    if (dx !== 0 && dy !== 0) {
      // Diagonal: the shared corner.
      lx = rx = dx > 0 ? x1 : x0;
      ly = ry = dy > 0 ? y1 : y0;
    } else if (dx === 1) { lx = x1; ly = y1; rx = x1; ry = y0; } // walking +x: left is +y
    else if (dx === -1) { lx = x0; ly = y0; rx = x0; ry = y1; } // walking −x: left is −y
    else if (dy === 1) { lx = x0; ly = y1; rx = x1; ry = y1; } // walking +y: left is −x
    else { lx = x1; ly = y0; rx = x0; ry = y0; } // walking −y: left is +x
    out[4 * n] = lx; out[4 * n + 1] = ly; out[4 * n + 2] = rx; out[4 * n + 3] = ry;
    n++;
  }
  out[4 * n] = goalX; out[4 * n + 1] = goalY; out[4 * n + 2] = goalX; out[4 * n + 3] = goalY;
  return n + 1;
}
