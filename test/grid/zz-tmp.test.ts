import { it } from 'vitest';
import { loadMap, loadScen, scenFiles } from './maps';
import { buildFlowField } from '../../src/grid/flowfield';
import { createGrid } from '../../src/grid/grid';
import { createRng, rngFloat } from '../../src/core/rng';
it('x', () => {
  for (const f of scenFiles()) {
    const qs = loadScen(f); const grid = loadMap(qs[0].map);
    let bad = 0;
    for (const q of qs) {
      const ff = buildFlowField(grid, { x: q.gx, y: q.gy });
      const v = ff.integration[q.sy * grid.width + q.sx];
      if (Math.abs(v - q.optimal) > 1e-4) bad++;
    }
    console.log(f, qs.length, bad);
  }
  const rng = createRng(5); const N = 1024;
  const wk = new Uint8Array(N*N); for (let i = 0; i < N*N; i++) wk[i] = rngFloat(rng) < 0.2 ? 0 : 1;
  const g = createGrid(N, N, { walkable: wk }); g.walkable[512*N+512] = 1;
  let ff = buildFlowField(g, { x: 512, y: 512 });
  for (let k = 0; k < 5; k++) { const t = performance.now(); buildFlowField(g, { x: 512, y: 512 }, {}, ff); console.log('ms', performance.now() - t, ff.reachableCount); }
});
