/**
 * String pulling over a list of portals: Mikko Mononen's "simple stupid funnel algorithm" (2010), extended with an
 * agent radius in the manner of Demyen & Buro's modified funnel ("Efficient triangulation-based pathfinding",
 * AAAI 2006): every portal endpoint is a disc of radius r that the path must pass on the inside of, so the funnel's
 * sides are tangent lines between discs instead of rays between points.
 *
 * Portals are given left/right as seen by someone walking from start to goal; the first and last portals are the
 * start and goal, degenerate (left = right). The funnel keeps an apex and the tightest left and right directions
 * seen so far. Each new portal endpoint narrows its side if it lies inside the funnel; if it crosses the other side,
 * that other side's endpoint is a corner of the path: it becomes the new apex and the scan restarts from the portal
 * after it (the "restart" that keeps the algorithm simple at O(n²) worst case, O(n) in practice).
 *
 * Tangent directions. Let the apex disc have centre A and offset side sA, the candidate disc centre V and side sV
 * (a left endpoint is passed on its right: s = −1; a right endpoint on its left: s = +1; the start and goal are
 * points: s = 0). A line with unit direction d touches both discs, at A + sA·r·n(d) and V + sV·r·n(d) where
 * n(d) = (−dy, dx) is d's left normal, iff (V − A) + (sV − sA)·r·n(d) is parallel to d, i.e.
 *   cross(d, V − A) = (sA − sV)·r   ⇔   sin β = (sA − sV)·r / |V − A|,
 * with β the angle from d to V − A. So d is V − A rotated by −β: no trigonometry, one square root.
 * If |V − A| < |sA − sV|·r the discs overlap (the corridor is narrower than 2r there) and we clamp sin β to ±1.
 *
 * Output. At r = 0 the corners are the portal endpoints themselves. At r > 0 the path wraps each corner disc: the
 * incoming and outgoing legs are the common tangents, and the arc between them is replaced by a polygon
 * *circumscribed* about it (vertices at r / cos(α/2) for arc pieces of α ≤ 60°), so the polyline stays at least r
 * from every corner vertex. Straight legs never come closer than r to any portal endpoint that did not become a
 * corner (it would have become one). Distance to walls between portal endpoints is the mesh's business (navmeshes
 * inflate obstacles by the radius; see docs/NAVMESH.md).
 */
import { requireInteger, requireNonNegative } from '../core/validate';
import { InvalidArgumentError } from '../core/errors';
import { datan2Arr, dsincosArr } from '../core/dmath';

// Module-scope scratch (the funnel allocates nothing per call). Corner arguments go through _c rather than as
// call arguments: passing the loop's double state to a non-inlined call made V8 keep it boxed (tagged phis), which
// allocated ~1 KB per call in funnelSystem (2026-11-29, found with the sampling heap profiler).
const _c = new Float64Array(7); // corner x, y, side, incoming dx, dy, outgoing dx, dy
/** The clearance radius of the current funnel call, for emitCorner. */
const _r = new Float64Array(1);
let _outN = 0;
let _outCap = 0;
let _overflow = false;

/** Emit the point (_c[0], _c[1]). */
function emitPoint(out: Float64Array): void {
  emit(out, _c[0], _c[1]);
}

function emit(out: Float64Array, x: number, y: number): void {
  if (_outN >= _outCap) { _overflow = true; return; }
  // Skip exact repeats (a corner equal to the previous point adds nothing).
  if (_outN > 0 && out[2 * _outN - 2] === x && out[2 * _outN - 1] === y) return;
  out[2 * _outN] = x;
  out[2 * _outN + 1] = y;
  _outN++;
}

/**
 * Emit the points that wrap corner (vx, vy) with side s, arriving along (ix, iy) and leaving along (ox, oy).
 * With the arc from normal n_in = s·n(d_in) to n_out = s·n(d_out) split into m pieces of angle α, the points at
 * angles n_in + (j + ½)α and distance r / cos(α/2) are the vertices of the circumscribed polygon; the incoming
 * tangent line passes through the first and the outgoing one through the last.
 */
function emitCorner(out: Float64Array): void {
  const vx = _c[0], vy = _c[1], s = _c[2], ix = _c[3], iy = _c[4], ox = _c[5], oy = _c[6], r = _r[0];
  if (r === 0 || s === 0) { emitPoint(out); return; }
  // The array forms of the deterministic trigonometry (dmath): a double passed to or returned from a call V8 does
  // not inline is boxed, once per corner (found by the allocation test once smoothed grid paths used r > 0).
  const T = _trig;
  T[0] = s * ix; T[1] = -s * iy; datan2Arr(T, 0, T, 2);
  T[0] = s * ox; T[1] = -s * oy; datan2Arr(T, 0, T, 3);
  const a0 = T[2]; // angle of n_in = s·(−iy, ix)
  const a1 = T[3];
  let th = a1 - a0;
  if (th > Math.PI) th -= 2 * Math.PI;
  else if (th <= -Math.PI) th += 2 * Math.PI;
  // Around a left endpoint (s = −1) a taut path turns counter-clockwise (th ≥ 0), around a right one clockwise;
  // a tiny opposite turn can only come from round-off: clamp it to no turn.
  if (s < 0 ? th < 0 : th > 0) th = 0;
  const PI = Math.PI;
  const m = Math.max(1, Math.ceil(Math.abs(th) / (PI / 3)));
  const alpha = th / m;
  T[4] = alpha / 2; dsincosArr(T, 4, T, 5);
  const dist = r / T[6];
  for (let j = 0; j < m; j++) {
    T[4] = a0 + (j + 0.5) * alpha; dsincosArr(T, 4, T, 5); // T[5] = sin, T[6] = cos
    // through _c (x, y in its first two slots) rather than as double arguments, which would be boxed
    _c[0] = vx + dist * T[6]; _c[1] = vy + dist * T[5];
    emitPoint(out);
  }
}
/** emitCorner's trigonometry scratch: atan2 arguments and results, an angle, its sine and cosine. */
const _trig = new Float64Array(7);

/**
 * String-pull a path through `count` portals. `portals` holds 4 numbers per portal: left x, left y, right x,
 * right y (left/right as seen walking towards the goal); portal 0 is the start (left = right) and portal
 * count − 1 the goal (left = right). `radius` (metres, ≥ 0, default 0) is the clearance kept around corner
 * vertices. Writes x, y pairs into `out` (caller-owned); returns the number of points written, start and goal
 * included, or −1 if `out` is too small (grow it and call again). `stopAfter` (≥ 2, default Infinity) ends the
 * scan as soon as that many points are known (start and the next corners): a path follower needs only the next
 * corner or two, and the scan then costs O(portals up to those corners) instead of O(corridor). The last point of
 * a truncated result is the corner itself (r = 0) or where the path reaches its disc (r > 0).
 */
export function funnel(portals: ArrayLike<number>, count: number, radius: number, out: Float64Array, stopAfter = Infinity): number {
  requireInteger('count', count, 1);
  requireNonNegative('radius', radius);
  if (stopAfter !== Infinity) requireInteger('stopAfter', stopAfter, 2);
  if (portals.length < 4 * count) throw new InvalidArgumentError('portals', portals.length, `must hold 4·count = ${4 * count} numbers`);
  _r[0] = radius; // read by emitCorner (a double passed to it would be boxed)
  _outN = 0;
  _outCap = out.length >> 1;
  _overflow = false;
  const P = portals;
  const r = radius;
  // Apex state: point, side, portal index, and the direction we arrived along (to wrap it on leaving).
  let apexX = P[0], apexY = P[1], apexS = 0, apexI = 0;
  let inX = 0, inY = 0;
  _c[0] = apexX; _c[1] = apexY;
  emitPoint(out);
  if (count === 1) return _overflow ? -1 : _outN;
  const last = count - 1;
  // Funnel sides: portal index, disc centre and side, tangent direction; "atApex" when the side is degenerate.
  let leftI = 0, leftX = apexX, leftY = apexY, leftS = 0, leftDx = 0, leftDy = 0, leftAtApex = true;
  let rightI = 0, rightX = apexX, rightY = apexY, rightS = 0, rightDx = 0, rightDy = 0, rightAtApex = true;

  for (let i = 1; i < count; i++) {
    const lx = P[4 * i], ly = P[4 * i + 1], rx = P[4 * i + 2], ry = P[4 * i + 3];
    const ls = i === last ? 0 : -1, rs = i === last ? 0 : 1;

    // --- Right side. ---
    if (rx === apexX && ry === apexY) {
      // The apex vertex itself (a fan of portals around it): the side stays degenerate.
      rightI = i; rightAtApex = true;
    } else {
      // Tangent direction from the apex disc to this endpoint's disc (the rotation by −β of the header), inlined
      // so that the loop's double state never crosses a call. At r = 0 the raw difference serves: only the signs
      // of cross products are used.
      let dx = rx - apexX, dy = ry - apexY;
      if (r > 0) {
        const len = Math.sqrt(dx * dx + dy * dy);
        dx /= len; dy /= len;
        let sn = ((apexS - rs) * r) / len;
        if (sn > 1) sn = 1; else if (sn < -1) sn = -1;
        if (sn !== 0) { const cs = Math.sqrt(1 - sn * sn); const tx = dx * cs + dy * sn; dy = -dx * sn + dy * cs; dx = tx; }
      }
      if (rightAtApex || rightDx * dy - rightDy * dx >= 0) { // inside or on the right side: narrows the funnel
        // On the left side's ray itself (same direction) the funnel closes to a line but is not crossed: the path
        // can still run along it, so no corner yet (Detour's findStraightPath emits one there: recastnavigation#515).
        const cl = leftDx * dy - leftDy * dx;
        if (leftAtApex || cl < 0 || (cl === 0 && leftDx * dx + leftDy * dy > 0)) {
          rightI = i; rightX = rx; rightY = ry; rightS = rs; rightDx = dx; rightDy = dy; rightAtApex = false;
        } else {
          // Crossed the left side: the left endpoint is a corner. Wrap the old apex, move the apex, restart.
          if (apexI > 0) { _c[0] = apexX; _c[1] = apexY; _c[2] = apexS; _c[3] = inX; _c[4] = inY; _c[5] = leftDx; _c[6] = leftDy; emitCorner(out); }
          inX = leftDx; inY = leftDy;
          apexX = leftX; apexY = leftY; apexS = leftS; apexI = leftI;
          if (_outN + 1 >= stopAfter) {
            _c[0] = apexX; _c[1] = apexY; _c[2] = apexS; _c[3] = inX; _c[4] = inY; _c[5] = inX; _c[6] = inY;
            emitCorner(out);
            return _overflow ? -1 : _outN;
          }
          leftAtApex = rightAtApex = true; leftI = rightI = apexI;
          leftX = rightX = apexX; leftY = rightY = apexY;
          i = apexI;
          continue;
        }
      }
    }

    // --- Left side (mirror image). ---
    if (lx === apexX && ly === apexY) {
      leftI = i; leftAtApex = true;
    } else {
      let dx = lx - apexX, dy = ly - apexY;
      if (r > 0) {
        const len = Math.sqrt(dx * dx + dy * dy);
        dx /= len; dy /= len;
        let sn = ((apexS - ls) * r) / len;
        if (sn > 1) sn = 1; else if (sn < -1) sn = -1;
        if (sn !== 0) { const cs = Math.sqrt(1 - sn * sn); const tx = dx * cs + dy * sn; dy = -dx * sn + dy * cs; dx = tx; }
      }
      if (leftAtApex || leftDx * dy - leftDy * dx <= 0) {
        const cr = rightDx * dy - rightDy * dx;
        if (rightAtApex || cr > 0 || (cr === 0 && rightDx * dx + rightDy * dy > 0)) {
          leftI = i; leftX = lx; leftY = ly; leftS = ls; leftDx = dx; leftDy = dy; leftAtApex = false;
        } else {
          if (apexI > 0) { _c[0] = apexX; _c[1] = apexY; _c[2] = apexS; _c[3] = inX; _c[4] = inY; _c[5] = rightDx; _c[6] = rightDy; emitCorner(out); }
          inX = rightDx; inY = rightDy;
          apexX = rightX; apexY = rightY; apexS = rightS; apexI = rightI;
          if (_outN + 1 >= stopAfter) {
            _c[0] = apexX; _c[1] = apexY; _c[2] = apexS; _c[3] = inX; _c[4] = inY; _c[5] = inX; _c[6] = inY;
            emitCorner(out);
            return _overflow ? -1 : _outN;
          }
          leftAtApex = rightAtApex = true; leftI = rightI = apexI;
          leftX = rightX = apexX; leftY = rightY = apexY;
          i = apexI;
          continue;
        }
      }
    }
  }
  // Final leg: from the apex to the goal (the tangent direction inlined, as in the loop).
  const gx = P[4 * last], gy = P[4 * last + 1];
  if (apexI > 0) {
    let dx = gx - apexX, dy = gy - apexY;
    const len = Math.sqrt(dx * dx + dy * dy);
    if (len > 0) {
      dx /= len; dy /= len;
      let sn = (apexS * r) / len;
      if (sn > 1) sn = 1; else if (sn < -1) sn = -1;
      if (sn !== 0) { const cs = Math.sqrt(1 - sn * sn); const tx = dx * cs + dy * sn; dy = -dx * sn + dy * cs; dx = tx; }
    }
    _c[0] = apexX; _c[1] = apexY; _c[2] = apexS; _c[3] = inX; _c[4] = inY; _c[5] = dx; _c[6] = dy;
    if (len > 0) emitCorner(out); else emitPoint(out);
  }
  _c[0] = gx; _c[1] = gy;
  emitPoint(out);
  return _overflow ? -1 : _outN;
}

/** Length of a polyline given as x, y pairs (metres). */
export function polylineLength(points: ArrayLike<number>, count: number): number {
  let s = 0;
  for (let i = 1; i < count; i++) {
    const dx = points[2 * i] - points[2 * i - 2], dy = points[2 * i + 1] - points[2 * i - 1];
    s += Math.sqrt(dx * dx + dy * dy);
  }
  return s;
}
