import { Address, Cell, Dictionary } from '@ton/core';
import { EmulationError, TimeError, type Blockchain, type LogsVerbosity } from '@ton/sandbox';
import type { ExecutorVerbosity } from '@ton/sandbox';
import type { DevnetExecutor } from './executor.js';

/** A transaction the runner applied, as the devnet journals it. */
export interface AppliedTransaction {
  /** The account (the destination of the message that caused it). */
  address: Address;
  lt: bigint;
  hash: Buffer;
  /** The transaction BOC as the emulator serialized it. */
  boc: Buffer;
}

export interface RunResult {
  /** Transactions applied, in order, before the chain ended or failed. */
  transactions: AppliedTransaction[];
  /** Why the chain stopped early (the sandbox's EmulationError / TimeError), if it did. */
  failure?: unknown;
}

/** SmartContract's private state as @ton/sandbox 0.41.0 keeps it (see SmartContract.runCommon). */
interface ContractInternals {
  _account: string;
  parsedAccount: unknown;
  lastTxTime: number;
  readonly verbosity: LogsVerbosity;
  readonly debug: boolean;
}

const EXECUTOR_VERBOSITY: Record<LogsVerbosity['vmLogs'], ExecutorVerbosity> = {
  none: 'short',
  vm_logs: 'full',
  vm_logs_location: 'full_location',
  vm_logs_gas: 'full_location_gas',
  vm_logs_full: 'full_location_stack',
  vm_logs_verbose: 'full_location_stack_verbose',
};

/**
 * Runs a message and the internal messages it causes, like Blockchain.sendMessage, but without the sandbox's
 * message queue and SmartContract wrapper. Those re-parse every resulting account state (only to learn its
 * workchain), fully decode every transaction and re-encode every message, which together cost about as much CPU as
 * the TVM itself for a wallet transfer. This keeps the same per-transaction steps — lt bump, time check, the same
 * emulator entry point with the same parameters (SmartContract.createCommonArgs), the contract's state updated as
 * runCommon does — so the transactions are bit-identical to the stock path's (test/runner.test.ts). One deliberate
 * difference: messages reach the emulator as the cells that were sent (the client's BOC, the sender's out_msgs
 * entry) rather than re-encoded by @ton/core's storeMessage, which may move a body between ref and inline and so
 * change the message hash; real validators deliver the cell as it is.
 */
export class MessageRunner {
  private constructor(
    private readonly bc: Blockchain,
    private readonly executor: DevnetExecutor,
  ) {}

  /** A runner, or null when the sandbox internals it relies on are not what it expects (then use the stock path). */
  static async create(bc: Blockchain, executor: DevnetExecutor, probe: Address): Promise<MessageRunner | null> {
    const b = bc as unknown as { increaseLt?: unknown };
    if (!executor.canRunDirect || typeof b.increaseLt !== 'function') return null;
    const sc = (await bc.getContract(probe)) as unknown as Partial<ContractInternals>;
    if (typeof sc._account !== 'string' || !('parsedAccount' in sc) || typeof sc.lastTxTime !== 'number') return null;
    return new MessageRunner(bc, executor);
  }

  /** Whether this blockchain's settings are ones the runner reproduces (library auto-deploy and the debugger are not). */
  get applicable(): boolean {
    return !this.bc.autoDeployLibraries && !this.bc.debug;
  }

  async run(message: Cell, dest: Address): Promise<RunResult> {
    const bc = this.bc;
    const transactions: AppliedTransaction[] = [];
    // Both stay the same during a run; the sandbox would deep-copy the seed for every transaction.
    const randomSeed = bc.random ?? Buffer.alloc(32);
    const prevBlocksInfo = bc.prevBlocks;
    const queue: { boc: string; dest: Address }[] = [{ boc: message.toBoc().toString('base64'), dest }];
    try {
      for (let item = queue.shift(); item; item = queue.shift()) {
        (bc as unknown as { increaseLt(): void }).increaseLt();
        const sc = (await bc.getContract(item.dest)) as unknown as ContractInternals;
        const now = bc.now ?? Math.floor(Date.now() / 1000);
        if (now < sc.lastTxTime) throw new TimeError(item.dest, sc.lastTxTime, now);
        const verbosity = sc.verbosity;
        const res = this.executor.runTransactionBoc({
          config: bc.configBase64,
          libs: bc.libs ?? null,
          verbosity: EXECUTOR_VERBOSITY[verbosity.vmLogs],
          shardAccount: sc._account,
          message: item.boc,
          now,
          lt: bc.lt,
          randomSeed,
          ignoreChksig: false,
          debugEnabled: verbosity.debugLogs,
          prevBlocksInfo,
        });
        if (!res.result.success) {
          const r = res.result;
          throw new EmulationError(r.error, r.vmResults?.vmLog, r.vmResults?.vmExitCode, res.logs.length === 0 ? undefined : res.logs, res.debugLogs.length === 0 ? undefined : res.debugLogs);
        }
        const boc = Buffer.from(res.result.transaction, 'base64');
        const cell = Cell.fromBoc(boc)[0];
        const tx = readTransaction(cell);
        sc._account = res.result.shardAccount;
        sc.parsedAccount = undefined;
        sc.lastTxTime = tx.now;
        transactions.push({ address: item.dest, lt: tx.lt, hash: cell.hash(), boc });
        for (const out of tx.outMessages) {
          const to = internalDestination(out);
          if (to) queue.push({ boc: out.toBoc({ idx: false, crc32: false }).toString('base64'), dest: to });
        }
      }
    } catch (failure) {
      // Like the stock path, the chain stops here; unlike it, the undelivered messages are dropped rather than
      // left in a queue that the next, unrelated sendMessage would run.
      return { transactions, failure };
    }
    return { transactions };
  }
}

/**
 * The fields of a Transaction the runner needs, read without decoding the rest:
 * transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 now:uint32
 * outmsg_cnt:uint15 ... ^[in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message)] ...
 */
export function readTransaction(cell: Cell): { lt: bigint; now: number; outMessages: Cell[] } {
  const s = cell.beginParse();
  if (s.loadUint(4) !== 0b0111) throw new Error('not a Transaction');
  s.skip(256);
  const lt = s.loadUintBig(64);
  s.skip(256 + 64);
  const now = s.loadUint(32);
  const count = s.loadUint(15);
  const outMessages: Cell[] = [];
  if (count > 0) {
    const msgs = s.loadRef().beginParse();
    if (msgs.loadBit()) msgs.loadRef();
    const dict = msgs.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
    // Keys are 0..count-1; the sandbox delivers in dictionary order, which is ascending.
    for (let i = 0; i < count; i++) {
      const m = dict.get(i);
      if (!m) throw new Error(`transaction lists ${count} out messages but has no message ${i}`);
      outMessages.push(m);
    }
  }
  return { lt, now, outMessages };
}

/** The destination of an internal message (int_msg_info$0 ihr_disabled bounce bounced src dest ...); null for ext_out. */
function internalDestination(msg: Cell): Address | null {
  const s = msg.beginParse();
  if (s.loadBit()) return null;
  s.skip(3);
  s.loadAddress();
  return s.loadAddress();
}
