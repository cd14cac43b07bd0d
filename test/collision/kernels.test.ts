/**
 * Unit tests of the 3D kernels against hand derivations and brute force: shapes and hulls, GJK distance and closest
 * points, EPA depth, the analytic fast paths against the general GJK/EPA path, feature ids, large offsets.
 */
import { describe, expect, it } from 'vitest';
import {
  boxShape, capsuleShape, createPose, cylinderShape, hullShape, setPoseQuat, sphereShape, coreSupport, setPoseAngle,
} from '../../src/collision/shapes';
import type { Pose, Shape } from '../../src/collision/shapes';
import { createDistanceOutput, createGjkCache, gjkDistance, gjkOverlap } from '../../src/collision/gjk';
import { pairSupport, relativePose } from '../../src/collision/pair';
import { EPA_MAX_ITERATIONS } from '../../src/collision/epa';
import { contactManifold, createManifold, createManifoldInput } from '../../src/collision/manifold';
import { createRng, rand, randomQuat, poseFrom, toWorld } from './helpers';

/** Brute-force distance between two vertex sets' hulls: min over sampled directions of the support gap is a lower
 * bound; here we use the exact separating-axis formulation for boxes: max over sampled unit d of (min_B d·x − max_A d·x). */
function sampledSeparation(va: number[][], vb: number[][], samples = 40000, seed = 1): number {
  const rng = createRng(seed);
  let best = -Infinity;
  for (let k = 0; k < samples; k++) {
    const z = rand(rng, -1, 1), t = rand(rng, 0, 2 * Math.PI), r = Math.sqrt(1 - z * z);
    const d = [r * Math.cos(t), r * Math.sin(t), z];
    let ma = -Infinity, mb = Infinity;
    for (const p of va) ma = Math.max(ma, p[0] * d[0] + p[1] * d[1] + p[2] * d[2]);
    for (const p of vb) mb = Math.min(mb, p[0] * d[0] + p[1] * d[1] + p[2] * d[2]);
    best = Math.max(best, mb - ma);
  }
  return best;
}

function worldVerts(s: Shape, pose: Pose): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < s.vertCount; i++) out.push(toWorld(pose, [s.verts[3 * i], s.verts[3 * i + 1], s.verts[3 * i + 2]]));
  return out;
}

describe('hullShape', () => {
  it('keeps the 8 corners of a cube given with interior, edge and face points, and builds 6 quad faces', () => {
    const pts: number[] = [];
    for (let i = 0; i < 8; i++) pts.push(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
    pts.push(0, 0, 0, 1, 0, 0, 0.5, 1, 1, 0, 0, -1); // centre, face centre, edge midpoint, face centre
    const h = hullShape(pts);
    expect(h.vertCount).toBe(8);
    expect(h.faceCount).toBe(6);
    for (let f = 0; f < 6; f++) {
      expect(h.faceStart[f + 1] - h.faceStart[f]).toBe(4);
      expect(h.faceOffsets[f]).toBeCloseTo(1, 12);
      // counter-clockwise seen from outside: (v1 − v0) × (v2 − v1) points along the normal
      const i0 = h.faceVerts[h.faceStart[f]], i1 = h.faceVerts[h.faceStart[f] + 1], i2 = h.faceVerts[h.faceStart[f] + 2];
      const v = (i: number) => [h.verts[3 * i], h.verts[3 * i + 1], h.verts[3 * i + 2]];
      const a = v(i0), b = v(i1), c = v(i2);
      const e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]], e2 = [c[0] - b[0], c[1] - b[1], c[2] - b[2]];
      const cr = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
      expect(cr[0] * h.faceNormals[3 * f] + cr[1] * h.faceNormals[3 * f + 1] + cr[2] * h.faceNormals[3 * f + 2]).toBeGreaterThan(0);
    }
  });
  it('random clouds: the same facet planes and vertices as a brute-force O(n⁴) enumeration in the test', () => {
    const rng = createRng(31);
    const brute = (pts: number[]) => {
      const n = pts.length / 3, planes: number[][] = [];
      for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) for (let k = j + 1; k < n; k++) {
        const a = [pts[3 * j] - pts[3 * i], pts[3 * j + 1] - pts[3 * i + 1], pts[3 * j + 2] - pts[3 * i + 2]];
        const b = [pts[3 * k] - pts[3 * i], pts[3 * k + 1] - pts[3 * i + 1], pts[3 * k + 2] - pts[3 * i + 2]];
        let nn = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
        const l = Math.hypot(nn[0], nn[1], nn[2]);
        if (l < 1e-9) continue;
        nn = nn.map((x) => x / l);
        const o = nn[0] * pts[3 * i] + nn[1] * pts[3 * i + 1] + nn[2] * pts[3 * i + 2];
        let above = 0, below = 0;
        for (let m = 0; m < n; m++) { const d = nn[0] * pts[3 * m] + nn[1] * pts[3 * m + 1] + nn[2] * pts[3 * m + 2] - o; if (d > 1e-9) above++; if (d < -1e-9) below++; }
        if (above && below) continue;
        const q = above ? [-nn[0], -nn[1], -nn[2], -o] : [...nn, o];
        if (!planes.some((r) => Math.abs(r[0] - q[0]) + Math.abs(r[1] - q[1]) + Math.abs(r[2] - q[2]) < 1e-7)) planes.push(q);
      }
      return planes;
    };
    for (let c = 0; c < 40; c++) {
      const pts: number[] = [];
      const n = 5 + Math.floor(rand(rng, 0, 30));
      for (let i = 0; i < n; i++) {
        if (c % 3 === 0) pts.push(Math.round(rand(rng, -2, 2)), Math.round(rand(rng, -2, 2)), Math.round(rand(rng, -2, 2))); // lattice: coplanar faces, duplicates
        else pts.push(rand(rng, -1, 1), rand(rng, -1, 1), rand(rng, -1, 1));
      }
      let h;
      try { h = hullShape(pts); } catch { expect(brute(pts).length).toBeLessThan(4); continue; }
      const ref = brute(pts);
      expect(h.faceCount).toBe(ref.length);
      for (let f = 0; f < h.faceCount; f++) {
        const q = [h.faceNormals[3 * f], h.faceNormals[3 * f + 1], h.faceNormals[3 * f + 2], h.faceOffsets[f]];
        expect(ref.some((r) => Math.abs(r[0] - q[0]) + Math.abs(r[1] - q[1]) + Math.abs(r[2] - q[2]) + Math.abs(r[3] - q[3]) < 1e-7)).toBe(true);
      }
    }
  });
  it('a large cloud (2,000 interior points + 40 on a sphere) keeps only the 40 sphere points', () => {
    const rng = createRng(5);
    const pts: number[] = [];
    for (let i = 0; i < 40; i++) { const z = rand(rng, -1, 1), t = rand(rng, 0, 2 * Math.PI), r = Math.sqrt(1 - z * z); pts.push(r * Math.cos(t), r * Math.sin(t), z); }
    for (let i = 0; i < 2000; i++) { const z = rand(rng, -1, 1), t = rand(rng, 0, 2 * Math.PI), r = rand(rng, 0, 0.25); pts.push(r * Math.cos(t), r * Math.sin(t), 0.25 * z); } // inside the ball of radius 0.36, well inside the hull
    expect(hullShape(pts).vertCount).toBe(40);
  });
  it('rejects coplanar, too few and non-finite points with typed errors', () => {
    expect(() => hullShape([0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0])).toThrow(/coplanar/);
    expect(() => hullShape([0, 0, 0, 1, 0, 0, 0, 1, 0])).toThrow(/at least 4/);
    expect(() => hullShape([0, 0, 0, 1, 0, 0, 0, 1, 0, NaN, 0, 1])).toThrow(/points\[9\]/);
  });
  it('support functions return the farthest point (brute force over sampled surface points)', () => {
    const cyl = cylinderShape(0.7, 1.2), out = new Float64Array(3);
    const rng = createRng(3);
    for (let k = 0; k < 200; k++) {
      const d = [rand(rng, -1, 1), rand(rng, -1, 1), rand(rng, -1, 1)];
      coreSupport(cyl, d[0], d[1], d[2], out, 0);
      const s = out[0] * d[0] + out[1] * d[1] + out[2] * d[2];
      for (let j = 0; j < 64; j++) {
        const t = (2 * Math.PI * j) / 64;
        for (const z of [-1.2, 1.2]) expect(0.7 * Math.cos(t) * d[0] + 0.7 * Math.sin(t) * d[1] + z * d[2]).toBeLessThanOrEqual(s + 1e-12);
      }
    }
  });
});

describe('gjkDistance', () => {
  it('sphere–sphere distance and closest points (hand derivation)', () => {
    const out = createDistanceOutput();
    gjkDistance(sphereShape(1), createPose(0, 0, 0), sphereShape(0.5), createPose(3, 4, 0), out);
    expect(out.distance).toBeCloseTo(5 - 1.5, 12);
    expect(Array.from(out.pointA)).toEqual([expect.closeTo(0.6, 12), expect.closeTo(0.8, 12), expect.closeTo(0, 12)]);
    expect(Array.from(out.normal)).toEqual([expect.closeTo(0.6, 12), expect.closeTo(0.8, 12), expect.closeTo(0, 12)]);
  });
  it('random separated box pairs: distance certified by brute force (points inside the boxes, equal support gap along the normal)', () => {
    // Duality: for convex A, B, dist = max over unit d of (min_B d·x − max_A d·x). A pair of points pA ∈ A, pB ∈ B
    // bounds the distance from above, the gap along any d from below; equal bounds prove both optimal.
    const rng = createRng(9);
    const out = createDistanceOutput();
    const pa = createPose(), pb = createPose();
    const inside = (s: Shape, pose: Pose, p: Float64Array) => {
      // local coordinates: Rᵀ(p − t)
      const x = p[0] - pose[0], y = p[1] - pose[1], z = p[2] - pose[2];
      const lx = pose[3] * x + pose[6] * y + pose[9] * z, ly = pose[4] * x + pose[7] * y + pose[10] * z, lz = pose[5] * x + pose[8] * y + pose[11] * z;
      return Math.abs(lx) <= s.hx + 1e-9 && Math.abs(ly) <= s.hy + 1e-9 && Math.abs(lz) <= s.hz + 1e-9;
    };
    for (let c = 0; c < 200; c++) {
      const a = boxShape(rand(rng, 0.2, 1), rand(rng, 0.2, 1), rand(rng, 0.2, 1)), b = boxShape(rand(rng, 0.2, 1), rand(rng, 0.2, 1), rand(rng, 0.2, 1));
      poseFrom([0, 0, 0], randomQuat(rng), pa);
      poseFrom([rand(rng, 2.5, 4), rand(rng, -1, 1), rand(rng, -1, 1)], randomQuat(rng), pb);
      gjkDistance(a, pa, b, pb, out);
      expect(inside(a, pa, out.pointA)).toBe(true);
      expect(inside(b, pb, out.pointB)).toBe(true);
      const d = Math.hypot(out.pointB[0] - out.pointA[0], out.pointB[1] - out.pointA[1], out.pointB[2] - out.pointA[2]);
      expect(d).toBeCloseTo(out.distance, 9);
      const n = [out.normal[0], out.normal[1], out.normal[2]];
      let ma = -Infinity, mb = Infinity;
      for (const p of worldVerts(a, pa)) ma = Math.max(ma, p[0] * n[0] + p[1] * n[1] + p[2] * n[2]);
      for (const p of worldVerts(b, pb)) mb = Math.min(mb, p[0] * n[0] + p[1] * n[1] + p[2] * n[2]);
      expect(Math.abs(mb - ma - out.distance)).toBeLessThan(1e-9);
      // and no sampled direction separates more (a loose independent check of the same duality)
      if (c < 10) expect(sampledSeparation(worldVerts(a, pa), worldVerts(b, pb), 5000, c)).toBeLessThanOrEqual(out.distance + 1e-9);
    }
  });
  it('warm-start cache gives the same answer with no more iterations on a slowly moving pair', () => {
    const a = hullShape([1, 0, 0, -1, 0.2, 0, 0, 1, 0.3, 0, -1, -0.2, 0.1, 0, 1, 0, 0.1, -1]);
    const b = boxShape(0.5, 0.4, 0.3);
    const cache = createGjkCache(), cold = createDistanceOutput(), warm = createDistanceOutput();
    const pa = createPose(), pb = createPose();
    let coldIt = 0, warmIt = 0;
    for (let k = 0; k < 50; k++) {
      setPoseQuat(pb, 2.2 + 0.01 * k, 0.3, 0.1 * Math.sin(k / 10), 0, 0, Math.sin(k / 40), 1);
      gjkDistance(a, pa, b, pb, cold);
      gjkDistance(a, pa, b, pb, warm, cache);
      expect(warm.distance).toBeCloseTo(cold.distance, 10);
      coldIt += cold.iterations; warmIt += warm.iterations;
    }
    expect(warmIt).toBeLessThanOrEqual(coldIt);
  });
  it('gjkOverlap agrees with gjkDistance on random pairs', () => {
    const rng = createRng(10);
    const out = createDistanceOutput();
    const pa = createPose(), pb = createPose();
    for (let c = 0; c < 300; c++) {
      const a = boxShape(rand(rng, 0.2, 1), rand(rng, 0.2, 1), rand(rng, 0.2, 1)), b = capsuleShape(rand(rng, 0.1, 0.5), rand(rng, 0, 1));
      poseFrom([0, 0, 0], randomQuat(rng), pa);
      poseFrom([rand(rng, -2.5, 2.5), rand(rng, -2.5, 2.5), rand(rng, -2.5, 2.5)], randomQuat(rng), pb);
      const d = gjkDistance(a, pa, b, pb, out).distance;
      if (Math.abs(d) < 1e-9) continue;
      expect(gjkOverlap(a, pa, b, pb)).toBe(out.overlap);
    }
  });
});

/**
 * Penetration depth and normal of two overlapping boxes by brute force, written here independently of src/: the
 * minimum over the 15 separating-axis candidates (3 + 3 face normals, 9 edge cross products) of the overlap of the
 * two boxes' shadows, each shadow computed from the 8 world corners (not from half-extent formulas).
 */
function bruteForceBoxDepth(va: number[][], vb: number[][]): { depth: number; axis: number[] } {
  const axes: number[][] = [];
  const edges = (v: number[][]) => [[v[1], v[0]], [v[2], v[0]], [v[4], v[0]]].map(([p, q]) => [p[0] - q[0], p[1] - q[1], p[2] - q[2]]);
  const ea = edges(va), eb = edges(vb);
  for (const e of [...ea, ...eb]) axes.push(e);
  for (const e of ea) for (const f of eb) axes.push([e[1] * f[2] - e[2] * f[1], e[2] * f[0] - e[0] * f[2], e[0] * f[1] - e[1] * f[0]]);
  let depth = Infinity, axis = [0, 0, 1];
  for (const x of axes) {
    const l = Math.hypot(x[0], x[1], x[2]);
    if (l < 1e-9) continue;
    const d = [x[0] / l, x[1] / l, x[2] / l];
    let minA = Infinity, maxA = -Infinity, minB = Infinity, maxB = -Infinity;
    for (const p of va) { const h = p[0] * d[0] + p[1] * d[1] + p[2] * d[2]; minA = Math.min(minA, h); maxA = Math.max(maxA, h); }
    for (const p of vb) { const h = p[0] * d[0] + p[1] * d[1] + p[2] * d[2]; minB = Math.min(minB, h); maxB = Math.max(maxB, h); }
    const o = Math.min(maxA - minB, maxB - minA);
    if (o < depth) { depth = o; axis = maxA - minB <= maxB - minA ? d : [-d[0], -d[1], -d[2]]; }
  }
  return { depth, axis };
}

describe('pairSupport (box–box)', () => {
  it('is the farthest of the 64 corner differences along d (brute force), directions with zero components included', () => {
    const rng = createRng(31);
    const w = new Float64Array(3), pa = new Float64Array(3), pb = new Float64Array(3), dir = new Float64Array(3), rel = new Float64Array(12);
    for (let c = 0; c < 300; c++) {
      const a = boxShape(rand(rng, 0.1, 2), rand(rng, 0.1, 2), rand(rng, 0.1, 2)), b = boxShape(rand(rng, 0.1, 2), rand(rng, 0.1, 2), rand(rng, 0.1, 2));
      // every fourth pose is axis-aligned with A, so that directions along A's axes give zero components for B too
      const pA = poseFrom([0, 0, 0], [0, 0, 0, 1], createPose());
      const pB = poseFrom([rand(rng, -2, 2), rand(rng, -2, 2), rand(rng, -2, 2)], c % 4 === 0 ? [0, 0, 0, 1] : randomQuat(rng), createPose());
      relativePose(pA, pB, rel);
      const va = worldVerts(a, pA), vb = worldVerts(b, pB);
      const d = c % 3 === 0 ? [[1, 0, 0], [0, -1, 0], [0, 0, 1], [0, 0, 0]][c % 4] : [rand(rng, -1, 1), rand(rng, -1, 1), rand(rng, -1, 1)];
      dir[0] = d[0]; dir[1] = d[1]; dir[2] = d[2];
      pairSupport(a, b, rel, dir, true, w, pa, pb, 0);
      let best = -Infinity;
      for (const p of va) for (const q of vb) best = Math.max(best, (p[0] - q[0]) * d[0] + (p[1] - q[1]) * d[1] + (p[2] - q[2]) * d[2]);
      expect(w[0] * d[0] + w[1] * d[1] + w[2] * d[2]).toBeCloseTo(best, 12);
      // and the point on A is a corner of A, the point on B a corner of B
      expect(Math.min(...va.map((p) => Math.hypot(p[0] - pa[0], p[1] - pa[1], p[2] - pa[2])))).toBeLessThan(1e-12);
      expect(Math.min(...vb.map((p) => Math.hypot(p[0] - pb[0], p[1] - pb[1], p[2] - pb[2])))).toBeLessThan(1e-9);
    }
  });
});

describe('EPA (through contactManifold, fast paths off)', () => {
  it('box–box depth and normal equal an independent 15-axis brute force on 2,000 seeded pairs (deep, coincident centres, thin plates, 1e4 offsets)', () => {
    const rng = createRng(2024);
    const m = createManifold();
    let deepest = 0, maxIt = 0;
    for (let c = 0; c < 2000; c++) {
      const kind = c % 5; // 0, 1 random; 2 coincident centres; 3 a thin plate; 4 far from the origin
      const a = boxShape(rand(rng, 0.2, 1.5), rand(rng, 0.2, 1.5), kind === 3 ? 1e-3 : rand(rng, 0.2, 1.5));
      const b = boxShape(rand(rng, 0.2, 1.5), rand(rng, 0.2, 1.5), rand(rng, 0.2, 1.5));
      const off = kind === 4 ? 1e4 : 0;
      const pa = poseFrom([off, -off, off], randomQuat(rng), createPose());
      const p = kind === 2 ? [0, 0, 0] : [rand(rng, -1, 1), rand(rng, -1, 1), rand(rng, -1, 1)];
      const pb = poseFrom([off + p[0], -off + p[1], off + p[2]], randomQuat(rng), createPose());
      const ref = bruteForceBoxDepth(worldVerts(a, pa), worldVerts(b, pb));
      const input = createManifoldInput(a, pa, b, pb);
      input.fastPaths = false;
      contactManifold(input, m);
      maxIt = Math.max(maxIt, m.epaIterations);
      expect(m.epaIterations).toBeLessThanOrEqual(EPA_MAX_ITERATIONS);
      if (ref.depth < 1e-6) continue; // separated or touching: not an EPA case
      expect(m.count, `case ${c}`).toBeGreaterThan(0);
      const tol = 1e-9 * (1 + off);
      expect(Math.abs(m.depth - ref.depth), `case ${c} depth ${m.depth} vs ${ref.depth}`).toBeLessThan(tol);
      // the normal is unique unless two axes tie; a tied axis must give the same depth (checked above)
      const dn = Math.hypot(m.normal[0] - ref.axis[0], m.normal[1] - ref.axis[1], m.normal[2] - ref.axis[2]);
      if (dn > 1e-6) {
        // then the reported normal is itself a minimum-penetration axis: the boxes' shadows on it overlap by the depth
        const n = [m.normal[0], m.normal[1], m.normal[2]];
        const va = worldVerts(a, pa), vb = worldVerts(b, pb);
        const maxA = Math.max(...va.map((q) => q[0] * n[0] + q[1] * n[1] + q[2] * n[2])), minB = Math.min(...vb.map((q) => q[0] * n[0] + q[1] * n[1] + q[2] * n[2]));
        expect(Math.abs(maxA - minB - ref.depth), `case ${c} tied normal`).toBeLessThan(1e-7 * (1 + off));
      }
      deepest = Math.max(deepest, ref.depth);
    }
    expect(deepest).toBeGreaterThan(1); // deep overlaps were exercised
    expect(maxIt).toBeGreaterThan(3);
  });
});

describe('contactManifold', () => {
  const m = createManifold();
  it('box resting on box: 4 points at the corners of the overlap square, depth and feature ids (hand derivation)', () => {
    const input = createManifoldInput(boxShape(1, 1, 1), createPose(0, 0, 0), boxShape(0.5, 0.5, 0.5), createPose(0.2, 0.1, 1.45));
    contactManifold(input, m);
    expect(m.count).toBe(4);
    expect(m.depth).toBeCloseTo(0.05, 12);
    expect(Array.from(m.normal)).toEqual([expect.closeTo(0, 12), expect.closeTo(0, 12), expect.closeTo(1, 12)]);
    const xs = [0, 1, 2, 3].map((k) => m.points[3 * k]).sort((p, q) => p - q), ys = [0, 1, 2, 3].map((k) => m.points[3 * k + 1]).sort((p, q) => p - q);
    expect(xs).toEqual([expect.closeTo(-0.3, 12), expect.closeTo(-0.3, 12), expect.closeTo(0.7, 12), expect.closeTo(0.7, 12)]);
    expect(ys).toEqual([expect.closeTo(-0.4, 12), expect.closeTo(-0.4, 12), expect.closeTo(0.6, 12), expect.closeTo(0.6, 12)]);
    for (let k = 0; k < 4; k++) { expect(m.points[3 * k + 2]).toBeCloseTo(0.975, 12); expect(m.depths[k]).toBeCloseTo(0.05, 12); }
    // ids stay the same when B slides a little (same features touch)
    const ids = Array.from(m.ids).sort();
    input.poseB = createPose(0.25, 0.12, 1.46);
    contactManifold(input, m);
    expect(Array.from(m.ids).sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(4);
  });
  it('same manifold 10 km from the origin (work in A\'s frame)', () => {
    const near = createManifold(), far = createManifold();
    const q = [0.1, 0.2, 0.3, 0.9];
    contactManifold(createManifoldInput(boxShape(1, 0.7, 0.5), poseFrom([0, 0, 0], q, createPose()), boxShape(0.4, 0.4, 0.4), poseFrom([0.3, 0.2, 1.1], [0, 0.1, 0, 1], createPose())), near);
    contactManifold(createManifoldInput(boxShape(1, 0.7, 0.5), poseFrom([1e4, -1e4, 5e3], q, createPose()), boxShape(0.4, 0.4, 0.4), poseFrom([1e4 + 0.3, -1e4 + 0.2, 5e3 + 1.1], [0, 0.1, 0, 1], createPose())), far);
    expect(far.count).toBe(near.count);
    expect(far.depth).toBeCloseTo(near.depth, 9);
    for (let k = 0; k < 3; k++) expect(far.normal[k]).toBeCloseTo(near.normal[k], 9);
  });
  it('fast paths agree with the general GJK/EPA path (sphere–sphere, sphere–box, capsule–capsule vs hull approximations)', () => {
    const rng = createRng(4);
    // sphere–box: compare against the same box as a hull (general path) with the sphere as a point core + radius
    for (let c = 0; c < 100; c++) {
      const hx = rand(rng, 0.3, 1), hy = rand(rng, 0.3, 1), hz = rand(rng, 0.3, 1);
      const box = boxShape(hx, hy, hz);
      const hull = hullShape([-hx, -hy, -hz, hx, -hy, -hz, -hx, hy, -hz, hx, hy, -hz, -hx, -hy, hz, hx, -hy, hz, -hx, hy, hz, hx, hy, hz]);
      const sph = sphereShape(rand(rng, 0.2, 0.8));
      const pa = poseFrom([0, 0, 0], randomQuat(rng), createPose()), pb = poseFrom([rand(rng, -1.5, 1.5), rand(rng, -1.5, 1.5), rand(rng, -1.5, 1.5)], [0, 0, 0, 1], createPose());
      const m1 = createManifold(), m2 = createManifold();
      contactManifold(createManifoldInput(box, pa, sph, pb), m1);
      contactManifold(createManifoldInput(hull, pa, sph, pb), m2);
      expect(m1.count > 0).toBe(m2.count > 0);
      if (m1.count === 0) continue;
      expect(m1.depth).toBeCloseTo(m2.depth, 7);
      for (let k = 0; k < 3; k++) expect(m1.normal[k]).toBeCloseTo(m2.normal[k], 5);
    }
    // capsule–capsule: analytic segment–segment vs exact depth r1 + r2 − segment distance (brute force on samples)
    for (let c = 0; c < 100; c++) {
      const a = capsuleShape(rand(rng, 0.1, 0.5), rand(rng, 0.1, 1)), b = capsuleShape(rand(rng, 0.1, 0.5), rand(rng, 0.1, 1));
      const pa = poseFrom([0, 0, 0], randomQuat(rng), createPose()), pb = poseFrom([rand(rng, -1, 1), rand(rng, -1, 1), rand(rng, -1, 1)], randomQuat(rng), createPose());
      contactManifold(createManifoldInput(a, pa, b, pb), m);
      const ea = [toWorld(pa, [0, 0, -a.halfHeight]), toWorld(pa, [0, 0, a.halfHeight])], eb = [toWorld(pb, [0, 0, -b.halfHeight]), toWorld(pb, [0, 0, b.halfHeight])];
      let best = Infinity;
      for (let i = 0; i <= 400; i++) for (let j = 0; j <= 400; j += 4) {
        const s = i / 400, t = j / 400;
        const p = ea[0].map((v, k) => v + s * (ea[1][k] - v)), q = eb[0].map((v, k) => v + t * (eb[1][k] - v));
        best = Math.min(best, Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
      }
      const expected = a.radius + b.radius - best;
      if (expected < -1e-3) { expect(m.count).toBe(0); continue; }
      if (expected > 1e-3 && best > 1e-3) { expect(m.count).toBeGreaterThan(0); expect(m.depth).toBeCloseTo(expected, 2); expect(m.depth).toBeGreaterThanOrEqual(expected - 1e-9); }
    }
  });
  it('box–box SAT fast path equals the GJK/EPA path (normal, depth, points) on random pairs', () => {
    const rng = createRng(12);
    const fast = createManifold(), slow = createManifold();
    let compared = 0, touching = 0;
    for (let c = 0; c < 300; c++) {
      const a = boxShape(rand(rng, 0.2, 1.2), rand(rng, 0.2, 1.2), rand(rng, 0.2, 1.2)), b = boxShape(rand(rng, 0.2, 1.2), rand(rng, 0.2, 1.2), rand(rng, 0.2, 1.2));
      const pa = poseFrom([0, 0, 0], randomQuat(rng), createPose()), pb = poseFrom([rand(rng, -2, 2), rand(rng, -2, 2), rand(rng, -2, 2)], randomQuat(rng), createPose());
      const input = createManifoldInput(a, pa, b, pb, 0.01);
      contactManifold(input, fast);
      input.fastPaths = false;
      contactManifold(input, slow);
      expect(fast.count > 0).toBe(slow.count > 0);
      if (fast.count === 0) continue;
      touching++;
      expect(fast.depth).toBeCloseTo(slow.depth, 8);
      // the normal is unique unless two axes tie (then both answers are valid minimum-penetration directions)
      const dn = Math.hypot(fast.normal[0] - slow.normal[0], fast.normal[1] - slow.normal[1], fast.normal[2] - slow.normal[2]);
      if (dn > 1e-6) continue;
      compared++;
      expect(fast.count).toBe(slow.count);
      for (let k = 0; k < fast.count; k++) {
        let best = Infinity;
        for (let j = 0; j < slow.count; j++) best = Math.min(best, Math.hypot(fast.points[3 * k] - slow.points[3 * j], fast.points[3 * k + 1] - slow.points[3 * j + 1], fast.points[3 * k + 2] - slow.points[3 * j + 2]));
        expect(best).toBeLessThan(1e-6);
      }
    }
    expect(touching).toBeGreaterThan(100);
    expect(compared).toBeGreaterThan(0.9 * touching);
  });
  it('coincident centres, deep overlap and touching give finite, sensible answers', () => {
    const a = boxShape(1, 1, 1), b = boxShape(0.5, 0.5, 0.5);
    contactManifold(createManifoldInput(a, createPose(), b, createPose()), m);
    expect(m.depth).toBeCloseTo(1.5, 9);
    contactManifold(createManifoldInput(a, createPose(), b, createPose(1.5, 0, 0)), m);
    expect(m.count).toBeGreaterThan(0);
    expect(Math.abs(m.depth)).toBeLessThan(1e-9);
    expect(m.normal[0]).toBeCloseTo(1, 9);
    contactManifold(createManifoldInput(sphereShape(1), createPose(), sphereShape(1), createPose()), m);
    expect(m.depth).toBe(2);
    expect(Math.hypot(m.normal[0], m.normal[1], m.normal[2])).toBeCloseTo(1, 12);
    // thin box (a plate) resting flat on a box
    contactManifold(createManifoldInput(boxShape(2, 2, 0.5), createPose(), boxShape(0.5, 0.5, 1e-4), createPose(0, 0, 0.5)), m);
    expect(m.count).toBe(4);
    expect(m.depth).toBeCloseTo(1e-4, 9);
  });
  it('cylinder standing on a box: cap polygon contact, and upright cylinders side by side: a line contact', () => {
    contactManifold(createManifoldInput(boxShape(2, 2, 0.5), createPose(), cylinderShape(0.5, 1), createPose(0.3, 0, 1.48)), m);
    expect(m.count).toBe(4);
    for (let k = 0; k < 4; k++) expect(m.depths[k]).toBeCloseTo(0.02, 9);
    // the points lie on the cap circle
    for (let k = 0; k < 4; k++) expect(Math.hypot(m.points[3 * k] - 0.3, m.points[3 * k + 1])).toBeCloseTo(0.5, 9);
    contactManifold(createManifoldInput(cylinderShape(0.5, 1), createPose(), cylinderShape(0.5, 1), createPose(0.95, 0, 0.5)), m);
    expect(m.count).toBe(2);
    expect(m.normal[0]).toBeCloseTo(1, 6);
    expect(m.depth).toBeCloseTo(0.05, 6);
  });
  it('deterministic: bit-identical results for the same inputs, whatever ran before (no state leaks between calls)', () => {
    const rng = createRng(77);
    const shapes = [boxShape(1, 0.5, 0.7), hullShape([1, 0, 0, -1, 0.2, 0, 0, 1, 0.3, 0, -1, -0.2, 0.1, 0, 1, 0, 0.1, -1]), capsuleShape(0.3, 0.5), cylinderShape(0.4, 0.6), sphereShape(0.6)];
    const cases: [Shape, Pose, Shape, Pose][] = [];
    for (let c = 0; c < 200; c++) {
      cases.push([shapes[c % 5], poseFrom([0, 0, 0], randomQuat(rng), createPose()), shapes[(c * 3 + 1) % 5], poseFrom([rand(rng, -1.5, 1.5), rand(rng, -1.5, 1.5), rand(rng, -1.5, 1.5)], randomQuat(rng), createPose())]);
    }
    const runAll = (order: number[]) => {
      const res: number[][] = [];
      const mm = createManifold();
      for (const i of order) {
        const [a, pa, b, pb] = cases[i];
        contactManifold(createManifoldInput(a, pa, b, pb, 0.01), mm);
        res[i] = [mm.count, mm.depth, ...mm.normal, ...Array.from(mm.points.subarray(0, 3 * mm.count)), ...Array.from(mm.depths.subarray(0, mm.count)), ...Array.from(mm.ids.subarray(0, mm.count))];
      }
      return res;
    };
    const forward = runAll(cases.map((_, i) => i)), backward = runAll(cases.map((_, i) => cases.length - 1 - i));
    for (let i = 0; i < cases.length; i++) expect(JSON.stringify(forward[i]), `case ${i}`).toBe(JSON.stringify(backward[i]));
  });
  it('rejects a negative margin and NaN poses', () => {
    expect(() => contactManifold(createManifoldInput(boxShape(1, 1, 1), createPose(), boxShape(1, 1, 1), createPose(), -1), m)).toThrow(/margin/);
    const bad = createPose(); bad[0] = NaN;
    expect(() => contactManifold(createManifoldInput(boxShape(1, 1, 1), bad, boxShape(1, 1, 1), createPose()), m)).toThrow(/pose/);
    expect(() => setPoseAngle(createPose(), 0, 0, 0, Infinity)).toThrow(/pose/);
  });
});
