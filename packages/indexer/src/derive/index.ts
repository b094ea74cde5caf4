import type { ChainSource } from '@tongate/chain';
import type { ChainDatabase } from '@tongate/store';
import type { Transaction } from 'kysely';
import type { McBlockBatch } from '../collect.js';
import { traceDerivation } from './traces.js';
import { dnsDerivation } from './dns.js';
import { vestingDerivation } from './vesting.js';
import { multisigDerivation } from './multisig.js';
import { poolsDerivation } from './pools.js';
import { salesDerivation } from './sales.js';
import { tokensDerivation } from './tokens.js';
import { validatorsDerivation } from './validators.js';

/** What a derivation may use besides the block: the chain it came from (get-methods, config). */
export interface DerivationContext {
  chain: ChainSource;
  /** The network's `.ton` collection when the operator names it (`TONGATE_<NETWORK>_DNS_COLLECTION`); otherwise it
   * is read from the chain (config param 4 → root resolver, see dns-trust.ts). */
  tonDnsCollection?: import('@ton/core').Address;
}

/**
 * Data derived from the chain rows of each masterchain block (traces and actions, jetton and NFT state, DNS
 * records, validator elections, pools, …). One module per domain in this folder, listed in `defaultDerivations`.
 *
 * `prepare` runs after the block is read from the chain and before its database transaction: slow work (get-methods,
 * decoding) goes there, and it may read the index as of the previous block. The derivations' prepares run at the
 * same time, so one must not depend on another's prepare. `write` runs inside the block's database
 * transaction, after the chain rows, so derived rows commit or roll back with the block and the cursor: a crash
 * never leaves a block without its derived rows, nor derived rows twice.
 */
export interface BlockDerivation<Prepared = unknown> {
  /** Short domain name, used in logs and metrics. */
  readonly name: string;
  prepare?(batch: McBlockBatch, db: import('kysely').Kysely<ChainDatabase>, ctx: DerivationContext): Promise<Prepared>;
  write(trx: Transaction<ChainDatabase>, batch: McBlockBatch, prepared: Prepared, ctx: DerivationContext): Promise<void>;
}

/** The derivations the indexer runs unless told otherwise, in order (a later one may read an earlier one's rows). */
export function defaultDerivations(): BlockDerivation[] {
  return [
    traceDerivation(),
    tokensDerivation(),
    salesDerivation,
    dnsDerivation(),
    vestingDerivation(),
    multisigDerivation(),
    validatorsDerivation() as BlockDerivation,
    poolsDerivation() as BlockDerivation,
  ];
}
