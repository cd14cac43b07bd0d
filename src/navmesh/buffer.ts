/**
 * A navmesh lives in ONE ArrayBuffer (flatbush-style): the typed arrays of `Navmesh` are views into it, so a mesh
 * can be transferred to a worker, put in a SharedArrayBuffer, or saved and loaded without rebuilding.
 *
 * Layout (little-endian host order, every section 8-byte aligned):
 *   header  Float64 × 16: magic, version, radius, vertexCount, triangleCount, minX, minY, maxX, maxY, gridCell,
 *                         gridCols, gridRows, gridTrisLength, 0, 0, 0
 *   vertices f64 × 2V | triangles u32 × 3T | neighbours i32 × 3T | component i32 × T | gridStart u32 × (C·R + 1) |
 *   gridTris u32 × G | corner u8 × V
 */
import type { Navmesh } from './build';
import { MalformedInputError } from '../core/errors';

const MAGIC = 0x4e41564d; // "NAVM"
const VERSION = 1;
const HEADER = 16;

interface Sizes { nv: number; nt: number; cells: number; ng: number }

function align8(n: number): number {
  return (n + 7) & ~7;
}

function layout(z: Sizes): { offsets: number[]; bytes: number } {
  const sizes = [HEADER * 8, 16 * z.nv, 12 * z.nt, 12 * z.nt, 4 * z.nt, 4 * (z.cells + 1), 4 * z.ng, z.nv];
  const offsets: number[] = [];
  let o = 0;
  for (const s of sizes) { offsets.push(o); o = align8(o + s); }
  return { offsets, bytes: o };
}

/** Views of a navmesh over `buffer` (no copy). */
function views(buffer: ArrayBuffer | SharedArrayBuffer, h: Float64Array, z: Sizes): Navmesh {
  const { offsets: off } = layout(z);
  return {
    buffer,
    radius: h[2], vertexCount: z.nv, triangleCount: z.nt,
    vertices: new Float64Array(buffer, off[1], 2 * z.nv),
    triangles: new Uint32Array(buffer, off[2], 3 * z.nt),
    neighbours: new Int32Array(buffer, off[3], 3 * z.nt),
    component: new Int32Array(buffer, off[4], z.nt),
    gridStart: new Uint32Array(buffer, off[5], z.cells + 1),
    gridTris: new Uint32Array(buffer, off[6], z.ng),
    corner: new Uint8Array(buffer, off[7], z.nv),
    minX: h[5], minY: h[6], maxX: h[7], maxY: h[8], gridCell: h[9], gridCols: h[10], gridRows: h[11],
  };
}

/** Copy a navmesh's arrays into one fresh ArrayBuffer and return the mesh as views of it. */
export function packNavmesh(m: Omit<Navmesh, 'buffer'>): Navmesh {
  const z: Sizes = { nv: m.vertexCount, nt: m.triangleCount, cells: m.gridCols * m.gridRows, ng: m.gridTris.length };
  const buffer = new ArrayBuffer(layout(z).bytes);
  const h = new Float64Array(buffer, 0, HEADER);
  h.set([MAGIC, VERSION, m.radius, z.nv, z.nt, m.minX, m.minY, m.maxX, m.maxY, m.gridCell, m.gridCols, m.gridRows, z.ng]);
  const out = views(buffer, h, z);
  out.vertices.set(m.vertices.subarray(0, 2 * z.nv));
  out.triangles.set(m.triangles);
  out.neighbours.set(m.neighbours);
  out.component.set(m.component);
  out.gridStart.set(m.gridStart);
  out.gridTris.set(m.gridTris);
  out.corner.set(m.corner);
  return out;
}

/**
 * Rebuild a Navmesh over a buffer from `mesh.buffer` (saved, transferred or shared). No copy. The buffer is
 * checked (header, sizes, every index in range) and a MalformedInputError names what is wrong.
 */
export function navmeshFromBuffer(buffer: ArrayBuffer | SharedArrayBuffer): Navmesh {
  const isBuf = buffer instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && buffer instanceof SharedArrayBuffer);
  if (!isBuf) throw new MalformedInputError('buffer', buffer, 'must be an ArrayBuffer or SharedArrayBuffer');
  if (buffer.byteLength < HEADER * 8) throw new MalformedInputError('buffer', buffer.byteLength, 'too short for a navmesh header');
  const h = new Float64Array(buffer, 0, HEADER);
  if (h[0] !== MAGIC) throw new MalformedInputError('buffer', h[0], 'not a Murmur navmesh (bad magic number)');
  if (h[1] !== VERSION) throw new MalformedInputError('buffer.version', h[1], `unsupported navmesh version (expected ${VERSION})`);
  const z: Sizes = { nv: h[3], nt: h[4], cells: h[10] * h[11], ng: h[12] };
  for (const [k, v] of [['vertexCount', z.nv], ['triangleCount', z.nt], ['gridCells', z.cells], ['gridTris', z.ng]] as const) {
    if (!Number.isInteger(v) || v < 0) throw new MalformedInputError(`buffer.${k}`, v, 'must be a non-negative integer');
  }
  if (!(h[2] >= 0) || !(h[9] > 0)) throw new MalformedInputError('buffer.header', h[2], 'bad radius or grid cell size');
  if (layout(z).bytes !== buffer.byteLength) {
    throw new MalformedInputError('buffer.byteLength', buffer.byteLength, `expected ${layout(z).bytes} bytes for these counts`);
  }
  const m = views(buffer, h, z);
  for (let i = 0; i < m.triangles.length; i++) {
    if (m.triangles[i] >= z.nv) throw new MalformedInputError(`buffer.triangles[${i}]`, m.triangles[i], 'vertex index out of range');
    const nb = m.neighbours[i];
    if (nb < -1 || nb >= z.nt) throw new MalformedInputError(`buffer.neighbours[${i}]`, nb, 'triangle index out of range');
  }
  for (let i = 0; i < m.vertices.length; i++) {
    if (!Number.isFinite(m.vertices[i])) throw new MalformedInputError(`buffer.vertices[${i}]`, m.vertices[i], 'must be finite');
  }
  for (let i = 0; i < z.ng; i++) {
    if (m.gridTris[i] >= z.nt) throw new MalformedInputError(`buffer.gridTris[${i}]`, m.gridTris[i], 'triangle index out of range');
  }
  for (let i = 0; i < z.cells; i++) {
    if (m.gridStart[i] > m.gridStart[i + 1] || m.gridStart[z.cells] !== z.ng) {
      throw new MalformedInputError(`buffer.gridStart[${i}]`, m.gridStart[i], 'grid offsets must be non-decreasing and end at gridTris length');
    }
  }
  return m;
}
