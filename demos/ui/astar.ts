/**
 * A* explorer demo: Moving AI maps served by the dev server at /maps/ (from ../shared/data/maps, never copied into
 * the repo), the explorer's open and closed sets shaded as the search runs, the algorithms compared on the same
 * query, and agents on their own A* paths. Starts on a seeded random map and switches to the chosen Moving AI map
 * as soon as it has been fetched (a page opened without the dev server keeps the random map).
 */
import { registerDemo, type DemoInstance } from '../registry';
import { createAstar, EXPLORER_ALGORITHMS, type AstarInstance, type CompareRow } from '../scenarios/astar';
import { setBlocked } from '../../src/grid/grid';
import { circle, label, strokePolyline } from '../draw';
import { abgr, createGridImage, drawGridImage, paintWalls, type GridImage } from './grid-image';

const CLOSED = abgr(0x4e79a7, 150);
const OPEN = abgr(0x76b7b2, 230);
const DEFAULT_MAP = 'den312d.map';
const AGENTS = 24;

registerDemo('Grid navigation', 'A* explorer (Moving AI maps)', (seed) => {
  let s: AstarInstance = createAstar({ agents: AGENTS, seed });
  let img: GridImage | null = null;
  let imgGrid: AstarInstance['grid'] | null = null;
  let mapNames: string[] = ['random'];
  let mapChoice = 'random';
  let mouse: 'start / goal' | 'paint walls' = 'start / goal';
  let table: CompareRow[] = [];
  let tableKey = '';
  let note = '';
  let paramsVersion = 0;

  function swap(name: string, text: string | null): void {
    const next = createAstar({ agents: AGENTS, seed, map: text === null ? undefined : { name, text } });
    // Keep the explorer settings across maps (except the animation speed, which depends on the map size).
    Object.assign(next.settings, { ...s.settings, expansionsPerStep: next.settings.expansionsPerStep });
    next.restart();
    s = next;
    mapChoice = name;
  }

  async function load(name: string): Promise<void> {
    if (name === 'random') { swap('random', null); return; }
    try {
      const r = await fetch(`maps/${encodeURIComponent(name)}`);
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      swap(name, await r.text());
      note = '';
    } catch (e) {
      note = `could not load ${name} (${(e as Error).message}): start the page with npm start to read ../shared/data/maps`;
    }
  }

  // Fetch the list of maps, then the default one (the page stays usable on the random map meanwhile).
  void fetch('maps/').then((r) => (r.ok ? r.json() : [])).then((names: string[]) => {
    mapNames = ['random', ...names];
    paramsVersion++;
    if (names.includes(DEFAULT_MAP)) return load(DEFAULT_MAP);
  }).catch(() => { note = 'no map server: using a random map (npm start serves ../shared/data/maps)'; });

  function compareTable(): string {
    const q = s.query, st = s.settings;
    const key = `${s.mapName}|${q.sx},${q.sy},${q.gx},${q.gy}|${st.heuristic}|${st.tieBreak}|${st.weight}|${st.connectivity}|${s.grid.version}`;
    if (key !== tableKey) { tableKey = key; table = s.compare(); }
    const best = Math.min(...table.map((r) => r.cost));
    return table.map((r) => `${r.algorithm.padEnd(14)} ${String(r.expanded).padStart(7)} exp  ${Number.isFinite(r.cost) ? r.cost.toFixed(2) : r.status}${Number.isFinite(r.cost) && r.cost > best + 1e-9 ? ` (+${(100 * (r.cost / best - 1)).toFixed(1)}%)` : ''}`).join('\n');
  }

  let painting = 0; // 1 paint walls, 2 clear walls
  const inst: DemoInstance = {
    get scenario() { return s; },
    agentColor: () => 0xff9da7,
    drawBackground(ctx, view) {
      const g = s.grid;
      if (!img || imgGrid !== g) { img = createGridImage(g); imgGrid = g; }
      const px = paintWalls(img, g);
      // Shade the explorer's search: closed (expanded) and open (frontier) cells of the current generation.
      const { mark, heapPos, generation } = s.search;
      if (s.explorerStatus() !== 'idle') {
        for (let c = 0; c < px.length; c++) if (mark[c] === generation) px[c] = heapPos[c] < 0 ? CLOSED : OPEN;
      }
      drawGridImage(ctx, view, img, g);
    },
    drawOverlay(ctx, view) {
      const paths = s.paths!();
      for (let i = 1; i < paths.length; i++) strokePolyline(ctx, view, paths[i], paths[i].length / 2, false, 'rgba(255,157,167,0.35)', 1);
      const p = s.explorerPath();
      if (p.length > 0) strokePolyline(ctx, view, paths[0], paths[0].length / 2, false, '#edc948', 3);
      const q = s.query;
      circle(ctx, view, q.sx + 0.5, q.sy + 0.5, 0.7, '#0f1115', '#59a14f', 5);
      circle(ctx, view, q.gx + 0.5, q.gy + 0.5, 0.7, '#0f1115', '#e15759', 5);
      label(ctx, view, q.sx + 0.5, q.sy + 0.5, 'start');
      label(ctx, view, q.gx + 0.5, q.gy + 0.5, 'goal');
    },
    onPointer(kind, x, y, buttons, shift) {
      const cx = Math.floor(x), cy = Math.floor(y);
      const inside = cx >= 0 && cy >= 0 && cx < s.grid.width && cy < s.grid.height;
      if (mouse === 'paint walls') {
        if (kind === 'down') painting = buttons & 2 || shift ? 2 : 1;
        if (kind === 'up') { painting = 0; return; }
        if (painting && inside) setBlocked(s.grid, cx, cy, painting === 1);
        return;
      }
      if (kind !== 'down' || !inside || s.grid.walkable[cy * s.grid.width + cx] !== 1) return;
      const q = s.query;
      if (buttons & 2 || shift) s.setQuery(q.sx, q.sy, cx, cy);
      else s.setQuery(cx, cy, q.gx, q.gy);
    },
    params: [
      { name: 'map', get: () => mapChoice, set: (v) => { void load(String(v)); }, get options() { return mapNames; } },
      { name: 'algorithm', options: EXPLORER_ALGORITHMS, get: () => s.settings.algorithm, set: (v) => { s.settings.algorithm = v as AstarInstance['settings']['algorithm']; s.restart(); } },
      { name: 'heuristic', options: ['octile', 'manhattan', 'euclidean'], get: () => s.settings.heuristic, set: (v) => { s.settings.heuristic = v as AstarInstance['settings']['heuristic']; s.restart(); } },
      { name: 'tie-break', options: ['larger-g', 'nudge', 'none'], get: () => s.settings.tieBreak, set: (v) => { s.settings.tieBreak = v as AstarInstance['settings']['tieBreak']; s.restart(); } },
      { name: 'ε (weighted A*)', min: 1, max: 5, step: 0.1, get: () => s.settings.weight, set: (v) => { s.settings.weight = Number(v); s.restart(); } },
      { name: 'connectivity', options: ['8', '4'], get: () => String(s.settings.connectivity), set: (v) => { s.settings.connectivity = Number(v) as 4 | 8; s.restart(); } },
      { name: 'expansions / step', min: 1, max: 2000, step: 1, get: () => s.settings.expansionsPerStep, set: (v) => { s.settings.expansionsPerStep = Number(v); } },
      { name: 'mouse', options: ['start / goal', 'paint walls'], get: () => mouse, set: (v) => { mouse = v as typeof mouse; } },
      { name: 'new random query', action: () => { const w = s.grid.width; s.setQuery(...pick(s, w)); } },
    ],
    paramsVersion: () => paramsVersion,
    info: () => [
      s.status!(),
      'Left click: start, right/shift click: goal (or paint walls: left blocks, right clears). Closed cells dark blue, frontier teal.',
      '',
      'same query, all algorithms:        expanded  cost',
      compareTable(),
      note,
    ].join('\n'),
  };
  return inst;
});

/** A random walkable start and goal far apart (for the button). */
function pick(s: AstarInstance, w: number): [number, number, number, number] {
  const g = s.grid;
  const cells: number[] = [];
  for (let c = 0; c < g.walkable.length; c += 7) if (g.walkable[c] === 1) cells.push(c);
  let best: [number, number, number, number] = [s.query.sx, s.query.sy, s.query.gx, s.query.gy], bd = -1;
  for (let t = 0; t < 30; t++) {
    const a = cells[Math.floor(Math.random() * cells.length)], b = cells[Math.floor(Math.random() * cells.length)];
    const d = Math.abs((a % w) - (b % w)) + Math.abs(Math.floor(a / w) - Math.floor(b / w));
    if (d > bd) { bd = d; best = [a % w, Math.floor(a / w), b % w, Math.floor(b / w)]; }
  }
  return best;
}
