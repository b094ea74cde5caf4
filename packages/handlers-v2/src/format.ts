import type { BlockIdExt, TransactionId } from '@tongate/chain';
import type { Address, Cell, Dictionary } from '@ton/core';
import { b64, bocB64 } from '@tongate/domain';

export { b64, bocB64, cellDataBytes } from '@tongate/domain';
// The raw form is the read model's, so that v2 account ids and the stored v3 form are written by one function.
export { rawAddress as rawUpper } from '@tongate/read-model';

/** Wire shapes shared by several v2 results (tonlib JSON: int64 as decimal strings, bytes and hashes as base64). */

export const ZERO_HASH = Buffer.alloc(32);

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
