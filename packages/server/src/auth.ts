import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Network } from './config.js';
import { HttpError } from './errors.js';
import type { Plan, RateLimiter } from './limiter.js';

export type KeyVerdict = { status: 'valid'; record: { id: number; network: Network; rps: number; burst: number } } | { status: 'unknown' };

/** What auth needs from the key store (KeyLookup of @tongate/store fits). */
export interface KeyResolver {
  resolve(key: string): Promise<KeyVerdict>;
}

export interface AuthOptions {
  keys: KeyResolver | undefined;
  limiter: RateLimiter;
  keylessPlan: Plan;
}

/** The key of a request: the X-API-Key header wins over the api_key query parameter. */
export function presentedKey(req: Request): string | undefined {
  const header = req.headers['x-api-key'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader) return fromHeader;
  const queryStart = req.originalUrl.indexOf('?');
  if (queryStart < 0) return undefined;
  const fromQuery = new URLSearchParams(req.originalUrl.slice(queryStart + 1)).get('api_key');
  return fromQuery || undefined;
}

/**
 * 401 unknown/revoked/expired key, 403 key of the other network, 429 over the plan (keyed) or over the keyless
 * allowance per client address. Runs before validation, so every operation (JSON-RPC included) is covered once
 * per HTTP request.
 */
export function authMiddleware(options: AuthOptions): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const network = res.locals.ctx.network as Network;
      const key = presentedKey(req);
      let subject: string;
      let plan: Plan;
      if (key !== undefined) {
        const verdict = options.keys ? await options.keys.resolve(key) : { status: 'unknown' as const };
        if (verdict.status !== 'valid') throw new HttpError(401, 'API key does not exist');
        if (verdict.record.network !== network) throw new HttpError(403, 'Network not allowed');
        subject = `key:${verdict.record.id}`;
        plan = { rps: verdict.record.rps, burst: verdict.record.burst };
        res.locals.keyId = verdict.record.id;
      } else {
        // req.ip honours `trust proxy`: X-Forwarded-For counts only when configured.
        subject = `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
        plan = options.keylessPlan;
      }
      const limit = await options.limiter.consume(subject, plan);
      if (!limit.allowed) {
        throw new HttpError(429, 'Ratelimit exceeded', { 'Retry-After': String(limit.retryAfterSeconds) });
      }
      next();
    } catch (err) {
      next(err);
    }
  };
}
