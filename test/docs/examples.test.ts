/**
 * Runs every ```ts code block in docs/*.md and README.md, so documentation examples cannot rot. A block runs as
 * an ES module importing from 'murmur' (aliased to src/index.ts). A block whose fence is ```ts no-run is a
 * fragment and is only shown, not run. Examples may throw to signal failure (use `if (!cond) throw ...`).
 */
import { describe, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { docFiles as files, root, runnableExamples } from './doc-blocks';

const outDir = join(root, '.cache/doc-examples');
mkdirSync(outDir, { recursive: true });

const examples = runnableExamples();

// Browser-loop examples (README) call requestAnimationFrame: here it runs the callback for 120 frames of 1/60 s,
// synchronously from a microtask chain, then stops; `__rafFrames` lets an example check it ran.
const g = globalThis as unknown as { requestAnimationFrame?: (cb: (t: number) => void) => number; __rafFrames: number };
g.__rafFrames = 0;
if (!g.requestAnimationFrame) {
  let now = 0;
  g.requestAnimationFrame = (cb) => {
    if (g.__rafFrames >= 120) return 0;
    g.__rafFrames++;
    now += 1000 / 60;
    const t = now;
    queueMicrotask(() => cb(t));
    return g.__rafFrames;
  };
}

describe('docs examples', () => {
  for (const ex of examples) {
    it(`${ex.file}:${ex.line}`, async () => {
      const name = `${ex.file.replace(/[^a-zA-Z0-9]/g, '_')}_${ex.line}.ts`;
      const path = join(outDir, name);
      writeFileSync(path, ex.code);
      await import(/* @vite-ignore */ pathToFileURL(path).href);
    });
  }
  it('found the docs', () => {
    if (files.length === 0) throw new Error('no docs found');
  });
});
