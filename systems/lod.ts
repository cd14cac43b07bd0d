import type { CrowdWorld } from '../src/world/crowd';
import { InvalidArgumentError, CapacityError } from '../src/core/errors';
import { requireFinite, requireInteger, requireNonNegative, requirePositive } from '../src/core/validate';
import { assignTiers } from '../src/lod/tiers';
import { budgetUpdate, createBudget, type BudgetState } from '../src/lod/budget';
import { lodComponent, LOD_ALL, LOD_BOIDS, LOD_CONTACTS, LOD_STEER, TIER_MID, TIER_NEAR, type LodStore } from '../components/lod';
import { nowMs, profileCount, profileRecord } from '../src/world/profiler';

/** What a tier runs: system bits (LOD_STEER | LOD_BOIDS | LOD_ORCA | LOD_CONTACTS) and the staggering interval. */
export interface TierRule {
  flags: number;
  /** LOD_STEER and LOD_CONTACTS run one frame in `interval` (staggered by entity id). 1 = every frame. */
  interval: number;
}

export interface LodOptions {
  /** Outer radius of the near tier, metres. @default 30 */
  nearRadius?: number;
  /** Outer radius of the mid tier, metres (≥ nearRadius). @default 80 */
  midRadius?: number;
  /** Hysteresis margin around each boundary, metres. @default 2 */
  hysteresis?: number;
  /** Far agents run navigation/steering one frame in this many. @default 4 */
  farInterval?: number;
  /** Tier rules [near, mid, far]; defaults: near all systems, mid steering + boids + contacts, far staggered steering + contacts. */
  rules?: [TierRule, TierRule, TierRule];
  /** Focus points as flat [x0, y0, x1, y1, ...] (at most 16). @default [0, 0] */
  focus?: ArrayLike<number>;
}

export interface LodBudgetOptions {
  /** Target simulation cost per frame, milliseconds. */
  targetMs: number;
  /** Bounds for the near radius, metres. @default [4, 4 × nearRadius] */
  minRadius?: number;
  maxRadius?: number;
  /** Frames per measurement window. @default 10 */
  window?: number;
  /**
   * Where the cost comes from: by default the profiler's measured time of the last step (ms). A function lets a
   * game include its own costs, or a test use a deterministic cost model.
   */
  cost?: (world: CrowdWorld) => number;
}

export interface LodState {
  enabled: boolean;
  readonly focusX: Float64Array;
  readonly focusY: Float64Array;
  focusCount: number;
  /** [nearRadius, midRadius], metres; nearRadius moves under the budget. */
  readonly radii: Float64Array;
  hysteresis: number;
  rules: [TierRule, TierRule, TierRule];
  budget: BudgetState | null;
  cost: ((world: CrowdWorld) => number) | null;
  /** Agents per tier after the last LOD pass. */
  readonly counts: Int32Array;
  /** Tier changes in the last pass. */
  changes: number;
}

export const MAX_FOCUS_POINTS = 16;

function requireRule(field: string, r: TierRule): TierRule {
  if (!r || typeof r !== 'object') throw new InvalidArgumentError(field, r, 'must be { flags, interval }');
  requireInteger(`${field}.flags`, r.flags, 0, LOD_ALL);
  requireInteger(`${field}.interval`, r.interval, 1, 1 << 20);
  return { flags: r.flags, interval: r.interval };
}

/** Turn on automatic LOD for a world (or change its settings). Validates everything before changing anything. */
export function enableLod(world: CrowdWorld, options: LodOptions = {}): LodState {
  const prev = world.systems.lod as LodState | undefined;
  const near = requirePositive('options.nearRadius', options.nearRadius ?? (prev ? prev.radii[0] : 30));
  const mid = requirePositive('options.midRadius', options.midRadius ?? (prev ? Math.max(prev.radii[1], near) : Math.max(80, near)));
  if (mid < near) throw new InvalidArgumentError('options.midRadius', mid, `must be ≥ nearRadius (${near})`);
  const hysteresis = requireNonNegative('options.hysteresis', options.hysteresis ?? (prev ? prev.hysteresis : 2));
  const farInterval = requireInteger('options.farInterval', options.farInterval ?? 4, 1, 1 << 20);
  const rules: [TierRule, TierRule, TierRule] = options.rules
    ? [requireRule('options.rules[0]', options.rules[0]), requireRule('options.rules[1]', options.rules[1]), requireRule('options.rules[2]', options.rules[2])]
    : prev && !options.farInterval ? prev.rules : [
      { flags: LOD_ALL, interval: 1 },
      { flags: LOD_STEER | LOD_BOIDS | LOD_CONTACTS, interval: 1 },
      { flags: LOD_STEER | LOD_CONTACTS, interval: farInterval },
    ];
  const focus = options.focus ?? (prev ? null : [0, 0]);
  if (focus) validateFocus(focus);
  lodComponent(world);
  const state: LodState = prev ?? {
    enabled: true, focusX: new Float64Array(MAX_FOCUS_POINTS), focusY: new Float64Array(MAX_FOCUS_POINTS), focusCount: 0,
    radii: new Float64Array(2), hysteresis, rules, budget: null, cost: null, counts: new Int32Array(3), changes: 0,
  };
  state.enabled = true;
  state.radii[0] = near;
  state.radii[1] = mid;
  state.hysteresis = hysteresis;
  state.rules = rules;
  if (focus) writeFocus(state, focus);
  world.systems.lod = state;
  return state;
}

/** Turn LOD off: every agent returns to the near tier with all systems on. */
export function disableLod(world: CrowdWorld): void {
  const state = world.systems.lod as LodState | undefined;
  if (!state) return;
  state.enabled = false;
  const lod = lodComponent(world);
  const { dense, count } = world.agents;
  for (let i = 0; i < count; i++) { lod.tier[dense[i]] = TIER_NEAR; lod.flags[dense[i]] = LOD_ALL; }
}

function validateFocus(focus: ArrayLike<number>): void {
  if (!focus || typeof focus.length !== 'number' || focus.length % 2 !== 0) throw new InvalidArgumentError('focus', focus, 'must be a flat [x0, y0, x1, y1, ...] list');
  if (focus.length / 2 > MAX_FOCUS_POINTS) throw new CapacityError('focus', focus.length / 2, `at most ${MAX_FOCUS_POINTS} focus points`);
  for (let i = 0; i < focus.length; i++) requireFinite(`focus[${i}]`, focus[i]);
}
function writeFocus(state: LodState, focus: ArrayLike<number>): void {
  state.focusCount = focus.length / 2;
  for (let i = 0; i < state.focusCount; i++) { state.focusX[i] = focus[2 * i]; state.focusY[i] = focus[2 * i + 1]; }
}

/** Set the focus points (cameras, the player, points of interest) as flat [x0, y0, ...]. */
export function setFocusPoints(world: CrowdWorld, focus: ArrayLike<number>): void {
  const state = requireLod(world);
  validateFocus(focus);
  writeFocus(state, focus);
}

/** Keep the simulation within `targetMs` per frame by moving the near radius within [minRadius, maxRadius]. */
export function setLodBudget(world: CrowdWorld, options: LodBudgetOptions | null): void {
  const state = requireLod(world);
  if (options === null) { state.budget = null; state.cost = null; return; }
  const target = requirePositive('options.targetMs', options.targetMs);
  const minR = requirePositive('options.minRadius', options.minRadius ?? Math.min(4, state.radii[0]));
  const maxR = requirePositive('options.maxRadius', options.maxRadius ?? Math.max(state.radii[0] * 4, minR));
  if (maxR < minR) throw new InvalidArgumentError('options.maxRadius', maxR, `must be ≥ minRadius (${minR})`);
  const window = requireInteger('options.window', options.window ?? 10, 1, 100000);
  if (options.cost !== undefined && typeof options.cost !== 'function') throw new InvalidArgumentError('options.cost', options.cost, 'must be a function');
  const b = createBudget(target, minR, maxR);
  b.window = window;
  state.budget = b;
  state.cost = options.cost ?? null;
}

function requireLod(world: CrowdWorld): LodState {
  const state = world.systems.lod as LodState | undefined;
  if (!state) throw new InvalidArgumentError('world', 'no LOD', 'call enableLod(world, options) first');
  return state;
}

/** Tier counts, radii and budget state, as plain data. */
export function getLodStats(world: CrowdWorld): { near: number; mid: number; far: number; nearRadius: number; midRadius: number; budgetState: string; budgetMeanMs: number; changes: number } {
  const s = world.systems.lod as LodState | undefined;
  if (!s) return { near: world.agents.count, mid: 0, far: 0, nearRadius: Infinity, midRadius: Infinity, budgetState: 'off', budgetMeanMs: 0, changes: 0 };
  return {
    near: s.counts[0], mid: s.counts[1], far: s.counts[2], nearRadius: s.radii[0], midRadius: s.radii[1],
    budgetState: s.budget ? s.budget.state : 'off', budgetMeanMs: s.budget ? s.budget.lastMeanMs : 0, changes: s.changes,
  };
}

/**
 * LOD system, first in the frame: move the near radius under the budget (from the last frame's cost), assign
 * tiers with hysteresis, then set each agent's system flags for this frame from its tier rule, staggering far
 * agents round-robin by entity id ((frame + eid) mod interval = 0) so the cost is even across frames; an agent is
 * also updated on the frame it changes tier.
 */
export function lodSystem(world: CrowdWorld): void {
  const state = world.systems.lod as LodState | undefined;
  if (!state || !state.enabled) return;
  const t0 = nowMs();
  if (state.budget) {
    const cost = state.cost ? state.cost(world) : world.profiler.frameLast;
    if (world.time.frame > 0 && Number.isFinite(cost)) {
      state.radii[0] = budgetUpdate(state.budget, cost, state.radii[0]);
      if (state.radii[1] < state.radii[0]) state.radii[1] = state.radii[0];
    }
  }
  const lod = lodComponent(world);
  const { dense, count } = world.agents;
  // Tiers before this frame's assignment: an agent that changes tier is updated this frame (see applyTierFlags).
  if (_lodPrevTier.length < lod.tier.length) _lodPrevTier = new Uint8Array(lod.tier.length);
  for (let i = 0; i < count; i++) _lodPrevTier[dense[i]] = lod.tier[dense[i]];
  state.changes = assignTiers(dense, 0, count, world.position.x, world.position.y, state.focusX, state.focusY, state.focusCount,
    state.radii, 3, state.hysteresis, lod.tier);
  applyTierFlags(world, state, lod, 0, count);
  profileCount(world.profiler, 'lod', 'near', state.counts[0]);
  profileCount(world.profiler, 'lod', 'mid', state.counts[1]);
  profileCount(world.profiler, 'lod', 'far', state.counts[2]);
  profileCount(world.profiler, 'lod', 'nearRadius', Math.round(state.radii[0] * 100) / 100);
  profileRecord(world.profiler, 'lod', t0);
}

/**
 * The tier rules that stagger this frame's updates, or null when the LOD pass is off (not enabled on the world, or
 * switched off in world.enabled). An agent updated now keeps what it was given for rules[tier].interval frames, so
 * navigation, the funnel and steering scale their per-update caps (speed toward a goal or corner, turn limit,
 * smoothing) by that many steps.
 * @internal (systems/navigation.ts, systems/funnel.ts, systems/steering.ts)
 */
export function lodRulesInEffect(world: CrowdWorld): readonly TierRule[] | null {
  const lod = world.systems.lod as LodState | undefined;
  return lod !== undefined && lod.enabled && world.enabled.lod ? lod.rules : null;
}

/** Each agent's tier before the current frame's assignment, by entity id (scratch owned by the LOD system). */
let _lodPrevTier = new Uint8Array(0);

/** Flags for dense[start .. start+count) from their tiers and the frame number; also counts tiers. */
function applyTierFlags(world: CrowdWorld, state: LodState, lod: LodStore, start: number, count: number): void {
  const dense = world.agents.dense;
  const frame = world.time.frame;
  const r0 = state.rules[0], r1 = state.rules[1], r2 = state.rules[2];
  let n0 = 0, n1 = 0, n2 = 0;
  for (let i = start, end = start + count; i < end; i++) {
    const eid = dense[i];
    const t = lod.tier[eid];
    const rule = t === TIER_NEAR ? r0 : t === TIER_MID ? r1 : r2;
    if (t === TIER_NEAR) n0++; else if (t === TIER_MID) n1++; else n2++;
    let f = rule.flags;
    // Staggered, except on the frame the agent changes tier: its last update was made for the old tier's interval
    // (the funnel caps speeds so an agent does not pass its next corner before its next update), so it is redone
    // for the new one. Without this, an agent leaving the mid tier kept a velocity meant for one frame for up to N,
    // walked past its goal and through a wall (found by the funnel map-change fuzz property, 2026-11-30).
    if (rule.interval > 1 && (frame + eid) % rule.interval !== 0 && _lodPrevTier[eid] === t) f &= ~(LOD_STEER | LOD_CONTACTS);
    lod.flags[eid] = f;
  }
  state.counts[0] = n0; state.counts[1] = n1; state.counts[2] = n2;
}
