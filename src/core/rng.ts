import { requireFinite } from './validate';

/**
 * The world's seeded pseudo-random generator: sfc32 (Chris Doty-Humphrey's "small fast counting" generator,
 * 128-bit state, passes PractRand to terabytes). The whole state is four uint32 words in one Uint32Array, so it
 * can be snapshotted, restored and sent to a worker. Math.random is never used in the simulation.
 */
export interface Rng {
  /** a, b, c, counter. */
  readonly state: Uint32Array;
}

/** Create a generator from any finite number seed (integers are typical). Same seed → same sequence. */
export function createRng(seed = 1): Rng {
  requireFinite('seed', seed);
  const rng: Rng = { state: new Uint32Array(4) };
  seedRng(rng, seed);
  return rng;
}

/** Re-seed in place. The seed is mixed with splitmix32 so nearby seeds give unrelated streams. */
export function seedRng(rng: Rng, seed: number): void {
  requireFinite('seed', seed);
  // Fold the double into 32 bits (keeps fractional and large seeds distinct).
  let s = (Math.floor(seed) ^ Math.floor((seed - Math.floor(seed)) * 4294967296) ^ Math.floor(seed / 4294967296)) >>> 0;
  const st = rng.state;
  for (let i = 0; i < 3; i++) {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    st[i] = (z ^ (z >>> 16)) >>> 0;
  }
  st[3] = 1;
  // Discard the first outputs, as the sfc32 author recommends.
  for (let i = 0; i < 12; i++) rngUint32(rng);
}

/** Next uniform uint32. */
export function rngUint32(rng: Rng): number {
  const st = rng.state;
  const a = st[0], b = st[1], c = st[2], d = st[3];
  const t = (((a + b) >>> 0) + d) >>> 0;
  st[3] = (d + 1) >>> 0;
  st[0] = b ^ (b >>> 9);
  st[1] = (c + (c << 3)) >>> 0;
  const c2 = ((c << 21) | (c >>> 11)) >>> 0;
  st[2] = (c2 + t) >>> 0;
  return t;
}

/** Uniform float in [0, 1) with 32 bits of randomness. */
export function rngFloat(rng: Rng): number {
  return rngUint32(rng) / 4294967296;
}

/** Uniform float in [min, max). */
export function rngRange(rng: Rng, min: number, max: number): number {
  return min + (max - min) * rngFloat(rng);
}

/** Uniform integer in [0, n). */
export function rngInt(rng: Rng, n: number): number {
  return Math.floor(rngFloat(rng) * n);
}
