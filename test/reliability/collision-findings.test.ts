import { describe, expect, it } from 'vitest';
import { boxShape, capsuleShape, cylinderShape, hullShape, sphereShape, createPose, setPoseQuat, type Pose } from '../../src/collision/shapes';
import { contactManifold, createManifold, createManifoldInput } from '../../src/collision/manifold';
import { createDistanceOutput, gjkDistance } from '../../src/collision/gjk';
import { createRng, rngRange } from '../../src/core/rng';
import { circleShape, polygonShape, createPose2, setPose2 } from '../../src/collision/shapes2d';
import { contactManifold2, createManifold2, createManifold2Input } from '../../src/collision/manifold2d';

// Counterexamples from the long fuzz run of 2026-11-29 (npm run fuzz), pinned with independent oracles.

/** Distance from world point (x, y, z) to an upright cylinder (axis z, radius r, half height h) at the origin. */
function pointCylinderDistance(x: number, y: number, z: number, r: number, h: number): number {
  const radial = Math.hypot(x, y) - r, axial = Math.abs(z) - h;
  if (radial <= 0 && axial <= 0) return Math.max(radial, axial); // inside: negative
  return Math.hypot(Math.max(radial, 0), Math.max(axial, 0));
}

/** World position of local point (x, y, z) under a pose (row-major rotation in pose[3..12), translation pose[0..3)). */
function toWorld(p: Pose, x: number, y: number, z: number): [number, number, number] {
  return [p[0] + p[3] * x + p[4] * y + p[5] * z, p[1] + p[6] * x + p[7] * y + p[8] * z, p[2] + p[9] * x + p[10] * y + p[11] * z];
}

describe('collision fuzz findings', () => {
  it('contactManifold2: a disc centred on a box (and on a rounded box) gets the depth to the nearest side plus its radius (hand: 0.3 + r; was 0.02 at the EPA iteration cap)', () => {
    // 2D manifold fuzz property, 2026-11-29: EPA ran on the rounded shapes, crept along the arcs of the rounded
    // corners until its cap and folded its polygon. It runs on the cores now and adds the radii.
    const r = 0.15865314677663497;
    const box = polygonShape([-0.5, -0.3, 0.5, -0.3, 0.5, 0.3, -0.5, 0.3]);
    for (const [dx, dy] of [[0, 0], [0.01, 0.02], [-0.1, 0], [0, -0.05]]) {
      const m = contactManifold2(createManifold2Input(box, createPose2(0, 0, 0), circleShape(r), createPose2(dx, dy, 0), 0), createManifold2());
      expect(m.count).toBeGreaterThan(0);
      expect(Math.abs(m.depth - (0.3 - Math.abs(dy) + r))).toBeLessThan(1e-9); // nearest side: the long one at y = ±0.3
      expect(Math.abs(Math.abs(m.normal[1]) - 1)).toBeLessThan(1e-9);
      expect(m.epaIterations).toBeLessThan(10);
    }
    // rounded box (radius 0.05) and a rotated pose: depth = 0.3 + 0.05 + r
    const rounded = polygonShape([-0.5, -0.3, 0.5, -0.3, 0.5, 0.3, -0.5, 0.3], 0.05);
    const pa = setPose2(createPose2(), 2, -1, 0.7);
    const m = contactManifold2(createManifold2Input(rounded, pa, circleShape(r), setPose2(createPose2(), 2, -1, 0), 0), createManifold2());
    expect(Math.abs(m.depth - (0.35 + r))).toBeLessThan(1e-9);
  });

  it('contactManifold: box and cylinder with coincident centres, parallel faces tilted 0..1e-9 rad: depth 0.1 (hand: the smallest of the axis overlaps 0.06+0.05, 0.05+0.05, 0.05+0.05), never negative', () => {
    // EPA folded its polytope (a new face with the origin in front of it) and reported depth −0.1 at 64 iterations.
    const box = boxShape(0.06016719723884632, 0.05, 0.05), cyl = cylinderShape(0.05, 0.05);
    const poseBox = setPoseQuat(createPose(), 0, 0, -3.3073637706954873e-152, 0, -0.0316227766016838, 0, 0);
    const m = contactManifold(createManifoldInput(box, poseBox, cyl, setPoseQuat(createPose(), 0, 0, 0, 0, -1.3092390756827292e-12, 0, -0.05484231998549563), 0), createManifold());
    expect(m.count).toBeGreaterThan(0);
    expect(Math.abs(m.depth - 0.1)).toBeLessThan(1e-6);
    for (const tilt of [1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-15, 0]) {
      const mt = contactManifold(createManifoldInput(box, poseBox, cyl, setPoseQuat(createPose(), 0, 0, 0, 0, tilt, 0, 1), 0), createManifold());
      expect(Math.abs(mt.depth - 0.1), `tilt ${tilt}`).toBeLessThan(1e-6);
    }
  });

  it('gjkDistance: a 1 µm hull 1 cm from a cylinder is not overlapping (oracle: the analytic point-cylinder distance of its vertices, within the hull size)', () => {
    // A sliver simplex (the hull's support point halfway between two earlier ones) whose round-off signs said
    // "origin inside": GJK reported overlap for shapes 0.0098 m apart, in one argument order only.
    const pts = [-6.109764287248254e-7, 4.813261004164814e-7, 7.102224831469356e-7, 4.642154951579868e-7, 7.058545108884573e-7, -9.706133417785167e-7,
      1.6800661012530324e-7, -3.305778233334421e-8, -4.502749214880168e-7, -2.610139315947886e-8, -8.445673463866114e-7, 3.6324615031480793e-7,
      -6.151237948797643e-7, -7.372178225778043e-7, -5.4100253153592384e-8, -2.0122817158699033e-7, 3.512560008093715e-7, 4.277752130292355e-7];
    const hull = hullShape(pts), cyl = cylinderShape(0.05, 0.05);
    const pose = setPoseQuat(createPose(), -0.03493938508909196, -0.04856904041953385, -0.013192628114484253, -0.7725000237114727, -0.8352696448564529, -0.4337891102768481, -0.35173862986266613);
    let oracle = Infinity;
    for (let i = 0; i < pts.length; i += 3) {
      const [x, y, z] = toWorld(pose, pts[i], pts[i + 1], pts[i + 2]);
      oracle = Math.min(oracle, pointCylinderDistance(x, y, z, 0.05, 0.05));
    }
    expect(oracle).toBeGreaterThan(0.009);
    const d = gjkDistance(hull, pose, cyl, createPose(), createDistanceOutput());
    expect(d.overlap).toBe(false);
    expect(Math.abs(d.distance - oracle)).toBeLessThan(3e-6); // the hull's diameter bounds the vertex oracle's error
  });

  it('gjkDistance: box edge parallel to a cylinder side, 1 m apart: the witness points are exactly `distance` apart (hand: distance = |edge − axis| − radius)', () => {
    // The closest pair is not unique along the shared vertical direction; the points' barycentrics drifted apart
    // there (6.7 µm too far apart) while the distance itself was right.
    const cyl = cylinderShape(1.0802594174276994, 1.5460977542709902), box = boxShape(1.166082792552184, 1.9894531244422762, 1.8150948670231053);
    const pa = setPoseQuat(createPose(), 0, 0, 0, 1.138501274412026e-7, -0.9999980929551585, 0, 0); // flipped, axis tilted 2.3e-7 rad
    const pb = setPoseQuat(createPose(), -2.9999998937181402, -2.9999998210841916, 0, 0, 0, -0.0316227766016838, 0); // half turn about z
    const d = gjkDistance(cyl, pa, box, pb, createDistanceOutput());
    // The box's vertical edge nearest the axis is at (cx + hx, cy + hy) after the half turn.
    const hand = Math.hypot(-2.9999998937181402 + 1.166082792552184, -2.9999998210841916 + 1.9894531244422762) - 1.0802594174276994;
    expect(Math.abs(d.distance - hand)).toBeLessThan(1e-7);
    const gap = Math.hypot(d.pointB[0] - d.pointA[0], d.pointB[1] - d.pointA[1], d.pointB[2] - d.pointA[2]);
    expect(Math.abs(gap - d.distance)).toBeLessThan(1e-9);
  });

  it('gjkDistance is symmetric for hulls of 1e-12..0.1 m against cylinders, boxes, spheres and capsules (9,600 seeded pairs; oracle: the swapped argument order)', () => {
    const rng = createRng(11);
    const o1 = createDistanceOutput(), o2 = createDistanceOutput();
    let pairs = 0;
    for (const ext of [1e-12, 1e-9, 1e-6, 1e-4, 1e-2, 0.1]) {
      for (let t = 0; t < 400; t++) {
        const pts: number[] = [];
        for (let i = 0; i < 7; i++) pts.push(rngRange(rng, -ext, ext), rngRange(rng, -ext, ext), rngRange(rng, -ext, ext));
        const hull = hullShape(pts);
        for (const other of [cylinderShape(0.05, 0.05), boxShape(0.1, 0.2, 0.05), sphereShape(0.1), capsuleShape(0.03, 0.1)]) {
          const r = () => rngRange(rng, -1, 1);
          const pa = setPoseQuat(createPose(), rngRange(rng, -0.15, 0.15), rngRange(rng, -0.15, 0.15), rngRange(rng, -0.15, 0.15), r(), r(), r(), r());
          const pb = setPoseQuat(createPose(), 0, 0, 0, r(), r(), r(), r());
          gjkDistance(hull, pa, other, pb, o1);
          gjkDistance(other, pb, hull, pa, o2);
          expect(Math.abs(o1.distance - o2.distance), `extent ${ext}, ${other.kind}`).toBeLessThan(1e-9);
          pairs++;
        }
      }
    }
    expect(pairs).toBe(9600);
  });
});
