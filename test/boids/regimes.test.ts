/**
 * Reynolds' four weight regimes on a seeded flock of 500 (Reynolds 1987): each rule alone, then all three balanced,
 * measured with quantities computed by brute force in ./helpers (independent of the hash and the kernel).
 * Flock: 500 agents uniform in a 28 m disc (mean nearest-neighbour distance ≈ 1.1 m), body radius 0.3 m,
 * max speed 2 m/s, topological k = 7 unless stated; ORCA off, so only boids move them.
 */
import { describe, expect, it } from 'vitest';
import { makeFlock, nearestNeighbourStats, polarisation, radiusOfGyration, run } from './helpers';

const base = { n: 500, seed: 5, discRadius: 28, radius: 0.3, maxSpeed: 2 };

describe('boids weight regimes (500 agents)', () => {
  it('separation only: the mean nearest-neighbour distance grows', () => {
    const w = makeFlock({ ...base, speed: 0, boids: { separation: 0.3, alignment: 0, cohesion: 0 } });
    const nn0 = nearestNeighbourStats(w).mean;
    run(w, 5);
    const nn5 = nearestNeighbourStats(w).mean;
    run(w, 5);
    const nn10 = nearestNeighbourStats(w).mean;
    expect(nn5).toBeGreaterThan(1.3 * nn0);
    expect(nn10).toBeGreaterThan(nn5); // keeps growing
  });

  it('alignment only: polarisation rises toward 1 while the group spreads', () => {
    // Headings uniform in ±135° (P0 ≈ 0.3), constant speed 1 m/s (minSpeed = cruise speed).
    const w = makeFlock({ ...base, speed: 1, spread: (3 * Math.PI) / 4, boids: { separation: 0, alignment: 3, cohesion: 0, minSpeed: 1 } });
    const p0 = polarisation(w), rg0 = radiusOfGyration(w);
    run(w, 15);
    const p15 = polarisation(w), rg15 = radiusOfGyration(w);
    run(w, 15);
    const p30 = polarisation(w), rg30 = radiusOfGyration(w);
    expect(p0).toBeLessThan(0.4);
    expect(p15).toBeGreaterThan(0.95);
    expect(p30).toBeGreaterThanOrEqual(p15 - 1e-3);
    // Nothing holds the group together: small heading differences between fragments make it spread.
    expect(rg30).toBeGreaterThan(rg15);
    expect(rg30).toBeGreaterThan(1.05 * rg0);
  });

  it('cohesion only: the radius of gyration shrinks (metric r = 6 m)', () => {
    // Metric here: with k = 7 and no separation, pure cohesion first collapses agents into clumps of ≥ 8 whose
    // neighbourhoods no longer overlap, so the whole group contracts very slowly (measured: −4% in 10 s).
    const w = makeFlock({ ...base, speed: 0, boids: { mode: 'metric', radius: 6, separation: 0, alignment: 0, cohesion: 0.3 } });
    const rg0 = radiusOfGyration(w);
    run(w, 5);
    const rg5 = radiusOfGyration(w);
    run(w, 5);
    const rg10 = radiusOfGyration(w);
    expect(rg5).toBeLessThan(rg0);
    expect(rg10).toBeLessThan(0.9 * rg0);
  });

  for (const mode of ['topological', 'metric'] as const) {
    it(`balanced (defaults, ${mode}): polarisation > 0.9, bounded radius of gyration, no overlaps`, () => {
      const w = makeFlock({ ...base, speed: 1, spread: (3 * Math.PI) / 4, boids: { mode, radius: mode === 'metric' ? 6 : 8, minSpeed: 1 } });
      const rg0 = radiusOfGyration(w);
      run(w, 10);
      let maxRg = 0, minGap = Infinity;
      for (let k = 0; k < 4; k++) {
        run(w, 5);
        maxRg = Math.max(maxRg, radiusOfGyration(w));
        minGap = Math.min(minGap, nearestNeighbourStats(w).min);
      }
      expect(polarisation(w)).toBeGreaterThan(0.9);
      expect(maxRg).toBeLessThan(1.1 * rg0);
      expect(minGap).toBeGreaterThan(2 * base.radius); // no two bodies overlap at the sampled instants
    });
  }
});
