import type { Address } from '@ton/core';
import { isChainError, type BlockRef, type ChainSource } from '@tongate/chain';
import type { ChainDatabase } from '@tongate/store';
import type { Kysely } from 'kysely';
import { collectMcBlock, type McBlockBatch } from './collect.js';
import { defaultDerivations, type BlockDerivation } from './derive/index.js';
import { prepareDerivations, readCursor, readShardTops, writeMcBlock, type StageTimings } from './writer.js';
import { backfillWireBatch } from './wire-backfill.js';

export interface IndexerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface IndexerOptions {
  chain: ChainSource;
  db: Kysely<ChainDatabase>;
  /** First masterchain seqno to index when the tables are empty (default: the chain's first block). */
  startSeqno?: number;
  /**
   * How often to ask the chain for a new block once caught up, when the chain cannot say when one is sealed
   * (ChainSource.waitForMasterchainBlock); with it, this bounds each wait instead.
   */
  pollMs?: number;
  /** Delay before retrying a block that failed for another reason than "not there yet"; doubles up to 30 s. */
  retryMs?: number;
  logger?: IndexerLogger;
  /** Data derived from each block in its transaction (traces, tokens, …); `defaultDerivations()` unless given. */
  derivations?: readonly BlockDerivation[];
  /** The `.ton` DNS collection to trust instead of the one the chain's root resolver names (see the read model's dns-trust.ts). */
  tonDnsCollection?: Address;
  /**
   * Called after each masterchain block's transaction has committed (so a reader of the database sees the whole
   * block), once per block in order; the Streaming API publishes the block's finalized events from it.
   */
  onCommitted?: (seqno: number) => void;
}

export interface IndexerStatus {
  /** Last masterchain block written, or null before the first one. */
  indexedSeqno: number | null;
  indexedUtime: number | null;
  /** Last masterchain block the chain reported. */
  chainSeqno: number | null;
  chainUtime: number | null;
  lagBlocks: number | null;
  lagSeconds: number | null;
  /** Transactions written since start. */
  transactions: number;
  /** Masterchain blocks written since start. */
  blocks: number;
  lastError: string | null;
  /** The last error is the chain backend being unreachable or slow (its own health reports that). */
  lastErrorIsBackend: boolean;
  /** Where the last written masterchain block's time went (ms per stage; see StageTimings), null before one. */
  lastBlock: { seqno: number; stagesMs: StageTimings } | null;
  /** Seconds spent per stage over every block written since start (Prometheus-style running totals). */
  stageSecondsTotal: Record<string, number>;
  /** Transactions written before the stored wire form existed that got theirs since start (wire-backfill.ts). */
  wireBackfilled: number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Follows one network's chain: backfills from the cursor (or the start seqno) up to the head, then each new
 * masterchain block as it appears. A block is read whole from the ChainSource, then written with the cursor in one
 * database transaction; any failure retries the same block, so none is skipped or written twice.
 */
export class Indexer {
  private readonly chain: ChainSource;
  private readonly db: Kysely<ChainDatabase>;
  private readonly options: IndexerOptions;
  private readonly derivations: readonly BlockDerivation[];
  private readonly tonDnsCollection: Address | undefined;
  private abort = new AbortController();
  private loop: Promise<void> | undefined;
  private backfill: Promise<void> | undefined;
  private readonly listeners = new Set<(seqno: number) => void>();
  private state: IndexerStatus = {
    indexedSeqno: null,
    indexedUtime: null,
    chainSeqno: null,
    chainUtime: null,
    lagBlocks: null,
    lagSeconds: null,
    transactions: 0,
    blocks: 0,
    lastError: null,
    lastErrorIsBackend: false,
    lastBlock: null,
    stageSecondsTotal: {},
    wireBackfilled: 0,
  };

  constructor(options: IndexerOptions) {
    this.chain = options.chain;
    this.db = options.db;
    this.options = options;
    this.derivations = options.derivations ?? defaultDerivations();
    this.tonDnsCollection = options.tonDnsCollection;
  }

  status(): IndexerStatus {
    return { ...this.state, stageSecondsTotal: { ...this.state.stageSecondsTotal } };
  }

  /** Starts following in the background; resolves once the cursor is read. */
  async start(): Promise<void> {
    // Started again after stop(): it resumes from its cursor.
    if (this.abort.signal.aborted) this.abort = new AbortController();
    const cursor = await readCursor(this.db);
    if (cursor) Object.assign(this.state, { indexedSeqno: cursor.mcSeqno, indexedUtime: cursor.genUtime });
    this.loop = this.run();
    this.backfill = this.backfillWire();
  }

  /** Stops after the block in progress (its transaction either commits or rolls back). */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    await this.backfill;
  }

  /**
   * Stores the wire form of rows written before it existed (an upgraded index), a batch at a time beside the
   * following loop; nothing to do on an index written by this version. A failure is retried after a pause.
   */
  private async backfillWire(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      try {
        const updated = await backfillWireBatch(this.db);
        this.state.wireBackfilled += updated;
        if (updated === 0) return;
      } catch (err) {
        this.options.logger?.warn({ err, network: this.chain.network }, 'indexer: wire backfill failed, retrying');
        await sleep(this.options.retryMs ?? 1000, signal);
      }
    }
  }

  /** Resolves once the masterchain block `seqno` is written (tests and tools waiting for the index to catch up). */
  waitFor(seqno: number, timeoutMs = 30_000): Promise<void> {
    if (this.state.indexedSeqno !== null && this.state.indexedSeqno >= seqno) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => (
          this.listeners.delete(listener),
          reject(new Error(`masterchain block ${seqno} not indexed within ${timeoutMs} ms (${this.state.lastError ?? 'no error'})`))
        ),
        timeoutMs,
      );
      const listener = (indexed: number) => {
        if (indexed < seqno) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve();
      };
      this.listeners.add(listener);
    });
  }

  private async run(): Promise<void> {
    const { pollMs = 100, retryMs = 500, logger } = this.options;
    const signal = this.abort.signal;
    let previousTops: BlockRef[] | null = null;
    let failures = 0;
    let prefetch: { seqno: number; batch: Promise<McBlockBatch> } | null = null;
    while (!signal.aborted) {
      try {
        const head = await this.chain.getMasterchainInfo();
        this.noteHead(head.last.seqno, head.lastUtime);
        const next = this.state.indexedSeqno === null ? (this.options.startSeqno ?? head.init.seqno) : this.state.indexedSeqno + 1;
        if (next > head.last.seqno) {
          await this.waitForBlock(next, pollMs, signal);
          continue;
        }
        const timings: StageTimings = {};
        const began = performance.now();
        previousTops ??= await this.previousTops(next);
        const batch: McBlockBatch = prefetch?.seqno === next ? await prefetch.batch : await collectMcBlock(this.chain, next, previousTops);
        prefetch = null;
        timings.collect = performance.now() - began;
        const tops: BlockRef[] = batch.shardState.map((s) => ({ workchain: s.workchain, shard: BigInt(s.shard), seqno: s.seqno }));
        // Read the next block while this one is written: the chain and the database work at the same time.
        if (next + 1 <= head.last.seqno) {
          const p = collectMcBlock(this.chain, next + 1, tops);
          p.catch(() => {}); // a failure is met again when the block is read for real
          prefetch = { seqno: next + 1, batch: p };
        }
        const derived = await prepareDerivations(
          this.db,
          batch,
          this.derivations,
          { chain: this.chain, tonDnsCollection: this.tonDnsCollection },
          timings,
        );
        await writeMcBlock(this.db, batch, derived, timings);
        previousTops = tops;
        failures = 0;
        this.state.transactions += batch.transactions.length;
        this.state.blocks++;
        this.state.lastError = null;
        this.noteTimings(batch.mcSeqno, timings);
        this.noteIndexed(batch.mcSeqno, batch.genUtime);
        try {
          this.options.onCommitted?.(batch.mcSeqno);
        } catch (err) {
          logger?.warn({ err, network: this.chain.network, seqno: batch.mcSeqno }, 'indexer: commit listener failed');
        }
      } catch (err) {
        prefetch = null;
        previousTops = null; // re-read from the database: the failed write may have been the one that committed
        const notYet = isChainError(err) && err.kind === 'not_found';
        if (!notYet) {
          this.state.lastError = (err as Error).message ?? String(err);
          this.state.lastErrorIsBackend = isChainError(err) && (err.kind === 'unavailable' || err.kind === 'timeout');
          failures++;
          logger?.warn({ err, network: this.chain.network, seqno: (this.state.indexedSeqno ?? -1) + 1 }, 'indexer: block failed, retrying');
        }
        if (!signal.aborted) {
          await sleep(notYet ? (this.options.pollMs ?? 100) : Math.min(30_000, retryMs * 2 ** Math.min(failures, 6)), signal);
          const cursor = await readCursor(this.db).catch(() => null);
          if (cursor) this.state.indexedSeqno = cursor.mcSeqno;
        }
      }
    }
  }

  /**
   * Waits for masterchain block `seqno`: woken by the chain the moment it is sealed when the ChainSource can say so
   * (a fixed poll sleep would add up to `pollMs` to every block's latency), else one poll interval.
   */
  private async waitForBlock(seqno: number, pollMs: number, signal: AbortSignal): Promise<void> {
    if (!this.chain.waitForMasterchainBlock) return sleep(pollMs, signal);
    // Bounded (the poll interval, at least a second), so that a missed wake-up is not fatal; stop() ends it at once.
    if (signal.aborted) return;
    let onAbort!: () => void;
    const stopped = new Promise<void>((resolve) => {
      onAbort = resolve;
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([this.chain.waitForMasterchainBlock(seqno, Math.max(pollMs, 1000)), stopped]);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  private noteTimings(seqno: number, timings: StageTimings): void {
    this.state.lastBlock = { seqno, stagesMs: timings };
    const totals = this.state.stageSecondsTotal;
    for (const [stage, ms] of Object.entries(timings)) totals[stage] = (totals[stage] ?? 0) + ms / 1000;
  }

  /** Shard tops of the block before `seqno`: from the index, or from the chain when starting fresh. */
  private async previousTops(seqno: number): Promise<BlockRef[]> {
    if (seqno === 0) return [];
    const stored = await readShardTops(this.db, seqno - 1);
    if (stored) return stored;
    try {
      return await this.chain.getShards(seqno - 1);
    } catch (err) {
      // The chain's first block has no predecessor: everything before its tops belongs to it.
      if (isChainError(err) && err.kind === 'not_found') return [];
      throw err;
    }
  }

  private noteHead(seqno: number, utime: number): void {
    this.state.chainSeqno = seqno;
    this.state.chainUtime = utime;
    this.updateLag();
  }

  private noteIndexed(seqno: number, utime: number): void {
    this.state.indexedSeqno = seqno;
    this.state.indexedUtime = utime;
    if (this.state.chainSeqno === null || seqno > this.state.chainSeqno) this.noteHead(seqno, utime);
    this.updateLag();
    if (seqno % 1000 === 0)
      this.options.logger?.info({ network: this.chain.network, seqno, lagBlocks: this.state.lagBlocks }, 'indexer progress');
    for (const listener of [...this.listeners]) listener(seqno);
  }

  private updateLag(): void {
    const s = this.state;
    if (s.chainSeqno === null) return;
    s.lagBlocks = s.indexedSeqno === null ? null : Math.max(0, s.chainSeqno - s.indexedSeqno);
    s.lagSeconds = s.indexedUtime === null || s.chainUtime === null ? null : Math.max(0, s.chainUtime - s.indexedUtime);
  }
}
