import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Network } from './config.js';
import { HttpError } from './errors.js';
import type { LimitResult, Plan, RateLimiter } from './limiter.js';

export type KeyVerdict = { status: 'valid'; record: { id: number; network: Network; rps: number; burst: number } } | { status: 'unknown' };

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

/**
 * 401 unknown/revoked/expired key, 403 key of the other network, 429 over the plan (keyed) or over the keyless
 * allowance per client address. Runs before validation, so every operation (JSON-RPC included) is covered once
 * per HTTP request. A cached key and an in-memory limiter are answered synchronously (no promise per request);
 * otherwise the store and the limiter are awaited.
 */
export function authMiddleware(options: AuthOptions): RequestHandler {
  const { keys, limiter, keylessPlan, trustProxy } = options;

  function admit(verdict: KeyVerdict | undefined, req: Request, res: Response, next: NextFunction): void {
    const network = res.locals.ctx.network as Network;
    let subject: string;
    let plan: Plan;
    if (verdict) {
      if (verdict.status !== 'valid') return next(new HttpError(401, 'API key does not exist'));
      if (verdict.record.network !== network) return next(new HttpError(403, 'Network not allowed'));
      subject = `key:${verdict.record.id}`;
      plan = { rps: verdict.record.rps, burst: verdict.record.burst };
      res.locals.keyId = verdict.record.id;
    } else {
      // req.ip honours `trust proxy`: X-Forwarded-For counts only when configured. Without a trusted proxy the
      // socket's address is the answer, read directly (req.ip parses the forwarding headers to discard them).
      subject = `ip:${(trustProxy ? req.ip : req.socket.remoteAddress) ?? 'unknown'}`;
      plan = keylessPlan;
    }
    if (limiter.consumeSync) return limited(limiter.consumeSync(subject, plan), next);
    limiter.consume(subject, plan).then((result) => limited(result, next)).catch(next);
  }

  return (req: Request, res: Response, next: NextFunction) => {
    try {
      const key = presentedKey(req);
      if (key === undefined) return admit(undefined, req, res, next);
      if (!keys) return admit({ status: 'unknown' }, req, res, next);
      const cached = keys.resolveCached?.(key);
      if (cached) return admit(cached, req, res, next);
      keys.resolve(key).then((verdict) => admit(verdict, req, res, next)).catch(next);
    } catch (err) {
      next(err);
    }
  };
}

function limited(result: LimitResult, next: NextFunction): void {
  if (result.allowed) return next();
  next(new HttpError(429, 'Ratelimit exceeded', { 'Retry-After': String(result.retryAfterSeconds) }));
}
