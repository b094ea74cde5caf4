import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import type { Kysely } from 'kysely';
import { formatCollection, formatItems } from '@tongate/read-model';
import { page, rawAddress, rawAddresses } from '@tongate/read-model';
import { books, decodedPayload, eitherParty, traceIds, windowedEvents } from './token-events.js';

export type NftOperations = Pick<V3Handlers, 'getNftCollections' | 'getNftItems' | 'getNftTransfers'>;

const itemAddresses = (items: v3.NftItem[]) => items.flatMap((i) => [i.address, i.collection_address, i.owner_address, i.real_owner]);

export function nftOperations(db: Kysely<ChainDatabase>, testnet: boolean): NftOperations {
  return {
    async getNftCollections({ query }) {
      const { limit, offset } = page(query);
      const addresses = rawAddresses(query.collection_address);
      const owners = rawAddresses(query.owner_address);
      let q = db.selectFrom('nft_collections').selectAll();
      if (addresses.length > 0) q = q.where('address', 'in', addresses);
      if (owners.length > 0) q = q.where('owner_address', 'in', owners);
      const rows = await q.orderBy('address').limit(limit).offset(offset).execute();
      return {
        status: 200,
        body: {
          nft_collections: rows.map(formatCollection),
          ...(await books(
            db,
            rows.flatMap((r) => [r.address, r.owner_address]),
            testnet,
          )),
        },
      };
    },

    async getNftItems({ query }) {
      const { limit, offset, sort } = page(query);
      const addresses = rawAddresses(query.address);
      const owners = rawAddresses(query.owner_address);
      const collections = rawAddresses(query.collection_address);
      const indexes = [...new Set(query.index ?? [])];
      for (const index of indexes)
        if (!/^[0-9]{1,78}$/.test(index)) throw new ApiError(422, `invalid index: '${index}' is not a non-negative decimal integer`);
      if (indexes.length > 0 && collections.length === 0) throw new ApiError(422, 'index needs collection_address');
      if (collections.length > 1 && owners.length !== 1)
        throw new ApiError(422, 'several collection_address values need exactly one owner_address');
      let q = db.selectFrom('nft_items').selectAll();
      if (addresses.length > 0) q = q.where('address', 'in', addresses);
      if (owners.length > 0) {
        q = query.include_on_sale
          ? q.where((eb) => eb.or([eb('owner_address', 'in', owners), eb('real_owner', 'in', owners)]))
          : q.where('owner_address', 'in', owners);
      }
      if (collections.length > 0) q = q.where('collection_address', 'in', collections);
      if (indexes.length > 0) q = q.where('index', 'in', indexes);
      // By collection and index (ascending, as a collection lists its items), or by the last change.
      q = query.sort_by_last_transaction_lt
        ? q.orderBy('last_transaction_lt', sort).orderBy('address', sort)
        : q.orderBy('collection_address').orderBy('index').orderBy('address');
      const nft_items = await formatItems(db, await q.limit(limit).offset(offset).execute());
      return { status: 200, body: { nft_items, ...(await books(db, itemAddresses(nft_items), testnet)) } };
    },

    async getNftTransfers({ query }) {
      const owners = rawAddresses(query.owner_address);
      const items = rawAddresses(query.item_address);
      const collection = query.collection_address && rawAddress(query.collection_address);
      if (query.direction !== undefined && owners.length === 0) throw new ApiError(422, 'direction needs owner_address');
      let q = db.selectFrom('nft_transfers').selectAll();
      if (items.length > 0) q = q.where('nft_item_address', 'in', items);
      if (collection !== undefined) q = q.where('nft_collection_address', '=', collection);
      if (query.direction === 'in') q = q.where('new_owner', 'in', owners);
      else if (query.direction === 'out') q = q.where('old_owner', 'in', owners);
      const rows =
        owners.length > 0 && query.direction === undefined
          ? await eitherParty(q, ['old_owner', 'new_owner'], owners, query, page(query))
          : await windowedEvents(q, query, page(query)).execute();
      const traces = await traceIds(
        db,
        rows.map((r) => r.tx_hash),
      );
      const nft_transfers: v3.NftTransfer[] = rows.map((r) => ({
        query_id: r.query_id,
        nft_address: r.nft_item_address,
        nft_collection: r.nft_collection_address,
        transaction_hash: r.tx_hash,
        transaction_lt: r.tx_lt,
        transaction_now: r.tx_now,
        transaction_aborted: r.tx_aborted,
        old_owner: r.old_owner,
        new_owner: r.new_owner,
        response_destination: r.response_destination,
        custom_payload: r.custom_payload,
        decoded_custom_payload: decodedPayload(r.custom_payload),
        forward_amount: r.forward_amount,
        forward_payload: r.forward_payload,
        decoded_forward_payload: decodedPayload(r.forward_payload),
        trace_id: traces.get(r.tx_hash) ?? null,
      }));
      const addresses = rows.flatMap((r) => [
        r.nft_item_address,
        r.nft_collection_address,
        r.old_owner,
        r.new_owner,
        r.response_destination,
      ]);
      return { status: 200, body: { nft_transfers, ...(await books(db, addresses, testnet)) } };
    },
  };
}
