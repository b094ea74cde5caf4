import { CLASSIFIER_VERSION } from '@tongate/actions';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { BlockDerivation, McBlockBatch } from '../../block.js';
import { trustedTonCollection } from '../../dns-trust.js';
import type { MessageRow, TransactionRow } from '../../rows.js';
import {
  actionRows,
  chunks,
  compareLt,
  classifyTraces,
  groupBy,
  type ActionRows,
  type ClassifiedTrace,
  type TraceRowValues,
  type TracesDb,
} from './classify.js';
import type { TraceTransactionsTable } from './tables.js';

/**
 * Traces, assembled block by block: a transaction whose inbound message is external (or that has none: tick-tock)
 * starts a trace named by its own hash; a transaction receiving an internal message joins the trace of the
 * transaction that sent it, found among this block's out-messages first, then among the indexed ones (the two may be
 * blocks and shards apart). Each trace counts the internal messages still in flight; when that count reaches zero
 * the trace is complete and is classified into actions in the same block transaction.
 *
 * A transaction whose internal inbound message has no indexed sender (the index started after it was sent) starts
 * a `broken` trace: it is kept and served, but not classified, as its beginning is unknown.
 *
 * Stored traces classified by an older CLASSIFIER_VERSION are classified again a few per block
 * (`reclassifyPerBlock`), so an upgrade catches up in the background of indexing without a long pause.
 */

export interface TraceDerivationOptions {
  /** Complete traces of an older classifier version re-classified with each block. */
  reclassifyPerBlock?: number;
}

interface TracesPrepared {
  traces: TraceRowValues[];
  members: Insertable<TraceTransactionsTable>[];
  classified: ClassifiedTrace[];
  actions: ActionRows;
}

type TraceRow = TraceRowValues;

const bigMin = (a: string, b: string) => (BigInt(a) <= BigInt(b) ? a : b);
const bigMax = (a: string, b: string) => (BigInt(a) >= BigInt(b) ? a : b);

/** Rows of the traces this block adds to or starts, and which trace each of its transactions joins. */
export async function assembleTraces(
  db: Kysely<TracesDb>,
  batch: McBlockBatch,
): Promise<{ traces: Map<string, TraceRow>; membership: Map<string, string> }> {
  const txs = [...batch.transactions].sort(compareLt);
  const messagesByTx = groupBy(batch.messages, (m) => m.tx_hash);
  const inMsg = (tx: TransactionRow): MessageRow | undefined => messagesByTx.get(tx.hash)?.find((m) => m.direction === 'in');

  // Senders of this block's internal inbound messages that were indexed before it.
  const internalIn = txs.map(inMsg).filter((m): m is MessageRow => !!m && m.source !== null);
  const senderTrace = new Map<string, string>();
  for (const chunk of chunks([...new Set(internalIn.map((m) => m.msg_hash))], 1000)) {
    const rows = await db
      .selectFrom('messages as m')
      .innerJoin('trace_transactions as tt', 'tt.tx_hash', 'm.tx_hash')
      .select(['m.msg_hash', 'tt.trace_id'])
      .where('m.msg_hash', 'in', chunk)
      .where('m.direction', '=', 'out')
      .execute();
    for (const r of rows) senderTrace.set(r.msg_hash, r.trace_id);
  }
  const traces = new Map<string, TraceRow>();
  for (const chunk of chunks([...new Set(senderTrace.values())], 1000)) {
    for (const row of await db.selectFrom('traces').selectAll().where('trace_id', 'in', chunk).execute()) traces.set(row.trace_id, row);
  }

  const membership = new Map<string, string>();
  for (const tx of txs) {
    const incoming = inMsg(tx);
    const outgoing = (messagesByTx.get(tx.hash) ?? []).filter((m) => m.direction === 'out');
    const sent = outgoing.filter((m) => m.destination !== null && m.source !== null).length;
    const lt = String(tx.lt);
    const internal = !!incoming && incoming.source !== null;
    const parentTrace = internal ? senderTrace.get(incoming.msg_hash) : undefined;
    let trace = parentTrace ? traces.get(parentTrace) : undefined;
    if (trace) {
      trace.pending_messages += sent - 1;
      trace.messages += 1;
      trace.transactions += 1;
      trace.start_lt = bigMin(trace.start_lt, lt);
      trace.end_lt = bigMax(trace.end_lt, lt);
      trace.start_utime = Math.min(trace.start_utime, tx.now);
      trace.end_utime = Math.max(trace.end_utime, tx.now);
      trace.mc_seqno_end = Math.max(trace.mc_seqno_end, batch.mcSeqno);
      if (trace.state !== 'broken') trace.state = trace.pending_messages > 0 ? 'pending' : 'complete';
    } else {
      const external = incoming && !internal ? incoming : null;
      trace = {
        trace_id: tx.hash,
        external_hash: external?.msg_hash ?? null,
        external_hash_norm: external?.msg_hash_norm ?? null,
        mc_seqno_start: batch.mcSeqno,
        mc_seqno_end: batch.mcSeqno,
        start_lt: lt,
        start_utime: tx.now,
        end_lt: lt,
        end_utime: tx.now,
        // An internal message from an account the index never saw sending it: the trace's beginning is unknown.
        state: internal ? 'broken' : sent > 0 ? 'pending' : 'complete',
        pending_messages: sent,
        messages: 0,
        transactions: 1,
        classification_state: internal ? 'broken' : 'unclassified',
        classifier_version: null,
      };
      traces.set(trace.trace_id, trace);
    }
    membership.set(tx.hash, trace.trace_id);
    for (const m of outgoing) senderTrace.set(m.msg_hash, trace.trace_id);
  }
  return { traces, membership };
}

/** Complete traces classified by an older classifier, oldest first, at most `limit`. */
async function staleTraces(db: Kysely<TracesDb>, limit: number, exclude: ReadonlySet<string>): Promise<TraceRow[]> {
  if (limit <= 0) return [];
  const rows = await db
    .selectFrom('traces')
    .selectAll()
    .where('state', '=', 'complete')
    // a complete trace is classified in the block that completes it, so its version is never null
    .where('classifier_version', '<', CLASSIFIER_VERSION)
    .orderBy('end_lt', 'asc')
    .limit(limit + exclude.size)
    .execute();
  return rows.filter((r) => !exclude.has(r.trace_id)).slice(0, limit);
}

export function traceDerivation(options: TraceDerivationOptions = {}): BlockDerivation<TracesPrepared, TracesDb> {
  const reclassifyPerBlock = options.reclassifyPerBlock ?? 20;
  return {
    name: 'traces',

    async prepare(batch, db, ctx) {
      const { traces, membership } = await assembleTraces(db, batch);
      const dns = async () => (ctx ? trustedTonCollection(ctx, batch.mcSeqno) : null);
      const completed = [...traces.values()].filter((t) => t.state === 'complete' && t.classifier_version !== CLASSIFIER_VERSION);
      const stale = await staleTraces(db, reclassifyPerBlock, new Set(traces.keys()));
      const classified = [
        ...(await classifyTraces(db, completed, membership, batch, dns)),
        ...(await classifyTraces(db, stale, new Map(), null, dns)),
      ];
      const byId = new Map([...traces.values(), ...stale].map((t) => [t.trace_id, t]));
      for (const c of classified) {
        const trace = byId.get(c.traceId)!;
        trace.classification_state = c.state;
        trace.classifier_version = CLASSIFIER_VERSION;
      }
      return {
        traces: [...byId.values()],
        members: batch.transactions.map((tx) => ({ tx_hash: tx.hash, trace_id: membership.get(tx.hash)!, lt: tx.lt, account: tx.account })),
        classified,
        actions: actionRows(classified),
      };
    },

    async write(trx, _batch, prepared) {
      await writeTraces(trx, prepared);
    },
  };
}

async function writeTraces(trx: Transaction<TracesDb>, prepared: TracesPrepared): Promise<void> {
  for (const chunk of chunks(prepared.traces, 1000)) {
    await trx
      .insertInto('traces')
      .values(chunk)
      .onConflict((oc) =>
        oc.column('trace_id').doUpdateSet((eb) => ({
          mc_seqno_end: eb.ref('excluded.mc_seqno_end'),
          start_lt: eb.ref('excluded.start_lt'),
          start_utime: eb.ref('excluded.start_utime'),
          end_lt: eb.ref('excluded.end_lt'),
          end_utime: eb.ref('excluded.end_utime'),
          state: eb.ref('excluded.state'),
          pending_messages: eb.ref('excluded.pending_messages'),
          messages: eb.ref('excluded.messages'),
          transactions: eb.ref('excluded.transactions'),
          classification_state: eb.ref('excluded.classification_state'),
          classifier_version: eb.ref('excluded.classifier_version'),
        })),
      )
      .execute();
  }
  for (const chunk of chunks(prepared.members, 2000)) await trx.insertInto('trace_transactions').values(chunk).execute();
  // A re-classified trace's old actions go first.
  const reclassified = prepared.classified.map((c) => c.traceId);
  for (const chunk of chunks(reclassified, 1000)) {
    await trx.deleteFrom('action_accounts').where('trace_id', 'in', chunk).execute();
    await trx.deleteFrom('actions').where('trace_id', 'in', chunk).execute();
  }
  for (const chunk of chunks(prepared.actions.actions, 1000)) await trx.insertInto('actions').values(chunk).execute();
  for (const chunk of chunks(prepared.actions.accounts, 2000)) await trx.insertInto('action_accounts').values(chunk).execute();
}
