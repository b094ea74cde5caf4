export { Indexer, type IndexerLogger, type IndexerOptions, type IndexerStatus } from './indexer.js';
export { collectMcBlock, newShardBlocks, shardsOverlap, type McBlockBatch } from './collect.js';
export { readCursor, writeMcBlock, type Cursor } from './writer.js';
export { describeTransaction, rawAddress } from './rows.js';
