/**
 * The shared scenarios module: one list of seeded scenes used by the demo page, the headless CLI
 * (`npm run sim`) and the benchmark (`npm run bench`). A scenario builds a world and, optionally, per-frame
 * scenario logic (orders, wandering) that runs before each `step`.
 */
import type { CrowdWorld } from '../../src/world/crowd';
import type { Grid } from '../../src/grid/grid';

export interface ScenarioOptions {
  /** Number of agents. */
  agents: number;
  /** PRNG seed. */
  seed: number;
  /** A grid map for scenarios that use one (Moving AI .map text); the CLI's --map, the A* explorer's menu. */
  map?: { name: string; text: string };
}

/** A line strip (closed or open) drawn as a static obstacle: flat [x0, y0, x1, y1, ...]. */
export interface DrawnObstacle {
  points: number[];
  closed: boolean;
}

export interface ScenarioInstance {
  readonly world: CrowdWorld;
  /** Fixed step in seconds the scenario is designed for. */
  readonly dt: number;
  /** Axis-aligned bounds of the interesting area, for cameras and snapshots. */
  readonly bounds: { minX: number; minY: number; maxX: number; maxY: number };
  /** Static obstacles for drawing. */
  readonly obstacles: DrawnObstacle[];
  /** The navigation grid, when the scenario has one: blocked cells are drawn (page background, --snapshot). */
  readonly grid?: Grid;
  /** Advance one step: scenario logic, then the pipeline. */
  tick(): void;
  /** True when the scenario has reached its end condition (e.g. every agent arrived). */
  done?(): boolean;
  /** Current planned paths (flat [x0, y0, x1, y1, ...] polylines), for overlays and `--snapshot`. */
  paths?(): ArrayLike<number>[];
  /** Goals or targets worth marking (flat [x0, y0, x1, y1, ...]), for overlays and `--snapshot`. */
  goals?(): ArrayLike<number>;
  /** One line of scenario-specific status for the CLI summary (e.g. "arrived 98/100"). */
  status?(): string;
  /**
   * Spawn one more agent of the kind this scenario drives (a walker with a goal, a townsperson, a prey...), placed
   * and configured as at the start, and adopted by the scenario's logic; returns its id, or 0 when the scenario
   * holds as many as it started with. For scenarios that keep lists of their agents (the soak uses it so their logic
   * stays busy under despawns). May throw CapacityError when the world is full.
   */
  spawnOwn?(): number;
}

export interface Scenario {
  readonly name: string;
  readonly description: string;
  /** Agent count used when none is given. */
  readonly defaultAgents: number;
  create(options: ScenarioOptions): ScenarioInstance;
}

const _scenarios: Scenario[] = [];

/** Add a scenario to the shared list (names must be unique). */
export function registerScenario(s: Scenario): Scenario {
  if (_scenarios.some((o) => o.name === s.name)) throw new Error(`scenario '${s.name}' is registered twice`);
  _scenarios.push(s);
  return s;
}

/** All registered scenarios, in registration order. */
export function listScenarios(): readonly Scenario[] {
  return _scenarios;
}

/** Find a scenario by name, or throw an error listing the valid names. */
export function getScenario(name: string): Scenario {
  const s = _scenarios.find((o) => o.name === name);
  if (!s) throw new Error(`unknown scenario '${name}'; valid scenarios: ${_scenarios.map((o) => o.name).join(', ')}`);
  return s;
}
