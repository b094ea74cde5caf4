import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { performance } from 'node:perf_hooks';
import express, { type ErrorRequestHandler, type Express, type NextFunction, type Request, type Response } from 'express';
import {
  jsonRpcMethods as generatedJsonRpcMethods,
  type JsonRpcMethod,
  type RequestContext,
  type V2Handlers,
  type V3Handlers,
} from '@tongate/stubs';
import { authMiddleware, streamPlanOf, type KeyResolver, type StreamPlanLimits } from './auth.js';
import { loadBundles, type Bundles } from './bundles.js';
import type { Config, Network } from './config.js';
import { createCors } from './cors.js';
import { docsRouter } from './docs.js';
import { errorBody, HttpError, mapError, versionOfPath } from './errors.js';
import { createJsonRpcHandler } from './jsonrpc.js';
import type { RateLimiter } from './limiter.js';
import { redactUrl, type Logger } from './logging.js';
import { createMetrics, registerDegradedGauge, type Metrics } from './metrics.js';
import { backendHealthSources, registerBackendMetrics, type BackendHealth } from './backend-health.js';
import { createNetworkResolver } from './network.js';
import { createOperationTable } from './operations.js';
import { jsonBodyReader } from './json-body.js';
import { foreignMounts } from './mounts.js';
import { leanJson, parseSerializedReplies } from './reply.js';
import { createValidator } from './validator.js';

export interface AppOptions {
  config: Config;
  v2Handlers: Record<Network, Partial<V2Handlers>>;
  v3Handlers: Record<Network, Partial<V3Handlers>>;
  /** Absent: no key store, every presented key is unknown (401). */
  keys?: KeyResolver;
  limiter: RateLimiter;
  logger: Logger;
  metrics?: Metrics;
  /** Extra fields of the /healthcheck body (e.g. the indexer's lag per network). */
  health?: () => Record<string, unknown>;
  /** Upstream servers of chain backends (liteservers): per-server gauges in /metrics, degraded /healthcheck. */
  backendHealth?: BackendHealth;
  bundles?: Bundles;
  jsonRpcMethods?: Readonly<Record<string, JsonRpcMethod>>;
  /** Parts that can degrade (chain backends, the indexer): shown by /healthcheck and /metrics. The limiter is added. */
  healthSources?: HealthSource[];
  /** The Streaming API's endpoints (absent: its paths answer 404). */
  streaming?: StreamingHandler;
}

/** Who opened a stream, as the front door authenticated it. */
export interface StreamClientInfo {
  network: Network;
  /** The API key's id; null without a key (the keyless allowance, per client address). */
  keyId: number | null;
  /** The key's own streaming plan, where it has one (null fields: the deployment's default). */
  plan?: StreamPlanLimits;
  clientAddress: string;
  headers: IncomingHttpHeaders;
}

/** The Streaming API v2 endpoints, reached once the front door has resolved the network and the key. */
export interface StreamingHandler {
  sse(req: IncomingMessage, res: ServerResponse, client: StreamClientInfo): void;
  websocket(req: IncomingMessage, socket: Duplex, head: Buffer, client: StreamClientInfo): void;
}

/** Set on the app by createApp: what a listener does with an HTTP upgrade (serve.ts). */
export type UpgradeListener = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/** A part of the service that can keep serving in a degraded way. */
export interface HealthSource {
  name: string;
  health(): { degraded: boolean; detail?: string };
}

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** Runs a list of middlewares as one. */
function chain(handlers: unknown[]): express.RequestHandler {
  const list = (handlers as unknown[]).flat(Infinity) as express.RequestHandler[];
  return (req, res, next) => {
    let index = 0;
    const step = (err?: unknown): void => {
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
  const cors = createCors(config.corsOrigins);
  const mounts = foreignMounts([
    { prefix: '/api/v2', doc: bundles.v2 },
    { prefix: '/api/v3', doc: bundles.v3 },
  ]);

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);
  // Every reply of this app goes through the lean JSON writer (express's documented extension point; no per-request
  // assignment). Wrappers of res.json (the response validator in tests) still see every reply.
  app.response.json = leanJson;

  // Metrics and the access log of one reply. One function for all replies (`this` is the response), so a request
  // does not allocate a listener closure.
  function recordReply(this: Response): void {
    const res = this;
    const req = res.req;
    const network = (res.locals.ctx as RequestContext | undefined)?.network ?? 'none';
    const operation =
      (res.locals.operationId as string | undefined) ??
      (req as { openapi?: { schema?: { operationId?: string } } }).openapi?.schema?.operationId ??
      'unmatched';
    const seconds = (performance.now() - (res.locals.arrivedAt as number)) / 1000;
    metrics.countRequest(operation, res.statusCode, network);
    metrics.observeLatency(operation, network, seconds);
    logger.info(
      {
        requestId: res.locals.requestId,
        method: req.method,
        url: redactUrl((res.locals.publicUrl as string | undefined) ?? req.originalUrl),
        status: res.statusCode,
        ms: Math.round(seconds * 1e4) / 10,
        network,
        operation,
      },
      'request',
    );
  }

  const health = options.health;
  const backendHealth = options.backendHealth ?? {};
  if (Object.keys(backendHealth).length > 0) registerBackendMetrics(metrics.registry, backendHealth);
  const healthSources: HealthSource[] = [...(options.healthSources ?? []), ...backendHealthSources(backendHealth)];
  const limiterHealth = options.limiter.health?.bind(options.limiter);
  if (limiterHealth) healthSources.push({ name: 'rate_limiter', health: limiterHealth });
  registerDegradedGauge(metrics, healthSources);
  // 200 while the process serves; `ok: false` with the reasons when a part runs degraded (e.g. limits per process
  // because Redis is down), so that monitoring sees it without load balancers pulling every instance at once.
  const healthcheck = (res: Response) => {
    const degraded: Record<string, string> = {};
    for (const source of healthSources) {
      const h = source.health();
      if (h.degraded) degraded[source.name] = h.detail ?? 'degraded';
    }
    const extra = health ? health() : {};
    if (Object.keys(degraded).length === 0) return res.json({ ok: true, status: 'ok', ...extra });
    res.json({ ok: false, status: 'degraded', degraded, ...extra });
  };
  const metricsReply = (res: Response, next: NextFunction) =>
    metrics.registry.metrics().then((text) => res.type(metrics.registry.contentType).send(text), next);
  // The same tolerance as an express route: any case, one optional trailing slash.
  const OPERATIONS_PATH = /^\/(healthcheck|metrics)\/?$/i;

  // The whole front door is one express layer: express parses the URL and matches every layer of its router per
  // request, so request id, version header, access log, /healthcheck, /metrics, the network and the choice between
  // docs and API are decided here, with the path read once.
  app.use((req: Request, res: Response, next: NextFunction) => {
    let path = req.path;
    // An operation served under a prefix of its own (the emulation API) runs through its version's pipeline: the
    // request continues under the version path; logs keep the path the client sent.
    const internal = path.startsWith('/api/') ? mounts.internalPath(path) : undefined;
    if (internal) {
      res.locals.publicUrl = req.originalUrl;
      const search = req.url.slice(req.url.indexOf('?') >= 0 ? req.url.indexOf('?') : req.url.length);
      req.url = req.originalUrl = internal + search;
      path = internal;
    }
    const incoming = req.headers['x-request-id'];
    const requestId = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const version = versionOfPath(path);
    res.locals.arrivedAt = performance.now();
    res.locals.requestId = requestId;
    res.locals.version = version;
    res.locals.path = path;
    res.setHeader('X-Request-Id', requestId);
    res.setHeader('X-API-Version', versionHeader[version]);
    res.on('finish', recordReply);
    cors.decorate(req, res);
    // Before the network, keys and limits: a preflight carries no key and must cost the client nothing.
    if (req.method === 'OPTIONS') return cors.preflight(req, res);

    // Service endpoints answer on every host.
    const service = (req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/') ? OPERATIONS_PATH.exec(path) : null;
    if (service) return service[1]!.toLowerCase() === 'healthcheck' ? void healthcheck(res) : void metricsReply(res, next);

    const network = networks.resolve(req.headers.host, req.socket.localPort);
    if (!network) {
      const host = req.headers.host ?? '(none)';
      return next(new HttpError(421, `unknown host '${host}': this server answers ${networks.knownHosts.join(', ')}`));
    }
    const ctx: RequestContext = { network, requestId, startedAt: res.locals.arrivedAt as number, headers: req.headers };
    res.locals.ctx = ctx;
    if (!internal && mounts.servedElsewhere(path)) return next(new HttpError(404, `not found: ${req.method} ${path}`));
    routeByPath(req, res, next, path);
  });

  // The docs router is only consulted for its own paths, so API requests do not walk its layers.
  const docs = docsRouter(bundles);
  const DOCS_PATH = /^\/(docs-assets\/|docs-init\.js$|api\/v[23]\/?$|api\/v[23]\/openapi\.json$)/;

  const auth = authMiddleware({
    keys: options.keys,
    limiter: options.limiter,
    keylessPlan: { rps: config.keylessRps, burst: config.keylessBurst },
    keyLookupPlan: { rps: config.keyLookupRps, burst: config.keyLookupRps },
    trustProxy: config.trustProxy !== false && config.trustProxy !== 0 && config.trustProxy !== '',
  });
  const STREAM_SSE_PATH = /^\/api\/streaming\/v2\/sse\/?$/i;
  const STREAM_WS_PATH = /^\/api\/streaming\/v2\/ws\/?$/i;
  const streaming = options.streaming;
  const streamClient = (req: Request, res: Response): StreamClientInfo => ({
    network: (res.locals.ctx as RequestContext).network as Network,
    keyId: (res.locals.keyId as number | undefined) ?? null,
    plan: streamPlanOf(res),
    clientAddress:
      (config.trustProxy !== false && config.trustProxy !== 0 && config.trustProxy !== '' ? req.ip : req.socket.remoteAddress) ?? 'unknown',
    headers: req.headers,
  });
  const BODY_LIMIT = 8 * 1024 * 1024;
  const parseJson = jsonBodyReader({ limit: BODY_LIMIT, fallback: express.json({ limit: BODY_LIMIT }) });

  // api_key is authentication, not an operation parameter: remove it before validation sees it. The query is
  // parsed once here and kept as a plain property: express 5 re-parses req.query on every read otherwise.
  // A NUL character is refused here for every parameter: no value of either API holds one, and PostgreSQL text
  // cannot (a free-text filter such as dns/records?domain= would otherwise reach the database and fail there).
  const fixQuery = (req: Request, _res: Response, next: NextFunction) => {
    const query = req.query as Record<string, unknown>;
    if ('api_key' in query) delete query.api_key;
    Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
    for (const name in query) {
      const value = query[name];
      if (
        typeof value === 'string'
          ? value.includes('\0')
          : Array.isArray(value) && value.some((v) => typeof v === 'string' && v.includes('\0'))
      ) {
        return next(new HttpError(422, `${name}: must not contain the NUL character (U+0000)`));
      }
    }
    next();
  };

  const jsonRpc = createJsonRpcHandler({
    methods,
    handlers: options.v2Handlers,
    logger,
    limiter: options.limiter,
    batchMax: config.jsonRpcBatchMax,
    batchReplyBytes: config.jsonRpcBatchReplyBytes,
    onCall: (operation, status, network) => metrics.countRequest(`jsonRPC:${operation}`, status, network),
  });
  const JSON_RPC_PATH = /^\/api\/v2\/jsonrpc\/?$/i;

  // Two validator instances must not see each other's requests (the second would act on the first's
  // req.openapi), so each runs only for its own prefix.
  const v2Validator = createValidator('v2', bundles.v2, config.validateResponses, /^\/api\/v2\/jsonRPC$/);
  const v3Validator = createValidator('v3', bundles.v3, config.validateResponses);
  const operations = createOperationTable(options.v2Handlers, options.v3Handlers);

  // The API pipeline is one layer: body, auth, query, then JSON-RPC or validation and the operation the validator
  // matched. Express would otherwise walk (and re-match, and re-prefix) a layer per step for every request.
  const api = chain([
    // Only POST operations carry a body; a GET need not pass through the body parser's checks. A stream's
    // subscription is read by the Streaming API itself (its own limits and error texts).
    (req: Request, res: Response, next: NextFunction) =>
      req.method === 'POST' && !STREAM_SSE_PATH.test(res.locals.path as string) ? parseJson(req, res, next) : next(),
    auth,
    fixQuery,
    (req: Request, res: Response, next: NextFunction) => {
      const path = res.locals.path as string;
      if (JSON_RPC_PATH.test(path)) {
        res.locals.operationId = 'jsonRPC';
        if (req.method !== 'POST')
          return next(new HttpError(405, `method ${req.method} not allowed on ${path}: use POST`, { Allow: 'POST' }));
        return jsonRpc(req, res, next);
      }
      if (path.startsWith('/api/streaming/')) {
        const sse = STREAM_SSE_PATH.test(path);
        if (!streaming || (!sse && !STREAM_WS_PATH.test(path))) return next();
        res.locals.operationId = sse ? 'streamingSse' : 'streamingWs';
        if (sse) {
          if (req.method !== 'POST')
            return next(new HttpError(405, `method ${req.method} not allowed on ${path}: use POST`, { Allow: 'POST' }));
          return streaming.sse(req, res, streamClient(req, res));
        }
        // An upgrade is taken by the listener before express; a plain request here did not ask for one.
        return next(new HttpError(426, 'WebSocket upgrade required', { Upgrade: 'websocket', Connection: 'Upgrade' }));
      }
      const validator = path.startsWith('/api/v2/') ? v2Validator : path.startsWith('/api/v3/') ? v3Validator : undefined;
      if (!validator) return next();
      validator.handle(req, res, (err?: unknown) => {
        if (err) return next(err);
        if (config.validateResponses) parseSerializedReplies(res);
        operations.dispatch(req, res, next);
      });
    },
  ]);
  // Docs or API, chosen in the same layer as the network (one express layer instead of three per request).
  function routeByPath(req: Request, res: Response, next: NextFunction, path: string): void {
    const toApi = path.startsWith('/api/');
    if ((req.method === 'GET' || req.method === 'HEAD') && DOCS_PATH.test(path)) {
      void docs(req, res, (err?: unknown) => (err ? next(err) : toApi ? api(req, res, next) : next()));
      return;
    }
    if (toApi) api(req, res, next);
    else next();
  }

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

  // A WebSocket upgrade passes the same front door as a request: network by host or port, then the key and the
  // rate limit (the express request prototype gives auth what it reads: the client address, `trust proxy`).
  const onUpgrade: UpgradeListener = (req, socket, head) => {
    socket.on('error', () => {});
    const refuse = (status: number, message: string, headers: Record<string, string> = {}) => {
      const body = JSON.stringify({ error: message });
      const extra = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`,
      );
    };
    try {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      if (!streaming || !STREAM_WS_PATH.test(path)) return refuse(404, `not found: upgrade on ${path}`);
      if (req.method !== 'GET') return refuse(405, `method ${req.method} not allowed on ${path}: use GET`);
      const network = networks.resolve(req.headers.host, req.socket.localPort);
      if (!network)
        return refuse(421, `unknown host '${req.headers.host ?? '(none)'}': this server answers ${networks.knownHosts.join(', ')}`);
      const expressReq = req as Request;
      Object.setPrototypeOf(expressReq, app.request);
      Object.assign(expressReq, { app, originalUrl: req.url ?? '/' });
      const requestId = randomUUID();
      const fakeRes = {
        locals: { ctx: { network, requestId, startedAt: performance.now(), headers: req.headers } as RequestContext, path },
      } as unknown as Response;
      auth(expressReq, fakeRes, (err?: unknown) => {
        if (err) {
          const mapped = mapError(err, requestId);
          return refuse(mapped.status, mapped.message, mapped.headers as Record<string, string> | undefined);
        }
        streaming.websocket(req, socket, head, streamClient(expressReq, fakeRes));
      });
    } catch (err) {
      logger.error({ err }, 'upgrade failed');
      refuse(500, 'internal error');
    }
  };
  app.locals.onUpgrade = onUpgrade;
  return app;
}
