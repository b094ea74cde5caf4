/**
 * The independent client: ton-lite-client 3.1.1, unchanged, against the liteserver served from a devnet over real
 * ADNL-TCP (handshake, AES-CTR framing, TL codecs from spec/): masterchain info, account state, a get-method, and a
 * wallet transfer sent through it that the devnet then applies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Address, beginCell, Cell, external, internal, parseTuple, SendMode, storeMessage, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { LiteClient, LiteSingleEngine } from 'ton-lite-client';
import { createDevnet, type Devnet } from '@tongate/devnet';
import { ChainLiteServer } from '../src/server/index.js';

let devnet: Devnet;
let server: ChainLiteServer;
let engine: LiteSingleEngine;
let client: LiteClient;

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  await devnet.produceBlock();
  server = new ChainLiteServer({ chain: devnet });
  const port = await server.listen(0);
  engine = new LiteSingleEngine({ host: `tcp://127.0.0.1:${port}`, publicKey: server.key.publicKey });
  client = new LiteClient({ engine });
  // The engine connects in the background and refuses queries until then.
  for (let i = 0; i < 100 && !engine.isReady(); i++) await new Promise((r) => setTimeout(r, 50));
});

async function faucetTransfer(seqno: number, messages: ReturnType<typeof internal>[]): Promise<Buffer> {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  const body = wallet.createTransfer({ seqno, secretKey: devnet.faucet.secretKey, messages, sendMode: SendMode.PAY_GAS_SEPARATELY });
  return beginCell()
    .store(storeMessage(external({ to: wallet.address, body })))
    .endCell()
    .toBoc();
}

afterAll(async () => {
  engine?.close();
  await server?.close();
  await devnet?.close();
});

describe('ton-lite-client against the devnet liteserver', () => {
  it('getMasterchainInfo: the devnet head and zero state', async () => {
    const info = await client.getMasterchainInfo();
    const ours = await devnet.getMasterchainInfo();
    expect(info.last.seqno).toBe(ours.last.seqno);
    expect(Buffer.from(info.last.rootHash)).toEqual(ours.last.rootHash);
    expect(Buffer.from(info.init.rootHash)).toEqual(ours.init.rootHash);
  });

  it('getAccountState: the faucet balance and last transaction pointer from the state proof', async () => {
    const info = await client.getMasterchainInfo();
    const state = await client.getAccountState(devnet.faucet.address, info.last);
    const ours = await devnet.getAccountState(devnet.faucet.address, info.last.seqno);
    expect(state.balance.coins).toBe(ours.balance);
    expect(state.state?.storage.state.type).toBe('active');
    const missing = await client.getAccountState(new Address(0, Buffer.alloc(32, 0x42)), info.last);
    expect(missing.state).toBeNull();
  });

  it('runMethod: seqno and get_public_key of the faucet wallet', async () => {
    const info = await client.getMasterchainInfo();
    const seqno = await client.runMethod(devnet.faucet.address, 'seqno', Buffer.alloc(0), info.last);
    expect(seqno.exitCode).toBe(0);
    const stack = parseTuple(Cell.fromBase64(seqno.result!));
    expect(stack[0]).toMatchObject({ type: 'int' });
    const key = await client.runMethod(devnet.faucet.address, 'get_public_key', Buffer.alloc(0), info.last);
    const pub = parseTuple(Cell.fromBase64(key.result!))[0] as { type: 'int'; value: bigint };
    expect(pub.value).toBe(BigInt('0x' + devnet.faucet.publicKey.toString('hex')));
  });

  it('sendMessage: a faucet transfer lands on the devnet', async () => {
    const info = await client.getMasterchainInfo();
    const seqnoRes = await client.runMethod(devnet.faucet.address, 'seqno', Buffer.alloc(0), info.last);
    const seqno = Number((parseTuple(Cell.fromBase64(seqnoRes.result!))[0] as { value: bigint }).value);
    const to = new Address(0, Buffer.alloc(32, 0x77));
    const boc = await faucetTransfer(seqno, [internal({ to, value: toNano('1.5'), bounce: false, body: beginCell().endCell() })]);
    const sent = await client.sendMessage(boc);
    expect(sent.status).toBe(1);
    await devnet.produceBlock();
    const after = await client.getMasterchainInfo();
    const state = await client.getAccountState(to, after.last);
    expect(state.balance.coins).toBe(toNano('1.5'));
  });

  it('a rejected message comes back as a liteserver error, not a hang', async () => {
    const info = await client.getMasterchainInfo();
    const seqnoRes = await client.runMethod(devnet.faucet.address, 'seqno', Buffer.alloc(0), info.last);
    const seqno = Number((parseTuple(Cell.fromBase64(seqnoRes.result!))[0] as { value: bigint }).value);
    const stale = await faucetTransfer(seqno + 5, [internal({ to: devnet.faucet.address, value: 1n })]);
    await expect(client.sendMessage(stale)).rejects.toThrow(/cannot apply external message/);
  });
});
