import { createVec2Store, type Vec2Store } from './vec2';

/** Agent position on the ground plane, metres. `previous` holds the position before the last step (for render interpolation). */
export interface PositionStore extends Vec2Store {
  readonly previousX: Float64Array;
  readonly previousY: Float64Array;
}

export function createPositionStore(capacity: number, shared: boolean): PositionStore {
  const now = createVec2Store(capacity, shared);
  const prev = createVec2Store(capacity, shared);
  return { x: now.x, y: now.y, previousX: prev.x, previousY: prev.y };
}
