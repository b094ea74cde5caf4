import { runMethod } from '@tongate/domain';
import { formatBlockIdExt, formatTransactionId } from '../format.js';
import { formatLegacyEntry, formatStdEntry, parseLegacyStack, parseStdStack } from '@tongate/domain';
import { type Deps, operation } from './common.js';

export function runOperations(deps: Deps) {
  const { chain } = deps;
  return {
    runGetMethod: operation<'runGetMethod'>(deps, async ({ body }) => {
      const r = await runMethod(chain, body, parseLegacyStack);
      return {
        '@type': 'smc.runResult',
        gas_used: Number(r.gasUsed),
        stack: r.stack.map(formatLegacyEntry),
        exit_code: r.exitCode,
        block_id: formatBlockIdExt(r.block),
        last_transaction_id: formatTransactionId(r.lastTransaction),
      };
    }),

    runGetMethodStd: operation<'runGetMethodStd'>(deps, async ({ body }) => {
      const r = await runMethod(chain, body, parseStdStack);
      return { '@type': 'smc.runResult', gas_used: Number(r.gasUsed), stack: r.stack.map(formatStdEntry), exit_code: r.exitCode };
    }),
  };
}
