/**
 * `--snapshot out.svg`: a picture of a scenario's state as SVG: obstacles (filled polygons, open polylines), planned
 * paths, goals, and every agent as a circle of its radius coloured by speed. World coordinates are kept (y up, so
 * the drawing group is flipped), which makes the file easy to inspect or diff.
 */
import type { ScenarioInstance } from './scenarios/registry';

function rgbHex(rgb: number): string {
  return '#' + (rgb & 0xffffff).toString(16).padStart(6, '0');
}

function num(v: number): string {
  // 3 decimals (millimetres) keep files small and stable.
  return String(Math.round(v * 1000) / 1000);
}

function points(p: ArrayLike<number>): string {
  const out: string[] = [];
  for (let i = 0; i + 1 < p.length; i += 2) out.push(`${num(p[i])},${num(p[i + 1])}`);
  return out.join(' ');
}

export function snapshotSvg(inst: ScenarioInstance, title: string, widthPx = 1000): string {
  const w = inst.world;
  const b = inst.bounds;
  const margin = 0.03 * Math.max(b.maxX - b.minX, b.maxY - b.minY, 1);
  const x0 = b.minX - margin, y0 = b.minY - margin;
  const bw = b.maxX - b.minX + 2 * margin, bh = b.maxY - b.minY + 2 * margin;
  const heightPx = Math.round((widthPx * bh) / bw);
  const lines: string[] = [];
  lines.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${widthPx}" height="${heightPx}" viewBox="${num(x0)} ${num(-(y0 + bh))} ${num(bw)} ${num(bh)}">`);
  lines.push(`<title>${title.replace(/[<&>]/g, '')}</title>`);
  lines.push(`<rect x="${num(x0)}" y="${num(-(y0 + bh))}" width="${num(bw)}" height="${num(bh)}" fill="#0f1115"/>`);
  lines.push('<g transform="scale(1,-1)">');
  const g = inst.grid;
  if (g) {
    // Blocked cells, merged into horizontal runs (one rect per run keeps big maps small).
    lines.push('<g id="blocked" fill="#3a414d" shape-rendering="crispEdges">');
    for (let y = 0; y < g.height; y++) {
      for (let x = 0; x < g.width; ) {
        if (g.walkable[y * g.width + x] === 1) { x++; continue; }
        let x1 = x;
        while (x1 < g.width && g.walkable[y * g.width + x1] === 0) x1++;
        lines.push(`<rect x="${num(g.originX + x * g.cellSize)}" y="${num(g.originY + y * g.cellSize)}" width="${num((x1 - x) * g.cellSize)}" height="${num(g.cellSize)}"/>`);
        x = x1;
      }
    }
    lines.push('</g>');
  }
  lines.push('<g id="obstacles" stroke="#8a93a3" stroke-width="1.5" vector-effect="non-scaling-stroke">');
  for (const o of inst.obstacles) {
    if (o.closed) lines.push(`<polygon points="${points(o.points)}" fill="#8a93a3" fill-opacity="0.25" vector-effect="non-scaling-stroke"/>`);
    else lines.push(`<polyline points="${points(o.points)}" fill="none" vector-effect="non-scaling-stroke"/>`);
  }
  lines.push('</g>');
  const paths = inst.paths?.() ?? [];
  lines.push(`<g id="paths" stroke="#edc948" stroke-width="1" fill="none" stroke-opacity="0.8">`);
  for (const p of paths) if (p.length >= 4) lines.push(`<polyline points="${points(p)}" vector-effect="non-scaling-stroke"/>`);
  lines.push('</g>');
  const goals = inst.goals?.() ?? [];
  const gr = Math.max(bw, bh) / 150;
  lines.push('<g id="goals" fill="none" stroke="#e15759" stroke-width="2">');
  for (let i = 0; i + 1 < goals.length; i += 2) lines.push(`<circle cx="${num(goals[i])}" cy="${num(goals[i + 1])}" r="${num(gr)}" vector-effect="non-scaling-stroke"/>`);
  lines.push('</g>');
  lines.push('<g id="agents">');
  const { dense, count } = w.agents;
  for (let i = 0; i < count; i++) {
    const e = dense[i];
    const vx = w.velocity.x[e], vy = w.velocity.y[e];
    const s = Math.min(1, Math.sqrt(vx * vx + vy * vy) / Math.max(1e-6, w.agent.maxSpeed[e]));
    const rgb = (((80 + 175 * s) & 255) << 16) | (((160 + 60 * (1 - s)) & 255) << 8) | 230;
    lines.push(`<circle cx="${num(w.position.x[e])}" cy="${num(w.position.y[e])}" r="${num(w.agent.radius[e])}" fill="${rgbHex(rgb)}"/>`);
  }
  lines.push('</g></g></svg>');
  return lines.join('\n') + '\n';
}
