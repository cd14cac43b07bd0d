/** Murmuration demo: boids with a metric/topological switch and a predator under the pointer. */
import { registerDemo } from '../registry';
import { createMurmuration } from '../scenarios/murmuration';
import { circle } from '../draw';
import { headingColor } from './color';

registerDemo('Boids', 'Murmuration', (seed) => {
  const s = createMurmuration({ agents: 3000, seed });
  const w = s.world;
  const set = (key: keyof typeof s.boids) => (v: number | string | boolean) => { (s.boids as Record<string, unknown>)[key] = v; s.configure(); };
  return {
    scenario: s,
    agentColor: (e) => headingColor(w.velocity.x[e], w.velocity.y[e]),
    onPointer(kind, x, y, buttons) {
      s.predator.active = kind !== 'up' && (buttons & 1) === 1;
      s.predator.x = x;
      s.predator.y = y;
    },
    drawOverlay(ctx, view) {
      circle(ctx, view, 0, 0, s.arenaRadius, 'rgba(138,147,163,0.35)', null);
      if (s.predator.active) {
        circle(ctx, view, s.predator.x, s.predator.y, s.predator.fearRadius, 'rgba(225,87,89,0.6)', null);
        circle(ctx, view, s.predator.x, s.predator.y, 1.2, null, '#e15759', 4);
      }
    },
    params: [
      { name: 'neighbourhood', options: ['topological', 'metric'], get: () => s.boids.mode, set: set('mode') },
      { name: 'k (topological)', min: 1, max: 30, step: 1, get: () => s.boids.k, set: set('k') },
      { name: 'radius m (metric / cap)', min: 1, max: 20, step: 0.5, get: () => s.boids.radius, set: set('radius') },
      { name: 'separation m³/s²', min: 0, max: 3, step: 0.05, get: () => s.boids.separation, set: set('separation') },
      { name: 'alignment 1/s', min: 0, max: 8, step: 0.1, get: () => s.boids.alignment, set: set('alignment') },
      { name: 'cohesion 1/s²', min: 0, max: 2, step: 0.05, get: () => s.boids.cohesion, set: set('cohesion') },
      { name: 'predator fear radius m', min: 2, max: 50, step: 1, get: () => s.predator.fearRadius, set: (v) => { s.predator.fearRadius = Number(v); } },
    ],
    info: () => `${s.status!()}. Hold the left button to be a predator; switch metric ↔ topological and cut the flock.\nColour: heading.`,
  };
});
