import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import type { Kysely } from 'kysely';
import { addressBook } from '@tongate/read-model';
import { page, rawAddresses } from '@tongate/read-model';

export type VestingOperations = Pick<V3Handlers, 'getVestingContracts'>;

/** Vesting wallets from `vesting_contracts` / `vesting_whitelist` (the indexer's vesting derivation), oldest first. */
export function vestingOperations(db: Kysely<ChainDatabase>, testnet: boolean): VestingOperations {
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
