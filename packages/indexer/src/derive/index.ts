import { domainDerivations, INDEX_DOMAINS, type AnyIndexDomain, type BlockDerivation } from '@tongate/read-model';
import { traceDerivation } from './traces.js';

/**
 * Data derived from the chain rows of each masterchain block (traces and actions, jetton and NFT state, DNS
 * records, vesting wallets, validator elections, pools, …). The derivation interface is the read model's
 * (`BlockDerivation`, its block.ts), so that a domain declared whole there (`INDEX_DOMAINS`) brings its own; traces
 * and actions, whose tables the store declares, are derived in this folder (traces.ts, trace-classify.ts) and run
 * first in `defaultDerivations`.
 */
export type { BlockDerivation, DerivationContext } from '@tongate/read-model';

/**
 * The derivations the indexer runs unless told otherwise, in order (a later one may read an earlier one's rows): this
 * folder's, then those of `domains` (the registered index domains unless told otherwise).
 */
export function defaultDerivations(domains: readonly AnyIndexDomain[] = INDEX_DOMAINS): BlockDerivation[] {
  return [traceDerivation(), ...domainDerivations(domains)];
}
