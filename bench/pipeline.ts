/**
 * Pipeline benchmark: the seeded wander scenario at 10k and 100k agents; per system median/min/max ms over frames.
 */
import { getScenario } from '../demos/scenarios/index';
import { row, type BenchModule } from './harness';
import { performance } from 'node:perf_hooks';

export const pipelineBench: BenchModule = {
  name: 'pipeline',
  run(ctx) {
    for (const agents of [10_000, 100_000]) {
      const frames = ctx.quick ? 30 : agents >= 100_000 ? 120 : 300;
      const inst = getScenario('wander').create({ agents, seed: 1 });
      for (let i = 0; i < 10; i++) inst.tick(); // warm-up: JIT, lazy scratch
      const perSystem = new Map<string, number[]>();
      const tick: number[] = [];
      for (let f = 0; f < frames; f++) {
        const t0 = performance.now();
        inst.tick();
        tick.push(performance.now() - t0);
        for (const e of inst.world.profiler.entries) {
          let a = perSystem.get(e.name);
          if (!a) perSystem.set(e.name, (a = []));
          a.push(e.last);
        }
      }
      for (const [name, samples] of perSystem) ctx.record(row('pipeline', `wander ${agents / 1000}k: ${name}`, 'ms', samples));
      ctx.record(row('pipeline', `wander ${agents / 1000}k: whole tick`, 'ms', tick));
    }
  },
};
