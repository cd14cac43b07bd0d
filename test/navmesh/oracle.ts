/**
 * Test oracle, independent of the navmesh: Euclidean shortest paths by Dijkstra over the visibility graph of the
 * ORIGINAL map polygons (Lozano-Pérez & Wesley 1979). Nodes are start, goal and every boundary/obstacle vertex
 * not inside another obstacle; an edge exists when the segment stays in free space, checked exactly by splitting
 * it at every crossing with a polygon edge and testing each piece's midpoint.
 */
export type P = [number, number];
export interface TestMap { boundary: P[]; obstacles: P[][] }

function orient(a: P, b: P, c: P): number {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/** Strictly inside polygon (even-odd), points on the boundary count as outside. */
export function strictlyInside(poly: P[], p: P): boolean {
  for (let i = 0; i < poly.length; i++) if (distPointSeg(p, poly[i], poly[(i + 1) % poly.length]) < 1e-12) return false;
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const a = poly[i], b = poly[j];
    if ((a[1] > p[1]) !== (b[1] > p[1]) && p[0] < ((b[0] - a[0]) * (p[1] - a[1])) / (b[1] - a[1]) + a[0]) inside = !inside;
  }
  return inside;
}

export function distPointSeg(p: P, a: P, b: P): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const l2 = dx * dx + dy * dy;
  let t = l2 > 0 ? ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / l2 : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy);
}

export function distSegSeg(a: P, b: P, c: P, d: P): number {
  const o1 = orient(a, b, c), o2 = orient(a, b, d), o3 = orient(c, d, a), o4 = orient(c, d, b);
  if (((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0))) return 0;
  return Math.min(distPointSeg(a, c, d), distPointSeg(b, c, d), distPointSeg(c, a, b), distPointSeg(d, a, b));
}

/** Is point p in free space (inside or on the boundary, not strictly inside an obstacle)? */
export function isFree(map: TestMap, p: P): boolean {
  let inBoundary = strictlyInside(map.boundary, p);
  // On the boundary counts as inside.
  for (let i = 0; !inBoundary && i < map.boundary.length; i++) {
    if (distPointSeg(p, map.boundary[i], map.boundary[(i + 1) % map.boundary.length]) < 1e-12) inBoundary = true;
  }
  if (!inBoundary) return false;
  for (const o of map.obstacles) if (strictlyInside(o, p)) return false;
  return true;
}

export function segmentFree(map: TestMap, a: P, b: P): boolean {
  const ts: number[] = [0, 1];
  const polys = [map.boundary, ...map.obstacles];
  const dx = b[0] - a[0], dy = b[1] - a[1];
  for (const poly of polys) {
    for (let i = 0; i < poly.length; i++) {
      const c = poly[i], d = poly[(i + 1) % poly.length];
      // Intersection parameter of line a + t(b − a) with segment cd.
      const ex = d[0] - c[0], ey = d[1] - c[1];
      const den = dx * ey - dy * ex;
      if (den === 0) continue; // parallel: pieces' midpoints decide
      const t = ((c[0] - a[0]) * ey - (c[1] - a[1]) * ex) / den;
      const u = ((c[0] - a[0]) * dy - (c[1] - a[1]) * dx) / den;
      if (t > 0 && t < 1 && u >= -1e-12 && u <= 1 + 1e-12) ts.push(t);
    }
  }
  ts.sort((x, y) => x - y);
  // Each piece must lie in the closure of the free interior: a point just beside its midpoint, on one side or the
  // other, must be strictly free. (A piece running along an obstacle edge from the free side passes; a piece in a
  // zero-width gap, e.g. between an obstacle and a boundary wall it is flush against, does not.)
  const len = Math.hypot(dx, dy);
  const eps = 1e-7;
  const nx = (-dy / len) * eps, ny = (dx / len) * eps;
  for (let i = 0; i + 1 < ts.length; i++) {
    if (ts[i + 1] - ts[i] < 1e-12) continue;
    const m = (ts[i] + ts[i + 1]) / 2;
    const mx = a[0] + m * dx, my = a[1] + m * dy;
    if (!strictlyFree(map, [mx + nx, my + ny]) && !strictlyFree(map, [mx - nx, my - ny])) return false;
  }
  return true;
}

/** Strictly inside the boundary and strictly outside (not on) every obstacle. */
function strictlyFree(map: TestMap, p: P): boolean {
  if (!strictlyInside(map.boundary, p)) return false;
  for (const o of map.obstacles) {
    if (strictlyInside(o, p)) return false;
    for (let i = 0; i < o.length; i++) if (distPointSeg(p, o[i], o[(i + 1) % o.length]) < 1e-12) return false;
  }
  return true;
}

/** Shortest path length from s to g in the map's free space (Infinity if none). O(V²·E + V² log V). */
export function visibilityGraphShortest(map: TestMap, s: P, g: P): number {
  const nodes: P[] = [s, g];
  for (const poly of [map.boundary, ...map.obstacles]) {
    for (const v of poly) {
      let ok = true;
      for (const o of map.obstacles) if (o !== poly && strictlyInside(o, v)) ok = false;
      if (ok && isFree(map, v)) nodes.push(v);
    }
  }
  const n = nodes.length;
  const dist = new Array<number>(n).fill(Infinity);
  const done = new Array<boolean>(n).fill(false);
  dist[0] = 0;
  for (;;) {
    let u = -1;
    for (let i = 0; i < n; i++) if (!done[i] && dist[i] < Infinity && (u < 0 || dist[i] < dist[u])) u = i;
    if (u < 0) return Infinity;
    if (u === 1) return dist[1];
    done[u] = true;
    for (let v = 0; v < n; v++) {
      if (done[v]) continue;
      const d = dist[u] + Math.hypot(nodes[v][0] - nodes[u][0], nodes[v][1] - nodes[u][1]);
      if (d < dist[v] && segmentFree(map, nodes[u], nodes[v])) dist[v] = d;
    }
  }
}
