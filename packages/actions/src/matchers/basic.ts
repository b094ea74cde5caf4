import type { Cell } from '@ton/core';
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
        const destination = rawAddress(message.info.dest);
        const op = message.body.bits.length >= 32 ? unsignedOp(message.body.beginParse().preloadUint(32)) : null;
        const ghost = { msgHash: hash };
        const jetton = op === OP.JETTON_TRANSFER ? decodeJettonTransfer(message.body) : null;
        if (jetton) {
          drafts.push({
            type: 'jetton_transfer',
            nodes: [root],
            ghost,
            initiator: null,
            success: false,
            fields: jettonFailedFields(ctx, root.account, destination, jetton),
          });
          continue;
        }
        const { type, fields } = transferOrCall({
          source: root.account,
          destination,
          value: message.info.value.coins.toString(),
          op,
          body: message.body,
          extra: null,
        });
        drafts.push({ type, nodes: [root], ghost, initiator: null, success: false, fields });
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
