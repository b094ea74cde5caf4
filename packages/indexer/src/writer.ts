import type { BlockRef } from '@tongate/chain';
import { copyRows, type ChainDatabase, type CopyType } from '@tongate/store';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { McBlockBatch } from './collect.js';
import type { BlockDerivation, DerivationContext } from './derive/index.js';
import { selectedState, storedWire, WIRE_STATE_COLUMNS, type WireStateRow } from '@tongate/read-model';

/** PostgreSQL type of every column the indexer writes, per table (the unnest arrays are cast to these). */
const COLUMN_TYPES = {
  blocks: {
    workchain: 'int',
    shard: 'bigint',
    seqno: 'int',
    root_hash: 'text',
    file_hash: 'text',
    mc_block_seqno: 'int',
    global_id: 'int',
    version: 'int',
    after_merge: 'bool',
    before_split: 'bool',
    after_split: 'bool',
    want_merge: 'bool',
    want_split: 'bool',
    key_block: 'bool',
    vert_seqno_incr: 'bool',
    flags: 'int',
    gen_utime: 'int',
    start_lt: 'bigint',
    end_lt: 'bigint',
    validator_list_hash_short: 'int',
    gen_catchain_seqno: 'int',
    min_ref_mc_seqno: 'int',
    prev_key_block_seqno: 'int',
    vert_seqno: 'int',
    master_ref_seqno: 'int',
    tx_count: 'int',
    prev_blocks: 'jsonb',
  },
  shard_state: { mc_seqno: 'int', workchain: 'int', shard: 'bigint', seqno: 'int' },
  transactions: {
    account: 'text',
    hash: 'text',
    lt: 'bigint',
    now: 'int',
    block_workchain: 'int',
    block_shard: 'bigint',
    block_seqno: 'int',
    mc_block_seqno: 'int',
    prev_trans_hash: 'text',
    prev_trans_lt: 'bigint',
    orig_status: 'text',
    end_status: 'text',
    total_fees: 'numeric',
    total_fees_extra_currencies: 'jsonb',
    account_state_hash_before: 'text',
    account_state_hash_after: 'text',
    descr: 'text',
    aborted: 'bool',
    description: 'jsonb',
    in_msg_hash: 'text',
    wire: 'text',
    wire_peers: 'jsonb',
    wire_version: 'smallint',
  },
  messages: {
    tx_hash: 'text',
    tx_lt: 'bigint',
    tx_account: 'text',
    direction: 'text',
    out_index: 'int',
    mc_seqno: 'int',
    msg_hash: 'text',
    msg_hash_norm: 'text',
    source: 'text',
    destination: 'text',
    value: 'numeric',
    value_extra_currencies: 'jsonb',
    fwd_fee: 'numeric',
    ihr_fee: 'numeric',
    extra_flags: 'numeric',
    import_fee: 'numeric',
    created_lt: 'bigint',
    created_at: 'bigint',
    order_lt: 'bigint',
    order_utime: 'bigint',
    opcode: 'int',
    ihr_disabled: 'bool',
    bounce: 'bool',
    bounced: 'bool',
    body_hash: 'text',
    init_state_hash: 'text',
  },
  message_contents: { hash: 'text', body: 'text' },
  account_states: {
    hash: 'text',
    account: 'text',
    balance: 'numeric',
    extra_currencies: 'jsonb',
    account_status: 'text',
    frozen_hash: 'text',
    data_hash: 'text',
    code_hash: 'text',
  },
  latest_account_states: {
    account: 'text',
    hash: 'text',
    balance: 'numeric',
    extra_currencies: 'jsonb',
    account_status: 'text',
    frozen_hash: 'text',
    data_hash: 'text',
    code_hash: 'text',
    data_boc: 'text',
    code_boc: 'text',
    contract_methods: 'jsonb',
    last_trans_hash: 'text',
    last_trans_lt: 'bigint',
    timestamp: 'int',
    mc_seqno: 'int',
  },
} as const satisfies { [T in keyof ChainDatabase]?: { [C in keyof ChainDatabase[T]]?: string } };

type WrittenTable = keyof typeof COLUMN_TYPES;

/** Separates a column's values in its one text parameter; JSON text, base64, hex and decimal never hold it (JSON escapes control characters). */
const VALUE_SEPARATOR = '\u001e';
/** Stands for NULL among a column's values. */
const NULL_VALUE = '\u001f';

/**
 * One column's values as one parameter: the values joined by a control character that none of them holds, split
 * back by `string_to_array` in PostgreSQL. node-postgres would otherwise write an array literal, escaping every
 * quote and backslash of every value (a stored wire form has hundreds), and PostgreSQL would unescape them again.
 * A column with a value that holds either control character, or a lone empty value (which splits into no element),
 * goes as an array literal.
 */
export function columnParameter(values: (string | null)[], type: string) {
  let joinable = !(values.length === 1 && values[0] === '');
  for (let i = 0; joinable && i < values.length; i++) {
    const v = values[i];
    if (v !== null && (v.includes(VALUE_SEPARATOR) || v.includes(NULL_VALUE))) joinable = false;
  }
  if (!joinable) return sql`cast(${values} as ${sql.raw(type)}[])`;
  const joined = values.map((v) => (v === null ? NULL_VALUE : v)).join(VALUE_SEPARATOR);
  return sql`cast(string_to_array(${joined}::text, ${VALUE_SEPARATOR}, ${NULL_VALUE}) as ${sql.raw(type)}[])`;
}

/**
 * One INSERT per table whatever the row count: each column travels as one parameter (see columnParameter) and
 * `unnest` turns the columns back into rows, so the statement has a dozen parameters instead of rows × columns,
 * and PostgreSQL parses and plans it once.
 */
function insertRows<T extends WrittenTable>(trx: Transaction<ChainDatabase>, table: T, rows: readonly object[]) {
  const columns = Object.entries(COLUMN_TYPES[table]) as [string, string][];
  const arrays = columns.map(([name, type]) => {
    const values = rows.map((row) => {
      const v = (row as Record<string, unknown>)[name];
      return v === null || v === undefined ? null : typeof v === 'string' ? v : String(v);
    });
    return columnParameter(values, type);
  });
  return trx
    .insertInto(table)
    .columns(columns.map(([name]) => name) as never)
    .expression(sql`select * from unnest(${sql.join(arrays)})` as never);
}

/**
 * Rows of a table whose keys never collide (a block's own rows), by COPY in the binary format: PostgreSQL takes them
 * without the parameter arrays, casts and plan of an INSERT, and without parsing text.
 */
function copyTable(trx: Transaction<ChainDatabase>, table: WrittenTable, rows: readonly object[]) {
  const columns = Object.entries(COLUMN_TYPES[table]) as [string, CopyType][];
  const values = rows.map((row) => columns.map(([name]) => (row as Record<string, unknown>)[name]));
  const statement = copyRows(trx, table, columns, values);
  return { execute: () => statement.execute(trx) };
}

/** The block's transaction rows with their stored wire form. */
function withWire(batch: McBlockBatch, states: ReadonlyMap<string, WireStateRow>): McBlockBatch['transactions'] {
  const contents = new Map(batch.contents.map((c) => [c.hash, c.body]));
  const messagesOf = new Map<string, McBlockBatch['messages']>();
  for (const m of batch.messages) {
    const list = messagesOf.get(m.tx_hash);
    if (list) list.push(m);
    else messagesOf.set(m.tx_hash, [m]);
  }
  return batch.transactions.map((t) => ({ ...t, ...storedWire(t, messagesOf.get(t.hash) ?? [], contents, states) }));
}

/** A statement of the block's write; its parameters (the JavaScript part of its cost) are built when it is called. */
type Statement = () => { execute(): Promise<unknown> };

/**
 * Runs the statements in order on the block's connection, building each one's data while PostgreSQL executes the one
 * before: the wire forms and the copy data of a large block take as long in JavaScript as some of the statements take
 * in the database, and done in turn the two sides would each sit idle half the time.
 */
async function pipeline(statements: Statement[]): Promise<void> {
  let next = statements[0]?.();
  for (let i = 0; next; i++) {
    const running = next.execute();
    running.catch(() => {}); // awaited below: not unhandled while the next statement is built
    // Let the query reach the socket before the synchronous work of building the next one starts.
    await new Promise<void>((resolve) => setImmediate(resolve));
    let built: ReturnType<Statement> | undefined;
    try {
      built = statements[i + 1]?.();
    } catch (err) {
      await running.catch(() => {});
      throw err;
    }
    await running;
    next = built;
  }
}

/**
 * Writes one masterchain block's rows and moves the cursor, in one database transaction: after a crash the
 * database holds either all of the block and the cursor past it, or none of it.
 *
 * The block's own rows are plain copies and inserts (a second write of the same block fails loudly instead of doubling
 * rows); contents and account states are shared between blocks and deduplicated by hash.
 */
export async function writeMcBlock(
  db: Kysely<ChainDatabase>,
  batch: McBlockBatch,
  derived: DerivedWrites = NO_DERIVED,
  timings?: StageTimings,
): Promise<void> {
  let mark = performance.now();
  /** Time since the previous mark, added to `stage` (no-op without timings). */
  const lap = (stage: string) => {
    const now = performance.now();
    if (timings) timings[stage] = (timings[stage] ?? 0) + (now - mark);
    mark = now;
  };
  await db.transaction().execute(async (trx) => {
    // Each statement's data is built while the statement before it runs in PostgreSQL (see pipeline): the shared rows
    // while the block opens, the messages' copy data while the shared rows go in, the transactions' wire forms (which
    // need the earlier states the opening reads) while the messages are copied.
    let states: Map<string, WireStateRow> | undefined;
    const statements: (Statement | false)[] = [
      () => ({ execute: async () => void (states = await openBlock(trx, batch)) }),
      () => insertSharedRows(trx, batch),
      batch.messages.length > 0 && (() => copyTable(trx, 'messages', batch.messages)),
      batch.transactions.length > 0 && (() => copyTable(trx, 'transactions', withWire(batch, states!))),
    ];
    await pipeline(statements.filter((st): st is Statement => st !== false));
    lap('write:chain');
    for (const { derivation, prepared } of derived.prepared) {
      await derivation.write(trx, batch, prepared, derived.ctx);
      lap(`write:${derivation.name}`);
    }
  });
  // COMMIT.
  lap('commit');
}

/**
 * The block's first statement, one round trip for what must come before its rows: the cursor moves to this block
 * (a concurrent writer that slipped past the lock fails here rather than interleaving blocks), the transaction
 * stops waiting for the WAL flush at commit, and the earlier account states its stored wire forms name are read.
 * Returns every state the wire forms name.
 */
async function openBlock(trx: Transaction<ChainDatabase>, batch: McBlockBatch): Promise<Map<string, WireStateRow>> {
  const states = new Map<string, WireStateRow>(batch.accountStates.map((s) => [s.hash, selectedState(s)]));
  const missing = new Set<string>();
  for (const t of batch.transactions) {
    for (const hash of [t.account_state_hash_before, t.account_state_hash_after]) if (!states.has(hash)) missing.add(hash);
  }
  // From the previous block only (or from nothing, the first block written).
  const moved = trx
    .insertInto('indexer_cursor')
    .values({ id: 1, mc_seqno: batch.mcSeqno, gen_utime: batch.genUtime })
    .onConflict((oc) =>
      oc
        .column('id')
        .doUpdateSet({ mc_seqno: batch.mcSeqno, gen_utime: batch.genUtime })
        .where('indexer_cursor.mc_seqno', '=', batch.mcSeqno - 1),
    )
    .returning('mc_seqno');
  // States of earlier blocks. A state never recorded (the middle of several transactions of one account in a block)
  // is absent, and the wire form gives the all-null state, as when read through the joins.
  const earlier = trx
    .selectFrom('account_states')
    .select(WIRE_STATE_COLUMNS)
    .where('hash', '=', sql<string>`any(${[...missing]}::text[])`);
  // No wait for the WAL flush at commit (set_config local to the transaction, as SET LOCAL): a database crash may
  // lose the last blocks written, but always together with the cursor, so the indexer writes them again; nothing is
  // lost or doubled. PGlite ignores it.
  const { rows } = await sql<{ moved: number; states: WireStateRow[] | null }>`
    with moved as (${moved})
    select (select count(*) from moved)::int as moved,
           ${missing.size > 0 ? sql`(select json_agg(s) from (${earlier}) s)` : sql`null`} as states,
           set_config('synchronous_commit', 'off', true) as synchronous_commit`.execute(trx);
  if (rows[0]?.moved !== 1) {
    const cursor = await trx.selectFrom('indexer_cursor').select('mc_seqno').where('id', '=', 1).executeTakeFirst();
    throw new Error(`indexer cursor is at ${cursor?.mc_seqno}, cannot write masterchain block ${batch.mcSeqno}`);
  }
  for (const r of rows[0].states ?? []) states.set(r.hash, r);
  return states;
}

/**
 * The block's rows that other blocks may share or update, and its few block rows, in one INSERT (a data-modifying
 * CTE per table): blocks and shard tops; message contents and account states, deduplicated by hash; the latest
 * state of each account it touched.
 */
function insertSharedRows(trx: Transaction<ChainDatabase>, batch: McBlockBatch): { execute(): Promise<unknown> } {
  const parts = [
    batch.blocks.length > 0 && insertRows(trx, 'blocks', batch.blocks),
    batch.shardState.length > 0 && insertRows(trx, 'shard_state', batch.shardState),
    batch.contents.length > 0 && insertRows(trx, 'message_contents', batch.contents).onConflict((oc) => oc.doNothing()),
    batch.accountStates.length > 0 && insertRows(trx, 'account_states', batch.accountStates).onConflict((oc) => oc.doNothing()),
    batch.latestAccountStates.length > 0 &&
      insertRows(trx, 'latest_account_states', batch.latestAccountStates).onConflict((oc) =>
        oc.column('account').doUpdateSet((eb) => ({
          hash: eb.ref('excluded.hash'),
          balance: eb.ref('excluded.balance'),
          extra_currencies: eb.ref('excluded.extra_currencies'),
          account_status: eb.ref('excluded.account_status'),
          frozen_hash: eb.ref('excluded.frozen_hash'),
          data_hash: eb.ref('excluded.data_hash'),
          code_hash: eb.ref('excluded.code_hash'),
          data_boc: eb.ref('excluded.data_boc'),
          code_boc: eb.ref('excluded.code_boc'),
          contract_methods: eb.ref('excluded.contract_methods'),
          last_trans_hash: eb.ref('excluded.last_trans_hash'),
          last_trans_lt: eb.ref('excluded.last_trans_lt'),
          timestamp: eb.ref('excluded.timestamp'),
          mc_seqno: eb.ref('excluded.mc_seqno'),
        })),
      ),
  ].filter((part) => part !== false);
  if (parts.length === 0) return { execute: async () => undefined };
  const last = parts.pop()!;
  if (parts.length === 0) return last;
  // Tables apart, so no part needs to see another's rows (the CTEs of one statement share its snapshot).
  const statement = sql`with ${sql.join(parts.map((part, i) => sql`${sql.raw(`w${i}`)} as (${part})`))} ${last}`;
  return { execute: () => statement.execute(trx) };
}

/**
 * Milliseconds spent per stage of one masterchain block: `collect`, `prepare:<derivation>`, `write:chain`,
 * `write:<derivation>`, `commit` (the cursor and COMMIT). Filled by the indexer, `writeMcBlock` and
 * `prepareDerivations`; it feeds the indexer's stage metrics.
 */
export type StageTimings = Record<string, number>;

/** The derivations of one block with what each prepared, written in the block's transaction. */
export interface DerivedWrites {
  ctx: DerivationContext;
  prepared: { derivation: BlockDerivation; prepared: unknown }[];
}

const NO_DERIVED: DerivedWrites = { ctx: { chain: undefined as never }, prepared: [] };

/**
 * Runs every derivation's `prepare` (outside the block's transaction) at the same time: each reads only the block
 * and the index as of the previous block, so none waits for another, and their chain and database reads overlap.
 * Results keep the derivations' order, which is the order their writes run in.
 */
export async function prepareDerivations(
  db: Kysely<ChainDatabase>,
  batch: McBlockBatch,
  derivations: readonly BlockDerivation[],
  ctx: DerivationContext,
  timings?: StageTimings,
): Promise<DerivedWrites> {
  const prepared = await Promise.all(
    derivations.map(async (derivation) => {
      const began = performance.now();
      const result = derivation.prepare ? await derivation.prepare(batch, db, ctx) : undefined;
      if (timings) timings[`prepare:${derivation.name}`] = performance.now() - began;
      return { derivation, prepared: result };
    }),
  );
  return { ctx, prepared };
}

export interface Cursor {
  mcSeqno: number;
  genUtime: number;
}

export async function readCursor(db: Kysely<ChainDatabase>): Promise<Cursor | null> {
  const row = await db.selectFrom('indexer_cursor').select(['mc_seqno', 'gen_utime']).where('id', '=', 1).executeTakeFirst();
  return row ? { mcSeqno: row.mc_seqno, genUtime: row.gen_utime } : null;
}

/** The shard tops recorded for a masterchain block, or null when that block was not indexed. */
export async function readShardTops(db: Kysely<ChainDatabase>, mcSeqno: number): Promise<BlockRef[] | null> {
  const rows = await db.selectFrom('shard_state').select(['workchain', 'shard', 'seqno']).where('mc_seqno', '=', mcSeqno).execute();
  if (rows.length === 0) {
    const indexed = await db
      .selectFrom('blocks')
      .select(sql<number>`1`.as('one'))
      .where('workchain', '=', -1)
      .where('seqno', '=', mcSeqno)
      .executeTakeFirst();
    if (!indexed) return null;
  }
  return rows.map((r) => ({ workchain: r.workchain, shard: BigInt(r.shard), seqno: r.seqno }));
}
