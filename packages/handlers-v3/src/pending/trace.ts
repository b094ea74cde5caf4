import { classifyTrace, type AccountInterfaces, type ClassifiedAction, type TraceInput } from '@tongate/actions';
import { normalizedExternalMessageHash, type EmulatedAccountState, type EmulatedTrace } from '@tongate/chain';
import {
  formatTransaction,
  rawAddress,
  selected,
  selectedMessages,
  transactionRows,
  TX_INT64,
  TX_JSON,
  traceItem,
  type TransactionRows,
  type TxRow,
} from '@tongate/read-model';
import type { v3 } from '@tongate/sdk';
import { Address, type Cell } from '@ton/core';
import type { MessageRow } from '../indexed/messages.js';
import type { Finality, PendingEntry } from './store.js';

/**
 * An emulated trace → the pending entry the three pending operations serve. Transactions take the indexer's row
 * form first (transactionRows, the one place chain transactions become columns) and then the indexed operations'
 * wire form (formatTransaction), so an emulated transaction looks exactly like the indexed one it becomes.
 *
 * The trace item and the classifier input are built here until the traces work lands its shared formatter: this
 * module is the one place to switch.
 */

const b64 = (b: Buffer) => b.toString('base64');
const WHOLE_SHARD = -(2n ** 63n);

function wireState(s: EmulatedAccountState): v3.AccountState {
  return {
    hash: b64(s.hash),
    balance: s.balance.toString(),
    extra_currencies: {},
    account_status: s.status,
    frozen_hash: s.frozenHash ? b64(s.frozenHash) : null,
    data_hash: s.dataHash ? b64(s.dataHash) : null,
    code_hash: s.codeHash ? b64(s.codeHash) : null,
  };
}

interface Node {
  rows: TransactionRows;
  tx: TxRow;
  messages: MessageRow[];
  wire: v3.Transaction;
}

function classifierInput(
  nodes: Node[],
  trace: Omit<TraceInput['trace'], 'state'>,
  interfaces: Record<string, AccountInterfaces>,
): TraceInput {
  return {
    trace: { ...trace, state: 'complete' },
    interfaces,
    transactions: nodes.map(({ tx, messages, wire }) => ({
      hash: tx.hash,
      lt: tx.lt,
      account: tx.account,
      now: tx.now,
      mc_block_seqno: null,
      orig_status: tx.orig_status,
      end_status: tx.end_status,
      aborted: tx.aborted,
      destroyed: (tx.description as { destroyed?: boolean }).destroyed ?? false,
      compute_exit_code: (wire.description as { compute_ph?: { exit_code?: number } }).compute_ph?.exit_code ?? null,
      descr: tx.descr,
      messages: messages.map((m) => ({
        direction: m.direction,
        msg_hash: m.msg_hash,
        source: m.source,
        destination: m.destination,
        value: m.value,
        value_extra_currencies: m.value_extra_currencies,
        fwd_fee: m.fwd_fee,
        bounce: m.bounce,
        bounced: m.bounced,
        created_lt: m.created_lt,
        created_at: m.created_at === null ? null : Number(m.created_at),
        opcode: m.opcode,
        body_hash: m.body_hash,
        body: m.body,
        init_state_hash: m.init_state_hash,
        init_state: m.init_state,
      })),
    })),
  };
}

export interface PendingEntryOptions {
  ttlMs: number;
  now?: number;
  /**
   * What the index knows of the trace's accounts (jetton wallets, NFT items, pools, sales), as confirmed traces are
   * classified with: without it a jetton transfer or a purchase is read as plain calls.
   */
  interfaces?: Record<string, AccountInterfaces>;
}

/** Every account an emulated trace touches: the transactions' accounts and their messages' ends. */
export function emulatedTraceAccounts(emulated: EmulatedTrace): string[] {
  const out = new Set<string>();
  const add = (a: unknown) => {
    if (Address.isAddress(a)) out.add(rawAddress(a));
  };
  for (const t of emulated.transactions) {
    add(t.address);
    add(t.tx.inMessage?.info.src);
    for (const m of t.tx.outMessages.values()) add(m.info.dest);
  }
  return [...out];
}

/** The pending entry of an external message's emulated trace. */
export function pendingEntryOf(message: Cell, emulated: EmulatedTrace, opts: PendingEntryOptions): PendingEntry {
  const extHash = b64(message.hash());
  const key = b64(normalizedExternalMessageHash(message));
  const contents = new Map<string, string>();
  const nodes: Node[] = emulated.transactions.map((t) => {
    const rows = transactionRows(
      {
        address: t.address,
        lt: t.tx.lt,
        hash: t.cell.hash(),
        cell: t.cell,
        tx: t.tx,
        block: { workchain: t.address.workChain, shard: WHOLE_SHARD, seqno: 0, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) },
      },
      0,
      contents,
    );
    const tx = selected<TxRow>(rows.transaction, TX_INT64, TX_JSON);
    const messages = selectedMessages(rows.messages, contents);
    const inMsg = messages.find((m) => m.direction === 'in');
    const outMsgs = messages.filter((m) => m.direction === 'out');
    const wire = formatTransaction(tx, inMsg, outMsgs, wireState(t.stateBefore), wireState(t.stateAfter));
    return { rows, tx, messages, wire };
  });
  const root = nodes[0]!;
  const traceId = root.tx.hash;
  for (const n of nodes) {
    n.wire.mc_block_seqno = null;
    n.wire.trace_id = traceId;
    n.wire.trace_external_hash = extHash;
    n.wire.emulated = true;
    n.wire.finality = 'pending';
  }

  const ordered = [...nodes].sort((a, b) => (BigInt(a.tx.lt) < BigInt(b.tx.lt) ? -1 : 1));
  const last = ordered[ordered.length - 1]!;
  const internalEdges = nodes.reduce((sum, n) => sum + n.wire.out_msgs.filter((m) => m.destination !== null).length, 0);
  const traceFields = {
    trace_id: traceId,
    external_hash: extHash,
    external_hash_norm: key,
    mc_seqno_start: emulated.mcSeqno,
    mc_seqno_end: 0,
    start_lt: root.tx.lt,
    end_lt: last.tx.lt,
    start_utime: root.tx.now,
    end_utime: Math.max(...nodes.map((n) => n.tx.now)),
  };
  let actions: ClassifiedAction[] = [];
  let classification: v3.TraceInfo['classification_state'] = 'ok';
  try {
    actions = classifyTrace(classifierInput(nodes, traceFields, opts.interfaces ?? {}));
  } catch {
    classification = 'failed';
  }
  // The /traces item shape, built as for an indexed trace (one formatter for both).
  const trace = traceItem(
    {
      ...traceFields,
      state: emulated.unprocessedMessages > 0 ? 'pending' : 'complete',
      messages: internalEdges + 1,
      transactions: nodes.length,
      pending_messages: emulated.unprocessedMessages,
      classification_state: classification,
    },
    nodes.map((n) => n.wire),
    { isIncomplete: emulated.unprocessedMessages > 0 },
  );
  const now = opts.now ?? Date.now();
  return {
    key,
    extHash,
    traceId,
    accounts: [...new Set(nodes.map((n) => n.tx.account))],
    rootAccount: root.tx.account,
    // The root account's last transaction before the message: the tracker watches for the ones after it.
    rootLastLt: emulated.transactions[0]!.tx.prevTransactionLt.toString(),
    finality: 'pending',
    landedTxHash: null,
    mcSeqno: null,
    createdAt: now,
    expiresAt: now + opts.ttlMs,
    trace,
    actions: actions.map((a) => ({ ...a, trace_mc_seqno_end: 0, mc_seqno_end: 0 })),
  };
}

/** The entry's trace with every transaction at the entry's finality (and block, once finalized). */
export function traceAt(entry: PendingEntry): v3.Trace {
  const transactions = Object.fromEntries(
    Object.entries(entry.trace.transactions ?? {}).map(([hash, tx]) => [hash, transactionAt(entry, tx)]),
  );
  return { ...entry.trace, transactions };
}

export function transactionAt(entry: PendingEntry, tx: v3.Transaction): v3.Transaction {
  return { ...tx, finality: entry.finality as Finality, mc_block_seqno: entry.finality === 'finalized' ? entry.mcSeqno : null };
}
