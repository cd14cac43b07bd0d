// Render bench/results/latest.json as a markdown table (for docs/PERFORMANCE.md): `node scripts/bench-table.mjs`.
import { readFileSync } from 'node:fs';
const { meta, rows } = JSON.parse(readFileSync(process.argv[2] ?? 'bench/results/latest.json', 'utf8'));
const fmt = (v) => (typeof v !== 'number' || !Number.isFinite(v) ? String(v) : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3));
console.log(`Measured ${meta.date.slice(0, 10)} on ${meta.cpu} (${meta.cores} cores), Node ${meta.node}${meta.quick ? ', --quick' : ''}.\n`);
console.log('| group | what | median | min | max | n | target | extra |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const target = r.target === undefined ? '' : `< ${r.target} ${r.unit}: ${(r.targetOn === 'mean' ? r.mean : r.median) <= r.target ? 'met' : 'missed'}${r.targetOn === 'mean' ? ' (on the mean ' + fmt(r.mean) + ')' : ''}`;
  const extra = r.extra ? Object.entries(r.extra).map(([k, v]) => `${k} ${fmt(v)}`).join(', ') : '';
  console.log(`| ${r.group} | ${r.name} | ${fmt(r.median)} ${r.unit} | ${fmt(r.min)} | ${fmt(r.max)} | ${r.samples} | ${target} | ${extra} |`);
}
