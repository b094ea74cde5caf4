import { beginCell, type Cell } from '@ton/core';
import { type ActionDraft, type Matcher, type MatchContext, isFree, jettonOfWallet } from '../core.js';
import { rawAddress, readComment } from '../decode.js';
import { OP } from '../opcodes.js';
import { bodyCell, normalizeAddress, txFailed, unsignedOp, type TraceNode } from '../tree.js';
import type { ClassifiedAction, RawAddress } from '../types.js';
import { walletRequestMessages } from '../wallets.js';
import { decodeJettonTransfer, jettonTransferData } from './jettons.js';

function extraCurrencies(raw: Record<string, number | string> | null | undefined): Record<string, string> | null {
  if (!raw) return null;
  const entries = Object.entries(raw).map(([k, v]) => [k, String(v)] as const);
  return entries.length ? Object.fromEntries(entries) : null;
}

function isTransferBody(op: number | null): boolean {
  return op === null || op === OP.TEXT_COMMENT || op === OP.ENCRYPTED_COMMENT;
}

interface PlainMessage {
  source: RawAddress;
  destination: RawAddress;
  value: string;
  op: number | null;
  body: Cell | null;
  extra: Record<string, string> | null;
}

/** ton_transfer for a plain or commented transfer, call_contract for any other body. */
function transferOrCall(m: PlainMessage): { type: string; fields: Partial<ClassifiedAction> } {
  if (isTransferBody(m.op)) {
    const comment = readComment(m.body);
    return {
      type: 'ton_transfer',
      fields: {
        source: m.source,
        destination: m.destination,
        value: m.value,
        value_extra_currencies: m.extra,
        ton_transfer_data: { content: comment?.text ?? null, encrypted: comment?.encrypted ?? false },
      },
    };
  }
  return {
    type: 'call_contract',
    fields: { source: m.source, destination: m.destination, value: m.value, opcode: m.op, value_extra_currencies: m.extra },
  };
}

function plainOf(node: TraceNode): PlainMessage | null {
  const m = node.inMsg;
  if (!m?.source || !m.destination) return null;
  return {
    source: normalizeAddress(m.source),
    destination: normalizeAddress(m.destination),
    value: String(m.value ?? 0),
    op: node.op,
    body: bodyCell(m),
    extra: extraCurrencies(m.value_extra_currencies),
  };
}

/** Every internal message not covered by a higher-level action: a transfer, a contract call and/or a deployment. */
export const basicMatcher: Matcher = {
  name: 'basic',
  match(ctx) {
    const drafts: ActionDraft[] = [];
    for (const node of ctx.tree.nodes) {
      if (!isFree(ctx, node)) continue;
      const plain = plainOf(node);
      if (!plain) continue;
      // a bounced message is not a new transfer; it belongs to whatever sent the original
      if (node.inMsg?.bounced) continue;
      const { type, fields } = transferOrCall(plain);
      drafts.push({ type, nodes: [node], success: !txFailed(node), fields });
      if (node.tx.orig_status !== 'active' && node.tx.end_status === 'active') {
        drafts.push({
          type: 'contract_deploy',
          nodes: [node],
          success: !txFailed(node),
          fields: { source: plain.source, destination: plain.destination, value: plain.value, opcode: plain.op },
        });
      }
    }
    return drafts;
  },
};

/**
 * A message the sender's transaction asked for or sent, rebuilt as the action it would be (a jetton transfer for a
 * jetton transfer body, else a transfer or a call); it has no transaction of its own, so the action is a ghost on
 * the sender's.
 */
function ghostDraft(
  ctx: MatchContext,
  sender: TraceNode,
  m: { hash: string; destination: RawAddress; value: string; body: Cell },
  success: boolean,
): ActionDraft {
  const op = m.body.bits.length >= 32 ? unsignedOp(m.body.beginParse().preloadUint(32)) : null;
  const ghost = { msgHash: m.hash };
  const jetton = op === OP.JETTON_TRANSFER ? decodeJettonTransfer(m.body) : null;
  if (jetton) {
    return {
      type: 'jetton_transfer',
      nodes: [sender],
      ghost,
      initiator: null,
      success,
      fields: jettonFailedFields(ctx, sender.account, m.destination, jetton),
    };
  }
  const { type, fields } = transferOrCall({
    source: sender.account,
    destination: m.destination,
    value: m.value,
    op,
    body: m.body,
    extra: null,
  });
  return { type, nodes: [sender], ghost, initiator: null, success, fields };
}

/**
 * A wallet's signed request whose transaction sent nothing (the action phase failed): the transfers it asked for
 * are reported as failed actions, rebuilt from the request itself.
 */
export const failedWalletRequestMatcher: Matcher = {
  name: 'wallet-request',
  match(ctx) {
    const drafts: ActionDraft[] = [];
    for (const root of ctx.tree.roots) {
      if (!isFree(ctx, root) || root.inMsg?.source || root.outMsgs.length > 0) continue;
      const body = bodyCell(root.inMsg);
      if (!body) continue;
      for (const { message, hash } of walletRequestMessages(body)) {
        if (message.info.type !== 'internal') continue;
        const m = { hash, destination: rawAddress(message.info.dest), value: message.info.value.coins.toString(), body: message.body };
        drafts.push(ghostDraft(ctx, root, m, false));
      }
    }
    return drafts;
  },
};

/**
 * Messages an external request's transaction sent whose receiving transaction is not in the trace (an emulated
 * trace that stops at the root, or one whose next steps are not known yet): each is the transfer, call or jetton
 * transfer it asks for, as the request's sender sees it, rather than nothing.
 */
export const unreceivedMessageMatcher: Matcher = {
  name: 'unreceived',
  match(ctx) {
    const drafts: ActionDraft[] = [];
    for (const root of ctx.tree.roots) {
      if (!isFree(ctx, root) || root.inMsg?.source) continue;
      const received = new Set(root.children.map((c) => c.inMsg?.msg_hash));
      for (const out of root.outMsgs) {
        if (!out.destination || received.has(out.msg_hash)) continue;
        const body = bodyCell(out) ?? beginCell().endCell();
        const m = { hash: out.msg_hash, destination: normalizeAddress(out.destination), value: String(out.value ?? 0), body };
        drafts.push(ghostDraft(ctx, root, m, !txFailed(root)));
      }
    }
    return drafts;
  },
};

function jettonFailedFields(
  ctx: MatchContext,
  owner: RawAddress,
  senderWallet: RawAddress,
  r: NonNullable<ReturnType<typeof decodeJettonTransfer>>,
): Partial<ClassifiedAction> {
  return {
    source: owner,
    source_secondary: senderWallet,
    destination: r.destination,
    destination_secondary: null,
    asset: jettonOfWallet(ctx, senderWallet),
    amount: r.amount,
    jetton_transfer_data: jettonTransferData(r),
  };
}

/** tick-tock transactions of special accounts (no inbound message). */
export const tickTockMatcher: Matcher = {
  name: 'tick-tock',
  match(ctx) {
    return ctx.tree.nodes
      .filter((n) => !n.inMsg && isFree(ctx, n))
      .map((n) => ({ type: 'tick_tock', nodes: [n], initiator: null, success: !txFailed(n), fields: { source: n.account } }));
  },
};
