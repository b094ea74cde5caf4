import { describe, expect, it } from 'vitest';
import { Address, beginCell, Dictionary, type TupleItem } from '@ton/core';
import { GET_VESTING_DATA, readVestingData } from '../src/vesting.js';
import { methodId } from '../src/get-method.js';

const int = (value: bigint | number): TupleItem => ({ type: 'int', value: BigInt(value) });
const address = (a: Address | null): TupleItem => ({ type: 'slice', cell: beginCell().storeAddress(a).endCell() });
const owner = new Address(0, Buffer.alloc(32, 1));
const sender = new Address(-1, Buffer.alloc(32, 2));
const friends = [new Address(0, Buffer.alloc(32, 3)), new Address(-1, Buffer.alloc(32, 4))];

function whitelist(addresses: Address[]): TupleItem {
  const dict = Dictionary.empty(Dictionary.Keys.Address(), { serialize: () => {}, parse: () => true });
  for (const a of addresses) dict.set(a, true);
  return addresses.length ? { type: 'cell', cell: beginCell().storeDictDirect(dict).endCell() } : { type: 'null' };
}

const stack = (list: TupleItem = whitelist(friends)): TupleItem[] => [
  int(1_700_000_000),
  int(63_072_000),
  int(2_592_000),
  int(31_536_000),
  int(10n ** 14n),
  address(sender),
  address(owner),
  list,
];

describe('get_vesting_data', () => {
  it('is looked for by its method id', () => {
    expect(GET_VESTING_DATA).toBe(methodId('get_vesting_data'));
  });

  it('reads the eight values and the whitelist (HashmapE 267 keyed by address)', () => {
    const data = readVestingData(stack())!;
    expect(data).toMatchObject({
      startTime: 1_700_000_000,
      totalDuration: 63_072_000,
      unlockPeriod: 2_592_000,
      cliffDuration: 31_536_000,
      totalAmount: 10n ** 14n,
    });
    expect(data.owner!.equals(owner)).toBe(true);
    expect(data.sender!.equals(sender)).toBe(true);
    expect(data.whitelist.map((a) => a.toRawString()).sort()).toEqual(friends.map((a) => a.toRawString()).sort());
    expect(readVestingData(stack({ type: 'null' }))!.whitelist).toEqual([]);
  });

  it('rejects other shapes: another count, non-addresses, durations past uint32', () => {
    expect(readVestingData(stack().slice(0, 7))).toBeNull();
    expect(readVestingData([...stack().slice(0, 5), int(5), address(owner), whitelist([])])).toBeNull();
    expect(readVestingData([int(1), int(2n ** 32n), ...stack().slice(2)])).toBeNull();
    expect(readVestingData([...stack().slice(0, 7), { type: 'cell', cell: beginCell().storeUint(1, 3).endCell() }])).toBeNull();
  });
});
