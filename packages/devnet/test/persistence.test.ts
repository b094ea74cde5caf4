import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, toNano } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import { WHOLE_SHARD } from '@tongate/chain';
import { createDevnet } from '../src/index.js';
import { faucetSeqno, faucetTransfer } from './helpers.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tongate-devnet-'));
  dirs.push(d);
  return d;
}
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const receiver = new Address(0, Buffer.alloc(32, 0x33));
/** An uninitialized account pays a few nanotons of storage fee between transfers, as on the real chain. */
function expectAbout(actual: bigint, expected: bigint) {
  expect(actual <= expected && expected - actual < 1000n, `${actual} ≈ ${expected}`).toBe(true);
}

describe('persistence', () => {
  it('restarts from the data dir with the same blocks, transactions, balances and seqnos', async () => {
    const dataDir = tempDir();
    const first = await createDevnet({ network: 'testnet', dataDir, blockIntervalMs: 0 });
    await first.sendMessage(await faucetTransfer(first, 0, receiver, toNano('4'), 'before restart'));
    await first.produceBlock();
    const seeded = await first.seed();
    // Left pending on purpose: close() must seal it.
    await first.sendMessage(await faucetTransfer(first, await liveFaucetSeqno(), receiver, toNano('1'), 'sealed by close'));
    await first.close();

    async function liveFaucetSeqno() {
      // The seed left the faucet's last transfer sealed, so the sealed seqno is the live one.
      return faucetSeqno(first);
    }

    const info1 = { ...(await reopenInfo()) };
    expect(statSync(join(dataDir, 'testnet', 'journal.ndjson')).size).toBeGreaterThan(0);

    async function reopenInfo() {
      const d = await createDevnet({ network: 'testnet', dataDir, blockIntervalMs: 0 });
      try {
        const info = await d.getMasterchainInfo();
        const state = await d.getAccountState(receiver);
        const bob = await d.getAccountState(seeded.wallets[1].address);
        const jetton = await d.runGetMethod(seeded.jetton.minter, 'get_jetton_data', []);
        const header = await d.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno: seeded.lastBlock.seqno });
        const history = await d.getAccountTransactions(receiver, state.lastTransaction!, 10);
        const seqno = await faucetSeqno(d);
        // The chain continues: a new transfer with the next seqno is accepted and sealed on top.
        await d.sendMessage(await faucetTransfer(d, seqno, receiver, toNano('2'), 'after restart'));
        const next = await d.produceBlock();
        return { info, state, bob, jetton, header, history, seqno, next, after: await d.getAccountState(receiver) };
      } finally {
        await d.close();
      }
    }

    expect(info1.header.id.rootHash.equals(seeded.lastBlock.rootHash)).toBe(true);
    expect(info1.info.last.seqno).toBe(seeded.lastBlock.seqno + 1); // the round sealed by close()
    expectAbout(info1.state.balance, toNano('5'));
    expect(info1.history.map((t) => t.tx.inMessage!.body.beginParse().skip(32).loadStringTail())).toEqual([
      'sealed by close',
      'before restart',
    ]);
    expect(info1.bob.status).toBe('active');
    expect(info1.jetton.exitCode).toBe(0);
    expect(info1.seqno).toBeGreaterThan(3);
    expect(info1.next.seqno).toBe(info1.info.last.seqno + 1);
    expectAbout(info1.after.balance, toNano('7'));
    expect(info1.after.lastTransaction!.lt > info1.state.lastTransaction!.lt).toBe(true);

    // A third start sees the second one's work too.
    const third = await createDevnet({ network: 'testnet', dataDir, blockIntervalMs: 0 });
    try {
      expect((await third.getMasterchainInfo()).last.seqno).toBe(info1.next.seqno);
      expect((await third.getAccountState(receiver)).balance).toBe(info1.after.balance);
      expect((await third.getAccountState(receiver, info1.info.last.seqno)).balance).toBe(info1.state.balance);
    } finally {
      await third.close();
    }
  });

  it('drops a torn last journal line and keeps every complete round', async () => {
    const dataDir = tempDir();
    const d1 = await createDevnet({ network: 'mainnet', dataDir, blockIntervalMs: 0 });
    await d1.sendMessage(await faucetTransfer(d1, 0, receiver, toNano('1')));
    const sealed = await d1.produceBlock();
    await d1.close();
    const journal = join(dataDir, 'mainnet', 'journal.ndjson');
    const size = readFileSync(journal).length;
    appendFileSync(journal, '{"blocks":[{"id":');
    const d2 = await createDevnet({ network: 'mainnet', dataDir, blockIntervalMs: 0 });
    try {
      const info = await d2.getMasterchainInfo();
      expect(info.last.rootHash.equals(sealed.rootHash)).toBe(true);
      expect((await d2.getAccountState(receiver)).balance).toBe(toNano('1'));
      expect((await d2.produceBlock()).seqno).toBe(sealed.seqno + 1);
    } finally {
      await d2.close();
    }
    expect(readFileSync(journal).length).toBeGreaterThan(size);
    expect(readFileSync(journal, 'utf8').endsWith('\n')).toBe(true);
  });

  it('keeps networks apart inside one data dir', async () => {
    const dataDir = tempDir();
    const main = await createDevnet({ network: 'mainnet', dataDir, blockIntervalMs: 0 });
    await main.produceBlock();
    await main.produceBlock();
    await main.close();
    const test = await createDevnet({ network: 'testnet', dataDir, blockIntervalMs: 0 });
    try {
      expect((await test.getMasterchainInfo()).last.seqno).toBe(0);
      expect(test.globalId).toBe(-3);
    } finally {
      await test.close();
    }
  });
});
