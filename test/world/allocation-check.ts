/**
 * Per-frame allocation check, run in its own process by test/world/allocation.test.ts with
 *   node scripts/run-ts.mjs --expose-gc --min-semi-space-size=256 --max-semi-space-size=256 test/world/allocation-check.ts
 *
 * Method: with a 256 MB young generation no scavenge runs during a measured window, so growth over the window is
 * the number of bytes allocated in it (nothing allocated can have been freed yet). Two figures per window: the
 * young generation's used bytes (v8.getHeapSpaceStatistics: new space + new large-object space, where JavaScript
 * allocates) and process.memoryUsage().heapUsed (every space, so it also sees pretenured allocations, but also the
 * JIT's code and metadata when a function is (re)optimised). The probes' own allocations are measured around an
 * empty window and subtracted. A GC observer checks that no collection started inside a window (a scavenge would
 * hide allocation): such a window is discarded and re-run.
 *
 * Each scenario is warmed up, a whole `step` is measured over STEP_FRAMES frames (horde and wander; smallest of
 * STEP_ROUNDS windows), then each system is called alone
 * CALLS times per round, ROUNDS rounds, keeping the smallest figure: a system that allocates per frame does so in
 * every round, while one-off growth (a late optimisation, a feedback vector) lands in one round only.
 *
 * Scenarios: the horde (flow-field navigation, LOD on so every tier runs: near agents with ORCA, metric boids and
 * contacts, mid agents with topological boids, far agents staggered) and wander (boids, ORCA and contacts for all),
 * then astar, rts and steering (1,000 agents each) for A* paths, navmesh corridors, formations and steering, and
 * contacts (500 agents, every fifth a box) for the 2D manifold against shapes and walls.
 * Prints one JSON line: { perSystem: { 'scenario/system': [heapBytes, youngBytes] per call },
 * stepBytesPerFrame: { scenario: [heapBytes, youngBytes] per frame } }.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { createHorde } from '../../demos/scenarios/horde';
import { getScenario } from '../../demos/scenarios/index';
import type { ScenarioInstance } from '../../demos/scenarios/registry';
import type { CrowdWorld } from '../../src/world/crowd';
import { preferredToDesired, step } from '../../src/world/step';
import { lodSystem } from '../../systems/lod';
import { spatialHashSystem } from '../../systems/spatial-hash';
import { navigationSystem } from '../../systems/navigation';
import { funnelSystem } from '../../systems/funnel';
import { formationSystem } from '../../systems/formation';
import { steeringSystem } from '../../systems/steering';
import { boidsSystem } from '../../systems/boids';
import { orcaSystem } from '../../systems/orca';
import { setOrcaOptions } from '../../components/orca';

const ORCA_PATHS = ['single', 'batch', 'batch-full'] as const;
import { integrateSystem } from '../../systems/integrate';
import { contactsSystem } from '../../systems/contacts';

declare const gc: () => void;

const CALLS = 50;
const ROUNDS = 3;
const WARM_TICKS = 100;
const WARM_CALLS = 50;
const STEP_FRAMES = 200;
const STEP_WARM = 300;
// Two windows of STEP_FRAMES, smallest kept (as for the systems): a late re-optimisation of some rare branch can
// leave it in the baseline tiers, boxing every double, for part of one window.
const STEP_ROUNDS = 2;
const DT = 1 / 30;

const SYSTEMS: [string, (w: CrowdWorld) => void][] = [
  ['lodSystem', (w) => lodSystem(w)],
  ['spatialHashSystem', (w) => spatialHashSystem(w)],
  ['navigationSystem', (w) => navigationSystem(w, DT)],
  ['funnelSystem', (w) => funnelSystem(w, DT)],
  ['formationSystem', (w) => formationSystem(w, DT)],
  ['steeringSystem', (w) => steeringSystem(w, DT)],
  ['boidsSystem', (w) => boidsSystem(w, DT)],
  ['preferredToDesired', (w) => preferredToDesired(w)],
  ['orcaSystem', (w) => orcaSystem(w, DT)],
  ['integrateSystem', (w) => integrateSystem(w, DT)],
  ['contactsSystem', (w) => contactsSystem(w, DT)],
];

// Start times (performance.now() ms) of every GC, delivered asynchronously by the observer.
const gcStarts: number[] = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcStarts.push(e.startTime);
});
observer.observe({ entryTypes: ['gc'] });
const flushObserver = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Bytes in use in the young generation (where JavaScript allocates; JIT code and its metadata go elsewhere). */
function youngUsed(): number {
  let used = 0;
  for (const s of getHeapSpaceStatistics()) if (s.space_name === 'new_space' || s.space_name === 'new_large_object_space') used += s.space_used_size;
  return used;
}

type Probe = () => number;
const heapUsed: Probe = () => process.memoryUsage().heapUsed;

/**
 * Growth of `probe` per call of f over `calls` calls, minus `own` (the probe's cost around an empty window), or
 * NaN if a GC ran inside the window. Each probe gets its own window, so neither counts the other's allocations.
 */
async function window(probe: Probe, f: () => void, calls: number, own: number): Promise<number> {
  gc();
  gc();
  await flushObserver();
  const t0 = performance.now();
  const before = probe();
  for (let i = 0; i < calls; i++) f();
  const after = probe();
  const t1 = performance.now();
  await flushObserver();
  for (const s of gcStarts) if (s >= t0 && s <= t1) return NaN;
  return (after - before - own) / calls;
}

// What each probe allocates itself inside a window (its result objects), in bytes per window.
let probeHeap = 0, probeYoung = 0;
async function calibrateProbes(): Promise<void> {
  let h = Infinity, y = Infinity;
  for (let r = 0; r < 5; r++) {
    const mh = await window(heapUsed, () => {}, 1, 0);
    const my = await window(youngUsed, () => {}, 1, 0);
    if (!Number.isNaN(mh)) h = Math.min(h, mh);
    if (!Number.isNaN(my)) y = Math.min(y, my);
  }
  probeHeap = h;
  probeYoung = y;
}

/** [heapUsed, young generation] bytes per call of f (two windows); NaN if a GC ran inside either. */
async function measure(f: () => void, calls: number): Promise<[number, number]> {
  const h = await window(heapUsed, f, calls, probeHeap);
  const y = await window(youngUsed, f, calls, probeYoung);
  return Number.isNaN(h) || Number.isNaN(y) ? [NaN, NaN] : [h, y];
}

/**
 * The smallest of `rounds` valid measurements (windows with a GC are re-run, up to 3 × rounds tries). Before each
 * window: a 5 ms pause and five untimed calls, so that an optimisation compiled in the background (V8's concurrent
 * TurboFan) is finished and installed before the window, not in it. On a loaded machine (the whole suite in
 * parallel on two cores) a cheap system's 50-call window lasts well under a millisecond, shorter than a background
 * compile, and the new code then counted against heapUsed in two windows in a row (2026-11-30 CI: 687 bytes per
 * call for circle-swap/steeringSystem, whose young-generation figure was 32; 32/32 when run alone).
 */
async function minOf(f: () => void, calls: number, rounds: number): Promise<[number, number]> {
  let heap = Infinity, young = Infinity;
  for (let r = 0, tries = 0; r < rounds && tries < rounds * 3; tries++) {
    await new Promise((done) => setTimeout(done, 5));
    for (let i = 0; i < 5; i++) f();
    const [h, y] = await measure(f, calls);
    if (Number.isNaN(h)) continue;
    heap = Math.min(heap, h);
    young = Math.min(young, y);
    r++;
  }
  return [heap, young];
}

async function main(): Promise<void> {
  // [name, create, measure the whole step too]
  const scenarios: [string, () => ScenarioInstance, boolean][] = [
    ['horde', () => createHorde({ agents: 5000, seed: 11 }), true],
    ['wander', () => getScenario('wander').create({ agents: 2000, seed: 12 }), true],
    // Coverage of the systems the two above leave idle: A* paths (astar), navmesh corridors + formations (rts),
    // steering behaviours (steering), shaped agents and static shapes in the contacts pass (contacts: every fifth
    // agent a box, GJK/EPA and clipping against discs, boxes and walls).
    ['astar', () => getScenario('astar').create({ agents: 1000, seed: 13 }), false],
    ['rts', () => getScenario('rts').create({ agents: 1000, seed: 14 }), false],
    ['steering', () => getScenario('steering').create({ agents: 1000, seed: 15 }), false],
    ['contacts', () => getScenario('contacts').create({ agents: 500, seed: 16 }), false],
    // ORCA's batch neighbour pre-pass (every agent active, one mask: the horde's near tier is too small for it).
    ['circle-swap', () => getScenario('circle-swap').create({ agents: 2000, seed: 17 }), false],
  ];
  const perSystem: Record<string, [number, number]> = {};
  const stepBytesPerFrame: Record<string, [number, number]> = {};
  for (const [name, make, measureStep] of scenarios) {
    const inst = make();
    const w = inst.world;
    for (let i = 0; i < WARM_TICKS; i++) inst.tick();
    // The whole frame first, after more warm-up: rare branches (ORCA's infeasible-case program, contact
    // re-detection rounds) reach optimised code much later than the common paths, and until then run in V8's
    // baseline tiers, which box every double they compute. (The scenario's own input code is not measured.)
    for (let i = 0; i < STEP_WARM; i++) step(w, DT);
    await calibrateProbes();
    if (measureStep) stepBytesPerFrame[name] = await minOf(() => step(w, DT), STEP_FRAMES, STEP_ROUNDS);
    // Then each system alone, called as in the frame (the world moves on between rounds only by what the system
    // itself does).
    await calibrateProbes(); // again per scenario: the probes' own cost drifts as V8 optimises this file
    for (const [sys, f] of SYSTEMS) {
      const call = () => f(w);
      for (let i = 0; i < WARM_CALLS; i++) call();
      perSystem[`${name}/${sys}`] = await minOf(call, CALLS, ROUNDS);
    }
    // ORCA's neighbour paths one at a time (orcaSystem picks one by measured time, so the calls above may not have
    // run each); the circle swap is a crowd where every path is eligible.
    if (name === 'circle-swap') {
      for (const path of ORCA_PATHS) {
        setOrcaOptions(w, { neighbourSearch: path });
        const call = () => orcaSystem(w, DT);
        for (let i = 0; i < WARM_CALLS; i++) call();
        perSystem[`${name}/orcaSystem:${path}`] = await minOf(call, CALLS, ROUNDS);
      }
      setOrcaOptions(w, { neighbourSearch: 'auto' });
    }
  }
  observer.disconnect();
  console.log(JSON.stringify({ perSystem, stepBytesPerFrame }));
}

void main();
