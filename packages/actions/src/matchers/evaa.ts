import { type ActionDraft, opcodeMatcher, type MatchContext, jettonOfWallet } from '../core.js';
import { loadAddress, tryDecode, uint256Hex, uintStr } from '../decode.js';
import { EVAA, OP } from '../opcodes.js';
import { bodySlice, childWithOp, descendants, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import { decodeJettonNotify } from './jettons.js';

/**
 * EVAA lending: supply (TON to the master with supply_master#1, or jettons whose notification carries it) and
 * withdraw (withdraw_master#2). The master forwards to the user's EVAA contract, which answers with a success or
 * failure message; a refused withdrawal returns an excess whose opcode names the reason.
 */
function userContract(master: TraceNode): TraceNode | undefined {
  return master.children.find((c) => c.account !== normalizeAddress(master.inMsg?.source) && c.op !== OP.EXCESS);
}

function supplyResult(user: TraceNode | undefined): boolean {
  const answer = user?.children.find((c) => c.op === EVAA.SUPPLY_SUCCESS || c.op === EVAA.SUPPLY_FAIL);
  return !!answer && answer.op === EVAA.SUPPLY_SUCCESS && !txFailed(answer);
}

function tonSupply(master: TraceNode): ActionDraft | null {
  const body = tryDecode(() => {
    const s = bodySlice(master)!;
    s.skip(32);
    const query_id = uintStr(s, 64);
    s.skip(2); // include_user_code
    return { query_id, amount: uintStr(s, 64), recipient: loadAddress(s) };
  });
  const user = userContract(master);
  if (!body || !user) return null;
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
  const recipient = payload && tryDecode(() => {
    const s = payload.beginParse();
    if (s.loadUint(32) !== EVAA.SUPPLY_MASTER) return null;
    s.skip(2);
    return loadAddress(s);
  });
  const internal = notify.parent;
  const transfer = internal?.parent;
  const user = userContract(notify);
  if (!note || !recipient || !internal || !transfer || !user) return null;
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
  const user = userContract(master);
  if (!body || !user) return null;
  const failExcess = [...descendants(master)].find((n) => n.op !== null && EVAA.WITHDRAW_FAIL_EXCESS.has(n.op));
  const collateralized = childWithOp(user, EVAA.WITHDRAW_COLLATERALIZED);
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
      asset: payout ? jettonOfWallet(ctx, payout.account) ?? jettonOfWallet(ctx, payoutInternal?.account) : null,
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

export const evaaMatcher = opcodeMatcher('evaa', [
  [EVAA.SUPPLY_MASTER, (_ctx, node) => tonSupply(node)],
  [EVAA.WITHDRAW_MASTER, withdraw],
  [OP.JETTON_NOTIFY, jettonSupply],
]);
