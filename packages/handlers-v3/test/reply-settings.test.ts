import { SerializedJson, type RequestContext } from '@tongate/stubs';
import { describe, expect, it } from 'vitest';
import { withDeadline } from '../src/indexed/index.js';
import { applyReplySettings, MAX_X_TIMEOUT_MS, replySettings, requestTimeoutMs } from '../src/reply-settings.js';

const ctx = (headers: Record<string, string>): RequestContext => ({ network: 'mainnet', requestId: 't', startedAt: 0, headers });

describe('the hosted reply headers', () => {
  it('X-Timeout: milliseconds, capped at the hosted 3000 and at the service read timeout; refused in words', () => {
    expect(requestTimeoutMs(ctx({}), 5000)).toBeUndefined();
    expect(requestTimeoutMs(ctx({ 'x-timeout': '250' }), 5000)).toBe(250);
    expect(requestTimeoutMs(ctx({ 'x-timeout': '600000' }), 5000)).toBe(MAX_X_TIMEOUT_MS);
    expect(requestTimeoutMs(ctx({ 'x-timeout': '2500' }), 1000)).toBe(1000);
    // As the validator leaves it after coercing `1e3` and `1e400` to numbers.
    expect(requestTimeoutMs({ ...ctx({}), headers: { 'x-timeout': 1000 as unknown as string } }, 5000)).toBe(1000);
    expect(() => requestTimeoutMs({ ...ctx({}), headers: { 'x-timeout': Infinity as unknown as string } }, 5000)).toThrow(
      expect.objectContaining({ status: 422 }),
    );
    for (const bad of ['0', '-1', '1.5', 'soon', '99999999999']) {
      expect(() => requestTimeoutMs(ctx({ 'x-timeout': bad }), 5000)).toThrow(
        expect.objectContaining({ status: 422, message: expect.stringContaining('X-Timeout') }),
      );
    }
  });

  it('X-No-Address-Book / X-No-Metadata read as strconv.ParseBool reads them, and drop only their object', () => {
    expect(replySettings(ctx({ 'x-no-address-book': 'True', 'x-no-metadata': '0' }))).toEqual({ noAddressBook: true, noMetadata: false });
    expect(() => replySettings(ctx({ 'x-no-metadata': 'yes' }))).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringContaining('X-No-Metadata') }),
    );
    const reply = { status: 200, body: { items: [1], address_book: { a: 1 }, metadata: { b: 2 } } };
    expect(applyReplySettings(reply, { noAddressBook: true, noMetadata: false })).toEqual({
      status: 200,
      body: { items: [1], metadata: { b: 2 } },
    });
    expect(applyReplySettings(reply, { noAddressBook: false, noMetadata: true })).toEqual({
      status: 200,
      body: { items: [1], address_book: { a: 1 } },
    });
    expect(applyReplySettings(reply, { noAddressBook: false, noMetadata: false })).toBe(reply);
    // A body already serialized to JSON text is read back to drop the object.
    const text = { status: 200, body: SerializedJson.as<object>('{"transactions":[],"address_book":{"x":{}}}') };
    expect(applyReplySettings(text, { noAddressBook: true, noMetadata: false }).body).toEqual({ transactions: [] });
  });

  it('a read past its X-Timeout answers 504 at the deadline; one within it answers as it would', async () => {
    const slow = new Promise((resolve) => setTimeout(() => resolve('late'), 300));
    const started = Date.now();
    await expect(withDeadline(slow, 50)).rejects.toMatchObject({ status: 504, message: expect.stringContaining('X-Timeout') });
    expect(Date.now() - started).toBeLessThan(250);
    await expect(withDeadline(Promise.resolve('soon'), 50)).resolves.toBe('soon');
  });
});
