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
  /** Present when the limiter can answer without I/O (in-memory): the front door then needs no promise. */
  consumeSync?(subject: string, plan: Plan): LimitResult;
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

/**
 * Shared limits through Redis: every process using the same URL and prefix counts against the same buckets.
 * Redis failures are not hidden (no insurance limiter): the request fails with 500 rather than going unlimited.
 */
export function createRedisLimiter(redisUrl: string, prefix = 'tongate:rl'): RateLimiter {
  const client = new Redis(redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false });
  return new PlanLimiter((o) => new RateLimiterRedis({ ...o, storeClient: client }), prefix, async () => {
    await client.quit().catch(() => client.disconnect());
  });
}
