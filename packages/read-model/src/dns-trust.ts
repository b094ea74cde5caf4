import type { Address } from '@ton/core';
import type { ChainSource } from '@tongate/chain';
import {
  dnsCollectionItemCode,
  rootResolveTonArgs,
  rootResolverFromConfig4,
  tonCollectionFromRootResolve,
  type TrustedDnsCollection,
} from '@tongate/contracts';
import type { DerivationContext } from './block.js';

/**
 * The network's trusted `.ton` collection and the item code it deploys, read from the chain itself (by the indexer's
 * derivations, and by the API for the traces it emulates): config param 4
 * names the root DNS resolver, whose `dnsresolve("ton\0", dns_next_resolver)` names the collection; the collection's
 * data holds its item code. Every `.ton` item is checked against it (`isGenuineDnsItem`): anyone can deploy the item
 * code with made-up data, only the collection's own items count.
 *
 * Kept per chain (one per network) and keyed by param 4's cell hash (read at every block, as the validators
 * derivation does), so a new root resolver is followed from the block that installs it. The operator's override
 * (`TONGATE_<NETWORK>_DNS_COLLECTION`) replaces the root resolver's answer. A chain without a working root resolver
 * or collection gives null: no item is trusted (fail closed); it is asked again a minute later.
 */
const RETRY_UNRESOLVED_MS = 60_000;
const resolved = new WeakMap<
  ChainSource,
  { key: string; override: string | null; trusted: TrustedDnsCollection | null; at: number; mcSeqno: number }
>();

export async function trustedTonCollection(
  ctx: Pick<DerivationContext, 'chain' | 'tonDnsCollection'>,
  mcSeqno: number,
): Promise<TrustedDnsCollection | null> {
  const last = resolved.get(ctx.chain);
  // The derivations of one block ask once between them (unless one names an override the other does not).
  if (last && last.mcSeqno === mcSeqno && last.override === (ctx.tonDnsCollection?.toRawString() ?? null)) return last.trusted;
  const param4 = ctx.tonDnsCollection ? null : await ctx.chain.getConfigParam(4, mcSeqno);
  const key = ctx.tonDnsCollection ? `override:${ctx.tonDnsCollection.toRawString()}` : param4 ? param4.hash().toString('hex') : 'none';
  const known = resolved.get(ctx.chain);
  if (known && known.key === key && (known.trusted || Date.now() - known.at < RETRY_UNRESOLVED_MS)) {
    known.mcSeqno = mcSeqno;
    return known.trusted;
  }
  const trusted = await resolve(ctx.chain, ctx.tonDnsCollection ?? null, param4, mcSeqno);
  resolved.set(ctx.chain, { key, override: ctx.tonDnsCollection?.toRawString() ?? null, trusted, at: Date.now(), mcSeqno });
  return trusted;
}

async function resolve(
  chain: ChainSource,
  override: Address | null,
  param4: import('@ton/core').Cell | null,
  mcSeqno: number,
): Promise<TrustedDnsCollection | null> {
  let address = override;
  if (!address) {
    if (!param4) return null;
    let root: Address;
    try {
      root = rootResolverFromConfig4(param4);
    } catch {
      return null;
    }
    const result = await chain.runGetMethod(root, 'dnsresolve', rootResolveTonArgs(), mcSeqno);
    address = result.exitCode === 0 || result.exitCode === 1 ? tonCollectionFromRootResolve(result.stack) : null;
    if (!address) return null;
  }
  const state = await chain.getAccountState(address, mcSeqno);
  const itemCode = state.data ? dnsCollectionItemCode(state.data) : null;
  return itemCode ? { address, itemCodeHash: itemCode.hash(), itemCodeDepth: itemCode.depth() } : null;
}
