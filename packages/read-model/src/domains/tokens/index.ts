/**
 * The tokens domain: jettons (TEP-74) and NFTs (TEP-62/64/66), their transfers and burns, and token metadata
 * (`GET /api/v3/jetton/*`, `/nft/*`, `/metadata`): its tables (tables.ts), the derivation that fills them from the
 * token contracts each block touches (derive.ts), and the operations that read them (jettons.ts, nfts.ts,
 * metadata.ts, over the event lists of events.ts). Its readers of NFT items (`readNftItems`) and token metadata
 * (`tokenMetadata`) serve the replies of other domains that attach them.
 */
import type { Kysely } from 'kysely';
import { indexDomain, type IndexTables } from '../../index-domain.js';
import { tokensDerivation } from './derive.js';
import { jettonOperations, type JettonOperations } from './jettons.js';
import { metadataOperations, type MetadataOperations } from './metadata.js';
import { nftOperations, type NftOperations } from './nfts.js';
import { tokenMigrations, type TokenTables } from './tables.js';

export type TokenOperations = JettonOperations & NftOperations & MetadataOperations;

export function tokenOperations(db: Kysely<IndexTables<TokenTables>>, testnet: boolean): TokenOperations {
  return { ...jettonOperations(db, testnet), ...nftOperations(db, testnet), ...metadataOperations(db) };
}

export const tokensDomain = indexDomain<TokenTables>()({
  name: 'tokens',
  migrations: tokenMigrations,
  derivation: tokensDerivation,
  operations: tokenOperations,
});

export * from './derive.js';
export * from './jettons.js';
export * from './metadata.js';
export * from './nfts.js';
export * from './tables.js';
