import type { ClassifiedAction } from '@tongate/actions';
import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import type {
  AccountStateItem,
  JettonItem,
  Network,
  StreamBatch,
  StreamItem,
  TraceItem,
  WireTraceNode,
  WireTransaction,
} from '@tongate/streaming';
import type { Kysely } from 'kysely';
import {
  jettonWalletStates,
  MAX_TRACE_TRANSACTIONS,
  tokenMetadata,
  traceActions,
  traceStates,
  traceTransactionsPage,
  traceTree,
  transactionsReply,
} from '@tongate/read-model';
import type { PendingEntry } from './pending/store.js';
import { traceAt } from './pending/trace.js';

/**
 * The Streaming API's sources in the API v3 shapes: a committed masterchain block's rows, and a pending trace's
 * entry. Built from the same queries and formatters as /transactions, /actions and /traces, so a streamed object is
 * the one those operations return.
 */

/** Transactions one block's batch carries at most; a larger block is cut (subscribers resync through API v3). */
const MAX_BLOCK_TRANSACTIONS = 10_000;

const asWire = (t: v3.Transaction) => t as unknown as WireTransaction;

/** Everything the masterchain block `seqno` finalized, read after its commit. */
export async function blockStreamBatch(db: Kysely<ChainDatabase>, network: Network, seqno: number): Promise<StreamBatch> {
  const testnet = network === 'testnet';
  const page = db
    .selectFrom('transactions')
    .selectAll()
    .where('mc_block_seqno', '=', seqno)
    .orderBy('lt', 'desc')
    .limit(MAX_BLOCK_TRANSACTIONS);
  const { transactions, address_book: blockBook } = await transactionsReply(db, page, { sort: 'desc', byTime: false }, testnet);
  if (transactions.length === 0) return { network, mcSeqno: seqno, items: [] };
  const addressBook: Record<string, unknown> = { ...blockBook };

  const traceIds = [...new Set(transactions.map((t) => t.trace_id).filter((id): id is string => !!id))];
  const traces = traceIds.length === 0 ? [] : await traceStates(db, traceIds);
  const traceRow = new Map(traces.map((t) => [t.trace_id, t]));
  // A trace is whole (its actions and tree final) in the block that completed it.
  const completed = traces.filter((t) => t.state !== 'pending' && t.mc_seqno_end === seqno).map((t) => t.trace_id);
  const actionRows = completed.length === 0 ? [] : await traceActions(db, completed);
  const actionsOf = new Map<string, ClassifiedAction[]>();
  for (const r of actionRows) {
    const list = actionsOf.get(r.trace_id) ?? [];
    list.push(r.data as unknown as ClassifiedAction);
    actionsOf.set(r.trace_id, list);
  }
  const wholeTxs = new Map<string, v3.Transaction[]>();
  if (completed.length > 0) {
    const tracePage = traceTransactionsPage(db, completed, MAX_TRACE_TRANSACTIONS);
    const { transactions: all, address_book: traceBook } = await transactionsReply(db, tracePage, null, testnet);
    Object.assign(addressBook, traceBook);
    for (const t of all) {
      if (!t.trace_id) continue;
      const list = wholeTxs.get(t.trace_id) ?? [];
      list.push(t);
      wholeTxs.set(t.trace_id, list);
    }
  }

  const items: StreamItem[] = [];
  const byTrace = new Map<string, v3.Transaction[]>();
  for (const t of transactions) {
    const key = t.trace_id ?? `tx:${t.hash}`;
    const list = byTrace.get(key) ?? [];
    list.push(t);
    byTrace.set(key, list);
  }
  for (const [traceId, txs] of byTrace) {
    const row = traceRow.get(traceId);
    const whole = wholeTxs.get(traceId);
    const root = whole ? traceTree(traceId, whole) : undefined;
    const item: TraceItem = {
      kind: 'trace',
      finality: 'finalized',
      hashNorm: row?.external_hash_norm ?? null,
      transactions: txs.map(asWire),
      actions: actionsOf.get(traceId) ?? [],
      trace:
        whole && root
          ? { root: root as unknown as WireTraceNode, transactions: Object.fromEntries(whole.map((t) => [t.hash, asWire(t)])) }
          : null,
    };
    items.push(item);
  }

  // Each touched account's state after its last transaction of the block, then its jetton wallet row.
  const lastOf = new Map<string, v3.Transaction>();
  for (const t of transactions) {
    const seen = lastOf.get(t.account);
    if (!seen || BigInt(t.lt) > BigInt(seen.lt)) lastOf.set(t.account, t);
  }
  for (const [account, t] of lastOf) {
    const state = t.account_state_after as unknown as Record<string, unknown> | null;
    if (state)
      items.push({
        kind: 'account_state',
        finality: 'finalized',
        account,
        state: { ...state, extra_currencies: null },
      } satisfies AccountStateItem);
  }
  const accounts = [...lastOf.keys()];
  const wallets = await jettonWalletStates(db, accounts);
  for (const w of wallets) items.push({ kind: 'jetton', finality: 'finalized', jetton: { ...w } } satisfies JettonItem);
  // Metadata of every token contract the block's events name (jetton masters and wallets, NFT collections and items),
  // read once per block for whichever subscribers asked for it.
  const metadata = await tokenMetadata(db, [...Object.keys(addressBook), ...wallets.map((w) => w.jetton)], { wallets: true });
  return { network, mcSeqno: seqno, items, addressBook, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
}

/** A pending entry's trace at its finality: what it shows before the index holds it. */
export function pendingStreamItem(entry: PendingEntry): TraceItem {
  const trace = traceAt(entry);
  const txs = Object.values(trace.transactions ?? {}) as v3.Transaction[];
  const finality = entry.finality === 'finalized' ? 'confirmed' : entry.finality;
  const transactions = txs.map((t) => asWire({ ...t, finality }));
  return {
    kind: 'trace',
    finality,
    hashNorm: entry.key,
    transactions,
    actions: entry.actions,
    trace: trace.trace
      ? { root: trace.trace as unknown as WireTraceNode, transactions: Object.fromEntries(transactions.map((t) => [t.hash, t])) }
      : null,
  };
}

export interface PublisherLogger {
  warn(obj: object, msg?: string): void;
}

/** Blocks waiting to be read and published at most; past it the oldest waiting ones are skipped (resync via API v3). */
const MAX_QUEUED_BLOCKS = 1_000;

/**
 * The indexer's commit listener for one network: reads each committed block's batch and publishes it, one block at
 * a time in commit order, never holding the indexer up.
 */
export function blockPublisher(
  db: Kysely<ChainDatabase>,
  network: Network,
  publish: (batch: StreamBatch) => Promise<void>,
  logger?: PublisherLogger,
): (seqno: number) => void {
  const queue: number[] = [];
  let running = false;
  const drain = async () => {
    running = true;
    while (queue.length > 0) {
      const seqno = queue.shift()!;
      try {
        await publish(await blockStreamBatch(db, network, seqno));
      } catch (err) {
        logger?.warn({ err, network, seqno }, 'stream: block not published');
      }
    }
    running = false;
  };
  return (seqno) => {
    queue.push(seqno);
    if (queue.length > MAX_QUEUED_BLOCKS) queue.splice(0, queue.length - MAX_QUEUED_BLOCKS);
    if (!running) void drain();
  };
}
