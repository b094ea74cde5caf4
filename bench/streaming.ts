/**
 * Streaming API latency and memory, one gateway process (PGlite, in-memory hub, mainnet devnet producing blocks only
 * when asked), subscribers as `ws` clients in a worker thread:
 * - a sealed devnet block → its finalized `transactions` event at each subscriber, p50/p99, with 1 and with 1000
 *   subscribers to the transfer's receiver (goal: p99 ≤ 100 ms at 1000);
 * - `sendBoc` sent → its pending event (emulation included), p50/p99 (goal: p99 ≤ 50 ms);
 * - heap and RSS per idle subscribed WebSocket, measured in the server's thread (the clients' heap is the worker's).
 * Writes bench/results/streaming.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { Address, Cell, internal } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { normalizedExternalMessageHash } from '@tongate/chain';
import { signerFromSeed, walletTransferBoc } from '@tongate/devnet';
import { loadConfig } from '@tongate/server';
import { startGateway } from '@tongate/cli';
import { benchLog, freePort, round, runBench } from './lib.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const log = benchLog('streaming', 15 * 60_000);
const BLOCKS = Number(process.env.BENCH_BLOCKS ?? 30);
const SENDS = Number(process.env.BENCH_SENDS ?? 50);

const now = () => performance.timeOrigin + performance.now();
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const summary = (ms: number[]) => {
  const s = [...ms].sort((a, b) => a - b);
  return { samples: s.length, p50Ms: round(pct(s, 50), 2), p99Ms: round(pct(s, 99), 2), maxMs: round(s[s.length - 1]!, 2) };
};

class Clients {
  private readonly worker = new Worker(new URL('./streaming-worker.mjs', import.meta.url));
  private next = 0;
  private readonly pending = new Map<number, (reply: any) => void>();
  constructor() {
    this.worker.on('message', (reply) => {
      this.pending.get(reply.id)?.(reply);
      this.pending.delete(reply.id);
    });
  }
  call(msg: Record<string, unknown>): Promise<any> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)));
      this.worker.postMessage({ ...msg, id });
    });
  }
  terminate() {
    return this.worker.terminate();
  }
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-bench-streaming-'));
  const port = await freePort();
  const config = loadConfig(
    { ...process.env, DATABASE_URL: '', REDIS_URL: '' },
    {
      dataDir,
      logLevel: 'silent',
      devnetBlockIntervalMs: 0,
      keylessRps: 1_000_000,
      keylessBurst: 1_000_000,
      maxConnectionsPerClient: 0,
      streamKeylessConnections: -1,
      streamKeylessAddresses: -1,
      streamConnectsPerMinute: -1,
    },
  );
  config.mainnet.port = port;
  config.testnet.port = 0;
  const gateway = await startGateway(config);
  const clients = new Clients();
  try {
    const devnet = gateway.devnets.mainnet!;
    const indexer = gateway.indexers.mainnet!;
    const url = `ws://127.0.0.1:${port}/api/streaming/v2/ws`;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const signer = signerFromSeed(devnet.faucet.secretKey);
    let seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    const receiver = new Address(0, Buffer.alloc(32, 0x5b));
    const transfer = async (comment: string) => {
      const boc = await walletTransferBoc(wallet, signer, seqno++, [
        internal({ to: receiver, value: 1_000_000n, bounce: false, body: comment }),
      ]);
      return { boc, hashNorm: normalizedExternalMessageHash(Cell.fromBoc(boc)[0]!).toString('base64') };
    };
    const subscription = {
      types: ['transactions'],
      addresses: [`0:${receiver.hash.toString('hex').toUpperCase()}`],
      min_finality: 'pending',
    };

    // A sealed block → its finalized event, at every subscriber.
    const blockLatency = async (subscribers: number) => {
      await clients.call({ cmd: 'open', url, count: subscribers, subscription });
      const samples: number[] = [];
      const afterCommit: number[] = [];
      for (let b = 0; b < BLOCKS + 3; b++) {
        await devnet.sendMessage((await transfer(`block ${subscribers} ${b}`)).boc);
        const block = await devnet.produceBlock();
        const sealed = now();
        await indexer.waitFor(block.seqno);
        const committed = now();
        const { times } = await clients.call({ cmd: 'collect', key: `finalized:${block.seqno}`, count: subscribers });
        if (b < 3) continue; // the first blocks warm up
        for (const t of times as number[]) {
          samples.push(t - sealed);
          afterCommit.push(t - committed);
        }
      }
      await clients.call({ cmd: 'close' });
      // Sealed → event includes the indexer writing the block; committed → event is the streaming path alone.
      return { ...summary(samples), fromCommit: summary(afterCommit) };
    };

    // Warm-up: the first blocks after start meet cold caches and JIT (indexer, publisher, hub).
    for (let b = 0; b < 10; b++) {
      await devnet.sendMessage((await transfer(`warm-up ${b}`)).boc);
      await indexer.waitFor((await devnet.produceBlock()).seqno);
    }
    log('block → finalized event, 1 subscriber');
    const one = await blockLatency(1);
    log(`  ${JSON.stringify(one)}`);
    log('block → finalized event, 1000 subscribers');
    const thousand = await blockLatency(1000);
    log(`  ${JSON.stringify(thousand)}`);

    // sendBoc → the pending event (one subscriber), emulation included.
    log('sendBoc → pending event');
    await clients.call({ cmd: 'open', url, count: 1, subscription });
    const pendingSamples: number[] = [];
    for (let i = 0; i < SENDS + 5; i++) {
      const { boc, hashNorm } = await transfer(`pending ${i}`);
      const sent = now();
      const res = await fetch(`http://127.0.0.1:${port}/api/v2/sendBoc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ boc: boc.toString('base64') }),
      });
      if (res.status !== 200) throw new Error(`sendBoc ${res.status}: ${await res.text()}`);
      const { times } = await clients.call({ cmd: 'collect', key: `pending:${hashNorm}`, count: 1 });
      if (i >= 5) pendingSamples.push(times[0] - sent);
      // A block now and then keeps the wallet's message queue short.
      if (i % 10 === 9) await indexer.waitFor((await devnet.produceBlock()).seqno);
    }
    await clients.call({ cmd: 'close' });
    const pending = summary(pendingSamples);
    log(`  ${JSON.stringify(pending)}`);

    // Memory per idle subscriber, in the server's thread.
    log('memory per idle subscriber');
    const gc = (globalThis as { gc?: () => void }).gc;
    const settle = async () => {
      gc?.();
      await new Promise((r) => setTimeout(r, 500));
      gc?.();
      return process.memoryUsage();
    };
    const IDLE = 1000;
    const before = await settle();
    await clients.call({
      cmd: 'open',
      url,
      count: IDLE,
      subscription: { types: ['transactions', 'actions'], addresses: subscription.addresses },
    });
    const after = await settle();
    await clients.call({ cmd: 'close' });
    const memory = {
      subscribers: IDLE,
      heapBytesPerSubscriber: Math.round((after.heapUsed - before.heapUsed) / IDLE),
      rssBytesPerSubscriber: Math.round((after.rss - before.rss) / IDLE),
      gcExposed: !!gc,
    };
    log(`  ${JSON.stringify(memory)}`);

    const result = {
      description: 'Streaming API on one process (PGlite, in-memory hub, devnet), subscribers as ws clients in a worker thread',
      blockToFinalizedEvent: {
        oneSubscriber: one,
        thousandSubscribers: thousand,
        goal: 'p99 <= 100 ms at 1000 subscribers',
        met: thousand.p99Ms <= 100,
      },
      sendBocToPendingEvent: { ...pending, goal: 'p99 <= 50 ms', met: pending.p99Ms <= 50 },
      memoryPerIdleSubscriber: memory,
      machine: {
        cpus: cpus().length,
        model: cpus()[0]?.model,
        node: process.version,
        loadAverageAtEnd: loadavg().map((l) => round(l, 2)),
        date: new Date().toISOString(),
      },
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    writeFileSync(path.join(root, 'bench/results/streaming.json'), `${JSON.stringify(result, null, 2)}\n`);
    log('wrote bench/results/streaming.json');
  } finally {
    await clients.terminate();
    await gateway.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBench(main);
