/**
 * Murmur's public API. Every export is named explicitly, values and types separately, one section per area.
 * (Engineers: edit only your area's section.)
 */

// ---- core: errors, validation, deterministic RNG and maths ----
export {
  MurmurError,
  InvalidArgumentError,
  CapacityError,
  UnknownEntityError,
  MalformedInputError,
  DegenerateGeometryError,
  OutOfRangeError,
} from './core/errors';
export type { MurmurErrorCode } from './core/errors';
export { createRng, seedRng, rngUint32, rngFloat, rngRange, rngInt } from './core/rng';
export type { Rng } from './core/rng';
export { dsin, dcos, datan2, dhypot } from './core/dmath';

// ---- world: crowd, agents, pipeline, profiler ----
// (world section: lead)

// ---- spatial ----

// ---- grid ----

// ---- navmesh ----

// ---- steering ----

// ---- avoidance ----

// ---- lod ----

// ---- collision ----

// ---- reliability ----
