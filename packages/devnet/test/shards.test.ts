import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, toNano } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import { shardToHex, WHOLE_SHARD, type BlockIdExt } from '@tongate/chain';
import { createDevnet, type Devnet } from '../src/index.js';
import { faucetSeqno, faucetTransfer } from './helpers.js';

// Shard layouts of the devnet basechain over time: splits and merges as TON names them (before_split on the last
// block of a shard, after_split on both halves' first blocks with the parent as their one prev, after_merge with
// both halves as prevs and the next seqno), and messages between shards delivered a round later.

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tongate-shards-'));
  dirs.push(d);
  return d;
}

const hex = (ids: BlockIdExt[]) => ids.map((id) => shardToHex(id.shard));

async function headersOf(devnet: Devnet, mcSeqno: number) {
  return Promise.all((await devnet.getShards(mcSeqno)).map((id) => devnet.getBlockHeader(id)));
}

describe('devnet shards', () => {
  it('splits and merges when configured, linking the blocks as a real basechain does', async () => {
    const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0, shards: 1 });
    try {
      expect(hex(await devnet.getShards(0))).toEqual(['8000000000000000']);
      await devnet.produceBlock();
      await devnet.setShards(4);
      // Two levels: the whole shard ends (before_split), its halves end in turn, then four quarters.
      const a = (await devnet.produceBlock()).seqno;
      const b = (await devnet.produceBlock()).seqno;
      const c = (await devnet.produceBlock()).seqno;
      const [whole] = await headersOf(devnet, a);
      expect(whole.beforeSplit).toBe(true);
      const halves = await headersOf(devnet, b);
      expect(halves.map((h) => shardToHex(h.id.shard))).toEqual(['4000000000000000', 'c000000000000000']);
      for (const h of halves) {
        expect(h.afterSplit && h.beforeSplit).toBe(true);
        expect(h.prevBlocks).toEqual([whole.id]);
        expect(h.id.seqno).toBe(whole.id.seqno + 1);
      }
      const quarters = await headersOf(devnet, c);
      expect(quarters.map((h) => shardToHex(h.id.shard))).toEqual([
        '2000000000000000',
        '6000000000000000',
        'a000000000000000',
        'e000000000000000',
      ]);
      expect(quarters.map((h) => h.prevBlocks[0].shard)).toEqual([
        halves[0].id.shard,
        halves[0].id.shard,
        halves[1].id.shard,
        halves[1].id.shard,
      ]);
      expect(quarters.every((h) => h.afterSplit && !h.beforeSplit)).toBe(true);
      // A quarter's transfer lands in that quarter's block; the lookup by prefix finds it.
      const to = new Address(0, Buffer.alloc(32, 0xa5));
      await devnet.sendMessage(await faucetTransfer(devnet, await faucetSeqno(devnet), to, toNano('1')));
      const d = (await devnet.settle()).seqno;
      const received = await devnet.getTransaction(to, (await devnet.getAccountState(to)).lastTransaction!.lt);
      expect(shardToHex(received!.block.shard)).toBe('a000000000000000');
      expect(received!.block.seqno).toBeGreaterThan(quarters[2].id.seqno);

      await devnet.setShards(1);
      const e = (await devnet.produceBlock()).seqno;
      const f = (await devnet.produceBlock()).seqno;
      const merged = await headersOf(devnet, e);
      expect(merged.map((h) => shardToHex(h.id.shard))).toEqual(['4000000000000000', 'c000000000000000']);
      const before = await headersOf(devnet, e - 1);
      for (const [i, h] of merged.entries()) {
        expect(h.afterMerge).toBe(true);
        expect(h.prevBlocks).toEqual([before[2 * i].id, before[2 * i + 1].id]);
        expect(h.id.seqno).toBe(Math.max(before[2 * i].id.seqno, before[2 * i + 1].id.seqno) + 1);
      }
      const [last] = await headersOf(devnet, f);
      expect(last.id.shard).toBe(WHOLE_SHARD);
      expect(last.prevBlocks).toEqual(merged.map((h) => h.id));
      // The whole-workchain prefix found each time in the shard that held it.
      expect((await devnet.lookupBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: last.id.seqno })).shard).toBe(WHOLE_SHARD);
      expect(shardToHex((await devnet.lookupBlock({ workchain: 0, shard: WHOLE_SHARD, seqno: quarters[0].id.seqno })).shard)).toBe(
        'a000000000000000',
      );
      expect(d).toBeLessThan(e);
      await expect(devnet.setShards(3)).rejects.toThrow(/power of two/);
    } finally {
      await devnet.close();
    }
  });

  it('keeps a message between shards across a crash: the journal holds it until delivered', async () => {
    const dataDir = tempDir();
    const devnet = await createDevnet({ network: 'testnet', dataDir, blockIntervalMs: 0 });
    // The faucet is in the left half; this account in the right one.
    expect(devnet.faucet.address.hash[0]).toBeLessThan(0x80);
    const far = new Address(0, Buffer.alloc(32, 0xf1));
    let crashed: string;
    try {
      await devnet.sendMessage(await faucetTransfer(devnet, 0, far, toNano('3')));
      await devnet.produceBlock();
      // The data dir as a crash leaves it: the sender's round is journaled, the delivery is not.
      crashed = tempDir();
      cpSync(dataDir, crashed, { recursive: true });
    } finally {
      await devnet.close();
    }
    const restarted = await createDevnet({ network: 'testnet', dataDir: crashed, blockIntervalMs: 0 });
    try {
      expect((await restarted.getAccountState(far)).status).toBe('nonexist');
      await restarted.settle();
      expect((await restarted.getAccountState(far)).balance).toBe(toNano('3'));
    } finally {
      await restarted.close();
    }
  });
});
