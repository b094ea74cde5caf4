import { type ActionDraft, opcodeMatcher, type MatchContext, iface, jettonOfWallet } from '../core.js';
import { coinsStr, tryDecode } from '../decode.js';
import { JVAULT, OP } from '../opcodes.js';
import { bodyCell, bodySlice, childWithOp, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import type { RawAddress } from '../types.js';
import { decodeJettonNotify, decodeJettonTransfer } from './jettons.js';

/**
 * JVault staking pools. Stake: jettons sent to the pool with a stake payload (op 0xe3a06989, lock period), the
 * pool crediting the staker's stake wallet (receive_jettons) or sending them back (cancel). Unstake and unstake
 * requests go to the stake wallet, claims to the stake wallet and on to the pool, which pays rewards in jettons.
 */

/** The pool of a stake wallet, as the indexer read it from the wallet's data. */
function poolOfStakeWallet(ctx: MatchContext, wallet: RawAddress): RawAddress | null {
  return normalizeAddress((iface(ctx, wallet).data_boc as { pool?: string } | undefined)?.pool ?? null);
}

/** The jetton a pool holds: the master of a known jetton wallet owned by the pool. */
function poolJetton(ctx: MatchContext, pool: RawAddress | null): RawAddress | null {
  if (!pool) return null;
  for (const kinds of Object.values(ctx.tree.input.interfaces ?? {})) {
    const w = kinds.JettonWallet as { owner?: string; jetton?: string } | undefined;
    if (w?.owner && normalizeAddress(w.owner) === pool && w.jetton) return normalizeAddress(w.jetton);
  }
  return null;
}

function stake(ctx: MatchContext, notify: TraceNode): ActionDraft | null {
  const note = decodeJettonNotify(notify);
  const period =
    note?.forward_payload &&
    tryDecode(() => {
      const s = note.forward_payload!.beginParse();
      return s.loadUint(32) === JVAULT.STAKE_PAYLOAD ? s.loadUint(32) : null;
    });
  const receive = childWithOp(notify, JVAULT.RECEIVE_JETTONS);
  const internal = notify.parent;
  const transfer = internal?.parent;
  if (!note || period === null || period === undefined || !receive || !internal || transfer?.op !== OP.JETTON_TRANSFER) return null;
  const cancelled = !!childWithOp(receive, JVAULT.CANCEL_STAKE);
  return {
    type: 'jvault_stake',
    nodes: subtree(transfer),
    success: !cancelled && !txFailed(receive),
    fields: {
      source: note.sender,
      source_secondary: transfer.account,
      destination: notify.account,
      asset: jettonOfWallet(ctx, transfer.account) ?? jettonOfWallet(ctx, internal.account),
      amount: note.amount,
      jvault_stake_data: { period, stake_wallet: receive.account, minted_stake_jettons: null },
    },
  };
}

/** unstake (0x499a9262) and unstake request (0x0168d4b7): query_id, amount; answered by the stake wallet. */
function unstake(ctx: MatchContext, node: TraceNode, type: 'jvault_unstake' | 'jvault_unstake_request'): ActionDraft | null {
  const amount = tryDecode(() => {
    const s = bodySlice(node)!;
    s.skip(32 + 64);
    return coinsStr(s);
  });
  if (amount === null) return null;
  // A jvault stake wallet: known by its data (pool and stake minter), or answering as one (asking its pool to update
  // the rewards). Anything else sending these opcodes is no jvault contract.
  const pool = poolOfStakeWallet(ctx, node.account) ?? node.children.find((c) => c.op === JVAULT.REQUEST_UPDATE_REWARDS)?.account ?? null;
  if (!pool) return null;
  const nodes = subtree(node);
  return {
    type,
    nodes,
    success: !nodes.some(txFailed),
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      source_secondary: node.account,
      destination: pool,
      amount,
      opcode: node.tx.compute_exit_code,
      asset: poolJetton(ctx, pool),
      asset2: jettonOfWallet(ctx, node.account),
    },
  };
}

function claim(node: TraceNode): ActionDraft | null {
  const toPool = childWithOp(node, JVAULT.SEND_CLAIMED_REWARDS);
  // the pool pays the claimed rewards out in jettons
  if (!toPool || !childWithOp(toPool, OP.JETTON_TRANSFER)) return null;
  const payouts = toPool.children
    .filter((c) => c.op === OP.JETTON_TRANSFER)
    .map((c) => ({ wallet: c.account, request: decodeJettonTransfer(bodyCell(c.inMsg)) }));
  const nodes = subtree(node);
  return {
    type: 'jvault_claim',
    nodes,
    success: !txFailed(node) && !txFailed(toPool),
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      source_secondary: node.account,
      destination: toPool.account,
      jvault_claim_data: {
        claimed_jettons: payouts.map((p) => p.wallet),
        claimed_amounts: payouts.map((p) => p.request?.amount ?? null),
      },
    },
  };
}

export const jvaultMatcher = opcodeMatcher('jvault', [
  [OP.JETTON_NOTIFY, stake],
  [JVAULT.UNSTAKE_JETTONS, (ctx, node) => unstake(ctx, node, 'jvault_unstake')],
  [JVAULT.UNSTAKE_REQUEST, (ctx, node) => unstake(ctx, node, 'jvault_unstake_request')],
  [JVAULT.CLAIM, (_ctx, node) => claim(node)],
]);
