import { getMethodId, type Transaction } from '@ton/core';
import { ChainError } from './errors.js';
import type { EmulationResult } from './source.js';

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
    if (!Number.isInteger(method) || method < -(2 ** 31) || method >= 2 ** 31) throw new ChainError('invalid', `method id must be a 32-bit integer, got ${method}`);
    return method;
  }
  if (method.length === 0) throw new ChainError('invalid', 'method name is empty');
  return /^-?\d+$/.test(method) ? Number(method) : getMethodId(method);
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
