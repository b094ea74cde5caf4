import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import { sql, type Kysely } from 'kysely';
import { rawAddress } from '../../address.js';
import { withDomainTables, type IndexTables } from '../../index-domain.js';
import { page, rawAddresses } from '../../params.js';
import { traceIds } from '../traces/readers.js';
import { books, decodedPayload, eitherParty, windowedEvents } from './events.js';
import type { TokenTables } from './tables.js';

export type JettonOperations = Pick<V3Handlers, 'getJettonMasters' | 'getJettonWallets' | 'getJettonTransfers' | 'getJettonBurns'>;

export function jettonOperations(db: Kysely<IndexTables<TokenTables>>, testnet: boolean): JettonOperations {
  return {
    async getJettonMasters({ query }) {
      const { limit, offset } = page(query);
      const addresses = rawAddresses(query.address);
      const admins = rawAddresses(query.admin_address);
      let q = db.selectFrom('jetton_masters').selectAll();
      if (addresses.length > 0) q = q.where('address', 'in', addresses);
      if (admins.length > 0) q = q.where('admin_address', 'in', admins);
      const rows = await q.orderBy('address').limit(limit).offset(offset).execute();
      const jetton_masters: v3.JettonMaster[] = rows.map((r) => ({
        address: r.address,
        total_supply: r.total_supply,
        mintable: r.mintable,
        admin_address: r.admin_address,
        jetton_content: r.jetton_content,
        jetton_wallet_code_hash: r.jetton_wallet_code_hash,
        code_hash: r.code_hash,
        data_hash: r.data_hash,
        last_transaction_lt: r.last_transaction_lt,
      }));
      return {
        status: 200,
        body: {
          jetton_masters,
          ...(await books(
            db,
            rows.flatMap((r) => [r.address, r.admin_address]),
            testnet,
          )),
        },
      };
    },

    async getJettonWallets({ query }) {
      const { limit, offset, sort } = page(query);
      const addresses = rawAddresses(query.address);
      const owners = rawAddresses(query.owner_address);
      const jettons = rawAddresses(query.jetton_address);
      if (jettons.length > 1 && owners.length !== 1)
        throw new ApiError(422, 'several jetton_address values need exactly one owner_address');
      let q = db.selectFrom('jetton_wallets').selectAll();
      if (addresses.length > 0) q = q.where('address', 'in', addresses);
      if (owners.length > 0) q = q.where('owner', 'in', owners);
      if (jettons.length > 0) q = q.where('jetton', 'in', jettons);
      if (query.exclude_zero_balance) q = q.where('balance', '>', '0');
      const rows = await q.orderBy('balance', sort).orderBy('address', sort).limit(limit).offset(offset).execute();
      const jetton_wallets: v3.JettonWallet[] = rows.map((r) => ({
        address: r.address,
        balance: r.balance,
        owner: r.owner,
        jetton: r.jetton,
        last_transaction_lt: r.last_transaction_lt,
        code_hash: r.code_hash,
        data_hash: r.data_hash,
      }));
      return {
        status: 200,
        body: {
          jetton_wallets,
          ...(await books(
            db,
            rows.flatMap((r) => [r.address, r.owner, r.jetton]),
            testnet,
          )),
        },
      };
    },

    async getJettonTransfers({ query }) {
      const owners = rawAddresses(query.owner_address);
      const wallets = rawAddresses(query.jetton_wallet);
      const master = query.jetton_master && rawAddress(query.jetton_master);
      if (query.direction !== undefined && owners.length === 0) throw new ApiError(422, 'direction needs owner_address');
      // Aborted transfers moved nothing (the hosted API leaves them out too).
      let q = db.selectFrom('jetton_transfers').selectAll().where('tx_aborted', '=', false);
      if (wallets.length > 0) q = q.where('jetton_wallet_address', 'in', wallets);
      if (master !== undefined) q = q.where('jetton_master_address', '=', master);
      if (query.direction === 'in') q = q.where('destination', 'in', owners);
      else if (query.direction === 'out') q = q.where('source', 'in', owners);
      const rows =
        owners.length > 0 && query.direction === undefined
          ? await eitherParty(q, ['source', 'destination'], owners, query, page(query))
          : await windowedEvents(q, query, page(query)).execute();
      const traces = await traceIds(
        db,
        rows.map((r) => r.tx_hash),
      );
      const jetton_transfers: v3.JettonTransfer[] = rows.map((r) => ({
        query_id: r.query_id,
        source: r.source,
        destination: r.destination,
        amount: r.amount,
        source_wallet: r.jetton_wallet_address,
        jetton_master: r.jetton_master_address,
        transaction_hash: r.tx_hash,
        transaction_lt: r.tx_lt,
        transaction_now: r.tx_now,
        transaction_aborted: r.tx_aborted,
        response_destination: r.response_destination,
        custom_payload: r.custom_payload,
        decoded_custom_payload: decodedPayload(r.custom_payload),
        forward_ton_amount: r.forward_ton_amount,
        forward_payload: r.forward_payload,
        decoded_forward_payload: decodedPayload(r.forward_payload),
        trace_id: traces.get(r.tx_hash) ?? null,
      }));
      const addresses = rows.flatMap((r) => [
        r.source,
        r.destination,
        r.jetton_wallet_address,
        r.jetton_master_address,
        r.response_destination,
      ]);
      return { status: 200, body: { jetton_transfers, ...(await books(db, addresses, testnet)) } };
    },

    async getJettonBurns({ query }) {
      const owners = rawAddresses(query.address);
      const wallets = rawAddresses(query.jetton_wallet);
      const master = query.jetton_master && rawAddress(query.jetton_master);
      let q = db.selectFrom('jetton_burns').selectAll();
      if (owners.length > 0) q = q.where('owner', 'in', owners);
      if (wallets.length > 0) q = q.where('jetton_wallet_address', 'in', wallets);
      if (master !== undefined) q = q.where('jetton_master_address', '=', master);
      const rows = await windowedEvents(q, query, page(query)).execute();
      const traces = await traceIds(
        db,
        rows.map((r) => r.tx_hash),
      );
      const jetton_burns: v3.JettonBurn[] = rows.map((r) => ({
        query_id: r.query_id,
        owner: r.owner,
        jetton_wallet: r.jetton_wallet_address,
        jetton_master: r.jetton_master_address,
        transaction_hash: r.tx_hash,
        transaction_lt: r.tx_lt,
        transaction_now: r.tx_now,
        transaction_aborted: r.tx_aborted,
        amount: r.amount,
        response_destination: r.response_destination,
        custom_payload: r.custom_payload,
        decoded_custom_payload: decodedPayload(r.custom_payload),
        trace_id: traces.get(r.tx_hash) ?? null,
      }));
      const addresses = rows.flatMap((r) => [r.owner, r.jetton_wallet_address, r.jetton_master_address, r.response_destination]);
      return { status: 200, body: { jetton_burns, ...(await books(db, addresses, testnet)) } };
    },
  };
}

/**
 * The jetton wallets among `accounts` in the stream's shape (balance and lt as decimal text), for the block a stream
 * batch announces.
 */
export function jettonWalletStates(db: Kysely<ChainDatabase>, accounts: readonly string[]) {
  return withDomainTables<TokenTables>(db)
    .selectFrom('jetton_wallets')
    .select([
      'address',
      sql<string>`balance::text`.as('balance'),
      'owner',
      'jetton',
      sql<string>`last_transaction_lt::text`.as('last_transaction_lt'),
      'code_hash',
      'data_hash',
    ])
    .where('address', 'in', [...accounts])
    .execute();
}
