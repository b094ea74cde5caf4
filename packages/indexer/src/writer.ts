import type { BlockRef } from '@tongate/chain';
import type { ChainDatabase } from '@tongate/store';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { McBlockBatch } from './collect.js';

/** Rows per INSERT: well under PostgreSQL's 65535 bind parameters for the widest table (~30 columns). */
const CHUNK = 1000;

async function insertChunks<T extends keyof ChainDatabase & string>(
  trx: Transaction<ChainDatabase>,
  table: T,
  rows: readonly object[],
  onConflict: 'nothing' | 'fail',
  columns = 1,
): Promise<void> {
  const size = Math.max(1, Math.floor(Math.min(CHUNK, 60_000 / columns)));
  for (let i = 0; i < rows.length; i += size) {
    const query = trx.insertInto(table).values(rows.slice(i, i + size) as never);
    await (onConflict === 'nothing' ? query.onConflict((oc) => oc.doNothing()) : query).execute();
  }
}

const width = (rows: readonly object[]) => (rows[0] ? Object.keys(rows[0]).length : 1);

/**
 * Writes one masterchain block's rows and moves the cursor, in one database transaction: after a crash the
 * database holds either all of the block and the cursor past it, or none of it.
 *
 * Rows of the block are plain inserts (a second write of the same block fails loudly instead of doubling rows);
 * contents and account states are shared between blocks and deduplicated by hash.
 */
export async function writeMcBlock(db: Kysely<ChainDatabase>, batch: McBlockBatch): Promise<void> {
  await db.transaction().execute(async (trx) => {
    // The cursor first: a concurrent writer that slipped past the lock fails here rather than interleaving blocks.
    const cursor = await trx.selectFrom('indexer_cursor').select('mc_seqno').where('id', '=', 1).forUpdate().executeTakeFirst();
    if (cursor && cursor.mc_seqno !== batch.mcSeqno - 1) {
      throw new Error(`indexer cursor is at ${cursor.mc_seqno}, cannot write masterchain block ${batch.mcSeqno}`);
    }
    await insertChunks(trx, 'blocks', batch.blocks, 'fail', width(batch.blocks));
    await insertChunks(trx, 'shard_state', batch.shardState, 'fail', 4);
    await insertChunks(trx, 'transactions', batch.transactions, 'fail', width(batch.transactions));
    await insertChunks(trx, 'messages', batch.messages, 'fail', width(batch.messages));
    await insertChunks(trx, 'message_contents', batch.contents, 'nothing', 2);
    await insertChunks(trx, 'account_states', batch.accountStates, 'nothing', width(batch.accountStates));
    for (let i = 0; i < batch.latestAccountStates.length; i += CHUNK / 2) {
      await trx
        .insertInto('latest_account_states')
        .values(batch.latestAccountStates.slice(i, i + CHUNK / 2))
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
            last_trans_hash: eb.ref('excluded.last_trans_hash'),
            last_trans_lt: eb.ref('excluded.last_trans_lt'),
            timestamp: eb.ref('excluded.timestamp'),
            mc_seqno: eb.ref('excluded.mc_seqno'),
          })),
        )
        .execute();
    }
    await trx
      .insertInto('indexer_cursor')
      .values({ id: 1, mc_seqno: batch.mcSeqno, gen_utime: batch.genUtime })
      .onConflict((oc) => oc.column('id').doUpdateSet({ mc_seqno: batch.mcSeqno, gen_utime: batch.genUtime }))
      .execute();
  });
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
