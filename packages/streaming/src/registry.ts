import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';

/**
 * Where streams are counted per limiting key (an API key, or a keyless client's address): open streams and streams
 * opened in the last minute. In process for one process; in Redis when several serve the same keys, so that a key's
 * limit holds across all of them.
 */
export interface ConnectionRegistry {
  /** A slot under `maxOpen` open streams and `maxPerMinute` opened a minute (-1: no limit), or why not. */
  acquire(key: string, maxOpen: number, maxPerMinute: number): Promise<{ release: () => void } | { error: string }>;
  close(): Promise<void>;
}

const openError = (n: number) => `connection limit reached: ${n} active connections`;
const rateError = (max: number) => `reconnect rate exceeded: more than ${max} connections per minute`;

export class MemoryConnectionRegistry implements ConnectionRegistry {
  private readonly active = new Map<string, number>();
  private readonly connects = new Map<string, { windowStart: number; count: number }>();

  async acquire(key: string, maxOpen: number, maxPerMinute: number): Promise<{ release: () => void } | { error: string }> {
    return this.acquireSync(key, maxOpen, maxPerMinute);
  }

  acquireSync(key: string, maxOpen: number, maxPerMinute: number): { release: () => void } | { error: string } {
    const now = Date.now();
    const rate = this.connects.get(key);
    if (!rate || now - rate.windowStart >= 60_000) {
      // Bounded: expired windows go once the map is large.
      if (this.connects.size >= 100_000) for (const [k, v] of this.connects) if (now - v.windowStart >= 60_000) this.connects.delete(k);
      this.connects.set(key, { windowStart: now, count: 1 });
    } else if (++rate.count > maxPerMinute && maxPerMinute >= 0) {
      return { error: rateError(maxPerMinute) };
    }
    const current = this.active.get(key) ?? 0;
    if (maxOpen >= 0 && current >= maxOpen) return { error: openError(current) };
    this.active.set(key, current + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        const left = (this.active.get(key) ?? 1) - 1;
        if (left <= 0) this.active.delete(key);
        else this.active.set(key, left);
      },
    };
  }

  async close(): Promise<void> {}
}

/** Atomically: drop expired leases, refuse past the limits, else add this lease. Returns [status, count]. */
const ACQUIRE = `
local now = tonumber(ARGV[1])
local maxOpen = tonumber(ARGV[4])
local maxRate = tonumber(ARGV[5])
local opened = redis.call('INCR', KEYS[2])
if opened == 1 then redis.call('PEXPIRE', KEYS[2], 60000) end
if maxRate >= 0 and opened > maxRate then return {2, opened} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local n = redis.call('ZCARD', KEYS[1])
if maxOpen >= 0 and n >= maxOpen then return {1, n} end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[6])
return {0, n + 1}
`;

/**
 * Leases in a sorted set per key, scored by expiry and renewed while the stream lives, so that the streams of a
 * process that died stop counting within `leaseMs`. With Redis unreachable, the process's own counts apply.
 */
export class RedisConnectionRegistry implements ConnectionRegistry {
  private readonly client: Redis;
  private readonly live = new Map<string, string>(); // lease id → key
  private readonly timer: NodeJS.Timeout;
  private readonly fallback = new MemoryConnectionRegistry();

  constructor(
    redisUrl: string,
    private readonly prefix: string,
    private readonly leaseMs = 30_000,
  ) {
    this.client = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 2_000 });
    this.client.on('error', () => {});
    this.timer = setInterval(() => void this.renew(), Math.max(1_000, this.leaseMs / 3));
    this.timer.unref();
  }

  private open(key: string) {
    return `${this.prefix}:open:${key}`;
  }

  async acquire(key: string, maxOpen: number, maxPerMinute: number): Promise<{ release: () => void } | { error: string }> {
    const id = randomUUID();
    const now = Date.now();
    let result: [number, number];
    try {
      result = (await this.client.eval(
        ACQUIRE,
        2,
        this.open(key),
        `${this.prefix}:rate:${key}`,
        now,
        now + this.leaseMs,
        id,
        maxOpen,
        maxPerMinute,
        this.leaseMs * 2,
      )) as [number, number];
    } catch {
      return this.fallback.acquireSync(key, maxOpen, maxPerMinute);
    }
    if (result[0] === 2) return { error: rateError(maxPerMinute) };
    if (result[0] === 1) return { error: openError(result[1]) };
    this.live.set(id, key);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.live.delete(id);
        this.client.zrem(this.open(key), id).catch(() => {});
      },
    };
  }

  private async renew(): Promise<void> {
    if (this.live.size === 0) return;
    const expiry = Date.now() + this.leaseMs;
    const m = this.client.multi();
    for (const [id, key] of this.live) m.zadd(this.open(key), 'XX', expiry, id);
    await m.exec().catch(() => {});
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    const m = this.client.multi();
    for (const [id, key] of this.live) m.zrem(this.open(key), id);
    await m.exec().catch(() => {});
    this.client.disconnect();
  }
}
