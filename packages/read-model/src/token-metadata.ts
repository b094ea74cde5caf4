import type { v3 } from '@tongate/sdk';
import type { AddressMetadataTable, ChainDatabase } from '@tongate/store';
import type { Kysely, Selectable } from 'kysely';

/**
 * Token metadata (the `metadata` object of the lists, and /metadata): TEP-64 content of jetton masters, NFT
 * collections and NFT items as the indexer decoded it, merged with the off-chain document the metadata fetcher
 * cached for the content's URI (on-chain fields win, as TEP-64 says). Content with a URI whose document is not
 * cached (the fetcher is off by default, has not got to it, or its guard refused the destination) answers
 * `is_indexed: false` with the on-chain fields it has. Jetton wallets carry their owner, jetton and balance in `extra`.
 */

type Content = Record<string, string> | null;
type Fetched = Selectable<AddressMetadataTable>;

/** Fields that TokenInfo has at its top level; every other content field goes to `extra`. */
const TOP_LEVEL = ['name', 'symbol', 'description', 'image'] as const;
/** Content fields not served: the URI is the document's address, image_data may be a large inline image. */
const NOT_SERVED = new Set(['uri', 'image_data']);

function entry(type: v3.TokenInfo['type'], content: Content, fetched: Fetched | undefined, nftIndex?: string): v3.AddressMetadata {
  if (content === null)
    return { is_indexed: true, token_info: [{ type, valid: false, ...(nftIndex !== undefined ? { nft_index: nftIndex } : {}) }] };
  // A refused URI was never fetched: its entry only paces the retries, so the token is as if not yet looked at.
  const document = content.uri !== undefined && fetched?.uri === content.uri && !fetched.refused ? fetched : undefined;
  const info: v3.TokenInfo = { type, valid: document ? document.valid : true };
  const extra: Record<string, unknown> = { ...(document?.extra ?? {}) };
  for (const field of TOP_LEVEL) {
    const value = content[field] ?? document?.[field] ?? undefined;
    if (value !== undefined && value !== null) info[field] = value;
  }
  for (const [key, value] of Object.entries(content))
    if (!NOT_SERVED.has(key) && !(TOP_LEVEL as readonly string[]).includes(key)) extra[key] = value;
  if (nftIndex !== undefined) info.nft_index = nftIndex;
  if (Object.keys(extra).length > 0) info.extra = extra;
  return { is_indexed: content.uri === undefined || document !== undefined, token_info: [info] };
}

/**
 * Metadata of the token contracts among `addresses` (raw forms; other addresses are left out). Jetton wallets only
 * when asked: the lists name the wallet's jetton master, whose entry is what a client displays.
 */
export async function tokenMetadata(
  db: Kysely<ChainDatabase>,
  addresses: Iterable<string | null | undefined>,
  options: { wallets?: boolean } = {},
): Promise<v3.Metadata> {
  const list = [...new Set([...addresses].filter((a): a is string => typeof a === 'string'))];
  const out: v3.Metadata = {};
  if (list.length === 0) return out;
  const [masters, collections, items, wallets, fetched] = await Promise.all([
    db.selectFrom('jetton_masters').select(['address', 'jetton_content']).where('address', 'in', list).execute(),
    db.selectFrom('nft_collections').select(['address', 'collection_content']).where('address', 'in', list).execute(),
    db.selectFrom('nft_items').select(['address', 'content', 'index']).where('address', 'in', list).execute(),
    options.wallets
      ? db.selectFrom('jetton_wallets').select(['address', 'owner', 'jetton', 'balance']).where('address', 'in', list).execute()
      : Promise.resolve([]),
    db.selectFrom('address_metadata').selectAll().where('address', 'in', list).execute(),
  ]);
  const documents = new Map(fetched.map((f) => [`${f.type}/${f.address}`, f]));
  for (const m of masters) out[m.address] = entry('jetton_masters', m.jetton_content, documents.get(`jetton_masters/${m.address}`));
  for (const c of collections)
    out[c.address] = entry('nft_collections', c.collection_content, documents.get(`nft_collections/${c.address}`));
  for (const i of items) out[i.address] = entry('nft_items', i.content, documents.get(`nft_items/${i.address}`), i.index);
  for (const w of wallets) {
    out[w.address] = {
      is_indexed: true,
      token_info: [{ type: 'jetton_wallets', valid: true, extra: { owner: w.owner, jetton: w.jetton, balance: w.balance } }],
    };
  }
  return out;
}
