/** Corridor counter-flow (ORCA): two groups meet head-on in a corridor five radii wide between two rooms. */
import { createCorridorScene } from '../../src/avoidance/scenes';
import { registerScenario } from './registry';
import { orcaScenario } from './orca-scene';

export const corridorScenario = registerScenario({
  name: 'corridor',
  description: 'ORCA: two groups meet head-on in a corridor 5 radii wide (agents = both groups)',
  defaultAgents: 100,
  create: ({ agents, seed }) => orcaScenario(createCorridorScene(Math.max(1, Math.floor(agents / 2)), { seed }), 3),
});
