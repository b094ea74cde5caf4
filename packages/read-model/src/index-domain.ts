import type { ChainDatabase, DomainMigrations } from '@tongate/store';
import type { Kysely } from 'kysely';
import type { BlockDerivation } from './block.js';

/** The store's chain tables together with a domain's own (they live in the same network schema). */
export type IndexTables<Tables> = ChainDatabase & Tables;

/**
 * A network's chain tables seen with a domain's own, which share its schema once `openIndexStore` has migrated them
 * (Kysely's `withTables` asks for a type with an index signature, which table interfaces do not have).
 */
export function withDomainTables<Tables>(db: Kysely<ChainDatabase>): Kysely<IndexTables<Tables>> {
  return db as unknown as Kysely<IndexTables<Tables>>;
}

/**
 * A v3 index domain, whole: its tables and their migrations, the derivation that fills them from each block, and
 * the v3 operations that read them. The indexer runs `derivation` (`domainDerivations`), handlers-v3 serves
 * `operations` (`domainOperations`) and the store applies `migrations` (`openIndexStore`), each by iterating over
 * one list, `INDEX_DOMAINS` (domains/index.ts). Every part is data or a function over interfaces this package and
 * the ones below it own, so both the writer and the reader can import the declaration.
 */
export interface IndexDomain<Tables = unknown, Operations = unknown, Prepared = unknown> {
  /** Short name of the domain; its derivation goes by the same name in logs and metrics. */
  readonly name: string;
  /**
   * Its tables' migrations, named `<number>_<domain>_<what>` in the number ranges of packages/store/src/chain-migrations.ts
   * (a name, once released, never changes: a database records the migrations it took by name).
   */
  readonly migrations: DomainMigrations;
  /** Fills its tables from each masterchain block; called once per indexer. */
  readonly derivation?: () => BlockDerivation<Prepared, IndexTables<Tables>>;
  /** Its v3 operations (handlers keyed by operationId) over its tables and the store's. */
  readonly operations?: (db: Kysely<IndexTables<Tables>>, testnet: boolean) => Operations;
}

/** Any domain, whatever its tables, operations and prepared data (`any`: a list holds each with its own tables). */
export type AnyIndexDomain = IndexDomain<any, unknown, any>;

/**
 * Declares a domain whose tables are `Tables`: `indexDomain<ThingTables>()({ name, migrations, derivation,
 * operations })`. The two calls let `Tables` be named while the operations and prepared types are inferred.
 */
export function indexDomain<Tables>() {
  return <Operations, Prepared>(domain: IndexDomain<Tables, Operations, Prepared>) => domain;
}

type OperationsOfOne<D> = D extends IndexDomain<infer _Tables, infer Operations, infer _Prepared> ? Operations : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The operations a list of domains serves together. */
export type OperationsOf<D extends readonly AnyIndexDomain[]> = Intersection<OperationsOfOne<D[number]>>;

/**
 * The derivations of `domains`, in their order, for the indexer: each over the store's chain tables, since a
 * domain's tables sit in the same schema (its own are known to it, and to the type, only).
 */
export function domainDerivations(domains: readonly AnyIndexDomain[]): BlockDerivation[] {
  return domains.flatMap((domain) => (domain.derivation ? [domain.derivation() as BlockDerivation] : []));
}

/** The operations of `domains` over a network's chain tables, for handlers-v3. */
export function domainOperations<const D extends readonly AnyIndexDomain[]>(
  domains: D,
  db: Kysely<ChainDatabase>,
  testnet: boolean,
): OperationsOf<D> {
  return Object.assign({}, ...domains.map((domain) => domain.operations?.(db, testnet) ?? {})) as OperationsOf<D>;
}
