import {
  type ActionDraft,
  type Matcher,
  flowDraft,
  iface,
  isFree,
  opcodeMatcher,
  type MatchContext,
  jettonOfWallet,
  nodeSet,
} from '../core.js';
import { coinsStr, loadAddress, readComment, tryDecode, uintStr } from '../decode.js';
import { OP, STAKING } from '../opcodes.js';
import { ancestors, bodyCell, bodySlice, childWithOp, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import { decodeInternalTransfer } from './jettons.js';

/** The 1 TON fee tonstakers keeps from every deposit. */
const TONSTAKERS_DEPOSIT_FEE = 1_000_000_000n;

/** tonstakers deposit: TON to the pool, which mints tsTON to the staker. */
function tonstakersDeposit(node: TraceNode): ActionDraft | null {
  const mint = childWithOp(node, STAKING.TONSTAKERS_MINT_JETTONS);
  const internal = childWithOp(mint, OP.JETTON_INTERNAL_TRANSFER);
  const minted = decodeInternalTransfer(internal);
  const notify = childWithOp(internal, OP.JETTON_NOTIFY);
  const excess = childWithOp(internal, OP.EXCESS);
  const failed = txFailed(node) || !minted;
  return {
    type: 'stake_deposit',
    btype: 'tonstakers_deposit',
    nodes: nodeSet(node, mint, internal, notify, excess),
    success: !failed,
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      destination: node.account,
      source_secondary: failed ? null : (internal?.account ?? null),
      amount: (BigInt(node.inMsg?.value ?? 0) - TONSTAKERS_DEPOSIT_FEE).toString(),
      asset: mint?.account ?? null,
      staking_data: { provider: 'liquid_staking', tokens_minted: failed ? null : minted!.amount },
    },
  };
}

/**
 * tonstakers delayed withdrawal: the withdrawal NFT is burnt (0xf127fe4e), its notification (owner, amount) reaches
 * the pool's distributor, which pays the staker (0xdb3b8abd).
 */
function tonstakersWithdrawal(payout: TraceNode): ActionDraft | null {
  const notification = payout.parent;
  const burn = notification?.parent;
  if (notification?.op !== STAKING.TONSTAKERS_NFT_BURN_NOTIFICATION || burn?.op !== STAKING.TONSTAKERS_NFT_BURN) return null;
  const note = tryDecode(() => {
    const s = bodySlice(notification)!;
    s.skip(32 + 64);
    return { amount: coinsStr(s), owner: loadAddress(s) };
  });
  if (!note) return null;
  const start = [...ancestors(payout)].find((a) => a.op === STAKING.TONSTAKERS_START_DISTRIBUTION);
  return {
    type: 'stake_withdrawal',
    btype: 'tonstakers_withdraw',
    nodes: nodeSet(burn, notification, payout),
    success: !txFailed(payout),
    fields: {
      source: note.owner,
      destination: normalizeAddress(start?.inMsg?.source),
      amount: payout.inMsg?.value != null ? String(payout.inMsg.value) : null,
      asset: null,
      staking_data: { provider: 'liquid_staking', ts_nft: burn.account, tokens_burnt: note.amount },
    },
  };
}

/**
 * Ethena unstake request: USDe-side jettons sent to the staking contract, which mints and sends back a timelocked
 * transfer (0xb2583ed5) to the staker's wallet.
 */
function ethenaWithdrawalRequest(ctx: MatchContext, transfer: TraceNode): ActionDraft | null {
  const internal = childWithOp(transfer, OP.JETTON_INTERNAL_TRANSFER);
  const notify = childWithOp(internal, OP.JETTON_NOTIFY);
  const mint = childWithOp(notify, OP.JETTON_MINT);
  const timelocked = childWithOp(mint, STAKING.ETHENA_TIMELOCKED_TRANSFER);
  const sent = decodeInternalTransfer(internal);
  const locked = tryDecode(() => {
    const s = bodySlice(timelocked)!;
    s.skip(32);
    return { query_id: uintStr(s, 64), amount: coinsStr(s) };
  });
  if (!internal || !notify || !mint || !timelocked || !sent || !locked) return null;
  const excess = childWithOp(internal, OP.EXCESS);
  return flowDraft(
    'stake_withdrawal_request',
    [transfer, internal, notify, mint, timelocked, excess],
    {
      source: normalizeAddress(transfer.inMsg?.source),
      source_secondary: transfer.account,
      destination: notify.account,
      amount: sent.amount,
      asset: jettonOfWallet(ctx, transfer.account) ?? internal.account,
      staking_data: { provider: 'ethena', tokens_minted: locked.amount },
    },
    { btype: 'ethena_withdrawal_request' },
  );
}

/**
 * TON nominator pools take text commands: "d" deposits the attached TON, "w" asks for a withdrawal, paid at once
 * when the pool has the funds (the larger transfer back) or later.
 */
function nominatorPool(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  if (!iface(ctx, node.account).NominatorPool) return null;
  const command = readComment(bodyCell(node.inMsg))?.text;
  const stakeHolder = normalizeAddress(node.inMsg?.source);
  const value = BigInt(node.inMsg?.value ?? 0);
  const fields = { source: stakeHolder, destination: node.account, asset: null };
  if (command === 'd') {
    return {
      type: 'stake_deposit',
      btype: 'nominator_pool_deposit',
      nodes: [node],
      success: !txFailed(node),
      fields: { ...fields, amount: value.toString(), staking_data: { provider: 'nominator', tokens_minted: null } },
    };
  }
  if (command !== 'w') return null;
  const payouts = node.children.filter((c) => c.account === stakeHolder && (c.op === null || c.op === OP.TEXT_COMMENT));
  const payout = payouts.find((p) => BigInt(p.inMsg?.value ?? 0) > value);
  return {
    type: 'stake_withdrawal_request',
    btype: 'nominator_pool_withdraw_request',
    nodes: nodeSet(node, ...payouts),
    success: !txFailed(node),
    fields: { ...fields, amount: payout ? String(payout.inMsg?.value) : null, staking_data: { provider: 'nominator', ts_nft: null } },
  };
}

/**
 * tonstakers withdrawal: tsTON burnt, the master's notification reaches the pool as a withdraw request
 * (0x319b0cdc); the pool pays at once (0x0a77535c) or mints a withdrawal NFT paid later (0x1674b0a0).
 */
function tonstakersWithdrawRequest(ctx: MatchContext, burn: TraceNode): ActionDraft | null {
  const notification = childWithOp(burn, OP.JETTON_BURN_NOTIFICATION);
  const request = childWithOp(notification, STAKING.TONSTAKERS_WITHDRAW_REQUEST);
  const burnt = tryDecode(() => {
    const s = bodySlice(burn)!;
    s.skip(32 + 64);
    return coinsStr(s);
  });
  if (!notification || !request || burnt === null) return null;
  const immediate = childWithOp(request, STAKING.TONSTAKERS_POOL_WITHDRAWAL);
  const nftMint = childWithOp(request, STAKING.TONSTAKERS_MINT_NFT);
  const nodes = nodeSet(burn, notification, request, ...(immediate ? subtree(immediate) : []), ...(nftMint ? subtree(nftMint) : []));
  const base = {
    source: normalizeAddress(burn.inMsg?.source),
    source_secondary: burn.account,
    destination: request.account,
    asset: jettonOfWallet(ctx, burn.account) ?? notification.account,
  };
  if (immediate) {
    const payout = immediate.children.find((c) => c.account === base.source);
    return flowDraft(
      'stake_withdrawal',
      nodes,
      {
        ...base,
        amount: payout?.inMsg?.value != null ? String(payout.inMsg.value) : null,
        staking_data: { provider: 'liquid_staking', ts_nft: null, tokens_burnt: burnt },
      },
      { btype: 'tonstakers_withdraw' },
    );
  }
  const minted = nftMint ? [...subtree(nftMint)].find((n) => n !== nftMint && n.tx.orig_status !== 'active') : undefined;
  return {
    type: 'stake_withdrawal_request',
    btype: 'tonstakers_withdraw_request',
    nodes,
    success: !!minted && !nodes.some(txFailed),
    fields: { ...base, amount: burnt, staking_data: { provider: 'liquid_staking', ts_nft: minted?.account ?? null, tokens_minted: null } },
  };
}

/** Single-nominator pool: the owner withdraws with withdraw#1000 query_id:uint64 amount:Coins. */
const SINGLE_NOMINATOR_WITHDRAW = 0x1000;

interface SingleNominatorInfo {
  owner?: string;
}

/**
 * Single-nominator pools (one owner, one validator): the whole balance is the owner's stake. TON the owner sends
 * with no opcode (or a comment) and the pool keeps is a deposit; withdraw#1000 from the owner pays the amount out
 * to the owner at once. Others' transfers (a top-up by anyone, the deployment) are no stake of theirs.
 */
function singleNominator(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  const pool = iface(ctx, node.account).SingleNominatorPool as SingleNominatorInfo | undefined;
  const sender = normalizeAddress(node.inMsg?.source);
  if (!pool?.owner || !sender || sender !== normalizeAddress(pool.owner) || node.inMsg?.bounced) return null;
  const fields = { source: sender, destination: node.account, asset: null };
  if (node.op === null || node.op === OP.TEXT_COMMENT) {
    if (node.tx.orig_status !== 'active') return null;
    return {
      type: 'stake_deposit',
      btype: 'single_nominator_deposit',
      nodes: [node],
      success: !txFailed(node),
      fields: { ...fields, amount: String(node.inMsg?.value ?? 0), staking_data: { provider: 'single_nominator', tokens_minted: null } },
    };
  }
  if (node.op !== SINGLE_NOMINATOR_WITHDRAW) return null;
  const amount = tryDecode(() => {
    const s = bodySlice(node)!;
    s.skip(32 + 64);
    return coinsStr(s);
  });
  if (amount === null) return null;
  const payout = node.children.find((c) => c.account === sender);
  return {
    type: 'stake_withdrawal',
    btype: 'single_nominator_withdraw',
    nodes: nodeSet(node, payout),
    success: !txFailed(node) && !!payout,
    fields: { ...fields, amount, staking_data: { provider: 'single_nominator', ts_nft: null, tokens_burnt: null } },
  };
}

/** process_withdraw_requests#2 (anyone may send it) makes the nominator pool pay out the pending withdrawals. */
const NOMINATOR_POOL_PROCESS_WITHDRAW_REQUESTS = 0x2;

/**
 * The TON Foundation pool paying out pending withdrawal requests: each plain TON transfer it sends in answer to
 * process_withdraw_requests#2 is the payout of one nominator's earlier "w". Only at a `NominatorPool` (0x2 is also
 * EVAA's withdraw opcode); the request itself stays a contract call.
 */
function nominatorPoolPayouts(ctx: MatchContext, node: TraceNode): ActionDraft[] {
  if (node.op !== NOMINATOR_POOL_PROCESS_WITHDRAW_REQUESTS || !iface(ctx, node.account).NominatorPool) return [];
  return node.children
    .filter((c) => (c.op === null || c.op === OP.TEXT_COMMENT) && !c.inMsg?.bounced && isFree(ctx, c))
    .map((c) => ({
      type: 'stake_withdrawal_request',
      btype: 'nominator_pool_withdraw_request',
      nodes: [c],
      initiator: node,
      success: !txFailed(c),
      fields: {
        source: c.account,
        destination: node.account,
        asset: null,
        amount: String(c.inMsg?.value ?? 0),
        staking_data: { provider: 'nominator', ts_nft: null },
      },
    }));
}

export const singleNominatorMatcher: Matcher = {
  name: 'nominator-pools',
  match(ctx) {
    const drafts: ActionDraft[] = [];
    for (const node of ctx.tree.nodes) {
      if (!node.inMsg?.source || !isFree(ctx, node)) continue;
      drafts.push(...nominatorPoolPayouts(ctx, node));
      const d = singleNominator(ctx, node);
      if (d && isFree(ctx, ...d.nodes)) drafts.push(d);
    }
    return drafts;
  },
};

export const stakingMatcher = opcodeMatcher('staking', [
  [OP.JETTON_BURN, tonstakersWithdrawRequest],
  [OP.TEXT_COMMENT, nominatorPool],
  [STAKING.TONSTAKERS_DEPOSIT_REQUEST, (_ctx, node) => tonstakersDeposit(node)],
  [STAKING.TONSTAKERS_DISTRIBUTED_ASSET, (_ctx, node) => tonstakersWithdrawal(node)],
  [OP.JETTON_TRANSFER, ethenaWithdrawalRequest],
]);
