import { beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES, parseBody, parseOpcode } from '../src/decode.js';

describe('decode input', () => {
  it('reads opcodes as 0x-hex, decimal (when all digits), bare hex, and negative int32', () => {
    expect(parseOpcode('o', '0x0F8A7EA5')).toBe(0x0f8a7ea5);
    expect(parseOpcode('o', '0f8a7ea5')).toBe(0x0f8a7ea5);
    expect(parseOpcode('o', '12345')).toBe(12345);
    expect(parseOpcode('o', '-1')).toBe(0xffffffff);
    expect(parseOpcode('o', '-2147483648')).toBe(0x80000000);
    expect(parseOpcode('o', '4294967295')).toBe(0xffffffff);
    for (const bad of ['', '0x', '0x123456789', '4294967296', '-2147483649', 'jetton', '1.5', '0x-1']) {
      expect(() => parseOpcode('opcodes[2]', bad)).toThrow(`invalid opcodes[2]: '${bad}' is not a 32-bit opcode`);
    }
  });

  it('reads bodies as hex or base64 BOCs, one root, bounded in size', () => {
    const cell = beginCell().storeUint(0, 32).storeStringTail('hi').endCell();
    const boc = cell.toBoc();
    for (const text of [boc.toString('base64'), boc.toString('base64url'), boc.toString('hex'), '0x' + boc.toString('hex').toUpperCase()]) {
      expect(parseBody('b', text).hash()).toEqual(cell.hash());
    }
    expect(() => parseBody('bodies[0]', '')).toThrow('invalid bodies[0]: empty');
    expect(() => parseBody('bodies[0]', 'b5ee9c72')).toThrow(/^invalid bodies\[0\]: not a bag of cells/);
    expect(() => parseBody('bodies[0]', 'a'.repeat(MAX_BODY_BYTES * 2 + 4))).toThrow(
      `invalid bodies[0]: larger than ${MAX_BODY_BYTES} bytes`,
    );
  });
});
