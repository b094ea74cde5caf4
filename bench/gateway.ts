/**
 * Front-door cost: requests/s and latency of detectAddress through the whole gateway (host routing, auth, rate
 * limiting, OpenAPI validation, JSON-RPC dispatch, metrics, access log) against a bare express route that answers
 * constant JSON, in the same run on the same machine; each scenario is compared with a bare-route run measured just
 * before it, because load on a shared machine drifts within a run. autocannon runs in a worker thread. Writes
 * bench/results/gateway.json.
 *
 * Keyless limits are raised for the bench through the config (keylessRps/keylessBurst = 1e9), and the bench key
 * gets a plan of 1e9 rps, so no request is refused: every scenario measures the limiter's bookkeeping, not 429s.
 * Redis scenarios run when REDIS_URL is set.   Usage: npm run bench:gateway [-- --duration 5 --connections 10]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import express from 'express';
import { createDevnet } from '@tongate/devnet';
import { createV2Handlers } from '@tongate/handlers-v2';
import { createApp, createLogger, createMemoryLimiter, createMetrics, createRedisLimiter, defaultConfig, listen, logDestination, type RateLimiter } from '@tongate/server';
import { KeyLookup, openStore } from '@tongate/store';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' } } });
const duration = Number(values.duration);
const connections = Number(values.connections);
const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
interface AutocannonOptions {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  headers: Record<string, string>;
  connections: number;
  duration: number;
  workers?: number;
}
// autocannon ships no type declarations.
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: AutocannonOptions) => Promise<AutocannonResult>;

interface Scenario {
  name: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
  /** The bare route's req/s measured right before this scenario. */
  bareRps?: number;
  relativeToBare?: number;
}

async function measure(name: string, port: number, opts: { path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> }): Promise<Scenario> {
  const run = (seconds: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}${opts.path}`,
      method: opts.method ?? 'GET',
      body: opts.body,
      headers: { host: 'mainnet.localhost', ...(opts.body ? { 'content-type': 'application/json' } : {}), ...opts.headers },
      connections,
      duration: seconds,
      // Load generation in its own thread (as in bench:v2): the servers keep this thread's event loop to themselves.
      workers: 1,
    });
  // One unrecorded second first: JIT, lazily compiled validators and key caches warm up for every scenario alike.
  await run(1);
  const result = await run(duration);
  const scenario = { name, rps: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, non2xx: result.non2xx, errors: result.errors };
  console.log(`${name.padEnd(34)} ${String(scenario.rps).padStart(7)} req/s  p50 ${scenario.p50Ms} ms  p99 ${scenario.p99Ms} ms  non2xx ${scenario.non2xx}`);
  return scenario;
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-bench-'));
  const store = await openStore({ dataDir });
  await store.migrate();
  const { key } = await store.keys.create({ network: 'mainnet', rps: 1_000_000_000, burst: 1_000_000_000, label: 'bench' });
  const keys = new KeyLookup(store.keys);
  await keys.start();
  const chain = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
  const handlers = createV2Handlers({ chain });
  // Production logging (the server's own logger and batching destination, info level: one JSON line per request),
  // sent to /dev/null so the terminal is not the bottleneck.
  const logger = createLogger('info', logDestination('/dev/null'));

  const bare = express();
  bare.get('/bare', (_req, res) => {
    res.json({ ok: true, result: { constant: true } });
  });
  const bareServer = await listen(bare, 0, '127.0.0.1');

  const gateway = async (limiter: RateLimiter) => {
    const config = { ...defaultConfig(), keylessRps: 1_000_000_000, keylessBurst: 1_000_000_000 };
    const app = createApp({ config, v2Handlers: { mainnet: handlers, testnet: handlers }, v3Handlers: { mainnet: {}, testnet: {} }, keys, limiter, logger, metrics: createMetrics(false) });
    return listen(app, 0, '127.0.0.1');
  };
  const rest = { path: `/api/v2/detectAddress?address=${ADDRESS}` };
  const rpcBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'detectAddress', params: { address: ADDRESS } });
  const rpc = { path: '/api/v2/jsonRPC', method: 'POST' as const, body: rpcBody };

  // On a shared machine the load drifts within a run, so every gateway scenario is paired with a bare-route
  // measurement taken right before it, and its ratio is against that neighbour.
  const scenarios: Scenario[] = [];
  const bares: Scenario[] = [];
  const pair = async (name: string, port: number, opts: Parameters<typeof measure>[2]) => {
    const bareNow = await measure('bare express route', bareServer.port, { path: '/bare' });
    bares.push(bareNow);
    const s = await measure(name, port, opts);
    s.bareRps = bareNow.rps;
    s.relativeToBare = Math.round((s.rps / bareNow.rps) * 1000) / 1000;
    scenarios.push(s);
  };
  const backends: [string, () => RateLimiter][] = [['memory', () => createMemoryLimiter()]];
  if (process.env.REDIS_URL) backends.push(['redis', () => createRedisLimiter(process.env.REDIS_URL!, `tongate-bench:${Date.now()}`)]);
  for (const [backend, make] of backends) {
    const limiter = make();
    const server = await gateway(limiter);
    await pair(`REST keyless ${backend}`, server.port, rest);
    await pair(`REST keyed ${backend}`, server.port, { ...rest, headers: { 'X-API-Key': key } });
    await pair(`JSON-RPC keyless ${backend}`, server.port, rpc);
    await pair(`JSON-RPC keyed ${backend}`, server.port, { ...rpc, headers: { 'X-API-Key': key } });
    await server.close(1000);
    await limiter.close();
  }
  const worst = Math.min(...scenarios.map((s) => s.relativeToBare!));
  const bareRange = [Math.min(...bares.map((b) => b.rps)), Math.max(...bares.map((b) => b.rps))];
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100),
    logging: 'the server logger (pino, info level, batched asynchronous destination), one JSON line per request, to /dev/null',
    limitsRaised: 'keylessRps = keylessBurst = 1e9 via config; bench key plan rps = burst = 1e9',
    bareRpsRange: bareRange,
    ratioMethod: 'each scenario against a bare-route run measured immediately before it',
    loadGenerator: 'autocannon 8, 1 worker thread (the servers run on the main thread)',
    durationSeconds: duration,
    connections,
    goal: 'gateway throughput >= 65% of the bare route (front door costs at most 35%)',
    worstRelativeToBare: worst,
    goalMet: worst >= 0.65,
    scenarios,
  };
  const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'results/gateway.json');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
  console.log(`worst gateway/bare ratio ${worst} (goal >= 0.65: ${report.goalMet ? 'met' : 'NOT met'}); written to ${out}`);

  await bareServer.close(1000);
  keys.stop();
  await chain.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
