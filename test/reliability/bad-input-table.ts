/**
 * The bad-input table: for every public entry point, what each kind of bad input gets. One source of truth for the
 * test (test/reliability/bad-input.test.ts runs every cell) and for docs/ERRORS.md (renderErrorsTable; a test
 * checks the doc holds exactly this table). A cell runs the call and asserts its outcome; for calls on a world or a
 * grid, it also asserts the state is unchanged after a throw (validated before anything is written).
 */
import { expect } from 'vitest';
import {
  MurmurError, InvalidArgumentError, CapacityError, UnknownEntityError, MalformedInputError, DegenerateGeometryError, OutOfRangeError,
  createCrowd, spawnAgent, despawnAgent, setAgentPosition, setAgentVelocity, setPreferredVelocity, setAgentParams, step, advance,
  defineAgentComponent, onDespawn, interpolatePosition, createRng, seedRng, querySegmentGrid, assignSlots, assignSlotsOptimal,
  createSpatialHash, rebuildSpatialHash, queryRadius, queryKNearest, setSpatialHashCellSize,
  createGrid, gridFromAscii, parseMovingAiMap, setBlocked, setCost, findPath, findPathJps, buildFlowField, sampleFlowField,
  createFlowFieldCache, createPathQueue, requestPath,
  setNavigationGrid, setAgentGoal, setGroupGoal, navigationStatus,
  buildNavmesh, createNavQuery, createNavPathResult, findNavPath, funnel, setNavmesh, setNavGoal,
  setSteering, setSteeringWalls, createSegmentGrid, setBoids, createFormation, addFormationMember, formationSlots,
  enableLod, setFocusPoints, setLodBudget, MAX_FOCUS_POINTS, MAX_MAX_AGENTS, MAX_GRID_SIDE,
  snapshot, restore, hashBytes, stateHash, type CrowdWorld, type Grid,
  addObstacle, enableOrca, setOrcaParams, sphereShape, boxShape, hullShape, setPoseQuat, createPose,
  contactManifold, createManifold, createManifoldInput, MAX_HULL_INPUT,
  circleShape, polygonShape, MAX_POLYGON_VERTICES, MIN_POLYGON_EXTENT,
} from '../../src/index';
import { $internal } from 'bitecs';
import { systemStateBytes } from '../../src/reliability/snapshot';

export const KINDS = {
  nan: 'NaN / Infinity',
  size: 'negative / zero size',
  entity: 'unknown / despawned entity',
  capacity: 'capacity exceeded',
  map: 'malformed map text',
  polygon: 'degenerate polygon',
  offmap: 'goal off the map',
  unreachable: 'unreachable goal',
  points: 'too few points',
  oversized: 'oversized input',
} as const;
export type Kind = keyof typeof KINDS;

export interface Cell { label: string; check: () => void }
export interface Row { entry: string; cells: Partial<Record<Kind, Cell>>; note?: string }

type ErrCtor = new (...a: never[]) => MurmurError;
const SHORT: Record<string, string> = {
  InvalidArgumentError: 'InvalidArgument', CapacityError: 'Capacity', UnknownEntityError: 'UnknownEntity',
  MalformedInputError: 'MalformedInput', DegenerateGeometryError: 'DegenerateGeometry', OutOfRangeError: 'OutOfRange',
};

/** Something whose state must not change when a call throws. */
type Guarded = CrowdWorld | Grid | null;

/**
 * What must not change when a call throws. For a world: the entity index, the clock, the RNG and agents, every
 * per-agent store that existed before (live slots), and every system state that existed before (by the snapshot
 * codec). A component or system state created lazily by the failed call is allowed only if it holds nothing but
 * defaults (a component whose live slots are all at their defaults; creating it is what any first use does).
 */
function fingerprint(g: Guarded): Map<string, string> {
  const m = new Map<string, string>();
  if (g === null) return m;
  if (!('registry' in g)) {
    const grid = g as Grid;
    m.set('grid', `${grid.version}:${hashBytes(grid.walkable)}:${hashBytes(new Uint8Array(grid.cost.buffer))}`);
    return m;
  }
  const w = g as CrowdWorld;
  const idx = (w as unknown as { [$internal]: { entityIndex: { dense: number[]; aliveCount: number; maxId: number } } })[$internal].entityIndex;
  m.set('entities', `${idx.maxId}:${idx.aliveCount}:${idx.dense.join(',')}`);
  m.set('state', `${stateHash(w)}:${w.time.seconds}:${w.time.accumulator}`);
  const { dense, count } = w.agents;
  for (const st of w.registry.stores) {
    let h = '';
    for (let i = 0; i < count; i++) h += st.array[dense[i]] + ',';
    m.set(`store:${st.name}`, hashBytes(new TextEncoder().encode(h)));
  }
  for (const k of Object.keys(w.systems)) {
    m.set(`system:${k}`, hashBytes(systemStateBytes(w, k)));
  }
  return m;
}
function sameState(g: Guarded, before: Map<string, string>, after: Map<string, string>): void {
  for (const [k, v] of before) expect(after.get(k), `${k} changed although the call threw`).toBe(v);
  if (g === null || !('registry' in g)) return;
  const w = g as CrowdWorld;
  for (const k of after.keys()) {
    if (before.has(k) || !k.startsWith('store:')) continue; // new system state objects: created empty on first use
    const st = w.registry.stores.find((s) => `store:${s.name}` === k)!;
    for (let i = 0; i < w.agents.count; i++) expect(st.array[w.agents.dense[i]], `${k} created with non-default values`).toBe(st.defaultValue);
  }
}

/** A cell whose call must throw `Cls` naming `field` (and leave `guard` unchanged). */
function throws(Cls: ErrCtor, field: string | RegExp, make: () => { guard?: Guarded; call: () => unknown }): Cell {
  return {
    label: `${SHORT[Cls.name]} (\`${typeof field === 'string' ? field : field.source.replace(/\\/g, '')}\`)`,
    check() {
      const { guard = null, call } = make();
      const before = fingerprint(guard);
      let err: unknown;
      try { call(); } catch (e) { err = e; }
      expect(err, 'expected a throw').toBeInstanceOf(Cls);
      const e = err as MurmurError;
      if (typeof field === 'string') expect(e.field).toBe(field); else expect(e.field).toMatch(field);
      expect(e.message).toContain(e.field);
      sameState(guard, before, fingerprint(guard));
    },
  };
}
/**
 * A cell that documents a defect found here and reported to the owner: `cell` states the intended behaviour and
 * currently fails; the check passes while it fails, and fails once the defect is fixed (then drop the wrapper).
 */
function defect(cell: Cell, what: string): Cell {
  return {
    label: `${cell.label} ⚠ defect: ${what}`,
    check() {
      let failed = false;
      try { cell.check(); } catch { failed = true; }
      expect(failed, `fixed? "${what}" no longer reproduces: remove the defect() wrapper`).toBe(true);
    },
  };
}

/** A cell whose call returns a status (no throw). */
function status(label: string, call: () => unknown, want: unknown): Cell {
  return { label, check() { expect(call()).toEqual(want); } };
}

function world(n = 4): CrowdWorld {
  const w = createCrowd({ maxAgents: n, seed: 1 });
  spawnAgent(w, { x: 0, y: 0 });
  return w;
}
function deadId(w: CrowdWorld): number {
  const e = spawnAgent(w, { x: 1, y: 1 });
  despawnAgent(w, e);
  return e;
}
function walledGrid(): Grid {
  // 5×3, a wall down column 2: the right side is unreachable from the left.
  return gridFromAscii(['..#..', '..#..', '..#..']);
}
function navWorld(): { w: CrowdWorld; e: number; grid: Grid } {
  const w = world(8);
  const grid = walledGrid();
  setNavigationGrid(w, grid);
  const e = spawnAgent(w, { x: 0.5, y: 0.5 });
  return { w, e, grid };
}
const SQUARE: Array<[number, number]> = [[0, 0], [10, 0], [10, 10], [0, 10]];
function meshWorld(): { w: CrowdWorld; e: number } {
  const w = world(8);
  setNavmesh(w, buildNavmesh({ boundary: SQUARE, obstacles: [[[4, -1], [6, -1], [6, 11], [4, 11]].map(([x, y]) => [x, Math.min(10, Math.max(0, y))] as [number, number])] }));
  return { w, e: spawnAgent(w, { x: 1, y: 5 }) };
}
const MAP_OK = 'type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n';

export const ROWS: Row[] = [
  // ---- world ----
  { entry: 'createCrowd(options)', cells: {
    nan: throws(InvalidArgumentError, 'options.fixedDt', () => ({ call: () => createCrowd({ fixedDt: NaN }) })),
    size: throws(InvalidArgumentError, 'options.maxAgents', () => ({ call: () => createCrowd({ maxAgents: 0 }) })),
    oversized: throws(InvalidArgumentError, 'options.maxAgents', () => ({ call: () => createCrowd({ maxAgents: MAX_MAX_AGENTS + 1 }) })),
  } },
  { entry: 'spawnAgent(world, init)', cells: {
    nan: throws(InvalidArgumentError, 'init.x', () => { const w = world(); return { guard: w, call: () => spawnAgent(w, { x: NaN, y: 0 }) }; }),
    size: throws(InvalidArgumentError, 'init.radius', () => { const w = world(); return { guard: w, call: () => spawnAgent(w, { x: 0, y: 0, radius: -1 }) }; }),
    capacity: throws(CapacityError, 'maxAgents', () => { const w = createCrowd({ maxAgents: 1 }); spawnAgent(w, { x: 0, y: 0 }); return { guard: w, call: () => spawnAgent(w, { x: 1, y: 0 }) }; }),
    oversized: throws(OutOfRangeError, 'init.x', () => { const w = world(); return { guard: w, call: () => spawnAgent(w, { x: 1e300, y: 0 }) }; }),
  } },
  { entry: 'despawnAgent(world, eid)', cells: {
    nan: throws(UnknownEntityError, 'eid', () => { const w = world(); return { guard: w, call: () => despawnAgent(w, NaN) }; }),
    entity: throws(UnknownEntityError, 'eid', () => { const w = world(); const d = deadId(w); return { guard: w, call: () => despawnAgent(w, d) }; }),
  } },
  { entry: 'setAgentPosition / setAgentVelocity / setPreferredVelocity(world, eid, x, y)', cells: {
    nan: { label: 'InvalidArgument (`x`/`vx`)', check() {
      throws(InvalidArgumentError, 'x', () => { const w = world(); return { guard: w, call: () => setAgentPosition(w, 1, Infinity, 0) }; }).check();
      throws(InvalidArgumentError, 'vx', () => { const w = world(); return { guard: w, call: () => setAgentVelocity(w, 1, NaN, 0) }; }).check();
      throws(InvalidArgumentError, 'vy', () => { const w = world(); return { guard: w, call: () => setPreferredVelocity(w, 1, 0, -Infinity) }; }).check();
    } },
    entity: { label: 'UnknownEntity (`eid`)', check() {
      throws(UnknownEntityError, 'eid', () => { const w = world(); const d = deadId(w); return { guard: w, call: () => setAgentPosition(w, d, 0, 0) }; }).check();
      throws(UnknownEntityError, 'eid', () => { const w = world(); return { guard: w, call: () => setAgentVelocity(w, 99, 0, 0) }; }).check();
      throws(UnknownEntityError, 'eid', () => { const w = world(); return { guard: w, call: () => setPreferredVelocity(w, 0, 0, 0) }; }).check();
    } },
    oversized: throws(OutOfRangeError, 'x', () => { const w = world(); return { guard: w, call: () => setAgentPosition(w, 1, -1e20, 0) }; }),
  } },
  { entry: 'setAgentParams(world, eid, params)', cells: {
    nan: throws(InvalidArgumentError, 'params.maxSpeed', () => { const w = world(); return { guard: w, call: () => setAgentParams(w, 1, { radius: 2, maxSpeed: NaN }) }; }),
    size: throws(InvalidArgumentError, 'params.radius', () => { const w = world(); return { guard: w, call: () => setAgentParams(w, 1, { radius: 0 }) }; }),
    entity: throws(UnknownEntityError, 'eid', () => { const w = world(); const d = deadId(w); return { guard: w, call: () => setAgentParams(w, d, { radius: 1 }) }; }),
  } },
  { entry: 'step(world, dt) / advance(world, seconds)', cells: {
    nan: { label: 'InvalidArgument (`dt`/`frameSeconds`)', check() {
      throws(InvalidArgumentError, 'dt', () => { const w = world(); return { guard: w, call: () => step(w, NaN) }; }).check();
      throws(InvalidArgumentError, 'frameSeconds', () => { const w = world(); return { guard: w, call: () => advance(w, Infinity) }; }).check();
    } },
    size: { label: 'InvalidArgument (`dt` ≤ 0, `frameSeconds` < 0)', check() {
      throws(InvalidArgumentError, 'dt', () => { const w = world(); return { guard: w, call: () => step(w, 0) }; }).check();
      throws(InvalidArgumentError, 'frameSeconds', () => { const w = world(); return { guard: w, call: () => advance(w, -1) }; }).check();
    } },
  } },
  { entry: 'defineAgentComponent(world, name, make) / onDespawn(world, hook)', cells: {
    size: throws(InvalidArgumentError, 'name', () => { const w = world(); return { call: () => defineAgentComponent(w, '', () => ({})) }; }),
    nan: throws(InvalidArgumentError, 'hook', () => { const w = world(); return { guard: w, call: () => onDespawn(w, 42 as never) }; }),
  } },
  { entry: 'interpolatePosition(world, eid, alpha, out)', note: 'render helper on the per-frame path: not validated', cells: {
    nan: status('not validated: NaN alpha gives NaN in `out` only (the world is untouched)', () => {
      const w = world(); const before = stateHash(w);
      const o = interpolatePosition(w, 1, NaN, [0, 0]);
      return [Number.isNaN(o[0]), stateHash(w) === before];
    }, [true, true]),
    entity: status('not validated: a dead id reads its stale slot', () => { const w = world(); const d = deadId(w); return Array.from(interpolatePosition(w, d, 0.5, [9, 9])).map((v) => Number.isFinite(v)); }, [true, true]),
  } },
  { entry: 'createRng(seed) / seedRng(rng, seed)', cells: {
    nan: { label: 'InvalidArgument (`seed`)', check() {
      throws(InvalidArgumentError, 'seed', () => ({ call: () => createRng(NaN) })).check();
      throws(InvalidArgumentError, 'seed', () => ({ call: () => seedRng(createRng(1), Infinity) })).check();
    } },
  } },
  // ---- spatial ----
  { entry: 'createSpatialHash(capacity, cellSize)', cells: {
    nan: throws(InvalidArgumentError, 'cellSize', () => ({ call: () => createSpatialHash(10, NaN) })),
    size: throws(InvalidArgumentError, 'capacity', () => ({ call: () => createSpatialHash(0, 1) })),
    oversized: throws(InvalidArgumentError, 'capacity', () => ({ call: () => createSpatialHash(2 ** 29, 1) })),
  } },
  { entry: 'rebuildSpatialHash(hash, xs, ys, ids, count)', cells: {
    nan: throws(InvalidArgumentError, 'xs[1]', () => { const h = createSpatialHash(2, 1); return { call: () => rebuildSpatialHash(h, new Float64Array([0, NaN]), new Float64Array(2), new Int32Array([1]), 1) }; }),
    capacity: throws(CapacityError, 'count', () => { const h = createSpatialHash(1, 1); return { call: () => rebuildSpatialHash(h, new Float64Array(3), new Float64Array(3), new Int32Array([1, 2]), 2) }; }),
    oversized: throws(OutOfRangeError, /^[xy]s\[1\]$/, () => { const h = createSpatialHash(2, 1); return { call: () => rebuildSpatialHash(h, new Float64Array([0, 1e16]), new Float64Array(2), new Int32Array([1]), 1) }; }),
  } },
  { entry: 'queryRadius / queryKNearest(hash, x, y, r, ...)', cells: {
    nan: throws(InvalidArgumentError, 'x', () => { const h = createSpatialHash(2, 1); return { call: () => queryRadius(h, NaN, 0, 1, -1, new Int32Array(2)) }; }),
    size: { label: 'InvalidArgument (`r` < 0, `k` < 0)', check() {
      throws(InvalidArgumentError, 'r', () => { const h = createSpatialHash(2, 1); return { call: () => queryRadius(h, 0, 0, -1, -1, new Int32Array(2)) }; }).check();
      throws(InvalidArgumentError, 'k', () => { const h = createSpatialHash(2, 1); return { call: () => queryKNearest(h, 0, 0, 1, -2, -1, new Int32Array(2), new Float64Array(2)) }; }).check();
    } },
  } },
  { entry: 'setSpatialHashCellSize(hash, cellSize)', cells: {
    nan: throws(InvalidArgumentError, 'cellSize', () => { const h = createSpatialHash(2, 1); return { call: () => setSpatialHashCellSize(h, Infinity) }; }),
    size: throws(InvalidArgumentError, 'cellSize', () => { const h = createSpatialHash(2, 1); return { call: () => setSpatialHashCellSize(h, 0) }; }),
  } },
  // ---- grid ----
  { entry: 'createGrid(width, height, options)', cells: {
    nan: throws(InvalidArgumentError, 'options.cost[1]', () => ({ call: () => createGrid(2, 1, { cost: [1, NaN] }) })),
    size: throws(InvalidArgumentError, 'width', () => ({ call: () => createGrid(0, 3) })),
    oversized: throws(InvalidArgumentError, 'height', () => ({ call: () => createGrid(4, MAX_GRID_SIDE + 1) })),
  } },
  { entry: 'gridFromAscii(rows, options)', cells: {
    map: throws(MalformedInputError, /rows/, () => ({ call: () => gridFromAscii(['...', '..']) })),
    size: throws(MalformedInputError, /rows/, () => ({ call: () => gridFromAscii([]) })),
  } },
  { entry: 'parseMovingAiMap(text)', cells: {
    map: { label: 'MalformedInput (`text`; header, row length, row count, characters)', check() {
      for (const bad of [
        'type octile\nheight 2\nwidth 3\n...\n', // no 'map' line
        'type octile\nheight two\nwidth 3\nmap\n...\n...\n', // non-numeric header
        'type octile\nheight 2\nwidth 3\nmap\n...\n..\n', // short row
        'type octile\nheight 3\nwidth 3\nmap\n...\n...\n', // missing row
        'type octile\nheight 2\nwidth 3\nmap\n...\n.x.\n', // unknown character
        42 as unknown as string,
      ]) {
        let err: unknown;
        try { parseMovingAiMap(bad); } catch (e) { err = e; }
        expect(err, JSON.stringify(bad)).toBeInstanceOf(MalformedInputError);
      }
      expect(parseMovingAiMap(MAP_OK).width).toBe(3); // and the well-formed file parses
    } },
    size: throws(MalformedInputError, /^line \d+/, () => ({ call: () => parseMovingAiMap('type octile\nheight 0\nwidth 3\nmap\n') })),
    oversized: throws(MalformedInputError, /^(text|line \d+)/, () => ({ call: () => parseMovingAiMap(`type octile\nheight ${MAX_GRID_SIDE + 1}\nwidth ${MAX_GRID_SIDE + 1}\nmap\n`) })),
  } },
  { entry: 'setBlocked / setCost(grid, x, y, ...)', cells: {
    nan: throws(InvalidArgumentError, 'cost', () => { const g = createGrid(3, 3); return { guard: g, call: () => setCost(g, 1, 1, NaN) }; }),
    size: throws(InvalidArgumentError, 'cost', () => { const g = createGrid(3, 3); return { guard: g, call: () => setCost(g, 1, 1, 0) }; }),
    offmap: throws(OutOfRangeError, /^(x|y|cell)/, () => { const g = createGrid(3, 3); return { guard: g, call: () => setBlocked(g, 3, 0, true) }; }),
  } },
  { entry: 'findPath / findPathJps(grid, start, goal, options)', cells: {
    nan: throws(OutOfRangeError, 'start.x', () => { const g = createGrid(3, 3); return { guard: g, call: () => findPath(g, { x: NaN, y: 0 }, { x: 1, y: 1 }) }; }),
    offmap: throws(OutOfRangeError, /^goal/, () => { const g = createGrid(3, 3); return { guard: g, call: () => findPath(g, { x: 0, y: 0 }, { x: 5, y: 1 }) }; }),
    unreachable: status("status 'unreachable' (also for a blocked goal)", () => {
      const g = walledGrid();
      return [findPath(g, { x: 0, y: 0 }, { x: 4, y: 2 }).status, findPathJps(g, { x: 0, y: 0 }, { x: 4, y: 2 }).status, findPath(g, { x: 0, y: 0 }, { x: 2, y: 1 }).status];
    }, ['unreachable', 'unreachable', 'unreachable']),
  } },
  { entry: 'buildFlowField(grid, goals, options) / sampleFlowField(field, x, y, out)', cells: {
    nan: status("sample at NaN: status 'unreachable', out = (0, 0)", () => {
      const f = buildFlowField(createGrid(3, 3), { x: 1, y: 1 });
      const o = { x: 9, y: 9 };
      return [sampleFlowField(f, NaN, 1, o), o];
    }, ['unreachable', { x: 0, y: 0 }]),
    offmap: throws(OutOfRangeError, /^goals/, () => ({ call: () => buildFlowField(createGrid(3, 3), { x: -1, y: 0 }) })),
    unreachable: status("integration Infinity, sample status 'unreachable'", () => {
      const f = buildFlowField(walledGrid(), { x: 4, y: 1 });
      return [f.integration[0], sampleFlowField(f, 0.5, 0.5, { x: 0, y: 0 })];
    }, [Infinity, 'unreachable']),
  } },
  { entry: 'createFlowFieldCache(capacity) / createPathQueue(capacity, options)', cells: {
    size: { label: 'InvalidArgument (`capacity`)', check() {
      throws(InvalidArgumentError, 'capacity', () => ({ call: () => createFlowFieldCache(0) })).check();
      throws(InvalidArgumentError, 'capacity', () => ({ call: () => createPathQueue(-1) })).check();
    } },
    oversized: throws(InvalidArgumentError, 'capacity', () => ({ call: () => createFlowFieldCache(1e6) })),
  } },
  { entry: 'requestPath(queue, id, grid, start, goal)', cells: {
    entity: throws(OutOfRangeError, 'id', () => { const q = createPathQueue(2); return { call: () => requestPath(q, 5, createGrid(2, 2), { x: 0, y: 0 }, { x: 1, y: 1 }) }; }),
    offmap: throws(OutOfRangeError, /^goal/, () => { const q = createPathQueue(2); return { call: () => requestPath(q, 0, createGrid(2, 2), { x: 0, y: 0 }, { x: 2, y: 1 }) }; }),
  } },
  { entry: 'setNavigationGrid(world, grid, options)', cells: {
    nan: throws(InvalidArgumentError, 'options.maxExpansionsPerFrame', () => { const w = world(); return { guard: w, call: () => setNavigationGrid(w, createGrid(2, 2), { maxExpansionsPerFrame: NaN }) }; }),
    map: throws(InvalidArgumentError, 'grid', () => { const w = world(); return { guard: w, call: () => setNavigationGrid(w, { width: 2 } as unknown as Grid) }; }),
  } },
  { entry: 'setAgentGoal / setGroupGoal(world, eid(s), x, y, options)', cells: {
    nan: throws(InvalidArgumentError, /^[xy]$/, () => { const { w, e } = navWorld(); return { guard: w, call: () => setAgentGoal(w, e, NaN, 1) }; }),
    entity: throws(UnknownEntityError, 'eids[1]', () => { const { w, e } = navWorld(); const d = deadId(w); return { guard: w, call: () => setGroupGoal(w, [e, d], 1, 1) }; }),
    offmap: throws(OutOfRangeError, /^[xy]$/, () => { const { w, e } = navWorld(); return { guard: w, call: () => setAgentGoal(w, e, 50, 1) }; }),
    unreachable: status("status 'unreachable' (a blocked goal too)", () => {
      const { w, e, grid } = navWorld();
      setAgentGoal(w, e, 4.5, 1.5, { mode: 'flow' });
      step(w, 1 / 30);
      const a = navigationStatus(w, e);
      setAgentGoal(w, e, 2.5, 1.5);
      for (let i = 0; i < 3; i++) step(w, 1 / 30);
      return [a, navigationStatus(w, e), grid.walkable[1 * 5 + 2]];
    }, ['unreachable', 'unreachable', 0]),
  } },
  { entry: 'navigationStatus(world, eid)', cells: {
    entity: throws(UnknownEntityError, 'eid', () => { const { w } = navWorld(); const d = deadId(w); return { call: () => navigationStatus(w, d) }; }),
  } },
  // ---- navmesh, funnel ----
  { entry: 'buildNavmesh(map, options)', cells: {
    nan: throws(InvalidArgumentError, /boundary/, () => ({ call: () => buildNavmesh({ boundary: [[0, 0], [NaN, 0], [1, 1]] }) })),
    size: throws(InvalidArgumentError, /radius/, () => ({ call: () => buildNavmesh({ boundary: SQUARE }, { radius: -1 }) })),
    polygon: throws(DegenerateGeometryError, /boundary/, () => ({ call: () => buildNavmesh({ boundary: [[0, 0], [1, 1], [2, 2], [3, 3]] }) })),
    points: throws(DegenerateGeometryError, /obstacles\[0\]/, () => ({ call: () => buildNavmesh({ boundary: SQUARE, obstacles: [[[1, 1], [2, 2]]] }) })),
    map: throws(MalformedInputError, /boundary|map/, () => ({ call: () => buildNavmesh({ boundary: 'square' as unknown as Array<[number, number]> }) })),
  } },
  { entry: 'createNavQuery(mesh, maxNodes) / createNavPathResult(maxCorridor)', cells: {
    size: { label: 'InvalidArgument (`maxNodes`, `maxCorridor`)', check() {
      const m = buildNavmesh({ boundary: SQUARE });
      throws(InvalidArgumentError, 'maxNodes', () => ({ call: () => createNavQuery(m, 0) })).check();
      throws(InvalidArgumentError, 'maxCorridor', () => ({ call: () => createNavPathResult(-5) })).check();
    } },
  } },
  { entry: 'findNavPath(query, sx, sy, gx, gy, out)', cells: {
    nan: throws(InvalidArgumentError, /^(sx|start)/, () => { const m = buildNavmesh({ boundary: SQUARE }); return { call: () => findNavPath(createNavQuery(m), NaN, 1, 2, 2, createNavPathResult()) }; }),
    offmap: status("snapped to the nearest mesh point: status 'found'", () => {
      const m = buildNavmesh({ boundary: SQUARE });
      return findNavPath(createNavQuery(m), 1, 1, 50, 5, createNavPathResult());
    }, 'found'),
    unreachable: status("status 'unreachable'", () => {
      const m = buildNavmesh({ boundary: [[0, 0], [10, 0], [10, 10], [0, 10]], obstacles: [[[4, 0], [6, 0], [6, 10], [4, 10]]] });
      return findNavPath(createNavQuery(m), 1, 5, 9, 5, createNavPathResult());
    }, 'unreachable'),
  } },
  { entry: 'funnel(portals, count, radius, out)', cells: {
    size: throws(InvalidArgumentError, 'radius', () => ({ call: () => funnel([0, 0, 0, 0, 1, 1, 1, 1], 2, -1, new Float64Array(8)) })),
    points: throws(InvalidArgumentError, 'count', () => ({ call: () => funnel([], 0, 0, new Float64Array(8)) })),
    capacity: status('returns −1 when `out` is too small (grow it and call again)', () => funnel([0, 0, 0, 0, 5, 1, 5, -1, 10, 0, 10, 0], 3, 0, new Float64Array(2)), -1),
  } },
  { entry: 'setNavmesh(world, mesh) / setNavGoal(world, eid, x, y)', cells: {
    nan: throws(InvalidArgumentError, 'x', () => { const { w, e } = meshWorld(); return { guard: w, call: () => setNavGoal(w, e, NaN, 1) }; }),
    entity: throws(UnknownEntityError, 'eid', () => { const { w } = meshWorld(); const d = deadId(w); return { guard: w, call: () => setNavGoal(w, d, 1, 1) }; }),
    unreachable: status("returns status 'unreachable' (the agent stops)", () => {
      const w = world(8);
      setNavmesh(w, buildNavmesh({ boundary: SQUARE, obstacles: [[[4, 0], [6, 0], [6, 10], [4, 10]]] }));
      return setNavGoal(w, spawnAgent(w, { x: 1, y: 5 }), 9, 5);
    }, 'unreachable'),
  } },
  // ---- steering, boids, formations ----
  { entry: 'setSteering(world, eid, cfg)', cells: {
    nan: throws(InvalidArgumentError, 'cfg.target.x', () => { const w = world(); return { guard: w, call: () => setSteering(w, 1, { target: { x: NaN, y: 0 } }) }; }),
    size: throws(InvalidArgumentError, /cfg\.(slowingRadius|stopRadius)/, () => { const w = world(); return { guard: w, call: () => setSteering(w, 1, { slowingRadius: -1 }) }; }),
    entity: throws(UnknownEntityError, 'cfg.pursueEid', () => { const w = world(); const d = deadId(w); return { guard: w, call: () => setSteering(w, 1, { pursueEid: d }) }; }),
  } },
  { entry: 'setSteeringWalls(world, segments, cellSize) / createSegmentGrid(segments, cellSize)', cells: {
    nan: throws(InvalidArgumentError, /segments\[\d\]/, () => ({ call: () => createSegmentGrid([0, 0, NaN, 1], 1) })),
    size: throws(InvalidArgumentError, 'cellSize', () => { const w = world(); return { guard: w, call: () => setSteeringWalls(w, [0, 0, 1, 1], 0) }; }),
    points: throws(InvalidArgumentError, 'segments', () => ({ call: () => createSegmentGrid([0, 0, 1], 1) })),
  } },
  { entry: 'querySegmentGrid(grid, x0, y0, x1, y1, out)', note: 'per-agent query: not validated', cells: {
    nan: status('not validated: a NaN box finds no segments (returns 0)', () => querySegmentGrid(createSegmentGrid([0, 0, 1, 1], 1), NaN, 0, 1, 1, new Int32Array(4)), 0),
  } },
  { entry: 'setBoids(world, eid, cfg)', cells: {
    nan: throws(InvalidArgumentError, 'cfg.separation', () => { const w = world(); return { guard: w, call: () => setBoids(w, 1, { separation: NaN }) }; }),
    size: throws(InvalidArgumentError, 'cfg.radius', () => { const w = world(); return { guard: w, call: () => setBoids(w, 1, { radius: 0 }) }; }),
    entity: throws(UnknownEntityError, 'eid', () => { const w = world(); return { guard: w, call: () => setBoids(w, 3, { enabled: true }) }; }),
    oversized: throws(InvalidArgumentError, 'cfg.k', () => { const w = world(); return { guard: w, call: () => setBoids(w, 1, { k: 10_000 }) }; }),
  } },
  { entry: 'createFormation(world, opts) / addFormationMember(world, group, eid)', cells: {
    nan: throws(InvalidArgumentError, 'opts.x', () => { const w = world(); return { guard: w, call: () => createFormation(w, { shape: 'line', x: NaN, y: 0 }) }; }),
    size: throws(InvalidArgumentError, 'opts.maxTurnRate', () => { const w = world(); return { guard: w, call: () => createFormation(w, { shape: 'wedge', x: 0, y: 0, maxTurnRate: 0 }) }; }),
    entity: throws(UnknownEntityError, 'eid', () => { const w = world(); const g = createFormation(w, { shape: 'box', x: 0, y: 0 }); const d = deadId(w); return { guard: w, call: () => addFormationMember(w, g, d) }; }),
    capacity: throws(CapacityError, 'maxAgents', () => { const w = createCrowd({ maxAgents: 1 }); spawnAgent(w, { x: 0, y: 0 }); return { guard: w, call: () => createFormation(w, { shape: 'line', x: 0, y: 0 }) }; }),
  } },
  { entry: 'assignSlots / assignSlotsOptimal / assignSlotsGreedy(mx, my, sx, sy, n, out)', cells: {
    nan: throws(InvalidArgumentError, 'mx[0]', () => ({ call: () => assignSlots([NaN, 1], [0, 1], [0, 1], [0, 1], 2, new Int32Array(2)) })),
    capacity: throws(InvalidArgumentError, 'out', () => ({ call: () => assignSlots([0, 1], [0, 1], [0, 1], [0, 1], 2, new Int32Array(1)) })),
    oversized: throws(InvalidArgumentError, 'n', () => ({ call: () => assignSlotsOptimal(new Array(40).fill(0), new Array(40).fill(0), new Array(40).fill(0), new Array(40).fill(0), 40, new Int32Array(40)) })),
  } },
  { entry: 'formationSlots(shape, n, spacing, out)', cells: {
    size: throws(InvalidArgumentError, 'spacing', () => ({ call: () => formationSlots(0, 3, -1, new Float64Array(6)) })),
    capacity: throws(InvalidArgumentError, 'out', () => ({ call: () => formationSlots(0, 5, 1, new Float64Array(4)) })),
  } },
  // ---- avoidance (components/orca) ----
  { entry: 'addObstacle(world, points, options)', cells: {
    nan: throws(InvalidArgumentError, /points\[1\]/, () => { const w = world(); return { guard: w, call: () => addObstacle(w, [[0, 0], [NaN, 0], [1, 1]]) }; }),
    polygon: throws(DegenerateGeometryError, 'points', () => { const w = world(); return { guard: w, call: () => addObstacle(w, [[0, 0], [1, 1], [2, 2]]) }; }),
    points: throws(DegenerateGeometryError, 'points', () => { const w = world(); return { guard: w, call: () => addObstacle(w, [[0, 0], [1, 0]]) }; }),
  } },
  { entry: 'enableOrca / setOrcaParams(world, eid, params)', cells: {
    nan: throws(InvalidArgumentError, 'params.timeHorizon', () => { const w = world(); return { guard: w, call: () => enableOrca(w, 1, { timeHorizon: NaN }) }; }),
    size: throws(InvalidArgumentError, 'params.neighbourDistance', () => { const w = world(); return { guard: w, call: () => setOrcaParams(w, 1, { neighbourDistance: 0 }) }; }),
    entity: throws(UnknownEntityError, 'eid', () => { const w = world(); const d = deadId(w); return { guard: w, call: () => enableOrca(w, d) }; }),
    oversized: throws(InvalidArgumentError, 'params.maxNeighbours', () => { const w = world(); return { guard: w, call: () => setOrcaParams(w, 1, { maxNeighbours: 100_000 }) }; }),
  } },
  // ---- lod ----
  { entry: 'enableLod(world, options)', cells: {
    nan: throws(InvalidArgumentError, 'options.nearRadius', () => { const w = world(); return { guard: w, call: () => enableLod(w, { nearRadius: NaN }) }; }),
    size: throws(InvalidArgumentError, 'options.midRadius', () => { const w = world(); return { guard: w, call: () => enableLod(w, { nearRadius: 10, midRadius: 5 }) }; }),
    capacity: throws(CapacityError, 'focus', () => { const w = world(); return { guard: w, call: () => enableLod(w, { focus: new Array(2 * (MAX_FOCUS_POINTS + 1)).fill(0) }) }; }),
  } },
  { entry: 'setFocusPoints(world, focus) / setLodBudget(world, options)', cells: {
    nan: throws(InvalidArgumentError, 'focus[1]', () => { const w = world(); enableLod(w); return { guard: w, call: () => setFocusPoints(w, [0, NaN]) }; }),
    size: throws(InvalidArgumentError, 'options.targetMs', () => { const w = world(); enableLod(w); return { guard: w, call: () => setLodBudget(w, { targetMs: 0 }) }; }),
    capacity: throws(CapacityError, 'focus', () => { const w = world(); enableLod(w); return { guard: w, call: () => setFocusPoints(w, new Array(2 * (MAX_FOCUS_POINTS + 1)).fill(1)) }; }),
  } },
  // ---- collision (src/collision) ----
  { entry: 'sphereShape / boxShape / hullShape(...)', cells: {
    nan: throws(InvalidArgumentError, /points\[\d+\]/, () => ({ call: () => hullShape([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, NaN]) })),
    size: { label: 'InvalidArgument (`radius`, `hx`)', check() {
      throws(InvalidArgumentError, 'radius', () => ({ call: () => sphereShape(0) })).check();
      throws(InvalidArgumentError, 'hx', () => ({ call: () => boxShape(-1, 1, 1) })).check();
    } },
    polygon: throws(DegenerateGeometryError, 'points', () => ({ call: () => hullShape([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 2, 3, 0]) })),
    points: throws(DegenerateGeometryError, 'points', () => ({ call: () => hullShape([0, 0, 0, 1, 0, 0, 0, 1, 0]) })),
    oversized: throws(CapacityError, 'points', () => ({ call: () => hullShape(new Array(3 * (MAX_HULL_INPUT + 1)).fill(0).map((_, i) => (i * 7919) % 101)) })),
  } },
  { entry: 'circleShape / polygonShape(...)', cells: {
    nan: throws(InvalidArgumentError, /points\[\d+\]/, () => ({ call: () => polygonShape([0, 0, 1, 0, 0, Infinity]) })),
    size: { label: 'InvalidArgument (`radius`)', check() {
      throws(InvalidArgumentError, 'radius', () => ({ call: () => circleShape(0) })).check();
      throws(InvalidArgumentError, 'radius', () => ({ call: () => polygonShape([0, 0, 1, 0, 0, 1], -0.1) })).check();
    } },
    polygon: { label: 'DegenerateGeometry (`points`: collinear, or spanning less than MIN_POLYGON_EXTENT)', check() {
      throws(DegenerateGeometryError, 'points', () => ({ call: () => polygonShape([0, 0, 1, 1, 2, 2, 3, 3]) })).check();
      // 1e-158 m across (fuzz finding, 2026-11-29: its squared edge lengths underflowed to NaN normals)
      throws(DegenerateGeometryError, 'points', () => ({ call: () => polygonShape([0, 0, 2e-166, 0, 0, 1.2e-158]) })).check();
      throws(DegenerateGeometryError, 'points', () => ({ call: () => polygonShape([5, 5, 5 + MIN_POLYGON_EXTENT / 2, 5, 5, 5 + MIN_POLYGON_EXTENT / 2]) })).check();
    } },
    points: throws(DegenerateGeometryError, 'points', () => ({ call: () => polygonShape([0, 0, 1, 0]) })),
    oversized: throws(CapacityError, 'points', () => ({ call: () => polygonShape(new Array(2 * (4 * MAX_POLYGON_VERTICES + 1)).fill(0).map((_, i) => (i * 7919) % 101)) })),
  } },
  { entry: 'setPoseQuat(out, x, y, z, qx, qy, qz, qw) / contactManifold(input, out)', cells: {
    nan: throws(InvalidArgumentError, 'position', () => ({ call: () => setPoseQuat(createPose(), NaN, 0, 0, 0, 0, 0, 1) })),
    size: { label: 'InvalidArgument (`quaternion` of length 0, `margin` < 0)', check() {
      throws(InvalidArgumentError, 'quaternion', () => ({ call: () => setPoseQuat(createPose(), 0, 0, 0, 0, 0, 0, 0) })).check();
      throws(InvalidArgumentError, 'input.margin', () => ({ call: () => contactManifold(createManifoldInput(sphereShape(1), createPose(), sphereShape(1), createPose(), -1), createManifold()) })).check();
    } },
  } },
  // ---- reliability ----
  { entry: 'restore(world, bytes)', cells: {
    map: throws(MalformedInputError, 'bytes', () => { const w = world(); const b = snapshot(w); b[30] ^= 1; return { guard: w, call: () => restore(w, b) }; }),
    size: throws(MalformedInputError, 'bytes', () => { const w = world(); return { guard: w, call: () => restore(w, new Uint8Array(0)) }; }),
    oversized: throws(MalformedInputError, 'bytes', () => { const w = world(); const b = snapshot(w); const big = new Uint8Array(b.length + 4096); big.set(b); return { guard: w, call: () => restore(w, big) }; }),
    capacity: throws(InvalidArgumentError, 'bytes', () => { const w = world(4); const other = createCrowd({ maxAgents: 8 }); return { guard: w, call: () => restore(w, snapshot(other)) }; }),
  } },
];

/** docs/ERRORS.md's table, rendered from ROWS. */
export function renderErrorsTable(): string {
  const kinds = Object.keys(KINDS) as Kind[];
  const head = `| entry point | ${kinds.map((k) => KINDS[k]).join(' | ')} |`;
  const sep = `|---|${kinds.map(() => '---').join('|')}|`;
  const body = ROWS.map((r) => `| \`${r.entry}\`${r.note ? ` (${r.note})` : ''} | ${kinds.map((k) => r.cells[k]?.label ?? '—').join(' | ')} |`);
  return [head, sep, ...body].join('\n');
}
