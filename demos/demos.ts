/** Every demo of the page, registered in one place (category, name, factory), like Box2D's samples. */
import { registerDemo } from './registry';
import { getScenario } from './scenarios/index';

registerDemo('Foundation', 'Wander (20,000 agents)', (seed) => ({
  scenario: getScenario('wander').create({ agents: 20000, seed }),
  info: () => 'Random-walk headings with separation from spatial-hash neighbours; colour by speed.',
}));

registerDemo('Foundation', 'Wander (50,000 agents)', (seed) => ({
  scenario: getScenario('wander').create({ agents: 50000, seed }),
  info: () => 'The renderer at 50,000 agents: one instanced draw call (WebGL), positions interpolated on the GPU.',
}));
