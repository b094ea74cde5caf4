import { sha256_sync } from '@ton/crypto';
import { beginCell, type Cell, Dictionary } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { parseTokenContent } from '../src/token-content.js';

function snake(bytes: Buffer): Cell {
  // 0x00 prefix, then 100 bytes per cell chained through the first reference.
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += 100) chunks.push(bytes.subarray(i, i + 100));
  let tail: Cell | null = null;
  for (let i = chunks.length - 1; i >= 1; i--) {
    const b = beginCell().storeBuffer(chunks[i]!);
    if (tail) b.storeRef(tail);
    tail = b.endCell();
  }
  const head = beginCell()
    .storeUint(0, 8)
    .storeBuffer(chunks[0] ?? Buffer.alloc(0));
  if (tail) head.storeRef(tail);
  return head.endCell();
}

function chunked(parts: Buffer[]): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
  parts.forEach((p, i) => dict.set(i, beginCell().storeBuffer(p).endCell()));
  return beginCell().storeUint(1, 8).storeDict(dict).endCell();
}

function onchain(entries: Record<string, Cell>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [k, v] of Object.entries(entries)) dict.set(Buffer.from(sha256_sync(k)), v);
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

describe('TEP-64 token content', () => {
  it('off-chain: the URI', () => {
    const cell = beginCell().storeUint(1, 8).storeStringTail('https://example.org/meta.json').endCell();
    expect(parseTokenContent(cell)).toEqual({ type: 'offchain', data: 'https://example.org/meta.json' });
  });

  it('on-chain: snake and chunked values, image_data as base64, unknown keys ignored', () => {
    const description = 'ü'.repeat(150);
    const cell = onchain({
      name: snake(Buffer.from('Test Jetton')),
      symbol: chunked([Buffer.from('TE'), Buffer.from('ST')]),
      description: snake(Buffer.from(description)),
      decimals: snake(Buffer.from('9')),
      image_data: snake(Buffer.from([0xff, 0x00, 0x01])),
      something_else: snake(Buffer.from('x')),
    });
    expect(parseTokenContent(cell)).toEqual({
      type: 'onchain',
      data: { name: 'Test Jetton', symbol: 'TEST', description, decimals: '9', image_data: Buffer.from([0xff, 0, 1]).toString('base64') },
    });
  });

  it('non-UTF-8 text values are skipped; unknown layouts throw', () => {
    expect(parseTokenContent(onchain({ name: snake(Buffer.from([0xc3, 0x28])) }))).toEqual({ type: 'onchain', data: {} });
    expect(() => parseTokenContent(beginCell().storeUint(0x30, 8).endCell())).toThrow(/layout/);
  });
});
