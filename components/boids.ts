import type { CrowdWorld } from '../src/world/crowd';
import { defineAgentComponent, type StoreAllocator } from '../src/world/registry';

/** Neighbourhood modes. */
export const BOIDS_METRIC = 0;
export const BOIDS_TOPOLOGICAL = 1;

/**
 * Per-agent boids parameters (SoA, indexed by entity id). Defaults in brackets.
 * Units: the boids acceleration is a = wSep·S + wAli·A + wCoh·C (see src/boids/boids), with S in 1/m, A in m/s and
 * C in m, so wSep is in m³/s², wAli in 1/s and wCoh in 1/s².
 */
export interface BoidsStore {
  /** 1 = this agent flocks [0]. */
  readonly enabled: Uint8Array;
  /** BOIDS_METRIC or BOIDS_TOPOLOGICAL [topological]. */
  readonly mode: Uint8Array;
  /** Metric radius; for topological, the search cap, metres [8]. */
  readonly radius: Float64Array;
  /** Topological neighbour count k [7, after Ballerini et al. 2008]; metric neighbour cap is BOIDS_MAX_NEIGHBOURS. */
  readonly k: Int32Array;
  /** Separation weight, m³/s² [0.3]. */
  readonly wSep: Float64Array;
  /** Alignment weight, 1/s [3]. */
  readonly wAli: Float64Array;
  /** Cohesion weight, 1/s² [0.3]. */
  readonly wCoh: Float64Array;
  /** Minimum speed, m/s [0]: birds and fish keep moving (cruise speed); crowds may stop. */
  readonly minSpeed: Float64Array;
  /**
   * 1 = free flocking (Reynolds 1987): the boids acceleration integrates the agent's CURRENT velocity,
   * preferred = v + a·dt, so the flock carries its own momentum. 0 = corrections to whatever navigation/steering
   * wrote: preferred += a·horizon [1].
   */
  readonly inertial: Uint8Array;
  /**
   * For agents with inertial = 0 (steered or navigated): the boids acceleration is applied over this horizon,
   * Δv = a·horizon, seconds [0.5]. Free-flocking agents integrate it over the step instead (Δv = a·dt).
   */
  readonly horizon: Float64Array;
}

/** Largest metric neighbourhood considered (the query stops when full) and largest k. */
export const BOIDS_MAX_NEIGHBOURS = 64;

/** The boids component of a world (defined on first use). */
export function boidsComponent(world: CrowdWorld): BoidsStore {
  return defineAgentComponent(world, 'boids', makeBoidsStore);
}

// Module scope: an arrow written inside boidsComponent would be a fresh closure (an allocation) on every call.
const makeBoidsStore = (a: StoreAllocator): BoidsStore => ({
  enabled: a.u8(0),
  mode: a.u8(BOIDS_TOPOLOGICAL),
  radius: a.f64(8),
  k: a.i32(7),
  wSep: a.f64(0.3),
  wAli: a.f64(3),
  wCoh: a.f64(0.3),
  minSpeed: a.f64(0),
  inertial: a.u8(1),
  horizon: a.f64(0.5),
});
