import { timingSafeEqual } from 'node:crypto';
import type { ApiKeyRecord, KeyRepository } from './keys.js';
import { hashKey, isKeyActive } from './keys.js';

export interface KeyLookupOptions {
  /** How often the change counter is polled; a revoke reaches this process within about this long. */
  pollIntervalMs?: number;
  /** Upper bound on how long a cached answer (positive or negative) is reused even without a change. */
  cacheTtlMs?: number;
  /** Bound on cached entries so random keys cannot grow memory without limit. */
  maxEntries?: number;
  onError?: (error: unknown) => void;
}

interface CacheEntry {
  hash: Buffer;
  record: ApiKeyRecord | null;
  cachedAt: number;
}

export type KeyVerdict = { status: 'valid'; record: ApiKeyRecord } | { status: 'unknown' };

/**
 * Resolves presented keys to records with a short in-memory cache. The cache is dropped whenever the store's
 * keys_version changes (polled), so revocations and rotations apply within one poll interval.
 */
export class KeyLookup {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly pollIntervalMs: number;
  private readonly cacheTtlMs: number;
  private readonly maxEntries: number;
  private lastVersion: bigint | undefined;
  private timer: NodeJS.Timeout | undefined;
  private polling = false;

  constructor(
    private readonly keys: KeyRepository,
    private readonly options: KeyLookupOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.cacheTtlMs = options.cacheTtlMs ?? 5_000;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  async start(): Promise<void> {
    this.lastVersion = await this.keys.version();
    this.timer = setInterval(() => void this.poll(), this.pollIntervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private async poll(): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const version = await this.keys.version();
      if (version !== this.lastVersion) {
        this.cache.clear();
        this.lastVersion = version;
      }
    } catch (error) {
      // Without a fresh version we cannot trust the cache for revocations.
      this.cache.clear();
      this.options.onError?.(error);
    } finally {
      this.polling = false;
    }
  }

  /**
   * The verdict from the cache alone, or undefined when the store must be asked: lets the front door answer a
   * known key without a promise per request.
   */
  resolveCached(key: string): KeyVerdict | undefined {
    const hashHex = hashKey(key);
    const now = Date.now();
    const entry = this.cache.get(hashHex);
    if (!entry || now - entry.cachedAt > this.cacheTtlMs) return undefined;
    return this.verdict(entry, Buffer.from(hashHex, 'hex'), now);
  }

  async resolve(key: string): Promise<KeyVerdict> {
    const hashHex = hashKey(key);
    const hash = Buffer.from(hashHex, 'hex');
    const now = Date.now();
    let entry = this.cache.get(hashHex);
    if (!entry || now - entry.cachedAt > this.cacheTtlMs) {
      const row = await this.keys.findByHash(hashHex);
      let record: ApiKeyRecord | null = null;
      if (row) {
        const { key_hash: _stored, ...rest } = row;
        record = rest;
      }
      entry = { hash: row ? Buffer.from(row.key_hash, 'hex') : hash, record, cachedAt: now };
      if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(hashHex, entry);
    }
    return this.verdict(entry, hash, now);
  }

  private verdict(entry: CacheEntry, hash: Buffer, now: number): KeyVerdict {
    // Map lookup by hash already selects the entry; compare in constant time before trusting it.
    if (!entry.record || !timingSafeEqual(entry.hash, hash)) return { status: 'unknown' };
    if (!isKeyActive(entry.record, new Date(now))) return { status: 'unknown' };
    return { status: 'valid', record: entry.record };
  }
}
