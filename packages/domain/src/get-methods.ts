import type { ChainSource } from '@tongate/chain';
import type { Address, TupleItem } from '@ton/core';
import { ApiError } from '@tongate/stubs';

/** A get-method by name, or by numeric id (a number, or a string of digits). */
export function parseMethod(value: unknown): string | number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const text = value.trim();
    return /^-?\d+$/.test(text) ? Number(text) : text;
  }
  throw new ApiError(422, 'method is required: a get-method name or numeric id');
}

/** A get-method call as the v2 and v3 runGetMethod bodies give it (decoded; the stack still in its wire form). */
export interface GetMethodCall {
  address: Address;
  method: unknown;
  stack: unknown;
  seqno?: number;
}

/** Runs `call.method` of `call.address` with `call.stack` read by `parseStack` (at `call.seqno` when given). */
export async function runMethod(chain: ChainSource, call: GetMethodCall, parseStack: (stack: unknown) => TupleItem[]) {
  return chain.runGetMethod(call.address, parseMethod(call.method), parseStack(call.stack), call.seqno);
}
