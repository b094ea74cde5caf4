import { type ActionDraft, opcodeMatcher, flowDraft, type MatchContext, iface, jettonOfWallet, nodeSet } from '../core.js';
import { COFFEE, OP } from '../opcodes.js';
import { bodyCell, childWithOp, descendants, logsWithOp, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import { decodeJettonNotify, decodeJettonTransfer } from './jettons.js';
import { coinsStr, tryDecode } from '../decode.js';
import { Cell } from '@ton/core';

/**
 * Coffee (swap.coffee) beside its swaps: MEV-protected swaps holding the user's funds, jetton staking (deposit
 * minting a position NFT, reward claims paid from the pool's jetton wallet) and liquidity withdrawal.
 */
function mevHold(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  if (node.op === COFFEE.MEV_PROTECT_HOLD_FUNDS) {
    return {
      type: 'coffee_mev_protect_hold_funds',
      nodes: [node],
      success: !txFailed(node),
      fields: {
        source: normalizeAddress(node.inMsg?.source),
        destination: node.account,
        source_secondary: null,
        destination_secondary: null,
        asset: null,
        amount: String(node.inMsg?.value ?? 0),
      },
    };
  }
  // jettons held: the notification carries the hold request as its payload
  const note = node.op === OP.JETTON_NOTIFY ? decodeJettonNotify(node) : null;
  const payloadOp = note?.forward_payload && tryDecode(() => note.forward_payload!.beginParse().preloadUint(32));
  const internal = node.parent;
  const transfer = internal?.parent;
  if (!note || payloadOp !== COFFEE.MEV_PROTECT_HOLD_FUNDS || !internal || !transfer) return null;
  return {
    type: 'coffee_mev_protect_hold_funds',
    nodes: nodeSet(transfer, internal, childWithOp(internal, OP.EXCESS), node),
    success: !txFailed(node) && !txFailed(internal),
    fields: {
      source: note.sender,
      source_secondary: transfer.account,
      destination: node.account,
      destination_secondary: internal.account,
      asset: jettonOfWallet(ctx, internal.account) ?? jettonOfWallet(ctx, transfer.account),
      amount: note.amount,
    },
  };
}

/** staking deposit: jettons to the staking vault, which registers them at the pool; the pool mints a position NFT. */
function stakingDeposit(ctx: MatchContext, notify: TraceNode): ActionDraft | null {
  const deposit = childWithOp(notify, COFFEE.STAKING_DEPOSIT);
  const note = decodeJettonNotify(notify);
  const internal = notify.parent;
  const transfer = internal?.parent;
  if (!deposit || !note || !internal || transfer?.op !== OP.JETTON_TRANSFER) return null;
  const position = childWithOp(deposit, COFFEE.STAKING_INITIALIZE);
  const item = iface(ctx, position?.account).NftItem as { index?: number | string } | undefined;
  return flowDraft('coffee_staking_deposit', [transfer, internal, childWithOp(internal, OP.EXCESS), notify, deposit, position], {
    source: note.sender,
    source_secondary: transfer.account,
    destination: deposit.account,
    destination_secondary: internal.account,
    asset: jettonOfWallet(ctx, internal.account) ?? jettonOfWallet(ctx, transfer.account),
    amount: note.amount,
    coffee_staking_deposit_data: {
      minted_item_address: position?.account ?? null,
      minted_item_index: item?.index != null ? String(item.index) : null,
    },
  });
}

/** reward claim: the pool pays the rewards from its jetton wallet. */
function claimRewards(ctx: MatchContext, claim: TraceNode): ActionDraft | null {
  const payout = claim.children.find((c) => c.op === OP.JETTON_TRANSFER);
  const req = payout && decodeJettonTransfer(bodyCell(payout.inMsg));
  if (!payout || !req) return null;
  const internal = childWithOp(payout, OP.JETTON_INTERNAL_TRANSFER);
  return flowDraft('coffee_staking_claim_rewards', [claim, payout, ...(internal ? [internal, ...descendants(internal)] : [])], {
    source: claim.account,
    source_secondary: payout.account,
    destination: req.destination,
    destination_secondary: internal?.account ?? null,
    asset: jettonOfWallet(ctx, payout.account) ?? jettonOfWallet(ctx, internal?.account),
    amount: req.amount,
  });
}

/**
 * Liquidity withdrawal: LP jettons burnt, the pool (the LP master) reports the amounts (0xc0ffee35: query_id,
 * amount1, amount2, lp) and pays each asset out through its vault.
 */
function withdrawLiquidity(ctx: MatchContext, burn: TraceNode): ActionDraft | null {
  const notification = childWithOp(burn, OP.JETTON_BURN_NOTIFICATION);
  const log = notification && logsWithOp(notification, COFFEE.LIQUIDITY_WITHDRAWAL_EVENT)[0];
  const event = log?.body
    ? tryDecode(() => {
        const s = Cell.fromBase64(log.body!).beginParse();
        s.skip(32 + 64);
        return { amount1: coinsStr(s), amount2: coinsStr(s), lp: coinsStr(s) };
      })
    : null;
  if (!notification || !event) return null;
  const payouts = notification.children
    .filter((c) => c.op === COFFEE.PAYOUT_INTERNAL)
    .sort((a, b) => (BigInt(a.inMsg?.created_lt ?? 0) < BigInt(b.inMsg?.created_lt ?? 0) ? -1 : 1))
    .map((vault) => {
      const transfer = vault.children.find((c) => c.op === OP.JETTON_TRANSFER);
      const internal = childWithOp(transfer, OP.JETTON_INTERNAL_TRANSFER);
      return {
        transfer,
        internal,
        asset: transfer ? (jettonOfWallet(ctx, transfer.account) ?? jettonOfWallet(ctx, internal?.account)) : null,
      };
    });
  // the reference lists the payout sent last as asset 1 and takes both amounts from the event
  const [first, second] = payouts.reverse();
  return flowDraft(
    'dex_withdraw_liquidity',
    [...subtree(burn)],
    {
      source: normalizeAddress(burn.inMsg?.source),
      source_secondary: burn.account,
      destination: notification.account,
      asset: notification.account,
      dex_withdraw_liquidity_data: {
        dex: 'coffee',
        lp_tokens_burnt: event.lp,
        is_refund: false,
        amount1: event.amount1,
        asset1_out: first?.asset ?? null,
        dex_wallet_1: notification.account,
        dex_jetton_wallet_1: first?.transfer?.account ?? null,
        user_jetton_wallet_1: first?.internal?.account ?? null,
        amount2: event.amount2,
        asset2_out: second?.asset ?? null,
        dex_wallet_2: notification.account,
        dex_jetton_wallet_2: second?.transfer?.account ?? null,
        user_jetton_wallet_2: second?.internal?.account ?? null,
      },
    },
    { btype: 'coffee_withdraw_liquidity' },
  );
}

export const coffeeServicesMatcher = opcodeMatcher('coffee-services', [
  [COFFEE.MEV_PROTECT_HOLD_FUNDS, mevHold],
  [COFFEE.STAKING_CLAIM_REWARDS, claimRewards],
  [OP.JETTON_BURN, withdrawLiquidity],
  [OP.JETTON_NOTIFY, stakingDeposit],
  [OP.JETTON_NOTIFY, mevHold],
]);
