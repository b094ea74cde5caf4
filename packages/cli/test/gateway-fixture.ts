/**
 * A whole tongate (store, devnets, handlers, front door) on free loopback ports in a temp data dir, for e2e tests.
 * TONGATE_TEST_BACKEND=liteserver (the `liteserver` vitest project) puts each network's devnet behind its own ADNL
 * liteserver and starts tongate with the liteserver backend on it: the same tests then run through the whole
 * production path (HTTP → handlers → LiteserverChain → ADNL → devnet).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig, readAdminFile, type Config, type Network } from '@tongate/server';
import { dropSchema } from '@tongate/store';
import { startGateway, type Gateway } from '../src/start.js';
import { devnetElectionTiming } from '@tongate/devnet';
import { startDevnetLiteserver, type DevnetLiteserver } from '../src/devnet-liteserver.js';

export type TestBackend = 'devnet' | 'liteserver';
export const TEST_BACKEND: TestBackend = process.env.TONGATE_TEST_BACKEND === 'liteserver' ? 'liteserver' : 'devnet';

/**
 * Ports handed out by freePort come from below the kernel's ephemeral range (32768+ on Linux), split per vitest
 * worker (and stream). A port found free by binding port 0 and closing it raced every other listen(0) in the run (the devnet
 * liteservers, other workers' servers): one could take it before the gateway bound it (EADDRINUSE in CI). Here
 * listen(0) never picks these ports and no two workers share a slice, so the port stays ours. (The liteserver
 * package's tests take theirs from 16000–19999.)
 */
const PORT_SLICE = 500;
const PORT_BASE = 20_000;
const SLICES = 24; // 20000..31999
// The waiting files run in a vitest process of their own beside the others (vitest.config.ts): its workers take the
// upper half of the slices.
const streamOffset = process.env.TONGATE_TEST_STREAM === 'waiting' ? SLICES / 2 : 0;
const workerSlice = ((Number(process.env.VITEST_POOL_ID ?? process.pid) || 0) + streamOffset) % SLICES;
let nextPortOffset = Math.floor(Math.random() * PORT_SLICE);

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  for (let tries = 0; tries < PORT_SLICE; tries++) {
    const port = PORT_BASE + workerSlice * PORT_SLICE + (nextPortOffset++ % PORT_SLICE);
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port in this worker's slice ${PORT_BASE + workerSlice * PORT_SLICE}..+${PORT_SLICE}`);
}

export interface TestGateway {
  gateway: Gateway;
  ports: Record<Network, number>;
  /** The devnet liteservers in front of each network (liteserver backend only). */
  liteservers: Partial<Record<Network, DevnetLiteserver>>;
  /** Issues an API key through the running server's admin endpoint. */
  /** A key of `network` with `rps` (default 10 000) and, optionally, its own streaming plan. */
  createKey(network: Network, rps?: number, streamPlan?: { streamConnections?: number; streamAddresses?: number }): Promise<string>;
  close(): Promise<void>;
}

let gatewaysStarted = 0;

/** Starts the composed service with response validation on, silent logs, and env-provided DATABASE_URL / REDIS_URL. */
export async function startTestGateway(overrides: Partial<Config> = {}): Promise<TestGateway> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-e2e-'));
  // Streams on a Redis channel (and stream limits under a prefix), rate limits and pending traces under a prefix of this
  // gateway's own: other gateways of the run (test files run side by side), and other runs on the same Redis, publish
  // and count on theirs. A test of several processes passes one channel and prefix to all.
  const deployment = `${process.pid}:${Date.now().toString(36)}:${gatewaysStarted++}`;
  const config = loadConfig(process.env, {
    dataDir,
    logLevel: 'silent',
    validateResponses: true,
    streamChannel: `tongate:stream-test:${deployment}`,
    redisPrefix: `tongate-test:${deployment}`,
    ...overrides,
  });
  const ports = { mainnet: await freePort(), testnet: await freePort() };
  config.mainnet.port = ports.mainnet;
  config.testnet.port = ports.testnet;
  // On PostgreSQL each run gets its own schemas (keys and chain tables), dropped at close.
  const schema = config.databaseUrl ? `e2e_${process.pid}_${Date.now().toString(36)}` : undefined;
  const liteservers: DevnetLiteserver[] = [];
  let gateway: Gateway;
  try {
    if (TEST_BACKEND === 'liteserver') {
      for (const network of ['mainnet', 'testnet'] as const) {
        const configFile = path.join(dataDir, `${network}-liteserver.json`);
        // On a port of our own too: a test stops a liteserver and starts it again on its address.
        liteservers.push(
          await startDevnetLiteserver({
            network,
            port: await freePort(),
            blockIntervalMs: config.devnetBlockIntervalMs,
            shards: config.devnetShards,
            consensus: config.devnetConsensus,
            electionTiming: devnetElectionTiming(config.devnetElectionCycleS),
            configFile,
          }),
        );
        config[network].backend = 'liteserver';
        config[network].liteserverConfig = configFile;
      }
    }
    const started = await startGateway(config, { schema });
    // Tests drive the devnets directly (seeding, producing blocks) whichever backend reads them.
    gateway = liteservers.length ? { ...started, devnets: { mainnet: liteservers[0].devnet, testnet: liteservers[1].devnet } } : started;
  } catch (err) {
    for (const l of liteservers) await l.close();
    throw err;
  }
  const admin = readAdminFile(dataDir);
  if (!admin) throw new Error('the server wrote no admin file');
  return {
    gateway,
    ports,
    liteservers: liteservers.length ? { mainnet: liteservers[0], testnet: liteservers[1] } : {},
    async createKey(network, rps = 10_000, streamPlan = {}) {
      const res = await fetch(`${admin.url}/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ network, rps, burst: rps, label: 'e2e', ...streamPlan }),
      });
      if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { key: string }).key;
    },
    async close() {
      await gateway.close();
      if (schema) await dropSchema(config.databaseUrl, schema);
      for (const l of liteservers) await l.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface KeyedGateway {
  service: TestGateway;
  keys: Record<Network, string>;
}

/**
 * Starts the service before the file's tests, with one API key per network, and closes it after them. The returned
 * object is filled in by the time tests run.
 */
export function useKeyedGateway(overrides: Partial<Config> = {}): KeyedGateway {
  const state = { keys: {} } as KeyedGateway;
  beforeAll(async () => {
    state.service = await startTestGateway(overrides);
    state.keys.mainnet = await state.service.createKey('mainnet');
    state.keys.testnet = await state.service.createKey('testnet');
  });
  afterAll(async () => {
    await state.service?.close();
  });
  return state;
}

/** JSON requests to one network's /api/v3 with its key: the status and the parsed body. */
export function v3Requests(gateway: KeyedGateway, network: Network) {
  const base = () => `http://127.0.0.1:${gateway.service.ports[network]}/api/v3/`;
  const headers = () => ({ 'X-API-Key': gateway.keys[network] });
  const reply = async (res: Response) => ({ status: res.status, body: (await res.json()) as any });
  return {
    get: async (path: string, query: string | Record<string, string>, extraHeaders: Record<string, string> = {}) =>
      reply(await fetch(`${base()}${path}?${new URLSearchParams(query)}`, { headers: { ...headers(), ...extraHeaders } })),
    post: async (path: string, body: unknown) =>
      reply(
        await fetch(`${base()}${path}`, {
          method: 'POST',
          headers: { ...headers(), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
  };
}
