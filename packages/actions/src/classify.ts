import { type ActionDraft, type Matcher, type MatchContext, finishDraft } from './core.js';
import { basicMatcher, failedWalletRequestMatcher, tickTockMatcher } from './matchers/basic.js';
import { cocoonMatcher } from './matchers/cocoon.js';
import { coffeeServicesMatcher } from './matchers/coffee.js';
import { evaaMatcher } from './matchers/evaa.js';
import { coffeeLiquidityMatcher } from './matchers/liquidity-coffee.js';
import { dedustLiquidityMatcher } from './matchers/liquidity-dedust.js';
import { toncoLiquidityMatcher } from './matchers/liquidity-tonco.js';
import { jettonMatcher } from './matchers/jettons.js';
import { jvaultMatcher } from './matchers/jvault.js';
import { multisigMatcher } from './matchers/multisig.js';
import { layerzeroMatcher } from './matchers/layerzero.js';
import { nftMatcher, nftMintAndBidMatcher } from './matchers/nft.js';
import { marketplaceMatcher } from './matchers/marketplace.js';
import { dnsMatcher } from './matchers/dns.js';
import { electionsMatcher } from './matchers/elections.js';
import { singleNominatorMatcher, stakingMatcher } from './matchers/staking.js';
import { subscriptionsMatcher } from './matchers/subscriptions.js';
import { swapMatcher } from './matchers/swaps.js';
import { vestingMatcher } from './matchers/vesting.js';
import { tgbtcMatcher } from './matchers/tgbtc.js';
import { buildTree, type TraceNode } from './tree.js';
import type { ClassifiedAction, TraceInput } from './types.js';

/**
 * Bumped whenever a change to the matchers can change the output for a trace already classified: the indexer
 * stores the version beside each trace's actions and re-classifies traces of older versions.
 */
export const CLASSIFIER_VERSION = 3;

/**
 * Protocol matchers, most specific first: a flow claimed by a protocol matcher is not claimed again by the generic
 * jetton/NFT matchers, and what nobody claims ends as plain transfers and contract calls.
 */
export const MATCHERS: readonly Matcher[] = [
  cocoonMatcher,
  tgbtcMatcher,
  layerzeroMatcher,
  evaaMatcher,
  jvaultMatcher,
  vestingMatcher,
  multisigMatcher,
  stakingMatcher,
  singleNominatorMatcher,
  marketplaceMatcher,
  nftMatcher,
  swapMatcher,
  dedustLiquidityMatcher,
  toncoLiquidityMatcher,
  coffeeLiquidityMatcher,
  electionsMatcher,
  dnsMatcher,
  subscriptionsMatcher,
  coffeeServicesMatcher,
  jettonMatcher,
  nftMintAndBidMatcher,
  failedWalletRequestMatcher,
  tickTockMatcher,
  basicMatcher,
];

/** Classifies one complete trace into actions (top-level and nested), in the classifier's own form. */
export function classifyTrace(input: TraceInput, matchers: readonly Matcher[] = MATCHERS): ClassifiedAction[] {
  const tree = buildTree(input);
  const ctx: MatchContext = { tree, claimed: new Set<TraceNode>() };
  const accepted: ActionDraft[] = [];
  for (const matcher of matchers) {
    for (const draft of matcher.match(ctx)) {
      // contract_deploy shares its node with the transfer/call that deployed it
      if (draft.type !== 'contract_deploy' && draft.nodes.some((n) => ctx.claimed.has(n))) continue;
      for (const n of draft.nodes) ctx.claimed.add(n);
      accepted.push(draft);
    }
  }
  const actions = accepted.flatMap((d) => finishDraft(tree, d, null));
  actions.sort((a, b) => (BigInt(a.start_lt) < BigInt(b.start_lt) ? -1 : BigInt(a.start_lt) > BigInt(b.start_lt) ? 1 : 0));
  return actions;
}
