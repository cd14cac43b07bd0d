import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/core/rng';
import {
  arrive, arriveMoving, evade, flee, followVelocity, interceptTime, pursue, seek, vec2Out, wander,
} from '../../src/steering/behaviours';
import { smoothVelocity } from '../../src/steering/filters';

const close = (a: number, b: number, tol = 1e-12) => expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);

describe('seek', () => {
  it('points at the target at max speed (hand: (3,4)/5·2 = (1.2, 1.6))', () => {
    const o = vec2Out();
    expect(seek(0, 0, 3, 4, 2, o)).toBe(5);
    close(o.x, 1.2); close(o.y, 1.6);
  });
  it('is zero on the target, never NaN', () => {
    const o = vec2Out();
    seek(1, 1, 1, 1, 2, o);
    expect(o).toEqual({ x: 0, y: 0 });
  });
});

describe('flee', () => {
  it('runs directly away inside the panic distance and ignores a far threat', () => {
    const o = vec2Out();
    flee(0, 0, 3, 4, 5, 10, o);
    close(o.x, -3); close(o.y, -4);
    flee(0, 0, 30, 40, 5, 10, o);
    expect(o).toEqual({ x: 0, y: 0 });
  });
  it('picks +x when standing on the threat (deterministic, finite)', () => {
    const o = vec2Out();
    flee(2, 2, 2, 2, 3, Infinity, o);
    expect(o).toEqual({ x: 3, y: 0 });
  });
});

/** Integrate x += v·dt with the velocity following the desired one through an optional first-order lag. */
function runArrive(start: number, maxSpeed: number, R: number, dt: number, tau: number, steps: number) {
  const o = vec2Out(), s = vec2Out();
  let x = start, y = 0, vx = 0, vy = 0, minX = Infinity, maxD = 0;
  for (let k = 0; k < steps; k++) {
    arrive(x, y, 0, 0, maxSpeed, R, 0.01 * R, dt, o);
    smoothVelocity(vx, vy, o.x, o.y, tau, dt, s);
    vx = s.x; vy = s.y;
    x += vx * dt; y += vy * dt;
    if (x < minX) minX = x;
    if (k > 0) maxD = Math.max(maxD, Math.abs(x));
  }
  return { x, y, vx, minX };
}

describe('arrive', () => {
  it('stops within 1% of the slowing radius without overshoot (velocity followed exactly)', () => {
    for (const dt of [1 / 60, 1 / 10, 0.5]) {
      const r = runArrive(10, 3, 2, dt, 0, Math.ceil(40 / dt));
      expect(Math.abs(r.x)).toBeLessThanOrEqual(0.01 * 2);
      expect(r.minX).toBeGreaterThanOrEqual(0); // never passed the target (it lies at x = 0, start at x = 10)
      expect(r.vx).toBe(0); // came to rest
    }
  });
  it('with a velocity lag τ ≤ R/(4·maxSpeed) (derived overdamped bound) it still never overshoots', () => {
    const R = 2, vmax = 3;
    const r = runArrive(10, vmax, R, 1 / 120, R / (4 * vmax), 120 * 40);
    expect(r.minX).toBeGreaterThanOrEqual(0);
    expect(Math.abs(r.x)).toBeLessThanOrEqual(0.01 * R);
  });
  it('with a lag 8× above the bound it does overshoot (the bound is not vacuous)', () => {
    const R = 2, vmax = 3;
    const r = runArrive(10, vmax, R, 1 / 120, (8 * R) / (4 * vmax), 120 * 40);
    expect(r.minX).toBeLessThan(0);
  });
  it('ramps speed linearly inside the slowing radius (hand: d = R/2 → maxSpeed/2)', () => {
    const o = vec2Out();
    arrive(1, 0, 0, 0, 4, 2, 0, Infinity, o);
    close(o.x, -2); close(o.y, 0);
  });
});

describe('arriveMoving', () => {
  it('tracks a target moving at constant velocity with zero steady lag', () => {
    const o = vec2Out();
    let x = -3, y = 1, tx = 0;
    const dt = 1 / 60;
    for (let k = 0; k < 600; k++) {
      arriveMoving(x, y, tx, 0, 1, 0, 3, 2, 0, dt, o);
      x += o.x * dt; y += o.y * dt; tx += dt;
    }
    expect(Math.hypot(x - tx, y)).toBeLessThan(1e-3);
  });
});

describe('wander', () => {
  it('is reproducible from the seed and moves at max speed with bounded heading change', () => {
    const run = (seed: number) => {
      const rng = createRng(seed), o = vec2Out();
      let hx = 1, hy = 0, a = 0;
      const trace: number[] = [];
      let maxTurn = 0;
      for (let k = 0; k < 500; k++) {
        a = wander(hx, hy, a, rng, 2, 1, 3, 1.5, 1 / 30, o);
        close(Math.hypot(o.x, o.y), 1.5, 1e-12);
        const turn = Math.abs(Math.atan2(hx * o.y - hy * o.x, hx * o.x + hy * o.y));
        maxTurn = Math.max(maxTurn, turn);
        hx = o.x; hy = o.y;
        trace.push(o.x, o.y);
      }
      return { trace, maxTurn };
    };
    const a = run(7), b = run(7), c = run(8);
    expect(a.trace).toEqual(b.trace);
    expect(a.trace).not.toEqual(c.trace);
    // Target on a circle of radius 1 at distance 2: the heading can be at most asin(1/2) = 30° off the current one.
    expect(a.maxTurn).toBeLessThanOrEqual(Math.asin(0.5) + 1e-9);
    expect(a.maxTurn).toBeGreaterThan(0);
  });
});

describe('interceptTime / pursue', () => {
  it('solves the interception quadratic (hand: |(10, t)| = 2t → t = 10/√3)', () => {
    close(interceptTime(0, 0, 2, 10, 0, 0, 1, 100), 10 / Math.sqrt(3), 1e-12);
  });
  it('falls back to distance/speed when the target outruns us, capped by maxPrediction', () => {
    close(interceptTime(0, 0, 1, 10, 0, 5, 0, 100), 10);
    close(interceptTime(0, 0, 1, 10, 0, 5, 0, 3), 3);
  });
  it('intercepts a crossing target in fewer steps than seek', () => {
    const steps = (usePursue: boolean) => {
      const o = vec2Out();
      let x = 0, y = 0, tx = 20, ty = -5;
      const tvx = 0, tvy = 1.2, dt = 1 / 30;
      for (let k = 1; k < 10000; k++) {
        if (usePursue) pursue(x, y, tx, ty, tvx, tvy, 2, 10, o);
        else seek(x, y, tx, ty, 2, o);
        x += o.x * dt; y += o.y * dt; tx += tvx * dt; ty += tvy * dt;
        if (Math.hypot(tx - x, ty - y) < 0.2) return k;
      }
      return Infinity;
    };
    const p = steps(true), s = steps(false);
    expect(p).toBeLessThan(s);
    // The straight-line intercept takes t* from the quadratic; pursue should match it to within a couple of steps.
    const tStar = interceptTime(0, 0, 2, 20, -5, 0, 1.2, 100);
    expect(Math.abs(p / 30 - tStar)).toBeLessThan(0.2);
  });
});

describe('evade', () => {
  it('flees the predicted position, not the current one', () => {
    const o = vec2Out();
    // Pursuer at (10, 0) heading +y at 10 m/s: in t = 10/(1+10) s it is at (10, 9.09); fleeing that points to −y.
    evade(0, 0, 10, 0, 0, 10, 1, 5, Infinity, o);
    expect(o.y).toBeLessThan(0);
    close(Math.hypot(o.x, o.y), 1);
  });
  it('does nothing beyond the panic distance', () => {
    const o = vec2Out();
    evade(0, 0, 100, 0, 0, 0, 1, 5, 50, o);
    expect(o).toEqual({ x: 0, y: 0 });
  });
});

describe('followVelocity', () => {
  it('passes the navigation velocity through, clamped to max speed', () => {
    const o = vec2Out();
    followVelocity(0.3, 0.4, 2, o);
    expect(o).toEqual({ x: 0.3, y: 0.4 });
    followVelocity(3, 4, 2, o);
    close(o.x, 1.2); close(o.y, 1.6);
  });
});
