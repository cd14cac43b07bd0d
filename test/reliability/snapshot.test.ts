import { describe, expect, it } from 'vitest';
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent, despawnAgent } from '../../src/world/agents';
import { defineAgentComponent } from '../../src/world/registry';
import { step } from '../../src/world/step';
import { snapshot, restore, validateSnapshot, registerSnapshotSection, systemStateBytes } from '../../src/reliability/snapshot';
import { hashBytes, stateHash } from '../../src/reliability/hash';
import { MalformedInputError, MurmurError, InvalidArgumentError } from '../../src/core/errors';
import { getObstacles } from '../../components/orca';
import { queryRadius } from '../../src/spatial/hash';
import { buildNavmesh, setNavmesh, setNavGoal, createFormation, addFormationMember, setFormationPath } from '../../src/index';
import { enableOrca } from '../../components/orca';
import { createFixtureWorld, populate, tick } from './world-fixture';

function run(world: ReturnType<typeof createFixtureWorld>, steps: number): void {
  for (let i = 0; i < steps; i++) tick(world);
}

describe('snapshot / restore', () => {
  it('a restored fresh world continues bit-identically (full snapshot bytes and state hash equal after 300 more steps)', () => {
    const a = createFixtureWorld(11);
    populate(a, 120);
    run(a, 200); // spawns, despawns (ids recycled), ORCA, steering, boids, LOD all active
    const bytes = snapshot(a);
    run(a, 300);
    const b = createFixtureWorld(99); // different seed: everything must come from the snapshot
    restore(b, bytes);
    run(b, 300);
    expect(stateHash(b)).toBe(stateHash(a));
    // the whole state, every store and system state, not just positions:
    expect(hashBytes(snapshot(b))).toBe(hashBytes(snapshot(a)));
    expect(Buffer.from(snapshot(b)).equals(Buffer.from(snapshot(a)))).toBe(true);
    // and the run really changed state in between
    expect(a.time.frame).toBe(500);
    expect(a.agents.count).toBeGreaterThan(100);
  });

  it('rollback: restoring into the same world rewinds it, and replaying the same inputs gives the same state', () => {
    const w = createFixtureWorld(5);
    populate(w, 80);
    run(w, 50);
    const bytes = snapshot(w);
    run(w, 120);
    const h1 = stateHash(w);
    const full1 = hashBytes(snapshot(w));
    restore(w, bytes);
    expect(w.time.frame).toBe(50);
    run(w, 120);
    expect(stateHash(w)).toBe(h1);
    expect(hashBytes(snapshot(w))).toBe(full1);
  });

  it('entity ids recycle identically after restore (the next spawn gets the same id as in the original)', () => {
    const a = createCrowd({ maxAgents: 16, seed: 1 });
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push(spawnAgent(a, { x: i, y: 0 }));
    despawnAgent(a, ids[2]);
    despawnAgent(a, ids[5]);
    const bytes = snapshot(a);
    const b = createCrowd({ maxAgents: 16, seed: 1 });
    spawnAgent(b, { x: 0, y: 0 }); // b has unrelated history
    restore(b, bytes);
    const nextA = [spawnAgent(a, { x: 0, y: 1 }), spawnAgent(a, { x: 0, y: 2 }), spawnAgent(a, { x: 0, y: 3 })];
    const nextB = [spawnAgent(b, { x: 0, y: 1 }), spawnAgent(b, { x: 0, y: 2 }), spawnAgent(b, { x: 0, y: 3 })];
    expect(nextB).toEqual(nextA);
    expect(Array.from(b.agents.dense.subarray(0, b.agents.count))).toEqual(Array.from(a.agents.dense.subarray(0, a.agents.count)));
  });

  it('restores system state into a bare world: obstacles, LOD settings and the RNG', () => {
    const a = createFixtureWorld(3);
    populate(a, 10);
    step(a, 1 / 30);
    const b = createCrowd({ maxAgents: 400, seed: 3 }); // no obstacles, no LOD, no components
    restore(b, snapshot(a));
    expect(getObstacles(b).vertexCount).toBe(getObstacles(a).vertexCount);
    expect(getObstacles(b).vertexCount).toBeGreaterThan(0);
    expect(Array.from(b.rng.state)).toEqual(Array.from(a.rng.state));
    expect((b.systems.lod as { radii: Float64Array }).radii[0]).toBe(20);
    for (let i = 0; i < 30; i++) { step(a, 1 / 30); step(b, 1 / 30); }
    expect(stateHash(b)).toBe(stateHash(a));
  });

  it('a snapshot is compact: bytes grow linearly with live agents, not with capacity', () => {
    const small = createCrowd({ maxAgents: 100000, seed: 1 });
    for (let i = 0; i < 10; i++) spawnAgent(small, { x: i, y: 0 });
    const s1 = snapshot(small).length;
    for (let i = 0; i < 90; i++) spawnAgent(small, { x: i, y: 1 });
    const s2 = snapshot(small).length;
    // per agent: 17 core stores (13 f64 + 2 i32 ... ) ~ 130 bytes + ids; capacity 100k would be ~13 MB if whole arrays were written
    expect(s1).toBeLessThan(4096);
    expect((s2 - s1) / 90).toBeLessThan(200);
  });

  it('the spatial hash comes back as it was (scenario code may query it before the next rebuild)', () => {
    const a = createFixtureWorld(8);
    populate(a, 60);
    run(a, 10);
    const b = createFixtureWorld(9);
    restore(b, snapshot(a));
    const outA = new Int32Array(64), outB = new Int32Array(64);
    for (let i = 0; i < a.agents.count; i++) {
      const e = a.agents.dense[i];
      const x = a.position.x[e] + 0.3, y = a.position.y[e] - 0.2;
      const na = queryRadius(a.hash, x, y, 3, -1, outA), nb = queryRadius(b.hash, x, y, 3, -1, outB);
      expect(nb).toBe(na);
      expect(Array.from(outB.subarray(0, nb))).toEqual(Array.from(outA.subarray(0, na)));
    }
    expect(b.hash.count).toBe(a.hash.count);
  });

  it('navmesh (funnel) and formation state continue bit-identically after restore (query scratch rebuilt, group entities kept)', () => {
    const mesh = buildNavmesh({ boundary: [[0, 0], [40, 0], [40, 40], [0, 40]], obstacles: [[[15, 5], [25, 5], [25, 30], [15, 30]]] }, { radius: 0.4 });
    const setup = () => {
      const w = createCrowd({ maxAgents: 64, seed: 4 });
      setNavmesh(w, mesh);
      return w;
    };
    const a = setup();
    const walkers: number[] = [];
    for (let i = 0; i < 12; i++) { const e = spawnAgent(a, { x: 2 + i * 0.9, y: 2, radius: 0.3 }); enableOrca(a, e); walkers.push(e); setNavGoal(a, e, 35, 35 - i); }
    const g = createFormation(a, { shape: 'wedge', x: 5, y: 35, speed: 1 });
    for (let i = 0; i < 5; i++) addFormationMember(a, g, spawnAgent(a, { x: 3 + i, y: 36, radius: 0.3 }));
    setFormationPath(a, g, [5, 35, 12, 38, 12, 36]);
    for (let i = 0; i < 60; i++) step(a, 1 / 30);
    despawnAgent(a, walkers[3]); // a corridor slot released, an id to recycle
    const bytes = snapshot(a);
    const b = setup();
    restore(b, bytes);
    for (let i = 0; i < 150; i++) { step(a, 1 / 30); step(b, 1 / 30); }
    const e1 = spawnAgent(a, { x: 3, y: 3 }), e2 = spawnAgent(b, { x: 3, y: 3 });
    expect(e2).toBe(e1);
    setNavGoal(a, e1, 30, 35); setNavGoal(b, e2, 30, 35);
    for (let i = 0; i < 30; i++) { step(a, 1 / 30); step(b, 1 / 30); }
    expect(stateHash(b)).toBe(stateHash(a));
    // Every store and every system state agrees, the funnel's navmesh queries included (their open list, node
    // arrays and search scratch: a restored query resumes exactly, and since 2026-11-29 no search reads scratch an
    // earlier search left behind, see test/navmesh/search-history.test.ts).
    for (const st of a.registry.stores) {
      const t = b.registry.stores.find((x) => x.name === st.name)!;
      for (let i = 0; i < a.agents.count; i++) expect(Object.is(t.array[a.agents.dense[i]], st.array[a.agents.dense[i]]), st.name).toBe(true);
    }
    for (const k of Object.keys(a.systems)) {
      expect(hashBytes(systemStateBytes(b, k)), k).toBe(hashBytes(systemStateBytes(a, k)));
    }
  });

  it('a world with no agents round-trips', () => {
    const a = createCrowd({ maxAgents: 4, seed: 2 });
    const b = createCrowd({ maxAgents: 4, seed: 7 });
    restore(b, snapshot(a));
    expect(stateHash(b)).toBe(stateHash(a));
  });
});

describe('restore rejects bad bytes and leaves the world unchanged', () => {
  function setup() {
    const a = createFixtureWorld(21);
    populate(a, 40);
    run(a, 20);
    const good = snapshot(a);
    const target = createFixtureWorld(22);
    populate(target, 15);
    run(target, 5);
    return { good, target };
  }
  function expectRejected(target: ReturnType<typeof createFixtureWorld>, bytes: unknown, ctor: typeof MurmurError, pattern: RegExp) {
    const before = snapshot(target);
    const beforeHash = stateHash(target);
    let err: unknown;
    try { restore(target, bytes as Uint8Array); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(ctor);
    expect((err as Error).message).toMatch(pattern);
    expect(stateHash(target)).toBe(beforeHash);
    expect(Buffer.from(snapshot(target)).equals(Buffer.from(before))).toBe(true);
  }

  it('not a Uint8Array', () => { const { target } = setup(); expectRejected(target, [1, 2, 3], InvalidArgumentError, /Uint8Array/); });
  it('empty and too short', () => {
    const { target } = setup();
    expectRejected(target, new Uint8Array(0), MalformedInputError, /too short/);
    expectRejected(target, new Uint8Array(7), MalformedInputError, /too short/);
  });
  it('wrong magic', () => { const { good, target } = setup(); const b = good.slice(); b[0] ^= 0xff; expectRejected(target, b, MalformedInputError, /magic/); });
  it('unsupported version', () => { const { good, target } = setup(); const b = good.slice(); b[4] = 77; expectRejected(target, b, MalformedInputError, /version 77/); });
  it('truncated', () => { const { good, target } = setup(); expectRejected(target, good.slice(0, good.length - 9), MalformedInputError, /truncated/); });
  it('oversized (trailing garbage)', () => {
    const { good, target } = setup();
    const b = new Uint8Array(good.length + 1_000_000); b.set(good);
    expectRejected(target, b, MalformedInputError, /declares/);
  });
  it('one flipped bit anywhere in the payload (checksum)', () => {
    const { good, target } = setup();
    for (const at of [25, Math.floor(good.length / 2), good.length - 1]) {
      const b = good.slice(); b[at] ^= 0x10;
      expectRejected(target, b, MalformedInputError, /checksum/);
    }
  });
  it('a world with a different capacity', () => {
    const { good } = setup();
    const other = createCrowd({ maxAgents: 50, seed: 1 });
    expectRejected(other as ReturnType<typeof createFixtureWorld>, good, InvalidArgumentError, /maxAgents 400/);
  });
  it('a store the target world does not know (component of a system not registered for snapshots)', () => {
    const a = createCrowd({ maxAgents: 8, seed: 1 });
    defineAgentComponent(a, 'custom', (al) => ({ v: al.f64(0) }));
    spawnAgent(a, { x: 0, y: 0 });
    const bare = createCrowd({ maxAgents: 8, seed: 1 });
    spawnAgent(bare, { x: 5, y: 5 });
    expectRejected(bare as ReturnType<typeof createFixtureWorld>, snapshot(a), InvalidArgumentError, /does not define component 'custom'/);
  });
  it('built-in components the target has not used yet are defined by restore', () => {
    const { good } = setup();
    const bare = createCrowd({ maxAgents: 400, seed: 1 });
    restore(bare, good);
    expect(bare.registry.components.steering).toBeDefined();
  });
  it('random garbage of many lengths never throws anything but a MurmurError and never changes the world', () => {
    const { good, target } = setup();
    let seed = 12345;
    for (let t = 0; t < 50; t++) {
      const n = (t * 97) % (good.length + 64);
      const b = new Uint8Array(n);
      for (let i = 0; i < n; i++) { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; b[i] = seed >>> 24; }
      if (t % 2 === 0 && n >= 20) b.set(good.subarray(0, 20)); // a valid-looking header over garbage
      const before = stateHash(target);
      expect(() => restore(target, b)).toThrow(MurmurError);
      expect(stateHash(target)).toBe(before);
    }
  });
  it('validateSnapshot accepts the good bytes without changing anything', () => {
    const { good, target } = setup();
    const before = stateHash(target);
    validateSnapshot(target, good);
    expect(stateHash(target)).toBe(before);
  });
});

describe('system state the codec cannot copy', () => {
  it('a class instance in world.systems is refused at snapshot time with its path; a registered section handles it', () => {
    class Queue { items: number[] = [3, 1, 2]; }
    const w = createCrowd({ maxAgents: 4, seed: 1 });
    w.systems.myQueue = { q: new Queue() };
    expect(() => snapshot(w)).toThrow(/world\.systems\.myQueue\.q: cannot snapshot an instance of class Queue/);
    registerSnapshotSection<number[]>({
      name: 'myQueue',
      save(world, wr) { const it = (world.systems.myQueue as { q: Queue }).q.items; wr.u32(it.length); for (const v of it) wr.f64(v); },
      read(_world, r) { const n = r.count('myQueue length', 1000, 8); const out: number[] = []; for (let i = 0; i < n; i++) out.push(r.f64('item')); return out; },
      apply(world, v) { if (v === undefined) delete world.systems.myQueue; else { const q = new Queue(); q.items = v; world.systems.myQueue = { q }; } },
    });
    const bytes = snapshot(w);
    const b = createCrowd({ maxAgents: 4, seed: 1 });
    restore(b, bytes);
    expect((b.systems.myQueue as { q: Queue }).q.items).toEqual([3, 1, 2]);
    expect((b.systems.myQueue as { q: Queue }).q).toBeInstanceOf(Queue);
  });
  it('shared references and typed-array views on one buffer survive the round trip', () => {
    const w = createCrowd({ maxAgents: 4, seed: 1 });
    const buf = new ArrayBuffer(32);
    const shared = { n: 1 };
    const f = new Float64Array(buf, 0, 2), i = new Int32Array(buf, 16, 4);
    f[0] = 1.5; i[1] = -7;
    w.systems.demo = { a: shared, b: shared, f, i, m: new Map([['k', [1, 2]]]), s: new Set([4]), fn: () => 1 };
    const b = createCrowd({ maxAgents: 4, seed: 1 });
    restore(b, snapshot(w));
    const d = b.systems.demo as { a: object; b: object; f: Float64Array; i: Int32Array; m: Map<string, number[]>; s: Set<number>; fn: unknown };
    expect(d.a).toBe(d.b);
    expect(d.f.buffer).toBe(d.i.buffer);
    expect(d.f[0]).toBe(1.5);
    expect(d.i[1]).toBe(-7);
    expect(d.m.get('k')).toEqual([1, 2]);
    expect(d.s.has(4)).toBe(true);
    expect(d.fn).toBe(null); // functions are configuration: not in the target world → null
  });
});
