/**
 * The demo list: each demo registers itself with a category, a name and a factory (like Box2D's samples). The page
 * lists them by category; selecting one calls its factory with the seed.
 */
import type { ScenarioInstance } from './scenarios/registry';

export interface DemoView {
  /** World → screen: screenX = (x - cx) * scale + width/2, screenY = height/2 - (y - cy) * scale (y up). */
  cx: number;
  cy: number;
  scale: number;
  width: number;
  height: number;
}

export interface DemoInstance {
  readonly scenario: ScenarioInstance;
  /** Extra overlay drawing on the 2D canvas, after agents. */
  drawOverlay?(ctx: CanvasRenderingContext2D, view: DemoView): void;
  /** Colour of each agent as 0xRRGGBB (default: by speed). */
  agentColor?(eid: number): number;
  /** Pointer interaction in world coordinates. */
  onPointer?(kind: 'down' | 'move' | 'up', x: number, y: number, buttons: number): void;
  /** Parameters shown in the panel (name → getter/setter with range). */
  params?: DemoParam[];
  /** Extra lines of information (tier counts, status). */
  info?(): string;
}

export interface DemoParam {
  name: string;
  min?: number;
  max?: number;
  step?: number;
  options?: string[];
  get(): number | string | boolean;
  set(v: number | string | boolean): void;
}

export interface Demo {
  readonly category: string;
  readonly name: string;
  readonly create: (seed: number) => DemoInstance;
}

const _demos: Demo[] = [];

export function registerDemo(category: string, name: string, create: (seed: number) => DemoInstance): void {
  if (_demos.some((d) => d.category === category && d.name === name)) throw new Error(`demo ${category}/${name} registered twice`);
  _demos.push({ category, name, create });
}

export function listDemos(): readonly Demo[] {
  return _demos;
}
