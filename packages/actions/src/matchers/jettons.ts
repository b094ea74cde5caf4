import type { Cell } from '@ton/core';
import { type ActionDraft, type MatchContext, jettonOfWallet, nodeSet, opcodeMatcher, ownerOfWallet } from '../core.js';
import { boc, coinsStr, loadAddress, loadEitherCell, loadMaybeRefBoc, readComment, tryDecode, uintStr } from '../decode.js';
import { OP } from '../opcodes.js';
import { bodyCell, bodySlice, childWithOp, normalizeAddress, txFailed, type TraceNode } from '../tree.js';
import type { DataValue, RawAddress } from '../types.js';

/** TEP-74 transfer#0f8a7ea5 as the reference stores it. */
export interface JettonTransferRequest {
  query_id: string;
  amount: string;
  destination: RawAddress | null;
  response_destination: RawAddress | null;
  custom_payload: string | null;
  forward_amount: string;
  forward_payload: string | null;
  comment: string | null;
  is_encrypted_comment: boolean;
}

export function decodeJettonTransfer(body: Cell | null): JettonTransferRequest | null {
  if (!body) return null;
  return tryDecode(() => {
    const s = body.beginParse();
    if (s.loadUint(32) !== OP.JETTON_TRANSFER) return null;
    const query_id = uintStr(s, 64);
    const amount = coinsStr(s);
    const destination = loadAddress(s);
    const response_destination = loadAddress(s);
    const custom_payload = loadMaybeRefBoc(s);
    const forward_amount = coinsStr(s);
    const payload = tryDecode(() => loadEitherCell(s));
    const comment = readComment(payload);
    return {
      query_id,
      amount,
      destination,
      response_destination,
      custom_payload,
      forward_amount,
      forward_payload: payload ? boc(payload) : null,
      comment: comment?.text ?? null,
      is_encrypted_comment: comment?.encrypted ?? false,
    };
  });
}

/** internal_transfer#178d4519 query_id amount from response_address forward_ton_amount forward_payload */
export function decodeInternalTransfer(node: TraceNode | null | undefined): { amount: string; from: RawAddress | null } | null {
  const s = bodySlice(node);
  if (!s) return null;
  return tryDecode(() => {
    if (s.loadUint(32) !== OP.JETTON_INTERNAL_TRANSFER) return null;
    s.skip(64);
    return { amount: coinsStr(s), from: loadAddress(s) };
  });
}

/** transfer_notification#7362d09c query_id amount sender forward_payload */
export function decodeJettonNotify(
  node: TraceNode | null | undefined,
): { amount: string; sender: RawAddress | null; forward_payload: Cell | null } | null {
  const s = bodySlice(node);
  if (!s) return null;
  return tryDecode(() => {
    if (s.loadUint(32) !== OP.JETTON_NOTIFY) return null;
    s.skip(64);
    return { amount: coinsStr(s), sender: loadAddress(s), forward_payload: tryDecode(() => loadEitherCell(s)) };
  });
}

/**
 * A jetton transfer rooted at `transferNode` (the sender's wallet receiving transfer#0f8a7ea5): the receiver
 * wallet's internal_transfer and the notification/excesses it causes. Shared by every matcher that consumes
 * jetton transfers (swaps, liquidity, staking).
 */
export interface JettonTransferFlow {
  transfer: TraceNode;
  internal: TraceNode | undefined;
  notify: TraceNode | undefined;
  excess: TraceNode | undefined;
  request: JettonTransferRequest;
  sender: RawAddress | null;
  senderWallet: RawAddress | null;
  receiverWallet: RawAddress | null;
  receiver: RawAddress | null;
  asset: RawAddress | null;
  failed: boolean;
}

export function jettonTransferFlow(ctx: MatchContext, transfer: TraceNode): JettonTransferFlow | null {
  const request = decodeJettonTransfer(bodyCell(transfer.inMsg));
  if (!request) return null;
  const internal = childWithOp(transfer, OP.JETTON_INTERNAL_TRANSFER);
  const notify = childWithOp(internal, OP.JETTON_NOTIFY);
  const excess = childWithOp(internal, OP.EXCESS);
  // proxy-TON wallets pay out TON with a notification instead of an internal transfer: no jetton wallets involved
  const direct = !internal ? childWithOp(transfer, OP.JETTON_NOTIFY) : undefined;
  const receiverWallet = internal?.account ?? null;
  return {
    transfer,
    internal,
    notify: notify ?? direct,
    excess,
    request,
    sender: normalizeAddress(transfer.inMsg?.source),
    senderWallet: direct ? null : transfer.account,
    receiverWallet,
    receiver: request.destination,
    asset: jettonOfWallet(ctx, transfer.account) ?? jettonOfWallet(ctx, receiverWallet),
    failed: txFailed(transfer) || (internal ? txFailed(internal) : !direct),
  };
}

/** jetton_transfer_data of an action, from the transfer request. */
export function jettonTransferData(r: JettonTransferRequest): Record<string, DataValue> {
  return {
    query_id: r.query_id,
    response_destination: r.response_destination,
    forward_amount: r.forward_amount,
    custom_payload: r.custom_payload,
    forward_payload: r.forward_payload,
    comment: r.comment,
    is_encrypted_comment: r.is_encrypted_comment,
  };
}

export function jettonTransferDraft(flow: JettonTransferFlow): ActionDraft {
  const r = flow.request;
  return {
    type: 'jetton_transfer',
    nodes: nodeSet(flow.transfer, flow.internal, flow.notify, flow.excess),
    success: !flow.failed,
    fields: {
      source: flow.sender,
      source_secondary: flow.senderWallet,
      destination: flow.receiver,
      destination_secondary: flow.receiverWallet,
      asset: flow.asset,
      amount: r.amount,
      jetton_transfer_data: jettonTransferData(r),
    },
  };
}

/** burn#595f07bc query_id amount response_destination custom_payload */
export function decodeJettonBurn(
  body: Cell | null,
): { query_id: string; amount: string; response_destination: RawAddress | null; custom_payload: string | null } | null {
  if (!body) return null;
  return tryDecode(() => {
    const s = body.beginParse();
    if (s.loadUint(32) !== OP.JETTON_BURN) return null;
    const query_id = uintStr(s, 64);
    const amount = coinsStr(s);
    // Burns in the wild often end after the amount: the rest is optional.
    const response_destination = s.remainingBits > 0 ? loadAddress(s) : null;
    const custom_payload = s.remainingBits > 0 ? loadMaybeRefBoc(s) : null;
    return { query_id, amount, response_destination, custom_payload };
  });
}

function burnDraft(ctx: MatchContext, burn: TraceNode): ActionDraft | null {
  const s = bodySlice(burn);
  const amount = s && tryDecode(() => (s.skip(32 + 64), coinsStr(s)));
  if (amount === null) return null;
  const notification = childWithOp(burn, OP.JETTON_BURN_NOTIFICATION);
  const excess = childWithOp(notification, OP.EXCESS);
  return {
    type: 'jetton_burn',
    nodes: nodeSet(burn, notification, excess),
    success: !txFailed(burn) && !(notification && txFailed(notification)),
    fields: {
      source: burn.inMsg?.source ?? ownerOfWallet(ctx, burn.account),
      source_secondary: burn.account,
      asset: jettonOfWallet(ctx, burn.account) ?? notification?.account ?? null,
      amount,
    },
  };
}

/**
 * mint#642b7d07 / minter mint#00000015: query_id to_address ton_amount:Coins master_msg:^internal_transfer. The
 * minter's internal_transfer to the receiver's wallet (its notification and excesses when there are any) completes
 * it; the receiver is that wallet's owner. A mint that never reached a wallet (the minter refused it, or the
 * transfer failed) is still the mint asked for, failed, addressed to the request's to_address.
 */
function mintDraft(ctx: MatchContext, mint: TraceNode): ActionDraft | null {
  const s = bodySlice(mint);
  const request =
    s &&
    tryDecode(() => {
      s.skip(32 + 64);
      const to = loadAddress(s);
      const tonAmount = coinsStr(s);
      // master_msg: the internal_transfer the minter is to send
      const master = tryDecode(() => {
        const m = s.loadRef().beginParse();
        if (m.loadUint(32) !== OP.JETTON_INTERNAL_TRANSFER) return null;
        m.skip(64);
        return coinsStr(m);
      });
      return { to, tonAmount, masterAmount: master };
    });
  // without the internal_transfer it asks for, the message is no mint request
  if (!request || request.masterAmount === null) return null;
  const internal = childWithOp(mint, OP.JETTON_INTERNAL_TRANSFER);
  const transfer = decodeInternalTransfer(internal);
  if (!internal || !transfer || txFailed(mint)) {
    return {
      type: 'jetton_mint',
      nodes: nodeSet(mint, internal, childWithOp(mint, OP.JETTON_NOTIFY)),
      success: false,
      fields: {
        destination: request.to,
        destination_secondary: null,
        asset: mint.account,
        amount: mint.op === OP.MINTER_JETTON_MINT ? request.masterAmount : null,
        value: request.tonAmount,
      },
    };
  }
  const notify = childWithOp(internal, OP.JETTON_NOTIFY) ?? childWithOp(mint, OP.JETTON_NOTIFY);
  const excess = childWithOp(internal, OP.EXCESS);
  return {
    type: 'jetton_mint',
    nodes: nodeSet(mint, internal, notify, excess),
    success: !txFailed(internal),
    fields: {
      destination: ownerOfWallet(ctx, internal.account) ?? request.to,
      destination_secondary: internal.account,
      asset: jettonOfWallet(ctx, internal.account) ?? mint.account,
      amount: transfer.amount,
      value: request.tonAmount,
    },
  };
}

export const jettonMatcher = opcodeMatcher('jettons', [
  [OP.JETTON_TRANSFER, (ctx, node) => ((flow) => flow && jettonTransferDraft(flow))(jettonTransferFlow(ctx, node))],
  [OP.JETTON_BURN, burnDraft],
  [OP.JETTON_MINT, mintDraft],
  [OP.MINTER_JETTON_MINT, mintDraft],
]);
