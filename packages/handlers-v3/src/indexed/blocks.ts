import { shardToHex } from '@tongate/chain';
import type { v3 } from '@tongate/sdk';
import type { BlocksTable, ChainDatabase } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import type { Kysely, Selectable } from 'kysely';
import { decimal, page, storedHash, window } from '@tongate/read-model';

export type BlockOperations = Pick<
  V3Handlers,
  'getMasterchainInfo' | 'getBlocks' | 'getMasterchainBlockShards' | 'getMasterchainBlockShardState'
>;

const MC_SHARD = shardToHex(-(2n ** 63n)).toUpperCase();

export function formatBlock(row: Selectable<BlocksTable>): v3.Block {
  return {
    workchain: row.workchain,
    shard: shardToHex(BigInt(row.shard)).toUpperCase(),
    seqno: row.seqno,
    root_hash: row.root_hash,
    file_hash: row.file_hash,
    global_id: row.global_id,
    version: row.version,
    after_merge: row.after_merge,
    before_split: row.before_split,
    after_split: row.after_split,
    want_merge: row.want_merge,
    want_split: row.want_split,
    key_block: row.key_block,
    vert_seqno_incr: row.vert_seqno_incr,
    flags: row.flags,
    gen_utime: String(row.gen_utime),
    start_lt: row.start_lt,
    end_lt: row.end_lt,
    validator_list_hash_short: row.validator_list_hash_short,
    gen_catchain_seqno: row.gen_catchain_seqno,
    min_ref_mc_seqno: row.min_ref_mc_seqno,
    prev_key_block_seqno: row.prev_key_block_seqno,
    vert_seqno: row.vert_seqno,
    ...(row.master_ref_seqno !== null ? { master_ref_seqno: row.master_ref_seqno } : {}),
    tx_count: row.tx_count,
    masterchain_block_ref: { workchain: -1, shard: MC_SHARD, seqno: row.mc_block_seqno },
    prev_blocks: row.prev_blocks.map((p) => ({ workchain: p.workchain, shard: shardToHex(BigInt(p.shard)).toUpperCase(), seqno: p.seqno })),
  };
}

/** 404 unless the masterchain block `seqno` is indexed. */
export async function requireMcBlock(db: Kysely<ChainDatabase>, seqno: number): Promise<void> {
  const row = await db.selectFrom('blocks').select('seqno').where('workchain', '=', -1).where('seqno', '=', seqno).executeTakeFirst();
  if (!row) throw new ApiError(404, `masterchain block ${seqno} not found`);
}

export function blockOperations(db: Kysely<ChainDatabase>): BlockOperations {
  const mcBlock = (order: 'asc' | 'desc') =>
    db.selectFrom('blocks').selectAll().where('workchain', '=', -1).orderBy('seqno', order).limit(1).executeTakeFirst();
  return {
    async getMasterchainInfo() {
      const [first, last] = await Promise.all([mcBlock('asc'), mcBlock('desc')]);
      if (!first || !last) throw new ApiError(503, 'the index holds no masterchain block yet: the indexer is catching up, retry shortly');
      return { status: 200, body: { first: formatBlock(first), last: formatBlock(last) } };
    },

    async getBlocks({ query }) {
      const { limit, offset, sort } = page(query);
      let q = db.selectFrom('blocks').selectAll();
      if (query.workchain !== undefined) q = q.where('workchain', '=', query.workchain);
      const shard = decimal(query.shard);
      if (shard !== undefined) q = q.where('shard', '=', shard);
      if (query.seqno !== undefined) q = q.where('seqno', '=', query.seqno);
      const rootHash = storedHash(query.root_hash);
      if (rootHash) q = q.where('root_hash', '=', rootHash);
      const fileHash = storedHash(query.file_hash);
      if (fileHash) q = q.where('file_hash', '=', fileHash);
      if (query.mc_seqno !== undefined) q = q.where('mc_block_seqno', '=', query.mc_seqno);
      const { startLt, endLt, startUtime, endUtime } = window(query);
      if (startUtime !== undefined) q = q.where('gen_utime', '>=', startUtime);
      if (endUtime !== undefined) q = q.where('gen_utime', '<=', endUtime);
      if (startLt !== undefined) q = q.where('start_lt', '>=', startLt);
      if (endLt !== undefined) q = q.where('start_lt', '<=', endLt);
      // Total order (docs/wire.md): gen_utime, workchain, shard, seqno.
      const rows = await q
        .orderBy('gen_utime', sort)
        .orderBy('workchain', sort)
        .orderBy('shard', sort)
        .orderBy('seqno', sort)
        .limit(limit)
        .offset(offset)
        .execute();
      return { status: 200, body: { blocks: rows.map(formatBlock) } };
    },

    async getMasterchainBlockShards({ query }) {
      const { limit, offset } = page(query);
      await requireMcBlock(db, query.seqno);
      const rows = await db
        .selectFrom('blocks')
        .selectAll()
        .where('mc_block_seqno', '=', query.seqno)
        .orderBy('workchain')
        .orderBy('shard')
        .orderBy('seqno')
        .limit(limit)
        .offset(offset)
        .execute();
      return { status: 200, body: { blocks: rows.map(formatBlock) } };
    },

    async getMasterchainBlockShardState({ query }) {
      await requireMcBlock(db, query.seqno);
      const rows = await db
        .selectFrom('shard_state as s')
        .innerJoin('blocks as b', (j) =>
          j.onRef('b.workchain', '=', 's.workchain').onRef('b.shard', '=', 's.shard').onRef('b.seqno', '=', 's.seqno'),
        )
        .selectAll('b')
        .where('s.mc_seqno', '=', query.seqno)
        .orderBy('b.workchain')
        .orderBy('b.shard')
        .orderBy('b.seqno')
        .execute();
      return { status: 200, body: { blocks: rows.map(formatBlock) } };
    },
  };
}
