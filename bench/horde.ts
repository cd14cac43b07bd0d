/**
 * The headline benchmark (issue 7): the horde scenario — a crowd flowing through a city on a flow field, LOD focus
 * in the middle — at 100,000 agents with LOD on (≥ 5,000 near), and at 25,000 agents with every agent in the near
 * tier (full ORCA). Whole `step` ms per frame, median over the measured frames, plus each system's median.
 */
import { createHorde } from '../demos/scenarios/horde';
import { getLodStats } from '../systems/lod';
import { row, type BenchModule } from './harness';
import { performance } from 'node:perf_hooks';

function runHorde(ctx: Parameters<BenchModule['run']>[0], label: string, agents: number, lod: boolean, target: number): void {
  const warm = ctx.quick ? 10 : 30;
  const frames = ctx.quick ? 20 : 120;
  const inst = createHorde({ agents, seed: 1, lod });
  for (let i = 0; i < warm; i++) inst.tick();
  const per = new Map<string, number[]>();
  const whole: number[] = [];
  let near = 0;
  for (let f = 0; f < frames; f++) {
    const t0 = performance.now();
    inst.tick();
    whole.push(performance.now() - t0);
    near += getLodStats(inst.world).near;
    for (const e of inst.world.profiler.entries) {
      let a = per.get(e.name);
      if (!a) per.set(e.name, (a = []));
      a.push(e.last);
    }
  }
  for (const [name, s] of per) ctx.record(row('horde', `${label}: ${name}`, 'ms', s));
  ctx.record(row('horde', `${label}: whole step`, 'ms', whole, target, { meanNear: Math.round(near / frames), agents: inst.world.agents.count }));
}

export const hordeBench: BenchModule = {
  name: 'horde',
  run(ctx) {
    runHorde(ctx, '100k LOD on', 100_000, true, 8);
    runHorde(ctx, '25k all near (LOD off)', 25_000, false, 16);
  },
};
