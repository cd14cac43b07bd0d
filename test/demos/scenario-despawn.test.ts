import { describe, expect, it } from 'vitest';
import { createAstar } from '../../demos/scenarios/astar';
import { createRts } from '../../demos/scenarios/rts';
import { createSteering } from '../../demos/scenarios/steering';
import { createContacts } from '../../demos/scenarios/contacts';
import type { ScenarioInstance } from '../../demos/scenarios/registry';
import { despawnAgent, isAgent, spawnAgent } from '../../src/world/agents';
import type { CrowdWorld } from '../../src/world/crowd';
import { navigationStatus } from '../../systems/navigation';
import { getFormation } from '../../systems/formation';
import { formationComponent } from '../../components/formation';
import { corridorComponent, NAV_NONE } from '../../components/corridor';
import { steeringComponent } from '../../components/steering';

/**
 * A game despawns units that the scenario's own logic still refers to. Each shared scenario that keeps a list of the
 * agents it drives must (a) keep running (no UnknownEntityError from asking about a dead id) and (b) not drive a new
 * agent that bitecs gives the recycled id as if it were the old one. The recycling itself is asserted (the new
 * agent's id equals the despawned one), so (b) really tests an adopted id, not a fresh one.
 */

/** Every live agent's position and velocity finite (the soak's NaN check, inline). */
function expectFinite(world: CrowdWorld): void {
  const { dense, count } = world.agents;
  for (let i = 0; i < count; i++) {
    const e = dense[i];
    const ok = Number.isFinite(world.position.x[e]) && Number.isFinite(world.position.y[e])
      && Number.isFinite(world.velocity.x[e]) && Number.isFinite(world.velocity.y[e]);
    expect(ok, `agent ${e} state is finite`).toBe(true);
  }
}

/** Tick n frames, calling the read-outs (status, paths, goals) as the CLI and demo page do. */
function run(inst: ScenarioInstance, n: number, each?: () => void): void {
  for (let i = 0; i < n; i++) {
    inst.tick();
    inst.status?.();
    inst.paths?.();
    inst.goals?.();
    each?.();
  }
  expectFinite(inst.world);
}

describe('astar scenario under outside despawns', () => {
  it('keeps running after walkers are despawned; the list holds only live walkers', () => {
    const inst = createAstar({ agents: 12, seed: 5 });
    run(inst, 10);
    const a = inst.walkers[3], b = inst.walkers[7];
    despawnAgent(inst.world, a);
    despawnAgent(inst.world, b);
    expect(Array.from(inst.walkers)).not.toContain(a);
    expect(Array.from(inst.walkers)).not.toContain(b);
    expect(inst.walkers.length).toBe(10);
    run(inst, 150);
    for (const e of inst.walkers) expect(isAgent(inst.world, e)).toBe(true);
  });

  it('a new agent spawned into a despawned walker\'s id is not given goals as a walker', () => {
    const inst = createAstar({ agents: 12, seed: 5 });
    run(inst, 10);
    const victim = inst.walkers[4];
    despawnAgent(inst.world, victim);
    // A walkable spot: where another walker stands.
    const o = inst.walkers[0];
    const fresh = spawnAgent(inst.world, { x: inst.world.position.x[o], y: inst.world.position.y[o], radius: 0.35 });
    expect(fresh, 'bitecs recycled the id').toBe(victim);
    // Walkers that are idle or arrived get a new random goal every tick; the newcomer has none and must keep none.
    run(inst, 150, () => expect(navigationStatus(inst.world, fresh)).toBe('idle'));
    expect(Array.from(inst.walkers)).not.toContain(fresh);
    expect(inst.walkers.length).toBe(11);
  });
});

describe('rts scenario under outside despawns', () => {
  it('a despawned squad member leaves the formation and the list; a despawned townsperson leaves the list', () => {
    const inst = createRts({ agents: 30, seed: 5 }); // 12 members, 18 townsfolk
    run(inst, 20);
    const w = inst.world;
    const m = inst.members[2], f = inst.folk[4];
    const before = getFormation(w, inst.squad).count;
    despawnAgent(w, m);
    despawnAgent(w, f);
    const g = getFormation(w, inst.squad);
    expect(g.count).toBe(before - 1);
    expect(Array.from(g.members.subarray(0, g.count))).not.toContain(m);
    expect(Array.from(inst.members)).not.toContain(m);
    expect(Array.from(inst.folk)).not.toContain(f);
    expect([inst.members.length, inst.folk.length]).toEqual([11, 17]);
    run(inst, 150);
    expect(Number.isFinite(inst.worstSlotError())).toBe(true);
    expect(Number.isFinite(g.anchor.x) && Number.isFinite(g.anchor.y)).toBe(true);
  });

  it('new agents spawned into the recycled ids are neither squad members nor townsfolk', () => {
    const inst = createRts({ agents: 30, seed: 5 });
    run(inst, 20);
    const w = inst.world;
    const m = inst.members[5], f = inst.folk[0];
    despawnAgent(w, m);
    despawnAgent(w, f);
    // Open ground at the west edge, clear of buildings.
    const n1 = spawnAgent(w, { x: 3, y: 3, radius: 0.35 });
    const n2 = spawnAgent(w, { x: 5, y: 3, radius: 0.35 });
    expect([n1, n2].sort(), 'bitecs recycled both ids').toEqual([m, f].sort());
    const fc = formationComponent(w), corridor = corridorComponent(w), steer = steeringComponent(w);
    run(inst, 150, () => {
      for (const e of [n1, n2]) {
        expect(fc.group[e], `agent ${e} joined no formation`).toBe(0);
        expect(corridor.state[e], `agent ${e} was given no navmesh goal`).toBe(NAV_NONE);
        expect(steer.behaviours[e], `agent ${e} has no steering`).toBe(0);
      }
    });
    expect(Array.from(inst.members)).not.toContain(m);
    expect(Array.from(inst.folk)).not.toContain(f);
    expect(getFormation(w, inst.squad).count).toBe(11);
  });

  it('the whole squad despawned: the formation is empty and the town keeps running', () => {
    const inst = createRts({ agents: 30, seed: 6 });
    run(inst, 10);
    for (const e of Array.from(inst.members)) despawnAgent(inst.world, e);
    expect(inst.members.length).toBe(0);
    expect(getFormation(inst.world, inst.squad).count).toBe(0);
    run(inst, 150);
    expect(inst.worstSlotError()).toBe(0);
    const a = getFormation(inst.world, inst.squad).anchor;
    expect(Number.isFinite(a.x) && Number.isFinite(a.y)).toBe(true);
  });
});

describe('steering scenario under outside despawns', () => {
  it('a despawned pursuit target is dropped by its hunter; a new agent in its id is never pursued or steered', () => {
    const inst = createSteering({ agents: 40, seed: 5 }); // 3 hunters, 37 prey
    run(inst, 10);
    const w = inst.world, steer = steeringComponent(w);
    const hunter = inst.hunters[0], target = inst.targets[0];
    expect(target).toBeGreaterThan(0);
    expect(steer.pursueEid[hunter]).toBe(target);
    despawnAgent(w, target);
    expect(inst.targets[0]).toBe(0);
    expect(steer.pursueEid[hunter]).toBe(0);
    expect(Array.from(inst.prey)).not.toContain(target);
    // Spawn the newcomer right next to the hunter: were it taken for prey it would be the nearest one, pursued, and
    // (inside the panic distance) set to evade.
    const fresh = spawnAgent(w, { x: w.position.x[hunter] + 0.7, y: w.position.y[hunter], radius: 0.4 });
    expect(fresh, 'bitecs recycled the id').toBe(target);
    run(inst, 150, () => {
      for (let h = 0; h < inst.hunters.length; h++) {
        expect(inst.targets[h]).not.toBe(fresh);
        expect(steer.pursueEid[inst.hunters[h]]).not.toBe(fresh);
      }
      expect(steer.behaviours[fresh], 'the newcomer is not steered as prey').toBe(0);
    });
    expect(inst.prey.length).toBe(36);
    expect(inst.targets.length).toBe(inst.hunters.length);
  });

  it('a despawned pursuer leaves the hunters; prey stop evading it and never evade a new agent in its id', () => {
    const inst = createSteering({ agents: 40, seed: 7 });
    const w = inst.world, steer = steeringComponent(w);
    const hunter = inst.hunters[1];
    // Put a prey in the hunter's panic distance so it evades this hunter.
    const p = inst.prey[0];
    w.position.x[p] = w.position.x[hunter] + 2; w.position.y[p] = w.position.y[hunter];
    w.position.previousX[p] = w.position.x[p]; w.position.previousY[p] = w.position.y[p];
    inst.tick();
    expect(steer.threatEid[p]).toBe(hunter);
    despawnAgent(w, hunter);
    expect(Array.from(inst.hunters)).not.toContain(hunter);
    expect(inst.targets.length).toBe(inst.hunters.length);
    expect(steer.threatEid[p]).not.toBe(hunter);
    const fresh = spawnAgent(w, { x: w.position.x[p] - 1, y: w.position.y[p], radius: 0.6 });
    expect(fresh, 'bitecs recycled the id').toBe(hunter);
    run(inst, 150, () => {
      for (const e of inst.prey) expect(steer.threatEid[e]).not.toBe(fresh);
      expect(steer.behaviours[fresh], 'the newcomer is not steered as a hunter').toBe(0);
      expect(steer.pursueEid[fresh]).toBe(0);
    });
  });

  it('every hunter and then every prey despawned: the yard keeps running', () => {
    const inst = createSteering({ agents: 40, seed: 8 });
    run(inst, 10);
    for (const e of Array.from(inst.hunters)) despawnAgent(inst.world, e);
    expect([inst.hunters.length, inst.targets.length]).toEqual([0, 0]);
    run(inst, 100);
    const hunters = Array.from(inst.hunters);
    expect(hunters).toEqual([]);
    for (const e of Array.from(inst.prey)) despawnAgent(inst.world, e);
    expect(inst.prey.length).toBe(0);
    run(inst, 100);
  });
});

describe('contacts scenario under outside despawns', () => {
  it('despawned bodies are no longer pushed; a new agent in a recycled id is not pushed or re-entered from the west', () => {
    const inst = createContacts({ agents: 60, seed: 5 });
    run(inst, 20);
    const w = inst.world;
    const victims = [w.agents.dense[3], w.agents.dense[10]];
    for (const e of victims) despawnAgent(w, e);
    run(inst, 100);
    // East of x = 10 a pushed body is sent back to the west edge; far north of the stream nothing touches it.
    const fresh = spawnAgent(w, { x: 11, y: 12, radius: 0.3 });
    expect(victims, 'bitecs recycled the id').toContain(fresh);
    run(inst, 150, () => {
      expect(w.preferredVelocity.x[fresh]).toBe(0);
      expect(w.preferredVelocity.y[fresh]).toBe(0);
      expect(w.position.x[fresh]).toBeGreaterThan(10);
    });
  });
});
