import type { Cell } from '@ton/core';
import type { ChainSource } from '@tongate/chain';
import type { RequestContext, V2Handlers } from '@tongate/stubs';
import { ok } from '../envelope.js';
import type { Params } from '../parse.js';

/** What every operation receives: the front door's validated query (GET) or body (POST), and the request context. */
export interface OperationInput {
  query?: unknown;
  body?: unknown;
  ctx: RequestContext;
}

/** The loose view of an operation (tests and tools that iterate over all of them). */
export type Operation = (input: OperationInput) => Promise<{ status: 200; body: unknown }>;

export type OperationId = keyof V2Handlers;

/** The `result` of an operation's 200 envelope, as the generated contract types it. */
export type ResultOf<K extends OperationId> = Extract<Awaited<ReturnType<V2Handlers[K]>>, { status: 200 }>['body']['result'];

export interface Deps {
  chain: ChainSource;
  /** How accepted external messages are sent (the pending-trace service emulates them first); default: the chain. */
  submitMessage?: (message: Cell) => Promise<{ hash: Buffer }>;
}

/** Merges query and body so an operation reads its parameters the same way for GET and POST. */
function isObject(v: unknown): v is Params {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function paramsOf(input: OperationInput): Params {
  const query = isObject(input.query) ? input.query : undefined;
  const body = isObject(input.body) ? input.body : undefined;
  // Operations only read their parameters, so one side alone is used as it is (no copy per request).
  if (!body) return query ?? {};
  if (!query) return body;
  return { ...query, ...body };
}

/**
 * Wraps a result-producing function into operation K answering the v2 envelope. The result is checked at compile
 * time against the contract's type for K.
 */
export function operation<K extends OperationId>(
  deps: Deps,
  produce: (params: Params, ctx: RequestContext) => Promise<ResultOf<K>> | ResultOf<K>,
): V2Handlers[K] {
  const run = async (input: OperationInput) => ok(deps.chain, input.ctx, await produce(paramsOf(input), input.ctx));
  return run as unknown as V2Handlers[K];
}

export function isTestnet(ctx: RequestContext): boolean {
  return ctx.network === 'testnet';
}
