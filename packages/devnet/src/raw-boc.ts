import { createHash } from 'node:crypto';

/**
 * A bag of cells read in place: each cell's descriptor bytes, data and child indexes, without building @ton/core
 * Cells. @ton/core copies every cell's data bit by bit into a builder and hashes every cell on parse, about half a
 * millisecond for a wallet transfer's transaction — a third of what the TVM took to run it. The devnet's message
 * runner needs only a few fields, the root's hash and some sub-trees re-serialized, which this gives in tens of
 * microseconds. It reads ordinary cells only: anything else (exotic cells, stored hashes, several roots) → null,
 * and the caller goes the @ton/core way.
 */
export class RawBoc {
  private readonly hashes: (Buffer | undefined)[];
  private readonly depths: number[];

  private constructor(
    /** Each cell's data, as serialized (padded, with the completion tag when the bit length is not a multiple of 8). */
    readonly data: Buffer[],
    /** Each cell's bit length. */
    readonly bits: number[],
    /** Each cell's children, as indexes into this bag (always after the parent). */
    readonly refs: number[][],
    readonly root: number,
  ) {
    this.hashes = new Array(data.length);
    this.depths = new Array(data.length);
  }

  static parse(boc: Uint8Array): RawBoc | null {
    const b = Buffer.from(boc.buffer, boc.byteOffset, boc.byteLength);
    if (b.length < 6 || b.readUInt32BE(0) !== 0xb5ee9c72) return null;
    const flags = b[4];
    const size = flags & 7;
    const offBytes = b[5];
    if (size < 1 || size > 4 || offBytes < 1 || offBytes > 8 || (flags & 0x38) !== 0) return null;
    let p = 6;
    const read = (n: number) => {
      let v = 0;
      for (let i = 0; i < n; i++) v = v * 256 + b[p++];
      return v;
    };
    if (b.length < p + 3 * size + offBytes + size) return null;
    const count = read(size);
    const roots = read(size);
    const absent = read(size);
    const total = read(offBytes);
    if (roots !== 1 || absent !== 0 || count < 1) return null;
    const root = read(size);
    if (flags & 0x80) p += count * offBytes;
    const end = p + total;
    if (root >= count || end + (flags & 0x40 ? 4 : 0) > b.length) return null;
    // The checksum covers everything before it; a BOC that fails it is not read (nor would @ton/core read it).
    if (flags & 0x40 && crc32c(b.subarray(0, end)) !== b.readUInt32LE(end)) return null;
    const data: Buffer[] = new Array(count);
    const bits: number[] = new Array(count);
    const refs: number[][] = new Array(count);
    for (let i = 0; i < count; i++) {
      if (p + 2 > end) return null;
      const d1 = b[p];
      const d2 = b[p + 1];
      p += 2;
      const refCount = d1 & 7;
      // Exotic (8), stored hashes (16) or a level above 0: not what this reader handles.
      if (d1 & 0xf8 || refCount > 4) return null;
      const len = (d2 + 1) >> 1;
      if (p + len + refCount * size > end) return null;
      data[i] = b.subarray(p, p + len);
      if (d2 & 1) {
        const tagged = dataBits(data[i]);
        if (tagged < 0) return null;
        bits[i] = tagged;
      } else bits[i] = d2 * 4;
      p += len;
      const children: number[] = [];
      for (let r = 0; r < refCount; r++) {
        const child = read(size);
        if (child <= i || child >= count) return null;
        children.push(child);
      }
      refs[i] = children;
    }
    return new RawBoc(data, bits, refs, root);
  }

  /** The representation hash of cell `i` (what @ton/core's Cell.hash() gives for an ordinary cell). */
  hash(i: number): Buffer {
    const known = this.hashes[i];
    if (known) return known;
    // Children sit after their parents: hash from the last cell up, so no recursion is needed.
    for (let c = this.data.length - 1; c >= i; c--) if (!this.hashes[c]) this.computeHash(c);
    return this.hashes[i]!;
  }

  private computeHash(i: number): void {
    const children = this.refs[i];
    const data = this.data[i];
    const repr = Buffer.allocUnsafe(2 + data.length + children.length * 34);
    repr[0] = children.length;
    repr[1] = Math.ceil(this.bits[i] / 8) + Math.floor(this.bits[i] / 8);
    data.copy(repr, 2);
    let p = 2 + data.length;
    let depth = 0;
    for (const c of children) {
      repr.writeUInt16BE(this.depths[c], p);
      p += 2;
      depth = Math.max(depth, this.depths[c] + 1);
    }
    for (const c of children) {
      this.hashes[c]!.copy(repr, p);
      p += 32;
    }
    this.depths[i] = depth;
    this.hashes[i] = createHash('sha256').update(repr).digest();
  }

  /** Cell `i` and everything under it as a BOC of its own (one root, no index, no checksum). */
  toBoc(i: number): Buffer {
    // Reverse post-order: every cell before the cells it references, as the format requires.
    const order: number[] = [];
    const seen = new Set<number>();
    const visit = (c: number) => {
      if (seen.has(c)) return;
      seen.add(c);
      for (const r of this.refs[c]) visit(r);
      order.push(c);
    };
    visit(i);
    order.reverse();
    const index = new Map<number, number>();
    order.forEach((c, k) => index.set(c, k));
    const size = byteLength(order.length);
    let total = 0;
    for (const c of order) total += 2 + this.data[c].length + this.refs[c].length * size;
    const offBytes = byteLength(total);
    const out = Buffer.allocUnsafe(6 + 3 * size + offBytes + size + total);
    out.writeUInt32BE(0xb5ee9c72, 0);
    out[4] = size;
    out[5] = offBytes;
    let p = 6;
    const write = (v: number, n: number) => {
      for (let k = n - 1; k >= 0; k--) out[p++] = Math.floor(v / 256 ** k) % 256;
    };
    write(order.length, size);
    write(1, size);
    write(0, size);
    write(total, offBytes);
    write(0, size);
    for (const c of order) {
      out[p++] = this.refs[c].length;
      out[p++] = Math.ceil(this.bits[c] / 8) + Math.floor(this.bits[c] / 8);
      p += this.data[c].copy(out, p);
      for (const r of this.refs[c]) write(index.get(r)!, size);
    }
    return out;
  }
}

const CRC32C_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32C (Castagnoli), as BOC checksums use it. */
export function crc32c(data: Uint8Array): number {
  let crc = -1;
  for (let i = 0; i < data.length; i++) crc = CRC32C_TABLE[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** Bytes needed to write `n` (at least one). */
function byteLength(n: number): number {
  let bytes = 1;
  while (n >= 256 ** bytes) bytes++;
  return bytes;
}

/** Bit length of a cell's data whose last byte carries the completion tag (a 1 followed by zeros); -1 if it has none. */
export function dataBits(data: Uint8Array): number {
  const last = data[data.length - 1];
  if (data.length === 0 || last === 0) return -1;
  let bits = data.length * 8;
  for (let b = last; (b & 1) === 0; b >>= 1) bits--;
  return bits - 1;
}

/** Reads a cell's data bits in order; every read checks the cell's bit length. */
export class BitCursor {
  constructor(
    private readonly data: Uint8Array,
    private readonly bits: number,
    public offset = 0,
  ) {}

  get remaining(): number {
    return this.bits - this.offset;
  }

  /** `n` ≤ 32 bits, big-endian. */
  uint(n: number): number {
    if (n > 32 || this.offset + n > this.bits) throw new RangeError(`cannot read ${n} bits at ${this.offset} of ${this.bits}`);
    let v = 0;
    for (let i = this.offset; i < this.offset + n; i++) v = v * 2 + ((this.data[i >> 3] >> (7 - (i & 7))) & 1);
    this.offset += n;
    return v;
  }

  bit(): boolean {
    return this.uint(1) === 1;
  }

  skip(n: number): void {
    if (this.offset + n > this.bits) throw new RangeError(`cannot skip ${n} bits at ${this.offset} of ${this.bits}`);
    this.offset += n;
  }

  /** `n` bits as bytes (n a multiple of 8). */
  bytes(n: number): Buffer {
    const out = Buffer.alloc(n / 8);
    for (let k = 0; k < out.length; k++) out[k] = this.uint(8);
    return out;
  }
}
