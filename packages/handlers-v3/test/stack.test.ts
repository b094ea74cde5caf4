import { beginCell, type TupleItem } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { formatV3Entry, parseV3Stack } from '../src/stack.js';

describe('v3 stack codec', () => {
  const cell = beginCell().storeUint(0xabcdef, 24).storeRef(beginCell().storeUint(1, 1).endCell()).endCell();
  const b64 = cell.toBoc().toString('base64');

  it('reads every entry type, numbers in decimal and hex, lists as nested pairs', () => {
    const items = parseV3Stack([
      { type: 'num', value: '42' },
      { type: 'num', value: '-0x10' },
      { type: 'cell', value: b64 },
      { type: 'slice', value: b64 },
      { type: 'builder', value: b64 },
      { type: 'null' },
      {
        type: 'tuple',
        value: [
          { type: 'num', value: '1' },
          { type: 'null', value: null },
        ],
      },
      {
        type: 'list',
        value: [
          { type: 'num', value: '1' },
          { type: 'num', value: '2' },
        ],
      },
    ]);
    expect(items[0]).toEqual({ type: 'int', value: 42n });
    expect(items[1]).toEqual({ type: 'int', value: -16n });
    for (const [i, type] of [
      [2, 'cell'],
      [3, 'slice'],
      [4, 'builder'],
    ] as const) {
      expect(items[i].type).toBe(type);
      expect((items[i] as { cell: typeof cell }).cell.hash()).toEqual(cell.hash());
    }
    expect(items[5]).toEqual({ type: 'null' });
    expect(items[6]).toEqual({ type: 'tuple', items: [{ type: 'int', value: 1n }, { type: 'null' }] });
    const list: TupleItem = {
      type: 'tuple',
      items: [
        { type: 'int', value: 1n },
        { type: 'tuple', items: [{ type: 'int', value: 2n }, { type: 'null' }] },
      ],
    };
    expect(items[7]).toEqual(list);
    expect(parseV3Stack(undefined)).toEqual([]);
  });

  it('writes numbers as 0x-hex, cells as BOCs, tuples as entry arrays', () => {
    expect(formatV3Entry({ type: 'int', value: 255n })).toEqual({ type: 'num', value: '0xff' });
    expect(formatV3Entry({ type: 'int', value: -1n })).toEqual({ type: 'num', value: '-0x1' });
    expect(formatV3Entry({ type: 'null' })).toEqual({ type: 'null', value: null });
    const out = formatV3Entry({
      type: 'tuple',
      items: [
        { type: 'slice', cell },
        { type: 'int', value: 0n },
      ],
    });
    expect(out.type).toBe('tuple');
    const [slice, zero] = out.value as { type: string; value: string }[];
    expect(slice.type).toBe('slice');
    expect(parseV3Stack([slice])[0]).toMatchObject({ type: 'slice' });
    expect(zero).toEqual({ type: 'num', value: '0x0' });
  });

  it('names what is wrong in a bad stack (422)', () => {
    const bad: [unknown, RegExp][] = [
      [{}, /array/],
      [[['num', '1']], /\{type, value\}/],
      [[{ type: 'num', value: 'x' }], /invalid number/],
      [[{ type: 'cell', value: 'not base64 boc' }], /cell/],
      [[{ type: 'tuple', value: 'x' }], /tuple expects an array/],
      [[{ type: 'float', value: '1.5' }], /unsupported stack entry type/],
    ];
    for (const [stack, message] of bad) {
      try {
        parseV3Stack(stack);
        expect.unreachable(`accepted ${JSON.stringify(stack)}`);
      } catch (e) {
        expect((e as { status?: number }).status).toBe(422);
        expect((e as Error).message).toMatch(message);
      }
    }
  });
});
