/** Steering demo: hunters (red) pursue, prey wander and evade (orange when panicking), feelers keep both off walls. */
import { registerDemo } from '../registry';
import { createSteering } from '../scenarios/steering';
import { steeringComponent, STEER_EVADE } from '../../components/steering';
import { circle, line } from '../draw';

registerDemo('Steering', 'Pursue, evade, wander, walls', (seed) => {
  const s = createSteering({ agents: 80, seed });
  const w = s.world;
  const hunterSet = new Set(Array.from(s.hunters));
  const steer = steeringComponent(w);
  return {
    scenario: s,
    agentColor: (e) => (hunterSet.has(e) ? 0xe15759 : steer.behaviours[e] & STEER_EVADE ? 0xf28e2b : 0x76b7b2),
    onPointer(kind, x, y, buttons) {
      // Drag the nearest hunter.
      if (kind === 'up' || !(buttons & 1)) return;
      let best = s.hunters[0], bd = Infinity;
      for (const h of s.hunters) { const d = (w.position.x[h] - x) ** 2 + (w.position.y[h] - y) ** 2; if (d < bd) { bd = d; best = h; } }
      if (bd < 25) { w.position.x[best] = x; w.position.y[best] = y; w.position.previousX[best] = x; w.position.previousY[best] = y; }
    },
    drawOverlay(ctx, view) {
      for (let h = 0; h < s.hunters.length; h++) {
        const he = s.hunters[h], t = s.targets[h];
        line(ctx, view, w.position.x[he], w.position.y[he], w.position.x[t], w.position.y[t], 'rgba(225,87,89,0.5)', 1);
        circle(ctx, view, w.position.x[he], w.position.y[he], s.settings.panicDistance, 'rgba(242,142,43,0.25)', null);
      }
    },
    params: [
      { name: 'panic distance m', min: 1, max: 25, step: 0.5, get: () => s.settings.panicDistance, set: (v) => { s.settings.panicDistance = Number(v); s.configure(); } },
      { name: 'wander jitter rad/√s', min: 0, max: 8, step: 0.1, get: () => s.settings.wanderJitter, set: (v) => { s.settings.wanderJitter = Number(v); s.configure(); } },
      { name: 'feeler look-ahead s', min: 0.2, max: 3, step: 0.1, get: () => s.settings.lookAhead, set: (v) => { s.settings.lookAhead = Number(v); s.configure(); } },
    ],
    info: () => `${s.status!()}\nHunters red (pursuit to the exact intercept), prey teal (wander), orange while evading.\nDrag a hunter with the left button.`,
  };
});
