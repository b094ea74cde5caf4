/**
 * Liteserver backend benchmark: getAddressInformation and runGetMethod through the liteserver backend (gateway →
 * LiteserverChain → ADNL → a devnet liteserver in its own process) beside the same operations on the direct devnet
 * backend, in the same run, with proof checks on (`checking`, the default) and off (`unsafe`): the cost of checking.
 *
 *   npm run bench:liteserver   (tsx bench/liteserver.ts; about a minute, writes bench/results/liteserver.json)
 *
 * Two gateways read the one liteserver as mainnet, one with `checking` and one with `unsafe`; testnet is a devnet in
 * this process (the direct case). Both devnets start with the same faucet wallet, which every case reads. The liteserver runs as `tongate devnet liteserver` in a child process,
 * as a liteserver is another machine in production. Cases run in interleaved rounds (a 2-core virtual machine
 * drifts by tens of percent within seconds); each liteserver/direct ratio is taken within one round.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startGateway } from '@tongate/cli';
import { devnetFaucet } from '@tongate/devnet';
import { createLogger, loadConfig, logDestination } from '@tongate/server';

const ROUNDS = 3;
const SECONDS = 3;
const CONNECTIONS = 10;
const GOAL_RATIO = 0.5;
const HARD_STOP_MS = 240_000;

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultFile = join(repoRoot, 'bench', 'results', 'liteserver.json');

/** The part of autocannon's result this bench reads (the package ships no types). */
interface Run {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<Run>;

setTimeout(() => {
  console.error('bench/liteserver: still running, giving up');
  process.exit(2);
}, HARD_STOP_MS).unref();

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

const say = (m: string) => console.log(`[liteserver bench ${new Date().toISOString().slice(11, 19)}] ${m}`);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round2 = (x: number) => Math.round(x * 100) / 100;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(os.tmpdir(), 'tongate-bench-ls-'));
  const configFile = join(dir, 'mainnet-liteserver.json');
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(repoRoot, 'packages/cli/src/main.ts'),
      'devnet',
      'liteserver',
      '--network',
      'mainnet',
      '--config-out',
      configFile,
    ],
    {
      env: {
        ...process.env,
        TONGATE_DATA_DIR: join(dir, 'liteserver'),
        TONGATE_DEVNET_BLOCK_INTERVAL_MS: '1000',
        TONGATE_LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const gateways: Awaited<ReturnType<typeof startGateway>>[] = [];
  try {
    for (let i = 0; !existsSync(configFile); i++) {
      if (i > 600 || child.exitCode !== null) throw new Error('the devnet liteserver did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    /** A gateway with mainnet on the liteserver under `proofs`, testnet on a devnet of its own. */
    const start = async (proofs: 'checking' | 'unsafe') => {
      const doc = JSON.parse(readFileSync(configFile, 'utf8'));
      const policyFile = join(dir, `mainnet-liteserver-${proofs}.json`);
      writeFileSync(policyFile, JSON.stringify({ ...doc, tongate: { ...doc.tongate, proofs } }));
      const config = loadConfig(
        { TONGATE_MAINNET_BACKEND: 'liteserver', TONGATE_MAINNET_LITESERVER_CONFIG: policyFile },
        {
          dataDir: join(dir, `gateway-${proofs}`),
          keylessRps: 10_000_000,
          keylessBurst: 10_000_000,
          devnetBlockIntervalMs: 1000,
          validateResponses: false,
        },
      );
      config.mainnet.port = await freePort();
      config.testnet.port = await freePort();
      const started = await startGateway(config, { logger: createLogger('info', logDestination('/dev/null')) });
      gateways.push(started);
      return (n: 'mainnet' | 'testnet') => started.servers.find((s) => s.network === n)!.port;
    };
    const checking = await start('checking');
    const unsafe = await start('unsafe');
    const faucet = (await devnetFaucet()).address.toRawString();
    const backends = { direct: checking('testnet'), liteserver: checking('mainnet'), unsafe: unsafe('mainnet') };
    const operations = {
      getAddressInformation: (p: number) => ({ url: `http://127.0.0.1:${p}/api/v2/getAddressInformation?address=${faucet}` }),
      runGetMethod: (p: number) => ({
        url: `http://127.0.0.1:${p}/api/v2/runGetMethod`,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ address: faucet, method: 'seqno', stack: [] }),
      }),
    };
    const results: Record<string, Record<string, { rps: number; p50: number; p99: number }[]>> = {};
    for (let r = 0; r < ROUNDS; r++) {
      for (const [op, request] of Object.entries(operations)) {
        for (const [backend, p] of Object.entries(backends)) {
          const run = await autocannon({
            ...request(p),
            connections: CONNECTIONS,
            duration: SECONDS,
            warmup: { connections: CONNECTIONS, duration: 1 },
            workers: 1,
          });
          if (run.errors > 0 || run.non2xx > 0) throw new Error(`${op} on ${backend}: ${run.errors} errors, ${run.non2xx} non-2xx replies`);
          ((results[op] ??= {})[backend] ??= []).push({
            rps: Math.round(run.requests.average),
            p50: run.latency.p50,
            p99: run.latency.p99,
          });
          say(
            `round ${r + 1} ${op} ${backend}: ${Math.round(run.requests.average)} req/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms`,
          );
        }
      }
    }
    const summary = Object.fromEntries(
      Object.entries(results).map(([op, byBackend]) => {
        const ratios = byBackend.liteserver.map((l, i) => l.rps / byBackend.direct[i].rps);
        const checkingCost = byBackend.liteserver.map((l, i) => l.rps / byBackend.unsafe[i].rps);
        const best = (xs: { rps: number; p50: number; p99: number }[]) => xs.reduce((a, b) => (b.rps > a.rps ? b : a));
        return [
          op,
          {
            direct: { ...best(byBackend.direct), medianRps: median(byBackend.direct.map((x) => x.rps)) },
            liteserver: { ...best(byBackend.liteserver), medianRps: median(byBackend.liteserver.map((x) => x.rps)) },
            liteserverUnsafe: { ...best(byBackend.unsafe), medianRps: median(byBackend.unsafe.map((x) => x.rps)) },
            ratioPerRound: ratios.map(round2),
            medianRatio: round2(median(ratios)),
            checkingOverUnsafePerRound: checkingCost.map(round2),
            checkingOverUnsafeMedian: round2(median(checkingCost)),
            goalMet: median(ratios) >= GOAL_RATIO,
            rounds: byBackend,
          },
        ];
      }),
    );
    const cpus = os.cpus();
    const out = {
      bench: 'liteserver',
      date: new Date().toISOString(),
      goal: `liteserver backend throughput, proofs checked, ≥ ${GOAL_RATIO} of the direct devnet backend (median of per-round ratios); checkingOverUnsafe records what checking costs against unsafe on the same liteserver`,
      method: `${ROUNDS} interleaved rounds, ${CONNECTIONS} connections, 1 s warm-up + ${SECONDS} s per case; rps = average req/s, latencies in ms`,
      results: summary,
      machine: { node: process.version, cpus: cpus.length, cpuModel: cpus[0]?.model ?? 'unknown', loadavg: os.loadavg().map(round2) },
    };
    mkdirSync(dirname(resultFile), { recursive: true });
    writeFileSync(resultFile, `${JSON.stringify(out, null, 2)}\n`);
    for (const [op, s] of Object.entries(summary))
      say(
        `${op}: liteserver/direct median ratio ${s.medianRatio} (goal ${GOAL_RATIO}: ${s.goalMet ? 'met' : 'NOT met'}); checking/unsafe ${s.checkingOverUnsafeMedian}`,
      );
    say(`wrote ${resultFile}`);
  } finally {
    for (const gateway of gateways) await gateway.close();
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
