import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V2Handlers } from '@tongate/stubs';
import { createRedisLimiter, type FailoverRedisLimiter } from '../src/index.js';
import { request, startServer, v2Ok, type TestServer } from './helpers.js';

/**
 * Redis started and killed by the test itself, on a private Unix socket: the limiter must degrade, not fail. A socket
 * path, unlike a TCP port found free and released, cannot be taken by another test's server while Redis is down.
 */

const ADDRESS = 'EQDtFpEwcFAEcRe5mLVh2N6C0x-_hJEM7W61_JLnSF74p4q2';
const REST = `/api/v2/getAddressInformation?address=${ADDRESS}`;
const v2: Partial<V2Handlers> = { getAddressInformation: (async () => v2Ok({})) as never };

const socketDir = mkdtempSync(path.join(tmpdir(), 'tongate-redis-'));

async function startRedis(socket: string): Promise<ChildProcess> {
  const proc = spawn('redis-server', ['--port', '0', '--unixsocket', socket, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(socket, () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (up) return proc;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('redis-server did not start');
}

async function stop(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    proc.kill('SIGKILL');
  });
}

async function until(check: () => Promise<boolean>, ms: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    if (await check()) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`condition not met within ${ms} ms`);
}

const spaced = () => new Promise((r) => setTimeout(r, 1100));

describe('a Redis outage', () => {
  const socket = path.join(socketDir, 'redis.sock');
  let redis: ChildProcess;
  let limiter: FailoverRedisLimiter;
  let server: TestServer;
  const events: string[] = [];

  beforeAll(async () => {
    redis = await startRedis(socket);
    limiter = createRedisLimiter(socket, 'outage-test', {
      onDegraded: () => events.push('degraded'),
      onRecovered: () => events.push('recovered'),
    });
    server = await startServer({ v2, limiter });
    await until(async () => limiter.connected && (await request(server.port, { path: '/healthcheck' })).body.ok === true, 5000);
  });
  afterAll(async () => {
    await server.close();
    await limiter.close();
    await stop(redis);
    rmSync(socketDir, { recursive: true, force: true });
  });

  it('falls back to per-process limits at once, reports it, and returns to Redis', async () => {
    expect((await request(server.port, { path: REST, from: '127.0.0.61' })).status).toBe(200);
    expect((await request(server.port, { path: REST, from: '127.0.0.61' })).status).toBe(429);

    await stop(redis);
    // Every request is still answered, fast, and the keyless limit still holds (per process now).
    await until(async () => limiter.health().degraded, 3000);
    const started = Date.now();
    const during = [];
    for (let i = 0; i < 3; i++) during.push(await request(server.port, { path: REST, from: '127.0.0.62' }));
    expect(Date.now() - started).toBeLessThan(1500);
    expect(during.map((r) => r.status)).toEqual([200, 429, 429]);
    const health = await request(server.port, { path: '/healthcheck' });
    expect(health.status).toBe(200);
    expect(health.body.ok).toBe(false);
    expect(health.body.status).toBe('degraded');
    expect(health.body.degraded.rate_limiter).toMatch(/Redis unreachable/);
    const metrics = await request(server.port, { path: '/metrics' });
    expect(metrics.text).toMatch(/tongate_degraded\{component="rate_limiter"\} 1/);
    expect(events).toEqual(['degraded']);

    redis = await startRedis(socket);
    await until(async () => limiter.connected && (await request(server.port, { path: '/healthcheck' })).body.ok === true, 8000);
    expect(events).toEqual(['degraded', 'recovered']);
    expect((await request(server.port, { path: '/metrics' })).text).toMatch(/tongate_degraded\{component="rate_limiter"\} 0/);
    await spaced();
    expect((await request(server.port, { path: REST, from: '127.0.0.63' })).status).toBe(200);
    expect((await request(server.port, { path: REST, from: '127.0.0.63' })).status).toBe(429);
  });

  it('starts degraded, not broken, when Redis is down from the start', async () => {
    const dead = createRedisLimiter(path.join(socketDir, 'nobody-listens.sock'), 'dead-test');
    const s = await startServer({ v2, limiter: dead });
    try {
      await until(async () => dead.health().degraded, 5000);
      const replies = [];
      for (let i = 0; i < 2; i++) replies.push(await request(s.port, { path: REST, from: '127.0.0.64' }));
      expect(replies.map((r) => r.status)).toEqual([200, 429]);
      expect((await request(s.port, { path: '/healthcheck' })).body.status).toBe('degraded');
    } finally {
      await s.close();
      await dead.close();
    }
  });
});
