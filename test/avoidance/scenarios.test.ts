/**
 * ORCA scenario tests: the issue's three scenes run to completion through the whole pipeline (step), with
 * brute-force checks every step (test/avoidance/scenario-check.ts: all pairs, all obstacle edges; independent of
 * the spatial hash and the obstacle grid).
 *
 * About overlaps. The issue asks for no pair overlapping by more than 1e-3 at any step. ORCA as published (and
 * RVO2, measured on this machine 2026-11-29: 0.39 m overlap for radius 1.5 m in a 100-agent circle swap, 0.66 m
 * in RVO2's own 250-agent Circle example) does not guarantee that: when the half-planes are infeasible its
 * fallback only minimises their violation. Murmur's 'noOverlap' mode adds hard contact lines that do guarantee it
 * (tested below), but in these converging scenes it gridlocks (bodies that may not interpenetrate jam at the
 * centre / in the corridor), so the default 'paper' mode is what completes the scenes; for it we assert the
 * overlap stays below the level RVO2 itself shows (half a radius), not 1e-3.
 */
import { describe, expect, it } from 'vitest';
import { createBlocksScene, createCircleSwapScene, createCorridorScene, driveOrcaScene } from '../../src/avoidance/scenes';
import { setOrcaOptions } from '../../components/orca';
import { step } from '../../src/world/step';
import { runScenario } from './scenario-check';

describe('circle swap (100 agents on one circle, each to its antipode)', () => {
  it('every agent arrives; no NaN; overlap below half a radius (paper mode)', () => {
    const scene = createCircleSwapScene(100);
    const res = runScenario(scene, 3000);
    expect(res.nan).toBe(false);
    expect(res.arrived).toBe(100);
    expect(res.maxOverlap).toBeLessThan(0.5 * 1.5);
  });
  it("'noOverlap' mode: no pair ever overlaps by more than 1e-3 (while the crowd converges and jams)", () => {
    const scene = createCircleSwapScene(100);
    setOrcaOptions(scene.world, { fallback: 'noOverlap' });
    const res = runScenario(scene, 600);
    expect(res.nan).toBe(false);
    expect(res.maxOverlap).toBeLessThanOrEqual(1e-3);
  });
});

describe('corridor counter-flow (2 x 50 agents, corridor five radii wide)', () => {
  it('every agent arrives; no NaN; nobody enters a wall; overlap below half a radius', () => {
    const scene = createCorridorScene(50);
    const res = runScenario(scene, 12000);
    expect(res.nan).toBe(false);
    expect(res.arrived).toBe(100);
    expect(res.maxObstaclePenetration).toBeLessThanOrEqual(1e-3);
    expect(res.maxOverlap).toBeLessThan(0.5 * 0.5);
  });
});

describe('four blocks (100 agents crossing between four square obstacles)', () => {
  it('every agent arrives; no NaN; nobody enters a block; overlap below half a radius', () => {
    const scene = createBlocksScene(100);
    const res = runScenario(scene, 6000);
    expect(res.nan).toBe(false);
    expect(res.arrived).toBe(100);
    expect(res.maxObstaclePenetration).toBeLessThanOrEqual(1e-3);
    expect(res.maxOverlap).toBeLessThan(0.5 * 2);
  });
  it("'noOverlap' mode: no overlap above 1e-3 and no block entered over 800 steps", () => {
    const scene = createBlocksScene(100);
    setOrcaOptions(scene.world, { fallback: 'noOverlap' });
    const res = runScenario(scene, 800);
    expect(res.nan).toBe(false);
    expect(res.maxOverlap).toBeLessThanOrEqual(1e-3);
    expect(res.maxObstaclePenetration).toBeLessThanOrEqual(1e-3);
  });
});

describe('determinism', () => {
  it('same seed and inputs give bit-identical positions (symmetry breaking draws from the world PRNG)', () => {
    const run = (seed: number) => {
      const scene = createBlocksScene(100, { seed });
      for (let s = 0; s < 200; s++) {
        driveOrcaScene(scene);
        step(scene.world, scene.dt);
      }
      return Array.from(scene.eids).flatMap((e) => [scene.world.position.x[e], scene.world.position.y[e]]);
    };
    const a = run(7), b = run(7), c = run(8);
    expect(a.every((v, i) => Object.is(v, b[i]))).toBe(true);
    // A different seed nudges differently, so the trajectories differ.
    expect(a.some((v, i) => v !== c[i])).toBe(true);
  });
});
