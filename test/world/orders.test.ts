import { describe, expect, it } from 'vitest';
import {
  createCrowd, spawnAgent, step, setPreferredVelocity, setAgentPosition, agentHasOrder, enableOrca, setOrcaParams,
  configureContacts, gridFromAscii, setNavigationGrid, setAgentGoal, clearAgentGoal, navigationStatus,
  navigationComponent, buildNavmesh, setNavmesh, setNavGoal, clearNavGoal, corridorComponent, setSteering, STEER_SEEK,
  STEER_ARRIVE, STEER_FLEE, STEER_WANDER, STEER_AVOID_WALLS, NAV_ARRIVED, NAV_FOLLOWING, NAV_REPLAN, InvalidArgumentError,
  UnknownEntityError, orcaComponent,
} from '../../src/index';

const DT = 1 / 30;

describe('agentHasOrder', () => {
  it('an agent no system drives: an order exactly when its preferred velocity is not zero', () => {
    const world = createCrowd({ maxAgents: 4 });
    const e = spawnAgent(world, { x: 0, y: 0 });
    expect(agentHasOrder(world, e)).toBe(false);
    setPreferredVelocity(world, e, 0, 1e-9);
    expect(agentHasOrder(world, e)).toBe(true);
    setPreferredVelocity(world, e, 0, 0);
    expect(agentHasOrder(world, e)).toBe(false);
  });

  it('grid navigation: waiting and moving have an order; idle, arrived, unreachable and walking back have none', () => {
    const grid = gridFromAscii(['..........', '....#.....', '..........']);
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    setNavigationGrid(world, grid);
    const e = spawnAgent(world, { x: 0.5, y: 0.5, maxSpeed: 2 });
    expect(agentHasOrder(world, e)).toBe(false); // no grid goal, no velocity
    setAgentGoal(world, e, 9.5, 0.5);
    expect(navigationStatus(world, e)).toBe('waiting-for-path');
    expect(agentHasOrder(world, e)).toBe(true);
    step(world, DT);
    expect(navigationStatus(world, e)).toBe('moving');
    expect(agentHasOrder(world, e)).toBe(true);
    for (let f = 0; f < 600 && navigationStatus(world, e) !== 'arrived'; f++) step(world, DT);
    expect(navigationStatus(world, e)).toBe('arrived');
    expect(agentHasOrder(world, e)).toBe(false);
    // Pushed 3 m off (beyond the hold distance, 2 × arriveRadius = 0.5 m): it walks back, as a returning agent.
    setAgentPosition(world, e, 6.5, 0.5);
    step(world, DT);
    expect(navigationStatus(world, e)).not.toBe('arrived');
    expect(navigationComponent(world).returning[e]).toBe(1);
    expect(agentHasOrder(world, e)).toBe(false);
    for (let f = 0; f < 600 && navigationStatus(world, e) !== 'arrived'; f++) step(world, DT);
    expect(navigationStatus(world, e)).toBe('arrived');
    expect(navigationComponent(world).returning[e]).toBe(0);
    // A new order while walking back is an order again.
    setAgentPosition(world, e, 6.5, 0.5);
    step(world, DT);
    expect(navigationComponent(world).returning[e]).toBe(1);
    setAgentGoal(world, e, 0.5, 2.5);
    expect(navigationComponent(world).returning[e]).toBe(0);
    expect(agentHasOrder(world, e)).toBe(true);
    setAgentGoal(world, e, 4.5, 1.5); // a blocked cell
    step(world, DT);
    expect(navigationStatus(world, e)).toBe('unreachable');
    expect(agentHasOrder(world, e)).toBe(false);
    clearAgentGoal(world, e);
    expect(agentHasOrder(world, e)).toBe(false);
  });

  it('navmesh: following and waiting for a re-plan have an order; arrived and walking back have none', () => {
    type P = [number, number];
    const world = createCrowd({ maxAgents: 4, seed: 1 });
    setNavmesh(world, buildNavmesh({ boundary: [[0, 0], [20, 0], [20, 10], [0, 10]] as P[] }, { radius: 0.5 }));
    const c = corridorComponent(world);
    const e = spawnAgent(world, { x: 2, y: 5, radius: 0.5, maxSpeed: 2 });
    expect(setNavGoal(world, e, 10, 5)).toBe('found');
    expect(agentHasOrder(world, e)).toBe(true);
    for (let f = 0; f < 600 && c.state[e] !== NAV_ARRIVED; f++) step(world, DT);
    expect(c.state[e]).toBe(NAV_ARRIVED);
    expect(agentHasOrder(world, e)).toBe(false);
    setAgentPosition(world, e, 14, 5); // 4 m off: re-planned back
    step(world, DT);
    expect(c.returning[e]).toBe(1);
    expect(c.state[e] === NAV_REPLAN || c.state[e] === NAV_FOLLOWING).toBe(true);
    expect(agentHasOrder(world, e)).toBe(false);
    for (let f = 0; f < 600 && c.state[e] !== NAV_ARRIVED; f++) step(world, DT);
    expect(c.state[e]).toBe(NAV_ARRIVED);
    expect(c.returning[e]).toBe(0);
    expect(setNavGoal(world, e, 4, 5)).toBe('found');
    expect(agentHasOrder(world, e)).toBe(true);
    clearNavGoal(world, e);
    expect(agentHasOrder(world, e)).toBe(false);
  });

  it('steering: seek and wander are orders; arrive is one toward a moving target or beyond its slowing radius; flee and wall avoidance are not', () => {
    const world = createCrowd({ maxAgents: 4 });
    const e = spawnAgent(world, { x: 0, y: 0 });
    setSteering(world, e, { behaviours: STEER_SEEK, target: { x: 10, y: 0 } });
    expect(agentHasOrder(world, e)).toBe(true);
    setSteering(world, e, { behaviours: STEER_WANDER });
    expect(agentHasOrder(world, e)).toBe(true);
    // arrive at a still target, slowing radius 2 m: an order at 3 m, none within 2 m (settling on it)
    setSteering(world, e, { behaviours: STEER_ARRIVE, target: { x: 3, y: 0 }, slowingRadius: 2 });
    expect(agentHasOrder(world, e)).toBe(true);
    setSteering(world, e, { target: { x: 1.5, y: 0 } });
    expect(agentHasOrder(world, e)).toBe(false);
    setPreferredVelocity(world, e, 1, 0); // the velocity does not matter when arrive drives it
    expect(agentHasOrder(world, e)).toBe(false);
    setSteering(world, e, { targetVelocity: { x: 0.5, y: 0 } }); // a moving slot (a formation under way)
    expect(agentHasOrder(world, e)).toBe(true);
    // reactions and filters alone: the preferred velocity decides
    setSteering(world, e, { behaviours: STEER_FLEE | STEER_AVOID_WALLS, threat: { x: 1, y: 0 } });
    setPreferredVelocity(world, e, 0, 0);
    expect(agentHasOrder(world, e)).toBe(false);
    setPreferredVelocity(world, e, -2, 0);
    expect(agentHasOrder(world, e)).toBe(true);
    setSteering(world, e, { behaviours: 0, panic: true });
    setPreferredVelocity(world, e, 0, 0);
    expect(agentHasOrder(world, e)).toBe(true);
  });

  it('names the entity it does not know', () => {
    const world = createCrowd({ maxAgents: 2 });
    expect(() => agentHasOrder(world, 7)).toThrow(UnknownEntityError);
  });
});

describe('yield options', () => {
  it('yieldWhenIdle: a boolean, default true; a bad value throws naming the field and changes nothing', () => {
    const world = createCrowd({ maxAgents: 2 });
    const e = spawnAgent(world, { x: 0, y: 0 });
    const orca = orcaComponent(world);
    expect(orca.yieldWhenIdle[e]).toBe(1);
    enableOrca(world, e, { yieldWhenIdle: false, timeHorizon: 3 });
    expect(orca.yieldWhenIdle[e]).toBe(0);
    let err: unknown;
    try { setOrcaParams(world, e, { timeHorizon: 4, yieldWhenIdle: 1 as unknown as boolean }); } catch (x) { err = x; }
    expect(err).toBeInstanceOf(InvalidArgumentError);
    expect((err as InvalidArgumentError).field).toBe('params.yieldWhenIdle');
    expect(orca.timeHorizon[e]).toBe(3);
    setOrcaParams(world, e, { yieldWhenIdle: true });
    expect(orca.yieldWhenIdle[e]).toBe(1);
  });

  it('contacts yieldShare: in [0.5, 1), else an error naming the field', () => {
    const world = createCrowd({ maxAgents: 2 });
    for (const bad of [0.4, 1, NaN, Infinity]) {
      let err: unknown;
      try { configureContacts(world, { yieldShare: bad }); } catch (x) { err = x; }
      expect(err, String(bad)).toBeInstanceOf(InvalidArgumentError);
      expect((err as InvalidArgumentError).field).toBe('options.yieldShare');
    }
    configureContacts(world, { yieldShare: 0.5 });
    configureContacts(world, { yieldShare: 0.9 });
  });
});

describe('contacts: idle agents yield', () => {
  /** A mover walking into an idle agent in a straight line, contacts only (no ORCA): how far the idle one is shoved. */
  function shove(share: number | undefined, yieldWhenIdle: boolean): { mover: number; idle: number } {
    const world = createCrowd({ maxAgents: 4 });
    if (share !== undefined) configureContacts(world, { yieldShare: share });
    const m = spawnAgent(world, { x: 0, y: 0, radius: 0.5, maxSpeed: 1, maxAccel: Infinity });
    const i = spawnAgent(world, { x: 1, y: 0, radius: 0.5 });
    setOrcaParams(world, i, { yieldWhenIdle });
    for (let f = 0; f < 60; f++) { setPreferredVelocity(world, m, 1, 0); step(world, 0.05); }
    return { mover: world.position.x[m], idle: world.position.x[i] - 1 };
  }
  it('with equal masses the idle one takes yieldShare of each overlap: the mover keeps that fraction of its speed; 0.5 or yieldWhenIdle false: half, as before', () => {
    // 3 s at 1 m/s: the mover covers 3 m alone; against the idle body each step's overlap of 5 cm is split.
    for (const [share, frac] of [[undefined, 0.75], [0.9, 0.9], [0.5, 0.5]] as const) {
      const r = shove(share, true);
      expect(r.mover, `share ${share}`).toBeCloseTo(3 * frac, 2);
      expect(r.idle, `share ${share}`).toBeCloseTo(3 * frac, 2);
    }
    const held = shove(undefined, false);
    expect(held.mover).toBeCloseTo(1.5, 2);
  });
});
