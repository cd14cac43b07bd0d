/** Every demo of the page, registered in one place. */
import { registerDemo } from './registry';
import { getScenario } from './scenarios/index';

registerDemo('Foundation', 'Wander (20,000 agents)', (seed) => ({
  scenario: getScenario('wander').create({ agents: 20000, seed }),
}));
