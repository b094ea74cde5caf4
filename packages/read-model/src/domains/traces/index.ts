/**
 * The traces domain: traces (the tree of transactions one root transaction caused) and their classified actions
 * (`GET /api/v3/traces`, `/events`, `/actions`): its tables (tables.ts), the derivation that assembles each block's
 * transactions into traces and classifies the complete ones through @tongate/actions (derive.ts, classify.ts), and
 * the operations that read them (traces.ts, actions.ts). The /traces item and action shapes serve the emulated
 * (pending) traces too, and its readers (readers.ts) the trace ids of every transactions reply, the token events'
 * and the stream's traces.
 */
import type { Kysely } from 'kysely';
import { indexDomain } from '../../index-domain.js';
import { actionOperations, type ActionOperations } from './actions.js';
import type { TracesDb } from './classify.js';
import { traceDerivation } from './derive.js';
import { traceMigrations, type TracesTables } from './tables.js';
import { traceOperations, type TraceOperations } from './traces.js';

export type TracesDomainOperations = TraceOperations & ActionOperations;

export function tracesDomainOperations(db: Kysely<TracesDb>, testnet: boolean): TracesDomainOperations {
  return { ...traceOperations(db, testnet), ...actionOperations(db, testnet) };
}

export const tracesDomain = indexDomain<TracesTables>()({
  name: 'traces',
  migrations: traceMigrations,
  derivation: () => traceDerivation(),
  operations: tracesDomainOperations,
});

export { actionRows, type ActionRows, type ClassifiedTrace, type TracesDb } from './classify.js';
export * from './actions.js';
export * from './derive.js';
export * from './readers.js';
export * from './tables.js';
export * from './traces.js';
