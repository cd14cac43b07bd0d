/**
 * One deterministic run in its own process, for test/reliability/determinism.test.ts: the fixture world (ORCA,
 * steering, boids, LOD, obstacles, scripted spawns/despawns/retargets) for STEPS steps from SEED with AGENTS initial
 * agents; prints the state hash, the hash of the full snapshot, and a few counts as one JSON line.
 * Usage: node scripts/run-ts.mjs test/reliability/determinism-run.ts [steps] [seed] [agents]
 */
import { createFixtureWorld, populate, tick } from './world-fixture';
import { stateHash, hashBytes } from '../../src/reliability/hash';
import { snapshot } from '../../src/reliability/snapshot';

const steps = Number(process.argv[2] ?? 10000);
const seed = Number(process.argv[3] ?? 1);
const agents = Number(process.argv[4] ?? 300);
const world = createFixtureWorld(seed, agents + 400);
populate(world, agents);
const t0 = performance.now();
for (let i = 0; i < steps; i++) tick(world);
const ms = performance.now() - t0;
console.log(JSON.stringify({ steps, seed, agents: world.agents.count, frame: world.time.frame, hash: stateHash(world), full: hashBytes(snapshot(world)), ms: Math.round(ms) }));
