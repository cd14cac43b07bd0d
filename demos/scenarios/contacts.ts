/**
 * Contacts: a dense crowd (discs, with every fifth agent a box) shoved east into a funnel of static walls with a
 * gap, plus a pillar and a hexagon in the way. No avoidance: bodies are kept apart only by the contacts system
 * (narrow phase circle-circle inline, GJK/EPA/clipping for boxes and walls; Jacobi positional resolution; walls
 * immovable). Agents that pass the gap walk on and re-enter from the west, so the pressure never stops.
 * Agents despawned from outside leave the pushed list before their ids can be recycled (agent-list.ts), so a new
 * agent that gets such an id is not pushed.
 */
import { createCrowd } from '../../src/world/crowd';
import { spawnAgent, setAgentPosition } from '../../src/world/agents';
import { onDespawn } from '../../src/world/registry';
import { step } from '../../src/world/step';
import { rngFloat, rngRange } from '../../src/core/rng';
import { dcos, dsin } from '../../src/core/dmath';
import { boxShape2, circleShape, polygonShape, type Shape2 } from '../../src/collision/shapes2d';
import { addStaticShape, getContacts } from '../../systems/contacts';
import { setAgentShape } from '../../components/shape';
import { registerScenario, type DrawnObstacle, type ScenarioInstance, type ScenarioOptions } from './registry';
import { addToList, createAgentList, removeFromList } from './agent-list';

export interface ContactsInstance extends ScenarioInstance {
  /** Push speed toward the gap, m/s. */
  push: { speed: number };
  /** Contacts in the last step, and the deepest penetration, metres. */
  stats(): { contacts: number; deepest: number };
}

/** World outline of a static shape for drawing (circles as 24-gons; rounding ignored). */
export function shapeOutline(shape: Shape2, x: number, y: number, angle: number): number[] {
  const out: number[] = [];
  if (shape.kind === 'circle') {
    for (let k = 0; k < 24; k++) out.push(x + shape.radius * dcos((2 * Math.PI * k) / 24), y + shape.radius * dsin((2 * Math.PI * k) / 24));
    return out;
  }
  const c = dcos(angle), s = dsin(angle);
  for (let i = 0; i < shape.count; i++) {
    const vx = shape.verts[2 * i], vy = shape.verts[2 * i + 1];
    out.push(x + c * vx - s * vy, y + s * vx + c * vy);
  }
  return out;
}

export function createContacts({ agents, seed }: ScenarioOptions): ContactsInstance {
  const world = createCrowd({ maxAgents: Math.max(1, agents), seed, neighbourRadius: 1.2 });
  const obstacles: DrawnObstacle[] = [];
  const addStatic = (shape: Shape2, x: number, y: number, angle: number): void => {
    addStaticShape(world, shape, x, y, angle);
    obstacles.push({ points: shapeOutline(shape, x, y, angle), closed: true });
  };
  // Funnel: two walls at ±35° closing to a 2.4 m gap at x = 0.
  const wall = boxShape2(9, 0.4);
  const a = (35 * Math.PI) / 180;
  addStatic(wall, -9 * dcos(a) - 0.1, 1.2 + 0.4 + 9 * dsin(a), -a);
  addStatic(wall, -9 * dcos(a) - 0.1, -1.2 - 0.4 - 9 * dsin(a), a);
  addStatic(circleShape(1.2), -12, 2.5, 0);
  const hex: number[] = [];
  for (let k = 0; k < 6; k++) hex.push(1.3 * dcos((Math.PI * k) / 3), 1.3 * dsin((Math.PI * k) / 3));
  addStatic(polygonShape(hex), -14, -3.5, 0.3);

  const box = boxShape2(0.35, 0.22);
  const spawnX0 = -26, spawnX1 = -10;
  const eids = createAgentList(world, agents);
  onDespawn(world, (_w, eid) => { removeFromList(eids, eid); });
  const rng = world.rng;
  const placeRandom = (e: number): void => {
    setAgentPosition(world, e, rngRange(rng, spawnX0 - 6, spawnX0), rngRange(rng, -8, 8));
  };
  /** A pushed body (every fifth a box) between x0 and x1 in the west. */
  const spawnBody = (i: number, x0: number, x1: number): number => {
    const e = spawnAgent(world, { x: rngRange(rng, x0, x1), y: rngRange(rng, -8, 8), radius: 0.3, maxSpeed: 2.5, maxAccel: 10 });
    if (i % 5 === 4) setAgentShape(world, e, box, rngFloat(rng) * Math.PI);
    addToList(eids, e);
    return e;
  };
  for (let i = 0; i < agents; i++) spawnBody(i, spawnX0, spawnX1 - 4);
  let spawned = agents;
  const push = { speed: 1.6 };
  return {
    world,
    dt: 1 / 30,
    bounds: { minX: -34, minY: -14, maxX: 12, maxY: 14 },
    obstacles,
    push,
    stats() {
      const c = getContacts(world);
      let deepest = 0;
      for (let i = 0; i < c.count; i++) if (c.depth[i] > deepest) deepest = c.depth[i];
      return { contacts: c.count, deepest };
    },
    tick() {
      const px = world.position.x, py = world.position.y;
      const ids = eids.ids;
      for (let i = 0; i < eids.count; i++) {
        const e = ids[i];
        if (px[e] > 10) { placeRandom(e); continue; }
        // Head for the gap (0, 0) while west of it, then straight east.
        let dx = px[e] < 0 ? -px[e] : 1, dy = px[e] < 0 ? -py[e] : 0;
        const d = Math.sqrt(dx * dx + dy * dy) || 1;
        dx /= d; dy /= d;
        world.preferredVelocity.x[e] = dx * push.speed;
        world.preferredVelocity.y[e] = dy * push.speed;
      }
      step(world, 1 / 30);
    },
    spawnOwn() {
      // a newcomer enters from the west edge, where the bodies that passed the gap re-enter
      return eids.count < eids.ids.length ? spawnBody(spawned++, spawnX0 - 6, spawnX0) : 0;
    },
    status() {
      const s = this.stats!();
      return `${s.contacts} contacts, deepest ${(100 * s.deepest).toFixed(1)} cm before resolution`;
    },
  } as ContactsInstance;
}

export const contactsScenario = registerScenario({
  name: 'contacts',
  description: 'a dense crowd of discs and boxes shoved into a walled funnel; contacts only, no avoidance',
  defaultAgents: 500,
  create: createContacts,
});
