import { describe, expect, it } from 'vitest';
import { buildNavmesh, createNavQuery, createNavPathResult, findNavPath } from '../../src/index';
import { createRng, rngRange } from '../../src/core/rng';

// A query's result and work must not depend on what other queries ran before it: the kernels keep module-level
// scratch, and a read of scratch the current query did not write makes the search depend on the process's history
// (harmless to path lengths, fatal to lockstep determinism). Oracle: the same query run twice, with a different
// query on another NavQuery in between, must expand and create exactly the same nodes and return the same corridor.
describe('findNavPath: independent of earlier searches', () => {
  it('repeating a query after an unrelated one gives identical node counts, status and corridor (200 seeded pairs)', () => {
    // Regression (2026-11-29): expandVertex read the arc-clip interval left by the previous expansion at corners
    // that allow only a right turn; 14 of these 200 repeats expanded a different number of nodes.
    const obstacles: [number, number][][] = [];
    for (let i = 0; i < 5; i++) for (let j = 0; j < 5; j++) {
      const x = 6 + i * 7 + (j % 2) * 2, y = 6 + j * 7;
      obstacles.push([[x, y], [x + 3, y + 0.5], [x + 2.5, y + 3.5], [x - 0.5, y + 2.5]]);
    }
    const mesh = buildNavmesh({ boundary: [[0, 0], [45, 0], [45, 45], [0, 45]], obstacles }, { radius: 0.4 });
    const rng = createRng(3);
    const pts: number[] = [];
    for (let i = 0; i < 400; i++) pts.push(rngRange(rng, 0.5, 44.5), rngRange(rng, 0.5, 44.5));
    const qx = createNavQuery(mesh), qy = createNavQuery(mesh);
    const first = createNavPathResult(), again = createNavPathResult(), other = createNavPathResult();
    let found = 0;
    for (let i = 0; i + 3 < pts.length; i += 4) {
      const s1 = findNavPath(qx, pts[i], pts[i + 1], pts[i + 2], pts[i + 3], first);
      const created1 = qx.nodesCreated, expanded1 = qx.nodesExpanded;
      findNavPath(qy, pts[(i + 5) % 400], pts[(i + 6) % 400], pts[(i + 9) % 400], pts[(i + 10) % 400], other);
      const s2 = findNavPath(qx, pts[i], pts[i + 1], pts[i + 2], pts[i + 3], again);
      expect(s2).toBe(s1);
      expect(qx.nodesCreated).toBe(created1);
      expect(qx.nodesExpanded).toBe(expanded1);
      expect(Array.from(again.corridor.subarray(0, again.corridorLength))).toEqual(Array.from(first.corridor.subarray(0, first.corridorLength)));
      expect(again.length).toBe(first.length);
      if (s1 === 'found') found++;
    }
    expect(found).toBeGreaterThan(150);
  });
});

describe('an unreachable query keeps no scratch from an earlier search', () => {
  it('the query state a snapshot saves is the same whatever searched before (full-pipeline fuzz, determinism check)', () => {
    // Regression (2026-11-30): beginNavPath returned 'unreachable' before it set the start and goal vertex
    // tolerances (_sg[4], _sg[5]) and saved the module scratch into the query, so q.sg held whatever the last
    // search in the process had left there (1.05e-17 in one world, 0 in the other): two worlds with the same inputs
    // had different snapshots (the long run of 'funnel system in the full pipeline', seed 1796162794).
    const rect = (x0: number, y0: number, x1: number, y1: number): [number, number][] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
    // Two rooms split by a wall: a goal across it is unreachable (different components).
    const split = buildNavmesh({ boundary: rect(0, 0, 20, 10), obstacles: [rect(9, -1, 11, 11)] });
    const other = buildNavmesh({ boundary: rect(0, 0, 3, 3), obstacles: [] });
    const run = (before: 'big' | 'small') => {
      // An earlier, reachable search on another query leaves its own tolerances in the scratch.
      const q0 = before === 'big' ? createNavQuery(split) : createNavQuery(other);
      const r0 = createNavPathResult();
      expect(before === 'big' ? findNavPath(q0, 1, 1, 8, 9, r0) : findNavPath(q0, 0.5, 0.5, 2.5, 2.5, r0)).toBe('found');
      const q = createNavQuery(split), r = createNavPathResult();
      expect(findNavPath(q, 2, 5, 18, 5, r)).toBe('unreachable');
      return Array.from(q.sg);
    };
    expect(run('big')).toEqual(run('small'));
  });
});
