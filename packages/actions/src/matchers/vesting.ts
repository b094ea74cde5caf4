import { loadMessageRelaxed } from '@ton/core';
import { type ActionDraft, nodeSet, opcodeMatcher } from '../core.js';
import { boc, rawAddress, tryDecode, uintStr } from '../decode.js';
import { VESTING } from '../opcodes.js';
import { bodySlice, childWithOp, normalizeAddress, txFailed, type TraceNode } from '../tree.js';

/** Vesting wallets: the owner asks the vesting contract to relay a message (send_message#a7733acd). */
function sendMessage(node: TraceNode): ActionDraft | null {
  const request = tryDecode(() => {
    const s = bodySlice(node)!;
    s.skip(32);
    const query_id = uintStr(s, 64);
    s.skip(8); // send mode
    const cell = s.loadRef();
    const message = loadMessageRelaxed(cell.beginParse());
    return { query_id, cell, message };
  });
  if (!request || request.message.info.type !== 'internal') return null;
  const response = childWithOp(node, VESTING.SEND_MESSAGE_RESPONSE);
  return {
    type: 'vesting_send_message',
    nodes: nodeSet(node, response),
    success: !txFailed(node),
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      destination: node.account,
      destination_secondary: rawAddress(request.message.info.dest),
      amount: request.message.info.value.coins.toString(),
      vesting_send_message_data: { query_id: request.query_id, message_boc: boc(request.cell, { crc: false }) },
    },
  };
}

export const vestingMatcher = opcodeMatcher('vesting', [[VESTING.SEND_MESSAGE, (_ctx, node) => sendMessage(node)]]);
