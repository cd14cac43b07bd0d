/**
 * Contacts system, last in the frame: finds every touching pair (agent–agent and agent–static shape), writes their
 * manifolds into a flat SoA contact buffer users can read, and pushes overlapping agents apart.
 *
 * Passes:
 *  1. Bounds: each agent's bounding radius (its shape's, or agent.radius for the default circle), once per frame.
 *  2. Broad phase: agent pairs from a cell-list sweep over the agents' current positions (src/contacts/pair-grid.ts;
 *     each pair once, owned by its smaller entity id when both look for contacts this frame, else by the one that
 *     does), kept with a skin and re-used by later rounds and frames while it provably holds every candidate (a
 *     Verlet list, see detect; an O(n) check per frame decides); agent × static shapes from a uniform grid over the
 *     static shapes, agent × obstacle segments (the world's ORCA obstacles and steering walls) from a second grid
 *     over the segments; both grids are rebuilt only when their geometry changes (counting sort into flat arrays).
 *     Pairs within a speculative distance (a quarter of the largest agent radius) are kept as resolution
 *     candidates, since resolution moves agents.
 *  3. Narrow phase: circle–circle inline (the common case), anything else through contactManifold2 (GJK/EPA and
 *     clipping); circle × segment by the exact closest point. Touching contacts go to the buffer in a deterministic
 *     order: agents in dense order, each with its agent partners by increasing entity id, then its static shapes.
 *  4. Positional resolution (position-based, Müller et al. 2007 "Position Based Dynamics", with the Jacobi
 *     averaging of Macklin et al. 2014 "Unified Particle Physics", section 4.2): passes that each compute every
 *     agent–agent constraint's correction (depth − slop/2, split by inverse mass) from the same positions before
 *     applying the per-agent averages, so the result does not depend on the constraint order. Circle pairs are
 *     re-measured exactly every pass; shaped pairs update their depth linearly along the detected normal. The passes
 *     are Chebyshev-accelerated (Wang 2015) with an adaptive restart, and run until the deepest penetration is within
 *     `slop` or the `iterations` budget is spent. When an agent moves more than half the speculative distance the
 *     candidates are detected again (a new round; all rounds share the budget).
 *  5. Immovable geometry: static shapes and obstacle segments are not constraints of the Jacobi step. After every
 *     pass, each agent near one that moved is projected exactly out of it (sequentially over that agent's shapes
 *     and segments, twice for corners; independent across agents), loses its velocity into it and its Chebyshev
 *     momentum. A final projection of every agent in a contact catches one pushed into a static shape it was not
 *     near. So no agent stays inside a wall unless two walls are closer together than the agent is wide. Walls are
 *     looked for around every agent in every frame, whatever its LOD tier (only agent contacts are staggered):
 *     a far agent moves every frame, and a neighbour that runs contacts may push it.
 *  6. No tunnelling, sided closed obstacles: the straight way an agent moved (from its place at the end of the last
 *     frame, then from each round's start) is tested against the walls (sweepStatics, sweepSegments), so a step or
 *     push longer than its radius cannot carry it through a thin wall; closed ORCA rings have a solid side (their
 *     left, RVO2's convention), which the way may leave but not enter, and an agent whose centre is in the solid
 *     (started inside) is pushed out to the nearest free point its radius from the wall (depenetrate). Open
 *     polylines and steering walls stay two-sided.
 *
 * The buffer holds the contacts found in step 3 (before resolution): pairs, normal, depth and up to two points.
 */
import type { CrowdWorld } from '../src/world/crowd';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';
import { requireInteger, requireNonNegative, requireFinite } from '../src/core/validate';
import { InvalidArgumentError } from '../src/core/errors';
import { dcos, dsin, dsincosArr } from '../src/core/dmath';
import { agentShapeComponent, agentShapeTable } from '../components/shape';
import { lodComponent, LOD_CONTACTS } from '../components/lod';
import { circleShape } from '../src/collision/shapes2d';
import type { Shape2 } from '../src/collision/shapes2d';
import { contactManifold2, createManifold2, createManifold2Input } from '../src/collision/manifold2d';
import type { ObstacleSet } from '../src/avoidance/obstacles';
import type { SegmentGrid } from '../src/steering/segment-grid';
import { buildPairGrid, createPairGrid, createPairList, gatherPairs } from '../src/contacts/pair-grid';
import { orderLevelAt, orderStores, sameSpotAt } from '../src/world/orders';
import type { PairGrid, PairList } from '../src/contacts/pair-grid';

/**
 * Skin of the candidate-pair list, in units of the largest agent bounding radius: the list is re-used by later
 * rounds and frames while no agent has moved by more than half of it (see detect). Larger: more pairs to filter per
 * round; smaller: more rebuilds. Adapted per world from how often the list is rebuilt: a rebuild within
 * SKIN_SHORT calls of the previous one grows it by SKIN_GROW (up to SKIN_MAX), one after more than SKIN_LONG calls
 * shrinks it by SKIN_SHRINK (down to SKIN_MIN). Which pairs the list holds never changes the result (detection
 * tests exact distances and visits pairs in a canonical order), only the speed. Measured 2026-11-29 (contacts
 * system ms, fixed skins): 100k horde, LOD on, rebuilt about every second frame at skin 1: 15.2 median, 13.9 at 3;
 * a settling 10k pile, rebuilt every ~5 frames at 1: 9.6 mean, 10.2 at 3; the 10k pile reset every frame (the
 * benchmark), rebuilt 4 times per frame at 1: 25.5, 16.5 at 3.
 */
const SKIN_MIN = 1;
const SKIN_MAX = 4;
const SKIN_SHORT = 4;
const SKIN_LONG = 16;
const SKIN_GROW = 1.25;
const SKIN_SHRINK = 0.9;
/** Extra search distance of the obstacle-segment test, in largest bounding radii: the lower bound it leaves lets an
 * agent skip the test until it has moved that far (see detect). */
const WALL_SKIN = 4;

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
  /**
   * Most Jacobi resolution passes per frame (integer 0..10000; 0 = detect only). Resolution stops as soon as the
   * deepest remaining penetration is within `slop`, so this bounds the cost of a frame: relaxed crowds take 0–2
   * passes. Jams need more to reach `slop` (the 100-agent ORCA scenes about 5 on average, a 2 × 50 counter-flow in a
   * corridor about 55 and 600–900 in its worst frames; a 10,000-agent circle swap jammed at dt = 0.25 s does not
   * settle within 1000, at ~0.6 ms per pass), so the default keeps the frame cheap and may leave overlaps above
   * `slop` in jams; set 1000 where "no overlap above `slop`" is the requirement. @default 4
   */
  iterations?: number;
  /**
   * Chebyshev acceleration of the Jacobi passes (Wang 2015, "A Chebyshev semi-iterative approach for accelerating
   * projective and position-based dynamics"): the estimated spectral radius ρ of the plain averaged Jacobi
   * iteration, in [0, 1). 0 = plain averaging (slowest, monotone). @default 0.99
   */
  spectralRadius?: number;
  /** Penetration left unresolved, metres (avoids jitter). @default 0.001 */
  slop?: number;
  /** Pairs closer than this report speculative contacts (negative depth, not resolved), metres. @default 0 */
  margin?: number;
  /**
   * Idle agents yield (docs/ORCA.md): of the overlap correction between an agent without an order and one moving on
   * an order (src/world/orders.ts; not two sent to the same spot), the part the idle one takes when their masses are
   * equal, in [0.5, 1). Masses still count: the weights are the inverse masses with the mover's scaled by
   * (1 − yieldShare) / yieldShare. So a moving unit shoves an idle one ahead of it through contact alone too (agents
   * without ORCA, the mid and far LOD tiers), keeping 3/4 of its speed at the default, and an arrived unit walking back
   * cannot hold off the unit that pushed it. Below 1, so that a unit that cannot get away (against a wall) still pushes
   * the mover back and the overlap is resolved. 0.5: inverse masses only, as between any two agents. @default 0.75
   */
  yieldShare?: number;
}

interface ContactsState {
  buffer: ContactBuffer;
  autoCapacity: boolean;
  iterations: number;
  spectralRadius: number;
  slop: number;
  margin: number;
  /** ContactsOptions.yieldShare (absent in a state restored from a snapshot taken before it existed: the default). */
  yieldShare?: number;
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
  // resolution constraints (every candidate pair, touching or within the speculative distance), grown by doubling
  kA: Int32Array; kB: Int32Array; kNx: Float64Array; kNy: Float64Array; kDepth: Float64Array; kCircle: Uint8Array;
  kCount: number;
  /** Constraints with kCircle = 0 (shaped pairs, depth updated linearly). */
  kShaped: number;
  // obstacle segments and the agents near them this frame
  seg: SegmentLayer;
  nearWall: Int32Array; nearCount: number;
  wallStamp: Int32Array; wallStampValue: number;
  // positions at the start of a detection round (indexed by eid)
  x0: Float64Array; y0: Float64Array;
  active: Int32Array; qx: Float64Array; qy: Float64Array;
  /** Set by resolve: an agent moved too far for the round's candidates (a new round is needed). */
  escaped: boolean;
  /** Agents resolve moved (st.active[0..na)). */
  na: number;
}

/**
 * What detection derives and keeps between calls: the broad phase's pair list and the per-agent segment-distance
 * bounds. Pure caches (every result is the same with an empty one, see detect), so they are kept beside the world
 * rather than in world.systems: snapshots do not carry them (a restored world rebuilds them on its first step).
 */
interface ContactsCache {
  // per-frame detection constants: largest bounding radius, speculative distance (metres)
  maxBound: number; spec: number;
  // agents with LOD_CONTACTS this frame, in dense order, and the others that may be near a wall (see detect)
  actList: Int32Array; actCount: number; passList: Int32Array; passCount: number;
  // broad phase: grid over the positions and the pair list built from it, positions at its build and the largest
  // squared displacement since (see detect)
  grid2: PairGrid; pairs: PairList; gx: Float64Array; gy: Float64Array; listDisp2: number;
  // the list's pad (pairs within r_a + r_b + listPad are listed), agents and their bounds when it was built
  listPad: number; listN: number; listDense: Int32Array; listBound: Float64Array;
  /** Pair lists built (profiling: rounds − builds re-used a list). */
  listBuilds: number;
  /** The list's skin (in largest bounding radii; adapted, see SKIN_MIN) and contacts calls since its last build. */
  skin: number; sinceBuild: number;
  // lower bound of each agent's centre distance to the obstacle segments, taken at (segGx, segGy) against the
  // segment layer `segLayer` at version `segVersion` (reset when either changes)
  segLow: Float64Array; segGx: Float64Array; segGy: Float64Array; segLayer: SegmentLayer | null; segVersion: number;
  // the candidate pairs in the order the last full detection pass visited them (re-tested by later rounds)
  flatA: Int32Array; flatB: Int32Array; flatCount: number;
}

const _caches = new WeakMap<CrowdWorld, ContactsCache>();

function createCache(n: number): ContactsCache {
  return {
    maxBound: 0, spec: 0, actList: new Int32Array(n), actCount: 0, passList: new Int32Array(n), passCount: 0,
    grid2: createPairGrid(n), pairs: createPairList(n), gx: new Float64Array(n), gy: new Float64Array(n), listDisp2: 0,
    listPad: 0, listN: -1, listDense: new Int32Array(n), listBound: new Float64Array(n), listBuilds: 0, skin: SKIN_MIN, sinceBuild: 0,
    segLow: new Float64Array(n).fill(-Infinity), segGx: new Float64Array(n), segGy: new Float64Array(n), segLayer: null, segVersion: -1,
    flatA: new Int32Array(1024), flatB: new Int32Array(1024), flatCount: 0,
  };
}

/**
 * The world's detection cache, created when missing or smaller than the world's entity range; its segment bounds
 * are reset when the segment layer was rebuilt (or replaced, as by a snapshot restore) since they were taken.
 */
function cacheOf(world: CrowdWorld, st: ContactsState): ContactsCache {
  let c = _caches.get(world);
  if (c === undefined || c.segLow.length < world.capacity + 1) {
    c = createCache(world.capacity + 1);
    _caches.set(world, c);
  }
  if (c.segLayer !== st.seg || c.segVersion !== st.seg.version) {
    c.segLow.fill(-Infinity);
    c.segLayer = st.seg; c.segVersion = st.seg.version;
  }
  return c;
}

/**
 * Forget the contacts pass's derived caches (its candidate-pair list and segment-distance bounds); they are rebuilt
 * on the next call. Results do not change: for tests and benchmarks of the rebuild path.
 * @internal not part of the public API (not exported from src/index.ts)
 */
export function dropContactsCache(world: CrowdWorld): void {
  _caches.delete(world);
}

/**
 * ORCA obstacle segments and steering walls, flattened ([ax, ay, bx, by] per segment) with a CSR grid. Segments of
 * closed ORCA rings keep the ring's direction (solid side on the LEFT: counter-clockwise polygons, clockwise
 * enclosures; src/avoidance/obstacles.ts) and are flagged `closed`; open polylines and steering walls are two-sided.
 * Where the solid is: the winding number W of a point over the closed rings (crossing an edge from its right to its
 * left adds 1) is ≥ `solidW` (1 without enclosures: inside a polygon; 0 with one: outside every enclosure, or in a
 * polygon within one; the rule of diagnoseWorld's solidDepth). W is kept per grid cell at a reference point
 * (`cellW`, see refreshSegments), so W at any point costs the crossings of one short chord with one cell's segments.
 */
interface SegmentLayer {
  orcaSet: ObstacleSet | null; orcaVersion: number; walls: SegmentGrid | null;
  /** Bumped at every rebuild. */
  version: number;
  count: number; seg: Float64Array;
  /** 1 for a segment of a closed ring (sided), 0 for an open polyline or steering wall (two-sided). */
  closed: Uint8Array;
  /** Closed segments in the layer (0: no solid side anywhere, the winding tests are skipped). */
  closedCount: number;
  /** A point is in the solid when its winding number is ≥ this (1, or 0 once an enclosure is present). */
  solidW: number;
  x0: number; y0: number; cs: number; nx: number; ny: number; start: Int32Array; items: Int32Array;
  /** Winding number at each cell's reference point (x0 + (i + REF_FX)·cs, y0 + (j + REF_FY)·cs). */
  cellW: Int32Array;
  stamp: Int32Array; stampValue: number;
}

/**
 * Where a grid cell's reference point sits in the cell (fractions of its side). Not simple fractions: map geometry
 * is often on round coordinates, and a reference point exactly on a segment would make its winding number depend
 * on the crossing rules' tie-breaks.
 */
const REF_FX = 0.4636476090008061, REF_FY = 0.5404195002705842;

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
      buffer: createBuffer(cap), autoCapacity: true, iterations: 4, spectralRadius: 0.99, slop: 0.001, margin: 0, yieldShare: CONTACTS_YIELD_SHARE,
      statics: [], staticPose: [], staticMinX: [], staticMinY: [], staticMaxX: [], staticMaxY: [], gridDirty: false,
      grid: { x0: 0, y0: 0, cs: 1, nx: 0, ny: 0, start: new Int32Array(1), items: new Int32Array(0) },
      stamp: new Int32Array(0), stampValue: 0, agentStamp: new Int32Array(n), agentStampValue: 0,
      bound: new Float64Array(n), accX: new Float64Array(n), accY: new Float64Array(n), accN: new Int32Array(n),
      kA: new Int32Array(cap), kB: new Int32Array(cap), kNx: new Float64Array(cap), kNy: new Float64Array(cap),
      kDepth: new Float64Array(cap), kCircle: new Uint8Array(cap), kCount: 0, kShaped: 0,
      seg: { orcaSet: null, orcaVersion: -1, walls: null, version: 0, count: 0, seg: new Float64Array(0), closed: new Uint8Array(0), closedCount: 0,
        solidW: 1, x0: 0, y0: 0, cs: 1, nx: 0, ny: 0, start: new Int32Array(1), items: new Int32Array(0), cellW: new Int32Array(0),
        stamp: new Int32Array(0), stampValue: 0 },
      nearWall: new Int32Array(n), nearCount: 0, wallStamp: new Int32Array(n), wallStampValue: 0,
      x0: new Float64Array(n), y0: new Float64Array(n), active: new Int32Array(n), qx: new Float64Array(n), qy: new Float64Array(n), escaped: false,
      na: 0,
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
    st.autoCapacity = false;
  }
  if (options.iterations !== undefined) st.iterations = requireInteger('options.iterations', options.iterations, 0, 10000);
  if (options.spectralRadius !== undefined) {
    const r = requireFinite('options.spectralRadius', options.spectralRadius);
    if (!(r >= 0 && r < 1)) throw new InvalidArgumentError('options.spectralRadius', r, 'must be in [0, 1)');
    st.spectralRadius = r;
  }
  if (options.slop !== undefined) st.slop = requireNonNegative('options.slop', options.slop);
  if (options.margin !== undefined) st.margin = requireNonNegative('options.margin', options.margin);
  if (options.yieldShare !== undefined) {
    const f = requireFinite('options.yieldShare', options.yieldShare);
    if (!(f >= 0.5 && f < 1)) throw new InvalidArgumentError('options.yieldShare', f, 'must be in [0.5, 1)');
    st.yieldShare = f;
  }
}

/** Default ContactsOptions.yieldShare. */
const CONTACTS_YIELD_SHARE = 0.75;
/**
 * The factor on the mover's inverse mass in a pair of different order levels, (1 − yieldShare) / yieldShare (1:
 * yieldShare 0.5, nothing to do), set at the start of every call; and the order levels of the agents in a violated
 * contact, computed when resolve first needs them in a call (_contactsLevelStamp[e] === _contactsCall): the agents in
 * no violated contact, most of a crowd, cost nothing. Module scratch.
 */
let _contactsYieldK = 1;
let _contactsLevel = new Uint8Array(0);
let _contactsLevelStamp = new Int32Array(0);
let _contactsCall = 0;

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
// Doubles handed to helpers go through Float64Arrays: V8 passes arguments and return values tagged, so a fractional
// double crossing a call it does not inline is boxed into a fresh HeapNumber (per agent, per constraint).
const _gapArgs = new Float64Array(5); // segmentGap: x, y, r, reach in; gap out
const _kArgs = new Float64Array(3); // pushConstraint: nx, ny, depth
const _reachArgs = new Float64Array(2); // nearSegments: spec, segReach
const _chord = new Float64Array(4); // chordCrossing, windingAt, firstWallCrossing: a chord's two ends
const _nearArgs = new Float64Array(5); // nearestSolidEdge: x, y in; closest point, distance out
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
    return circleOf(world.agent.radius, eid, circles);
  }
  // array form: dcos/dsin return doubles, boxed when this is not inlined (once per shaped agent per pair)
  dsincosArr(angle, eid, _sinCos, 0);
  pose[2] = _sinCos[1]; pose[3] = _sinCos[0];
  return table[k];
}
const _sinCos = new Float64Array(2);
/**
 * A scratch circle shape of radius radius[eid] (two slots, so A and B can both be default circles). The radius is
 * read here from the array, not passed: a double argument of a call V8 does not inline is boxed.
 */
let _circleSlot = 0;
function circleOf(radius: Float64Array, eid: number, circles: Shape2[]): Shape2 {
  const r = radius[eid];
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
function projectOutOfStatics(world: CrowdWorld, st: ContactsState, e: number, table: Shape2[], shapeIdx: Int32Array, angle: Float64Array): boolean {
  const g = st.grid;
  if (g.nx === 0) return false;
  let any = false;
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
    any = true;
  }
  _input.margin = st.margin;
  return any;
}

/** Project agent e out of the static shapes and the obstacle segments around it; true if it moved. */
function projectOut(world: CrowdWorld, st: ContactsState, c: ContactsCache, e: number): boolean {
  let moved = false;
  if (st.grid.nx > 0) {
    const shapes = agentShapeComponent(world);
    moved = projectOutOfStatics(world, st, e, agentShapeTable(world), shapes.shape, shapes.angle);
  }
  if (st.seg.nx > 0 && projectOutOfSegments(world, st.seg, c, e, st.bound, st.x0, st.y0)) moved = true;
  return moved;
}

// ---- obstacle segments (ORCA obstacles and steering walls) as immovable static geometry ----

/**
 * Gather the segments of the world's ORCA obstacle set (components/orca.ts addObstacle) and steering walls
 * (setSteeringWalls) into one flat list with a uniform grid (counting sort), when either changed. ORCA obstacles
 * are compared by (set, set.version), bumped by every add and clear; setSteeringWalls replaces its grid object.
 * An open polyline is stored by the obstacle set as the zero-area ring p0 … pn−1 … p1: only its forward half is
 * taken (the backward half is the same wall). Build time only: allocation and closures are fine here.
 */
function refreshSegments(world: CrowdWorld, st: ContactsState): void {
  const orca = world.systems.orca as { obstacles: ObstacleSet } | undefined;
  const set = orca === undefined ? null : orca.obstacles;
  const steer = world.systems.steering as { walls: SegmentGrid | null } | undefined;
  const walls = steer === undefined ? null : steer.walls;
  const sg = st.seg;
  const vc = set === null ? 0 : set.vertexCount;
  const ver = set === null ? -1 : set.version;
  if (set === sg.orcaSet && ver === sg.orcaVersion && walls === sg.walls) return;
  sg.orcaSet = set; sg.orcaVersion = ver; sg.walls = walls;
  sg.version++; // the agents' distance bounds (detection cache) were taken against the old segments
  const list: number[] = [], closedList: number[] = [];
  let enclosures = false;
  if (set !== null) {
    const x = set.x, y = set.y, next = set.next, prev = set.prev;
    let v = 0;
    while (v < vc) {
      // one obstacle: vertices v .. end−1 (contiguous, same owner)
      let end = v + 1;
      while (end < vc && set.owner[end] === set.owner[v]) end++;
      const p = prev[v], q = next[v];
      // a polyline ring turns around at p0: its neighbours on both sides are the point p1
      const polyline = x[p] === x[q] && y[p] === y[q];
      let u = v, area2 = 0;
      do {
        const w = next[u];
        list.push(x[u], y[u], x[w], y[w]);
        closedList.push(polyline ? 0 : 1);
        area2 += x[u] * y[w] - x[w] * y[u];
        u = w;
        if (polyline && x[prev[u]] === x[next[u]] && y[prev[u]] === y[next[u]]) break; // reached p(n−1)
      } while (u !== v);
      // a closed ring stored clockwise has its solid outside: an enclosure (addObstacle's `enclose`)
      if (!polyline && area2 < 0) enclosures = true;
      v = end;
    }
  }
  if (walls !== null) for (let i = 0; i < 4 * walls.segmentCount; i++) { list.push(walls.segments[i]); if (i % 4 === 0) closedList.push(0); }
  const n = list.length / 4;
  sg.count = n;
  sg.seg = Float64Array.from(list);
  sg.closed = Uint8Array.from(closedList);
  sg.closedCount = 0;
  for (let k = 0; k < n; k++) sg.closedCount += sg.closed[k];
  sg.solidW = enclosures ? 0 : 1;
  sg.stamp = new Int32Array(n);
  sg.stampValue = 0;
  if (n === 0) { sg.nx = 0; sg.ny = 0; sg.cellW = new Int32Array(0); return; }
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let k = 0; k < n; k++) {
    const o = 4 * k;
    x0 = Math.min(x0, list[o], list[o + 2]); x1 = Math.max(x1, list[o], list[o + 2]);
    y0 = Math.min(y0, list[o + 1], list[o + 3]); y1 = Math.max(y1, list[o + 1], list[o + 3]);
  }
  // cell: the world's cell size, enlarged so the grid has at most 512 × 512 cells
  const cs = Math.max(world.config.cellSize, (x1 - x0) / 512, (y1 - y0) / 512, 1e-6);
  const gx = Math.max(1, Math.ceil((x1 - x0) / cs)), gy = Math.max(1, Math.ceil((y1 - y0) / cs));
  const start = new Int32Array(gx * gy + 1);
  const visit = (k: number, f: (cell: number) => void) => {
    const o = 4 * k;
    const i0 = Math.min(gx - 1, Math.floor((Math.min(list[o], list[o + 2]) - x0) / cs)), i1 = Math.min(gx - 1, Math.floor((Math.max(list[o], list[o + 2]) - x0) / cs));
    const j0 = Math.min(gy - 1, Math.floor((Math.min(list[o + 1], list[o + 3]) - y0) / cs)), j1 = Math.min(gy - 1, Math.floor((Math.max(list[o + 1], list[o + 3]) - y0) / cs));
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) f(j * gx + i);
  };
  for (let k = 0; k < n; k++) visit(k, (c) => { start[c + 1]++; });
  for (let c = 0; c < gx * gy; c++) start[c + 1] += start[c];
  const items = new Int32Array(start[gx * gy]);
  const fill = start.slice(0, gx * gy);
  for (let k = 0; k < n; k++) visit(k, (c) => { items[fill[c]++] = k; });
  sg.x0 = x0; sg.y0 = y0; sg.cs = cs; sg.nx = gx; sg.ny = gy; sg.start = start; sg.items = items;
  // Winding number at every cell's reference point q(i, j), along each row from a point left of every segment
  // (winding 0: outside every ring's bounding box): W(q(0, j)) is the crossings of the chord from (x0 − cs, y) to
  // q(0, j), which lies in cell (0, j), and W(q(i, j)) = W(q(i − 1, j)) + the crossings of the chord between them,
  // which lies in cells i − 1 and i of the row (each segment counted once). O(cells + filed segments).
  const cellW = new Int32Array(gx * gy);
  if (sg.closedCount > 0) {
    const mark = new Int32Array(n), chord = new Float64Array(4);
    let stamp = 0;
    for (let j = 0; j < gy; j++) {
      const y = y0 + (j + REF_FY) * cs;
      let w = 0;
      chord[0] = x0 - cs; chord[1] = y; chord[3] = y;
      for (let i = 0; i < gx; i++) {
        chord[2] = x0 + (i + REF_FX) * cs;
        stamp++;
        for (let c = i > 0 ? j * gx + i - 1 : j * gx; c <= j * gx + i; c++) {
          for (let t = start[c]; t < start[c + 1]; t++) {
            const k = items[t];
            if (sg.closed[k] === 0 || mark[k] === stamp) continue;
            mark[k] = stamp;
            w += chordCrossing(sg.seg, k, chord);
          }
        }
        cellW[j * gx + i] = w;
        chord[0] = chord[2];
      }
    }
  }
  sg.cellW = cellW;
}

/**
 * How the chord q → p crosses the directed segment a → b: +1 from its right to its left (into a closed ring's
 * solid side), −1 from left to right, 0 if they do not cross. Summed over a ring's edges this is the change of its
 * winding number from q to p. Ties are broken consistently (half-open rules, as in point-in-polygon tests): an end
 * of the segment exactly on the chord's line counts as below it, so a chord through a vertex is counted once for
 * the two edges there (twice with opposite signs when the ring only touches the line); q or p exactly on the
 * segment's line counts as on its right.
 */
function chordCrossing(s: Float64Array, k: number, chord: Float64Array): number {
  // the chord's ends are read from chord[0..4) (q, then p) and the segment from s: no double argument to box
  const qx = chord[0], qy = chord[1], px = chord[2], py = chord[3];
  const o = 4 * k, ax = s[o], ay = s[o + 1], bx = s[o + 2], by = s[o + 3];
  const dx = px - qx, dy = py - qy;
  const sa = dx * (ay - qy) - dy * (ax - qx) > 0, sb = dx * (by - qy) - dy * (bx - qx) > 0;
  if (sa === sb) return 0;
  const ex = bx - ax, ey = by - ay;
  const lq = ex * (qy - ay) - ey * (qx - ax) > 0, lp = ex * (py - ay) - ey * (px - ax) > 0;
  if (lq === lp) return 0;
  return lp ? 1 : -1;
}

/**
 * Winding number of the closed rings at p = (chord[2], chord[3]) (see SegmentLayer): the reference winding of p's
 * cell plus the crossings of the chord from the cell's reference point to p. The chord lies in that cell, so only
 * the cell's segments can cross it; a p outside the grid takes the nearest cell (clamped), and the chord then leaves
 * the grid beyond every segment. Writes the reference point to chord[0..2). Integer result: nothing is boxed.
 */
function windingAt(sg: SegmentLayer, chord: Float64Array): number {
  const nx = sg.nx, ny = sg.ny, cs = sg.cs;
  let i = Math.floor((chord[2] - sg.x0) / cs), j = Math.floor((chord[3] - sg.y0) / cs);
  i = i < 0 ? 0 : i >= nx ? nx - 1 : i;
  j = j < 0 ? 0 : j >= ny ? ny - 1 : j;
  chord[0] = sg.x0 + (i + REF_FX) * cs; chord[1] = sg.y0 + (j + REF_FY) * cs;
  const cell = j * nx + i, closed = sg.closed, items = sg.items, s = sg.seg;
  let w = sg.cellW[cell];
  for (let t = sg.start[cell], te = sg.start[cell + 1]; t < te; t++) {
    const k = items[t];
    if (closed[k] === 1) w += chordCrossing(s, k, chord);
  }
  return w;
}

/**
 * The first obstacle segment the chord from f = (chord[0], chord[1]) to p = (chord[2], chord[3]) crosses where no
 * body may: any crossing of an open polyline or steering wall (two-sided), and a crossing into a closed ring's solid
 * side (right to left; leaving the solid is allowed, so an agent that starts inside can walk out). Returns the
 * segment (the one met first along the chord; ties by index), or −1. Segments crossing the chord are filed in the
 * cells of its bounding box (they meet it there).
 */
function firstWallCrossing(sg: SegmentLayer, chord: Float64Array): number {
  const fx = chord[0], fy = chord[1], px = chord[2], py = chord[3];
  const cs = sg.cs, s = sg.seg, closed = sg.closed, items = sg.items, start = sg.start;
  const i0 = Math.max(0, Math.floor(((fx < px ? fx : px) - sg.x0) / cs)), i1 = Math.min(sg.nx - 1, Math.floor(((fx < px ? px : fx) - sg.x0) / cs));
  const j0 = Math.max(0, Math.floor(((fy < py ? fy : py) - sg.y0) / cs)), j1 = Math.min(sg.ny - 1, Math.floor(((fy < py ? py : fy) - sg.y0) / cs));
  let best = -1, bestT = Infinity;
  for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
    const cell = j * sg.nx + i;
    for (let t = start[cell], te = start[cell + 1]; t < te; t++) {
      const k = items[t];
      const x = chordCrossing(s, k, chord);
      if (x === 0 || (x === -1 && closed[k] === 1)) continue;
      // where along the chord it meets the segment's line: t = o_f / (o_f − o_p), o the signed areas (non-zero
      // difference: the two ends are on different sides)
      const o = 4 * k, ax = s[o], ay = s[o + 1], ex = s[o + 2] - ax, ey = s[o + 3] - ay;
      const of = ex * (fy - ay) - ey * (fx - ax), op = ex * (py - ay) - ey * (px - ax);
      const u = of / (of - op);
      if (u < bestT || (u === bestT && k < best)) { bestT = u; best = k; }
    }
  }
  return best;
}

/**
 * Keep agent e from passing through an obstacle segment on its way from (fromX[e], fromY[e]), a place on the free
 * side of the walls, to where it is now. A step longer than the agent's radius (a fast agent, or a strong push)
 * can carry its centre across a thin wall within one frame, where a projection of the end point alone would hold it
 * on the far side (or, for a closed obstacle thinner than the overshoot, push it out beyond). So the straight chord
 * from the start is tested (firstWallCrossing), and an agent crossing a wall slides back along it: its centre goes
 * to the closest point c of the segment plus its radius along the segment's normal on the start's side (the motion
 * along the wall is kept, the motion through it is not), and its velocity loses its component through the wall.
 * Repeated for a second wall (a corner); a chord still crossing after three slides leaves the agent at its start.
 * Returns true if the agent moved.
 */
function sweepSegments(world: CrowdWorld, sg: SegmentLayer, e: number, fromX: Float64Array, fromY: Float64Array, bound: Float64Array): boolean {
  const px = world.position.x, py = world.position.y, vx = world.velocity.x, vy = world.velocity.y;
  const r = bound[e], s = sg.seg, ch = _chord;
  const fx = fromX[e], fy = fromY[e];
  for (let it = 0; ; it++) {
    ch[0] = fx; ch[1] = fy; ch[2] = px[e]; ch[3] = py[e];
    const k = firstWallCrossing(sg, ch);
    if (k < 0) return it > 0;
    if (it === 3) { px[e] = fx; py[e] = fy; return true; }
    const o = 4 * k, ax = s[o], ay = s[o + 1], ex = s[o + 2] - ax, ey = s[o + 3] - ay;
    const e2 = ex * ex + ey * ey, el = Math.sqrt(e2); // > 0: a segment of zero length crosses nothing
    let u = ((px[e] - ax) * ex + (py[e] - ay) * ey) / e2;
    u = u < 0 ? 0 : u > 1 ? 1 : u;
    // the start's side: left of a → b (positive signed area) gives the normal (−ey, ex), else (ey, −ex); a start on
    // the line counts as right, as in chordCrossing
    const side = ex * (fy - ay) - ey * (fx - ax) > 0 ? 1 : -1;
    const nx = (-side * ey) / el, ny = (side * ex) / el;
    px[e] = ax + u * ex + r * nx; py[e] = ay + u * ey + r * ny;
    const vn = vx[e] * nx + vy[e] * ny;
    if (vn < 0) { vx[e] -= vn * nx; vy[e] -= vn * ny; }
  }
}

/**
 * The nearest point, to p = (args[0], args[1]), of the closed segments that have p strictly on their left (solid)
 * side: args[2..4) ← the point, args[4] ← its distance; returns the segment, or −1 when the layer has none.
 * Searched over squares of the grid doubling from one cell until the best distance found is within the square (a
 * nearer segment would have a point inside it, hence be filed in a cell it covers) or the square holds the grid.
 * For depenetration only (an agent inside an obstacle: rare), so the repeated scans of inner cells are fine.
 */
function nearestSolidEdge(sg: SegmentLayer, args: Float64Array): number {
  const x = args[0], y = args[1];
  const cs = sg.cs, s = sg.seg, closed = sg.closed, items = sg.items, start = sg.start;
  const gx1 = sg.x0 + sg.nx * cs, gy1 = sg.y0 + sg.ny * cs;
  let best = Infinity, bestK = -1, bx = 0, by = 0;
  for (let R = cs; ; R *= 2) {
    const i0 = Math.max(0, Math.floor((x - R - sg.x0) / cs)), i1 = Math.min(sg.nx - 1, Math.floor((x + R - sg.x0) / cs));
    const j0 = Math.max(0, Math.floor((y - R - sg.y0) / cs)), j1 = Math.min(sg.ny - 1, Math.floor((y + R - sg.y0) / cs));
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
      const cell = j * sg.nx + i;
      for (let t = start[cell], te = start[cell + 1]; t < te; t++) {
        const k = items[t];
        if (closed[k] === 0) continue;
        const o = 4 * k, ax = s[o], ay = s[o + 1], ex = s[o + 2] - ax, ey = s[o + 3] - ay;
        if (!(ex * (y - ay) - ey * (x - ax) > 0)) continue; // p not on its solid side
        const e2 = ex * ex + ey * ey;
        let u = ((x - ax) * ex + (y - ay) * ey) / e2;
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        const qx = ax + u * ex, qy = ay + u * ey, d2 = (x - qx) * (x - qx) + (y - qy) * (y - qy);
        if (d2 < best || (d2 === best && k < bestK)) { best = d2; bestK = k; bx = qx; by = qy; }
      }
    }
    if ((bestK >= 0 && best <= R * R) || (x - R <= sg.x0 && x + R >= gx1 && y - R <= sg.y0 && y + R >= gy1)) break;
  }
  args[2] = bx; args[3] = by; args[4] = Math.sqrt(best);
  return bestK;
}

/**
 * Depenetration: agent e whose centre lies in the solid of the closed rings (winding number ≥ solidW: spawned or
 * teleported inside an obstacle, or the obstacle added over it) goes to the nearest free point its radius from the
 * wall, as a physics engine separates a body that starts inside another: the nearest point c of the solid's
 * boundary, then r further out along p → c (at a point of an edge that is its outward normal; at a vertex, the
 * direction from the centre through it). The segments searched are those with the centre on their solid side
 * (nearestSolidEdge): an edge of one obstacle lying inside another, which both sides of are solid, is left once
 * the centre has crossed it. Up to four moves (obstacles overlapping each other); what is left near the new place
 * (a corner, a second wall) is for the projection. Its velocity loses the component pointing back in. Returns true
 * if it moved.
 */
function depenetrate(world: CrowdWorld, sg: SegmentLayer, e: number, bound: Float64Array): boolean {
  const px = world.position.x, py = world.position.y, vx = world.velocity.x, vy = world.velocity.y;
  const r = bound[e], ch = _chord, a = _nearArgs;
  let moved = false;
  for (let it = 0; it < 4; it++) {
    ch[2] = px[e]; ch[3] = py[e];
    if (windingAt(sg, ch) < sg.solidW) break;
    const x = px[e], y = py[e];
    a[0] = x; a[1] = y;
    const k = nearestSolidEdge(sg, a);
    if (k < 0) break;
    const cx = a[2], cy = a[3], d = a[4];
    let nx: number, ny: number;
    if (d > 1e-12 * (r + Math.abs(cx) + Math.abs(cy))) { nx = (cx - x) / d; ny = (cy - y) / d; }
    else {
      // the centre on the edge: its outward (right) normal
      const o = 4 * k, ex = sg.seg[o + 2] - sg.seg[o], ey = sg.seg[o + 3] - sg.seg[o + 1], el = Math.sqrt(ex * ex + ey * ey);
      nx = ey / el; ny = -ex / el;
    }
    px[e] = cx + r * nx; py[e] = cy + r * ny;
    moved = true;
    const vn = vx[e] * nx + vy[e] * ny;
    if (vn < 0) { vx[e] -= vn * nx; vy[e] -= vn * ny; }
  }
  return moved;
}

/**
 * The swept test for static shapes (see sweepSegments): where the chord from (fromX[e], fromY[e]) to agent e's
 * centre first enters a static shape it started outside of (Cyrus–Beck clipping against the polygon's edge
 * half-planes, moved out by its rounding radius, which is conservative at rounded corners; a circle by its
 * quadratic), the centre slides back out: it is moved along the outward normal n of the entry face (the circle's
 * tangent line at the entry point X) to the agent's bounding radius beyond that line, p ← p + ((X − p)·n + r) n,
 * keeping its motion along the face. The start and the new end are both outside that face's half-plane, so the new
 * chord does not enter the (convex) shape. The velocity loses its component into the shape. A start inside a shape
 * is left to the contact projection (it separates along the shortest way out). Returns true if the agent moved.
 */
function sweepStatics(world: CrowdWorld, st: ContactsState, e: number, fromX: Float64Array, fromY: Float64Array): boolean {
  const g = st.grid;
  const px = world.position.x, py = world.position.y;
  const fx = fromX[e], fy = fromY[e], qx = px[e], qy = py[e];
  if (fx === qx && fy === qy) return false; // did not move
  const lo = fx < qx ? fx : qx, hi = fx < qx ? qx : fx, loY = fy < qy ? fy : qy, hiY = fy < qy ? qy : fy;
  const i0 = Math.max(0, Math.floor((lo - g.x0) / g.cs)), i1 = Math.min(g.nx - 1, Math.floor((hi - g.x0) / g.cs));
  const j0 = Math.max(0, Math.floor((loY - g.y0) / g.cs)), j1 = Math.min(g.ny - 1, Math.floor((hiY - g.y0) / g.cs));
  let bestT = Infinity, bnx = 0, bny = 0;
  for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
    const cell = j * g.nx + i;
    for (let t = g.start[cell], te = g.start[cell + 1]; t < te; t++) {
      const k = g.items[t];
      if (hi < st.staticMinX[k] || lo > st.staticMaxX[k] || hiY < st.staticMinY[k] || loY > st.staticMaxY[k]) continue;
      const shape = st.statics[k], pose = st.staticPose[k];
      const c = pose[2], sn = pose[3];
      // the chord in the shape's frame: f + t·d
      const lx = c * (fx - pose[0]) + sn * (fy - pose[1]), ly = -sn * (fx - pose[0]) + c * (fy - pose[1]);
      const dx = c * (qx - fx) + sn * (qy - fy), dy = -sn * (qx - fx) + c * (qy - fy);
      const verts = shape.verts, normals = shape.normals, rho = shape.radius;
      let tIn = 0, nlx = 0, nly = 0;
      if (shape.kind === 'circle') {
        const ox = lx - verts[0], oy = ly - verts[1];
        const aa = dx * dx + dy * dy, b = ox * dx + oy * dy, cc = ox * ox + oy * oy - rho * rho;
        if (!(cc > 0 && aa > 0)) continue; // starts inside (or does not move)
        const disc = b * b - aa * cc;
        if (!(disc >= 0)) continue;
        tIn = (-b - Math.sqrt(disc)) / aa;
        if (!(tIn >= 0 && tIn <= 1)) continue;
        nlx = (ox + tIn * dx) / rho; nly = (oy + tIn * dy) / rho;
      } else {
        let tOut = 1, entering = -1, inside = true, miss = false;
        for (let v = 0; v < shape.count; v++) {
          const nx = normals[2 * v], ny = normals[2 * v + 1];
          // inside the half-plane n·x ≤ n·v_i + ρ along f + t·d: t·(n·d) ≤ num
          const num = nx * (verts[2 * v] - lx) + ny * (verts[2 * v + 1] - ly) + rho, den = nx * dx + ny * dy;
          if (num < 0) inside = false;
          if (den === 0) { if (num < 0) { miss = true; break; } continue; }
          const tt = num / den;
          if (den < 0) { if (tt > tIn) { tIn = tt; entering = v; } } else if (tt < tOut) tOut = tt;
        }
        if (inside || miss || entering < 0 || tIn > tOut) continue;
        nlx = normals[2 * entering]; nly = normals[2 * entering + 1];
      }
      if (tIn < bestT) { bestT = tIn; bnx = c * nlx - sn * nly; bny = sn * nlx + c * nly; }
    }
  }
  if (bestT === Infinity) return false;
  const r = st.bound[e];
  const back = (fx + bestT * (qx - fx) - qx) * bnx + (fy + bestT * (qy - fy) - qy) * bny + r;
  px[e] = qx + back * bnx; py[e] = qy + back * bny;
  const vx = world.velocity.x, vy = world.velocity.y, vn = vx[e] * bnx + vy[e] * bny;
  if (vn < 0) { vx[e] -= vn * bnx; vy[e] -= vn * bny; }
  return true;
}

/**
 * Circle (x, y, r) = args[0..3) against the obstacle segments near it: the smallest distance from the centre to any
 * of them minus r (a gap, negative = penetration; Infinity if none), over the segments within r + reach = args[3],
 * written to args[4]. Exact: closest point on each segment.
 */
function segmentGap(sg: SegmentLayer, args: Float64Array): void {
  // (x, y, r, reach) in args[0..4), the gap out in args[4]: see _gapArgs.
  const x = args[0], y = args[1], r = args[2], reach = args[3];
  let gap = Infinity;
  args[4] = gap;
  const q = r + reach;
  const i0 = Math.max(0, Math.floor((x - q - sg.x0) / sg.cs)), i1 = Math.min(sg.nx - 1, Math.floor((x + q - sg.x0) / sg.cs));
  const j0 = Math.max(0, Math.floor((y - q - sg.y0) / sg.cs)), j1 = Math.min(sg.ny - 1, Math.floor((y + q - sg.y0) / sg.cs));
  if (i0 > i1 || j0 > j1) return;
  // A segment filed in several of the cells is measured once per cell: the minimum does not care, and no stamp is
  // written (how often this runs depends on the detection cache, which snapshots do not carry, so it must leave the
  // saved state alone).
  const s = sg.seg;
  for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
    const cell = j * sg.nx + i;
    for (let t = sg.start[cell]; t < sg.start[cell + 1]; t++) {
      const k = sg.items[t];
      const o = 4 * k;
      const ax = s[o], ay = s[o + 1], ex = s[o + 2] - ax, ey = s[o + 3] - ay;
      const e2 = ex * ex + ey * ey;
      let u = e2 > 0 ? ((x - ax) * ex + (y - ay) * ey) / e2 : 0;
      u = u < 0 ? 0 : u > 1 ? 1 : u;
      const dx = x - ax - u * ex, dy = y - ay - u * ey;
      const g = Math.sqrt(dx * dx + dy * dy) - r;
      if (g < gap) gap = g;
    }
  }
  args[4] = gap;
}

/**
 * The frame-start segment check of agent e (detect, round 0): the swept test from its last place, then, unless
 * that place lay in its segment-free disc (then a way that crosses no wall ends in free space too), the
 * depenetration test. Out of line: the skip in the caller is what most agents take.
 */
function wallStep(world: CrowdWorld, sg: SegmentLayer, e: number, prevX: Float64Array, prevY: Float64Array, bound: Float64Array, fromFree: boolean): void {
  sweepSegments(world, sg, e, prevX, prevY, bound);
  if (sg.closedCount > 0 && !fromFree) depenetrate(world, sg, e, bound);
}

/**
 * Move agent e (a circle of its bounding radius) fully out of every obstacle segment it overlaps, on the side it
 * came from. First the swept test from (fromX[e], fromY[e]), the agent's place at the start of the detection round
 * (free: every agent is checked at the start of the frame, see detect, and after every round): a centre
 * that crossed a wall since, or entered a closed obstacle, slides back to the start's side (sweepSegments). Then,
 * for each segment, the closest point c on it; if |p − c| < r, p ← c + r (p − c)/|p − c| (a centre exactly on the
 * segment goes to the segment's right, the outside of a closed ring's edge), and the velocity component into the
 * segment is removed. Segments are immovable, so this is the exact projection onto each constraint; sequential over
 * the segments of one agent (two rounds, for corners), independent across agents (deterministic in any agent
 * order). A projection that pushed the centre across another wall (two walls closer than the agent is wide) is
 * taken back by a last swept test: the wall it would cross wins. Each step is skipped when the agent's cached
 * segment-free disc (see nearSegments) rules it out: both ends of the chord in the disc (no crossing), or the
 * centre deeper in it than r (no segment within reach). A skip changes nothing: the step would have found nothing.
 */
function projectOutOfSegments(world: CrowdWorld, sg: SegmentLayer, c: ContactsCache, e: number, bound: Float64Array, fromX: Float64Array, fromY: Float64Array): boolean {
  const px = world.position.x, py = world.position.y;
  const L = c.segLow[e], gx = c.segGx[e], gy = c.segGy[e], r = bound[e];
  const fdx = fromX[e] - gx, fdy = fromY[e] - gy, fromIn = L > 0 && fdx * fdx + fdy * fdy < L * L;
  let dx = px[e] - gx, dy = py[e] - gy;
  let any = false;
  if (!(fromIn && dx * dx + dy * dy < L * L)) { any = sweepSegments(world, sg, e, fromX, fromY, bound); dx = px[e] - gx; dy = py[e] - gy; }
  const room = L - r;
  if (room > 0 && dx * dx + dy * dy < room * room) return any;
  if (projectNearSegments(world, sg, e, bound)) {
    any = true;
    dx = px[e] - gx; dy = py[e] - gy;
    if (!(fromIn && dx * dx + dy * dy < L * L)) sweepSegments(world, sg, e, fromX, fromY, bound);
  }
  return any;
}

/** The projection step of projectOutOfSegments (two sequential rounds over the segments around the agent). */
function projectNearSegments(world: CrowdWorld, sg: SegmentLayer, e: number, bound: Float64Array): boolean {
  const r = bound[e]; // the radius read here, not passed: a double argument would be boxed
  const px = world.position.x, py = world.position.y, vx = world.velocity.x, vy = world.velocity.y;
  const s = sg.seg;
  let any = false;
  for (let round = 0; round < 2; round++) {
    const x = px[e], y = py[e];
    const i0 = Math.max(0, Math.floor((x - r - sg.x0) / sg.cs)), i1 = Math.min(sg.nx - 1, Math.floor((x + r - sg.x0) / sg.cs));
    const j0 = Math.max(0, Math.floor((y - r - sg.y0) / sg.cs)), j1 = Math.min(sg.ny - 1, Math.floor((y + r - sg.y0) / sg.cs));
    if (i0 > i1 || j0 > j1) return any;
    const stamp = ++sg.stampValue;
    let moved = false;
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) {
      const cell = j * sg.nx + i;
      for (let t = sg.start[cell]; t < sg.start[cell + 1]; t++) {
        const k = sg.items[t];
        if (sg.stamp[k] === stamp) continue;
        sg.stamp[k] = stamp;
        const o = 4 * k;
        const ax = s[o], ay = s[o + 1], ex = s[o + 2] - ax, ey = s[o + 3] - ay;
        const e2 = ex * ex + ey * ey;
        const cx0 = px[e], cy0 = py[e];
        let u = e2 > 0 ? ((cx0 - ax) * ex + (cy0 - ay) * ey) / e2 : 0;
        u = u < 0 ? 0 : u > 1 ? 1 : u;
        const qx = ax + u * ex, qy = ay + u * ey;
        let dx = cx0 - qx, dy = cy0 - qy;
        const d2 = dx * dx + dy * dy;
        if (d2 >= r * r) continue;
        const d = Math.sqrt(d2);
        let nx: number, ny: number;
        if (d > 1e-12 * r) { nx = dx / d; ny = dy / d; }
        else { const el = Math.sqrt(e2); nx = el > 0 ? ey / el : 1; ny = el > 0 ? -ex / el : 0; }
        dx = nx * r; dy = ny * r;
        px[e] = qx + dx; py[e] = qy + dy;
        moved = true;
        const vn = vx[e] * nx + vy[e] * ny;
        if (vn < 0) { vx[e] -= vn * nx; vy[e] -= vn * ny; }
      }
    }
    if (!moved) return any;
    any = true;
  }
  return any;
}

/** Append a resolution constraint (grows the internal list by doubling; steady state allocates nothing). */
function pushConstraint(st: ContactsState, a: number, b: number, circle: number, args: Float64Array): void {
  const nx = args[0], ny = args[1], depth = args[2]; // see _kArgs
  if (st.kCount === st.kA.length) {
    const cap = 2 * st.kA.length;
    const gi = (x: Int32Array) => { const y = new Int32Array(cap); y.set(x); return y; };
    const gf = (x: Float64Array) => { const y = new Float64Array(cap); y.set(x); return y; };
    const k = new Uint8Array(cap); k.set(st.kCircle);
    st.kA = gi(st.kA); st.kB = gi(st.kB); st.kNx = gf(st.kNx); st.kNy = gf(st.kNy); st.kDepth = gf(st.kDepth); st.kCircle = k;
  }
  const c = st.kCount++;
  if (circle === 0) st.kShaped++;
  st.kA[c] = a; st.kB[c] = b; st.kCircle[c] = circle; st.kNx[c] = nx; st.kNy[c] = ny; st.kDepth[c] = depth;
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
    if (need > prev.capacity) st.buffer = createBuffer(need);
  }
  const buf = st.buffer;
  buf.count = 0; buf.overflow = 0;
  const dense = world.agents.dense;
  const px = world.position.x, py = world.position.y;
  const shapes = agentShapeComponent(world);
  const shapeIdx = shapes.shape, angle = shapes.angle;
  const table = agentShapeTable(world);
  if (st.gridDirty) buildStaticGrid(st, world.config.cellSize);
  refreshSegments(world, st);
  const c = cacheOf(world, st);
  if (st.bound.length < world.capacity + 1) {
    const m = world.capacity + 1;
    st.bound = new Float64Array(m); st.agentStamp = new Int32Array(m); st.accX = new Float64Array(m); st.accY = new Float64Array(m); st.accN = new Int32Array(m);
    st.x0 = new Float64Array(m); st.y0 = new Float64Array(m); st.wallStamp = new Int32Array(m); st.nearWall = new Int32Array(m);
    st.active = new Int32Array(m); st.qx = new Float64Array(m); st.qy = new Float64Array(m);
  }
  // Idle agents yield (ContactsOptions.yieldShare; nothing to do at 0.5): levels are computed in resolve.
  const share = st.yieldShare === undefined ? CONTACTS_YIELD_SHARE : st.yieldShare;
  _contactsYieldK = share === 0.5 ? 1 : (1 - share) / share;
  if (_contactsYieldK !== 1) {
    if (_contactsLevel.length < world.capacity + 1) {
      _contactsLevel = new Uint8Array(world.capacity + 1);
      _contactsLevelStamp = new Int32Array(world.capacity + 1);
    }
    // a new stamp per call (wrapping after 2^31 calls: 2 years at 30 Hz, and then only a stale level could be reused
    // for an agent last in a contact exactly 2^32 calls before)
    _contactsCall = (_contactsCall + 1) | 0;
  }
  let pairs = 0, passes = 0, rounds = 0;
  const builds0 = c.listBuilds;
  c.sinceBuild++;
  // Detection and resolution rounds. The candidate lists of a round stay valid while no agent has moved by more than
  // half the speculative distance since its detection (a pair further apart than that cannot have closed); the
  // resolution stops early when one has, and a new round re-detects from the current positions. All rounds share
  // the `iterations` budget of passes.
  const maxRounds = 16;
  for (let round = 0; round < maxRounds; round++) {
    rounds++;
    const spec = detect(world, st, round);
    pairs += st.kCount + st.nearCount;
    passes += resolve(world, st, c, 0.25 * spec * spec, st.iterations - passes);
    if (!st.escaped) break;
    // Some agent moved by more than half the speculative distance in the last pass. One that was not near a
    // segment at this round's detection (its gap was at least spec) and has moved spec or more since may have reached
    // one, or crossed a thin one: it is checked from its round start (near-wall agents were, after every pass;
    // static shapes are looked for by the next round, a full detection when there are any, and at the end of the
    // frame). Then the next round's start: only the agents resolve moved have changed.
    const last = passes >= st.iterations, act = st.active, x0 = st.x0, y0 = st.y0, wf = st.wallStampValue, reach2 = spec * spec;
    for (let i = 0; i < st.na; i++) {
      const e = act[i], dx = px[e] - x0[e], dy = py[e] - y0[e];
      if (st.seg.nx > 0 && dx * dx + dy * dy >= reach2 && st.wallStamp[e] !== wf) projectOutOfSegments(world, st.seg, c, e, st.bound, x0, y0);
      if (!last) { x0[e] = px[e]; y0[e] = py[e]; }
    }
    if (last) break;
  }
  // ---- 5. static shapes: exact sequential projection of every agent that took part in a contact (it may have been
  // pushed into a shape it did not touch before) out of the static shapes around it ----
  const nc = st.kCount;
  if (st.statics.length > 0 && nc > 0) {
    const frame = ++st.agentStampValue;
    const seen = st.agentStamp;
    for (let c = 0; c < nc; c++) {
      for (let side = 0; side < 2; side++) {
        const e = side === 0 ? st.kA[c] : st.kB[c];
        if (e < 0 || seen[e] === frame) continue;
        seen[e] = frame;
        projectOutOfStatics(world, st, e, table, shapeIdx, angle);
      }
    }
  }
  profileCount(world.profiler, 'contacts', 'pairs', pairs);
  profileCount(world.profiler, 'contacts', 'contacts', buf.count);
  profileCount(world.profiler, 'contacts', 'overflow', buf.overflow);
  profileCount(world.profiler, 'contacts', 'passes', passes);
  profileCount(world.profiler, 'contacts', 'rounds', rounds);
  profileCount(world.profiler, 'contacts', 'pairLists', c.listBuilds - builds0);
  profileCount(world.profiler, 'contacts', 'pairListSkin', c.skin);
  profileRecord(world.profiler, 'contacts', t0);
}

/**
 * Broad and narrow phase (passes 1–3): fills the constraint list with every agent pair and agent × static shape
 * within the speculative distance (returned, metres) and the near-wall list with every agent within it of an
 * obstacle segment; writes the touching ones (depth ≥ −margin) to the user buffer when `round` is 0.
 *
 * Candidate pairs come from a list of every agent pair within r_a + r_b + listPad of each other (listPad = spec +
 * a skin), from a cell-list sweep over the positions when it was built (src/contacts/pair-grid.ts). It is kept
 * across rounds and frames while it provably still holds every candidate (Verlet's neighbour list with a skin,
 * Verlet 1967): the same agents, no bounding radius grown, and no agent moved by more than (listPad − spec) / 2
 * since the build (a pair not on the list was more than r_a + r_b + listPad apart, so it is still more than
 * r_a + r_b + spec apart: not a candidate). Otherwise it is rebuilt. Each round filters it exactly, so every round
 * sees exactly the pairs within r_a + r_b + spec of each other at its start, in the same order, as if it had
 * searched afresh; only the cost depends on when the list was built.
 */
function detect(world: CrowdWorld, st: ContactsState, round: number): number {
  const c = cacheOf(world, st);
  const n = world.agents.count, dense = world.agents.dense;
  const buf = st.buffer;
  const report = round === 0;
  const px = world.position.x, py = world.position.y;
  const radius = world.agent.radius;
  const shapes = agentShapeComponent(world);
  const shapeIdx = shapes.shape, angle = shapes.angle;
  const table = agentShapeTable(world);
  const bound = st.bound;
  const lodFlags = lodComponent(world).flags;
  let rebuild = false, full = round === 0;
  if (round === 0) {
    // ---- 1. bounds (once per frame: radii and shapes do not change within it); walls for every agent whatever its
    // LOD tier (far agents look for agent contacts one frame in N, but move in every frame): the straight way from
    // where the agent ended the last frame (position.previous) to where integration put it must not pass through a
    // static shape or an obstacle segment (sweepStatics, sweepSegments: a step longer than the agent's radius would
    // otherwise tunnel through a thin wall), and a centre in the solid of the closed obstacles (started inside, or
    // an obstacle added over it) is put out (depenetrate); the segment part is skipped, in a few flops, while both
    // ends of the way lie in the disc round (segGx, segGy) that the segment-distance bound keeps free of segments
    // (nothing in it is solid, and no chord in it crosses a wall: see nearSegments). Then the round's start
    // positions, and whether the pair list kept from earlier frames still holds every candidate: the same agents, no
    // bound grown, and every agent within half of the list's slack (listPad − spec) of where it was when the list
    // was built. And the agents that look for contacts (actList), and those that do not but may be near a wall
    // (passList: the segment test of the narrow phase, done here with last frame's speculative distance, which is
    // as large as this frame's unless the largest radius or the margin grew; then every one of them is listed). One
    // pass over the agents for all of it (the stores are read once). ----
    let maxBound = 0, d2max = 0, na = 0, np = 0;
    const actList = c.actList, passList = c.passList, specGuess = c.spec;
    let valid = c.listN === n;
    const gx = c.gx, gy = c.gy, lb = c.listBound, ld = c.listDense, x0 = st.x0, y0 = st.y0;
    const prevX = world.position.previousX, prevY = world.position.previousY;
    const walls = st.seg.nx > 0, statics = st.grid.nx > 0, segLow = c.segLow, segGx = c.segGx, segGy = c.segGy;
    for (let i = 0; i < n; i++) {
      const e = dense[i];
      const k = shapeIdx[e];
      const b = k < 0 ? radius[e] : table[k].boundingRadius;
      bound[e] = b;
      if (b > maxBound) maxBound = b;
      if (statics) sweepStatics(world, st, e, prevX, prevY);
      if (walls) {
        const L = segLow[e], sx = segGx[e], sy = segGy[e];
        const ax = px[e] - sx, ay = py[e] - sy, bx = prevX[e] - sx, by = prevY[e] - sy;
        const fromFree = L > 0 && bx * bx + by * by < L * L;
        if (!(fromFree && ax * ax + ay * ay < L * L)) wallStep(world, st.seg, e, prevX, prevY, bound, fromFree);
      }
      x0[e] = px[e]; y0[e] = py[e];
      if ((lodFlags[e] & LOD_CONTACTS) !== 0) actList[na++] = e;
      else if (statics) passList[np++] = e;
      else if (walls) {
        const dx = px[e] - segGx[e], dy = py[e] - segGy[e], room = segLow[e] - b - specGuess;
        if (!(room > 0 && dx * dx + dy * dy < room * room)) passList[np++] = e;
      }
      if (valid) {
        if (ld[i] !== e || b > lb[e]) valid = false;
        const dx = px[e] - gx[e], dy = py[e] - gy[e], d2 = dx * dx + dy * dy;
        if (d2 > d2max) d2max = d2;
      }
    }
    c.maxBound = maxBound;
    // speculative distance: pairs this close are resolution candidates even if not touching yet (resolution moves
    // agents; a pair further apart than this cannot close unless some agent moves by more than half of it, which
    // resolve checks)
    c.spec = st.margin + 0.25 * maxBound;
    if (c.spec > specGuess && (walls || statics)) {
      np = 0;
      for (let i = 0; i < n; i++) { const e = dense[i]; if ((lodFlags[e] & LOD_CONTACTS) === 0) passList[np++] = e; }
    }
    c.actCount = na; c.passCount = np;
    const slack = c.listPad - c.spec;
    rebuild = !valid || !(slack > 0) || 4 * d2max > slack * slack * (1 - 1e-9);
    c.listDisp2 = d2max;
  } else {
    // displacement since the pair list was built: only the agents the last resolution touched have moved
    const gx = c.gx, gy = c.gy, act = st.active;
    let d2max = c.listDisp2;
    for (let i = 0; i < st.na; i++) {
      const e = act[i], dx = px[e] - gx[e], dy = py[e] - gy[e], d2 = dx * dx + dy * dy;
      if (d2 > d2max) d2max = d2;
    }
    c.listDisp2 = d2max;
    // valid while 2 · max displacement ≤ listPad − spec (a relative 1e-9 below it, for round-off in the distances)
    const slack = c.listPad - c.spec;
    if (4 * d2max > slack * slack * (1 - 1e-9)) {
      rebuild = true; full = true;
      // a full pass again: the skipped agents' wall test of pass 1 was for the positions then (some have been
      // pushed since), so every one of them is listed (with static shapes they all are already)
      if (st.seg.nx > 0 && st.grid.nx === 0) {
        let np = 0;
        const passList = c.passList;
        for (let i = 0; i < n; i++) { const e = dense[i]; if ((lodFlags[e] & LOD_CONTACTS) === 0) passList[np++] = e; }
        c.passCount = np;
      }
    }
  }
  const spec = c.spec, maxBound = c.maxBound;
  const pl = c.pairs;
  if (rebuild) {
    // ---- 2a. broad phase: every pair within r_a + r_b + spec + skin, from a grid over the positions now (all
    // agents, whatever their LOD flags this frame: the list serves the next frames too) ----
    // adapt the skin to how long the previous list lasted (see SKIN_MIN)
    if (c.listN >= 0) {
      if (c.sinceBuild < SKIN_SHORT) c.skin = Math.min(SKIN_MAX, c.skin * SKIN_GROW);
      else if (c.sinceBuild > SKIN_LONG) c.skin = Math.max(SKIN_MIN, c.skin * SKIN_SHRINK);
    }
    c.sinceBuild = 0;
    const pad = spec + c.skin * maxBound;
    buildPairGrid(c.grid2, px, py, bound, dense, n, Math.max(2 * maxBound + pad, 1e-9));
    gatherPairs(c.grid2, pad, dense, n, pl);
    const gx = c.gx, gy = c.gy, lb = c.listBound, ld = c.listDense;
    for (let i = 0; i < n; i++) { const e = dense[i]; gx[e] = px[e]; gy[e] = py[e]; lb[e] = bound[e]; ld[i] = e; }
    c.listN = n; c.listPad = pad; c.listDisp2 = 0;
    c.listBuilds++;
  }
  st.kCount = 0;
  st.kShaped = 0;
  st.nearCount = 0;
  const wallFrame = ++st.wallStampValue;
  // a later round with the same list and no static shapes: only the listed pairs and the agents that were within
  // reach of a segment need looking at (detectFromList); otherwise every agent is visited, and the pairs and those
  // agents are recorded for the later rounds
  if (!full && st.grid.nx === 0) { detectFromList(world, st, wallFrame); return spec; }
  if (pl.count > c.flatA.length) { c.flatA = new Int32Array(2 * pl.count); c.flatB = new Int32Array(2 * pl.count); }
  const flatA = c.flatA, flatB = c.flatB;
  let nf = 0;
  const pOff = pl.off, pCnt = pl.cnt, pB = pl.b;
  const walls = st.seg.nx > 0, statics = st.grid.nx > 0, segLow = c.segLow, segGx = c.segGx, segGy = c.segGy;
  _reachArgs[0] = spec; _reachArgs[1] = spec + WALL_SKIN * maxBound;
  // ---- 2b–3. narrow phase ----
  // LOD: only agents with the LOD_CONTACTS bit this frame look for agent contacts (far agents one frame in N); a
  // pair is handled once: by its smaller id when both are active, else by its active member. Walls (static shapes,
  // obstacle segments) are looked for around every agent, whatever its tier: an agent skipped this frame may be
  // pushed by an active neighbour, and moves between its own passes (it is projected, not reported). The skipped
  // agents that may be near a wall were listed by pass 1 (passList).
  _input.margin = spec; // for every manifold below (narrowPair, static shapes); restored at the end
  const actList = c.actList, na = c.actCount, passList = c.passList, np = c.passCount;
  for (let i = 0; i < na; i++) {
    const ea = actList[i];
    const xa = px[ea], ya = py[ea], ba = bound[ea];
    for (let q = pOff[ea], qe = q + pCnt[ea]; q < qe; q++) {
      const eb = pB[q];
      if (eb < ea && (lodFlags[eb] & LOD_CONTACTS) !== 0) continue; // each pair once (see above)
      flatA[nf] = ea; flatB[nf] = eb; nf++;
      const dx = px[eb] - xa, dy = py[eb] - ya;
      const reach = ba + bound[eb] + spec;
      const d2 = dx * dx + dy * dy;
      if (d2 > reach * reach) continue;
      narrowPair(world, st, ea, eb, report, radius, shapeIdx, angle, table);
    }
    if (statics) nearStatics(world, st, ea, report, wallFrame, table, shapeIdx, angle);
    // obstacle segments (ORCA obstacles, steering walls): agents within the speculative distance are projected
    // out of them after every resolution pass. The distance from a point to the segment set is 1-Lipschitz, so a
    // lower bound L of the centre's distance taken at (gx, gy) still bounds it at p by L − |p − g|: while that is
    // ≥ r + spec the agent is certainly not near a segment and the search is skipped (across frames too; the bound
    // is reset when the segments change). Otherwise the exact gap decides (nearSegments).
    if (walls && st.wallStamp[ea] !== wallFrame) {
      const ddx = xa - segGx[ea], ddy = ya - segGy[ea], room = segLow[ea] - ba - spec;
      if (!(room > 0 && ddx * ddx + ddy * ddy < room * room)) nearSegments(st, c, ea, px, py, wallFrame);
    }
  }
  // the same wall tests for the listed skipped agents (not reported)
  for (let i = 0; i < np; i++) {
    const ea = passList[i];
    if (statics) nearStatics(world, st, ea, false, wallFrame, table, shapeIdx, angle);
    if (walls && st.wallStamp[ea] !== wallFrame) {
      const ddx = px[ea] - segGx[ea], ddy = py[ea] - segGy[ea], room = segLow[ea] - bound[ea] - spec;
      if (!(room > 0 && ddx * ddx + ddy * ddy < room * room)) nearSegments(st, c, ea, px, py, wallFrame);
    }
  }
  c.flatCount = nf;
  _input.margin = st.margin;
  return spec;
}

/**
 * Static shapes around agent `ea` for the detection's full pass: a contact within the speculative distance (read
 * from _reachArgs[0]: a double argument would be boxed) marks it near-wall (it is projected out of them after every
 * pass: not a Jacobi constraint), and is written to the buffer when `report`.
 */
function nearStatics(
  world: CrowdWorld, st: ContactsState, ea: number, report: boolean, wallFrame: number,
  table: Shape2[], shapeIdx: Int32Array, angle: Float64Array,
): void {
  const xa = world.position.x[ea], ya = world.position.y[ea], spec = _reachArgs[0];
  const g = st.grid;
  const r = st.bound[ea] + spec;
  const i0 = Math.max(0, Math.floor((xa - r - g.x0) / g.cs)), i1 = Math.min(g.nx - 1, Math.floor((xa + r - g.x0) / g.cs));
  const j0 = Math.max(0, Math.floor((ya - r - g.y0) / g.cs)), j1 = Math.min(g.ny - 1, Math.floor((ya + r - g.y0) / g.cs));
  if (i0 > i1 || j0 > j1) return;
  const stamp = ++st.stampValue;
  for (let j = j0; j <= j1; j++) for (let ii = i0; ii <= i1; ii++) {
    const cell = j * g.nx + ii;
    for (let t = g.start[cell]; t < g.start[cell + 1]; t++) {
      const k = g.items[t];
      if (st.stamp[k] === stamp) continue;
      st.stamp[k] = stamp;
      if (xa + r < st.staticMinX[k] || xa - r > st.staticMaxX[k] || ya + r < st.staticMinY[k] || ya - r > st.staticMaxY[k]) continue;
      _input.margin = spec;
      _input.shapeA = agentShape(world, ea, table, shapeIdx, angle, _poseA, _circles);
      _input.shapeB = st.statics[k];
      const sp = st.staticPose[k];
      _poseB[0] = sp[0]; _poseB[1] = sp[1]; _poseB[2] = sp[2]; _poseB[3] = sp[3];
      contactManifold2(_input, _man);
      if (_man.count > 0) {
        if (st.wallStamp[ea] !== wallFrame) { st.wallStamp[ea] = wallFrame; st.nearWall[st.nearCount++] = ea; }
        if (report && _man.depth >= -st.margin) writeContact(st.buffer, ea, -1 - k, _man);
      }
    }
  }
}

/**
 * Obstacle segments (ORCA obstacles, steering walls): marks agent e near-wall when its gap to a segment is below
 * `spec` (it is then projected out of them after every resolution pass). Called when the agent's cached bound does
 * not rule that out (the caller's test, inline: the distance from a point to the segment set is 1-Lipschitz, so a
 * lower bound L of the centre's distance taken at (segGx, segGy) still bounds it at p by L − |p − g|; while that is
 * ≥ r + spec the agent is certainly not near a segment, across frames too, the bound being reset when the segments
 * change). The exact gap is searched over `segReach` (> spec) so the new bound lets the agent skip the next tests;
 * the disc of radius L round the new g then holds no segment, and g itself is free (every agent is put out of the
 * solid before detection): nothing in the disc is solid, and no chord inside it crosses a wall (the skips of the
 * wall checks, detect and projectOutOfSegments). The position and bound are read from the arrays and spec,
 * segReach from _reachArgs (set by the caller): a fractional double passed to a call V8 does not inline is boxed,
 * and whether this one is inlined into detect depends on V8's inlining budget (it was not after narrowPair grew
 * detect: a HeapNumber per agent per frame, 87 KB per frame in the 5,000-agent horde).
 */
function nearSegments(st: ContactsState, c: ContactsCache, e: number, px: Float64Array, py: Float64Array, wallFrame: number): void {
  const segLow = c.segLow, segGx = c.segGx, segGy = c.segGy;
  const x = px[e], y = py[e], r = st.bound[e], spec = _reachArgs[0], segReach = _reachArgs[1];
  _gapArgs[0] = x; _gapArgs[1] = y; _gapArgs[2] = r; _gapArgs[3] = segReach;
  segmentGap(st.seg, _gapArgs);
  const gap = _gapArgs[4];
  // every segment not searched is more than r + segReach from the centre (outside the cells visited); the bound is
  // lowered by a relative 1e-9 for round-off in the distances
  const low = (gap < segReach ? gap : segReach) + r;
  segLow[e] = low - 1e-9 * (low + Math.abs(x) + Math.abs(y)); segGx[e] = x; segGy[e] = y;
  if (gap < spec) {
    st.wallStamp[e] = wallFrame;
    st.nearWall[st.nearCount++] = e;
  }
}

/**
 * Narrow phase of one pair found within reach, for both detection paths. Two discs are handled inline: n = d/|d|,
 * depth = rA + rB − |d| ((nearly) coincident centres separate along +x, deterministically), and the reported point
 * lies midway between the surfaces; any other pair goes through the shape manifold. Only round 0 (`report`) writes
 * the contact buffer. The manifold's margin (the speculative distance) is set by the caller for its whole loop:
 * a fractional number passed to a call V8 does not inline would be boxed, once per pair.
 */
function narrowPair(
  world: CrowdWorld, st: ContactsState, ea: number, eb: number, report: boolean,
  radius: Float64Array, shapeIdx: Int32Array, angle: Float64Array, table: Shape2[],
): void {
  if (shapeIdx[ea] < 0 && shapeIdx[eb] < 0) {
    const px = world.position.x, py = world.position.y;
    const xa = px[ea], ya = py[ea];
    const dx = px[eb] - xa, dy = py[eb] - ya;
    const ra = radius[ea], rb = radius[eb];
    const d = Math.sqrt(dx * dx + dy * dy);
    let nx = 1, ny = 0;
    if (d > 1e-12 * (ra + rb)) { nx = dx / d; ny = dy / d; }
    const depth = ra + rb - d;
    _kArgs[0] = nx; _kArgs[1] = ny; _kArgs[2] = depth;
    pushConstraint(st, ea, eb, 1, _kArgs);
    if (report && depth >= -st.margin) {
      const mid = ra - 0.5 * depth;
      _man.count = 1; _man.normal[0] = nx; _man.normal[1] = ny; _man.depth = depth;
      _man.points[0] = xa + nx * mid; _man.points[1] = ya + ny * mid; _man.depths[0] = depth; _man.ids[0] = 0;
      writeContact(st.buffer, ea, eb, _man);
    }
    return;
  }
  _input.shapeA = agentShape(world, ea, table, shapeIdx, angle, _poseA, _circles);
  _input.shapeB = agentShape(world, eb, table, shapeIdx, angle, _poseB, _circles);
  contactManifold2(_input, _man);
  if (_man.count > 0) {
    _kArgs[0] = _man.normal[0]; _kArgs[1] = _man.normal[1]; _kArgs[2] = _man.depth;
    pushConstraint(st, ea, eb, 0, _kArgs);
    if (report && _man.depth >= -st.margin) writeContact(st.buffer, ea, eb, _man);
  }
}

/**
 * A later detection round re-using the candidate list, without static shapes: the listed pairs (in the order the
 * full pass visited them, so the constraints come out in the same order) and, for the segments, the agents the last
 * resolution took part in (st.active: every constraint's agents and the near-wall ones). An agent's distance to the
 * segments changes only when it moves, and it moves only in a resolution it takes part in, after which the next
 * detection tests it; so those are the only agents whose near-wall status can differ from the last round's (and
 * the near-wall ones must be listed again). Nothing is reported to the buffer (only round 0 reports).
 */
function detectFromList(world: CrowdWorld, st: ContactsState, wallFrame: number): void {
  const c = cacheOf(world, st);
  const px = world.position.x, py = world.position.y;
  const radius = world.agent.radius;
  const shapes = agentShapeComponent(world);
  const shapeIdx = shapes.shape, angle = shapes.angle;
  const table = agentShapeTable(world);
  const bound = st.bound, spec = c.spec;
  const flatA = c.flatA, flatB = c.flatB, nf = c.flatCount;
  _input.margin = spec; // for every manifold below; restored at the end
  for (let p = 0; p < nf; p++) {
    const ea = flatA[p], eb = flatB[p];
    const dx = px[eb] - px[ea], dy = py[eb] - py[ea];
    const reach = bound[ea] + bound[eb] + spec;
    const d2 = dx * dx + dy * dy;
    if (d2 > reach * reach) continue;
    narrowPair(world, st, ea, eb, false, radius, shapeIdx, angle, table);
  }
  if (st.seg.nx > 0) {
    _reachArgs[0] = spec; _reachArgs[1] = spec + WALL_SKIN * c.maxBound;
    const act = st.active, segLow = c.segLow, segGx = c.segGx, segGy = c.segGy;
    for (let w = 0, nw = st.na; w < nw; w++) {
      const e = act[w];
      // (the cached bound's test, as in detect)
      const ddx = px[e] - segGx[e], ddy = py[e] - segGy[e], room = segLow[e] - bound[e] - spec;
      if (!(room > 0 && ddx * ddx + ddy * ddy < room * room)) nearSegments(st, c, e, px, py, wallFrame);
    }
  }
  _input.margin = st.margin;
}

/**
 * Positional resolution (pass 4), Jacobi with per-agent averaging (Macklin et al. 2014, section 4.2): each pass
 * computes every constraint's correction from the same positions, then applies each agent's average, so the result
 * does not depend on the constraint order. Circle–circle constraints are re-evaluated exactly from the current
 * positions each pass (normal and depth); shaped ones keep their detected normal and update depth linearly from
 * the applied moves. A constraint deeper than `slop` is corrected to half the slop (so a resting contact is left
 * alone and the stopping test below can be met), split by inverse mass. After every pass each near-wall agent that
 * moved is projected exactly out of the obstacle segments (they are immovable: projected Jacobi). Stops when the
 * deepest constraint is within `slop`, or after `iterations` passes. Returns the passes applied.
 */
function resolve(world: CrowdWorld, st: ContactsState, c: ContactsCache, maxMove2: number, budget: number): number {
  const px = world.position.x, py = world.position.y;
  const radius = world.agent.radius, invMass = world.agent.invMass;
  const nc = st.kCount, nw = st.nearCount;
  const kA = st.kA, kB = st.kB, kNx = st.kNx, kNy = st.kNy, kDepth = st.kDepth, kCircle = st.kCircle;
  const accX = st.accX, accY = st.accY, accN = st.accN;
  const slop = st.slop, target = 0.5 * slop;
  const level = _contactsLevel, stores = orderStores(world);
  // walls first: agents that integration left inside one
  if (nw > 0) for (let w = 0; w < nw; w++) projectOut(world, st, c, st.nearWall[w]);
  // the agents taking part, once each, and their previous iterate
  const act = st.active, qx = st.qx, qy = st.qy;
  const frame = ++st.agentStampValue, seen = st.agentStamp;
  let na = 0;
  for (let c = 0; c < nc; c++) {
    const a = kA[c], b = kB[c];
    if (seen[a] !== frame) { seen[a] = frame; act[na++] = a; }
    if (b >= 0 && seen[b] !== frame) { seen[b] = frame; act[na++] = b; }
  }
  for (let w = 0; w < nw; w++) { const e = st.nearWall[w]; if (seen[e] !== frame) { seen[e] = frame; act[na++] = e; } }
  for (let i = 0; i < na; i++) { const e = act[i]; qx[e] = px[e]; qy[e] = py[e]; }
  st.na = na;
  // Idle agents yield: the order levels, looked up when a violated agent pair first needs them (once per call per
  // agent): most candidate pairs of a relaxed crowd are never violated, and every level is a few scattered reads
  // (computing them for every agent taking part cost the 100k horde ~3.5 % of the contacts system, 2026-11-30).
  const yieldK = _contactsYieldK, stamp = _contactsLevelStamp, call = _contactsCall;
  const rho2 = st.spectralRadius * st.spectralRadius;
  let cheb = 1, chebIt = 0, prevDeepest = Infinity;
  let passes = 0;
  st.escaped = false;
  for (let it = 0; it < budget; it++) {
    // (act holds every constraint's agents)
    for (let i = 0; i < na; i++) { const e = act[i]; accX[e] = 0; accY[e] = 0; accN[e] = 0; }
    let deepest = 0;
    for (let c = 0; c < nc; c++) {
      const a = kA[c], b = kB[c];
      let depth = 0, nx = 0, ny = 0;
      if (kCircle[c] === 1) {
        // exact re-evaluation: n = (p_b − p_a)/|p_b − p_a|, depth = r_a + r_b − |p_b − p_a|; nothing is stored for a
        // pair within slop (no correction), and a deeper pair keeps its normal for a later pass where the centres
        // coincide (then n cannot be measured)
        const dx = px[b] - px[a], dy = py[b] - py[a];
        const d = Math.sqrt(dx * dx + dy * dy);
        const rs = radius[a] + radius[b];
        depth = rs - d;
        if (!(depth > slop)) continue;
        if (d > 1e-12 * rs) { nx = dx / d; ny = dy / d; kNx[c] = nx; kNy[c] = ny; } else { nx = kNx[c]; ny = kNy[c]; }
      } else {
        depth = kDepth[c];
        if (!(depth > slop)) continue;
        nx = kNx[c]; ny = kNy[c];
      }
      let wa = invMass[a], wb = b >= 0 ? invMass[b] : 0;
      // Idle agents yield (ContactsOptions.yieldShare): the higher-level agent's weight is scaled down, unless the
      // lower one cannot move at all (then it takes nothing, and the higher one everything, as before).
      if (yieldK !== 1 && b >= 0) {
        if (stamp[a] !== call) { stamp[a] = call; level[a] = orderLevelAt(stores, a); }
        if (stamp[b] !== call) { stamp[b] = call; level[b] = orderLevelAt(stores, b); }
        if (level[a] !== level[b] && !sameSpotAt(stores, radius, a, b)) {
          if (level[a] > level[b]) { if (wb > 0) wa *= yieldK; } else if (wa > 0) wb *= yieldK;
        }
      }
      const w = wa + wb;
      if (!(w > 0)) continue;
      if (depth > deepest) deepest = depth;
      const k = (depth - target) / w;
      accX[a] -= nx * k * wa; accY[a] -= ny * k * wa; accN[a]++;
      if (b >= 0) { accX[b] += nx * k * wb; accY[b] += ny * k * wb; accN[b]++; }
    }
    if (deepest === 0) break;
    passes++;
    // adaptive restart (O'Donoghue and Candès 2015): when the deepest penetration grew, the momentum overshot; drop
    // it (x_prev = x) and start the Chebyshev sequence again. This keeps the accelerated iteration from diverging
    // when ρ is over-estimated or when projections make the iteration non-linear.
    if (deepest > prevDeepest) {
      chebIt = 0;
      for (let i = 0; i < na; i++) { const e = act[i]; qx[e] = px[e]; qy[e] = py[e]; }
    }
    prevDeepest = deepest;
    // Chebyshev weight (Wang 2015): ω1 = 1, ω2 = 2/(2 − ρ²), ωk+1 = 4/(4 − ρ² ωk)
    cheb = chebIt === 0 ? 1 : chebIt === 1 ? 2 / (2 - rho2) : 4 / (4 - rho2 * cheb);
    chebIt++;
    // x̂ = x + average correction; x_next = ω (x̂ − x_prev) + x_prev; the applied move goes to acc for the
    // linear depth update; moved agents are marked accN = −1
    for (let i = 0; i < na; i++) {
      const e = act[i];
      let hx = px[e], hy = py[e];
      if (accN[e] > 0) { const s = 1 / accN[e]; hx += accX[e] * s; hy += accY[e] * s; }
      const nx = cheb * (hx - qx[e]) + qx[e], ny = cheb * (hy - qy[e]) + qy[e];
      qx[e] = px[e]; qy[e] = py[e];
      accX[e] = nx - px[e]; accY[e] = ny - py[e];
      px[e] = nx; py[e] = ny;
      accN[e] = accX[e] !== 0 || accY[e] !== 0 ? -1 : 0;
    }
    // shaped constraints: linear depth update along the fixed normal, depth −= (move_B − move_A)·n
    if (st.kShaped > 0) for (let c = 0; c < nc; c++) {
      if (kCircle[c] === 1) continue;
      const a = kA[c], b = kB[c];
      const ma = accN[a] === -1, mb = b >= 0 && accN[b] === -1;
      let rx = ma ? -accX[a] : 0, ry = ma ? -accY[a] : 0;
      if (mb) { rx += accX[b]; ry += accY[b]; }
      kDepth[c] -= rx * kNx[c] + ry * kNy[c];
    }
    // static shapes and obstacle segments are immovable: project the agents near them that moved back out exactly
    // (projected Jacobi), and drop the momentum of a projected agent (x_prev = x) so the acceleration does not
    // carry it into the wall again. (A shaped constraint's linear depth may be stale by the projection; circle
    // ones are re-evaluated.)
    for (let w = 0; w < nw; w++) { const e = st.nearWall[w]; if (accN[e] === -1 && projectOut(world, st, c, e)) { qx[e] = px[e]; qy[e] = py[e]; } }
    // candidates still valid? (some agent moved by more than half the speculative distance: re-detect). The whole
    // list is scanned, without an early exit: in a pile the first agent escapes every pass, and a loop whose
    // increment never ran sends V8 back to unoptimised code each time it finally does (measured: 50 deopts of
    // resolve in 150 frames of the dense-pile bench).
    const x0 = st.x0, y0 = st.y0;
    let escaped = false;
    for (let i = 0; i < na; i++) {
      const e = act[i], dx = px[e] - x0[e], dy = py[e] - y0[e];
      if (dx * dx + dy * dy > maxMove2) escaped = true;
    }
    st.escaped = escaped;
    if (escaped) break;
  }
  return passes;
}
