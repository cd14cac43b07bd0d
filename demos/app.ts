/**
 * The demo page: lists the registered demos, runs the selected one with a fixed-step loop and renders positions
 * interpolated with the step alpha (instanced WebGL, or the canvas fallback), with a lil-gui panel (pause, step,
 * reset, seed, then the demo's own parameters), the live per-system profile (stacked bar, a history chart, the
 * table with counters) and the LOD tier counts.
 *
 * URL: `#<category>/<name>` selects a demo; `?renderer=canvas` or `?renderer=webgl` forces a renderer.
 * `window.__murmur` exposes frame rate and state for the browser test (test/browser/demos.test.ts).
 * Keys: space pause, s step, r reset. Wheel zooms about the pointer; double-click fits the scene.
 */
import GUI from 'lil-gui';
import './demos';
import { listDemos, type Demo, type DemoInstance, type DemoView, type DemoValueParam } from './registry';
import { createGlRenderer, type AgentRenderer } from './render-gl';
import { createCanvasRenderer } from './render-canvas';
import { strokePolyline } from './draw';
import { getLodStats } from '../systems/lod';
import type { ScenarioInstance } from './scenarios/registry';
import { createGridImage, drawGridImage, paintWalls, type GridImage } from './ui/grid-image';

const stage = document.getElementById('stage')!;
const bgCanvas = document.getElementById('bg') as HTMLCanvasElement;
const overlay = document.getElementById('overlay') as HTMLCanvasElement;
const bgCtx = bgCanvas.getContext('2d')!;
const ovCtx = overlay.getContext('2d')!;
const nav = document.getElementById('demos')!;
const profileEl = document.getElementById('profile')!;
const barsEl = document.getElementById('bars')!;
const historyCanvas = document.getElementById('history') as HTMLCanvasElement;
const historyCtx = historyCanvas.getContext('2d')!;
const infoEl = document.getElementById('info')!;
const tiersEl = document.getElementById('tiers')!;
const guiEl = document.getElementById('gui')!;

const COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const BACKGROUND = '#0f1115';

// ---- renderer: instanced WebGL on a GPU; the canvas path without one (or with ?renderer=canvas) ----
// ?renderer=webgl forces WebGL even on a software rasteriser (see createGlRenderer for why that is not the default).
const wanted = new URLSearchParams(location.search).get('renderer');
const agentCanvas = document.createElement('canvas');
agentCanvas.id = 'agents';
stage.insertBefore(agentCanvas, overlay);
let renderer: AgentRenderer | null = wanted === 'canvas' ? null : createGlRenderer(agentCanvas, wanted === 'webgl');
if (!renderer) {
  // A canvas that asked for a WebGL context cannot give a 2D one: use a fresh canvas.
  const c = document.createElement('canvas');
  c.id = 'agents';
  stage.replaceChild(c, agentCanvas);
  renderer = createCanvasRenderer(c);
}
const agentRenderer = renderer;

// ---- state ----
const sim = { paused: false, seed: 1, stepsPerFrameCap: 4, stepBudgetMs: 25 };
let simSeconds = 0, realSeconds = 0, simSpeed = 1;
let current: Demo | null = null;
let inst: DemoInstance | null = null;
let view: DemoView = { cx: 0, cy: 0, scale: 1, width: 1, height: 1 };
let lastTime = 0;
let acc = 0;
let fps = 0;
let frameCount = 0;
let fpsWindowStart = 0;
let fpsFrames = 0;
let renderMs = 0;
let lastUi = 0;
let gui: GUI | null = null;
let fitOnce = false;
// The scenario on screen: a demo may swap its scenario (a new map); the view refits when it does.
let shown: ScenarioInstance | null = null;
let gridImage: GridImage | null = null;
let gridImageVersion = -1;
let guiParamsVersion = 0;

// Profile history: one column per simulation step, one row per system (first-seen order), ring buffer.
const HISTORY = 150;
const MAX_SYSTEMS = 16;
const history = new Float32Array(HISTORY * MAX_SYSTEMS);
let historyHead = 0;
let historyLen = 0;

// ---- demo list ----
const buttons = new Map<Demo, HTMLButtonElement>();
const categories = new Map<string, HTMLElement>();
for (const d of listDemos()) {
  let h = categories.get(d.category);
  if (!h) {
    h = document.createElement('h2');
    h.textContent = d.category;
    nav.appendChild(h);
    categories.set(d.category, h);
  }
  const b = document.createElement('button');
  b.textContent = d.name;
  b.onclick = () => { location.hash = encodeURIComponent(`${d.category}/${d.name}`); };
  nav.appendChild(b);
  buttons.set(d, b);
}

function demoFromHash(): Demo {
  const key = decodeURIComponent(location.hash.slice(1));
  return listDemos().find((d) => `${d.category}/${d.name}` === key) ?? listDemos()[0];
}

function fitView(): void {
  const rect = stage.getBoundingClientRect();
  const w = Math.max(1, Math.floor(rect.width)), h = Math.max(1, Math.floor(rect.height));
  for (const c of [bgCanvas, overlay]) { c.width = w; c.height = h; }
  if (!inst) return;
  const b = inst.scenario.bounds;
  const bw = b.maxX - b.minX, bh = b.maxY - b.minY;
  view = {
    cx: (b.minX + b.maxX) / 2,
    cy: (b.minY + b.maxY) / 2,
    scale: 0.95 * Math.min(w / Math.max(bw, 1e-6), h / Math.max(bh, 1e-6)),
    width: w,
    height: h,
  };
}

// ---- panel ----
function buildGui(): void {
  gui?.destroy();
  gui = new GUI({ container: guiEl, title: current ? current.name : 'Murmur', width: 280 });
  const s = gui.addFolder('Simulation');
  s.add(sim, 'paused').name('paused (space)').listen();
  s.add({ step: () => stepOnce() }, 'step').name('step (s)');
  s.add({ reset: () => { if (current) start(current); } }, 'reset').name('reset (r)');
  s.add(sim, 'seed', 1, 1_000_000, 1).name('seed').onFinishChange(() => { if (current) start(current); });
  s.add(sim, 'stepsPerFrameCap', 1, 8, 1).name('max steps / frame');
  s.add(sim, 'stepBudgetMs', 5, 200, 1).name('step budget ms / frame');
  s.add({ renderer: agentRenderer.kind }, 'renderer').name('renderer').disable();
  const params = inst?.params ?? [];
  if (params.length === 0) return;
  const f = gui.addFolder('Parameters');
  for (const p of params) {
    if ('action' in p) {
      f.add({ go: () => p.action() }, 'go').name(p.name);
      continue;
    }
    const vp: DemoValueParam = p;
    // lil-gui edits a property of an object: an accessor pair forwards it to the demo's getter and setter.
    const proxy = {} as Record<string, unknown>;
    Object.defineProperty(proxy, 'v', { get: () => vp.get(), set: (v) => vp.set(v), enumerable: true });
    const v = vp.get();
    const c = vp.options ? f.add(proxy, 'v', vp.options)
      : typeof v === 'number' ? f.add(proxy, 'v', vp.min ?? 0, vp.max ?? 1, vp.step ?? 0.01)
      : f.add(proxy, 'v');
    c.name(vp.name).listen();
  }
}

function start(d: Demo): void {
  current = d;
  for (const [demo, b] of buttons) b.classList.toggle('active', demo === d);
  inst = d.create(sim.seed);
  guiParamsVersion = inst.paramsVersion?.() ?? 0;
  frameCount = 0;
  acc = 0;
  historyHead = historyLen = 0;
  fitView();
  buildGui();
}

function stepOnce(): void {
  if (!inst) return;
  inst.scenario.tick();
  frameCount++;
  recordHistory();
}

// ---- pointer and keys ----
function toWorld(e: PointerEvent): [number, number] {
  const rect = overlay.getBoundingClientRect();
  const px = e.clientX - rect.left, py = e.clientY - rect.top;
  return [(px - view.width / 2) / view.scale + view.cx, (view.height / 2 - py) / view.scale + view.cy];
}
for (const kind of ['down', 'move', 'up'] as const) {
  overlay.addEventListener(`pointer${kind}`, (e) => {
    if (!inst?.onPointer) return;
    if (kind === 'down') overlay.setPointerCapture(e.pointerId);
    const [x, y] = toWorld(e);
    inst.onPointer(kind, x, y, kind === 'up' ? 0 : e.buttons, e.shiftKey);
  });
}
overlay.addEventListener('contextmenu', (e) => e.preventDefault());
// Wheel: zoom about the pointer (the world point under it stays put); double-click: fit the scene again.
overlay.addEventListener('wheel', (e) => {
  e.preventDefault();
  const rect = overlay.getBoundingClientRect();
  const px = e.clientX - rect.left, py = e.clientY - rect.top;
  const wx = (px - view.width / 2) / view.scale + view.cx, wy = (view.height / 2 - py) / view.scale + view.cy;
  const k = Math.pow(1.0015, -e.deltaY);
  view.scale *= k;
  view.cx = wx - (px - view.width / 2) / view.scale;
  view.cy = wy - (view.height / 2 - py) / view.scale;
}, { passive: false });
overlay.addEventListener('dblclick', () => fitView());
window.addEventListener('keydown', (e) => {
  if ((e.target as HTMLElement).tagName === 'INPUT') return;
  if (e.key === ' ') { sim.paused = !sim.paused; e.preventDefault(); }
  else if (e.key === 's') stepOnce();
  else if (e.key === 'r' && current) start(current);
});
window.addEventListener('hashchange', () => start(demoFromHash()));
window.addEventListener('resize', fitView);

// ---- profile ----
function recordHistory(): void {
  const entries = inst!.scenario.world.profiler.entries;
  const base = historyHead * MAX_SYSTEMS;
  for (let k = 0; k < MAX_SYSTEMS; k++) history[base + k] = k < entries.length ? entries[k].last : 0;
  historyHead = (historyHead + 1) % HISTORY;
  if (historyLen < HISTORY) historyLen++;
}

function drawHistory(n: number): void {
  const w = historyCanvas.width, h = historyCanvas.height;
  historyCtx.fillStyle = '#1a1e26';
  historyCtx.fillRect(0, 0, w, h);
  // Vertical scale: the largest frame in the window, rounded up to a "nice" number of milliseconds.
  let maxTotal = 0.1;
  for (let j = 0; j < historyLen; j++) {
    const base = ((historyHead - historyLen + j + HISTORY) % HISTORY) * MAX_SYSTEMS;
    let t = 0;
    for (let k = 0; k < n; k++) t += history[base + k];
    if (t > maxTotal) maxTotal = t;
  }
  const nice = [0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
  const top = nice.find((v) => v >= maxTotal) ?? maxTotal;
  const colW = w / HISTORY;
  for (let j = 0; j < historyLen; j++) {
    const base = ((historyHead - historyLen + j + HISTORY) % HISTORY) * MAX_SYSTEMS;
    let y = h;
    for (let k = 0; k < n; k++) {
      const bh = (history[base + k] / top) * (h - 12);
      historyCtx.fillStyle = COLORS[k % COLORS.length];
      historyCtx.fillRect((HISTORY - historyLen + j) * colW, y - bh, Math.ceil(colW), bh);
      y -= bh;
    }
  }
  historyCtx.fillStyle = '#9aa4b2';
  historyCtx.font = '10px ui-monospace, monospace';
  historyCtx.fillText(`${top} ms`, 3, 10);
  // 16.7 ms line: the whole budget of a 60 Hz frame.
  if (top >= 16.7) {
    const y = h - (16.7 / top) * (h - 12);
    historyCtx.fillStyle = '#e15759';
    historyCtx.fillRect(0, y, w, 1);
  }
}

function renderProfile(): void {
  const w = inst!.scenario.world;
  const p = w.profiler;
  const n = Math.min(p.entries.length, MAX_SYSTEMS);
  let total = 0;
  for (let k = 0; k < n; k++) total += p.entries[k].mean;
  total = Math.max(1e-9, total);
  barsEl.innerHTML = '';
  const lines = [
    `fps ${fps.toFixed(0)}  agents ${w.agents.count}  step ${frameCount}${sim.paused ? '  (paused)' : simSpeed < 0.95 ? `  slow motion ×${simSpeed.toFixed(2)}` : ''}`,
    `sim ${p.frameLast.toFixed(2)} ms/step (mean ${p.frameMean.toFixed(2)})  draw ${renderMs.toFixed(2)} ms`,
    '',
    'system          last    mean ms',
  ];
  for (let k = 0; k < n; k++) {
    const e = p.entries[k];
    const color = COLORS[k % COLORS.length];
    const bar = document.createElement('div');
    bar.style.width = `${(100 * e.mean) / total}%`;
    bar.style.background = color;
    bar.title = `${e.name} ${e.mean.toFixed(2)} ms`;
    barsEl.appendChild(bar);
    const counters = Object.keys(e.counters).map((c) => `${c}=${e.counters[c]}`).join(' ');
    lines.push(`■ ${e.name.padEnd(12)} ${e.last.toFixed(2).padStart(6)} ${e.mean.toFixed(2).padStart(6)}${counters ? '\n    ' + counters : ''}`);
  }
  profileEl.innerHTML = '';
  lines.forEach((l) => {
    const div = document.createElement('div');
    if (l.startsWith('■')) {
      const k = profileEl.querySelectorAll('span.sw').length;
      const sw = document.createElement('span');
      sw.className = 'sw';
      sw.textContent = '■';
      sw.style.color = COLORS[k % COLORS.length];
      div.appendChild(sw);
      div.appendChild(document.createTextNode(l.slice(1)));
    } else div.textContent = l || '\u00a0';
    profileEl.appendChild(div);
  });
  drawHistory(n);
  if (w.systems.lod) {
    const s = getLodStats(w);
    tiersEl.textContent = `LOD tiers  near ${s.near}  mid ${s.mid}  far ${s.far}\nnear radius ${s.nearRadius.toFixed(1)} m, mid ${s.midRadius.toFixed(1)} m; budget ${s.budgetState}${s.budgetState !== 'off' ? ` (${s.budgetMeanMs.toFixed(2)} ms)` : ''}`;
  } else tiersEl.textContent = 'LOD off: every agent at full quality';
  infoEl.textContent = inst!.info?.() ?? '';
}

function drawObstacles(ctx: CanvasRenderingContext2D): void {
  for (const o of inst!.scenario.obstacles) strokePolyline(ctx, view, o.points, o.points.length / 2, o.closed, '#8a93a3', 1.5, o.closed ? 'rgba(138,147,163,0.18)' : undefined);
}

// ---- frame loop ----
function frame(t: number): void {
  requestAnimationFrame(frame);
  if (!inst) return;
  if (!fitOnce) { fitOnce = true; fitView(); }
  if (inst.scenario !== shown) { shown = inst.scenario; historyHead = historyLen = 0; gridImage = null; fitView(); }
  const elapsed = lastTime === 0 ? 0 : Math.min(0.25, (t - lastTime) / 1000);
  lastTime = t;
  fpsFrames++;
  if (t - fpsWindowStart >= 500) { fps = (fpsFrames * 1000) / (t - fpsWindowStart); fpsFrames = 0; fpsWindowStart = t; }
  const s = inst.scenario;
  let alpha = 1;
  if (!sim.paused) {
    // Fixed steps with an accumulator (the semantics of `advance`): at most `stepsPerFrameCap` steps a frame, and no
    // further step once this frame has spent `stepBudgetMs` stepping (at least one step runs), so a heavy scene
    // runs in slow motion while the page stays responsive. Time beyond that is dropped rather than carried (no
    // spiral of death on a slow machine); `simSpeed` reports simulated seconds per real second.
    acc += elapsed;
    let n = 0;
    const t0 = performance.now();
    while (acc >= s.dt && n < sim.stepsPerFrameCap && (n === 0 || performance.now() - t0 < sim.stepBudgetMs)) {
      s.tick(); acc -= s.dt; n++; frameCount++; recordHistory();
    }
    if (acc >= s.dt) acc -= Math.floor(acc / s.dt) * s.dt;
    alpha = acc / s.dt;
    simSeconds += n * s.dt;
  }
  realSeconds += elapsed;
  if (realSeconds >= 1) { simSpeed = simSeconds / realSeconds; simSeconds = realSeconds = 0; }
  bgCtx.fillStyle = BACKGROUND;
  bgCtx.fillRect(0, 0, bgCanvas.width, bgCanvas.height);
  if (inst.drawBackground) inst.drawBackground(bgCtx, view);
  else if (s.grid) {
    // Scenarios with a navigation grid: blocked cells, redrawn when the grid is edited.
    if (!gridImage || gridImageVersion !== s.grid.version) { gridImage ??= createGridImage(s.grid); paintWalls(gridImage, s.grid); gridImageVersion = s.grid.version; }
    drawGridImage(bgCtx, view, gridImage, s.grid);
  }
  drawObstacles(bgCtx);
  const r0 = performance.now();
  agentRenderer.draw(s.world, view, alpha, inst.agentColor);
  const r1 = performance.now() - r0;
  renderMs = renderMs === 0 ? r1 : renderMs + 0.05 * (r1 - renderMs);
  ovCtx.clearRect(0, 0, overlay.width, overlay.height);
  inst.drawOverlay?.(ovCtx, view);
  if (t - lastUi > 100) {
    lastUi = t;
    renderProfile();
    const pv = inst.paramsVersion?.() ?? 0;
    if (pv !== guiParamsVersion) { guiParamsVersion = pv; buildGui(); }
  }
}

// Expose state for the browser test and for curious users in the console.
(window as unknown as { __murmur: unknown }).__murmur = {
  get fps() { return fps; },
  get frame() { return frameCount; },
  get renderer() { return agentRenderer.kind; },
  get gpu() { return agentRenderer.gpu; },
  get renderMs() { return renderMs; },
  get simSpeed() { return simSpeed; },
  get agents() { return inst ? inst.scenario.world.agents.count : 0; },
  get demo() { return current ? `${current.category}/${current.name}` : null; },
  get paused() { return sim.paused; },
  set paused(v: boolean) { sim.paused = v; },
  demos: () => listDemos().map((d) => `${d.category}/${d.name}`),
  /** Positions of up to 64 live agents spread over the whole list: [x0, y0, x1, y1, ...]. */
  sample: () => {
    if (!inst) return [];
    const w = inst.scenario.world;
    const out: number[] = [];
    const n = w.agents.count, k = Math.min(64, n);
    for (let i = 0; i < k; i++) { const e = w.agents.dense[Math.floor((i * n) / k)]; out.push(w.position.x[e], w.position.y[e]); }
    return out;
  },
  world: () => inst?.scenario.world,
};

start(demoFromHash());
requestAnimationFrame(frame);
