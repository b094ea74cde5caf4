// Emits generated/server (@tongate/stubs): runtime types, per-version route tables, handler interfaces, mount
// functions, the typed inputs and their decoders, and the JSON-RPC dispatch table. See tools/CONTRACT.md.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { emitInputs, emitPatternTexts } from './decoders.mjs';
import { GENERATED_BANNER, doc, jsonLiteral, key, str } from './emit-util.mjs';

/** Operations the front door implements itself; they are in the route table but never mounted. */
export const FRONT_DOOR_OPERATIONS = new Set(['jsonRPC']);

const RUNTIME_TS = `${GENERATED_BANNER}
import type { NextFunction, Request, Response, Router } from 'express';

export type Network = 'mainnet' | 'testnet';

export interface RequestContext {
  network: Network;
  requestId: string;
  /** performance.now() when the request arrived; v2 \`@extra\` reports elapsed ms from it. */
  startedAt: number;
  /** The request's headers (lower-case names), for the few operations that read one (\`X-Actions-Version\`). */
  headers?: Readonly<Record<string, string | string[] | undefined>>;
}

/** Throw from a handler to answer with this status and message in the version's error body. */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A reply body that is already JSON text (assembled from stored JSON fragments), typed as the body it encodes:
 * the front door writes the text as it is instead of serializing an object. \`JSON.stringify\` of one (a caller
 * that embeds it, a validating \`res.json\`) gives the same JSON through \`toJSON\`.
 */
export class SerializedJson {
  constructor(readonly text: string) {}

  toJSON(): unknown {
    return JSON.parse(this.text);
  }

  /** \`text\` typed as the reply body T it encodes (the caller vouches for the shape). */
  static as<T>(text: string): T {
    return new SerializedJson(text) as unknown as T;
  }
}

/**
 * The replies a handler may give: one \`{ status, body }\` per documented numeric status of R
 * (R is e.g. \`FooResponses & FooErrors\` from the SDK). Undocumented statuses and wrong bodies do not compile.
 */
export type Reply<R> = {
  [S in keyof R]: S extends number ? { status: S; body: R[S] } : never;
}[keyof R];

export interface RouteInfo {
  operationId: string;
  method: 'get' | 'post';
  /** OpenAPI path, relative to the version prefix. */
  path: string;
  /** The same path in express syntax (\`{id}\` -> \`:id\`). */
  expressPath: string;
}

/** The loosest shapes every generated handler and decoder fit; only used inside mountRoutes. */
type AnyHandler = (input: { ctx: RequestContext }) => Promise<{ status: number; body: unknown }>;
type AnyDecoder = (raw: { query?: unknown; body?: unknown; path?: unknown }, ctx: RequestContext) => { ctx: RequestContext };

/**
 * Registers \`routes\` on \`router\`. Each route decodes the validated request with \`decoders[operationId]\`, calls
 * \`handlers[operationId]\` with the typed input (\`this\` bound to \`handlers\`, so class instances work) and sends
 * its reply as JSON; errors go to next(). A missing handler answers ApiError 501 \`not implemented yet: <operationId>\`.
 */
export function mountRoutes(router: Router, routes: readonly RouteInfo[], handlers: object, decoders: object): void {
  const table = handlers as Partial<Record<string, AnyHandler>>;
  const decoderTable = decoders as Partial<Record<string, AnyDecoder>>;
  for (const route of routes) {
    const decodeInput = decoderTable[route.operationId];
    if (!decodeInput) throw new Error(\`no decoder for \${route.operationId}\`);
    router[route.method](route.expressPath, async (req: Request, res: Response, next: NextFunction) => {
      try {
        const handler = table[route.operationId];
        if (typeof handler !== 'function') {
          throw new ApiError(501, \`not implemented yet: \${route.operationId}\`);
        }
        const ctx = res.locals.ctx as RequestContext | undefined;
        if (!ctx) {
          throw new Error('res.locals.ctx is not set: the front door must set the request context before the routes run');
        }
        const reply = await handler.call(handlers, decodeInput({ query: req.query, body: req.body, path: req.params }, ctx));
        // A reply starts as 200; res.status (a validating setter) is only needed for other statuses.
        if (reply.status !== 200) res.status(reply.status);
        res.json(reply.body);
      } catch (err) {
        next(err);
      }
    });
  }
}
`;

function routeTable(constName, model) {
  const rows = model.map(
    (op) =>
      `  { operationId: ${str(op.operationId)}, method: ${str(op.method)}, path: ${str(op.path)}, expressPath: ${str(op.expressPath)} },`,
  );
  return `export const ${constName}: readonly RouteInfo[] = [\n${rows.join('\n')}\n];\n`;
}

function handlerMember(op, ns) {
  const V = ns.toUpperCase();
  const replies = op.sdk.errorsType ? `${ns}.${op.sdk.responsesType} & ${ns}.${op.sdk.errorsType}` : `${ns}.${op.sdk.responsesType}`;
  return (
    doc(`${op.method.toUpperCase()} ${op.path}${op.summary ? `: ${op.summary}` : ''}`, '  ') +
    `  ${key(op.operationId)}(input: ${V}Inputs[${str(op.operationId)}]): Promise<Reply<${replies}>>;\n`
  );
}

/** v2.ts / v3.ts */
export function emitVersion({ version, model, inputs }) {
  const V = version.toUpperCase();
  const ns = version;
  const handled = model.filter((op) => !FRONT_DOOR_OPERATIONS.has(op.operationId));
  const skipped = model.filter((op) => FRONT_DOOR_OPERATIONS.has(op.operationId)).map((op) => op.operationId);
  const mountedFilter = skipped.length
    ? `${version}Routes.filter((route) => !frontDoorOperations.has(route.operationId))`
    : `${version}Routes`;
  return `${GENERATED_BANNER}
import type { ${ns} } from '@tongate/sdk';
import type { Address } from '@ton/core';
import type { Router } from 'express';
import { decode, fieldsOf, given, type RawRequest } from './decode.js';
import { mountRoutes, type Reply, type RequestContext, type RouteInfo } from './runtime.js';

/** Every ${version} operation, static paths before parameterised ones. */
${routeTable(`${version}Routes`, model)}
/** One member per ${version} operation${skipped.length ? ` except ${skipped.join(', ')} (the front door implements it)` : ''}. */
export interface ${V}Handlers {
${handled.map((op) => handlerMember(op, ns)).join('')}}

${emitInputs({ version, model: handled, inputs })}${
    skipped.length
      ? `\n/** Served by the front door itself, never by a handler. */\nconst frontDoorOperations: ReadonlySet<string> = new Set([${skipped.map(str).join(', ')}]);\n`
      : ''
  }
/**
 * Registers the ${version} routes on \`router\` (mounted under the ${version} prefix by the front door). A missing handler
 * answers 501 \`not implemented yet: <operationId>\`. The request context comes from \`res.locals.ctx\`.
 */
export function mount${V}(router: Router, handlers: Partial<${V}Handlers>): void {
  mountRoutes(router, ${mountedFilter}, handlers, ${version}Decoders);
}
`;
}

/** jsonrpc.ts */
export function emitJsonRpc(table) {
  return `${GENERATED_BANNER}
import type { V2Handlers } from './v2.js';

export interface JsonRpcMethod {
  /** The v2 operation the method runs. */
  operationId: keyof V2Handlers;
  /** Where the REST operation takes its parameters: the JSON-RPC \`params\` object stands in for them. */
  in: 'query' | 'body';
  /** JSON Schema (2020-12) of the \`params\` object, self-contained (\`$defs\`). */
  params: object;
}

/** JSON-RPC method name -> v2 operation. Look names up with findJsonRpcMethod (own keys only). */
export const jsonRpcMethods: Readonly<Record<string, JsonRpcMethod>> = ${jsonLiteral(table)};

/** The method entry for a client-supplied name, ignoring inherited keys such as \`toString\`. */
export function findJsonRpcMethod(name: string): JsonRpcMethod | undefined {
  return Object.hasOwn(jsonRpcMethods, name) ? jsonRpcMethods[name] : undefined;
}
`;
}

export function emitServerFiles({ v2Model, v3Model, v2Inputs, v3Inputs, patterns, jsonRpcTable }) {
  const decodeRuntime = readFileSync(path.join(import.meta.dirname, 'decode-runtime.ts'), 'utf8');
  return {
    'runtime.ts': RUNTIME_TS,
    'decode.ts': `${GENERATED_BANNER}\n// Copied from tools/lib/decode-runtime.ts.\n${decodeRuntime}`,
    'patterns.ts': `${GENERATED_BANNER}\n${emitPatternTexts(patterns)}`,
    'v2.ts': emitVersion({ version: 'v2', model: v2Model, inputs: v2Inputs }),
    'v3.ts': emitVersion({ version: 'v3', model: v3Model, inputs: v3Inputs }),
    'jsonrpc.ts': emitJsonRpc(jsonRpcTable),
    'index.ts': `${GENERATED_BANNER}
export * from './runtime.js';
export * from './decode.js';
export * from './patterns.js';
export * from './v2.js';
export * from './v3.js';
export * from './jsonrpc.js';
`,
  };
}
