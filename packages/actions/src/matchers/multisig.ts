import type { Slice } from '@ton/core';
import { type ActionDraft, nodeSet, opcodeMatcher } from '../core.js';
import { boc, readComment, tryDecode, uint256Hex, uintStr } from '../decode.js';
import { MULTISIG, OP } from '../opcodes.js';
import { bodyCell, bodySlice, childWithOp, normalizeAddress, txFailed, type TraceNode } from '../tree.js';

/**
 * Multisig v2 wallets: a signer or proposer asks the multisig for a new order (which deploys the order contract),
 * signers approve the order (by op or with the text "approve"), and the order, once approved, has the multisig
 * execute it.
 */

/** Reads a multisig body that starts op query_id:uint64 order_seqno:uint256, then the rest. */
function readOrderMessage<T>(node: TraceNode, rest: (s: Slice) => T): ({ query_id: string; order_seqno: string } & T) | null {
  return tryDecode(() => {
    const s = bodySlice(node)!;
    s.skip(32);
    const query_id = uintStr(s, 64);
    const order_seqno = uintStr(s, 256);
    return { query_id, order_seqno, ...rest(s) };
  });
}

function createOrder(node: TraceNode): ActionDraft | null {
  const req = readOrderMessage(node, (s) => ({
    is_created_by_signer: s.loadBit(),
    creator_index: s.loadUint(8),
    expiration_date: Number(s.loadUintBig(48)),
    order_boc: boc(s.loadRef()),
  }));
  if (!req) return null;
  const init = childWithOp(node, MULTISIG.ORDER_INIT);
  // the order records the creator's approval when the init names a signer index
  const signedByCreator = tryDecode(() => {
    const s = bodySlice(init)!;
    s.skip(32 + 64 + 8);
    s.loadRef();
    s.skip(48);
    s.loadRef();
    return s.loadBit();
  });
  return {
    type: 'multisig_create_order',
    nodes: nodeSet(node, init),
    success: !txFailed(node) && !!init && !txFailed(init),
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      destination: node.account,
      destination_secondary: init?.account ?? null,
      multisig_create_order_data: { ...req, is_signed_by_creator: signedByCreator ?? false },
    },
  };
}

function approve(node: TraceNode, signerIndex: number | null): ActionDraft | null {
  const accepted = childWithOp(node, MULTISIG.APPROVE_ACCEPTED);
  const rejected = childWithOp(node, MULTISIG.APPROVE_REJECTED);
  if (!accepted && !rejected && node.op !== MULTISIG.APPROVE) return null;
  const exitCode = rejected
    ? tryDecode(() => {
        const s = bodySlice(rejected)!;
        s.skip(32 + 64);
        return s.loadUint(32);
      })
    : txFailed(node)
      ? node.tx.compute_exit_code
      : 0;
  return {
    type: 'multisig_approve',
    nodes: nodeSet(node, accepted, rejected),
    success: !!accepted && !txFailed(node),
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      destination: node.account,
      multisig_approve_data: { signer_index: signerIndex, exit_code: exitCode },
    },
  };
}

function execute(node: TraceNode): ActionDraft | null {
  const req = readOrderMessage(node, (s) => ({
    expiration_date: Number(s.loadUintBig(48)),
    approvals_num: s.loadUint(8),
    signers_hash: uint256Hex(s),
    order_boc: boc(s.loadRef()),
  }));
  if (!req) return null;
  return {
    type: 'multisig_execute',
    nodes: [node],
    success: !txFailed(node),
    fields: { source: normalizeAddress(node.inMsg?.source), destination: node.account, multisig_execute_data: req },
  };
}

export const multisigMatcher = opcodeMatcher('multisig', [
  [MULTISIG.NEW_ORDER, (_ctx, node) => createOrder(node)],
  [
    MULTISIG.APPROVE,
    (_ctx, node) =>
      approve(
        node,
        tryDecode(() => ((s) => (s.skip(32 + 64), s.loadUint(8)))(bodySlice(node)!)),
      ),
  ],
  [OP.TEXT_COMMENT, (_ctx, node) => (readComment(bodyCell(node.inMsg))?.text === 'approve' ? approve(node, null) : null)],
  [MULTISIG.EXECUTE, (_ctx, node) => execute(node)],
]);
