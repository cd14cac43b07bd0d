/**
 * Systems run on their own (the guide: "profile each system alone") must not trust a spatial hash built for another
 * set of agents. Before 2026-11-30 boids and ORCA walked `hash.sortedIds` as the live agents whenever the hash held
 * as many entries as there are agents. A despawn, then a formation group taking the recycled id, then a spawn keeps
 * that count while changing the set: the new agent was skipped by ORCA, and boids read another agent's slot for it.
 *
 * Oracle: the same world with one extra agent far away (not in the hash, no boids or ORCA of its own, nobody's
 * neighbour). Its count differs from the hash's, so that world takes the dense-order path; both systems are
 * order-independent (compute, then apply), so every original agent must get bit-identical results in both worlds.
 */
import { describe, expect, it } from 'vitest';
import { createCrowd, type CrowdWorld } from '../../src/world/crowd';
import { despawnAgent, spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import { createRng, rngFloat } from '../../src/core/rng';
import { boidsSystem, setBoids } from '../../systems/boids';
import { orcaSystem } from '../../systems/orca';
import { enableOrca } from '../../components/orca';
import { createFormation } from '../../systems/formation';
import { hashHoldsLiveAgents, spatialHashSystem } from '../../systems/spatial-hash';
import { rebuildSpatialHash } from '../../src/spatial/hash';
import { restore, snapshot } from '../../src/reliability/snapshot';

const DT = 1 / 30;

function build(extra: boolean): { world: CrowdWorld; fresh: number } {
  const world = createCrowd({ maxAgents: 200, seed: 5, cellSize: 2, neighbourRadius: 2 });
  const rng = createRng(17);
  const ids: number[] = [];
  for (let i = 0; i < 120; i++) {
    const eid = spawnAgent(world, { x: rngFloat(rng) * 20, y: rngFloat(rng) * 20, vx: rngFloat(rng) - 0.5, vy: rngFloat(rng) - 0.5, radius: 0.3, maxSpeed: 1.5 });
    setBoids(world, eid, { mode: 'topological', k: 7, separation: 1, alignment: 0.5, cohesion: 0.2 });
    enableOrca(world, eid, { neighbourDistance: 3, maxNeighbours: 8 });
    ids.push(eid);
  }
  for (let s = 0; s < 3; s++) step(world, DT);
  spatialHashSystem(world); // the hash holds the current positions: only the membership goes stale below
  // Membership changes after the hash was built: same count, different set.
  despawnAgent(world, ids[10]);
  createFormation(world, { shape: 'line', x: 0, y: 0 }); // takes the recycled id
  const fresh = spawnAgent(world, { x: 10.2, y: 9.7, vx: 0.4, vy: 0, radius: 0.3, maxSpeed: 1.5 });
  setBoids(world, fresh, { mode: 'topological', k: 7, separation: 1, alignment: 0.5, cohesion: 0.2 });
  enableOrca(world, fresh, { neighbourDistance: 3, maxNeighbours: 8 });
  if (extra) spawnAgent(world, { x: 5000, y: 5000, radius: 0.3 });
  return { world, fresh };
}

describe('systems run alone on a stale spatial hash', () => {
  it('boids and ORCA give every live agent the result of the dense-order path (oracle: a world whose count differs)', () => {
    const a = build(false), b = build(true);
    expect(a.fresh).toBe(b.fresh);
    expect(a.world.hash.count).toBe(a.world.agents.count); // the case that used to take the slot path
    for (const sys of [boidsSystem, orcaSystem]) {
      sys(a.world, DT);
      sys(b.world, DT);
      const wa = a.world, wb = b.world;
      for (let i = 0; i < wa.agents.count; i++) {
        const e = wa.agents.dense[i];
        expect([e, wa.preferredVelocity.x[e], wa.preferredVelocity.y[e], wa.desiredVelocity.x[e], wa.desiredVelocity.y[e]])
          .toEqual([e, wb.preferredVelocity.x[e], wb.preferredVelocity.y[e], wb.desiredVelocity.x[e], wb.desiredVelocity.y[e]]);
      }
    }
  });
});

describe('hashHoldsLiveAgents', () => {
  it('is true right after spatialHashSystem and false after any spawn or despawn, or a direct rebuild', () => {
    const { world } = build(false);
    expect(hashHoldsLiveAgents(world)).toBe(false); // membership changed after the rebuild
    spatialHashSystem(world);
    expect(hashHoldsLiveAgents(world)).toBe(true);
    const e = spawnAgent(world, { x: 1, y: 1 });
    expect(hashHoldsLiveAgents(world)).toBe(false);
    spatialHashSystem(world);
    despawnAgent(world, e);
    expect(hashHoldsLiveAgents(world)).toBe(false);
    spatialHashSystem(world);
    rebuildSpatialHash(world.hash, world.position.x, world.position.y, world.agents.dense, world.agents.count);
    expect(hashHoldsLiveAgents(world)).toBe(false); // contents unknown to the world
  });

  it('survives a snapshot: a restored world knows whether its restored hash holds its agents', () => {
    const { world } = build(false);
    spatialHashSystem(world);
    const copy = createCrowd({ maxAgents: 200, seed: 5, cellSize: 2, neighbourRadius: 2 });
    restore(copy, snapshot(world));
    expect(hashHoldsLiveAgents(copy)).toBe(true);
    despawnAgent(world, world.agents.dense[4]);
    restore(copy, snapshot(world));
    expect(hashHoldsLiveAgents(copy)).toBe(false);
  });
});
