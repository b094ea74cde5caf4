import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { jsonRpcMethods as generatedJsonRpcMethods, mountV2, mountV3, type JsonRpcMethod, type RequestContext, type V2Handlers, type V3Handlers } from '@tongate/stubs';
import { authMiddleware, type KeyResolver } from './auth.js';
import { loadBundles, type Bundles, type OpenApiDocument } from './bundles.js';
import { NETWORKS, type Config, type Network } from './config.js';
import { docsRouter } from './docs.js';
import { errorBody, HttpError, mapError, versionOfPath } from './errors.js';
import { createJsonRpcHandler } from './jsonrpc.js';
import type { RateLimiter } from './limiter.js';
import { redactUrl, type Logger } from './logging.js';
import { createMetrics, type Metrics } from './metrics.js';
import { createNetworkResolver } from './network.js';

export interface AppOptions {
  config: Config;
  v2Handlers: Record<Network, Partial<V2Handlers>>;
  v3Handlers: Record<Network, Partial<V3Handlers>>;
  /** Absent: no key store, every presented key is unknown (401). */
  keys?: KeyResolver;
  limiter: RateLimiter;
  logger: Logger;
  metrics?: Metrics;
  bundles?: Bundles;
  jsonRpcMethods?: Readonly<Record<string, JsonRpcMethod>>;
}

const REQUEST_ID = /^[\w.-]{1,64}$/;

function validatorFor(version: 'v2' | 'v3', spec: OpenApiDocument, validateResponses: boolean, ignorePaths?: RegExp) {
  // The validator annotates the document it is given; keep the served bundle pristine. Its servers carry host
  // templates for the docs; routing by host is ours, so the validator only needs the path prefix.
  const apiSpec = { ...structuredClone(spec), servers: [{ url: `/api/${version}` }] };
  return OpenApiValidator.middleware({
    apiSpec: apiSpec as never,
    validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateApiSpec: false,
    ...(ignorePaths ? { ignorePaths } : {}),
  });
}

/** Runs a list of middlewares as one. */
function chain(handlers: unknown[]): express.RequestHandler {
  const list = (handlers as unknown[]).flat(Infinity) as express.RequestHandler[];
  return (req, res, next) => {
    let index = 0;
    const step = (err?: unknown) => {
      if (err) return next(err);
      const handler = list[index++];
      if (!handler) return next();
      try {
        void handler(req, res, step);
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}

export function createApp(options: AppOptions): Express {
  const { config, logger } = options;
  const bundles = options.bundles ?? loadBundles();
  const metrics = options.metrics ?? createMetrics();
  const methods = options.jsonRpcMethods ?? generatedJsonRpcMethods;
  const networks = createNetworkResolver(config);
  const versionHeader = { v2: `2.2.${config.v2Release}`, v3: bundles.v3.info.version };

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  // Request id, version header, metrics and the access log: first, so every reply gets them.
  app.use((req: Request, res: Response, next: NextFunction) => {
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const startedAt = performance.now();
    res.locals.requestId = requestId;
    res.locals.version = versionOfPath(req.path);
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-API-Version', versionHeader[res.locals.version as 'v2' | 'v3']);
    res.on('finish', () => {
      const network = (res.locals.ctx as RequestContext | undefined)?.network ?? 'none';
      const operation =
        (res.locals.operationId as string | undefined) ??
        ((req as { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId) ??
        'unmatched';
      const seconds = (performance.now() - startedAt) / 1000;
      metrics.requests.inc({ operation, status: String(res.statusCode), network });
      metrics.latency.observe({ operation, network }, seconds);
      logger.info(
        { requestId, method: req.method, url: redactUrl(req.originalUrl), status: res.statusCode, ms: Math.round(seconds * 1e4) / 10, network, operation },
        'request',
      );
    });
    next();
  });

  app.get('/healthcheck', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/metrics', async (_req, res, next) => {
    try {
      res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    } catch (err) {
      next(err);
    }
  });

  app.use((req: Request, res: Response, next: NextFunction) => {
    const network = networks.resolve(req.headers.host, req.socket.localPort);
    if (!network) {
      const host = req.headers.host ?? '(none)';
      return next(new HttpError(421, `unknown host '${host}': this server answers ${networks.knownHosts.join(', ')}`));
    }
    const ctx: RequestContext = { network, requestId: res.locals.requestId, startedAt: performance.now() };
    res.locals.ctx = ctx;
    next();
  });

  // The docs router is only consulted for its own paths, so API requests do not walk its layers.
  const docs = docsRouter(bundles);
  const DOCS_PATH = /^\/(docs-assets\/|docs-init\.js$|api\/v[23]\/?$|api\/v[23]\/openapi\.json$)/;
  app.use((req: Request, res: Response, next: NextFunction) => (req.method === 'GET' || req.method === 'HEAD') && DOCS_PATH.test(req.path) ? docs(req, res, next) : next());

  const auth = authMiddleware({ keys: options.keys, limiter: options.limiter, keylessPlan: { rps: config.keylessRps, burst: config.keylessBurst } });
  // Body first, so that a JSON-RPC call refused by auth still gets its id back.
  app.use('/api', express.json({ limit: '8mb' }));
  app.use('/api', auth);

  // api_key is authentication, not an operation parameter: remove it before validation sees it.
  app.use('/api', (req: Request, _res: Response, next: NextFunction) => {
    const query = { ...(req.query as Record<string, unknown>) };
    if ('api_key' in query) {
      delete query.api_key;
      Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
    }
    next();
  });

  const jsonRpc = createJsonRpcHandler({
    methods,
    handlers: options.v2Handlers,
    logger,
    onCall: (operation, status, network) => metrics.requests.inc({ operation: `jsonRPC:${operation}`, status: String(status), network }),
  });
  app.post('/api/v2/jsonRPC', (req, res, next) => {
    res.locals.operationId = 'jsonRPC';
    jsonRpc(req, res, next);
  });

  // Two validator instances must not see each other's requests (the second would act on the first's
  // req.openapi), so each runs only for its own prefix.
  const v2Validator = chain(validatorFor('v2', bundles.v2, config.validateResponses, /^\/api\/v2\/jsonRPC$/));
  const v3Validator = chain(validatorFor('v3', bundles.v3, config.validateResponses));
  app.use('/api', (req: Request, res: Response, next: NextFunction) => {
    if (req.originalUrl.startsWith('/api/v2/')) return v2Validator(req, res, next);
    if (req.originalUrl.startsWith('/api/v3/')) return v3Validator(req, res, next);
    next();
  });

  // One router per network and version, so each network runs on its own handlers (and chain).
  const v2Routers = {} as Record<Network, express.Router>;
  const v3Routers = {} as Record<Network, express.Router>;
  for (const network of NETWORKS) {
    v2Routers[network] = express.Router();
    mountV2(v2Routers[network], options.v2Handlers[network]);
    v3Routers[network] = express.Router();
    mountV3(v3Routers[network], options.v3Handlers[network]);
  }
  app.use('/api/v2', (req, res, next) => v2Routers[(res.locals.ctx as RequestContext).network](req, res, next));
  app.use('/api/v3', (req, res, next) => v3Routers[(res.locals.ctx as RequestContext).network](req, res, next));

  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(new HttpError(404, `not found: ${req.method} ${req.path}`));
  });

  const onError: ErrorRequestHandler = (err, req, res, next) => {
    if (res.headersSent) return next(err);
    const requestId = res.locals.requestId as string;
    const mapped = mapError(err, requestId);
    if (mapped.unexpected) logger.error({ err, requestId, url: redactUrl(req.originalUrl) }, 'unexpected failure');
    if (mapped.headers) res.set(mapped.headers);
    const body = errorBody(res.locals.version ?? versionOfPath(req.path), mapped.status, mapped.message);
    const call = req.body as { id?: unknown } | undefined;
    if (req.path === '/api/v2/jsonRPC' && call && typeof call === 'object' && !Array.isArray(call)) {
      // A JSON-RPC call refused before dispatch (auth, limits) still answers in JSON-RPC form.
      Object.assign(body, { jsonrpc: '2.0', id: typeof call.id === 'string' || typeof call.id === 'number' ? call.id : null });
    }
    res.status(mapped.status).json(body);
  };
  app.use(onError);
  return app;
}
