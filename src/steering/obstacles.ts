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
import { dsincosArr } from '../core/dmath';
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


// Scratch (module scope: no allocation per call). castFeeler's inputs and result travel through typed arrays, not
// through double arguments and module-level `let`s: a double passed to a call V8 does not inline, or stored into a
// module variable, is boxed into a fresh HeapNumber.
// _cast = [px, py, fx, fy, len]; _hit = [t, nx, ny, tx, ty].
const _cast = new Float64Array(5);
const _hit = new Float64Array(5);
const _ang = new Float64Array(2);
const _avIn = new Float64Array(8);
const _avOut = new Float64Array(2);

/** Nearest intersection of the ray p + f̂·t (0 ≤ t ≤ len) (inputs in _cast) with the candidate segments; fills _hit. */
function castFeeler(seg: Float64Array, cand: Int32Array | null, count: number): boolean {
  const px = _cast[0], py = _cast[1], fx = _cast[2], fy = _cast[3], len = _cast[4];
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
    _hit[1] = nx; _hit[2] = ny;
    _hit[3] = ex / el; _hit[4] = ey / el;
  }
  _hit[0] = best;
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
  const a = _avIn;
  a[0] = px; a[1] = py; a[2] = vx; a[3] = vy; a[4] = ix; a[5] = iy; a[6] = radius; a[7] = maxSpeed;
  const hits = avoidSegmentsArr(a, 0, segments, candidates, count, params, _avOut, 0);
  out.x = _avOut[0]; out.y = _avOut[1];
  return hits;
}

/**
 * avoidSegments in array form: a[i ..] = px, py, vx, vy, ix, iy, radius, maxSpeed; the contribution goes to out[o],
 * out[o + 1]. No double crosses the call, so nothing is boxed when V8 does not inline it into a large caller (the
 * steering system); same arithmetic as avoidSegments, which wraps it.
 */
export function avoidSegmentsArr(
  a: Float64Array, i: number,
  segments: Float64Array, candidates: Int32Array | null, count: number,
  params: Readonly<FeelerParams>, out: Float64Array, o: number,
): number {
  const px = a[i], py = a[i + 1], vx = a[i + 2], vy = a[i + 3], ix = a[i + 4], iy = a[i + 5];
  const radius = a[i + 6], maxSpeed = a[i + 7];
  let ox = 0, oy = 0;
  let hits = 0;
  const speed = Math.sqrt(vx * vx + vy * vy);
  if (speed > 1e-9) {
    const hx = vx / speed, hy = vy / speed;
    const L = radius + speed * params.lookAhead;
    _ang[0] = params.feelerAngle;
    dsincosArr(_ang, 0, _ang, 0);
    const sa = _ang[0], ca = _ang[1];
    for (let f = 0; f < 3; f++) {
      let fx = hx, fy = hy, len = L;
      if (f === 1) { fx = hx * ca - hy * sa; fy = hx * sa + hy * ca; len = 0.5 * L; }
      else if (f === 2) { fx = hx * ca + hy * sa; fy = -hx * sa + hy * ca; len = 0.5 * L; }
      _cast[0] = px; _cast[1] = py; _cast[2] = fx; _cast[3] = fy; _cast[4] = len;
      if (!castFeeler(segments, candidates, count)) continue;
      hits++;
      const urgency = (len - _hit[0]) / len;
      // Tangent closest to the intended direction (or the heading without one); ties go to +e, deterministically.
      let tx = _hit[3], ty = _hit[4];
      const side = ix * tx + iy * ty;
      if (side < 0 || (side === 0 && tx * hx + ty * hy < 0)) { tx = -tx; ty = -ty; }
      ox += (_hit[1] + params.slide * tx) * urgency * maxSpeed;
      oy += (_hit[2] + params.slide * ty) * urgency * maxSpeed;
    }
  }
  // Clearance push: nearest point of every candidate segment.
  const clear = radius * params.clearance;
  if (clear > 0) {
    let best = clear, bx = 0, by = 0;
    for (let c = 0; c < count; c++) {
      const s = candidates === null ? c : candidates[c];
      const q = s * 4;
      const ax = segments[q], ay = segments[q + 1];
      const ex = segments[q + 2] - ax, ey = segments[q + 3] - ay;
      const ee = ex * ex + ey * ey;
      let u = ee > 0 ? ((px - ax) * ex + (py - ay) * ey) / ee : 0;
      u = u < 0 ? 0 : u > 1 ? 1 : u;
      const qx = px - (ax + ex * u), qy = py - (ay + ey * u);
      const d = Math.sqrt(qx * qx + qy * qy);
      if (d < best && d > 0) { best = d; bx = qx / d; by = qy / d; }
    }
    if (best < clear) {
      const k = ((clear - best) / clear) * maxSpeed;
      ox += bx * k; oy += by * k;
      hits += 4;
    }
  }
  const m2 = ox * ox + oy * oy;
  if (m2 > maxSpeed * maxSpeed) {
    const s = maxSpeed / Math.sqrt(m2);
    ox *= s; oy *= s;
  }
  out[o] = ox; out[o + 1] = oy;
  return hits;
}
