/**
 * Fuzz (fast-check, fixed seed, quick): GJK, EPA and the manifolds never return NaN, never run past their iteration
 * caps, and keep their basic invariants, on random and degenerate shapes (zero-length capsules, paper-thin boxes,
 * needle hulls, near-coplanar hulls, coincident and touching poses, huge offsets).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { boxShape, capsuleShape, createPose, cylinderShape, hullShape, setPoseQuat, sphereShape } from '../../src/collision/shapes';
import type { Shape } from '../../src/collision/shapes';
import { createDistanceOutput, createGjkCache, gjkDistance, GJK_MAX_ITERATIONS } from '../../src/collision/gjk';
import { contactManifold, createManifold, createManifoldInput } from '../../src/collision/manifold';
import { EPA_MAX_ITERATIONS } from '../../src/collision/epa';
import { circleShape, polygonShape, createPose2 } from '../../src/collision/shapes2d';
import { contactManifold2, createManifold2, createManifold2Input, GJK2_MAX_ITERATIONS, EPA2_MAX_ITERATIONS } from '../../src/collision/manifold2d';

const SEED = 20261129;
const size = fc.double({ min: 1e-4, max: 3, noNaN: true });
const coord = fc.double({ min: -3, max: 3, noNaN: true });

const shape3: fc.Arbitrary<Shape> = fc.oneof(
  size.map((r) => sphereShape(r)),
  fc.tuple(size, fc.double({ min: 0, max: 2, noNaN: true })).map(([r, h]) => capsuleShape(r, h)), // h = 0: a sphere-like capsule
  fc.tuple(size, size, size).map(([x, y, z]) => boxShape(x, y, z)),
  fc.tuple(size, size).map(([r, h]) => cylinderShape(r, h)),
  // hulls: random clouds, needles (nearly collinear) and slabs (nearly coplanar)
  fc.tuple(fc.array(fc.tuple(coord, coord, coord), { minLength: 4, maxLength: 20 }), fc.constantFrom(1, 1e-3, 1e-6), fc.constantFrom(0, 1, 2))
    .map(([pts, squash, axis]) => {
      const flat: number[] = [];
      for (const p of pts) { const q = [p[0], p[1], p[2]]; q[axis] *= squash; flat.push(q[0], q[1], q[2]); }
      try { return hullShape(flat); } catch { return boxShape(1, 1e-4, 1); } // coplanar clouds are rejected by design
    }),
);

const quat = fc.tuple(coord, coord, coord, coord).filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 1e-6);
const offset = fc.constantFrom(0, 1e3, 1e5);

function finite(a: ArrayLike<number>, n: number): boolean {
  for (let i = 0; i < n; i++) if (!Number.isFinite(a[i])) return false;
  return true;
}

describe('fuzz: GJK / EPA / manifold (3D)', () => {
  it('no NaN, iteration caps respected, unit normals, depths consistent', () => {
    const out = createDistanceOutput(), warm = createDistanceOutput(), m = createManifold();
    const pa = createPose(), pb = createPose();
    fc.assert(
      fc.property(shape3, shape3, fc.tuple(coord, coord, coord), quat, quat, offset, fc.boolean(), (a, b, p, qa, qb, off, same) => {
        setPoseQuat(pa, off, -off, off, qa[0], qa[1], qa[2], qa[3]);
        // `same`: coincident centres (the hardest EPA start)
        if (same) setPoseQuat(pb, off, -off, off, qb[0], qb[1], qb[2], qb[3]);
        else setPoseQuat(pb, off + p[0], -off + p[1], off + p[2], qb[0], qb[1], qb[2], qb[3]);
        // a cache belongs to one pair: fresh per case, used twice (cold, then warm from the cached simplex)
        const cache = createGjkCache();
        gjkDistance(a, pa, b, pb, out, cache);
        gjkDistance(a, pa, b, pb, warm, cache);
        expect(Number.isFinite(out.distance)).toBe(true);
        expect(warm.overlap).toBe(out.overlap);
        expect(Math.abs(warm.distance - out.distance)).toBeLessThanOrEqual(1e-9 * (1 + off + out.distance));
        expect(out.iterations).toBeLessThanOrEqual(GJK_MAX_ITERATIONS);
        contactManifold(createManifoldInput(a, pa, b, pb, 0.01), m);
        expect(m.gjkIterations).toBeLessThanOrEqual(GJK_MAX_ITERATIONS);
        expect(m.epaIterations).toBeLessThanOrEqual(EPA_MAX_ITERATIONS);
        if (m.count > 0) {
          expect(Number.isFinite(m.depth)).toBe(true);
          expect(finite(m.normal, 3) && finite(m.points, 3 * m.count) && finite(m.depths, m.count)).toBe(true);
          expect(Math.hypot(m.normal[0], m.normal[1], m.normal[2])).toBeCloseTo(1, 9);
          expect(m.count).toBeLessThanOrEqual(4);
          // a separated pair (GJK distance > margin) has no contact, an overlapping one has
          if (!out.overlap) expect(out.distance).toBeLessThanOrEqual(0.01 + 1e-6 * (1 + off));
        } else {
          expect(out.overlap).toBe(false);
        }
      }),
      { seed: SEED, numRuns: 600 },
    );
  });
});

describe('fuzz: 2D manifolds', () => {
  it('no NaN, caps respected, at most 2 points, unit normal', () => {
    const m = createManifold2();
    const poly = fc.array(fc.tuple(coord, coord), { minLength: 3, maxLength: 12 }).map((pts) => {
      try { return polygonShape(pts.flat()); } catch { return circleShape(0.5); } // collinear sets are rejected by design
    });
    const shape2 = fc.oneof(size.map((r) => circleShape(r)), poly, fc.tuple(poly, size).map(([p, r]) => (p.kind === 'polygon' ? polygonShape(Array.from(p.verts), r) : p)));
    fc.assert(
      fc.property(shape2, shape2, coord, coord, coord, coord, offset, (a, b, x, y, t1, t2, off) => {
        contactManifold2(createManifold2Input(a, createPose2(off, off, t1), b, createPose2(off + x, off + y, t2), 0.01), m);
        expect(m.gjkIterations).toBeLessThanOrEqual(GJK2_MAX_ITERATIONS);
        expect(m.epaIterations).toBeLessThanOrEqual(EPA2_MAX_ITERATIONS);
        expect(m.count).toBeLessThanOrEqual(2);
        if (m.count > 0) {
          expect(finite(m.normal, 2) && finite(m.points, 2 * m.count) && finite(m.depths, m.count) && Number.isFinite(m.depth)).toBe(true);
          expect(Math.hypot(m.normal[0], m.normal[1])).toBeCloseTo(1, 9);
        }
      }),
      { seed: SEED, numRuns: 600 },
    );
  });
});
