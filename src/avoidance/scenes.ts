/**
 * Standard ORCA scenes, shared by the scenario tests, the benchmark and the demos (one definition, as Box2D's
 * shared/benchmarks.h serves both its benchmark app and its samples):
 *  - circle swap: agents on concentric rings, each walking to its antipode (RVO2's "Circle" example, generalised);
 *  - corridor: two groups meeting head-on in a corridor five radii wide;
 *  - blocks: four square obstacles with groups crossing between them to the opposite corner (RVO2's "Blocks").
 * A scene is a world plus per-agent goals; `driveOrcaScene` sets preferred velocities toward the goals (the
 * "navigation" of these scenes) and reports how many agents have arrived.
 */
import type { CrowdWorld } from '../world/crowd';
import { createCrowd } from '../world/crowd';
import { spawnAgent } from '../world/agents';
import { requireInteger, requirePositive } from '../core/validate';
import { InvalidArgumentError } from '../core/errors';
import { dcos, dsin } from '../core/dmath';
import { addObstacle, enableOrca, type OrcaParams } from '../../components/orca';

export interface OrcaScene {
  readonly world: CrowdWorld;
  /** Entity ids of the scene's agents, in spawn order. */
  readonly eids: Int32Array;
  /** Final goal of each agent (index as eids), metres. */
  readonly goalX: Float64Array;
  readonly goalY: Float64Array;
  /**
   * Optional intermediate waypoint per agent (NaN = none), a gate: the agent heads there while it is more than
   * `waypointRadius` short of it along x (seen from its goal), and to its goal otherwise.
   */
  readonly waypointX: Float64Array;
  readonly waypointY: Float64Array;
  readonly waypointRadius: number;
  /** Time step the scene is meant to run with, seconds. */
  readonly dt: number;
  /** An agent has arrived when within this distance of its goal, metres. */
  readonly arrivalRadius: number;
  /** The obstacles added, as given (for drawing and for checks). */
  readonly obstacles: { points: [number, number][]; closed: boolean }[];
}

interface SceneAgent { x: number; y: number; gx: number; gy: number; wx?: number; wy?: number }

function buildScene(
  agents: SceneAgent[], obstacles: { points: [number, number][]; closed: boolean }[],
  radius: number, maxSpeed: number, orca: OrcaParams, dt: number, seed: number, waypointRadius: number,
  cellSize: number,
): OrcaScene {
  const n = agents.length;
  const world = createCrowd({ maxAgents: n, seed, neighbourRadius: cellSize, fixedDt: dt });
  const eids = new Int32Array(n);
  const goalX = new Float64Array(n), goalY = new Float64Array(n);
  const waypointX = new Float64Array(n).fill(NaN), waypointY = new Float64Array(n).fill(NaN);
  for (let i = 0; i < n; i++) {
    const a = agents[i];
    const eid = spawnAgent(world, { x: a.x, y: a.y, radius, maxSpeed });
    enableOrca(world, eid, orca);
    eids[i] = eid;
    goalX[i] = a.gx;
    goalY[i] = a.gy;
    if (a.wx !== undefined && a.wy !== undefined) {
      waypointX[i] = a.wx;
      waypointY[i] = a.wy;
    }
  }
  for (const o of obstacles) addObstacle(world, o.points, { closed: o.closed });
  return { world, eids, goalX, goalY, waypointX, waypointY, waypointRadius, dt, arrivalRadius: radius, obstacles };
}

/** Options shared by the scene builders. */
export interface OrcaSceneOptions {
  /** World PRNG seed (symmetry breaking). @default 1 */
  seed?: number;
}

/**
 * Circle swap: `count` agents (radius r, max speed v), each walking to its antipode (the point mirrored through the
 * centre). Two layouts, both with neighbouring agents `spacing` apart (default 3 r: one radius of clearance between
 * bodies):
 *  - `rings: 1` (default): one circle of circumference count * spacing, as RVO2's "Circle" example (250 agents on a
 *    circle of radius 200);
 *  - `rings: 'concentric'`: concentric rings `spacing` apart, agents `spacing` apart along each; rings are filled from
 *    the outermost inward, the outer radius being the smallest multiple of `spacing` whose rings (none closer to the
 *    centre than 10 spacings) hold `count` agents, and the innermost used ring takes the remainder, evenly spread.
 *    This keeps 10,000 agents within a radius of a few hundred metres (one ring would be 7 km across).
 * Defaults are the issue's benchmark: r 1.5 m, v 2 m/s, dt 0.25 s, neighbour distance 15 m, 10 neighbours, time
 * horizon 10 s. Start positions use the deterministic dcos/dsin.
 */
export function createCircleSwapScene(
  count: number,
  options: OrcaSceneOptions & { radius?: number; maxSpeed?: number; spacing?: number; dt?: number; rings?: 1 | 'concentric'; cellSize?: number; orca?: OrcaParams } = {},
): OrcaScene {
  requireInteger('count', count, 1, 1 << 22);
  const r = requirePositive('options.radius', options.radius ?? 1.5);
  const v = requirePositive('options.maxSpeed', options.maxSpeed ?? 2);
  const spacing = requirePositive('options.spacing', options.spacing ?? 3 * r);
  const dt = requirePositive('options.dt', options.dt ?? 0.25);
  const rings = options.rings ?? 1;
  if (rings !== 1 && rings !== 'concentric') throw new InvalidArgumentError('options.rings', rings, "must be 1 or 'concentric'");
  const orca: OrcaParams = { neighbourDistance: 15, maxNeighbours: 10, timeHorizon: 10, obstacleTimeHorizon: 10, ...options.orca };
  const agents: SceneAgent[] = [];
  const place = (R: number, slots: number) => {
    for (let k = 0; k < slots; k++) {
      const a = (2 * Math.PI * k) / slots;
      const c = dcos(a), s = dsin(a);
      agents.push({ x: R * c, y: R * s, gx: -R * c, gy: -R * s });
    }
  };
  if (rings === 1) {
    place(Math.max(spacing, (count * spacing) / (2 * Math.PI)), count);
  } else {
    const rMin = 10 * spacing;
    // Find the outer radius: rings rMax, rMax - spacing, ... >= rMin must hold `count` agents.
    const capacityFrom = (rMax: number) => {
      let c = 0;
      for (let R = rMax; R >= rMin - 1e-9; R -= spacing) c += Math.floor((2 * Math.PI * R) / spacing);
      return c;
    };
    let rMax = rMin;
    while (capacityFrom(rMax) < count) rMax += spacing;
    let left = count;
    for (let R = rMax; left > 0; R -= spacing) {
      const slots = Math.min(left, Math.floor((2 * Math.PI * R) / spacing));
      place(R, slots);
      left -= slots;
    }
  }
  return buildScene(agents, [], r, v, orca, dt, options.seed ?? 1, 0, options.cellSize ?? orca.neighbourDistance ?? 15);
}

/**
 * Corridor counter-flow: a straight corridor `5 * radius` wide (two agents can just pass side by side) between two
 * open rooms; `perGroup` agents start in the west room and walk to the east room, as many start in the east and walk
 * west. Agents first head for the corridor mouth on their side, then to their goal. The corridor is bounded by
 * two solid blocks (closed polygons) whose ends form the mouths.
 */
export function createCorridorScene(
  perGroup: number,
  options: OrcaSceneOptions & { radius?: number; maxSpeed?: number; length?: number; dt?: number; orca?: OrcaParams } = {},
): OrcaScene {
  requireInteger('perGroup', perGroup, 1, 100000);
  const r = requirePositive('options.radius', options.radius ?? 0.5);
  const v = requirePositive('options.maxSpeed', options.maxSpeed ?? 1.5);
  const len = requirePositive('options.length', options.length ?? 40 * r);
  const dt = requirePositive('options.dt', options.dt ?? 0.1);
  const orca: OrcaParams = { neighbourDistance: 10 * r, maxNeighbours: 10, timeHorizon: 2, obstacleTimeHorizon: 1, ...options.orca };
  const halfW = 2.5 * r; // corridor width 5 r
  const halfL = len / 2;
  const depth = 60 * r; // how far the blocks extend away from the corridor
  const obstacles: { points: [number, number][]; closed: boolean }[] = [
    { closed: true, points: [[-halfL, halfW], [halfL, halfW], [halfL, halfW + depth], [-halfL, halfW + depth]] },
    { closed: true, points: [[-halfL, -halfW - depth], [halfL, -halfW - depth], [halfL, -halfW], [-halfL, -halfW]] },
  ];
  // Each group in a square-ish grid in its room, 3 r apart, centred on the corridor axis.
  const cols = Math.ceil(Math.sqrt(perGroup));
  const gap = 3 * r;
  const agents: SceneAgent[] = [];
  for (let side = 0; side < 2; side++) {
    const sgn = side === 0 ? -1 : 1;
    for (let k = 0; k < perGroup; k++) {
      const i = k % cols, j = Math.floor(k / cols);
      const x = sgn * (halfL + 4 * r + j * gap);
      const y = (i - (cols - 1) / 2) * gap;
      // Goal: the mirror image in the other room; waypoint: 2 r inside the mouth on the agent's own side, used
      // until the agent has entered the corridor (waypoint radius 2 r).
      agents.push({ x, y, gx: -x, gy: y, wx: sgn * (halfL - 2 * r), wy: 0 });
    }
  }
  return buildScene(agents, obstacles, r, v, orca, dt, options.seed ?? 1, 2 * r, Math.max(2 * r, (orca.neighbourDistance ?? 5 * r) / 2));
}

/**
 * RVO2's "Blocks" scene: four 30 m square blocks around the origin (gaps 20 m wide along the axes) and four groups
 * of agents in the corners, each crossing to the opposite corner (goal: the point-mirrored start). `count` agents
 * in total (a multiple of 4; default 100 = four 5 x 5 groups 10 m apart), radius 2 m, max speed 2 m/s, dt 0.25 s,
 * neighbour distance 15 m, 10 neighbours, horizons 5 s (RVO2's example values).
 */
export function createBlocksScene(count = 100, options: OrcaSceneOptions & { dt?: number; orca?: OrcaParams } = {}): OrcaScene {
  requireInteger('count', count, 4, 100000);
  if (count % 4 !== 0) throw new InvalidArgumentError('count', count, 'must be a multiple of 4 (four equal groups)');
  const dt = requirePositive('options.dt', options.dt ?? 0.25);
  const r = 2, v = 2;
  const orca: OrcaParams = { neighbourDistance: 15, maxNeighbours: 10, timeHorizon: 5, obstacleTimeHorizon: 5, ...options.orca };
  const per = count / 4;
  const side = Math.ceil(Math.sqrt(per));
  const agents: SceneAgent[] = [];
  for (let q = 0; q < 4; q++) {
    const sx = q === 0 || q === 3 ? 1 : -1;
    const sy = q < 2 ? 1 : -1;
    for (let k = 0; k < per; k++) {
      const i = k % side, j = Math.floor(k / side);
      const x = sx * (55 + i * 10), y = sy * (55 + j * 10);
      agents.push({ x, y, gx: -x, gy: -y });
    }
  }
  const obstacles: { points: [number, number][]; closed: boolean }[] = [
    { closed: true, points: [[-10, 40], [-40, 40], [-40, 10], [-10, 10]] },
    { closed: true, points: [[10, 40], [10, 10], [40, 10], [40, 40]] },
    { closed: true, points: [[10, -40], [40, -40], [40, -10], [10, -10]] },
    { closed: true, points: [[-10, -40], [-10, -10], [-40, -10], [-40, -40]] },
  ];
  return buildScene(agents, obstacles, r, v, orca, dt, options.seed ?? 1, 0, 15);
}

/**
 * Set every scene agent's preferred velocity toward its waypoint (see OrcaScene.waypointX) or its goal: the offset, clamped to the agent's max speed, so agents slow down over the
 * last metre instead of overshooting (RVO2's examples do the same). Returns how many agents have arrived (within
 * arrivalRadius of the goal). Allocation-free.
 */
export function driveOrcaScene(scene: OrcaScene): number {
  const { world, eids, goalX, goalY, waypointX, waypointY } = scene;
  const px = world.position.x, py = world.position.y;
  const pvx = world.preferredVelocity.x, pvy = world.preferredVelocity.y;
  const maxSpeed = world.agent.maxSpeed;
  const ar2 = scene.arrivalRadius * scene.arrivalRadius;
  let arrived = 0;
  for (let i = 0; i < eids.length; i++) {
    const eid = eids[i];
    let tx = goalX[i], ty = goalY[i];
    const wx = waypointX[i];
    if (wx === wx) {
      // Stateless gate: head for the waypoint while not yet past the plane waypointRadius before it (along x,
      // seen from the goal); an agent pushed back out of the gate heads for it again.
      const dir = goalX[i] > wx ? 1 : -1;
      if ((px[eid] - wx) * dir < -scene.waypointRadius) {
        tx = wx;
        ty = waypointY[i];
      }
    }
    let dx = tx - px[eid], dy = ty - py[eid];
    const gx = goalX[i] - px[eid], gy = goalY[i] - py[eid];
    if (gx * gx + gy * gy <= ar2) arrived++;
    const d2 = dx * dx + dy * dy;
    const vmax = maxSpeed[eid];
    if (d2 > vmax * vmax) {
      const s = vmax / Math.sqrt(d2);
      dx *= s;
      dy *= s;
    }
    pvx[eid] = dx;
    pvy[eid] = dy;
  }
  return arrived;
}
