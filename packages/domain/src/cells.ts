import type { Cell } from '@ton/core';

/** Bytes and cells as both API versions write them: base64, and bags of cells with a CRC and no index. */

export function b64(bytes: Buffer | Uint8Array): string {
  // A view, not a copy (Buffer.from(buffer) would copy the bytes first).
  return (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)).toString('base64');
}

/**
 * Cells are immutable and backends hand out the same Cell objects for hot accounts and transactions, so each cell's
 * encoding is computed once and kept as long as the cell itself lives.
 */
const bocB64Memo = new WeakMap<Cell, string>();

export function bocB64(cell: Cell): string {
  let encoded = bocB64Memo.get(cell);
  if (encoded === undefined) {
    encoded = cell.toBoc({ idx: false, crc32: true }).toString('base64');
    bocB64Memo.set(cell, encoded);
  }
  return encoded;
}

/** A cell's data bits as bytes, the last byte zero-padded (no completion tag). */
export function cellDataBytes(cell: Cell): Buffer {
  const len = cell.bits.length;
  const bytes = Buffer.alloc(Math.ceil(len / 8));
  for (let i = 0; i < len; i++) if (cell.bits.at(i)) bytes[i >> 3]! |= 0x80 >> (i & 7);
  return bytes;
}
