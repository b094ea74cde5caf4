import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { crc16, friendlyFlags, parseFriendly } from '@tongate/stubs';
import { friendlyForms } from '../src/friendly-address.js';

// The table-driven codec must agree with @ton/core's reference implementation on every flag combination.
describe('friendly address codec', () => {
  const samples = Array.from({ length: 40 }, (_, i) => new Address(i % 2 === 0 ? 0 : -1, randomBytes(32)));

  it('encodes exactly as @ton/core does', () => {
    for (const address of samples) {
      for (const bounceable of [true, false]) {
        for (const testOnly of [true, false]) {
          const forms = friendlyForms(address.workChain, address.hash, bounceable, testOnly);
          expect(forms.b64).toBe(address.toString({ urlSafe: false, bounceable, testOnly }));
          expect(forms.b64url).toBe(address.toString({ urlSafe: true, bounceable, testOnly }));
        }
      }
    }
  });

  it('parses both alphabets back to the same address and flags', () => {
    for (const address of samples) {
      for (const urlSafe of [true, false]) {
        const text = address.toString({ urlSafe, bounceable: false, testOnly: true });
        const parsed = parseFriendly(text);
        const reference = Address.parseFriendly(text);
        expect(parsed).not.toBeNull();
        expect(parsed!.workChain).toBe(reference.address.workChain);
        expect(parsed!.hash.equals(reference.address.hash)).toBe(true);
        expect(friendlyFlags(parsed!)?.bounceable).toBe(reference.isBounceable);
        expect(friendlyFlags(parsed!)?.testOnly).toBe(reference.isTestOnly);
      }
    }
  });

  it('rejects a wrong checksum, an unknown tag and a wrong length', () => {
    const text = samples[0]!.toString();
    const last = text.at(-1) === 'A' ? 'B' : 'A';
    expect(parseFriendly(text.slice(0, -1) + last)).toBeNull();
    const bytes = Buffer.from(text, 'base64');
    bytes[0] = 0x22;
    const crc = crc16(bytes, 34);
    bytes[34] = crc >> 8;
    bytes[35] = crc & 0xff;
    expect(parseFriendly(bytes.toString('base64url'))).toBeNull();
    expect(parseFriendly(text.slice(1))).toBeNull();
  });
});
