/** The list of bench modules run by `npm run bench`, in order. Each area adds its module here. */
import type { BenchModule } from './harness';
import { boidsBench } from './boids';
import { collisionBench } from './collision';
import { gridBench } from './grid';
import { hordeBench } from './horde';
import { navmeshBench } from './navmesh';
import { orcaBench } from './orca';
import { pipelineBench } from './pipeline';
import { spatialBench } from './spatial';

export const modules: BenchModule[] = [
  boidsBench,
  collisionBench,
  gridBench,
  hordeBench,
  navmeshBench,
  orcaBench,
  pipelineBench,
  spatialBench,
];
