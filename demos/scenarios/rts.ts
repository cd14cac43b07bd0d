/**
 * RTS squad move: a squad in formation crosses a small town on a navmesh, with townsfolk walking their own navmesh
 * paths around it.
 *
 * - The squad's path: an optimal navmesh search (findNavPath) on a mesh inflated by the formation's half-width, so
 *   the whole formation fits through the streets it is sent down, string-pulled by the funnel (corridorPortals +
 *   funnel); the formation system drives the anchor along it and the members arrive at their slots.
 * - Townsfolk: the funnel system (setNavmesh + setNavGoal) on a mesh inflated by their body radius; a new random
 *   goal on arrival.
 * - Everyone runs ORCA against each other and the buildings (ORCA obstacle polygons), so members squeezed off
 *   their slots never walk through walls.
 *
 * `orderSquad(x, y)` is the click of an RTS player; `addBuilding(x0, y0, x1, y1)` rebuilds both meshes (the funnel
 * system re-plans the townsfolk; the squad's path is searched again).
 */
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent } from '../../src/world/agents';
import { onDespawn } from '../../src/world/registry';
import { step } from '../../src/world/step';
import { rngFloat, rngRange } from '../../src/core/rng';
import { buildNavmesh, type Navmesh } from '../../src/navmesh/build';
import { locateTriangle } from '../../src/navmesh/locate';
import { createNavPathResult, createNavQuery, findNavPath, type NavPathStatus } from '../../src/navmesh/search';
import { corridorPortals } from '../../src/navmesh/portals';
import { funnel } from '../../src/funnel/funnel';
import { setNavGoal, setNavmesh } from '../../systems/funnel';
import { corridorComponent, NAV_ARRIVED, NAV_UNREACHABLE, NAV_NONE } from '../../components/corridor';
import {
  addFormationMember, createFormation, getFormation, removeFormationMember, setFormationPath, setFormationShape,
  formationSlotError,
} from '../../systems/formation';
import { addObstacle, enableOrca } from '../../components/orca';
import type { Ring } from '../../src/navmesh/rings';
import { registerScenario, type ScenarioInstance, type ScenarioOptions } from './registry';
import { addToList, createAgentList, removeFromList } from './agent-list';

const W = 90, H = 60; // town size, metres
const MEMBER_RADIUS = 0.45;
const FOLK_RADIUS = 0.35;

export interface RtsInstance extends ScenarioInstance {
  readonly squad: number;
  /**
   * The live squad members and townsfolk. An agent despawned from outside leaves its list (and a member its
   * formation) before its id can be recycled, so a new agent spawned into that id is neither.
   */
  readonly members: Int32Array;
  readonly folk: Int32Array;
  /** Buildings as [x0, y0, x1, y1] rectangles. */
  readonly buildings: number[][];
  /** The squad's current path (flat x, y) and its last order status. */
  squadPath(): Float64Array;
  lastOrder(): NavPathStatus | 'none';
  orderSquad(x: number, y: number): NavPathStatus;
  addBuilding(x0: number, y0: number, x1: number, y1: number): boolean;
  setShape(shape: string): void;
  /** Worst member distance from its slot, metres. */
  worstSlotError(): number;
  /** The navmeshes: the squad's (inflated by the formation's half-width) and the townsfolk's. */
  meshes(): { squad: Navmesh; folk: Navmesh };
  /** Without orders, the squad patrols to random destinations. @default true */
  autoPatrol: boolean;
}

const TOWN: number[][] = [
  [10, 8, 22, 20], [30, 6, 40, 18], [50, 10, 62, 22], [70, 5, 82, 15],
  [8, 30, 18, 44], [26, 28, 44, 36], [52, 30, 58, 50], [66, 26, 80, 38],
  [28, 44, 42, 54], [68, 44, 84, 54],
];

function rect(b: number[]): Ring {
  return [[b[0], b[1]], [b[2], b[1]], [b[2], b[3]], [b[0], b[3]]];
}

export function createRts({ agents, seed }: ScenarioOptions): RtsInstance {
  const squadSize = Math.max(1, Math.min(48, Math.round(agents * 0.4)));
  const folkCount = Math.max(0, agents - squadSize);
  const world = createCrowd({ maxAgents: agents + 8, seed, neighbourRadius: 3 });
  const buildings = TOWN.map((b) => b.slice());
  const boundary: Ring = [[0, 0], [W, 0], [W, H], [0, H]];
  // The squad mesh is inflated by about half the formation's width (a 4-wide box of members 1.2 m apart), so the
  // anchor's path keeps the formation off the walls; narrow alleys are closed to the squad but open to townsfolk.
  const squadClearance = 2.2;
  let squadMesh: Navmesh, folkMesh: Navmesh;
  function buildMeshes(): void {
    const obstacles = buildings.map(rect);
    squadMesh = buildNavmesh({ boundary, obstacles }, { radius: squadClearance });
    folkMesh = buildNavmesh({ boundary, obstacles }, { radius: FOLK_RADIUS + 0.05 });
  }
  buildMeshes();
  let query = createNavQuery(squadMesh!);
  const result = createNavPathResult();
  let portals = new Float64Array(4 * 1024);
  const pathBuf = new Float64Array(2 * 512);
  let path = new Float64Array(0);
  let lastOrder: NavPathStatus | 'none' = 'none';

  for (const b of buildings) addObstacle(world, rect(b));
  setNavmesh(world, folkMesh!);

  const rng = world.rng;
  const randomFree = (mesh: Navmesh): [number, number] => {
    for (let t = 0; t < 1000; t++) {
      const x = rngRange(rng, 1, W - 1), y = rngRange(rng, 1, H - 1);
      if (locateTriangle(mesh, x, y) >= 0) return [x, y];
    }
    return [1, 1];
  };

  // The squad starts at the west edge, in a box.
  const squad = createFormation(world, { shape: 'box', x: 4, y: 25, speed: 1.6, maxTurnRate: 0.8 });
  const members = createAgentList(world, squadSize);
  const folk = createAgentList(world, folkCount);
  // A member or townsperson despawned by the game leaves its list before its id can be recycled (agent-list.ts); a
  // member also leaves the formation (the formation system's own hook does too; whichever runs second is a no-op).
  onDespawn(world, (w, eid) => {
    if (members.member[eid] === 1) {
      removeFormationMember(w, eid);
      removeFromList(members, eid);
    } else removeFromList(folk, eid);
  });
  /** A squad member at (x, y): ORCA with priority (townsfolk yield), joins the formation. */
  function spawnMember(x: number, y: number): number {
    const e = spawnAgent(world, { x, y, radius: MEMBER_RADIUS, maxSpeed: 2.4, maxAccel: 8 });
    enableOrca(world, e, { neighbourDistance: 4, maxNeighbours: 8, timeHorizon: 1.5, obstacleTimeHorizon: 0.6, priority: 2 });
    addFormationMember(world, squad, e);
    addToList(members, e);
    return e;
  }
  /** A townsperson somewhere free, walking the navmesh to a random goal. */
  function spawnFolk(): number {
    const [x, y] = randomFree(folkMesh!);
    const e = spawnAgent(world, { x, y, radius: FOLK_RADIUS, maxSpeed: 1 + 0.5 * rngFloat(rng), maxAccel: 6 });
    enableOrca(world, e, { neighbourDistance: 4, maxNeighbours: 8, timeHorizon: 1.5, obstacleTimeHorizon: 0.6 });
    const [gx, gy] = randomFree(folkMesh!);
    setNavGoal(world, e, gx, gy);
    addToList(folk, e);
    return e;
  }
  for (let i = 0; i < squadSize; i++) spawnMember(2 + (i % 4) * 1.2, 22 + Math.floor(i / 4) * 1.2);
  const corridor = corridorComponent(world);
  for (let i = 0; i < folkCount; i++) spawnFolk();

  function orderSquad(x: number, y: number): NavPathStatus {
    const g = getFormation(world, squad);
    const status = findNavPath(query, g.anchor.x, g.anchor.y, x, y, result);
    lastOrder = status;
    if (status !== 'found') return status;
    if (portals.length < 4 * (result.corridorLength + 1)) portals = new Float64Array(4 * (result.corridorLength + 1) * 2);
    const count = corridorPortals(squadMesh, result.corridor, result.corridorLength, result.startX, result.startY, result.goalX, result.goalY, portals);
    const n = funnel(portals, count, 0, pathBuf);
    path = pathBuf.slice(0, 2 * n);
    // The formation drives from where it is through the remaining corners (the first point is the start).
    setFormationPath(world, squad, path.subarray(2));
    return status;
  }

  const out = new Float64Array(2);
  const drawn = [{ points: [0, 0, W, 0, W, H, 0, H], closed: false }, ...buildings.map((b) => ({ points: rect(b).flat(), closed: true }))];
  const inst: RtsInstance = {
    world,
    dt: 1 / 30,
    bounds: { minX: 0, minY: 0, maxX: W, maxY: H },
    obstacles: drawn,
    autoPatrol: true,
    squad,
    get members() { return members.view; },
    get folk() { return folk.view; },
    buildings,
    squadPath: () => path,
    meshes: () => ({ squad: squadMesh, folk: folkMesh }),
    lastOrder: () => lastOrder,
    orderSquad,
    addBuilding(x0, y0, x1, y1) {
      const b = [Math.min(x0, x1), Math.min(y0, y1), Math.max(x0, x1), Math.max(y0, y1)];
      if (b[2] - b[0] < 0.5 || b[3] - b[1] < 0.5) return false;
      buildings.push(b);
      try {
        buildMeshes();
      } catch {
        buildings.pop(); // degenerate with the others (e.g. closes the map): keep the old meshes
        buildMeshes();
        return false;
      }
      addObstacle(world, rect(b));
      drawn.push({ points: rect(b).flat(), closed: true });
      query = createNavQuery(squadMesh);
      setNavmesh(world, folkMesh);
      for (let i = 0; i < folk.count; i++) {
        const e = folk.ids[i];
        const [gx, gy] = randomFree(folkMesh);
        setNavGoal(world, e, gx, gy);
      }
      const g = getFormation(world, squad);
      if (g.pathPoints > 0) orderSquad(path[path.length - 2], path[path.length - 1]);
      return true;
    },
    setShape: (shape) => setFormationShape(world, squad, shape),
    spawnOwn() {
      // A reinforcement joins at the formation's anchor (on the squad's mesh, which keeps 2.2 m off the buildings),
      // else a townsperson.
      if (members.count < members.ids.length) {
        const a = getFormation(world, squad).anchor;
        return spawnMember(a.x + rngRange(rng, -0.5, 0.5), a.y + rngRange(rng, -0.5, 0.5));
      }
      return folk.count < folk.ids.length ? spawnFolk() : 0;
    },
    worstSlotError() {
      let worst = 0;
      for (let i = 0; i < members.count; i++) worst = Math.max(worst, formationSlotError(world, members.ids[i], out));
      return worst;
    },
    tick() {
      // Townsfolk that arrived (or cannot reach their goal) pick a new one.
      const folkIds = folk.ids;
      for (let i = 0; i < folk.count; i++) {
        const e = folkIds[i];
        const st = corridor.state[e];
        if (st === NAV_ARRIVED || st === NAV_UNREACHABLE || st === NAV_NONE) {
          const [gx, gy] = randomFree(folkMesh);
          setNavGoal(world, e, gx, gy);
        }
      }
      // With no order pending, the squad patrols: a new random destination when it has finished its path.
      const g = getFormation(world, squad);
      if (g.anchor.waypoint >= g.pathPoints && inst.autoPatrol) {
        const [x, y] = randomFree(squadMesh);
        orderSquad(x, y);
      }
      step(world, 1 / 30);
    },
    paths: () => (path.length >= 4 ? [path] : []),
    goals: () => (path.length >= 2 ? [path[path.length - 2], path[path.length - 1]] : []),
    status: () => `squad of ${members.count}: order ${lastOrder}, worst slot error ${inst.worstSlotError().toFixed(2)} m; ${folk.count} townsfolk on navmesh corridors`,
  };
  return inst;
}

export const rtsScenario = registerScenario({
  name: 'rts',
  description: 'navmesh + funnel + formation: a squad crossing a town (40% of agents, max 48) among townsfolk',
  defaultAgents: 60,
  create: createRts,
});
