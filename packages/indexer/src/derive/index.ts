import { domainDerivations, INDEX_DOMAINS, type AnyIndexDomain, type BlockDerivation } from '@tongate/read-model';

/**
 * Data derived from the chain rows of each masterchain block (traces and actions, jetton and NFT state, DNS
 * records, vesting wallets, validator elections, pools, …). The derivation interface is the read model's
 * (`BlockDerivation`, its block.ts), and each domain declared whole there (`INDEX_DOMAINS`) brings its own.
 */
export type { BlockDerivation, DerivationContext } from '@tongate/read-model';

/**
 * The derivations the indexer runs unless told otherwise, in order (a later one may read an earlier one's rows):
 * those of `domains`, the registered index domains unless told otherwise.
 */
export function defaultDerivations(domains: readonly AnyIndexDomain[] = INDEX_DOMAINS): BlockDerivation[] {
  return domainDerivations(domains);
}
