/**
 * The low-dimensional linear programs ORCA solves for every agent (van den Berg, Guy, Lin, Manocha, "Reciprocal
 * n-body collision avoidance", ISRR 2011, section 5.2 and 5.3).
 *
 * A constraint is a directed line (point p, unit direction d). The permitted half-plane lies to the LEFT of the
 * direction: velocity v satisfies the line when det(d, p - v) <= 0, i.e. the cross product of d with (v - p) is
 * non-negative. The speed limit is the disc |v| <= R.
 *
 * Lines live in one flat Float64Array with stride 4: [px, py, dx, dy, px, py, dx, dy, ...]. Results are written to
 * a caller-owned Float64Array(2). Nothing here allocates.
 *
 * 2D program (Seidel's randomised incremental LP without the randomisation, as in the paper): keep the optimum of
 * the constraints added so far; when constraint i is violated by it, the new optimum lies ON line i, so solve the
 * one-dimensional program "optimise along line i subject to lines 0..i-1 and the disc". Expected O(n) for random
 * order; ORCA's n is small (tens of lines), so the worst case O(n^2) is cheap too.
 *
 * 3D fallback (paper, section 5.3): when the 2D program is infeasible (dense crowds), choose the velocity that
 * minimises the largest signed distance by which it violates the agent lines, keeping the obstacle lines hard.
 * That is a 3D LP in (v, distance); it is solved by the same incremental idea one dimension up: the first
 * `numHard` lines are always kept, and for each agent line i that is violated by more than the current distance,
 * the optimum moves onto the bisectors between line i and each earlier soft line j (the set of velocities equally
 * far outside i and j), and we optimise in the direction perpendicular to line i (most inward) subject to those
 * bisectors — a 2D program with a direction objective.
 */

/** Lines closer to parallel than this (|det| of unit directions) are treated as parallel. */
export const LP_EPSILON = 1e-5;

/**
 * Relative round-off allowance when the 2D program decides infeasibility: a violation smaller than this times the
 * problem's scale (speed radius plus the line point's magnitude) is round-off in a computed vertex, not a conflict.
 */
export const LP_ROUNDOFF = 1e-12;

/** Stride of a line record in a line buffer. */
export const LINE_STRIDE = 4;

/**
 * One-dimensional program on line `lineNo`: the best point on it subject to lines [0, lineNo) and |v| <= radius.
 * With `directionOpt`, (optX, optY) is a unit direction to go as far as possible along; otherwise a point whose
 * projection onto the line we want. Returns false when the feasible interval on the line is empty.
 */
function linearProgram1(lines: Float64Array, lineNo: number, args: Float64Array, directionOpt: boolean, out: Float64Array): boolean {
  const radius = args[0], optX = args[1], optY = args[2];
  const o = lineNo * LINE_STRIDE;
  const px = lines[o], py = lines[o + 1], dx = lines[o + 2], dy = lines[o + 3];
  // Intersect the line p + t d with the disc |v| = radius: |p|^2 + 2 t (p.d) + t^2 = r^2.
  // disc = r² − (squared distance from the origin to the line) = dot² + r² − |p|² (as RVO2 writes it), but taken from
  // the perpendicular p − (p·d) d: written as dot² − |p|², it cancels catastrophically when p lies far along the
  // line (a bisector of nearly anti-parallel lines crosses at ~1e6 m: |p|² ~ 1e13 has an ulp of ~2e-3, far above a
  // small speed disc's r²), and the "disc" then admits points outside the speed limit.
  const dot = px * dx + py * dy;
  const fx = px - dot * dx, fy = py - dot * dy;
  const disc = radius * radius - (fx * fx + fy * fy);
  // The speed disc lies entirely on the wrong side of (or misses) the line: infeasible.
  if (disc < 0) return false;
  const sq = Math.sqrt(disc);
  let tLeft = -dot - sq;
  let tRight = -dot + sq;
  for (let i = 0; i < lineNo; i++) {
    const q = i * LINE_STRIDE;
    const qx = lines[q], qy = lines[q + 1], ex = lines[q + 2], ey = lines[q + 3];
    // Line i crosses p + t d where det(e, p + t d - q) = 0, i.e. det(e, p - q) + t det(e, d) = 0, so
    // t = det(e, p - q) / det(d, e) = numerator / denominator.
    const denominator = dx * ey - dy * ex;
    const numerator = ex * (py - qy) - ey * (px - qx);
    if (Math.abs(denominator) <= LP_EPSILON) {
      // (Nearly) parallel lines. Along line lineNo, line i's signed clearance g(t) = det(e, p + t d − q) =
      // numerator − t·denominator is linear in t. RVO2 takes the sign of g at t = 0 for the whole line, which is
      // wrong when the lines are nearly coincident but cross inside the disc (two lines through the same point at
      // 1e-5 rad: g(0) = −5e-324 would call the program infeasible while half the interval is permitted). Test the
      // interval's two ends instead (finite: it lies in the disc): both forbidden → infeasible, both permitted →
      // no bound; otherwise the lines cross inside [tLeft, tRight], so t = numerator / denominator lies in that
      // interval and cannot overflow, and the general case below applies.
      //
      // Line i is measured with the same round-off slack linearProgram2 grants when it checks a line (a violation
      // below LP_ROUNDOFF × scale counts as satisfied). Without it the two disagree: the 2D program keeps an optimum
      // that violates line i by 4e-14 (within the slack), then meets line lineNo, parallel to line i and 5e-324
      // below it, and this program would find all of line lineNo cut off by line i (long fuzz run, 2026-11-29).
      const relaxed = numerator + LP_ROUNDOFF * (radius + Math.abs(qx) + Math.abs(qy));
      const gLeft = relaxed - tLeft * denominator, gRight = relaxed - tRight * denominator;
      if (gLeft < 0 && gRight < 0) return false;
      if (gLeft >= 0 && gRight >= 0) continue;
      // The relaxed line crosses inside [tLeft, tRight] (g changes sign there), so this t lies in the interval.
      const tc = relaxed / denominator;
      if (denominator >= 0) { if (tc < tRight) tRight = tc; } else if (tc > tLeft) tLeft = tc;
      if (tLeft > tRight) {
        if (tLeft - tRight > 1e-12 * radius) return false;
        tLeft = tRight = 0.5 * (tLeft + tRight);
      }
      continue;
    }
    const t = numerator / denominator;
    if (denominator >= 0) {
      // Line i bounds line lineNo on the right.
      if (t < tRight) tRight = t;
    } else {
      // Line i bounds line lineNo on the left.
      if (t > tLeft) tLeft = t;
    }
    if (tLeft > tRight) {
      // Empty by more than round-off: infeasible. Empty by a few ulps of the disc (lines through one point, the
      // feasible set along this line being that single point, as a wedge apex) is round-off in t = num / den:
      // collapse the interval to its midpoint instead of calling a feasible program infeasible (long fuzz run,
      // 2026-11-29: three lines meeting at the origin at angles 3e-172, 3.2 and 1.6e-300 rad).
      if (tLeft - tRight > 1e-12 * radius) return false;
      tLeft = tRight = 0.5 * (tLeft + tRight);
    }
  }
  if (directionOpt) {
    // Go to the far end in the objective direction.
    const t = optX * dx + optY * dy > 0 ? tRight : tLeft;
    out[0] = px + t * dx;
    out[1] = py + t * dy;
  } else {
    // Closest point of the interval to the projection of the optimum.
    let t = dx * (optX - px) + dy * (optY - py);
    if (t < tLeft) t = tLeft;
    else if (t > tRight) t = tRight;
    out[0] = px + t * dx;
    out[1] = py + t * dy;
  }
  return true;
}

/**
 * Two-dimensional program over lines [0, count) and the disc |v| <= radius. Objective: the point closest to
 * (optX, optY) or, with `directionOpt`, the farthest point along the unit direction (optX, optY).
 * Returns `count` on success, else the index of the first line that could not be satisfied; `out` then holds the
 * optimum of the lines before it.
 */
export function linearProgram2(
  lines: Float64Array, count: number, radius: number,
  optX: number, optY: number, directionOpt: boolean, out: Float64Array,
): number {
  const args = _lp2Args;
  args[0] = radius;
  args[1] = optX;
  args[2] = optY;
  return linearProgram2At(lines, count, args, directionOpt, out);
}

// Argument blocks: radius, optX, optY. The programs pass their doubles in Float64Arrays, because V8 passes arguments
// tagged and boxes a fractional double handed to a call it does not inline (one HeapNumber per call per value).
const _lp2Args = new Float64Array(3);
const _lp3Args = new Float64Array(3);
const _lp3Inner = new Float64Array(3);

/** linearProgram2 with (radius, optX, optY) = args[0..3): the allocation-free form ORCA calls. */
export function linearProgram2At(lines: Float64Array, count: number, args: Float64Array, directionOpt: boolean, out: Float64Array): number {
  const radius = args[0], optX = args[1], optY = args[2];
  if (directionOpt) {
    // The objective direction is a unit vector: the disc's extreme point in that direction.
    out[0] = optX * radius;
    out[1] = optY * radius;
  } else {
    const lenSq = optX * optX + optY * optY;
    if (lenSq > radius * radius) {
      // Preferred velocity exceeds the speed limit: start from its projection onto the disc.
      const s = radius / Math.sqrt(lenSq);
      out[0] = optX * s;
      out[1] = optY * s;
    } else {
      out[0] = optX;
      out[1] = optY;
    }
  }
  for (let i = 0; i < count; i++) {
    const o = i * LINE_STRIDE;
    // det(d, p - v) > 0: the current optimum lies on the forbidden (right) side of line i.
    const violation = lines[o + 2] * (lines[o + 1] - out[1]) - lines[o + 3] * (lines[o] - out[0]);
    // A violation below the round-off scale is not a violation. The optimum of lines [0, i) is a vertex computed as
    // p + t d, with an error of a few ulps of (|p| + radius); line i may pass through that vertex (or be redundant
    // there) in exact arithmetic and still appear violated by that error. Moving onto line i would then be wrong:
    // when line i is nearly parallel to an earlier line, its own 1D program can be empty (the program reported
    // infeasible, and ORCA took the 3D fallback) or admit only a far-off stretch (the result jumped 0.16 m/s from
    // the optimum). Long fuzz run, 2026-11-29: three nearly horizontal lines 1e-285 and 1e-152 apart.
    if (violation > 0 && violation > LP_ROUNDOFF * (args[0] + Math.abs(lines[o]) + Math.abs(lines[o + 1]))) {
      const keepX = out[0], keepY = out[1];
      if (!linearProgram1(lines, i, args, directionOpt, out)) {
        out[0] = keepX;
        out[1] = keepY;
        return i;
      }
    }
  }
  return count;
}

/**
 * The infeasible-case fallback: starting from `out` (the optimum of lines before `beginLine`), minimise the largest
 * violation det(d_i, p_i - v) over the soft lines [numHard, count) while satisfying the hard lines [0, numHard)
 * and the speed disc. `proj` is scratch with room for `count` lines.
 */
export function linearProgram3(
  lines: Float64Array, count: number, numHard: number, beginLine: number, radius: number,
  proj: Float64Array, out: Float64Array,
): void {
  _lp3Args[0] = radius;
  linearProgram3At(lines, count, numHard, beginLine, _lp3Args, proj, out);
}

/** linearProgram3 with radius = args[0]: the allocation-free form ORCA calls. */
export function linearProgram3At(
  lines: Float64Array, count: number, numHard: number, beginLine: number, args: Float64Array,
  proj: Float64Array, out: Float64Array,
): void {
  const radius = args[0];
  const inner = _lp3Inner;
  let distance = 0;
  const hardLen = numHard * LINE_STRIDE;
  for (let i = beginLine; i < count; i++) {
    const o = i * LINE_STRIDE;
    const pix = lines[o], piy = lines[o + 1], dix = lines[o + 2], diy = lines[o + 3];
    // Only lines violated by more than the current worst violation move the optimum.
    if (dix * (piy - out[1]) - diy * (pix - out[0]) <= distance) continue;

    // Hard (obstacle) lines stay as they are.
    for (let k = 0; k < hardLen; k++) proj[k] = lines[k];
    let n = numHard;
    for (let j = numHard; j < i; j++) {
      const q = j * LINE_STRIDE;
      const pjx = lines[q], pjy = lines[q + 1], djx = lines[q + 2], djy = lines[q + 3];
      const determinant = dix * djy - diy * djx;
      let bx: number, by: number;
      if (Math.abs(determinant) <= LP_EPSILON) {
        // Parallel, same direction: line j's violation never exceeds line i's along our search; skip it.
        if (dix * djx + diy * djy > 0) continue;
        // Parallel, opposite directions: equal violation on the midline.
        bx = 0.5 * (pix + pjx);
        by = 0.5 * (piy + pjy);
      } else {
        // Where the lines cross, both violations are zero: that point is on the bisector.
        const t = (djx * (piy - pjy) - djy * (pix - pjx)) / determinant;
        bx = pix + t * dix;
        by = piy + t * diy;
      }
      // The bisector's direction: points where det(d_i, p_i - v) = det(d_j, p_j - v) move along d_j - d_i.
      let ex = djx - dix, ey = djy - diy;
      const len = Math.sqrt(ex * ex + ey * ey);
      ex /= len;
      ey /= len;
      // Anchor the bisector at its point nearest the origin. Nearly anti-parallel lines (|det| just above
      // LP_EPSILON) cross ~|p_i − p_j| / |det| away, e.g. 3.6e6 m for lines 36 m apart; carried into the 2D program
      // such a point costs every later product its precision (the result left the speed disc by 10x).
      const bd = bx * ex + by * ey;
      bx -= bd * ex;
      by -= bd * ey;
      const w = n * LINE_STRIDE;
      proj[w] = bx;
      proj[w + 1] = by;
      proj[w + 2] = ex;
      proj[w + 3] = ey;
      n++;
    }
    const keepX = out[0], keepY = out[1];
    // Objective: as far as possible in line i's permitted normal direction (-d_y, d_x).
    inner[0] = radius;
    inner[1] = -diy;
    inner[2] = dix;
    if (linearProgram2At(proj, n, inner, true, out) < n) {
      // In exact arithmetic this cannot fail (the current optimum is feasible for this program); if round-off
      // makes it fail, keep the previous optimum.
      out[0] = keepX;
      out[1] = keepY;
    }
    distance = dix * (piy - out[1]) - diy * (pix - out[0]);
  }
}
