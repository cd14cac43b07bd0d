/**
 * Slot assignment: match n members to n slots minimising the total travel Σ |member_i − slot_σ(i)| (Euclidean).
 *
 * - n ≤ HUNGARIAN_MAX (32): optimal, by the Hungarian method (Kuhn 1955; Munkres 1957) in its O(n³)
 *   shortest-augmenting-path form with row/column potentials u, v: rows (members) are added one at a time, and a
 *   Dijkstra-like sweep over reduced costs c(i, j) − u(i) − v(j) ≥ 0 finds the cheapest augmenting path to a free
 *   column; potentials are updated by the sweep's minimum so reduced costs stay non-negative. At most 32³ ≈ 33k
 *   inner steps: well under a millisecond.
 * - n > HUNGARIAN_MAX: greedy, O(n² log n): all (member, slot) pairs sorted by distance, taken in order when both are
 *   free. Not optimal (it can be worse by a constant factor in adversarial layouts) but never crosses two paths
 *   needlessly in the common case where members are already roughly in shape.
 *
 * Assignment runs when the membership or shape changes, not every frame. Ties are broken by index so the result is
 * deterministic.
 */
import { InvalidArgumentError } from '../core/errors';

/** Largest group solved optimally; larger groups use the greedy assignment. */
export const HUNGARIAN_MAX = 32;

function requireFiniteCoords(mx: ArrayLike<number>, my: ArrayLike<number>, sx: ArrayLike<number>, sy: ArrayLike<number>, n: number): void {
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(mx[i])) throw new InvalidArgumentError(`mx[${i}]`, mx[i], 'must be a finite number');
    if (!Number.isFinite(my[i])) throw new InvalidArgumentError(`my[${i}]`, my[i], 'must be a finite number');
    if (!Number.isFinite(sx[i])) throw new InvalidArgumentError(`sx[${i}]`, sx[i], 'must be a finite number');
    if (!Number.isFinite(sy[i])) throw new InvalidArgumentError(`sy[${i}]`, sy[i], 'must be a finite number');
  }
}

// Scratch for the Hungarian method, 1-based as in the classic formulation (row/column 0 is the virtual start).
const _hN = HUNGARIAN_MAX + 1;
const _hCost = new Float64Array(_hN * _hN);
const _hU = new Float64Array(_hN);
const _hV = new Float64Array(_hN);
const _hP = new Int32Array(_hN); // _hP[j] = row matched to column j (0 = none)
const _hWay = new Int32Array(_hN);
const _hMinV = new Float64Array(_hN);
const _hUsed = new Uint8Array(_hN);

/**
 * Optimal assignment by the Hungarian method. Members (mx[i], my[i]) and slots (sx[j], sy[j]), i, j < n ≤ 32.
 * Writes out[i] = slot of member i.
 * @returns the total travel distance of the assignment, metres.
 */
export function assignSlotsOptimal(mx: ArrayLike<number>, my: ArrayLike<number>, sx: ArrayLike<number>, sy: ArrayLike<number>, n: number, out: Int32Array): number {
  if (n > HUNGARIAN_MAX) throw new InvalidArgumentError('n', n, `optimal assignment supports at most ${HUNGARIAN_MAX} members`);
  // A non-finite coordinate makes every reduced cost NaN: the search below would never find a column (delta stays
  // Infinity) and loop forever, so refuse it here (found by test/reliability bad-input probing, 2026-11-29).
  requireFiniteCoords(mx, my, sx, sy, n);
  const C = _hCost, u = _hU, v = _hV, p = _hP, way = _hWay, minv = _hMinV, used = _hUsed;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= n; j++) {
      const dx = mx[i - 1] - sx[j - 1], dy = my[i - 1] - sy[j - 1];
      C[i * _hN + j] = Math.sqrt(dx * dx + dy * dy);
    }
  }
  for (let j = 0; j <= n; j++) { u[j] = 0; v[j] = 0; p[j] = 0; way[j] = 0; }
  for (let i = 1; i <= n; i++) {
    // Add row i: start from the virtual column 0 holding row i and grow a shortest-path tree over columns.
    p[0] = i;
    let j0 = 0;
    for (let j = 0; j <= n; j++) { minv[j] = Infinity; used[j] = 0; }
    do {
      used[j0] = 1;
      const i0 = p[j0];
      let delta = Infinity, j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = C[i0 * _hN + j] - u[i0] - v[j];
        if (cur < minv[j]) { minv[j] = cur; way[j] = j0; }
        if (minv[j] < delta) { delta = minv[j]; j1 = j; }
      }
      // Shift potentials by delta: tree columns/rows keep zero reduced cost on tree edges.
      for (let j = 0; j <= n; j++) {
        if (used[j]) { u[p[j]] += delta; v[j] -= delta; } else minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    // Augment along the path back to column 0.
    do {
      const j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0 !== 0);
  }
  let total = 0;
  for (let j = 1; j <= n; j++) {
    out[p[j] - 1] = j - 1;
    total += C[p[j] * _hN + j];
  }
  return total;
}

// Greedy scratch, grown on demand (assignment is not a per-frame call).
let _gD = new Float64Array(0);
let _gOrder = new Int32Array(0);
let _gTaken = new Uint8Array(0);

/**
 * Greedy assignment: repeatedly take the closest free (member, slot) pair. Any n. Writes out[i] = slot of member i.
 * @returns the total travel distance, metres.
 */
export function assignSlotsGreedy(mx: ArrayLike<number>, my: ArrayLike<number>, sx: ArrayLike<number>, sy: ArrayLike<number>, n: number, out: Int32Array): number {
  requireFiniteCoords(mx, my, sx, sy, n);
  const nn = n * n;
  if (_gD.length < nn) { _gD = new Float64Array(nn); _gOrder = new Int32Array(nn); }
  if (_gTaken.length < 2 * n) _gTaken = new Uint8Array(2 * n);
  const D = _gD, order = _gOrder, taken = _gTaken;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const dx = mx[i] - sx[j], dy = my[i] - sy[j];
      D[i * n + j] = Math.sqrt(dx * dx + dy * dy);
      order[i * n + j] = i * n + j;
    }
  }
  const ord = order.subarray(0, nn);
  // Typed-array sort with a comparator: stable tie-break by pair index keeps it deterministic.
  ord.sort((a, b) => (D[a] - D[b]) || (a - b));
  taken.fill(0, 0, 2 * n);
  let left = n, total = 0;
  for (let k = 0; k < nn && left > 0; k++) {
    const e = ord[k];
    const i = (e / n) | 0, j = e - i * n;
    if (taken[i] || taken[n + j]) continue;
    taken[i] = 1; taken[n + j] = 1;
    out[i] = j;
    total += D[e];
    left--;
  }
  return total;
}

/**
 * Assign members to slots minimising total travel: optimal (Hungarian) for n ≤ HUNGARIAN_MAX, greedy above.
 * @returns the total travel distance, metres.
 */
export function assignSlots(mx: ArrayLike<number>, my: ArrayLike<number>, sx: ArrayLike<number>, sy: ArrayLike<number>, n: number, out: Int32Array): number {
  if (out.length < n) throw new InvalidArgumentError('out', out, `needs length ≥ ${n}`);
  return n <= HUNGARIAN_MAX ? assignSlotsOptimal(mx, my, sx, sy, n, out) : assignSlotsGreedy(mx, my, sx, sy, n, out);
}
