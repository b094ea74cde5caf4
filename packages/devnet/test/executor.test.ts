import { Address, beginCell, Cell, Dictionary, external, storeMessage, toNano, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { WHOLE_SHARD } from '@tongate/chain';
import { createDevnet } from '../src/index.js';
import { jettonWalletCodeBoc } from '../src/contracts/codes.js';
import { DevnetExecutor } from '../src/executor.js';
import { createEmulatorExecutor } from '../src/fast/index.js';
import { faucetTransfer } from './helpers.js';

describe('DevnetExecutor', () => {
  it('hands the emulator exactly the inputs of the stock sandbox path, PREVBLOCKS and libraries included', async () => {
    const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    try {
      await devnet.settle();
      const state = await devnet.getAccountState(devnet.faucet.address);
      const message = Cell.fromBoc(await faucetTransfer(devnet, 0, new Address(0, Buffer.alloc(32, 5)), toNano('1')))[0];
      const headers = await Promise.all([1, 0].map((seqno) => devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno })));
      const lib = Cell.fromBase64(jettonWalletCodeBoc);
      const libs = beginCell()
        .storeDictDirect(Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell()).set(lib.hash(), lib))
        .endCell();
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
      // What reaches the emulator's entry point, read back from wasm memory (the emulator pointer apart).
      const module = (
        executor.inner as unknown as { module: { _emulate_with_emulator(...a: number[]): number; UTF8ToString(p: number): string } }
      ).module;
      const original = module._emulate_with_emulator;
      const seen: unknown[][] = [];
      module._emulate_with_emulator = (emulator: number, ...strings: number[]) => {
        seen.push(strings.map((p) => (p === 0 ? 0 : module.UTF8ToString(p))));
        return original(emulator, ...strings);
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

  it("runs get-methods with the stock path's parameters and results, the config kept in wasm memory", async () => {
    const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    try {
      await devnet.settle();
      const state = await devnet.getAccountState(devnet.faucet.address);
      const headers = await Promise.all([1, 0].map((seqno) => devnet.getBlockHeader({ workchain: -1, shard: WHOLE_SHARD, seqno })));
      const lib = Cell.fromBase64(jettonWalletCodeBoc);
      const libs = beginCell()
        .storeDictDirect(Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell()).set(lib.hash(), lib))
        .endCell();
      const executor = await DevnetExecutor.create();
      const inner = executor.inner as unknown as { invoke(method: string, a: unknown[]): unknown };
      const original = inner.invoke;
      const seen: unknown[][] = [];
      inner.invoke = function (this: unknown, method: string, a: unknown[]) {
        if (method === '_run_get_method') seen.push(a);
        return original.call(this, method, a);
      };
      const run = (config: string, methodId: number, stack: TupleItem[]) => ({
        code: state.code!,
        data: state.data!,
        methodId,
        stack,
        config,
        verbosity: 'short' as const,
        libs,
        address: devnet.faucet.address,
        unixTime: 1_700_000_000,
        balance: state.balance,
        randomSeed: Buffer.alloc(32, 7),
        gasLimit: 10_000_000n,
        debugEnabled: false,
        prevBlocksInfo: { lastMcBlocks: headers.map((h) => h.id), prevKeyBlock: headers[1].id },
      });
      const config = (await devnet.getConfigAll()).toBoc().toString('base64');
      const seqno = run(config, 85143, []);
      const publicKey = run(config, 78748, []);
      const stock = [await executor.inner.runGetMethod(seqno), await executor.inner.runGetMethod(publicKey)];
      const fast = [await executor.runGetMethod(seqno), await executor.runGetMethod(publicKey), await executor.runGetMethod(seqno)];
      // The emulator's log lines carry wall-clock timestamps; everything else must match exactly.
      const comparable = (r: Awaited<ReturnType<typeof executor.runGetMethod>>) => ({
        ...r,
        logs: r.logs.replace(/\[\d{4}-[\d:. -]+\]/g, '[time]'),
      });
      expect(comparable(fast[0])).toEqual(comparable(stock[0]));
      expect(comparable(fast[1])).toEqual(comparable(stock[1]));
      expect(comparable(fast[2])).toEqual(comparable(stock[0]));
      expect(fast[0].output.success && fast[0].output.vm_exit_code).toBe(0);
      // Same params JSON and stack; the config goes as the same pointer every time.
      expect(seen).toHaveLength(5);
      expect(seen[2].slice(0, 2)).toEqual(seen[0].slice(0, 2));
      expect(seen[3].slice(0, 2)).toEqual(seen[1].slice(0, 2));
      expect(typeof seen[2][2]).toBe('number');
      expect(seen[4][2]).toBe(seen[2][2]);
      // A new config (another network) replaces the string in wasm memory.
      const otherConfig = (await devnet.getConfigAll()).toBoc({ idx: true }).toString('base64');
      const other = await executor.runGetMethod(run(otherConfig, 85143, []));
      expect(comparable(other)).toEqual(comparable(stock[0]));
      expect(typeof seen[5][2]).toBe('number');
    } finally {
      await devnet.close();
    }
  });

  it('gives the same results with the memoized emscripten glue as with the stock one, C++ exceptions included', async () => {
    const devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    try {
      const state = await devnet.getAccountState(devnet.faucet.address);
      const to = new Address(0, Buffer.alloc(32, 5));
      const config = (await devnet.getConfigAll()).toBoc().toString('base64');
      const args = (message: Cell) => ({
        config,
        libs: null,
        verbosity: 'short' as const,
        shardAccount: state.shardAccount!.toBoc().toString('base64'),
        message,
        now: Math.floor(Date.now() / 1000) + 10,
        lt: 5_000_000n,
        randomSeed: Buffer.alloc(32, 1),
        ignoreChksig: false,
        debugEnabled: false,
      });
      expect(await createEmulatorExecutor()).not.toBeNull();
      const fast = await DevnetExecutor.create();
      const stock = await DevnetExecutor.create({ stockGlue: true });
      expect([fast.glue, stock.glue]).toEqual(['memoized', 'stock']);
      const transfer = async (seqno: number) => Cell.fromBoc(await faucetTransfer(devnet, seqno, to, toNano('1')))[0];
      const cases: [Cell, number | null][] = [
        [await transfer(0), null],
        // Wrong seqno: the wallet throws 33 (a TVM-level throw).
        [await transfer(3), 33],
        // Empty body: cell underflow (9), raised as a C++ exception inside the emulator and caught through the
        // invoke_* wrappers, the path the memoized glue rewrites.
        [
          beginCell()
            .store(storeMessage(external({ to: devnet.faucet.address, body: beginCell().endCell() })))
            .endCell(),
          9,
        ],
        [await transfer(0), null],
      ];
      for (const [message, exitCode] of cases) {
        const a = args(message);
        const [s, f] = [await stock.runTransaction(a), await fast.runTransaction(a)];
        expect(f.result).toEqual(s.result);
        expect(f.result.success).toBe(exitCode === null);
        if (!f.result.success) expect(f.result.vmResults?.vmExitCode).toBe(exitCode);
      }
    } finally {
      await devnet.close();
    }
  });
});
