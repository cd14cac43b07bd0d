/**
 * Tier assignment with hysteresis. An agent's tier is the first tier whose outer radius contains its distance to
 * the nearest focus point. To keep agents near a boundary from flickering, a boundary at radius R is crossed
 * outward only beyond R + h and inward only within R − h (h = hysteresis, metres): between the two the agent
 * keeps its current tier. Pure kernel over a (start, count) range of an id list.
 */

/**
 * Assign tiers for ids[start .. start+count).
 * @param radii outer radius of each tier except the last (ascending, metres); tier radii.length is the outermost.
 * @param focusX,focusY focus points (cameras, player, points of interest); `focusCount` of them are used.
 * @param tier in/out: current tier per entity id, updated in place.
 * @returns the number of agents whose tier changed.
 */
export function assignTiers(
  ids: Int32Array, start: number, count: number,
  xs: Float64Array, ys: Float64Array,
  focusX: Float64Array, focusY: Float64Array, focusCount: number,
  radii: Float64Array, tierCount: number, hysteresis: number,
  tier: Uint8Array,
): number {
  let changed = 0;
  const last = tierCount - 1;
  for (let i = start, end = start + count; i < end; i++) {
    const eid = ids[i];
    const x = xs[eid], y = ys[eid];
    // Squared distance to the nearest focus point (no focus → everyone is in the outermost tier).
    let d2 = Infinity;
    for (let f = 0; f < focusCount; f++) {
      const dx = x - focusX[f], dy = y - focusY[f];
      const q = dx * dx + dy * dy;
      if (q < d2) d2 = q;
    }
    const d = Math.sqrt(d2);
    const cur = tier[eid] > last ? last : tier[eid];
    // Tier without hysteresis.
    let t = 0;
    while (t < last && d > radii[t]) t++;
    if (t !== cur) {
      // Move only when clear of the boundary between cur and t by the hysteresis margin.
      if (t > cur) {
        // Moving outward: must be beyond boundary radii[t-1] + h; settle at the outermost tier that satisfies it.
        let nt = cur;
        while (nt < t && d > radii[nt] + hysteresis) nt++;
        t = nt;
      } else {
        // Moving inward: must be inside boundary radii[t] − h for each boundary crossed.
        let nt = cur;
        while (nt > t && d < radii[nt - 1] - hysteresis) nt--;
        t = nt;
      }
    }
    if (t !== tier[eid]) { tier[eid] = t; changed++; }
  }
  return changed;
}
