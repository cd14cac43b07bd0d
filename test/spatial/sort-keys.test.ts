/**
 * Sorting networks of src/spatial/sort-keys.ts. Three independent checks:
 * 1. the comparator lists are re-derived here from Batcher's odd-even merge sort (Knuth, TAOCP vol. 3, 5.3.4) and
 *    compared with the comparators read out of the generated source, line by line;
 * 2. each derived list sorts every 0-1 input (the 0-1 principle, Knuth 5.3.4 theorem Z: then it sorts every input),
 *    checked exhaustively, 32 inputs per machine word;
 * 3. the functions themselves against Array.prototype.sort on random keys with junk in the padding slots.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRng, rngInt } from '../../src/core/rng';
import { sortKeys12, sortKeys16, sortKeys20, sortKeys24, sortKeys8 } from '../../src/spatial/sort-keys';

/** Batcher's odd-even merge sort for any n, as in the comment of sort-keys.ts. */
function batcher(n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let p = 1; p < n; p *= 2) {
    for (let q = p; q >= 1; q /= 2) {
      for (let j = q % p; j <= n - 1 - q; j += 2 * q) {
        for (let i = 0; i <= Math.min(q - 1, n - j - q - 1); i++) {
          if (Math.floor((i + j) / (2 * p)) === Math.floor((i + j + q) / (2 * p))) out.push([i + j, i + j + q]);
        }
      }
    }
  }
  return out;
}

/** Comparators of sortKeysN as written in the source: lines `d = (kY - kX) | 0; ...` inside that function. */
function comparatorsInSource(n: number): [number, number][] {
  const src = readFileSync(new URL('../../src/spatial/sort-keys.ts', import.meta.url), 'utf8');
  const start = src.indexOf(`export function sortKeys${n}(`);
  const end = src.indexOf('\n}\n', start);
  const body = src.slice(start, end);
  const out: [number, number][] = [];
  for (const m of body.matchAll(/d = \(k(\d+) - k(\d+)\) \| 0; d &= d >> 31; k(\d+) = \(k(\d+) \+ d\) \| 0; k(\d+) = \(k(\d+) - d\) \| 0;/g)) {
    const [y, x, x1, x2, y1, y2] = m.slice(1).map(Number);
    // The line must be a well-formed compare-exchange of (x, y): min to x, max to y.
    expect([x1, x2, y1, y2]).toEqual([x, x, y, y]);
    out.push([x, y]);
  }
  return out;
}

/** True if the network sorts all 2^n inputs of 0s and 1s (bit-sliced: 32 inputs per word, AND = min, OR = max). */
function sortsAllZeroOne(n: number, net: [number, number][]): boolean {
  const chunkWords = 2048;
  const totalWords = Math.max(1, 2 ** n / 32);
  const v: Uint32Array[] = [];
  for (let i = 0; i < n; i++) v.push(new Uint32Array(chunkWords));
  const low = [0xaaaaaaaa, 0xcccccccc, 0xf0f0f0f0, 0xff00ff00, 0xffff0000];
  for (let w0 = 0; w0 < totalWords; w0 += chunkWords) {
    const words = Math.min(chunkWords, totalWords - w0);
    // Input number 32 w + b (b = bit in the word) sets variable i to bit i of that number.
    for (let i = 0; i < n; i++) {
      const a = v[i];
      for (let w = 0; w < words; w++) a[w] = i < 5 ? low[i] : (((w0 + w) >>> (i - 5)) & 1) !== 0 ? 0xffffffff : 0;
    }
    for (const [x, y] of net) {
      const a = v[x], b = v[y];
      for (let w = 0; w < words; w++) {
        const lo = a[w] & b[w], hi = a[w] | b[w];
        a[w] = lo;
        b[w] = hi;
      }
    }
    // Sorted ascending: no position holds a 1 followed by a 0.
    for (let i = 0; i + 1 < n; i++) {
      const a = v[i], b = v[i + 1];
      for (let w = 0; w < words; w++) if ((a[w] & ~b[w]) !== 0) return false;
    }
  }
  return true;
}

const networks: [number, (keys: Int32Array, base: number, m: number) => void][] = [
  [8, sortKeys8], [12, sortKeys12], [16, sortKeys16], [20, sortKeys20], [24, sortKeys24],
];

describe('sortKeysN comparator lists', () => {
  it('are exactly Batcher\'s odd-even merge sort lists (re-derived here), with the published sizes', () => {
    const sizes: Record<number, number> = { 8: 19, 12: 42, 16: 63, 20: 103, 24: 132 };
    for (const [n] of networks) {
      const derived = batcher(n);
      expect(derived.length).toBe(sizes[n]);
      expect(comparatorsInSource(n)).toEqual(derived);
    }
  });

  it('sort every 0-1 input (exhaustive, 0-1 principle), and a broken list is caught', () => {
    for (const [n] of networks) expect(sortsAllZeroOne(n, batcher(n))).toBe(true);
    const broken = batcher(12).slice(0, -1);
    expect(sortsAllZeroOne(12, broken)).toBe(false);
  });
});

describe('sortKeysN', () => {
  it('sorts m real keys ascending into [base, base + m) and fills the padding with 0x7fffffff (Array.sort oracle)', () => {
    const rng = createRng(91);
    for (const [n, sort] of networks) {
      for (let trial = 0; trial < 3000; trial++) {
        const m = rngInt(rng, n + 1);
        const base = rngInt(rng, 5);
        const keys = new Int32Array(base + n + 3);
        for (let i = 0; i < keys.length; i++) keys[i] = rngInt(rng, 2) === 0 ? -1 - rngInt(rng, 1000) : rngInt(rng, 0x7fffffff); // junk
        const real: number[] = [];
        for (let i = 0; i < m; i++) {
          // Keys as the kernels build them: a quantised distance, often repeated, and a distinct 6-bit tag.
          const key = ((rngInt(rng, 4) === 0 ? 7 : rngInt(rng, 1 << 24)) << 6) | i;
          keys[base + i] = key;
          real.push(key);
        }
        const before = keys.slice();
        sort(keys, base, m);
        real.sort((a, b) => a - b);
        const want = [...before.subarray(0, base), ...real, ...new Array<number>(n - m).fill(0x7fffffff), ...before.subarray(base + n)];
        if (Array.from(keys).join() !== want.join()) {
          // Nothing outside [base, base + n) may change either.
          expect({ n, m, base, got: Array.from(keys) }).toEqual({ n, m, base, got: want });
        }
      }
    }
  });
});
