import type { ChainSource } from '@tongate/chain';
import type { RequestContext } from '@tongate/stubs';

/** The v2 success body: `{ok, result, "@extra": "<unix time>:<backend id>:<elapsed ms>"}`. */
export function ok<T>(chain: ChainSource, ctx: RequestContext, result: T) {
  const elapsedMs = Math.max(0, performance.now() - ctx.startedAt);
  const extra = `${(Date.now() / 1000).toFixed(3)}:${chain.backendId}:${elapsedMs.toFixed(3)}`;
  return { status: 200 as const, body: { ok: true as const, result, '@extra': extra } };
}
