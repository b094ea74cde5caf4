/**
 * Front-door cost: requests/s and latency of detectAddress through the whole gateway (host routing, auth, rate
 * limiting, OpenAPI validation, JSON-RPC dispatch, metrics, access log) against a bare express route that answers
 * constant JSON, in the same run on the same machine, in interleaved rounds (the best round of each counts: the
 * machine's speed drifts between runs). autocannon runs in a worker thread. Writes bench/results/gateway.json.
 *
 * Keyless limits are raised for the bench through the config (keylessRps/keylessBurst = 1e9), and the bench key
 * gets a plan of 1e9 rps, so no request is refused: every scenario measures the limiter's bookkeeping, not 429s.
 * Redis scenarios run when REDIS_URL is set.   Usage: npm run bench:gateway [-- --duration 3 --connections 10 --rounds 5]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import express from 'express';
import { createDevnet, installFastSha256 } from '@tongate/devnet';
import { createV2Handlers } from '@tongate/handlers-v2';
import {
  createApp,
  createLogger,
  createMemoryLimiter,
  createMetrics,
  createRedisLimiter,
  defaultConfig,
  listen,
  logDestination,
  type RateLimiter,
} from '@tongate/server';
import { KeyLookup } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '5' },
  },
});
const rounds = Math.max(1, Number(values.rounds));
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
}

const WARM_UP_SECONDS = 3;

type Target = { path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> };

/** Load on one target for `seconds`. */
function fire(port: number, opts: Target, seconds: number): Promise<AutocannonResult> {
  return autocannon({
    url: `http://127.0.0.1:${port}${opts.path}`,
    method: opts.method ?? 'GET',
    body: opts.body,
    headers: { host: 'mainnet.localhost', ...(opts.body ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    connections,
    duration: seconds,
    // Load generation in its own thread (as in bench:v2): the servers keep this thread's event loop to themselves.
    workers: 1,
  });
}

async function warm(port: number, opts: Target): Promise<void> {
  await fire(port, opts, WARM_UP_SECONDS);
}

async function measure(name: string, port: number, opts: Target): Promise<Scenario> {
  const run = (seconds: number) => fire(port, opts, seconds);
  // One unrecorded second first: JIT, lazily compiled validators and key caches warm up for every scenario alike.
  await run(1);
  const result = await run(duration);
  const scenario = {
    name,
    rps: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
  console.log(
    `${name.padEnd(34)} ${String(scenario.rps).padStart(7)} req/s  p50 ${scenario.p50Ms} ms  p99 ${scenario.p99Ms} ms  non2xx ${scenario.non2xx}`,
  );
  return scenario;
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-bench-'));
  const store = await openIndexStore({ dataDir });
  await store.migrate();
  const { key } = await store.keys.create({ network: 'mainnet', rps: 1_000_000_000, burst: 1_000_000_000, label: 'bench' });
  const keys = new KeyLookup(store.keys);
  await keys.start();
  installFastSha256(); // as the composition root does (packages/cli/src/start.ts)
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
    const app = createApp({
      config,
      v2Handlers: { mainnet: handlers, testnet: handlers },
      v3Handlers: { mainnet: {}, testnet: {} },
      keys,
      limiter,
      logger,
      metrics: createMetrics(false),
    });
    return listen(app, 0, '127.0.0.1');
  };
  const rest = { path: `/api/v2/detectAddress?address=${ADDRESS}` };
  const rpcBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'detectAddress', params: { address: ADDRESS } });
  const rpc = { path: '/api/v2/jsonRPC', method: 'POST' as const, body: rpcBody };

  // A shared (virtualised) machine's speed drifts by tens of percent between runs of a few seconds. So the bare route
  // and every scenario are measured in interleaved rounds (bare, then each scenario, per round), and each one's
  // best round stands for it: the least disturbed run of each, as bench:v2 does. Medians are reported too.
  const backends: [string, () => RateLimiter][] = [['memory', () => createMemoryLimiter()]];
  if (process.env.REDIS_URL) backends.push(['redis', () => createRedisLimiter(process.env.REDIS_URL!, `tongate-bench:${Date.now()}`)]);
  const servers: { close(): Promise<void> }[] = [];
  const cases: { name: string; port: number; opts: Parameters<typeof measure>[2] }[] = [];
  for (const [backend, make] of backends) {
    const limiter = make();
    const server = await gateway(limiter);
    servers.push({ close: async () => (await server.close(1000), await limiter.close()) });
    cases.push({ name: `REST keyless ${backend}`, port: server.port, opts: rest });
    cases.push({ name: `REST keyed ${backend}`, port: server.port, opts: { ...rest, headers: { 'X-API-Key': key } } });
    cases.push({ name: `JSON-RPC keyless ${backend}`, port: server.port, opts: rpc });
    cases.push({ name: `JSON-RPC keyed ${backend}`, port: server.port, opts: { ...rpc, headers: { 'X-API-Key': key } } });
  }
  // A running server has long been optimised by V8; the front door's code path is larger than the bare route's and
  // takes longer to reach that state, so every case first runs unrecorded for a few seconds.
  console.log('-- warm-up (unrecorded)');
  await warm(bareServer.port, { path: '/bare' });
  for (const c of cases) await warm(c.port, c.opts);
  const bareRounds: Scenario[] = [];
  const roundsOf = new Map<string, Scenario[]>(cases.map((c) => [c.name, []]));
  for (let round = 1; round <= rounds; round++) {
    console.log(`-- round ${round}/${rounds}`);
    bareRounds.push(await measure('bare express route', bareServer.port, { path: '/bare' }));
    for (const c of cases) roundsOf.get(c.name)!.push(await measure(c.name, c.port, c.opts));
  }
  for (const server of servers) await server.close();

  const best = (runs: Scenario[]) => runs.reduce((a, b) => (b.rps > a.rps ? b : a));
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  const ratio = (a: number, b: number) => Math.round((a / b) * 1000) / 1000;
  const bareBest = best(bareRounds).rps;
  const bareMedian = median(bareRounds.map((b) => b.rps));
  const scenarios = cases.map((c) => {
    const runs = roundsOf.get(c.name)!;
    const top = best(runs);
    return {
      ...top,
      roundsRps: runs.map((r) => r.rps),
      bareRps: bareBest,
      relativeToBare: ratio(top.rps, bareBest),
      medianRelativeToBare: ratio(median(runs.map((r) => r.rps)), bareMedian),
    };
  });
  const worst = Math.min(...scenarios.map((s) => s.relativeToBare));
  const worstMedian = Math.min(...scenarios.map((s) => s.medianRelativeToBare));
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadAverageAtEnd: loadavg().map((l) => Math.round(l * 100) / 100),
    logging: 'the server logger (pino, info level, batched asynchronous destination), one JSON line per request, to /dev/null',
    limitsRaised: 'keylessRps = keylessBurst = 1e9 via config; bench key plan rps = burst = 1e9',
    bareRoundsRps: bareRounds.map((b) => b.rps),
    ratioMethod: `${WARM_UP_SECONDS} s unrecorded warm-up of every case, then ${rounds} interleaved rounds (bare route, then every scenario); each scenario's best round against the bare route's best round; medians alongside`,
    loadGenerator: 'autocannon 8, 1 worker thread (the servers run on the main thread)',
    durationSeconds: duration,
    connections,
    goal: 'gateway throughput >= 65% of the bare route (front door costs at most 35%)',
    worstRelativeToBare: worst,
    worstMedianRelativeToBare: worstMedian,
    goalMet: worst >= 0.65,
    scenarios,
  };
  const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'results/gateway.json');
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(report, null, 2) + '\n');
  console.log(
    `worst gateway/bare ratio ${worst} (goal >= 0.65: ${report.goalMet ? 'met' : 'NOT met'}; worst of medians ${worstMedian}); written to ${out}`,
  );

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
