/** The list of bench modules run by `npm run bench`, in order. Each area adds its module here. */
import type { BenchModule } from './harness';
import { boidsBench } from './boids';
import { gridBench } from './grid';
import { navmeshBench } from './navmesh';
import { pipelineBench } from './pipeline';
import { spatialBench } from './spatial';

export const modules: BenchModule[] = [
  boidsBench,
  gridBench,
  navmeshBench,
  pipelineBench,
  spatialBench,
];
