/**
 * Portals for a grid cell path, so that `funnel` turns grid A* paths into any-angle paths. Takes plain arrays
 * (cell indices, width, cell size, origin) so it serves any grid representation.
 *
 * Between orthogonal neighbours the portal is their shared edge. Between diagonal neighbours it is their shared
 * corner (a zero-width portal): the funnelled path then passes exactly through that corner, which is safe whatever
 * the two cells beside the diagonal hold (a wider diagonal portal would let the path cut through cells next to the
 * path that may be blocked). Given the grid's walkable flags, a diagonal step is instead routed through a free side
 * cell, so the path need not touch the corner. Consecutive portals lie on the boundary of the convex cell between them, so each
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
 * likewise along y, y up). Consecutive cells must be 8-neighbours. Returns the portal count.
 *
 * Optional `walkable` (per cell, nonzero = free; same indexing): a diagonal step is then routed through a free one
 * of the two cells beside it (the one nearer the start–goal line), which turns its zero-width corner portal into two
 * full edges and lets the path leave the corner. The path can only get shorter (the new corridor contains the old
 * path) and still crosses only path cells and those free cells. `out` must then hold 4·2·count numbers.
 */
export function gridPathPortals(
  cells: ArrayLike<number>, count: number, width: number, cellSize: number, originX: number, originY: number,
  startX: number, startY: number, goalX: number, goalY: number, out: Float64Array, walkable?: ArrayLike<number>,
): number {
  requireInteger('count', count, 1);
  requireInteger('width', width, 1);
  requirePositive('cellSize', cellSize);
  requireFinite('originX', originX); requireFinite('originY', originY);
  requireFinite('startX', startX); requireFinite('startY', startY); requireFinite('goalX', goalX); requireFinite('goalY', goalY);
  const need = walkable === undefined ? 4 * (count + 1) : 8 * count;
  if (out.length < need) throw new InvalidArgumentError('out', out.length, `must hold at least ${need} numbers`);
  _geo[0] = cellSize; _geo[1] = originX; _geo[2] = originY; _geo[3] = startX; _geo[4] = startY; _geo[5] = goalX; _geo[6] = goalY;
  return gridPathPortalsAt(cells, count, width, _geo, out, walkable);
}

const _geo = new Float64Array(7);

/**
 * gridPathPortals with the geometry read from geo = [cellSize, originX, originY, startX, startY, goalX, goalY],
 * unchecked (the caller guarantees valid arguments and room in `out`): the per-frame form (the grid navigation
 * system), so no double crosses a call (V8 boxes doubles passed to calls it does not inline).
 * @internal not part of the public API (not exported from src/index.ts)
 */
export function gridPathPortalsAt(
  cells: ArrayLike<number>, count: number, width: number, geo: Float64Array, out: Float64Array, walkable?: ArrayLike<number>,
): number {
  const cellSize = geo[0], originX = geo[1], originY = geo[2], startX = geo[3], startY = geo[4], goalX = geo[5], goalY = geo[6];
  out[0] = startX; out[1] = startY; out[2] = startX; out[3] = startY;
  let n = 1;
  // Start–goal line, for choosing the side cell of a diagonal step.
  const lx0 = startX, ly0 = startY, ldx = goalX - startX, ldy = goalY - startY;
  for (let i = 0; i + 1 < count; i++) {
    const a = cells[i], b = cells[i + 1];
    const ax = a % width, ay = (a - ax) / width, bx = b % width, by = (b - bx) / width;
    const dx = bx - ax, dy = by - ay;
    if (!Number.isInteger(a) || !Number.isInteger(b) || a < 0 || b < 0 || dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx === 0 && dy === 0)) {
      throw new InvalidArgumentError(`cells[${i + 1}]`, b, `must be an 8-neighbour of cells[${i}] = ${a}`);
    }
    if (dx !== 0 && dy !== 0) {
      if (walkable !== undefined) {
        // Route through a free side cell: B beside along x, C beside along y.
        const B = ay * width + ax + dx, C = (ay + dy) * width + ax;
        const freeB = walkable[B] !== 0 && walkable[B] !== undefined, freeC = walkable[C] !== 0 && walkable[C] !== undefined;
        let viaB = freeB;
        if (freeB && freeC) {
          // Nearer the start–goal line (|cross| of centre offsets; ties to B).
          const cbx = originX + (ax + dx + 0.5) * cellSize - lx0, cby = originY + (ay + 0.5) * cellSize - ly0;
          const ccx = originX + (ax + 0.5) * cellSize - lx0, ccy = originY + (ay + dy + 0.5) * cellSize - ly0;
          viaB = Math.abs(ldx * cby - ldy * cbx) <= Math.abs(ldx * ccy - ldy * ccx);
        }
        if (freeB || freeC) {
          // Two orthogonal steps: a → side cell → b.
          if (viaB) { n = orthogonalPortal(out, n, ax, ay, dx, 0, geo); n = orthogonalPortal(out, n, ax + dx, ay, 0, dy, geo); }
          else { n = orthogonalPortal(out, n, ax, ay, 0, dy, geo); n = orthogonalPortal(out, n, ax, ay + dy, dx, 0, geo); }
          continue;
        }
      }
      // Diagonal: the shared corner.
      const cx = originX + (dx > 0 ? ax + 1 : ax) * cellSize, cy = originY + (dy > 0 ? ay + 1 : ay) * cellSize;
      out[4 * n] = cx; out[4 * n + 1] = cy; out[4 * n + 2] = cx; out[4 * n + 3] = cy;
      n++;
    } else {
      n = orthogonalPortal(out, n, ax, ay, dx, dy, geo);
    }
  }
  out[4 * n] = goalX; out[4 * n + 1] = goalY; out[4 * n + 2] = goalX; out[4 * n + 3] = goalY;
  return n + 1;
}

/** The shared edge leaving cell (cx, cy) by the orthogonal step (dx, dy), as portal n; returns n + 1 (geo as above). */
function orthogonalPortal(out: Float64Array, n: number, cx: number, cy: number, dx: number, dy: number, geo: Float64Array): number {
  const cs = geo[0], x0 = geo[1] + cx * cs, y0 = geo[2] + cy * cs, x1 = x0 + cs, y1 = y0 + cs;
  let lx: number, ly: number, rx: number, ry: number;
  if (dx === 1) { lx = x1; ly = y1; rx = x1; ry = y0; } // walking +x: left is +y
  else if (dx === -1) { lx = x0; ly = y0; rx = x0; ry = y1; } // walking −x: left is −y
  else if (dy === 1) { lx = x0; ly = y1; rx = x1; ry = y1; } // walking +y: left is −x
  else { lx = x1; ly = y0; rx = x0; ry = y0; } // walking −y: left is +x
  out[4 * n] = lx; out[4 * n + 1] = ly; out[4 * n + 2] = rx; out[4 * n + 3] = ry;
  return n + 1;
}
