import { ELECTOR_ADDRESS, ELECTOR_OPS, decodeElectorMessage } from '@tongate/contracts';
import { opcodeMatcher, nodeSet } from '../core.js';
import { rawAddress } from '../decode.js';
import { bodyCell, normalizeAddress, txFailed, type TraceNode } from '../tree.js';

/**
 * Validator elections: a stake sent to the elector (new_stake, answered by a confirmation or the stake returned)
 * and a stake recovered (recover_stake, answered by recover_stake_response carrying the stake).
 */
const ELECTOR = rawAddress(ELECTOR_ADDRESS);

const fromElector = (n: TraceNode) => normalizeAddress(n.inMsg?.source) === ELECTOR;

function deposit(node: TraceNode) {
  if (node.account !== ELECTOR || decodeElectorMessage(bodyCell(node.inMsg)!)?.type !== 'new_stake') return null;
  const answer = node.children.find(fromElector);
  const accepted = !!answer && decodeElectorMessage(bodyCell(answer.inMsg)!)?.type === 'new_stake_confirmation';
  return {
    type: 'election_deposit',
    nodes: nodeSet(node, answer),
    success: accepted && !txFailed(node),
    fields: { source: normalizeAddress(node.inMsg?.source), destination: node.account, amount: String(node.inMsg?.value ?? 0) },
  };
}

function recover(node: TraceNode) {
  if (node.account !== ELECTOR || decodeElectorMessage(bodyCell(node.inMsg)!)?.type !== 'recover_stake') return null;
  const response = node.children.find((c) => fromElector(c) && decodeElectorMessage(bodyCell(c.inMsg)!)?.type === 'recover_stake_response');
  return {
    type: 'election_recover',
    nodes: nodeSet(node, response),
    success: !!response && !txFailed(node),
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      destination: node.account,
      amount: response?.inMsg?.value != null ? String(response.inMsg.value) : null,
    },
  };
}

export const electionsMatcher = opcodeMatcher('elections', [
  [ELECTOR_OPS.newStake, (_ctx, node) => deposit(node)],
  [ELECTOR_OPS.recoverStake, (_ctx, node) => recover(node)],
]);
