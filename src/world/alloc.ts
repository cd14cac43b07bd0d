/**
 * Typed-array allocation for per-agent stores. With `shared`, the backing memory is a SharedArrayBuffer so the
 * same stores can be handed to worker threads without copying (the kernels already take (start, count) ranges).
 */
export type TypedArrayCtor = Float64ArrayConstructor | Float32ArrayConstructor | Int32ArrayConstructor | Uint32ArrayConstructor | Uint8ArrayConstructor;
export type AgentTypedArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array;

/** Allocate `length` elements of `Ctor`, on a SharedArrayBuffer when `shared` (and available). */
export function allocTyped<T extends AgentTypedArray>(Ctor: TypedArrayCtor, length: number, shared: boolean): T {
  if (shared) {
    if (typeof SharedArrayBuffer === 'undefined') {
      throw new Error('sharedMemory: SharedArrayBuffer is not available here (browsers need cross-origin isolation)');
    }
    // (TypeScript's lib types the constructors with ArrayBuffer only; SharedArrayBuffer is valid at run time.)
    return new Ctor(new SharedArrayBuffer(length * Ctor.BYTES_PER_ELEMENT) as unknown as ArrayBuffer) as T;
  }
  return new Ctor(length) as T;
}
