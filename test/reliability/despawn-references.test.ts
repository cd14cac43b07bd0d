import { describe, expect, it } from 'vitest';
import { createCrowd } from '../../src/world/crowd';
import { despawnAgent, spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { setSteering } from '../../systems/steering';
import { steeringComponent, STEER_EVADE, STEER_PURSUE } from '../../components/steering';

/**
 * References between agents across a despawn. bitecs recycles a freed id for the next spawn, so a reference to a
 * despawned agent that nobody clears silently points at the newcomer. Found 2026-11-29 (docs/RELIABILITY.md): the
 * steering system kept pursueEid/threatEid of a despawned agent. Fixed: its despawn hook clears them (both tests
 * failed before the fix, at the 'cleared' assertions).
 */
describe('steering references to a despawned agent', () => {
  it('a pursuer does not chase a new agent spawned into its despawned target\'s id', () => {
    const w = createCrowd({ maxAgents: 8, seed: 1 });
    const a = spawnAgent(w, { x: 0, y: 0, maxSpeed: 2 });
    const b = spawnAgent(w, { x: 10, y: 0, maxSpeed: 1 });
    setSteering(w, a, { behaviours: STEER_PURSUE, pursueEid: b });
    for (let i = 0; i < 10; i++) step(w, 1 / 30);
    despawnAgent(w, b);
    const c = spawnAgent(w, { x: -10, y: 0, maxSpeed: 0 }); // behind the pursuer
    expect(c, 'bitecs recycled the id').toBe(b);
    for (let i = 0; i < 60; i++) step(w, 1 / 30);
    expect(steeringComponent(w).pursueEid[a], 'pursuit target cleared').not.toBe(c);
    expect(w.position.x[a], 'the pursuer did not turn round toward the newcomer').toBeGreaterThan(0);
  });

  it('an evader does not flee a new agent spawned into its despawned threat\'s id', () => {
    const w = createCrowd({ maxAgents: 8, seed: 1 });
    const a = spawnAgent(w, { x: 0, y: 0, maxSpeed: 2 });
    const b = spawnAgent(w, { x: -3, y: 0, maxSpeed: 0 });
    setSteering(w, a, { behaviours: STEER_EVADE, threatEid: b, panicDistance: 10 });
    despawnAgent(w, b);
    const c = spawnAgent(w, { x: 3, y: 0, maxSpeed: 0 });
    expect(c, 'bitecs recycled the id').toBe(b);
    step(w, 1 / 30);
    expect(steeringComponent(w).threatEid[a], 'threat cleared').not.toBe(c);
  });

  it('clears only references to the despawned agent, for many referrers, and survives the referrer\'s own despawn', () => {
    const w = createCrowd({ maxAgents: 64, seed: 2 });
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) ids.push(spawnAgent(w, { x: i, y: 0, maxSpeed: 1 }));
    // agent i pursues i + 1 and is threatened by i + 2 (mod 40)
    for (let i = 0; i < 40; i++) setSteering(w, ids[i], { behaviours: STEER_PURSUE | STEER_EVADE, pursueEid: ids[(i + 1) % 40], threatEid: ids[(i + 2) % 40] });
    const s = steeringComponent(w);
    despawnAgent(w, ids[10]);
    for (let i = 0; i < 40; i++) {
      if (i === 10) continue;
      expect(s.pursueEid[ids[i]]).toBe(ids[(i + 1) % 40] === ids[10] ? 0 : ids[(i + 1) % 40]);
      expect(s.threatEid[ids[i]]).toBe(ids[(i + 2) % 40] === ids[10] ? 0 : ids[(i + 2) % 40]);
    }
    despawnAgent(w, ids[9]); // pursued 10 (already cleared), threatened by... referenced by 7 (threat) and 8 (pursue)
    expect(s.pursueEid[ids[8]]).toBe(0);
    expect(s.threatEid[ids[7]]).toBe(0);
    expect(s.pursueEid[ids[7]]).toBe(ids[8]);
    for (let i = 0; i < 30; i++) step(w, 1 / 30);
    for (let i = 0; i < 40; i++) if (i !== 9 && i !== 10) expect(Number.isFinite(w.position.x[ids[i]])).toBe(true);
  });
});
