import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { decode } from '@tongate/stubs';
import { detectAddress, detectHash, packAddress, unpackAddress } from '../src/address-forms.js';

// The operations get what the generated decoder makes of the parameter.
const input = (text: string) => decode.address('address', text);

const raw = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const address = Address.parseRaw(raw);

describe('utils conversions', () => {
  it('detectAddress on raw input', () => {
    const r = detectAddress(input(raw.toUpperCase()), false);
    expect(r['@type']).toBe('ext.utils.detectedAddress');
    expect(r.raw_form).toBe(raw);
    expect(r.given_type).toBe('raw_form');
    expect(r.test_only).toBe(false);
    expect(r.bounceable.b64url).toBe(address.toString({ urlSafe: true, bounceable: true }));
    expect(r.non_bounceable.b64).toBe(address.toString({ urlSafe: false, bounceable: false }));
    expect(r.bounceable['@type']).toBe('ext.utils.detectedAddressVariant');
  });

  it('detectAddress keeps the flags of friendly input', () => {
    const r = detectAddress(input(address.toString({ bounceable: false, testOnly: true })), false);
    expect(r.given_type).toBe('friendly_non_bounceable');
    expect(r.test_only).toBe(true);
    expect(Address.parseFriendly(r.bounceable.b64).isTestOnly).toBe(true);
  });

  it('packAddress: url-safe, raw input bounceable, testnet flag from the network', () => {
    expect(packAddress(input(raw), false)).toBe(address.toString({ urlSafe: true, bounceable: true }));
    const testnet = Address.parseFriendly(packAddress(input(raw), true));
    expect(testnet.isTestOnly).toBe(true);
    expect(testnet.isBounceable).toBe(true);
    expect(packAddress(input(address.toString({ bounceable: false })), false)).toBe(address.toString({ urlSafe: true, bounceable: false }));
  });

  it('unpackAddress gives wc:HEX upper case for every form', () => {
    const expected = raw.toUpperCase().replace('0:', '0:');
    for (const form of [raw, address.toString(), address.toString({ bounceable: false, urlSafe: false })]) {
      expect(unpackAddress(input(form))).toBe(expected);
    }
  });

  it('detectHash gives padded b64, unpadded b64url and lowercase hex', () => {
    const bytes = Buffer.from('fb'.repeat(32), 'hex');
    const r = detectHash(decode.hash('hash', bytes.toString('hex').toUpperCase()));
    expect(r).toEqual({
      '@type': 'ext.utils.detectedHash',
      b64: bytes.toString('base64'),
      b64url: bytes.toString('base64url'),
      hex: 'fb'.repeat(32),
    });
    expect(r.b64).toHaveLength(44);
    expect(r.b64url).toHaveLength(43);
    expect(() => decode.hash('hash', 'nope')).toThrow(/hash: not a 32-byte hash/);
  });

  it('never wraps a workchain: int8 in friendly forms, outside it 422', () => {
    const hash = '6cc9f039a3e58facea446cbaa92c267ef451086b36780413f1fd191cff244287';
    // 0x80 in the workchain byte is -128; -128 packs to that same form and back.
    const detected = detectAddress(input('EYBsyfA5o-WPrOpEbLqpLCZ-9FEIazZ4BBPx_Rkc_yRChxGG'), false);
    expect(detected.raw_form).toBe(`-128:${hash}`);
    expect(packAddress(input(`-128:${hash}`), false)).toBe(detected.bounceable.b64url);
    expect(unpackAddress(input(detected.bounceable.b64url))).toBe(`-128:${hash.toUpperCase()}`);
    expect(detectAddress(input(`127:${hash}`), false).raw_form).toBe(`127:${hash}`);
    for (const wc of ['2147483647', '128', '-129', '99999999999']) {
      for (const fn of [
        (a: string) => detectAddress(input(a), false),
        (a: string) => packAddress(input(a), false),
        (a: string) => unpackAddress(input(a)),
      ]) {
        expect(() => fn(`${wc}:${hash}`)).toThrow(new RegExp(`workchain ${wc} is outside -128..127`));
      }
    }
  });
});
