import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

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
  close(): Promise<void>;
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
      // rate-limiter-flexible durations are whole seconds; round the window up so the average never exceeds rps.
      const duration = Math.max(1, Math.ceil(plan.burst / plan.rps));
      const points = Math.max(plan.burst, plan.rps * duration);
      limiter = this.factory({ points, duration, keyPrefix: `${this.prefix}:${id}` });
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

export function createMemoryLimiter(prefix = 'rl'): RateLimiter {
  return new PlanLimiter((o) => new RateLimiterMemory(o), prefix, async () => {});
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
