import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Network } from './config.js';
import { HttpError } from './errors.js';
import type { LimitResult, Plan, RateLimiter } from './limiter.js';

/** A valid key's record as auth reads it; the stream fields are the key's Streaming API plan (null: the default). */
export interface KeyPlanRecord {
  id: number;
  network: Network;
  rps: number;
  burst: number;
  stream_connections?: number | null;
  stream_addresses?: number | null;
}

export type KeyVerdict = { status: 'valid'; record: KeyPlanRecord } | { status: 'unknown' };

/** A key's Streaming API plan as the streaming endpoints get it; null: the deployment's default. */
export interface StreamPlanLimits {
  connections: number | null;
  addresses: number | null;
}

/** The streaming plan of the key auth admitted a request under; undefined without a key. */
export function streamPlanOf(res: Response): StreamPlanLimits | undefined {
  return res.locals.streamPlan as StreamPlanLimits | undefined;
}

/** What auth needs from the key store (KeyLookup of @tongate/store fits). */
export interface KeyResolver {
  resolve(key: string): Promise<KeyVerdict>;
  /** The verdict without I/O when it is cached; undefined otherwise. */
  resolveCached?(key: string): KeyVerdict | undefined;
}

export interface AuthOptions {
  keys: KeyResolver | undefined;
  limiter: RateLimiter;
  keylessPlan: Plan;
  /**
   * Store lookups of keys not in the cache, per client address: random keys cannot turn into a flood of queries
   * (a valid key is cached after its first lookup).
   */
  keyLookupPlan: Plan;
  /** Whether express `trust proxy` is set to anything that trusts a forwarding header. */
  trustProxy: boolean;
}

/** The key of a request: the X-API-Key header wins over the api_key query parameter. */
export function presentedKey(req: Request): string | undefined {
  const header = req.headers['x-api-key'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader) return fromHeader;
  const queryStart = req.originalUrl.indexOf('?');
  // Most requests carry no key in the query: skip parsing it unless the name appears (any case of encoding).
  if (queryStart < 0 || !/api(_|%5f)key/i.test(req.originalUrl)) return undefined;
  const fromQuery = new URLSearchParams(req.originalUrl.slice(queryStart + 1)).get('api_key');
  return fromQuery || undefined;
}

/** Who a request is counted against: its key's plan, or the client address with the keyless plan. */
export interface RateSubject {
  subject: string;
  plan: Plan;
}

/** The rate subject auth admitted a request under (JSON-RPC batches charge their further calls to it). */
export function rateSubjectOf(res: Response): RateSubject | undefined {
  return res.locals.rateSubject as RateSubject | undefined;
}

/**
 * 401 unknown/revoked/expired key, 403 key of the other network, 429 over the plan (keyed) or over the keyless
 * allowance per client address. An unknown key is no way around the keyless limit: it is counted against its
 * address's keyless allowance, so past that it gets 429 rather than another 401. Runs before validation, so every
 * operation (JSON-RPC included) is covered once per HTTP request; a JSON-RPC batch charges its further calls to the
 * same subject (see jsonrpc.ts). A cached key and an in-memory limiter are answered synchronously (no promise per
 * request); otherwise the store and the limiter are awaited.
 */
export function authMiddleware(options: AuthOptions): RequestHandler {
  const { keys, limiter, keylessPlan, keyLookupPlan, trustProxy } = options;

  // req.ip honours `trust proxy`: X-Forwarded-For counts only when configured. Without a trusted proxy the socket's
  // address is the answer, read directly (req.ip parses the forwarding headers to discard them).
  function clientAddress(req: Request): string {
    return (trustProxy ? req.ip : req.socket.remoteAddress) ?? 'unknown';
  }

  function admit(verdict: KeyVerdict | undefined, req: Request, res: Response, next: NextFunction): void {
    const network = res.locals.ctx.network as Network;
    if (verdict && verdict.status === 'valid') {
      if (verdict.record.network !== network) return next(new HttpError(403, 'Network not allowed'));
      res.locals.keyId = verdict.record.id;
      res.locals.streamPlan = {
        connections: verdict.record.stream_connections ?? null,
        addresses: verdict.record.stream_addresses ?? null,
      } satisfies StreamPlanLimits;
      return charge(
        { subject: `key:${verdict.record.id}`, plan: { rps: verdict.record.rps, burst: verdict.record.burst } },
        res,
        next,
        undefined,
      );
    }
    // Per network, as the hosted API's two hosts count theirs: a client of both networks has the allowance on each.
    const keyless: RateSubject = { subject: `ip:${network}:${clientAddress(req)}`, plan: keylessPlan };
    charge(keyless, res, next, verdict ? new HttpError(401, 'API key does not exist') : undefined);
  }

  /** Counts the request against `rate`; then `refusal` (an unknown key's 401) or the next step. */
  function charge(rate: RateSubject, res: Response, next: NextFunction, refusal: HttpError | undefined): void {
    res.locals.rateSubject = rate;
    const sync = limiter.consumeSync?.(rate.subject, rate.plan);
    if (sync) return limited(sync, next, refusal);
    limiter
      .consume(rate.subject, rate.plan)
      .then((result) => limited(result, next, refusal))
      .catch(next);
  }

  return (req: Request, res: Response, next: NextFunction) => {
    try {
      const key = presentedKey(req);
      if (key === undefined) return admit(undefined, req, res, next);
      if (!keys) return admit({ status: 'unknown' }, req, res, next);
      const cached = keys.resolveCached?.(key);
      if (cached) return admit(cached, req, res, next);
      const lookup = `lookup:${clientAddress(req)}`;
      const sync = limiter.consumeSync?.(lookup, keyLookupPlan);
      const lookUp = (allowed: LimitResult) => {
        if (!allowed.allowed) return limited(allowed, next, undefined);
        keys
          .resolve(key)
          .then((verdict) => admit(verdict, req, res, next))
          .catch(next);
      };
      if (sync) return lookUp(sync);
      limiter.consume(lookup, keyLookupPlan).then(lookUp).catch(next);
    } catch (err) {
      next(err);
    }
  };
}

function limited(result: LimitResult, next: NextFunction, refusal: HttpError | undefined): void {
  if (!result.allowed) return next(rateLimitError(result.retryAfterSeconds));
  next(refusal);
}

export function rateLimitError(retryAfterSeconds: number): HttpError {
  return new HttpError(429, 'Ratelimit exceeded', { 'Retry-After': String(retryAfterSeconds) });
}
