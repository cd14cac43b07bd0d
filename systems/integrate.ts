import type { CrowdWorld } from '../src/world/crowd';
import { dcos, dsin, datan2 } from '../src/core/dmath';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';

// Scratch owned by the integrate system: new velocities for the whole range, computed before any is applied.
let _integrateVx = new Float64Array(0);
let _integrateVy = new Float64Array(0);

function ensureScratch(n: number): void {
  if (_integrateVx.length < n) {
    _integrateVx = new Float64Array(n);
    _integrateVy = new Float64Array(n);
  }
}

/** Counter of velocities that arrived as NaN/Infinity and were zeroed (a bug upstream; never propagated). */
let _integrateRepaired = 0;

/**
 * Compute pass over agents dense[start .. start+count): the velocity each agent will have after this step, written
 * to out arrays at index (i - start). The new velocity moves from the current velocity toward the desired velocity
 * by at most maxAccel·dt, turns by at most maxTurnRate·dt, and is clipped to maxSpeed.
 */
export function integrateVelocities(world: CrowdWorld, start: number, count: number, dt: number, outVx: Float64Array, outVy: Float64Array): number {
  const dense = world.agents.dense;
  const vxs = world.velocity.x, vys = world.velocity.y;
  const dxs = world.desiredVelocity.x, dys = world.desiredVelocity.y;
  const { maxSpeed, maxAccel, maxTurnRate } = world.agent;
  let repaired = 0;
  for (let i = 0; i < count; i++) {
    const eid = dense[start + i];
    const vx = vxs[eid], vy = vys[eid];
    let nx = dxs[eid], ny = dys[eid];
    if (!(Number.isFinite(nx) && Number.isFinite(ny))) {
      // A system upstream produced a non-finite velocity: hold still this step rather than spread NaN.
      nx = 0; ny = 0; repaired++;
    }
    // Acceleration limit: |v' - v| ≤ a·dt.
    const amax = maxAccel[eid] * dt;
    let ax = nx - vx, ay = ny - vy;
    const a2 = ax * ax + ay * ay;
    if (a2 > amax * amax) {
      const s = amax / Math.sqrt(a2);
      ax *= s; ay *= s;
      nx = vx + ax; ny = vy + ay;
    }
    // Turn-rate limit: rotate the old heading by at most ω·dt toward the new one, keeping the new speed.
    const wmax = maxTurnRate[eid] * dt;
    if (wmax < Math.PI) {
      const s0 = vx * vx + vy * vy, s1 = nx * nx + ny * ny;
      if (s0 > 1e-12 && s1 > 1e-12) {
        const angle = datan2(vx * ny - vy * nx, vx * nx + vy * ny);
        if (angle > wmax || angle < -wmax) {
          const t = angle > 0 ? wmax : -wmax;
          const c = dcos(t), s = dsin(t);
          const k = Math.sqrt(s1 / s0);
          const rx = (vx * c - vy * s) * k, ry = (vx * s + vy * c) * k;
          nx = rx; ny = ry;
        }
      }
    }
    // Speed limit.
    const smax = maxSpeed[eid];
    const sp2 = nx * nx + ny * ny;
    if (sp2 > smax * smax) {
      const s = smax / Math.sqrt(sp2);
      nx *= s; ny *= s;
    }
    outVx[i] = nx;
    outVy[i] = ny;
  }
  return repaired;
}

/** Apply pass: store the new velocities and move positions by v·dt (remembering the previous positions). */
export function applyVelocities(world: CrowdWorld, start: number, count: number, dt: number, vxIn: Float64Array, vyIn: Float64Array): void {
  const dense = world.agents.dense;
  const px = world.position.x, py = world.position.y;
  const ppx = world.position.previousX, ppy = world.position.previousY;
  const vxs = world.velocity.x, vys = world.velocity.y;
  for (let i = 0; i < count; i++) {
    const eid = dense[start + i];
    const vx = vxIn[i], vy = vyIn[i];
    ppx[eid] = px[eid];
    ppy[eid] = py[eid];
    vxs[eid] = vx;
    vys[eid] = vy;
    px[eid] += vx * dt;
    py[eid] += vy * dt;
  }
}

/** Integrate system: compute every agent's new velocity, then apply all of them (order-independent). */
export function integrateSystem(world: CrowdWorld, dt: number): void {
  const t0 = nowMs();
  const n = world.agents.count;
  ensureScratch(n);
  _integrateRepaired = integrateVelocities(world, 0, n, dt, _integrateVx, _integrateVy);
  applyVelocities(world, 0, n, dt, _integrateVx, _integrateVy);
  profileCount(world.profiler, 'integrate', 'nanRepaired', _integrateRepaired);
  profileRecord(world.profiler, 'integrate', t0);
}
