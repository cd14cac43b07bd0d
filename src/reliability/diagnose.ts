import type { CrowdWorld } from '../world/crowd';
import type { ObstacleSet } from '../avoidance/obstacles';
import { createSpatialHash, rebuildSpatialHash, queryRadius } from '../spatial/hash';
import { requireNonNegative } from '../core/validate';

/**
 * World diagnostics: what the simulation would rather not contain but resolves over time or cannot know was meant
 * (a level that spawns agents inside a building, two agents placed on the same spot). Spawn accepts both: bodies
 * that overlap each other are pushed apart by the contact and avoidance passes within a few steps, and an agent
 * whose centre is inside a closed obstacle (in a polygon, or outside the enclosures) is pushed out by the contacts
 * pass on the next step, to the nearest free point its radius from the wall, which may not be where the level meant
 * it to be (with the contacts pass off it stays: ORCA has no constraint from an obstacle it is inside).
 * diagnoseWorld reports both, and any non-finite state, so a game can check its level set-up before the first step
 * (or assert in its own tests) instead of finding out from a unit in the wrong place.
 *
 * Not for every frame: it allocates a neighbour index and its result.
 */
export interface WorldDiagnosis {
  /** Live agents with a NaN or infinite position, velocity, preferred or desired velocity. */
  nonFinite: number[];
  /**
   * Agents whose centre lies in the solid of the closed static obstacles (inside a polygon; outside the enclosures,
   * see solidDepth) deeper than the tolerance (depth in metres).
   */
  insideObstacles: Array<{ eid: number; depth: number }>;
  /** Pairs of agents whose bodies overlap by more than the tolerance (depth = rA + rB − distance, metres). */
  overlaps: Array<{ a: number; b: number; depth: number }>;
}

export interface DiagnoseOptions {
  /** Depths up to this many metres are not reported. @default 0.01 */
  tolerance?: number;
  /** Report at most this many items per list. @default 1000 */
  limit?: number;
}

/** A closed obstacle ring: its bounding box, corners, and whether it encloses (solid outside: stored clockwise). */
interface Poly { x0: number; y0: number; x1: number; y1: number; xs: Float64Array; ys: Float64Array; enclose: boolean }

/**
 * The closed rings of an obstacle set (open polylines are stored as zero-area there-and-back loops: skipped). A
 * ring stored clockwise is an enclosure (addObstacle's `enclose`): its outside is the solid side.
 */
export function obstaclePolygons(set: ObstacleSet): Poly[] {
  const seen = new Uint8Array(set.vertexCount);
  const polys: Poly[] = [];
  for (let v = 0; v < set.vertexCount; v++) {
    if (seen[v]) continue;
    const xs: number[] = [], ys: number[] = [];
    let u = v, guard = 0;
    do { seen[u] = 1; xs.push(set.x[u]); ys.push(set.y[u]); u = set.next[u]; } while (u !== v && u >= 0 && guard++ < set.vertexCount);
    let area2 = 0;
    for (let i = 0; i < xs.length; i++) { const j = (i + 1) % xs.length; area2 += xs[i] * ys[j] - xs[j] * ys[i]; }
    if (Math.abs(area2) < 1e-12) continue;
    polys.push({ x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys), xs: Float64Array.from(xs), ys: Float64Array.from(ys), enclose: area2 < 0 });
  }
  return polys;
}

/**
 * Depth of (px, py) in the solid of a set of obstacle rings (the distance to the nearest edge), 0 in free space.
 * Each ring keeps its solid side on the left of its edges, so the winding number W of a point (a counter-clockwise
 * polygon adds 1 inside it, an enclosure, clockwise, −1) tells where it is: without enclosures free space is W = 0
 * (outside every polygon), with enclosures it is W = −1 (inside one enclosure and no polygon within it: an arena,
 * or one walkable region of a grid map, whose pockets are enclosures of their own). So a point is solid when
 * W ≥ 1, or W ≥ 0 once the set holds an enclosure.
 */
export function solidDepth(polys: readonly Poly[], px: number, py: number): number {
  let w = 0, enclosures = false;
  for (const p of polys) {
    if (p.enclose) enclosures = true;
    if (px < p.x0 || px > p.x1 || py < p.y0 || py > p.y1) continue; // outside the ring's box: it adds 0
    const { xs, ys } = p;
    let inside = false;
    for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) {
      if ((ys[i] > py) !== (ys[j] > py) && px < ((xs[j] - xs[i]) * (py - ys[i])) / (ys[j] - ys[i]) + xs[i]) inside = !inside;
    }
    if (inside) w += p.enclose ? -1 : 1;
  }
  if (w < (enclosures ? 0 : 1)) return 0;
  let best = Infinity;
  for (const p of polys) {
    const { xs, ys } = p;
    for (let i = 0, j = xs.length - 1; i < xs.length; j = i++) {
      const ex = xs[i] - xs[j], ey = ys[i] - ys[j];
      const t = Math.max(0, Math.min(1, ((px - xs[j]) * ex + (py - ys[j]) * ey) / (ex * ex + ey * ey)));
      const dx = px - (xs[j] + t * ex), dy = py - (ys[j] + t * ey);
      best = Math.min(best, Math.sqrt(dx * dx + dy * dy));
    }
  }
  return best;
}

/** Report non-finite agents, agents inside static obstacles and overlapping agents (see WorldDiagnosis). */
export function diagnoseWorld(world: CrowdWorld, options: DiagnoseOptions = {}): WorldDiagnosis {
  const tol = requireNonNegative('options.tolerance', options.tolerance ?? 0.01);
  const limit = options.limit ?? 1000;
  const out: WorldDiagnosis = { nonFinite: [], insideObstacles: [], overlaps: [] };
  const { dense, count } = world.agents;
  const px = world.position.x, py = world.position.y, r = world.agent.radius;
  const finite = new Int32Array(count);
  let nf = 0, maxR = 0;
  for (let i = 0; i < count; i++) {
    const e = dense[i];
    if (Number.isFinite(px[e]) && Number.isFinite(py[e]) && Number.isFinite(world.velocity.x[e]) && Number.isFinite(world.velocity.y[e])
      && Number.isFinite(world.preferredVelocity.x[e]) && Number.isFinite(world.preferredVelocity.y[e])
      && Number.isFinite(world.desiredVelocity.x[e]) && Number.isFinite(world.desiredVelocity.y[e])) {
      finite[nf++] = e;
      if (r[e] > maxR) maxR = r[e];
    } else if (out.nonFinite.length < limit) out.nonFinite.push(e);
  }
  const orca = world.systems.orca as { obstacles?: ObstacleSet } | undefined;
  if (orca && orca.obstacles) {
    const polys = obstaclePolygons(orca.obstacles);
    for (let i = 0; i < nf && out.insideObstacles.length < limit; i++) {
      const e = finite[i];
      const depth = solidDepth(polys, px[e], py[e]);
      if (depth > tol) out.insideObstacles.push({ eid: e, depth });
    }
  }
  if (nf > 1) {
    const hash = createSpatialHash(nf, Math.max(2 * maxR, 1e-3));
    rebuildSpatialHash(hash, px, py, finite, nf);
    const ids = new Int32Array(nf);
    for (let i = 0; i < nf && out.overlaps.length < limit; i++) {
      const a = finite[i];
      const n = queryRadius(hash, px[a], py[a], r[a] + maxR, a, ids);
      for (let k = 0; k < n; k++) {
        const b = ids[k];
        if (b < a) continue; // each pair once
        const dx = px[a] - px[b], dy = py[a] - py[b];
        const depth = r[a] + r[b] - Math.sqrt(dx * dx + dy * dy);
        if (depth > tol && out.overlaps.length < limit) out.overlaps.push({ a, b, depth });
      }
    }
  }
  return out;
}
