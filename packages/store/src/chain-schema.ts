import type { ColumnType } from 'kysely';

/**
 * Tables of indexed chain data, one set per network (each network in its own PostgreSQL schema, so mainnet and
 * testnet rows never mix). Modelled on the reference indexer's schema.
 *
 * Conventions: hashes are standard padded base64 (44 chars, the wire form, so no conversion on read); addresses are
 * raw `wc:HEX` upper case (the wire form); 64-bit integers are `bigint` and coin amounts `numeric`, both read back as
 * decimal strings (PGlite is configured to return int8 as text, like node-postgres).
 */

/** int8 / numeric: written as bigint, number or string, read as a decimal string. */
type Int64 = ColumnType<string, bigint | number | string, bigint | number | string>;
type Int64OrNull = ColumnType<string | null, bigint | number | string | null, bigint | number | string | null>;
type Json<T> = ColumnType<T, string, string>;

export interface BlocksTable {
  workchain: number;
  /** Signed 64-bit shard prefix. */
  shard: Int64;
  seqno: number;
  root_hash: string;
  file_hash: string;
  /** The masterchain block that committed this block (its own seqno for masterchain blocks). */
  mc_block_seqno: number;
  global_id: number;
  version: number;
  after_merge: boolean;
  before_split: boolean;
  after_split: boolean;
  want_merge: boolean;
  want_split: boolean;
  key_block: boolean;
  vert_seqno_incr: boolean;
  flags: number;
  gen_utime: number;
  start_lt: Int64;
  end_lt: Int64;
  validator_list_hash_short: number;
  gen_catchain_seqno: number;
  min_ref_mc_seqno: number;
  prev_key_block_seqno: number;
  vert_seqno: number;
  master_ref_seqno: number | null;
  tx_count: number;
  /** [{workchain, shard (signed decimal string), seqno}] */
  prev_blocks: Json<{ workchain: number; shard: string; seqno: number }[]>;
}

/** The shard blocks current (top) at each masterchain block. */
export interface ShardStateTable {
  mc_seqno: number;
  workchain: number;
  shard: Int64;
  seqno: number;
}

export interface TransactionsTable {
  account: string;
  hash: string;
  lt: Int64;
  now: number;
  block_workchain: number;
  block_shard: Int64;
  block_seqno: number;
  mc_block_seqno: number;
  prev_trans_hash: string;
  prev_trans_lt: Int64;
  orig_status: string;
  end_status: string;
  total_fees: Int64;
  total_fees_extra_currencies: Json<Record<string, string>>;
  account_state_hash_before: string;
  account_state_hash_after: string;
  descr: string;
  aborted: boolean;
  /** The whole description (phases, fees, status changes) in its wire shape. */
  description: Json<Record<string, unknown>>;
  in_msg_hash: string | null;
  /**
   * The transaction's API v3 wire JSON without `trace_id`, written at ingest (transactions are immutable) so that a
   * page of history reads no messages, bodies or states; null on rows written before it existed.
   */
  wire: string | null;
  /** The addresses its messages name other than its account (a JSON array), for the address book of a page. */
  wire_peers: Json<string[]> | null;
  /** The version of the wire form in `wire` (@tongate/indexer WIRE_VERSION): an older one is not served. */
  wire_version: number | null;
}

export interface MessagesTable {
  tx_hash: string;
  tx_lt: Int64;
  tx_account: string;
  /** 'in' on the receiving transaction, 'out' on the sending one: an internal message has both rows. */
  direction: 'in' | 'out';
  /** Position among the sending transaction's out messages (0 for an in row). */
  out_index: number;
  mc_seqno: number;
  msg_hash: string;
  /** TEP-467 normalized hash, external-in messages only. */
  msg_hash_norm: string | null;
  source: string | null;
  destination: string | null;
  value: Int64OrNull;
  value_extra_currencies: Json<Record<string, string>> | null;
  fwd_fee: Int64OrNull;
  ihr_fee: Int64OrNull;
  extra_flags: Int64OrNull;
  import_fee: Int64OrNull;
  created_lt: Int64OrNull;
  created_at: Int64OrNull;
  /** The order key of /messages: created_lt, or for an external-in message (which has none) its transaction's lt. */
  order_lt: Int64;
  /** Order key with a utime bound: created_at, or the transaction's now for external-in. */
  order_utime: Int64;
  opcode: number | null;
  ihr_disabled: boolean | null;
  bounce: boolean | null;
  bounced: boolean | null;
  body_hash: string;
  init_state_hash: string | null;
}

/** Message bodies and init states, deduplicated by cell hash. */
export interface MessageContentsTable {
  hash: string;
  /** Base64 BOC. */
  body: string;
}

/** An account state, keyed by its hash (the state hash transactions name before and after them). */
export interface AccountStatesTable {
  hash: string;
  account: string;
  balance: Int64;
  extra_currencies: Json<Record<string, string>>;
  account_status: string;
  frozen_hash: string | null;
  data_hash: string | null;
  code_hash: string | null;
}

/** The newest state of each account, with its code and data. */
export interface LatestAccountStatesTable extends AccountStatesTable {
  data_boc: string | null;
  code_boc: string | null;
  /** Get-method ids the code defines (its method dictionary), for interface detection; null without code. */
  contract_methods: Json<number[] | null> | null;
  last_trans_hash: string | null;
  last_trans_lt: Int64OrNull;
  /** gen_utime of the masterchain block the state was read at. */
  timestamp: number;
  mc_seqno: number;
}

/** One row (id 1): the last masterchain block written, in the same database transaction as its rows. */
export interface IndexerCursorTable {
  id: number;
  mc_seqno: number;
  gen_utime: number;
}

/**
 * The chain tables of a network the store declares, the core ones. An index domain, declared in `@tongate/read-model`
 * (`src/domains/`), adds its tables to this type where it reads them (`withDomainTables`).
 */
export interface ChainDatabase {
  blocks: BlocksTable;
  shard_state: ShardStateTable;
  transactions: TransactionsTable;
  messages: MessagesTable;
  message_contents: MessageContentsTable;
  account_states: AccountStatesTable;
  latest_account_states: LatestAccountStatesTable;
  indexer_cursor: IndexerCursorTable;
}
