/**
 * Headless runner: `npm run sim -- <scenario> --agents N --frames F [--seed S] [--json]`
 * (also `murmur run <scenario> ...`). Shows a progress bar when stderr is a terminal and prints the per-system
 * profile table at the end (or JSON with --json). Exit codes: 0 ok, 2 bad usage, 1 runtime failure.
 */
import { formatProfile } from '../src/world/profiler';
import { getScenario, listScenarios } from './scenarios/index';

const FLAGS = ['--agents', '--frames', '--seed', '--json', '--help'];

interface CliArgs { scenario: string; agents?: number; frames: number; seed: number; json: boolean }

function usage(): string {
  return [
    'usage: murmur run <scenario> [--agents N] [--frames F] [--seed S] [--json]',
    `scenarios: ${listScenarios().map((s) => `${s.name} (${s.description}; default ${s.defaultAgents} agents)`).join('\n           ')}`,
    `flags: ${FLAGS.join(', ')}`,
  ].join('\n');
}

class UsageError extends Error {}

function parseArgs(argv: string[]): CliArgs | null {
  const args = argv.slice();
  if (args[0] === 'run') args.shift();
  if (args.length === 0 || args.includes('--help') || args.includes('-h')) return null;
  const out: CliArgs = { scenario: '', frames: 600, seed: 1, json: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const num = (name: string): number => {
      const v = args[++i];
      const n = Number(v);
      if (v === undefined || !Number.isFinite(n) || !Number.isInteger(n) || n < 0) throw new UsageError(`${name} needs a non-negative integer (got ${v})`);
      return n;
    };
    if (a === '--agents') out.agents = num('--agents');
    else if (a === '--frames') out.frames = num('--frames');
    else if (a === '--seed') out.seed = num('--seed');
    else if (a === '--json') out.json = true;
    else if (a.startsWith('-')) throw new UsageError(`unknown flag '${a}'; valid flags: ${FLAGS.join(', ')}`);
    else if (!out.scenario) out.scenario = a;
    else throw new UsageError(`unexpected argument '${a}'`);
  }
  if (!out.scenario) throw new UsageError('missing scenario name');
  return out;
}

function main(): number {
  let args: CliArgs | null;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`murmur: ${(e as Error).message}\n${usage()}`);
    return 2;
  }
  if (!args) {
    console.log(usage());
    return 0;
  }
  let scenario;
  try {
    scenario = getScenario(args.scenario);
  } catch (e) {
    console.error(`murmur: ${(e as Error).message}`);
    return 2;
  }
  const agents = args.agents ?? scenario.defaultAgents;
  const inst = scenario.create({ agents, seed: args.seed });
  const tty = process.stderr.isTTY === true && !args.json;
  const t0 = performance.now();
  let frames = 0;
  for (; frames < args.frames; frames++) {
    inst.tick();
    if (tty && (frames % 10 === 0 || frames === args.frames - 1)) {
      const f = (frames + 1) / args.frames;
      const width = 30;
      const bar = '#'.repeat(Math.round(f * width)).padEnd(width, '.');
      process.stderr.write(`\r${scenario.name} [${bar}] ${frames + 1}/${args.frames} frames, ${(inst.world.profiler.frameMean).toFixed(2)} ms/frame`);
    }
    if (inst.done?.()) { frames++; break; }
  }
  if (tty) process.stderr.write('\n');
  const wall = performance.now() - t0;
  const p = inst.world.profiler;
  if (args.json) {
    console.log(JSON.stringify({
      scenario: scenario.name, agents: inst.world.agents.count, frames, seed: args.seed, wallMs: wall,
      frameMs: { mean: p.frameMean, max: p.frameMax, last: p.frameLast },
      systems: p.entries.map((e) => ({ name: e.name, meanMs: e.mean, maxMs: e.max, lastMs: e.last, calls: e.calls, counters: { ...e.counters } })),
    }, null, 2));
  } else {
    console.log(`${scenario.name}: ${inst.world.agents.count} agents, ${frames} frames, seed ${args.seed}, ${(wall / 1000).toFixed(2)} s wall`);
    console.log(formatProfile(p));
  }
  return 0;
}

try {
  process.exitCode = main();
} catch (e) {
  console.error(`murmur: ${(e as Error).stack ?? e}`);
  process.exitCode = 1;
}
