/**
 * Deterministic elementary functions. JavaScript engines may compute Math.sin, Math.cos, Math.atan2, Math.exp and
 * Math.hypot differently across platforms and versions (the spec only asks for an "implementation-approximated"
 * result), which desynchronises lockstep games. +, -, *, / and Math.sqrt are correctly rounded IEEE-754 operations
 * and give the same bits everywhere, so these functions use only those: range reduction followed by polynomial
 * evaluation. Accuracy ~1e-15 absolute, plenty for steering angles. Use them everywhere in the simulation path.
 */

const TWO_PI = 6.283185307179586;
const HALF_PI = 1.5707963267948966;
const PI = 3.141592653589793;
const QUARTER_PI = 0.7853981633974483;

// Taylor coefficients to degree 17/16 on |x| ≤ π/4: truncation error < (π/4)^19/19! ≈ 1e-18.
function sinPoly(x: number): number {
  const x2 = x * x;
  return x * (1 + x2 * (-1 / 6 + x2 * (1 / 120 + x2 * (-1 / 5040 + x2 * (1 / 362880 + x2 * (-1 / 39916800 + x2 * (1 / 6227020800 + x2 * (-1 / 1307674368000 + x2 * (1 / 355687428096000)))))))));
}
function cosPoly(x: number): number {
  const x2 = x * x;
  return 1 + x2 * (-1 / 2 + x2 * (1 / 24 + x2 * (-1 / 720 + x2 * (1 / 40320 + x2 * (-1 / 3628800 + x2 * (1 / 479001600 + x2 * (-1 / 87178291200 + x2 * (1 / 20922789888000))))))));
}

/** Deterministic sine (radians). */
export function dsin(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  // Reduce to [-π, π], then to a quadrant of width π/2 around 0.
  let r = x - TWO_PI * Math.round(x / TWO_PI);
  const q = Math.round(r / HALF_PI); // -2..2
  r -= q * HALF_PI;
  switch (q) {
    case 0: return sinPoly(r);
    case 1: return cosPoly(r);
    case -1: return -cosPoly(r);
    default: return -sinPoly(r); // q = ±2
  }
}

/** Deterministic cosine (radians). */
export function dcos(x: number): number {
  if (!Number.isFinite(x)) return NaN;
  let r = x - TWO_PI * Math.round(x / TWO_PI);
  const q = Math.round(r / HALF_PI);
  r -= q * HALF_PI;
  switch (q) {
    case 0: return cosPoly(r);
    case 1: return -sinPoly(r);
    case -1: return sinPoly(r);
    default: return -cosPoly(r);
  }
}

// atan on [0, tan(π/12)] by its Taylor series; larger arguments are reduced with
// atan(x) = π/6 + atan((x√3 - 1)/(x + √3)) and atan(x) = π/2 - atan(1/x).
const SQRT3 = 1.7320508075688772;
const TAN_PI_12 = 0.2679491924311227;
function atanSmall(x: number): number {
  const x2 = x * x;
  // |x| ≤ 0.268: 14 terms give error < 0.268^29/29 ≈ 1e-18.
  let s = 0;
  for (let k = 13; k >= 0; k--) s = (k % 2 === 0 ? 1 : -1) / (2 * k + 1) + x2 * s;
  return x * s;
}
function atanPos(x: number): number {
  let inverted = false;
  if (x > 1) { x = 1 / x; inverted = true; }
  let r: number;
  if (x > TAN_PI_12) r = PI / 6 + atanSmall((x * SQRT3 - 1) / (x + SQRT3));
  else r = atanSmall(x);
  return inverted ? HALF_PI - r : r;
}

/** Deterministic atan2(y, x) in (-π, π]. atan2(0, 0) = 0. */
export function datan2(y: number, x: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === 0 && y === 0) return 0;
  const ax = Math.abs(x), ay = Math.abs(y);
  let a: number;
  if (ax >= ay) a = ax === Infinity ? (ay === Infinity ? QUARTER_PI : 0) : atanPos(ay / ax);
  else a = ay === Infinity ? HALF_PI : HALF_PI - atanPos(ax / ay);
  if (x < 0) a = PI - a;
  return y < 0 ? -a : a;
}

/** Deterministic hypotenuse √(x² + y²) (Math.hypot is not required to be correctly rounded). */
export function dhypot(x: number, y: number): number {
  return Math.sqrt(x * x + y * y);
}

// Array forms. A double passed to or returned from a call that V8 does not inline is boxed into a fresh HeapNumber;
// a hot caller too large to inline these (systems/steering's steeringRange) would allocate on every call. These read
// their argument from a typed array and write their result into one, so nothing is boxed. Same arithmetic as the
// scalar functions above, hence bit-identical results.

/** out[o] = dsin(a[i]), out[o + 1] = dcos(a[i]) (one shared range reduction; bit-identical to dsin/dcos). */
export function dsincosArr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const x = a[i];
  if (!Number.isFinite(x)) { out[o] = NaN; out[o + 1] = NaN; return; }
  let r = x - TWO_PI * Math.round(x / TWO_PI);
  const q = Math.round(r / HALF_PI);
  r -= q * HALF_PI;
  const s = sinPoly(r), c = cosPoly(r);
  switch (q) {
    case 0: out[o] = s; out[o + 1] = c; return;
    case 1: out[o] = c; out[o + 1] = -s; return;
    case -1: out[o] = -c; out[o + 1] = s; return;
    default: out[o] = -s; out[o + 1] = -c;
  }
}

/** out[o] = datan2(a[i], a[i + 1]) (y first, as datan2). */
export function datan2Arr(a: Float64Array, i: number, out: Float64Array, o: number): void {
  const y = a[i], x = a[i + 1];
  if (Number.isNaN(x) || Number.isNaN(y)) { out[o] = NaN; return; }
  if (x === 0 && y === 0) { out[o] = 0; return; }
  const ax = Math.abs(x), ay = Math.abs(y);
  let r: number;
  if (ax >= ay) r = ax === Infinity ? (ay === Infinity ? QUARTER_PI : 0) : atanPos(ay / ax);
  else r = ay === Infinity ? HALF_PI : HALF_PI - atanPos(ax / ay);
  if (x < 0) r = PI - r;
  out[o] = y < 0 ? -r : r;
}
