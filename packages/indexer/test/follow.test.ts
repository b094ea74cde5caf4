/**
 * Following the head: the indexer takes a new block the moment the ChainSource seals it (waitForMasterchainBlock),
 * not after a poll interval, and reports where each block's time went (stage timings for /metrics).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDevnet, type Devnet } from '@tongate/devnet';
import { type Store } from '@tongate/store';
import { openIndexStore } from '@tongate/read-model';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultDerivations, Indexer } from '../src/index.js';

let devnet: Devnet;
let store: Store;
const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-follow-'));

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  store = await openIndexStore({ dataDir });
  await store.migrate();
});

afterAll(async () => {
  await store?.close();
  await devnet?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('the devnet wakes a waiter when it seals the block, and times out quietly otherwise', async () => {
  const head = (await devnet.getMasterchainInfo()).last.seqno;
  let started = performance.now();
  await devnet.waitForMasterchainBlock(head, 60_000);
  expect(performance.now() - started).toBeLessThan(1000);

  started = performance.now();
  await devnet.waitForMasterchainBlock(head + 1, 200);
  expect(performance.now() - started).toBeGreaterThanOrEqual(150);
  expect((await devnet.getMasterchainInfo()).last.seqno).toBe(head);

  const woken = devnet.waitForMasterchainBlock(head + 1, 60_000).then(() => performance.now());
  const sealed = await devnet.produceBlock();
  const sealedAt = performance.now();
  expect(sealed.seqno).toBe(head + 1);
  expect((await woken) - sealedAt).toBeLessThan(1000);
});

it('writes a new block as soon as it is sealed (no poll interval) and reports its stage timings', async () => {
  // A poll interval far beyond the test's timeouts: only the chain's wake-up can get the block in on time.
  const indexer = new Indexer({ chain: devnet, db: store.chain('testnet'), pollMs: 60_000 });
  await indexer.start();
  try {
    await indexer.waitFor((await devnet.getMasterchainInfo()).last.seqno, 60_000);
    for (let i = 0; i < 3; i++) {
      // Let the indexer go back to waiting for the next block first.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const block = await devnet.produceBlock();
      await indexer.waitFor(block.seqno, 10_000);
      const { lastBlock } = indexer.status();
      expect(lastBlock?.seqno).toBe(block.seqno);
      const stages = Object.keys(lastBlock!.stagesMs);
      const expected = [
        'collect',
        'write:chain',
        'commit',
        ...defaultDerivations().flatMap((d) => [`prepare:${d.name}`, `write:${d.name}`]),
      ];
      expect(stages.sort()).toEqual(expected.sort());
      for (const ms of Object.values(lastBlock!.stagesMs)) expect(ms).toBeGreaterThanOrEqual(0);
    }
    const status = indexer.status();
    expect(status.blocks).toBeGreaterThanOrEqual(4);
    expect(status.stageSecondsTotal.collect).toBeGreaterThan(0);
    expect(status.stageSecondsTotal['write:chain']).toBeGreaterThan(0);
  } finally {
    // Stopping while the indexer waits on the chain does not wait out that wait.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopping = performance.now();
    await indexer.stop();
    expect(performance.now() - stopping).toBeLessThan(2000);
  }
});
