import type { v3 } from '@tongate/sdk';
import type { ChainDatabase, NftCollectionsTable, NftItemsTable } from '@tongate/store';
import type { Kysely, Selectable } from 'kysely';
import { accountFacts, interfacesOf } from './address-book.js';

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
  const collectionAddresses = [...new Set(rows.map((r) => r.collection_address).filter((a): a is string => a !== null))];
  const owners = [...new Set(rows.map((r) => r.owner_address).filter((a): a is string => a !== null))];
  const [collections, ownerFacts] = await Promise.all([
    collectionAddresses.length > 0
      ? db.selectFrom('nft_collections').selectAll().where('address', 'in', collectionAddresses).execute()
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
  const rows = await db
    .selectFrom('nft_items')
    .selectAll()
    .where('address', 'in', [...addresses])
    .orderBy('address')
    .execute();
  return formatItems(db, rows);
}
