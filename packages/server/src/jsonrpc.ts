import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type JsonRpcMethod, patternTexts, type RequestContext, type V2Handlers, v2Decoders } from '@tongate/stubs';
import type { Network } from './config.js';
import { rateSubjectOf, type RateSubject } from './auth.js';
import { mapError } from './errors.js';
import type { RateLimiter } from './limiter.js';
import type { Logger } from './logging.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

type JsonRpcId = string | number | null;

interface Call {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

type AnyHandler = (input: { ctx: RequestContext }) => Promise<{ status: number; body: unknown }>;

export interface JsonRpcOptions {
  methods: Readonly<Record<string, JsonRpcMethod>>;
  handlers: Record<Network, Partial<V2Handlers>>;
  logger: Logger;
  /** Called once per call with the operation it resolved to (for metrics). */
  onCall?: (operationId: string, status: number, network: Network) => void;
  /** Charges the calls of a batch after the first (the HTTP request itself paid for the first). */
  limiter?: RateLimiter;
  /** Most calls in one batch. */
  batchMax?: number;
  /** Size at which a batch reply stops growing; later calls answer 413 entries. */
  batchReplyBytes?: number;
}

function idOf(call: unknown): JsonRpcId {
  const id = typeof call === 'object' && call !== null ? (call as Call).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function failure(id: JsonRpcId, status: number, message: string): { status: number; reply: Record<string, unknown> } {
  return { status, reply: { ok: false, error: message, code: status, jsonrpc: '2.0', id } };
}

/** Ajv message for one error, naming the parameter as REST validation does. */
function describe(error: ErrorObject): string {
  const name = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return `missing required parameter: ${name ? `${name}.` : ''}${missing}`;
  }
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return `unknown parameter: ${name ? `${name}.` : ''}${extra}`;
  }
  if (error.keyword === 'pattern') {
    const text = patternTexts.get((error.params as { pattern: string }).pattern);
    if (text) return `${name || 'params'}: ${text}`;
  }
  return `${name || 'params'}: ${error.message ?? 'is invalid'}`;
}

/**
 * POST /api/v2/jsonRPC: runs each call through the same decoder and handler as the REST operation, after validating
 * `params` against that operation's parameter schema (coerced, defaults applied). Reply = the operation's envelope plus
 * `jsonrpc` and the caller's `id`; a single call answers with the envelope's status, a batch with 200.
 */
export function createJsonRpcHandler(options: JsonRpcOptions): RequestHandler {
  const ajv = new Ajv2020({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false });
  addFormats(ajv);
  const validators = new Map<string, ValidateFunction>();
  for (const [name, method] of Object.entries(options.methods)) validators.set(name, ajv.compile(method.params));

  async function runCall(call: unknown, ctx: RequestContext): Promise<{ status: number; reply: Record<string, unknown> }> {
    const c = (typeof call === 'object' && call !== null && !Array.isArray(call) ? call : {}) as Call;
    const id: JsonRpcId = typeof c.id === 'string' || typeof c.id === 'number' ? c.id : null;
    if (typeof call !== 'object' || call === null || Array.isArray(call)) return failure(id, 422, 'a JSON-RPC call must be an object');
    if (c.id !== undefined && c.id !== null && typeof c.id !== 'string' && typeof c.id !== 'number') {
      return failure(id, 422, 'id: must be a string or an integer');
    }
    if (typeof c.method !== 'string') return failure(id, 422, 'method: must be a string');
    const method = Object.hasOwn(options.methods, c.method) ? options.methods[c.method] : undefined;
    const validate = validators.get(c.method);
    if (!method || !validate) return failure(id, 422, `Unknown method: ${c.method}`);
    if (c.params !== undefined && (typeof c.params !== 'object' || c.params === null || Array.isArray(c.params))) {
      return failure(id, 422, 'params: must be an object');
    }
    // Coercion and defaults write into params, which are this request's own freshly parsed JSON: validated in
    // place. api_key is auth, never a parameter.
    const params = (c.params as Record<string, unknown> | undefined) ?? {};
    if ('api_key' in params) delete params.api_key;
    if (!validate(params)) {
      return failure(id, 422, [...new Set((validate.errors ?? []).map(describe))].join('; '));
    }
    const handler = (options.handlers[ctx.network] as Record<string, AnyHandler | undefined>)[method.operationId as string];
    try {
      if (typeof handler !== 'function') return failure(id, 501, `not implemented yet: ${String(method.operationId)}`);
      const input = v2Decoders[method.operationId](method.in === 'query' ? { query: params } : { body: params }, ctx);
      const result = await handler.call(options.handlers[ctx.network], input);
      const body = (typeof result.body === 'object' && result.body !== null ? result.body : { result: result.body }) as Record<
        string,
        unknown
      >;
      return { status: result.status, reply: { ...body, jsonrpc: '2.0', id } };
    } catch (err) {
      const mapped = mapError(err, ctx.requestId);
      if (mapped.unexpected) options.logger.error({ err, requestId: ctx.requestId, method: c.method }, 'JSON-RPC call failed');
      return failure(id, mapped.status, mapped.message);
    }
  }

  /** Metrics per call, labelled by operation (only known method names: a client-chosen name would grow the label set). */
  function record(call: unknown, status: number, ctx: RequestContext): void {
    const m = (call as Call | null)?.method;
    const name = typeof m === 'string' && Object.hasOwn(options.methods, m) ? String(options.methods[m].operationId) : 'jsonRPC';
    options.onCall?.(name, status, ctx.network);
  }

  const batchMax = options.batchMax ?? 100;
  const batchReplyBytes = options.batchReplyBytes ?? 16 * 1024 * 1024;

  /** Whether one more call of this batch fits the client's rate allowance (and charges it). */
  async function chargeCall(rate: RateSubject | undefined): Promise<boolean> {
    if (!rate || !options.limiter) return true;
    const result = options.limiter.consumeSync?.(rate.subject, rate.plan) ?? (await options.limiter.consume(rate.subject, rate.plan));
    return result.allowed;
  }

  /**
   * A batch: at most batchMax calls, each charged to the client's rate limit like a request of its own (calls past
   * the allowance answer 429 entries), run one after another, and the reply bounded in size (calls after the bound
   * answer 413 entries). Each call's reply is serialized once, as it is produced.
   */
  async function runBatch(calls: unknown[], ctx: RequestContext, res: Response): Promise<void> {
    if (calls.length === 0) {
      res.status(422).json({ ok: false, error: 'empty JSON-RPC batch', code: 422, jsonrpc: '2.0', id: null });
      return;
    }
    if (calls.length > batchMax) {
      res.status(422).json({
        ok: false,
        error: `a JSON-RPC batch holds at most ${batchMax} calls, got ${calls.length}`,
        code: 422,
        jsonrpc: '2.0',
        id: null,
      });
      return;
    }
    const rate = rateSubjectOf(res);
    const parts: string[] = [];
    let size = 2;
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i];
      let r: { status: number; reply: Record<string, unknown> };
      if (size > batchReplyBytes)
        r = failure(idOf(call), 413, `batch reply size limit (${batchReplyBytes} bytes) reached: send this call again separately`);
      else if (i > 0 && !(await chargeCall(rate))) r = failure(idOf(call), 429, 'Ratelimit exceeded');
      else r = await runCall(call, ctx);
      record(call, r.status, ctx);
      const text = JSON.stringify(r.reply);
      size += text.length + 1;
      parts.push(text);
    }
    res
      .status(200)
      .type('application/json')
      .send(`[${parts.join(',')}]`);
  }

  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const ctx = res.locals.ctx as RequestContext;

      if (Array.isArray(req.body)) {
        await runBatch(req.body, ctx, res);
        return;
      }
      const r = await runCall(req.body, ctx);
      record(req.body, r.status, ctx);
      // Only known method names become the metrics label: a client-chosen name would grow the label set unboundedly.
      const method = (req.body as Call | undefined)?.method;
      res.locals.operationId = typeof method === 'string' && Object.hasOwn(options.methods, method) ? method : 'jsonRPC';
      res.status(r.status).json(r.reply);
    } catch (err) {
      next(err);
    }
  };
}
