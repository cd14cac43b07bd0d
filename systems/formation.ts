import { addEntity, removeEntity } from 'bitecs';
import type { CrowdWorld } from '../src/world/crowd';
import { CapacityError, InvalidArgumentError, UnknownEntityError } from '../src/core/errors';
import { requireFinite, requireNonNegative, requirePositive } from '../src/core/validate';
import { requireAgent, requireEntitySlot } from '../src/world/agents';
import { onDespawn } from '../src/world/registry';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';
import { dcos, dsin } from '../src/core/dmath';
import { formationSlots, formationSpacing, slotsRadius, FORMATION_SHAPE_NAMES } from '../src/formation/slots';
import { assignSlots } from '../src/formation/assign';
import { anchorMove, anchorTurn, anchorWaypoint, createAnchorState, type AnchorParams, type AnchorState } from '../src/formation/anchor';
import { formationComponent } from '../components/formation';
import { steeringComponent, STEER_ARRIVE, type SteeringStore } from '../components/steering';
import { lodComponent, LOD_STEER } from '../components/lod';

/** A formation group: a (non-agent) entity whose anchor drives along a path with members on slots around it. */
export interface FormationGroup {
  readonly eid: number;
  shape: number;
  /** Clearance between neighbouring bodies, metres. */
  gap: number;
  /** Slot spacing in use (from the members' radii), metres. */
  spacing: number;
  /** Members in join order; count valid. */
  members: Int32Array;
  count: number;
  /** Local slot offsets [x, y]·count (forward, left), metres. */
  slots: Float64Array;
  readonly anchor: AnchorState;
  readonly params: AnchorParams;
  path: Float64Array;
  pathPoints: number;
  /** Arrive slowing radius given to members, metres. */
  memberSlowingRadius: number;
  /** Shape, membership or radii changed: recompute slots and re-assign before the next move. */
  dirty: boolean;
  /** Total travel of the last assignment, metres (diagnostics). */
  lastAssignmentCost: number;
}

interface FormationWorldState {
  groups: FormationGroup[];
  byEid: Record<number, FormationGroup>;
}

function formationState(world: CrowdWorld): FormationWorldState {
  let s = world.systems.formation as FormationWorldState | undefined;
  if (s === undefined) {
    s = { groups: [], byEid: Object.create(null) };
    world.systems.formation = s;
    onDespawn(world, (w, eid) => {
      const f = formationComponent(w);
      if (f.group[eid] !== 0) removeFormationMember(w, eid);
    });
  }
  return s;
}

function parseShape(shape: string | number): number {
  const idx = typeof shape === 'number' ? shape : FORMATION_SHAPE_NAMES.indexOf(shape);
  if (!Number.isInteger(idx) || idx < 0 || idx >= FORMATION_SHAPE_NAMES.length) {
    throw new InvalidArgumentError('shape', shape, `must be one of ${FORMATION_SHAPE_NAMES.join(', ')}`);
  }
  return idx;
}

/** Options of createFormation. */
export interface FormationOptions {
  /** 'line' | 'column' | 'wedge' | 'box' | 'circle' (or the FORMATION_* id). */
  shape: string | number;
  /** Anchor start position, metres. */
  x: number;
  y: number;
  /** Initial heading, radians (0 = +x). @default 0 */
  heading?: number;
  /** Cruise speed of the anchor, m/s. @default 1 */
  speed?: number;
  /** Turn-rate limit of the whole formation, rad/s. @default 0.5 */
  maxTurnRate?: number;
  /** Clearance between neighbouring bodies, metres. @default 0.3 */
  gap?: number;
  /** Fraction of the slowest member's speed the anchor may use, (0, 1]. @default 0.8 */
  margin?: number;
  /** Arrive slowing radius given to members, metres. @default 1 */
  memberSlowingRadius?: number;
}

/**
 * Create a formation group entity. It is a bitecs entity but not an agent (it has no body and is not in the agent
 * list); it takes one entity id from the world's capacity.
 * @returns the group's entity id.
 */
export function createFormation(world: CrowdWorld, opts: FormationOptions): number {
  if (opts === null || typeof opts !== 'object') throw new InvalidArgumentError('opts', opts, 'must be an object');
  const shape = parseShape(opts.shape);
  const x = requireFinite('opts.x', opts.x), y = requireFinite('opts.y', opts.y);
  const heading = requireFinite('opts.heading', opts.heading ?? 0);
  const speed = requireNonNegative('opts.speed', opts.speed ?? 1);
  const maxTurnRate = requirePositive('opts.maxTurnRate', opts.maxTurnRate ?? 0.5);
  const gap = requireNonNegative('opts.gap', opts.gap ?? 0.3);
  const margin = requirePositive('opts.margin', opts.margin ?? 0.8);
  if (margin > 1) throw new InvalidArgumentError('opts.margin', margin, 'must be at most 1');
  const memberSlowingRadius = requirePositive('opts.memberSlowingRadius', opts.memberSlowingRadius ?? 1);
  requireEntitySlot(world, 'maxAgents');
  const st = formationState(world);
  formationComponent(world);
  const eid = addEntity(world);
  if (eid > world.capacity) {
    removeEntity(world, eid);
    throw new CapacityError('maxAgents', world.capacity, 'no entity id left for a formation group');
  }
  const g: FormationGroup = {
    eid, shape, gap, spacing: 1, members: new Int32Array(8), count: 0, slots: new Float64Array(16),
    anchor: createAnchorState(x, y, dcos(heading), dsin(heading)),
    params: { cruiseSpeed: speed, maxTurnRate, memberMaxSpeed: 0, extent: 0, margin, waypointRadius: 1, arriveGain: 1 },
    path: new Float64Array(0), pathPoints: 0, memberSlowingRadius, dirty: true, lastAssignmentCost: 0,
  };
  st.groups.push(g);
  st.byEid[eid] = g;
  return eid;
}

/** The group object of a formation entity (throws UnknownEntityError for anything else). */
export function getFormation(world: CrowdWorld, group: number): FormationGroup {
  const g = formationState(world).byEid[group];
  if (g === undefined) throw new UnknownEntityError('group', group, 'not a formation group');
  return g;
}

/** Add an agent to a formation (it leaves any previous one). Its steering gets STEER_ARRIVE toward its slot. */
export function addFormationMember(world: CrowdWorld, group: number, eid: number): void {
  const g = getFormation(world, group);
  requireAgent(world, eid);
  const f = formationComponent(world);
  if (f.group[eid] === group) return;
  if (f.group[eid] !== 0) removeFormationMember(world, eid);
  if (g.count === g.members.length) {
    const m = new Int32Array(g.members.length * 2); m.set(g.members); g.members = m;
  }
  g.members[g.count++] = eid;
  f.group[eid] = group;
  f.slot[eid] = -1;
  const s = steeringComponent(world);
  s.behaviours[eid] |= STEER_ARRIVE;
  s.slowingRadius[eid] = g.memberSlowingRadius;
  s.stopRadius[eid] = 0;
  g.dirty = true;
}

/** Remove an agent from its formation (no-op if it has none); its arrive behaviour is cleared. */
export function removeFormationMember(world: CrowdWorld, eid: number): void {
  const f = formationComponent(world);
  const group = f.group[eid];
  if (group === 0) return;
  const g = formationState(world).byEid[group];
  f.group[eid] = 0;
  f.slot[eid] = -1;
  const s = steeringComponent(world);
  s.behaviours[eid] &= ~STEER_ARRIVE;
  s.targetVx[eid] = 0; s.targetVy[eid] = 0;
  if (g === undefined) return;
  // Keep join order (stable iteration): shift the tail down.
  let k = 0;
  for (let i = 0; i < g.count; i++) if (g.members[i] !== eid) g.members[k++] = g.members[i];
  g.count = k;
  g.dirty = true;
}

/** Give the formation a path of waypoints [x0, y0, x1, y1, ...] (metres); the anchor starts driving to the first. */
export function setFormationPath(world: CrowdWorld, group: number, points: ArrayLike<number>): void {
  const g = getFormation(world, group);
  if (points.length % 2 !== 0) throw new InvalidArgumentError('points', points.length, 'length must be even ([x0, y0, x1, y1, ...])');
  const p = new Float64Array(points.length);
  for (let i = 0; i < points.length; i++) p[i] = requireFinite(`points[${i}]`, points[i]);
  g.path = p;
  g.pathPoints = p.length / 2;
  g.anchor.waypoint = 0;
}

/** Change the formation's shape; members are re-assigned to the new slots. */
export function setFormationShape(world: CrowdWorld, group: number, shape: string | number): void {
  const g = getFormation(world, group);
  g.shape = parseShape(shape);
  g.dirty = true;
}

/** Delete a formation group; its members stay as agents without a formation. */
export function destroyFormation(world: CrowdWorld, group: number): void {
  const g = getFormation(world, group);
  while (g.count > 0) removeFormationMember(world, g.members[g.count - 1]);
  const st = formationState(world);
  st.groups.splice(st.groups.indexOf(g), 1);
  delete st.byEid[group];
  removeEntity(world, group);
}

/** World position of member `eid`'s slot, written to out [x, y]; returns its distance from the slot (metres). */
export function formationSlotError(world: CrowdWorld, eid: number, out?: Float64Array): number {
  requireAgent(world, eid);
  const f = formationComponent(world);
  const g = getFormation(world, f.group[eid]);
  if (g.dirty) refreshGroup(world, g);
  const k = f.slot[eid];
  const a = g.anchor;
  const ox = g.slots[2 * k], oy = g.slots[2 * k + 1];
  const sx = a.x + a.hx * ox - a.hy * oy, sy = a.y + a.hy * ox + a.hx * oy;
  if (out) { out[0] = sx; out[1] = sy; }
  return Math.sqrt((world.position.x[eid] - sx) ** 2 + (world.position.y[eid] - sy) ** 2);
}

// Scratch for assignment (membership changes only, but reused).
let _fmMx = new Float64Array(64), _fmMy = new Float64Array(64), _fmSx = new Float64Array(64), _fmSy = new Float64Array(64);
let _fmAssign = new Int32Array(64), _fmRadii = new Float64Array(64);

/** Recompute spacing and slots for the current members, and assign members to slots minimising total travel. */
function refreshGroup(world: CrowdWorld, g: FormationGroup): void {
  const n = g.count;
  if (_fmMx.length < n) {
    const m = n * 2;
    _fmMx = new Float64Array(m); _fmMy = new Float64Array(m); _fmSx = new Float64Array(m); _fmSy = new Float64Array(m);
    _fmAssign = new Int32Array(m); _fmRadii = new Float64Array(m);
  }
  const f = formationComponent(world);
  let vmin = Infinity;
  for (let i = 0; i < n; i++) {
    const e = g.members[i];
    _fmRadii[i] = world.agent.radius[e];
    _fmMx[i] = world.position.x[e]; _fmMy[i] = world.position.y[e];
    if (world.agent.maxSpeed[e] < vmin) vmin = world.agent.maxSpeed[e];
  }
  g.spacing = n > 0 ? formationSpacing(_fmRadii, n, g.gap) : 1;
  if (g.slots.length < 2 * n) g.slots = new Float64Array(4 * n);
  if (n > 0) formationSlots(g.shape, n, g.spacing, g.slots);
  const a = g.anchor;
  for (let j = 0; j < n; j++) {
    const ox = g.slots[2 * j], oy = g.slots[2 * j + 1];
    _fmSx[j] = a.x + a.hx * ox - a.hy * oy; _fmSy[j] = a.y + a.hy * ox + a.hx * oy;
  }
  g.lastAssignmentCost = n > 0 ? assignSlots(_fmMx, _fmMy, _fmSx, _fmSy, n, _fmAssign) : 0;
  for (let i = 0; i < n; i++) f.slot[g.members[i]] = _fmAssign[i];
  g.params.memberMaxSpeed = n > 0 ? vmin : 0;
  g.params.extent = n > 0 ? slotsRadius(g.slots, n) : 0;
  g.params.waypointRadius = Math.max(1, g.spacing);
  g.dirty = false;
}

/**
 * One group's frame: the anchor's speed factor from the worst slot error, the anchor's step, then every member's
 * moving arrive target. Its own function, apart from formationSystem, so that TurboFan optimises it early (its member
 * loops make it hot) and inlines advanceAnchor's pieces into it within the inlining budget: code that runs once per
 * frame and is left in V8's interpreter boxes every double it computes.
 */
function driveGroup(g: FormationGroup, dt: number, slot: Int32Array, s: SteeringStore, lodFlags: Uint8Array, X: Float64Array, Y: Float64Array): void {
  const n = g.count;
  const a = g.anchor;
  // Worst slot error at the current anchor pose → the anchor's speed factor.
  let worst = 0;
  for (let i = 0; i < n; i++) {
    const e = g.members[i], k = slot[e];
    const ox = g.slots[2 * k], oy = g.slots[2 * k + 1];
    const dx = X[e] - (a.x + a.hx * ox - a.hy * oy), dy = Y[e] - (a.y + a.hy * ox + a.hx * oy);
    const d = Math.sqrt(dx * dx + dy * dy);
    if (d > worst) worst = d;
  }
  const lo = 0.5 * g.spacing, hi = 2 * g.spacing;
  const slow = worst <= lo ? 1 : worst >= hi ? 0 : (hi - worst) / (hi - lo);
  // advanceAnchor's three pieces, called here directly (slow is in [0, 1] already): see the note after advanceAnchor.
  const dist = n > 0 && g.pathPoints > 0 ? anchorWaypoint(a, g.path, g.pathPoints, g.params) : -1;
  if (dist >= 0) {
    anchorTurn(a, g.path, g.params, dist, dt);
    anchorMove(a, g.pathPoints, g.params, slow, dt, dist);
  } else if (n === 0 || g.pathPoints === 0) { a.speed = 0; a.omega = 0; }
  const vx = a.hx * a.speed, vy = a.hy * a.speed, w = a.omega;
  for (let i = 0; i < n; i++) {
    const e = g.members[i];
    if ((lodFlags[e] & LOD_STEER) === 0) continue;
    const k = slot[e];
    const ox = g.slots[2 * k], oy = g.slots[2 * k + 1];
    const rx = a.hx * ox - a.hy * oy, ry = a.hy * ox + a.hx * oy;
    s.behaviours[e] |= STEER_ARRIVE; // a member always tracks its slot, even if the game reset its behaviours
    s.targetX[e] = a.x + rx; s.targetY[e] = a.y + ry;
    // Slot velocity of a rigid body: v + ω × r = (vx − ω·ry, vy + ω·rx).
    s.targetVx[e] = vx - w * ry; s.targetVy[e] = vy + w * rx;
  }
}

/**
 * Formation system (runs before steering): per group, re-assign slots if membership/shape changed, slow the anchor
 * while members are far from their slots (it stops when the worst error reaches 2 spacings, full speed below half a
 * spacing), advance the anchor along its path, then give every member its slot position and the slot's velocity
 * (anchor velocity + ω × offset) as a moving arrive target.
 */
export function formationSystem(world: CrowdWorld, dt: number): void {
  requirePositive('dt', dt);
  const st = world.systems.formation as FormationWorldState | undefined;
  if (st === undefined || st.groups.length === 0) return;
  const t0 = nowMs();
  const f = formationComponent(world);
  const s = steeringComponent(world);
  const lodFlags = lodComponent(world).flags;
  const X = world.position.x, Y = world.position.y;
  let members = 0, reassigned = 0;
  for (let gi = 0; gi < st.groups.length; gi++) {
    const g = st.groups[gi];
    if (g.dirty) { refreshGroup(world, g); reassigned++; }
    members += g.count;
    driveGroup(g, dt, f.slot, s, lodFlags, X, Y);
  }
  profileCount(world.profiler, 'formation', 'groups', st.groups.length);
  profileCount(world.profiler, 'formation', 'members', members);
  profileCount(world.profiler, 'formation', 'reassigned', reassigned);
  profileRecord(world.profiler, 'formation', t0);
}
