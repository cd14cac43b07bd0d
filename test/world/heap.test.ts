import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const root = resolve(__dirname, '../..');

describe('heap stability (foundation "done when")', () => {
  it('heap does not grow over 10,000 steps of the 10k-agent wander scenario (--expose-gc, forced GC samples)', () => {
    const r = spawnSync(process.execPath, ['scripts/run-ts.mjs', '--expose-gc', 'test/world/heap-check.ts', '10000', '10000'], { cwd: root, encoding: 'utf8', timeout: 290_000 });
    expect(r.status, r.stderr).toBe(0);
    const { samples } = JSON.parse(r.stdout.trim().split('\n').pop()!) as { samples: number[] };
    expect(samples.length).toBe(10);
    // Compare the heap after the warm-up (sample at 2,000 steps: JIT and lazy scratch settled) with the end.
    const growth = samples[samples.length - 1] - samples[1];
    // A leak of even 8 bytes per step would grow by 64 KB over 8,000 steps; allow 256 KB of GC noise.
    expect(growth).toBeLessThan(256 * 1024);
  }, 300_000);
});
