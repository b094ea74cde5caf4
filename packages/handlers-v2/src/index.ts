import type { ChainSource } from '@tongate/chain';
import { type V2Handlers, v2Routes } from '@tongate/stubs';
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
  const handlers = {
    ...accountOperations(deps),
    ...blockOperations(deps),
    ...transactionOperations(deps),
    ...sendOperations(deps),
    ...runOperations(deps),
    ...utilOperations(deps),
    ...configOperations(deps),
  };
  return { ...handlers, ...postForms(handlers) };
}

type PostFormId = Extract<keyof V2Handlers, `${string}Post`>;
type GetFormHandlers = Omit<V2Handlers, PostFormId>;

/**
 * The POST form of each read operation (`<name>Post`, its query parameters as a JSON body): the GET form's handler
 * on the decoded body, so that both forms answer alike by construction.
 */
function postForms(get: GetFormHandlers): Pick<V2Handlers, PostFormId> {
  const forms: Record<string, unknown> = {};
  for (const route of v2Routes) {
    if (route.method !== 'post' || !route.operationId.endsWith('Post')) continue;
    const getForm = (get as unknown as Record<string, (input: { query: unknown; ctx: unknown }) => unknown>)[
      route.operationId.slice(0, -'Post'.length)
    ];
    if (typeof getForm !== 'function') throw new Error(`${route.operationId}: no GET form to answer it`);
    forms[route.operationId] = (input: { body: unknown; ctx: unknown }) => getForm.call(get, { query: input.body, ctx: input.ctx });
  }
  return forms as Pick<V2Handlers, PostFormId>;
}
