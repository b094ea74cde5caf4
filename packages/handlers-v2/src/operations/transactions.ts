import type { BlockTransactionCursor, ChainSource, TransactionId } from '@tongate/chain';
import type { V2Inputs } from '@tongate/stubs';
import { ApiError } from '../api-error.js';
import { findInHistory, readAccountHistory, type TransactionPage } from '@tongate/domain';
import { b64, formatBlockIdExt, formatTransactionId, rawLower } from '../format.js';
import { formatBlockTransactionExt, formatExtTransaction, formatRawTransaction } from '../transactions-format.js';
import { resolveBlock } from './blocks.js';
import { type Deps, isTestnet, operation } from './common.js';

/** A 64-bit parameter the spec types as any integer but the chain counts from zero (lt). */
function nonNegative<T extends bigint | undefined>(name: string, value: T): T {
  if (value !== undefined && value < 0n) throw new ApiError(422, `${name}: should be non-negative`);
  return value;
}

function blockCursor(query: { after_lt?: bigint; after_hash?: Buffer }): BlockTransactionCursor | undefined {
  const lt = nonNegative('after_lt', query.after_lt);
  const account = query.after_hash;
  if ((lt === undefined) !== (account === undefined)) throw new ApiError(422, 'after_lt and after_hash should be used together');
  return lt !== undefined && account ? { account, lt } : undefined;
}

type HistoryQuery = V2Inputs['getTransactions']['query'];

/**
 * The history page a getTransactions* query asks for. `lt`/`hash` name the newest transaction (both or neither;
 * getTransactions reads lt=0 as absent). `archival` is accepted for compatibility: every backend has full history.
 */
function history(chain: ChainSource, query: HistoryQuery, ltZeroMeansAbsent: boolean): Promise<TransactionPage> {
  let lt = nonNegative('lt', query.lt);
  if (lt === 0n && ltZeroMeansAbsent) lt = undefined;
  const { hash } = query;
  if ((lt === undefined) !== (hash === undefined)) throw new ApiError(422, 'lt and hash should be used together');
  const from: TransactionId | undefined = lt !== undefined && hash ? { lt, hash } : undefined;
  return readAccountHistory(chain, { address: query.address, from, limit: query.limit, toLt: nonNegative('to_lt', query.to_lt) });
}

function locateParams(query: V2Inputs['tryLocateTx']['query']) {
  return { source: query.source, destination: query.destination, createdLt: nonNegative('created_lt', query.created_lt) };
}

const NOT_FOUND = 'transaction was not found';

export function transactionOperations(deps: Deps) {
  const { chain } = deps;

  /** The destination's transaction that consumed the message `source` created at `created_lt`. */
  const locateResult = operation<'tryLocateTx'>(deps, async ({ query, ctx }) => {
    const { source, destination, createdLt } = locateParams(query);
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
    getBlockTransactions: operation<'getBlockTransactions'>(deps, async ({ query }) => {
      const id = await resolveBlock(chain, query);
      const { count } = query;
      const page = await chain.listBlockTransactions(id, { count, after: blockCursor(query) });
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

    getBlockTransactionsExt: operation<'getBlockTransactionsExt'>(deps, async ({ query, ctx }) => {
      const id = await resolveBlock(chain, query);
      const { count } = query;
      const page = await chain.listBlockTransactionsExt(id, { count, after: blockCursor(query) });
      return {
        '@type': 'blocks.transactionsExt',
        id: formatBlockIdExt(id),
        req_count: count,
        incomplete: page.incomplete,
        transactions: page.transactions.map((t) => formatBlockTransactionExt(t, { testOnly: isTestnet(ctx) })),
      };
    }),

    getTransactions: operation<'getTransactions'>(deps, async ({ query, ctx }) => {
      const { transactions } = await history(chain, query, true);
      return transactions.map((tx) => formatExtTransaction(tx, { testOnly: isTestnet(ctx) }));
    }),

    getTransactionsStd: operation<'getTransactionsStd'>(deps, async ({ query, ctx }) => {
      const page = await history(chain, query, false);
      return {
        '@type': 'raw.transactions',
        transactions: page.transactions.map((tx) => formatRawTransaction(tx, { testOnly: isTestnet(ctx) })),
        previous_transaction_id: formatTransactionId(page.previous),
      };
    }),

    tryLocateTx: locateResult,
    tryLocateResultTx: locateResult,

    /** The source's transaction that created the message to `destination` at `created_lt`. */
    tryLocateSourceTx: operation<'tryLocateSourceTx'>(deps, async ({ query, ctx }) => {
      const { source, destination, createdLt } = locateParams(query);
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
