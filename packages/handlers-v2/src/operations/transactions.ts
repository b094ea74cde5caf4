import type { BlockTransactionCursor, ChainSource, ChainTransaction, TransactionId } from '@tongate/chain';
import type { Address } from '@ton/core';
import { ApiError } from '../api-error.js';
import { b64, formatBlockIdExt, formatTransactionId, rawLower } from '../format.js';
import { nonNegative, optionalBool, optionalHash, optionalInt32, optionalInt64, parseAddress, type Params, queryToken, requiredInt64, tryParseAddress, tryParseHash } from '../parse.js';
import { formatBlockTransactionExt, formatExtTransaction, formatRawTransaction } from '../transactions-format.js';
import { resolveBlock } from './blocks.js';
import { type Deps, isTestnet, operation } from './common.js';

const BLOCK_TX_DEFAULT = 40;
const BLOCK_TX_MAX = 10_000;
const ACCOUNT_TX_DEFAULT = 10;
const ACCOUNT_TX_MAX = 1000;
/** Page size when walking an account's history for tryLocate*. */
const WALK_PAGE = 64;

function parseCount(params: Params, name: string, fallback: number, max: number): number {
  const count = optionalInt32(params, name) ?? fallback;
  if (count <= 0) throw new ApiError(422, `${name} should be positive`);
  if (count > max) throw new ApiError(422, `${name} should be less or equal ${max}`);
  return count;
}

/** `after_hash` names the account of the cursor transaction: a 32-byte id (hex/base64) or any address form. */
function parseAccountId(params: Params, name: string): Buffer | undefined {
  const value = params[name];
  if (value === undefined || value === null || value === '') return undefined;
  const text = queryToken(String(value));
  const id = tryParseHash(text) ?? tryParseAddress(text)?.hash ?? null;
  if (!id) throw new ApiError(422, `invalid ${name}: '${text}' is neither an account id (hex/base64) nor an address`);
  return id;
}

function blockCursor(params: Params): BlockTransactionCursor | undefined {
  const lt = nonNegative('after_lt', optionalInt64(params, 'after_lt'));
  const account = parseAccountId(params, 'after_hash');
  if ((lt === undefined) !== (account === undefined)) throw new ApiError(422, 'after_lt and after_hash should be used together');
  return lt !== undefined && account ? { account, lt } : undefined;
}

/** The (lt, hash) to start an account history walk from, or null when the account has no transactions. */
async function historyStart(chain: ChainSource, address: Address, params: Params, ltZeroMeansAbsent: boolean): Promise<TransactionId | null> {
  let lt = nonNegative('lt', optionalInt64(params, 'lt'));
  if (lt === 0n && ltZeroMeansAbsent) lt = undefined;
  const hash = optionalHash(params, 'hash');
  if ((lt === undefined) !== (hash === undefined)) throw new ApiError(422, 'lt and hash should be used together');
  if (lt !== undefined && hash) return { lt, hash };
  return (await chain.getAccountState(address)).lastTransaction;
}

/** Newest first from `start` inclusive, stopping before the first transaction with lt <= toLt. */
async function accountHistory(chain: ChainSource, address: Address, start: TransactionId | null, limit: number, toLt: bigint) {
  if (!start || start.lt <= toLt) return [];
  const txs = await chain.getAccountTransactions(address, start, limit);
  const cut = txs.findIndex((tx) => tx.lt <= toLt);
  return cut < 0 ? txs : txs.slice(0, cut);
}

async function historyParams(chain: ChainSource, params: Params, ltZeroMeansAbsent: boolean) {
  const address = parseAddress(params, 'address');
  const limit = parseCount(params, 'limit', ACCOUNT_TX_DEFAULT, ACCOUNT_TX_MAX);
  const toLt = nonNegative('to_lt', optionalInt64(params, 'to_lt')) ?? 0n;
  optionalBool(params, 'archival'); // accepted for compatibility; every backend answers from full history
  const start = await historyStart(chain, address, params, ltZeroMeansAbsent);
  return { address, limit, toLt, start };
}

/**
 * Walks `address`'s history newest first while `keepGoing(tx)` holds, returning the first transaction that
 * `matches`. Bounded by the chain: every step moves to an older transaction.
 */
async function findInHistory(
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

function locateParams(params: Params) {
  return {
    source: parseAddress(params, 'source'),
    destination: parseAddress(params, 'destination'),
    createdLt: nonNegative('created_lt', requiredInt64(params, 'created_lt')),
  };
}

function previousTransactionId(tx: ChainTransaction): TransactionId | null {
  if (tx.tx.prevTransactionLt === 0n) return null;
  return { lt: tx.tx.prevTransactionLt, hash: Buffer.from(tx.tx.prevTransactionHash.toString(16).padStart(64, '0'), 'hex') };
}

const NOT_FOUND = 'transaction was not found';

export function transactionOperations(deps: Deps) {
  const { chain } = deps;

  /** The destination's transaction that consumed the message `source` created at `created_lt`. */
  const locateResult = operation<'tryLocateTx'>(deps, async (params, ctx) => {
    const { source, destination, createdLt } = locateParams(params);
    const tx = await findInHistory(
      chain,
      destination,
      (t) => t.lt > createdLt,
      (t) => {
        const info = t.tx.inMessage?.info;
        return info?.type === 'internal' && info.createdLt === createdLt && info.src.equals(source);
      },
    );
    if (!tx) throw new ApiError(404, NOT_FOUND);
    return formatExtTransaction(tx, { testOnly: isTestnet(ctx) });
  });

  return {
    getBlockTransactions: operation<'getBlockTransactions'>(deps, async (params) => {
      const id = await resolveBlock(chain, params);
      const count = parseCount(params, 'count', BLOCK_TX_DEFAULT, BLOCK_TX_MAX);
      const page = await chain.listBlockTransactions(id, { count, after: blockCursor(params) });
      return {
        '@type': 'blocks.transactions',
        id: formatBlockIdExt(id),
        req_count: count,
        incomplete: page.incomplete,
        transactions: page.transactions.map((t) => ({
          '@type': 'blocks.shortTxId',
          // tonlib's mode bits: account, lt and hash are filled in (+128 "after" flag it always echoes).
          mode: 135,
          account: rawLower(t.workchain, t.account),
          lt: t.lt.toString(),
          hash: b64(t.hash),
        })),
      };
    }),

    getBlockTransactionsExt: operation<'getBlockTransactionsExt'>(deps, async (params, ctx) => {
      const id = await resolveBlock(chain, params);
      const count = parseCount(params, 'count', BLOCK_TX_DEFAULT, BLOCK_TX_MAX);
      const page = await chain.listBlockTransactionsExt(id, { count, after: blockCursor(params) });
      return {
        '@type': 'blocks.transactionsExt',
        id: formatBlockIdExt(id),
        req_count: count,
        incomplete: page.incomplete,
        transactions: page.transactions.map((t) => formatBlockTransactionExt(t, { testOnly: isTestnet(ctx) })),
      };
    }),

    getTransactions: operation<'getTransactions'>(deps, async (params, ctx) => {
      const { address, limit, toLt, start } = await historyParams(chain, params, true);
      const txs = await accountHistory(chain, address, start, limit, toLt);
      return txs.map((tx) => formatExtTransaction(tx, { testOnly: isTestnet(ctx) }));
    }),

    getTransactionsStd: operation<'getTransactionsStd'>(deps, async (params, ctx) => {
      const { address, limit, toLt, start } = await historyParams(chain, params, false);
      const txs = await accountHistory(chain, address, start, limit, toLt);
      const oldest = txs[txs.length - 1];
      const previous = oldest ? previousTransactionId(oldest) : null;
      return {
        '@type': 'raw.transactions',
        transactions: txs.map((tx) => formatRawTransaction(tx, { testOnly: isTestnet(ctx) })),
        previous_transaction_id: formatTransactionId(previous),
      };
    }),

    tryLocateTx: locateResult,
    tryLocateResultTx: locateResult,

    /** The source's transaction that created the message to `destination` at `created_lt`. */
    tryLocateSourceTx: operation<'tryLocateSourceTx'>(deps, async (params, ctx) => {
      const { source, destination, createdLt } = locateParams(params);
      // The producing transaction is the newest one older than the message: check it and stop.
      let checkedProducer = false;
      const tx = await findInHistory(
        chain,
        source,
        () => !checkedProducer,
        (t) => {
          if (t.lt >= createdLt) return false;
          checkedProducer = true;
          return [...t.tx.outMessages.values()].some(({ info }) =>
            info.type === 'internal'
              ? info.createdLt === createdLt && info.dest.equals(destination)
              : info.type === 'external-out' && info.createdLt === createdLt,
          );
        },
      );
      if (!tx) throw new ApiError(404, NOT_FOUND);
      return formatExtTransaction(tx, { testOnly: isTestnet(ctx) });
    }),
  };
}
