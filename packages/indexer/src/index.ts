export { Indexer, type IndexerLogger, type IndexerOptions, type IndexerStatus } from './indexer.js';
export { collectChain, collectMcBlock, newShardBlocks, shardsOverlap, type McBlockBatch } from './collect.js';
export { prepareDerivations, readCursor, writeMcBlock, type Cursor, type DerivedWrites, type StageTimings } from './writer.js';
export { defaultDerivations, type BlockDerivation, type DerivationContext } from './derive/index.js';
export {
  MetadataFetcher,
  MetadataFetchError,
  documentFields,
  fetchUrl,
  type MetadataFetcherOptions,
  type MetadataFetchCounts,
} from './metadata-fetcher.js';
export { backfillWireBatch } from './wire-backfill.js';
