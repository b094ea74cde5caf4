import type { BlockIdExt, TransactionId } from '@tongate/chain';
import type { Address, Cell, Dictionary } from '@ton/core';

/** Wire shapes shared by several v2 results (tonlib JSON: int64 as decimal strings, bytes and hashes as base64). */

export const ZERO_HASH = Buffer.alloc(32);

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

export function optionalBocB64(cell: Cell | null | undefined): string {
  return cell ? bocB64(cell) : '';
}

export function formatBlockIdExt(id: BlockIdExt) {
  return {
    '@type': 'ton.blockIdExt' as const,
    workchain: id.workchain,
    shard: id.shard.toString(),
    seqno: id.seqno,
    root_hash: b64(id.rootHash),
    file_hash: b64(id.fileHash),
  };
}

/** `lt` "0" and a zero hash stand for "no transaction" (TonClient checks lt === "0"). */
export function formatTransactionId(id: TransactionId | null) {
  return {
    '@type': 'internal.transactionId' as const,
    lt: (id?.lt ?? 0n).toString(),
    hash: b64(id?.hash ?? ZERO_HASH),
  };
}

export function formatExtraCurrencies(list: { id: number; amount: bigint }[]) {
  return list.map((ec) => ({ '@type': 'extraCurrency' as const, id: ec.id, amount: ec.amount.toString() }));
}

/** The extra currencies of a CurrencyCollection (a dictionary id -> amount). */
export function extraCurrenciesOf(other: Dictionary<number, bigint> | null | undefined) {
  return other ? [...other].map(([id, amount]) => ({ id, amount })) : [];
}

/** `wc:HEX` with upper-case hex, as tonlib prints account ids. */
export function rawUpper(address: Address): string {
  return `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`;
}

export function rawLower(workchain: number, account: Buffer): string {
  return `${workchain}:${account.toString('hex')}`;
}

/** User-friendly url-safe form, bounceable, with the testnet flag of the serving network. */
export function friendly(address: Address, testOnly: boolean, bounceable = true): string {
  return address.toString({ urlSafe: true, bounceable, testOnly });
}

export function tvmCell(cell: Cell) {
  return { '@type': 'tvm.cell' as const, bytes: bocB64(cell) };
}
