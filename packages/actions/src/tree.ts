import { Cell, type Slice } from '@ton/core';
import type { AccountInterfaces, RawAddress, TraceInput, TraceMessage, TraceTransaction } from './types.js';

/**
 * One transaction of the trace together with the message that caused it: the unit every matcher works on.
 * `children` are the transactions caused by its outbound messages, ordered by lt.
 */
export interface TraceNode {
  tx: TraceTransaction;
  /** null for tick-tock transactions */
  inMsg: TraceMessage | null;
  outMsgs: TraceMessage[];
  parent: TraceNode | null;
  children: TraceNode[];
  /** opcode of the inbound message as an unsigned 32-bit number, null without one */
  op: number | null;
  lt: bigint;
  account: RawAddress;
}

export interface TraceTree {
  input: TraceInput;
  nodes: TraceNode[];
  roots: TraceNode[];
  byMsgHash: Map<string, TraceNode>;
}

export function unsignedOp(op: number | null | undefined): number | null {
  return op === null || op === undefined ? null : op >>> 0;
}

export function normalizeAddress(address: string): RawAddress;
export function normalizeAddress(address: string | null | undefined): RawAddress | null;
export function normalizeAddress(address: string | null | undefined): RawAddress | null {
  if (!address) return null;
  const i = address.indexOf(':');
  return i < 0 ? address : `${address.slice(0, i)}:${address.slice(i + 1).toUpperCase()}`;
}

export function buildTree(input: TraceInput): TraceTree {
  const nodes: TraceNode[] = input.transactions.map((tx) => {
    const inMsg = tx.messages.find((m) => m.direction === 'in') ?? null;
    const outMsgs = tx.messages
      .filter((m) => m.direction === 'out')
      .sort((a, b) => Number(BigInt(a.created_lt ?? 0) - BigInt(b.created_lt ?? 0)));
    return {
      tx,
      inMsg,
      outMsgs,
      parent: null,
      children: [],
      op: unsignedOp(inMsg?.opcode),
      lt: BigInt(tx.lt),
      account: normalizeAddress(tx.account),
    };
  });
  nodes.sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0));
  const byMsgHash = new Map<string, TraceNode>();
  for (const n of nodes) if (n.inMsg) byMsgHash.set(n.inMsg.msg_hash, n);
  for (const n of nodes) {
    for (const m of n.outMsgs) {
      const child = byMsgHash.get(m.msg_hash);
      if (child && child !== n) {
        child.parent = n;
        n.children.push(child);
      }
    }
  }
  return { input, nodes, roots: nodes.filter((n) => !n.parent), byMsgHash };
}

const cellCache = new WeakMap<TraceMessage, Cell | null>();

/** The body of a message as a cell, or null when absent or unreadable. */
export function bodyCell(msg: TraceMessage | null | undefined): Cell | null {
  if (!msg?.body) return null;
  let cell = cellCache.get(msg);
  if (cell === undefined) {
    try {
      cell = Cell.fromBase64(msg.body);
    } catch {
      cell = null;
    }
    cellCache.set(msg, cell);
  }
  return cell;
}

/** A fresh slice over the node's inbound body, or null. */
export function bodySlice(node: TraceNode | null | undefined): Slice | null {
  return bodyCell(node?.inMsg)?.beginParse() ?? null;
}

/** Whether the transaction failed: aborted, or its compute phase exited with an error. */
export function txFailed(node: TraceNode): boolean {
  const ec = node.tx.compute_exit_code;
  return node.tx.aborted || (ec !== null && ec !== 0 && ec !== 1);
}

export function interfacesOf(tree: TraceTree, address: RawAddress | null | undefined): AccountInterfaces {
  if (!address) return {};
  return tree.input.interfaces?.[address] ?? tree.input.interfaces?.[normalizeAddress(address)] ?? {};
}

/** Depth-first walk below a node (not including it). */
export function* descendants(node: TraceNode): Generator<TraceNode> {
  for (const c of node.children) {
    yield c;
    yield* descendants(c);
  }
}

export function childWithOp(node: TraceNode | null | undefined, ...ops: number[]): TraceNode | undefined {
  return node?.children.find((c) => c.op !== null && ops.includes(c.op));
}

/** The chain of messages a flow passes on, each the child with the next opcode of the one before (undefined from the first missing step). */
export function childChain(node: TraceNode | null | undefined, ...ops: number[]): (TraceNode | undefined)[] {
  const out: (TraceNode | undefined)[] = [];
  let cur: TraceNode | undefined = node ?? undefined;
  for (const op of ops) out.push((cur = childWithOp(cur, op)));
  return out;
}

export function descendantWithOp(node: TraceNode | null | undefined, ...ops: number[]): TraceNode | undefined {
  if (!node) return undefined;
  for (const d of descendants(node)) if (d.op !== null && ops.includes(d.op)) return d;
  return undefined;
}

/** External-out (log) messages a node emitted with this opcode. */
export function logsWithOp(node: TraceNode, op: number): TraceMessage[] {
  return node.outMsgs.filter((m) => !m.destination && unsignedOp(m.opcode) === op);
}

export function* ancestors(node: TraceNode): Generator<TraceNode> {
  for (let p = node.parent; p; p = p.parent) yield p;
}

/** The node and everything below it. */
export function subtree(node: TraceNode): TraceNode[] {
  return [node, ...descendants(node)];
}
