import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { endpoint, rawAddress, rawAddresses, rawAddressOfText } from '../src/index.js';

const friendly = 'EQBsyfA5o-WPrOpEbLqpLCZ-9FEIazZ4BBPx_Rkc_yRCh9eE';

describe('address forms', () => {
  it('one raw form for an Address and for a workchain and hash: wc:HEX, upper case', () => {
    const a = Address.parse(friendly);
    const raw = rawAddress(a);
    expect(raw).toMatch(/^0:[0-9A-F]{64}$/);
    expect(rawAddress(a.workChain, a.hash)).toBe(raw);
    expect(rawAddress(new Address(-1, Buffer.alloc(32, 0xab)))).toBe(`-1:${'AB'.repeat(32)}`);
    expect(Address.parseRaw(raw).equals(a)).toBe(true);
  });

  it('parameter conversions write the same stored form', () => {
    const a = Address.parse(friendly);
    expect(rawAddresses([a, Address.parse(a.toRawString())])).toEqual([rawAddress(a)]);
    expect(rawAddressOfText(friendly)).toBe(rawAddress(a));
    expect(rawAddressOfText('not an address')).toBeNull();
    expect(endpoint(null)).toBeNull();
    expect(endpoint(a)).toBe(rawAddress(a));
  });
});
