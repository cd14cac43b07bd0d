/**
 * Boids (Reynolds, "Flocks, Herds, and Schools: A Distributed Behavioral Model", SIGGRAPH 1987): separation,
 * alignment and cohesion, computed in ONE pass over an agent's neighbour list and summed with per-agent weights.
 *
 *   separation  S = Σ_j (p_i − p_j)/|p_i − p_j|²   (the unit vector away from j divided by the distance: 1/d falloff)
 *   alignment   A = mean_j(v_j) − v_i              (toward the neighbours' mean velocity)
 *   cohesion    C = mean_j(p_j) − p_i              (toward the neighbours' centre)
 *   a_i = wS·S + wA·A + wC·C
 *
 * a_i is a steering acceleration (m/s²) when the weights carry the units wS [m³/s²], wA [1/s], wC [1/s²]; the boids
 * system turns it into a change of preferred velocity (see systems/boids). The neighbour list is whatever the
 * caller's neighbourhood gives: everyone within a radius (metric) or the k nearest (topological, Ballerini et al.
 * 2008, "Interaction ruling animal collective behavior depends on topological rather than metric distance", PNAS).
 *
 * Coincident agents (d = 0) have no direction apart; their separation term uses d² floored at `minDist2` and the
 * direction +x for the lower id, −x for the higher, so the result is deterministic and never NaN.
 */
import type { Vec2Out } from '../steering/behaviours';

/** Squared distance below which separation stops growing (metres²). 1e-6 m² = 1 mm. */
export const BOIDS_MIN_DIST2 = 1e-6;

/**
 * Boids acceleration of agent i from its neighbours nbr[0..count−1] (entity ids into px/py/vx/vy).
 * With no neighbours the result is zero.
 */
export function boidsAcceleration(
  i: number, px: Float64Array, py: Float64Array, vx: Float64Array, vy: Float64Array,
  nbr: Int32Array, count: number, wSep: number, wAli: number, wCoh: number, out: Vec2Out,
): void {
  _wSep[0] = wSep;
  _wAli[0] = wAli;
  _wCoh[0] = wCoh;
  boidsAccelerationAt(i, px, py, vx, vy, nbr, count, _wSep, _wAli, _wCoh, 0, _accX, _accY, 0);
  out.x = _accX[0];
  out.y = _accY[0];
}

const _minDist2 = new Float64Array([BOIDS_MIN_DIST2]);
const _wSep = new Float64Array(1);
const _wAli = new Float64Array(1);
const _wCoh = new Float64Array(1);
const _accX = new Float64Array(1);
const _accY = new Float64Array(1);

/**
 * boidsAcceleration with the weights read from wSep/wAli/wCoh[w] and the result written to outX/outY[o]: the
 * allocation-free form the boids system calls. V8 passes arguments tagged, so fractional doubles handed to a call
 * it does not inline are boxed into fresh HeapNumbers, and an `{x, y}` out-object whose field representation was
 * generalised by another use of the same shape boxes every double stored into it; arrays avoid both.
 */
export function boidsAccelerationAt(
  i: number, px: Float64Array, py: Float64Array, vx: Float64Array, vy: Float64Array, nbr: Int32Array, count: number,
  wSepA: Float64Array, wAliA: Float64Array, wCohA: Float64Array, w: number, outX: Float64Array, outY: Float64Array, o: number,
): void {
  if (count === 0) { outX[o] = 0; outY[o] = 0; return; }
  const wSep = wSepA[w], wAli = wAliA[w], wCoh = wCohA[w];
  const xi = px[i], yi = py[i];
  // Read through a Float64Array: a module-level constant is a mutable context slot in bundled output, loaded as a
  // tagged value, and a variable that merges it with a computed double is kept boxed (a HeapNumber per neighbour).
  const minD2 = _minDist2[0];
  let sx = 0, sy = 0, mvx = 0, mvy = 0, mpx = 0, mpy = 0;
  for (let n = 0; n < count; n++) {
    const j = nbr[n];
    const dx = xi - px[j], dy = yi - py[j];
    const d2 = dx * dx + dy * dy;
    if (d2 > 0) {
      // (d/|d|)/|d| = d/|d|², with |d|² floored at minD2.
      const q = d2 < minD2 ? minD2 : d2;
      sx += dx / q; sy += dy / q;
    } else {
      sx += (i < j ? 1 : -1) / Math.sqrt(minD2);
    }
    mvx += vx[j]; mvy += vy[j];
    // Cohesion accumulates offsets relative to p_i (not absolute positions): same result, no cancellation error far
    // from the origin.
    mpx -= dx; mpy -= dy;
  }
  const inv = 1 / count;
  outX[o] = wSep * sx + wAli * (mvx * inv - vx[i]) + wCoh * mpx * inv;
  outY[o] = wSep * sy + wAli * (mvy * inv - vy[i]) + wCoh * mpy * inv;
}

/**
 * Metric neighbourhood by brute force: every other agent within radius r, in ascending id order. O(n) per agent —
 * for tests, tiny groups, and as the reference the spatial-hash queries are checked against.
 * @returns the number of neighbours written to out.
 */
export function bruteForceRadius(i: number, ids: Int32Array, n: number, px: Float64Array, py: Float64Array, r: number, out: Int32Array): number {
  const xi = px[i], yi = py[i], r2 = r * r;
  let c = 0;
  for (let a = 0; a < n; a++) {
    const j = ids[a];
    if (j === i) continue;
    const dx = px[j] - xi, dy = py[j] - yi;
    if (dx * dx + dy * dy <= r2 && c < out.length) out[c++] = j;
  }
  return c;
}

/**
 * Topological neighbourhood by brute force: the k nearest other agents (within maxRadius), sorted by distance, ties
 * by lower id; bounded insertion sort (as RVO2's insertAgentNeighbor). O(n·k) per agent — reference and small groups.
 * @param outDist2 scratch/output of squared distances, length ≥ k.
 * @returns the number of neighbours written (≤ k).
 */
export function bruteForceKNearest(
  i: number, ids: Int32Array, n: number, px: Float64Array, py: Float64Array, k: number, maxRadius: number,
  out: Int32Array, outDist2: Float64Array,
): number {
  const xi = px[i], yi = py[i];
  let c = 0;
  let limit = maxRadius * maxRadius;
  for (let a = 0; a < n; a++) {
    const j = ids[a];
    if (j === i) continue;
    const dx = px[j] - xi, dy = py[j] - yi;
    const d2 = dx * dx + dy * dy;
    if (d2 > limit) continue;
    // Insert (j, d2) keeping ascending order; drop the farthest when full.
    let pos = c < k ? c : k - 1;
    if (c === k && !(d2 < outDist2[k - 1] || (d2 === outDist2[k - 1] && j < out[k - 1]))) continue;
    while (pos > 0 && (outDist2[pos - 1] > d2 || (outDist2[pos - 1] === d2 && out[pos - 1] > j))) {
      out[pos] = out[pos - 1]; outDist2[pos] = outDist2[pos - 1];
      pos--;
    }
    out[pos] = j; outDist2[pos] = d2;
    if (c < k) c++;
    if (c === k) limit = outDist2[k - 1];
  }
  return c;
}
