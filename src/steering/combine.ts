/**
 * Combining behaviours: a weighted, prioritised, truncated running sum (Reynolds 1999, section "Combining
 * Behaviors"; Buckland, "Programming Game AI by Example", 2005, ch. 3 — the idea, in our own formulation).
 *
 * Behaviours are added in priority order (obstacle avoidance first, then separation, then seek, then wander...).
 * Each contribution is scaled by its weight; the running sum may not exceed `budget` (the agent's max speed, since
 * our behaviours produce desired velocities). A contribution that fits is added whole; one that does not is
 * truncated so the sum lands exactly on the budget, and lower priorities then get nothing. This way a strong
 * high-priority behaviour (a wall dead ahead) is never diluted by a weak low-priority one (wander), which a plain
 * weighted average would do.
 *
 * Overrides (a panicking agent's flee) are not summed at all: the caller writes the override into `acc` and skips the
 * accumulation (see systems/steering).
 */
import type { Vec2Out } from './behaviours';

/**
 * Add weight·(x, y) to `acc`, truncated so that |acc| ≤ budget.
 * If |acc + f| ≤ budget the whole contribution f is added. Otherwise only the fraction s ∈ [0, 1) of it that lands the
 * sum exactly on the budget circle: |a + s·f|² = B² is the quadratic |f|²s² + 2(a·f)s + |a|² − B² = 0, whose larger
 * root s = (−a·f + √((a·f)² − |f|²(|a|² − B²)))/|f|² is non-negative because |a| ≤ B. The sum is then exactly full.
 * (Buckland's variant subtracts magnitudes, B − |a|, which leaves the sum short of the budget when the directions
 * differ, so a low-priority behaviour still leaks in; solving for the circle avoids that.)
 * @returns true while budget remains for lower-priority behaviours, false once it is used up.
 */
export function accumulateTruncated(acc: Vec2Out, x: number, y: number, weight: number, budget: number): boolean {
  const a = _accIn;
  a[0] = acc.x; a[1] = acc.y; a[2] = x; a[3] = y; a[4] = weight; a[5] = budget;
  const room = accumulateTruncatedArr(a, 0, a, 2, a, 4);
  acc.x = a[0]; acc.y = a[1];
  return room;
}

const _accIn = new Float64Array(6);

/**
 * accumulateTruncated in array form (no double crosses the call, so nothing is boxed when V8 does not inline it):
 * the running sum is acc[ai], acc[ai + 1] (updated in place), the contribution f[fi], f[fi + 1], and
 * wb[wi] = weight, wb[wi + 1] = budget. Same arithmetic as accumulateTruncated.
 */
export function accumulateTruncatedArr(acc: Float64Array, ai: number, f: Float64Array, fi: number, wb: Float64Array, wi: number): boolean {
  const ax = acc[ai], ay = acc[ai + 1];
  const x = f[fi], y = f[fi + 1], weight = wb[wi], budget = wb[wi + 1];
  const aa = ax * ax + ay * ay;
  const bb = budget * budget;
  if (aa >= bb) return false;
  const fx = x * weight, fy = y * weight;
  const nx = ax + fx, ny = ay + fy;
  const nn = nx * nx + ny * ny;
  if (nn < bb) { acc[ai] = nx; acc[ai + 1] = ny; return true; }
  if (nn === bb) { acc[ai] = nx; acc[ai + 1] = ny; return false; }
  const ff = fx * fx + fy * fy;
  const af = ax * fx + ay * fy;
  const s = (-af + Math.sqrt(af * af - ff * (aa - bb))) / ff;
  acc[ai] = ax + fx * s; acc[ai + 1] = ay + fy * s;
  return false;
}

/** Clamp a vector to a maximum length in place. */
export function clampLength(v: Vec2Out, max: number): void {
  const m2 = v.x * v.x + v.y * v.y;
  if (m2 > max * max) {
    const s = max / Math.sqrt(m2);
    v.x *= s; v.y *= s;
  }
}
