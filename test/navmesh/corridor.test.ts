import { describe, expect, it } from 'vitest';
import { buildNavmesh } from '../../src/navmesh/build';
import { locateTriangle } from '../../src/navmesh/locate';
import { createNavQuery, createNavPathResult, findNavPath } from '../../src/navmesh/search';
import { corridorPortals } from '../../src/navmesh/portals';
import { corridorShortcut, raycastMesh } from '../../src/navmesh/corridor';
import { funnel, polylineLength } from '../../src/funnel/funnel';
import { createRng, rngRange } from '../../src/core/rng';
import { isFree, segmentFree, type P, type TestMap } from './oracle';
import { randomMap } from './maps';

function freePoint(map: TestMap, rng: ReturnType<typeof createRng>): P {
  for (;;) {
    const p: P = [rngRange(rng, -5, 105), rngRange(rng, -5, 105)];
    if (isFree(map, p)) return p;
  }
}

describe('raycastMesh', () => {
  it('reaches the end exactly when the segment lies in free space (oracle on the original polygons, 2000 rays)', () => {
    const tris = new Int32Array(4096);
    let reached = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const map = randomMap(seed + 300);
      const mesh = buildNavmesh(map);
      const rng = createRng(seed);
      for (let i = 0; i < 50; i++) {
        const s = freePoint(map, rng), e = freePoint(map, rng);
        const n = raycastMesh(mesh, locateTriangle(mesh, s[0], s[1]), s[0], s[1], e[0], e[1], tris);
        expect(n > 0, `seed ${seed} ray ${i}`).toBe(segmentFree(map, s, e));
        if (n > 0) {
          reached++;
          // Consecutive triangles are adjacent, the last holds the end point.
          for (let k = 0; k + 1 < n; k++) expect(Array.from(mesh.neighbours.slice(3 * tris[k], 3 * tris[k] + 3))).toContain(tris[k + 1]);
        }
      }
    }
    expect(reached).toBeGreaterThan(200);
  });
});

describe('corridorShortcut', () => {
  it('never lengthens the path, keeps the corridor valid, and removes detours (waypoint detours on 100 maps)', () => {
    const portals = new Float64Array(4 * 8192), pts = new Float64Array(2 * 8192), scratch = new Int32Array(64);
    let shortened = 0;
    for (let seed = 1; seed <= 100; seed++) {
      const map = randomMap(seed + 600);
      const mesh = buildNavmesh(map);
      const q = createNavQuery(mesh);
      const r1 = createNavPathResult(), r2 = createNavPathResult();
      const rng = createRng(seed + 9);
      const s = freePoint(map, rng), w = freePoint(map, rng), g = freePoint(map, rng);
      if (findNavPath(q, s[0], s[1], w[0], w[1], r1) !== 'found' || findNavPath(q, w[0], w[1], g[0], g[1], r2) !== 'found') continue;
      // Detour corridor: s → w, then w → g (sharing w's triangle).
      const buf = new Int32Array(r1.corridorLength + r2.corridorLength);
      buf.set(r1.corridor.subarray(0, r1.corridorLength));
      buf.set(r2.corridor.subarray(1, r2.corridorLength), r1.corridorLength);
      let len = r1.corridorLength + r2.corridorLength - 1;
      const lengthOf = (l: number) => polylineLength(pts, funnel(portals, corridorPortals(mesh, buf, l, s[0], s[1], g[0], g[1], portals), 0, pts));
      const before = lengthOf(len);
      const lastTri = buf[len - 1];
      for (let iter = 0; iter < 50; iter++) {
        const l2 = corridorShortcut(mesh, buf, 0, len, s[0], s[1], 16, scratch);
        if (l2 === len) break;
        len = l2;
      }
      for (let k = 0; k + 1 < len; k++) expect(Array.from(mesh.neighbours.slice(3 * buf[k], 3 * buf[k] + 3))).toContain(buf[k + 1]);
      expect(buf[len - 1]).toBe(lastTri);
      expect(buf[0]).toBe(locateTriangle(mesh, s[0], s[1]));
      const after = lengthOf(len);
      expect(after).toBeLessThanOrEqual(before + 1e-9);
      if (after < before - 1e-6) shortened++;
    }
    expect(shortened).toBeGreaterThan(10);
  });
});
