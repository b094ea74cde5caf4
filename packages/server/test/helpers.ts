import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { V2Handlers, V3Handlers } from '@tongate/stubs';
import { dropSchema, KeyLookup, openStore, type Store } from '@tongate/store';
import {
  createApp,
  type KeyResolver,
  createLogger,
  createMemoryLimiter,
  createMetrics,
  defaultConfig,
  listen,
  type Config,
  type RateLimiter,
  type RunningServer,
} from '../src/index.js';

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  body: any;
}

/** Plain http.request so the Host header (which picks the network) can be set freely. */
export function request(
  port: number,
  options: {
    host?: string;
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: unknown;
    rawBody?: string;
    from?: string;
  },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = options.rawBody ?? (options.body !== undefined ? JSON.stringify(options.body) : undefined);
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        // Another loopback source address is another client for the per-address limits.
        ...(options.from ? { localAddress: options.from } : {}),
        method: options.method ?? (payload !== undefined ? 'POST' : 'GET'),
        path: options.path,
        agent: false,
        headers: {
          host: options.host ?? 'mainnet.localhost',
          ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
          ...options.headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => {
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** A key store for one test file: PGlite in a temp dir, or a unique schema when DATABASE_URL is set. */
export async function openTestStore(usePostgres = Boolean(process.env.DATABASE_URL)): Promise<{
  store: Store;
  cleanup(): Promise<void>;
  /** PostgreSQL only: a second, independent connection pool to the same schema. */ openPeer?: () => Promise<Store>;
}> {
  if (usePostgres && process.env.DATABASE_URL) {
    const url = process.env.DATABASE_URL;
    const schema = `srv_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const store = await openStore({ databaseUrl: url, schema });
    await store.migrate();
    return {
      store,
      cleanup: async () => (await store.close(), await dropSchema(url, schema)),
      openPeer: () => openStore({ databaseUrl: url, schema }),
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'tongate-srv-'));
  const store = await openStore({ dataDir: dir });
  await store.migrate();
  return { store, cleanup: async () => (await store.close(), rmSync(dir, { recursive: true, force: true })) };
}

export interface TestServer {
  port: number;
  logs: string[];
  lookup: KeyLookup | undefined;
  close(): Promise<void>;
}

export async function startServer(options: {
  store?: Store;
  config?: Partial<Config>;
  v2?: Partial<V2Handlers>;
  v3?: Partial<V3Handlers>;
  testnetV2?: Partial<V2Handlers>;
  limiter?: RateLimiter;
  /** A key resolver instead of the store's KeyLookup. */
  keys?: KeyResolver;
}): Promise<TestServer> {
  const config: Config = {
    ...defaultConfig(),
    mainnet: { ...defaultConfig().mainnet, port: 0 },
    testnet: { ...defaultConfig().testnet, port: 0 },
    keysPollMs: 100,
    ...options.config,
  };
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs.push(String(chunk));
      cb();
    },
  });
  const lookup = options.store ? new KeyLookup(options.store.keys, { pollIntervalMs: config.keysPollMs }) : undefined;
  await lookup?.start();
  const limiter = options.limiter ?? createMemoryLimiter();
  const app = createApp({
    config,
    v2Handlers: { mainnet: options.v2 ?? {}, testnet: options.testnetV2 ?? options.v2 ?? {} },
    v3Handlers: { mainnet: options.v3 ?? {}, testnet: options.v3 ?? {} },
    keys: options.keys ?? lookup,
    limiter,
    logger: createLogger('info', sink),
    metrics: createMetrics(false),
  });
  const running: RunningServer = await listen(app, 0, '127.0.0.1', config);
  return {
    port: running.port,
    logs,
    lookup,
    async close() {
      lookup?.stop();
      await running.close(1000);
      if (!options.limiter) await limiter.close();
    },
  };
}

export const v2Ok = (result: unknown) => ({ status: 200 as const, body: { ok: true as const, result, '@extra': '0:test:0' } });
