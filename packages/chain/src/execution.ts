import { Cell, getMethodId, parseTuple, type Transaction, type TupleItem } from '@ton/core';
import { stackLimitViolation } from './stack-limits.js';
import { ChainError } from './errors.js';
import type { BlockIdExt, EmulationResult, GetMethodResult, TransactionId } from './source.js';

/**
 * What every backend that runs get-methods and emulates messages locally shares, so that the devnet and the
 * liteserver backend give the same results for the same state.
 */

/** Gas limit of a get-method run (tonlib's own is 1M; the devnet has always allowed more). */
export const GET_METHOD_GAS_LIMIT = 10_000_000n;
/** Exit code returned for get-methods on an account without code (what tonlib reports for uninitialized accounts). */
export const EXIT_CODE_NO_CODE = -13;

/** A get-method name or id as the 32-bit method id the TVM dispatches on. */
export function methodIdOf(method: string | number): number {
  if (typeof method === 'number') {
    if (!Number.isInteger(method) || method < -(2 ** 31) || method >= 2 ** 31)
      throw new ChainError('invalid', `method id must be a 32-bit integer, got ${method}`);
    return method;
  }
  if (method.length === 0) throw new ChainError('invalid', 'method name is empty');
  return /^-?\d+$/.test(method) ? Number(method) : getMethodId(method);
}

/** A get-method call's method id, after checking its arguments against the limits every backend enforces. */
export function getMethodCall(method: string | number, stack: TupleItem[]): number {
  const methodId = methodIdOf(method);
  // Past these the emulator traps (see STACK_LIMITS), whatever API the stack came from.
  const violation = stackLimitViolation(stack);
  if (violation) throw new ChainError('invalid', `stack: ${violation}`);
  return methodId;
}

/** The emulator's get-method output (the sandbox's `output` object) as a GetMethodResult of the state at `block`. */
export function getMethodResultOf(
  output: { success: true; vm_exit_code: number; gas_used: string; stack: string } | { success: false; error: string },
  block: BlockIdExt,
  lastTransaction: TransactionId | null,
): GetMethodResult {
  if (!output.success) throw new ChainError('internal', `get-method failed in the emulator: ${output.error}`);
  return {
    exitCode: output.vm_exit_code,
    gasUsed: BigInt(output.gas_used),
    stack: parseTuple(Cell.fromBase64(output.stack)),
    block,
    lastTransaction,
  };
}

/** Fees and outcome of an emulated external message's transaction (estimateFee). */
export function emulationResultOf(transaction: Transaction): EmulationResult {
  const d = transaction.description;
  if (d.type !== 'generic') throw new ChainError('internal', `unexpected ${d.type} transaction from an external message`);
  const storageFee = d.storagePhase?.storageFeesCollected ?? 0n;
  const compute = d.computePhase;
  const gasFee = compute.type === 'vm' ? compute.gasFees : 0n;
  const fwdFee = d.actionPhase?.totalFwdFees ?? 0n;
  const actionFees = d.actionPhase?.totalActionFees ?? 0n;
  // total_fees = storage + import (in_fwd_fee) + gas + action fees; the import fee is what remains.
  const inFwdFee = transaction.totalFees.coins - storageFee - gasFee - actionFees;
  return {
    transaction,
    fees: { inFwdFee, storageFee, gasFee, fwdFee },
    accepted: compute.type === 'vm' && compute.success,
    exitCode: compute.type === 'vm' ? compute.exitCode : null,
  };
}

/**
 * A failure of the emulator itself rather than of the contract it ran: a wasm trap ("memory access out of bounds"),
 * or an emscripten C++ exception that escapes as a bare number. After one, the wasm instance's memory may be
 * corrupt and every later call fails, so the executor replaces the instance (the devnet's DevnetExecutor.guard and
 * the liteserver backend's emulator).
 */
export class EmulatorFault extends Error {
  constructor(cause: unknown) {
    super(`the emulator failed on this input (${describeThrow(cause)}) and was restarted`, { cause });
    this.name = 'EmulatorFault';
  }
}

function describeThrow(e: unknown): string {
  if (e instanceof Error) return e.message.slice(0, 120);
  return `${typeof e} thrown`;
}

/** What no contract failure produces: only a broken or overrun emulator throws these. */
export function isEmulatorFault(e: unknown): boolean {
  if (!(e instanceof Error)) return true;
  const runtimeError = (globalThis as unknown as { WebAssembly?: { RuntimeError?: new () => Error } }).WebAssembly?.RuntimeError;
  if (runtimeError && e instanceof runtimeError) return true;
  return e instanceof RangeError || /memory access out of bounds|unreachable|out of memory/i.test(e.message);
}
