import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { loadAddress } from '../src/decode.js';

describe('loadAddress', () => {
  const hash = Buffer.alloc(32, 0x8a);

  it('reads an anycast addr_std as written, without applying the rewrite prefix (as the reference does)', () => {
    const cell = beginCell()
      .storeUint(0b10, 2)
      .storeBit(1)
      .storeUint(12, 5)
      .storeUint(0x87a, 12)
      .storeInt(15, 8)
      .storeBuffer(hash)
      .storeUint(0b101, 3)
      .endCell();
    const s = cell.beginParse();
    expect(loadAddress(s)).toBe(`15:${hash.toString('hex').toUpperCase()}`);
    expect(s.loadUint(3)).toBe(0b101);
  });

  it('reads plain addr_std and addr_none', () => {
    const s = beginCell().storeAddress(new Address(0, hash)).storeUint(0, 2).endCell().beginParse();
    expect(loadAddress(s)).toBe(`0:${hash.toString('hex').toUpperCase()}`);
    expect(loadAddress(s)).toBeNull();
  });
});
