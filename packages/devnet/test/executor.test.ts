import { Address, beginCell, Cell, Dictionary, toNano } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { WHOLE_SHARD } from '@tongate/chain';
import { createDevnet } from '../src/index.js';
import { jettonWalletCodeBoc } from '../src/contracts/codes.js';
import { DevnetExecutor } from '../src/executor.js';
import { faucetTransfer } from './helpers.js';

describe('DevnetExecutor', () => {
  it('hands the emulator exactly the inputs of the stock sandbox path, PREVBLOCKS and libraries included', async () => {
    const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    try {
      await devnet.produceBlock();
      const state = await devnet.getAccountState(devnet.faucet.address);
      const message = Cell.fromBoc(await faucetTransfer(devnet, 0, new Address(0, Buffer.alloc(32, 5)), toNano('1')))[0];
      const headers = await Promise.all([1, 0].map((seqno) => devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno })));
      const lib = Cell.fromBase64(jettonWalletCodeBoc);
      const libs = beginCell().storeDictDirect(Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell()).set(lib.hash(), lib)).endCell();
      const args = {
        config: (await devnet.getConfigAll()).toBoc().toString('base64'),
        libs,
        verbosity: 'short' as const,
        shardAccount: state.shardAccount!.toBoc().toString('base64'),
        message,
        now: Math.floor(Date.now() / 1000),
        lt: 5_000_000n,
        randomSeed: Buffer.alloc(32, 1),
        ignoreChksig: false,
        debugEnabled: false,
        prevBlocksInfo: { lastMcBlocks: headers.map((h) => h.id), prevKeyBlock: headers[1].id },
      };
      const executor = await DevnetExecutor.create();
      const inner = executor.inner as unknown as { runCommon(a: unknown[]): unknown };
      const original = inner.runCommon;
      const seen: unknown[][] = [];
      inner.runCommon = function (this: unknown, a: unknown[]) {
        seen.push(a.slice(1)); // [0] is the emulator pointer
        return original.call(this, a);
      };
      const stock = await executor.inner.runTransaction(args);
      const fast = await executor.runTransaction(args);
      const again = await executor.runTransaction(args);
      expect(seen).toHaveLength(3);
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[2]).toEqual(seen[0]);
      expect(JSON.parse(seen[0][3] as string).prev_blocks_info).toBeTruthy();
      expect(fast.result.success).toBe(true);
      expect(fast.result).toEqual(stock.result);
      expect(again.result).toEqual(stock.result);
    } finally {
      await devnet.close();
    }
  });
});
