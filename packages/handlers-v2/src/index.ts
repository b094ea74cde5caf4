import type { ChainSource } from '@tongate/chain';
import type { V2Handlers } from '@tongate/stubs';
import { accountOperations } from './operations/accounts.js';
import { blockOperations } from './operations/blocks.js';
import type { Deps, Operation } from './operations/common.js';
import { configOperations } from './operations/config.js';
import { runOperations } from './operations/run.js';
import { sendOperations } from './operations/send.js';
import { transactionOperations } from './operations/transactions.js';
import { utilOperations } from './operations/utils.js';

/**
 * Every API v2 operation except jsonRPC (the front door dispatches it onto these), over one ChainSource.
 * Typed as the full V2Handlers so that a missing operation or an off-contract result does not compile.
 */
export function createV2Handlers(deps: Deps): V2Handlers {
  return {
    ...accountOperations(deps),
    ...blockOperations(deps),
    ...transactionOperations(deps),
    ...sendOperations(deps),
    ...runOperations(deps),
    ...utilOperations(deps),
    ...configOperations(deps),
  };
}

/** The same operations keyed by operationId, loosely typed (tests and tools that iterate over them). */
export function allOperations(deps: { chain: ChainSource }): Record<string, Operation> {
  return createV2Handlers(deps) as unknown as Record<string, Operation>;
}

export type { Operation, OperationInput } from './operations/common.js';

// Shared with the v3 package's v2-style operations (/api/v3/runGetMethod and friends).
export { runMethod } from './operations/run.js';
export { cellFromB64, hexNumber, listToNestedPairs, MAX_DEPTH, parseNumber, stackError, withinLimits } from './stack.js';
export { b64, bocB64 } from './format.js';
export { decodeBase64, queryToken } from './parse.js';
// Shared with the v3 package's indexed operations (address and hash parameters, user-friendly forms).
export { tryParseAddress, tryParseHash } from './parse.js';
export { friendlyForms } from './friendly-address.js';
