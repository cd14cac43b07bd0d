/** Every shared scenario, registered by importing its module. Add new scenarios here. */
export { listScenarios, getScenario, registerScenario } from './registry';
export type { Scenario, ScenarioInstance, ScenarioOptions, DrawnObstacle } from './registry';
import './wander';
import './horde';
import './murmuration';
import './astar';
import './circle-swap';
import './corridor';
import './blocks';
import './rts';
import './contacts';
import './steering';
