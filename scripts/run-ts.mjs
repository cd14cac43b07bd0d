// Run a TypeScript entry point on Node 20: bundle it with esbuild into .cache/ (sources stay TypeScript, no
// loader flags needed), then run the bundle with the remaining arguments. Node flags such as --expose-gc may
// come before the entry: `node scripts/run-ts.mjs --expose-gc bench/run.ts --quick`.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, resolve } from 'node:path';

const args = process.argv.slice(2);
const nodeFlags = [];
while (args.length > 0 && args[0].startsWith('--')) nodeFlags.push(args.shift());
const entry = args.shift();
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs [node flags] <entry.ts> [args]');
  process.exit(2);
}
const outDir = resolve('.cache/run');
mkdirSync(outDir, { recursive: true });
const outfile = resolve(outDir, basename(entry).replace(/\.ts$/, '') + '.mjs');
await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile,
  sourcemap: 'inline',
  logLevel: 'warning',
  // Dev-only libraries used by benchmarks stay external (loaded from node_modules as they are).
  packages: 'external',
  banner: { js: "import { createRequire as __murmurCreateRequire } from 'node:module'; const require = __murmurCreateRequire(import.meta.url);" },
});
const result = spawnSync(process.execPath, ['--enable-source-maps', ...nodeFlags, outfile, ...args], { stdio: 'inherit' });
process.exit(result.status ?? 1);
