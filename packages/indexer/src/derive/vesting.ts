import { Address } from '@ton/core';
import { GET_VESTING_DATA, readVestingData } from '@tongate/contracts';
import type { VestingContractsTable } from '@tongate/store';
import type { Insertable } from 'kysely';
import { rawAddress } from '@tongate/read-model';
import { activeMethodIds, newestStates } from './account-methods.js';
import type { BlockDerivation } from './index.js';

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

export function vestingDerivation(): BlockDerivation<VestingChanges> {
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
