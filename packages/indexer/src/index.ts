export { Indexer, type IndexerLogger, type IndexerOptions, type IndexerStatus } from './indexer.js';
export { collectMcBlock, newShardBlocks, shardsOverlap, type McBlockBatch } from './collect.js';
export { prepareDerivations, readCursor, writeMcBlock, type Cursor, type DerivedWrites, type StageTimings } from './writer.js';
export { defaultDerivations, type BlockDerivation, type DerivationContext } from './derive/index.js';
export { traceDerivation, assembleTraces, type TraceDerivationOptions } from './derive/traces.js';
export { describeTransaction, rawAddress, transactionRows, type TransactionRows } from './rows.js';
export { actionRows, type ActionRows, type ClassifiedTrace } from './derive/trace-classify.js';
export { MetadataFetcher, MetadataFetchError, documentFields, fetchUrl, type MetadataFetcherOptions } from './metadata-fetcher.js';
export { formatMessage, formatTransaction, selected, selectedMessages, storedWire, wireAccountState, WIRE_VERSION, MSG_INT64, MSG_JSON, TX_INT64, TX_JSON, type StoredWire, type WireMessageRow, type WireStateRow, type WireTransactionRow } from './wire.js';
