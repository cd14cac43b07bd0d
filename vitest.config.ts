import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';

export default defineConfig({
  resolve: {
    // Docs examples import from 'murmur', as a user would; in tests that is the source entry point.
    alias: { murmur: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one worker on the 2-core CI and development machines,
    // where the suite then ran at about 1.1 cores (8.6 minutes wall, 2026-12-02). Every core here; the suite has no
    // timed assertions (speed is measured in npm run bench), so sharing the machine changes no outcome.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
