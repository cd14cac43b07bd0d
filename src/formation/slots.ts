/**
 * Formation shapes: slot offsets in the formation's local frame (+x forward along the heading, +y to the left),
 * centred on their centroid so the anchor is the formation's centre and turning pivots about it.
 *
 * Spacing is the centre-to-centre distance between neighbouring slots; formationSpacing() derives it from the
 * members' radii (two largest radii plus a gap), so no two slots are closer than `spacing` and bodies never overlap
 * when every member sits on its slot.
 */
import { dcos, dsin } from '../core/dmath';
import { InvalidArgumentError } from '../core/errors';
import { requireInteger, requirePositive, requireNonNegative } from '../core/validate';

/** Members side by side, perpendicular to the heading. */
export const FORMATION_LINE = 0;
/** Single file along the heading. */
export const FORMATION_COLUMN = 1;
/** Arrowhead: a leader in front, ranks trailing back-left and back-right at 45°. */
export const FORMATION_WEDGE = 2;
/** Filled square grid, ⌈√n⌉ wide, last rank centred. */
export const FORMATION_BOX = 3;
/** Evenly spaced on a circle whose chord between neighbours equals the spacing. */
export const FORMATION_CIRCLE = 4;

export type FormationShape = typeof FORMATION_LINE | typeof FORMATION_COLUMN | typeof FORMATION_WEDGE | typeof FORMATION_BOX | typeof FORMATION_CIRCLE;

/** Human-readable names, indexed by shape id. */
export const FORMATION_SHAPE_NAMES: readonly string[] = ['line', 'column', 'wedge', 'box', 'circle'];

/**
 * Slot spacing from the members' radii: the sum of the two largest radii plus `gap` (metres), so that any two
 * members on neighbouring slots clear each other by at least `gap`.
 */
export function formationSpacing(radii: ArrayLike<number>, count: number, gap: number): number {
  requireNonNegative('gap', gap);
  let r1 = 0, r2 = 0;
  for (let i = 0; i < count; i++) {
    const r = radii[i];
    if (r >= r1) { r2 = r1; r1 = r; } else if (r > r2) r2 = r;
  }
  if (count === 1) r2 = r1;
  return r1 + r2 + gap;
}

/**
 * Write n slot offsets [x0, y0, x1, y1, ...] (metres, local frame) into `out` (length ≥ 2n).
 * Slot order is front-to-back, then right-to-left, so slot 0 is the front/right-most.
 */
export function formationSlots(shape: number, n: number, spacing: number, out: Float64Array): void {
  requireInteger('n', n, 0);
  requirePositive('spacing', spacing);
  if (out.length < 2 * n) throw new InvalidArgumentError('out', out, `needs length ≥ ${2 * n}`);
  const s = spacing;
  switch (shape) {
    case FORMATION_LINE:
      for (let i = 0; i < n; i++) { out[2 * i] = 0; out[2 * i + 1] = -s * i; }
      break;
    case FORMATION_COLUMN:
      for (let i = 0; i < n; i++) { out[2 * i] = -s * i; out[2 * i + 1] = 0; }
      break;
    case FORMATION_WEDGE: {
      // Rank k ≥ 1 holds two slots at (−k, ±k)·s/√2 (45° arms). Same-arm neighbours are s apart, the two slots of a
      // rank are k·s·√2 ≥ s apart.
      const h = s / Math.SQRT2;
      out[0] = 0; out[1] = 0;
      for (let i = 1; i < n; i++) {
        const k = (i + 1) >> 1;
        out[2 * i] = -k * h;
        out[2 * i + 1] = (i & 1) === 1 ? -k * h : k * h;
      }
      break;
    }
    case FORMATION_BOX: {
      let cols = Math.ceil(Math.sqrt(n));
      if (cols < 1) cols = 1;
      for (let i = 0; i < n; i++) {
        const r = Math.floor(i / cols), c = i - r * cols;
        const inRow = Math.min(cols, n - r * cols);
        out[2 * i] = -r * s;
        out[2 * i + 1] = -(c - (inRow - 1) / 2) * s;
      }
      break;
    }
    case FORMATION_CIRCLE: {
      if (n === 1) { out[0] = 0; out[1] = 0; break; }
      // Chord between neighbours = 2R·sin(π/n) = s.
      const R = n === 2 ? s / 2 : s / (2 * dsin(Math.PI / n));
      for (let i = 0; i < n; i++) {
        const a = (2 * Math.PI * i) / n;
        out[2 * i] = R * dcos(a);
        out[2 * i + 1] = -R * dsin(a);
      }
      break;
    }
    default:
      throw new InvalidArgumentError('shape', shape, 'must be FORMATION_LINE, _COLUMN, _WEDGE, _BOX or _CIRCLE (0..4)');
  }
  // Centre on the centroid.
  let cx = 0, cy = 0;
  for (let i = 0; i < n; i++) { cx += out[2 * i]; cy += out[2 * i + 1]; }
  if (n > 0) {
    cx /= n; cy /= n;
    for (let i = 0; i < n; i++) { out[2 * i] -= cx; out[2 * i + 1] -= cy; }
  }
}

/** Largest distance of a slot from the formation centre (metres). Used to slow the anchor in turns. */
export function slotsRadius(slots: Float64Array, n: number): number {
  let w = 0;
  for (let i = 0; i < n; i++) {
    const a = Math.abs(slots[2 * i + 1]), b = Math.abs(slots[2 * i]);
    const r = Math.sqrt(a * a + b * b);
    if (r > w) w = r;
  }
  return w;
}
