import { describe, expect, it } from 'vitest';
import { listScenarios, getScenario } from '../../demos/scenarios/index';
import { DEFAULT_SOAK, formatSoakReport, soakScenario } from './soak-run';
import { setAgentPosition } from '../../src/world/agents';

// The short soak of `npm test`: every shared scenario for a few hundred steps under random spawns, despawns, goal
// changes and map edits, every check of `npm run soak` after every step.
const SHORT = { ...DEFAULT_SOAK, agents: 120, steps: 300, heapEvery: 0, seed: 3 };

/**
 * Defects the soak found in other engineers' systems (docs/RELIABILITY.md), by scenario: the failures of that
 * scenario must all be of the named kind (anything else still fails the test), and the test fails once the defect
 * stops reproducing so the entry cannot go stale.
 */
// Scenarios with a known, documented defect (none since contacts treat ORCA obstacles as static geometry).
const KNOWN: Record<string, { pattern: RegExp; what: string }> = {};

describe('soak (short)', () => {
  for (const s of listScenarios()) {
    it(`${s.name}: ${SHORT.steps} steps with disturbances, no NaN, no agent inside an obstacle, counts consistent, snapshot round trip`, () => {
      const r = soakScenario(s, SHORT);
      const known = KNOWN[s.name];
      if (known) {
        expect(r.failures.length, `known defect no longer reproduces (${known.what}): remove it from KNOWN`).toBeGreaterThan(0);
        for (const f of r.failures) expect(f, formatSoakReport(r)).toMatch(known.pattern);
      } else {
        expect(r.failures, formatSoakReport(r)).toEqual([]);
      }
      expect(r.steps).toBe(SHORT.steps);
      // Every shared scenario takes despawns from outside: soakScenario's fallback (rerun with despawns off when the
      // scenario's own logic throws UnknownEntityError on an id it keeps) is for user scenarios only.
      expect(r.notes.filter((n) => /despawns turned off/.test(n)), formatSoakReport(r)).toEqual([]);
      expect(r.despawned, formatSoakReport(r)).toBeGreaterThan(0);
      expect(r.spawned + r.spawnsRefused, formatSoakReport(r)).toBeGreaterThan(0);
      // Scenarios that keep lists of their agents spawn some of their own kind, adopted by their logic.
      if (['astar', 'rts', 'steering', 'contacts'].includes(s.name)) expect(r.ownSpawns, formatSoakReport(r)).toBeGreaterThan(0);
    });
  }
});

describe('soak harness catches faults (the checks can fail)', () => {
  it('an injected NaN position is reported', () => {
    const r = soakScenario(getScenario('wander'), { ...SHORT, steps: 20, inject: (inst, step) => { if (step === 10) inst.world.position.x[inst.world.agents.dense[0]] = NaN; } });
    expect(r.nanFailures.length).toBeGreaterThan(0);
    expect(r.failures.join('\n')).toMatch(/step 10: agent \d+ has non-finite state/);
    // and the next step refuses the NaN with a typed error naming the field instead of spreading it
    expect(r.tickFailures[0]).toMatch(/step 11: tick threw InvalidArgumentError: .*must be a finite number \(got NaN\)/);
  });
  it('an agent teleported into the middle of a building is reported', () => {
    const horde = getScenario('horde');
    const r = soakScenario(horde, { ...SHORT, steps: 5, inject: (inst, step) => {
      if (step !== 2) return;
      const o = inst.obstacles[0].points; // the first building, a closed square
      setAgentPosition(inst.world, inst.world.agents.dense[0], (o[0] + o[4]) / 2, (o[1] + o[5]) / 2);
    } });
    expect(r.obstacleFailures.length).toBeGreaterThan(0);
    expect(r.obstacleFailures[0]).toMatch(/inside an obstacle/);
  });
  it('a count mismatch (dense list edited behind the world\'s back) is reported', () => {
    const r = soakScenario(getScenario('wander'), { ...SHORT, steps: 5, inject: (inst, step) => { if (step === 3) inst.world.agents.count--; } });
    expect(r.countFailures.length).toBeGreaterThan(0);
  });
});
