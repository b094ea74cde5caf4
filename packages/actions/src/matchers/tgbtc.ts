import { Cell } from '@ton/core';
import { type ActionDraft, flowDraft, type Matcher, isFree } from '../core.js';
import { bitcoinTxId, coinsStr, loadAddress, tryDecode, uint256Hex, uintStr } from '../decode.js';
import { OP, TGBTC } from '../opcodes.js';
import { decodeJettonBurn } from './jettons.js';
import { ancestors, bodyCell, childWithOp, logsWithOp, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import type { TraceMessage } from '../types.js';

/**
 * tgBTC (the TON teleport for bitcoin). Its contracts announce what happened in external-out events: mint
 * (0x77a80ef3), burn (0xca444ce6), new key (0x27756729), DKG completed (0x453443a6); the actions are keyed on those events and completed from
 * the messages around them.
 */
function readLog<T>(msg: TraceMessage | undefined, decode: (s: ReturnType<Cell['beginParse']>) => T): T | null {
  if (!msg?.body) return null;
  return tryDecode(() => {
    const s = Cell.fromBase64(msg.body!).beginParse();
    s.skip(32);
    return decode(s);
  });
}

/** The first transaction of the flow on the emitting contract: where the request came in. */
function requestNode(emitter: TraceNode): TraceNode {
  let top = emitter;
  for (const a of ancestors(emitter)) if (a.account === emitter.account) top = a;
  return top;
}

/**
 * Every teleport mint starts with the relayer's mint request (0x3f781d24) and reaches the teleport as 0xe42a879b,
 * whose transaction emits the event: an event without that chain is no tgBTC mint.
 */
const MINT_HEAD = 0x3f781d24;
const MINT_TAIL = 0xe42a879b;
/** The coordinator's call (0x690f357a) at the teleport whose transaction announces the new key. */
const NEW_KEY_CALL = 0x690f357a;
const BURN_NOTIFY_ALT = 0x587643a2;

function mint(emitter: TraceNode, log: TraceMessage): ActionDraft | null {
  const event = readLog(log, (s) => ({ amount: coinsStr(s), recipient: loadAddress(s), txid: bitcoinTxId(s) }));
  if (!event) return null;
  if (emitter.op !== MINT_TAIL || ![emitter, ...ancestors(emitter)].some((a) => a.op === MINT_HEAD)) return null;
  const request = requestNode(emitter);
  const minter = childWithOp(emitter, OP.JETTON_MINT);
  const internal = childWithOp(minter, OP.JETTON_INTERNAL_TRANSFER);
  const nodes = subtree(request);
  return {
    type: minter && internal ? 'tgbtc_mint' : 'tgbtc_mint_fallback',
    nodes,
    success: !nodes.some(txFailed),
    fields: {
      source: normalizeAddress(request.inMsg?.source),
      source_secondary: emitter.account,
      destination: event.recipient,
      destination_secondary: internal?.account ?? null,
      asset: minter?.account ?? null,
      asset_secondary: event.txid,
      amount: event.amount,
    },
  };
}

function burn(emitter: TraceNode, log: TraceMessage): ActionDraft | null {
  const event = readLog(log, (s) => {
    const amount = coinsStr(s);
    const sender = tryDecode(() => loadAddress(s));
    const pegout = tryDecode(() => loadAddress(s));
    // The current layout ends after the pegout address; anything left over is an older event layout.
    const currentLayout = s.remainingBits === 0 && s.remainingRefs === 0;
    return { amount, sender, pegout, currentLayout };
  });
  if (!event) return null;
  // The event comes from the burn notification's receiver (the tgBTC master), or from its 0x587643a2 path.
  const burnNode =
    emitter.op === OP.JETTON_BURN_NOTIFICATION || emitter.op === BURN_NOTIFY_ALT
      ? [...ancestors(emitter)].find((a) => a.op === OP.JETTON_BURN)
      : undefined;
  const internalAddress = (a: string | null) => (a && /^-?\d+:/.test(a) ? a : null);
  if (!burnNode) {
    const nodes = subtree(requestNode(emitter));
    return {
      type: 'tgbtc_burn_fallback',
      nodes,
      success: !nodes.some(txFailed),
      fields: { source: null, source_secondary: null, destination: internalAddress(event.pegout), asset: null, amount: event.amount },
    };
  }
  const notification = childWithOp(burnNode, OP.JETTON_BURN_NOTIFICATION);
  // An older event layout carries no amount where the current one reads it, so the reference reports the amount
  // burned. It still reads the pegout at the current layout's offset, which is meaningless for the older layout
  // but is what toncenter shows, so it is kept for wire compatibility.
  const amount = event.currentLayout ? event.amount : (decodeJettonBurn(bodyCell(burnNode.inMsg))?.amount ?? event.amount);
  return flowDraft('tgbtc_burn', [...subtree(burnNode)], {
    source: normalizeAddress(burnNode.inMsg?.source),
    source_secondary: burnNode.account,
    destination: internalAddress(event.pegout),
    asset: notification?.account ?? null,
    amount,
  });
}

/**
 * The new key event at the coordinator's 0x690f357a call. With the DKG-completed event in the caller's transaction
 * it is `tgbtc_new_key` (the event's timestamp, the caller as source); without it the key is still announced in
 * the protocol's own call, but who completed the DKG and when is unknown: `tgbtc_new_key_fallback`.
 */
function newKey(emitter: TraceNode, log: TraceMessage): ActionDraft | null {
  const event = readLog(log, (s) => ({ amount: coinsStr(s), pubkey: uint256Hex(s), pegout: loadAddress(s) }));
  if (!event || emitter.op !== NEW_KEY_CALL) return null;
  const request = requestNode(emitter);
  // the coordinator's DKG-completed event (emitted by the request's sender) carries the key's timestamp
  const dkgLog = request.parent ? logsWithOp(request.parent, TGBTC.DKG_COMPLETED_EVENT)[0] : undefined;
  const dkg = readLog(dkgLog, (s) => uintStr(s, 64));
  return flowDraft(dkg ? 'tgbtc_new_key' : 'tgbtc_new_key_fallback', [...subtree(request)], {
    source: dkg ? normalizeAddress(request.inMsg?.source) : null,
    source_secondary: event.pubkey,
    destination: emitter.account,
    destination_secondary: event.pegout,
    amount: event.amount,
    value: dkg,
  });
}

/**
 * The DKG-completed event (`timestamp:uint64 internal_pubkey:uint256`) of a transaction that makes the 0x690f357a
 * call, when that call announced no new key (it failed, or emitted nothing): `tgbtc_dkg_log_fallback`. An event
 * outside that call's flow is no tgBTC action.
 */
function dkgLog(emitter: TraceNode, log: TraceMessage): ActionDraft | null {
  const event = readLog(log, (s) => ({ timestamp: uintStr(s, 64), pubkey: uint256Hex(s) }));
  const call = emitter.children.find((c) => c.op === NEW_KEY_CALL);
  if (!event || !call || subtree(call).some((n) => logsWithOp(n, TGBTC.NEW_KEY_EVENT).length > 0)) return null;
  return flowDraft('tgbtc_dkg_log_fallback', [emitter, ...subtree(call)], {
    source: emitter.account,
    asset: event.pubkey,
    value: event.timestamp,
  });
}

export const tgbtcMatcher: Matcher = {
  name: 'tgbtc',
  match(ctx) {
    const drafts: ActionDraft[] = [];
    for (const node of ctx.tree.nodes) {
      for (const [op, build] of [
        [TGBTC.MINT_EVENT, mint],
        [TGBTC.BURN_EVENT, burn],
        [TGBTC.NEW_KEY_EVENT, newKey],
        [TGBTC.DKG_COMPLETED_EVENT, dkgLog],
      ] as const) {
        for (const log of logsWithOp(node, op)) {
          const d = build(node, log);
          if (d && isFree(ctx, ...d.nodes)) drafts.push(d);
        }
      }
    }
    return drafts;
  },
};
