import { beginCell, Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { HashmapAugWriter, hashmapPath, merkleUpdate, ShardAccountsWriter } from '../src/index.js';

/** Values of 16 bits and no extra: such a HashmapAug is a plain Hashmap, which @ton/core writes on its own. */
const plain = () =>
  new HashmapAugWriter<number, null>(32, {
    extra: () => null,
    storeExtra: () => () => undefined,
    add: () => null,
    storeValue: (v) => (b) => b.storeUint(v, 16),
    identity: (v) => String(v),
  });

describe('HashmapAugWriter', () => {
  it('writes the labels and forks @ton/core writes for the same keys', () => {
    for (const keys of [[5], [0, 1], [1, 2, 3, 0xffffffff], [7, 8, 1000, 1001, 1 << 20, 0x80000000, 0x80000001, 12345678]]) {
      const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Uint(16));
      for (const k of keys) dict.set(k, k & 0xffff);
      const ours = plain().storeE(
        [...keys].sort((a, b) => a - b).map((k) => ({ key: BigInt(k), value: k & 0xffff })),
        null,
      );
      expect(beginCell().store(ours.store).endCell().hash().equals(beginCell().storeDict(dict).endCell().hash())).toBe(true);
    }
  });

  it('reuses the cells of unchanged subtrees and gives the same map as a fresh writer', () => {
    const writer = plain();
    const entries = Array.from({ length: 200 }, (_, i) => ({ key: BigInt(i * 7919), value: i }));
    writer.storeE(entries, null);
    const changed = entries.map((e, i) => (i === 50 ? { ...e, value: 9999 } : e));
    const again = beginCell().store(writer.storeE(changed, null).store).endCell();
    const fresh = beginCell().store(plain().storeE(changed, null).store).endCell();
    expect(again.hash().equals(fresh.hash())).toBe(true);
    const root = again.refs[0];
    expect(hashmapPath(root, BigInt(50 * 7919), 32).length).toBeGreaterThan(1);
    expect(hashmapPath(root, 3n, 32)).toEqual([]);
  });
});

describe('ShardAccountsWriter and merkleUpdate', () => {
  it('sums the balances into the root extra; an update names both states and prunes what they share', () => {
    const account = (i: number, balance: bigint) => ({
      account: Buffer.alloc(32, i),
      shardAccount: beginCell()
        .storeRef(beginCell().storeUint(i, 8))
        .storeUint(0, 256 + 64)
        .endCell(),
      balance,
    });
    const w = new ShardAccountsWriter();
    const before = w.build([account(1, 5n), account(2, 7n), account(3, 11n)]);
    expect(before.balance).toBe(23n);
    const after = w.build([account(1, 5n), account(2, 8n), account(3, 11n)]);
    const update = merkleUpdate(before.cell, after.cell);
    expect(update.bits.subbuffer(8, 256)!.equals(before.cell.hash())).toBe(true);
    expect(update.bits.subbuffer(8 + 256, 256)!.equals(after.cell.hash())).toBe(true);
    // The accounts that did not change are pruned branches on both sides: the update is smaller than the states.
    const cells = (c: Cell): number => 1 + c.refs.reduce((n, r) => n + cells(r), 0);
    expect(cells(update)).toBeLessThan(cells(before.cell) + cells(after.cell));
  });
});
