/** Shared checks for the ORCA scenario tests: run a scene to completion, checking overlaps, obstacles and NaN each step. */
import { step } from '../../src/world/step';
import { driveOrcaScene, type OrcaScene } from '../../src/avoidance/scenes';
import { configureContacts } from '../../systems/contacts';

export interface ScenarioResult {
  steps: number;
  arrived: number;
  maxOverlap: number;
  maxObstaclePenetration: number;
  nan: boolean;
}

/** Distance from (px, py) to segment (a, b). */
function segDist(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax, ey = by - ay;
  let t = ((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey);
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return Math.hypot(px - ax - t * ex, py - ay - t * ey);
}
/** Even-odd point-in-polygon test. */
function inside(px: number, py: number, pts: [number, number][]): boolean {
  let c = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const [xi, yi] = pts[i], [xj, yj] = pts[j];
    if ((yi > py) !== (yj > py) && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

/**
 * Step the scene (the whole pipeline, contacts included unless `contacts: false`) until every agent has arrived or
 * `maxSteps` pass. After each whole step, brute force over all pairs (an
 * independent check, not the spatial hash): the largest overlap r_i + r_j - |p_i - p_j|; over all obstacles: the
 * largest penetration of a body into an obstacle (r - distance to the boundary, or more if the centre is inside).
 */
export function runScenario(scene: OrcaScene, maxSteps: number, options: { contacts?: boolean } = {}): ScenarioResult {
  const { world, eids } = scene;
  // contacts: false runs ORCA alone (to test what its own modes guarantee without the contacts pass). With contacts,
  // the pass may iterate until no overlap above its slop is left (1000 passes, not the frame-cost default of 4):
  // these jammed scenes need up to ~900 in their worst frames.
  world.enabled.contacts = options.contacts ?? true;
  if (world.enabled.contacts) configureContacts(world, { iterations: 1000 });
  const n = eids.length;
  const px = world.position.x, py = world.position.y, rad = world.agent.radius;
  let maxOverlap = -Infinity, maxPen = -Infinity, nan = false, arrived = 0, s = 0;
  for (; s < maxSteps; s++) {
    arrived = driveOrcaScene(scene);
    if (arrived === n) break;
    step(world, scene.dt);
    for (let i = 0; i < n; i++) {
      const a = eids[i];
      if (!Number.isFinite(px[a]) || !Number.isFinite(py[a])) nan = true;
      for (let j = i + 1; j < n; j++) {
        const b = eids[j];
        const o = rad[a] + rad[b] - Math.hypot(px[a] - px[b], py[a] - py[b]);
        if (o > maxOverlap) maxOverlap = o;
      }
      for (const ob of scene.obstacles) {
        const pts = ob.points;
        let d = Infinity;
        const m = ob.closed ? pts.length : pts.length - 1;
        for (let k = 0; k < m; k++) {
          const [ax, ay] = pts[k], [bx, by] = pts[(k + 1) % pts.length];
          d = Math.min(d, segDist(px[a], py[a], ax, ay, bx, by));
        }
        const pen = ob.closed && inside(px[a], py[a], pts) ? rad[a] + d : rad[a] - d;
        if (pen > maxPen) maxPen = pen;
      }
    }
    if (nan) break;
  }
  return { steps: s, arrived, maxOverlap, maxObstaclePenetration: maxPen, nan };
}
