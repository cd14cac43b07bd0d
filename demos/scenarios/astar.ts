/**
 * A* explorer: a grid map (a Moving AI benchmark map when one is given, else a seeded random map) with two things
 * on it:
 *
 * - an **explorer**: one grid search from a start cell to a goal cell, advanced a budget of expansions per step so
 *   its frontier can be watched, with the algorithm chosen among Dijkstra (no heuristic), A* (octile, Manhattan or
 *   Euclidean heuristic), weighted A* (ε > 1) and greedy best-first (ε = 10⁶: f is the heuristic to within the
 *   g tie-break), and the tie-breaking rule; `compare()` runs all of them to completion on the same query, for the
 *   table of expansions and costs;
 * - **agents** on the navigation system with their own A* paths (the time-sliced path queue), each given a new
 *   random goal when it arrives, so the map is alive and paths are visible; the map's walls (gridWallRings) are
 *   static obstacles, so the contacts pass keeps the agents out of blocked cells when they shove past each other.
 *
 * Cells are 1 m; the grid's row y is world y (so a Moving AI map, whose top row is y = 0, is drawn upside down
 * with y up).
 */
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent } from '../../src/world/agents';
import { onDespawn } from '../../src/world/registry';
import { step } from '../../src/world/step';
import { rngFloat, rngInt } from '../../src/core/rng';
import { createGrid, parseMovingAiMap, type Grid } from '../../src/grid/grid';
import {
  beginGridSearch, createGridSearch, findPath, gridSearchCost, gridSearchPathLength, readGridSearchPath, stepGridSearch,
  type FindPathOptions, type GridHeuristic, type GridSearch, type GridTieBreak, type PathStatus,
} from '../../src/grid/search';
import { agentPathCells, navigationStatus, setAgentGoal, setNavigationGrid } from '../../systems/navigation';
import { gridWallRings } from '../../src/grid/walls';
import { addObstacle, clearObstacles } from '../../components/orca';
import { registerScenario, type ScenarioInstance, type ScenarioOptions } from './registry';
import { addToList, createAgentList, removeFromList } from './agent-list';

export type ExplorerAlgorithm = 'dijkstra' | 'astar' | 'weighted' | 'greedy';
export const EXPLORER_ALGORITHMS: ExplorerAlgorithm[] = ['dijkstra', 'astar', 'weighted', 'greedy'];

export interface ExplorerSettings {
  algorithm: ExplorerAlgorithm;
  heuristic: Exclude<GridHeuristic, 'none'>;
  tieBreak: GridTieBreak;
  /** ε of weighted A*. */
  weight: number;
  connectivity: 4 | 8;
  /** Expansions per simulation step (animation speed). */
  expansionsPerStep: number;
}

export interface CompareRow { algorithm: string; status: PathStatus; expanded: number; cost: number; cells: number }

export interface AstarInstance extends ScenarioInstance {
  readonly grid: Grid;
  readonly mapName: string;
  readonly search: GridSearch;
  readonly settings: ExplorerSettings;
  /** Explorer query cells (x, y); set with setQuery. */
  readonly query: { sx: number; sy: number; gx: number; gy: number };
  /** Last explorer status. */
  explorerStatus(): PathStatus | 'idle';
  /** The explorer's path (cells), valid once found. */
  explorerPath(): Int32Array;
  setQuery(sx: number, sy: number, gx: number, gy: number): void;
  /** Restart the explorer with the current settings. */
  restart(): void;
  /** Run every algorithm on the current query to completion (side by side, same grid). */
  compare(): CompareRow[];
  /**
   * Agents following their own A* paths (the live ones: an agent despawned from outside leaves the list, and a new
   * agent that gets its recycled id is not a walker).
   */
  readonly walkers: Int32Array;
}

/** Seeded random map: ~22% blocked cells in small clumps, a border wall. */
function randomGrid(w: number, h: number, world: ReturnType<typeof createCrowd>): Grid {
  const walk = new Uint8Array(w * h).fill(1);
  for (let x = 0; x < w; x++) { walk[x] = 0; walk[(h - 1) * w + x] = 0; }
  for (let y = 0; y < h; y++) { walk[y * w] = 0; walk[y * w + w - 1] = 0; }
  const clumps = Math.floor((w * h) / 18);
  for (let i = 0; i < clumps; i++) {
    const cx = 1 + rngInt(world.rng, w - 2), cy = 1 + rngInt(world.rng, h - 2);
    const len = 1 + rngInt(world.rng, 6), horiz = rngFloat(world.rng) < 0.5;
    for (let k = 0; k < len; k++) {
      const x = horiz ? cx + k : cx, y = horiz ? cy : cy + k;
      if (x < w - 1 && y < h - 1) walk[y * w + x] = 0;
    }
  }
  return createGrid(w, h, { walkable: walk });
}

function randomWalkable(grid: Grid, rng: ReturnType<typeof createCrowd>['rng']): number {
  for (let tries = 0; tries < 100000; tries++) {
    const c = rngInt(rng, grid.width * grid.height);
    if (grid.walkable[c] === 1) return c;
  }
  throw new Error('map has no walkable cell');
}

function searchOptions(s: ExplorerSettings, algorithm: ExplorerAlgorithm): FindPathOptions {
  switch (algorithm) {
    case 'dijkstra': return { heuristic: 'none', tieBreak: s.tieBreak, connectivity: s.connectivity };
    case 'astar': return { heuristic: s.heuristic, tieBreak: s.tieBreak, connectivity: s.connectivity };
    case 'weighted': return { heuristic: s.heuristic, tieBreak: s.tieBreak, weight: s.weight, connectivity: s.connectivity };
    case 'greedy': return { heuristic: s.heuristic, tieBreak: s.tieBreak, weight: 1e6, connectivity: s.connectivity };
  }
}

export function createAstar({ agents, seed, map }: ScenarioOptions): AstarInstance {
  const world = createCrowd({ maxAgents: Math.max(1, agents), seed, neighbourRadius: 2 });
  const grid = map ? parseMovingAiMap(map.text) : randomGrid(64, 48, world);
  const mapName = map ? map.name : 'random 64×48';
  setNavigationGrid(world, grid, { maxExpansionsPerFrame: 20000 });
  const walkers = createAgentList(world, agents);
  // A walker despawned by the game leaves the list before its id can be recycled (see agent-list.ts).
  onDespawn(world, (_w, eid) => { removeFromList(walkers, eid); });
  const w = grid.width;
  /** A walker on a random walkable cell, heading for another. */
  function spawnWalker(): number {
    const c = randomWalkable(grid, world.rng);
    const e = spawnAgent(world, { x: (c % w) + 0.5, y: Math.floor(c / w) + 0.5, radius: 0.35, maxSpeed: 4, maxAccel: 20 });
    addToList(walkers, e);
    const g = randomWalkable(grid, world.rng);
    setAgentGoal(world, e, (g % w) + 0.5, Math.floor(g / w) + 0.5);
    return e;
  }
  for (let i = 0; i < agents; i++) spawnWalker();
  const settings: ExplorerSettings = {
    algorithm: 'astar', heuristic: 'octile', tieBreak: 'larger-g', weight: 2, connectivity: 8,
    expansionsPerStep: Math.max(20, Math.round((grid.width * grid.height) / 400)),
  };
  const search = createGridSearch(grid.width * grid.height);
  const query = { sx: 0, sy: 0, gx: 0, gy: 0 };
  let status: PathStatus | 'idle' = 'idle';
  let holdSteps = 0;
  let userQuery = false;
  let path = new Int32Array(0);

  function restart(): void {
    beginGridSearch(search, grid, { x: query.sx, y: query.sy }, { x: query.gx, y: query.gy }, searchOptions(settings, settings.algorithm));
    status = 'budget';
    path = new Int32Array(0);
    holdSteps = 0;
  }
  function randomQuery(): void {
    // Far-apart endpoints make the difference between the algorithms visible.
    let best = 0;
    for (let t = 0; t < 20; t++) {
      const a = randomWalkable(grid, world.rng), b = randomWalkable(grid, world.rng);
      const d = Math.abs((a % w) - (b % w)) + Math.abs(Math.floor(a / w) - Math.floor(b / w));
      if (d > best) { best = d; query.sx = a % w; query.sy = Math.floor(a / w); query.gx = b % w; query.gy = Math.floor(b / w); }
    }
    restart();
  }
  randomQuery();

  function explorerStep(): void {
    if (status === 'budget') {
      status = stepGridSearch(search, settings.expansionsPerStep);
      if (status === 'found') {
        path = new Int32Array(gridSearchPathLength(search));
        readGridSearchPath(search, path);
      }
    } else if (!userQuery && ++holdSteps > 90) randomQuery();
  }

  // The map's walls as static obstacles, so that the contacts pass (walkers shoving past each other) never pushes a
  // walker into a blocked cell; rebuilt when the map is edited (painted walls).
  let wallsVersion = -1;
  function syncWalls(): void {
    if (wallsVersion === grid.version) return;
    clearObstacles(world);
    for (const r of gridWallRings(grid)) addObstacle(world, r.points, { enclose: r.encloses === 'walkable' });
    wallsVersion = grid.version;
  }
  syncWalls();

  function walkersStep(): void {
    const ids = walkers.ids;
    for (let i = 0; i < walkers.count; i++) {
      const e = ids[i];
      const st = navigationStatus(world, e);
      if (st === 'arrived' || st === 'unreachable' || st === 'idle') {
        const g = randomWalkable(grid, world.rng);
        setAgentGoal(world, e, (g % w) + 0.5, Math.floor(g / w) + 0.5);
      }
    }
  }

  const inst: AstarInstance = {
    world,
    dt: 1 / 30,
    bounds: { minX: 0, minY: 0, maxX: grid.width, maxY: grid.height },
    obstacles: [],
    grid,
    mapName,
    search,
    settings,
    query,
    get walkers() { return walkers.view; },
    explorerStatus: () => status,
    explorerPath: () => path,
    setQuery(sx, sy, gx, gy) {
      query.sx = sx; query.sy = sy; query.gx = gx; query.gy = gy;
      userQuery = true;
      restart();
    },
    restart,
    compare() {
      const rows: CompareRow[] = [];
      const scratch = createGridSearch(grid.width * grid.height);
      for (const a of EXPLORER_ALGORITHMS) {
        const r = findPath(grid, { x: query.sx, y: query.sy }, { x: query.gx, y: query.gy }, { ...searchOptions(settings, a), search: scratch });
        rows.push({ algorithm: a === 'weighted' ? `weighted ε=${settings.weight}` : a, status: r.status, expanded: r.expanded, cost: r.cost, cells: r.cells.length });
      }
      return rows;
    },
    tick() {
      explorerStep();
      walkersStep();
      syncWalls();
      step(world, 1 / 30);
    },
    paths() {
      const out: ArrayLike<number>[] = [];
      const toXY = (cells: ArrayLike<number>): number[] => {
        const p: number[] = [];
        for (let i = 0; i < cells.length; i++) p.push((cells[i] % w) + 0.5, Math.floor(cells[i] / w) + 0.5);
        return p;
      };
      if (path.length > 0) out.push(toXY(path));
      for (let i = 0; i < walkers.count; i++) {
        const cells = agentPathCells(world, walkers.ids[i]);
        if (cells.length > 1) out.push(toXY(cells));
      }
      return out;
    },
    goals: () => [query.sx + 0.5, query.sy + 0.5, query.gx + 0.5, query.gy + 0.5],
    spawnOwn: () => (walkers.count < walkers.ids.length ? spawnWalker() : 0),
    status() {
      const cost = gridSearchCost(search);
      return `${mapName}: ${settings.algorithm} ${status}, expanded ${search.expanded}${Number.isFinite(cost) ? `, cost ${cost.toFixed(3)}` : ''}`;
    },
  };
  return inst;
}

export const astarScenario = registerScenario({
  name: 'astar',
  description: 'A* explorer on a grid map (--map NAME from ../shared/data/maps) with agents on their own A* paths',
  defaultAgents: 24,
  create: createAstar,
});
