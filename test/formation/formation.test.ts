import { describe, expect, it } from 'vitest';
import { createCrowd, type CrowdWorld } from '../../src/world/crowd';
import { despawnAgent, spawnAgent } from '../../src/world/agents';
import { step } from '../../src/world/step';
import {
  addFormationMember, createFormation, destroyFormation, formationSlotError, getFormation, setFormationPath, setFormationShape,
} from '../../systems/formation';
import { formationComponent } from '../../components/formation';
import { InvalidArgumentError, UnknownEntityError } from '../../src/core/errors';
import { createRng, rngFloat } from '../../src/core/rng';

const R = 0.5; // member radius

function squad(n: number, shape: string, seed = 1): { world: CrowdWorld; group: number; members: number[] } {
  const world = createCrowd({ maxAgents: 64, seed });
  world.enabled.orca = false;
  const group = createFormation(world, { shape, x: 0, y: 0, speed: 1 });
  const rng = createRng(seed);
  const members: number[] = [];
  for (let i = 0; i < n; i++) {
    // Scattered around the start, roughly where a squad would stand.
    const e = spawnAgent(world, { x: -2 + 4 * rngFloat(rng), y: -14 + 28 * rngFloat(rng), radius: R, maxSpeed: 2 });
    addFormationMember(world, group, e);
    members.push(e);
  }
  return { world, group, members };
}

function maxError(world: CrowdWorld, members: number[]): number {
  let m = 0;
  for (const e of members) m = Math.max(m, formationSlotError(world, e));
  return m;
}

describe('formationSystem', () => {
  it('a line of 20 moving straight holds slot error < half a radius; after losing 5 it re-fills within 3 s', () => {
    const { world, group, members } = squad(20, 'line');
    const dt = 1 / 60;
    // Gather: the anchor waits (no path yet) until everyone is on a slot.
    for (let k = 0; k < 60 * 20 && maxError(world, members) > 0.05; k++) step(world, dt);
    expect(maxError(world, members)).toBeLessThan(0.05);
    setFormationPath(world, group, [200, 0]);
    // 15 s straight at cruise speed (after a 2 s speed-up transient): slot error stays under R/2.
    for (let k = 0; k < 2 * 60; k++) step(world, dt);
    let worst = 0;
    for (let k = 0; k < 15 * 60; k++) { step(world, dt); worst = Math.max(worst, maxError(world, members)); }
    expect(worst).toBeLessThan(R / 2);
    expect(getFormation(world, group).anchor.speed).toBeGreaterThan(0.9); // really moving (cruise 1 m/s)
    // Lose 5 members spread along the line.
    const lost = [members[2], members[6], members[10], members[14], members[18]];
    for (const e of lost) despawnAgent(world, e);
    const rest = members.filter((e) => !lost.includes(e));
    expect(getFormation(world, group).count).toBe(15);
    let t = 0;
    step(world, dt); t += dt; // re-assignment happens in this step
    while (maxError(world, rest) >= R / 2 && t < 10) { step(world, dt); t += dt; }
    expect(maxError(world, rest)).toBeLessThan(R / 2);
    expect(t).toBeLessThanOrEqual(3);
  });

  it('turns 90° without breaking: slot error stays below half a spacing and members keep their slots', () => {
    const { world, group, members } = squad(12, 'box', 2);
    const dt = 1 / 60;
    for (let k = 0; k < 60 * 20 && maxError(world, members) > 0.05; k++) step(world, dt);
    setFormationPath(world, group, [20, 0, 20, 40]);
    const f = formationComponent(world);
    const slots0 = members.map((e) => f.slot[e]);
    const spacing = getFormation(world, group).spacing;
    let worst = 0, turned = false;
    for (let k = 0; k < 60 * 90; k++) {
      step(world, dt);
      worst = Math.max(worst, maxError(world, members));
      const a = getFormation(world, group).anchor;
      if (a.hy > 0.99) turned = true;
    }
    expect(turned).toBe(true);
    expect(worst).toBeLessThan(spacing / 2);
    expect(members.map((e) => f.slot[e])).toEqual(slots0); // no re-shuffle: the formation did not break
    // Arrived: the anchor stopped at the last waypoint and members sit on their slots.
    const a = getFormation(world, group).anchor;
    expect(Math.hypot(a.x - 20, a.y - 40)).toBeLessThan(0.1);
    expect(maxError(world, members)).toBeLessThan(0.05);
  });

  it('re-assigns when a member joins, and when the shape changes', () => {
    const { world, group, members } = squad(6, 'wedge', 3);
    for (let k = 0; k < 600; k++) step(world, 1 / 60);
    const e = spawnAgent(world, { x: 5, y: 5, radius: R, maxSpeed: 2 });
    addFormationMember(world, group, e);
    setFormationShape(world, group, 'circle');
    const all = [...members, e];
    for (let k = 0; k < 600; k++) step(world, 1 / 60);
    expect(maxError(world, all)).toBeLessThan(0.05);
    const slots = all.map((m) => formationComponent(world).slot[m]).sort((a, b) => a - b);
    expect(slots).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  it('rejects bad input with typed errors; destroy releases the members', () => {
    const world = createCrowd({ maxAgents: 8 });
    expect(() => createFormation(world, { shape: 'blob', x: 0, y: 0 })).toThrow(InvalidArgumentError);
    expect(() => createFormation(world, { shape: 'line', x: NaN, y: 0 })).toThrow(/opts.x/);
    const g = createFormation(world, { shape: 'line', x: 0, y: 0 });
    const e = spawnAgent(world, { x: 0, y: 0 });
    expect(() => addFormationMember(world, 999, e)).toThrow(UnknownEntityError);
    expect(() => addFormationMember(world, g, 999)).toThrow(UnknownEntityError);
    expect(() => setFormationPath(world, g, [1, 2, 3])).toThrow(/points/);
    addFormationMember(world, g, e);
    destroyFormation(world, g);
    expect(formationComponent(world).group[e]).toBe(0);
    expect(() => getFormation(world, g)).toThrow(UnknownEntityError);
  });
});
