/**
 * The demo list: each demo registers itself with a category, a name and a factory (like Box2D's samples). The page
 * lists them by category; selecting one calls its factory with the seed. A demo is a shared scenario
 * (demos/scenarios/) plus what only a page has: parameters, drawing and pointer interaction.
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

/** A parameter shown in the demo's lil-gui panel: a number (slider), a boolean, a choice among options... */
export interface DemoValueParam {
  name: string;
  min?: number;
  max?: number;
  step?: number;
  options?: string[];
  get(): number | string | boolean;
  set(v: number | string | boolean): void;
}

/** ...or a button. */
export interface DemoActionParam {
  name: string;
  action(): void;
}

export type DemoParam = DemoValueParam | DemoActionParam;

export interface DemoInstance {
  readonly scenario: ScenarioInstance;
  /** Drawing under the agents (grid cells, fields), on a 2D canvas already cleared to the page background. */
  drawBackground?(ctx: CanvasRenderingContext2D, view: DemoView): void;
  /** Drawing over the agents (paths, debug geometry), on a transparent 2D canvas. */
  drawOverlay?(ctx: CanvasRenderingContext2D, view: DemoView): void;
  /** Colour of each agent as 0xRRGGBB (default: by speed). */
  agentColor?(eid: number): number;
  /** Pointer interaction in world coordinates; `buttons` as PointerEvent.buttons (1 left, 2 right), `shift` held. */
  onPointer?(kind: 'down' | 'move' | 'up', x: number, y: number, buttons: number, shift: boolean): void;
  /** Parameters shown in the panel. */
  params?: DemoParam[];
  /** Bump when the parameter list or its options change (e.g. a list fetched later): the panel is rebuilt. */
  paramsVersion?(): number;
  /** Extra lines of information (status, what the mouse does). */
  info?(): string;
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
