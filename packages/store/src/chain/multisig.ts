import type { ColumnType, Generated } from 'kysely';
import type { DomainMigrations } from './index.js';

type Int64 = ColumnType<string, bigint | number | string, bigint | number | string>;
type Json<T> = ColumnType<T, string, string>;

/**
 * Multisig v2 wallets and their orders (`/multisig/*`), as of each contract's newest state (the indexer's multisig
 * derivation reads them with their get-methods). Addresses are raw `wc:HEX` upper case.
 */
export interface MultisigTable {
  /** Order of first sight, the order of /multisig/wallets. */
  id: Generated<string>;
  address: string;
  next_order_seqno: Int64;
  threshold: number;
  /** Signer addresses in index order. */
  signers: Json<string[]>;
  proposers: Json<string[]>;
  last_transaction_lt: Int64;
  code_hash: string;
  data_hash: string;
}

/** Who may act on each multisig: the wallet_address filter of /multisig/wallets. */
export interface MultisigParticipantsTable {
  multisig_address: string;
  wallet_address: string;
  role: 'signer' | 'proposer';
}

export interface MultisigOrdersTable {
  id: Generated<string>;
  address: string;
  multisig_address: string;
  order_seqno: Int64;
  threshold: number;
  sent_for_execution: boolean;
  approvals_mask: Int64;
  approvals_num: number;
  expiration_date: Int64;
  /** Base64 BOC of the order's actions dictionary; null before the order is initialised. */
  order_boc: string | null;
  signers: Json<string[]>;
  last_transaction_lt: Int64;
  code_hash: string;
  data_hash: string;
}

export interface MultisigTables {
  multisig: MultisigTable;
  multisig_participants: MultisigParticipantsTable;
  multisig_orders: MultisigOrdersTable;
}

export const multisigMigrations: DomainMigrations = (run) => ({
  '0360_multisig': {
    async up(db) {
      await run(db, [
        `create table $S.multisig (
          id bigint generated always as identity unique, address text primary key, next_order_seqno numeric not null,
          threshold integer not null, signers jsonb not null, proposers jsonb not null, last_transaction_lt bigint not null,
          code_hash text not null, data_hash text not null)`,
        `create table $S.multisig_participants (
          multisig_address text not null, wallet_address text not null, role text not null,
          primary key (multisig_address, wallet_address, role))`,
        `create index multisig_participants_wallet on $S.multisig_participants (wallet_address, multisig_address)`,
        `create table $S.multisig_orders (
          id bigint generated always as identity unique, address text primary key, multisig_address text not null,
          order_seqno numeric not null, threshold integer not null, sent_for_execution boolean not null,
          approvals_mask numeric not null, approvals_num integer not null, expiration_date bigint not null, order_boc text,
          signers jsonb not null, last_transaction_lt bigint not null, code_hash text not null, data_hash text not null)`,
        `create index multisig_orders_multisig on $S.multisig_orders (multisig_address, id)`,
      ]);
    },
  },
});
