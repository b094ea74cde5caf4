import {
  classifyTrace,
  type AccountInterfaces,
  type ClassifiedAction,
  type TraceInput,
  type TraceMessage,
  type TraceTransaction,
} from '@tongate/actions';
import type { TrustedDnsCollection } from '@tongate/contracts';
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { McBlockBatch } from '../../block.js';
import type { IndexTables } from '../../index-domain.js';
import { heldItems, interfacesOfStates, interfacesOfTrace, storedCodeAndData, traceAccounts, type CodeAndData } from '../../interfaces.js';
import type { ActionAccountsTable, ActionsTable, TracesTable, TracesTables } from './tables.js';

/**
 * Classification of complete traces: their transactions and messages (from the block being written and from the
 * index) plus what get-methods say about the jetton wallets and NFT items involved go through the pure classifier
 * of @tongate/actions; the result is the rows of `actions` and `action_accounts`.
 */

export type TraceRowValues = Selectable<TracesTable>;

/** The chain tables with the traces domain's own. */
export type TracesDb = IndexTables<TracesTables>;

/** A transaction in whichever form it comes: a batch row (JSON as text, bigints) or a row read back. */
interface TxLike {
  hash: string;
  lt: bigint | number | string;
  account: string;
  now: number;
  mc_block_seqno: number;
  orig_status: string;
  end_status: string;
  aborted: boolean;
  description: string | Record<string, unknown>;
}

interface MessageLike {
  tx_hash: string;
  direction: 'in' | 'out';
  out_index: number;
  msg_hash: string;
  source: string | null;
  destination: string | null;
  value: bigint | number | string | null;
  value_extra_currencies: string | Record<string, string> | null;
  fwd_fee: bigint | number | string | null;
  bounce: boolean | null;
  bounced: boolean | null;
  created_lt: bigint | number | string | null;
  created_at: bigint | number | string | null;
  opcode: number | null;
  body_hash: string;
  init_state_hash: string | null;
}

const json = <T>(v: string | T): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
const str = (v: bigint | number | string | null | undefined) => (v === null || v === undefined ? null : String(v));

function traceMessage(m: MessageLike, contents: ReadonlyMap<string, string>): TraceMessage {
  return {
    direction: m.direction,
    msg_hash: m.msg_hash,
    source: m.source,
    destination: m.destination,
    value: str(m.value),
    value_extra_currencies: m.value_extra_currencies === null ? null : json<Record<string, string>>(m.value_extra_currencies),
    fwd_fee: str(m.fwd_fee),
    bounce: m.bounce,
    bounced: m.bounced,
    created_lt: str(m.created_lt),
    created_at: m.created_at === null ? null : Number(m.created_at),
    opcode: m.opcode,
    body_hash: m.body_hash,
    body: contents.get(m.body_hash) ?? null,
    init_state_hash: m.init_state_hash,
    init_state: m.init_state_hash ? (contents.get(m.init_state_hash) ?? null) : null,
  };
}

function traceTransaction(tx: TxLike, messages: readonly MessageLike[], contents: ReadonlyMap<string, string>): TraceTransaction {
  const d = json<Record<string, unknown>>(tx.description);
  const compute = d.compute_ph as { skipped?: boolean; exit_code?: number } | undefined;
  return {
    hash: tx.hash,
    lt: String(tx.lt),
    account: tx.account,
    now: tx.now,
    mc_block_seqno: tx.mc_block_seqno,
    orig_status: tx.orig_status,
    end_status: tx.end_status,
    aborted: tx.aborted,
    destroyed: d.destroyed === true,
    compute_exit_code: compute && !compute.skipped ? (compute.exit_code ?? null) : null,
    is_tock: typeof d.is_tock === 'boolean' ? d.is_tock : null,
    descr: String(d.type),
    messages: [...messages]
      .sort((a, b) => (a.direction === b.direction ? a.out_index - b.out_index : a.direction === 'in' ? -1 : 1))
      .map((m) => traceMessage(m, contents)),
  };
}

/** The transactions of these traces with their messages and bodies: the block's own from the batch, the rest from the index. */
export async function loadTraceTransactions(
  db: Kysely<TracesDb>,
  membership: ReadonlyMap<string, string>,
  traceIds: readonly string[],
  batch: McBlockBatch | null,
): Promise<Map<string, TraceTransaction[]>> {
  const out = new Map<string, TraceTransaction[]>(traceIds.map((id) => [id, []]));
  if (traceIds.length === 0) return out;
  const contents = new Map<string, string>(batch ? batch.contents.map((c) => [c.hash, c.body]) : []);
  const batchTxs = new Set<string>();
  if (batch) {
    const messagesByTx = groupBy(batch.messages as unknown as MessageLike[], (m) => m.tx_hash);
    for (const tx of batch.transactions as unknown as TxLike[]) {
      const traceId = membership.get(tx.hash);
      if (traceId === undefined || !out.has(traceId)) continue;
      batchTxs.add(tx.hash);
      out.get(traceId)!.push(traceTransaction(tx, messagesByTx.get(tx.hash) ?? [], contents));
    }
  }
  const stored = await db
    .selectFrom('trace_transactions as tt')
    .innerJoin('transactions as t', 't.hash', 'tt.tx_hash')
    .select([
      'tt.trace_id',
      't.hash',
      't.lt',
      't.account',
      't.now',
      't.mc_block_seqno',
      't.orig_status',
      't.end_status',
      't.aborted',
      't.description',
    ])
    .where('tt.trace_id', 'in', traceIds)
    .execute();
  const storedTxs = stored.filter((t) => !batchTxs.has(t.hash));
  if (storedTxs.length > 0) {
    const messages = await db
      .selectFrom('messages')
      .selectAll()
      .where(
        'tx_hash',
        'in',
        storedTxs.map((t) => t.hash),
      )
      .execute();
    const wanted = [
      ...new Set(messages.flatMap((m) => [m.body_hash, m.init_state_hash]).filter((h): h is string => h !== null && !contents.has(h))),
    ];
    for (const chunk of chunks(wanted, 1000)) {
      for (const c of await db.selectFrom('message_contents').select(['hash', 'body']).where('hash', 'in', chunk).execute())
        contents.set(c.hash, c.body);
    }
    const messagesByTx = groupBy(messages as MessageLike[], (m) => m.tx_hash);
    for (const tx of storedTxs) out.get(tx.trace_id)!.push(traceTransaction(tx, messagesByTx.get(tx.hash) ?? [], contents));
  }
  for (const list of out.values()) list.sort(compareLt);
  return out;
}

/** Interfaces of every account of these traces, from their newest states (the block's, else the index's). */
async function interfacesFor(
  db: Kysely<TracesDb>,
  accounts: readonly string[],
  batch: McBlockBatch | null,
  now: number,
  dns: TrustedDnsCollection | null,
): Promise<Map<string, AccountInterfaces>> {
  const states = new Map<string, CodeAndData>();
  const wanted = new Set(accounts);
  if (batch) for (const s of batch.latestAccountStates as unknown as CodeAndData[]) if (wanted.has(s.account)) states.set(s.account, s);
  for (const [a, s] of await storedCodeAndData(
    db,
    accounts.filter((a) => !states.has(a)),
  ))
    states.set(a, s);
  return interfacesOfStates(states, now, dns);
}

export interface ClassifiedTrace {
  traceId: string;
  state: 'ok' | 'failed';
  actions: ClassifiedAction[];
}

/** Classifies complete traces; a trace the classifier throws on is recorded as failed, not retried forever. */
export async function classifyTraces(
  db: Kysely<TracesDb>,
  traces: readonly TraceRowValues[],
  membership: ReadonlyMap<string, string>,
  batch: McBlockBatch | null,
  /** The network's `.ton` collection (its items are the DNS items the classifier knows); null when unknown. */
  dnsCollection: () => Promise<TrustedDnsCollection | null> = async () => null,
): Promise<ClassifiedTrace[]> {
  if (traces.length === 0) return [];
  const txsByTrace = await loadTraceTransactions(
    db,
    membership,
    traces.map((t) => t.trace_id),
    batch,
  );
  const accounts = traceAccounts([...txsByTrace.values()].flat());
  const now = Math.max(...traces.map((t) => t.end_utime));
  const dns = await dnsCollection();
  const interfaces = await interfacesFor(db, accounts, batch, now, dns);
  const held = heldItems(interfaces);
  if (held.length > 0) for (const [a, kinds] of await interfacesFor(db, held, batch, now, dns)) interfaces.set(a, kinds);
  return traces.map((trace) => {
    const transactions = txsByTrace.get(trace.trace_id) ?? [];
    const input: TraceInput = {
      trace: { ...trace, start_lt: String(trace.start_lt), end_lt: String(trace.end_lt) },
      transactions,
      interfaces: interfacesOfTrace(traceAccounts(transactions), interfaces),
    };
    try {
      return { traceId: trace.trace_id, state: 'ok' as const, actions: classifyTrace(input) };
    } catch {
      return { traceId: trace.trace_id, state: 'failed' as const, actions: [] };
    }
  });
}

export interface ActionRows {
  actions: Insertable<ActionsTable>[];
  accounts: Insertable<ActionAccountsTable>[];
}

export function actionRows(classified: readonly ClassifiedTrace[]): ActionRows {
  const out: ActionRows = { actions: [], accounts: [] };
  for (const { actions } of classified) {
    // the same action id twice in one trace (a reference quirk) keeps the first
    const seen = new Set<string>();
    for (const a of actions) {
      if (seen.has(a.action_id)) continue;
      seen.add(a.action_id);
      const ancestors = JSON.stringify(a.ancestor_type ?? []);
      out.actions.push({
        trace_id: a.trace_id,
        action_id: a.action_id,
        type: a.type,
        start_lt: a.start_lt,
        end_lt: a.end_lt,
        start_utime: a.start_utime,
        end_utime: a.end_utime,
        trace_end_lt: a.trace_end_lt,
        trace_end_utime: a.trace_end_utime,
        trace_mc_seqno_end: a.trace_mc_seqno_end,
        success: a.success,
        ancestor_type: ancestors,
        tx_hashes: JSON.stringify(a.tx_hashes),
        data: JSON.stringify(a),
      });
      for (const account of new Set(a.accounts)) {
        out.accounts.push({
          account,
          trace_end_lt: a.trace_end_lt,
          trace_id: a.trace_id,
          end_lt: a.end_lt,
          action_id: a.action_id,
          type: a.type,
          ancestor_type: ancestors,
          trace_end_utime: a.trace_end_utime,
          trace_mc_seqno_end: a.trace_mc_seqno_end,
        });
      }
    }
  }
  return out;
}

export function compareLt(a: { lt: bigint | number | string }, b: { lt: bigint | number | string }): number {
  const x = BigInt(a.lt);
  const y = BigInt(b.lt);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
