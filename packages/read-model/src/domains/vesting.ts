/**
 * The vesting domain: vesting wallets (`GET /api/v3/vesting`), its tables, the derivation that fills them and the
 * operation that reads them.
 */
import { Address } from '@ton/core';
import { GET_VESTING_DATA, readVestingData } from '@tongate/contracts';
import type { v3 } from '@tongate/sdk';
import type { DomainMigrations } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import type { ColumnType, Generated, Insertable, Kysely } from 'kysely';
import { rawAddress } from '../address.js';
import { addressBook } from '../address-book.js';
import { activeMethodIds, newestStates, type BlockDerivation } from '../block.js';
import { indexDomain, type IndexTables } from '../index-domain.js';
import { page, rawAddresses } from '../params.js';

type Int64 = ColumnType<string, bigint | number | string, bigint | number | string>;

/**
 * Vesting wallets (`/vesting`), as of each contract's newest state (vestingDerivation reads them with
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

/**
 * Vesting wallets (`vesting_contracts`, `vesting_whitelist`) as of each contract's newest state: an account changed
 * in the block whose code defines `get_vesting_data` is asked for it at that block (in `prepare`, outside the
 * block's transaction); when it answers the vesting wallet's shape it is a vesting wallet. An account that was one
 * and no longer answers so loses its rows.
 */

/** Whitelist entries kept per contract: bounds the rows (and the reply) a single contract can make. */
export const MAX_WHITELIST = 256;

interface VestingRow {
  contract: Insertable<VestingContractsTable>;
  whitelist: string[];
}

interface VestingChanges {
  upserts: VestingRow[];
  others: string[];
}

const raw = (a: Address) => rawAddress(a.workChain, a.hash);

export function vestingDerivation(): BlockDerivation<VestingChanges, IndexTables<VestingTables>> {
  return {
    name: 'vesting',
    async prepare(batch, _db, { chain }) {
      const changes: VestingChanges = { upserts: [], others: [] };
      for (const state of newestStates(batch)) {
        if (!activeMethodIds(state).has(GET_VESTING_DATA)) {
          changes.others.push(state.account);
          continue;
        }
        const result = await chain.runGetMethod(Address.parseRaw(state.account), 'get_vesting_data', [], batch.mcSeqno);
        const data = result.exitCode === 0 || result.exitCode === 1 ? readVestingData(result.stack) : null;
        if (!data || !data.sender || !data.owner) {
          changes.others.push(state.account);
          continue;
        }
        changes.upserts.push({
          contract: {
            address: state.account,
            start_time: data.startTime,
            total_duration: data.totalDuration,
            unlock_period: data.unlockPeriod,
            cliff_duration: data.cliffDuration,
            total_amount: data.totalAmount,
            sender_address: raw(data.sender),
            owner_address: raw(data.owner),
            last_transaction_lt: state.last_trans_lt ?? '0',
            code_hash: state.code_hash!,
            data_hash: state.data_hash!,
          },
          whitelist: [...new Set(data.whitelist.map(raw))].slice(0, MAX_WHITELIST),
        });
      }
      return changes;
    },
    async write(trx, _batch, { upserts, others }) {
      for (let i = 0; i < others.length; i += 1000) {
        const chunk = others.slice(i, i + 1000);
        await trx.deleteFrom('vesting_whitelist').where('vesting_address', 'in', chunk).execute();
        await trx.deleteFrom('vesting_contracts').where('address', 'in', chunk).execute();
      }
      for (const { contract, whitelist } of upserts) {
        const { address: _key, ...rest } = contract;
        await trx
          .insertInto('vesting_contracts')
          .values(contract)
          .onConflict((c) => c.column('address').doUpdateSet(rest))
          .execute();
        await trx.deleteFrom('vesting_whitelist').where('vesting_address', '=', contract.address).execute();
        if (whitelist.length > 0) {
          await trx
            .insertInto('vesting_whitelist')
            .values(whitelist.map((wallet_address) => ({ vesting_address: contract.address, wallet_address })))
            .execute();
        }
      }
    },
  };
}

export type VestingOperations = Pick<V3Handlers, 'getVestingContracts'>;

/** Vesting wallets from `vesting_contracts` / `vesting_whitelist` (vestingDerivation's), oldest first. */
export function vestingOperations(db: Kysely<IndexTables<VestingTables>>, testnet: boolean): VestingOperations {
  return {
    async getVestingContracts({ query }) {
      const { limit, offset } = page(query);
      const contracts = rawAddresses(query.contract_address);
      const wallets = rawAddresses(query.wallet_address);
      if ((contracts.length === 0) === (wallets.length === 0))
        throw new ApiError(422, 'exactly one of contract_address, wallet_address must be given');
      let q = db.selectFrom('vesting_contracts').selectAll();
      if (contracts.length > 0) q = q.where('address', 'in', contracts);
      else {
        const whitelisted = query.check_whitelist === true;
        q = q.where((eb) =>
          eb.or([
            eb('owner_address', 'in', wallets),
            eb('sender_address', 'in', wallets),
            ...(whitelisted
              ? [eb('address', 'in', eb.selectFrom('vesting_whitelist').select('vesting_address').where('wallet_address', 'in', wallets))]
              : []),
          ]),
        );
      }
      const rows = await q.orderBy('id').limit(limit).offset(offset).execute();
      const whitelist = new Map<string, string[]>();
      if (rows.length > 0) {
        const entries = await db
          .selectFrom('vesting_whitelist')
          .selectAll()
          .where(
            'vesting_address',
            'in',
            rows.map((r) => r.address),
          )
          .orderBy('vesting_address')
          .orderBy('wallet_address')
          .execute();
        for (const e of entries) whitelist.set(e.vesting_address, [...(whitelist.get(e.vesting_address) ?? []), e.wallet_address]);
      }
      const vesting_contracts: v3.VestingContract[] = rows.map((r) => ({
        address: r.address,
        start_time: Number(r.start_time),
        total_duration: Number(r.total_duration),
        unlock_period: Number(r.unlock_period),
        cliff_duration: Number(r.cliff_duration),
        sender_address: r.sender_address,
        owner_address: r.owner_address,
        total_amount: r.total_amount,
        whitelist: whitelist.get(r.address) ?? [],
      }));
      const addresses = rows.flatMap((r) => [r.address, r.sender_address, r.owner_address, ...(whitelist.get(r.address) ?? [])]);
      return { status: 200, body: { vesting_contracts, address_book: await addressBook(db, addresses, testnet) } };
    },
  };
}

export const vestingDomain = indexDomain<VestingTables>()({
  name: 'vesting',
  migrations: vestingMigrations,
  derivation: vestingDerivation,
  operations: vestingOperations,
});
