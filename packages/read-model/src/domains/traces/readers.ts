import type { ChainDatabase } from '@tongate/store';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { withDomainTables } from '../../index-domain.js';
import type { TracesTables } from './tables.js';

/**
 * What the replies of others read of the traces domain: the trace of each transaction (every transactions reply,
 * the token events) and the traces and actions of a block's transactions (the stream), each over a network's chain
 * tables.
 */

const traced = (db: Kysely<ChainDatabase>) => withDomainTables<TracesTables>(db);

/** The trace of each of these transactions (as the traces index has it; none for one it does not hold yet). */
export async function traceIds(db: Kysely<ChainDatabase>, txHashes: string[]): Promise<Map<string, string>> {
  if (txHashes.length === 0) return new Map();
  const rows = await traced(db).selectFrom('trace_transactions').select(['tx_hash', 'trace_id']).where('tx_hash', 'in', txHashes).execute();
  return new Map(rows.map((r) => [r.tx_hash, r.trace_id]));
}

/** The (tx_hash, trace_id) rows of the transactions `hashes` names, as a subquery of a reply's statement. */
export function traceIdsQuery(db: Kysely<ChainDatabase>, hashes: SelectQueryBuilder<any, any, { hash: string }>) {
  return traced(db).selectFrom('trace_transactions').select(['tx_hash', 'trace_id']).where('tx_hash', 'in', hashes);
}

/**
 * `q`, over a page of transactions named `p`, with the trace of each row joined as `t` (`t.trace_id`, null for a
 * transaction the traces index does not hold yet).
 */
export function joinTraceIds<Q extends SelectQueryBuilder<any, any, any>>(q: Q): Q {
  return (q as SelectQueryBuilder<any, any, any>).leftJoin('trace_transactions as t', 't.tx_hash', 'p.hash') as Q;
}

/** Of the traces `ids`, what a stream batch says of each: its normalized external hash, state and last block. */
export function traceStates(db: Kysely<ChainDatabase>, ids: string[]) {
  return traced(db)
    .selectFrom('traces')
    .select(['trace_id', 'external_hash_norm', 'state', 'mc_seqno_end'])
    .where('trace_id', 'in', ids)
    .execute();
}

/** The stored actions of the traces `ids` (`data`: the classifier's output for each). */
export function traceActions(db: Kysely<ChainDatabase>, ids: string[]) {
  return traced(db).selectFrom('actions').select(['trace_id', 'data']).where('trace_id', 'in', ids).execute();
}

/** A page of the transactions of the traces `ids`, at most `limit`, for transactionsReply. */
export function traceTransactionsPage(db: Kysely<ChainDatabase>, ids: string[], limit: number) {
  return db
    .selectFrom('transactions')
    .selectAll()
    .where('hash', 'in', traced(db).selectFrom('trace_transactions').select('tx_hash').where('trace_id', 'in', ids))
    .limit(limit);
}
