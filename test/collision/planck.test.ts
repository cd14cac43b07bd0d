/**
 * 2D polygon manifolds against planck.js 1.5 (the JavaScript port of Box2D v2.4; a devDependency used only here).
 *
 * Reconciling conventions:
 *  - Every planck polygon carries a skin m_radius = Settings.polygonRadius = 2·linearSlop = 0.01 m, so planck
 *    reports a contact while the raw polygons are up to 0.02 m apart and its WorldManifold separations are the raw
 *    separations minus 0.02. Our polygons are the raw vertices: our depth = −(planck separation + rA + rB). Points are
 *    unaffected (planck reports the midpoint between the skinned surfaces, which is the raw midpoint for equal skins).
 *    Planck points whose raw separation is positive (apart, kept only because of the skin) are not region points,
 *    and points its clipping keeps beyond the reference edge's ends (its side lines are moved out by 0.02 m), where
 *    the raw polygons do not overlap, are clamped back into the raw contact interval (found by bisection on a
 *    brute-force line/polygon overlap) before the coverage check.
 *  - Each case runs twice: with planck's skin (as shipped) and with the skin set to 0 on both polygons
 *    (m_radius = 0, which also removes the 0.02 m extension of its clipping), where its manifold is that of the raw
 *    polygons. With the skin, cases where all planck points lie in the skin cannot check the depth against planck
 *    (brute-force SAT still does); they are counted and bounded.
 *  - Box2D's SAT prefers A's face unless B's axis separates by more than 0.1·linearSlop = 5e-4 m: in near-ties its
 *    normal is not the minimum-penetration one. Such cases are counted; there the normal and depth are checked
 *    against a brute-force SAT over every edge normal of both polygons (an independent oracle) instead.
 */
import { describe, expect, it } from 'vitest';
import * as planck from 'planck';
import { polygonShape, createPose2, setPose2 } from '../../src/collision/shapes2d';
import type { Shape2, Pose2 } from '../../src/collision/shapes2d';
import { contactManifold2, createManifold2, createManifold2Input, lastContactRegion2 } from '../../src/collision/manifold2d';
import { createRng, rand } from './helpers';
import type { Rng } from '../../src/core/rng';

const SKIN = planck.Settings.polygonRadius;

function randomPolygon(rng: Rng): number[] {
  // 3–8 points on an ellipse (all hull vertices), or a box
  if (rand(rng, 0, 1) < 0.3) { const hx = rand(rng, 0.2, 1.5), hy = rand(rng, 0.2, 1.5); return [-hx, -hy, hx, -hy, hx, hy, -hx, hy]; }
  const n = 3 + Math.floor(rand(rng, 0, 6));
  const sx = rand(rng, 0.3, 1.2), sy = rand(rng, 0.3, 1.2);
  // planck welds vertices closer than linearSlop (it would see another polygon): keep the angles ≥ 0.15 rad apart
  let angles: number[] = [];
  for (let tries = 0; tries < 100; tries++) {
    angles = [];
    for (let i = 0; i < n; i++) angles.push(rand(rng, 0, 2 * Math.PI));
    angles.sort((x, y) => x - y);
    let ok = true;
    for (let i = 0; i < n; i++) if (((angles[(i + 1) % n] - angles[i]) + 2 * Math.PI) % (2 * Math.PI) < 0.15) ok = false;
    if (ok) break;
  }
  const p: number[] = [];
  for (const t of angles) p.push(sx * Math.cos(t), sy * Math.sin(t));
  return p;
}

function worldVerts(s: Shape2, pose: Pose2): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < s.count; i++) {
    const x = s.verts[2 * i], y = s.verts[2 * i + 1];
    out.push([pose[0] + pose[2] * x - pose[3] * y, pose[1] + pose[3] * x + pose[2] * y]);
  }
  return out;
}

/** Brute-force SAT: the axis (edge normal of either polygon) of least penetration; returns [depth, nx, ny] from A to B. */
function bruteSat(va: number[][], vb: number[][]): [number, number, number] {
  let best: [number, number, number] = [Infinity, 0, 0];
  const axes = (v: number[][], sign: number) => {
    for (let i = 0; i < v.length; i++) {
      const a = v[i], b = v[(i + 1) % v.length];
      const ex = b[0] - a[0], ey = b[1] - a[1], l = Math.hypot(ex, ey);
      const nx = (sign * ey) / l, ny = (-sign * ex) / l; // outward normal of v's edge, flipped for B so it points A→B
      let maxA = -Infinity, minB = Infinity;
      for (const p of va) maxA = Math.max(maxA, p[0] * nx + p[1] * ny);
      for (const p of vb) minB = Math.min(minB, p[0] * nx + p[1] * ny);
      const depth = maxA - minB;
      if (depth < best[0]) best = [depth, nx, ny];
    }
  };
  axes(va, 1);
  axes(vb, -1);
  return best;
}

/** Length of the overlap of the line through p along unit n with both raw polygons (negative when apart on it). */
function lineOverlap(p: number[], n: number[], va: number[][], vb: number[][]): number {
  const [a, b] = [span(va, p, n), span(vb, p, n)];
  return Math.min(a[1], b[1]) - Math.max(a[0], b[0]);
}

/** lineOverlap, best of three probes 1e-7 m apart along the tangent (a point on a silhouette grazes an edge). */
function probeOverlap(p: number[], n: number[], va: number[][], vb: number[][]): number {
  const t = [-n[1], n[0]];
  let best = -Infinity;
  for (const e of [0, 1e-7, -1e-7]) best = Math.max(best, lineOverlap([p[0] + e * t[0], p[1] + e * t[1]], n, va, vb));
  return best;
}

/** Depth on the line through p along n: top of A minus bottom of B (brute force). */
function lineDepth(p: number[], n: number[], va: number[][], vb: number[][]): number {
  return span(va, p, n)[1] - span(vb, p, n)[0];
}

function span(v: number[][], p: number[], n: number[]): [number, number] {
  let lo = -Infinity, hi = Infinity;
  for (let i = 0; i < v.length; i++) {
    const a = v[i], b = v[(i + 1) % v.length];
    const ex = b[0] - a[0], ey = b[1] - a[1];
    const mx = ey, my = -ex; // outward normal (CCW), unnormalised
    const den = mx * n[0] + my * n[1], num = mx * (a[0] - p[0]) + my * (a[1] - p[1]);
    if (den > 0) hi = Math.min(hi, num / den); else if (den < 0) lo = Math.max(lo, num / den); else if (num < 0) return [Infinity, -Infinity];
  }
  return [lo, hi];
}

/** Place B (angle θB) along unit direction d from A so the raw polygons overlap by `depth` (bisection on brute SAT). */
function place(va: number[][], sb: Shape2, angB: number, d: number[], depth: number, pose: Pose2, ca: number[]): void {
  let lo = 0, hi = 10;
  const cb = [sb.cx, sb.cy];
  const at = (t: number) => {
    const c = Math.cos(angB), s = Math.sin(angB);
    setPose2(pose, ca[0] - (c * cb[0] - s * cb[1]) + d[0] * t, ca[1] - (s * cb[0] + c * cb[1]) + d[1] * t, angB);
  };
  for (let k = 0; k < 60; k++) {
    const mid = (lo + hi) / 2;
    at(mid);
    if (bruteSat(va, worldVerts(sb, pose))[0] > 0) lo = mid; else hi = mid;
  }
  at(lo - depth);
}

interface Stats { compared: number; satBias: number; skinOnly: number; beyondRef: number; allSkin: number; maxNormalErr: number; maxDepthErr: number }

function run(seed: number, count: number, kind: 'random' | 'resting' | 'tilted', skin: number): Stats {
  const rng = createRng(seed);
  const poseA = createPose2(), poseB = createPose2();
  const man = createManifold2();
  const st: Stats = { compared: 0, satBias: 0, skinOnly: 0, beyondRef: 0, allSkin: 0, maxNormalErr: 0, maxDepthErr: 0 };
  for (let c = 0; c < count; c++) {
    const pa = randomPolygon(rng), pb = randomPolygon(rng);
    const sa = polygonShape(pa), sb = polygonShape(pb);
    const angA = rand(rng, -Math.PI, Math.PI);
    setPose2(poseA, rand(rng, -5, 5), rand(rng, -5, 5), angA);
    let angB: number, d: number[];
    if (kind === 'random') {
      angB = rand(rng, -Math.PI, Math.PI);
      const t = rand(rng, 0, 2 * Math.PI);
      d = [Math.cos(t), Math.sin(t)];
    } else {
      // B's edge 0 turned to face A's edge 0 (resting), or 1–10° off (tilted); pushed along A's edge normal
      const an = Math.atan2(sa.normals[1], sa.normals[0]) + angA, bn = Math.atan2(sb.normals[1], sb.normals[0]);
      angB = an + Math.PI - bn + (kind === 'tilted' ? (rand(rng, 1, 10) * Math.PI / 180) * (rand(rng, 0, 1) < 0.5 ? -1 : 1) : 0);
      d = [Math.cos(an + rand(rng, -0.3, 0.3)), Math.sin(an + rand(rng, -0.3, 0.3))];
      const l = Math.hypot(d[0], d[1]); d = [d[0] / l, d[1] / l];
    }
    const va = worldVerts(sa, poseA);
    const ca = [va.reduce((s, p) => s + p[0], 0) / va.length, va.reduce((s, p) => s + p[1], 0) / va.length];
    const depth = rand(rng, 0.002, 0.05);
    place(va, sb, angB, d, depth, poseB, ca);
    const vb = worldVerts(sb, poseB);
    // ours
    contactManifold2(createManifold2Input(sa, poseA, sb, poseB, 0), man);
    // planck: the same raw vertices, each polygon with its 0.01 skin
    const polyA = new planck.Polygon(sa.verts.reduce((acc: planck.Vec2Value[], _v, i, arr) => (i % 2 === 0 ? acc.concat([{ x: arr[i], y: arr[i + 1] }]) : acc), []));
    const polyB = new planck.Polygon(sb.verts.reduce((acc: planck.Vec2Value[], _v, i, arr) => (i % 2 === 0 ? acc.concat([{ x: arr[i], y: arr[i + 1] }]) : acc), []));
    const xfA = new planck.Transform({ x: poseA[0], y: poseA[1] }, Math.atan2(poseA[3], poseA[2]));
    const xfB = new planck.Transform({ x: poseB[0], y: poseB[1] }, Math.atan2(poseB[3], poseB[2]));
    if (skin === 0) { polyA.m_radius = 0; polyB.m_radius = 0; }
    const pm = new planck.Manifold();
    planck.CollidePolygons(pm, polyA, xfA, polyB, xfB);
    const wm = pm.getWorldManifold(null, xfA, polyA.m_radius, xfB, polyB.m_radius);
    expect(pm.pointCount, `case ${c}: planck found no contact`).toBeGreaterThan(0);
    expect(man.count, `case ${c}: we found no contact`).toBeGreaterThan(0);
    st.compared++;
    const refPts: number[][] = [], refDepths: number[] = [], clamped: boolean[] = [];
    const tan = [-wm.normal.y, wm.normal.x], nrm = [wm.normal.x, wm.normal.y];
    // the raw polygons' contact interval along planck's tangent, by bisection on the brute-force line overlap
    // (concave in s) outwards from the deepest point
    const deep = [man.points[0], man.points[1]];
    const rawEnd = (dir: number) => {
      let inS = 0, outS = dir * 10;
      for (let k = 0; k < 80; k++) { const m = (inS + outS) / 2; if (lineOverlap([deep[0] + m * tan[0], deep[1] + m * tan[1]], nrm, va, vb) >= 0) inS = m; else outS = m; }
      return inS;
    };
    const rawLo = rawEnd(-1), rawHi = rawEnd(1);
    for (let k = 0; k < pm.pointCount; k++) {
      const raw = -(wm.separations[k] + 2 * skin);
      if (raw < -1e-9) continue; // apart: reported only because of the skin
      // planck clips against the reference edge's side lines moved out by the skins (0.02 m): a point there, where
      // the raw polygons do not both reach, lies in the skin; it is clamped back into the raw contact interval
      let p = [wm.points[k].x, wm.points[k].y];
      if (probeOverlap(p, nrm, va, vb) < -1e-9) {
        st.skinOnly++;
        const sp = (p[0] - deep[0]) * tan[0] + (p[1] - deep[1]) * tan[1];
        const sc = Math.min(rawHi, Math.max(rawLo, sp));
        p = [p[0] + (sc - sp) * tan[0], p[1] + (sc - sp) * tan[1]];
        refPts.push(p); refDepths.push(raw); clamped.push(true);
        continue;
      }
      refPts.push(p); refDepths.push(raw); clamped.push(false);
    }
    if (process.env.CDEBUG && c === Number(process.env.CDEBUG)) console.log('DBG', JSON.stringify({ skin, va, vb, n: Array.from(man.normal), depth: man.depth, ours: Array.from(man.points.subarray(0, 2 * man.count)), od: Array.from(man.depths.subarray(0, man.count)), pn: wm.normal, pp: wm.points.slice(0, pm.pointCount), ps: wm.separations.slice(0, pm.pointCount), refPts, clamped, rawLo, rawHi }));
    // planck's depth is its incident vertex's distance to the reference line, meaningful only where the raw
    // polygons overlap; when all its points lie in the skin, depth and normal are checked by brute-force SAT alone
    const unclamped = refDepths.filter((_, k) => !clamped[k]);
    if (unclamped.length === 0) st.allSkin++;
    const refDepth = unclamped.length ? Math.max(...unclamped) : man.depth;
    // each of our points is a genuine contact (brute-force line overlap of the raw polygons)
    // (brute-force line/polygon clipping of the raw polygons), with the depth measured on that line
    // (an end of the interval may sit on a silhouette, where the line grazes an edge: probe 1e-7 m inwards)
    for (let k = 0; k < man.count; k++) {
      const nn = [man.normal[0], man.normal[1]];
      let p = [man.points[2 * k], man.points[2 * k + 1]];
      if (man.count === 2) { const q = [man.points[2 - 2 * k], man.points[3 - 2 * k]], l = Math.hypot(q[0] - p[0], q[1] - p[1]); if (l > 0) p = [p[0] + 1e-7 * (q[0] - p[0]) / l, p[1] + 1e-7 * (q[1] - p[1]) / l]; }
      expect(lineOverlap(p, nn, va, vb), `case ${c} point ${k} not in contact`).toBeGreaterThanOrEqual(-1e-9);
      expect(Math.abs(lineDepth(p, nn, va, vb) - man.depths[k]), `case ${c} point ${k} depth`).toBeLessThan(1e-5);
    }
    const n = [man.normal[0], man.normal[1]];
    const sat = bruteSat(va, vb);
    // always: our normal and depth equal the brute-force minimum-penetration axis
    expect(Math.abs(man.depth - sat[0]), `case ${c} depth vs brute SAT`).toBeLessThan(1e-9);
    if (unclamped.length && (Math.abs(refDepth - man.depth) > 1e-4 || Math.hypot(n[0] - wm.normal.x, n[1] - wm.normal.y) > 1e-4)) {
      // planck's biased face choice: allowed only within its documented 0.1·linearSlop tolerance
      st.satBias++;
      expect(refDepth - man.depth, `case ${c} planck depth ${refDepth} vs ours ${man.depth}`).toBeLessThanOrEqual(0.1 * planck.Settings.linearSlop + 1e-9);
      expect(refDepth - man.depth).toBeGreaterThanOrEqual(-1e-9);
      continue;
    }
    st.maxNormalErr = Math.max(st.maxNormalErr, Math.hypot(n[0] - wm.normal.x, n[1] - wm.normal.y));
    st.maxDepthErr = Math.max(st.maxDepthErr, Math.abs(refDepth - man.depth));
    // region: a segment (or point) along the tangent; compare tangent coordinates
    const t = [-n[1], n[0]];
    const ours = Array.from({ length: man.count }, (_, k) => man.points[2 * k] * t[0] + man.points[2 * k + 1] * t[1]);
    const ref = refPts.map((p) => p[0] * t[0] + p[1] * t[1]);
    // coverage is checked against our whole interval (lastContactRegion2; the two reported points may be its deepest
    // point and one end)
    const reg = new Float64Array(4);
    const full = lastContactRegion2(reg) === 2 ? [reg[0] * t[0] + reg[1] * t[1], reg[2] * t[0] + reg[3] * t[1]] : ours;
    const rlo = Math.min(...ref), rhi = Math.max(...ref), olo = Math.min(...full), ohi = Math.max(...full);
    // our points outside planck's points are genuine contacts (checked above) that its clipping leaves out
    for (const s of ours) if (s < rlo - 1e-4 || s > rhi + 1e-4) st.beyondRef++;
    for (const s of ref) { expect(s, `case ${c} planck point not covered`).toBeGreaterThanOrEqual(olo - 1e-4); expect(s).toBeLessThanOrEqual(ohi + 1e-4); }
    // and each point's depth matches planck's point at the same place
    for (let k = 0; k < man.count; k++) {
      let j = -1, bestD = Infinity;
      for (let q = 0; q < refPts.length; q++) { const dd = Math.hypot(refPts[q][0] - man.points[2 * k], refPts[q][1] - man.points[2 * k + 1]); if (dd < bestD) { bestD = dd; j = q; } }
      if (bestD < 1e-4 && !clamped[j]) expect(Math.abs(refDepths[j] - man.depths[k]), `case ${c} point depth`).toBeLessThan(1e-4);
    }
  }
  return st;
}

describe('contactManifold2 vs planck.js', () => {
  for (const skin of [0, SKIN]) {
    const tag = skin === 0 ? 'skin 0' : `skin ${skin}`;
    it(`random polygon pairs (200 seeded, ${tag})`, () => {
      const st = run(11, 200, 'random', skin);
      expect(st.compared).toBe(200);
      expect(st.satBias, JSON.stringify(st)).toBeLessThan(0.1 * st.compared);
      if (skin === 0) expect(st.allSkin).toBe(0); else expect(st.allSkin, JSON.stringify(st)).toBeLessThan(0.3 * st.compared);
    });
    it(`resting edge on edge (100 seeded, ${tag})`, () => {
      const st = run(22, 100, 'resting', skin);
      expect(st.compared).toBe(100);
      expect(st.satBias, JSON.stringify(st)).toBeLessThan(0.1 * st.compared);
      if (skin === 0) expect(st.allSkin).toBe(0); else expect(st.allSkin, JSON.stringify(st)).toBeLessThan(0.3 * st.compared);
    });
    it(`tilted 1–10° (100 seeded, ${tag})`, () => {
      const st = run(33, 100, 'tilted', skin);
      expect(st.compared).toBe(100);
      expect(st.satBias, JSON.stringify(st)).toBeLessThan(0.1 * st.compared);
      if (skin === 0) expect(st.allSkin).toBe(0); else expect(st.allSkin, JSON.stringify(st)).toBeLessThan(0.3 * st.compared);
    });
  }
});
