import { type ActionDraft, opcodeMatcher, flowDraft, type MatchContext, iface, jettonOfWallet, nodeSet } from '../core.js';
import { COFFEE, OP } from '../opcodes.js';
import { bodyCell, bodySlice, childWithOp, descendants, logsWithOp, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import { decodeJettonNotify, decodeJettonTransfer } from './jettons.js';
import { coffeeAsset, coinsStr, loadAddress, tryDecode, uintStr } from '../decode.js';
import { Cell, type Slice } from '@ton/core';
import type { RawAddress } from '../types.js';

/**
 * Coffee (swap.coffee) beside its swaps: MEV-protected swaps holding the user's funds, jetton staking (deposit
 * minting a position NFT, withdrawal of a position, reward claims paid from the pool's jetton wallet), vault
 * creation and liquidity withdrawal.
 */
/**
 * MEV-protected swaps (messages/coffee.py). The reference names no MEV-protect contract (no interface, code hash or
 * get-method), so each message is read by its exact layout in the two flows the reference's matchers accept: a TON call
 * with that body, or a TEP-74 jetton transfer (transfer → internal transfer → notification) whose notification
 * carries that body as its forward payload.
 */

/** `mev_protect_hold_funds#6bc79e7e query_id:uint64`: nothing but the query id. */
function isHoldBody(cell: Cell | null | undefined): boolean {
  if (!cell || cell.bits.length !== 32 + 64 || cell.refs.length > 0) return false;
  return cell.beginParse().preloadUint(32) === COFFEE.MEV_PROTECT_HOLD_FUNDS;
}

/** What `loadAddress` gives for addr_std (anycast included); addr_none is null, an external address `bits;hex`. */
const INTERNAL_ADDRESS = /^-?\d+:[0-9A-F]{64}$/;

/**
 * `mev_protect_failed_swap#ee51ce51 query_id:uint64 recipient:MsgAddressInt`: the recipient when the cell is exactly
 * that (a standard internal address, nothing trailing), else null.
 */
function failedSwapRecipient(cell: Cell | null | undefined): RawAddress | null {
  if (!cell || cell.refs.length > 0) return null;
  return tryDecode(() => {
    const s = cell.beginParse();
    if (s.loadUint(32) !== COFFEE.MEV_PROTECT_FAILED_SWAP) return null;
    s.skip(64);
    const recipient = loadAddress(s);
    // addr_none and external addresses are no MsgAddressInt; anything after the address is another layout
    if (!recipient || !INTERNAL_ADDRESS.test(recipient) || s.remainingBits > 0 || s.remainingRefs > 0) return null;
    return recipient;
  });
}

/** The body of a TON call with that opcode; a bounce is the call coming back, not the request. */
function tonCall(node: TraceNode, op: number): Cell | null {
  if (node.op !== op || node.inMsg?.bounced) return null;
  return bodyCell(node.inMsg) ?? null;
}

/**
 * A notification ending a TEP-74 transfer (the request at the sender's wallet, the wallets' internal transfer, the
 * notification), with the payload it forwards.
 */
function jettonTransferTo(node: TraceNode) {
  const note = node.op === OP.JETTON_NOTIFY ? decodeJettonNotify(node) : null;
  const internal = node.parent;
  const transfer = internal?.op === OP.JETTON_INTERNAL_TRANSFER ? internal.parent : null;
  if (!note || !internal || !transfer || transfer.op !== OP.JETTON_TRANSFER) return null;
  return { note, internal, transfer, nodes: [transfer, internal, childWithOp(internal, OP.EXCESS), node] };
}

function serviceFee(node: TraceNode): TraceNode | undefined {
  return node.parent?.children.find((c) => c !== node && c.op === COFFEE.SERVICE_FEE && !c.inMsg?.bounced);
}

/**
 * The hold (`CoffeeMevProtectHoldFundsMatcher`): the `service_fee#c0ffeea0` the same transaction sent beside it (the
 * reference's optional parent match) belongs to it.
 */
function mevHold(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  if (node.op === COFFEE.MEV_PROTECT_HOLD_FUNDS) {
    if (!isHoldBody(tonCall(node, COFFEE.MEV_PROTECT_HOLD_FUNDS))) return null;
    return {
      type: 'coffee_mev_protect_hold_funds',
      nodes: nodeSet(node, serviceFee(node)),
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
  // jettons held: the transfer's notification carries the hold request as its payload
  const jettons = jettonTransferTo(node);
  if (!jettons || !isHoldBody(jettons.note.forward_payload)) return null;
  const { note, internal, transfer } = jettons;
  return {
    type: 'coffee_mev_protect_hold_funds',
    nodes: nodeSet(...jettons.nodes, serviceFee(transfer)),
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

/**
 * The failed swap (`CoffeeMevProtectFailedSwapMatcher`): no parent or child belongs to it (the reference matches
 * none). The serializer's filler stores only `destination` = the recipient and `asset` (null for TON, the jetton of
 * the transfer); the reference never marks the block failed (it is built without a failure flag and merging the
 * call or transfer does not carry theirs), so it is always successful.
 */
function mevFailedSwap(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  const failed = (recipient: RawAddress, nodes: (TraceNode | undefined)[], asset: RawAddress | null): ActionDraft => ({
    type: 'coffee_mev_protect_failed_swap',
    nodes: nodeSet(...nodes),
    success: true,
    fields: {
      source: null,
      source_secondary: null,
      destination: recipient,
      destination_secondary: null,
      asset,
      amount: null,
    },
  });
  if (node.op === COFFEE.MEV_PROTECT_FAILED_SWAP) {
    const recipient = failedSwapRecipient(tonCall(node, COFFEE.MEV_PROTECT_FAILED_SWAP));
    return recipient ? failed(recipient, [node], null) : null;
  }
  const jettons = jettonTransferTo(node);
  const recipient = jettons && failedSwapRecipient(jettons.note.forward_payload);
  if (!jettons || !recipient) return null;
  const asset = jettonOfWallet(ctx, jettons.internal.account) ?? jettonOfWallet(ctx, jettons.transfer.account);
  return failed(recipient, jettons.nodes, asset);
}

/** staking deposit: jettons to the staking vault, which registers them at the pool; the pool mints a position NFT (required). */
function stakingDeposit(ctx: MatchContext, notify: TraceNode): ActionDraft | null {
  const deposit = childWithOp(notify, COFFEE.STAKING_DEPOSIT);
  const note = decodeJettonNotify(notify);
  const internal = notify.parent;
  const transfer = internal?.parent;
  const position = childWithOp(deposit, COFFEE.STAKING_INITIALIZE);
  // the reference's CoffeeStakingDepositMatcher requires the pool's NFT mint (the position's initialisation)
  if (!deposit || !note || !internal || transfer?.op !== OP.JETTON_TRANSFER || !position) return null;
  const item = iface(ctx, position.account).NftItem as { index?: number | string } | undefined;
  return flowDraft('coffee_staking_deposit', [transfer, internal, childWithOp(internal, OP.EXCESS), notify, deposit, position], {
    source: note.sender,
    source_secondary: transfer.account,
    destination: deposit.account,
    destination_secondary: internal.account,
    asset: jettonOfWallet(ctx, internal.account) ?? jettonOfWallet(ctx, transfer.account),
    amount: note.amount,
    coffee_staking_deposit_data: {
      minted_item_address: position.account,
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
  // the reference's CoffeeWithdrawLiquidityMatcher: the withdrawal event and both payouts, each one a vault's
  // payout_internal#c0ffee21 that pays out (jetton transfer, payout#c0ffee32 or notification#c0ffee36)
  const paid = notification?.children.filter(
    (c) =>
      c.op === COFFEE.PAYOUT_INTERNAL &&
      c.children.some((o) => o.op === OP.JETTON_TRANSFER || o.op === COFFEE.PAYOUT || o.op === COFFEE.NOTIFICATION),
  );
  if (!notification || !event || !paid || paid.length < 2) return null;
  const payouts = paid
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

/**
 * Staking position withdrawal, three legs of staking_position_withdraw#cb03bfaf: the owner's request to the
 * position NFT (query_id), the position to the staking master (`query_id nft_id:uint64 owner points:Coins
 * ^[wallet amount:Coins]`), the master to its payer (`query_id jetton_wallet jetton_amount:Coins owner`), which
 * sends the jettons from the master's jetton wallet. Each leg must come from the contract the previous one
 * addressed, and the payout must leave the jetton wallet the last leg names.
 */
function stakingWithdraw(ctx: MatchContext, position: TraceNode): ActionDraft | null {
  const leg = (n: TraceNode | undefined, read: (s: Slice) => unknown) =>
    n && tryDecode(() => ((s) => (s.skip(32 + 64), read(s)))(bodySlice(n)!));
  const toMaster = position.children.find((c) => c.op === COFFEE.STAKING_POSITION_WITHDRAW);
  const second = leg(toMaster, (s) => {
    const nft_id = uintStr(s, 64);
    const owner = loadAddress(s);
    return { nft_id, owner, points: coinsStr(s) };
  }) as { nft_id: string; owner: string | null; points: string } | null;
  const toPayer = toMaster?.children.find((c) => c.op === COFFEE.STAKING_POSITION_WITHDRAW && c.inMsg?.destination);
  const third = leg(toPayer, (s) => ({ wallet: loadAddress(s), amount: coinsStr(s), owner: loadAddress(s) })) as {
    wallet: string | null;
    amount: string;
    owner: string | null;
  } | null;
  const payout = toPayer?.children.find((c) => c.op === OP.JETTON_TRANSFER && c.account === third?.wallet);
  if (!toMaster || !second || !toPayer || !third || !payout || third.owner !== second.owner) return null;
  const internal = childWithOp(payout, OP.JETTON_INTERNAL_TRANSFER);
  return flowDraft('coffee_staking_withdraw', [...subtree(position)], {
    source: second.owner,
    source_secondary: internal?.account ?? null,
    destination: toMaster.account,
    destination_secondary: payout.account,
    asset: jettonOfWallet(ctx, payout.account) ?? jettonOfWallet(ctx, internal?.account),
    amount: third.amount,
    coffee_staking_withdraw_data: { nft_address: position.account, nft_index: second.nft_id, points: second.points },
  });
}

/**
 * create_vault#c0ffee06 (`query_id asset:Asset`) to the factory, which deploys the asset's vault
 * (deploy#c0ffee22): the vault is the deployed contract.
 */
function createVault(_ctx: MatchContext, factory: TraceNode): ActionDraft | null {
  const asset = tryDecode(() => {
    const s = bodySlice(factory)!;
    s.skip(32 + 64);
    return { id: coffeeAsset(s) };
  });
  const deploy = childWithOp(factory, COFFEE.DEPLOY);
  if (!asset || !deploy) return null;
  return flowDraft('coffee_create_vault', [...subtree(factory)], {
    source: normalizeAddress(factory.inMsg?.source),
    destination: deploy.account,
    asset: asset.id,
    value: null,
  });
}

export const coffeeServicesMatcher = opcodeMatcher('coffee-services', [
  [COFFEE.STAKING_POSITION_WITHDRAW, stakingWithdraw],
  [COFFEE.CREATE_VAULT, createVault],
  [COFFEE.MEV_PROTECT_HOLD_FUNDS, mevHold],
  [COFFEE.MEV_PROTECT_FAILED_SWAP, mevFailedSwap],
  [COFFEE.STAKING_CLAIM_REWARDS, claimRewards],
  [OP.JETTON_BURN, withdrawLiquidity],
  [OP.JETTON_NOTIFY, stakingDeposit],
  [OP.JETTON_NOTIFY, mevHold],
  [OP.JETTON_NOTIFY, mevFailedSwap],
]);
