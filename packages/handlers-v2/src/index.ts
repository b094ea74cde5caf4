import type { ChainSource } from '@tongate/chain';
import type { V2Handlers } from '@tongate/stubs';
import { accountOperations } from './operations/accounts.js';
import { blockOperations } from './operations/blocks.js';
import type { Deps } from './operations/common.js';
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
