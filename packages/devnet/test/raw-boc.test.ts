import { beginCell, Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { BitCursor, RawBoc } from '../src/raw-boc.js';
import { hashmapLeaves } from '../src/runner.js';

/** A deterministic pseudo-random tree with shared sub-cells and every bit length class (0, multiples of 8, others). */
function tree(seed: number): Cell {
  let x = seed;
  const next = () => (x = (x * 1103515245 + 12345) % 2 ** 31);
  const leaves = Array.from({ length: 5 }, (_, i) =>
    beginCell()
      .storeUint(next() % 1000, 10 + i * 3)
      .endCell(),
  );
  const build = (depth: number): Cell => {
    const b = beginCell();
    const bits = next() % 1023;
    for (let i = 0; i < bits; i++) b.storeBit(next() % 2 === 1);
    const refs = depth === 0 ? 0 : next() % 5;
    for (let r = 0; r < refs; r++) b.storeRef(next() % 3 === 0 ? leaves[next() % leaves.length] : build(depth - 1));
    return b.endCell();
  };
  return build(4);
}

describe('RawBoc', () => {
  it('reads every cell as @ton/core does: bits, hashes, and sub-trees that re-serialize to the same cells', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const root = tree(seed);
      for (const opts of [
        { idx: false, crc32: false },
        { idx: true, crc32: true },
      ]) {
        const bag = RawBoc.parse(root.toBoc(opts));
        expect(bag).not.toBeNull();
        expect(bag!.hash(bag!.root)).toEqual(root.hash());
        // Walk @ton/core's tree and the bag side by side.
        const check = (cell: Cell, i: number) => {
          expect(bag!.bits[i]).toBe(cell.bits.length);
          expect(bag!.hash(i)).toEqual(cell.hash());
          expect(Cell.fromBoc(bag!.toBoc(i))[0].hash()).toEqual(cell.hash());
          expect(bag!.refs[i]).toHaveLength(cell.refs.length);
          cell.refs.forEach((ref, k) => check(ref, bag!.refs[i][k]));
        };
        check(root, bag!.root);
      }
    }
  });

  it('declines what it does not read: exotic cells, several roots, not a BOC, truncated', () => {
    const pruned = new Cell({
      exotic: true,
      bits: beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(Buffer.alloc(32)).storeUint(0, 16).endCell().bits,
    });
    expect(RawBoc.parse(beginCell().storeRef(pruned).endCell().toBoc())).toBeNull();
    const a = beginCell().storeUint(1, 8).endCell();
    const b = beginCell().storeUint(2, 8).endCell();
    expect(RawBoc.parse(Buffer.from('not a boc at all'))).toBeNull();
    const boc = beginCell().storeRef(a).storeRef(b).endCell().toBoc();
    expect(RawBoc.parse(boc.subarray(0, boc.length - 6))).toBeNull();
  });

  it('reads bits in order and refuses to read past the end', () => {
    const cell = beginCell().storeUint(0b101, 3).storeUint(0xabcdef, 24).storeBuffer(Buffer.from('hi')).endCell();
    const bag = RawBoc.parse(cell.toBoc())!;
    const c = new BitCursor(bag.data[0], bag.bits[0]);
    expect(c.uint(3)).toBe(0b101);
    expect(c.uint(24)).toBe(0xabcdef);
    expect(c.bytes(16).toString()).toBe('hi');
    expect(c.remaining).toBe(0);
    expect(() => c.bit()).toThrow(RangeError);
  });

  it('lists the entries of a 15-bit-key Hashmap of references as @ton/core wrote them', () => {
    for (const keys of [[0], [0, 1], [0, 1, 2, 3], [5, 32767], Array.from({ length: 255 }, (_, i) => (i * 97) % 32768)]) {
      const dict = Dictionary.empty(Dictionary.Keys.Uint(15), Dictionary.Values.Cell());
      for (const k of keys) dict.set(k, beginCell().storeUint(k, 16).endCell());
      const holder = beginCell().storeDict(dict).endCell();
      const bag = RawBoc.parse(holder.toBoc())!;
      const out: { key: number; cell: number }[] = [];
      expect(hashmapLeaves(bag, bag.refs[bag.root][0], 15, 0, out)).toBe(true);
      expect(out.map((e) => e.key).sort((x, y) => x - y)).toEqual([...new Set(keys)].sort((x, y) => x - y));
      for (const e of out) expect(new BitCursor(bag.data[e.cell], bag.bits[e.cell]).uint(16)).toBe(e.key);
    }
  });
});
