import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api-error.js';
import { optionalHash, optionalInt64, optionalSeqno, parseAddress, parseBoc, tryParseHash } from '../src/parse.js';

const raw = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const address = Address.parseRaw(raw);

function rejects(fn: () => unknown, status: number, text: RegExp) {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).status).toBe(status);
    expect((e as ApiError).message).toMatch(text);
    return;
  }
  throw new Error('expected an ApiError');
}

describe('address parameters', () => {
  it('accepts raw in any case and every friendly form', () => {
    for (const text of [
      raw,
      raw.toUpperCase(),
      address.toString({ urlSafe: true, bounceable: true }),
      address.toString({ urlSafe: false, bounceable: false }),
      address.toString({ urlSafe: true, bounceable: false, testOnly: true }),
    ]) {
      expect(parseAddress({ address: text }, 'address').equals(address)).toBe(true);
    }
  });

  it('rejects a missing, malformed or checksum-broken address with 422 naming the parameter', () => {
    rejects(() => parseAddress({}, 'address'), 422, /address is required/);
    rejects(() => parseAddress({ source: 'hello' }, 'source'), 422, /invalid source/);
    const friendly = address.toString({ urlSafe: true });
    const broken = friendly.slice(0, 40) + (friendly[40] === 'A' ? 'B' : 'A') + friendly.slice(41);
    rejects(() => parseAddress({ address: broken }, 'address'), 422, /invalid address/);
    rejects(() => parseAddress({ address: '0:1234' }, 'address'), 422, /invalid address/);
  });
});

describe('hash parameters', () => {
  const hash = Buffer.from('a'.repeat(64), 'hex');
  it('accepts hex (optional 0x, any case) and base64 / base64url, padded or not', () => {
    for (const text of ['a'.repeat(64), `0x${'A'.repeat(64)}`, hash.toString('base64'), hash.toString('base64url'), hash.toString('base64').replace(/=$/, '')]) {
      expect(tryParseHash(text)).toEqual(hash);
    }
  });
  it('rejects anything else with 422 naming the parameter', () => {
    expect(tryParseHash('abc')).toBeNull();
    expect(tryParseHash('a'.repeat(63))).toBeNull();
    rejects(() => optionalHash({ root_hash: 'zz' }, 'root_hash'), 422, /invalid root_hash/);
    expect(optionalHash({}, 'root_hash')).toBeUndefined();
  });
});

describe('integer parameters', () => {
  it('reads int64 strings without precision loss and rejects garbage', () => {
    expect(optionalInt64({ shard: '-9223372036854775808' }, 'shard')).toBe(-(2n ** 63n));
    rejects(() => optionalInt64({ lt: '12a' }, 'lt'), 422, /invalid lt/);
    rejects(() => optionalInt64({ lt: '9223372036854775808' }, 'lt'), 422, /invalid lt/);
  });
  it('seqno must be positive', () => {
    expect(optionalSeqno({ seqno: 5 })).toBe(5);
    rejects(() => optionalSeqno({ seqno: '0' }), 422, /seqno should be positive/);
  });
  it('bags of cells must be valid base64 with one root', () => {
    rejects(() => parseBoc('boc', '!!!'), 422, /invalid boc/);
    rejects(() => parseBoc('boc', 'AAAA'), 422, /invalid boc/);
    rejects(() => parseBoc('boc', ''), 422, /boc is required/);
  });
});

describe('unencoded + in query strings', () => {
  it('reads a space as + in addresses and hashes (a trailing + included)', async () => {
    const { queryToken, tryParseHash, parseAddress } = await import('../src/parse.js');
    const hash = Buffer.from('fbfb5f87e4fe0de77c32cc33d7a14fe26da28e0bd83f8a4d7e12fc8cc3d2c6fb', 'hex');
    const b64 = hash.toString('base64'); // contains '+' and ends in '='
    expect(b64).toContain('+');
    expect(tryParseHash(queryToken(b64.replace(/\+/g, ' ')))).toEqual(hash);
    const unpadded = b64.replace(/=$/, '');
    expect(tryParseHash(queryToken(unpadded.replace(/\+/g, ' ')))).toEqual(hash);
    const friendly = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
    expect(parseAddress({ address: `${friendly}\n` }, 'address').toString()).toBe(friendly);
  });
});
