/**
 * API v2 benchmark: HTTP throughput and latency of the gateway's v2 operations (REST and JSON-RPC) against a bare
 * express route in the same process, plus the devnet's applied wallet transfers per second.
 *
 *   npm run bench:v2          (tsx bench/v2.ts; about 3 minutes, writes bench/results/v2.json)
 *
 * Everything runs on 127.0.0.1: the gateway (startGateway, a fresh temp data dir, devnet backend) and the bare
 * express app listen in this process; autocannon fires from a worker thread so that load generation does not
 * share the servers' event loop. Keyless rate limits are raised so that the limiter never answers 429 — the
 * limiter still runs on every request, only its allowance is lifted.
 */
import { createHash } from 'node:crypto';
import { autocannon, benchLog, freePort, round, runBench, startBareExpress, type AutocannonResult } from './lib.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { comment, internal, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { startGateway, type Gateway } from '@tongate/cli';
import { DEVNET_FAUCET_MNEMONIC, signerFromSeed, walletTransferBoc, type Devnet } from '@tongate/devnet';
import { createLogger, loadConfig, logDestination } from '@tongate/server';

// ------------------------------------------------------------------ parameters

const CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
const CASE_SECONDS = 3;
/** Every case runs this many times, interleaved with the others; the best round counts (medians are reported too:
 * on a 2-core virtual machine runs a few seconds apart differ by tens of percent). */
const ROUNDS = 5;
/** Timed transfers per round of the devnet measurement (after an untimed warm-up before the first); they all go to
 * one receiver, which so gets one transaction each. */
const TRANSFERS = 1000;
const TRANSFER_WARMUP = 300;
const BLOCK_EVERY = 100;
const TRANSACTIONS_LIMIT = 100;
/** The whole run must end by then, whatever hangs. */
const HARD_STOP_MS = 300_000;
const KEYLESS_LIMIT_FOR_BENCH = 10_000_000;
/**
 * BENCH_V2_PROFILE=<case id | devnet-transfers>[,...]: CPU-profile this thread (the servers' side) during those
 * cases and leave the result file alone, as the profiler skews the figures.
 */
const PROFILED = new Set((process.env.BENCH_V2_PROFILE ?? '').split(',').filter(Boolean));

const GOALS = {
  addressInformationRestVsBare: 0.5,
  jsonRpcVsRest: 0.9,
  devnetTransfersPerSecond: 300,
};

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultFile = join(repoRoot, 'bench', 'results', 'v2.json');

// ------------------------------------------------------------------ helpers

const log = benchLog('v2', HARD_STOP_MS);

async function faucetSeqno(devnet: Devnet): Promise<number> {
  const run = await devnet.runGetMethod(devnet.faucet.address, 'seqno', []);
  const top = run.stack[0] as { type: string; value?: bigint };
  if (run.exitCode !== 0 || top?.type !== 'int' || top.value === undefined)
    throw new Error(`faucet seqno get-method failed (exit ${run.exitCode})`);
  return Number(top.value);
}

// ------------------------------------------------------------------ devnet transfers

interface TransferRound {
  transfersPerSecond: number;
  /** Transfers per second of this process's CPU time over the same span: on a shared machine the wall figure drops
   * with the load, this one estimates what one dedicated core sustains. */
  transfersPerCpuSecond: number;
  elapsedMs: number;
}

interface TransfersResult {
  /** Timed transfers per round. */
  transfers: number;
  transactions: number;
  blocksSealed: number;
  /** The best round's figures (the goal compares them), as for the HTTP cases. */
  transfersPerSecond: number;
  transfersPerCpuSecond: number;
  elapsedMs: number;
  medianTransfersPerSecond: number;
  rounds: TransferRound[];
  signingMsPerTransfer: number;
  receiver: string;
}

/**
 * Same measurement as packages/devnet/bench/transfers.ts (which runs as a script and exports nothing): pre-signed
 * wallet v4r2 transfers from the faucet through sendMessage, a block sealed every BLOCK_EVERY messages. Here it runs
 * on the gateway's own devnet (durable journal in the data dir, as served), one round of TRANSFERS before each
 * round of HTTP cases, and every transfer goes to one receiver, whose transactions the getTransactions case reads.
 */
class TransferBench {
  private readonly rounds: TransferRound[] = [];
  private next = 0;
  private blocksSealed = 0;

  private constructor(
    private readonly devnet: Devnet,
    private readonly bocs: Buffer[],
    private readonly firstSeqno: number,
    private readonly signMs: number,
    readonly receiver: string,
  ) {}

  /** Signs every transfer up front (a server only receives BOCs) and applies the untimed warm-up. */
  static async prepare(devnet: Devnet): Promise<TransferBench> {
    const faucetWallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const faucetSigner = signerFromSeed(devnet.faucet.secretKey);
    const receiverKey = signerFromSeed(createHash('sha256').update('tongate bench v2 receiver').digest());
    const receiver = WalletContractV4.create({ workchain: 0, publicKey: receiverKey.publicKey }).address;
    const firstSeqno = await faucetSeqno(devnet);
    const signStart = performance.now();
    const bocs: Buffer[] = [];
    for (let i = 0; i < TRANSFER_WARMUP + TRANSFERS * ROUNDS; i++) {
      const message = internal({ to: receiver, value: toNano('0.01'), bounce: false, body: comment(`bench v2 ${i}`) });
      bocs.push(await walletTransferBoc(faucetWallet, faucetSigner, firstSeqno + i, [message], { validForSeconds: 1200 }));
    }
    const bench = new TransferBench(
      devnet,
      bocs,
      firstSeqno,
      performance.now() - signStart,
      receiver.toString({ urlSafe: true, bounceable: false }),
    );
    // Warm-up, applied but not timed: JIT and V8's background optimisation of the 5 MB emulator wasm, which a
    // running server has long finished, otherwise compete with the timed run (as in packages/devnet/bench).
    for (; bench.next < TRANSFER_WARMUP; bench.next++) await devnet.sendMessage(bocs[bench.next]!);
    await devnet.produceBlock();
    return bench;
  }

  /** Applies the next TRANSFERS transfers, timed. */
  async round(): Promise<TransferRound> {
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    for (let i = 1; i <= TRANSFERS; i++) {
      await this.devnet.sendMessage(this.bocs[this.next++]!);
      if (i % BLOCK_EVERY === 0 || i === TRANSFERS) {
        await this.devnet.produceBlock();
        this.blocksSealed++;
      }
    }
    const elapsedMs = performance.now() - start;
    const cpu = process.cpuUsage(cpuStart);
    const r = {
      transfersPerSecond: round((TRANSFERS / elapsedMs) * 1000),
      transfersPerCpuSecond: round((TRANSFERS / ((cpu.user + cpu.system) / 1000)) * 1000),
      elapsedMs: Math.round(elapsedMs),
    };
    this.rounds.push(r);
    return r;
  }

  async result(): Promise<TransfersResult> {
    const applied = (await faucetSeqno(this.devnet)) - this.firstSeqno;
    if (applied !== this.next) throw new Error(`only ${applied} of ${this.next} transfers were applied`);
    const best = this.rounds.reduce((a, b) => (b.transfersPerSecond > a.transfersPerSecond ? b : a));
    return {
      transfers: TRANSFERS,
      transactions: TRANSFERS * 2,
      blocksSealed: this.blocksSealed,
      ...best,
      medianTransfersPerSecond: round(median(this.rounds.map((r) => r.transfersPerSecond))),
      rounds: this.rounds,
      signingMsPerTransfer: round(this.signMs / this.bocs.length, 3),
      receiver: this.receiver,
    };
  }
}

// ------------------------------------------------------------------ HTTP cases

interface HttpCase {
  id: string;
  operation: 'bare' | 'getAddressInformation' | 'runGetMethod' | 'getTransactions';
  transport: 'express' | 'rest' | 'jsonrpc';
  method: 'GET' | 'POST';
  url: string;
  body?: object;
  /** Checks one reply before the load, so a case never measures error answers. */
  check(body: unknown): string | undefined;
}

interface CaseResult {
  id: string;
  operation: HttpCase['operation'];
  transport: HttpCase['transport'];
  request: string;
  requestsPerSecond: number;
  latencyMs: { p50: number; p99: number; average: number; max: number };
  requests: number;
  responseBytes: number;
  errors: number;
  non2xx: number;
  /** Every round's figures; the fields above are those of the best round. */
  rounds?: { requestsPerSecond: number; p50: number; p99: number }[];
}

function bestRound(runs: CaseResult[]): CaseResult {
  const best = runs.reduce((a, b) => (b.requestsPerSecond > a.requestsPerSecond ? b : a));
  return { ...best, rounds: runs.map((r) => ({ requestsPerSecond: r.requestsPerSecond, p50: r.latencyMs.p50, p99: r.latencyMs.p99 })) };
}

function okResult(predicate: (result: unknown) => boolean, what: string) {
  return (body: unknown): string | undefined => {
    const reply = body as { ok?: boolean; result?: unknown; error?: unknown };
    if (reply.ok !== true) return `not ok: ${JSON.stringify(body).slice(0, 300)}`;
    return predicate(reply.result) ? undefined : `unexpected result (${what}): ${JSON.stringify(reply.result).slice(0, 300)}`;
  };
}

function v2Cases(apiBase: string, faucet: string, busyAccount: string): HttpCase[] {
  const isAccountState = (r: unknown) => typeof r === 'object' && r !== null && 'balance' in r;
  const isSeqnoRun = (r: unknown) => (r as { exit_code?: number }).exit_code === 0 && Array.isArray((r as { stack?: unknown }).stack);
  const isFullPage = (r: unknown) => Array.isArray(r) && r.length === TRANSACTIONS_LIMIT;
  const jsonRpc = (method: string, params: object): object => ({ id: 1, jsonrpc: '2.0', method, params });
  const rpcUrl = `${apiBase}/jsonRPC`;
  return [
    {
      id: 'getAddressInformation/rest',
      operation: 'getAddressInformation',
      transport: 'rest',
      method: 'GET',
      url: `${apiBase}/getAddressInformation?address=${encodeURIComponent(faucet)}`,
      check: okResult(isAccountState, 'account state'),
    },
    {
      id: 'getAddressInformation/jsonrpc',
      operation: 'getAddressInformation',
      transport: 'jsonrpc',
      method: 'POST',
      url: rpcUrl,
      body: jsonRpc('getAddressInformation', { address: faucet }),
      check: okResult(isAccountState, 'account state'),
    },
    {
      id: 'runGetMethod-seqno/rest',
      operation: 'runGetMethod',
      transport: 'rest',
      method: 'POST',
      url: `${apiBase}/runGetMethod`,
      body: { address: faucet, method: 'seqno', stack: [] },
      check: okResult(isSeqnoRun, 'seqno run'),
    },
    {
      id: 'runGetMethod-seqno/jsonrpc',
      operation: 'runGetMethod',
      transport: 'jsonrpc',
      method: 'POST',
      url: rpcUrl,
      body: jsonRpc('runGetMethod', { address: faucet, method: 'seqno', stack: [] }),
      check: okResult(isSeqnoRun, 'seqno run'),
    },
    {
      id: `getTransactions-limit${TRANSACTIONS_LIMIT}/rest`,
      operation: 'getTransactions',
      transport: 'rest',
      method: 'GET',
      url: `${apiBase}/getTransactions?address=${encodeURIComponent(busyAccount)}&limit=${TRANSACTIONS_LIMIT}`,
      check: okResult(isFullPage, `${TRANSACTIONS_LIMIT} transactions`),
    },
    {
      id: `getTransactions-limit${TRANSACTIONS_LIMIT}/jsonrpc`,
      operation: 'getTransactions',
      transport: 'jsonrpc',
      method: 'POST',
      url: rpcUrl,
      body: jsonRpc('getTransactions', { address: busyAccount, limit: TRANSACTIONS_LIMIT }),
      check: okResult(isFullPage, `${TRANSACTIONS_LIMIT} transactions`),
    },
  ];
}

/** Runs `work` under the V8 CPU profiler and saves the profile (open it in Chrome DevTools) next to the temp dir. */
async function withCpuProfile<T>(name: string, work: () => Promise<T>): Promise<T> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await session.post('Profiler.stop');
    const file = join(os.tmpdir(), `tongate-bench-v2-${name.replace(/[^\w-]+/g, '_')}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
    log(`CPU profile of ${name}: ${file}`);
  }
}

async function runCase(c: HttpCase): Promise<CaseResult> {
  const body = c.body === undefined ? undefined : JSON.stringify(c.body);
  const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
  const probe = await fetch(c.url, { method: c.method, headers, body });
  const probeText = await probe.text();
  if (probe.status !== 200) throw new Error(`${c.id}: HTTP ${probe.status} before the load: ${probeText.slice(0, 300)}`);
  const problem = c.check(JSON.parse(probeText));
  if (problem) throw new Error(`${c.id}: ${problem}`);

  const result = await autocannon({
    url: c.url,
    method: c.method,
    headers,
    body,
    connections: CONNECTIONS,
    duration: CASE_SECONDS,
    warmup: { connections: CONNECTIONS, duration: WARMUP_SECONDS },
    // Load generation in its own thread: the servers keep this thread's event loop to themselves.
    workers: 1,
  });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(
      `${c.id}: ${result.errors} connection errors, ${result.non2xx} non-2xx replies (${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  return {
    id: c.id,
    operation: c.operation,
    transport: c.transport,
    request: `${c.method} ${new URL(c.url).pathname}${c.transport === 'jsonrpc' ? ` ${(c.body as { method: string }).method}` : ''}`,
    requestsPerSecond: round(result.requests.total / result.duration),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, average: round(result.latency.average, 2), max: result.latency.max },
    requests: result.requests.total,
    responseBytes: Buffer.byteLength(probeText),
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

// ------------------------------------------------------------------ goals and report

interface Goal {
  goal: string;
  /** What the goal is judged on: for a ratio, the median over rounds of the ratio within each round; for the transfer rate, the best round. */
  measured: number;
  target: number;
  pass: boolean;
  /** How far below the target a missed goal is, in percent of the target. */
  missedByPercent?: number;
  /** For reference: the best round against the best round (ratios), or the best round (the transfer rate, judged on it). */
  bestRounds: number;
}

function goal(description: string, measured: number, target: number, bestRounds: number): Goal {
  const pass = measured >= target;
  return {
    goal: description,
    measured: round(measured, 3),
    target,
    pass,
    ...(pass ? {} : { missedByPercent: round(((target - measured) / target) * 100) }),
    bestRounds: round(bestRounds, 3),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function printTable(cases: CaseResult[], transfers: TransfersResult, goals: Goal[]): void {
  const rows = cases.map((c) => [
    c.id,
    String(c.requestsPerSecond),
    String(c.latencyMs.p50),
    String(c.latencyMs.p99),
    String(c.responseBytes),
    (c.rounds ?? []).map((r) => r.requestsPerSecond).join(' / '),
  ]);
  const head = ['case', 'req/s', 'p50 ms', 'p99 ms', 'reply bytes', 'req/s of each round'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  console.log('');
  console.log(line(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
  console.log('');
  console.log(
    `devnet: ${transfers.transfersPerSecond} transfers/s, ${transfers.transfersPerCpuSecond} per CPU second in the best round (median ${transfers.medianTransfersPerSecond}; ${transfers.transfers} wallet v4r2 transfers, ${transfers.transactions} transactions per round; rounds ${transfers.rounds.map((r) => r.transfersPerSecond).join(' / ')})`,
  );
  console.log('');
  for (const g of goals) {
    console.log(
      `${g.pass ? 'PASS' : 'FAIL'}  ${g.goal}: measured ${g.measured} (best rounds: ${g.bestRounds}), target >= ${g.target}${g.pass ? '' : ` (missed by ${g.missedByPercent}%)`}`,
    );
  }
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  const startedAt = new Date();
  const known = ['devnet-transfers', 'bare-express', ...v2Cases('', '', '').map((c) => c.id)];
  const unknown = [...PROFILED].filter((id) => !known.includes(id));
  if (unknown.length > 0) throw new Error(`BENCH_V2_PROFILE: unknown ${unknown.join(', ')}; cases are ${known.join(', ')}`);
  const loadBefore = os.loadavg();
  const dataDir = mkdtempSync(join(os.tmpdir(), 'tongate-bench-v2-'));
  const [mainnetPort, testnetPort] = [await freePort(), await freePort()];
  const fromEnv = loadConfig(process.env);
  const config = loadConfig(process.env, {
    listenHost: '127.0.0.1',
    dataDir,
    logLevel: 'info',
    validateResponses: false,
    keylessRps: KEYLESS_LIMIT_FOR_BENCH,
    keylessBurst: KEYLESS_LIMIT_FOR_BENCH,
    // Blocks only when the bench seals them: no timer rounds interleaved with the measurements.
    devnetBlockIntervalMs: 0,
    mainnet: { ...fromEnv.mainnet, port: mainnetPort, backend: 'devnet' },
    testnet: { ...fromEnv.testnet, port: testnetPort, backend: 'devnet' },
  });
  log(
    `keyless rate limit raised to ${KEYLESS_LIMIT_FOR_BENCH} req/s for the bench (the limiter still runs); database: ${config.databaseUrl ? 'DATABASE_URL' : 'embedded PGlite'}, limiter: ${config.redisUrl ? 'REDIS_URL' : 'in-memory'}`,
  );

  let gateway: Gateway | undefined;
  let bare: Server | undefined;
  try {
    // Production logging (info: one JSON line per request, the server's batching destination), to /dev/null.
    gateway = await startGateway(config, { logger: createLogger('info', logDestination('/dev/null')) });
    const devnet = gateway.devnets.mainnet;
    if (!devnet) throw new Error('the gateway has no mainnet devnet');
    const seedStart = performance.now();
    await devnet.seed();
    log(`gateway on 127.0.0.1:${mainnetPort} (mainnet devnet seeded in ${Math.round(performance.now() - seedStart)} ms)`);

    log(`devnet: signing ${TRANSFER_WARMUP + TRANSFERS * ROUNDS} transfers, applying ${TRANSFER_WARMUP} untimed`);
    const transferBench = await TransferBench.prepare(devnet);

    const bareServer = await startBareExpress();
    bare = bareServer.server;
    const cases: HttpCase[] = [
      {
        id: 'bare-express',
        operation: 'bare',
        transport: 'express',
        method: 'GET',
        url: bareServer.url,
        check: okResult((r) => r === 'pong', 'pong'),
      },
      ...v2Cases(`http://127.0.0.1:${mainnetPort}/api/v2`, devnet.faucet.address.toString({ urlSafe: true }), transferBench.receiver),
    ];

    // Rounds run every case in turn, so a burst of load from elsewhere on the machine hits one sample of a case, not
    // all of them; each case reports its best round (and keeps every round's figures).
    const runs = new Map<string, CaseResult[]>(cases.map((c) => [c.id, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      log(`round ${round}/${ROUNDS} devnet-transfers: ${TRANSFERS} pre-signed transfers`);
      const t =
        round === 1 && PROFILED.has('devnet-transfers')
          ? await withCpuProfile('devnet-transfers', () => transferBench.round())
          : await transferBench.round();
      log(`round ${round}/${ROUNDS} devnet-transfers: ${t.transfersPerSecond} transfers/s, ${t.transfersPerCpuSecond} per CPU second`);
      for (const c of cases) {
        log(`round ${round}/${ROUNDS} ${c.id}: ${WARMUP_SECONDS} s warm-up + ${CASE_SECONDS} s at ${CONNECTIONS} connections`);
        const r = round === 1 && PROFILED.has(c.id) ? await withCpuProfile(c.id, () => runCase(c)) : await runCase(c);
        log(`round ${round}/${ROUNDS} ${c.id}: ${r.requestsPerSecond} req/s, p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms`);
        runs.get(c.id)!.push(r);
      }
    }
    const results: CaseResult[] = cases.map((c) => bestRound(runs.get(c.id)!));
    const transfers = await transferBench.result();

    // A ratio is judged within each round, where both cases ran seconds apart: a 2-core virtual machine's speed drifts by
    // tens of percent within a minute, so the best (or median) round of one case and of the other may come from different
    // speeds. The goal takes the median of the per-round ratios; the best-round ratio is kept for reference.
    const rps = (id: string) => results.find((r) => r.id === id)!.requestsPerSecond;
    const ratio = (a: string, b: string): [number, number] => {
      const perRound = runs.get(a)!.map((r, i) => r.requestsPerSecond / runs.get(b)![i]!.requestsPerSecond);
      return [median(perRound), rps(a) / rps(b)];
    };
    const [infoPerRound, infoBest] = ratio('getAddressInformation/rest', 'bare-express');
    const goals: Goal[] = [
      goal('getAddressInformation REST throughput / bare express throughput', infoPerRound, GOALS.addressInformationRestVsBare, infoBest),
      ...(['getAddressInformation', 'runGetMethod-seqno', `getTransactions-limit${TRANSACTIONS_LIMIT}`] as const).map((op) => {
        const [perRound, best] = ratio(`${op}/jsonrpc`, `${op}/rest`);
        return goal(`${op} JSON-RPC throughput / REST throughput (JSON-RPC at most 10% slower)`, perRound, GOALS.jsonRpcVsRest, best);
      }),
      // An absolute rate, judged like bench:gateway's figures on the best round: what the devnet sustains when the
      // machine's other tenants leave it the CPU. The median round is kept beside it (medianTransfersPerSecond).
      goal(
        'devnet applied wallet transfers per second (best round)',
        transfers.transfersPerSecond,
        GOALS.devnetTransfersPerSecond,
        transfers.transfersPerSecond,
      ),
    ];
    printTable(results, transfers, goals);

    const cpus = os.cpus();
    const report = {
      bench: 'v2',
      description:
        'API v2 over HTTP on 127.0.0.1: autocannon (worker thread) against a bare express route and the gateway (same process, devnet backend), plus devnet transfers/s',
      settings: {
        connections: CONNECTIONS,
        warmupSeconds: WARMUP_SECONDS,
        caseSeconds: CASE_SECONDS,
        rounds: `${ROUNDS}, interleaved; each case reports its best round and keeps all; ratio goals take the median of the per-round ratios, the transfer goal its best round (devnet.medianTransfersPerSecond beside it); bestRounds compares best rounds`,
        loadGenerator: 'autocannon 8, 1 worker thread',
        keylessRateLimit: `${KEYLESS_LIMIT_FOR_BENCH} req/s (raised for the bench; the limiter still runs)`,
        database: config.databaseUrl ? 'DATABASE_URL' : 'embedded PGlite',
        limiter: config.redisUrl ? 'redis' : 'in-memory',
        validateResponses: false,
        devnetBlockIntervalMs: 0,
        faucetMnemonic: `${DEVNET_FAUCET_MNEMONIC.slice(0, 2).join(' ')} … (DEVNET_FAUCET_MNEMONIC)`,
        transactionsAccount: transfers.receiver,
      },
      cases: results,
      devnet: {
        description: `pre-signed wallet v4r2 transfers faucet → one receiver via sendMessage (2 transactions each), ${TRANSFER_WARMUP} untimed, then ${TRANSFERS} timed before each of the ${ROUNDS} rounds of HTTP cases, a block sealed every ${BLOCK_EVERY}, on the gateway's durable devnet; the best round is reported (medianTransfersPerSecond beside it)`,
        ...transfers,
      },
      goals,
      allGoalsPass: goals.every((g) => g.pass),
      machine: {
        node: process.version,
        cpus: cpus.length,
        cpuModel: cpus[0]?.model ?? 'unknown',
        platform: `${os.platform()} ${os.release()}`,
        loadAverageBefore: loadBefore.map((l) => round(l, 2)),
        loadAverageAfter: os.loadavg().map((l) => round(l, 2)),
      },
      date: startedAt.toISOString(),
      durationSeconds: round((Date.now() - startedAt.getTime()) / 1000),
    };
    if (PROFILED.size > 0) {
      log(`profiling ${[...PROFILED].join(', ')}: figures are skewed by the profiler, ${resultFile} left as it was`);
    } else {
      mkdirSync(dirname(resultFile), { recursive: true });
      writeFileSync(resultFile, JSON.stringify(report, null, 2) + '\n');
      log(`wrote ${resultFile}`);
    }
  } finally {
    if (bare) {
      const server = bare;
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    if (gateway) await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
