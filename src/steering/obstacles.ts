/**
 * Static-obstacle avoidance with look-ahead feelers against obstacle segments (Reynolds 1999 "containment";
 * the three-feeler layout is the common game variant). We chose feelers against segments rather than a distance
 * field sampled from the grid because segments serve every map type Murmur has (grids export their wall edges,
 * navmeshes their boundary edges, ORCA its obstacle polygons), cost nothing to precompute, and give an exact wall
 * normal; a distance field would need a grid and a resolution choice, and blurs thin walls.
 *
 * Geometry. Three feelers start at the agent's centre: one straight ahead of length L = radius + speed·lookAhead,
 * and two at ±feelerAngle of length L/2. For each feeler f (unit direction f̂, length ℓ) and segment a→b we solve
 *   p + f̂·t = a + (b − a)·u,  0 ≤ t ≤ ℓ, 0 ≤ u ≤ 1
 * by Cramer's rule on the 2×2 system [f̂, −(b − a)]·(t, u)ᵀ = a − p. The nearest hit (smallest t) is kept. The part of
 * the feeler beyond the wall, ℓ − t, measures how urgent the turn is; the response is
 *   (n̂ + s·τ̂)·(ℓ − t)/ℓ·maxSpeed,
 * where n̂ is the wall normal on the agent's side and τ̂ the wall tangent closest to the intended direction of travel
 * (the goal direction, given by the caller; s = slide gain): pushing off along n̂ alone would stop an agent that meets a wall head-on, the tangent term makes it slide
 * along the wall instead. Separately, a wall closer than `radius·clearance` to the centre pushes straight out, so an
 * agent standing still beside a wall is also kept off it.
 *
 * Cost: O(feelers × candidate segments) per agent; pass a culled candidate list (e.g. from a segment grid) for big
 * maps. Output is a desired-velocity contribution, zero when nothing is near; the caller sums it first (highest
 * priority) in the prioritised sum.
 */
import { dcos, dsin } from '../core/dmath';
import type { Vec2Out } from './behaviours';

/** Parameters of feeler avoidance. */
export interface FeelerParams {
  /** Seconds of travel the centre feeler looks ahead (its length is radius + speed·lookAhead). @default 1 */
  lookAhead: number;
  /** Angle of the two side feelers from the heading, radians. @default π/4 (0.7853981633974483) */
  feelerAngle: number;
  /** Gain of the slide-along-the-wall term. @default 0.5 */
  slide: number;
  /** Walls closer than radius·clearance push the agent straight out. @default 1.5 */
  clearance: number;
}

export const DEFAULT_FEELER_PARAMS: Readonly<FeelerParams> = { lookAhead: 1, feelerAngle: Math.PI / 4, slide: 0.5, clearance: 1.5 };


// Scratch result of castFeeler (module scope: no allocation per call).
let _hitT = 0, _hitNx = 0, _hitNy = 0, _hitTx = 0, _hitTy = 0;

/** Nearest intersection of the ray p + f̂·t (0 ≤ t ≤ len) with the candidate segments; fills the _hit* scratch. */
function castFeeler(
  px: number, py: number, fx: number, fy: number, len: number,
  seg: Float64Array, cand: Int32Array | null, count: number,
): boolean {
  let best = len;
  let found = false;
  for (let c = 0; c < count; c++) {
    const s = cand === null ? c : cand[c];
    const o = s * 4;
    const ax = seg[o], ay = seg[o + 1];
    const ex = seg[o + 2] - ax, ey = seg[o + 3] - ay;
    // Solve t·f̂ − u·e = a − p. det = f̂ × (−e) = −(fx·ey − fy·ex).
    const det = ex * fy - ey * fx;
    if (det > -1e-12 && det < 1e-12) continue; // parallel: a grazing feeler does not hit
    const wx = ax - px, wy = ay - py;
    const t = (ex * wy - ey * wx) / det;
    const u = (fx * wy - fy * wx) / det;
    if (t < 0 || t > best || u < 0 || u > 1) continue;
    best = t;
    found = true;
    const el = Math.sqrt(ex * ex + ey * ey);
    let nx = -ey / el, ny = ex / el;
    // Orient the normal toward the agent's side of the wall.
    if (nx * (px - ax) + ny * (py - ay) < 0) { nx = -nx; ny = -ny; }
    _hitNx = nx; _hitNy = ny;
    _hitTx = ex / el; _hitTy = ey / el;
  }
  _hitT = best;
  return found;
}

/**
 * Desired-velocity contribution that steers an agent at (px, py) with velocity (vx, vy) away from obstacle segments.
 * @param ix intended direction of travel (e.g. the seek or navigation velocity); it picks which way to slide along a
 *   wall, so the slide does not flip when the velocity wobbles. Zero = use the velocity.
 * @param segments flat [x0, y0, x1, y1, ...], metres.
 * @param candidates indices of the segments to test, or null to test segments 0..count−1.
 * @param count number of candidates (or of segments when candidates is null).
 * @returns the number of feelers that hit a wall (0..3), plus 4 if the clearance push fired (for profiling).
 */
export function avoidSegments(
  px: number, py: number, vx: number, vy: number, ix: number, iy: number, radius: number, maxSpeed: number,
  segments: Float64Array, candidates: Int32Array | null, count: number,
  params: Readonly<FeelerParams>, out: Vec2Out,
): number {
  out.x = 0; out.y = 0;
  let hits = 0;
  const speed = Math.sqrt(vx * vx + vy * vy);
  if (speed > 1e-9) {
    const hx = vx / speed, hy = vy / speed;
    const L = radius + speed * params.lookAhead;
    const ca = dcos(params.feelerAngle), sa = dsin(params.feelerAngle);
    for (let f = 0; f < 3; f++) {
      let fx = hx, fy = hy, len = L;
      if (f === 1) { fx = hx * ca - hy * sa; fy = hx * sa + hy * ca; len = 0.5 * L; }
      else if (f === 2) { fx = hx * ca + hy * sa; fy = -hx * sa + hy * ca; len = 0.5 * L; }
      if (!castFeeler(px, py, fx, fy, len, segments, candidates, count)) continue;
      hits++;
      const urgency = (len - _hitT) / len;
      // Tangent closest to the intended direction (or the heading without one); ties go to +e, deterministically.
      let tx = _hitTx, ty = _hitTy;
      const side = ix * tx + iy * ty;
      if (side < 0 || (side === 0 && tx * hx + ty * hy < 0)) { tx = -tx; ty = -ty; }
      out.x += (_hitNx + params.slide * tx) * urgency * maxSpeed;
      out.y += (_hitNy + params.slide * ty) * urgency * maxSpeed;
    }
  }
  // Clearance push: nearest point of every candidate segment.
  const clear = radius * params.clearance;
  if (clear > 0) {
    let best = clear, bx = 0, by = 0;
    for (let c = 0; c < count; c++) {
      const s = candidates === null ? c : candidates[c];
      const o = s * 4;
      const ax = segments[o], ay = segments[o + 1];
      const ex = segments[o + 2] - ax, ey = segments[o + 3] - ay;
      const ee = ex * ex + ey * ey;
      let u = ee > 0 ? ((px - ax) * ex + (py - ay) * ey) / ee : 0;
      u = u < 0 ? 0 : u > 1 ? 1 : u;
      const qx = px - (ax + ex * u), qy = py - (ay + ey * u);
      const d = Math.sqrt(qx * qx + qy * qy);
      if (d < best && d > 0) { best = d; bx = qx / d; by = qy / d; }
    }
    if (best < clear) {
      const k = ((clear - best) / clear) * maxSpeed;
      out.x += bx * k; out.y += by * k;
      hits += 4;
    }
  }
  const m2 = out.x * out.x + out.y * out.y;
  if (m2 > maxSpeed * maxSpeed) {
    const s = maxSpeed / Math.sqrt(m2);
    out.x *= s; out.y *= s;
  }
  return hits;
}
