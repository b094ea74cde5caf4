import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import type { Kysely, Selectable } from 'kysely';
import { rawAddress } from '../../address.js';
import { accountFacts, interfacesOf } from '../../address-book.js';
import { withDomainTables, type IndexTables } from '../../index-domain.js';
import { page, rawAddresses } from '../../params.js';
import { traceIds } from '../traces/readers.js';
import { books, decodedPayload, eitherParty, windowedEvents } from './events.js';
import type { NftCollectionsTable, NftItemsTable, TokenTables } from './tables.js';

/**
 * NFT collections and items in the v3 wire shape, read by the NFT operations and by those that attach the items a
 * reply names (`/nft/sales`, `/dns/activeAuctions`).
 */

type CollectionRow = Selectable<NftCollectionsTable>;
type ItemRow = Selectable<NftItemsTable>;

export function formatCollection(r: CollectionRow): v3.NftCollection {
  return {
    address: r.address,
    owner_address: r.owner_address,
    last_transaction_lt: r.last_transaction_lt,
    next_item_index: r.next_item_index,
    collection_content: r.collection_content,
    data_hash: r.data_hash,
    code_hash: r.code_hash,
  };
}

/**
 * Item rows → the wire shape, with each item's collection, and its sale state: an item is on sale while its owner is
 * a sale or auction contract (by the owner's interfaces, or because the indexer read a seller from it: real_owner).
 */
export async function formatItems(db: Kysely<ChainDatabase>, rows: ItemRow[]): Promise<v3.NftItem[]> {
  const tokens = withDomainTables<TokenTables>(db);
  const collectionAddresses = [...new Set(rows.map((r) => r.collection_address).filter((a): a is string => a !== null))];
  const owners = [...new Set(rows.map((r) => r.owner_address).filter((a): a is string => a !== null))];
  const [collections, ownerFacts] = await Promise.all([
    collectionAddresses.length > 0
      ? tokens.selectFrom('nft_collections').selectAll().where('address', 'in', collectionAddresses).execute()
      : Promise.resolve([]),
    accountFacts(db, owners),
  ]);
  const byAddress = new Map(collections.map((c) => [c.address, formatCollection(c)]));
  return rows.map((r) => {
    const ownerInterfaces = r.owner_address ? interfacesOf(ownerFacts.get(r.owner_address)) : [];
    const auction = ownerInterfaces.some((i) => i.includes('auction'));
    const sale = !auction && (r.real_owner !== null || ownerInterfaces.some((i) => i.includes('sale')));
    return {
      address: r.address,
      init: r.init,
      index: r.index,
      collection_address: r.collection_address,
      owner_address: r.owner_address,
      content: r.content,
      last_transaction_lt: r.last_transaction_lt,
      code_hash: r.code_hash,
      data_hash: r.data_hash,
      collection: r.collection_address ? (byAddress.get(r.collection_address) ?? null) : null,
      on_sale: sale || auction,
      ...(sale ? { sale_contract_address: r.owner_address } : {}),
      ...(auction ? { auction_contract_address: r.owner_address } : {}),
      ...(r.real_owner ? { real_owner: r.real_owner } : {}),
    };
  });
}

/** The indexed NFT items at these addresses (raw forms), in the wire shape; unknown addresses are left out. */
export async function readNftItems(db: Kysely<ChainDatabase>, addresses: readonly string[]): Promise<v3.NftItem[]> {
  if (addresses.length === 0) return [];
  const rows = await withDomainTables<TokenTables>(db)
    .selectFrom('nft_items')
    .selectAll()
    .where('address', 'in', [...addresses])
    .orderBy('address')
    .execute();
  return formatItems(db, rows);
}

export type NftOperations = Pick<V3Handlers, 'getNftCollections' | 'getNftItems' | 'getNftTransfers'>;

const itemAddresses = (items: v3.NftItem[]) => items.flatMap((i) => [i.address, i.collection_address, i.owner_address, i.real_owner]);

export function nftOperations(db: Kysely<IndexTables<TokenTables>>, testnet: boolean): NftOperations {
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
