import type { v3 } from '@tongate/sdk';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import { sql, type Kysely, type Selectable } from 'kysely';
import { rawAddress } from '../../address.js';
import { addressBook } from '../../address-book.js';
import { page, storedHashes, window } from '../../params.js';
import { transactionsReply } from '../../transactions-reply.js';
import { actionAddresses, formatAction, supportedTypes, transactionsOfMessages, visibleCondition } from './actions.js';
import type { TracesDb } from './classify.js';
import type { TracesTable } from './tables.js';

export type TraceOperations = Pick<V3Handlers, 'getTraces' | 'getEvents'>;

/** Transactions one trace returns at most (the reference's -max-trace-txs); a larger one says is_incomplete. */
export const MAX_TRACE_TRANSACTIONS = 4000;
/** Transactions one reply returns at most over all its traces, so that no reply is unbounded. */
export const MAX_REPLY_TRANSACTIONS = 10_000;

/** What a trace item says about the trace itself: an indexed trace row, or an emulated trace's equivalent. */
export type TraceSummary = Pick<
  Selectable<TracesTable>,
  | 'trace_id'
  | 'external_hash'
  | 'mc_seqno_start'
  | 'mc_seqno_end'
  | 'start_lt'
  | 'start_utime'
  | 'end_lt'
  | 'end_utime'
  | 'state'
  | 'pending_messages'
  | 'messages'
  | 'transactions'
  | 'classification_state'
>;

function inLtOrder(transactions: readonly v3.Transaction[]): v3.Transaction[] {
  return [...transactions].sort((a, b) => (BigInt(a.lt) < BigInt(b.lt) ? -1 : BigInt(a.lt) > BigInt(b.lt) ? 1 : 0));
}

/**
 * The tree of a trace's transactions, as the hosted API returns it: each node names its transaction and the
 * message that caused it, children in lt order. Rooted at the trace's root transaction (else the earliest given).
 */
export function traceTree(rootHash: string, transactions: readonly v3.Transaction[]): v3.TraceNode | undefined {
  const ordered = inLtOrder(transactions);
  const receiver = new Map<string, v3.Transaction>();
  for (const tx of ordered) if (tx.in_msg) receiver.set(tx.in_msg.hash, tx);
  const root = ordered.find((t) => t.hash === rootHash) ?? ordered[0];
  if (!root) return undefined;
  const node = (tx: v3.Transaction): v3.TraceNode => ({
    tx_hash: tx.hash,
    in_msg_hash: tx.in_msg?.hash ?? null,
    children: tx.out_msgs
      .map((m) => receiver.get(m.hash))
      .filter((c): c is v3.Transaction => c !== undefined && c !== tx)
      .map(node),
  });
  return node(root);
}

/**
 * One /traces item from a trace, its transactions (v3 wire shape) and, when asked for, its actions. Exported for
 * the emulated (pending) traces, which take the same shape.
 */
export function traceItem(
  trace: TraceSummary,
  transactions: readonly v3.Transaction[],
  options: { actions?: v3.Action[]; isIncomplete?: boolean } = {},
): v3.Trace {
  const ordered = inLtOrder(transactions);
  const tree = traceTree(trace.trace_id, ordered);
  const item: v3.Trace = {
    trace_id: trace.trace_id,
    external_hash: trace.external_hash,
    mc_seqno_start: String(trace.mc_seqno_start),
    mc_seqno_end: String(trace.mc_seqno_end),
    start_lt: String(trace.start_lt),
    start_utime: trace.start_utime,
    end_lt: String(trace.end_lt),
    end_utime: trace.end_utime,
    trace_info: {
      trace_state: trace.state,
      messages: trace.messages,
      transactions: trace.transactions,
      pending_messages: trace.pending_messages,
      classification_state: trace.classification_state,
    },
    is_incomplete: options.isIncomplete ?? transactions.length < trace.transactions,
    ...(options.actions ? { actions: options.actions } : {}),
    ...(tree ? { trace: tree } : {}),
    transactions_order: ordered.map((t) => t.hash),
    transactions: Object.fromEntries(ordered.map((t) => [t.hash, t])),
  };
  return item;
}

type TraceRow = Selectable<TracesTable>;

export function traceOperations(db: Kysely<TracesDb>, testnet: boolean): TraceOperations {
  const operations: TraceOperations = {
    async getTraces({ query, ctx }) {
      const { limit, offset, sort } = page(query);
      const selectors = (['account', 'trace_id', 'tx_hash', 'msg_hash'] as const).filter((k) => {
        const v = query[k];
        return v !== undefined && (!Array.isArray(v) || v.length > 0);
      });
      if (selectors.length > 1) throw new ApiError(422, 'only one of account, trace_id, tx_hash, msg_hash may be given');
      const account = query.account ? rawAddress(query.account) : undefined;
      const traceIds = storedHashes(query.trace_id);
      const txHashes = storedHashes(query.tx_hash);
      const msgHashes = storedHashes(query.msg_hash);
      const supported = query.include_actions ? supportedTypes(query, ctx) : null;
      const { startLt, endLt, startUtime, endUtime } = window(query);
      const empty = { status: 200 as const, body: { traces: [], address_book: {}, metadata: {} } };

      const members = [...txHashes, ...(await transactionsOfMessages(db, msgHashes))];
      if (msgHashes.length > 0 && members.length === 0) return empty;

      let q = db.selectFrom('traces').selectAll();
      if (account)
        q = q.where('trace_id', 'in', (eb) => eb.selectFrom('trace_transactions').select('trace_id').where('account', '=', account));
      if (traceIds.length > 0) q = q.where('trace_id', 'in', traceIds);
      if (members.length > 0)
        q = q.where('trace_id', 'in', (eb) => eb.selectFrom('trace_transactions').select('trace_id').where('tx_hash', 'in', members));
      // mc_seqno names the block a trace ended in, so only complete traces have one.
      if (query.mc_seqno !== undefined) q = q.where('mc_seqno_end', '=', query.mc_seqno).where('state', '=', 'complete');
      if (startUtime !== undefined) q = q.where('end_utime', '>=', startUtime);
      if (endUtime !== undefined) q = q.where('end_utime', '<=', endUtime);
      if (startLt !== undefined) q = q.where('end_lt', '>=', startLt);
      if (endLt !== undefined) q = q.where('end_lt', '<=', endLt);
      const traces: TraceRow[] = await q.orderBy('end_lt', sort).orderBy('trace_id', sort).limit(limit).offset(offset).execute();
      if (traces.length === 0) return empty;

      // Each trace's transactions in lt order, up to what the trace and the reply may hold.
      let budget = MAX_REPLY_TRANSACTIONS;
      const wanted = new Map<string, number>();
      for (const t of traces) {
        const take = Math.max(1, Math.min(MAX_TRACE_TRANSACTIONS, budget, t.transactions));
        wanted.set(t.trace_id, take);
        budget = Math.max(0, budget - take);
      }
      const ranked = db
        .selectFrom('trace_transactions')
        .select(['tx_hash', 'trace_id', sql<number>`row_number() over (partition by trace_id order by lt)`.as('n')])
        .where(
          'trace_id',
          'in',
          traces.map((t) => t.trace_id),
        )
        .as('ranked');
      const picked = (
        await db.selectFrom(ranked).selectAll().where('n', '<=', Math.min(MAX_TRACE_TRANSACTIONS, MAX_REPLY_TRANSACTIONS)).execute()
      ).filter((r) => Number(r.n) <= wanted.get(r.trace_id)!);
      const { transactions, address_book } =
        picked.length > 0
          ? await transactionsReply(
              db,
              db
                .selectFrom('transactions')
                .selectAll()
                .where(
                  'hash',
                  'in',
                  picked.map((p) => p.tx_hash),
                ),
              { sort: 'asc', byTime: false },
              testnet,
            )
          : { transactions: [], address_book: {} };
      const byTrace = new Map<string, v3.Transaction[]>();
      for (const tx of transactions) {
        const list = byTrace.get(tx.trace_id!) ?? [];
        list.push(tx);
        byTrace.set(tx.trace_id!, list);
      }

      const actionsByTrace = new Map<string, v3.Action[]>();
      const actionAddressList: string[] = [];
      if (supported) {
        const rows = await db
          .selectFrom('actions as a')
          .select(['a.trace_id', 'a.data'])
          .where(
            'a.trace_id',
            'in',
            traces.map((t) => t.trace_id),
          )
          .where(visibleCondition(supported))
          .orderBy('a.trace_id')
          .orderBy('a.end_lt')
          .orderBy('a.action_id')
          .execute();
        for (const row of rows) {
          const action = formatAction(row);
          actionAddressList.push(...actionAddresses(action, row));
          const list = actionsByTrace.get(row.trace_id) ?? [];
          list.push(action);
          actionsByTrace.set(row.trace_id, list);
        }
      }
      const items = traces.map((t) =>
        traceItem(t, byTrace.get(t.trace_id) ?? [], supported ? { actions: actionsByTrace.get(t.trace_id) ?? [] } : {}),
      );
      const book = {
        ...address_book,
        ...(await addressBook(
          db,
          actionAddressList.filter((a) => !(a in address_book)),
          testnet,
        )),
      };
      return { status: 200, body: { traces: items, address_book: book, metadata: {} } };
    },

    // The hosted API's other name for /traces: the same list under `events`, every trace with its actions.
    async getEvents({ query, ctx }) {
      const reply = await operations.getTraces({ query: { ...query, include_actions: true }, ctx });
      if (reply.status !== 200) return reply;
      const { traces, ...rest } = reply.body;
      return { status: 200, body: { events: traces, ...rest } };
    },
  };
  return operations;
}
