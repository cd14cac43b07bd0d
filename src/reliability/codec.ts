import { InvalidArgumentError } from '../core/errors';
import type { ByteReader, ByteWriter } from './bytes';
import { plainDataClassName, plainDataPrototype } from '../core/plain-data';

/**
 * A structured-clone style codec for per-system state (world.systems.*): plain objects, arrays, numbers (as f64
 * bits), strings, booleans, null/undefined, typed arrays (with their ArrayBuffer, so views sharing one buffer still
 * share it after decoding), Map and Set. Object identity is kept: an object met twice is written once and referenced
 * by index, so shared references and cycles survive. Values that are not data are handled explicitly:
 *  - a function is written as a hole; decoding fills it from the same path of the target world's current state
 *    (user callbacks such as a LOD cost function are configuration, not state), or null if there is none;
 *  - a per-agent store registered in world.registry is written as a reference by name, not copied;
 *  - an instance of a class registered with registerPlainDataClass (src/core/plain-data.ts) is written as its class
 *    name plus its own fields, and rebuilt on that class's prototype;
 *  - an instance of any other class (a priority queue, a WASM handle) is refused with an error naming its path,
 *    and the owning system must register a snapshot section (see registerSnapshotSection).
 * Iteration order is the objects' own key order, which is deterministic for a given construction history.
 */

const T_UNDEFINED = 0, T_NULL = 1, T_FALSE = 2, T_TRUE = 3, T_NUMBER = 4, T_STRING = 5, T_ARRAY = 6, T_OBJECT = 7,
  T_VIEW = 8, T_BUFFER = 9, T_REF = 10, T_MAP = 11, T_SET = 12, T_FUNCTION = 13, T_NULL_PROTO = 14, T_STORE = 15, T_CLASS = 16;

type ViewCtor = Float64ArrayConstructor | Float32ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor
  | Int16ArrayConstructor | Uint16ArrayConstructor | Int8ArrayConstructor | Uint8ArrayConstructor | Uint8ClampedArrayConstructor;
const VIEW_KINDS: ViewCtor[] = [Float64Array, Float32Array, Int32Array, Uint32Array, Int16Array, Uint16Array, Int8Array, Uint8Array, Uint8ClampedArray];

/** Largest number of elements/keys/bytes any one decoded value may declare (bounded further by the bytes left). */
const MAX_ITEMS = 1 << 28;

export interface EncodeContext {
  readonly w: ByteWriter;
  readonly seen: Map<object, number>;
  readonly stores: Map<unknown, string>;
}

export function encodeValue(ctx: EncodeContext, v: unknown, path: string): void {
  const w = ctx.w;
  if (v === undefined) { w.u8(T_UNDEFINED); return; }
  if (v === null) { w.u8(T_NULL); return; }
  switch (typeof v) {
    case 'boolean': w.u8(v ? T_TRUE : T_FALSE); return;
    case 'number': w.u8(T_NUMBER); w.f64(v); return;
    case 'string': w.u8(T_STRING); w.str(v); return;
    case 'function': w.u8(T_FUNCTION); return;
    case 'object': break;
    default: throw new InvalidArgumentError(path, v, `cannot snapshot a value of type ${typeof v}`);
  }
  const o = v as object;
  const storeName = ctx.stores.get(o);
  if (storeName !== undefined) { w.u8(T_STORE); w.str(storeName); return; }
  const ref = ctx.seen.get(o);
  if (ref !== undefined) { w.u8(T_REF); w.u32(ref); return; }
  ctx.seen.set(o, ctx.seen.size);
  if (ArrayBuffer.isView(o)) {
    const kind = VIEW_KINDS.findIndex((C) => o instanceof C);
    if (kind < 0) throw new InvalidArgumentError(path, o, 'cannot snapshot this kind of typed array');
    const view = o as Uint8Array;
    w.u8(T_VIEW); w.u8(kind);
    encodeValue(ctx, view.buffer, path + '.buffer');
    w.u32(view.byteOffset); w.u32(view.length);
    return;
  }
  if (o instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && o instanceof SharedArrayBuffer)) {
    const b = new Uint8Array(o as ArrayBuffer);
    w.u8(T_BUFFER); w.u8(o instanceof ArrayBuffer ? 0 : 1); w.u32(b.length); w.bytes(b);
    return;
  }
  if (Array.isArray(o)) {
    w.u8(T_ARRAY); w.u32(o.length);
    for (let i = 0; i < o.length; i++) encodeValue(ctx, o[i], `${path}[${i}]`);
    return;
  }
  if (o instanceof Map) {
    w.u8(T_MAP); w.u32(o.size);
    let i = 0;
    for (const [k, val] of o) { encodeValue(ctx, k, `${path}.key${i}`); encodeValue(ctx, val, `${path}.get(${String(k)})`); i++; }
    return;
  }
  if (o instanceof Set) {
    w.u8(T_SET); w.u32(o.size);
    let i = 0;
    for (const k of o) encodeValue(ctx, k, `${path}.item${i++}`);
    return;
  }
  const proto = Object.getPrototypeOf(o);
  const plainName = proto !== Object.prototype && proto !== null ? plainDataClassName(o) : undefined;
  if (plainName !== undefined) {
    const ckeys = Object.keys(o);
    w.u8(T_CLASS); w.str(plainName); w.u32(ckeys.length);
    for (const k of ckeys) { w.str(k); encodeValue(ctx, (o as Record<string, unknown>)[k], `${path}.${k}`); }
    return;
  }
  if (proto !== Object.prototype && proto !== null) {
    const cls = proto && proto.constructor ? proto.constructor.name : 'unknown';
    throw new InvalidArgumentError(path, o, `cannot snapshot an instance of class ${cls}: the owning system must register a snapshot section`);
  }
  const keys = Object.keys(o);
  w.u8(proto === null ? T_NULL_PROTO : T_OBJECT); w.u32(keys.length);
  for (const k of keys) { w.str(k); encodeValue(ctx, (o as Record<string, unknown>)[k], `${path}.${k}`); }
}

export interface DecodeContext {
  readonly r: ByteReader;
  readonly seen: unknown[];
  readonly stores: Map<string, unknown>;
}

/**
 * Decode one value. `target` is the value at the same path in the target world (or undefined); it is only used to
 * fill function holes.
 */
export function decodeValue(ctx: DecodeContext, target: unknown, path: string): unknown {
  const r = ctx.r;
  const tag = r.u8(`${path} tag`);
  switch (tag) {
    case T_UNDEFINED: return undefined;
    case T_NULL: return null;
    case T_FALSE: return false;
    case T_TRUE: return true;
    case T_NUMBER: return r.f64(path);
    case T_STRING: return r.str(path);
    case T_FUNCTION: return typeof target === 'function' ? target : null;
    case T_STORE: {
      const name = r.str(`${path} store name`);
      const s = ctx.stores.get(name);
      if (s === undefined) r.fail(`${path} refers to per-agent store '${name}', which this world does not define`);
      return s;
    }
    case T_REF: {
      const i = r.u32(`${path} reference`);
      if (i >= ctx.seen.length) r.fail(`${path} refers to object #${i}, which has not been defined`);
      return ctx.seen[i];
    }
    case T_VIEW: {
      const kind = r.u8(`${path} typed array kind`);
      if (kind >= VIEW_KINDS.length) r.fail(`${path} has unknown typed array kind ${kind}`);
      const slot = ctx.seen.length; ctx.seen.push(null);
      const buffer = decodeValue(ctx, undefined, path + '.buffer');
      if (!(buffer instanceof ArrayBuffer) && !(typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer)) r.fail(`${path} typed array has no buffer`);
      const byteOffset = r.u32(`${path} byteOffset`), length = r.u32(`${path} length`);
      const C = VIEW_KINDS[kind];
      const buf = buffer as ArrayBuffer;
      if (byteOffset % C.BYTES_PER_ELEMENT !== 0 || byteOffset + length * C.BYTES_PER_ELEMENT > buf.byteLength) {
        r.fail(`${path} typed array (offset ${byteOffset}, length ${length}) does not fit its buffer of ${buf.byteLength} bytes`);
      }
      const view = new C(buf, byteOffset, length);
      ctx.seen[slot] = view;
      return view;
    }
    case T_BUFFER: {
      const shared = r.u8(`${path} buffer kind`);
      const n = r.count(`${path} buffer bytes`, MAX_ITEMS, 1);
      const bytes = r.bytes(n, path);
      let buf: ArrayBuffer | SharedArrayBuffer;
      if (shared === 1 && typeof SharedArrayBuffer !== 'undefined') {
        buf = new SharedArrayBuffer(n);
        new Uint8Array(buf).set(bytes);
      } else {
        buf = bytes.buffer;
      }
      ctx.seen.push(buf);
      return buf;
    }
    case T_ARRAY: {
      const n = r.count(`${path} array length`, MAX_ITEMS, 1);
      const a: unknown[] = new Array(n);
      ctx.seen.push(a);
      const t = Array.isArray(target) ? target : undefined;
      for (let i = 0; i < n; i++) a[i] = decodeValue(ctx, t ? t[i] : undefined, `${path}[${i}]`);
      return a;
    }
    case T_MAP: {
      const n = r.count(`${path} map size`, MAX_ITEMS, 2);
      const m = new Map<unknown, unknown>();
      ctx.seen.push(m);
      const t = target instanceof Map ? target : undefined;
      for (let i = 0; i < n; i++) {
        const k = decodeValue(ctx, undefined, `${path}.key${i}`);
        m.set(k, decodeValue(ctx, t ? t.get(k) : undefined, `${path}.get(${String(k)})`));
      }
      return m;
    }
    case T_SET: {
      const n = r.count(`${path} set size`, MAX_ITEMS, 1);
      const s = new Set<unknown>();
      ctx.seen.push(s);
      for (let i = 0; i < n; i++) s.add(decodeValue(ctx, undefined, `${path}.item${i}`));
      return s;
    }
    case T_OBJECT:
    case T_NULL_PROTO: {
      const n = r.count(`${path} key count`, MAX_ITEMS, 5);
      const o: Record<string, unknown> = tag === T_NULL_PROTO ? Object.create(null) : {};
      return decodeFields(ctx, o, n, target, path);
    }
    case T_CLASS: {
      const name = r.str(`${path} class name`);
      const proto = plainDataPrototype(name);
      if (proto === undefined) r.fail(`${path} is an instance of plain-data class '${name}', which is not registered here`);
      const n = r.count(`${path} key count`, MAX_ITEMS, 5);
      return decodeFields(ctx, Object.create(proto as object) as Record<string, unknown>, n, target, path);
    }
    default:
      return r.fail(`${path} has unknown value tag ${tag}`);
  }
}

/** Read `n` named fields into `o` (registered as the next seen object first, so cycles resolve to it). */
function decodeFields(ctx: DecodeContext, o: Record<string, unknown>, n: number, target: unknown, path: string): Record<string, unknown> {
  const r = ctx.r;
  ctx.seen.push(o);
  const t = target !== null && typeof target === 'object' ? target as Record<string, unknown> : undefined;
  for (let i = 0; i < n; i++) {
    const k = r.str(`${path} key`);
    if (k === '__proto__') r.fail(`${path} has a '__proto__' key`);
    o[k] = decodeValue(ctx, t ? t[k] : undefined, `${path}.${k}`);
  }
  return o;
}
