/**
 * Which addresses are public unicast. Besides the table of the special-purpose registries' boundaries, every
 * address that ipaddr.js (the classifier express itself uses, written independently of this one) puts in a special
 * range must be refused here too, in both families and in IPv4-mapped form.
 */
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { parseCidr, refusalReason } from '../src/index.js';

const refused = (a: string) => refusalReason(a) !== null;

describe('refusalReason', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.5',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.255.254',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.88.99.1',
    '192.168.1.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '::127.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:169.254.169.254',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1',
    '100::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fec0::1',
    'ff02::1',
    '2001:db8::1',
    '2001::1',
    '2002:7f00:1::1',
    '3fff::1',
    'fe80::1%eth0',
  ])('refuses %s', (address) => {
    expect(refusalReason(address)).toMatch(/./);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450::1',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows %s', (address) => {
    expect(refusalReason(address)).toBeNull();
  });

  it('says why, naming the embedded address', () => {
    expect(refusalReason('127.0.0.1')).toBe('127.0.0.1 is loopback');
    expect(refusalReason('::ffff:10.1.2.3')).toBe('::ffff:10.1.2.3 embeds 10.1.2.3 is private (RFC 1918)');
    expect(refusalReason('example.com')).toBe('example.com is not an IP address');
  });

  it('refuses every address ipaddr.js puts in a special range, in both families and IPv4-mapped', () => {
    let seed = 0x2545f491;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0), seed);
    const v4: string[] = [];
    for (let i = 0; i < 20_000; i++) v4.push([rand() >>> 24, rand() >>> 24, rand() >>> 24, rand() >>> 24].join('.'));
    // Boundaries of every range ipaddr.js knows, and one address on each side.
    for (const [, ranges] of Object.entries(
      (ipaddr.IPv4.prototype as unknown as { SpecialRanges: Record<string, unknown> }).SpecialRanges,
    )) {
      for (const [base, bits] of ranges as Array<[ipaddr.IPv4, number]>) {
        const start = base.toByteArray().reduce((a, b) => a * 256 + b, 0);
        const end = start + 2 ** (32 - bits) - 1;
        for (const n of [start - 1, start, end, end + 1])
          if (n >= 0 && n < 2 ** 32) v4.push([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
      }
    }
    let special = 0;
    for (const a of v4) {
      if (ipaddr.parse(a).range() === 'unicast') continue;
      special++;
      expect(refused(a), a).toBe(true);
      expect(refused(`::ffff:${a}`), `::ffff:${a}`).toBe(true);
    }
    expect(special).toBeGreaterThan(1000);
    const v6: string[] = ['::', '::1', 'fe80::abcd', 'ff05::2', 'fc01::1', '::ffff:1.2.3.4', '2001:db8:1::1', '2001:0:4136:e378::1'];
    for (let i = 0; i < 20_000; i++) v6.push(Array.from({ length: 8 }, () => (rand() >>> 16).toString(16)).join(':'));
    for (const a of v6) {
      const range = ipaddr.parse(a).range();
      if (range === 'unicast' || (range === 'ipv4Mapped' && !refused((ipaddr.parse(a) as ipaddr.IPv6).toIPv4Address().toString())))
        continue;
      expect(refused(a), `${a} (${range})`).toBe(true);
    }
  });
});

describe('parseCidr', () => {
  it('reads blocks and bare addresses of both families', () => {
    expect(parseCidr('10.0.0.0/8')).toMatchObject({ prefix: 8 });
    expect(parseCidr('192.168.1.7')).toMatchObject({ prefix: 32 });
    expect(parseCidr('fd00::/8')).toMatchObject({ prefix: 8 });
    expect(parseCidr('::1')).toMatchObject({ prefix: 128 });
  });
  it.each(['10.0.0.0/33', '10.0.0/8', 'fd00::/129', 'example.com/8', '10.0.0.0/8/1', '1.2.3.4/x', ''])('rejects %j', (text) => {
    expect(() => parseCidr(text)).toThrow(/not an IP address or CIDR block/);
  });
});
