import type { BlockRef } from '@tongate/chain';
import type { ChainDatabase } from '@tongate/store';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { McBlockBatch } from './collect.js';
import type { BlockDerivation, DerivationContext } from './derive/index.js';
import { selectedState, storedWire, type WireStateRow } from './wire.js';

/** PostgreSQL type of every column the indexer writes, per table (the unnest arrays are cast to these). */
const COLUMN_TYPES = {
  blocks: {
    workchain: 'int', shard: 'bigint', seqno: 'int', root_hash: 'text', file_hash: 'text', mc_block_seqno: 'int', global_id: 'int',
    version: 'int', after_merge: 'bool', before_split: 'bool', after_split: 'bool', want_merge: 'bool', want_split: 'bool',
    key_block: 'bool', vert_seqno_incr: 'bool', flags: 'int', gen_utime: 'int', start_lt: 'bigint', end_lt: 'bigint',
    validator_list_hash_short: 'int', gen_catchain_seqno: 'int', min_ref_mc_seqno: 'int', prev_key_block_seqno: 'int',
    vert_seqno: 'int', master_ref_seqno: 'int', tx_count: 'int', prev_blocks: 'jsonb',
  },
  shard_state: { mc_seqno: 'int', workchain: 'int', shard: 'bigint', seqno: 'int' },
  transactions: {
    account: 'text', hash: 'text', lt: 'bigint', now: 'int', block_workchain: 'int', block_shard: 'bigint', block_seqno: 'int',
    mc_block_seqno: 'int', prev_trans_hash: 'text', prev_trans_lt: 'bigint', orig_status: 'text', end_status: 'text',
    total_fees: 'numeric', total_fees_extra_currencies: 'jsonb', account_state_hash_before: 'text', account_state_hash_after: 'text',
    descr: 'text', aborted: 'bool', description: 'jsonb', in_msg_hash: 'text', wire: 'text', wire_peers: 'jsonb', wire_version: 'smallint',
  },
  messages: {
    tx_hash: 'text', tx_lt: 'bigint', tx_account: 'text', direction: 'text', out_index: 'int', mc_seqno: 'int', msg_hash: 'text',
    msg_hash_norm: 'text', source: 'text', destination: 'text', value: 'numeric', value_extra_currencies: 'jsonb', fwd_fee: 'numeric',
    ihr_fee: 'numeric', extra_flags: 'numeric', import_fee: 'numeric', created_lt: 'bigint', created_at: 'bigint', order_lt: 'bigint',
    order_utime: 'bigint', opcode: 'int', ihr_disabled: 'bool', bounce: 'bool', bounced: 'bool', body_hash: 'text', init_state_hash: 'text',
  },
  message_contents: { hash: 'text', body: 'text' },
  account_states: {
    hash: 'text', account: 'text', balance: 'numeric', extra_currencies: 'jsonb', account_status: 'text', frozen_hash: 'text',
    data_hash: 'text', code_hash: 'text',
  },
  latest_account_states: {
    account: 'text', hash: 'text', balance: 'numeric', extra_currencies: 'jsonb', account_status: 'text', frozen_hash: 'text',
    data_hash: 'text', code_hash: 'text', data_boc: 'text', code_boc: 'text', contract_methods: 'jsonb', last_trans_hash: 'text', last_trans_lt: 'bigint',
    timestamp: 'int', mc_seqno: 'int',
  },
} as const satisfies { [T in keyof ChainDatabase]?: { [C in keyof ChainDatabase[T]]?: string } };

type WrittenTable = keyof typeof COLUMN_TYPES;

/**
 * One INSERT per table whatever the row count: each column travels as one array parameter and `unnest` turns the
 * arrays back into rows, so the statement has a dozen parameters instead of rows × columns, and PostgreSQL parses
 * and plans it once.
 */
function insertRows<T extends WrittenTable>(trx: Transaction<ChainDatabase>, table: T, rows: readonly object[]) {
  const columns = Object.entries(COLUMN_TYPES[table]) as [string, string][];
  const arrays = columns.map(([name, type]) => {
    const values = rows.map((row) => {
      const v = (row as Record<string, unknown>)[name];
      return v === null || v === undefined ? null : typeof v === 'string' ? v : String(v);
    });
    return sql`cast(${values} as ${sql.raw(type)}[])`;
  });
  return trx
    .insertInto(table)
    .columns(columns.map(([name]) => name) as never)
    .expression(sql`select * from unnest(${sql.join(arrays)})` as never);
}

/**
 * The block's transaction rows with their stored wire form. A transaction's states before and after are the block's
 * own account states, or earlier blocks' (read here, inside the block's transaction); a state never recorded (the
 * middle of several transactions of one account in a block) is the all-null state, as when read through the joins.
 */
async function withWire(trx: Transaction<ChainDatabase>, batch: McBlockBatch): Promise<McBlockBatch['transactions']> {
  const states = new Map<string, WireStateRow>(batch.accountStates.map((s) => [s.hash, selectedState(s)]));
  const missing = new Set<string>();
  for (const t of batch.transactions) {
    for (const hash of [t.account_state_hash_before, t.account_state_hash_after]) if (!states.has(hash)) missing.add(hash);
  }
  if (missing.size > 0) {
    const rows = await trx
      .selectFrom('account_states')
      .select(['hash', sql<string>`balance::text`.as('balance'), 'extra_currencies', 'account_status', 'frozen_hash', 'data_hash', 'code_hash'])
      .where('hash', '=', sql<string>`any(${[...missing]}::text[])`)
      .execute();
    for (const r of rows) states.set(r.hash, r as WireStateRow);
  }
  const contents = new Map(batch.contents.map((c) => [c.hash, c.body]));
  const messagesOf = new Map<string, McBlockBatch['messages']>();
  for (const m of batch.messages) {
    const list = messagesOf.get(m.tx_hash);
    if (list) list.push(m);
    else messagesOf.set(m.tx_hash, [m]);
  }
  return batch.transactions.map((t) => ({ ...t, ...storedWire(t, messagesOf.get(t.hash) ?? [], contents, states) }));
}

/**
 * Writes one masterchain block's rows and moves the cursor, in one database transaction: after a crash the
 * database holds either all of the block and the cursor past it, or none of it.
 *
 * Rows of the block are plain inserts (a second write of the same block fails loudly instead of doubling rows);
 * contents and account states are shared between blocks and deduplicated by hash.
 */
export async function writeMcBlock(db: Kysely<ChainDatabase>, batch: McBlockBatch, derived: DerivedWrites = NO_DERIVED, timings?: StageTimings): Promise<void> {
  let mark = performance.now();
  /** Time since the previous mark, added to `stage` (no-op without timings). */
  const lap = (stage: string) => {
    const now = performance.now();
    if (timings) timings[stage] = (timings[stage] ?? 0) + (now - mark);
    mark = now;
  };
  await db.transaction().execute(async (trx) => {
    // No wait for the WAL flush at commit: a database crash may lose the last blocks written, but always together
    // with the cursor (one transaction), so the indexer writes them again; nothing is lost or doubled. (PGlite
    // ignores the setting.)
    await sql`set local synchronous_commit = off`.execute(trx);
    // The cursor first: a concurrent writer that slipped past the lock fails here rather than interleaving blocks.
    const cursor = await trx.selectFrom('indexer_cursor').select('mc_seqno').where('id', '=', 1).forUpdate().executeTakeFirst();
    if (cursor && cursor.mc_seqno !== batch.mcSeqno - 1) {
      throw new Error(`indexer cursor is at ${cursor.mc_seqno}, cannot write masterchain block ${batch.mcSeqno}`);
    }
    if (batch.blocks.length > 0) await insertRows(trx, 'blocks', batch.blocks).execute();
    if (batch.shardState.length > 0) await insertRows(trx, 'shard_state', batch.shardState).execute();
    if (batch.transactions.length > 0) await insertRows(trx, 'transactions', await withWire(trx, batch)).execute();
    if (batch.messages.length > 0) await insertRows(trx, 'messages', batch.messages).execute();
    if (batch.contents.length > 0) await insertRows(trx, 'message_contents', batch.contents).onConflict((oc) => oc.doNothing()).execute();
    if (batch.accountStates.length > 0) await insertRows(trx, 'account_states', batch.accountStates).onConflict((oc) => oc.doNothing()).execute();
    if (batch.latestAccountStates.length > 0) {
      await insertRows(trx, 'latest_account_states', batch.latestAccountStates)
        .onConflict((oc) =>
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
        )
        .execute();
    }
    lap('write:chain');
    for (const { derivation, prepared } of derived.prepared) {
      await derivation.write(trx, batch, prepared, derived.ctx);
      lap(`write:${derivation.name}`);
    }
    await trx
      .insertInto('indexer_cursor')
      .values({ id: 1, mc_seqno: batch.mcSeqno, gen_utime: batch.genUtime })
      .onConflict((oc) => oc.column('id').doUpdateSet({ mc_seqno: batch.mcSeqno, gen_utime: batch.genUtime }))
      .execute();
  });
  // The cursor update and COMMIT.
  lap('commit');
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
    const indexed = await db.selectFrom('blocks').select(sql<number>`1`.as('one')).where('workchain', '=', -1).where('seqno', '=', mcSeqno).executeTakeFirst();
    if (!indexed) return null;
  }
  return rows.map((r) => ({ workchain: r.workchain, shard: BigInt(r.shard), seqno: r.seqno }));
}
