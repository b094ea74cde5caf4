import type { ChainSource } from '@tongate/chain';
import type { RequestContext } from '@tongate/stubs';
import { ok } from '../envelope.js';
import type { Params } from '../parse.js';

/** What every operation receives: the front door's validated query (GET) or body (POST), and the request context. */
export interface OperationInput {
  query?: unknown;
  body?: unknown;
  ctx: RequestContext;
}

export type Operation = (input: OperationInput) => Promise<{ status: 200; body: unknown }>;

export interface Deps {
  chain: ChainSource;
}

/** Merges query and body so an operation reads its parameters the same way for GET and POST. */
export function paramsOf(input: OperationInput): Params {
  const asObject = (v: unknown) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Params) : {});
  return { ...asObject(input.query), ...asObject(input.body) };
}

/** Wraps a result-producing function into an operation answering the v2 envelope. */
export function operation(deps: Deps, produce: (params: Params, ctx: RequestContext) => Promise<unknown> | unknown): Operation {
  return async (input) => ok(deps.chain, input.ctx, await produce(paramsOf(input), input.ctx));
}

export function isTestnet(ctx: RequestContext): boolean {
  return ctx.network === 'testnet';
}
