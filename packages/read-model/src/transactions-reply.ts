import type { v3 } from '@tongate/sdk';
import type { ChainDatabase, TransactionsTable } from '@tongate/store';
import { sql, type Kysely, type SelectQueryBuilder, type Selectable } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { bookOf, codeFactsQuery, factsFromRows, uniqueAddresses, type CodeFactsRow, type DomainRow } from './address-book.js';
import { domainsQuery } from './domains/dns.js';
import { joinTraceIds, traceIdsQuery } from './domains/traces/readers.js';
import {
  formatTransaction,
  wireAccountState,
  wireMessagesQuery,
  WIRE_VERSION,
  type WireMessageRow,
  WIRE_STATE_COLUMNS,
  type WireStateRow,
  type WireTransactionRow,
} from './wire.js';

/**
 * Replies that list transactions in the v3 wire shape (/transactions and its variants, the transactions of /traces
 * and /actions, the stream's blocks): a page of `transactions` rows in, the transactions with their messages,
 * account states, trace ids and address book out.
 */

export type TxRow = Selectable<TransactionsTable>;

/** A transaction's columns the wire shape needs, with 64-bit and numeric columns as text (as node-postgres reads them). */
const TX_JSON_COLUMNS: [name: string, asText: boolean][] = [
  ['account', false],
  ['hash', false],
  ['lt', true],
  ['now', false],
  ['mc_block_seqno', false],
  ['prev_trans_hash', false],
  ['prev_trans_lt', true],
  ['orig_status', false],
  ['end_status', false],
  ['total_fees', true],
  ['total_fees_extra_currencies', false],
  ['description', false],
  ['block_workchain', false],
  ['block_shard', true],
  ['block_seqno', false],
  ['account_state_hash_before', false],
  ['account_state_hash_after', false],
];
const txJson = sql.raw(`json_build_object(${TX_JSON_COLUMNS.map(([c, text]) => `'${c}', p.${c}${text ? '::text' : ''}`).join(', ')})`);

/** How a page of transactions is ordered (docs/wire.md): by (lt, account), or by (now, lt, account) with a time bound. */
export interface TxOrder {
  sort: 'asc' | 'desc';
  byTime: boolean;
}

type TxJsonRow = WireTransactionRow;
type StateJsonRow = WireStateRow;
type MessageRow = WireMessageRow;

/**
 * A page of transactions (`page`: transactions rows, its order and limit) → the wire shape with messages, account
 * states, trace ids and the address book of everything in it, in one SQL statement (one round trip): the page is a
 * CTE, and each part comes back as one JSON array (64-bit values as text), assembled here. `order` is the page's
 * order (null: any, the caller maps by hash).
 */
/** A transactions reply as built here: always with its address book (only the X-No-Address-Book header drops it). */
export type TransactionsReply = v3.TransactionsResponse & { address_book: NonNullable<v3.TransactionsResponse['address_book']> };

export async function transactionsReply(
  db: Kysely<ChainDatabase>,
  page: SelectQueryBuilder<ChainDatabase, 'transactions', TxRow>,
  order: TxOrder | null,
  testnet: boolean,
): Promise<TransactionsReply> {
  const dir = sql.raw(order?.sort === 'asc' ? 'asc' : 'desc');
  const orderBy = order
    ? order.byTime
      ? sql`order by p.now ${dir}, p.lt ${dir}, p.account ${dir}`
      : sql`order by p.lt ${dir}, p.account ${dir}`
    : sql``;
  const row = await db
    .with('page', () => page)
    .with('msgs', () => wireMessagesQuery(db).where('m.tx_hash', 'in', sql<string>`(select hash from page)`))
    .with('addrs', (w) =>
      w
        .selectFrom('page')
        .select('account')
        .union(w.selectFrom('msgs').select('source as account').where('source', 'is not', null).$narrowType<{ account: string }>())
        .union(
          w.selectFrom('msgs').select('destination as account').where('destination', 'is not', null).$narrowType<{ account: string }>(),
        ),
    )
    .selectNoFrom((eb) => [
      sql<TxJsonRow[]>`(select coalesce(json_agg(${txJson} ${orderBy}), '[]') from page p)`.as('transactions'),
      sql<MessageRow[]>`(select coalesce(json_agg(m), '[]') from msgs m)`.as('messages'),
      jsonArrayFrom(
        eb
          .selectFrom('account_states')
          .select(WIRE_STATE_COLUMNS)
          .where(
            'hash',
            'in',
            eb
              .selectFrom('page')
              .select('account_state_hash_before')
              .union(eb.selectFrom('page').select('account_state_hash_after as account_state_hash_before')),
          ),
      ).as('states'),
      jsonArrayFrom(traceIdsQuery(eb as unknown as Kysely<ChainDatabase>, eb.selectFrom('page').select('hash'))).as('traces'),
      jsonArrayFrom(codeFactsQuery(eb as unknown as Kysely<ChainDatabase>, eb.selectFrom('addrs').select('account'))).as('facts'),
      jsonArrayFrom(domainsQuery(eb as unknown as Kysely<ChainDatabase>, eb.selectFrom('addrs').select('account'))).as('domains'),
    ])
    .executeTakeFirstOrThrow();
  const rows = row.transactions;
  if (rows.length === 0) return { transactions: [], address_book: {} };
  const states = new Map((row.states as StateJsonRow[]).map((s) => [s.hash, s]));
  const traceOf = new Map(row.traces.map((t) => [t.tx_hash, t.trace_id]));
  const inMsg = new Map<string, MessageRow>();
  const outMsgs = new Map<string, MessageRow[]>();
  for (const m of row.messages) {
    if (m.direction === 'in') inMsg.set(m.tx_hash, m);
    else {
      const list = outMsgs.get(m.tx_hash) ?? [];
      list.push(m);
      outMsgs.set(m.tx_hash, list);
    }
  }
  const transactions: v3.Transaction[] = rows.map((r) => ({
    ...formatTransaction(
      r,
      inMsg.get(r.hash),
      (outMsgs.get(r.hash) ?? []).sort((a, b) => a.out_index - b.out_index),
      wireAccountState(r.account_state_hash_before, states),
      wireAccountState(r.account_state_hash_after, states),
    ),
    trace_id: traceOf.get(r.hash) ?? null,
  }));
  const addresses = uniqueAddresses(
    transactions.flatMap((t) => [
      t.account,
      t.in_msg?.source,
      t.in_msg?.destination,
      ...t.out_msgs.flatMap((m) => [m.source, m.destination]),
    ]),
  );
  const facts = factsFromRows(row.facts as CodeFactsRow[], row.domains as DomainRow[]);
  return { transactions, address_book: bookOf(addresses, facts, testnet) };
}

/**
 * A page of transactions as JSON text from the transactions' stored wire forms (written at ingest, see
 * @tongate/read-model wire.ts): one statement reads the page's rows, splices each one's trace id in as its first key,
 * and reads the address book's facts; the reply is assembled as text, so nothing is parsed or re-serialized. Null
 * when a row of the page has no wire form of the current version (written before it, or by an older indexer): the
 * caller then builds the reply through the joins (transactionsReply).
 */
export async function storedTransactionsReply(
  db: Kysely<ChainDatabase>,
  page: SelectQueryBuilder<ChainDatabase, 'transactions', TxRow>,
  order: TxOrder,
  testnet: boolean,
): Promise<string | null> {
  const dir = sql.raw(order.sort === 'asc' ? 'asc' : 'desc');
  const orderBy = order.byTime ? sql`order by p.now ${dir}, p.lt ${dir}, p.account ${dir}` : sql`order by p.lt ${dir}, p.account ${dir}`;
  const row = await db
    // Only the columns the reply reads: the page is materialized, and each row's description alone is a kilobyte.
    .with('page', () => page.clearSelect().select(['hash', 'account', 'lt', 'now', 'wire', 'wire_peers', 'wire_version']))
    .with('addrs', (w) =>
      w
        .selectFrom('page')
        .select('account')
        .union(w.selectFrom('page').select(sql<string>`jsonb_array_elements_text(wire_peers)`.as('account'))),
    )
    // The page's rows are read once: the stale check rides in the aggregate that builds the text. `right(wire, -1)`
    // drops the stored form's opening brace; substr(wire, 2) did the same at twice the cost (measured at 10M:
    // statement execution 2.6 → 1.1 ms with both changes).
    .selectFrom((w) =>
      joinTraceIds(w.selectFrom('page as p'))
        .select([
          sql<
            string | null
          >`string_agg('{"trace_id":' || coalesce(to_json(t.trace_id)::text, 'null') || ',' || right(p.wire, -1), ',' ${orderBy})`.as(
            'transactions',
          ),
          sql<number>`(count(*) filter (where p.wire_version is distinct from ${WIRE_VERSION}))::int`.as('stale'),
        ])
        .as('page_text'),
    )
    .select((eb) => [
      'page_text.stale',
      'page_text.transactions',
      sql<string[]>`(select coalesce(json_agg(account), '[]') from addrs)`.as('addresses'),
      jsonArrayFrom(codeFactsQuery(eb as unknown as Kysely<ChainDatabase>, eb.selectFrom('addrs').select('account'))).as('facts'),
      jsonArrayFrom(domainsQuery(eb as unknown as Kysely<ChainDatabase>, eb.selectFrom('addrs').select('account'))).as('domains'),
    ])
    .executeTakeFirstOrThrow();
  if (row.stale > 0) return null;
  if (row.transactions === null) return '{"transactions":[],"address_book":{}}';
  const book = bookOf(row.addresses, factsFromRows(row.facts as CodeFactsRow[], row.domains as DomainRow[]), testnet);
  return `{"transactions":[${row.transactions}],"address_book":${JSON.stringify(book)}}`;
}
