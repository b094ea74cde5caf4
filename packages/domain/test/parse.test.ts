import { describe, expect, it } from 'vitest';
import { ApiError } from '@tongate/stubs';
import { parseBoc } from '../src/parse.js';

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

// Addresses, hashes and integers are decoded before the handlers run (tools/test/decoders.test.ts); what is left
// to the handlers is what the spec cannot say, such as a base64 text being a bag of cells.
describe('bag-of-cells parameters', () => {
  it('must be valid base64 with one root', () => {
    rejects(() => parseBoc('boc', '!!!'), 422, /boc: not valid base64/);
    rejects(() => parseBoc('boc', 'AAAA'), 422, /boc: not a bag of cells/);
    rejects(() => parseBoc('boc', ''), 422, /boc is required/);
  });
});
