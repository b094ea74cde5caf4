import type { ColumnType } from 'kysely';
import type { DomainMigrations } from '@tongate/store';
import type { IndexTables } from '../../index-domain.js';

/**
 * Nominator pools (`/staking/nominatorPools/*`): the pools found by code hash with their newest data, every
 * nominator's current position (the nominator → pools index), and the events derived from each pool transaction as
 * the before/after difference of a nominator's entry or of the validator's amount.
 */

type Amount = ColumnType<string, bigint | string, bigint | string>;
type AmountOrNull = ColumnType<string | null, bigint | string | null, bigint | string | null>;

export interface NominatorPoolsTable {
  /** Raw `wc:HEX`. */
  address: string;
  /** `nominator_pool_v1`, `single_nominator_v1.0`, `single_nominator_v1.1` (contracts' StakingContract). */
  kind: string;
  /** The pool's validator wallet (raw). */
  validator_address: string;
  /** Newest data cell (base64 BOC): /pool decodes it, and the next block's diff starts from it. */
  data_boc: string;
  balance: Amount;
  /** What `get_pool_data` answers (for the TON Foundation pool, its storage). */
  state: number;
  nominators_count: number;
  stake_amount_sent: Amount;
  validator_amount: Amount;
  validator_reward_share: number;
  max_nominators_count: number;
  min_validator_stake: Amount;
  min_nominator_stake: Amount;
  last_tx_lt: Amount;
  mc_seqno: number;
}

export interface NominatorPoolMembersTable {
  pool: string;
  nominator: string;
  balance: Amount;
  pending_balance: Amount;
  withdraw_requested: boolean;
}

export interface NominatorPoolEventsTable {
  pool: string;
  nominator: string;
  /** deposit | withdrawal | withdrawal_request | reward | pending_deposit_activation */
  type: string;
  utime: number;
  tx_hash: string;
  tx_lt: Amount;
  amount: Amount;
  balance_before: Amount;
  balance_after: Amount;
  pending_balance_before: Amount;
  pending_balance_after: Amount;
  withdraw_request_before: boolean;
  withdraw_request_after: boolean;
}

export interface NominatorPoolValidatorEventsTable {
  pool: string;
  validator: string;
  /** reward | penalty | deposit | withdrawal */
  type: string;
  utime: number;
  tx_hash: string;
  tx_lt: Amount;
  /** The round the recovered stake was in (the pool's stake_at); null for deposits and withdrawals. */
  cycle_start: number | null;
  query_id: AmountOrNull;
  amount: Amount;
  balance_before: Amount;
  balance_after: Amount;
  validator_reward_share: number;
}

export interface PoolTables {
  nominator_pools: NominatorPoolsTable;
  nominator_pool_members: NominatorPoolMembersTable;
  nominator_pool_events: NominatorPoolEventsTable;
  nominator_pool_validator_events: NominatorPoolValidatorEventsTable;
}

export const poolMigrations: DomainMigrations = (run) => ({
  '0500_pools_tables': {
    async up(db) {
      await run(db, [
        `create table $S.nominator_pools (
          address text primary key, kind text not null, validator_address text not null, data_boc text not null,
          balance numeric not null, state integer not null, nominators_count integer not null,
          stake_amount_sent numeric not null, validator_amount numeric not null, validator_reward_share integer not null,
          max_nominators_count integer not null, min_validator_stake numeric not null, min_nominator_stake numeric not null,
          last_tx_lt bigint not null, mc_seqno integer not null)`,
        `create table $S.nominator_pool_members (
          pool text not null, nominator text not null, balance numeric not null, pending_balance numeric not null,
          withdraw_requested boolean not null,
          primary key (pool, nominator))`,
        `create index nominator_pool_members_nominator on $S.nominator_pool_members (nominator, pool)`,
        `create table $S.nominator_pool_events (
          pool text not null, nominator text not null, type text not null, utime integer not null,
          tx_hash text not null, tx_lt bigint not null, amount numeric not null,
          balance_before numeric not null, balance_after numeric not null,
          pending_balance_before numeric not null, pending_balance_after numeric not null,
          withdraw_request_before boolean not null, withdraw_request_after boolean not null,
          primary key (tx_hash, nominator, type))`,
        // Both lists read newest first within a pool, optionally for one nominator.
        `create index nominator_pool_events_pool on $S.nominator_pool_events (pool, utime, tx_lt)`,
        `create index nominator_pool_events_nominator on $S.nominator_pool_events (pool, nominator, utime, tx_lt)`,
        `create table $S.nominator_pool_validator_events (
          pool text not null, validator text not null, type text not null, utime integer not null,
          tx_hash text not null, tx_lt bigint not null, cycle_start integer, query_id numeric,
          amount numeric not null, balance_before numeric not null, balance_after numeric not null,
          validator_reward_share integer not null,
          primary key (tx_hash, type))`,
        `create index nominator_pool_validator_events_pool on $S.nominator_pool_validator_events (pool, utime, tx_lt)`,
        `create index nominator_pool_validator_events_validator on $S.nominator_pool_validator_events (validator, utime, tx_lt)`,
      ]);
    },
  },
});

/** The store's chain tables and this domain's, which its derivation writes and its operations read. */
export type PoolsDatabase = IndexTables<PoolTables>;
