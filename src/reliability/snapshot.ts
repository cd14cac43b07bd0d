import { addComponent, addEntity, removeEntity, $internal, type createEntityIndex } from 'bitecs';

type EntityIndex = ReturnType<typeof createEntityIndex>;
import type { CrowdWorld } from '../world/crowd';
import { InvalidArgumentError, MalformedInputError } from '../core/errors';
import type { AgentTypedArray } from '../world/alloc';
import { ByteReader, ByteWriter } from './bytes';
import { decodeValue, encodeValue, type DecodeContext, type EncodeContext } from './codec';
import { fnv1a32 } from './hash';
import { lodComponent } from '../../components/lod';
import { orcaComponent } from '../../components/orca';
import { boidsComponent } from '../../components/boids';
import { steeringComponent } from '../../components/steering';
import { navigationComponent } from '../../components/navigation';
import { corridorComponent } from '../../components/corridor';
import { formationComponent } from '../../components/formation';
import { agentShapeComponent } from '../../components/shape';

/**
 * Snapshots: the whole simulation state of a world as one compact binary, and back.
 *
 * What a snapshot holds (format version 1, little-endian):
 *   header   'MRMS' magic, u32 version, u32 total length, u32 FNV-1a checksum of everything after the header,
 *            u32 capacity (the target world must have the same maxAgents)
 *   clock    time.frame, time.seconds, time.accumulator, time.droppedSteps (f64)
 *   rng      the four sfc32 state words
 *   config   the mutable options (neighbourRadius, cellSize, fixedDt, maxStepsPerAdvance) and world.enabled
 *   ids      the bitecs entity index (its dense array, alive prefix first, then the recycle queue, and maxId), so the
 *            next spawn after a restore gets the same entity id as in the original run; then Murmur's dense agent
 *            list (the iteration order of every system). Alive entities that are not agents (formation groups)
 *            come back alive without agent components; their data is in their system's state.
 *   stores   every per-agent store of world.registry, by name and element type, for the live agents only, in
 *            iteration order (dead slots are not saved: spawn resets a slot before use); a store whose live
 *            slots all hold its default value is one byte
 *   hash     the spatial hash contents (its sorted entries and bucket starts): scenario code may query the
 *            previous step's hash before the next rebuild, so it is state, not a pure cache (its profiling
 *            counter `scanned` is written as 0)
 *   systems  each world.systems.<name> entry: by a registered SnapshotSection when the system has one, otherwise
 *            by the structured codec (src/reliability/codec.ts)
 *
 * Why not bitecs/serialization: its snapshot deserializer maps every packet entity to a NEW id from addEntity (ids
 * do not come back the same, and they do not recycle in the same order), while Murmur's results depend on entity
 * ids (iteration order, LOD staggering by id, entity references such as pursue targets). It also reads packets
 * without bounds checks (a corrupt packet half-applies, then throws a RangeError) and preallocates 100 MB. Murmur's
 * stores are flat typed arrays already, so writing the live slots directly is both simpler and exact.
 *
 * Restore is two-phase: the bytes are parsed and validated completely (magic, version, length, checksum, capacity,
 * id permutation, store names and types, every count against the bytes left) into pending values, and only then
 * applied. A bad snapshot throws a MalformedInputError / CapacityError / InvalidArgumentError and leaves the world
 * exactly as it was.
 */

export const SNAPSHOT_MAGIC = 0x534d524d; // 'MRMS' read as a little-endian u32
export const SNAPSHOT_VERSION = 1;
const HEADER_BYTES = 20;

/** Element types of registered stores, by the byte written in the snapshot. */
const STORE_KINDS = ['Float64Array', 'Float32Array', 'Int32Array', 'Uint32Array', 'Uint8Array'] as const;

/**
 * Custom (de)serialisation of one system's state, for state the structured codec cannot or should not copy
 * (class instances, large caches that are pure functions of the map and goals and are cheaper to rebuild).
 * `read` parses and validates and must not touch the world; `apply` installs what `read` returned (or handles
 * `undefined`: the snapshot had no state under this name) and must not throw.
 */
export interface SnapshotSection<T = unknown> {
  /** The world.systems key this section owns. */
  readonly name: string;
  save(world: CrowdWorld, w: ByteWriter): void;
  read(world: CrowdWorld, r: ByteReader): T;
  apply(world: CrowdWorld, value: T | undefined): void;
}

const _sections = new Map<string, SnapshotSection<unknown>>();
const _definers = new Map<string, (world: CrowdWorld) => unknown>();

/**
 * Tell restore how to define a per-agent component that a target world has not defined yet (components are defined
 * lazily, on first use): `define` is the component's accessor, e.g. `orcaComponent`. Defining a component only
 * allocates its arrays at their defaults, which is the state of a world that never used it, so restore may do it
 * even when it then rejects the snapshot. The built-in components are registered below; a system that adds a
 * component adds one line there (or calls this from its own module).
 */
export function registerSnapshotComponent(name: string, define: (world: CrowdWorld) => unknown): void {
  if (typeof name !== 'string' || name.length === 0) throw new InvalidArgumentError('name', name, 'must be a non-empty string');
  if (typeof define !== 'function') throw new InvalidArgumentError('define', define, 'must be a function');
  _definers.set(name, define);
}

registerSnapshotComponent('lod', lodComponent);
registerSnapshotComponent('orca', orcaComponent);
registerSnapshotComponent('boids', boidsComponent);
registerSnapshotComponent('steering', steeringComponent);
registerSnapshotComponent('navigation', navigationComponent);
registerSnapshotComponent('corridor', corridorComponent);
registerSnapshotComponent('formation', formationComponent);
registerSnapshotComponent('collisionShape', agentShapeComponent);


/** Register how world.systems[section.name] is snapshotted (replaces an earlier registration of the same name). */
export function registerSnapshotSection<T>(section: SnapshotSection<T>): void {
  if (section === null || typeof section !== 'object' || typeof section.name !== 'string' || section.name.length === 0) {
    throw new InvalidArgumentError('section.name', section && section.name, 'must be a non-empty string');
  }
  for (const k of ['save', 'read', 'apply'] as const) {
    if (typeof section[k] !== 'function') throw new InvalidArgumentError(`section.${k}`, section[k], 'must be a function');
  }
  _sections.set(section.name, section as SnapshotSection<unknown>);
}

/** bitecs 0.4 keeps its entity index on the world under the $internal symbol (typed on the base World only). */
function entityIndexOf(world: CrowdWorld): EntityIndex {
  return (world as unknown as { [$internal]: { entityIndex: EntityIndex } })[$internal].entityIndex;
}

function storeNameMap(world: CrowdWorld): Map<unknown, string> {
  const m = new Map<unknown, string>();
  for (const s of world.registry.stores) m.set(s.array, s.name);
  return m;
}

/** The bytes world.systems[name] contributes to a snapshot (its section's save, or the codec): for diffing and tests. */
export function systemStateBytes(world: CrowdWorld, name: string): Uint8Array {
  const w = new ByteWriter();
  const section = _sections.get(name);
  if (section) section.save(world, w);
  else encodeSectionValue(world, w, world.systems[name], `world.systems.${name}`);
  return w.finish();
}

/** For sections: write `value` with the structured codec (per-agent stores of `world` by reference). */
export function encodeSectionValue(world: CrowdWorld, w: ByteWriter, value: unknown, path: string): void {
  encodeValue({ w, seen: new Map(), stores: storeNameMap(world) }, value, path);
}

/** For sections: read a value written by encodeSectionValue; `target` fills function holes (see codec.ts). */
export function decodeSectionValue(world: CrowdWorld, r: ByteReader, target: unknown, path: string): unknown {
  const stores = new Map<string, unknown>();
  for (const s of world.registry.stores) stores.set(s.name, s.array);
  return decodeValue({ r, seen: [], stores }, target, path);
}

/**
 * A section for a system whose state is plain data except for some top-level values the structured codec cannot copy
 * (a class instance such as a priority queue inside a search object). `toPlain(value)` returns a plain-data stand-in
 * for such a value (or undefined for values the codec handles itself); after restore `fromPlain(state, plain)`
 * rebuilds the real object from it, with the rest of the restored state at hand (e.g. to re-link a mesh).
 */
export function mappedSection(name: string, toPlain: (value: unknown) => Record<string, unknown> | undefined,
  fromPlain: (state: Record<string, unknown>, plain: Record<string, unknown>) => unknown): SnapshotSection<{ state: Record<string, unknown>; mapped: string[] }> {
  return {
    name,
    save(world, w) {
      const st = world.systems[name] as Record<string, unknown>;
      const copy: Record<string, unknown> = {};
      const mapped: string[] = [];
      for (const k of Object.keys(st)) {
        const plain = toPlain(st[k]);
        if (plain === undefined) copy[k] = st[k];
        else { copy[k] = plain; mapped.push(k); }
      }
      w.u32(mapped.length);
      for (const k of mapped) w.str(k);
      encodeSectionValue(world, w, copy, `world.systems.${name}`);
    },
    read(world, r) {
      const n = r.count(`${name} mapped keys`, 64, 4);
      const mapped: string[] = [];
      for (let i = 0; i < n; i++) mapped.push(r.str(`${name} mapped key`));
      const v = decodeSectionValue(world, r, world.systems[name], `world.systems.${name}`);
      if (v === null || typeof v !== 'object') r.fail(`world.systems.${name} is not an object`);
      for (const k of mapped) {
        const p = (v as Record<string, unknown>)[k];
        if (p === null || typeof p !== 'object') r.fail(`world.systems.${name}.${k} is not an object`);
      }
      return { state: v as Record<string, unknown>, mapped };
    },
    apply(world, v) {
      if (v === undefined) { delete world.systems[name]; return; }
      for (const k of v.mapped) v.state[k] = fromPlain(v.state, v.state[k] as Record<string, unknown>);
      world.systems[name] = v.state;
    },
  };
}

function storeKind(a: AgentTypedArray): number {
  const k = STORE_KINDS.indexOf(a.constructor.name as (typeof STORE_KINDS)[number]);
  if (k < 0) throw new InvalidArgumentError('registry', a.constructor.name, 'unsupported store element type');
  return k;
}

/**
 * Serialise the whole simulation state of `world` (see the format above). Not for every frame (it allocates the
 * output), but cheap enough for rollback at a few Hz: about 8 bytes × stores × live agents plus system state.
 */
export function snapshot(world: CrowdWorld): Uint8Array {
  const w = new ByteWriter(4096 + world.agents.count * 64);
  w.u32(SNAPSHOT_MAGIC); w.u32(SNAPSHOT_VERSION); w.u32(0); w.u32(0); w.u32(world.capacity);
  // clock, rng, config
  const t = world.time;
  w.f64(t.frame); w.f64(t.seconds); w.f64(t.accumulator); w.f64(t.droppedSteps);
  for (let i = 0; i < 4; i++) w.u32(world.rng.state[i]);
  const c = world.config;
  w.f64(c.neighbourRadius); w.f64(c.cellSize); w.f64(c.fixedDt); w.u32(c.maxStepsPerAdvance);
  const switches = Object.keys(world.enabled) as (keyof typeof world.enabled)[];
  w.u32(switches.length);
  for (const k of switches) { w.str(k); w.u8(world.enabled[k] ? 1 : 0); }
  // ids: bitecs entity index, then the agent list
  const index = entityIndexOf(world);
  w.u32(index.maxId); w.u32(index.aliveCount);
  for (let i = 0; i < index.maxId; i++) w.u32(index.dense[i]);
  const { dense, count } = world.agents;
  w.u32(count);
  for (let i = 0; i < count; i++) w.u32(dense[i]);
  // stores: live slots only
  const stores = world.registry.stores;
  w.u32(stores.length);
  for (const s of stores) {
    w.str(s.name); w.u8(storeKind(s.array));
    // A store whose live slots all hold its default (a behaviour nobody uses) costs one byte.
    const a = s.array, d = s.defaultValue;
    let allDefault = true;
    for (let i = 0; i < count && allDefault; i++) if (!Object.is(a[dense[i]], d)) allDefault = false;
    w.u8(allDefault ? 0 : 1);
    if (!allDefault) writeLive(w, a, dense, count);
  }
  writeHash(w, world);
  // systems
  const names = Object.keys(world.systems);
  w.u32(names.length);
  const storeNames = new Map<unknown, string>();
  for (const s of stores) storeNames.set(s.array, s.name);
  const ectx: EncodeContext = { w, seen: new Map(), stores: storeNames };
  for (const name of names) {
    w.str(name);
    const section = _sections.get(name);
    w.u8(section ? 1 : 0);
    const lenAt = w.length; w.u32(0);
    if (section) section.save(world, w);
    else encodeValue(ectx, world.systems[name], `world.systems.${name}`);
    w.patchU32(lenAt, w.length - lenAt - 4);
  }
  w.patchU32(8, w.length);
  const out = w.finish();
  const sum = fnv1a32(out, HEADER_BYTES);
  new DataView(out.buffer).setUint32(12, sum, true);
  return out;
}

function writeLive(w: ByteWriter, a: AgentTypedArray, dense: Int32Array, count: number): void {
  if (a instanceof Float64Array) for (let i = 0; i < count; i++) w.f64(a[dense[i]]);
  else if (a instanceof Float32Array) for (let i = 0; i < count; i++) w.f64(a[dense[i]]); // f32 values are exact in f64
  else if (a instanceof Int32Array) for (let i = 0; i < count; i++) w.i32(a[dense[i]]);
  else if (a instanceof Uint32Array) for (let i = 0; i < count; i++) w.u32(a[dense[i]]);
  else for (let i = 0; i < count; i++) w.u8(a[dense[i]]);
}

function bytesPerValue(kind: number): number {
  return kind <= 1 ? 8 : kind <= 3 ? 4 : 1;
}

function writeHash(w: ByteWriter, world: CrowdWorld): void {
  const h = world.hash;
  w.f64(h.cellSize); w.f64(h.gridCellSize); w.f64(h.gridInvCellSize);
  // The `scanned` slot holds 0: it is a profiling counter (entries examined by queries since the rebuild), and it
  // depends on which neighbour path a system chose this step (ORCA picks its path by measured time), not state.
  w.u32(h.count); w.u32(h.tableSize); w.u32(h.widthBits); w.u32(h.heightBits); w.f64(0);
  for (let i = 0; i < h.count; i++) {
    w.f64(h.sortedX[i]); w.f64(h.sortedY[i]); w.i32(h.sortedIds[i]); w.i32(h.sortedCellX[i]); w.i32(h.sortedCellY[i]);
  }
  for (let i = 0; i <= h.tableSize; i++) w.i32(h.cellStart[i]);
}

/** Everything a snapshot says, parsed and validated, before anything is applied. */
interface Pending {
  time: [number, number, number, number];
  rng: [number, number, number, number];
  config: [number, number, number, number];
  enabled: Array<[string, boolean]>;
  maxId: number;
  aliveCount: number;
  entityDense: number[];
  dense: Int32Array;
  stores: Array<{ array: AgentTypedArray; values: number[] | Float64Array | Int32Array | Uint32Array | Uint8Array }>;
  hash: { cellSize: number; gridCellSize: number; gridInvCellSize: number; count: number; tableSize: number; widthBits: number; heightBits: number; scanned: number;
    x: Float64Array; y: Float64Array; ids: Int32Array; cx: Int32Array; cy: Int32Array; cellStart: Int32Array };
  systems: Array<{ name: string; section: SnapshotSection<unknown> | null; value: unknown }>;
}

/**
 * Replace the simulation state of `world` with the one in `bytes` (from `snapshot`). The world must have been made
 * with the same `maxAgents`, and must define every per-agent component the snapshot contains (set up the world as
 * the original was: the same enableOrca / boidsComponent / ... calls; a component the snapshot lacks is reset to its
 * defaults). Callbacks in system state (a LOD cost function) are configuration: they are kept from `world`.
 * References obtained before the call to system state objects (e.g. `getObstacles(world)`, the state returned by
 * `enableLod`) are stale afterwards: fetch them again. Despawn hooks do not run for the agents replaced.
 *
 * Throws MalformedInputError (wrong magic, version, length or checksum, truncated or inconsistent data),
 * CapacityError (more agents than this world holds) or InvalidArgumentError (not a Uint8Array, store layout
 * mismatch); on any error the world is unchanged.
 */
export function restore(world: CrowdWorld, bytes: Uint8Array): void {
  const p = parse(world, bytes);
  apply(world, p);
}

/** Validate `bytes` against `world` without changing anything; throws as `restore` would. */
export function validateSnapshot(world: CrowdWorld, bytes: Uint8Array): void {
  parse(world, bytes);
}

function parse(world: CrowdWorld, bytes: Uint8Array): Pending {
  if (!(bytes instanceof Uint8Array)) throw new InvalidArgumentError('bytes', bytes, 'must be a Uint8Array from snapshot()');
  const r = new ByteReader(bytes);
  if (bytes.length < HEADER_BYTES) r.fail(`too short for a snapshot header (${bytes.length} bytes, need ${HEADER_BYTES})`);
  if (r.u32('magic') !== SNAPSHOT_MAGIC) { r.offset = 0; r.fail('not a Murmur snapshot (bad magic number)'); }
  const version = r.u32('version');
  if (version !== SNAPSHOT_VERSION) r.fail(`snapshot format version ${version} is not supported (this build reads version ${SNAPSHOT_VERSION})`);
  const length = r.u32('length');
  if (length !== bytes.length) r.fail(`snapshot declares ${length} bytes but ${bytes.length} were given (truncated or padded)`);
  const sum = r.u32('checksum');
  if (fnv1a32(bytes, HEADER_BYTES) !== sum) r.fail('snapshot checksum mismatch (the bytes were corrupted)');
  const capacity = r.u32('capacity');
  if (capacity !== world.capacity) {
    throw new InvalidArgumentError('bytes', capacity, `snapshot was taken from a world with maxAgents ${capacity}; this world has ${world.capacity}`);
  }
  const time: Pending['time'] = [r.f64('time.frame'), r.f64('time.seconds'), r.f64('time.accumulator'), r.f64('time.droppedSteps')];
  for (const v of time) if (!Number.isFinite(v) || v < 0) r.fail(`time field ${v} is not a finite non-negative number`);
  const rng: Pending['rng'] = [r.u32('rng'), r.u32('rng'), r.u32('rng'), r.u32('rng')];
  const config: Pending['config'] = [r.f64('neighbourRadius'), r.f64('cellSize'), r.f64('fixedDt'), r.u32('maxStepsPerAdvance')];
  for (let i = 0; i < 3; i++) if (!(config[i] > 0) || !Number.isFinite(config[i])) r.fail(`config value ${config[i]} is not a finite positive number`);
  if (config[3] < 1 || config[3] > 1000) r.fail(`maxStepsPerAdvance ${config[3]} out of range`);
  const nSwitch = r.count('switch count', 64, 5);
  const enabled: Pending['enabled'] = [];
  for (let i = 0; i < nSwitch; i++) {
    const k = r.str('switch name');
    if (!(k in world.enabled)) r.fail(`unknown pipeline switch '${k}'`);
    enabled.push([k, r.u8('switch') !== 0]);
  }
  // ids
  const maxId = r.u32('maxId');
  // Ids above the capacity can exist dead in the recycle queue (a spawn refused after bitecs handed one out), never
  // alive; bound maxId so a corrupt value cannot make us allocate without limit.
  if (maxId > 2 * world.capacity + 64) r.fail(`entity index maxId ${maxId} is far beyond the capacity ${world.capacity}`);
  const aliveCount = r.u32('aliveCount');
  if (aliveCount > maxId) r.fail(`entity index aliveCount ${aliveCount} exceeds maxId ${maxId}`);
  r.need(maxId * 4, 'entity index');
  const seen = new Uint8Array(maxId + 1);
  const entityDense: number[] = new Array(maxId);
  for (let i = 0; i < maxId; i++) {
    const id = r.u32('entity id');
    if (id < 1 || id > maxId || seen[id]) r.fail(`entity index is not a permutation of 1..${maxId} (id ${id} at ${i})`);
    seen[id] = 1;
    entityDense[i] = id;
  }
  const count = r.count('agent count', world.capacity, 4);
  // Every agent is an alive entity; alive entities that are not agents (formation groups) are allowed.
  if (count > aliveCount) r.fail(`agent list has ${count} agents but the entity index has only ${aliveCount} alive`);
  const alive = new Uint8Array(maxId + 1);
  for (let i = 0; i < aliveCount; i++) {
    if (entityDense[i] > world.capacity) r.fail(`alive entity id ${entityDense[i]} exceeds the capacity ${world.capacity}`);
    alive[entityDense[i]] = 1;
  }
  const dense = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const id = r.u32('agent id');
    if (id > maxId || alive[id] !== 1) r.fail(`agent list entry ${i} (id ${id}) is not an alive entity, or is repeated`);
    alive[id] = 2;
    dense[i] = id;
  }
  // stores
  const nStores = r.count('store count', 4096, 6);
  const byName = new Map<string, AgentTypedArray>();
  for (const s of world.registry.stores) byName.set(s.name, s.array);
  const stores: Pending['stores'] = [];
  for (let k = 0; k < nStores; k++) {
    const name = r.str('store name');
    const kind = r.u8('store type');
    if (kind >= STORE_KINDS.length) r.fail(`store '${name}' has unknown element type ${kind}`);
    let array = byName.get(name);
    const component = name.slice(0, Math.max(0, name.lastIndexOf('.')));
    if (array === undefined && _definers.has(component) && world.registry.components[component] === undefined) {
      _definers.get(component)!(world);
      for (const s of world.registry.stores) byName.set(s.name, s.array);
      array = byName.get(name);
    }
    if (array === undefined) {
      throw new InvalidArgumentError('bytes', name, `the snapshot has per-agent store '${name}' but this world does not define component '${component}': set the world up as the original was (define the same components) before restoring`);
    }
    if (storeKind(array) !== kind) {
      throw new InvalidArgumentError('bytes', name, `store '${name}' is a ${STORE_KINDS[kind]} in the snapshot but a ${array.constructor.name} in this world`);
    }
    const mode = r.u8(`store '${name}' encoding`);
    if (mode === 0) continue; // every live slot at its default: restore fills defaults first
    if (mode !== 1) r.fail(`store '${name}' has unknown encoding ${mode}`);
    r.need(count * bytesPerValue(kind), `store '${name}'`);
    const values = kind <= 1 ? new Float64Array(count) : kind === 2 ? new Int32Array(count) : kind === 3 ? new Uint32Array(count) : new Uint8Array(count);
    for (let i = 0; i < count; i++) values[i] = kind <= 1 ? r.f64(name) : kind === 2 ? r.i32(name) : kind === 3 ? r.u32(name) : r.u8(name);
    stores.push({ array, values });
  }
  // spatial hash
  const h = world.hash;
  const hCell = r.f64('hash.cellSize'), hGrid = r.f64('hash.gridCellSize'), hInv = r.f64('hash.gridInvCellSize');
  if (!(hCell > 0 && hGrid > 0 && hInv > 0) || !Number.isFinite(hCell + hGrid + hInv)) r.fail('spatial hash cell size is not a finite positive number');
  const hCount = r.u32('hash.count');
  if (hCount > h.capacity) throw new MalformedInputError('bytes', hCount, `spatial hash holds ${hCount} entries, more than its capacity ${h.capacity}`);
  const tableSize = r.u32('hash.tableSize'), widthBits = r.u32('hash.widthBits'), heightBits = r.u32('hash.heightBits');
  if (tableSize > h.tableCapacity || widthBits + heightBits > 31 || 2 ** (widthBits + heightBits) !== tableSize) r.fail(`spatial hash table size ${tableSize} is invalid`);
  const scanned = r.f64('hash.scanned');
  r.need(hCount * 28 + (tableSize + 1) * 4, 'spatial hash entries');
  const hx = new Float64Array(hCount), hy = new Float64Array(hCount), hid = new Int32Array(hCount), hcx = new Int32Array(hCount), hcy = new Int32Array(hCount);
  for (let i = 0; i < hCount; i++) { hx[i] = r.f64('hash'); hy[i] = r.f64('hash'); hid[i] = r.i32('hash'); hcx[i] = r.i32('hash'); hcy[i] = r.i32('hash'); }
  const cellStart = new Int32Array(tableSize + 1);
  for (let i = 0; i <= tableSize; i++) {
    cellStart[i] = r.i32('hash.cellStart');
    if (cellStart[i] < 0 || cellStart[i] > hCount || (i > 0 && cellStart[i] < cellStart[i - 1])) r.fail('spatial hash bucket starts are not increasing within the entries');
  }
  // systems
  const nSystems = r.count('system count', 1024, 9);
  const storesByName = new Map<string, unknown>();
  for (const s of world.registry.stores) storesByName.set(s.name, s.array);
  const dctx: DecodeContext = { r, seen: [], stores: storesByName };
  const systems: Pending['systems'] = [];
  for (let k = 0; k < nSystems; k++) {
    const name = r.str('system name');
    if (name === '__proto__') r.fail("system name '__proto__' is not allowed");
    const mode = r.u8('system mode');
    const len = r.count(`system '${name}' length`, 1 << 30, 1);
    const end = r.offset + len;
    const section = _sections.get(name) ?? null;
    let value: unknown;
    if (mode === 1) {
      if (section === null) return r.fail(`system '${name}' was saved by a snapshot section that is not registered here`);
      value = section.read(world, r);
    } else if (mode === 0) {
      value = decodeValue(dctx, world.systems[name], `world.systems.${name}`);
    } else {
      r.fail(`system '${name}' has unknown mode ${mode}`);
    }
    if (r.offset !== end) r.fail(`system '${name}' state is ${len} bytes but ${r.offset - (end - len)} were read`);
    systems.push({ name, section: mode === 1 ? section : null, value });
  }
  if (r.remaining !== 0) r.fail(`${r.remaining} unexpected bytes after the end of the snapshot`);
  return {
    time, rng, config, enabled, maxId, aliveCount, entityDense, dense, stores,
    hash: { cellSize: hCell, gridCellSize: hGrid, gridInvCellSize: hInv, count: hCount, tableSize, widthBits, heightBits, scanned, x: hx, y: hy, ids: hid, cx: hcx, cy: hcy, cellStart },
    systems,
  };
}

function apply(world: CrowdWorld, p: Pending): void {
  // 1. bitecs: remove the current entities (component masks and queries stay consistent), then rebuild the entity
  //    index so that addEntity hands out exactly the snapshot's alive ids, in order, and recycles the rest in the
  //    snapshot's order afterwards.
  const agents = world.agents;
  const index = entityIndexOf(world);
  for (let i = index.aliveCount - 1; i >= 0; i--) removeEntity(world, index.dense[i]);
  index.dense.length = 0;
  index.sparse.length = 0;
  for (let i = 0; i < p.maxId; i++) { index.dense.push(p.entityDense[i]); index.sparse[p.entityDense[i]] = i; }
  index.maxId = p.maxId;
  index.aliveCount = 0;
  const c = world.components;
  const isAgentId = new Uint8Array(p.maxId + 1);
  for (let i = 0; i < p.dense.length; i++) isAgentId[p.dense[i]] = 1;
  for (let i = 0; i < p.aliveCount; i++) {
    const eid = addEntity(world);
    if (eid !== p.entityDense[i]) throw new Error(`internal: bitecs handed out id ${eid}, expected ${p.entityDense[i]}`);
    if (isAgentId[eid] === 0) continue; // a non-agent entity (a formation group): no agent components
    addComponent(world, eid, c.Position);
    addComponent(world, eid, c.Velocity);
    addComponent(world, eid, c.PreferredVelocity);
    addComponent(world, eid, c.DesiredVelocity);
    addComponent(world, eid, c.Agent);
  }
  // 2. agent list
  agents.denseIndex.fill(-1);
  for (let i = 0; i < p.dense.length; i++) { agents.dense[i] = p.dense[i]; agents.denseIndex[p.dense[i]] = i; }
  agents.count = p.dense.length;
  // 3. stores: defaults everywhere (dead slots and components the snapshot lacks), then the live values
  for (const s of world.registry.stores) s.array.fill(s.defaultValue);
  for (const s of p.stores) {
    const a = s.array, v = s.values;
    for (let i = 0; i < p.dense.length; i++) a[p.dense[i]] = v[i];
  }
  // 4. clock, rng, config, switches
  const t = world.time;
  t.frame = p.time[0]; t.seconds = p.time[1]; t.accumulator = p.time[2]; t.droppedSteps = p.time[3];
  for (let i = 0; i < 4; i++) world.rng.state[i] = p.rng[i];
  const cfg = world.config;
  cfg.neighbourRadius = p.config[0]; cfg.cellSize = p.config[1]; cfg.fixedDt = p.config[2]; cfg.maxStepsPerAdvance = p.config[3];
  const on = world.enabled as unknown as Record<string, boolean>;
  for (const [k, v] of p.enabled) on[k] = v;
  // 5. spatial hash
  const h = world.hash, ph = p.hash;
  h.cellSize = ph.cellSize; h.gridCellSize = ph.gridCellSize; h.gridInvCellSize = ph.gridInvCellSize; h.count = ph.count;
  h.tableSize = ph.tableSize; h.widthBits = ph.widthBits; h.heightBits = ph.heightBits; h.scanned = ph.scanned;
  h.sortedX.set(ph.x); h.sortedY.set(ph.y); h.sortedIds.set(ph.ids); h.sortedCellX.set(ph.cx); h.sortedCellY.set(ph.cy);
  h.cellStart.set(ph.cellStart);
  // The restored hash holds exactly the live agents iff its ids are the live agents, each once (equal counts, all
  // live, no repeats); name that set by a new agent-list version (see SpatialHash.agentsVersion).
  agents.version++;
  h.agentsVersion = -1;
  if (ph.count === agents.count) {
    let same = true;
    const seen = new Uint8Array(world.capacity + 1);
    for (let i = 0; i < ph.count && same; i++) {
      const id = ph.ids[i];
      same = id >= 0 && id <= world.capacity && agents.denseIndex[id] >= 0 && seen[id] === 0;
      if (same) seen[id] = 1;
    }
    if (same) h.agentsVersion = agents.version;
  }
  // 6. systems: the snapshot's state replaces the world's; state the snapshot does not have is removed
  const present = new Set<string>();
  for (const s of p.systems) {
    present.add(s.name);
    if (s.section) s.section.apply(world, s.value);
    else world.systems[s.name] = s.value;
  }
  for (const name of Object.keys(world.systems)) {
    if (present.has(name)) continue;
    const section = _sections.get(name);
    if (section) section.apply(world, undefined);
    else delete world.systems[name];
  }
}
