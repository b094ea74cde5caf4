import type { ChainDatabase } from '@tongate/store';
import { sql, type Kysely } from 'kysely';
import type { MessageRow, TransactionRow } from '@tongate/read-model';
import { storedWire, WIRE_STATE_COLUMNS, WIRE_VERSION, wireMessagesQuery, type WireStateRow } from '@tongate/read-model';

/**
 * Stores the wire form of transactions written before it existed (or with an older one), a batch at a time, so that
 * an upgraded index serves every history page from stored wire forms too. The rows are found through the partial
 * index `transactions_without_wire` (empty on an index filled by this version, so the pass costs nothing there);
 * each batch is built from the rows' messages, bodies and states as the writer would have, in its own database
 * transaction. Returns how many transactions it updated.
 */
export async function backfillWireBatch(db: Kysely<ChainDatabase>, limit = 500): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // The int64 and numeric columns as text: what the writer's rows hold as decimal strings, on both backends.
    const txs = await trx
      .selectFrom('transactions')
      .select([
        'account',
        'hash',
        sql<string>`lt::text`.as('lt'),
        'now',
        'block_workchain',
        sql<string>`block_shard::text`.as('block_shard'),
        'block_seqno',
        'mc_block_seqno',
        'prev_trans_hash',
        sql<string>`prev_trans_lt::text`.as('prev_trans_lt'),
        'orig_status',
        'end_status',
        sql<string>`total_fees::text`.as('total_fees'),
        'total_fees_extra_currencies',
        'account_state_hash_before',
        'account_state_hash_after',
        'description',
      ])
      .where('wire', 'is', null)
      .orderBy('account')
      .orderBy('lt')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (txs.length === 0) return 0;
    const hashes = txs.map((t) => t.hash);
    const messages = await wireMessagesQuery(trx)
      .where('m.tx_hash', '=', sql<string>`any(${hashes}::text[])`)
      .execute();
    const stateHashes = [...new Set(txs.flatMap((t) => [t.account_state_hash_before, t.account_state_hash_after]))];
    const states = await trx
      .selectFrom('account_states')
      .select(WIRE_STATE_COLUMNS)
      .where('hash', '=', sql<string>`any(${stateHashes}::text[])`)
      .execute();
    const stateOf = new Map<string, WireStateRow>(states.map((s) => [s.hash, s as WireStateRow]));
    const contents = new Map<string, string>();
    const messagesOf = new Map<string, MessageRow[]>();
    for (const m of messages) {
      if (m.body !== null) contents.set(m.body_hash, m.body);
      if (m.init_state_hash && m.init_state !== null) contents.set(m.init_state_hash, m.init_state);
      const list = messagesOf.get(m.tx_hash) ?? [];
      list.push(m as unknown as MessageRow);
      messagesOf.set(m.tx_hash, list);
    }
    const wires = txs.map((t) => ({
      hash: t.hash,
      ...storedWire(t as unknown as TransactionRow, messagesOf.get(t.hash) ?? [], contents, stateOf),
    }));
    await trx
      .updateTable('transactions as t')
      .from(
        sql<{
          hash: string;
          wire: string;
          wire_peers: string;
        }>`(select * from unnest(${wires.map((w) => w.hash)}::text[], ${wires.map((w) => w.wire)}::text[], ${wires.map((w) => w.wire_peers)}::text[]) as u(hash, wire, wire_peers))`.as(
          'u',
        ),
      )
      .set({ wire: sql`u.wire`, wire_peers: sql`u.wire_peers::jsonb`, wire_version: WIRE_VERSION })
      .whereRef('t.hash', '=', sql.ref('u.hash'))
      .execute();
    return txs.length;
  });
}
