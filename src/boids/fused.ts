/**
 * Fused topological boids pass over the spatial hash, in the hash's cell order.
 *
 * The generic path (one queryKNearest per agent, then boidsAcceleration reading neighbours by entity id) spends most
 * of its time on memory: neighbours' velocities live at random entity ids, and every query pays argument checks.
 * Here the whole pass works in the hash's sorted-slot space: the caller gathers velocities into slot order once
 * (vxS[t] = vx[sortedIds[t]]), each agent's k nearest are found as SLOTS by the same ring search the hash uses
 * (rings of cells around the agent's cell, nearest ring first, the search radius shrinking to the k-th distance once
 * k candidates are held; stop when the next ring's nearest point is beyond it), and separation, alignment and
 * cohesion are summed from slot-ordered arrays. Consecutive agents share cells, so almost every read hits cache,
 * and the 3×3 block of cells around a cell is flattened once into a compact candidate list shared by all its agents
 * (rings ≥ 2 are searched cell by cell only when the block cannot settle the k-th distance).
 *
 * Neighbours are ordered by (squared distance, entity id) exactly as queryKNearest orders them, and summed in that
 * order, so the accelerations are bit-identical to the generic path (tested).
 */
import { spatialHashBucket, type SpatialHash } from '../spatial/hash';
import { BOIDS_MIN_DIST2 } from './boids';

/** Rings of cells searched before falling back to a linear pass over all agents. */
const MAX_RINGS = 32;

// Module scratch: the k-best list of the current agent (slots and squared distances).
let _fusedSlots = new Int32Array(64);
let _fusedD2 = new Float64Array(64);
// The 3×3 block of cells around the current cell, flattened once per cell: agents come in cell order, so all agents
// of a cell scan this compact list (slot, id, x, y) instead of re-hashing 9 buckets and re-filtering shared buckets.
let _blockSlot = new Int32Array(256);
let _blockId = new Int32Array(256);
let _blockX = new Float64Array(256);
let _blockY = new Float64Array(256);

/**
 * Neighbours found beforehand by one batch query over the hash (queryKNearestBatchSlots): for slot t, its
 * `counts[t]` ≤ k nearest within `r`, as hash slots at slots[t·k ..] with their squared distances at dist2[t·k ..],
 * ordered by (d², id) like every k-nearest query here. An agent whose own k ≤ this k takes its answer from
 * here when the batch found at least its k (its k nearest within r are then among them: the first k, cut at its own
 * radius) or when its own radius is ≤ r (then everything within its radius was found); otherwise it runs the ring
 * search. Either way the neighbours and their order are the same, so the accelerations are bit-identical.
 */
export interface BoidsBatchNeighbours {
  slots: Int32Array;
  dist2: Float64Array;
  counts: Int32Array;
  k: number;
  r: number;
}

/**
 * Topological boids accelerations for hash slots [start, start + count). Every array is indexed by hash SLOT (the
 * caller gathers per-agent data into slot order once per frame, so this loop reads memory sequentially).
 * @param use 1 = compute this slot's agent here (flocking, topological), 0 = skip (output left untouched).
 * @param vxS velocities in slot order (length ≥ hash.count); vyS likewise.
 * @param k, radius, wSep, wAli, wCoh per slot: neighbour count, search cap (metres), weights.
 * @param outAx accelerations written at [slot] (m/s²); outAy likewise.
 * @param pre optional neighbours from a batch query (see BoidsBatchNeighbours); pre.k must be ≥ every k[t] used.
 * @returns the total number of neighbours used.
 */
export function boidsTopologicalSorted(
  hash: SpatialHash, start: number, count: number, use: Uint8Array,
  vxS: Float64Array, vyS: Float64Array,
  k: Int32Array, radius: Float64Array, wSep: Float64Array, wAli: Float64Array, wCoh: Float64Array,
  outAx: Float64Array, outAy: Float64Array, pre: BoidsBatchNeighbours | null = null,
): number {
  const sx = hash.sortedX, sy = hash.sortedY, sid = hash.sortedIds, scx = hash.sortedCellX, scy = hash.sortedCellY;
  const cellStart = hash.cellStart;
  const cs = hash.gridCellSize;
  const wBits = hash.widthBits, hBits = hash.heightBits;
  let total = 0;
  let blockCx = 0, blockCy = 0, blockValid = false, nb = 0;
  // The separation floor read through a Float64Array: the module-level constant is a mutable var in bundled output,
  // loaded tagged, and a variable merging it with computed doubles stayed boxed (a HeapNumber per neighbour).
  const minD2 = _fusedMinDist2[0];
  for (let t = start, end = start + count; t < end; t++) {
    if (use[t] === 0) continue;
    const eid = sid[t];
    const kk = k[t];
    if (_fusedSlots.length < kk) { _fusedSlots = new Int32Array(kk); _fusedD2 = new Float64Array(kk); }
    const bs = _fusedSlots, bd = _fusedD2;
    const x = sx[t], y = sy[t];
    const cx = scx[t], cy = scy[t];
    const r = radius[t];
    let bound2 = r * r;
    let n = 0;
    const last = kk - 1;
    if (pre !== null && (pre.counts[t] >= kk || r <= pre.r)) {
      // The batch query's answer (see BoidsBatchNeighbours): it holds this agent's k nearest within r when it
      // found at least k (the first k, cut at r) or when r is at most the batch radius (all within r were found).
      const slots = pre.slots, dist2 = pre.dist2, o = t * pre.k;
      const c = pre.counts[t] < kk ? pre.counts[t] : kk;
      for (let m = 0; m < c; m++) {
        const d2 = dist2[o + m]; // the batch computes it as the ring search does: (x_u − x)² + (y_u − y)²
        if (d2 > bound2) break; // sorted by distance: the rest lie beyond r too
        bs[n] = slots[o + m]; bd[n] = d2; n++;
      }
    } else {
      // Distance from the point to its own cell's nearest edge: ring R ≥ 1 lies at least edge + (R − 1)·cs away.
      const ex0 = x - cx * cs, ex1 = (cx + 1) * cs - x, ey0 = y - cy * cs, ey1 = (cy + 1) * cs - y;
      let edge = ex0 < ex1 ? ex0 : ex1;
      if (ey0 < edge) edge = ey0;
      if (ey1 < edge) edge = ey1;
      // Round-off slack (as the hash's own queries use): an entry a hair across a cell boundary may have been binned
      // into the neighbouring cell, so the ring bound is loosened by a relative 1e-12.
      edge -= 1e-12 * ((x < 0 ? -x : x) + (y < 0 ? -y : y) + r + cs);
      if (edge < 0) edge = 0;
      // Rings 0 and 1 (the 3×3 block) from the per-cell candidate list.
      if (!blockValid || blockCx !== cx || blockCy !== cy) {
        nb = 0;
        for (let j = cy - 1; j <= cy + 1; j++) {
          for (let i = cx - 1; i <= cx + 1; i++) {
            const b = spatialHashBucket(i, j, wBits, hBits);
            for (let u = cellStart[b], e = cellStart[b + 1]; u < e; u++) {
              if (scx[u] !== i || scy[u] !== j) continue; // another cell sharing the bucket
              if (nb === _blockSlot.length) growBlock();
              _blockSlot[nb] = u; _blockId[nb] = sid[u]; _blockX[nb] = sx[u]; _blockY[nb] = sy[u];
              nb++;
            }
          }
        }
        blockCx = cx; blockCy = cy; blockValid = true;
      }
      const cSlot = _blockSlot, cId = _blockId, cX = _blockX, cY = _blockY;
      for (let c = 0; c < nb; c++) {
        const u = cSlot[c];
        if (u === t) continue;
        const dx = cX[c] - x, dy = cY[c] - y;
        const d2 = dx * dx + dy * dy;
        if (d2 > bound2) continue;
        const id = cId[c];
        // Bounded insertion sort by (d2, id); when full the newcomer must beat the k-th entry.
        let p: number;
        if (n < kk) { p = n; n++; }
        else {
          const ld = bd[last];
          if (d2 > ld || (d2 === ld && id > sid[bs[last]])) continue;
          p = last;
        }
        while (p > 0) {
          const pd = bd[p - 1];
          if (pd < d2 || (pd === d2 && sid[bs[p - 1]] < id)) break;
          bd[p] = pd; bs[p] = bs[p - 1];
          p--;
        }
        bd[p] = d2; bs[p] = u;
        if (n === kk) bound2 = bd[last];
      }

      // Rings ≥ 2 only when the block could not settle the answer (sparse neighbourhoods). Past MAX_RINGS rings (a
      // search cap far larger than the cells in a sparse hash) one linear pass over all slots is cheaper and exact.
      const needRings = 1 + Math.ceil(r / cs);
      const maxRing = needRings < MAX_RINGS ? needRings : MAX_RINGS;
      let settled = false;
      for (let ring = 2; ring <= maxRing; ring++) {
        const lb = edge + (ring - 1) * cs;
        if (lb * lb > bound2) { settled = true; break; }
        const j0 = cy - ring, j1 = cy + ring;
        for (let j = j0; j <= j1; j++) {
          const stepI = j === j0 || j === j1 ? 1 : 2 * ring;
          for (let i = cx - ring; i <= cx + ring; i += stepI) {
            const b = spatialHashBucket(i, j, wBits, hBits);
            const e = cellStart[b + 1];
            for (let u = cellStart[b]; u < e; u++) {
              if (scx[u] !== i || scy[u] !== j) continue;
              const dx = sx[u] - x, dy = sy[u] - y;
              const d2 = dx * dx + dy * dy;
              if (d2 > bound2) continue;
              const id = sid[u];
              let p: number;
              if (n < kk) { p = n; n++; }
              else {
                const ld = bd[last];
                if (d2 > ld || (d2 === ld && id > sid[bs[last]])) continue;
                p = last;
              }
              while (p > 0) {
                const pd = bd[p - 1];
                if (pd < d2 || (pd === d2 && sid[bs[p - 1]] < id)) break;
                bd[p] = pd; bs[p] = bs[p - 1];
                p--;
              }
              bd[p] = d2; bs[p] = u;
              if (n === kk) bound2 = bd[last];
            }
          }
        }
      }
      if (!settled && needRings > MAX_RINGS) {
        const lb = edge + maxRing * cs;
        if (!(lb * lb > bound2)) {
          n = 0;
          bound2 = r * r;
          for (let u = 0; u < hash.count; u++) {
            if (u === t) continue;
            const dx = sx[u] - x, dy = sy[u] - y;
            const d2 = dx * dx + dy * dy;
            if (d2 > bound2) continue;
            const id = sid[u];
            let p: number;
            if (n < kk) { p = n; n++; }
            else {
              const ld = bd[last];
              if (d2 > ld || (d2 === ld && id > sid[bs[last]])) continue;
              p = last;
            }
            while (p > 0) {
              const pd = bd[p - 1];
              if (pd < d2 || (pd === d2 && sid[bs[p - 1]] < id)) break;
              bd[p] = pd; bs[p] = bs[p - 1];
              p--;
            }
            bd[p] = d2; bs[p] = u;
            if (n === kk) bound2 = bd[last];
          }
        }
      }
    }
    total += n;
    if (n === 0) { outAx[t] = 0; outAy[t] = 0; continue; }
    // Same sums, in the same neighbour order, as boidsAcceleration.
    let sepx = 0, sepy = 0, mvx = 0, mvy = 0, mpx = 0, mpy = 0;
    for (let m = 0; m < n; m++) {
      const u = bs[m];
      const dx = x - sx[u], dy = y - sy[u];
      const d2 = dx * dx + dy * dy;
      if (d2 > 0) {
        const q = d2 < minD2 ? minD2 : d2;
        sepx += dx / q; sepy += dy / q;
      } else {
        sepx += (eid < sid[u] ? 1 : -1) / Math.sqrt(minD2);
      }
      mvx += vxS[u]; mvy += vyS[u];
      mpx -= dx; mpy -= dy;
    }
    const inv = 1 / n;
    outAx[t] = wSep[t] * sepx + wAli[t] * (mvx * inv - vxS[t]) + wCoh[t] * mpx * inv;
    outAy[t] = wSep[t] * sepy + wAli[t] * (mvy * inv - vyS[t]) + wCoh[t] * mpy * inv;
  }
  return total;
}

const _fusedMinDist2 = new Float64Array([BOIDS_MIN_DIST2]);

function growBlock(): void {
  const m = _blockSlot.length * 2;
  const s = new Int32Array(m); s.set(_blockSlot); _blockSlot = s;
  const i = new Int32Array(m); i.set(_blockId); _blockId = i;
  const x = new Float64Array(m); x.set(_blockX); _blockX = x;
  const y = new Float64Array(m); y.set(_blockY); _blockY = y;
}
