import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

/** Runs DDL statements in order, `$S` standing for the network's schema. */
export type DdlRunner = (db: Kysely<unknown>, statements: string[]) => Promise<unknown>;

/**
 * The migrations of the chain tables of a domain declared above the store (the index domains of
 * `@tongate/read-model`), given to it as `StoreOptions.chainMigrations` and applied with its own.
 *
 * Migration names are `<number>_<domain>_<what>`, with a number range per domain so that names sort in the order
 * they were written: 0001–0099 core, 0100 traces and actions, 0200 jettons and NFTs, 0300 DNS, multisig, vesting and
 * metadata, 0400 validators, 0500 nominator pools, 0600 sales and auctions, 0700 pending. A database migrated
 * before a domain existed takes that domain's migrations later (the migrator allows that order).
 */
export type DomainMigrations = (run: DdlRunner) => Record<string, Migration>;

/**
 * Migrations of one network's chain tables (see chain-schema.ts), applied inside that network's schema. Indexes are
 * chosen for the v3 queries: each list endpoint's filter + total order has an index that yields rows in that order.
 */
function chainMigrations(schema: string, declaredAbove: readonly DomainMigrations[]): Record<string, Migration> {
  const run: DdlRunner = (db: Kysely<unknown>, statements: string[]) =>
    statements.reduce<Promise<unknown>>(
      (prev, ddl) => prev.then(() => sql.raw(ddl.replaceAll('$S', `"${schema}"`)).execute(db)),
      Promise.resolve(),
    );
  const domains = Object.assign({}, ...declaredAbove.map((domain) => domain(run))) as Record<string, Migration>;
  return {
    ...domains,
    // The stored wire forms (~2.7 KB of JSON each, so always compressed in line) with lz4 where the server has it:
    // pglz took ~40 µs a transaction at ingest, most of the cost of storing the forms, and lz4 also decompresses
    // faster when a history page reads them. Only values written afterwards change; PGlite and servers built
    // without lz4 keep pglz.
    '0003_wire_lz4': {
      async up(db) {
        const { rows } = await sql<{
          lz4: boolean;
        }>`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
        if (rows[0]?.lz4) await run(db, [`alter table $S.transactions alter column wire set compression lz4`]);
      },
    },
    // Each transaction's stored wire form (see TransactionsTable.wire). Nullable, so adding the columns is instant on
    // a filled table; older rows are served through the joins until the indexer's backfill (wire-backfill.ts), which
    // finds them through the partial index (empty on an index written by this version). A change of the wire form
    // bumps WIRE_VERSION and clears the older forms in a migration of its own, for the backfill to rebuild.
    '0002_transaction_wire': {
      async up(db) {
        await run(db, [
          `alter table $S.transactions add column wire text, add column wire_peers jsonb, add column wire_version smallint`,
          `create index transactions_without_wire on $S.transactions (account, lt) where wire is null`,
        ]);
      },
    },
    '0001_chain_tables': {
      async up(db) {
        await run(db, [
          `create table $S.blocks (
            workchain integer not null, shard bigint not null, seqno integer not null,
            root_hash text not null, file_hash text not null, mc_block_seqno integer not null,
            global_id integer not null, version integer not null,
            after_merge boolean not null, before_split boolean not null, after_split boolean not null,
            want_merge boolean not null, want_split boolean not null, key_block boolean not null,
            vert_seqno_incr boolean not null, flags integer not null, gen_utime integer not null,
            start_lt bigint not null, end_lt bigint not null, validator_list_hash_short integer not null,
            gen_catchain_seqno integer not null, min_ref_mc_seqno integer not null, prev_key_block_seqno integer not null,
            vert_seqno integer not null, master_ref_seqno integer, tx_count integer not null, prev_blocks jsonb not null,
            primary key (workchain, shard, seqno))`,
          `create index blocks_gen_utime on $S.blocks (gen_utime, workchain, shard, seqno)`,
          `create index blocks_mc_block_seqno on $S.blocks (mc_block_seqno)`,
          `create index blocks_start_lt on $S.blocks (start_lt)`,
          `create index blocks_root_hash on $S.blocks (root_hash)`,
          `create index blocks_file_hash on $S.blocks (file_hash)`,
          `create table $S.shard_state (
            mc_seqno integer not null, workchain integer not null, shard bigint not null, seqno integer not null,
            primary key (mc_seqno, workchain, shard, seqno))`,
          `create table $S.transactions (
            account text not null, hash text not null, lt bigint not null, now integer not null,
            block_workchain integer not null, block_shard bigint not null, block_seqno integer not null,
            mc_block_seqno integer not null, prev_trans_hash text not null, prev_trans_lt bigint not null,
            orig_status text not null, end_status text not null, total_fees numeric not null,
            total_fees_extra_currencies jsonb not null, account_state_hash_before text not null,
            account_state_hash_after text not null, descr text not null, aborted boolean not null,
            description jsonb not null, in_msg_hash text,
            primary key (account, lt))`,
          `create unique index transactions_hash on $S.transactions (hash)`,
          `create index transactions_lt on $S.transactions (lt, account)`,
          `create index transactions_now on $S.transactions (now, lt, account)`,
          `create index transactions_account_now on $S.transactions (account, now, lt)`,
          `create index transactions_mc_block on $S.transactions (mc_block_seqno, lt, account)`,
          `create index transactions_block on $S.transactions (block_workchain, block_shard, block_seqno, lt, account)`,
          `create table $S.messages (
            tx_hash text not null, tx_lt bigint not null, tx_account text not null, direction text not null,
            out_index integer not null, mc_seqno integer not null, msg_hash text not null, msg_hash_norm text,
            source text, destination text, value numeric, value_extra_currencies jsonb, fwd_fee numeric,
            ihr_fee numeric, extra_flags numeric, import_fee numeric, created_lt bigint, created_at bigint,
            order_lt bigint not null, order_utime bigint not null, opcode integer, ihr_disabled boolean,
            bounce boolean, bounced boolean, body_hash text not null, init_state_hash text,
            primary key (tx_hash, direction, msg_hash))`,
          `create index messages_msg_hash on $S.messages (msg_hash)`,
          `create index messages_msg_hash_norm on $S.messages (msg_hash_norm) where msg_hash_norm is not null`,
          `create index messages_order on $S.messages (order_lt, msg_hash)`,
          `create index messages_order_utime on $S.messages (order_utime, msg_hash)`,
          `create index messages_source on $S.messages (source, order_lt, msg_hash)`,
          `create index messages_destination on $S.messages (destination, order_lt, msg_hash)`,
          `create index messages_opcode on $S.messages (opcode, order_lt, msg_hash)`,
          `create index messages_body_hash on $S.messages (body_hash)`,
          `create table $S.message_contents (hash text primary key, body text not null)`,
          `create table $S.account_states (
            hash text primary key, account text not null, balance numeric not null, extra_currencies jsonb not null,
            account_status text not null, frozen_hash text, data_hash text, code_hash text)`,
          `create table $S.latest_account_states (
            account text primary key, hash text not null, balance numeric not null, extra_currencies jsonb not null,
            account_status text not null, frozen_hash text, data_hash text, code_hash text, data_boc text,
            code_boc text, contract_methods jsonb, last_trans_hash text, last_trans_lt bigint, timestamp integer not null,
            mc_seqno integer not null)`,
          `create index latest_account_states_balance on $S.latest_account_states (balance desc, account)`,
          `create table $S.indexer_cursor (id integer primary key check (id = 1), mc_seqno integer not null, gen_utime integer not null)`,
        ]);
      },
    },
  };
}

/** The chain migrations of one network's schema: the store's own, and `declaredAbove` (see StoreOptions.chainMigrations). */
export function chainMigrationProvider(schema: string, declaredAbove: readonly DomainMigrations[] = []): MigrationProvider {
  return {
    async getMigrations() {
      return chainMigrations(schema, declaredAbove);
    },
  };
}
