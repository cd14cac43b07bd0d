/**
 * Horde through a city: the lead's horde scenario (flow field + ORCA + boids separation + LOD) at 50,000 agents.
 * Agents are coloured by LOD tier (near green, mid yellow, far blue); drag the focus point (left button) and the
 * tiers follow it; right-click (or shift-click) sends the whole horde to a new goal on a new shared flow field; the
 * frame budget moves the near radius to keep the simulation within its target.
 */
import { registerDemo } from '../registry';
import { createHorde } from '../scenarios/horde';
import { lodComponent, LOD_ALL } from '../../components/lod';
import { setGroupGoal } from '../../systems/navigation';
import { enableLod, getLodStats, setFocusPoints, setLodBudget } from '../../systems/lod';
import { circle, label } from '../draw';
import { TIER_COLORS } from './color';

registerDemo('Horde + LOD', 'Horde through a city (50,000 agents)', (seed) => {
  const s = createHorde({ agents: 50000, seed });
  const w = s.world;
  const lod = lodComponent(w);
  const focus = { x: (s.bounds.minX + s.bounds.maxX) / 2, y: (s.bounds.minY + s.bounds.maxY) / 2 };
  const budget = { on: false, targetMs: 12 };
  let dragging = false;
  const goal = { x: s.goal.x, y: s.goal.y };
  let goalNote = '';
  const everyone = Int32Array.from(w.agents.dense.subarray(0, w.agents.count));
  // A new group order: the whole horde follows one new shared flow field (one Dijkstra solve for everyone).
  const order = (x: number, y: number) => {
    try {
      setGroupGoal(w, everyone, x, y, { mode: 'flow', arriveRadius: 6, slowRadius: 4 });
      goal.x = x; goal.y = y; goalNote = '';
    } catch (e) {
      goalNote = `goal refused: ${(e as Error).message}`;
    }
  };
  const applyBudget = () => setLodBudget(w, budget.on ? { targetMs: budget.targetMs } : null);
  return {
    scenario: s,
    agentColor: (e) => TIER_COLORS[lod.tier[e]] ?? 0xffffff,
    onPointer(kind, x, y, buttons, shift) {
      if (kind === 'down' && (buttons & 2 || (buttons & 1 && shift))) { order(x, y); return; }
      if (kind === 'down' && buttons & 1) dragging = true;
      if (kind === 'up') dragging = false;
      if (dragging) { focus.x = x; focus.y = y; setFocusPoints(w, [x, y]); }
    },
    drawOverlay(ctx, view) {
      const st = getLodStats(w);
      circle(ctx, view, focus.x, focus.y, st.nearRadius, '#59a14f', null);
      circle(ctx, view, focus.x, focus.y, st.midRadius, '#edc948', null);
      circle(ctx, view, focus.x, focus.y, 1.5, null, '#ffffff', 4);
      label(ctx, view, focus.x, focus.y, 'focus (drag)');
      circle(ctx, view, goal.x, goal.y, 6, '#e15759', null);
      label(ctx, view, goal.x, goal.y, 'goal');
    },
    params: [
      { name: 'near radius m', min: 4, max: 200, step: 1, get: () => Math.round(getLodStats(w).nearRadius), set: (v) => { enableLod(w, { nearRadius: Number(v), midRadius: Math.max(Number(v), getLodStats(w).midRadius) }); } },
      { name: 'mid radius m', min: 4, max: 400, step: 1, get: () => Math.round(getLodStats(w).midRadius), set: (v) => { enableLod(w, { midRadius: Math.max(Number(v), getLodStats(w).nearRadius) }); } },
      { name: 'frame budget on', get: () => budget.on, set: (v) => { budget.on = Boolean(v); applyBudget(); } },
      { name: 'budget target ms', min: 2, max: 40, step: 0.5, get: () => budget.targetMs, set: (v) => { budget.targetMs = Number(v); applyBudget(); } },
      { name: 'LOD on', get: () => w.enabled.lod, set: (v) => { w.enabled.lod = Boolean(v); if (!v) { lod.tier.fill(0); lod.flags.fill(LOD_ALL); } } },
    ],
    info: () => 'Flow field to the goal; near agents (green) run ORCA + boids, mid (yellow) boids, far (blue) staggered flow following.\nDrag the focus point; right-click (or shift-click) to send the whole horde to a new goal on a new flow field; turn the budget on to let the near radius follow the frame cost.' + (goalNote ? `\n${goalNote}` : ''),
  };
});
