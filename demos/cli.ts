/**
 * Headless runner: `npx murmur run <scenario> [--agents N] [--frames F] [--seed S] [--json] [--snapshot out.svg]`
 * (in a checkout also `npm run sim -- <scenario> ...`; `murmur list` lists the scenarios).
 *
 * Shows a progress bar on stderr only when stderr is a terminal (never when piped, never with --json), then prints
 * the per-system profile table (or one JSON object with --json) on stdout. `--snapshot` writes an SVG picture of
 * the final state (agents, obstacles, paths, goals).
 *
 * Exit codes scripts can rely on: 0 ok; 2 usage error (unknown scenario, command or flag, bad value: the message
 * lists the valid ones); 1 failure while running (an exception, non-finite positions, an unwritable snapshot).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { formatProfile } from '../src/world/profiler';
import { stateHash } from '../src/reliability/hash';
import { getScenario, listScenarios } from './scenarios/index';
import { snapshotSvg } from './snapshot';

const FLAGS = ['--agents', '--frames', '--seed', '--map', '--json', '--snapshot', '--help'];
const COMMANDS = ['run', 'list', 'help'];

interface CliArgs {
  command: 'run' | 'list' | 'help';
  scenario: string;
  agents?: number;
  frames: number;
  seed: number;
  json: boolean;
  snapshot?: string;
  map?: string;
}

function usage(): string {
  const names = listScenarios();
  const w = Math.max(...names.map((s) => s.name.length));
  return [
    'usage: murmur run <scenario> [--agents N] [--frames F] [--seed S] [--map NAME] [--json] [--snapshot out.svg]',
    '       murmur list',
    '',
    'scenarios:',
    ...names.map((s) => `  ${s.name.padEnd(w)}  ${s.description} (default ${s.defaultAgents} agents)`),
    '',
    'flags:',
    '  --agents N         number of agents (default: the scenario\'s)',
    '  --frames F         fixed steps to run (default 600; a scenario may end earlier when done)',
    '  --seed S           PRNG seed (default 1): same seed, same result',
    '  --map NAME         a Moving AI .map for grid scenarios: a path, or a name in ../shared/data/maps',
    '  --json             print one JSON object (profile, counters, status) instead of the table',
    '  --snapshot FILE    write an SVG picture of the final state (agents, obstacles, paths)',
    '',
    'exit codes: 0 ok, 2 usage error, 1 failure while running',
  ].join('\n');
}

class UsageError extends Error {}

/** Levenshtein distance, for "did you mean" hints on misspelt names. */
function distance(a: string, b: string): number {
  const d = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = d[0];
    d[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const t = d[j];
      d[j] = Math.min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = t;
    }
  }
  return d[b.length];
}

function suggest(x: string, valid: readonly string[]): string {
  let best = '', bd = Infinity;
  for (const v of valid) { const dd = distance(x, v); if (dd < bd) { bd = dd; best = v; } }
  return bd <= Math.max(2, Math.floor(best.length / 3)) ? ` (did you mean '${best}'?)` : '';
}

function parseArgs(argv: string[]): CliArgs {
  const args: string[] = [];
  // Accept --flag=value as well as --flag value.
  for (const a of argv) {
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 2) args.push(a.slice(0, eq), a.slice(eq + 1));
    else args.push(a);
  }
  const out: CliArgs = { command: 'run', scenario: '', frames: 600, seed: 1, json: false };
  if (args.length === 0 || args.includes('--help') || args.includes('-h') || args[0] === 'help') { out.command = 'help'; return out; }
  if (args[0] === 'list') { out.command = 'list'; return out; }
  if (args[0] === 'run') args.shift();
  const positive = (name: string, v: string | undefined, min: number): number => {
    const n = Number(v);
    if (v === undefined || v.startsWith('--') || v.trim() === '' || !Number.isInteger(n) || n < min) {
      throw new UsageError(`${name} needs an integer ≥ ${min} (got ${v === undefined ? 'nothing' : `'${v}'`})`);
    }
    return n;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--agents') out.agents = positive('--agents', args[++i], 1);
    else if (a === '--frames') out.frames = positive('--frames', args[++i], 1);
    else if (a === '--seed') out.seed = positive('--seed', args[++i], 0);
    else if (a === '--json') out.json = true;
    else if (a === '--snapshot') {
      const f = args[++i];
      if (f === undefined || f.startsWith('--')) throw new UsageError('--snapshot needs a file name (e.g. --snapshot out.svg)');
      out.snapshot = f;
    } else if (a === '--map') {
      const f = args[++i];
      if (f === undefined || f.startsWith('--')) throw new UsageError('--map needs a map name or path (e.g. --map arena.map)');
      out.map = f;
    } else if (a.startsWith('-')) throw new UsageError(`unknown flag '${a}'${suggest(a, FLAGS)}; valid flags: ${FLAGS.join(', ')}`);
    else if (!out.scenario) out.scenario = a;
    else throw new UsageError(`unexpected argument '${a}' (one scenario per run)`);
  }
  if (!out.scenario) throw new UsageError(`missing scenario name; valid scenarios: ${listScenarios().map((s) => s.name).join(', ')}`);
  return out;
}

function main(): number {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`murmur: ${e.message}\n\n${usage()}`);
    return 2;
  }
  if (args.command === 'help') { console.log(usage()); return 0; }
  if (args.command === 'list') {
    for (const s of listScenarios()) console.log(`${s.name}\t${s.defaultAgents}\t${s.description}`);
    return 0;
  }
  const names = listScenarios().map((s) => s.name);
  if (!names.includes(args.scenario)) {
    const hint = COMMANDS.includes(args.scenario) ? '' : suggest(args.scenario, names);
    console.error(`murmur: unknown scenario '${args.scenario}'${hint}; valid scenarios: ${names.join(', ')}\n(run 'murmur --help' for the flags)`);
    return 2;
  }
  const scenario = getScenario(args.scenario);
  const agents = args.agents ?? scenario.defaultAgents;
  let map: { name: string; text: string } | undefined;
  if (args.map) {
    // A path as given, else a name in the shared benchmark maps beside the checkout (never copied into the repo).
    const candidates = [resolve(args.map), resolve('../shared/data/maps', args.map)];
    const file = candidates.find((f) => existsSync(f));
    if (!file) {
      console.error(`murmur: no map '${args.map}' (looked at ${candidates.join(', ')})`);
      return 2;
    }
    map = { name: basename(file), text: readFileSync(file, 'utf8') };
  }
  const inst = scenario.create({ agents, seed: args.seed, map });
  const tty = process.stderr.isTTY === true && !args.json;
  const t0 = performance.now();
  let frames = 0;
  let lastDraw = 0;
  for (; frames < args.frames; ) {
    inst.tick();
    frames++;
    const done = inst.done?.() === true;
    const now = performance.now();
    if (tty && (now - lastDraw > 100 || frames === args.frames || done)) {
      lastDraw = now;
      const f = frames / args.frames;
      const width = 30;
      const bar = '█'.repeat(Math.round(f * width)).padEnd(width, '·');
      process.stderr.write(`\r${scenario.name} ${bar} ${frames}/${args.frames} steps  ${inst.world.profiler.frameMean.toFixed(2)} ms/step `);
    }
    if (done) break;
  }
  if (tty) process.stderr.write('\n');
  const wall = performance.now() - t0;
  // A run that produced non-finite positions failed, whatever else it printed.
  const w = inst.world;
  let bad = 0;
  for (let i = 0; i < w.agents.count; i++) {
    const e = w.agents.dense[i];
    if (!Number.isFinite(w.position.x[e]) || !Number.isFinite(w.position.y[e])) bad++;
  }
  if (args.snapshot) {
    try {
      writeFileSync(args.snapshot, snapshotSvg(inst, `${scenario.name}, ${w.agents.count} agents, step ${frames}, seed ${args.seed}`));
    } catch (e) {
      console.error(`murmur: cannot write snapshot '${args.snapshot}': ${(e as Error).message}`);
      return 1;
    }
  }
  const p = w.profiler;
  const status = inst.status?.() ?? '';
  if (args.json) {
    console.log(JSON.stringify({
      scenario: scenario.name, agents: w.agents.count, frames, seed: args.seed, done: inst.done?.() ?? null, status,
      wallMs: wall, nonFinitePositions: bad, snapshot: args.snapshot ?? null,
      // Fingerprint of the final state (step, RNG, every agent's position and velocity bits): equal across runs
      // with the same scenario, seed and flags on any machine, so scripts can check determinism.
      stateHash: stateHash(w),
      frameMs: { mean: p.frameMean, max: p.frameMax, last: p.frameLast },
      systems: p.entries.map((e) => ({ name: e.name, meanMs: e.mean, maxMs: e.max, lastMs: e.last, calls: e.calls, counters: { ...e.counters } })),
    }, null, 2));
  } else {
    console.log(`${scenario.name}: ${w.agents.count} agents, ${frames} steps, seed ${args.seed}, ${(wall / 1000).toFixed(2)} s wall${status ? `, ${status}` : ''}`);
    console.log(`state hash ${stateHash(w)}`);
    console.log(formatProfile(p));
    if (args.snapshot) console.log(`snapshot: ${args.snapshot}`);
  }
  if (bad > 0) {
    console.error(`murmur: ${bad} agents have non-finite positions after ${frames} steps`);
    return 1;
  }
  return 0;
}

try {
  process.exitCode = main();
} catch (e) {
  console.error(`murmur: ${(e as Error).stack ?? e}`);
  process.exitCode = 1;
}
