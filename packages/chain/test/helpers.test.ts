import { Address, beginCell, external, storeMessage } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { blockSigningPayload, nodeIdShort, normalizedExternalMessageHash, parseShard, shardToHex, WHOLE_SHARD } from '../src/index.js';

const dest = new Address(0, Buffer.alloc(32, 9));
const body = beginCell().storeUint(0xdeadbeef, 32).storeStringTail('payload').endCell();

describe('normalizedExternalMessageHash', () => {
  it('ignores the import fee, the state init and how the body is stored', () => {
    const plain = beginCell()
      .store(storeMessage(external({ to: dest, body })))
      .endCell();
    const withInit = beginCell()
      .store(
        storeMessage({
          info: { type: 'external-in', dest, importFee: 123n },
          init: { code: beginCell().storeUint(1, 8).endCell(), data: beginCell().endCell() },
          body,
        }),
      )
      .endCell();
    expect(plain.hash().equals(withInit.hash())).toBe(false);
    expect(normalizedExternalMessageHash(plain).equals(normalizedExternalMessageHash(withInit))).toBe(true);
    // The normalized form itself is a message whose plain hash is the normalized hash.
    const normalized = beginCell()
      .store(storeMessage({ info: { type: 'external-in', dest, importFee: 0n }, body }, { forceRef: true }))
      .endCell();
    expect(normalizedExternalMessageHash(plain).equals(normalized.hash())).toBe(true);
    const otherBody = beginCell()
      .store(storeMessage(external({ to: dest, body: beginCell().storeUint(1, 1).endCell() })))
      .endCell();
    expect(normalizedExternalMessageHash(otherBody).equals(normalizedExternalMessageHash(plain))).toBe(false);
  });

  it('rejects internal messages', () => {
    const internalMsg = beginCell()
      .store(
        storeMessage({
          info: {
            type: 'internal',
            ihrDisabled: true,
            bounce: false,
            bounced: false,
            src: dest,
            dest,
            value: { coins: 1n },
            ihrFee: 0n,
            forwardFee: 0n,
            createdLt: 0n,
            createdAt: 0,
          },
          body,
        }),
      )
      .endCell();
    expect(() => normalizedExternalMessageHash(internalMsg)).toThrow(/external-in/);
  });
});

describe('TL helpers', () => {
  it('prefixes the block signing payload with the ton.blockId constructor', () => {
    const p = blockSigningPayload(Buffer.alloc(32, 1), Buffer.alloc(32, 2));
    expect(p.subarray(0, 4).toString('hex')).toBe('706e0bc5');
    expect(p).toHaveLength(68);
    expect(nodeIdShort(Buffer.alloc(32, 3))).toHaveLength(32);
    expect(() => blockSigningPayload(Buffer.alloc(31), Buffer.alloc(32))).toThrow();
  });
});

describe('shard codec', () => {
  it('round-trips the whole-workchain shard in its common spellings', () => {
    expect(shardToHex(WHOLE_SHARD)).toBe('8000000000000000');
    expect(parseShard('-9223372036854775808')).toBe(WHOLE_SHARD);
    expect(parseShard('9223372036854775808')).toBe(WHOLE_SHARD);
    expect(parseShard('0x8000000000000000')).toBe(WHOLE_SHARD);
    expect(parseShard('8000000000000000')).toBe(WHOLE_SHARD);
    expect(parseShard('c000000000000000')).toBe(BigInt.asIntN(64, 0xc000000000000000n));
    expect(() => parseShard('zz')).toThrow(/not a shard/);
    expect(() => parseShard('18446744073709551616')).toThrow(/range/);
  });
});
