/**
 * Situations users of Box2D and Rapier reported in their trackers, reproduced on Murmur's 2D manifolds
 * (contactManifold2). Each oracle is independent of the code under test: a hand derivation or a brute-force
 * separating-axis computation written here.
 */
import { describe, expect, it } from 'vitest';
import { circleShape, polygonShape, boxShape2, createPose2, setPose2 } from '../../src/collision/shapes2d';
import type { Shape2, Pose2 } from '../../src/collision/shapes2d';
import { contactManifold2, createManifold2, createManifold2Input } from '../../src/collision/manifold2d';
import { createRng, rngFloat } from '../../src/core/rng';
import { sphereShape, capsuleShape, cylinderShape, boxShape, hullShape, createPose, setPoseQuat } from '../../src/collision/shapes';
import type { Shape } from '../../src/collision/shapes';
import { contactManifold, createManifold, createManifoldInput } from '../../src/collision/manifold';

/** World vertices of a polygon shape at a pose. */
function worldVerts(s: Shape2, p: Pose2): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.count; i++) {
    const x = s.verts[2 * i], y = s.verts[2 * i + 1];
    out.push(p[0] + p[2] * x - p[3] * y, p[1] + p[3] * x + p[2] * y);
  }
  return out;
}

/** Brute-force SAT over every edge normal of both convex polygons: the minimum overlap and its axis (A to B). */
function satDepth(va: number[], vb: number[]): { depth: number; nx: number; ny: number } {
  let best = Infinity, bnx = 0, bny = 0;
  const axes = (v: number[]) => {
    const r: [number, number][] = [];
    for (let i = 0; i < v.length / 2; i++) {
      const j = (i + 1) % (v.length / 2);
      const ex = v[2 * j] - v[2 * i], ey = v[2 * j + 1] - v[2 * i + 1], l = Math.hypot(ex, ey);
      r.push([ey / l, -ex / l]);
    }
    return r;
  };
  const proj = (v: number[], nx: number, ny: number) => {
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < v.length / 2; i++) { const d = v[2 * i] * nx + v[2 * i + 1] * ny; lo = Math.min(lo, d); hi = Math.max(hi, d); }
    return [lo, hi];
  };
  for (const [nx, ny] of [...axes(va), ...axes(vb)]) {
    const [alo, ahi] = proj(va, nx, ny), [blo, bhi] = proj(vb, nx, ny);
    // overlap along +n (B beyond A) and along −n
    const o1 = ahi - blo, o2 = bhi - alo;
    if (o1 < best) { best = o1; bnx = nx; bny = ny; }
    if (o2 < best) { best = o2; bnx = -nx; bny = -ny; }
  }
  return { depth: best, nx: bnx, ny: bny };
}

describe('peer cases: 2D contact manifolds', () => {
  // dimforge/rapier#168 "Contact of circle and polyline at its vertex produces 0 normal"
  // (https://github.com/dimforge/rapier/issues/168): a circle touching a polygon exactly at a vertex got a zero
  // normal. Oracle by hand: the normal of a vertex contact is the unit vector from the vertex to the circle centre,
  // and the depth is radius − distance.
  it('circle against a polygon vertex: unit normal from the vertex to the centre (rapier#168)', () => {
    const box = boxShape2(1, 1);
    const circle = circleShape(0.5);
    const pa = createPose2(0, 0, 0), pb = createPose2();
    const m = createManifold2();
    for (const [gap, angleDeg] of [[0, 45], [0, 30], [-0.1, 45], [-0.2, 60], [0.01, 20], [-1e-9, 45]]) {
      const a = (angleDeg * Math.PI) / 180;
      // centre on the ray from the corner (1, 1) at the given angle (pointing out of the box), at 0.5 + gap
      const d = 0.5 + gap;
      setPose2(pb, 1 + d * Math.cos(a), 1 + d * Math.sin(a), 0);
      contactManifold2(createManifold2Input(box, pa, circle, pb, 0.05), m);
      expect(m.count).toBeGreaterThanOrEqual(1);
      expect(Math.hypot(m.normal[0], m.normal[1])).toBeCloseTo(1, 12);
      expect(m.normal[0]).toBeCloseTo(Math.cos(a), 6);
      expect(m.normal[1]).toBeCloseTo(Math.sin(a), 6);
      expect(m.depth).toBeCloseTo(-gap, 9);
    }
    // Circle centre exactly on the vertex (the case the Rapier maintainer called legitimately degenerate for a
    // polyline): for a solid polygon a unit normal still exists; the depth must be at least the radius (the centre
    // is on the boundary) and the normal must push B out through one of the two faces at that corner.
    setPose2(pb, 1, 1, 0);
    contactManifold2(createManifold2Input(box, pa, circle, pb), m);
    expect(m.count).toBeGreaterThanOrEqual(1);
    expect(Math.hypot(m.normal[0], m.normal[1])).toBeCloseTo(1, 12);
    expect(Number.isFinite(m.depth)).toBe(true);
    expect(m.depth).toBeGreaterThanOrEqual(0.5 - 1e-9);
    expect(m.depth).toBeLessThanOrEqual(0.5 * Math.SQRT2 + 1e-9);
  });

  // erincatto/box2d#868 "Fix aligned box collision" (https://github.com/erincatto/box2d/issues/868): two aligned
  // squares 0.01 apart (speculative contact) produced one point instead of two. Oracle by hand: face-to-face
  // contact of equal aligned squares is the whole shared edge, two points at its ends with depth −0.01 each.
  it('aligned boxes a hair apart give two speculative points at the face ends (box2d#868)', () => {
    const sq = boxShape2(0.5, 0.5);
    const m = createManifold2();
    for (const sep of [0.01, 0.001, 0, -0.01]) {
      const pa = createPose2(0, 0, 0), pb = createPose2(0, 1 + sep, 0);
      contactManifold2(createManifold2Input(sq, pa, sq, pb, 0.02), m);
      expect(m.count, `separation ${sep}`).toBe(2);
      expect(m.normal[0]).toBeCloseTo(0, 12);
      expect(m.normal[1]).toBeCloseTo(1, 12);
      expect(m.depths[0]).toBeCloseTo(-sep, 12);
      expect(m.depths[1]).toBeCloseTo(-sep, 12);
      const xs = [m.points[0], m.points[2]].sort((u, v) => u - v);
      expect(xs[0]).toBeCloseTo(-0.5, 12);
      expect(xs[1]).toBeCloseTo(0.5, 12);
      // points midway between the surfaces
      expect(m.points[1]).toBeCloseTo(0.5 + sep / 2, 12);
      expect(m.points[3]).toBeCloseTo(0.5 + sep / 2, 12);
    }
  });

  // erincatto/box2d#275 "Overlapping shapes do not resolve" (https://github.com/erincatto/box2d/issues/275): at some
  // orientations the clipping produced zero points for overlapping polygons. And erincatto/box2d#49 "Narrow shapes
  // can slip through edge polygons" (https://github.com/erincatto/box2d/issues/49): very thin polygons. Oracle:
  // brute-force SAT (the exact penetration depth of two convex polygons) over seeded orientations, including
  // slivers of aspect ratio 1000:1; every overlapping pair must yield ≥ 1 point, the SAT depth and a unit normal.
  it('overlapping polygons, including 1000:1 slivers, always give points and the SAT depth (box2d#275, #49)', () => {
    const rng = createRng(2750049);
    const r = (lo: number, hi: number) => lo + (hi - lo) * rngFloat(rng);
    const m = createManifold2();
    const pa = createPose2(), pb = createPose2();
    let overlapping = 0;
    for (let k = 0; k < 3000; k++) {
      const thinA = k % 3 === 0, thinB = k % 5 === 0;
      const a = thinA ? boxShape2(r(0.5, 2), r(0.5, 2) / 1000) : polygonShape(randomConvex(r));
      const b = thinB ? boxShape2(r(0.5, 2), r(0.5, 2) / 1000) : polygonShape(randomConvex(r));
      setPose2(pa, r(-0.5, 0.5), r(-0.5, 0.5), r(-Math.PI, Math.PI));
      setPose2(pb, r(-0.5, 0.5), r(-0.5, 0.5), r(-Math.PI, Math.PI));
      const sat = satDepth(worldVerts(a, pa), worldVerts(b, pb));
      contactManifold2(createManifold2Input(a, pa, b, pb), m);
      if (sat.depth > 1e-9) {
        overlapping++;
        expect(m.count, `case ${k}`).toBeGreaterThanOrEqual(1);
        expect(Math.hypot(m.normal[0], m.normal[1])).toBeCloseTo(1, 9);
        expect(Math.abs(m.depth - sat.depth), `case ${k}: depth ${m.depth} vs SAT ${sat.depth}`).toBeLessThan(1e-6 * Math.max(1, sat.depth));
        // separating B from A by depth along the normal must remove the overlap (up to round-off)
        const moved = worldVerts(b, pb).map((v, i) => v + (i % 2 === 0 ? m.normal[0] : m.normal[1]) * (m.depth + 1e-7));
        expect(satDepth(worldVerts(a, pa), moved).depth, `case ${k}`).toBeLessThanOrEqual(1e-9);
      } else if (sat.depth < -1e-9) {
        expect(m.count, `case ${k}`).toBe(0);
      }
    }
    expect(overlapping).toBeGreaterThan(1000);
  });

  // Box2D's contact ids exist for warm starting (erincatto/box2d#70 asks what the id encodes; gerich-home/box2dnet#2
  // "contact ID was being created incorrectly ... objects slide continually when stacked"): a box resting on a
  // wider box and sliding sideways along it must keep the same feature ids on every frame, matched to the same
  // physical corners. Oracle: the ids of frame 0, and the corner x positions by hand.
  it('feature ids of a box sliding on a ground box stay the same frame to frame (box2d warm-start ids)', () => {
    const ground = boxShape2(5, 0.5), crate = boxShape2(0.5, 0.5);
    const pa = createPose2(0, 0, 0), pb = createPose2();
    const m = createManifold2();
    let ids0: number[] | null = null;
    for (let f = 0; f < 200; f++) {
      const x = -3 + 0.03 * f;
      setPose2(pb, x, 1 - 0.01, 0); // sunk 1 cm
      contactManifold2(createManifold2Input(ground, pa, crate, pb), m);
      expect(m.count).toBe(2);
      // sort by x so the same corner is compared
      const order = m.points[0] <= m.points[2] ? [0, 1] : [1, 0];
      const ids = order.map((i) => m.ids[i]);
      expect(m.points[2 * order[0]]).toBeCloseTo(x - 0.5, 9);
      expect(m.points[2 * order[1]]).toBeCloseTo(x + 0.5, 9);
      if (ids0 === null) ids0 = ids;
      expect(ids, `frame ${f}`).toEqual(ids0);
    }
    expect(ids0![0]).not.toBe(ids0![1]);
  });
});

function randomConvex(r: (lo: number, hi: number) => number): number[] {
  const n = 3 + Math.floor(r(0, 6));
  const sx = r(0.2, 1.2), sy = r(0.2, 1.2);
  const pts: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = (2 * Math.PI * (i + r(0.1, 0.9))) / n;
    pts.push(sx * Math.cos(t), sy * Math.sin(t));
  }
  return pts;
}

describe('peer cases: 3D contact manifolds (GJK/EPA)', () => {
  // EPA at zero or hair-thin penetration and on flat shapes: jrouwe/JoltPhysics#217 "fixed bug that could return a
  // zero length normal when the GJK algorithm terminated in the first iteration"
  // (https://github.com/jrouwe/JoltPhysics/pull/217), coal-library/coal#147 (EPA failing on a box-box query,
  // https://github.com/coal-library/coal/issues/147), newton-physics/newton#3248 (small shapes on thin boxes got a
  // side normal and a spurious deep penetration, https://github.com/newton-physics/newton/pull/3248). Oracle by hand:
  // every shape resting on the top face z = 1 of a 2 m cube, at gap g in {0, ±1e-9, −1e-6, −0.01, 0.001}, away
  // from the cube's edges: one or more points, normal (0, 0, 1), depth −g. Murmur defect found here (fixed
  // 2026-11-30): an upright cylinder 1 nm (or 0.3 nm) above the box got the normal (−0.33, 0.33, 0.89): GJK's
  // distance was under its touching threshold, EPA ran on shapes that do not overlap and returned a face of a
  // polytope that does not hold the origin.
  it('touching, hair-deep and paper-thin shapes on a box: unit upward normal and exact depth (JoltPhysics#217, coal#147, newton#3248)', () => {
    const m = createManifold();
    const box = boxShape(1, 1, 1);
    const shapes: [string, Shape, number][] = [
      ['box', boxShape(1, 1, 1), 1], ['thin box', boxShape(1, 1, 1e-4), 1e-4], ['sphere', sphereShape(0.5), 0.5],
      ['capsule', capsuleShape(0.3, 0.5), 0.8], ['cylinder', cylinderShape(0.5, 0.5), 0.5], ['thin cylinder', cylinderShape(0.5, 1e-4), 1e-4],
      ['tetrahedron', hullShape([0, 0, 0, 0.5, 0, 0, 0, 0.5, 0, 0, 0, 0.5]), 0],
    ];
    for (const [name, shape, bottom] of shapes) {
      for (const g of [0, 1e-9, -1e-9, -1e-6, -0.01, 0.001]) {
        for (const [dx, dy] of [[0, 0], [0.3, -0.2]]) {
          contactManifold(createManifoldInput(box, createPose(), shape, createPose(dx, dy, 1 + bottom + g), 0.01), m);
          const label = `${name} gap ${g} at (${dx}, ${dy})`;
          expect(m.count, label).toBeGreaterThanOrEqual(1);
          // The tilt is bounded by round-off: GJK's closest-point vector is exact to ~1e-16 × the pair's size (4 m),
          // so at a 1 nm gap its direction may be off by ~4e-7 rad; 1e-6 allows that, and nothing more.
          expect(Math.hypot(m.normal[0], m.normal[1]), label).toBeLessThan(1e-6);
          expect(m.normal[2], label).toBeGreaterThan(1 - 1e-12);
          expect(m.depth, label).toBeCloseTo(-g, 7);
        }
      }
    }
  });

  // newton-physics/newton#2248 "Stable rigid-contact manifold IDs for warmstarting and persistent friction"
  // (https://github.com/newton-physics/newton/issues/2248): a box resting on a larger box and sliding must keep its
  // four points matched to the same feature ids frame after frame. Oracle: the ids of frame 0 and the corner
  // positions by hand (x ± 0.5, y ± 0.5).
  it('feature ids of a box sliding on a ground box stay the same frame to frame (newton#2248)', () => {
    const ground = boxShape(5, 5, 0.5), crate = boxShape(0.5, 0.5, 0.5);
    const m = createManifold();
    const pb = createPose();
    let ids0: number[] | null = null;
    for (let f = 0; f < 150; f++) {
      const x = -2 + 0.025 * f, y = 1 - 0.01 * f;
      setPoseQuat(pb, x, y, 1 - 0.005, 0, 0, 0, 1); // sunk 5 mm
      contactManifold(createManifoldInput(ground, createPose(), crate, pb), m);
      expect(m.count).toBe(4);
      const pts = [0, 1, 2, 3].map((i) => ({ x: m.points[3 * i], y: m.points[3 * i + 1], id: m.ids[i] }));
      pts.sort((a, b) => a.x - b.x || a.y - b.y);
      for (const p of pts) {
        expect(Math.abs(Math.abs(p.x - x) - 0.5)).toBeLessThan(1e-9);
        expect(Math.abs(Math.abs(p.y - y) - 0.5)).toBeLessThan(1e-9);
      }
      const ids = pts.map((p) => p.id);
      if (ids0 === null) ids0 = ids;
      expect(ids, `frame ${f}`).toEqual(ids0);
    }
    expect(new Set(ids0).size).toBe(4);
  });
});
