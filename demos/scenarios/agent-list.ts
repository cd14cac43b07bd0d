/**
 * A list of the agents a scenario drives (its walkers, squad members, prey...), kept in step with the world when
 * agents are despawned from outside the scenario: a game removes units its own logic still refers to all the time.
 *
 * The list drops an agent in a despawn hook (onDespawn), that is while the id is still live and before bitecs can
 * recycle it. Checking `isAgent` each frame instead would not be enough: bitecs hands a freed id to the next spawn,
 * so an id that died and came back as someone else's agent is live again and would be driven as the old one. Only
 * the scenario adds ids (addToList); an id spawned by anyone else is never adopted.
 *
 * Order is kept on removal (the tail shifts down), so the scenario's per-frame iteration order stays a function of
 * its history (determinism). Removal is O(n) in the list length and happens only on a despawn; the per-frame
 * readers (ids[0..count)) allocate nothing. `view` is ids[0..count) as a subarray, replaced on each removal (the one
 * allocation, at despawn time, for callers that want a plain Int32Array of the live members).
 */
import type { CrowdWorld } from '../../src/world/crowd';

export interface AgentList {
  /** Members in the order they were added; entries [0, count) are valid. */
  readonly ids: Int32Array;
  count: number;
  /** ids.subarray(0, count), refreshed on every change. */
  view: Int32Array;
  /** Per entity id: 1 while that id is in the list. */
  readonly member: Uint8Array;
}

/** A list for up to `max` agents of `world` (ids up to world.capacity). */
export function createAgentList(world: CrowdWorld, max: number): AgentList {
  const ids = new Int32Array(max);
  return { ids, count: 0, view: ids.subarray(0, 0), member: new Uint8Array(world.capacity + 1) };
}

/** Append an agent the scenario spawned. */
export function addToList(list: AgentList, eid: number): void {
  if (list.member[eid] === 1) return;
  if (list.count === list.ids.length) throw new Error(`agent list is full (${list.ids.length})`);
  list.ids[list.count++] = eid;
  list.member[eid] = 1;
  list.view = list.ids.subarray(0, list.count);
}

/**
 * Remove `eid` if it is in the list; returns the index it had (so parallel arrays can shift the same way), or -1.
 */
export function removeFromList(list: AgentList, eid: number): number {
  if (list.member[eid] !== 1) return -1;
  list.member[eid] = 0;
  const ids = list.ids;
  let at = -1;
  for (let i = 0; i < list.count; i++) {
    if (ids[i] === eid) { at = i; break; }
  }
  for (let i = at + 1; i < list.count; i++) ids[i - 1] = ids[i];
  list.count--;
  list.view = ids.subarray(0, list.count);
  return at;
}
