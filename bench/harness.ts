/**
 * Benchmark harness shared by every bench module. A module exports `benchmarks: BenchModule` and records rows;
 * bench/run.ts prints them as one table and writes JSON. Timings are medians over repeated frames or queries,
 * measured side by side in one process (shared machines are noisy: compare ratios, not absolute numbers).
 */
import { performance } from 'node:perf_hooks';

export interface BenchRow {
  /** Group, e.g. 'spatial-hash' or 'grid-astar'. */
  group: string;
  /** What was measured, e.g. 'rebuild+kNN k=10, 100k uniform'. */
  name: string;
  /** Unit of the figures: 'ms' per frame, 'us' per query, ... */
  unit: 'ms' | 'us' | 'ns';
  median: number;
  mean: number;
  min: number;
  max: number;
  samples: number;
  /** Optional target (same unit) and whether it was met. */
  target?: number;
  /** Which figure the target applies to (default the median; the ORCA rows use the mean, as issue 6 asks). */
  targetOn?: 'median' | 'mean';
  /** Free-form extra figures (ratios, counts). */
  extra?: Record<string, number | string>;
}

export interface BenchContext {
  /** Fewer samples and smaller scenes (`npm run bench -- --quick`). */
  quick: boolean;
  record(row: BenchRow): void;
}

export interface BenchModule {
  name: string;
  run(ctx: BenchContext): Promise<void> | void;
}

/** Summary statistics of a list of samples. */
export function summarize(samples: ArrayLike<number>): { median: number; mean: number; min: number; max: number } {
  const a = Array.from(samples).sort((x, y) => x - y);
  const n = a.length;
  if (n === 0) return { median: NaN, mean: NaN, min: NaN, max: NaN };
  let sum = 0;
  for (const v of a) sum += v;
  const median = n % 2 === 1 ? a[(n - 1) >> 1] : 0.5 * (a[n / 2 - 1] + a[n / 2]);
  return { median, mean: sum / n, min: a[0], max: a[n - 1] };
}

/** Time `fn` `samples` times after `warmup` untimed calls; returns milliseconds per call. */
export function timeMs(fn: () => void, samples: number, warmup = 3): number[] {
  for (let i = 0; i < warmup; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/** Build a row from samples. */
export function row(group: string, name: string, unit: BenchRow['unit'], samples: number[], target?: number, extra?: BenchRow['extra']): BenchRow {
  return { group, name, unit, ...summarize(samples), samples: samples.length, target, extra };
}
