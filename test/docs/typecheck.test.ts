/**
 * Every runnable docs example also type-checks under the project's strict compiler options, importing 'murmur' as
 * src/index.ts: a user who pastes one into a strict TypeScript project gets no errors. (The examples test runs them
 * through esbuild, which strips types without checking them.) One tsc run over all examples.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { root, runnableExamples } from './doc-blocks';

describe('docs examples type-check', () => {
  it('tsc --noEmit over every runnable block passes', () => {
    const dir = join(root, '.cache/doc-typecheck');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const names: string[] = [];
    for (const ex of runnableExamples()) {
      const name = `${ex.file.replace(/[^a-zA-Z0-9]/g, '_')}_${ex.line + 1}.ts`;
      // `export {}` makes every block a module of its own (no shared global scope between examples).
      writeFileSync(join(dir, name), `${ex.code}\nexport {};\n`);
      names.push(name);
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      compilerOptions: { baseUrl: root, paths: { murmur: ['src/index.ts'] }, noEmit: true, typeRoots: [join(root, 'node_modules/@types')] },
      include: names.map((n) => join(dir, n)),
    }));
    const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { encoding: 'utf8' });
    // Error lines name the generated file: <docs file>_<line of the block's first code line>.ts(line, col).
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);
    expect(names.length).toBeGreaterThan(50);
  }, 120_000);
});
