import type { ChainSource } from '@tongate/chain';
import type { RequestContext, V2Handlers, V2Inputs } from '@tongate/stubs';
import { mapChainErrors } from '@tongate/domain';
import type { MessageSubmitter } from '@tongate/domain';
import { ok } from '../envelope.js';

export type OperationId = keyof V2Handlers;

/** The `result` of an operation's 200 envelope, as the generated contract types it. */
export type ResultOf<K extends OperationId> = Extract<Awaited<ReturnType<V2Handlers[K]>>, { status: 200 }>['body']['result'];

export interface Deps {
  chain: ChainSource;
  /** How accepted external messages are sent (the pending-trace service emulates them first); default: the chain. */
  submitMessage?: MessageSubmitter;
}

/**
 * Operation K answering the v2 envelope around what `produce` returns. `produce` gets the decoded input (typed by
 * the generated V2Inputs, spec defaults applied); its result is checked at compile time against the contract, and
 * its chain failures become statuses here (@tongate/domain's chain-errors.ts).
 */
export function operation<K extends OperationId>(
  deps: Deps,
  produce: (input: V2Inputs[K]) => Promise<ResultOf<K>> | ResultOf<K>,
): (input: V2Inputs[K]) => Promise<{ status: 200; body: { ok: true; result: ResultOf<K>; '@extra': string } }> {
  return mapChainErrors(async (input) => ok(deps.chain, input.ctx, await produce(input)));
}

export function isTestnet(ctx: RequestContext): boolean {
  return ctx.network === 'testnet';
}
