/**
 * API v3 / indexer benchmark.
 *
 *   npm run bench:v3        (tsx bench/v3.ts; a few minutes; writes bench/results/v3.json)
 *
 * 0. Cadence (the goal's figure for block → v3): a devnet at its defaults (a round every 400 ms, a basechain in two
 *    shards) sealing blocks by its own timer under a steady load (~125 transfers a second), the indexer with every
 *    derivation following into PGlite in the same process, as `npm start` runs, for BENCH_V3_CADENCE_SECONDS (600);
 *    every block timed from its seal to its write, and the indexer's lag behind the chain sampled.
 * 1. Corpus: a devnet (in memory) seeded, then blocks of wallet transfers produced back to back; the indexer follows
 *    it into PGlite (its whole path: read from the ChainSource, write), with the process RSS sampled (a stress figure:
 *    a timed block also waits for the blocks before it).
 * 2. Ingest: the corpus (every masterchain block as the indexer collected it) written again through the indexer's
 *    write path (writeMcBlock, one database transaction per block) into fresh PostgreSQL schemas and a fresh PGlite,
 *    in a process of its own per backend (bench/v3-ingest.ts): transactions per second. Needs DATABASE_URL for the
 *    PostgreSQL figures.
 * 3. Volume: the PostgreSQL chain tables are filled to TARGET_TRANSACTIONS transactions (with one message each) by
 *    generate_series inside PostgreSQL (bounded in time: no round trip per row), then the API, in a process of its own
 *    (bench/v3-gateway.ts) and warmed up, answers `transactions?account=…&limit=100` (one account again and again, and
 *    2000 different accounts) and `messages?msg_hash=…` one request at a time from a worker thread
 *    (bench/latency-worker.mjs, through node:http and, for the account history, through fetch too; latency p50/p99),
 *    beside the machine's floor for the same page (bench/v3-floor-server.ts), and under 10 connections beside a bare
 *    express route (throughput);
 *    the same volume carries one action per transaction, and `actions?account=…&limit=100` is timed beside the
 *    account history.
 * 4. Pending: external messages turned into pending traces per second (bench/pending.ts).
 * 5. Classification: traces per second of the action classifier over the golden fixtures (bench/classification.ts).
 * 6. Validators at volume: VALIDATOR_CYCLES cycles of 400 validators each (sets, rounds, frozen stakes, election
 *    participants) generated inside PostgreSQL, then `/validators/cycles` p50/p99: the newest cycles (100), one cycle
 *    with its validators embedded, and a stake holder's cycles.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Address, internal } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { startGateway } from '@tongate/cli';
import { createDevnet, DEFAULT_DEVNET_BLOCK_INTERVAL_MS, DEFAULT_DEVNET_SHARDS, signerFromSeed, walletTransferBoc } from '@tongate/devnet';
import { collectChain, Indexer, writeMcBlock, type McBlockBatch } from '@tongate/indexer';
import { openIndexStore, WIRE_VERSION } from '@tongate/read-model';
import { loadConfig } from '@tongate/server';
import { dropSchema, sql, type Store } from '@tongate/store';
import { measureClassificationRate } from './classification.js';
import { autocannon, benchLog, freePort, round, runBench, startBareExpress } from './lib.js';
import { benchPendingEmulation } from './pending.js';
import { dropSecondaryIndexes, filled, recordFilled, restoreSecondaryIndexes } from './v3-fill.js';
import { fillNominatorEvents, NOMINATORS, POOLS } from './v3-pools.js';

const CORPUS_BLOCKS = Number(process.env.BENCH_V3_CORPUS_BLOCKS ?? 40);
/** Faucet messages per block; each carries 4 transfers, so a block holds ~5 × this many transactions. */
const EXTERNALS_PER_BLOCK = 25;
const INGEST_ROUNDS = 3;
/**
 * The cadence phase: blocks at the devnet's own interval and shards (its defaults, what `npm start` runs), externals
 * sent evenly over time as clients would (EXTERNALS_PER_SECOND); every block timed.
 */
const CADENCE_SECONDS = Number(process.env.BENCH_V3_CADENCE_SECONDS ?? 600);
const CADENCE_INTERVAL_MS = DEFAULT_DEVNET_BLOCK_INTERVAL_MS;
/** Faucet externals a second in the cadence phase, four transfers each. */
const EXTERNALS_PER_SECOND = 25;
const TARGET_TRANSACTIONS = Number(process.env.BENCH_V3_TRANSACTIONS ?? 1_000_000);
const TARGET_NOMINATOR_EVENTS = Number(process.env.BENCH_V3_NOMINATOR_EVENTS ?? 1_000_000);
/** Accounts the synthetic history is spread over (so an account has TARGET / ACCOUNTS transactions). */
const SYNTHETIC_ACCOUNTS = Number(process.env.BENCH_V3_ACCOUNTS ?? 10_000);
/**
 * Synthetic transactions that also get an action (the first ones): by default all of them up to 1M. Beyond, the
 * actions would double the fill time of a 10M volume on a 2-core machine, and the 10M goal is about transactions.
 */
const SYNTHETIC_ACTIONS = Number(process.env.BENCH_V3_ACTIONS ?? Math.min(TARGET_TRANSACTIONS, 1_000_000));
/** Requests per latency figure: its p99 is the 20th slowest (at 500 it would be the 5th, which moves by milliseconds run to run). */
const LATENCY_REQUESTS = 2000;
/** Requests to the measured URLs before the latency runs (see warmUp). */
const WARM_UP_REQUESTS = 3000;
/** Validation cycles at volume: each with a full mainnet-sized set (every cycle's validators, stakes and factors). */
const VALIDATOR_CYCLES = Number(process.env.BENCH_V3_VALIDATOR_CYCLES ?? 2_000);
const VALIDATORS_PER_CYCLE = 400;
const THROUGHPUT_SECONDS = 5;
/** 25 min for the default volume, plus 5 min per further million synthetic transactions to fill. */
const HARD_STOP_MS = 1_500_000 + Math.max(0, TARGET_TRANSACTIONS / 1_000_000 - 1) * 300_000;
/**
 * BENCH_V3_SCHEMA names the volume's schema and keeps it after the run: a later run against the same database and
 * schema finds the volume already there (bench_fill records what was filled) and goes straight to the measurements.
 * Without it the volume lives in a per-process schema, dropped at the end.
 */
const KEEP_SCHEMA = process.env.BENCH_V3_SCHEMA;
/** BENCH_V3_ONLY=volume: only the volume phase (fill if needed, then the API figures), for re-measuring a kept volume. */
const ONLY_VOLUME = process.env.BENCH_V3_ONLY === 'volume';
/** BENCH_V3_ONLY=ingest: only the corpus and the ingest rounds (the write path, measured in a minute) → v3-ingest.json. */
const ONLY_INGEST = process.env.BENCH_V3_ONLY === 'ingest';
/** BENCH_V3_ONLY=cadence: only the cadence phase (block sealed → visible in v3 at the devnet's own block interval) → v3-cadence.json. */
const ONLY_CADENCE = process.env.BENCH_V3_ONLY === 'cadence';
const DEFAULT_TRANSACTIONS = 1_000_000;
/**
 * BENCH_V3_API_IN_PROCESS=1: the volume phase's gateway in the bench's own process, sharing its event
 * loop and heap with the client, the devnets' corpus and the fills; by default it runs in a process of its own.
 */
const API_IN_PROCESS = process.env.BENCH_V3_API_IN_PROCESS === '1';
/** Fills adding at least this many transactions drop the secondary indexes first and rebuild them at the end. */
const BULK_FILL_ROWS = 2_000_000;

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(repoRoot, 'bench', 'results');
/** The full run at the default volume is bench/results/v3.json; any other run gets its own file (v3-10m.json, …). */
const label = `${TARGET_TRANSACTIONS % 1_000_000 === 0 ? `${TARGET_TRANSACTIONS / 1_000_000}m` : TARGET_TRANSACTIONS}${ONLY_VOLUME ? '-volume' : ''}`;
const resultFile = join(resultsDir, TARGET_TRANSACTIONS === DEFAULT_TRANSACTIONS && !ONLY_VOLUME ? 'v3.json' : `v3-${label}.json`);
const databaseUrl = process.env.DATABASE_URL;

const log = benchLog('v3', HARD_STOP_MS);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const mb = (bytes: number) => round(bytes / 2 ** 20);

// ------------------------------------------------------------------ 1. corpus, following the head

async function buildCorpus(dataDir: string) {
  const devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  const store = await openIndexStore({ dataDir: join(dataDir, 'follow') });
  await store.migrate();
  const indexer = new Indexer({ chain: devnet, db: store.chain('testnet'), pollMs: 20 });
  await indexer.start();
  // Sampled in the loop as well as by a timer: the devnet's CPU-bound rounds can starve timers for seconds.
  const rss: number[] = [];
  const visibleMs: number[] = [];
  /** The indexer's own stage timings (ms) of each measured block: where its time went. */
  const measuredStages: Record<string, number>[] = [];
  const sample = () => rss.push(process.memoryUsage().rss);
  const sampler = setInterval(sample, 250);
  try {
    await devnet.seed();
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const signer = signerFromSeed(devnet.faucet.secretKey);
    let seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    const started = performance.now();
    for (let i = 0; i < CORPUS_BLOCKS; i++) {
      for (let e = 0; e < EXTERNALS_PER_BLOCK; e++) {
        const n = (i * EXTERNALS_PER_BLOCK + e) * 4;
        const messages = [0, 1, 2, 3].map((i) =>
          internal({
            to: new Address(0, Buffer.from((n + i + 1).toString(16).padStart(64, '0'), 'hex')),
            value: 1_000_000n,
            bounce: false,
            body: `bench v3 ${n + i}`,
          }),
        );
        await devnet.sendMessage(await walletTransferBoc(wallet, signer, seqno++, messages, { validForSeconds: 3600 }));
      }
      const block = await devnet.produceBlock();
      const sealedAt = performance.now();
      sample();
      // Block sealed → written by the indexer, when v3 serves it: every 4th block, so that most blocks are followed
      // while the next ones are being produced.
      if (i % 4 === 0) {
        await indexer.waitFor(block.seqno, 60_000);
        visibleMs.push(performance.now() - sealedAt);
        const last = indexer.status().lastBlock;
        if (last?.seqno === block.seqno) measuredStages.push(last.stagesMs);
      }
    }
    const head = (await devnet.getMasterchainInfo()).last.seqno;
    while (indexer.status().indexedSeqno !== head) {
      sample();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const followSeconds = (performance.now() - started) / 1000;
    const status = indexer.status();
    // The corpus: every masterchain block as the indexer collects it, for the write-path measurement.
    const batches = await collectChain(devnet);
    const sorted = [...rss].sort((a, b) => a - b);
    const visible = [...visibleMs].sort((a, b) => a - b);
    return {
      batches,
      follow: {
        description:
          'stress: the devnet producing blocks of transfers back to back, as fast as it can, while the indexer follows it into PGlite (read from ChainSource + write), same process; a timed block also waits for the blocks before it (the goal is measured at the devnet cadence: `cadence`)',
        masterchainBlocks: head + 1,
        transactions: status.transactions,
        wallSeconds: round(followSeconds, 2),
        lagBlocksAtEnd: status.lagBlocks,
        rssMb: { min: mb(sorted[0] ?? 0), p50: mb(percentile(sorted, 50)), max: mb(sorted.at(-1) ?? 0), samples: sorted.length },
        blockSealedToIndexedMs: { p50: round(percentile(visible, 50), 1), max: round(visible.at(-1) ?? 0, 1), blocks: visible.length },
        measuredBlockStagesMs: stageSummary(measuredStages),
        allBlocksStageMeanMs: Object.fromEntries(
          Object.entries(status.stageSecondsTotal).map(([stage, s]) => [stage, round((s * 1000) / Math.max(1, status.blocks), 1)]),
        ),
      },
    };
  } finally {
    clearInterval(sampler);
    await indexer.stop();
    await store.close();
    await devnet.close();
  }
}

/**
 * Block sealed → indexed (so served by v3) at the devnet's own cadence: the devnet at its defaults seals a round
 * every CADENCE_INTERVAL_MS by its timer, a sender spreads EXTERNALS_PER_SECOND faucet externals (four transfers
 * each, to accounts of both shards) evenly over time, and the indexer with every derivation follows into PGlite, all
 * in one process as in `npm start`. Every masterchain block of CADENCE_SECONDS is timed from its seal to its write by
 * the indexer, and every 50 ms the indexer's lag (blocks sealed but not yet written) is sampled.
 */
async function followAtCadence(dataDir: string) {
  const devnet = await createDevnet({ network: 'testnet' });
  const store = await openIndexStore({ dataDir: join(dataDir, 'cadence') });
  await store.migrate();
  const indexer = new Indexer({ chain: devnet, db: store.chain('testnet'), pollMs: 20 });
  await indexer.start();
  const rss: number[] = [];
  const lags: number[] = [];
  let head = 0;
  const sample = () => rss.push(process.memoryUsage().rss);
  const sampler = setInterval(sample, 250);
  const lagSampler = setInterval(() => lags.push(head - (indexer.status().lastBlock?.seqno ?? 0)), 50);
  lagSampler.unref();
  let sending = true;
  try {
    await devnet.seed();
    await indexer.waitFor((await devnet.getMasterchainInfo()).last.seqno, 120_000);
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const signer = signerFromSeed(devnet.faucet.secretKey);
    let seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    let sent = 0;
    const sendingStarted = performance.now();
    const sender = (async () => {
      while (sending) {
        const wait = sendingStarted + (sent * 1000) / EXTERNALS_PER_SECOND - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const n = 1_000_000 + sent * 4;
        // Receivers spread over the whole address space, so over both shards: a transfer to the other shard lands
        // a block after the faucet's transaction.
        const messages = [0, 1, 2, 3].map((i) =>
          internal({
            to: new Address(
              0,
              createHash('sha256')
                .update(`cadence ${n + i}`)
                .digest(),
            ),
            value: 1_000_000n,
            bounce: false,
            body: `cadence ${n + i}`,
          }),
        );
        await devnet.sendMessage(await walletTransferBoc(wallet, signer, seqno++, messages, { validForSeconds: 3600 }));
        sent++;
      }
    })();
    // The first block after the sender started is the first full one.
    const first = (await devnet.getMasterchainInfo()).last.seqno + 2;
    await devnet.waitForMasterchainBlock(first - 1, 10_000);
    lags.length = 0;
    const visible: Promise<number>[] = [];
    const end = performance.now() + CADENCE_SECONDS * 1000;
    let b = first;
    for (; performance.now() < end; b++) {
      await devnet.waitForMasterchainBlock(b, 10_000);
      const sealedAt = performance.now();
      head = b;
      visible.push(indexer.waitFor(b, 60_000).then(() => performance.now() - sealedAt));
    }
    const last = b - 1;
    const times = (await Promise.all(visible)).sort((a, x) => a - x);
    sending = false;
    await sender;
    const blocks = last - first + 1;
    const { rows } = await sql<{
      transactions: number;
    }>`select coalesce(sum(tx_count), 0)::int as transactions from ${sql.table(`${store.chainSchema('testnet')}.blocks`)} where mc_block_seqno between ${first} and ${last}`.execute(
      store.chain('testnet'),
    );
    const sortedLags = [...lags].sort((a, x) => a - x);
    const sorted = [...rss].sort((a, x) => a - x);
    return {
      description: `the devnet at its defaults (a round every ${CADENCE_INTERVAL_MS} ms, ${DEFAULT_DEVNET_SHARDS} basechain shards) under a steady load of ${EXTERNALS_PER_SECOND * 4} transfers a second, the indexer with every derivation following into PGlite, one process (npm start), for ${CADENCE_SECONDS} s; every block timed, the indexer's lag sampled every 50 ms`,
      intervalMs: CADENCE_INTERVAL_MS,
      shards: DEFAULT_DEVNET_SHARDS,
      seconds: CADENCE_SECONDS,
      blocks,
      transactionsPerBlock: round((rows[0]?.transactions ?? 0) / blocks, 1),
      blockSealedToIndexedMs: {
        p50: round(percentile(times, 50), 1),
        p90: round(percentile(times, 90), 1),
        p99: round(percentile(times, 99), 1),
        max: round(times.at(-1) ?? 0, 1),
        blocks: times.length,
      },
      indexerLagBlocks: {
        p50: percentile(sortedLags, 50),
        p99: percentile(sortedLags, 99),
        max: sortedLags.at(-1) ?? 0,
        samples: sortedLags.length,
      },
      rssMb: { min: mb(sorted[0] ?? 0), p50: mb(percentile(sorted, 50)), max: mb(sorted.at(-1) ?? 0), samples: sorted.length },
      allBlocksStageMeanMs: Object.fromEntries(
        Object.entries(indexer.status().stageSecondsTotal).map(([stage, sec]) => [
          stage,
          round((sec * 1000) / Math.max(1, indexer.status().blocks), 1),
        ]),
      ),
    };
  } finally {
    sending = false;
    clearInterval(sampler);
    clearInterval(lagSampler);
    await indexer.stop();
    await store.close();
    await devnet.close();
  }
}

/** Mean and max per indexer stage over the measured blocks (stage names: see StageTimings in @tongate/indexer). */
function stageSummary(blocks: Record<string, number>[]): Record<string, { mean: number; max: number }> {
  const stages = [...new Set(blocks.flatMap((b) => Object.keys(b)))];
  return Object.fromEntries(
    stages.map((stage) => {
      const values = blocks.map((b) => b[stage] ?? 0);
      return [
        stage,
        { mean: round(values.reduce((a, v) => a + v, 0) / Math.max(1, values.length), 1), max: round(Math.max(...values), 1) },
      ];
    }),
  );
}

// ------------------------------------------------------------------ 2. ingest through the write path

/**
 * The corpus through the indexer's write path, in a process of its own (bench/v3-ingest.ts) as the indexer runs in
 * production: the rounds' JavaScript side then shares its heap with the corpus alone, not with this process's
 * devnets, PGlite and corpus follower.
 */
async function ingest(batches: McBlockBatch[], dataDir: string) {
  const corpusFile = join(dataDir, 'corpus.bin');
  writeFileSync(corpusFile, v8.serialize(batches));
  const rounds: { backend: string; transactionsPerSecond: number }[] = [];
  for (const backend of databaseUrl ? ['postgres', 'pglite'] : ['pglite']) {
    const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', 'v3-ingest.ts')], {
      env: {
        ...process.env,
        BENCH_V3_CORPUS: corpusFile,
        BENCH_V3_DATA_DIR: dataDir,
        BENCH_V3_INGEST_BACKEND: backend,
        BENCH_V3_INGEST_ROUNDS: String(INGEST_ROUNDS),
        DATABASE_URL: databaseUrl ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => {
      for (const line of d.toString().split('\n').filter(Boolean)) log(line);
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    if (code !== 0) throw new Error(`bench/v3-ingest.ts (${backend}) exited with ${code}`);
    rounds.push(...(JSON.parse(out) as { rounds: { backend: string; transactionsPerSecond: number }[] }).rounds);
  }
  const best = (backend: string) => Math.max(0, ...rounds.filter((x) => x.backend === backend).map((x) => x.transactionsPerSecond));
  return {
    process: 'bench/v3-ingest.ts, a process of its own per backend',
    rounds,
    bestPglite: best('pglite'),
    bestPostgres: databaseUrl ? best('postgres') : null,
  };
}

// ------------------------------------------------------------------ 3. volume and the API

/**
 * Fills the chain tables to `target` transactions inside PostgreSQL: history spread over synthetic accounts.
 * Synthetic transactions are numbered from 0; a kept volume is topped up from where its last fill stopped.
 * Returns how many synthetic transactions the tables hold.
 */
async function fillVolume(store: Store, target: number, corpusTransactions: number): Promise<number> {
  const db = store.chain('testnet');
  const schema = sql.id(store.chainSchema('testnet'));
  // The wire version is part of the volume's identity: rows filled without (or with an older) stored wire form would
  // be served through the joins, and measure that path instead.
  const params = `accounts=${SYNTHETIC_ACCOUNTS} wire=${WIRE_VERSION}`;
  const before = await filled(store, 'transactions');
  if (before && before.params !== params)
    throw new Error(`the kept volume was filled with ${before.params}, not ${params}: use another BENCH_V3_SCHEMA`);
  const already = before?.rows ?? 0;
  const synthetic = target - corpusTransactions;
  if (already >= synthetic) {
    await restoreSecondaryIndexes(store); // a fill killed after its last step
    log(`volume: ${already} synthetic transactions already there, no fill`);
    return already;
  }
  const template = await db.selectFrom('transactions').select('description').limit(1).executeTakeFirstOrThrow();
  const description = JSON.stringify(template.description);
  // A big fill (a 10M volume) inserts into tables without their secondary indexes and builds them at the end: with
  // PostgreSQL's default 128 MB of shared buffers, random-key index inserts (hashes) make each step slower as the
  // indexes outgrow the cache, while one sorted build per index takes minutes.
  const bulk = synthetic - already >= BULK_FILL_ROWS;
  if (bulk) await dropSecondaryIndexes(store, ['transactions', 'messages']);
  const step = 100_000;
  for (let from = already; from < synthetic; from += step) {
    const to = Math.min(synthetic, from + step) - 1;
    const started = performance.now();
    // Each step and its bench_fill record commit together, so that a killed fill resumes without doubling rows.
    await store
      .chain('testnet')
      .transaction()
      .execute(async (db) => {
        await sql`
        insert into ${schema}.transactions
          (account, hash, lt, now, block_workchain, block_shard, block_seqno, mc_block_seqno, prev_trans_hash, prev_trans_lt,
           orig_status, end_status, total_fees, total_fees_extra_currencies, account_state_hash_before, account_state_hash_after,
           descr, aborted, description, in_msg_hash, wire, wire_peers, wire_version)
        select t.account, t.hash, t.lt, t.now, 0, -9223372036854775808, t.seqno, t.seqno, t.prev_hash, t.prev_lt,
               'active', 'active', 1000000, '{}', t.state_before, t.state_after, 'ord', false, ${description}::jsonb, t.msg_hash,
               -- the stored wire form, as the indexer's formatter writes it for these rows (see @tongate/read-model wire.ts)
               json_build_object('account', t.account, 'hash', t.hash, 'lt', t.lt::text, 'now', t.now, 'mc_block_seqno', t.seqno,
                 'prev_trans_hash', t.prev_hash, 'prev_trans_lt', t.prev_lt::text, 'orig_status', 'active', 'end_status', 'active',
                 'total_fees', '1000000', 'total_fees_extra_currencies', '{}'::json, 'description', ${description}::json,
                 'block_ref', json_build_object('workchain', 0, 'shard', '8000000000000000', 'seqno', t.seqno),
                 'in_msg', json_build_object('hash', t.msg_hash, 'source', t.source, 'destination', t.account, 'value', '1000000',
                   'value_extra_currencies', '{}'::json, 'fwd_fee', '1000', 'ihr_fee', '0', 'extra_flags', null, 'import_fee', null,
                   'created_lt', (t.lt - 1)::text, 'created_at', t.now::text, 'opcode', '0x00000000', 'decoded_opcode', 'text_comment',
                   'ihr_disabled', true, 'bounce', false, 'bounced', false,
                   'message_content', json_build_object('hash', t.body_hash, 'body', null, 'decoded', null), 'init_state', null),
                 'out_msgs', '[]'::json,
                 'account_state_before', json_build_object('hash', t.state_before, 'balance', null, 'extra_currencies', null, 'account_status', null, 'frozen_hash', null, 'data_hash', null, 'code_hash', null),
                 'account_state_after', json_build_object('hash', t.state_after, 'balance', null, 'extra_currencies', null, 'account_status', null, 'frozen_hash', null, 'data_hash', null, 'code_hash', null),
                 'emulated', false, 'finality', 'finalized')::text,
               jsonb_build_array(t.source), ${WIRE_VERSION}
        from (select '0:' || upper(lpad(to_hex(i % ${SYNTHETIC_ACCOUNTS}), 64, '0')) as account,
                     '0:' || upper(lpad(to_hex((i + 1) % ${SYNTHETIC_ACCOUNTS}), 64, '0')) as source,
                     encode(sha256(('tx' || i)::bytea), 'base64') as hash, 1000000000000 + i * 10 as lt, (1700000000 + i / 100)::int as now,
                     (1000000 + i / 100)::int as seqno,
                     encode(sha256(('tx' || (i - ${SYNTHETIC_ACCOUNTS}))::bytea), 'base64') as prev_hash, 1000000000000 + (i - ${SYNTHETIC_ACCOUNTS}) * 10 as prev_lt,
                     encode(sha256(('s' || i)::bytea), 'base64') as state_before, encode(sha256(('s' || (i + 1))::bytea), 'base64') as state_after,
                     encode(sha256(('m' || i)::bytea), 'base64') as msg_hash, encode(sha256(('b' || (i % 1000))::bytea), 'base64') as body_hash
              from generate_series(${from}::bigint, ${to}::bigint) as i) t`.execute(db);
        await sql`
        insert into ${schema}.messages
          (tx_hash, tx_lt, tx_account, direction, out_index, mc_seqno, msg_hash, source, destination, value, value_extra_currencies,
           fwd_fee, ihr_fee, created_lt, created_at, order_lt, order_utime, opcode, ihr_disabled, bounce, bounced, body_hash)
        select encode(sha256(('tx' || i)::bytea), 'base64'), 1000000000000 + i * 10, '0:' || upper(lpad(to_hex(i % ${SYNTHETIC_ACCOUNTS}), 64, '0')),
               'in', 0, 1000000 + i / 100, encode(sha256(('m' || i)::bytea), 'base64'),
               '0:' || upper(lpad(to_hex((i + 1) % ${SYNTHETIC_ACCOUNTS}), 64, '0')), '0:' || upper(lpad(to_hex(i % ${SYNTHETIC_ACCOUNTS}), 64, '0')),
               1000000, '{}', 1000, 0, 1000000000000 + i * 10 - 1, 1700000000 + i / 100, 1000000000000 + i * 10 - 1, 1700000000 + i / 100,
               0, true, false, false, encode(sha256(('b' || (i % 1000))::bytea), 'base64')
        from generate_series(${from}::bigint, ${to}::bigint) as i`.execute(db);
        // One TON transfer action per synthetic transaction (its own trace), between the receiver and the sender.
        if (from < SYNTHETIC_ACTIONS) {
          await sql`
          insert into ${schema}.actions
            (trace_id, action_id, type, start_lt, end_lt, start_utime, end_utime, trace_end_lt, trace_end_utime, trace_mc_seqno_end,
             success, ancestor_type, tx_hashes, data)
          select h.tx, h.action, 'ton_transfer', h.lt, h.lt, h.now, h.now, h.lt, h.now, h.mc, true, '[]', jsonb_build_array(h.tx),
                 jsonb_build_object('trace_id', h.tx, 'action_id', h.action, 'type', 'ton_transfer', 'tx_hashes', jsonb_build_array(h.tx),
                   'accounts', jsonb_build_array(h.dest, h.src), 'source', h.src, 'destination', h.dest, 'value', '1000000',
                   'ton_transfer_data', jsonb_build_object('content', null, 'encrypted', false), 'start_lt', h.lt::text, 'end_lt', h.lt::text,
                   'start_utime', h.now, 'end_utime', h.now, 'success', true, 'mc_seqno_end', h.mc, 'trace_end_lt', h.lt::text,
                   'trace_end_utime', h.now, 'trace_mc_seqno_end', h.mc, 'trace_external_hash', null, 'trace_external_hash_norm', null,
                   'ancestor_type', null, 'parent_action_id', null)
          from (select encode(sha256(('tx' || i)::bytea), 'base64') as tx, encode(sha256(('a' || i)::bytea), 'base64') as action,
                       1000000000000 + i * 10 as lt, 1700000000 + i / 100 as now, 1000000 + i / 100 as mc,
                       '0:' || upper(lpad(to_hex(i % ${SYNTHETIC_ACCOUNTS}), 64, '0')) as dest,
                       '0:' || upper(lpad(to_hex((i + 1) % ${SYNTHETIC_ACCOUNTS}), 64, '0')) as src
                from generate_series(${from}::bigint, ${Math.min(to, SYNTHETIC_ACTIONS - 1)}::bigint) as i) h`.execute(db);
          await sql`
          insert into ${schema}.action_accounts
            (account, trace_end_lt, trace_id, end_lt, action_id, type, ancestor_type, trace_end_utime, trace_mc_seqno_end)
          select '0:' || upper(lpad(to_hex((i + k) % ${SYNTHETIC_ACCOUNTS}), 64, '0')), 1000000000000 + i * 10,
                 encode(sha256(('tx' || i)::bytea), 'base64'), 1000000000000 + i * 10, encode(sha256(('a' || i)::bytea), 'base64'),
                 'ton_transfer', '[]', 1700000000 + i / 100, 1000000 + i / 100
          from generate_series(${from}::bigint, ${Math.min(to, SYNTHETIC_ACTIONS - 1)}::bigint) as i, (values (0), (1)) as party(k)`.execute(
            db,
          );
        }
        await recordFilled(store, 'transactions', to + 1, params, db);
      });
    log(`volume: ${corpusTransactions + to + 1} transactions (${round((performance.now() - started) / 1000, 1)} s for this step)`);
  }
  await restoreSecondaryIndexes(store);
  await sql`analyze ${schema}.transactions`.execute(db);
  await sql`analyze ${schema}.messages`.execute(db);
  await sql`analyze ${schema}.actions`.execute(db);
  await sql`analyze ${schema}.action_accounts`.execute(db);
  return synthetic;
}

/** Rows the validators derivation writes, for VALIDATOR_CYCLES cycles (cycle i starts at 1600000000 + i·65536). */
async function fillValidators(store: Store): Promise<void> {
  const db = store.chain('testnet');
  const schema = sql.raw(`"${store.chainSchema('testnet')}"`);
  const n = VALIDATOR_CYCLES;
  const v = VALIDATORS_PER_CYCLE;
  const params = `cycles=${n} validators=${v}`;
  const before = await filled(store, 'validators');
  if (before?.params === params) return;
  if (before) throw new Error(`the kept volume holds validators filled with ${before.params}, not ${params}: use another BENCH_V3_SCHEMA`);
  const started = performance.now();
  await sql`
    insert into ${schema}.validator_cycles (cycle_start, cycle_end, vset_hash, total, main, total_weight, validators_elected_for,
      elections_start_before, elections_end_before, stake_held_for, max_validators, max_main_validators, min_validators,
      min_stake_limit, max_stake_limit, min_total_stake, max_stake_factor)
    select 1600000000 + i * 65536, 1600065536 + i * 65536, encode(sha256(('set' || i)::bytea), 'hex'), ${v}, 100, 1152921504606846976,
      65536, 32768, 8192, 32768, 400, 100, 75, 300000000000000, 10000000000000000, 75000000000000000, 196608
    from generate_series(0, ${n - 1}) as i`.execute(db);
  await sql`
    insert into ${schema}.validator_rounds (election_id, vset_hash, unfreeze_at, stake_held, total_stake, bonuses, min_stake, max_stake, unfrozen, fingerprint)
    select 1600000000 + i * 65536, encode(sha256(('set' || i)::bytea), 'hex'), 1600098304 + i * 65536, 32768, 400000000000000000,
      30000000000000, 300000000000000, 2000000000000000, true, 'bench'
    from generate_series(0, ${n - 1}) as i`.execute(db);
  await sql`
    insert into ${schema}.validator_cycle_validators (cycle_start, validator_index, validator_pubkey, adnl_addr, weight)
    select 1600000000 + i * 65536, j, encode(sha256(('key' || j)::bytea), 'hex'), encode(sha256(('adnl' || j)::bytea), 'hex'), 2882303761517117
    from generate_series(0, ${n - 1}) as i, generate_series(0, ${v - 1}) as j`.execute(db);
  await sql`
    insert into ${schema}.validator_round_stakes (election_id, validator_pubkey, stake_holder_address, weight, stake, banned, reward)
    select 1600000000 + i * 65536, encode(sha256(('key' || j)::bytea), 'hex'), '-1:' || upper(lpad(to_hex(j), 64, '0')), 2882303761517117,
      1000000000000000, false, 75000000000
    from generate_series(0, ${n - 1}) as i, generate_series(0, ${v - 1}) as j`.execute(db);
  await sql`
    insert into ${schema}.validator_election_participants (election_id, validator_pubkey, stake_holder_address, adnl_addr, stake, max_factor, stake_time)
    select 1600000000 + i * 65536, encode(sha256(('key' || j)::bytea), 'hex'), '-1:' || upper(lpad(to_hex(j), 64, '0')),
      encode(sha256(('adnl' || j)::bytea), 'hex'), 1000000000000000, 196608, 1600000000 + i * 65536 - 20000
    from generate_series(0, ${n - 1}) as i, generate_series(0, ${v - 1}) as j`.execute(db);
  for (const table of [
    'validator_cycles',
    'validator_rounds',
    'validator_cycle_validators',
    'validator_round_stakes',
    'validator_election_participants',
  ]) {
    await sql`analyze ${schema}.${sql.raw(table)}`.execute(db);
  }
  await recordFilled(store, 'validators', n, params);
  log(`validators: ${n} cycles × ${v} validators (${round((performance.now() - started) / 1000, 1)} s)`);
}

async function explain(store: Store, query: string): Promise<string[]> {
  // Executed (analyze): the plans carry the real times and buffer hits at the volume.
  const { rows } = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers) ${sql.raw(query)}`.execute(store.chain('testnet'));
  return rows.map((r) => r['QUERY PLAN']);
}

/**
 * The client of the latency figures (bench/latency-worker.mjs). The goals are judged through node:http (a keep-alive
 * agent), the client @ton/ton's TonClient rides on (axios's Node adapter) and the leanest Node has, so that a figure is
 * the service's time; fetch (undici; tonweb and browsers-style clients) adds costs of its own — on a 2-core virtual machine a
 * static 200 KB reply, no server work at all, has p99 4.2–4.5 ms through fetch against 1.4–2.1 ms through node:http —
 * and the account history is timed through it too, beside.
 */
type LatencyClient = 'http' | 'fetch';

/**
 * One request at a time (the first 20 not counted), from a worker thread of its own (bench/latency-worker.mjs: the
 * client's garbage collection is not the server's latency); `url` may name a different URL for each request.
 */
async function sequentialLatency(
  url: string | ((i: number) => string),
  client: LatencyClient = 'http',
): Promise<{ p50: number; p99: number; max: number }> {
  const urlOf = typeof url === 'string' ? () => url : url;
  const urls = Array.from({ length: LATENCY_REQUESTS + 20 }, (_, i) => urlOf(i));
  const worker = new Worker(new URL('./latency-worker.mjs', import.meta.url), { workerData: { urls, skip: 20, client } });
  const times = await new Promise<number[]>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`latency worker exited with ${code}`)));
  });
  await worker.terminate();
  times.sort((a, b) => a - b);
  return { p50: round(percentile(times, 50), 2), p99: round(percentile(times, 99), 2), max: round(times.at(-1)!, 2) };
}

/**
 * WARM_UP_REQUESTS requests to the measured URLs in turn before anything is timed (from the latency worker): a fresh
 * API process runs its request path in V8's interpreter and baseline tiers at first, and it takes a couple of
 * thousand requests before the optimised code of every function on it has taken over (measured: p50 5.6 ms over the
 * first 500 account-history requests of a new gateway process, 2.5 ms over the fourth 500).
 */
async function warmUp(urls: string[]): Promise<number> {
  const list = Array.from({ length: WARM_UP_REQUESTS }, (_, i) => urls[i % urls.length]!);
  const worker = new Worker(new URL('./latency-worker.mjs', import.meta.url), {
    workerData: { urls: list, skip: list.length, client: 'http' },
  });
  await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  return list.length;
}

async function throughput(url: string): Promise<{ requestsPerSecond: number; p50: number; p99: number }> {
  const result = await autocannon({
    url,
    connections: 10,
    duration: THROUGHPUT_SECONDS,
    warmup: { connections: 10, duration: 1 },
    workers: 1,
  });
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  return { requestsPerSecond: round(result.requests.total / result.duration), p50: result.latency.p50, p99: result.latency.p99 };
}

/** Starts a bench script in a process of its own and waits for the `READY …` line it prints once it listens. */
async function spawnReady(script: string, env: Record<string, string>): Promise<{ ready: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'bench', script)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = /^READY(.*)$/m.exec(out);
      if (line) resolve(line[1]!.trim());
    });
    void exited.then(() => reject(new Error(`${script} ended before it was ready (exit ${child.exitCode})`)));
  });
  return {
    ready,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * The gateway in a process of its own (bench/v3-gateway.ts), as an API process runs in production: the latency and
 * throughput figures are then the server's, not those of a process that also runs the bench's client.
 */
function spawnGateway(config: ReturnType<typeof loadConfig>, schema: string): Promise<{ close(): Promise<void> }> {
  return spawnReady('v3-gateway.ts', { BENCH_V3_GATEWAY_CONFIG: JSON.stringify(config), BENCH_V3_GATEWAY_SCHEMA: schema });
}

/**
 * The machine's floor for the account-history page (bench/v3-floor-server.ts): the same bytes served from memory and
 * through PostgreSQL by a bare node:http process, timed like the gateway's figures. Separates what a page costs in
 * tongate from what moving ~200 KB between three processes costs on the machine.
 */
async function pageFloor(pageUrl: string, dataDir: string) {
  const page = Buffer.from(await (await fetch(pageUrl)).arrayBuffer());
  const pageFile = join(dataDir, 'floor-page.json');
  writeFileSync(pageFile, page);
  const server = await spawnReady('v3-floor-server.ts', { BENCH_V3_FLOOR_PAGE: pageFile, DATABASE_URL: databaseUrl ?? '' });
  try {
    const base = `http://127.0.0.1:${server.ready}`;
    await warmUp([`${base}/static`, `${base}/pg`]);
    return {
      pageBytes: page.length,
      server: 'bench/v3-floor-server.ts: node:http in a process of its own, no tongate code',
      latencyMs: {
        staticPage: await sequentialLatency(`${base}/static`),
        pageReadFromPostgres: await sequentialLatency(`${base}/pg`),
        staticPageThroughFetch: await sequentialLatency(`${base}/static`, 'fetch'),
        pageReadFromPostgresThroughFetch: await sequentialLatency(`${base}/pg`, 'fetch'),
      },
    };
  } finally {
    await server.close();
  }
}

async function volumeAndApi(corpus: () => Promise<McBlockBatch[]>, dataDir: string) {
  if (!databaseUrl) return null;
  const schema = KEEP_SCHEMA ?? `bench_v3_volume_${process.pid}`;
  const store = await openIndexStore({ databaseUrl, schema });
  await store.migrate();
  const [mainnetPort, testnetPort] = [await freePort(), await freePort()];
  const fromEnv = loadConfig(process.env);
  const config = loadConfig(process.env, {
    dataDir: join(dataDir, 'gateway'),
    logLevel: 'warn',
    keylessRps: 10_000_000,
    keylessBurst: 10_000_000,
    devnetBlockIntervalMs: 0,
    // The bench fills the chain tables itself: the gateway only reads them.
    indexer: 'external',
    mainnet: { ...fromEnv.mainnet, port: mainnetPort },
    testnet: { ...fromEnv.testnet, port: testnetPort },
  });
  const bare = await startBareExpress();
  let gateway: { close(): Promise<void> } | undefined;
  try {
    // The real corpus goes in first (the synthetic rows copy its transaction description); a kept volume has it.
    let corpusTransactions = (await filled(store, 'corpus'))?.rows;
    if (corpusTransactions === undefined) {
      const batches = await corpus();
      for (const batch of batches) await writeMcBlock(store.chain('testnet'), batch);
      corpusTransactions = batches.reduce((n, b) => n + b.transactions.length, 0);
      await recordFilled(store, 'corpus', corpusTransactions, '');
    }
    const started = performance.now();
    const synthetic = await fillVolume(store, TARGET_TRANSACTIONS, corpusTransactions);
    const fillSeconds = round((performance.now() - started) / 1000, 1);
    const poolVolume = await fillNominatorEvents(store, TARGET_NOMINATOR_EVENTS, log);
    gateway = API_IN_PROCESS ? await startGateway(config, { schema }) : await spawnGateway(config, schema);
    const base = `http://127.0.0.1:${testnetPort}/api/v3`;
    const account = `0:${(4242 % SYNTHETIC_ACCOUNTS).toString(16).padStart(64, '0').toUpperCase()}`;
    const msgHash = Buffer.from(
      createHash('sha256')
        .update(`m${synthetic - 7}`)
        .digest(),
    ).toString('hex');
    const txUrl = `${base}/transactions?account=${encodeURIComponent(account)}&limit=100`;
    const msgUrl = `${base}/messages?msg_hash=${msgHash}`;
    const probe = (await (await fetch(txUrl)).json()) as { transactions?: unknown[] };
    const probeMsg = (await (await fetch(msgUrl)).json()) as { messages?: unknown[] };
    if (probe.transactions?.length !== 100 || probeMsg.messages?.length !== 1) {
      throw new Error(
        `volume probes did not find the synthetic rows: ${JSON.stringify(probe).slice(0, 300)} ${JSON.stringify(probeMsg).slice(0, 300)}`,
      );
    }
    const poolEventsUrl = `${base}/staking/nominatorPools/nominatorEvents?limit=1000&pool=${encodeURIComponent(poolVolume.pool)}`;
    const nominatorEventsUrl = `${poolEventsUrl}&nominator=${encodeURIComponent(poolVolume.nominator)}`;
    for (const url of [poolEventsUrl, nominatorEventsUrl]) {
      const page = (await (await fetch(url)).json()) as { events?: unknown[] };
      if (!page.events || page.events.length < 100)
        throw new Error(`nominatorEvents probe did not find the synthetic rows: ${JSON.stringify(page).slice(0, 300)}`);
    }
    const actionsUrl = `${base}/actions?account=${encodeURIComponent(account)}&limit=100`;
    const probeActions = (await (await fetch(actionsUrl)).json()) as { actions?: unknown[] };
    if (probeActions.actions?.length !== 100)
      throw new Error(`volume probe did not find the synthetic actions: ${JSON.stringify(probeActions).slice(0, 300)}`);
    // Account histories of LATENCY_REQUESTS different accounts, one after the other (an explorer's traffic), beside
    // the one account asked again and again (its pages stay in PostgreSQL's buffers).
    const accountUrl = (i: number) =>
      `${base}/transactions?account=${encodeURIComponent(`0:${((i * 7919) % SYNTHETIC_ACCOUNTS).toString(16).padStart(64, '0').toUpperCase()}`)}&limit=100`;
    const warmUpStarted = performance.now();
    const warmUpRequests = await warmUp([txUrl, accountUrl(1), msgUrl, actionsUrl, poolEventsUrl, nominatorEventsUrl]);
    log(`warm-up: ${warmUpRequests} requests in ${round((performance.now() - warmUpStarted) / 1000, 1)} s`);
    const latency = {
      transactionsByAccount: await sequentialLatency(txUrl),
      transactionsByRotatingAccount: await sequentialLatency(accountUrl),
      transactionsByAccountThroughFetch: await sequentialLatency(txUrl, 'fetch'),
      transactionsByRotatingAccountThroughFetch: await sequentialLatency(accountUrl, 'fetch'),
      messagesByHash: await sequentialLatency(msgUrl),
      actionsByAccount: await sequentialLatency(actionsUrl),
      nominatorEventsByPool: await sequentialLatency(poolEventsUrl),
      nominatorEventsByNominator: await sequentialLatency(nominatorEventsUrl),
    };
    log(
      `latency at ${TARGET_TRANSACTIONS} tx: account history p99 ${latency.transactionsByAccount.p99} ms (different accounts: ${latency.transactionsByRotatingAccount.p99} ms; through fetch ${latency.transactionsByAccountThroughFetch.p99} / ${latency.transactionsByRotatingAccountThroughFetch.p99} ms), message by hash p99 ${latency.messagesByHash.p99} ms, ` +
        `account actions p99 ${latency.actionsByAccount.p99} ms`,
    );
    const floor = await pageFloor(txUrl, dataDir);
    const f = floor.latencyMs;
    log(
      `the machine's floor for a ${floor.pageBytes}-byte page (p50 / p99): from memory ${f.staticPage.p50} / ${f.staticPage.p99} ms, read from PostgreSQL ${f.pageReadFromPostgres.p50} / ${f.pageReadFromPostgres.p99} ms; ` +
        `through fetch ${f.staticPageThroughFetch.p50} / ${f.staticPageThroughFetch.p99} and ${f.pageReadFromPostgresThroughFetch.p50} / ${f.pageReadFromPostgresThroughFetch.p99} ms`,
    );
    log(
      `latency at ${TARGET_NOMINATOR_EVENTS} nominator events: a pool's page p99 ${latency.nominatorEventsByPool.p99} ms, a nominator's p99 ${latency.nominatorEventsByNominator.p99} ms`,
    );
    await fillValidators(store);
    const holder = `-1:${(17).toString(16).padStart(64, '0').toUpperCase()}`;
    const cycleUrls = {
      newest: `${base}/validators/cycles?limit=100`,
      oneWithValidators: `${base}/validators/cycles?cycle_start=${1600000000 + Math.floor(VALIDATOR_CYCLES / 2) * 65536}&return_validators=true`,
      byStakeHolder: `${base}/validators/cycles?limit=100&stake_holder_address=${encodeURIComponent(holder)}`,
    };
    const cyclesProbe = (await (await fetch(cycleUrls.oneWithValidators)).json()) as { cycles?: { validators?: unknown[] }[] };
    if (cyclesProbe.cycles?.[0]?.validators?.length !== VALIDATORS_PER_CYCLE)
      throw new Error(`validators probe: ${JSON.stringify(cyclesProbe).slice(0, 300)}`);
    const cyclesLatency = {
      newest: await sequentialLatency(cycleUrls.newest),
      oneWithValidators: await sequentialLatency(cycleUrls.oneWithValidators),
      byStakeHolder: await sequentialLatency(cycleUrls.byStakeHolder),
    };
    log(
      `validators/cycles at ${VALIDATOR_CYCLES} cycles: p99 newest ${cyclesLatency.newest.p99} ms, one with ${VALIDATORS_PER_CYCLE} validators ${cyclesLatency.oneWithValidators.p99} ms, by holder ${cyclesLatency.byStakeHolder.p99} ms`,
    );
    const bareRun = await throughput(bare.url);
    const txRun = await throughput(txUrl);
    log(`throughput: bare ${bareRun.requestsPerSecond} req/s, v3 transactions limit 100 ${txRun.requestsPerSecond} req/s`);
    const chainSchema = store.chainSchema('testnet');
    return {
      transactions: TARGET_TRANSACTIONS,
      accounts: SYNTHETIC_ACCOUNTS,
      apiProcess: API_IN_PROCESS
        ? 'the bench process (BENCH_V3_API_IN_PROCESS=1), beside the client and the fills'
        : 'a process of its own (bench/v3-gateway.ts), as in production',
      actions: Math.min(SYNTHETIC_ACTIONS, synthetic),
      fillSeconds,
      nominatorEvents: {
        events: TARGET_NOMINATOR_EVENTS,
        pools: POOLS,
        nominatorsPerPool: NOMINATORS,
        fillSeconds: round(poolVolume.seconds, 1),
      },
      latencyMs: latency,
      accountHistoryFloor: floor,
      validatorCycles: { cycles: VALIDATOR_CYCLES, validatorsPerCycle: VALIDATORS_PER_CYCLE, latencyMs: cyclesLatency },
      throughput: {
        bareExpress: bareRun,
        transactionsLimit100: txRun,
        ratio: round(txRun.requestsPerSecond / bareRun.requestsPerSecond, 3),
      },
      plans: {
        transactionsByAccount: await explain(
          store,
          `select * from "${chainSchema}".transactions where account = '${account}' order by lt desc, account desc limit 100`,
        ),
        nominatorEventsByNominator: await explain(
          store,
          `select * from "${chainSchema}".nominator_pool_events where pool = '${poolVolume.pool}' and nominator = '${poolVolume.nominator}' order by utime desc, tx_lt desc, tx_hash, nominator, type limit 1000`,
        ),
        actionsByAccount: await explain(
          store,
          `select trace_id, action_id from "${chainSchema}".action_accounts where account = '${account}' order by trace_end_lt desc, trace_id desc, end_lt desc, action_id desc limit 100`,
        ),
        messagesByHash: await explain(
          store,
          `select distinct msg_hash, order_lt from "${chainSchema}".messages where msg_hash = '${Buffer.from(msgHash, 'hex').toString('base64')}' or msg_hash_norm = '${Buffer.from(msgHash, 'hex').toString('base64')}' order by order_lt desc, msg_hash desc limit 10`,
        ),
      },
    };
  } finally {
    if (gateway) await gateway.close();
    bare.server.closeAllConnections();
    await new Promise<void>((resolve) => bare.server.close(() => resolve()));
    await store.close();
    if (!KEEP_SCHEMA) await dropSchema(databaseUrl, schema);
  }
}

// ------------------------------------------------------------------ main

async function main(): Promise<void> {
  const startedAt = new Date();
  const loadBefore = os.loadavg();
  const dataDir = mkdtempSync(join(os.tmpdir(), 'tongate-bench-v3-'));
  try {
    // The corpus is built once when needed: always in a full run, in a volume-only run only to seed a new volume.
    let corpus: Awaited<ReturnType<typeof buildCorpus>> | undefined;
    const corpusOnce = async () => {
      if (!corpus) {
        log('building the corpus: devnet blocks of transfers, followed by the indexer');
        corpus = await buildCorpus(dataDir);
        log(
          `corpus: ${corpus.batches.length} masterchain blocks, ${corpus.batches.reduce((n, b) => n + b.transactions.length, 0)} transactions; followed at RSS max ${corpus.follow.rssMb.max} MB`,
        );
      }
      return corpus;
    };
    const machine = () => ({
      node: process.version,
      cpus: os.cpus().length,
      loadAverageBefore: loadBefore,
      loadAverageAfter: os.loadavg(),
    });
    let cadence: Awaited<ReturnType<typeof followAtCadence>> | undefined;
    if (!ONLY_VOLUME && !ONLY_INGEST) {
      cadence = await followAtCadence(dataDir);
      log(
        `cadence: block sealed → visible in v3 p50 ${cadence.blockSealedToIndexedMs.p50} ms, max ${cadence.blockSealedToIndexedMs.max} ms over ${cadence.blocks} blocks of ${cadence.transactionsPerBlock} transactions; indexer lag max ${cadence.indexerLagBlocks.max} blocks`,
      );
      if (ONLY_CADENCE) {
        const file = join(resultsDir, 'v3-cadence.json');
        writeFileSync(file, JSON.stringify({ startedAt, machine: machine(), cadence }, null, 2) + '\n');
        log(`cadence only → ${file}`);
        return;
      }
    }
    let ingested: Awaited<ReturnType<typeof ingest>> | undefined;
    let classification: ReturnType<typeof measureClassificationRate> | undefined;
    if (!ONLY_VOLUME) {
      ingested = await ingest((await corpusOnce()).batches, dataDir);
      if (ONLY_INGEST) {
        const file = join(resultsDir, 'v3-ingest.json');
        writeFileSync(file, JSON.stringify({ startedAt, machine: machine(), ingest: ingested }, null, 2) + '\n');
        log(`ingest only: best PostgreSQL ${ingested.bestPostgres} tx/s, PGlite ${ingested.bestPglite} tx/s → ${file}`);
        return;
      }
      classification = measureClassificationRate();
      log(`classification: ${classification.traces_per_second.best} traces/s best over ${classification.fixtures} golden fixtures`);
    }
    const volume = await volumeAndApi(async () => (await corpusOnce()).batches, dataDir);
    const pending = ONLY_VOLUME ? undefined : await benchPendingEmulation();
    if (pending) log(`pending: ${pending.tracesPerSecond} traces emulated per second`);
    const follow = ONLY_VOLUME ? undefined : corpus?.follow;
    const goals = [
      ...(cadence && ingested
        ? [
            {
              goal: `a transaction visible in v3 ≤ 1 s after its block (devnet block sealed every ${CADENCE_INTERVAL_MS} ms in ${cadence.shards} shards → indexed, ~${cadence.transactionsPerBlock} transactions a block; worst of ${cadence.blocks} blocks)`,
              measured: cadence.blockSealedToIndexedMs.max,
              target: 1000,
              pass: cadence.blockSealedToIndexedMs.max <= 1000,
            },
            {
              goal: `the indexer never more than 2 blocks behind the chain over ${cadence.seconds} s at that cadence (worst sampled lag)`,
              measured: cadence.indexerLagBlocks.max,
              target: 2,
              pass: cadence.indexerLagBlocks.max <= 2,
            },
            {
              goal: 'ingest into PostgreSQL ≥ 5000 transactions/s (best round)',
              measured: ingested.bestPostgres,
              target: 5000,
              pass: ingested.bestPostgres !== null && ingested.bestPostgres >= 5000,
            },
          ]
        : []),
      {
        goal: `account history (transactions?account=…&limit=100) p99 ≤ 10 ms at ${TARGET_TRANSACTIONS} transactions (the goal is set at 10M)`,
        measured: volume?.latencyMs.transactionsByAccount.p99 ?? null,
        target: 10,
        pass: volume !== null && volume.latencyMs.transactionsByAccount.p99 <= 10,
      },
      {
        goal: `nominator events of a pool (staking/nominatorPools/nominatorEvents?pool=…, its newest 1000) p99 ≤ 10 ms at ${TARGET_NOMINATOR_EVENTS} events`,
        measured: volume?.latencyMs.nominatorEventsByPool.p99 ?? null,
        target: 10,
        pass: volume !== null && volume.latencyMs.nominatorEventsByPool.p99 <= 10,
      },
      {
        goal: `account actions (actions?account=…&limit=100) p99 ≤ 10 ms at ${Math.min(SYNTHETIC_ACTIONS, TARGET_TRANSACTIONS)} actions, beside the account history`,
        measured: volume?.latencyMs.actionsByAccount.p99 ?? null,
        target: 10,
        pass: volume !== null && volume.latencyMs.actionsByAccount.p99 <= 10,
      },
      {
        goal: `validators/cycles p99 ≤ 50 ms at ${VALIDATOR_CYCLES} cycles of ${VALIDATORS_PER_CYCLE} validators (worst of: newest page, one cycle with its validators, a stake holder's cycles)`,
        measured: volume ? Math.max(...Object.values(volume.validatorCycles.latencyMs).map((l) => l.p99)) : null,
        target: 50,
        pass: volume !== null && Math.max(...Object.values(volume.validatorCycles.latencyMs).map((l) => l.p99)) <= 50,
      },
    ];
    const report = {
      bench: 'v3',
      description:
        'Indexer ingest (PGlite, PostgreSQL), indexer following a devnet (RSS), API v3 latency and throughput over a PostgreSQL index, pending-trace emulation throughput',
      ...(ONLY_VOLUME
        ? { only: 'volume (BENCH_V3_ONLY=volume): the corpus, ingest, classification and pending phases were skipped' }
        : {
            corpus: corpus && {
              masterchainBlocks: corpus.batches.length,
              transactions: corpus.batches.reduce((n, b) => n + b.transactions.length, 0),
              blocksOfTransfers: CORPUS_BLOCKS,
              externalsPerBlock: EXTERNALS_PER_BLOCK,
            },
            cadence,
            follow,
            ingest: {
              description: `the corpus written through writeMcBlock (one database transaction per masterchain block with the cursor), ${INGEST_ROUNDS} rounds, each into fresh tables`,
              ...ingested,
            },
            classification: {
              description: 'the action classifier over the golden mainnet traces (bench/classification.ts)',
              ...classification,
            },
          }),
      volume: volume ?? 'skipped: DATABASE_URL not set',
      ...(pending ? { pending } : {}),
      goals,
      machine: {
        node: process.version,
        cpus: os.cpus().length,
        cpuModel: os.cpus()[0]?.model ?? 'unknown',
        loadAverageBefore: loadBefore.map((l) => round(l, 2)),
        loadAverageAfter: os.loadavg().map((l) => round(l, 2)),
      },
      date: startedAt.toISOString(),
      durationSeconds: round((Date.now() - startedAt.getTime()) / 1000),
    };
    mkdirSync(dirname(resultFile), { recursive: true });
    // A full default run rewrites v3.json but keeps the summaries of the runs at other volumes.
    const previousRuns =
      resultFile === join(resultsDir, 'v3.json') && existsSync(resultFile)
        ? (JSON.parse(readFileSync(resultFile, 'utf8')) as { volumeRuns?: unknown }).volumeRuns
        : undefined;
    writeFileSync(resultFile, JSON.stringify(previousRuns ? { ...report, volumeRuns: previousRuns } : report, null, 2) + '\n');
    log(`wrote ${resultFile}`);
    // A run at another volume than the default is also summarised in v3.json (beside its default-volume figures) under volumeRuns.
    const mainFile = join(resultsDir, 'v3.json');
    if (TARGET_TRANSACTIONS !== DEFAULT_TRANSACTIONS && typeof volume === 'object' && volume !== null && existsSync(mainFile)) {
      const main = JSON.parse(readFileSync(mainFile, 'utf8')) as { volumeRuns?: Record<string, unknown> };
      main.volumeRuns = {
        ...main.volumeRuns,
        [String(TARGET_TRANSACTIONS)]: {
          file: `bench/results/${basename(resultFile)}`,
          date: report.date,
          transactions: volume.transactions,
          accounts: volume.accounts,
          latencyMs: volume.latencyMs,
          throughput: volume.throughput,
          goals: goals.filter((g) => g.goal.startsWith('account history')),
          machine: report.machine,
        },
      };
      writeFileSync(mainFile, JSON.stringify(main, null, 2) + '\n');
      log(`summarised in ${mainFile} (volumeRuns.${TARGET_TRANSACTIONS})`);
    }
    for (const g of goals) log(`${g.pass ? 'PASS' : 'MISS'} ${g.goal}: ${g.measured}`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
