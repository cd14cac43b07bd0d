/**
 * Truncated corridors (maxCornerPortals 3) that lead away from the goal: the mechanisms of two stalls the long fuzz
 * runs of 'funnel system in the full pipeline' found on 2026-12-01 (docs/RELIABILITY.md), each on the map it
 * happened on, with the one agent concerned and none of the run's disturbances but the one that made its corridor:
 * its goal was set while some triangles were closed, so the corridor is a detour, and it stays so when they reopen
 * (only closing a triangle re-plans). A 3-portal pull ends at a stand-in goal on the portal out of the corridor's
 * second triangle. Where the goal lies beyond that portal's line, the stand-in is where the straight line to the
 * goal crosses the portal; otherwise it was the portal's point nearest the goal, and in both cases clamped to the
 * portal's ends. Now the second is the portal's point nearest the agent, and both keep the agent's radius from the
 * ends (systems/funnel.ts, corridorPortalsPrefix).
 *
 * Seed 20261231 (an agent 22.8 m short of its goal after 20,188 calm frames): the corridor goes 18 m west, round
 * the bottom-right corner of a box and back east. Round the corner (−70.5552, 40.8228) its triangles fan about one
 * mesh vertex, v = (−70.5235, 40.8228), the inflated corner straight east of it, and every portal of the fan ends
 * at v. The stand-in was v itself (from the triangle above the fan, the far end of a 19 m portal to the east). A
 * target at a portal's end is reached without entering the triangle beyond: the agent walked at v along the line of
 * the box's bottom edge, ORCA's obstacle line slowed it to (gap)/obstacleTimeHorizon as it neared the box, its
 * sideways jitter took it into the fan's triangles in turn, and from the one above it the stand-in sent it east
 * again. It stayed within 2 cm of v for good.
 *
 * Seed 20261252 (a far agent 2.1 m short after 3,531 calm frames): a 3 m wide, 32 m long room meshed in 10 m sliver
 * triangles. Heading south for an obstacle's corner along the edge between two slivers, the agent was pushed a
 * centimetre east across it by ORCA's obstacle lines and walked back into its corridor; from there the point
 * nearest the goal (east) on the next portal, a 16 m sliver edge, lay 2 m back up it. It went back north a step,
 * then south again, for good.
 */
import { describe, expect, it } from 'vitest';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent, setAgentPosition } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { buildNavmesh } from '../../src/navmesh/build';
import { portal, distToSegment, type P } from './portal-geometry';
import { corridorPortals } from '../../src/navmesh/portals';
import { funnel, polylineLength } from '../../src/funnel/funnel';
import { setNavmesh, setNavGoal, setNavTrianglesBlocked, getAgentCorridor, funnelRange } from '../../systems/funnel';
import { corridorComponent, NAV_ARRIVED, NAV_FOLLOWING } from '../../components/corridor';
import { addObstacle, enableOrca } from '../../components/orca';

// The fuzz case's map (makeNavMap of its navCase): a 58 m × 3 m room and six obstacles; the box is the fourth.
const boundary: P[] = [[-99.99999534338713, 38.56669440865517], [-41.66429207846522, 38.56669440865517], [-41.66429207846522, 41.56669578887522], [-99.99999534338713, 41.56669578887522]];
const obstacles: P[][] = [
  [[-51.37126583293264, 41.16546444385945], [-51.43166078100965, 41.259048395227154], [-51.723935177340714, 40.91823285382594], [-51.18077284450479, 40.72390129076014]],
  [[-89.92043569081625, 39.17179626130882], [-90.25863999171615, 39.16492341449872], [-90.57026213447477, 39.212150133087995], [-90.32420557234111, 38.96486164702767], [-90.10476552712807, 38.790958057751524]],
  [[-70.73256515607414, 40.447740378464054], [-71.15433764803763, 40.286627148132716], [-70.86387436882171, 39.86374708436306]],
  [[-71.1090680286986, 40.82283436798954], [-70.55521939315375, 40.82283436798954], [-70.55521939315375, 41.31055674968755], [-71.1090680286986, 41.31055674968755]],
  [[-51.29614465444255, 39.10866834136568], [-51.352265963159816, 39.160502155246995], [-51.51051614950079, 39.447117418413605], [-51.761403406496775, 39.20724462916286], [-51.73028896072819, 38.861534828862105], [-51.18801945385655, 38.7653894078684], [-51.21793221034646, 38.88995847210465]],
  [[-70.9028544227623, 38.89290230206425], [-70.76143299909005, 38.89290230206425], [-70.76143299909005, 39.240486975319435], [-70.9028544227623, 39.240486975319435]],
];
const radius = 0.02927072957603834; // the mesh's; the agent's body is 0.98 of it
const agentR = 0.98 * radius, vmax = 0.5, dt = 1 / 30;
const mesh = buildNavmesh({ boundary, obstacles }, { radius });
const start: P = [-52.6407, 41.1356], goal: P = [-47.7353, 40.6244];
const closed = [38, 45, 50, 51, 57, 61, 62, 66, 70, 71, 72, 75, 80]; // closed when the goal was set
const cornerV: P = [-70.52353698376378, 40.82283436798954]; // the mesh vertex the fan turns about


/** The fuzz run's world for this agent: ORCA with the walls as obstacles, contacts, the loop corridor. */
function loopWorld(orca: boolean) {
  const world = createCrowd({ maxAgents: 2, seed: 1 });
  world.enabled.navigation = false; world.enabled.steering = false; world.enabled.boids = false;
  if (orca) {
    for (const o of obstacles) addObstacle(world, o);
    addObstacle(world, [...boundary, boundary[0]], { closed: false });
  }
  const state = setNavmesh(world, mesh, {
    maxCornerPortals: 3, shortcutInterval: 1, lookahead: 0.3524, arrivalSlowdown: 0.7434, arriveDistance: 0.0931, minTurnSpeed: 0.608,
  });
  const e = spawnAgent(world, { x: start[0], y: start[1], radius: agentR, maxSpeed: vmax });
  if (orca) enableOrca(world, e, { timeHorizon: 3.4, obstacleTimeHorizon: 0.655 });
  setNavTrianglesBlocked(world, closed, true);
  expect(setNavGoal(world, e, goal[0], goal[1])).toBe('found');
  setNavTrianglesBlocked(world, closed, false);
  const cor = new Int32Array(256);
  const corridor = Array.from(cor.subarray(0, getAgentCorridor(world, e, cor)));
  // Precondition: the corridor is the loop. Its taut path (every portal pulled) is over 40 m; the goal is 5 m away.
  const portals = new Float64Array(4 * (corridor.length + 1));
  const np = corridorPortals(mesh, Int32Array.from(corridor), corridor.length, start[0], start[1], goal[0], goal[1], portals);
  const pts = new Float64Array(2 * (np + 2));
  const length = polylineLength(pts, funnel(portals, np, 0, pts));
  expect(length).toBeGreaterThan(40);
  expect(Math.hypot(goal[0] - start[0], goal[1] - start[1])).toBeLessThan(5);
  return { world, state, e, corridor, length };
}

describe('stand-in goal of a truncated corridor turning about a mesh vertex (seed 20261231)', () => {
  it('is the portal\'s point nearest the agent, the radius from its ends (before: the vertex itself, or the far end of a 19 m portal)', () => {
    const { world, state, e } = loopWorld(false);
    const nav = corridorComponent(world);
    const cor = new Int32Array(256);
    // In the fan's three triangles: above it (east of v, the stand-in was the far end of the long portal), below
    // the long edge and beside v (the stand-in was v), and under v (the stand-in was v).
    for (const p of [[-70.5, 40.8232], [-70.515, 40.8225], [-70.517, 40.81]] as P[]) {
      setAgentPosition(world, e, p[0], p[1]);
      expect(funnelRange(world, state, 0, 1, dt)).toBe(1);
      expect(nav.state[e]).toBe(NAV_FOLLOWING);
      const n = getAgentCorridor(world, e, cor);
      expect(n).toBeGreaterThan(3); // truncated: 3 portals are the start, edge 0→1 and a point of edge 1→2
      const [L, R] = portal(mesh, cor[1], cor[2]);
      expect(L[0] === cornerV[0] && L[1] === cornerV[1] || R[0] === cornerV[0] && R[1] === cornerV[1]).toBe(true);
      const c: P = [nav.cornerX[e], nav.cornerY[e]];
      // The next corner is the stand-in: on portal 1→2, at least the radius from either end.
      expect(distToSegment(c, L, R)).toBeLessThan(1e-9);
      expect(Math.min(Math.hypot(c[0] - L[0], c[1] - L[1]), Math.hypot(c[0] - R[0], c[1] - R[1]))).toBeGreaterThanOrEqual(agentR * (1 - 1e-9));
      // The goal (east) is on the agent's side of the portal's line: the stand-in is the portal's point nearest the
      // agent, its foot on L → R clamped to the radius from either end (by hand: a projection).
      const ex = R[0] - L[0], ey = R[1] - L[1], el = Math.hypot(ex, ey);
      const side = (q: P) => ex * (q[1] - L[1]) - ey * (q[0] - L[0]);
      expect(side(p) * side(goal)).toBeGreaterThan(0);
      const along = Math.min(el - agentR, Math.max(agentR, ((p[0] - L[0]) * ex + (p[1] - L[1]) * ey) / el));
      expect(Math.hypot(c[0] - (L[0] + (along * ex) / el), c[1] - (L[1] + (along * ey) / el))).toBeLessThan(1e-9);
      // ... and the preferred velocity points at it.
      const vx = world.preferredVelocity.x[e], vy = world.preferredVelocity.y[e], dx = c[0] - p[0], dy = c[1] - p[1];
      expect((vx * dx + vy * dy) / (Math.hypot(vx, vy) * Math.hypot(dx, dy))).toBeGreaterThan(1 - 1e-9);
    }
  });

  it('with ORCA and the walls, the agent rounds the corner and arrives (before: within 2 cm of v after 20,000 frames)', () => {
    const { world, e, length } = loopWorld(true);
    const nav = corridorComponent(world);
    // Bound: the taut path at the slowest corner speed (vmax · minTurnSpeed), twice for ORCA's obstacle lines (the
    // fuzz property's reasoning), plus 10 s: 8,687 frames. Measured after the fix: arrived after 2,638 frames (88 s).
    // Before: still following after 20,000 frames, 1.7 cm from v.
    const cap = Math.ceil((2 * length / (vmax * 0.608) + 10) / dt);
    let f = 0;
    for (; f < cap && nav.state[e] !== NAV_ARRIVED; f++) step(world, dt);
    expect(nav.state[e]).toBe(NAV_ARRIVED);
    expect(Math.hypot(world.position.x[e] - goal[0], world.position.y[e] - goal[1])).toBeLessThan(0.0931 + 1e-9);
  });
});

// Seed 20261252: the fuzz case's map (one agent; the run's LOD made it a far agent, interval 4, which it does not
// need to stall: without LOD it stalls too, measured on the code before the fix).
const boundary2: P[] = [[-99.99999478459358, 99.9999986961484], [-96.99999462533742, 99.9999986961484], [-96.99999462533742, 132.4180450057611], [-99.99999478459358, 132.4180450057611]];
const obstacles2: P[][] = [
  [[-99.44121622572251, 116.28992355870321], [-99.53389761672295, 116.30309946794135], [-99.59944695300639, 116.21947469918472], [-99.59944695481224, 116.19856900386864], [-99.45932108942496, 116.1176672954913], [-99.26488064028675, 115.88541504541443]],
  [[-99.57070544189888, 126.73219456118825], [-99.4292840742029, 126.73219456118825], [-99.4292840742029, 127.29788001379636], [-99.57070544189888, 127.29788001379636]],
  [[-98.78283742949148, 116.13831116671162], [-98.21715198043952, 116.13831116671162], [-98.21715198043952, 116.27973253519787], [-98.78283742949148, 116.27973253519787]],
  [[-99.78283748158906, 105.12709480199263], [-99.21715203451272, 105.12709480199263], [-99.21715203451272, 105.67891802684173], [-99.78283748158906, 105.67891802684173]],
  [[-98.6042239675503, 105.72379113743739], [-98.56690777401427, 105.32869192252599], [-98.46023664083386, 105.15478917588469]],
];

describe('stand-in goal of a truncated corridor of long slivers (seed 20261252)', () => {
  it('with ORCA and the walls, an agent pushed across a sliver arrives (before: 2.2 m short, back and forth, after 10,000 frames)', () => {
    const radius2 = 0.025448280958781502, vmax2 = 3;
    const mesh2 = buildNavmesh({ boundary: boundary2, obstacles: obstacles2 }, { radius: radius2 });
    const world = createCrowd({ maxAgents: 2, seed: 16 });
    world.enabled.navigation = false; world.enabled.steering = false; world.enabled.boids = false;
    for (const o of obstacles2) addObstacle(world, o);
    addObstacle(world, [...boundary2, boundary2[0]], { closed: false });
    setNavmesh(world, mesh2, { maxCornerPortals: 3, maxReplansPerFrame: 2, shortcutInterval: 1, lookahead: 4, arrivalSlowdown: 2, arriveDistance: 0.0526, minTurnSpeed: 0.2 });
    const s2: P = [-98.7148, 124.2844], g2: P = [-97.4829, 118.2372];
    const e = spawnAgent(world, { x: s2[0], y: s2[1], radius: radius2, maxSpeed: vmax2 });
    enableOrca(world, e, { timeHorizon: 4.32, obstacleTimeHorizon: 2 });
    const closed2 = [18, 21, 23]; // closed when the goal was set
    setNavTrianglesBlocked(world, closed2, true);
    expect(setNavGoal(world, e, g2[0], g2[1])).toBe('found');
    setNavTrianglesBlocked(world, closed2, false);
    // Precondition: the detour. Its taut path (every portal pulled) is over 9 m, past the obstacle's corner by
    // the west wall; the goal is 6.2 m away.
    const cor = new Int32Array(256), n = getAgentCorridor(world, e, cor);
    const portals = new Float64Array(4 * (n + 1));
    const np = corridorPortals(mesh2, cor, n, s2[0], s2[1], g2[0], g2[1], portals);
    const pts = new Float64Array(2 * (np + 2));
    const length = polylineLength(pts, funnel(portals, np, 0, pts));
    expect(length).toBeGreaterThan(9);
    expect(Math.hypot(g2[0] - s2[0], g2[1] - s2[1])).toBeLessThan(6.3);
    const nav = corridorComponent(world);
    // Bound as above: 2·length/(vmax·minTurnSpeed) + 10 s. Measured after the fix: arrived after 366 frames
    // (12 s). Before: still following after 10,000 frames, at (−99.627, 117.900).
    const cap = Math.ceil((2 * length / (vmax2 * 0.2) + 10) / dt);
    let f = 0;
    for (; f < cap && nav.state[e] !== NAV_ARRIVED; f++) step(world, dt);
    expect(nav.state[e]).toBe(NAV_ARRIVED);
    expect(Math.hypot(world.position.x[e] - g2[0], world.position.y[e] - g2[1])).toBeLessThan(0.0526 + 1e-9);
  });
});
