/**
 * `npm run bench [-- --quick] [-- --only name,name]`: runs every registered bench module, prints one table and
 * writes bench/results/latest.json. Register a module by adding it to `modules` below.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import type { BenchModule, BenchRow } from './harness';
import { modules } from './modules';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const onlyIdx = argv.indexOf('--only');
const only = onlyIdx >= 0 ? new Set(argv[onlyIdx + 1].split(',')) : null;

const rows: BenchRow[] = [];
const selected: BenchModule[] = modules.filter((m) => !only || only.has(m.name));
if (selected.length === 0) {
  console.error(`no bench module matches; valid: ${modules.map((m) => m.name).join(', ')}`);
  process.exit(2);
}
for (const m of selected) {
  process.stderr.write(`bench: ${m.name}...\n`);
  await m.run({ quick, record: (r) => { rows.push(r); printRow(r); } });
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  return v >= 100 ? v.toFixed(1) : v >= 1 ? v.toFixed(3) : v.toFixed(4);
}
function printRow(r: BenchRow): void {
  const target = r.target !== undefined ? ` target<${r.target}${r.unit} ${(r.targetOn === 'mean' ? r.mean : r.median) <= r.target ? 'MET' : 'MISSED'}${r.targetOn === 'mean' ? ' (mean)' : ''}` : '';
  const extra = r.extra ? ' ' + Object.entries(r.extra).map(([k, v]) => `${k}=${typeof v === 'number' ? fmt(v) : v}`).join(' ') : '';
  console.log(`${r.group.padEnd(14)} ${r.name.padEnd(52)} median ${fmt(r.median).padStart(9)} ${r.unit}  mean ${fmt(r.mean)}  min ${fmt(r.min)}  max ${fmt(r.max)}  n=${r.samples}${target}${extra}`);
}

mkdirSync('bench/results', { recursive: true });
const meta = { date: new Date().toISOString(), node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, quick };
writeFileSync('bench/results/latest.json', JSON.stringify({ meta, rows }, null, 2));
console.log(`\nwrote bench/results/latest.json (${rows.length} rows; ${meta.cpu}, node ${meta.node})`);
