import { loadMessageRelaxed } from '@ton/core';
import { type ActionDraft, nodeSet, opcodeMatcher } from '../core.js';
import { boc, loadAddress, rawAddress, tryDecode, uintStr } from '../decode.js';
import { VESTING } from '../opcodes.js';
import { bodySlice, childWithOp, normalizeAddress, txFailed, type TraceNode } from '../tree.js';

/** Vesting wallets: the owner asks the vesting contract to relay a message (send_message#a7733acd) or to whitelist addresses. */
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

/** add_whitelist#7258a69b query_id, then one address inline and each further one in a chain of references. */
function addWhitelist(node: TraceNode): ActionDraft | null {
  const req = tryDecode(() => {
    let s = bodySlice(node)!;
    s.skip(32);
    const query_id = uintStr(s, 64);
    const accounts: (string | null)[] = [loadAddress(s)];
    while (s.remainingRefs > 0) {
      s = s.loadRef().beginParse();
      accounts.push(loadAddress(s));
    }
    return { query_id, accounts_added: accounts.filter((a): a is string => !!a) };
  });
  if (!req) return null;
  return {
    type: 'vesting_add_whitelist',
    nodes: nodeSet(node, childWithOp(node, VESTING.ADD_WHITELIST_RESPONSE)),
    success: !txFailed(node),
    fields: { source: normalizeAddress(node.inMsg?.source), destination: node.account, vesting_add_whitelist_data: req },
  };
}

export const vestingMatcher = opcodeMatcher('vesting', [
  [VESTING.SEND_MESSAGE, (_ctx, node) => sendMessage(node)],
  [VESTING.ADD_WHITELIST, (_ctx, node) => addWhitelist(node)],
]);
