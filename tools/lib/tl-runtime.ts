/**
 * TL binary encoding (the runtime the generated liteserver codecs call). Little-endian words; `bytes`/`string` with a
 * 1-byte length (or 0xfe and a 3-byte length from 254 bytes on), padded to 4 bytes; Bool as a boxed constructor.
 */

export const BOOL_TRUE = 0x997275b5;
export const BOOL_FALSE = 0xbc799737;

/** Largest `bytes` value a reader accepts: the ADNL-TCP packet limit, so a hostile length cannot allocate more. */
const MAX_BYTES = 1 << 24;

export class TlError extends Error {
  override name = 'TlError';
}

export class TlWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(initial = 256) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  int(v: number): void {
    if (!Number.isInteger(v) || v < -0x80000000 || v > 0xffffffff) throw new TlError(`not a 32-bit integer: ${v}`);
    this.ensure(4);
    if (v < 0) this.buf.writeInt32LE(v, this.pos);
    else this.buf.writeUInt32LE(v, this.pos);
    this.pos += 4;
  }

  long(v: bigint): void {
    this.ensure(8);
    this.buf.writeBigUInt64LE(BigInt.asUintN(64, v), this.pos);
    this.pos += 8;
  }

  raw(b: Buffer | Uint8Array, size?: number): void {
    if (size !== undefined && b.length !== size) throw new TlError(`expected ${size} bytes, got ${b.length}`);
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  bytes(b: Buffer | Uint8Array): void {
    const len = b.length;
    if (len >= MAX_BYTES) throw new TlError(`bytes value too long: ${len}`);
    const head = len < 254 ? 1 : 4;
    const pad = (4 - ((head + len) % 4)) % 4;
    this.ensure(head + len + pad);
    if (len < 254) this.buf[this.pos++] = len;
    else {
      this.buf[this.pos++] = 0xfe;
      this.buf.writeUIntLE(len, this.pos, 3);
      this.pos += 3;
    }
    this.buf.set(b, this.pos);
    this.pos += len;
    this.buf.fill(0, this.pos, this.pos + pad);
    this.pos += pad;
  }

  string(s: string): void {
    this.bytes(Buffer.from(s, 'utf8'));
  }

  bool(v: boolean): void {
    this.int(v ? BOOL_TRUE : BOOL_FALSE);
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

export class TlReader {
  pos = 0;
  constructor(readonly buf: Buffer) {}

  private need(n: number): void {
    if (this.pos + n > this.buf.length) throw new TlError(`TL data ends early (need ${n} bytes at ${this.pos} of ${this.buf.length})`);
  }

  int(): number {
    this.need(4);
    const v = this.buf.readInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  uint(): number {
    this.need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  long(): bigint {
    this.need(8);
    const v = this.buf.readBigInt64LE(this.pos);
    this.pos += 8;
    return v;
  }

  raw(n: number): Buffer {
    this.need(n);
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }

  bytes(): Buffer {
    this.need(1);
    let len = this.buf[this.pos++];
    let head = 1;
    if (len === 0xfe) {
      this.need(3);
      len = this.buf.readUIntLE(this.pos, 3);
      this.pos += 3;
      head = 4;
    } else if (len === 0xff) throw new TlError('TL bytes with an 0xff length byte');
    const pad = (4 - ((head + len) % 4)) % 4;
    this.need(len + pad);
    const v = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len + pad;
    return v;
  }

  string(): string {
    return this.bytes().toString('utf8');
  }

  bool(): boolean {
    const id = this.uint();
    if (id === BOOL_TRUE) return true;
    if (id === BOOL_FALSE) return false;
    throw new TlError(`not a Bool: 0x${id.toString(16)}`);
  }

  /** Reads a vector length, refusing counts the remaining data cannot hold (each element takes at least 4 bytes). */
  count(minElementSize = 4): number {
    const n = this.uint();
    if (n * minElementSize > this.buf.length - this.pos) throw new TlError(`TL vector of ${n} elements does not fit in the data`);
    return n;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  end(): void {
    if (this.pos !== this.buf.length) throw new TlError(`${this.buf.length - this.pos} unexpected bytes after the TL object`);
  }
}

/** A TL function: its constructor id, how to write and read a call, and how to write and read its boxed result. */
export interface TlFunction<P, R> {
  readonly name: string;
  readonly id: number;
  /** Boxed call: id then params. */
  write(w: TlWriter, params: P): void;
  /** Params after the id (the caller already read it). */
  readParams(r: TlReader): P;
  writeResult(w: TlWriter, result: R): void;
  readResult(r: TlReader): R;
}

export function encode<P>(fn: TlFunction<P, unknown>, params: P): Buffer {
  const w = new TlWriter();
  fn.write(w, params);
  return w.finish();
}
