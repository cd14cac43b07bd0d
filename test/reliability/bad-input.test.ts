import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROWS, KINDS, renderErrorsTable, type Kind } from './bad-input-table';

// One `it` per row of the bad-input table in docs/ERRORS.md, named after the row's entry point; each runs every
// cell of its row (the call, the typed error and its field, and that the world/grid did not change).
describe('bad input (docs/ERRORS.md table)', () => {
  for (const row of ROWS) {
    it(row.entry, () => {
      for (const k of Object.keys(row.cells) as Kind[]) {
        try {
          row.cells[k]!.check();
        } catch (e) {
          throw new Error(`[${KINDS[k]}] ${(e as Error).message}`);
        }
      }
    });
  }
  it('docs/ERRORS.md holds exactly this table', () => {
    const doc = readFileSync(resolve(__dirname, '../../docs/ERRORS.md'), 'utf8');
    expect(doc).toContain(renderErrorsTable());
  });
});
