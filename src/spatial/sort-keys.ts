/**
 * Branch-free sorting networks for the batch k-nearest search (knn-dense.ts). Generated: do not edit by hand; the
 * comment at the end of this file gives the construction.
 *
 * sortKeysN sorts keys[base .. base + N) ascending in place, of which only the first m are real. Slots m .. N-1 are
 * padding and are read as 0x7fffffff ((key | ((m - 1 - i) >> 31)) & 0x7fffffff), so they sort last and the m real
 * keys end at keys[base .. base + m). Real keys must lie in [0, 2^31 - 1).
 *
 * Why a network. Sorting the dozen or so candidates of a crowd query by insertion mispredicts about one branch per
 * element (where each insertion stops is random); a network does the same comparisons whatever the data. Each
 * compare-exchange is integer arithmetic, d = (b - a) | 0; d &= d >> 31; a += d; b -= d, which swaps a and b
 * exactly when b < a (non-negative keys below 2^31, so b - a never overflows). Math.min/Math.max say the same, but
 * V8 (Node 20) compiles them to branches once register pressure is high, and a network of mispredicted branches
 * was slower than the insertion sort it replaced (measured 2026-11-29: ~200 ns against ~25 ns per 16-key sort).
 * Writing the output inside these functions too (straight-line, no loop) made them ~10 KB each and the batch
 * 15% slower (instruction cache), so they only sort.
 */

/** Sort m <= 8 keys at keys[base ..) (19 comparators); see the file comment. */
export function sortKeys8(keys: Int32Array, base: number, m: number): void {
  let k0 = (keys[base + 0] | ((m - 1) >> 31)) & 0x7fffffff;
  let k1 = (keys[base + 1] | ((m - 2) >> 31)) & 0x7fffffff;
  let k2 = (keys[base + 2] | ((m - 3) >> 31)) & 0x7fffffff;
  let k3 = (keys[base + 3] | ((m - 4) >> 31)) & 0x7fffffff;
  let k4 = (keys[base + 4] | ((m - 5) >> 31)) & 0x7fffffff;
  let k5 = (keys[base + 5] | ((m - 6) >> 31)) & 0x7fffffff;
  let k6 = (keys[base + 6] | ((m - 7) >> 31)) & 0x7fffffff;
  let k7 = (keys[base + 7] | ((m - 8) >> 31)) & 0x7fffffff;
  let d: number;
  d = (k1 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k1 = (k1 - d) | 0;
  d = (k3 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k3 = (k3 - d) | 0;
  d = (k5 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k5 = (k5 - d) | 0;
  d = (k7 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k7 = (k7 - d) | 0;
  d = (k2 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k2 = (k2 - d) | 0;
  d = (k3 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k3 = (k3 - d) | 0;
  d = (k6 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k6 = (k6 - d) | 0;
  d = (k7 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k7 = (k7 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k4 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k5 = (k5 - d) | 0;
  d = (k6 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k6 = (k6 - d) | 0;
  d = (k7 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k7 = (k7 - d) | 0;
  d = (k4 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k5 = (k5 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k4 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k4 = (k4 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  keys[base + 0] = k0;
  keys[base + 1] = k1;
  keys[base + 2] = k2;
  keys[base + 3] = k3;
  keys[base + 4] = k4;
  keys[base + 5] = k5;
  keys[base + 6] = k6;
  keys[base + 7] = k7;
}

/** Sort m <= 12 keys at keys[base ..) (42 comparators); see the file comment. */
export function sortKeys12(keys: Int32Array, base: number, m: number): void {
  let k0 = (keys[base + 0] | ((m - 1) >> 31)) & 0x7fffffff;
  let k1 = (keys[base + 1] | ((m - 2) >> 31)) & 0x7fffffff;
  let k2 = (keys[base + 2] | ((m - 3) >> 31)) & 0x7fffffff;
  let k3 = (keys[base + 3] | ((m - 4) >> 31)) & 0x7fffffff;
  let k4 = (keys[base + 4] | ((m - 5) >> 31)) & 0x7fffffff;
  let k5 = (keys[base + 5] | ((m - 6) >> 31)) & 0x7fffffff;
  let k6 = (keys[base + 6] | ((m - 7) >> 31)) & 0x7fffffff;
  let k7 = (keys[base + 7] | ((m - 8) >> 31)) & 0x7fffffff;
  let k8 = (keys[base + 8] | ((m - 9) >> 31)) & 0x7fffffff;
  let k9 = (keys[base + 9] | ((m - 10) >> 31)) & 0x7fffffff;
  let k10 = (keys[base + 10] | ((m - 11) >> 31)) & 0x7fffffff;
  let k11 = (keys[base + 11] | ((m - 12) >> 31)) & 0x7fffffff;
  let d: number;
  d = (k1 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k1 = (k1 - d) | 0;
  d = (k3 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k3 = (k3 - d) | 0;
  d = (k5 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k5 = (k5 - d) | 0;
  d = (k7 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k7 = (k7 - d) | 0;
  d = (k9 - k8) | 0; d &= d >> 31; k8 = (k8 + d) | 0; k9 = (k9 - d) | 0;
  d = (k11 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k11 = (k11 - d) | 0;
  d = (k2 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k2 = (k2 - d) | 0;
  d = (k3 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k3 = (k3 - d) | 0;
  d = (k6 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k6 = (k6 - d) | 0;
  d = (k7 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k7 = (k7 - d) | 0;
  d = (k10 - k8) | 0; d &= d >> 31; k8 = (k8 + d) | 0; k10 = (k10 - d) | 0;
  d = (k11 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k11 = (k11 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k10 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k10 = (k10 - d) | 0;
  d = (k4 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k5 = (k5 - d) | 0;
  d = (k6 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k6 = (k6 - d) | 0;
  d = (k7 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k7 = (k7 - d) | 0;
  d = (k4 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k5 = (k5 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k4 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k4 = (k4 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k10 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k10 = (k10 - d) | 0;
  d = (k8 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k9 = (k9 - d) | 0;
  d = (k10 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k10 = (k10 - d) | 0;
  d = (k11 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k11 = (k11 - d) | 0;
  d = (k8 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k9 = (k9 - d) | 0;
  d = (k10 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k10 = (k10 - d) | 0;
  d = (k11 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k11 = (k11 - d) | 0;
  d = (k4 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k5 = (k5 - d) | 0;
  d = (k8 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k9 = (k9 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k4 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k4 = (k4 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k8 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k8 = (k8 - d) | 0;
  d = (k10 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k10 = (k10 - d) | 0;
  keys[base + 0] = k0;
  keys[base + 1] = k1;
  keys[base + 2] = k2;
  keys[base + 3] = k3;
  keys[base + 4] = k4;
  keys[base + 5] = k5;
  keys[base + 6] = k6;
  keys[base + 7] = k7;
  keys[base + 8] = k8;
  keys[base + 9] = k9;
  keys[base + 10] = k10;
  keys[base + 11] = k11;
}

/** Sort m <= 16 keys at keys[base ..) (63 comparators); see the file comment. */
export function sortKeys16(keys: Int32Array, base: number, m: number): void {
  let k0 = (keys[base + 0] | ((m - 1) >> 31)) & 0x7fffffff;
  let k1 = (keys[base + 1] | ((m - 2) >> 31)) & 0x7fffffff;
  let k2 = (keys[base + 2] | ((m - 3) >> 31)) & 0x7fffffff;
  let k3 = (keys[base + 3] | ((m - 4) >> 31)) & 0x7fffffff;
  let k4 = (keys[base + 4] | ((m - 5) >> 31)) & 0x7fffffff;
  let k5 = (keys[base + 5] | ((m - 6) >> 31)) & 0x7fffffff;
  let k6 = (keys[base + 6] | ((m - 7) >> 31)) & 0x7fffffff;
  let k7 = (keys[base + 7] | ((m - 8) >> 31)) & 0x7fffffff;
  let k8 = (keys[base + 8] | ((m - 9) >> 31)) & 0x7fffffff;
  let k9 = (keys[base + 9] | ((m - 10) >> 31)) & 0x7fffffff;
  let k10 = (keys[base + 10] | ((m - 11) >> 31)) & 0x7fffffff;
  let k11 = (keys[base + 11] | ((m - 12) >> 31)) & 0x7fffffff;
  let k12 = (keys[base + 12] | ((m - 13) >> 31)) & 0x7fffffff;
  let k13 = (keys[base + 13] | ((m - 14) >> 31)) & 0x7fffffff;
  let k14 = (keys[base + 14] | ((m - 15) >> 31)) & 0x7fffffff;
  let k15 = (keys[base + 15] | ((m - 16) >> 31)) & 0x7fffffff;
  let d: number;
  d = (k1 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k1 = (k1 - d) | 0;
  d = (k3 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k3 = (k3 - d) | 0;
  d = (k5 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k5 = (k5 - d) | 0;
  d = (k7 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k7 = (k7 - d) | 0;
  d = (k9 - k8) | 0; d &= d >> 31; k8 = (k8 + d) | 0; k9 = (k9 - d) | 0;
  d = (k11 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k11 = (k11 - d) | 0;
  d = (k13 - k12) | 0; d &= d >> 31; k12 = (k12 + d) | 0; k13 = (k13 - d) | 0;
  d = (k15 - k14) | 0; d &= d >> 31; k14 = (k14 + d) | 0; k15 = (k15 - d) | 0;
  d = (k2 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k2 = (k2 - d) | 0;
  d = (k3 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k3 = (k3 - d) | 0;
  d = (k6 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k6 = (k6 - d) | 0;
  d = (k7 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k7 = (k7 - d) | 0;
  d = (k10 - k8) | 0; d &= d >> 31; k8 = (k8 + d) | 0; k10 = (k10 - d) | 0;
  d = (k11 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k11 = (k11 - d) | 0;
  d = (k14 - k12) | 0; d &= d >> 31; k12 = (k12 + d) | 0; k14 = (k14 - d) | 0;
  d = (k15 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k15 = (k15 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k10 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k10 = (k10 - d) | 0;
  d = (k14 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k14 = (k14 - d) | 0;
  d = (k4 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k5 = (k5 - d) | 0;
  d = (k6 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k6 = (k6 - d) | 0;
  d = (k7 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k7 = (k7 - d) | 0;
  d = (k12 - k8) | 0; d &= d >> 31; k8 = (k8 + d) | 0; k12 = (k12 - d) | 0;
  d = (k13 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k13 = (k13 - d) | 0;
  d = (k14 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k14 = (k14 - d) | 0;
  d = (k15 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k15 = (k15 - d) | 0;
  d = (k4 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k5 = (k5 - d) | 0;
  d = (k12 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k12 = (k12 - d) | 0;
  d = (k13 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k13 = (k13 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k4 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k4 = (k4 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k10 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k10 = (k10 - d) | 0;
  d = (k12 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k12 = (k12 - d) | 0;
  d = (k14 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k14 = (k14 - d) | 0;
  d = (k8 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k9 = (k9 - d) | 0;
  d = (k10 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k10 = (k10 - d) | 0;
  d = (k11 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k11 = (k11 - d) | 0;
  d = (k12 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k12 = (k12 - d) | 0;
  d = (k13 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k13 = (k13 - d) | 0;
  d = (k14 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k14 = (k14 - d) | 0;
  d = (k15 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k15 = (k15 - d) | 0;
  d = (k8 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k9 = (k9 - d) | 0;
  d = (k10 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k10 = (k10 - d) | 0;
  d = (k11 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k11 = (k11 - d) | 0;
  d = (k4 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k5 = (k5 - d) | 0;
  d = (k8 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k9 = (k9 - d) | 0;
  d = (k12 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k12 = (k12 - d) | 0;
  d = (k13 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k13 = (k13 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k4 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k4 = (k4 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k8 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k8 = (k8 - d) | 0;
  d = (k10 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k10 = (k10 - d) | 0;
  d = (k12 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k12 = (k12 - d) | 0;
  d = (k14 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k14 = (k14 - d) | 0;
  keys[base + 0] = k0;
  keys[base + 1] = k1;
  keys[base + 2] = k2;
  keys[base + 3] = k3;
  keys[base + 4] = k4;
  keys[base + 5] = k5;
  keys[base + 6] = k6;
  keys[base + 7] = k7;
  keys[base + 8] = k8;
  keys[base + 9] = k9;
  keys[base + 10] = k10;
  keys[base + 11] = k11;
  keys[base + 12] = k12;
  keys[base + 13] = k13;
  keys[base + 14] = k14;
  keys[base + 15] = k15;
}

/** Sort m <= 24 keys at keys[base ..) (132 comparators); see the file comment. */
export function sortKeys24(keys: Int32Array, base: number, m: number): void {
  let k0 = (keys[base + 0] | ((m - 1) >> 31)) & 0x7fffffff;
  let k1 = (keys[base + 1] | ((m - 2) >> 31)) & 0x7fffffff;
  let k2 = (keys[base + 2] | ((m - 3) >> 31)) & 0x7fffffff;
  let k3 = (keys[base + 3] | ((m - 4) >> 31)) & 0x7fffffff;
  let k4 = (keys[base + 4] | ((m - 5) >> 31)) & 0x7fffffff;
  let k5 = (keys[base + 5] | ((m - 6) >> 31)) & 0x7fffffff;
  let k6 = (keys[base + 6] | ((m - 7) >> 31)) & 0x7fffffff;
  let k7 = (keys[base + 7] | ((m - 8) >> 31)) & 0x7fffffff;
  let k8 = (keys[base + 8] | ((m - 9) >> 31)) & 0x7fffffff;
  let k9 = (keys[base + 9] | ((m - 10) >> 31)) & 0x7fffffff;
  let k10 = (keys[base + 10] | ((m - 11) >> 31)) & 0x7fffffff;
  let k11 = (keys[base + 11] | ((m - 12) >> 31)) & 0x7fffffff;
  let k12 = (keys[base + 12] | ((m - 13) >> 31)) & 0x7fffffff;
  let k13 = (keys[base + 13] | ((m - 14) >> 31)) & 0x7fffffff;
  let k14 = (keys[base + 14] | ((m - 15) >> 31)) & 0x7fffffff;
  let k15 = (keys[base + 15] | ((m - 16) >> 31)) & 0x7fffffff;
  let k16 = (keys[base + 16] | ((m - 17) >> 31)) & 0x7fffffff;
  let k17 = (keys[base + 17] | ((m - 18) >> 31)) & 0x7fffffff;
  let k18 = (keys[base + 18] | ((m - 19) >> 31)) & 0x7fffffff;
  let k19 = (keys[base + 19] | ((m - 20) >> 31)) & 0x7fffffff;
  let k20 = (keys[base + 20] | ((m - 21) >> 31)) & 0x7fffffff;
  let k21 = (keys[base + 21] | ((m - 22) >> 31)) & 0x7fffffff;
  let k22 = (keys[base + 22] | ((m - 23) >> 31)) & 0x7fffffff;
  let k23 = (keys[base + 23] | ((m - 24) >> 31)) & 0x7fffffff;
  let d: number;
  d = (k1 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k1 = (k1 - d) | 0;
  d = (k3 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k3 = (k3 - d) | 0;
  d = (k5 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k5 = (k5 - d) | 0;
  d = (k7 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k7 = (k7 - d) | 0;
  d = (k9 - k8) | 0; d &= d >> 31; k8 = (k8 + d) | 0; k9 = (k9 - d) | 0;
  d = (k11 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k11 = (k11 - d) | 0;
  d = (k13 - k12) | 0; d &= d >> 31; k12 = (k12 + d) | 0; k13 = (k13 - d) | 0;
  d = (k15 - k14) | 0; d &= d >> 31; k14 = (k14 + d) | 0; k15 = (k15 - d) | 0;
  d = (k17 - k16) | 0; d &= d >> 31; k16 = (k16 + d) | 0; k17 = (k17 - d) | 0;
  d = (k19 - k18) | 0; d &= d >> 31; k18 = (k18 + d) | 0; k19 = (k19 - d) | 0;
  d = (k21 - k20) | 0; d &= d >> 31; k20 = (k20 + d) | 0; k21 = (k21 - d) | 0;
  d = (k23 - k22) | 0; d &= d >> 31; k22 = (k22 + d) | 0; k23 = (k23 - d) | 0;
  d = (k2 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k2 = (k2 - d) | 0;
  d = (k3 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k3 = (k3 - d) | 0;
  d = (k6 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k6 = (k6 - d) | 0;
  d = (k7 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k7 = (k7 - d) | 0;
  d = (k10 - k8) | 0; d &= d >> 31; k8 = (k8 + d) | 0; k10 = (k10 - d) | 0;
  d = (k11 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k11 = (k11 - d) | 0;
  d = (k14 - k12) | 0; d &= d >> 31; k12 = (k12 + d) | 0; k14 = (k14 - d) | 0;
  d = (k15 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k15 = (k15 - d) | 0;
  d = (k18 - k16) | 0; d &= d >> 31; k16 = (k16 + d) | 0; k18 = (k18 - d) | 0;
  d = (k19 - k17) | 0; d &= d >> 31; k17 = (k17 + d) | 0; k19 = (k19 - d) | 0;
  d = (k22 - k20) | 0; d &= d >> 31; k20 = (k20 + d) | 0; k22 = (k22 - d) | 0;
  d = (k23 - k21) | 0; d &= d >> 31; k21 = (k21 + d) | 0; k23 = (k23 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k10 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k10 = (k10 - d) | 0;
  d = (k14 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k14 = (k14 - d) | 0;
  d = (k18 - k17) | 0; d &= d >> 31; k17 = (k17 + d) | 0; k18 = (k18 - d) | 0;
  d = (k22 - k21) | 0; d &= d >> 31; k21 = (k21 + d) | 0; k22 = (k22 - d) | 0;
  d = (k4 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k5 = (k5 - d) | 0;
  d = (k6 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k6 = (k6 - d) | 0;
  d = (k7 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k7 = (k7 - d) | 0;
  d = (k12 - k8) | 0; d &= d >> 31; k8 = (k8 + d) | 0; k12 = (k12 - d) | 0;
  d = (k13 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k13 = (k13 - d) | 0;
  d = (k14 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k14 = (k14 - d) | 0;
  d = (k15 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k15 = (k15 - d) | 0;
  d = (k20 - k16) | 0; d &= d >> 31; k16 = (k16 + d) | 0; k20 = (k20 - d) | 0;
  d = (k21 - k17) | 0; d &= d >> 31; k17 = (k17 + d) | 0; k21 = (k21 - d) | 0;
  d = (k22 - k18) | 0; d &= d >> 31; k18 = (k18 + d) | 0; k22 = (k22 - d) | 0;
  d = (k23 - k19) | 0; d &= d >> 31; k19 = (k19 + d) | 0; k23 = (k23 - d) | 0;
  d = (k4 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k5 = (k5 - d) | 0;
  d = (k12 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k12 = (k12 - d) | 0;
  d = (k13 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k13 = (k13 - d) | 0;
  d = (k20 - k18) | 0; d &= d >> 31; k18 = (k18 + d) | 0; k20 = (k20 - d) | 0;
  d = (k21 - k19) | 0; d &= d >> 31; k19 = (k19 + d) | 0; k21 = (k21 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k4 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k4 = (k4 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k10 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k10 = (k10 - d) | 0;
  d = (k12 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k12 = (k12 - d) | 0;
  d = (k14 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k14 = (k14 - d) | 0;
  d = (k18 - k17) | 0; d &= d >> 31; k17 = (k17 + d) | 0; k18 = (k18 - d) | 0;
  d = (k20 - k19) | 0; d &= d >> 31; k19 = (k19 + d) | 0; k20 = (k20 - d) | 0;
  d = (k22 - k21) | 0; d &= d >> 31; k21 = (k21 + d) | 0; k22 = (k22 - d) | 0;
  d = (k8 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k9 = (k9 - d) | 0;
  d = (k10 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k10 = (k10 - d) | 0;
  d = (k11 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k11 = (k11 - d) | 0;
  d = (k12 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k12 = (k12 - d) | 0;
  d = (k13 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k13 = (k13 - d) | 0;
  d = (k14 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k14 = (k14 - d) | 0;
  d = (k15 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k15 = (k15 - d) | 0;
  d = (k8 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k9 = (k9 - d) | 0;
  d = (k10 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k10 = (k10 - d) | 0;
  d = (k11 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k11 = (k11 - d) | 0;
  d = (k4 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k5 = (k5 - d) | 0;
  d = (k8 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k9 = (k9 - d) | 0;
  d = (k12 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k12 = (k12 - d) | 0;
  d = (k13 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k13 = (k13 - d) | 0;
  d = (k20 - k18) | 0; d &= d >> 31; k18 = (k18 + d) | 0; k20 = (k20 - d) | 0;
  d = (k21 - k19) | 0; d &= d >> 31; k19 = (k19 + d) | 0; k21 = (k21 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k4 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k4 = (k4 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k8 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k8 = (k8 - d) | 0;
  d = (k10 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k10 = (k10 - d) | 0;
  d = (k12 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k12 = (k12 - d) | 0;
  d = (k14 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k14 = (k14 - d) | 0;
  d = (k18 - k17) | 0; d &= d >> 31; k17 = (k17 + d) | 0; k18 = (k18 - d) | 0;
  d = (k20 - k19) | 0; d &= d >> 31; k19 = (k19 + d) | 0; k20 = (k20 - d) | 0;
  d = (k22 - k21) | 0; d &= d >> 31; k21 = (k21 + d) | 0; k22 = (k22 - d) | 0;
  d = (k16 - k0) | 0; d &= d >> 31; k0 = (k0 + d) | 0; k16 = (k16 - d) | 0;
  d = (k17 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k17 = (k17 - d) | 0;
  d = (k18 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k18 = (k18 - d) | 0;
  d = (k19 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k19 = (k19 - d) | 0;
  d = (k20 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k20 = (k20 - d) | 0;
  d = (k21 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k21 = (k21 - d) | 0;
  d = (k22 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k22 = (k22 - d) | 0;
  d = (k23 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k23 = (k23 - d) | 0;
  d = (k16 - k8) | 0; d &= d >> 31; k8 = (k8 + d) | 0; k16 = (k16 - d) | 0;
  d = (k17 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k17 = (k17 - d) | 0;
  d = (k18 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k18 = (k18 - d) | 0;
  d = (k19 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k19 = (k19 - d) | 0;
  d = (k20 - k12) | 0; d &= d >> 31; k12 = (k12 + d) | 0; k20 = (k20 - d) | 0;
  d = (k21 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k21 = (k21 - d) | 0;
  d = (k22 - k14) | 0; d &= d >> 31; k14 = (k14 + d) | 0; k22 = (k22 - d) | 0;
  d = (k23 - k15) | 0; d &= d >> 31; k15 = (k15 + d) | 0; k23 = (k23 - d) | 0;
  d = (k8 - k4) | 0; d &= d >> 31; k4 = (k4 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k9 = (k9 - d) | 0;
  d = (k10 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k10 = (k10 - d) | 0;
  d = (k11 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k11 = (k11 - d) | 0;
  d = (k16 - k12) | 0; d &= d >> 31; k12 = (k12 + d) | 0; k16 = (k16 - d) | 0;
  d = (k17 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k17 = (k17 - d) | 0;
  d = (k18 - k14) | 0; d &= d >> 31; k14 = (k14 + d) | 0; k18 = (k18 - d) | 0;
  d = (k19 - k15) | 0; d &= d >> 31; k15 = (k15 + d) | 0; k19 = (k19 - d) | 0;
  d = (k4 - k2) | 0; d &= d >> 31; k2 = (k2 + d) | 0; k4 = (k4 - d) | 0;
  d = (k5 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k5 = (k5 - d) | 0;
  d = (k8 - k6) | 0; d &= d >> 31; k6 = (k6 + d) | 0; k8 = (k8 - d) | 0;
  d = (k9 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k9 = (k9 - d) | 0;
  d = (k12 - k10) | 0; d &= d >> 31; k10 = (k10 + d) | 0; k12 = (k12 - d) | 0;
  d = (k13 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k13 = (k13 - d) | 0;
  d = (k16 - k14) | 0; d &= d >> 31; k14 = (k14 + d) | 0; k16 = (k16 - d) | 0;
  d = (k17 - k15) | 0; d &= d >> 31; k15 = (k15 + d) | 0; k17 = (k17 - d) | 0;
  d = (k20 - k18) | 0; d &= d >> 31; k18 = (k18 + d) | 0; k20 = (k20 - d) | 0;
  d = (k21 - k19) | 0; d &= d >> 31; k19 = (k19 + d) | 0; k21 = (k21 - d) | 0;
  d = (k2 - k1) | 0; d &= d >> 31; k1 = (k1 + d) | 0; k2 = (k2 - d) | 0;
  d = (k4 - k3) | 0; d &= d >> 31; k3 = (k3 + d) | 0; k4 = (k4 - d) | 0;
  d = (k6 - k5) | 0; d &= d >> 31; k5 = (k5 + d) | 0; k6 = (k6 - d) | 0;
  d = (k8 - k7) | 0; d &= d >> 31; k7 = (k7 + d) | 0; k8 = (k8 - d) | 0;
  d = (k10 - k9) | 0; d &= d >> 31; k9 = (k9 + d) | 0; k10 = (k10 - d) | 0;
  d = (k12 - k11) | 0; d &= d >> 31; k11 = (k11 + d) | 0; k12 = (k12 - d) | 0;
  d = (k14 - k13) | 0; d &= d >> 31; k13 = (k13 + d) | 0; k14 = (k14 - d) | 0;
  d = (k16 - k15) | 0; d &= d >> 31; k15 = (k15 + d) | 0; k16 = (k16 - d) | 0;
  d = (k18 - k17) | 0; d &= d >> 31; k17 = (k17 + d) | 0; k18 = (k18 - d) | 0;
  d = (k20 - k19) | 0; d &= d >> 31; k19 = (k19 + d) | 0; k20 = (k20 - d) | 0;
  d = (k22 - k21) | 0; d &= d >> 31; k21 = (k21 + d) | 0; k22 = (k22 - d) | 0;
  keys[base + 0] = k0;
  keys[base + 1] = k1;
  keys[base + 2] = k2;
  keys[base + 3] = k3;
  keys[base + 4] = k4;
  keys[base + 5] = k5;
  keys[base + 6] = k6;
  keys[base + 7] = k7;
  keys[base + 8] = k8;
  keys[base + 9] = k9;
  keys[base + 10] = k10;
  keys[base + 11] = k11;
  keys[base + 12] = k12;
  keys[base + 13] = k13;
  keys[base + 14] = k14;
  keys[base + 15] = k15;
  keys[base + 16] = k16;
  keys[base + 17] = k17;
  keys[base + 18] = k18;
  keys[base + 19] = k19;
  keys[base + 20] = k20;
  keys[base + 21] = k21;
  keys[base + 22] = k22;
  keys[base + 23] = k23;
}

// Construction. The comparator lists are Batcher's odd-even merge sort (K. E. Batcher, "Sorting networks and their
// applications", AFIPS 1968; Knuth, TAOCP vol. 3, 5.3.4) in its iterative form for any N, which gives 19, 42, 63
// and 132 comparators for N = 8, 12, 16 and 24:
//
//   for p = 1, 2, 4, ... < N:
//     for q = p, p/2, ..., 1:
//       for j = q mod p; j <= N - 1 - q; j += 2q:
//         for i = 0 .. min(q - 1, N - j - q - 1):
//           if floor((i + j) / 2p) == floor((i + j + q) / 2p): compare-exchange(k[i + j], k[i + j + q])
//
// test/spatial/sort-keys.test.ts re-derives these lists from the loop, checks that the code below holds exactly
// them, checks each list with the 0-1 principle (a network sorts every input iff it sorts every 0-1 input; Knuth
// 5.3.4, theorem Z) and runs the functions against a plain sort.
