import { describe, expect, it } from 'vitest';
import { FUZZ_PROPERTIES, runProperty, skipKnownDefects } from './fuzz-properties';
import { linearProgram2 } from '../../src/avoidance/lp';
import { cylinderShape, boxShape, createPose, setPoseQuat } from '../../src/collision/shapes';
import { contactManifold, createManifold, createManifoldInput } from '../../src/collision/manifold';
import { createSpatialHash, rebuildSpatialHash, queryKNearest, queryRadius } from '../../src/spatial/hash';
import { createOrcaAgent, createOrcaNeighbours, orcaVelocity } from '../../src/avoidance/orca';

// The quick, fixed-seed run of every kernel property (the long run with fresh seeds is `npm run fuzz`).
const SEED = 20261129;

describe('fuzz (fast-check, fixed seed)', () => {
  for (const p of FUZZ_PROPERTIES) {
    it(p.name, () => {
      skipKnownDefects(true);
      try {
        const report = runProperty(p, SEED, p.quickRuns);
        expect(report, report ?? '').toBeNull();
      } finally {
        skipKnownDefects(false);
      }
    });
  }
});

// Counterexamples the fuzzer found, pinned exactly. They are defects in other engineers' kernels, reported in
// docs/RELIABILITY.md; `it.fails` passes while the defect is there and fails once it is fixed (then make it `it`).
describe('fuzz findings (fixed defects, kept as regression tests)', () => {
  it('ORCA LP: two almost-coincident lines through the origin leave the upper half-disc feasible (LP must not report infeasible)', () => {
    const a = 6.283175307179587; // 2π − 1e-5: direction (1, −1e-5), |det| with (1, 0) below LP_EPSILON
    const lines = new Float64Array([0, 0, 1, 0, 7.41103e-319, -5e-324, Math.cos(a), Math.sin(a)]);
    const out = new Float64Array(2);
    // v = (0, 0.005) satisfies both lines by a margin of 5e-3: the program is feasible.
    expect(linearProgram2(lines, 2, 0.01, 0, 0, false, out)).toBe(2);
  });
  it('contactManifold: small cylinder flipped 180° about x, tilted 1e-13 rad, inside a box: depth must be 0.55 (hand: box half 0.5 + cylinder half height 0.05)', () => {
    const cyl = cylinderShape(0.05, 0.05), box = boxShape(0.5, 0.5, 0.5);
    const m = contactManifold(createManifoldInput(cyl, setPoseQuat(createPose(), 0, 0, 0, 1, 0, 1e-13, 0), box, createPose(), 0), createManifold());
    expect(m.depth).toBeCloseTo(0.55, 6);
  });
  it('spatial hash: k-nearest with r = 0 finds a point whose squared distance underflows to 0 (as queryRadius does)', () => {
    const h = createSpatialHash(4, 0.05);
    const xs = new Float64Array(2), ys = new Float64Array(2);
    rebuildSpatialHash(h, xs, ys, new Int32Array([1]), 1); // one point at (0, 0)
    const ids = new Int32Array(1), d2 = new Float64Array(1);
    expect(queryRadius(h, -5e-324, 0, 0, -1, ids)).toBe(1); // (5e-324)² = 0 <= 0²: a neighbour by the contract
    expect(queryKNearest(h, -5e-324, 0, 0, 1, -1, ids, d2)).toBe(1);
  });
  it('orcaVelocity: a coincident neighbour with a relative velocity of 6e-162 m/s (share 0.25): the result stays within maxSpeed (hand: the speed disc is a hard limit)', () => {
    const a = createOrcaAgent();
    a.radius = 0.1; a.maxSpeed = 1; a.timeHorizon = 0.1; a.obstacleTimeHorizon = 0.1;
    const nb = createOrcaNeighbours(1);
    nb.count = 1; nb.radius[0] = 0.1; nb.share[0] = 0.25; nb.id[0] = 1; // at the agent's own position
    nb.vy[0] = 5.966246622653461e-162; // a relative velocity whose square underflows to 0
    const out = { x: 0, y: 0 };
    orcaVelocity(a, nb, null, new Int32Array(0), 0, 0.005, out);
    // measured 2026-11-29: |v| = 1.0145 (the pair's line has a direction of length 1.0145, not 1); with vy = 0 exactly it is fine
    expect(Math.hypot(out.x, out.y)).toBeLessThanOrEqual(1 + 1e-12);
  });
  it('orcaVelocity: two deeply overlapping neighbours on the same side (anti-parallel lines, 3D fallback): the result stays within maxSpeed', () => {
    const a = createOrcaAgent();
    a.radius = 0.1; a.maxSpeed = 0.004452209501492843; a.timeHorizon = 0.1; a.obstacleTimeHorizon = 0.1;
    const nb = createOrcaNeighbours(2);
    nb.count = 2;
    nb.x[0] = 0.01; nb.vx[0] = -0.4259220424739836; nb.radius[0] = 0.3265018188764433; nb.share[0] = 1; nb.id[0] = 1;
    nb.x[1] = 0.01; nb.vy[1] = 0.000004570706519556417; nb.radius[1] = 0.3367108810554173; nb.share[1] = 1; nb.id[1] = 2;
    const out = { x: 0, y: 0 };
    orcaVelocity(a, nb, null, new Int32Array(0), 0, 0.02347847493854659, out);
    // measured 2026-11-29: |v| = 9.98 × maxSpeed (lines (0, −1) and (0, 1) at x = ±18.17; linearProgram3 result)
    expect(Math.hypot(out.x, out.y)).toBeLessThanOrEqual(a.maxSpeed * (1 + 1e-9));
  });
});
