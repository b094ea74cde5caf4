import type { ColumnType, Generated } from 'kysely';
import type { DomainMigrations } from './index.js';

type Int64 = ColumnType<string, bigint | number | string, bigint | number | string>;

/**
 * Vesting wallets (`/vesting`), as of each contract's newest state (the indexer's vesting derivation reads them with
 * `get_vesting_data`). Addresses are raw `wc:HEX` upper case.
 */
export interface VestingContractsTable {
  /** Order of first sight, the order of /vesting. */
  id: Generated<string>;
  address: string;
  start_time: Int64;
  total_duration: Int64;
  unlock_period: Int64;
  cliff_duration: Int64;
  total_amount: Int64;
  sender_address: string;
  owner_address: string;
  last_transaction_lt: Int64;
  code_hash: string;
  data_hash: string;
}

/** The addresses each vesting wallet lets its owner send to before the funds unlock. */
export interface VestingWhitelistTable {
  vesting_address: string;
  wallet_address: string;
}

export interface VestingTables {
  vesting_contracts: VestingContractsTable;
  vesting_whitelist: VestingWhitelistTable;
}

export const vestingMigrations: DomainMigrations = (run) => ({
  '0350_vesting': {
    async up(db) {
      await run(db, [
        `create table $S.vesting_contracts (
          id bigint generated always as identity unique, address text primary key, start_time bigint not null,
          total_duration bigint not null, unlock_period bigint not null, cliff_duration bigint not null,
          total_amount numeric not null, sender_address text not null, owner_address text not null,
          last_transaction_lt bigint not null, code_hash text not null, data_hash text not null)`,
        `create index vesting_contracts_owner on $S.vesting_contracts (owner_address, id)`,
        `create index vesting_contracts_sender on $S.vesting_contracts (sender_address, id)`,
        `create table $S.vesting_whitelist (
          vesting_address text not null, wallet_address text not null, primary key (vesting_address, wallet_address))`,
        `create index vesting_whitelist_wallet on $S.vesting_whitelist (wallet_address, vesting_address)`,
      ]);
    },
  },
});
