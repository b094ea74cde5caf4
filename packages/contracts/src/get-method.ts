import { Address, Cell, TupleReader, crc16, parseTuple, type TupleItem } from '@ton/core';
import { Executor, defaultConfig } from '@ton/sandbox';

/**
 * A small standalone "run a get-method on code + data + config" helper, for decoders whose contract keeps its answer
 * behind a get-method (getgems sales, Telemint) and for tests that check a data-cell decoder against the contract's
 * own get-method. The devnet has its own cached runner bound to its blocks; this one is state-only.
 */

/** The account a get-method runs on. */
export interface ContractState {
  code: Cell;
  data: Cell;
  /** Seen by the contract as its own address (MYADDR); a zero masterchain address when not given. */
  address?: Address;
  balance?: bigint;
}

export interface GetMethodOptions {
  /** Config dictionary (`HashmapE 32 ^Cell`) the contract reads with CONFIGPARAM; the sandbox's mainnet-like default when absent. */
  config?: Cell;
  /** NOW seen by the contract, unix seconds; the current time when absent. */
  now?: number;
  /** Gas limit of the run; a runaway contract fails with out-of-gas instead of holding the caller. */
  gasLimit?: bigint;
}

export class GetMethodError extends Error {
  constructor(
    readonly method: string,
    readonly exitCode: number | null,
    detail: string,
  ) {
    super(`get-method ${method} failed: ${detail}`);
    this.name = 'GetMethodError';
  }
}

/** Method id of a get-method name, as FunC assigns it: `crc16_xmodem(name) | 0x10000`. */
export function methodId(name: string): number {
  return (crc16(Buffer.from(name, 'utf8')).readUInt16BE(0) & 0xffff) | 0x10000;
}

const DEFAULT_GAS_LIMIT = 10_000_000n;
const ZERO_ADDRESS = new Address(-1, Buffer.alloc(32));

let sharedExecutor: Promise<Executor> | null = null;
// The wasm emulator is costly to instantiate (hundreds of ms); one per process serves every call.
const executor = (): Promise<Executor> => (sharedExecutor ??= Executor.create());

const configStrings = new WeakMap<Cell, string>();
function configString(config: Cell | undefined): string {
  if (!config) return defaultConfig;
  let s = configStrings.get(config);
  if (s === undefined) configStrings.set(config, (s = config.toBoc().toString('base64')));
  return s;
}

/** Runs `method` with `args` on `state`; the result stack is read in order. Throws GetMethodError on a non-zero exit. */
export async function runGetMethod(
  state: ContractState,
  method: string,
  args: TupleItem[] = [],
  options: GetMethodOptions = {},
): Promise<TupleReader> {
  return new TupleReader(await runGetMethodItems(state, method, args, options));
}

/** runGetMethod with the result stack as items (for callers that check each item's type). */
export async function runGetMethodItems(
  state: ContractState,
  method: string,
  args: TupleItem[] = [],
  options: GetMethodOptions = {},
): Promise<TupleItem[]> {
  const result = await (
    await executor()
  ).runGetMethod({
    code: state.code,
    data: state.data,
    methodId: methodId(method),
    stack: args,
    config: configString(options.config),
    verbosity: 'short',
    address: state.address ?? ZERO_ADDRESS,
    unixTime: options.now ?? Math.floor(Date.now() / 1000),
    balance: state.balance ?? 0n,
    randomSeed: Buffer.alloc(32),
    gasLimit: options.gasLimit ?? DEFAULT_GAS_LIMIT,
    debugEnabled: false,
  });
  if (!result.output.success) throw new GetMethodError(method, null, result.output.error);
  const exitCode = result.output.vm_exit_code;
  // 0 and 1 are the TVM's two success codes.
  if (exitCode !== 0 && exitCode !== 1) throw new GetMethodError(method, exitCode, `exit code ${exitCode}`);
  const stack = parseTuple(Cell.fromBase64(result.output.stack));
  // A deeply nested result (a long lisp list such as the elector's 316-entry participant list) leaves the emulator's
  // wasm memory corrupted: the next call on the same instance fails with "memory access out of bounds". Such a
  // result is read correctly, but the instance is then replaced.
  if (tupleDepth(stack) > SAFE_RESULT_DEPTH) sharedExecutor = null;
  return stack;
}

const SAFE_RESULT_DEPTH = 16;

function tupleDepth(items: TupleItem[]): number {
  let depth = 0;
  for (const item of items) if (item.type === 'tuple') depth = Math.max(depth, 1 + tupleDepth(item.items));
  return depth;
}
