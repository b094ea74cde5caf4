import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { mountV2, mountV3, type RequestContext, type V2Handlers, type V3Handlers } from '@tongate/stubs';
import { NETWORKS, type Network } from './config.js';

/** What express-openapi-validator leaves on a request it matched to an operation. */
interface MatchedOperation {
  openapi?: { expressRoute?: string };
}

/**
 * The operation handlers of every network and version, found by the route the validator already matched
 * (`/api/v2/detectAddress`), so a request is not matched a second time against every route by an express Router.
 * The generated mountV2/mountV3 register each operation with `router.get|post(path, handler)` (no path
 * parameters, no other router calls); the table records those registrations under the version prefix.
 */
export function createOperationTable(v2Handlers: Record<Network, Partial<V2Handlers>>, v3Handlers: Record<Network, Partial<V3Handlers>>) {
  const byNetwork = new Map<Network, Map<string, RequestHandler>>();
  for (const network of NETWORKS) {
    const table = new Map<string, RequestHandler>();
    const recorder = (prefix: string) => {
      const register = (method: string) => (path: string, handler: RequestHandler) => {
        if (typeof path !== 'string' || path.includes(':')) throw new Error(`unsupported generated route ${method} ${String(path)}`);
        table.set(`${method} ${prefix}${path}`, handler);
      };
      return { get: register('GET'), post: register('POST') } as unknown as Router;
    };
    mountV2(recorder('/api/v2'), v2Handlers[network]);
    mountV3(recorder('/api/v3'), v3Handlers[network]);
    byNetwork.set(network, table);
  }
  return {
    /** Runs the operation the validator matched; next() (404) when none was matched. */
    dispatch(req: Request, res: Response, next: NextFunction): void {
      const route = (req as MatchedOperation).openapi?.expressRoute;
      const network = (res.locals.ctx as RequestContext).network;
      const handler =
        route === undefined ? undefined : byNetwork.get(network)!.get(`${req.method === 'HEAD' ? 'GET' : req.method} ${route}`);
      if (!handler) return next();
      void handler(req, res, next);
    },
  };
}
