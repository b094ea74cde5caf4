import { Address, Cell, Dictionary } from '@ton/core';
import { EmulationError, TimeError, type Blockchain, type ExecutorVerbosity, type LogsVerbosity } from '@ton/sandbox';
import type { DevnetExecutor } from './executor.js';
import type { SandboxInternals } from './fast/index.js';
import { BitCursor, RawBoc } from './raw-boc.js';

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
  /** Internal messages to other shards, left for a later round (see RunOptions.sameShard). */
  outbound: { boc: string; from: Address; dest: Address }[];
  /** Why the chain stopped early (the sandbox's EmulationError / TimeError), if it did. */
  failure?: unknown;
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
    private readonly internals: SandboxInternals,
  ) {}

  /**
   * A runner, or null when the sandbox internals it relies on are not available (fast/sandbox.ts: another
   * @ton/sandbox version, or another shape); then use the stock path.
   */
  static create(bc: Blockchain, executor: DevnetExecutor, internals: SandboxInternals | null): MessageRunner | null {
    if (!executor.canRunDirect || !internals) return null;
    return new MessageRunner(bc, executor, internals);
  }

  /** Whether this blockchain's settings are ones the runner reproduces (library auto-deploy and the debugger are not). */
  get applicable(): boolean {
    return !this.bc.autoDeployLibraries && !this.bc.debug;
  }

  /**
   * Runs a message (a base64 BOC, delivered to the emulator as it is) and the internal messages it causes within
   * its shard; those for which `sameShard(sender, destination)` is false are returned undelivered.
   */
  async run(message: string, dest: Address, sameShard: (from: Address, to: Address) => boolean = () => true): Promise<RunResult> {
    const bc = this.bc;
    const transactions: AppliedTransaction[] = [];
    const outbound: RunResult['outbound'] = [];
    // Both stay the same during a run; the sandbox would deep-copy the seed for every transaction.
    const randomSeed = bc.random ?? Buffer.alloc(32);
    const prevBlocksInfo = bc.prevBlocks;
    const queue: { boc: string; dest: Address }[] = [{ boc: message, dest }];
    try {
      for (let item = queue.shift(); item; item = queue.shift()) {
        this.internals.increaseLt();
        const sc = this.internals.contract(await bc.getContract(item.dest));
        const now = bc.now ?? Math.floor(Date.now() / 1000);
        if (now < sc.lastTxTime) throw new TimeError(item.dest, sc.lastTxTime, now);
        const verbosity = sc.verbosity;
        const res = await this.executor.runTransactionBocRetrying({
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
          throw new EmulationError(
            r.error,
            r.vmResults?.vmLog,
            r.vmResults?.vmExitCode,
            res.logs.length === 0 ? undefined : res.logs,
            res.debugLogs.length === 0 ? undefined : res.debugLogs,
          );
        }
        const boc = Buffer.from(res.result.transaction, 'base64');
        const tx = summarize(boc, res.result.shardAccount);
        sc._account = res.result.shardAccount;
        sc.parsedAccount = undefined;
        sc.lastTxTime = tx.now;
        transactions.push({ address: item.dest, lt: tx.lt, hash: tx.hash, boc });
        for (const out of tx.internals) {
          const to = new Address(out.workchain, Buffer.from(out.account));
          if (sameShard(item.dest, to)) queue.push({ boc: out.boc, dest: to });
          else outbound.push({ boc: out.boc, from: item.dest, dest: to });
        }
      }
    } catch (failure) {
      // Like the stock path, the chain stops here; unlike it, the undelivered messages are dropped rather than
      // left in a queue that the next, unrelated sendMessage would run.
      return { transactions, outbound, failure };
    }
    return { transactions, outbound };
  }
}

/** An internal message a transaction sent: its BOC (base64) and its destination. */
interface OutInternal {
  boc: string;
  workchain: number;
  account: Uint8Array;
}

/** What the runner needs of a transaction the emulator returned: in place when it can, else with @ton/core. */
function summarize(boc: Buffer, shardAccount: string): { hash: Buffer; lt: bigint; now: number; internals: OutInternal[] } {
  const raw = rawTransactionSummary(boc, shardAccount);
  if (raw) return raw;
  const tx = transactionSummary(boc, shardAccount);
  const internals: OutInternal[] = [];
  for (const out of tx.outMessages) {
    const to = internalDestination(out);
    if (to) internals.push({ boc: out.toBoc({ idx: false, crc32: false }).toString('base64'), workchain: to.workChain, account: to.hash });
  }
  return { hash: tx.hash, lt: tx.lt, now: tx.now, internals };
}

/**
 * Hash, lt, time and internal out messages of a transaction, read with RawBoc (no @ton/core Cells): the hash is
 * the last_trans_hash of the ShardAccount the emulator returned with it, each message is its own sub-tree
 * re-serialized. Null when anything is unusual (exotic cells, an anycast or variable-length destination...), and
 * the caller decodes the transaction with @ton/core instead.
 */
export function rawTransactionSummary(
  boc: Uint8Array,
  shardAccount: string,
): { hash: Buffer; lt: bigint; now: number; internals: OutInternal[] } | null {
  const bag = RawBoc.parse(boc);
  if (!bag) return null;
  try {
    const r = bag.root;
    // transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 now:uint32 outmsg_cnt:uint15 ...
    const c = new BitCursor(bag.data[r], bag.bits[r]);
    if (c.uint(4) !== 0b0111) return null;
    c.skip(256);
    const lt = (BigInt(c.uint(32)) << 32n) | BigInt(c.uint(32));
    c.skip(256 + 64);
    const now = c.uint(32);
    const count = c.uint(15);
    // account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64
    const account = bocRoot(Buffer.from(shardAccount, 'base64'));
    const hash =
      account && account.bits === 320 && readUint64(account.data, 256) === lt ? Buffer.from(account.data.subarray(0, 32)) : bag.hash(r);
    const internals: OutInternal[] = [];
    if (count > 0) {
      // ^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ]
      const io = bag.refs[r][0];
      if (io === undefined) return null;
      const m = new BitCursor(bag.data[io], bag.bits[io]);
      const dictRef = m.bit() ? 1 : 0;
      if (!m.bit()) return null;
      const leaves: { key: number; cell: number }[] = [];
      if (!hashmapLeaves(bag, bag.refs[io][dictRef], 15, 0, leaves) || leaves.length !== count) return null;
      leaves.sort((a, b) => a.key - b.key);
      for (let i = 0; i < count; i++) {
        if (leaves[i].key !== i) return null;
        const dest = rawInternalDestination(bag, leaves[i].cell);
        if (dest === undefined) return null;
        if (dest) internals.push({ boc: bag.toBoc(leaves[i].cell).toString('base64'), ...dest });
      }
    }
    return { hash, lt, now, internals };
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}

/**
 * Collects the (key, value cell) pairs of a Hashmap n ^X (hm_edge: a label, then a leaf whose first reference is
 * the value, or a fork of two sub-maps); false when the structure is not one.
 */
export function hashmapLeaves(
  bag: RawBoc,
  cell: number | undefined,
  n: number,
  prefix: number,
  out: { key: number; cell: number }[],
): boolean {
  if (cell === undefined) return false;
  const c = new BitCursor(bag.data[cell], bag.bits[cell]);
  const lenBits = Math.ceil(Math.log2(n + 1));
  let len: number;
  let label: number;
  if (!c.bit()) {
    // hml_short$0 len:(Unary ~n) s:(n * Bit)
    len = 0;
    while (c.bit()) len++;
    if (len > n) return false;
    label = c.uint(len);
  } else if (!c.bit()) {
    // hml_long$10 n:(#<= m) s:(n * Bit)
    len = c.uint(lenBits);
    if (len > n) return false;
    label = c.uint(len);
  } else {
    // hml_same$11 v:Bit n:(#<= m)
    const v = c.uint(1);
    len = c.uint(lenBits);
    if (len > n) return false;
    label = v ? 2 ** len - 1 : 0;
  }
  const key = prefix * 2 ** len + label;
  const rest = n - len;
  const refs = bag.refs[cell];
  if (rest === 0) {
    if (refs.length < 1) return false;
    out.push({ key, cell: refs[0] });
    return true;
  }
  return (
    refs.length === 2 && hashmapLeaves(bag, refs[0], rest - 1, key * 2, out) && hashmapLeaves(bag, refs[1], rest - 1, key * 2 + 1, out)
  );
}

/**
 * The destination of an internal message (int_msg_info$0 ihr_disabled bounce bounced src dest ...) read in place:
 * null for an external-out message, undefined for an address this reader leaves to @ton/core (anycast, addr_var).
 */
function rawInternalDestination(bag: RawBoc, cell: number): { workchain: number; account: Buffer } | null | undefined {
  const c = new BitCursor(bag.data[cell], bag.bits[cell]);
  if (c.bit()) return null;
  c.skip(3);
  const src = rawAddress(c);
  if (src === undefined) return undefined;
  const dest = rawAddress(c);
  return dest ?? undefined;
}

/**
 * The hash and destination of an external message read in place: ext_in_msg_info$10 src:MsgAddressExt
 * dest:MsgAddressInt import_fee:Grams, addressed to a plain address in workchain 0 or -1. Null for anything else
 * (the caller then decodes it with @ton/core, which names what is wrong). The rest of the message is the emulator's
 * to read.
 */
export function rawExternalMessage(boc: Uint8Array): { hash: Buffer; dest: Address } | null {
  const bag = RawBoc.parse(boc);
  if (!bag) return null;
  try {
    const c = new BitCursor(bag.data[bag.root], bag.bits[bag.root]);
    if (c.uint(2) !== 0b10) return null;
    const src = c.uint(2);
    if (src === 0b01) c.skip(c.uint(9));
    else if (src !== 0b00) return null;
    const dest = rawAddress(c);
    if (!dest || (dest.workchain !== 0 && dest.workchain !== -1)) return null;
    c.skip(c.uint(4) * 8);
    return { hash: bag.hash(bag.root), dest: new Address(dest.workchain, dest.account) };
  } catch (e) {
    if (e instanceof RangeError) return null;
    throw e;
  }
}

/** MsgAddressInt as addr_none (null) or a plain addr_std; undefined for anything else. */
function rawAddress(c: BitCursor): { workchain: number; account: Buffer } | null | undefined {
  const tag = c.uint(2);
  if (tag === 0) return null;
  if (tag !== 2 || c.bit()) return undefined;
  const wc = c.uint(8);
  return { workchain: wc >= 128 ? wc - 256 : wc, account: c.bytes(256) };
}

/**
 * Hash, lt, time and out messages of a transaction with @ton/core: the fallback for what rawTransactionSummary
 * declines. A transaction without out messages is still not decoded: its hash is the last_trans_hash of the
 * ShardAccount the emulator returned with it, and lt/now sit in the root cell of its BOC.
 */
export function transactionSummary(boc: Buffer, shardAccount: string): { hash: Buffer; lt: bigint; now: number; outMessages: Cell[] } {
  const root = bocRoot(boc);
  const account = bocRoot(Buffer.from(shardAccount, 'base64'));
  // transaction$0111 account_addr:bits256 lt:uint64 prev_trans_hash:bits256 prev_trans_lt:uint64 now:uint32 outmsg_cnt:uint15
  // account_descr$_ account:^Account last_trans_hash:bits256 last_trans_lt:uint64
  if (
    root &&
    root.bits >= 691 &&
    readUint(root.data, 0, 4) === 0b0111 &&
    readUint(root.data, 676, 15) === 0 &&
    account &&
    account.bits === 320
  ) {
    const lt = readUint64(root.data, 260);
    if (readUint64(account.data, 256) === lt)
      return { hash: Buffer.from(account.data.subarray(0, 32)), lt, now: readUint(root.data, 644, 32), outMessages: [] };
  }
  const cell = Cell.fromBoc(boc)[0];
  return { hash: cell.hash(), ...readTransaction(cell) };
}

/** The root cell's data of a BOC read with RawBoc; null for anything RawBoc declines. */
export function bocRoot(boc: Buffer): { data: Buffer; bits: number } | null {
  const bag = RawBoc.parse(boc);
  return bag ? { data: bag.data[bag.root], bits: bag.bits[bag.root] } : null;
}

/** `n` ≤ 32 bits of `data` from bit `offset`, big-endian. */
function readUint(data: Buffer, offset: number, n: number): number {
  let v = 0;
  for (let i = offset; i < offset + n; i++) v = v * 2 + ((data[i >> 3] >> (7 - (i & 7))) & 1);
  return v;
}

function readUint64(data: Buffer, offset: number): bigint {
  return (BigInt(readUint(data, offset, 32)) << 32n) | BigInt(readUint(data, offset + 32, 32));
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
