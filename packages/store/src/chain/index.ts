import type { Kysely, Migration } from 'kysely';
import { traceMigrations } from './traces.js';

/**
 * The chain tables of the domain beyond the core ones that the store declares, traces and actions: its table types
 * and migrations are in their own file here, listed in `DOMAIN_MIGRATIONS` and `ChainDatabase` (chain-schema.ts).
 * A domain declared whole in one module (`@tongate/read-model`, `src/domains/`) keeps its tables there instead, and
 * its migrations reach the store through `StoreOptions.chainMigrations`. Traces and actions are read beyond their
 * own operations (the stream, pending traces, the token events' trace ids), so they are not one module's to declare.
 *
 * Migration names are `<number>_<domain>_<what>`, with a number range per domain so that names sort in the order
 * they were written: 0001–0099 core, 0100 traces and actions, 0200 jettons and NFTs, 0300 DNS, multisig, vesting and
 * metadata, 0400 validators, 0500 nominator pools, 0600 sales and auctions, 0700 pending. A database migrated
 * before a domain existed takes that domain's migrations later (the migrator allows that order).
 */

/** Runs DDL statements in order, `$S` standing for the network's schema. */
export type DdlRunner = (db: Kysely<unknown>, statements: string[]) => Promise<unknown>;

export type DomainMigrations = (run: DdlRunner) => Record<string, Migration>;

export const DOMAIN_MIGRATIONS: DomainMigrations[] = [traceMigrations];
