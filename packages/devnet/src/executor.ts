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

/**
 * The sandbox executor re-serializes c7's PREVBLOCKS tuple (16 block ids, dozens of cells) and the global library
 * dictionary for every transaction; for a simple wallet transfer that is about a quarter of the CPU. The devnet
 * changes both once per round, so this wrapper serializes each once (cached by object identity) and hands the same
 * parameters to the same emulator entry point as @ton/sandbox 0.41.0's own runTransaction. If the sandbox's
 * internals ever differ, it falls back to the stock path.
 */
interface ExecutorInternals {
  runCommon(args: unknown[]): ExecutorEmulationResult;
  getEmulatorPointer(config: string, verbosity: number): number;
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

export class DevnetExecutor implements IExecutor {
  private readonly prevBlocksCache = new WeakMap<PrevBlocksInfo, string>();
  private readonly libsCache = new WeakMap<Cell, string>();

  private constructor(readonly inner: Executor) {}

  static async create(): Promise<DevnetExecutor> {
    return new DevnetExecutor(await Executor.create());
  }

  runGetMethod(args: ExecutorGetMethodArgs): Promise<ExecutorGetMethodResult> {
    return this.inner.runGetMethod(args);
  }

  runTickTock(args: ExecutorRunTickTockArgs): Promise<ExecutorEmulationResult> {
    return this.inner.runTickTock(args);
  }

  async runTransaction(args: ExecutorRunTransactionArgs): Promise<ExecutorEmulationResult> {
    const internals = this.inner as unknown as Partial<ExecutorInternals>;
    if (typeof internals.runCommon !== 'function' || typeof internals.getEmulatorPointer !== 'function') return this.inner.runTransaction(args);
    const params: Record<string, unknown> = {
      utime: args.now,
      lt: args.lt.toString(),
      rand_seed: args.randomSeed === null ? '' : args.randomSeed.toString('hex'),
      ignore_chksig: args.ignoreChksig,
      debug_enabled: args.debugEnabled,
    };
    if (args.prevBlocksInfo !== undefined) params.prev_blocks_info = this.cached(this.prevBlocksCache, args.prevBlocksInfo, serializePrevBlocks);
    return internals.runCommon.call(this.inner, [
      internals.getEmulatorPointer.call(this.inner, args.config, VERBOSITY[args.verbosity]),
      args.libs ? this.cached(this.libsCache, args.libs, (c) => c.toBoc().toString('base64')) : 0,
      args.shardAccount,
      args.message.toBoc().toString('base64'),
      JSON.stringify(params),
    ]);
  }

  private cached<K extends object>(cache: WeakMap<K, string>, key: K, make: (k: K) => string): string {
    let v = cache.get(key);
    if (v === undefined) cache.set(key, (v = make(key)));
    return v;
  }
}
