/**
 * The spatial hash's bucket function, shared by the hash (src/spatial/hash.ts) and the batch k-nearest kernel's
 * hashed cells (src/spatial/knn-dense.ts).
 */

/**
 * Bucket of cell (cx, cy) in the tiled table (see the header comment). `local` is the cell's row-major index
 * inside its W x H tile; the tile (tx, ty) = (cx >> wBits, cy >> hBits) (arithmetic shifts, i.e. floor division,
 * so negative cells work) adds a mixed offset. The mix is a murmur3-style finaliser of a Teschner-style product
 * hash; tile (0, 0) maps to offset 0.
 */
export function spatialHashBucket(cx: number, cy: number, wBits: number, hBits: number): number {
  const local = ((cy & ((1 << hBits) - 1)) << wBits) | (cx & ((1 << wBits) - 1));
  let h = Math.imul(cx >> wBits, 73856093) ^ Math.imul(cy >> hBits, 19349663);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return (local + h) & ((1 << (wBits + hBits)) - 1);
}
