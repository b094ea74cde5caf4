import type { Slice } from '@ton/core';
import { type ActionDraft, type MatchContext, opcodeMatcher, nodeSet } from '../core.js';
import { coinsStr, loadAddress, tryDecode, uint256Hex, uintStr } from '../decode.js';
import { OP } from '../opcodes.js';
import { bodySlice, childWithOp, normalizeAddress, txFailed, type TraceNode } from '../tree.js';
import type { DataValue } from '../types.js';

/** Reads a cocoon message body after checking its opcode; null when it does not decode. */
function read<T>(node: TraceNode | undefined, op: number, fields: (s: Slice) => T): T | null {
  const s = bodySlice(node);
  if (!s) return null;
  return tryDecode(() => (s.loadUint(32) === op ? fields(s) : null));
}

const src = (n: TraceNode | undefined) => normalizeAddress(n?.inMsg?.source);
const value = (n: TraceNode | undefined) => (n?.inMsg?.value != null ? String(n.inMsg.value) : null);

/**
 * The cocoon (confidential compute) flows, each keyed by the opcode of the message that starts it and recognised
 * only with the answers the cocoon contracts give (the reference's required children): the proxy's payout and
 * excesses, the client's request to its proxy and excesses, the worker's request to its proxy and payout.
 */
const builders: [number, (start: TraceNode) => ActionDraft | null][] = [
  [OP.COCOON_PAYOUT_PAYLOAD, (start) => workerPayout(start, 'regular')],
  [OP.COCOON_LAST_PAYOUT_PAYLOAD, (start) => workerPayout(start, 'last')],
  [
    OP.COCOON_EXT_PROXY_PAYOUT_REQUEST,
    (start) => {
      const req = read(start, OP.COCOON_EXT_PROXY_PAYOUT_REQUEST, (s) => ({ query_id: uintStr(s, 64), excesses_to: loadAddress(s) }));
      const payout = childWithOp(start, OP.COCOON_PAYOUT);
      const excess = childWithOp(start, OP.COCOON_RETURN_EXCESSES_BACK);
      if (!req || !payout || !excess) return null;
      return draft('cocoon_proxy_payout', [start, payout, excess], !txFailed(payout), {
        source: start.account,
        destination: payout.account,
        destination_secondary: req.excesses_to,
        cocoon_proxy_payout_data: { query_id: req.query_id },
      });
    },
  ],
  [
    OP.COCOON_EXT_CLIENT_TOP_UP,
    (start) => {
      const req = read(start, OP.COCOON_EXT_CLIENT_TOP_UP, (s) => ({
        query_id: uintStr(s, 64),
        amount: coinsStr(s),
        excesses_to: loadAddress(s),
      }));
      const proxyRequest = childWithOp(start, OP.COCOON_CLIENT_PROXY_REQUEST);
      const excess = childWithOp(proxyRequest, OP.COCOON_RETURN_EXCESSES_BACK);
      if (!req || !proxyRequest || !excess) return null;
      return draft('cocoon_client_top_up', [start, proxyRequest, excess], !txFailed(start) && !txFailed(proxyRequest), {
        source: src(start),
        destination: start.account,
        destination_secondary: proxyRequest.account,
        amount: req.amount,
        cocoon_client_top_up_data: { query_id: req.query_id },
      });
    },
  ],
  [
    OP.COCOON_OWNER_CLIENT_INCREASE_STAKE,
    (start) => {
      const req = read(start, OP.COCOON_OWNER_CLIENT_INCREASE_STAKE, (s) => ({ query_id: uintStr(s, 64), new_stake: coinsStr(s) }));
      if (!req || !isClientRequest(start)) return null;
      return draft('cocoon_client_increase_stake', clientRequestNodes(start), !txFailed(start), {
        source: src(start),
        destination: start.account,
        amount: req.new_stake,
        cocoon_client_increase_stake_data: { query_id: req.query_id, new_stake: req.new_stake },
      });
    },
  ],
  [OP.COCOON_OWNER_CLIENT_WITHDRAW, clientWithdraw],
  [
    OP.COCOON_OWNER_CLIENT_REQUEST_REFUND,
    (start) => {
      // the owner is the request's excesses address, as the reference reads it (directly or through the owner wallet)
      const req = read(start, OP.COCOON_OWNER_CLIENT_REQUEST_REFUND, (s) => ({ query_id: uintStr(s, 64), owner: loadAddress(s) }));
      if (!req || !isClientRequest(start)) return null;
      const viaWallet = start.parent?.op === OP.COCOON_OWNER_WALLET_SEND_MESSAGE;
      return draft('cocoon_client_request_refund', clientRequestNodes(start), !txFailed(start), {
        source: req.owner,
        destination: start.account,
        cocoon_client_request_refund_data: { query_id: req.query_id, via_wallet: viaWallet },
      });
    },
  ],
  [
    OP.COCOON_GRANT_REFUND_PAYLOAD,
    (start) => {
      const req = read(start, OP.COCOON_GRANT_REFUND_PAYLOAD, (s) => ({
        query_id: uintStr(s, 64),
        new_tokens_used: uintStr(s, 64),
        expected_address: loadAddress(s),
      }));
      const clientRequest = childWithOp(start, OP.COCOON_CLIENT_PROXY_REQUEST);
      const payout = childWithOp(clientRequest, OP.COCOON_PAYOUT);
      if (!req || !clientRequest || !payout) return null;
      const excess = childWithOp(clientRequest, OP.COCOON_RETURN_EXCESSES_BACK);
      return draft('cocoon_grant_refund', [start, clientRequest, payout, excess], !txFailed(payout), {
        source: start.account,
        source_secondary: clientRequest.account,
        destination: payout.account,
        amount: value(payout),
        cocoon_grant_refund_data: req,
      });
    },
  ],
  [
    OP.COCOON_CHARGE_PAYLOAD,
    (start) => {
      const req = read(start, OP.COCOON_CHARGE_PAYLOAD, (s) => ({
        query_id: uintStr(s, 64),
        new_tokens_used: uintStr(s, 64),
        expected_address: loadAddress(s),
      }));
      // the proxy charges its client: the excesses go back and the client is told (its transaction usually fails)
      const excess = childWithOp(start, OP.COCOON_RETURN_EXCESSES_BACK);
      const clientRequest = childWithOp(start, OP.COCOON_CLIENT_PROXY_REQUEST);
      if (!req || !excess || !clientRequest) return null;
      return draft('cocoon_proxy_charge', [start, excess, clientRequest], !start.tx.aborted, {
        source: start.account,
        destination: clientRequest.account,
        amount: '0',
        cocoon_proxy_charge_data: req,
      });
    },
  ],
  [
    OP.COCOON_REGISTER_PROXY,
    (start) => {
      const req = read(start, OP.COCOON_REGISTER_PROXY, (s) => ({ query_id: uintStr(s, 64) }));
      const excess = childWithOp(start, OP.COCOON_RETURN_EXCESSES_BACK);
      if (!req || !excess) return null;
      return draft('cocoon_register_proxy', [start, excess], !start.tx.aborted, {
        source: src(start),
        destination: start.account,
        cocoon_register_proxy_data: req,
      });
    },
  ],
  [
    OP.COCOON_OWNER_CLIENT_REGISTER,
    (start) =>
      ownerClientRequest(start, 'cocoon_client_register', OP.COCOON_OWNER_CLIENT_REGISTER, (s) => ({
        query_id: uintStr(s, 64),
        nonce: uintStr(s, 64),
      })),
  ],
  [
    OP.COCOON_OWNER_CLIENT_CHANGE_SECRET_HASH,
    (start) =>
      ownerClientRequest(start, 'cocoon_client_change_secret_hash', OP.COCOON_OWNER_CLIENT_CHANGE_SECRET_HASH, (s) => ({
        query_id: uintStr(s, 64),
        new_secret_hash: uint256Hex(s),
      })),
  ],
  [
    OP.COCOON_UNREGISTER_PROXY,
    (start) => {
      const req = read(start, OP.COCOON_UNREGISTER_PROXY, (s) => ({ query_id: uintStr(s, 64), seqno: s.loadUint(32) }));
      const excess = childWithOp(start, OP.COCOON_RETURN_EXCESSES_BACK);
      if (!req || !excess) return null;
      return draft('cocoon_unregister_proxy', [start, excess], !txFailed(start), {
        source: src(start),
        destination: start.account,
        cocoon_unregister_proxy_data: req,
      });
    },
  ],
];

function draft(type: string, nodes: (TraceNode | undefined)[], success: boolean, fields: ActionDraft['fields']): ActionDraft {
  return { type, nodes: nodeSet(...nodes), success, fields };
}

/**
 * An owner request to a client contract that ends with the owner's excesses address (register, secret hash
 * change): the reference names that address the owner. Read only with the client's answer.
 */
function ownerClientRequest(
  start: TraceNode,
  type: string,
  op: number,
  fields: (s: Slice) => Record<string, DataValue>,
): ActionDraft | null {
  const req = read(start, op, (s) => ({ data: fields(s), owner: loadAddress(s) }));
  if (!req || !isClientRequest(start)) return null;
  return draft(type, clientRequestNodes(start), !start.tx.aborted, {
    source: req.owner,
    destination: start.account,
    [`${type}_data`]: req.data,
  });
}

/** A client contract answering its owner: the excesses returned and its message to the proxy (which may fail). */
function isClientRequest(start: TraceNode): boolean {
  return !!childWithOp(start, OP.COCOON_CLIENT_PROXY_REQUEST) && !!childWithOp(start, OP.COCOON_RETURN_EXCESSES_BACK);
}

/** A client-contract request: its message to the proxy (which may fail) and the excesses returned. */
function clientRequestNodes(start: TraceNode): (TraceNode | undefined)[] {
  return [start, childWithOp(start, OP.COCOON_CLIENT_PROXY_REQUEST), childWithOp(start, OP.COCOON_RETURN_EXCESSES_BACK)];
}

/**
 * The owner taking a client's balance above its stake (owner_client_withdraw#da068e78 `query_id
 * send_excesses_to`): the client answers with its request to the proxy (`query_id owner ^state
 * payload:(Maybe ^Cell)`), whose payload grants the refund (client_proxy_refund_granted#c68ebc7b `coins
 * send_excesses_to`); the amount withdrawn is those coins, 0 when the payload carries no grant. The owner is the
 * request's excesses address, as for the other owner requests.
 */
function clientWithdraw(start: TraceNode): ActionDraft | null {
  const req = read(start, OP.COCOON_OWNER_CLIENT_WITHDRAW, (s) => ({ query_id: uintStr(s, 64), owner: loadAddress(s) }));
  const proxyRequest = childWithOp(start, OP.COCOON_CLIENT_PROXY_REQUEST);
  const granted = read(proxyRequest, OP.COCOON_CLIENT_PROXY_REQUEST, (s) => {
    s.skip(64);
    loadAddress(s);
    s.loadRef();
    const payload = s.loadMaybeRef()?.beginParse();
    if (!payload || payload.remainingBits < 32 || payload.loadUint(32) !== OP.COCOON_CLIENT_PROXY_REFUND_GRANTED) return { amount: null };
    return { amount: coinsStr(payload) };
  });
  if (!req || !proxyRequest || !granted) return null;
  const amount = granted.amount ?? '0';
  return draft('cocoon_client_withdraw', clientRequestNodes(start), !start.tx.aborted, {
    source: req.owner,
    destination: start.account,
    amount,
    cocoon_client_withdraw_data: { query_id: req.query_id, withdraw_amount: amount },
  });
}

/** payout payload → worker's request to its proxy (owner, state, tokens) → payout to the worker's owner. */
function workerPayout(start: TraceNode, payoutType: 'regular' | 'last'): ActionDraft | null {
  const op = payoutType === 'last' ? OP.COCOON_LAST_PAYOUT_PAYLOAD : OP.COCOON_PAYOUT_PAYLOAD;
  const payload = read(start, op, (s) => ({ query_id: uintStr(s, 64), new_tokens: uintStr(s, 64), expected_address: loadAddress(s) }));
  const workerRequest = childWithOp(start, OP.COCOON_WORKER_PROXY_REQUEST);
  const worker = read(workerRequest, OP.COCOON_WORKER_PROXY_REQUEST, (s) => {
    s.skip(64);
    return { owner: loadAddress(s), state: s.loadUint(2), tokens: uintStr(s, 64) };
  });
  const payout = childWithOp(workerRequest, OP.COCOON_PAYOUT);
  if (!payload || !workerRequest || !worker || !payout) return null;
  const excess = childWithOp(workerRequest, OP.COCOON_RETURN_EXCESSES_BACK);
  const data: Record<string, DataValue> = {
    payout_type: payoutType,
    query_id: payload.query_id,
    new_tokens: payload.new_tokens,
    expected_address: payload.expected_address,
    worker_state: worker.state,
    worker_tokens: worker.tokens,
  };
  return draft('cocoon_worker_payout', [start, workerRequest, payout, excess], !txFailed(payout), {
    source: src(start),
    source_secondary: start.account,
    destination: worker.owner,
    amount: value(payout),
    cocoon_worker_payout_data: data,
  });
}

export const cocoonMatcher = opcodeMatcher(
  'cocoon',
  builders.map(([op, build]) => [op, (_ctx: MatchContext, node: TraceNode) => build(node)] as const),
);
