/**
 * The soak harness shared by `npm run soak` (scripts/soak.ts, long) and test/reliability/soak.test.ts (short): runs
 * one shared scenario while a seeded stream of disturbances (spawns, despawns, goal changes, map edits, where the
 * scenario's systems support them) hits it, and checks after every step:
 *  - no NaN or infinity in any live agent's position, velocity, preferred or desired velocity;
 *  - no agent centre inside a static obstacle (the ORCA obstacle set's polygons, the contacts system's static shapes)
 *    deeper than a tolerance
 *    (default: the agent's own radius, i.e. the body may touch the wall, not sink into it);
 *  - entity bookkeeping consistent: Murmur's dense list, its inverse index, the bitecs alive count (agents plus the
 *    scenario's non-agent entities such as formation groups), the spatial hash entry count and the expected count
 *    (initial + spawned − despawned) all agree;
 *  - heap stable: heapUsed after forced GC (needs --expose-gc) sampled every `heapEvery` steps; the growth from the
 *    first sample after warm-up to the last is reported and compared with a bound.
 * Every READOUT_EVERY steps it also calls the scenario's read-outs (status, paths, goals), which read the scenario's
 * own agent lists like its tick does. At the end it takes a snapshot, restores it into a fresh instance of the same
 * scenario and checks the state hash, so every scenario's system state is known to survive snapshot/restore.
 */
import { $internal } from 'bitecs';
import type { Scenario, ScenarioInstance } from '../../demos/scenarios/index';
import type { CrowdWorld } from '../../src/world/crowd';
import { despawnAgent, spawnAgent } from '../../src/world/agents';
import { createRng, rngFloat, rngInt, rngRange, type Rng } from '../../src/core/rng';
import type { ObstacleSet } from '../../src/avoidance/obstacles';
import type { Shape2 } from '../../src/collision/shapes2d';
import { setBlocked, type Grid } from '../../src/grid/grid';
import { orcaComponent } from '../../components/orca';
import { boidsComponent } from '../../components/boids';
import { steeringComponent, STEER_ARRIVE, STEER_SEEK } from '../../components/steering';
import { navigationComponent, GRID_NAV_MODE_NONE } from '../../components/navigation';
import { enableOrca } from '../../components/orca';
import { setAgentGoal } from '../../systems/navigation';
import { snapshot, restore } from '../../src/reliability/snapshot';
import { CapacityError, UnknownEntityError } from '../../src/core/errors';
import { obstaclePolygons, solidDepth } from '../../src/reliability/diagnose';
import { stateHash } from '../../src/reliability/hash';

export interface SoakOptions {
  agents: number;
  seed: number;
  /** Stop after this many steps... */
  steps: number;
  /** ...or after this many seconds, whichever comes first (0 = no time bound). */
  seconds: number;
  /** Disturbance rates, expected events per step. */
  spawnRate: number;
  despawnRate: number;
  goalRate: number;
  /** Map edits (cell toggles) per step, for scenarios with a navigation grid. */
  editRate: number;
  /** Extra penetration (m) allowed beyond the agent radius before a centre inside an obstacle counts. @default 0 */
  tolerance: number;
  heapEvery: number;
  /** Allowed heap growth (bytes) from the first post-warm-up sample to the last. */
  heapBound: number;
  /** Print progress lines. */
  log?: (line: string) => void;
  /** Test hook: called after each tick, before the checks (used to prove the checks catch injected faults). */
  inject?: (inst: ScenarioInstance, step: number) => void;
}

export const DEFAULT_SOAK: SoakOptions = {
  agents: 300, seed: 1, steps: 100_000, seconds: 0, spawnRate: 0.2, despawnRate: 0.2, goalRate: 0.2, editRate: 0.02,
  tolerance: 0, heapEvery: 1000, heapBound: 4 * 1024 * 1024,
};

export interface SoakReport {
  scenario: string;
  steps: number;
  ms: number;
  agentsStart: number;
  agentsEnd: number;
  spawned: number;
  /** Spawns the world refused with a CapacityError (full). */
  spawnsRefused: number;
  /** Of the spawns, how many were the scenario's own (spawnOwn: adopted by its logic) rather than engine copies. */
  ownSpawns: number;
  despawned: number;
  goalChanges: number;
  mapEdits: number;
  /** Agent-steps checked for NaN (sum of live agents over steps). */
  agentSteps: number;
  nanFailures: string[];
  obstacleFailures: string[];
  /** Deepest agent centre inside an obstacle polygon (m), and that depth minus the agent's radius. */
  maxCentreDepth: number;
  maxPenetration: number;
  obstaclePolygons: number;
  countFailures: string[];
  /** A tick that threw (the run stops there). */
  tickFailures: string[];
  heapSamples: number[];
  heapGrowth: number | null;
  snapshotRoundTrip: string;
  /** Observations that are not failures (e.g. despawns turned off for a scenario that tracks its own agents). */
  notes: string[];
  /** Everything that went wrong; empty = passed. */
  failures: string[];
}

type Poly = ReturnType<typeof obstaclePolygons>[number];

/**
 * Static obstacles as closed polygons: the world's ORCA obstacle set, and the contacts system's static shapes
 * (addStaticShape: polygons through their pose, discs as inscribed 64-gons; a rounding radius is left out, so the
 * check is only stricter for them).
 */
function worldPolygons(world: CrowdWorld): Poly[] {
  const orca = world.systems.orca as { obstacles: ObstacleSet } | undefined;
  const polys = orca ? obstaclePolygons(orca.obstacles) : [];
  const contacts = world.systems.contacts as { statics: Shape2[]; staticPose: Float64Array[] } | undefined;
  if (contacts) {
    for (let k = 0; k < contacts.statics.length; k++) {
      const sh = contacts.statics[k], p = contacts.staticPose[k];
      const xs: number[] = [], ys: number[] = [];
      if (sh.kind === 'circle') {
        for (let i = 0; i < 64; i++) { const a = (2 * Math.PI * i) / 64; xs.push(p[0] + sh.radius * Math.cos(a)); ys.push(p[1] + sh.radius * Math.sin(a)); }
      } else {
        for (let i = 0; i < sh.count; i++) {
          const vx = sh.verts[2 * i], vy = sh.verts[2 * i + 1];
          xs.push(p[0] + p[2] * vx - p[3] * vy); ys.push(p[1] + p[3] * vx + p[2] * vy);
        }
      }
      polys.push({ x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys), xs: Float64Array.from(xs), ys: Float64Array.from(ys), enclose: false });
    }
  }
  return polys;
}

function entityAliveCount(world: CrowdWorld): number {
  return (world as unknown as { [$internal]: { entityIndex: { aliveCount: number } } })[$internal].entityIndex.aliveCount;
}

function hasComponent(world: CrowdWorld, name: string): boolean {
  return world.registry.components[name] !== undefined;
}

function insideAny(polys: Poly[], x: number, y: number, margin: number): boolean {
  if (solidDepth(polys, x, y) > 0) return true;
  for (const p of polys) if (nearPoly(p, x, y, margin)) return true;
  return false;
}
function nearPoly(p: Poly, x: number, y: number, margin: number): boolean {
  if (x < p.x0 - margin || x > p.x1 + margin || y < p.y0 - margin || y > p.y1 + margin) return false;
  for (let i = 0, j = p.xs.length - 1; i < p.xs.length; j = i++) {
    const ex = p.xs[i] - p.xs[j], ey = p.ys[i] - p.ys[j];
    const t = Math.max(0, Math.min(1, ((x - p.xs[j]) * ex + (y - p.ys[j]) * ey) / (ex * ex + ey * ey)));
    if (Math.hypot(x - (p.xs[j] + t * ex), y - (p.ys[j] + t * ey)) < margin) return true;
  }
  return false;
}

function gridOf(inst: ScenarioInstance): Grid | null {
  const g = (inst as unknown as { grid?: Grid }).grid;
  return g && g.walkable instanceof Uint8Array ? g : null;
}

/** Spawn a copy of a random live agent near it (never inside an obstacle or a blocked cell); returns its id or 0. */
function spawnNear(inst: ScenarioInstance, rng: Rng, polys: Poly[], grid: Grid | null): number {
  const w = inst.world;
  if (w.agents.count === 0 || w.agents.count >= w.capacity) return 0;
  const t = w.agents.dense[rngInt(rng, w.agents.count)];
  const r = w.agent.radius[t];
  for (let tries = 0; tries < 8; tries++) {
    const x = w.position.x[t] + rngRange(rng, -2, 2), y = w.position.y[t] + rngRange(rng, -2, 2);
    if (insideAny(polys, x, y, r)) continue;
    if (grid) {
      const cx = Math.floor((x - grid.originX) / grid.cellSize), cy = Math.floor((y - grid.originY) / grid.cellSize);
      if (cx < 0 || cy < 0 || cx >= grid.width || cy >= grid.height || !grid.walkable[cy * grid.width + cx]) continue;
    }
    const eid = spawnAgent(w, { x, y, radius: r, maxSpeed: w.agent.maxSpeed[t], maxAccel: w.agent.maxAccel[t] });
    if (hasComponent(w, 'orca') && orcaComponent(w).enabled[t]) enableOrca(w, eid, { timeHorizon: orcaComponent(w).timeHorizon[t] });
    if (hasComponent(w, 'boids') && boidsComponent(w).enabled[t]) {
      const b = boidsComponent(w);
      for (const arr of [b.enabled, b.mode, b.radius, b.k, b.wSep, b.wAli, b.wCoh, b.minSpeed, b.inertial, b.horizon]) arr[eid] = arr[t];
    }
    if (grid && hasComponent(w, 'navigation') && navigationComponent(w).mode[t] !== GRID_NAV_MODE_NONE) {
      const nav = navigationComponent(w);
      setAgentGoal(w, eid, nav.goalX[t], nav.goalY[t], { mode: 'path' });
    }
    return eid;
  }
  return 0;
}

function changeGoal(inst: ScenarioInstance, rng: Rng, grid: Grid | null): boolean {
  const w = inst.world;
  if (w.agents.count === 0) return false;
  const eid = w.agents.dense[rngInt(rng, w.agents.count)];
  const b = inst.bounds;
  const x = rngRange(rng, b.minX, b.maxX), y = rngRange(rng, b.minY, b.maxY);
  if (grid && hasComponent(w, 'navigation') && navigationComponent(w).mode[eid] !== GRID_NAV_MODE_NONE) {
    const gx = Math.min(Math.max(x, grid.originX), grid.originX + grid.width * grid.cellSize - 1e-6);
    const gy = Math.min(Math.max(y, grid.originY), grid.originY + grid.height * grid.cellSize - 1e-6);
    setAgentGoal(w, eid, gx, gy, { mode: 'path' }); // may be blocked: then the status is 'unreachable', not a throw
    return true;
  }
  if (hasComponent(w, 'steering')) {
    const s = steeringComponent(w);
    if (s.behaviours[eid] & (STEER_SEEK | STEER_ARRIVE)) { s.targetX[eid] = x; s.targetY[eid] = y; return true; }
  }
  return false;
}

/** Steps between calls of the scenario's read-outs (status, paths, goals) inside the soak. */
const READOUT_EVERY = 50;

function readouts(inst: ScenarioInstance): void {
  inst.status?.();
  inst.paths?.();
  inst.goals?.();
}

/**
 * Soak one scenario. A scenario that keeps its own list of the agents it drives must drop the ones despawned from
 * outside (the shared ones do, in a despawn hook: demos/scenarios/agent-list.ts); one that does not makes its logic
 * throw UnknownEntityError. For such a (user) scenario the run restarts with despawns off and says so in the notes;
 * test/reliability/soak.test.ts fails if any shared scenario needs this.
 */
export function soakScenario(scenario: Scenario, opts: SoakOptions): SoakReport {
  try {
    return soakOnce(scenario, opts);
  } catch (e) {
    if (!(e instanceof UnknownEntityError) || opts.despawnRate === 0) throw e;
    const r = soakOnce(scenario, { ...opts, despawnRate: 0 });
    r.notes.push(`despawns turned off: the scenario's own logic keeps despawned ids (${(e as Error).message.split('\n')[0]}; ${((e as Error).stack ?? '').split('\n')[2]?.trim() ?? ''})`);
    return r;
  }
}

function soakOnce(scenario: Scenario, opts: SoakOptions): SoakReport {
  const gc = (globalThis as { gc?: () => void }).gc;
  const inst = scenario.create({ agents: opts.agents, seed: opts.seed });
  const w = inst.world;
  const rng = createRng(opts.seed * 7919 + 13); // disturbances: separate from the world's stream
  const polys = worldPolygons(w);
  const grid = gridOf(inst);
  const rep: SoakReport = {
    scenario: scenario.name, steps: 0, ms: 0, agentsStart: w.agents.count, agentsEnd: 0, spawned: 0, spawnsRefused: 0, ownSpawns: 0, despawned: 0, goalChanges: 0,
    mapEdits: 0, agentSteps: 0, nanFailures: [], obstacleFailures: [], maxCentreDepth: 0, maxPenetration: -Infinity, obstaclePolygons: polys.length, countFailures: [], tickFailures: [], heapSamples: [], heapGrowth: null,
    snapshotRoundTrip: 'not run', notes: [], failures: [],
  };
  let expected = w.agents.count;
  // Alive entities that are not agents (formation groups) are counted once and must stay constant.
  const nonAgents = entityAliveCount(w) - w.agents.count;
  const edits: Array<{ cell: number; until: number }> = [];
  const t0 = performance.now();
  const px = w.position.x, py = w.position.y, vx = w.velocity.x, vy = w.velocity.y;
  const fx = w.preferredVelocity.x, fy = w.preferredVelocity.y, dx = w.desiredVelocity.x, dy = w.desiredVelocity.y;
  for (let s = 0; s < opts.steps; s++) {
    // disturbances
    if (rngFloat(rng) < opts.despawnRate && w.agents.count > 1) {
      const victim = w.agents.dense[rngInt(rng, w.agents.count)];
      despawnAgent(w, victim); // references to it (pursuit, threat) are cleared by the steering system's own hook
      rep.despawned++; expected--;
    }
    if (rngFloat(rng) < opts.spawnRate) {
      try {
        // Half the spawns are the scenario's own kind of agent, adopted by its logic (so the logic of scenarios that
        // keep agent lists stays busy for the whole run), when it has room for one; the rest are engine copies.
        const own = inst.spawnOwn !== undefined && rngFloat(rng) < 0.5 ? inst.spawnOwn() : 0;
        if (own > 0) { rep.spawned++; rep.ownSpawns++; expected++; }
        else if (spawnNear(inst, rng, polys, grid) > 0) { rep.spawned++; expected++; }
      } catch (e) {
        // The world refused (typed error, e.g. no entity id left because non-agent entities such as formation
        // groups hold some): a correct refusal, counted; anything else is a failure.
        if (!(e instanceof CapacityError)) throw e;
        rep.spawnsRefused++;
        if (rep.spawnsRefused === 1) rep.notes.push(`step ${s}: spawn refused with CapacityError: ${e.message}`);
      }
    }
    if (rngFloat(rng) < opts.goalRate && changeGoal(inst, rng, grid)) rep.goalChanges++;
    if (grid && rngFloat(rng) < opts.editRate) {
      // block a random walkable cell with no agent centre within 1.5 cells; unblock it 300 steps later
      const cell = rngInt(rng, grid.width * grid.height);
      const cx = cell % grid.width, cy = (cell - cx) / grid.width;
      const wx = grid.originX + (cx + 0.5) * grid.cellSize, wy = grid.originY + (cy + 0.5) * grid.cellSize;
      let clear = grid.walkable[cell] === 1;
      for (let i = 0; clear && i < w.agents.count; i++) {
        const e = w.agents.dense[i];
        if (Math.abs(px[e] - wx) < 1.5 * grid.cellSize && Math.abs(py[e] - wy) < 1.5 * grid.cellSize) clear = false;
      }
      if (clear) { setBlocked(grid, cx, cy, true); edits.push({ cell, until: s + 300 }); rep.mapEdits++; }
    }
    for (let i = edits.length - 1; i >= 0; i--) {
      if (edits[i].until > s) continue;
      const c = edits[i].cell;
      setBlocked(grid!, c % grid!.width, Math.floor(c / grid!.width), false);
      edits.splice(i, 1);
      rep.mapEdits++;
    }
    try {
      inst.tick();
      // The scenario's read-outs (what the CLI and the demo page show) read its own agent lists too.
      if ((s + 1) % READOUT_EVERY === 0) readouts(inst);
    } catch (e) {
      if (e instanceof UnknownEntityError && opts.despawnRate > 0) throw e; // see soakScenario
      rep.tickFailures.push(`step ${s}: tick threw ${(e as Error).name}: ${(e as Error).message}`);
      break;
    }
    if (opts.inject) opts.inject(inst, s);
    rep.steps++;
    // checks
    const { dense, count, denseIndex } = w.agents;
    rep.agentSteps += count;
    for (let i = 0; i < count; i++) {
      const e = dense[i];
      if (!(Number.isFinite(px[e]) && Number.isFinite(py[e]) && Number.isFinite(vx[e]) && Number.isFinite(vy[e])
        && Number.isFinite(fx[e]) && Number.isFinite(fy[e]) && Number.isFinite(dx[e]) && Number.isFinite(dy[e]))) {
        if (rep.nanFailures.length < 5) rep.nanFailures.push(`step ${s}: agent ${e} has non-finite state p=(${px[e]}, ${py[e]}) v=(${vx[e]}, ${vy[e]}) pref=(${fx[e]}, ${fy[e]}) desired=(${dx[e]}, ${dy[e]})`);
      }
      if (denseIndex[e] !== i && rep.countFailures.length < 5) rep.countFailures.push(`step ${s}: denseIndex[${e}] = ${denseIndex[e]}, expected ${i}`);
    }
    if (polys.length > 0) {
      for (let i = 0; i < count; i++) {
        const e = dense[i];
        const d = solidDepth(polys, px[e], py[e]);
        if (d === 0) continue;
        if (d > rep.maxCentreDepth) rep.maxCentreDepth = d;
        const over = d - w.agent.radius[e];
        if (over > rep.maxPenetration) rep.maxPenetration = over;
        if (over > opts.tolerance && rep.obstacleFailures.length < 5) {
          rep.obstacleFailures.push(`step ${s}: agent ${e} centre at (${px[e].toFixed(3)}, ${py[e].toFixed(3)}) is ${d.toFixed(3)} m inside an obstacle (radius ${w.agent.radius[e]})`);
        }
      }
    }
    const alive = entityAliveCount(w);
    if ((count !== expected || alive - count !== nonAgents || w.hash.count !== count) && rep.countFailures.length < 5) {
      rep.countFailures.push(`step ${s}: agents ${count}, expected ${expected}, bitecs alive ${alive} (${nonAgents} non-agent entities at start), hash entries ${w.hash.count}`);
    }
    if (opts.heapEvery > 0 && (s + 1) % opts.heapEvery === 0 && gc) {
      gc(); gc();
      rep.heapSamples.push(process.memoryUsage().heapUsed);
    }
    if ((s + 1) % 10000 === 0 && opts.log) opts.log(`  ${scenario.name}: ${s + 1} steps, ${count} agents, ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    if (opts.seconds > 0 && performance.now() - t0 > opts.seconds * 1000) break;
  }
  rep.ms = performance.now() - t0;
  rep.agentsEnd = w.agents.count;
  // Heap: compare the sample after warm-up (the second, when there are at least three) with the last.
  if (rep.heapSamples.length >= 3) rep.heapGrowth = rep.heapSamples[rep.heapSamples.length - 1] - rep.heapSamples[1];
  // Snapshot round trip into a fresh instance of the same scenario.
  try {
    const bytes = snapshot(w);
    const fresh = scenario.create({ agents: opts.agents, seed: opts.seed + 1 });
    restore(fresh.world, bytes);
    const a = stateHash(w), b = stateHash(fresh.world);
    rep.snapshotRoundTrip = a === b ? `ok (${bytes.length} bytes, hash ${a})` : `hash mismatch ${a} vs ${b}`;
    if (a !== b) rep.failures.push(`snapshot round trip: ${rep.snapshotRoundTrip}`);
  } catch (e) {
    rep.snapshotRoundTrip = `failed: ${(e as Error).message}`;
    rep.failures.push(`snapshot round trip ${rep.snapshotRoundTrip}`);
  }
  rep.failures.push(...rep.nanFailures, ...rep.obstacleFailures, ...rep.countFailures, ...rep.tickFailures);
  if (rep.heapGrowth !== null && rep.heapGrowth > opts.heapBound) rep.failures.push(`heap grew by ${(rep.heapGrowth / 1024).toFixed(0)} KB (bound ${(opts.heapBound / 1024).toFixed(0)} KB)`);
  return rep;
}

export function formatSoakReport(r: SoakReport): string {
  const lines = [
    `${r.failures.length === 0 ? 'PASS' : 'FAIL'}  ${r.scenario}: ${r.steps} steps in ${(r.ms / 1000).toFixed(1)} s, agents ${r.agentsStart} → ${r.agentsEnd}`,
    `      disturbances: ${r.spawned} spawns${r.ownSpawns ? ` (${r.ownSpawns} of the scenario's own kind)` : ''}${r.spawnsRefused ? ` (${r.spawnsRefused} refused: world full)` : ''}, ${r.despawned} despawns, ${r.goalChanges} goal changes, ${r.mapEdits} map edits (cell block/unblock)`,
    `      checked every step: finite position/velocity/preferred/desired for ${r.agentSteps} agent-steps; dense list ↔ index, bitecs alive count, hash entries, expected count`,
    `      static obstacles (${r.obstaclePolygons} polygons): ${r.maxCentreDepth === 0 ? 'no agent centre ever inside one' : `deepest centre inside ${r.maxCentreDepth.toFixed(4)} m, i.e. ${r.maxPenetration.toFixed(4)} m beyond its radius (tolerance 0)`}`,
    `      heap: ${r.heapSamples.length} samples${r.heapGrowth === null ? ' (run with --expose-gc and ≥ 3 samples to measure)' : `, growth after warm-up ${(r.heapGrowth / 1024).toFixed(0)} KB`}`,
    `      snapshot → restore into a fresh instance: ${r.snapshotRoundTrip}`,
  ];
  for (const n of r.notes) lines.push(`      note: ${n}`);
  for (const f of r.failures) lines.push(`      ✗ ${f}`);
  return lines.join('\n');
}
