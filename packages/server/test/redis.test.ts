import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V2Handlers } from '@tongate/stubs';
import type { Store } from '@tongate/store';
import { createRedisLimiter, type RateLimiter } from '../src/index.js';
import { openTestStore, request, startServer, v2Ok, type TestServer } from './helpers.js';

const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';
const REST = `/api/v2/getAddressInformation?address=${ADDRESS}`;
const v2: Partial<V2Handlers> = { getAddressInformation: (async () => v2Ok({})) as never };

// Two app instances, each with its own limiter object and Redis connection: the limit must be shared.
describe.runIf(Boolean(process.env.REDIS_URL))('Redis limiter shared by two instances', () => {
  const prefix = `tongate-test:${randomUUID()}`;
  let limiters: RateLimiter[];
  let servers: TestServer[];
  let store: Store;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    ({ store, cleanup } = await openTestStore());
    const both = [createRedisLimiter(process.env.REDIS_URL!, prefix), createRedisLimiter(process.env.REDIS_URL!, prefix)];
    for (const l of both) expect(await l.waitForRedis(5000)).toBe(true);
    limiters = both;
    servers = [await startServer({ v2, limiter: limiters[0], store }), await startServer({ v2, limiter: limiters[1], store })];
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    for (const l of limiters) await l.close();
    await cleanup();
  });

  it('keyless: 6 rapid requests spread over both instances → exactly 1 success', async () => {
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => request(servers[i % 2].port, { path: REST })));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 429, 429, 429, 429, 429]);
    const limited = replies.find((r) => r.status === 429)!;
    expect(limited.body).toEqual({ ok: false, error: 'Ratelimit exceeded', code: 429 });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('keyed: a 3 rps plan admits 3 requests across both instances', async () => {
    const { key } = await store.keys.create({ network: 'mainnet', rps: 3, burst: 3 });
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, i) => request(servers[i % 2].port, { path: REST, headers: { 'X-API-Key': key } })),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(3);
    expect(replies.filter((r) => r.status === 429)).toHaveLength(5);
  });
});
