import { serializeTuple, type Cell, type TupleItem } from '@ton/core';
import {
  Executor,
  type BlockId,
  type ExecutorEmulationResult,
  type ExecutorGetMethodArgs,
  type ExecutorGetMethodResult,
  type ExecutorRunTickTockArgs,
  type ExecutorRunTransactionArgs,
  type ExecutorVerbosity,
  type IExecutor,
  type PrevBlocksInfo,
} from '@ton/sandbox';
import { ChainError, EmulatorFault, isEmulatorFault } from '@tongate/chain';
import { createEmulatorExecutor, emulatorAccess, type EmulatorAccess, type EmulatorModule, type SeamOptions } from './fast/index.js';

/**
 * The sandbox executor re-serializes c7's PREVBLOCKS tuple (16 block ids, dozens of cells) and the global library
 * dictionary for every transaction; for a simple wallet transfer that is about a quarter of the CPU. The devnet
 * changes both once per round, so this wrapper serializes each once (cached by object identity) and hands the same
 * parameters to the same emulator entry point as @ton/sandbox 0.41.0's own runTransaction. It reaches the emulator
 * through the fast/ seam; on another sandbox version (no emulator access) it takes the stock path.
 */
/** A string kept as a C string in wasm memory while it stays the same (the config, the libraries). */
class PinnedString {
  private current: { value: string; ptr: number } | undefined;

  get(module: EmulatorModule, value: string): number {
    if (this.current?.value !== value) {
      if (this.current) module._free(this.current.ptr);
      const size = module.lengthBytesUTF8(value) + 1;
      const ptr = module._malloc(size);
      module.stringToUTF8(value, ptr, size);
      this.current = { value, ptr };
    }
    return this.current.ptr;
  }
}

/** One wasm buffer, grown as needed, that per-call strings are written into back to back. */
class ScratchStrings {
  private ptr = 0;
  private size = 0;

  write(module: EmulatorModule, values: string[]): number[] {
    const lengths = values.map((v) => module.lengthBytesUTF8(v) + 1);
    const total = lengths.reduce((a, b) => a + b, 0);
    if (total > this.size) {
      if (this.ptr) module._free(this.ptr);
      this.size = Math.max(total, this.size * 2, 64 * 1024);
      this.ptr = module._malloc(this.size);
    }
    const out: number[] = [];
    let at = this.ptr;
    values.forEach((v, i) => {
      module.stringToUTF8(v, at, lengths[i]);
      out.push(at);
      at += lengths[i];
    });
    return out;
  }
}

/** The same split of the VM log the sandbox applies (debug lines apart). */
function splitVmLog(log: string): { vmLog: string; debugLog: string } {
  const vm: string[] = [];
  const debug: string[] = [];
  for (const line of log.split('\n')) (line.startsWith('#DEBUG#') ? debug : vm).push(line);
  return { vmLog: vm.join('\n'), debugLog: debug.join('\n') };
}

const VERBOSITY: Record<ExecutorVerbosity, number> = {
  short: 0,
  full: 1,
  full_location: 2,
  full_location_gas: 3,
  full_location_stack: 4,
  full_location_stack_verbose: 5,
};

function blockIdTuple(id: BlockId): TupleItem {
  return {
    type: 'tuple',
    items: [
      { type: 'int', value: BigInt(id.workchain) },
      { type: 'int', value: id.shard },
      { type: 'int', value: BigInt(id.seqno) },
      { type: 'int', value: BigInt('0x' + id.rootHash.toString('hex')) },
      { type: 'int', value: BigInt('0x' + id.fileHash.toString('hex')) },
    ],
  };
}

/** PREVBLOCKS as the emulator takes it: a VmStackValue tuple, without the stack's depth header. */
export function serializePrevBlocks(info: PrevBlocksInfo): string {
  const items: TupleItem[] = [{ type: 'tuple', items: info.lastMcBlocks.map(blockIdTuple) }, blockIdTuple(info.prevKeyBlock)];
  if (info.lastMcBlocks100) items.push({ type: 'tuple', items: info.lastMcBlocks100.map(blockIdTuple) });
  const stack = serializeTuple([{ type: 'tuple', items }]).beginParse();
  stack.skip(24);
  stack.loadRef();
  return stack.asCell().toBoc().toString('base64');
}

export { EmulatorFault, isEmulatorFault };

export class DevnetExecutor implements IExecutor {
  private readonly prevBlocksCache = new WeakMap<PrevBlocksInfo, string>();
  private readonly libsCache = new WeakMap<Cell, string>();
  /** Code and data of hot accounts come back as the same Cell objects (the devnet's account cache). */
  private readonly bocCache = new WeakMap<Cell, string>();
  /**
   * The config (150 KB of base64) as a C string in wasm memory, written once: the stock path copies it into the
   * heap on every get-method, which cost about as much as the rest of the JS side of the call.
   */
  private configString = new PinnedString();
  /** The global libraries likewise: they change only when a round publishes one. */
  private libsPointer = new PinnedString();
  private scratch = new ScratchStrings();
  /** Set while a replacement emulator is being built after a fault; every entry point waits for it. */
  private replacing: Promise<void> | undefined;
  /** How many times the emulator was replaced after a fault (tests and logs read it). */
  restarts = 0;

  /** The emulator's private entry points (fast/executor.ts); null → every call takes the stock path. */
  private access: EmulatorAccess | null;

  private constructor(
    private current: Executor,
    /** Which emscripten glue the emulator runs with (see fast/emscripten.ts). */
    readonly glue: 'memoized' | 'stock',
    private readonly seam: SeamOptions,
  ) {
    this.access = emulatorAccess(current, seam);
  }

  /** With the emulator's faster exception glue (see emulator.ts) unless `stockGlue`, or when that cannot be built. */
  /**
   * With the emulator's faster exception glue (fast/emscripten.ts) unless `stockGlue`, or when that cannot be built;
   * `seam` can make the fast paths assume other library versions (tests force the public-API fallback with it).
   */
  static async create(opts: { stockGlue?: boolean; seam?: SeamOptions } = {}): Promise<DevnetExecutor> {
    const seam = opts.seam ?? {};
    const fast = opts.stockGlue ? null : await createEmulatorExecutor(seam);
    return fast ? new DevnetExecutor(fast, 'memoized', seam) : new DevnetExecutor(await Executor.create(), 'stock', seam);
  }

  /** The emulator instance in use (replaced after a fault). */
  get inner(): Executor {
    return this.current;
  }

  /** Resolves when the emulator can take calls (at once unless a replacement is being built). */
  async ready(): Promise<void> {
    while (this.replacing) await this.replacing;
  }

  /**
   * Runs one emulator call; on an emulator fault the instance is thrown away and a fresh one built with the same
   * glue, so that no input can leave the network's get-methods, fee estimates and transfers broken. The pointers
   * kept into the old instance's memory go with it.
   */
  private guard<T>(call: () => T): T {
    try {
      return call();
    } catch (e) {
      if (!isEmulatorFault(e)) throw e;
      this.replace();
      throw new EmulatorFault(e);
    }
  }

  private replace(): void {
    if (this.replacing) return;
    this.restarts++;
    this.replacing = (async () => {
      const fresh = this.glue === 'memoized' ? await createEmulatorExecutor(this.seam) : null;
      this.current = fresh ?? (await Executor.create());
      this.access = emulatorAccess(this.current, this.seam);
      this.configString = new PinnedString();
      this.libsPointer = new PinnedString();
      this.scratch = new ScratchStrings();
    })().finally(() => (this.replacing = undefined));
  }

  /** Test hook: replaces the emulator as a fault would. */
  async restartForTest(): Promise<void> {
    this.replace();
    await this.ready();
  }

  /**
   * The stock runGetMethod with its per-call serializations cached (code, data, libraries, PREVBLOCKS, by object
   * identity) and the config string kept in wasm memory: the same parameters reach the same emulator entry point.
   */
  async runGetMethod(args: ExecutorGetMethodArgs): Promise<ExecutorGetMethodResult> {
    return this.retryAfterFault(() => this.runGetMethodOnce(args));
  }

  /**
   * A fault is not always the fault of the call that meets it: a get-method that returns a very deep result (the
   * elector's participant_list_extended, 316 entries) completes, and the emulator traps on the next call. So a call
   * that faults is tried once more on the fresh emulator; only a second fault is put down to its own input.
   */
  private async retryAfterFault<T>(attempt: () => Promise<T>): Promise<T> {
    await this.ready();
    try {
      return await attempt();
    } catch (e) {
      if (!(e instanceof EmulatorFault)) throw e;
      await this.ready();
      return attempt();
    }
  }

  private async runGetMethodOnce(args: ExecutorGetMethodArgs): Promise<ExecutorGetMethodResult> {
    const access = this.access;
    if (!access) {
      const inner = this.inner;
      return this.guardAsync(() => inner.runGetMethod(args));
    }
    const boc = (c: Cell) => c.toBoc().toString('base64');
    const params: Record<string, unknown> = {
      code: this.cached(this.bocCache, args.code, boc),
      data: this.cached(this.bocCache, args.data, boc),
      verbosity: VERBOSITY[args.verbosity],
      libs: args.libs ? this.cached(this.libsCache, args.libs, boc) : '',
      address: args.address.toString(),
      unixtime: args.unixTime,
      balance: args.balance.toString(),
      rand_seed: args.randomSeed.toString('hex'),
      gas_limit: args.gasLimit.toString(),
      method_id: args.methodId,
      debug_enabled: args.debugEnabled,
    };
    if (args.extraCurrency !== undefined) {
      const extra: Record<string, string> = {};
      for (const [id, amount] of Object.entries(args.extraCurrency)) extra[id] = amount.toString();
      params.extra_currencies = extra;
    }
    if (args.prevBlocksInfo !== undefined)
      params.prev_blocks_info = this.cached(this.prevBlocksCache, args.prevBlocksInfo, serializePrevBlocks);
    const stack = serializeTuple(args.stack).toBoc().toString('base64');
    const resp = this.guard(() => {
      const raw = access.invoke('_run_get_method', [JSON.stringify(params), stack, this.configString.get(access.module, args.config)]);
      return JSON.parse(access.extractString(raw));
    });
    if (resp.fail) throw new Error(`get-method emulation failed: ${JSON.stringify(resp).slice(0, 300)}`);
    const { vmLog, debugLog } = splitVmLog('vm_log' in resp.output ? resp.output.vm_log : '');
    return { output: 'vm_log' in resp.output ? { ...resp.output, vm_log: vmLog } : resp.output, logs: resp.logs, debugLogs: debugLog };
  }

  async runTickTock(args: ExecutorRunTickTockArgs): Promise<ExecutorEmulationResult> {
    return this.retryAfterFault(() => this.guardAsync(() => this.inner.runTickTock(args)));
  }

  async runTransaction(args: ExecutorRunTransactionArgs): Promise<ExecutorEmulationResult> {
    if (!this.canRunDirect) return this.retryAfterFault(() => this.guardAsync(() => this.inner.runTransaction(args)));
    const message = args.message.toBoc().toString('base64');
    return this.retryAfterFault(async () => this.runTransactionBoc({ ...args, message }));
  }

  private async guardAsync<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (e) {
      if (!isEmulatorFault(e)) throw e;
      this.replace();
      throw new EmulatorFault(e);
    }
  }

  /** Whether the direct paths can reach the emulator (the fast/ seam recognized the installed @ton/sandbox). */
  get canRunDirect(): boolean {
    return this.access !== null;
  }

  /** runTransactionBoc, tried once more on a fresh emulator after a fault (see retryAfterFault). */
  runTransactionBocRetrying(
    args: Omit<ExecutorRunTransactionArgs, 'message'> & { message: string; tickTock?: 'tick' | 'tock' },
  ): Promise<ExecutorEmulationResult> {
    return this.retryAfterFault(async () => this.runTransactionBoc(args));
  }

  /**
   * runTransaction with the message already serialized (base64 BOC): the devnet's message runner hands over the
   * message cells exactly as the emulator produced them (out_msgs) or the client sent them, without a Cell → BOC
   * round trip. Only call when canRunDirect, and after ready() (it throws EmulatorFault while a replacement is built).
   */
  runTransactionBoc(
    args: Omit<ExecutorRunTransactionArgs, 'message'> & { message: string; tickTock?: 'tick' | 'tock' },
  ): ExecutorEmulationResult {
    if (this.replacing) throw new EmulatorFault(new Error('the emulator is being restarted'));
    const access = this.access!;
    const module = access.module;
    const params: Record<string, unknown> = {
      utime: args.now,
      lt: args.lt.toString(),
      rand_seed: args.randomSeed === null ? '' : args.randomSeed.toString('hex'),
      ignore_chksig: args.ignoreChksig,
      debug_enabled: args.debugEnabled,
      // A tick-tock transaction: no message, as the sandbox's runTickTock asks for it.
      ...(args.tickTock ? { is_tick_tock: true, is_tock: args.tickTock === 'tock' } : {}),
    };
    if (args.prevBlocksInfo !== undefined)
      params.prev_blocks_info = this.cached(this.prevBlocksCache, args.prevBlocksInfo, serializePrevBlocks);
    const resp = this.guard(() => {
      const emulator = access.emulatorPointer(args.config, VERBOSITY[args.verbosity]);
      // The same arguments as the sandbox's runCommon, written into wasm memory here: the libraries once per change
      // (like the config), the rest into one reused buffer. The sandbox's string heap sorted and searched its
      // buffers on every call, a few percent of a wallet transfer.
      const libs = args.libs
        ? this.libsPointer.get(
            module,
            this.cached(this.libsCache, args.libs, (c) => c.toBoc().toString('base64')),
          )
        : 0;
      const [account, message, json] = this.scratch.write(module, [args.shardAccount, args.message, JSON.stringify(params)]);
      return JSON.parse(access.extractString(module._emulate_with_emulator(emulator, libs, account, message, json)));
    });
    if (resp.fail) throw new Error(`transaction emulation failed: ${JSON.stringify(resp).slice(0, 300)}`);
    // Shaped exactly as the sandbox's runCommon shapes it.
    const result = resp.output;
    const { vmLog, debugLog } = splitVmLog('vm_log' in result ? result.vm_log : '');
    return {
      result: result.success
        ? { success: true, transaction: result.transaction, shardAccount: result.shard_account, vmLog, actions: result.actions }
        : { success: false, error: result.error, vmResults: 'vm_log' in result ? { vmLog, vmExitCode: result.vm_exit_code } : undefined },
      logs: resp.logs,
      debugLogs: debugLog,
    };
  }

  private cached<K extends object>(cache: WeakMap<K, string>, key: K, make: (k: K) => string): string {
    let v = cache.get(key);
    if (v === undefined) cache.set(key, (v = make(key)));
    return v;
  }
}

/** An emulator fault is caused by what the request fed it (the emulator was replaced meanwhile): a 422, not a 500. */
export async function emulatorCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof EmulatorFault) throw new ChainError('invalid', e.message, { cause: e });
    throw e;
  }
}
