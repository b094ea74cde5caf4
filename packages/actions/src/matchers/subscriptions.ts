import { type ActionDraft, nodeSet, opcodeMatcher } from '../core.js';
import { coinsStr, tryDecode } from '../decode.js';
import { SUBSCRIPTION } from '../opcodes.js';
import { bodySlice, childWithOp, normalizeAddress, txFailed, type TraceNode } from '../tree.js';

/**
 * Wallet v4 subscription plugins. A payment: the plugin requests (0x706c7567 query_id amount), the wallet pays the
 * plugin (0xf06c7567) and the plugin forwards to the beneficiary (0x73756273). Unsubscribing: the wallet destructs
 * the plugin (0x64737472), which tells the beneficiary the same way.
 */
function subscribe(response: TraceNode): ActionDraft | null {
  const payment = childWithOp(response, SUBSCRIPTION.PAYMENT);
  if (!payment) return null;
  const request = response.parent?.op === SUBSCRIPTION.PAYMENT_REQUEST ? response.parent : null;
  const requested = tryDecode(() => {
    const s = bodySlice(request)!;
    s.skip(32 + 64);
    return coinsStr(s);
  });
  return {
    type: 'subscribe',
    nodes: nodeSet(request, response, payment),
    success: !(request && txFailed(request)) && !txFailed(response),
    fields: {
      source: normalizeAddress(response.inMsg?.source),
      destination: payment.account,
      destination_secondary: response.account,
      amount: requested ?? String(response.inMsg?.value ?? 0),
    },
  };
}

function unsubscribe(destruct: TraceNode): ActionDraft | null {
  // the plugin's notice to the beneficiary is part of the wallet's destruct, never an unsubscription of its own
  if (destruct.parent?.op === SUBSCRIPTION.DESTRUCT) return null;
  const notice = childWithOp(destruct, SUBSCRIPTION.DESTRUCT);
  return {
    type: 'unsubscribe',
    nodes: nodeSet(destruct, notice),
    success: !txFailed(destruct),
    fields: {
      source: normalizeAddress(destruct.inMsg?.source),
      destination: notice?.account ?? null,
      destination_secondary: destruct.account,
    },
  };
}

export const subscriptionsMatcher = opcodeMatcher('subscriptions', [
  [SUBSCRIPTION.PAYMENT_REQUEST_RESPONSE, (_ctx, node) => subscribe(node)],
  [SUBSCRIPTION.DESTRUCT, (_ctx, node) => unsubscribe(node)],
]);
