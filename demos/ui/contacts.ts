/**
 * Contacts viewer. Left: the contacts scenario (a crowd shoved into a walled funnel, kept apart only by the
 * contacts system), with each contact's normal drawn from the world's contact buffer. Right: two shapes to drag
 * (left button moves the one under the pointer, right button or shift rotates it) with their contact manifold:
 * contact points, the normal from A to B, the depth (negative within the speculative margin), the exact contact
 * interval of two sharp polygons, and the GJK/EPA iteration counts.
 */
import { registerDemo } from '../registry';
import { createContacts, shapeOutline } from '../scenarios/contacts';
import { boxShape2, circleShape, createPose2, polygonShape, setPose2, type Shape2 } from '../../src/collision/shapes2d';
import { contactManifold2, createGjkCache2, createManifold2, createManifold2Input, lastContactRegion2 } from '../../src/collision/manifold2d';
import { getContacts } from '../../systems/contacts';
import { agentShapeComponent, agentShapeTable } from '../../components/shape';
import { circle, label, line, strokePolyline, sx, sy } from '../draw';

const KINDS = ['circle', 'box', 'rounded box', 'triangle', 'hexagon', 'capsule'] as const;
type Kind = (typeof KINDS)[number];

function makeShape(kind: Kind): Shape2 {
  switch (kind) {
    case 'circle': return circleShape(3);
    case 'box': return boxShape2(3.6, 2.2);
    case 'rounded box': return boxShape2(2.8, 1.6, 0.8);
    case 'triangle': return polygonShape([-3.2, -2.4, 3.6, -1.2, -0.8, 3.4]);
    case 'hexagon': {
      const p: number[] = [];
      for (let k = 0; k < 6; k++) p.push(3 * Math.cos((Math.PI * k) / 3), 3 * Math.sin((Math.PI * k) / 3));
      return polygonShape(p);
    }
    case 'capsule': return boxShape2(2.8, 0.04, 1.4);
  }
}

/** Fill and stroke a (rounded) shape at pose (x, y, angle). Rounded polygons: the core stroked with round joins. */
function drawShape(ctx: CanvasRenderingContext2D, view: Parameters<typeof sx>[0], shape: Shape2, x: number, y: number, angle: number, color: string): void {
  if (shape.kind === 'circle') { circle(ctx, view, x, y, shape.radius, color, color.replace(')', ',0.18)').replace('rgb', 'rgba')); return; }
  const pts = shapeOutline(shape, x, y, angle);
  ctx.save();
  ctx.lineJoin = 'round';
  ctx.beginPath();
  for (let i = 0; i < pts.length; i += 2) { if (i === 0) ctx.moveTo(sx(view, pts[i]), sy(view, pts[i + 1])); else ctx.lineTo(sx(view, pts[i]), sy(view, pts[i + 1])); }
  ctx.closePath();
  if (shape.radius > 0) {
    ctx.lineWidth = 2 * shape.radius * view.scale;
    ctx.strokeStyle = color.replace(')', ',0.25)').replace('rgb', 'rgba');
    ctx.stroke();
  }
  ctx.fillStyle = color.replace(')', ',0.18)').replace('rgb', 'rgba');
  ctx.fill();
  ctx.lineWidth = 1.5;
  ctx.strokeStyle = color;
  ctx.stroke();
  ctx.restore();
}

registerDemo('Contacts', 'Contacts viewer', (seed) => {
  const s = createContacts({ agents: 500, seed });
  const w = s.world;
  // The viewer's area is east of the crowd's.
  const scenario = { ...s, bounds: { minX: s.bounds.minX, minY: s.bounds.minY, maxX: 36, maxY: s.bounds.maxY } };
  const pair = {
    kindA: 'box' as Kind, kindB: 'hexagon' as Kind, margin: 0.5,
    a: { x: 21, y: 1.5, angle: 0.3 }, b: { x: 26, y: -1, angle: 0.1 },
  };
  let shapeA = makeShape(pair.kindA), shapeB = makeShape(pair.kindB);
  const poseA = createPose2(), poseB = createPose2();
  const manifold = createManifold2();
  const cache = createGjkCache2();
  const region = new Float64Array(4);
  let drag: { body: typeof pair.a; rotate: boolean; lastX: number; lastY: number; angle0: number } | null = null;
  let showCrowdContacts = true;

  return {
    scenario,
    agentColor: (e) => (agentShapeComponent(w).shape[e] >= 0 ? 0xf28e2b : 0x76b7b2),
    onPointer(kind, x, y, buttons, shift) {
      if (kind === 'down') {
        const da = Math.hypot(x - pair.a.x, y - pair.a.y), db = Math.hypot(x - pair.b.x, y - pair.b.y);
        const body = da <= db ? (da < shapeA.boundingRadius + 0.5 ? pair.a : null) : (db < shapeB.boundingRadius + 0.5 ? pair.b : null);
        if (body) drag = { body, rotate: (buttons & 2) !== 0 || shift, lastX: x, lastY: y, angle0: Math.atan2(y - body.y, x - body.x) };
        return;
      }
      if (kind === 'up') { drag = null; return; }
      if (!drag) return;
      if (drag.rotate) {
        const a = Math.atan2(y - drag.body.y, x - drag.body.x);
        drag.body.angle += a - drag.angle0;
        drag.angle0 = a;
      } else {
        drag.body.x += x - drag.lastX;
        drag.body.y += y - drag.lastY;
      }
      drag.lastX = x; drag.lastY = y;
    },
    drawOverlay(ctx, view) {
      // Crowd: box agents' outlines, and each contact's normal at its first point.
      const shapes = agentShapeComponent(w), table = agentShapeTable(w);
      for (let i = 0; i < w.agents.count; i++) {
        const e = w.agents.dense[i];
        const k = shapes.shape[e];
        if (k >= 0) strokePolyline(ctx, view, shapeOutline(table[k], w.position.x[e], w.position.y[e], shapes.angle[e]), table[k].count, true, '#f28e2b', 1);
      }
      if (showCrowdContacts) {
        const c = getContacts(w);
        ctx.beginPath();
        for (let i = 0; i < c.count; i++) {
          const x0 = c.px0[i], y0 = c.py0[i];
          ctx.moveTo(sx(view, x0), sy(view, y0));
          ctx.lineTo(sx(view, x0 + c.nx[i] * 0.5), sy(view, y0 + c.ny[i] * 0.5));
        }
        ctx.strokeStyle = 'rgba(225,87,89,0.8)';
        ctx.lineWidth = 1;
        ctx.stroke();
      }
      // The pair viewer.
      setPose2(poseA, pair.a.x, pair.a.y, pair.a.angle);
      setPose2(poseB, pair.b.x, pair.b.y, pair.b.angle);
      contactManifold2(createManifold2Input(shapeA, poseA, shapeB, poseB, pair.margin), manifold, cache);
      const touching = manifold.count > 0 && manifold.depth > 0;
      drawShape(ctx, view, shapeA, pair.a.x, pair.a.y, pair.a.angle, touching ? 'rgb(225,87,89)' : 'rgb(78,121,167)');
      drawShape(ctx, view, shapeB, pair.b.x, pair.b.y, pair.b.angle, touching ? 'rgb(225,87,89)' : 'rgb(89,161,79)');
      label(ctx, view, pair.a.x, pair.a.y, 'A');
      label(ctx, view, pair.b.x, pair.b.y, 'B');
      if (lastContactRegion2(region) === 2) line(ctx, view, region[0], region[1], region[2], region[3], 'rgba(237,201,72,0.6)', 6);
      for (let k = 0; k < manifold.count; k++) {
        const px = manifold.points[2 * k], py = manifold.points[2 * k + 1];
        circle(ctx, view, px, py, 0, '#0f1115', '#edc948', 4);
        line(ctx, view, px, py, px + manifold.normal[0] * 2.5, py + manifold.normal[1] * 2.5, '#edc948', 2);
        label(ctx, view, px, py, `${manifold.depths[k] >= 0 ? 'depth' : 'gap'} ${Math.abs(manifold.depths[k]).toFixed(3)} m`, '#edc948');
      }
      label(ctx, view, 15, -10, 'drag A or B (right/shift-drag rotates)', '#9aa4b2');
    },
    params: [
      { name: 'shape A', options: KINDS.slice(), get: () => pair.kindA, set: (v) => { pair.kindA = v as Kind; shapeA = makeShape(pair.kindA); cache.valid = false; } },
      { name: 'shape B', options: KINDS.slice(), get: () => pair.kindB, set: (v) => { pair.kindB = v as Kind; shapeB = makeShape(pair.kindB); cache.valid = false; } },
      { name: 'speculative margin m', min: 0, max: 3, step: 0.05, get: () => pair.margin, set: (v) => { pair.margin = Number(v); } },
      { name: 'crowd push speed m/s', min: 0, max: 3, step: 0.1, get: () => s.push.speed, set: (v) => { s.push.speed = Number(v); } },
      { name: 'crowd contact normals', get: () => showCrowdContacts, set: (v) => { showCrowdContacts = Boolean(v); } },
    ],
    info: () => {
      const m = manifold;
      const pairLine = m.count === 0
        ? 'A, B: apart (beyond the margin)'
        : `A, B: ${m.count} point${m.count > 1 ? 's' : ''}, normal (${m.normal[0].toFixed(3)}, ${m.normal[1].toFixed(3)}), ${m.depth >= 0 ? `depth ${m.depth.toFixed(3)}` : `gap ${(-m.depth).toFixed(3)}`} m; GJK ${m.gjkIterations} it, EPA ${m.epaIterations} it`;
      return `${s.status!()}\nCrowd: discs teal, boxes orange; red ticks are contact normals.\n${pairLine}`;
    },
  };
});
