import {
  Address,
  beginCell,
  Cell,
  loadShardAccount,
  loadTransaction,
  storeAccount,
  storeShardAccount,
  type ShardAccount,
  type Transaction,
} from '@ton/core';
import { ChainError } from './errors.js';
import { externalMessageOf, transactionMessageCells } from './messages.js';

/**
 * Whole-trace emulation of an external message: the external message's transaction, then every transaction its
 * internal messages cause, breadth first, each against the state the earlier ones left. Backends supply only how to
 * read an account's latest state and how to run one transaction (TransactionRunner); the walk is the same for all.
 */

/** One account's state as a transaction saw it (before or after), in the terms the v3 API reports. */
export interface EmulatedAccountState {
  /** Hash of the Account cell (what the transaction's state update names). */
  hash: Buffer;
  balance: bigint;
  status: 'active' | 'uninit' | 'frozen' | 'nonexist';
  codeHash: Buffer | null;
  dataHash: Buffer | null;
  frozenHash: Buffer | null;
}

export interface EmulatedTransaction {
  address: Address;
  /** Root cell of the Transaction (its hash is the transaction hash). */
  cell: Cell;
  tx: Transaction;
  stateBefore: EmulatedAccountState;
  stateAfter: EmulatedAccountState;
  /** Code and data of the account after the transaction (null when it has none). */
  codeAfter: Cell | null;
  dataAfter: Cell | null;
}

/** How one trace emulation is bounded and where it starts. */
export interface TraceEmulationOptions {
  /** Let signature checks pass in the first (external-in) transaction only. */
  ignoreChksig?: boolean;
  /** Most transactions to run (default MAX_EMULATED_TRACE_TRANSACTIONS); past it the rest count as unprocessed. */
  maxTransactions?: number;
  /** Time (Date.now() ms) after which no further transaction starts; the rest count as unprocessed. */
  deadline?: number;
  /** Masterchain block whose state the emulation starts from (default: the latest). */
  atMcSeqno?: number;
}

export interface EmulatedTrace {
  /** Transactions in the order they ran (the root first). */
  transactions: EmulatedTransaction[];
  /** Internal messages not run: the trace hit its size bound, or the emulator refused one. */
  unprocessedMessages: number;
  /** Masterchain seqno of the state the emulation started from. */
  mcSeqno: number;
}

/** What a backend provides for trace emulation. */
export interface TransactionRunner {
  /** The latest masterchain seqno whose state `shardAccount` reads. */
  readonly mcSeqno: number;
  /** An account's ShardAccount at that state (account undefined when it does not exist). */
  shardAccount(address: Address): Promise<ShardAccount>;
  /** Runs one message on an account; `error` when the emulator refuses it (an external message not accepted). */
  runTransaction(
    shardAccount: ShardAccount,
    message: Cell,
    opts: { now: number; lt: bigint; ignoreChksig: boolean },
  ): Promise<{ transaction: Cell; shardAccount: ShardAccount } | { error: string }>;
}

/** Transactions one emulated trace may hold; past it the rest is counted in unprocessedMessages. */
export const MAX_EMULATED_TRACE_TRANSACTIONS = 256;

const STATUS = { active: 'active', uninit: 'uninit', frozen: 'frozen' } as const;

export function emulatedAccountState(sa: ShardAccount): EmulatedAccountState {
  const account = sa.account;
  if (!account) {
    return {
      hash: beginCell().storeBit(false).endCell().hash(),
      balance: 0n,
      status: 'nonexist',
      codeHash: null,
      dataHash: null,
      frozenHash: null,
    };
  }
  const state = account.storage.state;
  const active = state.type === 'active' ? state.state : null;
  return {
    hash: beginCell().store(storeAccount(account)).endCell().hash(),
    balance: account.storage.balance.coins,
    status: STATUS[state.type],
    codeHash: active?.code ? active.code.hash() : null,
    dataHash: active?.data ? active.data.hash() : null,
    frozenHash: state.type === 'frozen' ? Buffer.from(state.stateHash.toString(16).padStart(64, '0'), 'hex') : null,
  };
}

/** ShardAccount cell (base64 BOC, as the emulator takes and returns it) ⇄ object. */
export function shardAccountBoc(sa: ShardAccount): string {
  return beginCell().store(storeShardAccount(sa)).endCell().toBoc().toString('base64');
}

export function shardAccountOfBoc(boc: string): ShardAccount {
  return loadShardAccount(Cell.fromBase64(boc).beginParse());
}

const rawKey = (a: Address) => `${a.workChain}:${a.hash.toString('hex')}`;

/**
 * Emulates the trace of an external-in message. Throws ChainError 'refused' when the destination does not accept
 * the external message (nothing would be sent). The state is never committed.
 */
export async function emulateTraceWith(
  runner: TransactionRunner,
  message: Cell,
  opts: TraceEmulationOptions & { now?: number } = {},
): Promise<EmulatedTrace> {
  const ext = externalMessageOf(message);
  const max = opts.maxTransactions ?? MAX_EMULATED_TRACE_TRANSACTIONS;
  const states = new Map<string, ShardAccount>();
  const stateOf = async (address: Address) => {
    const key = rawKey(address);
    let sa = states.get(key);
    if (!sa) {
      sa = await runner.shardAccount(address);
      states.set(key, sa);
    }
    return sa;
  };
  const queue: { dest: Address; cell: Cell; createdLt: bigint }[] = [{ dest: ext.info.dest as Address, cell: message, createdLt: 0n }];
  const transactions: EmulatedTransaction[] = [];
  let unprocessed = 0;
  let nextLt = 0n;
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  while (queue.length > 0) {
    const { dest, cell, createdLt } = queue.shift()!;
    // The root always runs (it decides whether there is a trace at all); a bound stops only what follows it.
    if (transactions.length >= max || (transactions.length > 0 && opts.deadline !== undefined && Date.now() > opts.deadline)) {
      unprocessed++;
      continue;
    }
    const before = await stateOf(dest);
    // Logical time only grows along the trace and stays past the account's own last transaction.
    const lt = [nextLt, before.lastTransactionLt + 1n, createdLt + 1n].reduce((a, b) => (a > b ? a : b));
    const lastPaid = before.account?.storageStats.lastPaid ?? 0;
    const root = transactions.length === 0;
    const result = await runner.runTransaction(before, cell, {
      now: Math.max(now, lastPaid),
      lt,
      ignoreChksig: root && (opts.ignoreChksig ?? false),
    });
    if ('error' in result) {
      if (transactions.length === 0) throw new ChainError('refused', `external message not accepted: ${result.error}`);
      unprocessed++;
      continue;
    }
    const tx = loadTransaction(result.transaction.beginParse());
    states.set(rawKey(dest), result.shardAccount);
    const after = result.shardAccount.account?.storage.state;
    const active = after?.type === 'active' ? after.state : null;
    transactions.push({
      address: dest,
      cell: result.transaction,
      tx,
      stateBefore: emulatedAccountState(before),
      stateAfter: emulatedAccountState(result.shardAccount),
      codeAfter: active?.code ?? null,
      dataAfter: active?.data ?? null,
    });
    nextLt = tx.lt + BigInt(tx.outMessagesCount) + 1n;
    const outCells = transactionMessageCells(result.transaction).outMsgs;
    const keys = [...tx.outMessages.keys()].sort((a, b) => a - b);
    keys.forEach((key, i) => {
      const out = tx.outMessages.get(key)!;
      if (out.info.type !== 'internal') return; // external-out: a log, nobody receives it
      queue.push({ dest: out.info.dest, cell: outCells[i]!, createdLt: out.info.createdLt });
    });
  }
  return { transactions, unprocessedMessages: unprocessed, mcSeqno: runner.mcSeqno };
}
