import { type ActionDraft, type Matcher, type MatchContext, finishDraft } from './core.js';
import { basicMatcher, failedWalletRequestMatcher, tickTockMatcher, unreceivedMessageMatcher } from './matchers/basic.js';
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
import { buildTree, normalizeAddress, type TraceNode } from './tree.js';
import type { ClassifiedAction, TraceInput } from './types.js';

/**
 * Bumped whenever a change to the matchers can change the output for a trace already classified: the indexer
 * stores the version beside each trace's actions and re-classifies traces of older versions.
 */
export const CLASSIFIER_VERSION = 5;

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
  unreceivedMessageMatcher,
  tickTockMatcher,
  basicMatcher,
];

/** Classifies one complete trace into actions (top-level and nested), in the classifier's own form. */
export function classifyTrace(input: TraceInput, matchers: readonly Matcher[] = MATCHERS): ClassifiedAction[] {
  const tree = buildTree(input);
  const ctx: MatchContext = { tree, claimed: new Set<TraceNode>() };
  const accepted: ActionDraft[] = [];
  for (const matcher of matchers) {
    // the ghosts of one request (each message it asked for) share the request's transaction
    const ghostsOf = new Set<TraceNode>();
    for (const draft of matcher.match(ctx)) {
      const shared = draft.ghost ? (n: TraceNode) => ctx.claimed.has(n) && !ghostsOf.has(n) : (n: TraceNode) => ctx.claimed.has(n);
      // contract_deploy shares its node with the transfer/call that deployed it
      if (draft.type !== 'contract_deploy' && draft.nodes.some(shared)) continue;
      for (const n of draft.nodes) {
        if (draft.ghost && !ctx.claimed.has(n)) ghostsOf.add(n);
        ctx.claimed.add(n);
      }
      accepted.push(draft);
    }
  }
  const actions = accepted.flatMap((d) => finishDraft(tree, d, null));
  if (actions.length === 0) return unknownAction(input);
  actions.sort((a, b) => (BigInt(a.start_lt) < BigInt(b.start_lt) ? -1 : BigInt(a.start_lt) > BigInt(b.start_lt) ? 1 : 0));
  return actions;
}

/**
 * The reference answers a trace it classifies into nothing (an external request whose wallet sent no message and
 * that no other rule reads) with one `unknown` action spanning the whole trace, keyed by the trace id rather than a
 * message hash. A lone tick-tock transaction is the exception: the reference stores no action for it at all, and
 * here it is a `tick_tock` action, so it never reaches this point.
 */
function unknownAction(input: TraceInput): ClassifiedAction[] {
  const { trace, transactions } = input;
  if (transactions.length === 0) return [];
  return [
    {
      action_id: trace.trace_id,
      type: 'unknown',
      trace_id: trace.trace_id,
      tx_hashes: transactions.map((t) => t.hash),
      accounts: [...new Set(transactions.map((t) => normalizeAddress(t.account)))],
      start_lt: String(trace.start_lt),
      end_lt: String(trace.end_lt),
      start_utime: trace.start_utime,
      end_utime: trace.end_utime,
      success: !transactions.some((t) => t.aborted),
      mc_seqno_end: trace.mc_seqno_end,
      trace_end_lt: String(trace.end_lt),
      trace_end_utime: trace.end_utime,
      trace_mc_seqno_end: trace.mc_seqno_end,
      trace_external_hash: trace.external_hash ?? null,
      trace_external_hash_norm: trace.external_hash_norm ?? null,
      ancestor_type: null,
      parent_action_id: null,
    },
  ];
}
