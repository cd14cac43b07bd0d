/**
 * Shared by the docs tests: the ```ts / ```typescript blocks of README.md and docs/*.md that the examples test runs.
 * A fence with anything after the language (```ts no-run) marks a fragment that is shown, not run, and is skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const root = resolve(__dirname, '../..');

export const docFiles: string[] = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join('docs', f)),
];

export interface Example { file: string; line: number; code: string }

/** Every runnable block, in file order; `line` is the 0-based index of the block's first code line. */
export function runnableExamples(): Example[] {
  const examples: Example[] = [];
  for (const file of docFiles) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const fence = lines[i].trim();
      if (fence === '```ts' || fence === '```typescript') {
        const start = i + 1;
        let j = start;
        while (j < lines.length && lines[j].trim() !== '```') j++;
        examples.push({ file, line: start, code: lines.slice(start, j).join('\n') });
        i = j;
      } else if (fence.startsWith('```')) {
        // skip other fences (including ```ts no-run) to their end
        let j = i + 1;
        while (j < lines.length && lines[j].trim() !== '```') j++;
        i = j;
      }
    }
  }
  return examples;
}
