import {
  createFetchClient,
  v2 as sdkV2,
  v2JsonRpcMethods,
  v2Operations,
  v3 as sdkV3,
  v3Operations,
  type FetchClient,
  type V2Operations,
  type V3Operations,
} from '@tongate/sdk';
import { TonGateApiError } from './errors.js';

export type Network = 'mainnet' | 'testnet';

export interface TonGateClientOptions {
  /** Host root, e.g. `http://127.0.0.1:8080`; `/api/v2` and `/api/v3` are appended. Defaults to toncenter.com. */
  baseUrl?: string;
  /** Picks the default toncenter.com host when `baseUrl` is not given. Default `mainnet`. */
  network?: Network;
  /** Sent as `X-API-Key` on every request. */
  apiKey?: string;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /**
   * Check replies against the generated zod schemas (default true). Validation also drops fields the spec does not
   * name; turn it off to see a server's replies unchanged (e.g. when probing a different implementation).
   */
  validateResponses?: boolean;
}

const TONCENTER_HOSTS: Record<Network, string> = {
  mainnet: 'https://toncenter.com',
  testnet: 'https://testnet.toncenter.com',
};

/** The documented 200 body. */
type SuccessBody<R> = R extends { 200: infer B } ? B : never;
/** v2 answers an envelope `{ ok, result, @extra }`; callers get `result`. */
type V2Result<R> = SuccessBody<R> extends { result: infer T } ? T : SuccessBody<R>;
/** Parameters may be omitted when the operation has no required ones. */
type Call<P, T> = undefined extends P ? (params?: P) => Promise<T> : (params: P) => Promise<T>;

export type V2RestApi = {
  [K in keyof V2Operations]: Call<V2Operations[K]['params'], V2Result<V2Operations[K]['responses']>>;
};
export type V3Api = {
  [K in keyof V3Operations]: Call<V3Operations[K]['params'], SuccessBody<V3Operations[K]['responses']>>;
};

export type V2JsonRpcMethod = keyof typeof v2JsonRpcMethods;
type JsonRpcOperation<M extends V2JsonRpcMethod> = V2Operations[Extract<(typeof v2JsonRpcMethods)[M], keyof V2Operations>];
type JsonRpcParams<M extends V2JsonRpcMethod> = JsonRpcOperation<M>['params'];

export interface V2Api extends V2RestApi {
  /** Calls `method` through `POST /api/v2/jsonRPC`; parameters and result are those of the REST operation. */
  jsonRpc<M extends V2JsonRpcMethod>(
    method: M,
    ...params: undefined extends JsonRpcParams<M> ? [params?: JsonRpcParams<M>] : [params: JsonRpcParams<M>]
  ): Promise<V2Result<JsonRpcOperation<M>['responses']>>;
}

export interface TonGateClient {
  v2: V2Api;
  v3: V3Api;
}

/** What every hey-api SDK function looks like once its generics are erased. */
type SdkFunction = (options: Record<string, unknown>) => Promise<{ data?: unknown; error?: unknown; response?: Response }>;
type ParamsLocation = 'query' | 'body' | 'path' | 'none';

interface CallSettings {
  client: FetchClient;
  validateResponses: boolean;
}

async function invoke(fn: SdkFunction, settings: CallSettings, location: ParamsLocation, params: unknown): Promise<unknown> {
  const options: Record<string, unknown> = { client: settings.client, throwOnError: false };
  // The SDK spreads caller options over its defaults, so this replaces its zod response check.
  if (!settings.validateResponses) options.responseValidator = undefined;
  if (location !== 'none') options[location] = location === 'query' ? (params ?? {}) : params;
  const { data, error, response } = await fn(options);
  if (!response) throw error instanceof Error ? error : new Error(`request failed: ${String(error)}`);
  if (!response.ok || error !== undefined) throw TonGateApiError.fromReply(response.status, error);
  return data;
}

function unwrapEnvelope(status: number, body: unknown): unknown {
  if (body && typeof body === 'object' && 'ok' in body) {
    if (body.ok === false) throw TonGateApiError.fromReply(status, body);
    if ('result' in body) return body.result;
  }
  return body;
}

function bindOperations(
  sdk: Record<string, unknown>,
  table: Record<string, { in: ParamsLocation; base?: string }>,
  settings: CallSettings,
  map: (body: unknown) => unknown,
  /** The client of an operation served under a prefix of its own (the emulation API). */
  clientAt?: (base: string) => FetchClient,
): Record<string, (params?: unknown) => Promise<unknown>> {
  const api: Record<string, (params?: unknown) => Promise<unknown>> = {};
  for (const [name, { in: location, base }] of Object.entries(table)) {
    const fn = sdk[name];
    if (typeof fn !== 'function') throw new Error(`@tongate/sdk has no function ${name}: regenerate generated/`);
    const own = base && clientAt ? { ...settings, client: clientAt(base) } : settings;
    api[name] = async (params) => map(await invoke(fn as SdkFunction, own, location, params));
  }
  return api;
}

export function createTonGateClient(options: TonGateClientOptions = {}): TonGateClient {
  const root = (options.baseUrl ?? TONCENTER_HOSTS[options.network ?? 'mainnet']).replace(/\/+$/, '');
  const common = {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: options.apiKey ? { 'X-API-Key': options.apiKey } : {},
  };
  const v2Client = createFetchClient({ ...common, baseUrl: `${root}/api/v2` });
  const v3Client = createFetchClient({ ...common, baseUrl: `${root}/api/v3` });

  const validateResponses = options.validateResponses ?? true;
  const v2Settings = { client: v2Client, validateResponses };
  const v2Rest = bindOperations(sdkV2, v2Operations, v2Settings, (body) => unwrapEnvelope(200, body));
  let nextId = 1;
  const jsonRpc = async (method: string, params?: object): Promise<unknown> => {
    const body = { jsonrpc: '2.0', id: nextId++, method, params: params ?? {} };
    return unwrapEnvelope(200, await invoke(sdkV2.jsonRpc as unknown as SdkFunction, v2Settings, 'body', body));
  };
  const prefixed = new Map<string, FetchClient>();
  const clientAt = (base: string) => {
    let client = prefixed.get(base);
    if (!client) prefixed.set(base, (client = createFetchClient({ ...common, baseUrl: `${root}${base}` })));
    return client;
  };
  const v3 = bindOperations(sdkV3, v3Operations, { client: v3Client, validateResponses }, (body) => body, clientAt);

  return { v2: { ...v2Rest, jsonRpc } as unknown as V2Api, v3: v3 as unknown as V3Api };
}
