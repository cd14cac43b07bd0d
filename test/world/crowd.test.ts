import { describe, expect, it } from 'vitest';
import {
  createCrowd, spawnAgent, despawnAgent, isAgent, step, advance, setAgentParams, setPreferredVelocity,
  defineAgentComponent, agentCount, interpolatePosition, formatProfile,
  InvalidArgumentError, CapacityError, UnknownEntityError,
} from '../../src/index';
import { query } from 'bitecs';

describe('createCrowd', () => {
  it('preallocates stores for maxAgents (+1 for bitecs ids starting at 1)', () => {
    const w = createCrowd({ maxAgents: 1000 });
    expect(w.capacity).toBe(1000);
    expect(w.position.x.length).toBe(1001);
    expect(w.agent.radius.length).toBe(1001);
    expect(w.agents.dense.length).toBe(1000);
  });
  it('defaults to 65,536 agents and accepts 1,000,000', () => {
    expect(createCrowd().capacity).toBe(65536);
    const big = createCrowd({ maxAgents: 1_000_000 });
    expect(big.position.x.length).toBe(1_000_001);
  });
  it('can allocate stores on SharedArrayBuffer', () => {
    const w = createCrowd({ maxAgents: 10, sharedMemory: true });
    expect(w.position.x.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(w.agents.dense.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
  it('rejects bad options naming the field', () => {
    expect(() => createCrowd({ maxAgents: 0 })).toThrow(/options.maxAgents/);
    expect(() => createCrowd({ maxAgents: 1.5 })).toThrow(InvalidArgumentError);
    expect(() => createCrowd({ seed: NaN })).toThrow(/options.seed/);
    expect(() => createCrowd({ neighbourRadius: -1 })).toThrow(/options.neighbourRadius.*got -1/);
  });
});

describe('spawnAgent / despawnAgent', () => {
  it('returns ids, registers bitecs components, and despawn swap-removes', () => {
    const w = createCrowd({ maxAgents: 8 });
    const a = spawnAgent(w, { x: 1, y: 2, radius: 0.3, maxSpeed: 2, maxAccel: 4 });
    const b = spawnAgent(w, { x: 3, y: 4 });
    const c = spawnAgent(w, { x: 5, y: 6 });
    expect(agentCount(w)).toBe(3);
    expect(Array.from(query(w, [w.components.Position, w.components.Agent])).sort()).toEqual([a, b, c].sort());
    expect(w.agent.radius[a]).toBe(0.3);
    expect(w.agent.maxAccel[a]).toBe(4);
    despawnAgent(w, a);
    expect(isAgent(w, a)).toBe(false);
    expect(Array.from(w.agents.dense.subarray(0, w.agents.count))).toEqual([c, b]);
    expect(query(w, [w.components.Position]).length).toBe(2);
  });
  it('resets recycled ids to defaults (including system components)', () => {
    const w = createCrowd({ maxAgents: 2 });
    const comp = defineAgentComponent(w, 'test', (al) => ({ weight: al.f64(7), flag: al.u8(0) }));
    const a = spawnAgent(w, { x: 0, y: 0, radius: 2 });
    comp.weight[a] = 99;
    comp.flag[a] = 1;
    despawnAgent(w, a);
    const b = spawnAgent(w, { x: 0, y: 0 });
    expect(b).toBe(a); // bitecs recycles the id
    expect(comp.weight[b]).toBe(7);
    expect(comp.flag[b]).toBe(0);
    expect(w.agent.radius[b]).toBe(0.5);
  });
  it('rejects bad input with the field and value, and leaves the world unchanged', () => {
    const w = createCrowd({ maxAgents: 2 });
    expect(() => spawnAgent(w, { x: NaN, y: 0 })).toThrow(/init.x.*NaN/);
    expect(() => spawnAgent(w, { x: 0, y: Infinity })).toThrow(/init.y/);
    expect(() => spawnAgent(w, { x: 0, y: 0, radius: 0 })).toThrow(/init.radius/);
    expect(() => spawnAgent(w, { x: 0, y: 0, radius: -1 })).toThrow(/init.radius.*-1/);
    expect(() => spawnAgent(w, { x: 0, y: 0, maxSpeed: -2 })).toThrow(/init.maxSpeed/);
    expect(() => spawnAgent(w, { x: 0, y: 0, maxAccel: 0 })).toThrow(/init.maxAccel/);
    expect(agentCount(w)).toBe(0);
    spawnAgent(w, { x: 0, y: 0 });
    spawnAgent(w, { x: 0, y: 0 });
    expect(() => spawnAgent(w, { x: 0, y: 0 })).toThrow(CapacityError);
    expect(agentCount(w)).toBe(2);
  });
  it('rejects unknown and despawned entities', () => {
    const w = createCrowd({ maxAgents: 4 });
    const a = spawnAgent(w, { x: 0, y: 0 });
    despawnAgent(w, a);
    expect(() => despawnAgent(w, a)).toThrow(UnknownEntityError);
    expect(() => despawnAgent(w, 999)).toThrow(/eid.*999/);
    expect(() => setPreferredVelocity(w, 3, 1, 1)).toThrow(UnknownEntityError);
  });
  it('setAgentParams validates everything before writing anything', () => {
    const w = createCrowd({ maxAgents: 4 });
    const a = spawnAgent(w, { x: 0, y: 0, radius: 1, maxSpeed: 2 });
    expect(() => setAgentParams(w, a, { maxSpeed: 5, radius: -1 })).toThrow(/params.radius/);
    expect(w.agent.maxSpeed[a]).toBe(2);
  });
});

describe('step / integrate', () => {
  it('rejects dt <= 0 and NaN', () => {
    const w = createCrowd({ maxAgents: 4 });
    expect(() => step(w, 0)).toThrow(/dt/);
    expect(() => step(w, -1)).toThrow(/dt/);
    expect(() => step(w, NaN)).toThrow(/dt.*NaN/);
  });
  it('moves an agent by v·dt with unlimited acceleration (hand computation)', () => {
    const w = createCrowd({ maxAgents: 4 });
    const a = spawnAgent(w, { x: 1, y: 1, maxSpeed: 10 });
    setPreferredVelocity(w, a, 3, 4);
    step(w, 0.5);
    expect(w.position.x[a]).toBeCloseTo(2.5, 12);
    expect(w.position.y[a]).toBeCloseTo(3, 12);
    expect(w.position.previousX[a]).toBe(1);
  });
  it('limits acceleration and speed (hand computation)', () => {
    const w = createCrowd({ maxAgents: 4 });
    const a = spawnAgent(w, { x: 0, y: 0, maxSpeed: 2, maxAccel: 1 });
    setPreferredVelocity(w, a, 10, 0);
    step(w, 0.5); // |Δv| ≤ 0.5
    expect(w.velocity.x[a]).toBeCloseTo(0.5, 12);
    for (let i = 0; i < 10; i++) step(w, 0.5);
    expect(w.velocity.x[a]).toBeCloseTo(2, 12); // capped by maxSpeed
  });
  it('limits the turn rate', () => {
    const w = createCrowd({ maxAgents: 4 });
    const a = spawnAgent(w, { x: 0, y: 0, vx: 1, vy: 0, maxSpeed: 5, maxTurnRate: Math.PI / 2 });
    setPreferredVelocity(w, a, 0, 1); // wants a 90° turn
    step(w, 0.5); // may turn 45°
    const ang = Math.atan2(w.velocity.y[a], w.velocity.x[a]);
    expect(ang).toBeCloseTo(Math.PI / 4, 10);
    expect(Math.hypot(w.velocity.x[a], w.velocity.y[a])).toBeCloseTo(1, 10);
  });
});

describe('advance', () => {
  it('runs whole fixed steps and returns the alpha', () => {
    const w = createCrowd({ maxAgents: 4, fixedDt: 0.1 });
    const a = spawnAgent(w, { x: 0, y: 0, maxSpeed: 10 });
    setPreferredVelocity(w, a, 1, 0);
    const alpha = advance(w, 0.25);
    expect(w.time.frame).toBe(2);
    expect(alpha).toBeCloseTo(0.5, 9);
    const out = [0, 0];
    interpolatePosition(w, a, alpha, out);
    // Rendering interpolates between the last two states (Fiedler, "Fix your timestep"): prev 0.1, now 0.2.
    expect(out[0]).toBeCloseTo(0.15, 9);
  });
  it('caps the steps per call (spiral of death)', () => {
    const w = createCrowd({ maxAgents: 4, fixedDt: 0.01, maxStepsPerAdvance: 3 });
    advance(w, 1);
    expect(w.time.frame).toBe(3);
    expect(w.time.droppedSteps).toBeGreaterThan(90);
    expect(w.time.accumulator).toBeLessThan(0.01);
  });
});

describe('profiler', () => {
  it('records per-system times and prints a table', () => {
    const w = createCrowd({ maxAgents: 100 });
    for (let i = 0; i < 50; i++) spawnAgent(w, { x: i, y: 0 });
    step(w, 0.1);
    step(w, 0.1);
    const names = w.profiler.entries.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['spatialHash', 'integrate']));
    expect(w.profiler.byName.spatialHash.calls).toBe(2);
    expect(w.profiler.byName.spatialHash.counters.agents).toBe(50);
    expect(formatProfile(w.profiler)).toMatch(/spatialHash/);
  });
});
