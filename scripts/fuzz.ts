/**
 * `npm run fuzz`: the long property-based run of every kernel property in test/reliability/fuzz-properties.ts, with
 * fresh seeds (printed, so any failure can be replayed with --seed). Cases in the edge-case families named in
 * fuzz-properties.ts (the shapes of inputs that once exposed defects) are kept, counted and reported.
 *
 *   npm run fuzz -- [--runs N] [--seconds S] [--seed K] [--only NAME-PREFIX] [--skip-known]
 *     --runs     runs per property (default: 50 × the quick count)
 *     --seconds  instead of a run count, keep drawing fresh seeds per property until S seconds have passed
 *     --seed     first seed (default: from the clock)
 *     --only     run only properties whose name starts with this
 *     --skip-known  move edge-family cases just outside their family (for a defect found and not fixed yet)
 * Exit status 1 if any property failed.
 */
import { FUZZ_PROPERTIES, runProperty, skipKnownDefects, knownDefectHits } from '../test/reliability/fuzz-properties';

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const runsArg = arg('--runs');
const seconds = Number(arg('--seconds') ?? 0);
let seed = Number(arg('--seed') ?? (Date.now() % 2147483647));
const only = arg('--only') ?? '';
skipKnownDefects(process.argv.includes('--skip-known'));

let failures = 0;
const t0 = Date.now();
console.log(`murmur fuzz: ${FUZZ_PROPERTIES.length} properties, first seed ${seed}${seconds ? `, ${seconds} s per property` : ''}`);
for (const p of FUZZ_PROPERTIES) {
  if (!p.name.startsWith(only)) continue;
  const runs = runsArg ? Number(runsArg) : p.quickRuns * 50;
  const start = Date.now();
  const hits0 = knownDefectHits();
  let total = 0, rounds = 0, report: string | null = null;
  const firstSeed = seed;
  do {
    report = runProperty(p, seed, seconds ? Math.max(50, p.quickRuns) : runs);
    total += seconds ? Math.max(50, p.quickRuns) : runs;
    rounds++;
    if (report) break;
    if (seconds) seed = (seed + 1) % 2147483647;
  } while (seconds && Date.now() - start < seconds * 1000);
  const ms = Date.now() - start;
  const hits = knownDefectHits() - hits0;
  const known = hits > 0 ? `; ${hits} edge-family cases incl. shrinking` : '';
  if (report) {
    failures++;
    console.log(`FAIL  ${p.name}  (seed ${seed}, after ≤ ${total} runs, ${ms} ms${known})\n${report.split('\n').slice(0, 12).join('\n')}\n`);
    if (p.knownDefect) console.log(`      known defect: ${p.knownDefect}\n`);
  } else {
    console.log(`ok    ${p.name}  (${total} runs, ${rounds} seed${rounds > 1 ? 's' : ''} from ${firstSeed}, ${ms} ms${known})`);
  }
  if (!seconds) seed = (seed + 1) % 2147483647;
}
console.log(`${failures === 0 ? 'all properties held' : `${failures} propert${failures === 1 ? 'y' : 'ies'} failed`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failures === 0 ? 0 : 1);
