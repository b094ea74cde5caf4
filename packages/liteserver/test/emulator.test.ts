/** The liteserver backend's emulator guard: a trap replaces the instance and the call runs once more on the new one. */
import { describe, expect, it } from 'vitest';
import { isChainError } from '@tongate/chain';
import { GuardedEmulator } from '../src/client/emulator.js';

describe('GuardedEmulator', () => {
  it('retries a trapped call once on a fresh instance', async () => {
    const emulator = new GuardedEmulator();
    const seen: unknown[] = [];
    const result = await emulator.run(async (executor) => {
      seen.push(executor);
      if (seen.length === 1) throw new RangeError('memory access out of bounds');
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(emulator.restarts).toBe(1);
    expect(seen[1]).not.toBe(seen[0]);
  });

  it("a call that traps twice is the input's fault (invalid), and the next caller gets a working instance", async () => {
    const emulator = new GuardedEmulator();
    const err = await emulator.run(async () => Promise.reject(new RangeError('memory access out of bounds'))).catch((e) => e);
    expect(isChainError(err) && err.kind).toBe('invalid');
    expect(emulator.restarts).toBe(2);
    expect(await emulator.run(async () => 7)).toBe(7);
  });

  it('ordinary errors pass through without a restart', async () => {
    const emulator = new GuardedEmulator();
    await expect(emulator.run(async () => Promise.reject(new Error('get-method failed')))).rejects.toThrow('get-method failed');
    expect(emulator.restarts).toBe(0);
  });
});
