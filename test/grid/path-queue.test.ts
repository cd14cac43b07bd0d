import { describe, expect, it } from 'vitest';
import { createRng, rngInt } from '../../src/core/rng';
import { gridFromAscii, setBlocked } from '../../src/grid/grid';
import { findPath } from '../../src/grid/search';
import {
  cancelPathRequest, createPathQueue, PATH_FOUND, PATH_NONE, PATH_PENDING, PATH_UNREACHABLE, pendingPathRequests,
  requestPath, servePathQueue, updatePathRequestStart,
} from '../../src/grid/path-queue';
import { loadMap } from './maps';

describe('servePathQueue', () => {
  it('serves requests FIFO within the per-call budget; a search in progress continues next call; results equal findPath', () => {
    const grid = loadMap('den312d.map');
    const rng = createRng(12);
    const queue = createPathQueue(32);
    const reqs: { s: { x: number; y: number }; g: { x: number; y: number } }[] = [];
    while (reqs.length < 10) {
      const s = rngInt(rng, grid.walkable.length), g = rngInt(rng, grid.walkable.length);
      if (!grid.walkable[s] || !grid.walkable[g]) continue;
      reqs.push({ s: { x: s % grid.width, y: Math.floor(s / grid.width) }, g: { x: g % grid.width, y: Math.floor(g / grid.width) } });
    }
    reqs.forEach((r, i) => requestPath(queue, i + 3, grid, r.s, r.g));
    expect(pendingPathRequests(queue)).toBe(10);
    const order: number[] = [];
    let frames = 0;
    let total = 0;
    while (pendingPathRequests(queue) > 0) {
      const done = servePathQueue(queue, 50);
      expect(queue.lastExpansions).toBeLessThanOrEqual(50); // never over budget
      total += queue.lastExpansions;
      for (let k = 0; k < done; k++) order.push(queue.completed[k]);
      frames++;
      if (frames > 10000) throw new Error('queue never drained');
    }
    expect(order).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    let expected = 0;
    reqs.forEach((r, i) => {
      const ref = findPath(grid, r.s, r.g);
      expected += ref.expanded;
      const id = i + 3;
      expect(queue.status[id]).toBe(ref.status === 'found' ? PATH_FOUND : PATH_UNREACHABLE);
      expect(queue.cost[id]).toBe(ref.cost);
      expect(Array.from(queue.cells[id]!.subarray(0, queue.length[id]))).toEqual(Array.from(ref.cells));
    });
    expect(total).toBe(expected); // resumption wastes no expansions
    expect(frames).toBeGreaterThanOrEqual(Math.ceil(expected / 50));
  });

  it('re-requesting replaces the pending request; cancel skips it; updatePathRequestStart moves a waiting start', () => {
    const grid = gridFromAscii(['..........', '..........']);
    const q = createPathQueue(8);
    requestPath(q, 1, grid, { x: 0, y: 0 }, { x: 9, y: 0 });
    requestPath(q, 2, grid, { x: 0, y: 1 }, { x: 9, y: 1 });
    requestPath(q, 3, grid, { x: 0, y: 0 }, { x: 1, y: 0 });
    requestPath(q, 1, grid, { x: 0, y: 0 }, { x: 5, y: 0 });
    cancelPathRequest(q, 2);
    updatePathRequestStart(q, 3, { x: 4, y: 0 });
    servePathQueue(q, Infinity);
    expect(Array.from(q.completed.subarray(0, q.completedCount))).toEqual([1, 3]);
    expect(q.cost[1]).toBe(5);
    expect(q.status[2]).toBe(PATH_NONE);
    expect(q.cost[3]).toBe(3);
    expect(q.count).toBe(0);
  });

  it('a grid edit during a sliced search restarts it on the new grid; unreachable is a status', () => {
    const grid = gridFromAscii(['..........', '..........', '..........']);
    const q = createPathQueue(4);
    requestPath(q, 0, grid, { x: 0, y: 1 }, { x: 9, y: 1 });
    servePathQueue(q, 2);
    expect(q.status[0]).toBe(PATH_PENDING);
    setBlocked(grid, 5, 0, true);
    setBlocked(grid, 5, 1, true);
    setBlocked(grid, 5, 2, true);
    while (q.status[0] === PATH_PENDING) servePathQueue(q, 2);
    expect(q.status[0]).toBe(PATH_UNREACHABLE);
    expect(q.plannedVersion[0]).toBe(grid.version);
  });

  it('rejects bad ids, cells and budgets', () => {
    const grid = gridFromAscii(['...']);
    const q = createPathQueue(2);
    expect(() => requestPath(q, 2, grid, { x: 0, y: 0 }, { x: 1, y: 0 })).toThrow(/id/);
    expect(() => requestPath(q, 0, grid, { x: 3, y: 0 }, { x: 1, y: 0 })).toThrow(/start\.x/);
    expect(() => servePathQueue(q, NaN)).toThrow(/maxExpansions/);
    expect(() => createPathQueue(0)).toThrow(/capacity/);
  });
});

describe('path queue: cancel and request again', () => {
  it('a requester that cancels and requests again holds one slot, so a full queue never overflows (a despawned agent\'s id recycled to a new one); each is served once with its last endpoints', () => {
    // Found 2026-11-29 through the astar scenario: with every requester cancelled and re-requested before the
    // queue was served, the stale entries plus the new ones overflowed the ring (InvalidArgumentError).
    const grid = gridFromAscii(['..........', '..........', '..........']);
    const cap = 8;
    const queue = createPathQueue(cap);
    for (let id = 0; id < cap; id++) requestPath(queue, id, grid, { x: 0, y: 0 }, { x: 9, y: 2 });
    for (let round = 0; round < 5; round++) {
      for (let id = 0; id < cap; id++) {
        cancelPathRequest(queue, id);
        requestPath(queue, id, grid, { x: 0, y: id % 3 }, { x: 9 - round, y: 2 });
      }
    }
    expect(queue.count).toBe(cap);
    expect(pendingPathRequests(queue)).toBe(cap);
    const served: number[] = [];
    while (pendingPathRequests(queue) > 0) {
      servePathQueue(queue, 1000);
      for (let k = 0; k < queue.completedCount; k++) served.push(queue.completed[k]);
    }
    expect(served.slice().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (let id = 0; id < cap; id++) {
      expect(queue.status[id]).toBe(PATH_FOUND);
      const ref = findPath(grid, { x: 0, y: id % 3 }, { x: 5, y: 2 });
      expect(queue.cost[id]).toBeCloseTo(ref.cost, 12); // the last request's endpoints (round 4: goal x = 5)
    }
    // a cancelled entry that is never re-requested is dropped when reached, and frees the slot
    cancelPathRequest(queue, 3);
    requestPath(queue, 4, grid, { x: 0, y: 0 }, { x: 1, y: 1 });
    expect(queue.status[3]).toBe(PATH_NONE);
    servePathQueue(queue, 1000);
    expect(queue.count).toBe(0);
  });
});
