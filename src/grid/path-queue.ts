/**
 * Time-sliced path requests. Many agents asking for A* paths in the same frame would stall it; instead requests
 * wait in a FIFO queue and `servePathQueue` spends at most a given number of node expansions per call (per frame).
 * The request at the head keeps its search state (one GridSearch owned by the queue) between calls, so a long
 * search simply continues next frame; finished requests leave their result in per-requester slots.
 *
 * Requesters are small integers in [0, capacity) (entity ids in the navigation system). A requester has at most one
 * pending request: asking again replaces the pending one (and restarts it if it was being searched). Results stay
 * readable until the requester's next request completes. The queue allocates only when a path longer than any
 * earlier path of the same requester arrives (its buffer doubles).
 */
import { InvalidArgumentError, OutOfRangeError } from '../core/errors';
import { requireInteger } from '../core/validate';
import { type Grid, requireGridCell } from './grid';
import {
  beginGridSearch, createGridSearch, gridSearchCost, gridSearchPathLength, readGridSearchPath, stepGridSearch,
  type FindPathOptions, type GridSearch,
} from './search';

export const PATH_NONE = 0;
export const PATH_PENDING = 1;
export const PATH_FOUND = 2;
export const PATH_UNREACHABLE = 3;

export interface PathQueue {
  readonly capacity: number;
  /** Search options shared by every request (no `search` / `maxExpansions`: the queue owns those). */
  readonly options: FindPathOptions;
  readonly search: GridSearch;
  /**
   * FIFO ring of requester ids. A cancelled request leaves its entry in place (skipped when reached); `inRing[id]`
   * is 1 while an entry for `id` is in the ring, so a new request from `id` reuses it instead of taking a second slot
   * (each requester holds at most one, so the ring of `capacity` slots never overflows).
   */
  ring: Int32Array;
  inRing: Uint8Array;
  head: number;
  count: number;
  /** Per requester: its pending request (start/goal cell indices, grid), if `status === PATH_PENDING`. */
  startCell: Int32Array;
  goalCell: Int32Array;
  grids: (Grid | null)[];
  /** Requester whose search is in progress in `search`, or −1. */
  active: number;
  /** Per requester: PATH_NONE, PATH_PENDING, PATH_FOUND or PATH_UNREACHABLE. */
  status: Uint8Array;
  /** Per requester result: cells (start first), count, cost, and the grid version it was planned on. */
  cells: (Int32Array | null)[];
  length: Int32Array;
  cost: Float64Array;
  plannedVersion: Float64Array;
  /** Requesters whose request completed during the last servePathQueue call, and how many. */
  completed: Int32Array;
  completedCount: number;
  /** Expansions spent by the last servePathQueue call. */
  lastExpansions: number;
}

/**
 * A queue for requesters 0 .. capacity−1. `options` are the findPath options used for every request
 * (connectivity, cornerCutting, heuristic, weight, tieBreak, goalRadius).
 */
export function createPathQueue(capacity: number, options: FindPathOptions = {}): PathQueue {
  requireInteger('capacity', capacity, 1, 1 << 26);
  if (options.search !== undefined || options.maxExpansions !== undefined) {
    throw new InvalidArgumentError('options', 'search/maxExpansions', 'are owned by the queue; pass the budget to servePathQueue');
  }
  return {
    capacity,
    options: { ...options },
    search: createGridSearch(0),
    ring: new Int32Array(capacity),
    inRing: new Uint8Array(capacity),
    head: 0,
    count: 0,
    startCell: new Int32Array(capacity),
    goalCell: new Int32Array(capacity),
    grids: new Array<Grid | null>(capacity).fill(null),
    active: -1,
    status: new Uint8Array(capacity),
    cells: new Array<Int32Array | null>(capacity).fill(null),
    length: new Int32Array(capacity),
    cost: new Float64Array(capacity),
    plannedVersion: new Float64Array(capacity),
    completed: new Int32Array(capacity),
    completedCount: 0,
    lastExpansions: 0,
  };
}

function requireRequester(queue: PathQueue, id: number): void {
  if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= queue.capacity) {
    throw new OutOfRangeError('id', id, `must be an integer requester id in 0..${queue.capacity - 1}`);
  }
}

/**
 * Ask for a path for requester `id` from `start` to `goal` (cells). Replaces any pending request of `id` (keeping its
 * place in the line); a request that was being searched restarts. Throws on out-of-range ids or cells.
 */
export function requestPath(queue: PathQueue, id: number, grid: Grid, start: { x: number; y: number }, goal: { x: number; y: number }): void {
  requireRequester(queue, id);
  const s = requireGridCell(grid, 'start', start);
  const g = requireGridCell(grid, 'goal', goal);
  queue.startCell[id] = s;
  queue.goalCell[id] = g;
  queue.grids[id] = grid;
  if (queue.status[id] === PATH_PENDING) {
    if (queue.active === id) queue.active = -1; // restart with the new endpoints when it comes up again
    return;
  }
  queue.status[id] = PATH_PENDING;
  // A cancelled request's entry still waiting in the ring is taken over (its place in the line is kept).
  if (queue.inRing[id] === 1) return;
  if (queue.count >= queue.capacity) {
    // Cannot happen: each requester holds at most one slot. Guard against a corrupted ring all the same.
    queue.status[id] = PATH_NONE;
    throw new InvalidArgumentError('queue', queue.count, 'ring overflow');
  }
  queue.ring[(queue.head + queue.count) % queue.capacity] = id;
  queue.inRing[id] = 1;
  queue.count++;
}

/**
 * Update the start of a pending request that is not being searched yet (agents keep moving while they wait).
 * Does nothing if `id` has no pending request or its search has already begun.
 */
export function updatePathRequestStart(queue: PathQueue, id: number, start: { x: number; y: number }): void {
  requireRequester(queue, id);
  if (queue.status[id] !== PATH_PENDING || queue.active === id) return;
  queue.startCell[id] = requireGridCell(queue.grids[id]!, 'start', start);
}

/** Withdraw `id`'s pending request (its slot in the line is skipped) and forget its result. */
export function cancelPathRequest(queue: PathQueue, id: number): void {
  requireRequester(queue, id);
  if (queue.active === id) queue.active = -1;
  queue.status[id] = PATH_NONE; // a PENDING entry left in the ring is skipped when reached
  queue.length[id] = 0;
  queue.grids[id] = null;
}

/** Pending requests (including one in progress). */
export function pendingPathRequests(queue: PathQueue): number {
  let n = 0;
  for (let k = 0; k < queue.count; k++) if (queue.status[queue.ring[(queue.head + k) % queue.capacity]] === PATH_PENDING) n++;
  return n;
}

/**
 * Spend up to `maxExpansions` node expansions on the queue, oldest request first; a search that runs out of
 * budget continues on the next call. Returns how many requests completed (their ids are in `queue.completed`).
 */
export function servePathQueue(queue: PathQueue, maxExpansions: number): number {
  if (typeof maxExpansions !== 'number' || Number.isNaN(maxExpansions) || maxExpansions < 0) {
    throw new InvalidArgumentError('maxExpansions', maxExpansions, 'must be a number ≥ 0 (Infinity allowed)');
  }
  queue.completedCount = 0;
  let budget = maxExpansions;
  let spentTotal = 0;
  const search = queue.search;
  while (queue.count > 0) {
    const id = queue.ring[queue.head];
    if (queue.status[id] !== PATH_PENDING) {
      // Cancelled while waiting: drop the stale ring entry.
      queue.inRing[id] = 0;
      queue.head = (queue.head + 1) % queue.capacity;
      queue.count--;
      continue;
    }
    if (budget <= 0) break;
    const grid = queue.grids[id]!;
    if (queue.active !== id) {
      const w = grid.width;
      const s = queue.startCell[id], g = queue.goalCell[id];
      _qStart.x = s % w;
      _qStart.y = (s - _qStart.x) / w;
      _qGoal.x = g % w;
      _qGoal.y = (g - _qGoal.x) / w;
      beginGridSearch(search, grid, _qStart, _qGoal, queue.options, 'astar');
      queue.active = id;
    }
    const before = search.expanded;
    const r = stepGridSearch(search, budget);
    const spent = search.expanded - before;
    budget -= spent;
    spentTotal += spent;
    if (r === 'budget') break;
    // Done: copy the result out of the shared search state.
    if (r === 'found') {
      const len = gridSearchPathLength(search);
      let buf = queue.cells[id];
      if (buf === null || buf.length < len) {
        let cap = buf === null ? 64 : buf.length;
        while (cap < len) cap *= 2;
        buf = new Int32Array(cap);
        queue.cells[id] = buf;
      }
      readGridSearchPath(search, buf);
      queue.length[id] = len;
      queue.cost[id] = gridSearchCost(search);
      queue.status[id] = PATH_FOUND;
    } else {
      queue.length[id] = 0;
      queue.cost[id] = Infinity;
      queue.status[id] = PATH_UNREACHABLE;
    }
    queue.plannedVersion[id] = grid.version;
    queue.active = -1;
    queue.inRing[id] = 0;
    queue.head = (queue.head + 1) % queue.capacity;
    queue.count--;
    queue.completed[queue.completedCount++] = id;
  }
  queue.lastExpansions = spentTotal;
  return queue.completedCount;
}

const _qStart = { x: 0, y: 0 };
const _qGoal = { x: 0, y: 0 };
