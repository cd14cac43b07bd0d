/**
 * The demo page: lists the registered demos, runs the selected one with a fixed-step loop (`advance`) and renders
 * interpolated positions, with pause/step/reset, the seed, parameters, and the live per-system profile.
 * `#<category>/<name>` in the URL selects a demo. `window.__murmur` exposes frame rate and state for the browser test.
 */
import './demos';
import { listDemos, type Demo, type DemoInstance, type DemoView } from './registry';
import { drawAgents } from './render-canvas';

const canvas = document.getElementById('view') as HTMLCanvasElement;
const ctx = canvas.getContext('2d')!;
const nav = document.getElementById('demos')!;
const profileEl = document.getElementById('profile')!;
const barsEl = document.getElementById('bars')!;
const infoEl = document.getElementById('info')!;
const guiEl = document.getElementById('gui')!;
const seedInput = document.getElementById('seed') as HTMLInputElement;

const COLORS = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

let current: Demo | null = null;
let inst: DemoInstance | null = null;
let paused = false;
let view: DemoView = { cx: 0, cy: 0, scale: 1, width: 1, height: 1 };
let lastTime = 0;
let fps = 0;
let frameCount = 0;
let fpsWindowStart = 0;
let fpsFrames = 0;

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
  const rect = canvas.getBoundingClientRect();
  canvas.width = Math.max(1, Math.floor(rect.width));
  canvas.height = Math.max(1, Math.floor(rect.height));
  if (!inst) return;
  const b = inst.scenario.bounds;
  const bw = b.maxX - b.minX, bh = b.maxY - b.minY;
  view = {
    cx: (b.minX + b.maxX) / 2,
    cy: (b.minY + b.maxY) / 2,
    scale: 0.95 * Math.min(canvas.width / Math.max(bw, 1e-6), canvas.height / Math.max(bh, 1e-6)),
    width: canvas.width,
    height: canvas.height,
  };
}

function buildParams(): void {
  guiEl.innerHTML = '';
  for (const p of inst?.params ?? []) {
    const row = document.createElement('label');
    row.style.display = 'block';
    row.textContent = p.name + ' ';
    const v = p.get();
    let input: HTMLInputElement | HTMLSelectElement;
    if (p.options) {
      const sel = document.createElement('select');
      for (const o of p.options) { const opt = document.createElement('option'); opt.value = opt.textContent = o; sel.appendChild(opt); }
      sel.value = String(v);
      sel.onchange = () => p.set(sel.value);
      input = sel;
    } else if (typeof v === 'boolean') {
      const cb = document.createElement('input');
      cb.type = 'checkbox'; cb.checked = v; cb.onchange = () => p.set(cb.checked);
      input = cb;
    } else {
      const r = document.createElement('input');
      r.type = 'range'; r.min = String(p.min ?? 0); r.max = String(p.max ?? 1); r.step = String(p.step ?? 0.01); r.value = String(v);
      r.oninput = () => p.set(Number(r.value));
      input = r;
    }
    row.appendChild(input);
    guiEl.appendChild(row);
  }
}

function start(d: Demo): void {
  current = d;
  for (const [demo, b] of buttons) b.classList.toggle('active', demo === d);
  inst = d.create(Number(seedInput.value) || 1);
  frameCount = 0;
  fitView();
  buildParams();
}

function toWorld(e: PointerEvent): [number, number] {
  const rect = canvas.getBoundingClientRect();
  const sx = e.clientX - rect.left, sy = e.clientY - rect.top;
  return [(sx - view.width / 2) / view.scale + view.cx, (view.height / 2 - sy) / view.scale + view.cy];
}
for (const kind of ['down', 'move', 'up'] as const) {
  canvas.addEventListener(`pointer${kind}`, (e) => {
    if (!inst?.onPointer) return;
    const [x, y] = toWorld(e);
    inst.onPointer(kind, x, y, e.buttons);
  });
}

document.getElementById('pause')!.onclick = (e) => { paused = !paused; (e.target as HTMLButtonElement).textContent = paused ? 'Play' : 'Pause'; };
document.getElementById('stepBtn')!.onclick = () => { if (inst) { inst.scenario.tick(); frameCount++; } };
document.getElementById('reset')!.onclick = () => { if (current) start(current); };
window.addEventListener('hashchange', () => start(demoFromHash()));
window.addEventListener('resize', fitView);

function renderProfile(): void {
  const w = inst!.scenario.world;
  const p = w.profiler;
  const total = Math.max(1e-9, p.entries.reduce((s, e) => s + e.last, 0));
  barsEl.innerHTML = '';
  const lines = [`fps ${fps.toFixed(0)}  agents ${w.agents.count}  frame ${frameCount}`, `step ${p.frameLast.toFixed(2)} ms (mean ${p.frameMean.toFixed(2)})`, ''];
  p.entries.forEach((e, i) => {
    const color = COLORS[i % COLORS.length];
    const bar = document.createElement('div');
    bar.style.width = `${(100 * e.last) / total}%`;
    bar.style.background = color;
    bar.title = `${e.name} ${e.last.toFixed(2)} ms`;
    barsEl.appendChild(bar);
    const counters = Object.keys(e.counters).map((k) => `${k}=${e.counters[k]}`).join(' ');
    lines.push(`${e.name.padEnd(12)} ${e.last.toFixed(2).padStart(7)} ms  ${counters}`);
  });
  profileEl.textContent = lines.join('\n');
  infoEl.textContent = inst!.info?.() ?? '';
}

function drawObstacles(): void {
  const s = inst!.scenario;
  ctx.strokeStyle = '#8a93a3';
  ctx.lineWidth = 1.5;
  for (const o of s.obstacles) {
    ctx.beginPath();
    for (let i = 0; i < o.points.length; i += 2) {
      const sx = (o.points[i] - view.cx) * view.scale + view.width / 2;
      const sy = view.height / 2 - (o.points[i + 1] - view.cy) * view.scale;
      if (i === 0) ctx.moveTo(sx, sy); else ctx.lineTo(sx, sy);
    }
    if (o.closed) ctx.closePath();
    ctx.stroke();
  }
}

function frame(t: number): void {
  requestAnimationFrame(frame);
  if (!inst) return;
  const elapsed = lastTime === 0 ? 0 : Math.min(0.25, (t - lastTime) / 1000);
  lastTime = t;
  fpsFrames++;
  if (t - fpsWindowStart >= 500) { fps = (fpsFrames * 1000) / (t - fpsWindowStart); fpsFrames = 0; fpsWindowStart = t; }
  const s = inst.scenario;
  let alpha = 1;
  if (!paused) {
    // Drive the scenario's own tick at its fixed dt with an accumulator (same semantics as `advance`).
    acc += elapsed;
    let n = 0;
    while (acc >= s.dt && n < 4) { s.tick(); acc -= s.dt; n++; frameCount++; }
    if (acc >= s.dt) acc = 0;
    alpha = acc / s.dt;
  }
  drawAgents(ctx, s.world, view, alpha, inst.agentColor);
  drawObstacles();
  inst.drawOverlay?.(ctx, view);
  renderProfile();
}
let acc = 0;

// Expose state for the browser test and for curious users in the console.
(window as unknown as { __murmur: unknown }).__murmur = {
  get fps() { return fps; },
  get frame() { return frameCount; },
  get demo() { return current ? `${current.category}/${current.name}` : null; },
  demos: () => listDemos().map((d) => `${d.category}/${d.name}`),
  sample: () => {
    if (!inst) return [];
    const w = inst.scenario.world;
    const out: number[] = [];
    for (let i = 0; i < Math.min(20, w.agents.count); i++) { const e = w.agents.dense[i]; out.push(w.position.x[e], w.position.y[e]); }
    return out;
  },
  world: () => inst?.scenario.world,
};

start(demoFromHash());
requestAnimationFrame(frame);
