import { InvalidArgumentError } from './errors';

/**
 * Argument checks shared by every public entry point. Each throws an InvalidArgumentError that names the field and
 * the value. They are for API boundaries only, never for per-agent hot loops.
 */

/** A finite number (not NaN, not ±Infinity). */
export function requireFinite(field: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidArgumentError(field, value, 'must be a finite number');
  }
  return value;
}

/** A finite number > 0. */
export function requirePositive(field: string, value: number): number {
  requireFinite(field, value);
  if (!(value > 0)) throw new InvalidArgumentError(field, value, 'must be greater than 0');
  return value;
}

/** A finite number ≥ 0. */
export function requireNonNegative(field: string, value: number): number {
  requireFinite(field, value);
  if (!(value >= 0)) throw new InvalidArgumentError(field, value, 'must be 0 or greater');
  return value;
}

/** An integer in [min, max]. */
export function requireInteger(field: string, value: number, min = -Infinity, max = Infinity): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new InvalidArgumentError(field, value, 'must be an integer');
  }
  if (value < min || value > max) {
    throw new InvalidArgumentError(field, value, `must be between ${min} and ${max}`);
  }
  return value;
}

/** A finite number ≥ 0 that may also be +Infinity (for "no limit" options such as max turn rate). */
export function requireNonNegativeOrInfinity(field: string, value: number): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    throw new InvalidArgumentError(field, value, 'must be 0 or greater (Infinity allowed)');
  }
  return value;
}

/** A number > 0 that may also be +Infinity (for limits where Infinity means "none": acceleration, turn rate, mass). */
export function requirePositiveOrInfinity(field: string, value: number, meaning = 'Infinity allowed'): number {
  if (typeof value !== 'number' || Number.isNaN(value) || !(value > 0)) {
    throw new InvalidArgumentError(field, value, `must be greater than 0 (${meaning})`);
  }
  return value;
}
