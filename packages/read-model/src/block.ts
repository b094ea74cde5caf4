import type { Address } from '@ton/core';
import type { ChainSource } from '@tongate/chain';
import type { BlocksTable, ChainDatabase, ShardStateTable } from '@tongate/store';
import type { Insertable, Kysely, Transaction } from 'kysely';
import type { AccountStateRow, ContentRow, LatestAccountStateRow, MessageRow, TransactionRow } from './rows.js';

/**
 * The seam between the indexer (which collects blocks and runs derivations in its transactions) and what derives
 * data from them: declared here, below both the indexer and the index domains (`domains/`), so that a domain's
 * derivation is written without importing the indexer.
 */

/** Everything one masterchain block adds to the chain tables; written in one database transaction. */
export interface McBlockBatch {
  mcSeqno: number;
  genUtime: number;
  blocks: Insertable<BlocksTable>[];
  /** The shard tops of this masterchain block (the next block's walk stops at them). */
  shardState: Insertable<ShardStateTable>[];
  transactions: TransactionRow[];
  messages: MessageRow[];
  contents: ContentRow[];
  accountStates: AccountStateRow[];
  latestAccountStates: LatestAccountStateRow[];
}

/** What a derivation may use besides the block: the chain it came from (get-methods, config). */
export interface DerivationContext {
  chain: ChainSource;
  /** The network's `.ton` collection when the operator names it (`TONGATE_<NETWORK>_DNS_COLLECTION`); otherwise it
   * is read from the chain (config param 4 → root resolver, see dns-trust.ts). */
  tonDnsCollection?: Address;
}

/**
 * Data derived from the chain rows of each masterchain block (traces and actions, jetton and NFT state, DNS
 * records, validator elections, vesting wallets, …), over the tables `DB` names.
 *
 * `prepare` runs after the block is read from the chain and before its database transaction: slow work (get-methods,
 * decoding) goes there, and it may read the index as of the previous block. The derivations' prepares run at the
 * same time, so one must not depend on another's prepare. `write` runs inside the block's database
 * transaction, after the chain rows, so derived rows commit or roll back with the block and the cursor: a crash
 * never leaves a block without its derived rows, nor derived rows twice.
 */
export interface BlockDerivation<Prepared = unknown, DB = ChainDatabase> {
  /** Short domain name, used in logs and metrics. */
  readonly name: string;
  prepare?(batch: McBlockBatch, db: Kysely<DB>, ctx: DerivationContext): Promise<Prepared>;
  write(trx: Transaction<DB>, batch: McBlockBatch, prepared: Prepared, ctx: DerivationContext): Promise<void>;
}

type LatestState = McBlockBatch['latestAccountStates'][number];

/** Get-method ids an active account's code defines (the row's contract_methods); empty for any other account. */
export function activeMethodIds(state: LatestState): Set<number> {
  if (state.account_status !== 'active' || !state.contract_methods) return new Set();
  const ids = JSON.parse(state.contract_methods as string) as number[] | null;
  return new Set(Array.isArray(ids) ? ids : []);
}

/** The newest state of each account the block changed (a batch may hold an account more than once). */
export function newestStates(batch: McBlockBatch): LatestState[] {
  return [...new Map(batch.latestAccountStates.map((s) => [s.account, s])).values()];
}
