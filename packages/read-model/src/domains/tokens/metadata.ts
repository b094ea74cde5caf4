import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import type { V3Handlers } from '@tongate/stubs';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { withDomainTables, type IndexTables } from '../../index-domain.js';
import { rawAddresses } from '../../params.js';
import type { AddressMetadataTable, TokenTables } from './tables.js';

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
  const tokens = withDomainTables<TokenTables>(db);
  const [masters, collections, items, wallets, fetched] = await Promise.all([
    tokens.selectFrom('jetton_masters').select(['address', 'jetton_content']).where('address', 'in', list).execute(),
    tokens.selectFrom('nft_collections').select(['address', 'collection_content']).where('address', 'in', list).execute(),
    tokens.selectFrom('nft_items').select(['address', 'content', 'index']).where('address', 'in', list).execute(),
    options.wallets
      ? tokens.selectFrom('jetton_wallets').select(['address', 'owner', 'jetton', 'balance']).where('address', 'in', list).execute()
      : Promise.resolve([]),
    tokens.selectFrom('address_metadata').selectAll().where('address', 'in', list).execute(),
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

/** `/metadata`: the token metadata (tokenMetadata) of the addresses asked, jetton wallets included. */
export type MetadataOperations = Pick<V3Handlers, 'getMetadata'>;

export function metadataOperations(db: Kysely<IndexTables<TokenTables>>): MetadataOperations {
  return {
    async getMetadata({ query }) {
      const addresses = rawAddresses(query.address);
      return { status: 200, body: await tokenMetadata(db, addresses, { wallets: true }) };
    },
  };
}

/** The token tables with content whose off-chain document the metadata fetcher caches, and their content column. */
const CONTENT_SOURCES = { jetton_masters: 'jetton_content', nft_collections: 'collection_content', nft_items: 'content' } as const;

export type TokenContentType = keyof typeof CONTENT_SOURCES;

/**
 * A page of one token table in address order after `after`: each token's content URI (null without one) beside the
 * URI and expiry of the document cached for it, for the metadata fetcher to find the missing, stale and expired ones.
 */
export function contentUriPage(db: Kysely<ChainDatabase>, type: TokenContentType, after: string, limit: number) {
  return withDomainTables<TokenTables>(db)
    .selectFrom(`${type} as t` as 'jetton_masters as t')
    .leftJoin('address_metadata as m', (j) => j.onRef('m.address', '=', 't.address').on('m.type', '=', type))
    .select([
      't.address',
      sql<string | null>`${sql.ref(`t.${CONTENT_SOURCES[type]}`)}->>'uri'`.as('uri'),
      'm.uri as cached_uri',
      'm.expires_at',
    ])
    .where('t.address', '>', after)
    .orderBy('t.address')
    .limit(limit)
    .execute();
}

/** Caches what the metadata fetcher got for a token: the document, or why there is none (replacing an older entry). */
export async function cacheMetadataDocument(db: Kysely<ChainDatabase>, row: Insertable<AddressMetadataTable>): Promise<void> {
  await withDomainTables<TokenTables>(db)
    .insertInto('address_metadata')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['address', 'type']).doUpdateSet((eb) => ({
        uri: eb.ref('excluded.uri'),
        valid: eb.ref('excluded.valid'),
        refused: eb.ref('excluded.refused'),
        name: eb.ref('excluded.name'),
        symbol: eb.ref('excluded.symbol'),
        description: eb.ref('excluded.description'),
        image: eb.ref('excluded.image'),
        extra: eb.ref('excluded.extra'),
        error: eb.ref('excluded.error'),
        updated_at: eb.ref('excluded.updated_at'),
        expires_at: eb.ref('excluded.expires_at'),
      })),
    )
    .execute();
}
