/**
 * `npm run soak`: every shared scenario (demos/scenarios) under random spawns, despawns, goal changes and map edits,
 * checked after every step (see test/reliability/soak-run.ts). Runs with --expose-gc so heap growth is measured.
 *
 *   npm run soak -- [--steps N] [--seconds S] [--agents N] [--seed K] [--only NAME] [--tolerance M]
 *     --steps    steps per scenario (default 100000)
 *     --seconds  time bound per scenario (default none; the run stops at whichever comes first)
 *     --agents   agents per scenario (default 300)
 * Exit status 1 if any check failed.
 */
import { listScenarios } from '../demos/scenarios/index';
import { DEFAULT_SOAK, formatSoakReport, soakScenario } from '../test/reliability/soak-run';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const opts = {
  ...DEFAULT_SOAK,
  steps: Number(arg('--steps') ?? DEFAULT_SOAK.steps),
  seconds: Number(arg('--seconds') ?? 0),
  agents: Number(arg('--agents') ?? DEFAULT_SOAK.agents),
  seed: Number(arg('--seed') ?? 1),
  tolerance: Number(arg('--tolerance') ?? 0),
  log: (l: string) => console.log(l),
};
const only = arg('--only');
if (typeof (globalThis as { gc?: unknown }).gc !== 'function') console.log('note: no --expose-gc, heap growth is not measured');
console.log(`murmur soak: ${opts.steps} steps${opts.seconds ? ` or ${opts.seconds} s` : ''} per scenario, ${opts.agents} agents, seed ${opts.seed}`);
let failed = 0;
for (const s of listScenarios()) {
  if (only && s.name !== only) continue;
  const r = soakScenario(s, opts);
  console.log(formatSoakReport(r));
  if (r.failures.length > 0) failed++;
}
console.log(failed === 0 ? 'soak: all scenarios passed' : `soak: ${failed} scenario(s) failed`);
process.exit(failed === 0 ? 0 : 1);
