/**
 * Spatial hash tests. The oracle throughout is brute force: an O(n) scan over every entry with the same distance
 * formula (dx*dx + dy*dy <= r*r) and the same (d², id) order, written independently of the hash below. Scenes are
 * seeded (src/core/rng.ts), so every failure reproduces.
 */
import { describe, expect, it } from 'vitest';
import { createRng, rngFloat, rngInt, type Rng } from '../../src/core/rng';
import { CapacityError, InvalidArgumentError, MalformedInputError, OutOfRangeError } from '../../src/core/errors';
import {
  createSpatialHash,
  openSpatialHash,
  syncSpatialHash,
  queryKNearest,
  queryKNearestBatch,
  queryRadius,
  rebuildSpatialHash,
  setSpatialHashCellSize,
  spatialHashBucket,
  type SpatialHash,
} from '../../src/spatial/hash';

// ---------------------------------------------------------------------------------------------------------------
// Scenes and the brute-force oracle
// ---------------------------------------------------------------------------------------------------------------

interface Scene {
  name: string;
  xs: Float64Array;
  ys: Float64Array;
  /** Entity ids in the hash (a subset of xs/ys indices, in shuffled order). */
  ids: Int32Array;
  count: number;
  layers: Int32Array;
}

/** Positions for ids 0..slots-1; the hash holds `count` of them, chosen and ordered at random. */
function makeScene(name: string, rng: Rng, slots: number, count: number, place: (i: number) => [number, number]): Scene {
  const xs = new Float64Array(slots), ys = new Float64Array(slots), layers = new Int32Array(slots);
  for (let i = 0; i < slots; i++) {
    const [x, y] = place(i);
    xs[i] = x;
    ys[i] = y;
    layers[i] = 1 << rngInt(rng, 3);
  }
  // Fisher-Yates shuffle of 0..slots-1, keep the first `count`.
  const perm = new Int32Array(slots);
  for (let i = 0; i < slots; i++) perm[i] = i;
  for (let i = slots - 1; i > 0; i--) {
    const j = rngInt(rng, i + 1);
    const t = perm[i]; perm[i] = perm[j]; perm[j] = t;
  }
  return { name, xs, ys, ids: perm.slice(0, count), count, layers };
}

function uniform(seed: number, n: number, side: number, ox = 0, oy = 0): Scene {
  const rng = createRng(seed);
  return makeScene(`uniform n=${n} side=${side} at (${ox},${oy})`, rng, n + 7, n, () => [ox + (rngFloat(rng) - 0.5) * side, oy + (rngFloat(rng) - 0.5) * side]);
}

/** Tight Gaussian-ish blobs (sum of 3 uniforms) around a few centres: many entries per cell, many empty cells. */
function clustered(seed: number, n: number): Scene {
  const rng = createRng(seed);
  const cx = [-40, 3, 25, 60, 61], cy = [10, -3, 40, -70, -69];
  return makeScene(`clustered n=${n}`, rng, n, n, () => {
    const c = rngInt(rng, cx.length);
    const s = c === 1 ? 0.3 : 2.5;
    const gx = (rngFloat(rng) + rngFloat(rng) + rngFloat(rng) - 1.5) * s;
    const gy = (rngFloat(rng) + rngFloat(rng) + rngFloat(rng) - 1.5) * s;
    return [cx[c] + gx, cy[c] + gy];
  });
}

/** Few distinct positions shared by many entries: exact distance ties everywhere. */
function duplicates(seed: number, n: number): Scene {
  const rng = createRng(seed);
  const px = [0, 0, 1.5, -3, 3, 3], py = [0, 0, 0, 2, 3, -3];
  return makeScene(`duplicates n=${n}`, rng, n, n, () => {
    const c = rngInt(rng, px.length);
    return [px[c], py[c]];
  });
}

/** Integer lattice at multiples of 3 (cell boundaries when cellSize = 3, where 1/3 is inexact). */
function lattice(seed: number): Scene {
  const rng = createRng(seed);
  const w = 21;
  return makeScene('lattice step 3', rng, w * w, w * w, (i) => [((i % w) - 10) * 3, (Math.floor(i / w) - 10) * 3]);
}

/** A sparse, one-dimensional crowd: points 2.5 m apart on a circle (few entries per cell, most cells empty), so discs
 * of several cells take the row scan for sparse crowds; the mirror symmetry gives equal distances (ties). */
function ring(seed: number): Scene {
  const rng = createRng(seed);
  const n = 700, R = (n * 2.5) / (2 * Math.PI);
  return makeScene('ring of 700, 2.5 m apart', rng, n, n, (i) => [R * Math.cos((2 * Math.PI * i) / n), R * Math.sin((2 * Math.PI * i) / n)]);
}

function bruteRadius(s: Scene, x: number, y: number, r: number, exclude: number, layers: Int32Array | null, mask: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.count; i++) {
    const id = s.ids[i];
    const dx = s.xs[id] - x, dy = s.ys[id] - y;
    if (dx * dx + dy * dy <= r * r && id !== exclude && (layers === null || (layers[id] & mask) !== 0)) out.push(id);
  }
  return out.sort((a, b) => a - b);
}

function bruteKnn(s: Scene, x: number, y: number, r: number, k: number, exclude: number, layers: Int32Array | null, mask: number): { ids: number[]; d2: number[] } {
  const all: { id: number; d2: number }[] = [];
  for (let i = 0; i < s.count; i++) {
    const id = s.ids[i];
    const dx = s.xs[id] - x, dy = s.ys[id] - y;
    const d2 = dx * dx + dy * dy;
    if (d2 <= r * r && id !== exclude && (layers === null || (layers[id] & mask) !== 0)) all.push({ id, d2 });
  }
  all.sort((a, b) => a.d2 - b.d2 || a.id - b.id);
  const top = all.slice(0, k);
  return { ids: top.map((e) => e.id), d2: top.map((e) => e.d2) };
}

function built(s: Scene, cellSize: number, capacity = s.count): SpatialHash {
  const h = createSpatialHash(Math.max(1, capacity), cellSize);
  rebuildSpatialHash(h, s.xs, s.ys, s.ids, s.count);
  return h;
}

/** Query points: every 11th entry's own position (with itself excluded) plus random points around the scene. */
function queryPoints(s: Scene, rng: Rng, extra: number): { x: number; y: number; exclude: number }[] {
  const pts: { x: number; y: number; exclude: number }[] = [];
  for (let i = 0; i < s.count; i += 11) pts.push({ x: s.xs[s.ids[i]], y: s.ys[s.ids[i]], exclude: s.ids[i] });
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (let i = 0; i < s.count; i++) {
    const id = s.ids[i];
    minX = Math.min(minX, s.xs[id]); maxX = Math.max(maxX, s.xs[id]);
    minY = Math.min(minY, s.ys[id]); maxY = Math.max(maxY, s.ys[id]);
  }
  if (s.count === 0) { minX = minY = -10; maxX = maxY = 10; }
  for (let q = 0; q < extra; q++) {
    pts.push({ x: minX - 5 + (maxX - minX + 10) * rngFloat(rng), y: minY - 5 + (maxY - minY + 10) * rngFloat(rng), exclude: -1 });
  }
  return pts;
}

const scenes = (): Scene[] => [
  uniform(1, 1500, 80),
  uniform(2, 800, 60, -500, -1234.5), // all-negative coordinates
  uniform(3, 600, 50, 1e7, -1e7), // very large coordinates
  clustered(4, 1500),
  duplicates(5, 300),
  lattice(6),
  ring(7),
];

// ---------------------------------------------------------------------------------------------------------------

describe('createSpatialHash', () => {
  it('starts empty and answers queries with nothing', () => {
    const h = createSpatialHash(10, 2);
    expect(h.count).toBe(0);
    expect(queryRadius(h, 0, 0, 100, -1, new Int32Array(4))).toBe(0);
    expect(queryKNearest(h, 0, 0, 100, 3, -1, new Int32Array(3), new Float64Array(3))).toBe(0);
  });

  it('rejects a bad capacity or cell size, naming the field', () => {
    expect(() => createSpatialHash(0, 1)).toThrow(InvalidArgumentError);
    expect(() => createSpatialHash(2.5, 1)).toThrow(/capacity/);
    expect(() => createSpatialHash(4, 0)).toThrow(/cellSize/);
    expect(() => createSpatialHash(4, -1)).toThrow(InvalidArgumentError);
    expect(() => createSpatialHash(4, NaN)).toThrow(/cellSize/);
    expect(() => createSpatialHash(4, Infinity)).toThrow(/cellSize/);
  });

  it('puts every array in one SharedArrayBuffer when shared', () => {
    const h = createSpatialHash(100, 2, { shared: true });
    expect(h.buffer).toBeInstanceOf(SharedArrayBuffer);
    for (const a of [h.sortedX, h.sortedY, h.sortedIds, h.sortedCellX, h.sortedCellY, h.cellStart, h.cellCursor, h.entryBucket, h.floatRegion, h.intRegion]) {
      expect(a.buffer).toBe(h.buffer);
    }
    const s = uniform(11, 100, 20);
    rebuildSpatialHash(h, s.xs, s.ys, s.ids, s.count);
    const out = new Int32Array(100);
    const n = queryRadius(h, 0, 0, 5, -1, out);
    expect(Array.from(out.subarray(0, n)).sort((a, b) => a - b)).toEqual(bruteRadius(s, 0, 0, 5, -1, null, 0));
  });
});

describe('SpatialHash region views', () => {
  it('floatRegion and intRegion are the named arrays, in order, over the same memory', () => {
    const h = createSpatialHash(37, 2);
    const s = uniform(12, 37, 15);
    rebuildSpatialHash(h, s.xs, s.ys, s.ids, s.count);
    const cap = h.capacity, tc = h.tableCapacity;
    const f = [h.sortedX, h.sortedY];
    const i = [h.sortedIds, h.sortedCellX, h.sortedCellY, h.entryBucket, h.cellStart, h.cellCursor];
    expect(h.floatRegion.length).toBe(2 * cap);
    expect(h.intRegion.length).toBe(4 * cap + 2 * tc + 1);
    let off = 0;
    for (const a of f) {
      expect(a.byteOffset).toBe(h.floatRegion.byteOffset + off * 8);
      off += a.length;
    }
    off = 0;
    for (const a of i) {
      expect(a.byteOffset).toBe(h.intRegion.byteOffset + off * 4);
      off += a.length;
    }
    expect(off).toBe(h.intRegion.length);
    for (let t = 0; t < h.count; t++) {
      expect(h.floatRegion[cap + t]).toBe(h.sortedY[t]);
      expect(h.intRegion[2 * cap + t]).toBe(h.sortedCellY[t]);
    }
  });
});

describe('openSpatialHash / syncSpatialHash', () => {
  function sameAnswers(a: SpatialHash, b: SpatialHash, s: Scene): void {
    const ia = new Int32Array(12), da = new Float64Array(12), ib = new Int32Array(12), db = new Float64Array(12);
    const ra = new Int32Array(s.count + 1), rb = new Int32Array(s.count + 1);
    for (const p of queryPoints(s, createRng(3), 10)) {
      const na = queryKNearest(a, p.x, p.y, 5, 12, p.exclude, ia, da);
      expect(queryKNearest(b, p.x, p.y, 5, 12, p.exclude, ib, db)).toBe(na);
      expect(Array.from(ib.subarray(0, na))).toEqual(Array.from(ia.subarray(0, na)));
      expect(Array.from(ib.subarray(0, na))).toEqual(bruteKnn(s, p.x, p.y, 5, 12, p.exclude, null, 0).ids);
      const ma = queryRadius(a, p.x, p.y, 3, p.exclude, ra);
      expect(queryRadius(b, p.x, p.y, 3, p.exclude, rb)).toBe(ma);
      expect(Array.from(rb.subarray(0, ma))).toEqual(Array.from(ra.subarray(0, ma)));
    }
  }

  it('opens the same memory from the buffer alone, and follows later rebuilds after a sync (brute-force checked)', () => {
    const h = createSpatialHash(2000, 2, { shared: true });
    const a = clustered(91, 1500);
    rebuildSpatialHash(h, a.xs, a.ys, a.ids, a.count);
    const reader = openSpatialHash(h.buffer);
    expect(reader.sortedX.buffer).toBe(h.buffer);
    expect(reader.capacity).toBe(2000);
    expect(reader.count).toBe(a.count);
    sameAnswers(h, reader, a);

    const b = uniform(92, 700, 60, -30, 12);
    setSpatialHashCellSize(h, 3.5);
    rebuildSpatialHash(h, b.xs, b.ys, b.ids, b.count);
    expect(reader.count).toBe(a.count); // not yet synced
    syncSpatialHash(reader);
    expect(reader.count).toBe(b.count);
    expect(reader.gridCellSize).toBe(3.5);
    sameAnswers(h, reader, b);
  });

  it('rejects buffers that are not a spatial hash', () => {
    expect(() => openSpatialHash(new ArrayBuffer(64))).toThrow(MalformedInputError);
    expect(() => openSpatialHash(new SharedArrayBuffer(8))).toThrow(MalformedInputError);
    expect(() => openSpatialHash({} as ArrayBuffer)).toThrow(/buffer/);
    const h = createSpatialHash(10, 1);
    expect(() => openSpatialHash(h.buffer.slice(0, h.buffer.byteLength - 4))).toThrow(MalformedInputError);
    expect(openSpatialHash(h.buffer).capacity).toBe(10);
  });
});

describe('rebuildSpatialHash', () => {
  it('files every entry exactly once, in the bucket of its cell (counting-sort invariants, checked by brute force)', () => {
    for (const s of scenes()) {
      const h = built(s, 3);
      expect(h.count).toBe(s.count);
      const seen = new Int32Array(s.xs.length);
      for (let b = 0; b < h.tableSize; b++) {
        for (let t = h.cellStart[b]; t < h.cellStart[b + 1]; t++) {
          const id = h.sortedIds[t];
          seen[id]++;
          expect(h.sortedX[t]).toBe(s.xs[id]);
          expect(h.sortedY[t]).toBe(s.ys[id]);
          expect(h.sortedCellX[t]).toBe(Math.floor(s.xs[id] * (1 / 3)));
          expect(h.sortedCellY[t]).toBe(Math.floor(s.ys[id] * (1 / 3)));
          expect(spatialHashBucket(h.sortedCellX[t], h.sortedCellY[t], h.widthBits, h.heightBits)).toBe(b);
        }
      }
      expect(h.cellStart[h.tableSize]).toBe(s.count);
      for (let i = 0; i < s.count; i++) expect(seen[s.ids[i]]).toBe(1);
    }
  });

  it('is deterministic: two hashes built from the same input hold identical arrays', () => {
    const s = clustered(21, 700);
    const a = built(s, 2.5), b = built(s, 2.5);
    expect(Array.from(a.sortedIds.subarray(0, a.count))).toEqual(Array.from(b.sortedIds.subarray(0, b.count)));
    expect(Array.from(a.cellStart.subarray(0, a.tableSize + 1))).toEqual(Array.from(b.cellStart.subarray(0, b.tableSize + 1)));
  });

  it('rejects NaN and infinite positions, naming the entity, and leaves the previous index intact', () => {
    const s = uniform(31, 50, 20);
    const h = built(s, 2);
    const out = new Int32Array(64);
    const before = Array.from(out.subarray(0, queryRadius(h, 0, 0, 6, -1, out)));
    const xs = s.xs.slice();
    const victim = s.ids[17];
    xs[victim] = NaN;
    expect(() => rebuildSpatialHash(h, xs, s.ys, s.ids, s.count)).toThrow(InvalidArgumentError);
    expect(() => rebuildSpatialHash(h, xs, s.ys, s.ids, s.count)).toThrow(`xs[${victim}]`);
    const ys = s.ys.slice();
    ys[victim] = -Infinity;
    expect(() => rebuildSpatialHash(h, s.xs, ys, s.ids, s.count)).toThrow(`ys[${victim}]`);
    expect(h.count).toBe(s.count);
    expect(Array.from(out.subarray(0, queryRadius(h, 0, 0, 6, -1, out)))).toEqual(before);
  });

  it('rejects coordinates beyond the cell-coordinate range with OutOfRangeError', () => {
    const xs = new Float64Array([0, 3e9]), ys = new Float64Array([0, 0]), ids = new Int32Array([0, 1]);
    const h = createSpatialHash(2, 1); // |x| / cellSize must stay below 2^30 ~ 1.07e9
    expect(() => rebuildSpatialHash(h, xs, ys, ids, 2)).toThrow(OutOfRangeError);
    expect(() => rebuildSpatialHash(h, xs, ys, ids, 2)).toThrow('xs[1]');
    const big = createSpatialHash(2, 1e9);
    xs[1] = 2e15; // above the absolute 1e15 m limit
    expect(() => rebuildSpatialHash(big, xs, ys, ids, 2)).toThrow(OutOfRangeError);
  });

  it('rejects count above capacity, bad counts and ids that do not index the positions', () => {
    const s = uniform(41, 10, 10);
    const h = createSpatialHash(5, 1);
    expect(() => rebuildSpatialHash(h, s.xs, s.ys, s.ids, 6)).toThrow(CapacityError);
    expect(() => rebuildSpatialHash(h, s.xs, s.ys, s.ids, -1)).toThrow(/count/);
    expect(() => rebuildSpatialHash(h, s.xs, s.ys, s.ids, 1.5)).toThrow(/count/);
    expect(() => rebuildSpatialHash(h, s.xs, s.ys, new Int32Array(2), 3)).toThrow(/ids/);
    expect(() => rebuildSpatialHash(h, s.xs, s.ys, new Int32Array([0, 99]), 2)).toThrow('ids[1]');
    expect(() => rebuildSpatialHash(h, s.xs, s.ys, new Int32Array([-1]), 1)).toThrow('ids[0]');
  });

  it('holds a single entry at capacity 1', () => {
    const h = createSpatialHash(1, 1);
    rebuildSpatialHash(h, new Float64Array([5, -7.25]), new Float64Array([5, 3.5]), new Int32Array([1]), 1);
    const ids = new Int32Array(1), d2 = new Float64Array(1);
    expect(queryKNearest(h, -7, 3, 1, 1, -1, ids, d2)).toBe(1);
    expect(ids[0]).toBe(1);
    expect(d2[0]).toBe(0.25 * 0.25 + 0.5 * 0.5);
    expect(queryKNearest(h, -7, 3, 1, 1, 1, ids, d2)).toBe(0); // excluded
    expect(queryRadius(h, 100, 100, 1e6, -1, ids)).toBe(1); // r >> cell size: linear-scan path
  });
});

describe('setSpatialHashCellSize', () => {
  it('applies at the next rebuild; the current contents stay correct until then (checked by brute force)', () => {
    const s = uniform(51, 400, 40);
    const h = built(s, 1);
    setSpatialHashCellSize(h, 7);
    expect(h.cellSize).toBe(7);
    expect(h.gridCellSize).toBe(1);
    const out = new Int32Array(400);
    let n = queryRadius(h, 2, -3, 4.5, -1, out);
    expect(Array.from(out.subarray(0, n)).sort((a, b) => a - b)).toEqual(bruteRadius(s, 2, -3, 4.5, -1, null, 0));
    rebuildSpatialHash(h, s.xs, s.ys, s.ids, s.count);
    expect(h.gridCellSize).toBe(7);
    n = queryRadius(h, 2, -3, 4.5, -1, out);
    expect(Array.from(out.subarray(0, n)).sort((a, b) => a - b)).toEqual(bruteRadius(s, 2, -3, 4.5, -1, null, 0));
  });

  it('rejects cell sizes <= 0 or not finite', () => {
    const h = createSpatialHash(4, 1);
    expect(() => setSpatialHashCellSize(h, 0)).toThrow(InvalidArgumentError);
    expect(() => setSpatialHashCellSize(h, NaN)).toThrow(/cellSize/);
    expect(h.cellSize).toBe(1);
  });
});

describe('queryRadius', () => {
  it('matches brute force on uniform, clustered, duplicate, negative, 1e7 and lattice scenes for r below, at and far above the cell size', () => {
    const rng = createRng(61);
    for (const s of scenes()) {
      for (const cell of [1, 3, 4]) {
        const h = built(s, cell);
        const out = new Int32Array(s.count + 1);
        for (const r of [0, 0.7, 3, 4, 9.5, 200]) {
          for (const p of queryPoints(s, rng, 10)) {
            const n = queryRadius(h, p.x, p.y, r, p.exclude, out);
            const got = Array.from(out.subarray(0, n)).sort((a, b) => a - b);
            const want = bruteRadius(s, p.x, p.y, r, p.exclude, null, 0);
            if (got.length !== want.length || got.some((v, i) => v !== want[i])) {
              throw new Error(`${s.name}, cell ${cell}, r ${r}, at (${p.x}, ${p.y}): got ${got.length} ids, brute force ${want.length}`);
            }
          }
        }
      }
    }
  });

  it('applies the layer filter like brute force', () => {
    const s = clustered(62, 900);
    const h = built(s, 2);
    const out = new Int32Array(900);
    for (const mask of [1, 2, 5, 0]) {
      for (const p of queryPoints(s, createRng(mask), 5)) {
        const n = queryRadius(h, p.x, p.y, 6, p.exclude, out, s.layers, mask);
        expect(Array.from(out.subarray(0, n)).sort((a, b) => a - b)).toEqual(bruteRadius(s, p.x, p.y, 6, p.exclude, s.layers, mask));
      }
    }
  });

  it('stops when the output is full and returns only ids that brute force also finds', () => {
    const s = duplicates(63, 200);
    const h = built(s, 1);
    const out = new Int32Array(5);
    const n = queryRadius(h, 0, 0, 2, -1, out);
    expect(n).toBe(5);
    const want = new Set(bruteRadius(s, 0, 0, 2, -1, null, 0));
    expect(want.size).toBeGreaterThan(5);
    for (const id of out) expect(want.has(id)).toBe(true);
    expect(new Set(out).size).toBe(5);
  });

  it('rejects NaN or infinite query points and negative or non-finite radii', () => {
    const h = built(uniform(64, 10, 10), 1);
    const out = new Int32Array(4);
    expect(() => queryRadius(h, NaN, 0, 1, -1, out)).toThrow(/\bx\b/);
    expect(() => queryRadius(h, 0, Infinity, 1, -1, out)).toThrow(/\by\b/);
    expect(() => queryRadius(h, 0, 0, -1, -1, out)).toThrow(/\br\b/);
    expect(() => queryRadius(h, 0, 0, NaN, -1, out)).toThrow(InvalidArgumentError);
  });
});

describe('queryKNearest', () => {
  it('matches brute force (ids and squared distances, (d², id) order) on every scene, k in {1, 10, 40}', () => {
    const rng = createRng(71);
    for (const s of scenes()) {
      for (const cell of [1, 3, 5]) {
        const h = built(s, cell);
        const ids = new Int32Array(40), d2 = new Float64Array(40);
        for (const r of [0, 2, 3, 7.5, 150]) {
          for (const k of [1, 10, 40]) {
            for (const p of queryPoints(s, rng, 5)) {
              const n = queryKNearest(h, p.x, p.y, r, k, p.exclude, ids, d2);
              const want = bruteKnn(s, p.x, p.y, r, k, p.exclude, null, 0);
              const gotIds = Array.from(ids.subarray(0, n));
              if (gotIds.join() !== want.ids.join() || Array.from(d2.subarray(0, n)).join() !== want.d2.join()) {
                throw new Error(`${s.name}, cell ${cell}, r ${r}, k ${k} at (${p.x}, ${p.y}): got [${gotIds}] brute force [${want.ids}]`);
              }
            }
          }
        }
      }
    }
  });

  it('returns fewer than k when fewer are in range (k larger than the number in range, brute force count)', () => {
    const s = uniform(72, 300, 100);
    const h = built(s, 2);
    const ids = new Int32Array(50), d2 = new Float64Array(50);
    const n = queryKNearest(h, 0, 0, 5, 50, -1, ids, d2);
    const want = bruteKnn(s, 0, 0, 5, 50, -1, null, 0);
    expect(want.ids.length).toBeLessThan(50);
    expect(n).toBe(want.ids.length);
    expect(Array.from(ids.subarray(0, n))).toEqual(want.ids);
  });

  it('breaks exact distance ties by the smaller id (duplicate positions, brute force order)', () => {
    const s = duplicates(73, 120);
    const h = built(s, 2);
    const ids = new Int32Array(12), d2 = new Float64Array(12);
    const n = queryKNearest(h, 0, 0, 10, 12, -1, ids, d2);
    expect(n).toBe(12);
    expect(d2[0]).toBe(0);
    expect(Array.from(ids)).toEqual(bruteKnn(s, 0, 0, 10, 12, -1, null, 0).ids);
  });

  it('applies the layer filter and the exclusion like brute force', () => {
    const s = clustered(74, 1000);
    const h = built(s, 2);
    const ids = new Int32Array(8), d2 = new Float64Array(8);
    for (const mask of [1, 6, 7]) {
      for (const p of queryPoints(s, createRng(mask + 9), 5)) {
        const n = queryKNearest(h, p.x, p.y, 5, 8, p.exclude, ids, d2, s.layers, mask);
        const want = bruteKnn(s, p.x, p.y, 5, 8, p.exclude, s.layers, mask);
        expect(Array.from(ids.subarray(0, n))).toEqual(want.ids);
        expect(Array.from(d2.subarray(0, n))).toEqual(want.d2);
      }
    }
  });

  it('answers query points far outside the populated area and beyond the cell-coordinate range (brute force)', () => {
    const s = uniform(75, 200, 30);
    const h = built(s, 0.5);
    const ids = new Int32Array(3), d2 = new Float64Array(3);
    for (const [x, y, r] of [[1e3, 0, 1e4], [1e12, -1e12, 1e13], [0, 0, 1e9]]) {
      const n = queryKNearest(h, x, y, r, 3, -1, ids, d2);
      expect(Array.from(ids.subarray(0, n))).toEqual(bruteKnn(s, x, y, r, 3, -1, null, 0).ids);
    }
    expect(queryKNearest(h, 1e12, 0, 5, 3, -1, ids, d2)).toBe(0);
  });

  it('writes nothing for k = 0 and rejects bad k, short outputs and NaN input', () => {
    const h = built(uniform(76, 20, 10), 1);
    const ids = new Int32Array(2), d2 = new Float64Array(2);
    expect(queryKNearest(h, 0, 0, 5, 0, -1, ids, d2)).toBe(0);
    expect(() => queryKNearest(h, 0, 0, 5, -1, -1, ids, d2)).toThrow(/\bk\b/);
    expect(() => queryKNearest(h, 0, 0, 5, 1.5, -1, ids, d2)).toThrow(/\bk\b/);
    expect(() => queryKNearest(h, 0, 0, 5, 3, -1, ids, d2)).toThrow(/outIds/);
    expect(() => queryKNearest(h, 0, 0, 5, 2, -1, ids, new Float64Array(1))).toThrow(/outDist2/);
    expect(() => queryKNearest(h, NaN, 0, 5, 2, -1, ids, d2)).toThrow(InvalidArgumentError);
    expect(() => queryKNearest(h, 0, 0, Infinity, 2, -1, ids, d2)).toThrow(/\br\b/);
  });
});

describe('queryKNearestBatch', () => {
  /** Runs the batch in both output layouts and checks every entry against brute force. */
  function checkBatch(s: Scene, cell: number, r: number, k: number, layers: Int32Array | null, mask: number): void {
    const h = built(s, cell);
    const slots = Math.max(h.count, s.xs.length);
    const runs = (['id', 'slot'] as const).map((indexBy) => {
      const ids = new Int32Array(slots * k), d2 = new Float64Array(slots * k), counts = new Int32Array(slots).fill(-1);
      const total = queryKNearestBatch(h, 0, h.count, r, k, ids, d2, counts, layers, mask, indexBy);
      return { indexBy, ids, d2, counts, total, sum: 0 };
    });
    for (let t = 0; t < h.count; t++) {
      const id = h.sortedIds[t];
      const want = bruteKnn(s, s.xs[id], s.ys[id], r, k, id, layers, mask);
      for (const run of runs) {
        const o = run.indexBy === 'slot' ? t : id;
        const n = run.counts[o];
        run.sum += n;
        const got = Array.from(run.ids.subarray(o * k, o * k + n));
        if (got.join() !== want.ids.join() || Array.from(run.d2.subarray(o * k, o * k + n)).join() !== want.d2.join()) {
          throw new Error(`${s.name}, cell ${cell}, r ${r}, k ${k}, ${run.indexBy} layout, entity ${id}: got [${got}] brute force [${want.ids}]`);
        }
      }
    }
    for (const run of runs) expect(run.total).toBe(run.sum);
  }

  it('gives every entry its brute-force k nearest (itself excluded) on every scene', () => {
    for (const s of scenes()) {
      for (const [cell, r, k] of [[3, 3, 10], [1, 4, 10], [2, 25, 6], [1, 0, 3], [3, 3, 60]]) checkBatch(s, cell, r, k, null, -1);
    }
  });

  it('takes the ring search and the linear pass for r far above the cell size and still matches brute force', () => {
    checkBatch(uniform(81, 300, 40), 0.25, 500, 7, null, -1);
  });

  it('applies the layer filter like brute force, including members whose own layer is rejected', () => {
    const s = clustered(82, 800);
    // cell 2 < r: the single-query search for every entry; cell 4 >= r: the dense batch kernel (knn-dense.ts).
    for (const mask of [1, 3, 4]) {
      checkBatch(s, 2, 4, 10, s.layers, mask);
      checkBatch(s, 4, 4, 10, s.layers, mask);
    }
    const u = uniform(85, 3000, 110); // ~1 entry per 4 m²: the dense kernel answers nearly all of it
    checkBatch(u, 4, 4, 10, u.layers, 3);
  });

  it('split into (start, count) ranges gives the same output as one call, in both layouts', () => {
    const s = clustered(83, 900);
    for (const cell of [2, 4]) { // r = 4 above the cell size (single-query search) and equal to it (dense kernel)
      const h = built(s, cell);
      const k = 10, slots = s.xs.length;
      for (const indexBy of ['id', 'slot'] as const) {
        const a = new Int32Array(slots * k), ad = new Float64Array(slots * k), ac = new Int32Array(slots);
        const b = new Int32Array(slots * k), bd = new Float64Array(slots * k), bc = new Int32Array(slots);
        queryKNearestBatch(h, 0, h.count, 4, k, a, ad, ac, null, -1, indexBy);
        const cut1 = 333, cut2 = 601;
        queryKNearestBatch(h, 0, cut1, 4, k, b, bd, bc, null, -1, indexBy);
        queryKNearestBatch(h, cut1, cut2 - cut1, 4, k, b, bd, bc, null, -1, indexBy);
        queryKNearestBatch(h, cut2, h.count - cut2, 4, k, b, bd, bc, null, -1, indexBy);
        expect(Array.from(b)).toEqual(Array.from(a));
        expect(Array.from(bd)).toEqual(Array.from(ad));
        expect(Array.from(bc)).toEqual(Array.from(ac));
      }
    }
  });

  it('rejects ranges beyond the entries, outputs too short for the layout and an unknown layout', () => {
    const s = uniform(84, 50, 10); // ids up to 56, 50 of them in the hash
    const h = built(s, 1);
    const big = s.xs.length;
    const ok = (): [Int32Array, Float64Array, Int32Array] => [new Int32Array(big * 3), new Float64Array(big * 3), new Int32Array(big)];
    expect(() => queryKNearestBatch(h, 40, 11, 2, 3, ...ok())).toThrow(OutOfRangeError);
    expect(() => queryKNearestBatch(h, 0, 50, 2, 3, new Int32Array(3), new Float64Array(big * 3), new Int32Array(big))).toThrow(/outIds/);
    expect(() => queryKNearestBatch(h, 0, 50, 2, 3, new Int32Array(big * 3), new Float64Array(big * 3), new Int32Array(1))).toThrow(/outCounts/);
    expect(() => queryKNearestBatch(h, 10, 40, 2, 3, new Int32Array(big * 3), new Float64Array(149), new Int32Array(big), null, -1, 'slot')).toThrow(/outDist2/);
    expect(() => queryKNearestBatch(h, 0, 50, 2, 3, new Int32Array(150), new Float64Array(150), new Int32Array(50), null, -1, 'slot')).not.toThrow();
    const maxId = Math.max(...Array.from(s.ids));
    expect(maxId).toBeGreaterThanOrEqual(50);
    expect(() => queryKNearestBatch(h, 0, 50, 2, 3, new Int32Array(150), new Float64Array(150), new Int32Array(50))).toThrow(/outIds/);
    expect(() => queryKNearestBatch(h, 0, 50, -2, 3, ...ok())).toThrow(/\br\b/);
    expect(() => queryKNearestBatch(h, 0, 50, 2, 3, ...ok(), null, -1, 'bogus' as 'id')).toThrow(/indexBy/);
  });
});
