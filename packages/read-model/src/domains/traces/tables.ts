import type { DomainMigrations } from '@tongate/store';
import type { ColumnType } from 'kysely';

/**
 * Traces and their classified actions (the `traces` derivation, derive.ts, fills them block by block).
 *
 * A trace is the tree of transactions one root transaction caused (an external message, a tick-tock, or an internal
 * message whose sender is not indexed); `trace_id` is the root transaction's hash. Traces grow across blocks and
 * shards as their messages land, so each row carries the count of messages still in flight.
 */

type Int64 = ColumnType<string, bigint | number | string, bigint | number | string>;
type Json<T> = ColumnType<T, string, string>;

export type TraceState = 'complete' | 'pending' | 'broken';
export type ClassificationState = 'unclassified' | 'ok' | 'failed' | 'broken';

export interface TracesTable {
  trace_id: string;
  external_hash: string | null;
  external_hash_norm: string | null;
  mc_seqno_start: number;
  mc_seqno_end: number;
  start_lt: Int64;
  start_utime: number;
  end_lt: Int64;
  end_utime: number;
  /** complete: nothing in flight; pending: messages sent but not received yet; broken: the root's sender is not indexed. */
  state: TraceState;
  /** Internal messages sent and not yet received. */
  pending_messages: number;
  /** Internal messages received (edges of the tree). */
  messages: number;
  transactions: number;
  classification_state: ClassificationState;
  /** CLASSIFIER_VERSION that produced the stored actions; null before classification. */
  classifier_version: number | null;
}

/** Which trace each transaction belongs to. */
export interface TraceTransactionsTable {
  tx_hash: string;
  trace_id: string;
  lt: Int64;
  account: string;
}

/** One classified action; `data` is the classifier's whole output for it (ClassifiedAction of @tongate/actions). */
export interface ActionsTable {
  trace_id: string;
  action_id: string;
  type: string;
  start_lt: Int64;
  end_lt: Int64;
  start_utime: number;
  end_utime: number;
  trace_end_lt: Int64;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  success: boolean;
  /** Types of the enclosing actions, [] at top level. */
  ancestor_type: Json<string[]>;
  tx_hashes: Json<string[]>;
  data: Json<Record<string, unknown>>;
}

/**
 * The accounts each action involves, for `/actions?account=`: with the action's order keys and filter columns
 * copied, so that an account's actions come off one index in the list's order, filtered without a join.
 */
export interface ActionAccountsTable {
  account: string;
  trace_end_lt: Int64;
  trace_id: string;
  end_lt: Int64;
  action_id: string;
  type: string;
  ancestor_type: Json<string[]>;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
}

export interface TracesTables {
  traces: TracesTable;
  trace_transactions: TraceTransactionsTable;
  actions: ActionsTable;
  action_accounts: ActionAccountsTable;
}

export const traceMigrations: DomainMigrations = (run) => ({
  '0100_traces_tables': {
    async up(db) {
      await run(db, [
        `create table $S.traces (
          trace_id text primary key, external_hash text, external_hash_norm text,
          mc_seqno_start integer not null, mc_seqno_end integer not null,
          start_lt bigint not null, start_utime integer not null, end_lt bigint not null, end_utime integer not null,
          state text not null, pending_messages integer not null, messages integer not null, transactions integer not null,
          classification_state text not null, classifier_version integer)`,
        `create index traces_end_lt on $S.traces (end_lt, trace_id)`,
        `create index traces_end_utime on $S.traces (end_utime, end_lt, trace_id)`,
        `create index traces_mc_seqno_end on $S.traces (mc_seqno_end, end_lt, trace_id)`,
        `create index traces_external_hash on $S.traces (external_hash) where external_hash is not null`,
        `create index traces_external_hash_norm on $S.traces (external_hash_norm) where external_hash_norm is not null`,
        // the re-classification scan: complete traces by classifier version
        `create index traces_classifier_version on $S.traces (classifier_version, end_lt) where state = 'complete'`,
        `create table $S.trace_transactions (tx_hash text primary key, trace_id text not null, lt bigint not null, account text not null)`,
        `create index trace_transactions_trace on $S.trace_transactions (trace_id, lt)`,
        `create index trace_transactions_account on $S.trace_transactions (account, trace_id)`,
        `create table $S.actions (
          trace_id text not null, action_id text not null, type text not null,
          start_lt bigint not null, end_lt bigint not null, start_utime integer not null, end_utime integer not null,
          trace_end_lt bigint not null, trace_end_utime integer not null, trace_mc_seqno_end integer not null,
          success boolean not null, ancestor_type jsonb not null, tx_hashes jsonb not null, data jsonb not null,
          primary key (trace_id, action_id))`,
        `create index actions_order on $S.actions (trace_end_lt, trace_id, end_lt, action_id)`,
        `create index actions_type on $S.actions (type, trace_end_lt, trace_id)`,
        `create index actions_action_id on $S.actions (action_id)`,
        `create index actions_mc_seqno on $S.actions (trace_mc_seqno_end)`,
        `create table $S.action_accounts (
          account text not null, trace_end_lt bigint not null, trace_id text not null, end_lt bigint not null,
          action_id text not null, type text not null, ancestor_type jsonb not null, trace_end_utime integer not null,
          trace_mc_seqno_end integer not null,
          primary key (account, trace_end_lt, trace_id, end_lt, action_id))`,
        `create index action_accounts_action on $S.action_accounts (trace_id, action_id)`,
      ]);
    },
  },
});
