import type { ChainSource } from '@tongate/chain';
import type { TupleItem } from '@ton/core';
import { ApiError } from '../api-error.js';
import { formatBlockIdExt, formatTransactionId } from '../format.js';
import { optionalSeqno, parseAddress, type Params } from '../parse.js';
import { formatLegacyEntry, formatStdEntry, parseLegacyStack, parseStdStack } from '../stack.js';
import { type Deps, operation } from './common.js';

/** A get-method by name, or by numeric id (a number, or a string of digits). */
export function parseMethod(value: unknown): string | number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const text = value.trim();
    return /^-?\d+$/.test(text) ? Number(text) : text;
  }
  throw new ApiError(422, 'method is required: a get-method name or numeric id');
}

/** Runs params.method of params.address with params.stack read by `parseStack` (at params.seqno when given). */
export async function runMethod(chain: ChainSource, params: Params, parseStack: (stack: unknown) => TupleItem[]) {
  const address = parseAddress(params, 'address');
  const method = parseMethod(params.method);
  const stack = parseStack(params.stack);
  return chain.runGetMethod(address, method, stack, optionalSeqno(params));
}

export function runOperations(deps: Deps) {
  const { chain } = deps;
  return {
    runGetMethod: operation<'runGetMethod'>(deps, async (params) => {
      const r = await runMethod(chain, params, parseLegacyStack);
      return {
        '@type': 'smc.runResult',
        gas_used: Number(r.gasUsed),
        stack: r.stack.map(formatLegacyEntry),
        exit_code: r.exitCode,
        block_id: formatBlockIdExt(r.block),
        last_transaction_id: formatTransactionId(r.lastTransaction),
      };
    }),

    runGetMethodStd: operation<'runGetMethodStd'>(deps, async (params) => {
      const r = await runMethod(chain, params, parseStdStack);
      return { '@type': 'smc.runResult', gas_used: Number(r.gasUsed), stack: r.stack.map(formatStdEntry), exit_code: r.exitCode };
    }),
  };
}
