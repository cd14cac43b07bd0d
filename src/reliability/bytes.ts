import { CapacityError, MalformedInputError } from '../core/errors';

/**
 * Little-endian binary writer and bounds-checked reader for snapshots. The writer grows its buffer by doubling; the
 * reader never reads past its end and reports a truncated or corrupt buffer as a MalformedInputError naming the
 * byte offset, so a bad snapshot is rejected before anything in the world is touched.
 */
export class ByteWriter {
  private buf: Uint8Array;
  private view: DataView;
  length = 0;

  constructor(initialBytes = 1024) {
    this.buf = new Uint8Array(initialBytes);
    this.view = new DataView(this.buf.buffer);
  }

  private ensure(n: number): void {
    const need = this.length + n;
    if (need <= this.buf.length) return;
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }

  u8(v: number): void { this.ensure(1); this.view.setUint8(this.length, v); this.length += 1; }
  u32(v: number): void { this.ensure(4); this.view.setUint32(this.length, v, true); this.length += 4; }
  i32(v: number): void { this.ensure(4); this.view.setInt32(this.length, v, true); this.length += 4; }
  f64(v: number): void { this.ensure(8); this.view.setFloat64(this.length, v, true); this.length += 8; }
  /** Raw bytes (copied). */
  bytes(src: Uint8Array): void { this.ensure(src.length); this.buf.set(src, this.length); this.length += src.length; }
  /** UTF-8 string with a u32 byte length. */
  str(s: string): void { const b = _encoder.encode(s); this.u32(b.length); this.bytes(b); }
  /** Overwrite a u32 at an earlier offset (for lengths known only at the end). */
  patchU32(offset: number, v: number): void { this.view.setUint32(offset, v, true); }
  /** A copy of the written bytes. */
  finish(): Uint8Array { return this.buf.slice(0, this.length); }
}

const _encoder = new TextEncoder();
const _decoder = new TextDecoder('utf-8', { fatal: true });

export class ByteReader {
  private readonly view: DataView;
  offset = 0;

  constructor(readonly buf: Uint8Array, private readonly field = 'bytes') {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  get remaining(): number { return this.buf.length - this.offset; }

  /** Throw unless n more bytes can be read. */
  need(n: number, what: string): void {
    if (!(n >= 0) || n > this.remaining) {
      throw new MalformedInputError(this.field, this.buf, `truncated or corrupt snapshot: ${what} needs ${n} bytes at offset ${this.offset}, ${this.remaining} left`);
    }
  }

  fail(message: string): never {
    throw new MalformedInputError(this.field, this.buf, `${message} (at byte ${this.offset})`);
  }

  u8(what: string): number { this.need(1, what); const v = this.view.getUint8(this.offset); this.offset += 1; return v; }
  u32(what: string): number { this.need(4, what); const v = this.view.getUint32(this.offset, true); this.offset += 4; return v; }
  i32(what: string): number { this.need(4, what); const v = this.view.getInt32(this.offset, true); this.offset += 4; return v; }
  f64(what: string): number { this.need(8, what); const v = this.view.getFloat64(this.offset, true); this.offset += 8; return v; }
  /** A u32 count, checked against `max` and against the bytes left (each element takes at least `minBytesEach`). */
  count(what: string, max: number, minBytesEach: number): number {
    const n = this.u32(what);
    if (n > max) throw new CapacityError(this.field, n, `${what} ${n} exceeds the limit ${max}`);
    this.need(n * minBytesEach, what);
    return n;
  }
  bytes(n: number, what: string): Uint8Array { this.need(n, what); const b = this.buf.slice(this.offset, this.offset + n); this.offset += n; return b; }
  str(what: string): string {
    const n = this.count(what, 1 << 20, 1);
    const b = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    try { return _decoder.decode(b); } catch { return this.fail(`${what} is not valid UTF-8`); }
  }
}
