// The generated input boundary: each parameter kind decodes to its type with the spec's defaults, bad values get a
// 422 naming the parameter in words, and optional body fields take JSON null as "not given".
import { Address } from '@ton/core';
import { ApiError, decode, friendlyFlags, patternTexts, queryToken, v2Decoders, v3Decoders, type RequestContext } from '@tongate/stubs';
import { describe, expect, it } from 'vitest';

const ctx: RequestContext = { network: 'mainnet', requestId: 't', startedAt: 0 };
const raw = '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8';
const address = Address.parseRaw(raw);

function refusal(fn: () => unknown): { status: number; message: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return { status: (e as ApiError).status, message: (e as ApiError).message };
  }
  throw new Error('expected an ApiError');
}

describe('address kind', () => {
  it('accepts raw in any case and every friendly form, remembering the friendly flags', () => {
    for (const text of [
      raw,
      raw.toUpperCase(),
      address.toString({ urlSafe: false, bounceable: false }),
      address.toString({ testOnly: true }),
    ]) {
      expect(decode.address('address', text).equals(address)).toBe(true);
    }
    expect(friendlyFlags(decode.address('address', raw))).toBeNull();
    expect(friendlyFlags(decode.address('address', address.toString({ bounceable: false, testOnly: true })))).toEqual({
      bounceable: false,
      testOnly: true,
    });
  });

  it('refuses with words naming the parameter: malformed, wrong checksum, workchain outside int8', () => {
    expect(refusal(() => decode.address('source', 'hello'))).toEqual({
      status: 422,
      message: 'source: not a valid TON address (raw 0:<64 hex> or 48-character user-friendly)',
    });
    const friendly = address.toString({ urlSafe: true });
    const broken = friendly.slice(0, 40) + (friendly[40] === 'A' ? 'B' : 'A') + friendly.slice(41);
    expect(refusal(() => decode.address('address', broken)).message).toMatch(
      /^address: .* not a valid user-friendly TON address \(wrong checksum or tag\)$/,
    );
    expect(refusal(() => decode.address('address', `300:${'ab'.repeat(32)}`)).message).toBe(
      'address: workchain 300 is outside -128..127, the range of a standard TON address',
    );
  });

  it('reads an unencoded + that arrived as a space', () => {
    const friendly = 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N';
    expect(decode.address('address', `${friendly}\n`).toString()).toBe(friendly);
    const hash = Buffer.from('fbfb5f87e4fe0de77c32cc33d7a14fe26da28e0bd83f8a4d7e12fc8cc3d2c6fb', 'hex');
    expect(decode.hash('hash', hash.toString('base64').replace(/\+/g, ' '))).toEqual(hash);
    expect(queryToken(' a b ')).toBe('+a+b+');
  });
});

describe('other kinds', () => {
  it('hashes: hex (optional 0x) and base64 / base64url, padded or not', () => {
    const hash = Buffer.alloc(32, 0xab);
    for (const text of [
      'ab'.repeat(32),
      `0x${'AB'.repeat(32)}`,
      hash.toString('base64'),
      hash.toString('base64url'),
      hash.toString('base64').replace(/=$/, ''),
    ]) {
      expect(decode.hash('hash', text)).toEqual(hash);
    }
    expect(refusal(() => decode.hash('root_hash', 'zz')).message).toMatch(/^root_hash: not a 32-byte hash/);
  });

  it('64-bit integers without precision loss, their range checked', () => {
    expect(decode.int64('shard', '-9223372036854775808')).toBe(-(2n ** 63n));
    expect(refusal(() => decode.int64('lt', '9223372036854775808')).message).toBe('lt: out of the 64-bit range');
    expect(decode.shard('shard', '8000000000000000')).toBe(-(2n ** 63n));
    expect(decode.shard('shard', '0x8000000000000000')).toBe(-(2n ** 63n));
  });

  it('32-bit integers: what coercion lets through that no integer column takes is refused', () => {
    expect(decode.int32('limit', '5')).toBe(5);
    expect(refusal(() => decode.int32('limit', Infinity)).message).toBe('limit: not a 32-bit integer');
    expect(refusal(() => decode.int32('seqno', 2 ** 31)).message).toBe('seqno: not a 32-bit integer');
  });

  it('opcodes and lists', () => {
    expect(decode.opcode('opcode', '0xffffffff')).toBe(-1);
    expect(decode.opcode('opcode', '7362d09c')).toBe(0x7362d09c);
    expect(decode.addressList('account', [`${raw},${raw.toUpperCase()}`, raw])).toHaveLength(3);
    expect(decode.stringList('action_type', ['a,b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(decode.addressOrNull('source', 'null')).toBeNull();
  });
});

describe('generated decoders', () => {
  it('v2 getTransactions: typed fields and the spec default for limit', () => {
    const input = v2Decoders.getTransactions({ query: { address: raw, lt: '5', hash: 'ab'.repeat(32) } }, ctx);
    expect(input.ctx).toBe(ctx);
    expect(input.query.address.equals(address)).toBe(true);
    expect(input.query.lt).toBe(5n);
    expect(input.query.hash).toEqual(Buffer.alloc(32, 0xab));
    expect(input.query.limit).toBe(10);
    expect(input.query.to_lt).toBe(0n); // the spec's default
  });

  it('v3 runGetMethod: an optional body field given as null is absent, and takes its default', () => {
    const input = v3Decoders.runGetMethod({ body: { address: raw, method: 'seqno', stack: null } }, ctx);
    expect(input.body.stack).toEqual([]);
    expect(input.body.method).toBe('seqno');
  });

  it('v3 lists: defaults for limit, offset and sort; addresses and hashes decoded', () => {
    const input = v3Decoders.getTransactions({ query: { account: [raw], hash: 'ab'.repeat(32) } }, ctx);
    expect(input.query).toMatchObject({ limit: 10, offset: 0, sort: 'desc' });
    expect(input.query.account?.[0]?.equals(address)).toBe(true);
    expect(input.query.hash).toEqual(Buffer.alloc(32, 0xab));
  });

  it('every spec pattern a kind stands for has words for its failure', () => {
    expect(patternTexts.size).toBeGreaterThan(5);
    for (const text of patternTexts.values()) expect(text).toMatch(/^not|^neither/);
  });
});
