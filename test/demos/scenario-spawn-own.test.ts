import { describe, expect, it } from 'vitest';
import { createAstar } from '../../demos/scenarios/astar';
import { createRts } from '../../demos/scenarios/rts';
import { createSteering } from '../../demos/scenarios/steering';
import { createContacts } from '../../demos/scenarios/contacts';
import { despawnAgent } from '../../src/world/agents';
import { navigationStatus } from '../../systems/navigation';
import { getFormation } from '../../systems/formation';
import { corridorComponent, NAV_NONE } from '../../components/corridor';
import { steeringComponent, STEER_PURSUE } from '../../components/steering';

/**
 * spawnOwn: a scenario that keeps lists of the agents it drives can add one more of its own kind after despawns, and
 * its logic adopts it (the soak uses this so the logic stays busy for the whole run). Each case despawns some of the
 * scenario's agents, spawns replacements, runs frames, and checks the newcomers are driven like the originals; when
 * the scenario already holds as many as it started with, spawnOwn refuses (returns 0).
 */
describe('scenario spawnOwn', () => {
  it('astar: a new walker gets a goal and walks; refused when the walkers are complete', () => {
    const inst = createAstar({ agents: 30, seed: 3 });
    expect(inst.spawnOwn!()).toBe(0);
    for (let i = 0; i < 5; i++) despawnAgent(inst.world, inst.walkers[0]);
    const fresh = [inst.spawnOwn!(), inst.spawnOwn!()];
    for (const e of fresh) expect(e).toBeGreaterThan(0);
    expect(inst.walkers.length).toBe(27);
    for (let i = 0; i < 30; i++) inst.tick();
    for (const e of fresh) {
      expect(Array.from(inst.walkers)).toContain(e);
      expect(navigationStatus(inst.world, e)).not.toBe('idle');
    }
  });

  it('rts: a reinforcement joins the formation, then townsfolk are replaced and given navmesh goals', () => {
    const inst = createRts({ agents: 60, seed: 4 });
    const w = inst.world, squadSize = inst.members.length, folkSize = inst.folk.length;
    despawnAgent(w, inst.members[0]);
    despawnAgent(w, inst.folk[0]);
    expect(getFormation(w, inst.squad).count).toBe(squadSize - 1);
    const member = inst.spawnOwn!();
    expect(getFormation(w, inst.squad).count).toBe(squadSize);
    expect(Array.from(inst.members)).toContain(member);
    const townsperson = inst.spawnOwn!();
    expect(Array.from(inst.folk)).toContain(townsperson);
    expect(inst.folk.length).toBe(folkSize);
    expect(inst.spawnOwn!()).toBe(0);
    for (let i = 0; i < 30; i++) inst.tick();
    expect(corridorComponent(w).state[townsperson]).not.toBe(NAV_NONE);
    expect(Number.isFinite(w.position.x[member]) && Number.isFinite(w.position.y[member])).toBe(true);
  });

  it('steering: a new hunter pursues a prey, a new prey is steered', () => {
    const inst = createSteering({ agents: 40, seed: 5 });
    const w = inst.world, s = steeringComponent(w);
    despawnAgent(w, inst.hunters[0]);
    despawnAgent(w, inst.prey[0]);
    const hunter = inst.spawnOwn!();
    expect(Array.from(inst.hunters)).toContain(hunter);
    const prey = inst.spawnOwn!();
    expect(Array.from(inst.prey)).toContain(prey);
    expect(inst.spawnOwn!()).toBe(0);
    inst.tick();
    expect(s.behaviours[hunter] & STEER_PURSUE).not.toBe(0);
    expect(s.pursueEid[hunter]).toBeGreaterThan(0);
    expect(Array.from(inst.prey)).toContain(s.pursueEid[hunter]);
    expect(s.behaviours[prey]).not.toBe(0);
  });

  it('contacts: a newcomer enters from the west and is pushed east', () => {
    const inst = createContacts({ agents: 50, seed: 6 });
    const w = inst.world;
    despawnAgent(w, w.agents.dense[3]);
    const e = inst.spawnOwn!();
    expect(e).toBeGreaterThan(0);
    expect(inst.spawnOwn!()).toBe(0);
    const x0 = w.position.x[e];
    expect(x0).toBeLessThan(-26);
    for (let i = 0; i < 60; i++) inst.tick();
    expect(w.position.x[e]).toBeGreaterThan(x0 + 0.5);
  });
});
