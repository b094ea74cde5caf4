/**
 * Failover over real ADNL with three devnet liteservers in front of one devnet: a slow one, a lagging one, a killed
 * one, answers that never come, all down (503 within the deadline) and recovery; zero-state refusal; "not found"
 * asked once; sendMessage to several servers; keepalive against an idle-closing server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, external, storeMessage } from '@ton/core';
import { isChainError, WHOLE_SHARD } from '@tongate/chain';
import { createDevnet, type Devnet } from '@tongate/devnet';
import { ChainLiteServer, type LiteServerFaults } from '../src/server/index.js';
import { LiteserverChain, parseGlobalConfig, type GlobalConfig, type PoolOptions } from '../src/index.js';
import { privatePort } from './ports.js';

let devnet: Devnet;
let servers: ChainLiteServer[];
const chains: LiteserverChain[] = [];
const FAST: Omit<PoolOptions, 'servers' | 'zeroState'> = {
  queryTimeoutMs: 400,
  deadlineMs: 2000,
  headPollMs: 100,
  reconnectMinMs: 100,
  reconnectMaxMs: 400,
  pingIntervalMs: 200,
};

async function configOf(list: ChainLiteServer[]): Promise<GlobalConfig> {
  const docs = (await Promise.all(list.map((s) => s.globalConfig()))) as { liteservers: unknown[]; validator: unknown }[];
  return parseGlobalConfig({ liteservers: docs.flatMap((d) => d.liteservers), validator: docs[0].validator });
}

async function poolOver(list: ChainLiteServer[], opts: Partial<PoolOptions> = {}): Promise<LiteserverChain> {
  const chain = new LiteserverChain({ network: 'mainnet', config: await configOf(list), proofs: 'unsafe', pool: { ...FAST, ...opts } });
  chains.push(chain);
  await until(() => chain.health().filter((h) => h.healthy).length === list.length, 5000);
  return chain;
}

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const count = (s: ChainLiteServer, fn: string) => s.received.get(fn) ?? 0;

beforeAll(async () => {
  devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
  await devnet.produceBlock();
});

afterEach(async () => {
  for (const c of chains.splice(0)) await c.close();
  for (const s of servers ?? []) await s.close();
});

afterAll(() => devnet?.close());

async function threeServers(faults: LiteServerFaults[] = []): Promise<ChainLiteServer[]> {
  servers = [0, 1, 2].map((i) => new ChainLiteServer({ chain: devnet, faults: faults[i] }));
  // Private ports: one test stops a server and starts it again on its address.
  for (const s of servers) await s.listen(await privatePort());
  return servers;
}

describe('liteserver pool failover', () => {
  it('a slow server (answers after the query timeout) does not fail requests; it sinks in the ranking', async () => {
    const [slow] = await threeServers();
    const chain = await poolOver(servers);
    slow.setFaults({ delayMs: 1500 });
    const started = Date.now();
    for (let i = 0; i < 10; i++) expect((await chain.getAccountState(devnet.faucet.address)).status).toBe('active');
    expect(Date.now() - started).toBeLessThan(2000 * 2);
    const health = chain.health();
    expect(health[0].latencyMs).toBeGreaterThan(Math.max(health[1].latencyMs, health[2].latencyMs));
  });

  it('answers that never come (dropped) are retried elsewhere within the deadline', async () => {
    await threeServers();
    const chain = await poolOver(servers);
    servers[0].setFaults({ dropRate: 1 });
    servers[1].setFaults({ dropRate: 1 });
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      expect((await chain.getAccountState(devnet.faucet.address)).status).toBe('active');
      expect(Date.now() - started).toBeLessThan(2000);
    }
    expect(chain.health()[0].timeouts + chain.health()[1].timeouts).toBeGreaterThan(0);
  });

  it('a lagging server is skipped for reads once the heads show it behind', async () => {
    const [, lagging] = await threeServers();
    const chain = await poolOver(servers);
    lagging.setFaults({ lagBlocks: 5 });
    for (let i = 0; i < 6; i++) await devnet.produceBlock();
    await until(() => chain.health()[1].lagging, 3000);
    expect(chain.health()[1]).toMatchObject({ healthy: false, lagging: true });
    const before = count(lagging, 'liteServer.getAccountState');
    for (let i = 0; i < 10; i++) await chain.getAccountState(devnet.faucet.address);
    expect(count(lagging, 'liteServer.getAccountState')).toBe(before);
  });

  it('a killed server: requests go on; all down: 503 within the deadline; one back: recovery', async () => {
    await threeServers();
    const chain = await poolOver(servers);
    const ports = servers.map((s) => s.port);
    const key = servers[0].key;
    await servers[2].close();
    for (let i = 0; i < 5; i++) expect((await chain.getMasterchainInfo()).last.seqno).toBeGreaterThan(0);
    await servers[0].close();
    await servers[1].close();
    await until(() => chain.health().every((h) => !h.healthy), 3000);
    const started = Date.now();
    const err = await chain.getMasterchainInfo().catch((e) => e);
    expect(isChainError(err) && err.kind).toBe('unavailable');
    expect(Date.now() - started).toBeLessThanOrEqual(2000);
    // The first server comes back on its address with its key: the pool reconnects by itself.
    const back = new ChainLiteServer({ chain: devnet, key });
    await back.listen(ports[0]);
    servers.push(back);
    await until(() => chain.health()[0].healthy, 5000);
    expect((await chain.getAccountState(devnet.faucet.address)).status).toBe('active');
  });

  it('every server too slow: 504-kind timeout within the deadline, not a hang', async () => {
    await threeServers();
    const chain = await poolOver(servers);
    for (const s of servers) s.setFaults({ delayMs: 3000 });
    const started = Date.now();
    const err = await chain.getAccountState(devnet.faucet.address).catch((e) => e);
    expect(isChainError(err) && err.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThanOrEqual(2000 + 200);
  });

  it('a server of another network (zero state) is refused', async () => {
    await threeServers();
    const config = await configOf(servers);
    config.zeroState = { ...config.zeroState!, rootHash: Buffer.alloc(32, 1) };
    const chain = new LiteserverChain({ network: 'mainnet', config, proofs: 'unsafe', pool: FAST });
    chains.push(chain);
    await until(() => chain.health().every((h) => h.status === 'refused'), 3000);
    expect(await chain.ready(200)).toBe(false);
    const err = await chain.getMasterchainInfo().catch((e) => e);
    expect(isChainError(err) && err.kind).toBe('unavailable');
  });

  it('"not found" is asked once, not retried on every server', async () => {
    await threeServers();
    const chain = await poolOver(servers);
    const total = () => servers.reduce((n, s) => n + count(s, 'liteServer.getTransactions'), 0);
    const before = total();
    const err = await chain
      .getAccountTransactions(new Address(0, Buffer.alloc(32, 5)), { lt: 123n, hash: Buffer.alloc(32) }, 5)
      .catch((e) => e);
    expect(isChainError(err) && err.kind).toBe('not_found');
    expect(total() - before).toBe(1);
    const missing = await chain.lookupBlock({ workchain: -1, shard: WHOLE_SHARD, seqno: 1_000_000 }).catch((e) => e);
    expect(isChainError(missing) && missing.kind).toBe('not_found');
  });

  it('sendMessage goes to several servers at once', async () => {
    await threeServers();
    const chain = await poolOver(servers);
    // To an account that does not exist: every server refuses it, but every one of them was asked.
    const msg = beginCell()
      .store(storeMessage(external({ to: new Address(0, Buffer.alloc(32, 8)), body: beginCell().endCell() })))
      .endCell();
    const err = await chain.sendMessage(msg.toBoc()).catch((e) => e);
    expect(isChainError(err) && err.kind).toBe('refused');
    expect(servers.filter((s) => count(s, 'liteServer.sendMessage') > 0).length).toBe(3);
  });

  it('archival servers are detected and asked first for old blocks', async () => {
    for (let i = 0; i < 8; i++) await devnet.produceBlock();
    servers = [new ChainLiteServer({ chain: devnet, faults: { historyBlocks: 2 } }), new ChainLiteServer({ chain: devnet })];
    for (const s of servers) await s.listen(0);
    const chain = await poolOver(servers, { archiveAfterBlocks: 3 });
    await until(() => chain.health().every((h) => h.archival !== null), 3000);
    expect(chain.health().map((h) => h.archival)).toEqual([false, true]);
    // The non-archival server is the faster one, yet old blocks skip it.
    servers[1].setFaults({ delayMs: 30 });
    const before = count(servers[0], 'liteServer.getAccountState');
    for (let i = 0; i < 5; i++) expect((await chain.getAccountState(devnet.faucet.address, 2)).block.seqno).toBe(2);
    expect(count(servers[0], 'liteServer.getAccountState')).toBe(before);
    // Recent blocks still go to the fastest.
    const head = (await devnet.getMasterchainInfo()).last.seqno;
    for (let i = 0; i < 5; i++) await chain.getAccountState(devnet.faucet.address, head);
    expect(count(servers[0], 'liteServer.getAccountState')).toBeGreaterThan(before);
  });

  it('pings keep a connection alive through a server that closes idle connections', async () => {
    servers = [new ChainLiteServer({ chain: devnet, faults: { idleCloseMs: 400 } })];
    await servers[0].listen(0);
    const pinged = await poolOver(servers, { headPollMs: 10_000, pingIntervalMs: 100 });
    const silent = await poolOver(servers, { headPollMs: 10_000, pingIntervalMs: 10_000 });
    await new Promise((r) => setTimeout(r, 1200));
    expect(pinged.health()[0]).toMatchObject({ status: 'ready', reconnects: 0 });
    // The control: without pings the server drops the connection (and the pool reconnects).
    expect(silent.health()[0].reconnects).toBeGreaterThan(0);
    expect((await pinged.getMasterchainInfo()).last.seqno).toBeGreaterThan(0);
  });
});
