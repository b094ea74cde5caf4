/**
 * The v2-style operations of API v3 over real HTTP against the composed service (devnet → handlers → front door), on
 * both networks, with response validation on: an off-spec body turns into a 500, so each 200 is also a contract
 * check. Errors come in the v3 body `{error}` with the status docs/wire.md gives.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, Cell, internal, loadMessage, toNano, WalletContractV4 } from '@ton/ton';
import { signerFromSeed, walletTransferBoc, type Devnet } from '@tongate/devnet';
import type { Network } from '@tongate/server';
import { startTestGateway, type TestGateway } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

let service: TestGateway;
const keys = {} as Record<Network, string>;

beforeAll(async () => {
  service = await startTestGateway({ devnetBlockIntervalMs: 0 });
  keys.mainnet = await service.createKey('mainnet');
  keys.testnet = await service.createKey('testnet');
});

afterAll(async () => {
  await service?.close();
});

describe.each(['mainnet', 'testnet'] as const)('API v3 v2-style operations on %s', (network) => {
  let devnet: Devnet;
  let base: string;
  const get = async (path: string, params: Record<string, string>) => {
    const res = await fetch(`${base}/api/v3/${path}?${new URLSearchParams(params)}`, { headers: { 'X-API-Key': keys[network] } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}/api/v3/${path}`, {
      method: 'POST',
      headers: { 'X-API-Key': keys[network], 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const faucetSeqno = async () =>
    Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
  const transfer = async (to: Address, value: bigint, seqno?: number) => {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    return walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno ?? (await faucetSeqno()), [
      internal({ to, value, bounce: false, body: 'v3 legacy' }),
    ]);
  };

  beforeAll(() => {
    devnet = service.gateway.devnets[network]!;
    base = `http://127.0.0.1:${service.ports[network]}`;
  });

  it('addressInformation: an active account, an account that never existed, a bad address', async () => {
    const faucet = devnet.faucet.address.toString({ testOnly: network === 'testnet' });
    const active = await get('addressInformation', { address: faucet });
    expect(active.status).toBe(200);
    const state = await devnet.getAccountState(devnet.faucet.address);
    expect(active.body).toMatchObject({ balance: state.balance.toString(), status: 'active', frozen_hash: null, suspended: false });
    expect(Cell.fromBase64(active.body.code).hash()).toEqual(state.code!.hash());
    expect(Cell.fromBase64(active.body.data).hash()).toEqual(state.data!.hash());
    expect(active.body.last_transaction_lt).toBe((state.lastTransaction?.lt ?? 0n).toString());

    const nobody = new Address(0, Buffer.alloc(32, 0x5a));
    const missing = await get('addressInformation', { address: nobody.toRawString(), use_v2: 'false' });
    expect(missing.status).toBe(200);
    expect(missing.body).toMatchObject({ balance: '0', status: 'uninit', code: null, data: null, last_transaction_lt: '0' });

    const bad = await get('addressInformation', { address: 'not-an-address' });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toBe('address: not a valid TON address (raw 0:<64 hex> or 48-character user-friendly)');
    const unknown = await get('addressInformation', { address: faucet, colour: 'blue' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toBe('unknown query parameter: colour');
  });

  it('walletInformation: the faucet wallet, and 409 for an account that is not a wallet', async () => {
    const r = await get('walletInformation', { address: devnet.faucet.address.toRawString() });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ wallet_type: 'wallet v4 r2', seqno: await faucetSeqno(), wallet_id: 698983191, status: 'active' });
    const noAddress = await get('walletInformation', {});
    expect(noAddress.status).toBe(422);
    expect(noAddress.body.error).toMatch(/address/);
    const nobody = await get('walletInformation', { address: new Address(0, Buffer.alloc(32, 0x5b)).toRawString() });
    expect(nobody.status).toBe(409);
    expect(nobody.body).toEqual({ error: 'not a wallet' });
  });

  it('message: sends a transfer, returns its hash and normalized hash, and the transfer lands', async () => {
    const receiver = new Address(0, Buffer.alloc(32, network === 'mainnet' ? 0x61 : 0x62));
    const boc = await transfer(receiver, toNano('1.5'));
    const r = await post('message', { boc: boc.toString('base64') });
    expect(r.status).toBe(200);
    expect(r.body.message_hash).toBe(Cell.fromBoc(boc)[0]!.hash().toString('base64'));
    expect(r.body.message_hash_norm).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    await devnet.settle();
    const info = await get('addressInformation', { address: receiver.toRawString() });
    expect(info.body.balance).toBe(toNano('1.5').toString());

    // The same message again: the wallet refuses the old seqno (422 with the reason); garbage is a 422 too.
    const again = await post('message', { boc: boc.toString('base64') });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatch(/not accepted/);
    const garbage = await post('message', { boc: 'AAAA' });
    expect(garbage.status).toBe(422);
    const missing = await post('message', {});
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatch(/boc/);
    const mistyped = await post('message', { boc: 42 });
    expect(mistyped.status).toBe(422);
    expect(mistyped.body.error).toMatch(/boc/);
  });

  it('estimateFee: the fees of a transfer body, signature check skipped', async () => {
    const boc = await transfer(new Address(0, Buffer.alloc(32, 0x63)), toNano('0.1'));
    const body = loadMessageRelaxedBody(boc);
    const r = await post('estimateFee', {
      address: devnet.faucet.address.toString(),
      body: body.toBoc().toString('base64'),
      ignore_chksig: true,
    });
    expect(r.status).toBe(200);
    expect(r.body.source_fees.gas_fee).toBeGreaterThan(0);
    expect(r.body.source_fees.fwd_fee).toBeGreaterThan(0);
    expect(r.body.destination_fees).toEqual([]);
    const missing = await post('estimateFee', { address: devnet.faucet.address.toString() });
    expect(missing.status).toBe(422);
    expect(missing.body.error).toMatch(/body/);
    const badAddress = await post('estimateFee', { address: 'nope', body: body.toBoc().toString('base64') });
    expect(badAddress.status).toBe(422);
    expect(badAddress.body.error).toMatch(/address/);
  });

  it('runGetMethod: v3 stack entries in and out, exit codes, bad stacks', async () => {
    const address = devnet.faucet.address.toString();
    const seqno = await post('runGetMethod', { address, method: 'seqno', stack: [] });
    expect(seqno.status).toBe(200);
    expect(seqno.body).toMatchObject({ exit_code: 0, stack: [{ type: 'num', value: `0x${(await faucetSeqno()).toString(16)}` }] });
    expect(seqno.body.gas_used).toBeGreaterThan(0);

    // toncenter reads a null optional field as not given: no arguments.
    const nullStack = await post('runGetMethod', { address, method: 'seqno', stack: null });
    expect(nullStack.status).toBe(200);
    expect(nullStack.body.stack).toEqual(seqno.body.stack);

    const key = await post('runGetMethod', { address, method: 'get_public_key' });
    expect(BigInt(key.body.stack[0].value)).toBe(BigInt(`0x${devnet.faucet.publicKey.toString('hex')}`));

    // Two int arguments, decimal and hex: no plugin is installed.
    const plugin = await post('runGetMethod', {
      address,
      method: 'is_plugin_installed',
      stack: [
        { type: 'num', value: '0' },
        { type: 'num', value: '0x1234' },
      ],
    });
    expect(plugin.body).toMatchObject({ exit_code: 0, stack: [{ type: 'num', value: '0x0' }] });

    // A numeric method id (seqno's) and an unknown method: a non-zero exit code is still a 200.
    const byId = await post('runGetMethod', { address, method: 85143 });
    expect(byId.body.stack).toEqual(seqno.body.stack);
    const unknown = await post('runGetMethod', { address, method: 'no_such_method' });
    expect(unknown.status).toBe(200);
    expect(unknown.body.exit_code).not.toBe(0);

    const bad = await post('runGetMethod', { address, method: 'seqno', stack: [{ type: 'num', value: 'twelve' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/stack/);
    const noMethod = await post('runGetMethod', { address });
    expect(noMethod.status).toBe(422);
    expect(noMethod.body.error).toMatch(/method/);
    const badStackType = await post('runGetMethod', { address, method: 'seqno', stack: 'x' });
    expect(badStackType.status).toBe(422);
    expect(badStackType.body.error).toMatch(/stack/);
  });
});

/** The body of a signed external message, as estimateFee takes it. */
function loadMessageRelaxedBody(boc: Buffer): Cell {
  return loadMessage(Cell.fromBoc(boc)[0]!.beginParse()).body;
}
