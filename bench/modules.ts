/** The list of bench modules run by `npm run bench`, in order. Each area adds its module here. */
import type { BenchModule } from './harness';
import { gridBench } from './grid';
import { navmeshBench } from './navmesh';
import { pipelineBench } from './pipeline';
import { spatialBench } from './spatial';

export const modules: BenchModule[] = [
  gridBench,
  navmeshBench,
  pipelineBench,
  spatialBench,
];
