import type { ColumnType, Generated } from 'kysely';
import type { DomainMigrations } from '@tongate/store';
import type { IndexTables } from '../../index-domain.js';

/** A numeric or bigint column: written as a decimal string or bigint, read back as a decimal string. */
type Amount = ColumnType<string, bigint | string, bigint | string>;
type AmountOrNull = ColumnType<string | null, bigint | string | null, bigint | string | null>;
type Json<T> = ColumnType<T, string, string>;

/**
 * Validators: what the indexer keeps of the elector and of the validator sets (config 32/34/36), for
 * `/validators/{elections,cycles,events,complaints}`. The elector deletes an election once its set is installed and a
 * past election once its stakes are unfrozen, so these rows are the only lasting record. Amounts are numeric
 * (decimal strings on read), public keys and ADNL addresses lower-case hex, addresses raw upper case.
 */

/** An election as last seen in the elector's state (the final snapshot has finished = true). */
export interface ValidatorElectionsTable {
  election_id: number;
  elect_close: number;
  min_stake: Amount;
  total_stake: Amount;
  total_participants: number;
  failed: boolean;
  finished: boolean;
  /** lt of the elector transaction the snapshot comes from. */
  last_lt: Amount;
}

export interface ValidatorElectionParticipantsTable {
  election_id: number;
  validator_pubkey: string;
  stake_holder_address: string;
  adnl_addr: string;
  stake: Amount;
  max_factor: Amount;
  stake_time: number;
}

/** A past-elections entry of the elector (the elected set's frozen stakes), kept after the elector drops it. */
export interface ValidatorRoundsTable {
  election_id: number;
  /** Hash of the set it produced (hex): joins the cycle whose param 34 cell has this hash. */
  vset_hash: string;
  unfreeze_at: number;
  stake_held: number;
  total_stake: Amount;
  bonuses: Amount;
  /** Smallest and largest true stake of the elected. */
  min_stake: Amount;
  max_stake: Amount;
  /** True once the elector has unfrozen the stakes (the entry left its state). */
  unfrozen: boolean;
  /** Digest of what changes in the entry over its life (bonuses, stakes, bans, complaints): rows are rewritten on change. */
  fingerprint: string;
}

export interface ValidatorRoundStakesTable {
  election_id: number;
  validator_pubkey: string;
  stake_holder_address: string;
  weight: Amount;
  /** True stake: the part of the stake the election used. */
  stake: Amount;
  banned: boolean;
  /** The holder's share of the round's bonuses by the elector's formula (muldiv(bonuses, stake, total_stake)). */
  reward: Amount;
}

/** A validator set that became the current one (param 34), with the election config in force when it was seen. */
export interface ValidatorCyclesTable {
  cycle_start: number;
  cycle_end: number;
  vset_hash: string;
  total: number;
  main: number;
  total_weight: Amount;
  validators_elected_for: number | null;
  elections_start_before: number | null;
  elections_end_before: number | null;
  stake_held_for: number | null;
  max_validators: number | null;
  max_main_validators: number | null;
  min_validators: number | null;
  min_stake_limit: AmountOrNull;
  max_stake_limit: AmountOrNull;
  min_total_stake: AmountOrNull;
  max_stake_factor: AmountOrNull;
}

export interface ValidatorCycleValidatorsTable {
  cycle_start: number;
  validator_index: number;
  validator_pubkey: string;
  adnl_addr: string | null;
  weight: Amount;
}

export interface ValidatorComplaintsTable {
  election_id: number;
  complaint_hash: string;
  validator_pubkey: string;
  created_at: number;
  severity: number;
  reward_address: string;
  paid: Amount;
  suggested_fine: Amount;
  suggested_fine_part: Amount;
  description_boc: string;
  /** Hash of the set the votes are counted in (hex). */
  vset_id: string;
  weight_remaining: Amount;
  /** Indices (in that set) of the validators who voted for it. */
  voters: Json<number[]>;
}

export interface ValidatorEventsTable {
  id: Generated<number>;
  tx_hash: string;
  tx_lt: Amount;
  utime: number;
  type: 'stake_accepted' | 'stake_rejected' | 'stake_recovered';
  stake_holder_address: string;
  validator_pubkey: string | null;
  adnl_addr: string | null;
  election_id: number | null;
  amount: Amount;
  query_id: Amount;
  reason: number | null;
}

export interface ValidatorTables {
  validator_elections: ValidatorElectionsTable;
  validator_election_participants: ValidatorElectionParticipantsTable;
  validator_rounds: ValidatorRoundsTable;
  validator_round_stakes: ValidatorRoundStakesTable;
  validator_cycles: ValidatorCyclesTable;
  validator_cycle_validators: ValidatorCycleValidatorsTable;
  validator_complaints: ValidatorComplaintsTable;
  validator_events: ValidatorEventsTable;
}

export const validatorMigrations: DomainMigrations = (run) => ({
  '0400_validators_tables': {
    async up(db) {
      await run(db, [
        `create table $S.validator_elections (
          election_id integer primary key, elect_close integer not null, min_stake numeric not null,
          total_stake numeric not null, total_participants integer not null, failed boolean not null,
          finished boolean not null, last_lt bigint not null)`,
        `create table $S.validator_election_participants (
          election_id integer not null, validator_pubkey text not null, stake_holder_address text not null,
          adnl_addr text not null, stake numeric not null, max_factor bigint not null, stake_time integer not null,
          primary key (election_id, validator_pubkey))`,
        `create index validator_election_participants_holder on $S.validator_election_participants (stake_holder_address, election_id)`,
        `create index validator_election_participants_adnl on $S.validator_election_participants (adnl_addr, election_id)`,
        `create index validator_election_participants_pubkey on $S.validator_election_participants (validator_pubkey, election_id)`,
        `create table $S.validator_rounds (
          election_id integer primary key, vset_hash text not null, unfreeze_at integer not null,
          stake_held integer not null, total_stake numeric not null, bonuses numeric not null,
          min_stake numeric not null, max_stake numeric not null, unfrozen boolean not null, fingerprint text not null)`,
        `create index validator_rounds_vset on $S.validator_rounds (vset_hash)`,
        `create table $S.validator_round_stakes (
          election_id integer not null, validator_pubkey text not null, stake_holder_address text not null,
          weight numeric not null, stake numeric not null, banned boolean not null, reward numeric not null,
          primary key (election_id, validator_pubkey))`,
        `create index validator_round_stakes_holder on $S.validator_round_stakes (stake_holder_address, election_id)`,
        `create table $S.validator_cycles (
          cycle_start integer primary key, cycle_end integer not null, vset_hash text not null,
          total integer not null, main integer not null, total_weight numeric not null,
          validators_elected_for integer, elections_start_before integer, elections_end_before integer,
          stake_held_for integer, max_validators integer, max_main_validators integer, min_validators integer,
          min_stake_limit numeric, max_stake_limit numeric, min_total_stake numeric, max_stake_factor bigint)`,
        `create index validator_cycles_vset on $S.validator_cycles (vset_hash)`,
        `create table $S.validator_cycle_validators (
          cycle_start integer not null, validator_index integer not null, validator_pubkey text not null,
          adnl_addr text, weight numeric not null, primary key (cycle_start, validator_index))`,
        `create index validator_cycle_validators_pubkey on $S.validator_cycle_validators (validator_pubkey, cycle_start)`,
        `create index validator_cycle_validators_adnl on $S.validator_cycle_validators (adnl_addr, cycle_start)`,
        `create table $S.validator_complaints (
          election_id integer not null, complaint_hash text not null, validator_pubkey text not null,
          created_at integer not null, severity integer not null, reward_address text not null, paid numeric not null,
          suggested_fine numeric not null, suggested_fine_part bigint not null, description_boc text not null,
          vset_id text not null, weight_remaining numeric not null, voters jsonb not null,
          primary key (election_id, complaint_hash))`,
        `create index validator_complaints_created on $S.validator_complaints (created_at)`,
        `create index validator_complaints_pubkey on $S.validator_complaints (validator_pubkey, created_at)`,
        `create table $S.validator_events (
          id serial primary key, tx_hash text not null unique, tx_lt bigint not null, utime integer not null,
          type text not null, stake_holder_address text not null, validator_pubkey text, adnl_addr text,
          election_id integer, amount numeric not null, query_id numeric not null, reason integer)`,
        `create index validator_events_time on $S.validator_events (utime, tx_lt)`,
        `create index validator_events_holder on $S.validator_events (stake_holder_address, utime, tx_lt)`,
        `create index validator_events_pubkey on $S.validator_events (validator_pubkey, utime, tx_lt)`,
        `create index validator_events_adnl on $S.validator_events (adnl_addr, utime, tx_lt)`,
      ]);
    },
  },
});

/** The store's chain tables and this domain's, which its derivation writes and its operations read. */
export type ValidatorsDatabase = IndexTables<ValidatorTables>;
