/**
 * Contacts system, last in the frame: finds every touching pair (agent–agent and agent–static shape), writes their
 * manifolds into a flat SoA contact buffer users can read, and pushes overlapping agents apart.
 *
 * Passes:
 *  1. Bounds: each agent's bounding radius (its shape's, or agent.radius for the default circle) and the largest
 *     displacement since the spatial hash was built (positions moved during integration; queries are padded by it).
 *  2. Broad phase: agent pairs from `world.hash` (each pair once, smaller entity id first), agent × static shapes
 *     from a uniform grid over the static shapes, rebuilt only when they change (counting sort into flat arrays).
 *  3. Narrow phase: circle–circle inline (the common case), anything else through contactManifold2 (GJK/EPA and
 *     clipping). Contacts go to the buffer in a deterministic order (dense agent order, then hash order).
 *  4. Positional resolution (position-based, Müller et al. 2007 "Position Based Dynamics", with the Jacobi
 *     averaging of Macklin et al. 2014 "Unified Particle Physics", section 4.2): `iterations` passes, each computing
 *     every contact's correction (depth − slop, split by inverse mass along the fixed normal) for all agents before
 *     applying the per-agent averages, so the result does not depend on the contact order. Depths are updated
 *     linearly from the applied moves between passes.
 *  5. Walls: static shapes are immovable. A final sequential projection takes every agent that was in a contact
 *     this frame, re-runs its narrow phase against the static shapes around its new position and moves it fully
 *     out (twice, for corners), removing the velocity component into the wall; so no agent stays inside a wall by
 *     more than `slop` unless two walls are closer together than the agent is wide. (An agent pushed into a wall
 *     it was not touching is caught too, since it was in an agent contact.)
 *
 * The buffer holds the contacts found in step 3 (before resolution): pairs, normal, depth and up to two points.
 */
import type { CrowdWorld } from '../src/world/crowd';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';
import { queryRadius } from '../src/spatial/hash';
import { requireInteger, requireNonNegative, requireFinite } from '../src/core/validate';
import { InvalidArgumentError } from '../src/core/errors';
import { dcos, dsin } from '../src/core/dmath';
import { agentShapeComponent, agentShapeTable } from '../components/shape';
import { circleShape } from '../src/collision/shapes2d';
import type { Shape2 } from '../src/collision/shapes2d';
import { contactManifold2, createManifold2, createManifold2Input } from '../src/collision/manifold2d';

/** The flat contact buffer (structure of arrays, `capacity` slots, first `count` valid). */
export interface ContactBuffer {
  readonly capacity: number;
  /** Contacts written this frame. */
  count: number;
  /** Contacts dropped this frame because the buffer was full. */
  overflow: number;
  /** Entity id of A (always an agent). */
  readonly a: Int32Array;
  /** Entity id of B, or −1 − k for static shape k. */
  readonly b: Int32Array;
  /** Unit normal from A to B. */
  readonly nx: Float64Array;
  readonly ny: Float64Array;
  /** Penetration depth, metres (> 0 overlapping). */
  readonly depth: Float64Array;
  /** 1 or 2 contact points. */
  readonly pointCount: Uint8Array;
  /** Points (midway between the surfaces) and their depths; slot 1 valid when pointCount = 2. */
  readonly px0: Float64Array;
  readonly py0: Float64Array;
  readonly px1: Float64Array;
  readonly py1: Float64Array;
  readonly depth0: Float64Array;
  readonly depth1: Float64Array;
  /** Feature ids of the points (stable while the same features touch). */
  readonly id0: Float64Array;
  readonly id1: Float64Array;
}

export interface ContactsOptions {
  /**
   * Most contacts stored per frame (further ones are counted in `overflow`, not resolved). Unset: automatic, at
   * least 1024 and 3 per live agent, doubled at the start of a frame after a frame that overflowed (a reallocation
   * only when the crowd grows, never in steady state). Set: fixed.
   */
  capacity?: number;
  /** Jacobi resolution passes. 0 = detect only. @default 4 */
  iterations?: number;
  /** Penetration left unresolved, metres (avoids jitter). @default 0.001 */
  slop?: number;
  /** Pairs closer than this report speculative contacts (negative depth, not resolved), metres. @default 0 */
  margin?: number;
}

interface ContactsState {
  buffer: ContactBuffer;
  autoCapacity: boolean;
  iterations: number;
  slop: number;
  margin: number;
  // static shapes
  statics: Shape2[];
  staticPose: Float64Array[]; // Pose2 per static
  staticMinX: number[]; staticMinY: number[]; staticMaxX: number[]; staticMaxY: number[];
  gridDirty: boolean;
  grid: { x0: number; y0: number; cs: number; nx: number; ny: number; start: Int32Array; items: Int32Array };
  stamp: Int32Array;
  stampValue: number;
  agentStamp: Int32Array;
  agentStampValue: number;
  // per-agent scratch (indexed by eid)
  bound: Float64Array;
  accX: Float64Array; accY: Float64Array; accN: Int32Array;
  depthCur: Float64Array;
}

function createBuffer(capacity: number): ContactBuffer {
  const f = () => new Float64Array(capacity);
  return {
    capacity, count: 0, overflow: 0, a: new Int32Array(capacity), b: new Int32Array(capacity), nx: f(), ny: f(), depth: f(),
    pointCount: new Uint8Array(capacity), px0: f(), py0: f(), px1: f(), py1: f(), depth0: f(), depth1: f(), id0: f(), id1: f(),
  };
}

function contactsState(world: CrowdWorld): ContactsState {
  let st = world.systems.contacts as ContactsState | undefined;
  if (!st) {
    const cap = 1024;
    const n = world.capacity + 1;
    st = {
      buffer: createBuffer(cap), autoCapacity: true, iterations: 4, slop: 0.001, margin: 0,
      statics: [], staticPose: [], staticMinX: [], staticMinY: [], staticMaxX: [], staticMaxY: [], gridDirty: false,
      grid: { x0: 0, y0: 0, cs: 1, nx: 0, ny: 0, start: new Int32Array(1), items: new Int32Array(0) },
      stamp: new Int32Array(0), stampValue: 0, agentStamp: new Int32Array(n), agentStampValue: 0,
      bound: new Float64Array(n), accX: new Float64Array(n), accY: new Float64Array(n), accN: new Int32Array(n),
      depthCur: new Float64Array(cap),
    };
    (world.systems as Record<string, unknown>).contacts = st;
  }
  return st;
}

/** Configure the contacts system (any subset of the options). Resizing the capacity reallocates the buffer. */
export function configureContacts(world: CrowdWorld, options: ContactsOptions): void {
  if (options === null || typeof options !== 'object') throw new InvalidArgumentError('options', options, 'must be an object');
  const st = contactsState(world);
  if (options.capacity !== undefined) {
    const cap = requireInteger('options.capacity', options.capacity, 1, 1 << 26);
    st.buffer = createBuffer(cap);
    st.depthCur = new Float64Array(cap);
    st.autoCapacity = false;
  }
  if (options.iterations !== undefined) st.iterations = requireInteger('options.iterations', options.iterations, 0, 100);
  if (options.slop !== undefined) st.slop = requireNonNegative('options.slop', options.slop);
  if (options.margin !== undefined) st.margin = requireNonNegative('options.margin', options.margin);
}

/** The contact buffer written by the last contactsSystem run (read-only for users; reused every frame). */
export function getContacts(world: CrowdWorld): ContactBuffer {
  return contactsState(world).buffer;
}

/**
 * Add an immovable convex shape (a wall, a pillar) at (x, y) rotated by `angle` radians; returns its index k
 * (contacts against it have b = −1 − k). Non-convex obstacles are built from several convex pieces.
 */
export function addStaticShape(world: CrowdWorld, shape: Shape2, x: number, y: number, angle = 0): number {
  if (shape === null || typeof shape !== 'object' || (shape.kind !== 'circle' && shape.kind !== 'polygon')) {
    throw new InvalidArgumentError('shape', shape, 'must be a Shape2 from circleShape, polygonShape or boxShape2');
  }
  requireFinite('x', x); requireFinite('y', y); requireFinite('angle', angle);
  const st = contactsState(world);
  const c = dcos(angle), s = dsin(angle);
  const pose = new Float64Array([x, y, c, s]);
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < shape.count; i++) {
    const vx = shape.verts[2 * i], vy = shape.verts[2 * i + 1];
    const wx = x + c * vx - s * vy, wy = y + s * vx + c * vy;
    minX = Math.min(minX, wx); maxX = Math.max(maxX, wx); minY = Math.min(minY, wy); maxY = Math.max(maxY, wy);
  }
  const r = shape.radius;
  st.statics.push(shape); st.staticPose.push(pose);
  st.staticMinX.push(minX - r); st.staticMinY.push(minY - r); st.staticMaxX.push(maxX + r); st.staticMaxY.push(maxY + r);
  st.gridDirty = true;
  return st.statics.length - 1;
}

/** Remove every static shape. */
export function clearStaticShapes(world: CrowdWorld): void {
  const st = contactsState(world);
  st.statics.length = 0; st.staticPose.length = 0;
  st.staticMinX.length = 0; st.staticMinY.length = 0; st.staticMaxX.length = 0; st.staticMaxY.length = 0;
  st.gridDirty = true;
}

/** Number of static shapes. */
export function staticShapeCount(world: CrowdWorld): number {
  return contactsState(world).statics.length;
}

/** Uniform grid over the static shapes' bounding boxes (counting sort of (cell, shape) entries). */
function buildStaticGrid(st: ContactsState, cellSize: number): void {
  const n = st.statics.length;
  st.gridDirty = false;
  st.stamp = new Int32Array(n);
  if (n === 0) { st.grid.nx = 0; st.grid.ny = 0; return; }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let k = 0; k < n; k++) { x0 = Math.min(x0, st.staticMinX[k]); y0 = Math.min(y0, st.staticMinY[k]); x1 = Math.max(x1, st.staticMaxX[k]); y1 = Math.max(y1, st.staticMaxY[k]); }
  // cell size: the world's, enlarged so the grid has at most 512 × 512 cells
  const cs = Math.max(cellSize, (x1 - x0) / 512, (y1 - y0) / 512, 1e-6);
  const gx = Math.max(1, Math.ceil((x1 - x0) / cs)), gy = Math.max(1, Math.ceil((y1 - y0) / cs));
  const start = new Int32Array(gx * gy + 1);
  const cellRange = (k: number): [number, number, number, number] => [
    Math.min(gx - 1, Math.floor((st.staticMinX[k] - x0) / cs)), Math.min(gy - 1, Math.floor((st.staticMinY[k] - y0) / cs)),
    Math.min(gx - 1, Math.floor((st.staticMaxX[k] - x0) / cs)), Math.min(gy - 1, Math.floor((st.staticMaxY[k] - y0) / cs)),
  ];
  for (let k = 0; k < n; k++) {
    const [i0, j0, i1, j1] = cellRange(k);
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) start[j * gx + i + 1]++;
  }
  for (let c = 0; c < gx * gy; c++) start[c + 1] += start[c];
  const items = new Int32Array(start[gx * gy]);
  const fill = start.slice(0, gx * gy);
  for (let k = 0; k < n; k++) {
    const [i0, j0, i1, j1] = cellRange(k);
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) items[fill[j * gx + i]++] = k;
  }
  st.grid = { x0, y0, cs, nx: gx, ny: gy, start, items };
}

// ---- scratch (module-scope, reused every frame) ----
const _candidates = new Int32Array(512);
const _poseA = new Float64Array(4), _poseB = new Float64Array(4);
const _unit = circleShape(1);
const _input = createManifold2Input(_unit, _poseA, _unit, _poseB, 0);
const _man = createManifold2();

/** Shape and pose of agent eid into (shape, pose); returns the shape. */
function agentShape(world: CrowdWorld, eid: number, table: Shape2[], shapeIdx: Int32Array, angle: Float64Array, pose: Float64Array, circles: Shape2[]): Shape2 {
  const k = shapeIdx[eid];
  pose[0] = world.position.x[eid]; pose[1] = world.position.y[eid];
  if (k < 0) {
    pose[2] = 1; pose[3] = 0;
    // a circle of the agent's radius: reuse one per distinct radius value seen this frame is overkill; the shape
    // only carries the radius, so one scratch circle object per side is rewritten instead
    return circleOf(world.agent.radius[eid], circles);
  }
  const a = angle[eid];
  pose[2] = dcos(a); pose[3] = dsin(a);
  return table[k];
}
/** A scratch circle shape with the given radius (two slots, so A and B can both be default circles). */
let _circleSlot = 0;
function circleOf(r: number, circles: Shape2[]): Shape2 {
  const c = circles[_circleSlot];
  _circleSlot ^= 1;
  (c as { radius: number }).radius = r;
  (c as { boundingRadius: number }).boundingRadius = r;
  return c;
}
const _circles: Shape2[] = [circleShape(1), circleShape(1)];

function writeContact(buf: ContactBuffer, a: number, b: number, m: typeof _man): boolean {
  if (buf.count >= buf.capacity) { buf.overflow++; return false; }
  const c = buf.count++;
  buf.a[c] = a; buf.b[c] = b;
  buf.nx[c] = m.normal[0]; buf.ny[c] = m.normal[1]; buf.depth[c] = m.depth;
  buf.pointCount[c] = m.count;
  buf.px0[c] = m.points[0]; buf.py0[c] = m.points[1]; buf.depth0[c] = m.depths[0]; buf.id0[c] = m.ids[0];
  if (m.count > 1) { buf.px1[c] = m.points[2]; buf.py1[c] = m.points[3]; buf.depth1[c] = m.depths[1]; buf.id1[c] = m.ids[1]; }
  else { buf.px1[c] = 0; buf.py1[c] = 0; buf.depth1[c] = 0; buf.id1[c] = 0; }
  return true;
}

/** Move agent e out of every static shape it overlaps (two sequential rounds, for corners); zero its velocity into them. */
function projectOutOfStatics(world: CrowdWorld, st: ContactsState, e: number, table: Shape2[], shapeIdx: Int32Array, angle: Float64Array): void {
  const g = st.grid;
  if (g.nx === 0) return;
  const px = world.position.x, py = world.position.y, vx = world.velocity.x, vy = world.velocity.y;
  _input.margin = 0;
  for (let round = 0; round < 2; round++) {
    const xa = px[e], ya = py[e], r = st.bound[e];
    const i0 = Math.max(0, Math.floor((xa - r - g.x0) / g.cs)), i1 = Math.min(g.nx - 1, Math.floor((xa + r - g.x0) / g.cs));
    const j0 = Math.max(0, Math.floor((ya - r - g.y0) / g.cs)), j1 = Math.min(g.ny - 1, Math.floor((ya + r - g.y0) / g.cs));
    if (i0 > i1 || j0 > j1) break;
    const stamp = ++st.stampValue;
    let moved = false;
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
      const cell = j * g.nx + i;
      for (let t = g.start[cell]; t < g.start[cell + 1]; t++) {
        const k = g.items[t];
        if (st.stamp[k] === stamp) continue;
        st.stamp[k] = stamp;
        const x = px[e], y = py[e];
        if (x + r < st.staticMinX[k] || x - r > st.staticMaxX[k] || y + r < st.staticMinY[k] || y - r > st.staticMaxY[k]) continue;
        _input.shapeA = agentShape(world, e, table, shapeIdx, angle, _poseA, _circles);
        _input.shapeB = st.statics[k];
        const sp = st.staticPose[k];
        _poseB[0] = sp[0]; _poseB[1] = sp[1]; _poseB[2] = sp[2]; _poseB[3] = sp[3];
        contactManifold2(_input, _man);
        if (_man.count === 0) continue;
        const nx = _man.normal[0], ny = _man.normal[1];
        const d = _man.depth - st.slop;
        if (d > 0) { px[e] -= nx * d; py[e] -= ny * d; moved = true; }
        const vn = vx[e] * nx + vy[e] * ny;
        if (vn > 0) { vx[e] -= vn * nx; vy[e] -= vn * ny; }
      }
    }
    if (!moved) break;
  }
  _input.margin = st.margin;
}

/** Run the contacts pass: detection into the buffer, then positional resolution (see the file comment). */
export function contactsSystem(world: CrowdWorld, dt = 0): void {
  void dt;
  const t0 = nowMs();
  const st = contactsState(world);
  const n = world.agents.count;
  if (st.autoCapacity) {
    const prev = st.buffer;
    const need = Math.max(1024, 3 * n, prev.overflow > 0 ? 2 * prev.capacity : 0);
    if (need > prev.capacity) { st.buffer = createBuffer(need); st.depthCur = new Float64Array(need); }
  }
  const buf = st.buffer;
  buf.count = 0; buf.overflow = 0;
  const dense = world.agents.dense;
  const px = world.position.x, py = world.position.y, prevX = world.position.previousX, prevY = world.position.previousY;
  const radius = world.agent.radius, invMass = world.agent.invMass;
  const shapes = agentShapeComponent(world);
  const shapeIdx = shapes.shape, angle = shapes.angle;
  const table = agentShapeTable(world);
  if (st.gridDirty) buildStaticGrid(st, world.config.cellSize);
  if (st.bound.length < world.capacity + 1) {
    const m = world.capacity + 1;
    st.bound = new Float64Array(m); st.agentStamp = new Int32Array(m); st.accX = new Float64Array(m); st.accY = new Float64Array(m); st.accN = new Int32Array(m);
  }
  const bound = st.bound;
  // ---- 1. bounds ----
  let maxBound = 0, maxDisp2 = 0;
  for (let i = 0; i < n; i++) {
    const e = dense[i];
    const k = shapeIdx[e];
    const b = k < 0 ? radius[e] : table[k].boundingRadius;
    bound[e] = b;
    if (b > maxBound) maxBound = b;
    const dx = px[e] - prevX[e], dy = py[e] - prevY[e];
    const d2 = dx * dx + dy * dy;
    if (d2 > maxDisp2) maxDisp2 = d2;
  }
  // the hash holds positions from before integration: pad queries by both agents' largest move
  const pad = 2 * Math.sqrt(maxDisp2) + st.margin;
  const hashed = world.hash.count === n;
  let pairs = 0;
  // ---- 2–3. broad and narrow phase ----
  _input.margin = st.margin;
  for (let i = 0; i < n; i++) {
    const ea = dense[i];
    const xa = px[ea], ya = py[ea], ba = bound[ea];
    const defaultA = shapeIdx[ea] < 0;
    // agents
    let m = 0;
    if (hashed) m = queryRadius(world.hash, xa, ya, ba + maxBound + pad, ea, _candidates);
    for (let q = 0; q < m; q++) {
      const eb = _candidates[q];
      if (eb < ea) continue; // each pair once, from its smaller id
      const dx = px[eb] - xa, dy = py[eb] - ya;
      const reach = ba + bound[eb] + st.margin;
      const d2 = dx * dx + dy * dy;
      if (d2 > reach * reach) continue;
      pairs++;
      if (defaultA && shapeIdx[eb] < 0) {
        // circle–circle inline: n = d/|d|, depth = rA + rB − |d|, point midway between the surfaces
        const ra = radius[ea], rb = radius[eb];
        const d = Math.sqrt(d2);
        let nx = 1, ny = 0;
        if (d > 1e-12 * (ra + rb)) { nx = dx / d; ny = dy / d; } // (nearly) coincident centres: +x (deterministic)
        const depth = ra + rb - d;
        const mid = ra - 0.5 * depth;
        _man.count = 1; _man.normal[0] = nx; _man.normal[1] = ny; _man.depth = depth;
        _man.points[0] = xa + nx * mid; _man.points[1] = ya + ny * mid; _man.depths[0] = depth; _man.ids[0] = 0;
        writeContact(buf, ea, eb, _man);
        continue;
      }
      _input.shapeA = agentShape(world, ea, table, shapeIdx, angle, _poseA, _circles);
      _input.shapeB = agentShape(world, eb, table, shapeIdx, angle, _poseB, _circles);
      contactManifold2(_input, _man);
      if (_man.count > 0) writeContact(buf, ea, eb, _man);
    }
    // static shapes
    const g = st.grid;
    if (g.nx > 0) {
      const r = ba + st.margin;
      const i0 = Math.max(0, Math.floor((xa - r - g.x0) / g.cs)), i1 = Math.min(g.nx - 1, Math.floor((xa + r - g.x0) / g.cs));
      const j0 = Math.max(0, Math.floor((ya - r - g.y0) / g.cs)), j1 = Math.min(g.ny - 1, Math.floor((ya + r - g.y0) / g.cs));
      if (i0 <= i1 && j0 <= j1) {
        const stamp = ++st.stampValue;
        for (let j = j0; j <= j1; j++) for (let ii = i0; ii <= i1; ii++) {
          const cell = j * g.nx + ii;
          for (let t = g.start[cell]; t < g.start[cell + 1]; t++) {
            const k = g.items[t];
            if (st.stamp[k] === stamp) continue;
            st.stamp[k] = stamp;
            if (xa + r < st.staticMinX[k] || xa - r > st.staticMaxX[k] || ya + r < st.staticMinY[k] || ya - r > st.staticMaxY[k]) continue;
            pairs++;
            _input.shapeA = agentShape(world, ea, table, shapeIdx, angle, _poseA, _circles);
            _input.shapeB = st.statics[k];
            const sp = st.staticPose[k];
            _poseB[0] = sp[0]; _poseB[1] = sp[1]; _poseB[2] = sp[2]; _poseB[3] = sp[3];
            contactManifold2(_input, _man);
            if (_man.count > 0) writeContact(buf, ea, -1 - k, _man);
          }
        }
      }
    }
  }
  // ---- 4. Jacobi positional resolution ----
  const nc = buf.count;
  const depthCur = st.depthCur;
  for (let c = 0; c < nc; c++) depthCur[c] = buf.depth[c];
  const accX = st.accX, accY = st.accY, accN = st.accN;
  for (let it = 0; it < st.iterations; it++) {
    for (let c = 0; c < nc; c++) { accX[buf.a[c]] = 0; accY[buf.a[c]] = 0; accN[buf.a[c]] = 0; const b = buf.b[c]; if (b >= 0) { accX[b] = 0; accY[b] = 0; accN[b] = 0; } }
    let active = 0;
    for (let c = 0; c < nc; c++) {
      const d = depthCur[c] - st.slop;
      if (!(d > 0)) continue;
      const a = buf.a[c], b = buf.b[c];
      const wa = invMass[a], wb = b >= 0 ? invMass[b] : 0, w = wa + wb;
      if (!(w > 0)) continue;
      const k = d / w, nx = buf.nx[c], ny = buf.ny[c];
      accX[a] -= nx * k * wa; accY[a] -= ny * k * wa; accN[a]++;
      if (b >= 0) { accX[b] += nx * k * wb; accY[b] += ny * k * wb; accN[b]++; }
      active++;
    }
    if (active === 0) break;
    // apply the per-agent averages (an agent appears once per contact, so average once: mark by negating the count)
    for (let c = 0; c < nc; c++) {
      const a = buf.a[c];
      if (accN[a] > 0) { const s = 1 / accN[a]; accX[a] *= s; accY[a] *= s; px[a] += accX[a]; py[a] += accY[a]; accN[a] = -1; }
      const b = buf.b[c];
      if (b >= 0 && accN[b] > 0) { const s = 1 / accN[b]; accX[b] *= s; accY[b] *= s; px[b] += accX[b]; py[b] += accY[b]; accN[b] = -1; }
    }
    // linear depth update along each fixed normal: depth −= (move_B − move_A)·n (unmoved agents have acc = 0)
    for (let c = 0; c < nc; c++) {
      const a = buf.a[c], b = buf.b[c];
      const ma = accN[a] === -1, mb = b >= 0 && accN[b] === -1;
      let rx = ma ? -accX[a] : 0, ry = ma ? -accY[a] : 0;
      if (mb) { rx += accX[b]; ry += accY[b]; }
      depthCur[c] -= rx * buf.nx[c] + ry * buf.ny[c];
    }
  }
  // ---- 5. walls: exact sequential projection of every agent that took part in a contact (it may have been pushed
  // into a wall it did not touch before) out of the static shapes around it ----
  if (st.statics.length > 0 && nc > 0) {
    const frame = ++st.agentStampValue;
    const seen = st.agentStamp;
    for (let c = 0; c < nc; c++) {
      for (let side = 0; side < 2; side++) {
        const e = side === 0 ? buf.a[c] : buf.b[c];
        if (e < 0 || seen[e] === frame) continue;
        seen[e] = frame;
        projectOutOfStatics(world, st, e, table, shapeIdx, angle);
      }
    }
  }
  profileCount(world.profiler, 'contacts', 'pairs', pairs);
  profileCount(world.profiler, 'contacts', 'contacts', nc);
  profileCount(world.profiler, 'contacts', 'overflow', buf.overflow);
  profileRecord(world.profiler, 'contacts', t0);
}
