// `npm run build`: the library bundle (dist/index.js, ESM, dependencies external), its type declarations
// (dist/types/...), and the CLI bundle used by `npx murmur` (dist/cli.js).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(pkg.dependencies ?? {});
await build({ entryPoints: ['src/index.ts'], bundle: true, format: 'esm', target: 'es2022', outfile: 'dist/index.js', external, sourcemap: true, logLevel: 'warning' });
await build({ entryPoints: ['demos/cli.ts'], bundle: true, platform: 'node', format: 'esm', target: 'node20', outfile: 'dist/cli.js', external, logLevel: 'warning' });
const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
console.log('built dist/index.js, dist/cli.js, dist/types/');
