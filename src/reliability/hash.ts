import type { CrowdWorld } from '../world/crowd';

/**
 * State hashing for determinism checks (lockstep desync detection, tests). Not cryptographic: two independent 32-bit
 * lanes give a 64-bit fingerprint, so two different states collide with probability about 2^-64 (FNV-1a alone is
 * 32 bits; the second lane, a MurmurHash3-style word mix, makes accidental agreement of a desynchronised peer
 * vanishingly unlikely).
 *
 *  - lane A: FNV-1a (Fowler, Noll, Vo) over the bytes, little-endian: h = (h XOR byte) * 16777619 mod 2^32.
 *  - lane B: per 32-bit word k: k *= c1, k = rotl(k, 15), k *= c2, h ^= k, h = rotl(h, 13) * 5 + 0xe6546b64
 *    (Appleby's MurmurHash3 body), finalised with its fmix32 avalanche.
 */

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Two 32-bit hash lanes, updated word by word. */
interface Lanes { a: number; b: number }

// Module-scope scratch: a double's bits, without allocating per value.
const _hashF64 = new Float64Array(1);
const _hashU32 = new Uint32Array(_hashF64.buffer);
const _lanes: Lanes = { a: FNV_OFFSET, b: 0x9747b28c };

function mixWord(l: Lanes, word: number): void {
  // lane A: FNV-1a over the 4 bytes, little-endian order.
  let a = l.a;
  a = Math.imul(a ^ (word & 0xff), FNV_PRIME);
  a = Math.imul(a ^ ((word >>> 8) & 0xff), FNV_PRIME);
  a = Math.imul(a ^ ((word >>> 16) & 0xff), FNV_PRIME);
  a = Math.imul(a ^ (word >>> 24), FNV_PRIME);
  l.a = a >>> 0;
  // lane B: MurmurHash3 x86_32 body.
  let k = Math.imul(word, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  let b = l.b ^ k;
  b = (b << 13) | (b >>> 19);
  l.b = (Math.imul(b, 5) + 0xe6546b64) >>> 0;
}

function mixF64(l: Lanes, v: number): void {
  _hashF64[0] = v;
  mixWord(l, _hashU32[0]);
  mixWord(l, _hashU32[1]);
}

function fmix32(h: number): number {
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hex(l: Lanes, words: number): string {
  const b = fmix32(l.b ^ (words * 4));
  return (l.a >>> 0).toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * A 64-bit fingerprint (16 hex digits) of the state that must agree between lockstep peers: the step count, the
 * RNG state, and for every live agent in iteration order its entity id, position and velocity (the exact IEEE-754
 * bits, so -0 and 0 differ and a 1-ulp drift shows). Two worlds with equal hashes are, for practical purposes, in
 * the same simulation state; for a check of every component and cache, hash the snapshot bytes with hashBytes.
 * Costs O(live agents); allocates only the returned string.
 */
export function stateHash(world: CrowdWorld): string {
  const l = _lanes;
  l.a = FNV_OFFSET; l.b = 0x9747b28c;
  let words = 0;
  mixF64(l, world.time.frame); words += 2;
  const rs = world.rng.state;
  for (let i = 0; i < 4; i++) mixWord(l, rs[i]);
  words += 4;
  const { dense, count } = world.agents;
  mixWord(l, count); words++;
  const px = world.position.x, py = world.position.y, vx = world.velocity.x, vy = world.velocity.y;
  for (let i = 0; i < count; i++) {
    const e = dense[i];
    mixWord(l, e);
    mixF64(l, px[e]); mixF64(l, py[e]); mixF64(l, vx[e]); mixF64(l, vy[e]);
  }
  words += count * 9;
  return hex(l, words);
}

/** The same 64-bit fingerprint over arbitrary bytes (e.g. a snapshot), zero-padded to a whole number of words. */
export function hashBytes(bytes: Uint8Array): string {
  const l = _lanes;
  l.a = FNV_OFFSET; l.b = 0x9747b28c;
  const n = bytes.length;
  const whole = n & ~3;
  for (let i = 0; i < whole; i += 4) mixWord(l, bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
  if (whole < n) {
    let w = 0;
    for (let i = whole; i < n; i++) w |= bytes[i] << (8 * (i - whole));
    mixWord(l, w >>> 0);
  }
  mixWord(l, n);
  return hex(l, (n + 3) >>> 2);
}

/** 32-bit FNV-1a of bytes [start, end): the snapshot checksum. */
export function fnv1a32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], FNV_PRIME);
  return h >>> 0;
}
