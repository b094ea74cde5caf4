import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

export interface Plan {
  rps: number;
  burst: number;
}

export type LimitResult = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Rate limits by plan. A plan {rps, burst} allows `burst` requests per window of `burst / rps` seconds; the window
 * starts at the first request (not at a clock boundary), so with {1, 1} two successes are always ≥ 1 s apart.
 */
export interface RateLimiter {
  consume(subject: string, plan: Plan): Promise<LimitResult>;
  /**
   * Present when the limiter can answer without I/O (in-memory, or a shared limiter falling back to memory): the
   * front door then needs no promise. undefined = ask consume().
   */
  consumeSync?(subject: string, plan: Plan): LimitResult | undefined;
  /** Absent: never degraded. */
  health?(): LimiterHealth;
  close(): Promise<void>;
}

/** Window length and requests allowed in it for a plan: whole seconds, rounded up so the average never exceeds rps. */
function windowOf(plan: Plan): { seconds: number; points: number } {
  const seconds = Math.max(1, Math.ceil(plan.burst / plan.rps));
  return { seconds, points: Math.max(plan.burst, plan.rps * seconds) };
}

type Factory = (opts: { points: number; duration: number; keyPrefix: string }) => RateLimiterAbstract;

class PlanLimiter implements RateLimiter {
  private readonly byPlan = new Map<string, RateLimiterAbstract>();
  constructor(
    private readonly factory: Factory,
    private readonly prefix: string,
    private readonly onClose: () => Promise<void>,
  ) {}

  private limiterFor(plan: Plan): RateLimiterAbstract {
    const id = `${plan.rps}:${plan.burst}`;
    let limiter = this.byPlan.get(id);
    if (!limiter) {
      const { seconds, points } = windowOf(plan);
      limiter = this.factory({ points, duration: seconds, keyPrefix: `${this.prefix}:${id}` });
      this.byPlan.set(id, limiter);
    }
    return limiter;
  }

  async consume(subject: string, plan: Plan): Promise<LimitResult> {
    try {
      await this.limiterFor(plan).consume(subject, 1);
      return { allowed: true };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      throw rejection;
    }
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

/**
 * One process's limits: a fixed window per subject and plan in a Map, the same semantics as the Redis limiter at a
 * fraction of the per-request cost (no promise chain or per-key timer). Expired windows are swept when the map has
 * grown, so idle subjects do not accumulate.
 */
class MemoryLimiter implements RateLimiter {
  private readonly windows = new Map<string, { endsAt: number; used: number }>();
  private sweepAt = 10_000;

  async consume(subject: string, plan: Plan): Promise<LimitResult> {
    return this.consumeSync(subject, plan);
  }

  consumeSync(subject: string, plan: Plan): LimitResult {
    const now = Date.now();
    const id = `${plan.rps}:${plan.burst}:${subject}`;
    let window = this.windows.get(id);
    if (!window || window.endsAt <= now) {
      if (this.windows.size >= this.sweepAt) this.sweep(now);
      window = { endsAt: now + windowOf(plan).seconds * 1000, used: 0 };
      this.windows.set(id, window);
    }
    if (window.used >= windowOf(plan).points) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
    }
    window.used++;
    return { allowed: true };
  }

  private sweep(now: number): void {
    for (const [id, window] of this.windows) if (window.endsAt <= now) this.windows.delete(id);
    this.sweepAt = Math.max(10_000, this.windows.size * 2);
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

export function createMemoryLimiter(): RateLimiter {
  return new MemoryLimiter();
}

/** How a limiter is doing, for /healthcheck and /metrics. */
export interface LimiterHealth {
  /** True while limits are held per process because the shared store is unreachable. */
  degraded: boolean;
  detail?: string;
}

/**
 * Shared limits through Redis: every process using the same URL and prefix counts against the same buckets.
 * When Redis is unreachable (down at start, killed, a command timing out) the limiter falls back to this process's
 * own memory limiter at once — limits still hold, per process — logs the switch once, reports itself degraded,
 * and returns to Redis as soon as the connection is ready again. Commands are never queued while disconnected, so
 * an outage adds no latency.
 */
export class FailoverRedisLimiter implements RateLimiter {
  private readonly shared: PlanLimiter;
  private readonly local = new MemoryLimiter();
  private readonly client: Redis;
  private lastError = '';
  private fallingBack = false;

  private closing = false;

  constructor(
    redisUrl: string,
    prefix = 'tongate:rl',
    private readonly events: LimiterEvents = {},
    /** Longest a limit check waits for Redis before the request is counted locally instead. */
    commandTimeoutMs = 500,
  ) {
    this.client = new Redis(redisUrl, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: commandTimeoutMs,
      connectTimeout: 2_000,
      // Reconnect forever, at most every 2 s: the limiter switches back when Redis returns.
      retryStrategy: (times) => Math.min(100 * times, 2_000),
    });
    // Without a listener ioredis prints "Unhandled error event" for every failed reconnect.
    this.client.on('error', (err: Error) => this.fallBack(err.message));
    this.client.on('close', () => this.fallBack('connection closed'));
    this.client.on('ready', () => this.recover());
    this.shared = new PlanLimiter(
      (o) => new RateLimiterRedis({ ...o, storeClient: this.client }),
      prefix,
      async () => {},
    );
  }

  /** Answers locally, without a promise, while Redis is unreachable. */
  consumeSync(subject: string, plan: Plan): LimitResult | undefined {
    const status = this.client.status;
    if (status === 'ready') return undefined;
    // The first connection of a fresh process is not an outage.
    if (status !== 'connecting' && status !== 'connect') this.fallBack(`connection ${status}`);
    return this.local.consumeSync(subject, plan);
  }

  async consume(subject: string, plan: Plan): Promise<LimitResult> {
    if (this.client.status !== 'ready') return this.consumeSync(subject, plan)!;
    try {
      return await this.shared.consume(subject, plan);
    } catch (err) {
      this.fallBack((err as Error).message ?? String(err));
      return this.local.consumeSync(subject, plan);
    }
  }

  /**
   * Resolves once Redis is connected, or after `timeoutMs` (then the limiter runs degraded until it connects): the
   * composition root waits here so that a fresh process does not count its first requests locally.
   */
  async waitForRedis(timeoutMs = 2_000): Promise<boolean> {
    if (this.connected) return true;
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.client.off('ready', onReady);
        resolve(ok);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(this.connected), timeoutMs);
      this.client.on('ready', onReady);
    });
  }

  /** Whether limits are being counted in Redis right now. */
  get connected(): boolean {
    return this.client.status === 'ready';
  }

  health(): LimiterHealth {
    return this.fallingBack
      ? { degraded: true, detail: `Redis unreachable (${this.lastError}): rate limits are held per process` }
      : { degraded: false };
  }

  private fallBack(reason: string): void {
    if (this.closing) return;
    this.lastError = reason;
    if (this.fallingBack) return;
    this.fallingBack = true;
    this.events.onDegraded?.(reason);
  }

  private recover(): void {
    if (!this.fallingBack) return;
    this.fallingBack = false;
    this.events.onRecovered?.();
  }

  async close(): Promise<void> {
    this.closing = true;
    await this.client.quit().catch(() => this.client.disconnect());
    await this.local.close();
  }
}

/** Called once per change between Redis and the local fallback (log it; the limiter's health() says it too). */
export interface LimiterEvents {
  onDegraded?: (reason: string) => void;
  onRecovered?: () => void;
}

export function createRedisLimiter(redisUrl: string, prefix?: string, events?: LimiterEvents): FailoverRedisLimiter {
  return new FailoverRedisLimiter(redisUrl, prefix, events);
}
