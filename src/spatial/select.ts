import { sortKeys12, sortKeys16, sortKeys20, sortKeys24, sortKeys8 } from './sort-keys';

/** Most survivors selectNearestKeys sorts (the largest network); more are left to the caller's exact sort. */
export const SELECT_KEYS_MAX = 24;

const _selectKeys = new Int32Array(SELECT_KEYS_MAX);

/**
 * The min(m, k) nearest of m candidates (squared distances cd[a] <= r2, distinct ids ci[a], a < m), in (d², id)
 * order, written to outIds/outDist2 at off; returns their number, or -1 when this quick path cannot decide and the
 * caller must sort exactly (more than SELECT_KEYS_MAX candidates, r2 too small to scale, or two of the first
 * min(m, k + 1) distances equal after quantisation; see knn-dense.ts for the argument). On -1, cd and ci are
 * untouched but the outputs may hold a partial answer, which the caller's exact sort overwrites.
 *
 * Each candidate becomes the int32 key (floor(d² S) << 6) | a with S = 2^24 / r2, so q = floor(d² S) <= 2^24;
 * keys are sorted by a branch-free network (sort-keys.ts). Used by the single-query search (hash.ts).
 */
export function selectNearestKeys(
  cd: Float64Array, ci: Int32Array, m: number, k: number, r2: number, outIds: Int32Array, outDist2: Float64Array, off: number,
): number {
  if (m === 0 || k === 0) return 0;
  const S = 16777216 / r2;
  if (m > SELECT_KEYS_MAX || !(S < 1e300)) return -1;
  const keys = _selectKeys;
  for (let a = 0; a < m; a++) keys[a] = (((cd[a] * S) | 0) << 6) | a;
  if (m <= 12) {
    if (m <= 8) sortKeys8(keys, 0, m);
    else sortKeys12(keys, 0, m);
  } else if (m <= 16) {
    sortKeys16(keys, 0, m);
  } else if (m <= 20) {
    sortKeys20(keys, 0, m);
  } else {
    sortKeys24(keys, 0, m);
  }
  const n = m < k ? m : k;
  let prev = -1, tie = 0;
  for (let a = 0; a < n; a++) {
    const key = keys[a];
    const q = key >> 6;
    tie |= +(q === prev);
    prev = q;
    const c = key & 63;
    outIds[off + a] = ci[c];
    outDist2[off + a] = cd[c];
  }
  if (m > n) tie |= +((keys[n] >> 6) === prev);
  return tie === 0 ? n : -1;
}
