import type { ChainSource, ChainTransaction, TransactionId } from '@tongate/chain';
import type { Address } from '@ton/core';

/** Page size when walking an account's history for a transaction. */
const WALK_PAGE = 64;

/** One page of an account's history, newest first, and where the next older page starts (null at the beginning). */
export interface TransactionPage {
  transactions: ChainTransaction[];
  previous: TransactionId | null;
}

export interface HistoryRequest {
  address: Address;
  /** The newest transaction to include; the account's last one when absent. */
  from?: TransactionId;
  limit: number;
  /** Stop before the first transaction with lt <= toLt. */
  toLt: bigint;
}

/** The transaction before `tx` in its account's history, or null for the account's first one. */
export function previousTransactionId(tx: ChainTransaction): TransactionId | null {
  if (tx.tx.prevTransactionLt === 0n) return null;
  return { lt: tx.tx.prevTransactionLt, hash: Buffer.from(tx.tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex') };
}

/** A page of `request.address`'s history (bounded by `limit`). */
export async function readAccountHistory(chain: ChainSource, request: HistoryRequest): Promise<TransactionPage> {
  const start = request.from ?? (await chain.getAccountState(request.address)).lastTransaction;
  if (!start || start.lt <= request.toLt) return { transactions: [], previous: null };
  const txs = await chain.getAccountTransactions(request.address, start, request.limit);
  const cut = txs.findIndex((tx) => tx.lt <= request.toLt);
  const transactions = cut < 0 ? txs : txs.slice(0, cut);
  const oldest = transactions[transactions.length - 1];
  return { transactions, previous: oldest ? previousTransactionId(oldest) : null };
}

/**
 * Walks `address`'s history newest first while `keepGoing(tx)` holds, returning the first transaction that
 * `matches`. Bounded by the chain: every step moves to an older transaction.
 */
export async function findInHistory(
  chain: ChainSource,
  address: Address,
  keepGoing: (tx: ChainTransaction) => boolean,
  matches: (tx: ChainTransaction) => boolean,
): Promise<ChainTransaction | null> {
  let cursor = (await chain.getAccountState(address)).lastTransaction;
  while (cursor) {
    const page = await chain.getAccountTransactions(address, cursor, WALK_PAGE);
    for (const tx of page) {
      if (!keepGoing(tx)) return null;
      if (matches(tx)) return tx;
    }
    const last = page[page.length - 1];
    if (!last || page.length < WALK_PAGE) return null;
    cursor = previousTransactionId(last);
  }
  return null;
}
