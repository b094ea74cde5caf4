import type { AccountInterfaces } from '@tongate/actions';
import { normalizedExternalMessageHash, type ChainSource, type EmulatedTrace, type TransactionId } from '@tongate/chain';
import type { ChainDatabase } from '@tongate/store';
import { Address, type Cell } from '@ton/core';
import type { Kysely } from 'kysely';
import type { PendingEntry, PendingStore } from './store.js';
import { rawAddress, readTraceInterfaces, trustedTonCollection, unstoredCodeAndData, type CodeAndData } from '@tongate/read-model';
import { emulatedTraceAccounts, pendingEntryOf } from './trace.js';

export interface PendingLogger {
  warn(obj: object, msg?: string): void;
}

export interface PendingTracesOptions {
  chain: ChainSource;
  store: PendingStore;
  /** The network's index: an entry is finalized once its root transaction is indexed. */
  index?: Kysely<ChainDatabase>;
  /** How long an entry lives without landing, and after it is finalized. */
  ttlMs: number;
  /** How often the tracker looks for landed transactions. */
  pollMs?: number;
  /** Longest the emulation may hold a send back (default 2 s); past it the message goes out and the entry follows. */
  emulationTimeoutMs?: number;
  logger?: PendingLogger;
  /** Told of every entry stored or moved a step (the Streaming API's pending and confirmed events). */
  onChange?: (entry: PendingEntry) => void;
  /** Told when an entry this process stored expires without landing: the trace did not happen as emulated. */
  onInvalidated?: (key: string) => void;
  /** The network's `.ton` collection when the operator names it (as the indexer is told); else read from the chain. */
  tonDnsCollection?: Address;
}

/** Entries the tracker looks at per round (the rest wait for the next round). */
const TRACKED_PER_ROUND = 1_000;
/** Emulations one network runs at once; a send past it goes out without a pending entry instead of waiting. */
const MAX_CONCURRENT_EMULATIONS = 8;

/**
 * One network's pending traces. `submit` is how the API sends an external message: it emulates the whole trace
 * against the latest state, sends the message, and stores the trace as pending. The tracker then moves each entry
 * to `confirmed` when the chain backend shows its root transaction, and to `finalized` when the index holds it (a
 * step per round, so both states are seen); an entry that never lands expires after the TTL.
 */
export class PendingTraces {
  private timer: NodeJS.Timeout | null = null;
  private round: Promise<void> | null = null;
  private emulating = 0;
  /** The masterchain head the tracker last looked for landed messages at (none can land without a new block). */
  private trackedHead = -1;
  /** Entries this process stored that have not landed yet, by key → expiry (the invalidation watch). */
  private readonly watched = new Map<string, number>();

  constructor(private readonly opts: PendingTracesOptions) {}

  get network() {
    return this.opts.chain.network;
  }

  get store() {
    return this.opts.store;
  }

  /**
   * Sends an external message through the chain backend, emulating its trace first: the send waits for the
   * emulation at most `emulationTimeoutMs` (a slow emulation must not hold sends back); one that finishes later is
   * still stored, once the send has succeeded, if it could run on the state from before the message.
   */
  async submit(message: Cell): Promise<{ hash: Buffer }> {
    const { chain } = this.opts;
    const emulation = this.emulate(message);
    let timer: NodeJS.Timeout | undefined;
    const late = Symbol('late');
    const early = await Promise.race([
      emulation,
      new Promise<typeof late>((resolve) => (timer = setTimeout(() => resolve(late), this.opts.emulationTimeoutMs ?? 2_000))),
    ]);
    clearTimeout(timer);
    // Streamed as soon as it is emulated; should the chain refuse the message, the trace is invalidated at once.
    const announced = early !== late && early !== null;
    if (announced) this.opts.onChange?.(early);
    let sent: { hash: Buffer };
    try {
      sent = await chain.sendMessage(message.toBoc());
    } catch (err) {
      if (announced) this.opts.onInvalidated?.(early.key);
      throw err;
    }
    if (early === late) void emulation.then((entry) => this.keep(entry));
    else await this.keep(early, announced);
    return sent;
  }

  private async keep(entry: PendingEntry | null, announced = false): Promise<void> {
    if (!entry) return;
    try {
      await this.opts.store.put(this.network, entry);
      if (this.opts.onInvalidated) {
        if (this.watched.size >= TRACKED_PER_ROUND * 10) this.watched.delete(this.watched.keys().next().value!);
        this.watched.set(entry.key, entry.expiresAt);
      }
      if (!announced) this.opts.onChange?.(entry);
    } catch (err) {
      this.opts.logger?.warn({ err, network: this.network }, 'pending trace not stored');
    }
  }

  /** The message's pending entry, or null when it cannot be emulated (the send then answers for itself). */
  private async emulate(message: Cell): Promise<PendingEntry | null> {
    const { chain } = this.opts;
    if (this.emulating >= MAX_CONCURRENT_EMULATIONS) {
      this.opts.logger?.warn({ network: chain.network }, 'emulations at capacity: message sent without a pending trace');
      return null;
    }
    this.emulating++;
    try {
      const trace = await chain.emulateTrace(message);
      return pendingEntryOf(message, trace, { ttlMs: this.opts.ttlMs, interfaces: await this.interfaces(trace) });
    } catch (err) {
      this.opts.logger?.warn({ err: (err as Error).message, network: chain.network }, 'external message not emulated: no pending trace');
      return null;
    } finally {
      this.emulating--;
    }
  }

  /**
   * The interfaces of the trace's accounts, read as the indexer reads them once the trace has landed: from each
   * account's state after the trace (the emulation's; a contract the trace deploys is known by what it will be), the
   * index's latest state for the accounts the trace only names, and the network's trusted `.ton` collection for DNS
   * items. Without an index, or when it cannot be read, the trace is classified without them (plain transfers and
   * calls).
   */
  private async interfaces(trace: EmulatedTrace): Promise<Record<string, AccountInterfaces>> {
    const { index, chain } = this.opts;
    if (!index) return {};
    try {
      const after = new Map<string, CodeAndData>();
      for (const t of trace.transactions)
        after.set(rawAddress(t.address), unstoredCodeAndData(rawAddress(t.address), t.stateAfter.balance, t.codeAfter, t.dataAfter));
      const dns = await trustedTonCollection({ chain, tonDnsCollection: this.opts.tonDnsCollection }, trace.mcSeqno).catch(() => null);
      return await readTraceInterfaces(index, emulatedTraceAccounts(trace), Math.floor(Date.now() / 1000), dns, after);
    } catch (err) {
      this.opts.logger?.warn({ err: (err as Error).message, network: this.network }, 'account interfaces not read for a pending trace');
      return {};
    }
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.runRound(), this.opts.pollMs ?? 500);
    // A chain that says when a block is sealed wakes the tracker at once: a landed message shows as confirmed before
    // the indexer has written its block, instead of up to a poll interval later.
    if (this.opts.chain.waitForMasterchainBlock) void this.followBlocks();
  }

  private runRound(): void {
    if (this.round) return;
    this.round = this.track()
      .catch((err) => this.opts.logger?.warn({ err, network: this.network }, 'pending tracker round failed'))
      .finally(() => (this.round = null));
  }

  private async followBlocks(): Promise<void> {
    const { chain } = this.opts;
    let next = -1;
    while (this.timer) {
      try {
        if (next < 0) next = (await chain.getMasterchainInfo()).last.seqno + 1;
        await chain.waitForMasterchainBlock!(next, 1_000);
        if (!this.timer) return;
        const head = (await chain.getMasterchainInfo()).last.seqno;
        if (head >= next) {
          next = head + 1;
          this.runRound();
        }
      } catch {
        // The chain is away (or closing): the interval keeps tracking; look again in a moment.
        await new Promise((r) => setTimeout(r, 1_000));
      }
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.round;
  }

  /** One round: every unfinished entry one step further when its transaction has landed. */
  async track(): Promise<void> {
    const { chain, store, index } = this.opts;
    await this.invalidateExpired();
    const entries = await store.unfinished(chain.network, TRACKED_PER_ROUND);
    if (entries.length === 0) return;
    const head = (await chain.getMasterchainInfo()).last.seqno;
    const newBlock = head !== this.trackedHead;
    // One state read per root account, however many of its messages are in flight.
    const lastTransactions = new Map<string, Promise<TransactionId | null>>();
    const lastTransactionOf = (account: string) => {
      let last = lastTransactions.get(account);
      if (!last) lastTransactions.set(account, (last = chain.getAccountState(Address.parseRaw(account)).then((s) => s.lastTransaction)));
      return last;
    };
    for (const entry of entries) {
      if (entry.finality === 'pending' && newBlock) {
        const landed = await this.landedRoot(entry, await lastTransactionOf(entry.rootAccount));
        if (landed) await this.advance(entry, { finality: 'confirmed', landedTxHash: landed });
      } else if (entry.finality === 'confirmed' && index && entry.landedTxHash) {
        const row = await index
          .selectFrom('transactions')
          .select(['mc_block_seqno'])
          .where('hash', '=', entry.landedTxHash)
          .executeTakeFirst();
        if (row) await this.advance(entry, { finality: 'finalized', mcSeqno: row.mc_block_seqno });
      }
    }
    this.trackedHead = head;
  }

  private async advance(entry: PendingEntry, change: Partial<PendingEntry>): Promise<void> {
    // A landed trace stays visible for one more TTL from this step.
    const next = { ...entry, ...change, expiresAt: Date.now() + this.opts.ttlMs };
    await this.opts.store.put(this.network, next);
    this.watched.delete(entry.key);
    this.opts.onChange?.(next);
  }

  /** Watched entries past their expiry that never landed (on any process: the store says) are invalidated. */
  private async invalidateExpired(): Promise<void> {
    const now = Date.now();
    const expired: string[] = [];
    for (const [key, expiresAt] of this.watched) if (expiresAt <= now) expired.push(key);
    if (expired.length === 0) return;
    for (const key of expired) this.watched.delete(key);
    // An entry another process saw land was stored again with a later expiry: it is still live, so not lost.
    const live = new Set((await this.opts.store.byHash(this.network, expired)).filter((e) => e.finality !== 'pending').map((e) => e.key));
    for (const key of expired) if (!live.has(key)) this.opts.onInvalidated?.(key);
  }

  /** The hash of the root account's transaction that took this entry's external message, once the chain has it. */
  private async landedRoot(entry: PendingEntry, last: TransactionId | null): Promise<string | null> {
    if (!last || last.lt <= BigInt(entry.rootLastLt)) return null;
    // Newest first, back to where the account stood when the message was accepted.
    const txs = await this.opts.chain.getAccountTransactions(Address.parseRaw(entry.rootAccount), last, 16);
    for (const t of txs) {
      if (t.lt <= BigInt(entry.rootLastLt)) break;
      const inMsg = t.tx.inMessage;
      if (inMsg?.info.type === 'external-in' && normalizedExternalMessageHash(inMsg).toString('base64') === entry.key)
        return t.hash.toString('base64');
    }
    return null;
  }
}
