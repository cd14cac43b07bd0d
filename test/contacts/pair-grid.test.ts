/** Contacts broad phase (src/contacts/pair-grid.ts): every pair within reach, once per side, against brute force. */
import { describe, expect, it } from 'vitest';
import { buildPairGrid, createPairGrid, createPairList, gatherPairs } from '../../src/contacts/pair-grid';
import { createRng, rngFloat } from '../../src/core/rng';

/** Brute force O(n²): the sorted partner list of every id. */
function bruteAdjacency(xs: Float64Array, ys: Float64Array, rs: Float64Array, ids: Int32Array, n: number, pad: number): Map<number, number[]> {
  const adj = new Map<number, number[]>();
  for (let i = 0; i < n; i++) adj.set(ids[i], []);
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) {
    const a = ids[i], b = ids[j];
    const dx = xs[b] - xs[a], dy = ys[b] - ys[a], reach = rs[a] + rs[b] + pad;
    if (dx * dx + dy * dy <= reach * reach) { adj.get(a)!.push(b); adj.get(b)!.push(a); }
  }
  for (const list of adj.values()) list.sort((p, q) => p - q);
  return adj;
}

function listOf(pl: ReturnType<typeof createPairList>, e: number): number[] {
  return Array.from(pl.b.subarray(pl.off[e], pl.off[e] + pl.cnt[e]));
}

describe('gatherPairs', () => {
  it('lists exactly the pairs within r_a + r_b + pad, sorted by id, in ids order (brute force, 3 crowds)', () => {
    const rng = createRng(11);
    for (const [n, side, rMax, pad] of [[500, 20, 0.5, 0.1], [2000, 30, 0.4, 0.3], [300, 2000, 3, 0]] as const) {
      const cap = 3 * n;
      const xs = new Float64Array(cap), ys = new Float64Array(cap), rs = new Float64Array(cap);
      // ids: a scattered subset of the entity range, in a shuffled order (like a dense list after despawns)
      const ids = new Int32Array(n);
      for (let i = 0; i < n; i++) ids[i] = 3 * i + (i % 3);
      for (let i = n - 1; i > 0; i--) { const k = Math.floor(rngFloat(rng) * (i + 1)); const t = ids[i]; ids[i] = ids[k]; ids[k] = t; }
      let maxR = 0;
      for (let i = 0; i < n; i++) {
        const e = ids[i];
        // a clustered crowd: half the agents in a tight knot, so cells hold many
        const knot = i % 2 === 0;
        xs[e] = knot ? 0.1 * side * rngFloat(rng) : side * rngFloat(rng) - side / 2;
        ys[e] = knot ? 0.1 * side * rngFloat(rng) : side * rngFloat(rng) - side / 2;
        rs[e] = 0.05 + (rMax - 0.05) * rngFloat(rng);
        maxR = Math.max(maxR, rs[e]);
      }
      const g = createPairGrid(8); // grown by the build
      const pl = createPairList(cap);
      buildPairGrid(g, xs, ys, rs, ids, n, 2 * maxR + pad);
      gatherPairs(g, pad, ids, n, pl);
      const adj = bruteAdjacency(xs, ys, rs, ids, n, pad);
      let total = 0;
      for (let i = 0; i < n; i++) {
        const e = ids[i];
        expect(listOf(pl, e), `partners of ${e}`).toEqual(adj.get(e));
        total += adj.get(e)!.length;
        // runs are laid out in ids order
        if (i > 0) expect(pl.off[e]).toBe(pl.off[ids[i - 1]] + pl.cnt[ids[i - 1]]);
      }
      expect(pl.count * 2).toBe(total);
    }
  });

  it('exact at the boundary: a pair at distance exactly r_a + r_b + pad is listed, one ulp further is not', () => {
    // 2^-49 is one ulp of 11.5: entities 2 and 3 are 1.5 m + 1 ulp apart
    const xs = new Float64Array([0, 1.5, 10, 11.5 + 2 ** -49]), ys = new Float64Array(4), rs = new Float64Array([0.5, 0.5, 0.5, 0.5]);
    const ids = new Int32Array([0, 1, 2, 3]);
    const g = createPairGrid(4), pl = createPairList(4);
    buildPairGrid(g, xs, ys, rs, ids, 4, 1.5);
    gatherPairs(g, 0.5, ids, 4, pl);
    expect(listOf(pl, 0)).toEqual([1]);
    expect(listOf(pl, 2)).toEqual([]);
    expect(pl.count).toBe(1);
  });

  it('a crowd spread over a huge area (cells enlarged to bound the table) still finds every pair', () => {
    const n = 200;
    const xs = new Float64Array(n), ys = new Float64Array(n), rs = new Float64Array(n).fill(0.3);
    const ids = new Int32Array(n);
    const rng = createRng(5);
    for (let i = 0; i < n; i++) {
      ids[i] = i;
      // pairs of agents 0.5 m apart, the pairs 1e6 m apart
      const cx = Math.floor(i / 2) * 1e6 * (rngFloat(rng) < 0.5 ? -1 : 1), cy = (i % 7) * 3e5;
      xs[i] = cx + (i % 2) * 0.5; ys[i] = cy;
    }
    const g = createPairGrid(n), pl = createPairList(n);
    buildPairGrid(g, xs, ys, rs, ids, n, 0.7);
    expect(g.cols * g.rows).toBeLessThanOrEqual(4 * n + 4096);
    gatherPairs(g, 0.1, ids, n, pl);
    const adj = bruteAdjacency(xs, ys, rs, ids, n, 0.1);
    for (let i = 0; i < n; i++) expect(listOf(pl, i)).toEqual(adj.get(i));
  });

  it('rebuilding with the same inputs gives the same list, whatever the previous contents (determinism)', () => {
    const n = 1000;
    const rng = createRng(3);
    const xs = new Float64Array(n), ys = new Float64Array(n), rs = new Float64Array(n).fill(0.3), ids = new Int32Array(n);
    for (let i = 0; i < n; i++) { ids[i] = i; xs[i] = 25 * rngFloat(rng); ys[i] = 25 * rngFloat(rng); }
    const g = createPairGrid(n), pl = createPairList(n);
    buildPairGrid(g, xs, ys, rs, ids, n, 0.8);
    gatherPairs(g, 0.2, ids, n, pl);
    const first = Array.from(pl.b.subarray(0, 2 * pl.count));
    // something else in between
    const xs2 = xs.map((x) => x * 0.5);
    buildPairGrid(g, xs2, ys, rs, ids, n, 0.8);
    gatherPairs(g, 0.2, ids, n, pl);
    buildPairGrid(g, xs, ys, rs, ids, n, 0.8);
    gatherPairs(g, 0.2, ids, n, pl);
    expect(Array.from(pl.b.subarray(0, 2 * pl.count))).toEqual(first);
  });
});
