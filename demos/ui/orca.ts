/**
 * ORCA demos (circle swap, corridor counter-flow, blocks) and their debug view: click an agent to select it; the
 * overlay then shows, in velocity space drawn around the agent (1 m/s = `velScale` metres), the velocity obstacle
 * of each neighbour (the truncated cone of relative velocities that collide within the time horizon, shifted by the
 * neighbour's velocity), the ORCA half-planes of the solve (agent lines orange, obstacle lines red; the permitted
 * side is marked by ticks), the obstacle segments considered, and the preferred (green), current (white) and new
 * (yellow) velocities. The half-planes come from re-running the ORCA kernel for that agent with the same inputs the
 * system uses (k nearest within the neighbour distance, obstacle segments in range) and reading `orcaLastLines`.
 */
import { registerDemo, type DemoInstance, type DemoParam } from '../registry';
import type { ScenarioOptions } from '../scenarios/registry';
import { circleSwapScenario } from '../scenarios/circle-swap';
import { corridorScenario } from '../scenarios/corridor';
import { blocksScenario } from '../scenarios/blocks';
import type { OrcaScenarioInstance } from '../scenarios/orca-scene';
import { orcaComponent, orcaState, setOrcaOptions, setOrcaParams } from '../../components/orca';
import { createOrcaAgent, createOrcaNeighbours, orcaLastLines, orcaShare, orcaVelocity, ORCA_NO_OVERLAP, ORCA_PAPER } from '../../src/avoidance/orca';
import { queryObstacleSegments } from '../../src/avoidance/obstacles';
import { circle, line, sx, sy } from '../draw';
import { speedColor } from '../render-gl';

const _agent = createOrcaAgent();
const _nbrs = createOrcaNeighbours(256);
const _obsIds = new Int32Array(256);
const _obsD2 = new Float64Array(256);
const _lines = new Float64Array(4 * 512);
const _out = { x: 0, y: 0 };

interface Debug { lines: number; obstacleLines: number; obstacleCount: number; status: number; vx: number; vy: number }

/** Re-run the ORCA kernel for `eid` with the system's inputs; fills _nbrs, _obsIds and _lines. */
function solveFor(s: OrcaScenarioInstance, eid: number): Debug {
  const w = s.world;
  const oc = orcaComponent(w);
  const st = orcaState(w);
  const x = w.position.x[eid], y = w.position.y[eid];
  const nd = oc.neighbourDistance[eid], k = Math.min(oc.maxNeighbours[eid], 256);
  // Brute-force k nearest ORCA agents within the neighbour distance (a debug view can afford it).
  const cand: { e: number; d2: number }[] = [];
  for (let i = 0; i < w.agents.count; i++) {
    const o = w.agents.dense[i];
    if (o === eid) continue;
    const dx = w.position.x[o] - x, dy = w.position.y[o] - y, d2 = dx * dx + dy * dy;
    if (d2 < nd * nd) cand.push({ e: o, d2 });
  }
  cand.sort((a, b) => a.d2 - b.d2 || a.e - b.e);
  _nbrs.count = Math.min(k, cand.length);
  for (let i = 0; i < _nbrs.count; i++) {
    const o = cand[i].e;
    _nbrs.x[i] = w.position.x[o]; _nbrs.y[i] = w.position.y[o];
    _nbrs.vx[i] = w.velocity.x[o]; _nbrs.vy[i] = w.velocity.y[o];
    _nbrs.radius[i] = w.agent.radius[o]; _nbrs.share[i] = oc.enabled[o] ? orcaShare(oc.priority[eid], oc.priority[o]) : 1; _nbrs.id[i] = o;
  }
  Object.assign(_agent, {
    x, y, vx: w.velocity.x[eid], vy: w.velocity.y[eid], prefVx: w.preferredVelocity.x[eid], prefVy: w.preferredVelocity.y[eid],
    radius: w.agent.radius[eid], maxSpeed: w.agent.maxSpeed[eid], timeHorizon: oc.timeHorizon[eid], obstacleTimeHorizon: oc.obstacleTimeHorizon[eid], id: eid,
  });
  const range = oc.obstacleTimeHorizon[eid] * w.agent.maxSpeed[eid] + w.agent.radius[eid];
  const obstacleCount = queryObstacleSegments(st.obstacles, x, y, range, _obsIds, _obsD2);
  const status = orcaVelocity(_agent, _nbrs, st.obstacles, _obsIds, obstacleCount, s.dt, _out, st.fallback === 'noOverlap' ? ORCA_NO_OVERLAP : ORCA_PAPER);
  const { lines, obstacleLines } = orcaLastLines(_lines);
  return { lines, obstacleLines, obstacleCount, status, vx: _out.x, vy: _out.y };
}

function arrow(ctx: CanvasRenderingContext2D, view: Parameters<NonNullable<DemoInstance['drawOverlay']>>[1], x0: number, y0: number, x1: number, y1: number, color: string): void {
  line(ctx, view, x0, y0, x1, y1, color, 2);
  circle(ctx, view, x1, y1, 0, null, color, 3);
}

function drawDebug(ctx: CanvasRenderingContext2D, view: Parameters<NonNullable<DemoInstance['drawOverlay']>>[1], s: OrcaScenarioInstance, eid: number, velScale: number): string {
  const w = s.world;
  if (eid < 0 || w.agents.count === 0) return '';
  const d = solveFor(s, eid);
  const x = w.position.x[eid], y = w.position.y[eid];
  const oc = orcaComponent(w);
  const tau = oc.timeHorizon[eid];
  const V = (vx: number, vy: number): [number, number] => [x + vx * velScale, y + vy * velScale];
  // Velocity-space frame: the max-speed circle.
  circle(ctx, view, x, y, w.agent.maxSpeed[eid] * velScale, 'rgba(216,221,230,0.4)', null);
  // Neighbours' truncated VO cones, apex at the neighbour's velocity (velocities of this agent that collide within
  // tau if the neighbour keeps its velocity): relative position p, combined radius R; legs tangent to the disc
  // (p, R), cut off by the disc (p/tau, R/tau).
  ctx.save();
  for (let i = 0; i < _nbrs.count; i++) {
    const px = _nbrs.x[i] - x, py = _nbrs.y[i] - y, R = _nbrs.radius[i] + w.agent.radius[eid];
    const dist = Math.sqrt(px * px + py * py);
    circle(ctx, view, _nbrs.x[i], _nbrs.y[i], _nbrs.radius[i], 'rgba(242,142,43,0.9)', null);
    if (dist <= R) continue; // overlapping: the VO is the whole plane
    const [ax, ay] = V(_nbrs.vx[i], _nbrs.vy[i]);
    const theta = Math.asin(R / dist), base = Math.atan2(py, px);
    const leg = (dist / tau) * 3 + 2 * w.agent.maxSpeed[eid];
    ctx.beginPath();
    ctx.moveTo(sx(view, ax + (px / tau) * velScale), sy(view, ay + (py / tau) * velScale));
    for (const sgn of [1, -1]) {
      const a = base + sgn * theta;
      ctx.moveTo(sx(view, ax + Math.cos(a) * (Math.sqrt(dist * dist - R * R) / tau) * velScale), sy(view, ay + Math.sin(a) * (Math.sqrt(dist * dist - R * R) / tau) * velScale));
      ctx.lineTo(sx(view, ax + Math.cos(a) * leg * velScale), sy(view, ay + Math.sin(a) * leg * velScale));
    }
    ctx.strokeStyle = 'rgba(176,122,161,0.7)';
    ctx.lineWidth = 1;
    ctx.stroke();
    circle(ctx, view, ax + (px / tau) * velScale, ay + (py / tau) * velScale, (R / tau) * velScale, 'rgba(176,122,161,0.7)', null, 1);
  }
  ctx.restore();
  // Obstacle segments considered.
  const obs = orcaState(w).obstacles;
  for (let k = 0; k < d.obstacleCount; k++) {
    const v = _obsIds[k], n = obs.next[v];
    line(ctx, view, obs.x[v], obs.y[v], obs.x[n], obs.y[n], '#e15759', 3);
  }
  // ORCA half-planes: point + t·direction, permitted on the left; ticks on the permitted side.
  const L = 4 * w.agent.maxSpeed[eid];
  for (let i = 0; i < d.lines; i++) {
    const px = _lines[4 * i], py = _lines[4 * i + 1], dx = _lines[4 * i + 2], dy = _lines[4 * i + 3];
    const color = i < d.obstacleLines ? '#e15759' : '#f28e2b';
    const [x0, y0] = V(px - dx * L, py - dy * L), [x1, y1] = V(px + dx * L, py + dy * L);
    line(ctx, view, x0, y0, x1, y1, color, 1.2);
    for (let t = -2; t <= 2; t++) {
      const [tx, ty] = V(px + dx * t * 0.5 * w.agent.maxSpeed[eid], py + dy * t * 0.5 * w.agent.maxSpeed[eid]);
      line(ctx, view, tx, ty, tx - dy * 0.15 * velScale, ty + dx * 0.15 * velScale, color, 1);
    }
  }
  arrow(ctx, view, x, y, ...V(w.preferredVelocity.x[eid], w.preferredVelocity.y[eid]), '#59a14f');
  arrow(ctx, view, x, y, ...V(w.velocity.x[eid], w.velocity.y[eid]), '#d8dde6');
  arrow(ctx, view, x, y, ...V(d.vx, d.vy), '#edc948');
  circle(ctx, view, x, y, w.agent.radius[eid], '#ffffff', null);
  return `selected #${eid}: ${_nbrs.count} neighbours, ${d.obstacleCount} obstacle segments, ${d.lines} half-planes (${d.obstacleLines} obstacle), ${d.status === 0 ? 'feasible' : 'infeasible: fallback'}`;
}

interface OrcaDemoSpec {
  name: string;
  scenario: { create(o: ScenarioOptions): unknown; defaultAgents: number };
  agents: { min: number; max: number; step: number };
  velScale: number;
  info: string;
}

function orcaDemo(spec: OrcaDemoSpec): (seed: number) => DemoInstance {
  return (seed) => {
    let agents = spec.scenario.defaultAgents;
    let s = spec.scenario.create({ agents, seed }) as OrcaScenarioInstance;
    let selected = -1;
    let debugLine = '';
    const orca = { timeHorizon: 0, obstacleTimeHorizon: 0, noOverlap: false, maxNeighbours: 0 };
    const readOrca = () => {
      const e = s.scene.eids[0], oc = orcaComponent(s.world);
      orca.timeHorizon = oc.timeHorizon[e]; orca.obstacleTimeHorizon = oc.obstacleTimeHorizon[e]; orca.maxNeighbours = oc.maxNeighbours[e];
      orca.noOverlap = orcaState(s.world).fallback === 'noOverlap';
    };
    readOrca();
    const applyOrca = () => {
      for (let i = 0; i < s.scene.eids.length; i++) {
        setOrcaParams(s.world, s.scene.eids[i], { timeHorizon: orca.timeHorizon, obstacleTimeHorizon: orca.obstacleTimeHorizon, maxNeighbours: orca.maxNeighbours });
      }
      setOrcaOptions(s.world, { fallback: orca.noOverlap ? 'noOverlap' : 'paper' });
    };
    const rebuild = () => { s = spec.scenario.create({ agents, seed }) as OrcaScenarioInstance; applyOrca(); selected = s.scene.eids[0]; };
    selected = s.scene.eids[0];
    const params: DemoParam[] = [
      { name: 'agents (restarts)', min: spec.agents.min, max: spec.agents.max, step: spec.agents.step, get: () => agents, set: (v) => { agents = Number(v); rebuild(); } },
      { name: 'time horizon s', min: 0.5, max: 20, step: 0.5, get: () => orca.timeHorizon, set: (v) => { orca.timeHorizon = Number(v); applyOrca(); } },
      { name: 'obstacle horizon s', min: 0.25, max: 20, step: 0.25, get: () => orca.obstacleTimeHorizon, set: (v) => { orca.obstacleTimeHorizon = Number(v); applyOrca(); } },
      { name: 'max neighbours', min: 0, max: 40, step: 1, get: () => orca.maxNeighbours, set: (v) => { orca.maxNeighbours = Number(v); applyOrca(); } },
      { name: 'no-overlap contact lines', get: () => orca.noOverlap, set: (v) => { orca.noOverlap = Boolean(v); applyOrca(); } },
      { name: 'clear selection', action: () => { selected = -1; } },
    ];
    return {
      get scenario() { return s; },
      params,
      onPointer(kind, x, y) {
        if (kind !== 'down') return;
        // Select the agent under the pointer (nearest within 3 radii), else clear.
        const w = s.world;
        let best = -1, bd = Infinity;
        for (let i = 0; i < w.agents.count; i++) {
          const e = w.agents.dense[i];
          const d = (w.position.x[e] - x) ** 2 + (w.position.y[e] - y) ** 2;
          if (d < bd) { bd = d; best = e; }
        }
        selected = best >= 0 && bd < (3 * w.agent.radius[best]) ** 2 ? best : -1;
      },
      agentColor: (e) => (e === selected ? 0xffffff : speedColor(s.world, e)),
      drawOverlay(ctx, view) {
        const g = s.goals!();
        for (let i = 0; i < g.length; i += 2) circle(ctx, view, g[i], g[i + 1], 0, 'rgba(225,87,89,0.35)', null, 1.5);
        debugLine = selected >= 0 ? drawDebug(ctx, view, s, selected, spec.velScale) : '';
      },
      info: () => `${s.status!()}\n${spec.info}\nClick an agent to see its velocity obstacles and ORCA half-planes.\n${debugLine}`,
    };
  };
}

registerDemo('Avoidance (ORCA)', 'Circle swap', orcaDemo({
  name: 'Circle swap', scenario: circleSwapScenario, agents: { min: 10, max: 2000, step: 10 }, velScale: 3,
  info: 'Every agent walks to the antipode; reciprocal avoidance resolves the jam in the middle.',
}));
registerDemo('Avoidance (ORCA)', 'Corridor counter-flow', orcaDemo({
  name: 'Corridor counter-flow', scenario: corridorScenario, agents: { min: 2, max: 400, step: 2 }, velScale: 1,
  info: 'Two groups meet head-on in a corridor five radii wide: lanes must form for both to pass.',
}));
registerDemo('Avoidance (ORCA)', 'Blocks (obstacles)', orcaDemo({
  name: 'Blocks', scenario: blocksScenario, agents: { min: 4, max: 400, step: 4 }, velScale: 4,
  info: 'Four groups cross between four blocks to the opposite corners (RVO2 "Blocks"); obstacle half-planes in red.',
}));
