/**
 * ORCA: Optimal Reciprocal Collision Avoidance for one agent (van den Berg, Guy, Lin, Manocha, "Reciprocal n-body
 * collision avoidance", Robotics Research (ISRR 2009), Springer 2011). Pure and world-free.
 *
 * Velocity obstacle. Agents A and B (radii rA, rB, relative position p = pB - pA) collide within time tau if the
 * relative velocity v = vA - vB lies in VO = { v : exists t in [0, tau], |t v - p| < rA + rB }, a cone with apex 0
 * whose legs are tangent to the disc D(p, R) (R = rA + rB), truncated by the disc D(p / tau, R / tau) (the
 * "cut-off circle"). Let u be the smallest vector taking v to the VO boundary and n its outward normal. ORCA gives
 * A the half-plane { v' : (v' - (vA + s u)) . n >= 0 }, where s is A's share of the avoidance (1/2 in the paper;
 * here a per-pair split from priorities, see `orcaShare`). B gets the mirror half-plane with share 1 - s, so
 * together they remove the collision.
 *
 * Closest boundary point (section 5.1, case analysis of w = v - p / tau, the vector from the cut-off centre to v):
 *  - w points back towards the apex (w . p < 0) and its angle to -p is inside the cone's half-angle
 *    ((w . p)^2 > R^2 |w|^2): v projects onto the cut-off circle: n = w / |w|, u = (R / tau - |w|) n;
 *  - otherwise it projects onto the leg on the side of w (det(p, w) > 0: left leg). A leg's direction is p rotated
 *    by the tangent angle: with leg = sqrt(|p|^2 - R^2), left = (p.x leg - p.y R, p.x R + p.y leg) / |p|^2,
 *    right = -(p.x leg + p.y R, -p.x R + p.y leg) / |p|^2 (negated so that the permitted side is always on the
 *    left of the line direction); u = (v . d) d - v.
 *  - Already overlapping (|p| <= R): use the cut-off circle of one time step instead of tau (resolve the overlap
 *    within the next step): w = v - p / dt, u = (R / dt - |w|) w / |w|.
 *
 * Obstacles (section 6): a static segment cannot reciprocate, so it takes none of the avoidance and its line goes
 * through the VO boundary point itself (share 1), with the obstacle's own time horizon. The VO of a segment
 * [a, b] is the Minkowski sum of the segment (scaled by 1/tau) with the disc of the agent's radius, bounded by the
 * legs tangent at the end vertices; a reflex (non-convex) end vertex is hidden by its neighbouring edge, so the
 * leg there continues the edge instead, and a leg that would point into the neighbouring edge is replaced by that
 * edge ("foreign" leg: projecting onto it adds no constraint, the neighbouring segment's own line covers it).
 * Obstacle lines go first and are hard in the fallback; a segment whose VO is already outside the permitted region
 * of earlier obstacle lines (both cut-off centres at least r / tau inside them) is skipped.
 *
 * Then the 2D linear program (src/avoidance/lp.ts) finds the permitted velocity closest to the preferred one, and
 * if the lines are infeasible, the 3D program minimises the largest agent-line violation.
 *
 * The module owns preallocated line buffers that grow (by doubling) only when a call needs more lines than ever
 * before: no allocation per call in steady state. Not re-entrant (single-threaded JS makes that moot; a worker gets
 * its own module instance).
 */
import { InvalidArgumentError, OutOfRangeError } from '../core/errors';
import { requireFinite, requireInteger, requireNonNegative, requirePositive } from '../core/validate';
import { LINE_STRIDE, linearProgram2At, linearProgram3At } from './lp';
import type { ObstacleSet } from './obstacles';

/** The subject agent of one ORCA solve. Create once with `createOrcaAgent` and overwrite the fields per agent. */
export interface OrcaAgent {
  /** Position, metres. */
  x: number;
  y: number;
  /** Current velocity, metres per second. */
  vx: number;
  vy: number;
  /** Preferred velocity (where it wants to go), metres per second. */
  prefVx: number;
  prefVy: number;
  /** Body radius, metres (> 0). */
  radius: number;
  /** Speed limit, metres per second (>= 0). */
  maxSpeed: number;
  /** Look-ahead for agents, seconds (> 0). Larger = earlier, gentler avoidance, but less freedom in crowds. */
  timeHorizon: number;
  /** Look-ahead for static obstacles, seconds (> 0). */
  obstacleTimeHorizon: number;
  /** Any integer identity; used only to break the tie of exactly coincident agents antisymmetrically. */
  id: number;
}

/**
 * Neighbour agents as structure-of-arrays; entries [0, count) are used, in the given order (nearest first).
 * `share[k]` is the fraction of the pair's avoidance this agent takes against neighbour k, in [0, 1]: 0.5 for the
 * paper's reciprocity (the default), `orcaShare(myPriority, theirPriority)` for prioritised pairs, 1 against a
 * neighbour that does not avoid (a non-ORCA unit, a player).
 */
export interface OrcaNeighbours {
  count: number;
  x: Float64Array;
  y: Float64Array;
  vx: Float64Array;
  vy: Float64Array;
  radius: Float64Array;
  share: Float64Array;
  id: Int32Array;
}

/** Caller-owned result. */
export interface OrcaOutput {
  /** New velocity, metres per second. */
  x: number;
  y: number;
}

/** orcaVelocity found a velocity satisfying every half-plane. */
export const ORCA_FEASIBLE = 0;
/** The half-planes were infeasible (dense crowd): the least-violating velocity was returned (3D fallback). */
export const ORCA_FALLBACK = 1;
/** ORCA_NO_OVERLAP only: even the hard lines (obstacles and contacts) were infeasible; contacts were made soft. */
export const ORCA_FALLBACK_SOFT_CONTACT = 2;

/** Fallback of the paper (section 5.3): obstacle lines hard, the largest agent-line violation minimised. */
export const ORCA_PAPER = 0;
/**
 * ORCA plus hard "contact lines" that keep bodies from overlapping at the next step, for every neighbour pair.
 *
 * Why: ORCA's guarantee (no collision within tau) holds only while every agent's half-planes are feasible. In dense
 * crowds they are not, and the paper's fallback (minimise the largest violation) lets bodies overlap: RVO2 itself
 * overlaps by 0.39 m (radius 1.5 m) in a 100-agent circle swap and 0.66 m in its own 250-agent Circle example
 * (measured here, 2026-11-29). A game wants bodies never to interpenetrate.
 *
 * The contact line for neighbour B at unit direction n = (pB - pA) / |pB - pA|, gap g = |pB - pA| - (rA + rB) and
 * share s (this agent's part, as for the ORCA lines): A may approach B along n by at most s * max(g, 0) / dt,
 *     vA' . n <= s * max(g, 0) / dt.
 * B, with share 1 - s, has the mirror line -vB' . n <= (1 - s) * max(g, 0) / dt. Summed, the relative approach
 * along n is at most g / dt, so the projection of the separation onto n, which moves linearly, stays >= rA + rB for
 * the whole step, and the distance, which is at least that projection, too: no overlap at any time of the step
 * (and an existing overlap never deepens). Each line admits v' = 0, so the contact lines alone are always feasible
 * (an agent can always stop). With s = 1 (the neighbour does not avoid) the line assumes the neighbour keeps its
 * velocity: vA' . n <= g / dt + vB . n. With s = 0 (this agent never yields) no line is added: the other side
 * accounts for our current velocity. A line is skipped when it cannot bind (its bound >= max speed).
 *
 * The contact lines are hard, like the obstacle lines; ORCA lines that conflict with them are handled by the
 * paper's fallback (minimise the largest violation of the ORCA lines subject to the hard lines). Feasible solutions
 * differ from the paper's only when a contact line binds, i.e. when ORCA would close a near gap faster than this
 * agent's share allows. Guarantee limits: both agents of a pair must see each other (k-nearest lists are not
 * symmetric; a pair within reach of one step is among the nearest few in practice), velocities must be applied as
 * computed (infinite maxAccel, as in RVO2), and the hard lines must be feasible together (an agent pressed against
 * a wall by a non-avoiding unit may not be able to satisfy both; then only the obstacle lines stay hard, reported as
 * ORCA_FALLBACK_SOFT_CONTACT).
 */
export const ORCA_NO_OVERLAP = 1;

/** A fresh agent record with the defaults (radius 0.5 m, max speed 1 m/s, horizons 5 s). */
export function createOrcaAgent(): OrcaAgent {
  return { x: 0, y: 0, vx: 0, vy: 0, prefVx: 0, prefVy: 0, radius: 0.5, maxSpeed: 1, timeHorizon: 5, obstacleTimeHorizon: 5, id: 0 };
}

/** A neighbour list with room for `capacity` agents. */
export function createOrcaNeighbours(capacity: number): OrcaNeighbours {
  requireInteger('capacity', capacity, 0, 1 << 24);
  return {
    count: 0,
    x: new Float64Array(capacity),
    y: new Float64Array(capacity),
    vx: new Float64Array(capacity),
    vy: new Float64Array(capacity),
    radius: new Float64Array(capacity),
    share: new Float64Array(capacity).fill(0.5),
    id: new Int32Array(capacity),
  };
}

/**
 * The fraction of a pair's avoidance that agent i takes against agent j, from their priorities: a higher priority
 * yields less. share = pj / (pi + pj), so equal priorities split 1/2 - 1/2 (the paper's reciprocity); priority
 * Infinity never yields (share 0) and its partner takes all (share 1); two equal priorities (both 0, both
 * Infinity) split evenly. Shares of i vs j and j vs i always sum to 1.
 */
export function orcaShare(pi: number, pj: number): number {
  if (pi === pj) return 0.5;
  if (pj === Infinity) return 1;
  if (pi === Infinity) return 0;
  return pj / (pi + pj);
}

/** Tolerance (velocity units) of the "segment already covered by earlier obstacle lines" test. */
const COVER_EPSILON = 1e-5;

// ---- module scratch (owned by orcaVelocity) ----
let _orcaLines = new Float64Array(64 * LINE_STRIDE);
let _orcaProj = new Float64Array(64 * LINE_STRIDE);
const _orcaResult = new Float64Array(2);
/** The step dt for obstacleLines (a double passed to a call V8 does not inline is boxed: 16 bytes per agent). */
const _orcaDt = new Float64Array(1);
const _orcaLpArgs = new Float64Array(3);
let _orcaLineCount = 0;
let _orcaObstacleLineCount = 0;

function ensureLineCapacity(lines: number): void {
  if (lines * LINE_STRIDE <= _orcaLines.length) return;
  let cap = _orcaLines.length / LINE_STRIDE;
  while (cap < lines) cap *= 2;
  _orcaLines = new Float64Array(cap * LINE_STRIDE);
  if (_orcaProj.length < cap * LINE_STRIDE) _orcaProj = new Float64Array(cap * LINE_STRIDE);
}

/**
 * The new velocity of `agent` given its neighbour agents, the obstacle segments `obstacleIds[0..obstacleCount)`
 * of `obstacles` (vertex ids, segment v -> next[v], nearest first as `queryObstacleSegments` returns them) and the
 * time step `dt` (seconds). Writes the velocity into `out` and returns ORCA_FEASIBLE, ORCA_FALLBACK or ORCA_FALLBACK_SOFT_CONTACT.
 *
 * Validates every input (InvalidArgumentError naming the field): radius, horizons and dt must be > 0, speeds
 * finite, shares in [0, 1]. The ORCA system validates at spawn/parameter time and calls `orcaVelocityUnchecked`.
 */
export function orcaVelocity(
  agent: OrcaAgent, neighbours: OrcaNeighbours, obstacles: ObstacleSet | null,
  obstacleIds: Int32Array, obstacleCount: number, dt: number, out: OrcaOutput, mode = ORCA_PAPER,
): number {
  if (mode !== ORCA_PAPER && mode !== ORCA_NO_OVERLAP) throw new InvalidArgumentError('mode', mode, 'must be ORCA_PAPER or ORCA_NO_OVERLAP');
  requireFinite('agent.x', agent.x);
  requireFinite('agent.y', agent.y);
  requireFinite('agent.vx', agent.vx);
  requireFinite('agent.vy', agent.vy);
  requireFinite('agent.prefVx', agent.prefVx);
  requireFinite('agent.prefVy', agent.prefVy);
  requirePositive('agent.radius', agent.radius);
  requireNonNegative('agent.maxSpeed', agent.maxSpeed);
  requirePositive('agent.timeHorizon', agent.timeHorizon);
  requirePositive('agent.obstacleTimeHorizon', agent.obstacleTimeHorizon);
  requirePositive('dt', dt);
  const n = neighbours.count;
  requireInteger('neighbours.count', n, 0, neighbours.x.length);
  for (let k = 0; k < n; k++) {
    // Test first, name the field only on failure (no string building per neighbour on the good path).
    const nx = neighbours.x[k], ny = neighbours.y[k], nvx = neighbours.vx[k], nvy = neighbours.vy[k];
    const nr = neighbours.radius[k], sh = neighbours.share[k];
    if (Number.isFinite(nx) && Number.isFinite(ny) && Number.isFinite(nvx) && Number.isFinite(nvy) && nr > 0 && Number.isFinite(nr) && sh >= 0 && sh <= 1) continue;
    requireFinite(`neighbours.x[${k}]`, nx);
    requireFinite(`neighbours.y[${k}]`, ny);
    requireFinite(`neighbours.vx[${k}]`, nvx);
    requireFinite(`neighbours.vy[${k}]`, nvy);
    requirePositive(`neighbours.radius[${k}]`, nr);
    throw new InvalidArgumentError(`neighbours.share[${k}]`, sh, 'must be between 0 and 1');
  }
  requireInteger('obstacleCount', obstacleCount, 0, obstacleIds.length);
  if (obstacleCount > 0) {
    if (obstacles === null) throw new InvalidArgumentError('obstacles', obstacles, 'obstacleCount > 0 needs an obstacle set');
    for (let k = 0; k < obstacleCount; k++) {
      const v = obstacleIds[k];
      if (!(v >= 0 && v < obstacles.vertexCount)) throw new OutOfRangeError(`obstacleIds[${k}]`, v, `must be a vertex id in [0, ${obstacles.vertexCount})`);
    }
  }
  return orcaVelocityUnchecked(agent, neighbours, obstacles, obstacleIds, obstacleCount, dt, out, mode);
}

/**
 * `orcaVelocity` without argument checks, for callers that validated at spawn/parameter time (the ORCA system).
 * Garbage in, garbage out: only use it with inputs that `orcaVelocity` would accept.
 */
export function orcaVelocityUnchecked(
  agent: OrcaAgent, neighbours: OrcaNeighbours, obstacles: ObstacleSet | null,
  obstacleIds: Int32Array, obstacleCount: number, dt: number, out: OrcaOutput, mode = ORCA_PAPER,
): number {
  const noOverlap = mode === ORCA_NO_OVERLAP;
  const nAgents = neighbours.count;
  ensureLineCapacity((noOverlap ? 2 : 1) * nAgents + obstacleCount);
  const lines = _orcaLines;
  let nl = 0;

  // ---- obstacle half-planes (hard) ----
  if (obstacleCount > 0 && obstacles !== null) {
    _orcaDt[0] = dt;
    nl = obstacleLines(lines, agent, obstacles, obstacleIds, obstacleCount);
  }
  const numObstLines = nl;

  // ---- contact lines (ORCA_NO_OVERLAP only; hard, like the obstacle lines) ----
  if (noOverlap) nl = contactLines(lines, nl, agent, neighbours, dt);
  const numHard = nl;

  // ---- agent half-planes ----
  nl = agentLines(lines, nl, agent, neighbours, dt);

  // ---- linear programs ----
  const res = _orcaResult;
  let status = ORCA_FEASIBLE;
  // Speed limit and preferred velocity go to the programs in a Float64Array (doubles passed as arguments would be
  // boxed).
  const lp = _orcaLpArgs;
  lp[0] = agent.maxSpeed;
  lp[1] = agent.prefVx;
  lp[2] = agent.prefVy;
  const fail = linearProgram2At(lines, nl, lp, false, res);
  if (fail < nl) {
    status = ORCA_FALLBACK;
    if (fail >= numHard) {
      linearProgram3At(lines, nl, numHard, fail, lp, _orcaProj, res);
    } else {
      linearProgram3At(lines, nl, numObstLines, fail, lp, _orcaProj, res);
      status = ORCA_FALLBACK_SOFT_CONTACT;
    }
  }
  _orcaLineCount = nl;
  _orcaObstacleLineCount = numObstLines;
  out.x = res[0];
  out.y = res[1];
  return status;
}

/**
 * Contact lines keep the gap at least (CONTACT_SKIN - 1) * (rA + rB) (0.1 % of the summed radii): bodies that
 * end a step exactly touching would, after round-off, count as overlapping and trigger ORCA's one-step separation
 * line, which is usually infeasible in a crowd.
 */
const CONTACT_SKIN = 1.001;
/**
 * Smallest squared length whose square root is accurate to full double precision: 2^-1022 · 2^52 = 2^-970 (below
 * 2^-1022 a square is subnormal and keeps fewer than 52 significant bits). Squared lengths below it are normalised
 * by rescaling first.
 */
const MIN_ACCURATE_SQ = 1.0020841800044864e-292; // 2^-970
/** ORCA_NO_OVERLAP's contact lines (see there) from line index `nl`; returns the new line count. */
function contactLines(lines: Float64Array, nl: number, agent: OrcaAgent, neighbours: OrcaNeighbours, dt: number): number {
  const n = neighbours.count;
  const px = agent.x, py = agent.y, radius = agent.radius, vmax = agent.maxSpeed;
  const invDt = 1 / dt;
  const nX = neighbours.x, nY = neighbours.y, nVx = neighbours.vx, nVy = neighbours.vy, nR = neighbours.radius, nS = neighbours.share;
  for (let k = 0; k < n; k++) {
    const s = nS[k];
    if (s === 0) continue;
    const dx = nX[k] - px, dy = nY[k] - py;
    const d2 = dx * dx + dy * dy;
    let dist: number, nx: number, ny: number;
    if (d2 >= MIN_ACCURATE_SQ) {
      dist = Math.sqrt(d2);
      nx = dx / dist; ny = dy / dist;
    } else {
      // Coincident centres have no direction; the ORCA collision branch separates them.
      if (dx === 0 && dy === 0) continue;
      // |d|² underflowed to a subnormal with few significant bits (an offset of 1.6e-162 m gave a "unit" normal of
      // length 0.7071): rescale by the larger component before squaring, then normalise.
      const m = Math.abs(dx) > Math.abs(dy) ? Math.abs(dx) : Math.abs(dy);
      const sx = dx / m, sy = dy / m, l = Math.sqrt(sx * sx + sy * sy);
      nx = sx / l; ny = sy / l; dist = m * l;
    }
    let gap = dist - (radius + nR[k]) * CONTACT_SKIN;
    if (gap < 0) gap = 0;
    const bound = s === 1 ? gap * invDt + nVx[k] * nx + nVy[k] * ny : s * gap * invDt;
    // |v'| <= vmax, so v' . n <= vmax always: a bound at or above it cannot bind.
    if (bound >= vmax) continue;
    // Permitted side { v : v . n <= bound } lies left of direction (-n_y, n_x); the line passes through bound * n.
    const o = nl * LINE_STRIDE;
    lines[o] = bound * nx;
    lines[o + 1] = bound * ny;
    lines[o + 2] = -ny;
    lines[o + 3] = nx;
    nl++;
  }
  return nl;
}

/**
 * Write one half-plane per neighbour into `lines` from line index `nl`, with look-ahead max(agent.timeHorizon, dt) (and the
 * overlap-resolving cut-off of dt); returns the new line count. The reciprocals are taken here, not by the caller:
 * a computed double passed to a call V8 does not inline is boxed into a fresh HeapNumber.
 */
function agentLines(lines: Float64Array, nl: number, agent: OrcaAgent, neighbours: OrcaNeighbours, dt: number): number {
  // Look-ahead max(timeHorizon, dt), as for obstacles: with tau < dt a pair that is collision-free for tau closes
  // (dt/tau)·gap within the step and overlaps (or passes through) before the next solve.
  const invTau = 1 / Math.max(agent.timeHorizon, dt), invDt = 1 / dt;
  const nAgents = neighbours.count;
  const px = agent.x, py = agent.y, vx = agent.vx, vy = agent.vy;
  const radius = agent.radius;
  const nX = neighbours.x, nY = neighbours.y, nVx = neighbours.vx, nVy = neighbours.vy;
  const nR = neighbours.radius, nS = neighbours.share, nId = neighbours.id;
  const myId = agent.id;
  for (let k = 0; k < nAgents; k++) {
    const relPx = nX[k] - px, relPy = nY[k] - py;
    const relVx = vx - nVx[k], relVy = vy - nVy[k];
    const distSq = relPx * relPx + relPy * relPy;
    const R = radius + nR[k];
    const RSq = R * R;
    let dirX: number, dirY: number, ux: number, uy: number;
    if (distSq > RSq) {
      // No overlap: w goes from the cut-off centre p / tau to v.
      const wx = relVx - invTau * relPx, wy = relVy - invTau * relPy;
      const wLenSq = wx * wx + wy * wy;
      const dot1 = wx * relPx + wy * relPy;
      if (dot1 < 0 && dot1 * dot1 > RSq * wLenSq) {
        // Closest boundary point is on the cut-off circle (dot1 < 0 implies |w| > 0).
        let wLen = Math.sqrt(wLenSq);
        let nx = wx / wLen, ny = wy / wLen;
        if (!(wLenSq >= MIN_ACCURATE_SQ)) {
          // |w|² is subnormal: few significant bits, so w / sqrt(|w|²) is not a unit vector. Rescale first.
          const s = Math.abs(wx) > Math.abs(wy) ? Math.abs(wx) : Math.abs(wy);
          const sx = wx / s, sy = wy / s, l = Math.sqrt(sx * sx + sy * sy);
          nx = sx / l; ny = sy / l; wLen = s * l;
        }
        dirX = ny;
        dirY = -nx;
        const m = R * invTau - wLen;
        ux = m * nx;
        uy = m * ny;
      } else {
        // Closest boundary point is on a leg.
        const leg = Math.sqrt(distSq - RSq);
        if (relPx * wy - relPy * wx > 0) {
          // Left leg.
          dirX = (relPx * leg - relPy * R) / distSq;
          dirY = (relPx * R + relPy * leg) / distSq;
        } else {
          // Right leg (reversed so the permitted side is on the left).
          dirX = -(relPx * leg + relPy * R) / distSq;
          dirY = -(-relPx * R + relPy * leg) / distSq;
        }
        const dot2 = relVx * dirX + relVy * dirY;
        ux = dot2 * dirX - relVx;
        uy = dot2 * dirY - relVy;
      }
    } else {
      // Overlapping: push apart within one time step, using the cut-off circle of radius R / dt at p / dt.
      const wx = relVx - invDt * relPx, wy = relVy - invDt * relPy;
      const wSq = wx * wx + wy * wy;
      let wLen = Math.sqrt(wSq);
      let nx: number, ny: number;
      if (wSq >= MIN_ACCURATE_SQ) {
        nx = wx / wLen;
        ny = wy / wLen;
      } else if (wx !== 0 || wy !== 0) {
        // |w|² underflowed (to 0 or to a subnormal with a few significant bits: a relative velocity of 6e-162 m/s
        // gave a "unit" normal of length 1.0145 and a result 1.5 % above maxSpeed). Rescale by the larger component
        // so the squares are exact enough, then normalise.
        const s = Math.abs(wx) > Math.abs(wy) ? Math.abs(wx) : Math.abs(wy);
        const sx = wx / s, sy = wy / s, l = Math.sqrt(sx * sx + sy * sy);
        nx = sx / l; ny = sy / l; wLen = s * l;
      } else {
        // Coincident with equal velocities (or v = p / dt exactly): no geometric direction exists. Separate along
        // x, antisymmetrically by id so the two agents choose opposite directions.
        nx = myId < nId[k] ? 1 : -1;
        ny = 0;
      }
      dirX = ny;
      dirY = -nx;
      const m = R * invDt - wLen;
      ux = m * nx;
      uy = m * ny;
    }
    const share = nS[k];
    const o = nl * LINE_STRIDE;
    lines[o] = vx + share * ux;
    lines[o + 1] = vy + share * uy;
    lines[o + 2] = dirX;
    lines[o + 3] = dirY;
    nl++;
  }

  return nl;
}

/**
 * Build the obstacle half-planes into `lines` starting at 0; returns how many were written. The look-ahead is
 * max(obstacleTimeHorizon, dt): a velocity that keeps the agent off a segment for τ < dt carries it (dt/τ)·gap
 * toward the segment within the step, through a thin wall (RVO2 does this; the τ-Δt problem of raja-s/ORCA#2).
 */
function obstacleLines(lines: Float64Array, agent: OrcaAgent, obs: ObstacleSet, ids: Int32Array, count: number): number {
  const px = agent.x, py = agent.y, vx = agent.vx, vy = agent.vy;
  const radius = agent.radius, radiusSq = radius * radius;
  const invTauO = 1 / Math.max(agent.obstacleTimeHorizon, _orcaDt[0]);
  const rInv = radius * invTauO;
  const X = obs.x, Y = obs.y, DX = obs.dirX, DY = obs.dirY, NEXT = obs.next, PREV = obs.prev, CONVEX = obs.convex;
  let nl = 0;
  for (let k = 0; k < count; k++) {
    let o1 = ids[k];
    let o2 = NEXT[o1];
    const r1x = X[o1] - px, r1y = Y[o1] - py;
    const r2x = X[o2] - px, r2y = Y[o2] - py;

    // Skip a segment whose whole (truncated) VO is already excluded by earlier obstacle lines: both scaled end
    // points lie at least r / tau on the forbidden side of one line.
    let covered = false;
    for (let j = 0; j < nl; j++) {
      const o = j * LINE_STRIDE;
      const lpx = lines[o], lpy = lines[o + 1], ldx = lines[o + 2], ldy = lines[o + 3];
      if (
        ldy * (invTauO * r1x - lpx) - ldx * (invTauO * r1y - lpy) - rInv >= -COVER_EPSILON &&
        ldy * (invTauO * r2x - lpx) - ldx * (invTauO * r2y - lpy) - rInv >= -COVER_EPSILON
      ) {
        covered = true;
        break;
      }
    }
    if (covered) continue;

    const distSq1 = r1x * r1x + r1y * r1y;
    const distSq2 = r2x * r2x + r2y * r2y;
    const ox = X[o2] - X[o1], oy = Y[o2] - Y[o1];
    // Closest point of the supporting line to the agent: a + s (b - a).
    const s = (-r1x * ox - r1y * oy) / (ox * ox + oy * oy);
    const lx = -r1x - s * ox, ly = -r1y - s * oy;
    const distSqLine = lx * lx + ly * ly;

    let w = nl * LINE_STRIDE;
    if (s < 0 && distSq1 <= radiusSq) {
      // Overlapping the left vertex: a reflex vertex is covered by its edges; a convex one pushes straight out.
      if (CONVEX[o1] === 1) {
        // (distSq1 > 0 here: an agent exactly on the vertex has s = 0 and takes the segment branch below.)
        const len = Math.sqrt(distSq1);
        lines[w] = 0;
        lines[w + 1] = 0;
        lines[w + 2] = -r1y / len;
        lines[w + 3] = r1x / len;
        nl++;
      }
      continue;
    } else if (s > 1 && distSq2 <= radiusSq) {
      // Overlapping the right vertex: handled here only if convex and not left to the next segment (which sees
      // the vertex as its left vertex when the agent is on its outer side).
      if (CONVEX[o2] === 1 && r2x * DY[o2] - r2y * DX[o2] >= 0) {
        // (distSq2 > 0 here: on the vertex itself s = 1, the segment branch.)
        const len = Math.sqrt(distSq2);
        lines[w] = 0;
        lines[w + 1] = 0;
        lines[w + 2] = -r2y / len;
        lines[w + 3] = r2x / len;
        nl++;
      }
      continue;
    } else if (s >= 0 && s <= 1 && distSqLine <= radiusSq) {
      // Overlapping the segment (closed interval: s = 1 belongs here so that the leg construction below never
      // sees a vertex within the radius, which would take the square root of a negative number).
      // Forbid any velocity into it.
      lines[w] = 0;
      lines[w + 1] = 0;
      lines[w + 2] = -DX[o1];
      lines[w + 3] = -DY[o1];
      nl++;
      continue;
    }

    // No overlap: find the two legs (tangents from the agent to the radius-r discs at the end vertices).
    let llx: number, lly: number, rlx: number, rly: number;
    if (s < 0 && distSqLine <= radiusSq) {
      // Seen end-on past the left vertex: both legs are tangents to that vertex's disc.
      if (CONVEX[o1] === 0) continue;
      o2 = o1;
      const leg = Math.sqrt(distSq1 - radiusSq);
      llx = (r1x * leg - r1y * radius) / distSq1;
      lly = (r1x * radius + r1y * leg) / distSq1;
      rlx = (r1x * leg + r1y * radius) / distSq1;
      rly = (-r1x * radius + r1y * leg) / distSq1;
    } else if (s > 1 && distSqLine <= radiusSq) {
      // Seen end-on past the right vertex.
      if (CONVEX[o2] === 0) continue;
      o1 = o2;
      const leg = Math.sqrt(distSq2 - radiusSq);
      llx = (r2x * leg - r2y * radius) / distSq2;
      lly = (r2x * radius + r2y * leg) / distSq2;
      rlx = (r2x * leg + r2y * radius) / distSq2;
      rly = (-r2x * radius + r2y * leg) / distSq2;
    } else {
      // The usual case: left leg from the left vertex, right leg from the right vertex; at a reflex vertex the
      // leg continues the segment (the neighbouring edge hides the vertex's disc).
      if (CONVEX[o1] === 1) {
        const leg = Math.sqrt(distSq1 - radiusSq);
        llx = (r1x * leg - r1y * radius) / distSq1;
        lly = (r1x * radius + r1y * leg) / distSq1;
      } else {
        llx = -DX[o1];
        lly = -DY[o1];
      }
      if (CONVEX[o2] === 1) {
        const leg = Math.sqrt(distSq2 - radiusSq);
        rlx = (r2x * leg + r2y * radius) / distSq2;
        rly = (-r2x * radius + r2y * leg) / distSq2;
      } else {
        rlx = DX[o1];
        rly = DY[o1];
      }
    }

    // A leg from a convex vertex must not point into the neighbouring edge; if it does, use that edge's direction
    // and mark it foreign (projecting onto it adds no constraint: the neighbour's own line covers it).
    const left = PREV[o1];
    let leftForeign = false, rightForeign = false;
    if (CONVEX[o1] === 1 && llx * -DY[left] - lly * -DX[left] >= 0) {
      llx = -DX[left];
      lly = -DY[left];
      leftForeign = true;
    }
    if (CONVEX[o2] === 1 && rlx * DY[o2] - rly * DX[o2] <= 0) {
      rlx = DX[o2];
      rly = DY[o2];
      rightForeign = true;
    }

    // Cut-off centres: the end vertices scaled by 1 / tau (relative to the agent).
    const lcx = invTauO * (X[o1] - px), lcy = invTauO * (Y[o1] - py);
    const rcx = invTauO * (X[o2] - px), rcy = invTauO * (Y[o2] - py);
    const cvx = rcx - lcx, cvy = rcy - lcy;
    const same = o1 === o2;
    // Parameter of the current velocity's projection on the cut-off segment, and along each leg.
    const t = same ? 0.5 : ((vx - lcx) * cvx + (vy - lcy) * cvy) / (cvx * cvx + cvy * cvy);
    const tLeft = (vx - lcx) * llx + (vy - lcy) * lly;
    const tRight = (vx - rcx) * rlx + (vy - rcy) * rly;

    w = nl * LINE_STRIDE;
    if ((t < 0 && tLeft < 0) || (same && tLeft < 0 && tRight < 0)) {
      // Closest boundary point on the left cut-off circle.
      let nx = vx - lcx, ny = vy - lcy;
      const len = Math.sqrt(nx * nx + ny * ny);
      if (len > 0) { nx /= len; ny /= len; } else { const l1 = Math.sqrt(distSq1); nx = -r1x / l1; ny = -r1y / l1; }
      lines[w] = lcx + rInv * nx;
      lines[w + 1] = lcy + rInv * ny;
      lines[w + 2] = ny;
      lines[w + 3] = -nx;
      nl++;
      continue;
    } else if (t > 1 && tRight < 0) {
      // Closest boundary point on the right cut-off circle.
      let nx = vx - rcx, ny = vy - rcy;
      const len = Math.sqrt(nx * nx + ny * ny);
      if (len > 0) { nx /= len; ny /= len; } else { const l2 = Math.sqrt(distSq2); nx = -r2x / l2; ny = -r2y / l2; }
      lines[w] = rcx + rInv * nx;
      lines[w + 1] = rcy + rInv * ny;
      lines[w + 2] = ny;
      lines[w + 3] = -nx;
      nl++;
      continue;
    }

    // Otherwise project on whichever of the cut-off segment, left leg and right leg is closest to v.
    let dCut = Infinity, dLeft = Infinity, dRight = Infinity;
    if (!(t < 0 || t > 1 || same)) {
      const ex = vx - (lcx + t * cvx), ey = vy - (lcy + t * cvy);
      dCut = ex * ex + ey * ey;
    }
    if (!(tLeft < 0)) {
      const ex = vx - (lcx + tLeft * llx), ey = vy - (lcy + tLeft * lly);
      dLeft = ex * ex + ey * ey;
    }
    if (!(tRight < 0)) {
      const ex = vx - (rcx + tRight * rlx), ey = vy - (rcy + tRight * rly);
      dRight = ex * ex + ey * ey;
    }
    let dx: number, dy: number, bx: number, by: number;
    if (dCut <= dLeft && dCut <= dRight) {
      // Cut-off segment: the line is the segment, reversed, pushed out by r / tau.
      dx = -DX[o1];
      dy = -DY[o1];
      bx = lcx;
      by = lcy;
    } else if (dLeft <= dRight) {
      if (leftForeign) continue;
      dx = llx;
      dy = lly;
      bx = lcx;
      by = lcy;
    } else {
      if (rightForeign) continue;
      dx = -rlx;
      dy = -rly;
      bx = rcx;
      by = rcy;
    }
    // Offset by r / tau along the line's left normal (-dy, dx).
    lines[w] = bx - rInv * dy;
    lines[w + 1] = by + rInv * dx;
    lines[w + 2] = dx;
    lines[w + 3] = dy;
    nl++;
  }
  return nl;
}

/**
 * Copy the half-planes of the most recent solve into `out` (stride 4: point x, y, direction x, y; permitted side
 * on the left of the direction) for debug drawing. Returns { lines, obstacleLines } counts; copies at most
 * out.length / 4 lines. Velocities are relative to the origin of velocity space (not to the agent's position).
 */
export function orcaLastLines(out: Float64Array): { lines: number; obstacleLines: number } {
  const n = Math.min(_orcaLineCount, Math.floor(out.length / LINE_STRIDE));
  for (let i = 0; i < n * LINE_STRIDE; i++) out[i] = _orcaLines[i];
  return { lines: n, obstacleLines: Math.min(_orcaObstacleLineCount, n) };
}
