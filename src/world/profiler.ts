/**
 * Per-system profiler: wall-clock milliseconds (last, mean, max over the frames since reset) and named counters
 * (e.g. neighbour candidates scanned), as plain data on the world. Entries are created once per system name, so
 * recording a frame allocates nothing.
 */
export interface ProfileEntry {
  readonly name: string;
  /** Milliseconds of the last call. */
  last: number;
  /** Mean milliseconds per call since reset. */
  mean: number;
  /** Maximum milliseconds of a call since reset. */
  max: number;
  /** Calls since reset. */
  calls: number;
  /** Sum of milliseconds since reset. */
  total: number;
  /** Counters set by the system during its last call (values persist until overwritten). */
  readonly counters: Record<string, number>;
}

export interface Profiler {
  /** Entries in first-seen order (which is the pipeline order). */
  readonly entries: ProfileEntry[];
  readonly byName: Record<string, ProfileEntry>;
  /** Whether timing is recorded (counters always are). @default true */
  enabled: boolean;
  /** Milliseconds of the whole last `step`. */
  frameLast: number;
  frameMean: number;
  frameMax: number;
  frames: number;
}

export function createProfiler(): Profiler {
  return { entries: [], byName: Object.create(null), enabled: true, frameLast: 0, frameMean: 0, frameMax: 0, frames: 0 };
}

/** The entry for a system, created on first use. */
export function profileEntry(p: Profiler, name: string): ProfileEntry {
  let e = p.byName[name];
  if (e === undefined) {
    e = { name, last: 0, mean: 0, max: 0, calls: 0, total: 0, counters: Object.create(null) };
    p.byName[name] = e;
    p.entries.push(e);
  }
  return e;
}

/** Current time in milliseconds (performance.now where available). */
export function nowMs(): number {
  return performance.now();
}

/** Record one call of system `name` that started at `t0` (from nowMs()). */
export function profileRecord(p: Profiler, name: string, t0: number): void {
  if (!p.enabled) return;
  const ms = performance.now() - t0;
  const e = profileEntry(p, name);
  e.last = ms;
  e.calls++;
  e.total += ms;
  e.mean = e.total / e.calls;
  if (ms > e.max) e.max = ms;
}

/** Set a counter of system `name` for this frame. */
export function profileCount(p: Profiler, name: string, counter: string, value: number): void {
  profileEntry(p, name).counters[counter] = value;
}

/** Record the whole frame's time. */
export function profileFrame(p: Profiler, t0: number): void {
  if (!p.enabled) return;
  const ms = performance.now() - t0;
  p.frameLast = ms;
  p.frames++;
  p.frameMean += (ms - p.frameMean) / p.frames;
  if (ms > p.frameMax) p.frameMax = ms;
}

/** Forget all timings and counters (entries stay, in order). */
export function resetProfiler(p: Profiler): void {
  for (const e of p.entries) {
    e.last = e.mean = e.max = e.total = 0;
    e.calls = 0;
    for (const k of Object.keys(e.counters)) delete e.counters[k];
  }
  p.frameLast = p.frameMean = p.frameMax = 0;
  p.frames = 0;
}

/** The profile as an aligned text table: one row per system, then the frame total. */
export function formatProfile(p: Profiler): string {
  const rows: string[][] = [['system', 'last ms', 'mean ms', 'max ms', 'calls', 'counters']];
  for (const e of p.entries) {
    const counters = Object.keys(e.counters).map((k) => `${k}=${e.counters[k]}`).join(' ');
    rows.push([e.name, e.last.toFixed(3), e.mean.toFixed(3), e.max.toFixed(3), String(e.calls), counters]);
  }
  rows.push(['frame', p.frameLast.toFixed(3), p.frameMean.toFixed(3), p.frameMax.toFixed(3), String(p.frames), '']);
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  return rows.map((r) => r.map((cell, c) => (c === 0 || c === 5 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd()).join('\n');
}
