import { describe, expect, it } from 'vitest';
import { createCrowd } from '../../src/world/crowd';
import { despawnAgent, spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { setSteering } from '../../systems/steering';
import { steeringComponent, STEER_EVADE, STEER_PURSUE } from '../../components/steering';

/**
 * References between agents across a despawn. bitecs recycles a freed id for the next spawn, so a reference to a
 * despawned agent that nobody clears silently points at the newcomer. Known defect (2026-11-29, docs/RELIABILITY.md):
 * the steering system keeps pursueEid/threatEid of a despawned agent (it has no despawn hook; `live` in
 * systems/steering.ts accepts the recycled id). Pinned with it.fails: each flips to a failure once the steering system
 * clears them, and must then become a plain `it`. The soak (`release` in soak-run.ts) and the steering scenario clear
 * these references themselves meanwhile.
 */
describe('steering references to a despawned agent', () => {
  it.fails('a pursuer does not chase a new agent spawned into its despawned target\'s id', () => {
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

  it.fails('an evader does not flee a new agent spawned into its despawned threat\'s id', () => {
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
});
