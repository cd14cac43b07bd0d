/**
 * Frame-budget controller for the near radius. The cost of the expensive near tier grows with the number of near
 * agents, which for a roughly uniform crowd grows with the near area, i.e. with r². So if the mean cost over the
 * last window is C against a target T, the radius that would meet the target is about r·√(T/C). We move part of
 * the way there each window (gain < 1 damps oscillation from measurement noise), clamp the per-window change, and
 * clamp r to the user's bounds. A dead band (±tolerance around T) keeps r still when the cost is close enough.
 */
export interface BudgetState {
  /** Target cost per frame, milliseconds. */
  targetMs: number;
  /** Frames per measurement window. @default 10 */
  window: number;
  /** Fraction of the way to the estimated radius moved each window (0..1]. @default 0.7 */
  gain: number;
  /** Relative dead band around the target. @default 0.05 */
  tolerance: number;
  /** Bounds of the near radius, metres. */
  minRadius: number;
  maxRadius: number;
  /** Accumulated cost and frames of the current window. */
  sumMs: number;
  frames: number;
  /** Mean cost of the last complete window (ms), or 0 before the first. */
  lastMeanMs: number;
  /** 'shrinking' | 'growing' | 'steady' after the last window. */
  state: 'shrinking' | 'growing' | 'steady';
}

export function createBudget(targetMs: number, minRadius: number, maxRadius: number): BudgetState {
  return { targetMs, window: 10, gain: 0.7, tolerance: 0.05, minRadius, maxRadius, sumMs: 0, frames: 0, lastMeanMs: 0, state: 'steady' };
}

/**
 * Feed one frame's measured cost; returns the (possibly updated) near radius. Updates only at the end of a window.
 */
export function budgetUpdate(b: BudgetState, costMs: number, radius: number): number {
  b.sumMs += costMs;
  b.frames++;
  if (b.frames < b.window) return radius;
  const mean = b.sumMs / b.frames;
  b.sumMs = 0;
  b.frames = 0;
  b.lastMeanMs = mean;
  if (!(mean > 0)) { b.state = 'steady'; return radius; }
  const ratio = b.targetMs / mean;
  if (ratio > 1 - b.tolerance && ratio < 1 + b.tolerance) { b.state = 'steady'; return radius; }
  // Estimated radius meeting the target, approached with damping; at most ×2 or ×0.5 per window.
  let factor = Math.sqrt(ratio);
  factor = 1 + b.gain * (factor - 1);
  if (factor > 2) factor = 2;
  if (factor < 0.5) factor = 0.5;
  let r = radius * factor;
  if (r < b.minRadius) r = b.minRadius;
  if (r > b.maxRadius) r = b.maxRadius;
  b.state = r < radius ? 'shrinking' : r > radius ? 'growing' : 'steady';
  return r;
}
