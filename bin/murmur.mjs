#!/usr/bin/env node
// `npx murmur run <scenario> ...`: the built CLI when present (installed package), else the TypeScript source
// through esbuild (a development checkout).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const built = join(root, 'dist/cli.js');
const args = process.argv.slice(2);
const r = existsSync(built)
  ? spawnSync(process.execPath, [built, ...args], { stdio: 'inherit' })
  : spawnSync(process.execPath, [join(root, 'scripts/run-ts.mjs'), join(root, 'demos/cli.ts'), ...args], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
