import { describe, expect, it } from 'vitest';
import { checkEntry, readPath, type ClassifiedAction, type GoldenEntry } from '../src/index.js';

// The fixture test is only as strict as these rules: they must reject what the README says does not match.
const action = (fields: Record<string, unknown>): ClassifiedAction => ({ type: 'jetton_swap', ...fields }) as unknown as ClassifiedAction;

describe('golden matching rules (fixtures README)', () => {
  const swap = action({
    source: `0:${'AB'.repeat(32)}`,
    amount: '123',
    opcode: 0x0490f09b,
    success: true,
    tx_hashes: ['a', 'b'],
    jetton_swap_data: { dex: 'stonfi', peer_swaps: [{ amount_in: '1' }, { amount_in: '2' }] },
  });

  it('compares numbers by value, opcodes in hex, addresses case-insensitively, booleans strictly', () => {
    const entry: GoldenEntry = {
      type: 'jetton_swap',
      values: { amount: 123, opcode: '0x0490f09b', source: `0:${'ab'.repeat(32)}`, success: true },
    };
    expect(checkEntry([swap], entry).ok).toBe(true);
    expect(checkEntry([swap], { type: 'jetton_swap', values: { amount: 124 } }).ok).toBe(false);
    expect(checkEntry([swap], { type: 'jetton_swap', values: { success: 'true' } }).ok).toBe(false);
  });

  it('treats absent as null, reads list indexes, compares lists as sets of the same length', () => {
    expect(checkEntry([swap], { type: 'jetton_swap', values: { destination: null } }).ok).toBe(true);
    expect(checkEntry([swap], { type: 'jetton_swap', values: { 'jetton_swap_data.peer_swaps[1]': { amount_in: 2 } } }).ok).toBe(true);
    expect(checkEntry([swap], { type: 'jetton_swap', values: { tx_hashes: ['b', 'a'] } }).ok).toBe(true);
    expect(checkEntry([swap], { type: 'jetton_swap', values: { tx_hashes: ['a'] } }).ok).toBe(false);
    expect(readPath(swap, 'jetton_swap_data.peer_swaps[5].amount_in')).toBeUndefined();
  });

  it('needs exactly one action of the type without a selector, and a selected one with it', () => {
    expect(checkEntry([swap, swap], { type: 'jetton_swap', values: {} }).ok).toBe(false);
    expect(checkEntry([], { type: 'jetton_swap' }).ok).toBe(false);
    const other = action({ jetton_swap_data: { dex: 'dedust' } });
    const selected: GoldenEntry = {
      type: 'jetton_swap',
      selector_parsed: { any: [{ all: [{ path: 'jetton_swap_data.dex', op: 'eq', value: 'dedust' }] }] },
      values: { 'jetton_swap_data.dex': 'dedust' },
    };
    expect(checkEntry([swap, other], selected).ok).toBe(true);
    expect(checkEntry([swap], selected).ok).toBe(false);
  });
});
