import { allocTyped, type AgentTypedArray, type TypedArrayCtor } from './alloc';
import type { CrowdWorld } from './crowd';
import { InvalidArgumentError } from '../core/errors';

/**
 * Per-world component registry. Every per-agent typed array (the core stores and those each system defines) is
 * registered here with its default value, so that:
 *  - spawning resets the new entity's slot in every store to its default (entity ids are recycled);
 *  - snapshot/restore and worker hand-off can walk all simulation state in one stable order.
 * A system defines its component once per world with defineAgentComponent; later calls return the same object.
 */
export interface RegisteredStore {
  readonly name: string;
  readonly array: AgentTypedArray;
  readonly defaultValue: number;
}

/** Allocates typed arrays of length capacity + 1 (entity ids start at 1) and registers them. */
export interface StoreAllocator {
  f64(defaultValue?: number): Float64Array;
  f32(defaultValue?: number): Float32Array;
  i32(defaultValue?: number): Int32Array;
  u32(defaultValue?: number): Uint32Array;
  u8(defaultValue?: number): Uint8Array;
}

export interface ComponentRegistry {
  readonly stores: RegisteredStore[];
  readonly components: Record<string, unknown>;
  /** Called after an agent is removed from the dense list, before its id is recycled. */
  readonly despawnHooks: Array<(world: CrowdWorld, eid: number) => void>;
}

export function createRegistry(): ComponentRegistry {
  return { stores: [], components: Object.create(null), despawnHooks: [] };
}

/** Register an already-allocated per-agent array (used by createCrowd for the core stores). */
export function registerStore(reg: ComponentRegistry, name: string, array: AgentTypedArray, defaultValue: number): void {
  if (defaultValue !== 0) array.fill(defaultValue);
  reg.stores.push({ name, array, defaultValue });
}

/**
 * Define (once per world) a component made of per-agent typed arrays, and return it.
 * ```ts no-run
 * const Orca = defineAgentComponent(world, 'orca', (a) => ({ timeHorizon: a.f64(10), maxNeighbours: a.i32(10) }));
 * ```
 */
export function defineAgentComponent<T>(world: CrowdWorld, name: string, make: (alloc: StoreAllocator) => T): T {
  const existing = world.registry.components[name];
  if (existing !== undefined) return existing as T;
  return createAgentComponent(world, name, make);
}

// The first-use path lives in its own function: its closures capture locals, so V8 allocates a context for them on
// every entry to the function that declares them, early return or not. Every system looks its components up each
// frame; the lookup above allocates nothing.
function createAgentComponent<T>(world: CrowdWorld, name: string, make: (alloc: StoreAllocator) => T): T {
  const reg = world.registry;
  if (typeof name !== 'string' || name.length === 0) throw new InvalidArgumentError('name', name, 'component name must be a non-empty string');
  const n = world.capacity + 1;
  const shared = world.config.sharedMemory;
  let index = 0;
  const alloc = (Ctor: TypedArrayCtor, d: number) => {
    const arr = allocTyped(Ctor, n, shared);
    registerStore(reg, `${name}.${index++}`, arr, d);
    return arr;
  };
  const allocator: StoreAllocator = {
    f64: (d = 0) => alloc(Float64Array, d) as Float64Array,
    f32: (d = 0) => alloc(Float32Array, d) as Float32Array,
    i32: (d = 0) => alloc(Int32Array, d) as Int32Array,
    u32: (d = 0) => alloc(Uint32Array, d) as Uint32Array,
    u8: (d = 0) => alloc(Uint8Array, d) as Uint8Array,
  };
  const component = make(allocator);
  reg.components[name] = component;
  return component;
}

/** Register a function called when any agent is despawned (e.g. to release a path buffer). */
export function onDespawn(world: CrowdWorld, hook: (world: CrowdWorld, eid: number) => void): void {
  if (typeof hook !== 'function') throw new InvalidArgumentError('hook', hook, 'must be a function (world, eid) => void');
  world.registry.despawnHooks.push(hook);
}

/** Reset entity `eid`'s slot in every registered store to its default. */
export function resetAgentSlots(reg: ComponentRegistry, eid: number): void {
  const stores = reg.stores;
  for (let i = 0; i < stores.length; i++) stores[i].array[eid] = stores[i].defaultValue;
}
