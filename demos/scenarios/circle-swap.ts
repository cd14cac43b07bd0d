/** Circle swap (ORCA): agents on a circle (concentric rings above 250) each walk to the antipode. */
import { createCircleSwapScene } from '../../src/avoidance/scenes';
import { registerScenario } from './registry';
import { orcaScenario } from './orca-scene';

export const circleSwapScenario = registerScenario({
  name: 'circle-swap',
  description: 'ORCA: agents on a circle each walk to the antipode (RVO2 "Circle")',
  defaultAgents: 250,
  create: ({ agents, seed }) => orcaScenario(createCircleSwapScene(agents, { seed, rings: agents > 250 ? 'concentric' : 1 }), 6),
});
