/**
 * The liteserver backend as operators see it, over HTTP: per-server gauges in /metrics, /healthcheck degraded (200, ok: false, as
 * for every degraded part) and chain requests 503 while a network's only liteserver is down, and recovery when it comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, TEST_BACKEND, type TestGateway } from './gateway-fixture.js';

let service: TestGateway;
let base: string;

beforeAll(async () => {
  if (TEST_BACKEND !== 'liteserver') throw new Error('run in the liteserver vitest project');
  service = await startTestGateway({ keylessRps: 10_000, keylessBurst: 10_000, devnetBlockIntervalMs: 200 });
  base = `http://127.0.0.1:${service.ports.mainnet}`;
});

afterAll(() => service?.close());

async function until(cond: () => Promise<boolean>, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('liteserver backend health', () => {
  it('/metrics shows each liteserver; /healthcheck is ok while all are healthy', async () => {
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const port = service.liteservers.mainnet!.server.port;
    expect(metrics).toContain(`tongate_liteserver_up{network="mainnet",server="127.0.0.1:${port}"} 1`);
    expect(metrics).toMatch(/tongate_liteserver_head_seqno\{network="testnet",server="127\.0\.0\.1:\d+"\} \d+/);
    expect(metrics).toMatch(/tongate_liteserver_latency_ms\{network="mainnet"/);
    const health = await fetch(`${base}/healthcheck`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ ok: true, status: 'ok' });
    // The body also carries the indexers' lag (start.ts), a number once the first block is indexed.
    const lagOf = async () =>
      ((await (await fetch(`${base}/healthcheck`)).json()) as { indexer?: { mainnet?: { lag_blocks?: unknown } } }).indexer?.mainnet
        ?.lag_blocks;
    await until(async () => typeof (await lagOf()) === 'number', 30_000);
  });

  it('the only mainnet liteserver down: degraded, 503 for chain requests; back: recovered', async () => {
    const running = service.liteservers.mainnet!;
    await running.stop(0);
    const healthOf = async () =>
      (await (await fetch(`${base}/healthcheck`)).json()) as { ok: boolean; status: string; degraded?: Record<string, string> };
    await until(async () => (await healthOf()).ok === false, 5000);
    const health = await healthOf();
    expect(health).toMatchObject({ ok: false, status: 'degraded' });
    expect(Object.keys(health.degraded!)).toEqual(['liteservers_mainnet']);
    expect(health.degraded!.liteservers_mainnet).toMatch(/no healthy liteserver \(0 of 1\)/);
    expect(await (await fetch(`${base}/metrics`)).text()).toMatch(/tongate_liteserver_up\{network="mainnet",server="127\.0\.0\.1:\d+"\} 0/);
    const res = await fetch(`${base}/api/v2/getMasterchainInfo`);
    expect(res.status).toBe(503);
    // Testnet has its own liteserver and is unaffected.
    expect((await fetch(`http://127.0.0.1:${service.ports.testnet}/api/v2/getMasterchainInfo`)).status).toBe(200);

    await running.restart(0);
    await until(async () => (await healthOf()).ok, 10_000);
    const info = (await (await fetch(`${base}/api/v2/getMasterchainInfo`)).json()) as { ok: boolean; result: { last: { seqno: number } } };
    expect(info.ok).toBe(true);
    expect(info.result.last.seqno).toBeGreaterThan(0);
  });
});
