import { createHash } from 'node:crypto';
import { interfacesOf, normalizeAddress, txFailed, type TraceNode, type TraceTree } from './tree.js';
import type { AccountInterfaces, ClassifiedAction, RawAddress } from './types.js';

/**
 * The shared pattern-matching core. A matcher looks at the trace tree, finds the flows of its protocol and returns
 * drafts: the action's type, the transactions (nodes) it covers and its fields. The classifier runs the matchers
 * from the most specific to the most generic; a draft whose nodes an earlier action already covers is dropped, so
 * each transaction belongs to one top-level action. Drafts may carry nested drafts (lower-level actions the
 * higher-level one is built from), emitted with `ancestor_type` and `parent_action_id`.
 */
export interface ActionDraft {
  /** public action type */
  type: string;
  /** the reference's internal block type when it differs from `type` (it keys action_id and ancestor_type) */
  btype?: string;
  nodes: TraceNode[];
  /**
   * A message that never produced a transaction (its sender's action phase failed): the action is reconstructed
   * from the sender's external request. Such "ghost" actions list only the sender side among their accounts.
   */
  ghost?: { msgHash: string };
  /** the transaction that caused the action; defaults to the parent of its earliest node */
  initiator?: TraceNode | null;
  success: boolean;
  fields: Partial<ClassifiedAction>;
  children?: ActionDraft[];
}

export interface MatchContext {
  tree: TraceTree;
  /** nodes already covered by an accepted action */
  claimed: Set<TraceNode>;
}

export interface Matcher {
  /** protocol family, for diagnostics */
  name: string;
  match(ctx: MatchContext): ActionDraft[];
}

/** Builds the action a flow starting at this node forms, or null when the node does not start one. */
export type FlowBuilder = (ctx: MatchContext, node: TraceNode) => ActionDraft | null;

/**
 * The common matcher: flows that start where an internal message with one of these opcodes arrives. Builders of
 * the same opcode are tried in order; the first draft whose transactions are still free is taken.
 */
export function opcodeMatcher(name: string, builders: ReadonlyArray<readonly [number, FlowBuilder]>): Matcher {
  const byOp = new Map<number, FlowBuilder[]>();
  for (const [op, build] of builders) byOp.set(op, [...(byOp.get(op) ?? []), build]);
  return {
    name,
    match(ctx) {
      const drafts: ActionDraft[] = [];
      for (const node of ctx.tree.nodes) {
        if (node.op === null || !node.inMsg?.source || !isFree(ctx, node)) continue;
        for (const build of byOp.get(node.op) ?? []) {
          const draft = build(ctx, node);
          if (draft && isFree(ctx, ...draft.nodes)) {
            drafts.push(draft);
            break;
          }
        }
      }
      return drafts;
    },
  };
}

export function iface(ctx: MatchContext, address: RawAddress | null | undefined): AccountInterfaces {
  return interfacesOf(ctx.tree, address);
}

/** The jetton master of a jetton wallet when the indexer knows the wallet, else null. */
export function jettonOfWallet(ctx: MatchContext, wallet: RawAddress | null | undefined): RawAddress | null {
  const w = iface(ctx, wallet).JettonWallet as { jetton?: string } | undefined;
  return normalizeAddress(w?.jetton ?? null);
}

export function ownerOfWallet(ctx: MatchContext, wallet: RawAddress | null | undefined): RawAddress | null {
  const w = iface(ctx, wallet).JettonWallet as { owner?: string } | undefined;
  return normalizeAddress(w?.owner ?? null);
}

export function isFree(ctx: MatchContext, ...nodes: (TraceNode | null | undefined)[]): boolean {
  return nodes.every((n) => !n || !ctx.claimed.has(n));
}

/** Unique, defined nodes in lt order. */
export function nodeSet(...nodes: (TraceNode | null | undefined | false)[]): TraceNode[] {
  return [...new Set(nodes.filter((n): n is TraceNode => !!n))].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
}

/**
 * An action starts when the message that caused its first transaction was created and ends with its last
 * transaction (the reference classifier's convention, which the golden fixtures' lt selectors follow); external
 * and tick-tock transactions start at their own lt.
 */
function messageLt(node: TraceNode): bigint {
  const created = node.inMsg?.created_lt;
  return created !== null && created !== undefined ? BigInt(created) : node.lt;
}

const bigMin = (xs: bigint[]) => xs.reduce((a, b) => (b < a ? b : a));
const bigMax = (xs: bigint[]) => xs.reduce((a, b) => (b > a ? b : a));

/**
 * The usual draft: a flow of transactions that succeeded when none of them failed.
 */
export function flowDraft(
  type: string,
  nodes: (TraceNode | null | undefined | false)[],
  fields: ActionDraft['fields'],
  extra: Pick<ActionDraft, 'btype' | 'children'> = {},
): ActionDraft {
  const set = nodeSet(...nodes);
  return { type, nodes: set, success: !set.some(txFailed), fields, ...extra };
}

function sha256b64(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/** Turns an accepted draft (and its nested drafts) into finished actions. */
export function finishDraft(
  tree: TraceTree,
  draft: ActionDraft,
  parent: { actionId: string; ancestors: string[] } | null,
): ClassifiedAction[] {
  const nodes = nodeSet(...draft.nodes);
  if (nodes.length === 0) throw new Error(`action ${draft.type} covers no transaction`);
  const first = nodes[0];
  const btype = draft.btype ?? draft.type;
  const key = draft.ghost?.msgHash ?? first.inMsg?.msg_hash ?? first.tx.hash;
  const actionId = sha256b64(key + btype);
  const initiator = draft.initiator !== undefined ? draft.initiator : first.parent;
  const f = draft.fields;
  const txHashes = new Set(nodes.map((n) => n.tx.hash));
  if (initiator) txHashes.add(initiator.tx.hash);
  const accounts = new Set<string>(nodes.map((n) => n.account));
  const extra = [f.source, f.source_secondary, ...(draft.ghost ? [] : [f.destination, f.destination_secondary])];
  for (const a of extra) if (a && /^-?\d+:[0-9A-F]{64}$/i.test(a)) accounts.add(normalizeAddress(a));
  if (initiator) accounts.add(initiator.account);
  const trace = tree.input.trace;
  const action: ClassifiedAction = {
    ...f,
    action_id: actionId,
    type: draft.type,
    trace_id: trace.trace_id,
    tx_hashes: [...txHashes],
    accounts: [...accounts],
    start_lt: bigMin(nodes.map(messageLt)).toString(),
    end_lt: bigMax(nodes.map((n) => n.lt)).toString(),
    start_utime: Math.min(...nodes.map((n) => n.inMsg?.created_at ?? n.tx.now)),
    end_utime: Math.max(...nodes.map((n) => n.tx.now)),
    success: draft.success,
    mc_seqno_end: Math.max(...nodes.map((n) => n.tx.mc_block_seqno ?? 0)),
    trace_end_lt: String(trace.end_lt),
    trace_end_utime: trace.end_utime,
    trace_mc_seqno_end: trace.mc_seqno_end,
    trace_external_hash: trace.external_hash ?? null,
    trace_external_hash_norm: trace.external_hash_norm ?? null,
    ancestor_type: parent ? parent.ancestors : null,
    parent_action_id: parent?.actionId ?? null,
  };
  const out = [action];
  for (const child of draft.children ?? []) {
    out.push(...finishDraft(tree, child, { actionId, ancestors: [...(parent?.ancestors ?? []), btype] }));
  }
  return out;
}
