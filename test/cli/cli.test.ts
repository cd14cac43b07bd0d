/**
 * The headless CLI, run as a user runs it: a child process (`node <bundled demos/cli.ts> ...`, and once through
 * bin/murmur.mjs), checking stdout, stderr and the exit code. The bundle is built once into .cache/test-cli/.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { listScenarios } from '../../demos/scenarios/index';

const root = resolve(__dirname, '../..');
const outDir = join(root, '.cache/test-cli');
const bundle = join(outDir, 'cli.mjs');

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [bundle, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** As cli(), asynchronously, so independent runs overlap (process start-up dominates these small runs). */
function cliAsync(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [bundle, ...args], { cwd: root, encoding: 'utf8', timeout: 60_000, maxBuffer: 1 << 26 }, (err, stdout, stderr) => {
      done({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

beforeAll(async () => {
  mkdirSync(outDir, { recursive: true });
  await build({
    entryPoints: [join(root, 'demos/cli.ts')], bundle: true, platform: 'node', format: 'esm', target: 'node20',
    outfile: bundle, packages: 'external', logLevel: 'warning',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
});

describe('murmur run', () => {
  it('runs a scenario and prints the per-system table; no progress bar when stderr is piped; exit 0', () => {
    const r = cli(['run', 'wander', '--agents', '300', '--frames', '20', '--seed', '3']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^wander: 300 agents, 20 steps, seed 3/);
    // The table: a header row, one row per system that ran (the spatial hash and integration always do), the frame.
    expect(r.stdout).toMatch(/system\s+last ms\s+mean ms\s+max ms\s+calls/);
    expect(r.stdout).toMatch(/\nspatialHash\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+20\b/);
    expect(r.stdout).toMatch(/\nintegrate\s/);
    expect(r.stdout).toMatch(/\nframe\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+20\b/);
    expect(r.stderr).not.toContain('\r');
    expect(r.stderr).toBe('');
  });

  it('--json prints one parseable object with the profile and is deterministic in its counters', () => {
    const a = cli(['run', 'wander', '--agents', '200', '--frames', '15', '--json']);
    expect(a.status).toBe(0);
    const ja = JSON.parse(a.stdout);
    expect(ja).toMatchObject({ scenario: 'wander', agents: 200, frames: 15, seed: 1, nonFinitePositions: 0 });
    const names = ja.systems.map((s: { name: string }) => s.name);
    expect(names).toContain('spatialHash');
    expect(names).toContain('integrate');
    for (const s of ja.systems) expect(s.calls).toBe(15);
    // Same seed, same run: the counters (work done, not time) agree exactly.
    const jb = JSON.parse(cli(['run', 'wander', '--agents', '200', '--frames', '15', '--json']).stdout);
    expect(jb.systems.map((s: { counters: unknown }) => s.counters)).toEqual(ja.systems.map((s: { counters: unknown }) => s.counters));
  });

  it('--snapshot writes an SVG with one circle per agent', () => {
    const file = join(outDir, 'snap.svg');
    rmSync(file, { force: true });
    const r = cli(['run', 'wander', '--agents', '150', '--frames', '5', '--snapshot', file]);
    expect(r.status).toBe(0);
    const svg = readFileSync(file, 'utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
    const agents = svg.slice(svg.indexOf('<g id="agents">'), svg.lastIndexOf('</g></g>'));
    expect((agents.match(/<circle /g) ?? []).length).toBe(150);
    expect(r.stdout).toContain(`snapshot: ${file}`);
  });

  it('--snapshot of a grid scenario draws blocked cells and planned paths', () => {
    const file = join(outDir, 'astar.svg');
    rmSync(file, { force: true });
    const r = cli(['run', 'astar', '--agents', '6', '--frames', '60', '--map', 'arena.map', '--snapshot', file]);
    expect(r.status, r.stderr).toBe(0);
    const svg = readFileSync(file, 'utf8');
    const blocked = svg.slice(svg.indexOf('<g id="blocked"'), svg.indexOf('<g id="obstacles"'));
    expect((blocked.match(/<rect /g) ?? []).length).toBeGreaterThan(10);
    const paths = svg.slice(svg.indexOf('<g id="paths"'), svg.indexOf('<g id="goals"'));
    expect((paths.match(/<polyline /g) ?? []).length).toBeGreaterThan(0);
    expect((svg.slice(svg.indexOf('<g id="agents">')).match(/<circle /g) ?? []).length).toBe(6);
  });

  it('shows a progress bar when stderr is a terminal (under script(1), a pseudo-terminal)', () => {
    if (!existsSync('/usr/bin/script')) return; // util-linux's script is how we get a pty without native addons
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(bundle)} run wander --agents 100 --frames 30`;
    const r = spawnSync('/usr/bin/script', ['-qec', cmd, '/dev/null'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\rwander █+·* \d+\/30 steps/);
    expect(r.stdout).toContain('30/30 steps');
  });
});

describe('every shared scenario', () => {
  for (const sc of listScenarios()) {
    it(`${sc.name}: runs headless (small), exit 0, finite positions, profile recorded, deterministic`, async () => {
      const base = ['run', sc.name, '--agents', '60', '--frames', '8', '--json'];
      const [r, again, other] = await Promise.all([cliAsync(base), cliAsync(base), cliAsync([...base, '--seed', '2'])]);
      expect(r.status, r.stderr).toBe(0);
      const j = JSON.parse(r.stdout);
      expect(j.nonFinitePositions).toBe(0);
      expect(j.agents).toBeGreaterThan(0);
      expect(j.systems.length).toBeGreaterThan(0);
      // Same scenario and seed in another process: bit-identical state; another seed: a different one.
      expect(JSON.parse(again.stdout).stateHash).toBe(j.stateHash);
      expect(JSON.parse(other.stdout).stateHash).not.toBe(j.stateHash);
    });
  }

  it('--map reads a Moving AI map from ../shared/data/maps (never copied into the repo)', () => {
    const r = cli(['run', 'astar', '--agents', '5', '--frames', '5', '--map', 'arena.map', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).status).toMatch(/^arena\.map: /);
    const bad = cli(['run', 'astar', '--map', 'no-such.map']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("no map 'no-such.map'");
  });
});

describe('usage errors', () => {
  it('unknown scenario: exit 2, lists the valid scenarios, suggests the closest', () => {
    const r = cli(['run', 'wandr']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown scenario 'wandr' (did you mean 'wander'?)");
    for (const s of listScenarios()) expect(r.stderr).toContain(s.name);
    expect(r.stdout).toBe('');
  });

  it('unknown flag: exit 2, lists the valid flags', () => {
    const r = cli(['run', 'wander', '--agent', '10']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown flag '--agent' (did you mean '--agents'?)");
    expect(r.stderr).toContain('--frames');
    expect(r.stderr).toContain('--snapshot');
  });

  it('bad values and missing arguments: exit 2 with the field named', () => {
    expect(cli(['run', 'wander', '--agents', '-5']).stderr).toContain("--agents needs an integer ≥ 1 (got '-5')");
    expect(cli(['run', 'wander', '--frames', 'many']).status).toBe(2);
    expect(cli(['run', 'wander', '--frames']).stderr).toContain('--frames needs an integer ≥ 1 (got nothing)');
    expect(cli(['run', 'wander', '--snapshot']).status).toBe(2);
    expect(cli(['run']).stderr).toContain('missing scenario name; valid scenarios:');
    expect(cli(['run', 'wander', 'wander']).status).toBe(2);
  });

  it('--help and list: exit 0 with every scenario and flag', () => {
    const h = cli(['--help']);
    expect(h.status).toBe(0);
    for (const f of ['--agents', '--frames', '--seed', '--json', '--snapshot']) expect(h.stdout).toContain(f);
    const l = cli(['list']);
    expect(l.status).toBe(0);
    expect(l.stdout.trim().split('\n').map((x) => x.split('\t')[0])).toEqual(listScenarios().map((s) => s.name));
  });
});

describe('failures', () => {
  it('an unwritable snapshot path is a run failure: exit 1', () => {
    const r = cli(['run', 'wander', '--agents', '10', '--frames', '2', '--snapshot', join(outDir, 'no/such/dir/x.svg')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('cannot write snapshot');
  });
});

describe('bin/murmur.mjs', () => {
  it('is the npx entry point: forwards arguments and the exit code', () => {
    const r = spawnSync(process.execPath, [join(root, 'bin/murmur.mjs'), 'run', 'nope'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown scenario 'nope'");
  });
});
