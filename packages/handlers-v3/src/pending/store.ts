import type { Network } from '@tongate/chain';
import type { ClassifiedAction } from '@tongate/actions';
import type { v3 } from '@tongate/sdk';
import { Redis } from 'ioredis';

/**
 * Where pending (emulated) traces live until they land or expire: in this process on the embedded default, in Redis
 * in production so that every API process sees what any of them accepted. Keys are per network; the two networks
 * never see each other's entries. Each network holds at most `maxEntries`; past it the oldest go first.
 */

export type Finality = 'pending' | 'confirmed' | 'finalized';

export interface PendingEntry {
  /** Normalized hash of the external message (base64): the trace's key. */
  key: string;
  /** Hash of the external message as sent (base64). */
  extHash: string;
  /** Hash of the root transaction (base64): the trace id. */
  traceId: string;
  /** Every account a transaction of the trace ran on (raw, upper-case). */
  accounts: string[];
  /** The root account and its last transaction lt before the message (how the tracker sees it land). */
  rootAccount: string;
  rootLastLt: string;
  finality: Finality;
  /** The root transaction as it landed on chain, once it did. */
  landedTxHash: string | null;
  mcSeqno: number | null;
  createdAt: number;
  expiresAt: number;
  trace: v3.Trace;
  actions: ClassifiedAction[];
}

export interface PendingStore {
  put(network: Network, entry: PendingEntry): Promise<void>;
  /** Entries by key, external message hash or trace id. */
  byHash(network: Network, hashes: readonly string[]): Promise<PendingEntry[]>;
  /** Entries whose trace involves one of these accounts, newest first, at most `limit`. */
  byAccount(network: Network, accounts: readonly string[], limit: number): Promise<PendingEntry[]>;
  /** Every live entry not finalized yet (what the tracker watches), at most `limit`. */
  unfinished(network: Network, limit: number): Promise<PendingEntry[]>;
  close(): Promise<void>;
}

/** Entries a network holds at most. */
export const PENDING_MAX_ENTRIES = 10_000;

const newestFirst = (a: PendingEntry, b: PendingEntry) => b.createdAt - a.createdAt;

export class MemoryPendingStore implements PendingStore {
  private readonly entries: Record<Network, Map<string, PendingEntry>> = { mainnet: new Map(), testnet: new Map() };

  constructor(private readonly maxEntries = PENDING_MAX_ENTRIES) {}

  private live(network: Network): PendingEntry[] {
    const map = this.entries[network];
    const now = Date.now();
    for (const [key, e] of map) if (e.expiresAt <= now) map.delete(key);
    return [...map.values()];
  }

  async put(network: Network, entry: PendingEntry): Promise<void> {
    const map = this.entries[network];
    map.delete(entry.key);
    map.set(entry.key, entry);
    // Map order is insertion order: the first entries are the oldest.
    for (const key of map.keys()) {
      if (map.size <= this.maxEntries) break;
      map.delete(key);
    }
  }

  async byHash(network: Network, hashes: readonly string[]): Promise<PendingEntry[]> {
    const wanted = new Set(hashes);
    return this.live(network)
      .filter((e) => wanted.has(e.key) || wanted.has(e.extHash) || wanted.has(e.traceId))
      .sort(newestFirst);
  }

  async byAccount(network: Network, accounts: readonly string[], limit: number): Promise<PendingEntry[]> {
    const wanted = new Set(accounts);
    return this.live(network)
      .filter((e) => e.accounts.some((a) => wanted.has(a)))
      .sort(newestFirst)
      .slice(0, limit);
  }

  async unfinished(network: Network, limit: number): Promise<PendingEntry[]> {
    return this.live(network)
      .filter((e) => e.finality !== 'finalized')
      .slice(0, limit);
  }

  async close(): Promise<void> {}
}

/**
 * Redis layout per network (prefix `tongate:pending:<network>:`): `e:<key>` the entry as JSON with its expiry;
 * `h:<hash>` → key for the external hash and the trace id; `all`, `open` (not finalized yet) and `a:<account>` sorted sets of keys scored by
 * expiry (members past their score are dropped on read).
 */
export class RedisPendingStore implements PendingStore {
  private readonly client: Redis;

  constructor(
    redisUrl: string,
    private readonly maxEntries = PENDING_MAX_ENTRIES,
    private readonly prefix = 'tongate:pending',
  ) {
    // A command waits for the connection (a fresh process) but never long: with Redis down, sends still go out
    // (without a pending entry) and the pending operations fail fast.
    this.client = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 2_000 });
    this.client.on('error', () => {});
  }

  private k(network: Network, suffix: string): string {
    return `${this.prefix}:${network}:${suffix}`;
  }

  async put(network: Network, entry: PendingEntry): Promise<void> {
    const ttl = Math.max(1, entry.expiresAt - Date.now());
    const m = this.client.multi();
    m.set(this.k(network, `e:${entry.key}`), JSON.stringify(entry), 'PX', ttl);
    for (const h of new Set([entry.extHash, entry.traceId])) if (h !== entry.key) m.set(this.k(network, `h:${h}`), entry.key, 'PX', ttl);
    m.zadd(this.k(network, 'all'), entry.expiresAt, entry.key);
    if (entry.finality === 'finalized') m.zrem(this.k(network, 'open'), entry.key);
    else m.zadd(this.k(network, 'open'), entry.expiresAt, entry.key);
    for (const a of entry.accounts) {
      m.zadd(this.k(network, `a:${a}`), entry.expiresAt, entry.key);
      m.pexpire(this.k(network, `a:${a}`), ttl);
    }
    await m.exec();
    const count = await this.client.zcard(this.k(network, 'all'));
    if (count > this.maxEntries) {
      const evicted = await this.client.zrange(this.k(network, 'all'), 0, count - this.maxEntries - 1);
      if (evicted.length > 0) {
        await this.client
          .multi()
          .zrem(this.k(network, 'all'), ...evicted)
          .zrem(this.k(network, 'open'), ...evicted)
          .del(...evicted.map((key) => this.k(network, `e:${key}`)))
          .exec();
      }
    }
  }

  private async load(network: Network, keys: string[]): Promise<PendingEntry[]> {
    if (keys.length === 0) return [];
    const values = await this.client.mget(keys.map((key) => this.k(network, `e:${key}`)));
    const now = Date.now();
    return values.flatMap((v) => (v ? [JSON.parse(v) as PendingEntry] : [])).filter((e) => e.expiresAt > now);
  }

  private async liveKeys(network: Network, set: string, limit: number): Promise<string[]> {
    const key = this.k(network, set);
    await this.client.zremrangebyscore(key, '-inf', Date.now());
    return this.client.zrevrange(key, 0, limit - 1);
  }

  async byHash(network: Network, hashes: readonly string[]): Promise<PendingEntry[]> {
    if (hashes.length === 0) return [];
    const aliases = await this.client.mget(hashes.map((h) => this.k(network, `h:${h}`)));
    const keys = [...new Set([...hashes, ...aliases.filter((a): a is string => !!a)])];
    return (await this.load(network, keys)).sort(newestFirst);
  }

  async byAccount(network: Network, accounts: readonly string[], limit: number): Promise<PendingEntry[]> {
    const keys = new Set<string>();
    for (const a of accounts) for (const key of await this.liveKeys(network, `a:${a}`, limit)) keys.add(key);
    return (await this.load(network, [...keys])).sort(newestFirst).slice(0, limit);
  }

  async unfinished(network: Network, limit: number): Promise<PendingEntry[]> {
    const entries = await this.load(network, await this.liveKeys(network, 'open', limit));
    return entries.filter((e) => e.finality !== 'finalized');
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
