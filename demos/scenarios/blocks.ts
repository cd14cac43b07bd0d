/** Blocks (ORCA with obstacles): four groups cross between four square blocks to the opposite corners (RVO2). */
import { createBlocksScene } from '../../src/avoidance/scenes';
import { registerScenario } from './registry';
import { orcaScenario } from './orca-scene';

export const blocksScenario = registerScenario({
  name: 'blocks',
  description: 'ORCA with obstacles: four groups cross between four blocks (RVO2 "Blocks"; agents rounded to 4k)',
  defaultAgents: 100,
  create: ({ agents, seed }) => orcaScenario(createBlocksScene(Math.max(4, Math.round(agents / 4) * 4), { seed }), 10),
});
