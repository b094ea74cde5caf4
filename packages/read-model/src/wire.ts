import { shardToHex, textCommentBytes } from '@tongate/chain';
import type { v3 } from '@tongate/sdk';
import type { AccountStatesTable, ChainDatabase, MessagesTable, TransactionsTable } from '@tongate/store';
import { decodeOpcode } from '@tongate/tlb';
import { Cell } from '@ton/core';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { MessageRow, TransactionRow } from './rows.js';

/**
 * The API v3 wire form of indexed transactions and messages, in one place for the two that produce it: the v3
 * handlers (from rows they read) and the indexer, which stores each transaction's wire JSON at ingest
 * (`transactions.wire`) so that an account's history page is a hundred row reads instead of joins over messages,
 * bodies and states. Transactions are immutable; the stored form is tagged with WIRE_VERSION, and a reader uses it
 * only when the tag is current (a change of the form below bumps it, and older rows are served through the joins).
 */
export const WIRE_VERSION = 1;

/**
 * A message row as a SELECT returns it (64-bit columns as decimal strings), with its body and init state BOCs, and
 * at ingest the comment the indexer already decoded from the body cell (`decoded_comment`, see rows.ts).
 */
export type WireMessageRow = Selectable<MessagesTable> & {
  body: string | null;
  init_state: string | null;
  decoded_comment?: string | null;
};

/** A transaction's columns the wire form needs, as a SELECT returns them. */
export type WireTransactionRow = Pick<
  Selectable<TransactionsTable>,
  | 'account'
  | 'hash'
  | 'lt'
  | 'now'
  | 'mc_block_seqno'
  | 'prev_trans_hash'
  | 'prev_trans_lt'
  | 'orig_status'
  | 'end_status'
  | 'total_fees'
  | 'total_fees_extra_currencies'
  | 'description'
  | 'block_workchain'
  | 'block_shard'
  | 'block_seqno'
  | 'account_state_hash_before'
  | 'account_state_hash_after'
>;

/** An account state row as a SELECT returns it. */
export type WireStateRow = Pick<
  Selectable<AccountStatesTable>,
  'hash' | 'balance' | 'extra_currencies' | 'account_status' | 'frozen_hash' | 'data_hash' | 'code_hash'
>;

/** The account_states columns of a WireStateRow, in the read shape (balance as text), for every SELECT of them. */
export const WIRE_STATE_COLUMNS = [
  'hash',
  sql<string>`balance::text`.as('balance'),
  'extra_currencies',
  'account_status',
  'frozen_hash',
  'data_hash',
  'code_hash',
] as const;

/** Message rows with their body and init state BOCs, in the read shape (64-bit and numeric columns as text). */
export function wireMessagesQuery(db: Kysely<ChainDatabase>) {
  return db
    .selectFrom('messages as m')
    .leftJoin('message_contents as body', 'body.hash', 'm.body_hash')
    .leftJoin('message_contents as init', 'init.hash', 'm.init_state_hash')
    .select([
      'm.tx_hash',
      'm.direction',
      'm.out_index',
      'm.msg_hash',
      'm.msg_hash_norm',
      'm.source',
      'm.destination',
      sql<string | null>`m.value::text`.as('value'),
      'm.value_extra_currencies',
      sql<string | null>`m.fwd_fee::text`.as('fwd_fee'),
      sql<string | null>`m.ihr_fee::text`.as('ihr_fee'),
      sql<string | null>`m.extra_flags::text`.as('extra_flags'),
      sql<string | null>`m.import_fee::text`.as('import_fee'),
      sql<string | null>`m.created_lt::text`.as('created_lt'),
      sql<string | null>`m.created_at::text`.as('created_at'),
      'm.opcode',
      'm.ihr_disabled',
      'm.bounce',
      'm.bounced',
      'm.body_hash',
      'm.init_state_hash',
      'body.body as body',
      'init.body as init_state',
    ]);
}

/** Text comments decode to the shape toncenter keeps for compatibility; other bodies have no decoder yet. */
function decodeBody(row: WireMessageRow): v3.DecodedContent | null {
  let text: string | null = null;
  if (row.decoded_comment !== undefined) text = row.decoded_comment;
  else if (row.body) {
    try {
      text = textCommentBytes(Cell.fromBase64(row.body))?.toString('utf-8') ?? null;
    } catch {
      text = null;
    }
  }
  return text === null ? null : { type: 'text_comment', '@type': 'text_comment', comment: text };
}

const opcodeHex = (op: number | null) => (op === null ? null : `0x${(op >>> 0).toString(16).padStart(8, '0')}`);

export function formatMessage(row: WireMessageRow): v3.Message {
  return {
    hash: row.msg_hash,
    ...(row.msg_hash_norm ? { hash_norm: row.msg_hash_norm } : {}),
    source: row.source,
    destination: row.destination,
    value: row.value,
    value_extra_currencies: row.value_extra_currencies,
    fwd_fee: row.fwd_fee,
    ihr_fee: row.ihr_fee,
    extra_flags: row.extra_flags,
    import_fee: row.import_fee,
    created_lt: row.created_lt,
    created_at: row.created_at,
    opcode: opcodeHex(row.opcode),
    // the stored opcode is signed; scheme tags are unsigned
    decoded_opcode: row.opcode === null ? null : decodeOpcode(row.opcode >>> 0),
    ihr_disabled: row.ihr_disabled,
    bounce: row.bounce,
    bounced: row.bounced,
    message_content: { hash: row.body_hash, body: row.body, decoded: row.opcode === 0 ? decodeBody(row) : null },
    init_state: row.init_state_hash ? { hash: row.init_state_hash, body: row.init_state, decoded: null } : null,
  };
}

/** An account state by hash, or the all-null state the hosted API gives for a state it did not record. */
export function wireAccountState(hash: string, states: ReadonlyMap<string, WireStateRow>): v3.AccountState {
  const s = states.get(hash);
  if (!s) return { hash, balance: null, extra_currencies: null, account_status: null, frozen_hash: null, data_hash: null, code_hash: null };
  return {
    hash,
    balance: s.balance,
    extra_currencies: s.extra_currencies,
    account_status: s.account_status as v3.AccountStatus,
    frozen_hash: s.frozen_hash,
    data_hash: s.data_hash,
    code_hash: s.code_hash,
  };
}

/** One transaction row with its messages (out_msgs in order) and account states → the wire shape (an indexed one). */
export function formatTransaction(
  r: WireTransactionRow,
  incoming: WireMessageRow | undefined,
  outgoing: WireMessageRow[],
  before: v3.AccountState,
  after: v3.AccountState,
): v3.Transaction {
  return {
    account: r.account,
    hash: r.hash,
    lt: r.lt,
    now: r.now,
    mc_block_seqno: r.mc_block_seqno,
    trace_id: null,
    prev_trans_hash: r.prev_trans_hash,
    prev_trans_lt: r.prev_trans_lt,
    orig_status: r.orig_status as v3.AccountStatus,
    end_status: r.end_status as v3.AccountStatus,
    total_fees: r.total_fees,
    total_fees_extra_currencies: r.total_fees_extra_currencies,
    description: r.description as unknown as v3.TransactionDescription,
    block_ref: { workchain: r.block_workchain, shard: shardToHex(BigInt(r.block_shard)).toUpperCase(), seqno: r.block_seqno },
    in_msg: incoming ? formatMessage(incoming) : null,
    out_msgs: outgoing.map(formatMessage),
    account_state_before: before,
    account_state_after: after,
    emulated: false,
    finality: 'finalized',
  };
}

/** Insertable row values → what a SELECT returns (int64 columns as decimal strings, JSON columns parsed). */
export function selected<T>(row: object, int64: readonly string[], json: readonly string[]): T {
  const out: Record<string, unknown> = { ...row };
  for (const c of int64) if (out[c] !== null && out[c] !== undefined) out[c] = String(out[c]);
  for (const c of json) if (typeof out[c] === 'string') out[c] = JSON.parse(out[c] as string);
  return out as T;
}

export const TX_INT64 = ['lt', 'block_shard', 'prev_trans_lt', 'total_fees'];
export const TX_JSON = ['total_fees_extra_currencies', 'description'];
export const MSG_INT64 = [
  'tx_lt',
  'value',
  'fwd_fee',
  'ihr_fee',
  'extra_flags',
  'import_fee',
  'created_lt',
  'created_at',
  'order_lt',
  'order_utime',
];
export const MSG_JSON = ['value_extra_currencies'];
const STATE_INT64 = ['balance'];
const STATE_JSON = ['extra_currencies'];

/** An account-state row as the indexer writes it → as a SELECT returns it. */
export function selectedState(row: object): WireStateRow {
  return selected<WireStateRow>(row, STATE_INT64, STATE_JSON);
}

/** A transaction's message rows as the indexer writes them → as a SELECT returns them, with bodies from `contents`. */
export function selectedMessages(rows: readonly MessageRow[], contents: ReadonlyMap<string, string>): WireMessageRow[] {
  return rows.map((m) => {
    const row = selected<WireMessageRow>(m, MSG_INT64, MSG_JSON);
    row.body = contents.get(row.body_hash) ?? null;
    row.init_state = row.init_state_hash ? (contents.get(row.init_state_hash) ?? null) : null;
    return row;
  });
}

/** What the indexer stores beside a transaction: its wire JSON without `trace_id` (spliced in by the reader), and the other addresses its messages name. */
export interface StoredWire {
  wire: string;
  wire_peers: string;
  wire_version: number;
}

// The stored form is written as text directly (no intermediate objects, no parse of the JSON columns): at ingest
// it is computed for every transaction, and building then serializing the objects of formatTransaction cost a
// quarter of the write path. The text is exactly JSON.stringify of formatTransaction's object without `trace_id`
// (same keys, same order); stored-wire tests hold the two paths to it over every devnet transaction.

/** A string or null column as JSON. */
const str = (v: string | null | undefined): string => (v === null || v === undefined ? 'null' : JSON.stringify(v));
/** A 64-bit or numeric column (bigint, number or decimal text) as the JSON string the wire gives it. */
const dec = (v: bigint | number | string | null | undefined): string => (v === null || v === undefined ? 'null' : `"${v}"`);
/** A 32-bit column or a flag as JSON. */
const num = (v: number | boolean | null | undefined): string => (v === null || v === undefined ? 'null' : String(v));
/** A JSON column: the writer's rows hold its text (from JSON.stringify), rows read back hold the parsed value. */
const raw = (v: unknown): string => (v === null || v === undefined ? 'null' : typeof v === 'string' ? v : JSON.stringify(v));

/** The comment of a text-comment body (opcode 0), decoded at collect time or from the BOC. */
function commentText(m: MessageRow, body: string | null): string | null {
  if (m.decoded_comment !== undefined) return m.decoded_comment;
  if (!body) return null;
  try {
    return textCommentBytes(Cell.fromBase64(body))?.toString('utf-8') ?? null;
  } catch {
    return null;
  }
}

/** formatMessage's JSON for a writer's (or read-back) message row. */
function messageText(m: MessageRow, contents: ReadonlyMap<string, string>): string {
  const body = contents.get(m.body_hash) ?? null;
  const opcode = m.opcode ?? null;
  let decoded = 'null';
  if (opcode === 0) {
    const text = commentText(m, body);
    if (text !== null) decoded = `{"type":"text_comment","@type":"text_comment","comment":${JSON.stringify(text)}}`;
  }
  const init = m.init_state_hash
    ? `{"hash":${str(m.init_state_hash)},"body":${str(contents.get(m.init_state_hash) ?? null)},"decoded":null}`
    : 'null';
  return (
    `{"hash":${str(m.msg_hash)}${m.msg_hash_norm ? `,"hash_norm":${str(m.msg_hash_norm)}` : ''}` +
    `,"source":${str(m.source)},"destination":${str(m.destination)},"value":${dec(m.value)}` +
    `,"value_extra_currencies":${raw(m.value_extra_currencies)},"fwd_fee":${dec(m.fwd_fee)},"ihr_fee":${dec(m.ihr_fee)}` +
    `,"extra_flags":${dec(m.extra_flags)},"import_fee":${dec(m.import_fee)},"created_lt":${dec(m.created_lt)},"created_at":${dec(m.created_at)}` +
    `,"opcode":${str(opcodeHex(opcode))},"decoded_opcode":${str(opcode === null ? null : decodeOpcode(opcode >>> 0))}` +
    `,"ihr_disabled":${num(m.ihr_disabled)},"bounce":${num(m.bounce)},"bounced":${num(m.bounced)}` +
    `,"message_content":{"hash":${str(m.body_hash)},"body":${str(body)},"decoded":${decoded}},"init_state":${init}}`
  );
}

/** wireAccountState's JSON. */
function stateText(hash: string, states: ReadonlyMap<string, WireStateRow>): string {
  const s = states.get(hash);
  if (!s)
    return `{"hash":${str(hash)},"balance":null,"extra_currencies":null,"account_status":null,"frozen_hash":null,"data_hash":null,"code_hash":null}`;
  return (
    `{"hash":${str(hash)},"balance":${dec(s.balance)},"extra_currencies":${raw(s.extra_currencies)},"account_status":${str(s.account_status)}` +
    `,"frozen_hash":${str(s.frozen_hash)},"data_hash":${str(s.data_hash)},"code_hash":${str(s.code_hash)}}`
  );
}

/**
 * A transaction as the indexer writes it (or as read back, for the backfill) → its stored wire form. `trace_id` is
 * left out: the traces derivation assigns it in the same database transaction, and the reader splices it in as the
 * first key.
 */
export function storedWire(
  tx: TransactionRow,
  messages: readonly MessageRow[],
  contents: ReadonlyMap<string, string>,
  states: ReadonlyMap<string, WireStateRow>,
): StoredWire {
  let incoming = 'null';
  const outgoing: MessageRow[] = [];
  const peers = new Set<string>();
  for (const m of messages) {
    if (m.direction === 'in') incoming = messageText(m, contents);
    else if (m.direction === 'out') outgoing.push(m);
    if (m.source && m.source !== tx.account) peers.add(m.source);
    if (m.destination && m.destination !== tx.account) peers.add(m.destination);
  }
  outgoing.sort((a, b) => a.out_index - b.out_index);
  let out = '';
  for (const m of outgoing) out += (out ? ',' : '') + messageText(m, contents);
  const wire =
    `{"account":${str(tx.account)},"hash":${str(tx.hash)},"lt":${dec(tx.lt)},"now":${num(tx.now)},"mc_block_seqno":${num(tx.mc_block_seqno)}` +
    `,"prev_trans_hash":${str(tx.prev_trans_hash)},"prev_trans_lt":${dec(tx.prev_trans_lt)},"orig_status":${str(tx.orig_status)},"end_status":${str(tx.end_status)}` +
    `,"total_fees":${dec(tx.total_fees)},"total_fees_extra_currencies":${raw(tx.total_fees_extra_currencies)},"description":${raw(tx.description)}` +
    `,"block_ref":{"workchain":${num(tx.block_workchain)},"shard":${str(shardToHex(BigInt(tx.block_shard)).toUpperCase())},"seqno":${num(tx.block_seqno)}}` +
    `,"in_msg":${incoming},"out_msgs":[${out}]` +
    `,"account_state_before":${stateText(tx.account_state_hash_before, states)},"account_state_after":${stateText(tx.account_state_hash_after, states)}` +
    `,"emulated":false,"finality":"finalized"}`;
  return { wire, wire_peers: JSON.stringify([...peers].sort()), wire_version: WIRE_VERSION };
}
