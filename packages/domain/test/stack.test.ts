import { beginCell, Cell, type TupleItem } from '@ton/core';
import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto';
import { Blockchain } from '@ton/sandbox';
import { WalletContractV4 } from '@ton/ton';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@tongate/stubs';
import { cellObject, formatLegacyEntry, formatStdEntry, parseLegacyStack, parseStdStack } from '../src/stack.js';

describe('stack codecs against a real wallet v4 on @ton/sandbox', async () => {
  const blockchain = await Blockchain.create();
  const keys = await mnemonicToPrivateKey(await mnemonicNew());
  const wallet = blockchain.openContract(WalletContractV4.create({ workchain: 0, publicKey: keys.publicKey, walletId: 7 }));
  const treasury = await blockchain.treasury('funder');
  await treasury.send({ to: wallet.address, value: 10n ** 9n, init: wallet.init });

  async function run(method: string, stack: TupleItem[]) {
    return blockchain.runGetMethod(wallet.address, method, stack);
  }

  it('numbers come out as ["num", "0x…"] and decode back to the get-method value', async () => {
    const result = await run('get_public_key', []);
    const entry = formatLegacyEntry(result.stack[0]!);
    expect(entry[0]).toBe('num');
    expect(entry[1]).toMatch(/^0x[0-9a-f]+$/);
    expect(BigInt(entry[1] as string)).toBe(BigInt(`0x${Buffer.from(keys.publicKey).toString('hex')}`));
    const seqno = formatLegacyEntry((await run('seqno', [])).stack[0]!);
    expect(seqno).toEqual(['num', '0x0']);
    expect(formatLegacyEntry({ type: 'int', value: -42n })).toEqual(['num', '-0x2a']);
    expect(formatLegacyEntry({ type: 'nan' })).toEqual(['unsupported', '']);
    expect(formatLegacyEntry({ type: 'builder', cell: beginCell().endCell() })).toEqual(['unsupported', '']);
  });

  it('legacy input entries (decimal, 0x, tvm.Slice, cell object) drive a real get-method', async () => {
    const stack = parseLegacyStack([
      ['num', '0'],
      ['num', `0x${treasury.address.hash.toString('hex')}`],
    ]);
    const result = await run('is_plugin_installed', stack);
    expect(result.exitCode).toBe(0);
    expect(formatLegacyEntry(result.stack[0]!)).toEqual(['num', '0x0']);

    const boc = beginCell().storeUint(5, 8).endCell().toBoc().toString('base64');
    expect(parseLegacyStack([['tvm.Slice', boc]])[0]).toMatchObject({ type: 'slice' });
    expect(parseLegacyStack([['tvm.Builder', boc]])[0]).toMatchObject({ type: 'builder' });
    expect(parseLegacyStack([['cell', { bytes: boc }]])[0]).toMatchObject({ type: 'cell' });
    expect(parseLegacyStack([['null']])[0]).toEqual({ type: 'null' });
  });

  it('empty plugin list is TVM null → ["null"]; std stack answers it as an empty list', async () => {
    const result = await run('get_plugin_list', []);
    expect(formatLegacyEntry(result.stack[0]!)).toEqual(['null']);
    expect(formatStdEntry(result.stack[0]!)).toEqual({ '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } });
  });

  it('cells come out with bytes and the object tree', () => {
    const child = beginCell().storeUint(1, 3).endCell();
    const cell = beginCell().storeUint(0xabcd, 16).storeRef(child).endCell();
    const [type, value] = formatLegacyEntry({ type: 'slice', cell }) as [string, { bytes: string; object: ReturnType<typeof cellObject> }];
    expect(type).toBe('cell');
    expect(Cell.fromBase64(value.bytes).equals(cell)).toBe(true);
    expect(value.object).toEqual({
      data: { b64: Buffer.from([0xab, 0xcd]).toString('base64'), len: 16 },
      refs: [{ data: { b64: Buffer.from([0x20]).toString('base64'), len: 3 }, refs: [], special: false }],
      special: false,
    });
  });

  it('tuples and lists: tuple out as tvm.tuple of std entries; list in becomes nested pairs', () => {
    const out = formatLegacyEntry({ type: 'tuple', items: [{ type: 'int', value: 3n }, { type: 'null' }] });
    expect(out).toEqual([
      'tuple',
      {
        '@type': 'tvm.tuple',
        elements: [
          { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '3' } },
          { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } },
        ],
      },
    ]);
    const one = { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '1' } };
    const two = { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: '2' } };
    expect(parseLegacyStack([['list', { '@type': 'tvm.list', elements: [one, two] }]])[0]).toEqual({
      type: 'tuple',
      items: [
        { type: 'int', value: 1n },
        { type: 'tuple', items: [{ type: 'int', value: 2n }, { type: 'null' }] },
      ],
    });
    expect(parseStdStack([{ '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: [one] } }])).toEqual([
      { type: 'tuple', items: [{ type: 'int', value: 1n }] },
    ]);
  });

  it('bad entries are 422 errors that say what is wrong', () => {
    for (const bad of [[['num', 'xyz']], [['tvm.Cell', '']], [['foo', 1]], ['num'], [['num', '1', '2']], {}]) {
      expect(() => parseLegacyStack(bad)).toThrow(ApiError);
    }
    expect(() => parseLegacyStack([['num', 'xyz']])).toThrow(/invalid stack: invalid number/);
    expect(() => parseStdStack([{ '@type': 'tvm.stackEntryWhat' }])).toThrow(/unsupported stack entry/);
  });
});
