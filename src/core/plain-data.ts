/**
 * Plain-data classes: classes whose instances hold only data fields (numbers, typed arrays, plain objects) and no
 * hidden state, used on hot paths because a class gives V8 a stable hidden class (an object literal shared by
 * several call sites may make it box every double it stores). Registering such a class lets snapshots copy its
 * instances field by field and rebuild them with the same prototype on restore.
 */
const _byCtor = new Map<Function, string>();
const _byName = new Map<string, object>();

/** Declare that instances of `ctor` are plain data, under a stable `name` used in snapshots. */
export function registerPlainDataClass(ctor: Function, name: string): void {
  const prev = _byName.get(name);
  if (prev !== undefined && prev !== ctor.prototype) throw new Error(`plain-data class name '${name}' is registered twice`);
  _byCtor.set(ctor, name);
  _byName.set(name, ctor.prototype as object);
}

/** The registered name of an instance's class, or undefined. */
export function plainDataClassName(o: object): string | undefined {
  const proto = Object.getPrototypeOf(o) as { constructor?: Function } | null;
  return proto && proto.constructor ? _byCtor.get(proto.constructor) : undefined;
}

/** The prototype registered under `name`, or undefined. */
export function plainDataPrototype(name: string): object | undefined {
  return _byName.get(name);
}
