import type { Request, Response } from 'express';

/**
 * CORS for browsers: dApps call the API straight from their pages (@ton/ton's TonClient sends `X-API-Key` and
 * `X-Ton-Client-Version`, which makes every call a preflighted one). Preflights are answered by the front door
 * before keys and limits, so they need no key and are never charged.
 */

/** The request headers clients of the hosted API send. */
const ALLOWED_HEADERS = [
  'Content-Type',
  'X-API-Key',
  'X-Ton-Client-Version',
  'X-Timeout',
  'X-No-Address-Book',
  'X-No-Metadata',
  'X-Actions-Version',
  'X-Request-Id',
].join(', ');
/** The reply headers a page may read: the version, when to retry after a 429, and the id to quote in a report. */
const EXPOSED_HEADERS = 'X-API-Version, Retry-After, X-Request-Id';
const ALLOWED_METHODS = 'GET, POST, OPTIONS';
/** A browser keeps a preflight's answer this long (Chromium caps it at 2 h, Firefox at 24 h). */
const MAX_AGE_S = '86400';

export interface Cors {
  /** Sets the CORS reply headers every reply carries (errors and 429s included). */
  decorate(req: Request, res: Response): void;
  /** Answers an OPTIONS request (a preflight, or a plain OPTIONS): 204 with what the path allows. */
  preflight(req: Request, res: Response): void;
}

export function createCors(origins: readonly string[]): Cors {
  const any = origins.includes('*');
  const allowed = new Set(origins.map((o) => o.toLowerCase()));
  // The origin a reply names: `*`, the request's own origin when it is listed, or none (the browser then refuses).
  const allowOrigin = (req: Request): string | undefined => {
    if (any) return '*';
    const origin = req.headers.origin;
    return typeof origin === 'string' && allowed.has(origin.toLowerCase()) ? origin : undefined;
  };
  return {
    decorate(req, res) {
      // With a list, the reply depends on the request's Origin: caches must keep one copy per origin.
      if (!any) res.setHeader('Vary', 'Origin');
      const origin = allowOrigin(req);
      if (origin === undefined) return;
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    },
    preflight(req, res) {
      res.setHeader('Allow', ALLOWED_METHODS);
      if (allowOrigin(req) !== undefined) {
        res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
        res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
        res.setHeader('Access-Control-Max-Age', MAX_AGE_S);
      }
      res.status(204).end();
    },
  };
}
