/**
 * Murmur's error classes. Every error names the offending field and value, so a game developer reading the
 * message knows what to fix without reading Murmur's source. Validation runs before any state is written, so a
 * thrown error never leaves a half-applied change behind.
 */

/** What kind of bad input an error reports; stable strings that scripts can switch on. */
export type MurmurErrorCode =
  | 'INVALID_ARGUMENT'
  | 'CAPACITY_EXCEEDED'
  | 'UNKNOWN_ENTITY'
  | 'MALFORMED_INPUT'
  | 'DEGENERATE_GEOMETRY'
  | 'OUT_OF_RANGE';

/** Base class of every error Murmur throws on purpose. */
export class MurmurError extends Error {
  readonly code: MurmurErrorCode;
  /** The argument or field at fault, e.g. `init.radius` or `dt`. */
  readonly field: string;
  /** The offending value (as given). */
  readonly value: unknown;

  constructor(code: MurmurErrorCode, field: string, value: unknown, message: string) {
    super(`${field}: ${message} (got ${formatValue(value)})`);
    this.name = new.target.name;
    this.code = code;
    this.field = field;
    this.value = value;
  }
}

/** A number is NaN/infinite, out of its allowed range, or an option has the wrong type. */
export class InvalidArgumentError extends MurmurError {
  constructor(field: string, value: unknown, message: string) {
    super('INVALID_ARGUMENT', field, value, message);
  }
}

/** A fixed-capacity store (agents, contacts, obstacles, cache) is full. */
export class CapacityError extends MurmurError {
  constructor(field: string, value: unknown, message: string) {
    super('CAPACITY_EXCEEDED', field, value, message);
  }
}

/** An entity id that was never spawned, or has been despawned. */
export class UnknownEntityError extends MurmurError {
  constructor(field: string, value: unknown, message = 'unknown or despawned entity') {
    super('UNKNOWN_ENTITY', field, value, message);
  }
}

/** A map file, polygon list or other structured input cannot be parsed. */
export class MalformedInputError extends MurmurError {
  constructor(field: string, value: unknown, message: string) {
    super('MALFORMED_INPUT', field, value, message);
  }
}

/** A polygon or shape is degenerate (zero area, self-intersecting, too few points). */
export class DegenerateGeometryError extends MurmurError {
  constructor(field: string, value: unknown, message: string) {
    super('DEGENERATE_GEOMETRY', field, value, message);
  }
}

/** A cell, index or coordinate lies outside the grid, mesh or buffer it addresses. */
export class OutOfRangeError extends MurmurError {
  constructor(field: string, value: unknown, message: string) {
    super('OUT_OF_RANGE', field, value, message);
  }
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 80 ? JSON.stringify(value.slice(0, 80) + '…') : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `array(${value.length})`;
  if (ArrayBuffer.isView(value)) return `${value.constructor.name}(${(value as unknown as { length: number }).length})`;
  return typeof value;
}
