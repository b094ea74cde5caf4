/**
 * The emulation operations' bounds on a real devnet: emulations past the per-network bound answer 429 at once
 * (none waits), the time bound stops a trace after its root and marks it incomplete, and so does the transaction
 * bound (emulateTraceWith, on the devnet's own runner).
 */
import { Address, Cell, internal, WalletContractV4 } from '@ton/ton';
import type { ChainSource, TraceEmulationOptions } from '@tongate/chain';
import { createDevnet, signerFromSeed, walletTransferBoc, type Devnet } from '@tongate/devnet';
import type { v3 } from '@tongate/sdk';
import { ApiError, type RequestContext } from '@tongate/stubs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulateOperations, unixSeconds } from '../src/emulate/operations.js';

let devnet: Devnet;
const ctx: RequestContext = { network: 'testnet', requestId: 'test', startedAt: 0, headers: {} };
/** A 200 reply's body. */
function ok(r: { status: number; body: unknown }): v3.EmulateTraceResponse {
  expect(r.status).toBe(200);
  return r.body as v3.EmulateTraceResponse;
}
const flags = { ignore_chksig: false, with_actions: true, include_code_data: false, include_address_book: false, include_metadata: false };

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
}, 120_000);
afterAll(async () => {
  await devnet?.close();
});

/** A faucet transfer to four accounts: a trace of five transactions. */
async function transferBoc(): Promise<string> {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
  const out = [1, 2, 3, 4].map((i) =>
    internal({ to: new Address(0, Buffer.alloc(32, i)), value: 1_000_000n, bounce: false, body: `to ${i}` }),
  );
  return (await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, out)).toString('base64');
}

/** The devnet, with emulateTrace held until `release` is called, or with its options rewritten. */
function wrapped(hold: Promise<void> | null, rewrite?: (opts: TraceEmulationOptions) => TraceEmulationOptions): ChainSource {
  return new Proxy(devnet, {
    get(target, prop, receiver) {
      if (prop === 'emulateTrace') {
        return async (message: Cell, opts: TraceEmulationOptions = {}) => {
          await hold;
          return target.emulateTrace(message, rewrite ? rewrite(opts) : opts);
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as ChainSource;
}

describe('emulation bounds', () => {
  it('past the concurrent bound a request answers 429 at once; the held ones then finish', async () => {
    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    const ops = emulateOperations({ chain: wrapped(hold), testnet: true, concurrency: 2 });
    const boc = await transferBoc();
    const held = [ops.emulateTrace({ body: { boc, ...flags }, ctx }), ops.emulateTrace({ body: { boc, ...flags }, ctx })];
    await new Promise((r) => setTimeout(r, 50));
    const refused = await ops.emulateTrace({ body: { boc, ...flags }, ctx }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(429);
    release();
    for (const r of await Promise.all(held)) {
      const body = ok(r);
      expect(Object.keys(body.transactions)).toHaveLength(5);
      expect(body.is_incomplete).toBe(false);
      expect(body.actions.filter((a) => a.type === 'ton_transfer')).toHaveLength(4);
    }
    // And the bound is free again.
    expect((await ops.emulateTrace({ body: { boc, ...flags }, ctx })).status).toBe(200);
  });

  it('the time bound stops the trace after its root, and says it is incomplete', async () => {
    const ops = emulateOperations({ chain: devnet, testnet: true, timeMs: -1 });
    const body = ok(await ops.emulateTrace({ body: { boc: await transferBoc(), ...flags }, ctx }));
    expect(Object.keys(body.transactions)).toHaveLength(1);
    expect(body.trace.children).toEqual([]);
    expect(body.is_incomplete).toBe(true);
  });

  it('the transaction bound does the same', async () => {
    const ops = emulateOperations({ chain: wrapped(null, (o) => ({ ...o, maxTransactions: 3 })), testnet: true });
    const body = ok(await ops.emulateTrace({ body: { boc: await transferBoc(), ...flags }, ctx }));
    expect(Object.keys(body.transactions)).toHaveLength(3);
    expect(body.is_incomplete).toBe(true);
  });

  it('reads valid_until in seconds, milli-, micro- or nanoseconds', () => {
    for (const v of [1_800_000_000n, 1_800_000_000_000n, 1_800_000_000_000_000n, 1_800_000_000_000_000_000n])
      expect(unixSeconds(v)).toBe(1_800_000_000);
  });
});
