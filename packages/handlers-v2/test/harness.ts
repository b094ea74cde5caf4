import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ApiError, jsonRpcMethods, type RequestContext, type V2Handlers, v2Decoders } from '@tongate/stubs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'vitest';

/** An operation as a request reaches it: raw parameters, checked against the spec, decoded, then handled. */
export type Operation = (input: { query?: unknown; body?: unknown; ctx: RequestContext }) => Promise<{ status: number; body: unknown }>;

/**
 * Calls operations like the front door does and checks every 200 body against the operation's response schema in
 * the bundled v2 contract, so an off-spec result fails the test that produced it.
 */

const BUNDLE_PATH = process.env.TONGATE_V2_BUNDLE ?? fileURLToPath(new URL('../../../generated/bundles/v2.json', import.meta.url));

type Response = { $ref?: string; content?: Record<string, { schema?: object }> };

interface Bundle {
  paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, Response> }>>;
  components: { responses?: Record<string, Response> };
}

const bundle = JSON.parse(readFileSync(BUNDLE_PATH, 'utf-8')) as Bundle;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'tongate-v2', components: bundle.components }, 'tongate-v2');

const validators = new Map<string, ValidateFunction>();

/** A response, or the shared one it refers to (a read operation and its POST form share their success). */
function resolved(response: Response | undefined): Response | undefined {
  const name = response?.$ref?.replace('#/components/responses/', '');
  return name ? bundle.components.responses?.[name] : response;
}

function responseSchemaPointer(operationId: string): { pointer: string; method: string } {
  for (const [path, ops] of Object.entries(bundle.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (op?.operationId === operationId && resolved(op.responses?.['200'])?.content?.['application/json']?.schema)
        return { pointer: path, method };
    }
  }
  throw new Error(`operation ${operationId} has no 200 response schema in ${BUNDLE_PATH}`);
}

function validatorFor(operationId: string): ValidateFunction {
  let v = validators.get(operationId);
  if (!v) {
    const { pointer, method } = responseSchemaPointer(operationId);
    const schema = resolved(bundle.paths[pointer]![method]!.responses!['200'])!.content!['application/json']!.schema!;
    // Point local refs (#/components/...) at the registered components document.
    const rewritten = JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\/components\//g, '"$ref":"tongate-v2#/components/'));
    v = ajv.compile(rewritten);
    validators.set(operationId, v);
  }
  return v;
}

const requestAjv = new Ajv2020({ coerceTypes: true, useDefaults: true, allErrors: true, strict: false });
const requestValidators = new Map<string, ValidateFunction>();

/** The operation's parameter schema, as the JSON-RPC table holds it for every v2 operation. */
function requestValidator(operationId: string): ValidateFunction {
  let v = requestValidators.get(operationId);
  if (!v) {
    const method = Object.values(jsonRpcMethods).find((m) => m.operationId === operationId);
    if (!method) throw new Error(`no parameter schema for ${operationId}`);
    v = requestAjv.compile(method.params);
    requestValidators.set(operationId, v);
  }
  return v;
}

/**
 * The handlers behind what the front door does before them: validation against the spec (as the JSON-RPC path
 * does it, coerced, defaults applied) and the generated decoder. Validation failures throw a 422 like the server's.
 */
export function requestOperations(handlers: V2Handlers): Record<string, Operation> {
  const ops: Record<string, Operation> = {};
  for (const operationId of Object.keys(v2Decoders) as (keyof V2Handlers)[]) {
    ops[operationId] = async ({ query, body, ctx }) => {
      const params = structuredClone((query ?? body ?? {}) as Record<string, unknown>);
      const validate = requestValidator(operationId);
      if (!validate(params)) throw new ApiError(422, requestAjv.errorsText(validate.errors));
      const input = v2Decoders[operationId](query !== undefined ? { query: params } : { body: params }, ctx);
      return (handlers[operationId] as (input: unknown) => Promise<{ status: number; body: unknown }>).call(handlers, input);
    };
  }
  return ops;
}

export function methodOf(operationId: string): string {
  return responseSchemaPointer(operationId).method;
}

export function makeCtx(network: 'mainnet' | 'testnet' = 'testnet'): RequestContext {
  return { network, requestId: 'test', startedAt: performance.now() };
}

export interface Envelope<T = any> {
  ok: true;
  result: T;
  '@extra': string;
}

/** Runs an operation with params as query (GET) or body (POST), asserts the envelope and the schema, returns it. */
export async function call<T = any>(
  ops: Record<string, Operation>,
  operationId: string,
  params: Record<string, unknown> = {},
  network: 'mainnet' | 'testnet' = 'testnet',
): Promise<Envelope<T>> {
  const op = ops[operationId];
  if (!op) throw new Error(`no operation ${operationId}`);
  const input = methodOf(operationId) === 'get' ? { query: params, ctx: makeCtx(network) } : { body: params, ctx: makeCtx(network) };
  const reply = await op(input);
  expect(reply.status).toBe(200);
  // What goes over the wire is JSON: validate the serialized form.
  const body = JSON.parse(JSON.stringify(reply.body)) as Envelope<T>;
  const validate = validatorFor(operationId);
  if (!validate(body)) {
    throw new Error(
      `${operationId} result does not match the v2 contract: ${ajv.errorsText(validate.errors, { separator: '\n' })}\n${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
  expect(body.ok).toBe(true);
  expect(body['@extra']).toMatch(/^\d+(\.\d+)?:[^:]+:\d+(\.\d+)?$/);
  return body;
}

/** Runs an operation expecting an error; returns it. */
export async function callError(
  ops: Record<string, Operation>,
  operationId: string,
  params: Record<string, unknown> = {},
): Promise<{ status?: number; kind?: string; message: string }> {
  const op = ops[operationId]!;
  const input = methodOf(operationId) === 'get' ? { query: params, ctx: makeCtx() } : { body: params, ctx: makeCtx() };
  try {
    await op(input);
  } catch (e) {
    const err = e as { status?: number; kind?: string; message: string };
    return { status: err.status, kind: err.kind, message: err.message };
  }
  throw new Error(`${operationId} succeeded, an error was expected`);
}
