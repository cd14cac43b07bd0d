/** Foundation demos: the wander scene at 20,000 and 50,000 agents (the renderer's measuring stick). */
import { registerDemo } from '../registry';
import { getScenario } from '../scenarios/index';

registerDemo('Foundation', 'Wander (20,000 agents)', (seed) => ({
  scenario: getScenario('wander').create({ agents: 20000, seed }),
  info: () => 'Random-walk headings with separation from spatial-hash neighbours; colour by speed.',
}));

registerDemo('Foundation', 'Wander (50,000 agents)', (seed) => ({
  scenario: getScenario('wander').create({ agents: 50000, seed }),
  info: () => 'The renderer at 50,000 agents: pause to see the draw cost alone (fps and draw ms below).',
}));
