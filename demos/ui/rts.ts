/**
 * RTS squad move demo: left click orders the squad (an optimal navmesh path, string-pulled, followed in formation);
 * right-drag or shift-drag draws a new building (both navmeshes are rebuilt, townsfolk re-plan, the squad re-paths).
 * Overlay: the squad's path, each member's slot, each townsperson's next corner, and optionally a navmesh.
 */
import { registerDemo } from '../registry';
import { createRts } from '../scenarios/rts';
import { getFormation } from '../../systems/formation';
import { corridorComponent, NAV_FOLLOWING } from '../../components/corridor';
import { FORMATION_SHAPE_NAMES } from '../../src/formation/slots';
import { circle, line, strokePolyline, sx, sy } from '../draw';

registerDemo('Navmesh + formations', 'RTS squad move', (seed) => {
  const s = createRts({ agents: 60, seed });
  const w = s.world;
  const corridor = corridorComponent(w);
  const memberSet = new Set(Array.from(s.members));
  let drag: { x0: number; y0: number; x1: number; y1: number } | null = null;
  let showMesh: 'none' | 'squad' | 'townsfolk' = 'none';
  let note = '';
  return {
    scenario: s,
    agentColor: (e) => (memberSet.has(e) ? 0x4e79a7 : 0xbab0ac),
    onPointer(kind, x, y, buttons, shift) {
      if (kind === 'down' && (buttons & 2 || shift)) { drag = { x0: x, y0: y, x1: x, y1: y }; return; }
      if (drag) {
        drag.x1 = x; drag.y1 = y;
        if (kind === 'up') {
          const ok = s.addBuilding(drag.x0, drag.y0, drag.x1, drag.y1);
          note = ok ? 'building added: navmeshes rebuilt' : 'building rejected (too small, or it would break the map)';
          drag = null;
        }
        return;
      }
      if (kind === 'down' && buttons & 1) {
        s.autoPatrol = false;
        const st = s.orderSquad(x, y);
        note = st === 'found' ? '' : `order: ${st} (the squad cannot fit there)`;
      }
    },
    drawOverlay(ctx, view) {
      if (showMesh !== 'none') {
        const m = showMesh === 'squad' ? s.meshes().squad : s.meshes().folk;
        ctx.beginPath();
        for (let t = 0; t < m.triangleCount; t++) {
          for (let k = 0; k < 3; k++) {
            const a = m.triangles[3 * t + k], b = m.triangles[3 * t + ((k + 1) % 3)];
            ctx.moveTo(sx(view, m.vertices[2 * a]), sy(view, m.vertices[2 * a + 1]));
            ctx.lineTo(sx(view, m.vertices[2 * b]), sy(view, m.vertices[2 * b + 1]));
          }
        }
        ctx.strokeStyle = 'rgba(118,183,178,0.35)';
        ctx.lineWidth = 1;
        ctx.stroke();
      }
      // Townsfolk: a line to the next corner of their string-pulled corridor.
      for (let i = 0; i < s.folk.length; i++) {
        const e = s.folk[i];
        if (corridor.state[e] === NAV_FOLLOWING) line(ctx, view, w.position.x[e], w.position.y[e], corridor.cornerX[e], corridor.cornerY[e], 'rgba(186,176,172,0.35)', 1);
      }
      const p = s.squadPath();
      if (p.length >= 4) strokePolyline(ctx, view, p, p.length / 2, false, '#edc948', 2);
      // Formation slots in world space: anchor + rotation of the local (forward, left) offsets.
      const g = getFormation(w, s.squad);
      const a = g.anchor;
      for (let i = 0; i < g.count; i++) {
        const fx = g.slots[2 * i], fy = g.slots[2 * i + 1];
        circle(ctx, view, a.x + a.hx * fx - a.hy * fy, a.y + a.hy * fx + a.hx * fy, 0.15, 'rgba(78,121,167,0.9)', null, 1.5);
      }
      circle(ctx, view, a.x, a.y, 0.3, null, '#edc948', 3);
      if (drag) {
        ctx.strokeStyle = '#e15759';
        ctx.setLineDash([4, 3]);
        ctx.strokeRect(sx(view, Math.min(drag.x0, drag.x1)), sy(view, Math.max(drag.y0, drag.y1)), Math.abs(drag.x1 - drag.x0) * view.scale, Math.abs(drag.y1 - drag.y0) * view.scale);
        ctx.setLineDash([]);
      }
    },
    params: [
      { name: 'formation', options: FORMATION_SHAPE_NAMES.slice(), get: () => FORMATION_SHAPE_NAMES[getFormation(w, s.squad).shape], set: (v) => s.setShape(String(v)) },
      { name: 'patrol when idle', get: () => s.autoPatrol, set: (v) => { s.autoPatrol = Boolean(v); } },
      { name: 'show navmesh', options: ['none', 'squad', 'townsfolk'], get: () => showMesh, set: (v) => { showMesh = v as typeof showMesh; } },
    ],
    info: () => `${s.status!()}\nLeft click: order the squad (blue). Right/shift-drag: draw a building.\n${note}`,
  };
});
