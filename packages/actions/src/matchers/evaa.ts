import type { Slice } from '@ton/core';
import { type ActionDraft, type FlowBuilder, opcodeMatcher, type MatchContext, jettonOfWallet } from '../core.js';
import { loadAddress, tryDecode, uint256Hex, uintStr } from '../decode.js';
import { EVAA, OP } from '../opcodes.js';
import { bodySlice, childWithOp, descendants, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import { decodeJettonNotify } from './jettons.js';

/**
 * EVAA lending: supply (TON to the master with supply_master#1, or jettons whose notification carries it), withdraw
 * (withdraw_master#2) and liquidate (liquidate_master#3, with TON or as a jetton payload). The master forwards to the
 * user's EVAA contract, which answers with a success or failure message; a refused withdrawal returns an excess whose
 * opcode names the reason, a liquidation the master refuses itself never reaches a user contract.
 */
/**
 * The master's call to the user's EVAA contract: every master → user message opens with the user header
 * (`user_version:Coins upgrade_info:(Maybe ^Cell) upgrade_exec:uint2`) followed by the user opcode. A child that
 * does not read so is no EVAA user contract, whatever opcode started the flow (0x1 and 0x2 are common opcodes).
 */
function userContract(master: TraceNode, userOp: number): TraceNode | undefined {
  return master.children.find((c) => c.account !== normalizeAddress(master.inMsg?.source) && userHeaderOp(c) === userOp);
}

function userHeaderOp(node: TraceNode): number | null {
  return tryDecode(() => {
    const s = bodySlice(node)!;
    s.loadCoins();
    s.loadMaybeRef();
    s.skip(2);
    return s.loadUint(32);
  });
}

/** A supply is settled by the user contract's success or failure answer, or a refund of the jettons supplied. */
function supplyOutcome(user: TraceNode | undefined): 'success' | 'fail' | null {
  const answer = user?.children.find((c) => c.op === EVAA.SUPPLY_SUCCESS || c.op === EVAA.SUPPLY_FAIL || c.op === OP.JETTON_TRANSFER);
  if (!answer) return null;
  return answer.op === EVAA.SUPPLY_SUCCESS && !txFailed(answer) ? 'success' : 'fail';
}

function supplyResult(user: TraceNode | undefined): boolean {
  return supplyOutcome(user) === 'success';
}

function tonSupply(master: TraceNode): ActionDraft | null {
  const body = tryDecode(() => {
    const s = bodySlice(master)!;
    s.skip(32);
    const query_id = uintStr(s, 64);
    s.skip(2); // include_user_code
    return { query_id, amount: uintStr(s, 64), recipient: loadAddress(s) };
  });
  const user = userContract(master, EVAA.SUPPLY_USER);
  if (!body || !user || !supplyOutcome(user)) return null;
  return {
    type: 'evaa_supply',
    nodes: subtree(master),
    success: supplyResult(user),
    fields: {
      source: normalizeAddress(master.inMsg?.source),
      destination: body.recipient,
      destination_secondary: user.account,
      asset: null,
      amount: body.amount,
      evaa_supply_data: { is_ton: true, master: master.account, asset_id: null },
    },
  };
}

function jettonSupply(ctx: MatchContext, notify: TraceNode): ActionDraft | null {
  const note = decodeJettonNotify(notify);
  const payload = note?.forward_payload;
  const recipient =
    payload &&
    tryDecode(() => {
      const s = payload.beginParse();
      if (s.loadUint(32) !== EVAA.SUPPLY_MASTER) return null;
      s.skip(2);
      return loadAddress(s);
    });
  const internal = notify.parent;
  const transfer = internal?.parent;
  const user = userContract(notify, EVAA.SUPPLY_USER);
  if (!note || !recipient || !internal || !transfer || !user || !supplyOutcome(user)) return null;
  return {
    type: 'evaa_supply',
    nodes: [...subtree(transfer)],
    success: supplyResult(user),
    fields: {
      source: note.sender,
      source_secondary: transfer.account,
      destination: recipient,
      destination_secondary: user.account,
      asset: jettonOfWallet(ctx, internal.account) ?? jettonOfWallet(ctx, transfer.account),
      amount: note.amount,
      evaa_supply_data: {
        is_ton: false,
        master: notify.account,
        master_jetton_wallet: internal.account,
        sender_jetton_wallet: transfer.account,
        recipient_jetton_wallet: transfer.account,
        asset_id: null,
      },
    },
  };
}

function withdraw(ctx: MatchContext, master: TraceNode): ActionDraft | null {
  const body = tryDecode(() => {
    const s = bodySlice(master)!;
    s.skip(32);
    return { query_id: uintStr(s, 64), asset_id: uint256Hex(s), amount: uintStr(s, 64), recipient: loadAddress(s) };
  });
  const user = userContract(master, EVAA.WITHDRAW_USER);
  if (!body || !user) return null;
  const failExcess = [...descendants(master)].find((n) => n.op !== null && EVAA.WITHDRAW_FAIL_EXCESS.has(n.op));
  const collateralized = childWithOp(user, EVAA.WITHDRAW_COLLATERALIZED);
  // without the user contract's answer (collateralized, refused, or a refusal excess) the flow is no withdrawal yet
  if (!failExcess && !collateralized && !childWithOp(user, EVAA.WITHDRAW_FAIL)) return null;
  // the master pays a jetton withdrawal out through its own jetton wallet
  const payout = collateralized?.children.find((c) => c.op === OP.JETTON_TRANSFER);
  const payoutInternal = childWithOp(payout, OP.JETTON_INTERNAL_TRANSFER);
  // what was actually withdrawn (the request may ask for "everything", 2^64-1)
  const withdrawn = tryDecode(() => {
    const s = bodySlice(collateralized)!;
    s.skip(32 + 64);
    loadAddress(s);
    s.skip(256);
    return uintStr(s, 64);
  });
  const isTon = body.asset_id === EVAA.TON_ASSET_ID;
  const success = !failExcess && !!collateralized && !subtree(master).some(txFailed);
  return {
    type: 'evaa_withdraw',
    nodes: subtree(master),
    success,
    fields: {
      source: normalizeAddress(master.inMsg?.source),
      destination: body.recipient,
      destination_secondary: user.account,
      asset: payout ? (jettonOfWallet(ctx, payout.account) ?? jettonOfWallet(ctx, payoutInternal?.account)) : null,
      amount: withdrawn ?? body.amount,
      evaa_withdraw_data: {
        is_ton: isTon,
        master: master.account,
        asset_id: `0x${body.asset_id}`,
        master_jetton_wallet: payout?.account ?? null,
        recipient_jetton_wallet: payoutInternal?.account ?? null,
        fail_reason: failExcess?.op != null ? EVAA.WITHDRAW_FAIL_EXCESS.get(failExcess.op)! : null,
      },
    },
  };
}

/**
 * liquidate_master#3 (`query_id:uint64 borrower:MsgAddressInt liquidator:MsgAddressInt collateral_asset_id:uint256
 * min_collateral_amount:uint64 include_user_code:int2 liquidate_incoming_amount:uint64 …`), sent to the master with
 * TON or as the forward payload of jettons sent to it.
 */
function decodeLiquidateMaster(s: Slice) {
  if (s.loadUint(32) !== EVAA.LIQUIDATE_MASTER) return null;
  s.skip(64);
  const borrower = loadAddress(s);
  loadAddress(s);
  const collateral_asset_id = uint256Hex(s);
  s.skip(64 + 2);
  return { borrower, collateral_asset_id, incoming: uintStr(s, 64) };
}

type LiquidationRequest = { borrower: string | null; collateral_asset_id: string; incoming: string };

/**
 * A liquidation that reaches the borrower's user contract: the master's liquidate_user#31 (behind the user header)
 * to that contract, and the contract's answer back to the master: liquidate_satisfied#311 (the master then confirms
 * with liquidate_success#311a, or reverts with liquidate_fail#311f when it lacks the collateral) or
 * liquidate_unsatisfied#31f carrying the error.
 */
function liquidation(
  master: TraceNode,
  request: LiquidationRequest,
  start: TraceNode,
  source: string | null,
  extra: Partial<ActionDraft['fields']> = {},
): ActionDraft | null {
  const user = userContract(master, EVAA.LIQUIDATE_USER);
  const answer = user?.children.find(
    (c) => c.account === master.account && (c.op === EVAA.LIQUIDATE_SATISFIED || c.op === EVAA.LIQUIDATE_UNSATISFIED),
  );
  if (!user || !answer) return null;
  const base = {
    borrower: request.borrower,
    collateral_asset_id: request.collateral_asset_id,
    collateral_amount: '0',
    debt_amount: request.incoming,
  };
  let outcome: (typeof base & { success: boolean; fail_reason: string | null }) | null = null;
  if (answer.op === EVAA.LIQUIDATE_UNSATISFIED) {
    const reason = tryDecode(() => {
      const s = bodySlice(answer)!;
      s.skip(32 + 64);
      loadAddress(s);
      loadAddress(s);
      s.skip(256);
      const r = s.loadRef().beginParse();
      r.skip(64 + 256 + 64 + 64);
      r.loadRef();
      return EVAA.LIQUIDATION_ERROR.get(r.loadUint(32)) ?? 'unknown';
    });
    outcome = { ...base, success: false, fail_reason: reason ?? 'liquidation_error' };
  } else {
    const confirmed = answer.children.find((c) => c.account === user.account && userHeaderOp(c) === EVAA.LIQUIDATE_SUCCESS);
    const reverted = answer.children.find((c) => c.account === user.account && c.op === EVAA.LIQUIDATE_FAIL);
    if (confirmed) {
      const satisfied = tryDecode(() => {
        const s = bodySlice(answer)!;
        s.skip(32 + 64);
        const owner = loadAddress(s);
        loadAddress(s);
        s.skip(256);
        const r = s.loadRef().beginParse();
        r.skip(64);
        const liquidatable = uintStr(r, 64);
        r.skip(64 + 64);
        const collateral = uint256Hex(r);
        r.skip(64);
        return { owner, liquidatable, collateral, reward: uintStr(r, 64) };
      });
      if (!satisfied) return null;
      outcome = {
        borrower: satisfied.owner,
        collateral_asset_id: satisfied.collateral,
        collateral_amount: satisfied.reward,
        debt_amount: satisfied.liquidatable,
        success: true,
        fail_reason: null,
      };
    } else if (reverted) {
      outcome = { ...base, success: false, fail_reason: 'master_not_enough_liquidity' };
    }
  }
  if (!outcome) return null;
  return {
    type: 'evaa_liquidate',
    nodes: subtree(start),
    success: outcome.success,
    fields: {
      source,
      destination: outcome.borrower,
      destination_secondary: user.account,
      asset: null,
      amount: outcome.collateral_amount,
      ...extra,
      evaa_liquidate_data: {
        fail_reason: outcome.fail_reason,
        debt_amount: outcome.debt_amount,
        asset_id: `0x${outcome.collateral_asset_id}`,
      },
    },
  };
}

/**
 * A liquidation the master refuses before calling any user contract (`immediate_rejection`, as the reference's
 * `EvaaLiquidateBlockMatcher` names it): a TON request bounces back to its sender, jettons are handed back by the
 * master through the jetton wallet that delivered them. Neither answer carries anything of EVAA, so the receiver must
 * show itself an EVAA master elsewhere in the trace (see `actsAsMaster`); nothing was liquidated, so the collateral
 * amount is 0 and the debt is the amount the request offered.
 */
function refusedLiquidation(
  request: LiquidationRequest,
  start: TraceNode,
  source: string | null,
  extra: Partial<ActionDraft['fields']> = {},
): ActionDraft {
  return {
    type: 'evaa_liquidate',
    nodes: subtree(start),
    success: false,
    fields: {
      source,
      destination: request.borrower,
      destination_secondary: null,
      asset: null,
      amount: '0',
      ...extra,
      evaa_liquidate_data: {
        fail_reason: 'immediate_rejection',
        debt_amount: request.incoming,
        asset_id: `0x${request.collateral_asset_id}`,
      },
    },
  };
}

function tonLiquidationRequest(master: TraceNode): LiquidationRequest | null {
  return tryDecode(() => decodeLiquidateMaster(bodySlice(master)!));
}

function tonLiquidation(master: TraceNode): ActionDraft | null {
  const request = tonLiquidationRequest(master);
  return request ? liquidation(master, request, master, normalizeAddress(master.inMsg?.source)) : null;
}

function tonLiquidationRefused(ctx: MatchContext, master: TraceNode): ActionDraft | null {
  const request = tonLiquidationRequest(master);
  const source = normalizeAddress(master.inMsg?.source);
  // the master throws on a request it refuses, so the request comes back to its sender as a bounce
  const bounced = master.children.some((c) => c.inMsg?.bounced === true && c.account === source);
  if (!request || !bounced || !actsAsMaster(ctx, master.account)) return null;
  return refusedLiquidation(request, master, source);
}

/** liquidate_master#3 as the forward payload of jettons the master was notified of, with the transfer behind them. */
function jettonLiquidationRequest(notify: TraceNode) {
  const note = decodeJettonNotify(notify);
  const request = note?.forward_payload ? tryDecode(() => decodeLiquidateMaster(note.forward_payload!.beginParse())) : null;
  const internal = notify.parent;
  const transfer = internal?.parent;
  if (!note || !request || !internal || !transfer) return null;
  return { note, request, internal, transfer };
}

function jettonLiquidation(notify: TraceNode): ActionDraft | null {
  const r = jettonLiquidationRequest(notify);
  return r && liquidation(notify, r.request, r.transfer, r.note.sender, { source_secondary: r.transfer.account });
}

/** Read on the request decoded once: every jetton notification in a trace passes through here. */
function jettonLiquidationOrRefusal(ctx: MatchContext, notify: TraceNode): ActionDraft | null {
  const r = jettonLiquidationRequest(notify);
  if (!r) return null;
  const extra = { source_secondary: r.transfer.account };
  const reached = liquidation(notify, r.request, r.transfer, r.note.sender, extra);
  if (reached) return reached;
  // the jettons come back: the master asks the wallet that delivered them for a TEP-74 transfer
  const returned = notify.children.some((c) => c.op === OP.JETTON_TRANSFER && c.account === r.internal.account);
  if (!returned || !actsAsMaster(ctx, notify.account)) return null;
  return refusedLiquidation(r.request, r.transfer, r.note.sender, extra);
}

/**
 * The flows read through a user contract, by the opcode that starts them at the master. Each needs the master's
 * call behind the EVAA user header and the user contract's answer, which is what shows an account to be an EVAA
 * master at all.
 */
const THROUGH_USER_CONTRACT: ReadonlyArray<readonly [number, FlowBuilder]> = [
  [EVAA.LIQUIDATE_MASTER, (_ctx, node) => tonLiquidation(node)],
  [OP.JETTON_NOTIFY, (_ctx, node) => jettonLiquidation(node)],
  [EVAA.SUPPLY_MASTER, (_ctx, node) => tonSupply(node)],
  [EVAA.WITHDRAW_MASTER, withdraw],
  [OP.JETTON_NOTIFY, jettonSupply],
];

/**
 * Whether the account is shown to be an EVAA master in this trace: one of the flows above (supply, withdraw or a
 * liquidation through a user contract) is read at it. A refusal alone cannot show it, and an opcode never does.
 */
function actsAsMaster(ctx: MatchContext, account: string): boolean {
  return ctx.tree.nodes.some(
    (n) =>
      n.account === account &&
      n.op !== null &&
      !!n.inMsg?.source &&
      THROUGH_USER_CONTRACT.some(([op, build]) => op === n.op && build(ctx, n) !== null),
  );
}

export const evaaMatcher = opcodeMatcher('evaa', [
  [EVAA.LIQUIDATE_MASTER, (_ctx, node) => tonLiquidation(node)],
  [EVAA.LIQUIDATE_MASTER, tonLiquidationRefused],
  [OP.JETTON_NOTIFY, jettonLiquidationOrRefusal],
  [EVAA.SUPPLY_MASTER, (_ctx, node) => tonSupply(node)],
  [EVAA.WITHDRAW_MASTER, withdraw],
  [OP.JETTON_NOTIFY, jettonSupply],
]);
