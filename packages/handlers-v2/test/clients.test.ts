import { jsonRpcMethods } from '@tongate/stubs';
import { signerFromSeed, walletTransferBoc } from '@tongate/devnet';
import { Address, beginCell, internal, toNano } from '@ton/core';
import { TonClient, WalletContractV4 } from '@ton/ton';
import TonWeb from 'tonweb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { seededDevnet } from './devnet-fixture.js';
import { makeCtx } from './harness.js';

/**
 * The two common v2 clients parse the handlers' results: TonClient validates with zod and throws
 * "Malformed response" on any shape it does not accept; tonweb rejects falsy results. JSON-RPC is dispatched
 * onto the handlers in-process, the way the front door does (method → operation, params as query or body).
 */

// tonweb is CommonJS typed as an ES default export: under NodeNext the runtime default is the class itself.
const HttpProvider = (TonWeb as unknown as { HttpProvider: typeof TonWeb.default.HttpProvider }).HttpProvider;

const { ops, devnet, seed } = await seededDevnet();
afterAll(() => devnet.close());

async function jsonRpc(raw: string): Promise<{ status: number; body: unknown }> {
  const request = JSON.parse(raw) as { id: unknown; method: string; params?: Record<string, unknown> };
  const method = jsonRpcMethods[request.method];
  if (!method) return { status: 422, body: { ok: false, error: `Unknown method: ${request.method}`, code: 422 } };
  // JSON drops undefined; clients may send explicit nulls for absent optional params.
  const params = Object.fromEntries(Object.entries(request.params ?? {}).filter(([, v]) => v !== undefined && v !== null));
  const input = method.in === 'query' ? { query: params, ctx: makeCtx() } : { body: params, ctx: makeCtx() };
  try {
    const reply = await ops[method.operationId]!(input);
    return { status: 200, body: { ...(reply.body as object), jsonrpc: '2.0', id: request.id } };
  } catch (e) {
    const status = (e as { status?: number }).status ?? 500;
    return { status, body: { ok: false, error: (e as Error).message, code: status, jsonrpc: '2.0', id: request.id } };
  }
}

const client = new TonClient({
  endpoint: 'http://tongate.test/api/v2/jsonRPC',
  httpAdapter: async (config) => {
    const { status, body } = await jsonRpc(config.data as string);
    // TonClient reads .data and .status; the rest satisfies axios' response type.
    return { data: JSON.parse(JSON.stringify(body)), status, statusText: String(status), headers: {}, config } as never;
  },
});

const aliceSeed = seed.wallets.find((w) => w.version === 'v4r2')!;
const signer = signerFromSeed(Buffer.from(aliceSeed.secretSeedHex, 'hex'));
const alice = WalletContractV4.create({ workchain: 0, publicKey: signer.publicKey });

describe('@ton/ton TonClient accepts the results', () => {
  it('account state, balance, deployment', async () => {
    expect(await client.getBalance(alice.address)).toBeGreaterThan(0n);
    const state = await client.getContractState(alice.address);
    expect(state.state).toBe('active');
    expect(state.code).toBeInstanceOf(Buffer);
    expect(state.lastTransaction?.lt).toBeDefined();
    const nobody = new Address(0, Buffer.alloc(32, 0x44));
    expect((await client.getContractState(nobody)).state).toBe('uninitialized');
    expect(await client.isContractDeployed(nobody)).toBe(false);
  });

  it('transactions: list, single lookup, paging, tryLocate*', async () => {
    const txs = await client.getTransactions(alice.address, { limit: 20 });
    expect(txs.length).toBeGreaterThan(2);
    const one = await client.getTransaction(alice.address, txs[1]!.lt.toString(), txs[1]!.hash().toString('base64'));
    expect(one?.lt).toBe(txs[1]!.lt);
    const older = await client.getTransactions(alice.address, {
      limit: 5,
      lt: txs[0]!.lt.toString(),
      hash: txs[0]!.hash().toString('base64'),
    });
    expect(older[0]!.lt).toBe(txs[1]!.lt);
    const welcome = txs[txs.length - 1]!;
    const info = welcome.inMessage!.info;
    if (info.type !== 'internal') throw new Error('expected an internal welcome transfer');
    const located = await client.tryLocateResultTx(info.src, info.dest, info.createdLt.toString());
    expect(located.lt).toBe(welcome.lt);
    const source = await client.tryLocateSourceTx(info.src, info.dest, info.createdLt.toString());
    expect(source.address.toString(16).padStart(64, '0')).toBe(info.src.hash.toString('hex'));
  });

  it('get-methods through the contract provider', async () => {
    const opened = client.open(alice);
    expect(await opened.getSeqno()).toBeGreaterThan(0);
    const res = await client.runMethod(seed.jetton.minter, 'get_wallet_address', [
      { type: 'slice', cell: beginCell().storeAddress(alice.address).endCell() },
    ]);
    expect(res.stack.readAddress()).toBeInstanceOf(Address);
  });

  it('masterchain info, shards and shard transactions', async () => {
    const info = await client.getMasterchainInfo();
    expect(info.latestSeqno).toBeGreaterThan(1);
    const shards = await client.getWorkchainShards(info.latestSeqno);
    expect(shards[0]!.workchain).toBe(0);
    const txs = await client.getShardTransactions(shards[0]!.workchain, shards[0]!.seqno, shards[0]!.shard);
    expect(Array.isArray(txs)).toBe(true);
  });

  it('fee estimate and sending a transfer', async () => {
    const seqno = await client.open(alice).getSeqno();
    const body = alice.createTransfer({ seqno, secretKey: Buffer.alloc(64), messages: [internal({ to: alice.address, value: 1n })] });
    const fees = await client.estimateExternalMessageFee(alice.address, { body, initCode: null, initData: null, ignoreSignature: true });
    expect(fees.source_fees.gas_fee).toBeGreaterThan(0);
    const boc = await walletTransferBoc(alice, signer, seqno, [internal({ to: alice.address, value: toNano('0.01') })]);
    await client.sendFile(boc);
    await devnet.produceBlock();
    expect(await client.open(alice).getSeqno()).toBe(seqno + 1);
  });
});

describe('tonweb HttpProvider accepts the results', () => {
  const provider = new HttpProvider('http://tongate.test/api/v2/jsonRPC');
  const fetchStub = vi.fn(async (_url: string, init: { body: string }) => {
    const { body } = await jsonRpc(init.body);
    return { json: async () => JSON.parse(JSON.stringify(body)) };
  });
  vi.stubGlobal('fetch', fetchStub);
  afterAll(() => vi.unstubAllGlobals());

  it('balances and address info are truthy even for an empty account', async () => {
    expect(await provider.getBalance(new Address(0, Buffer.alloc(32, 0x45)).toString())).toBe('0');
    const info = await provider.getAddressInfo(alice.address.toString());
    expect(info.state).toBe('active');
    const wallet = await provider.getWalletInfo(alice.address.toString());
    expect(wallet.wallet_type).toBe('wallet v4 r2');
  });

  it('call2 on a raw address, config param, block header and block transactions', async () => {
    const seqno = await provider.call2(alice.address.toRawString(), 'seqno');
    expect(Number(seqno.toString())).toBeGreaterThan(0);
    // Missing from tonweb's typings, present at runtime.
    const config = await (provider as unknown as { getConfigParam(id: number): Promise<{ hash(): Promise<Uint8Array> }> }).getConfigParam(
      34,
    );
    expect((await config.hash()).length).toBe(32);
    const info = await provider.getMasterchainInfo();
    const header = await provider.getMasterchainBlockHeader(info.last.seqno);
    expect(typeof header.end_lt).toBe('string');
    const shards = await provider.getBlockShards(info.last.seqno);
    expect(shards.shards[0].workchain).toBe(0);
    const txs = await provider.getBlockTransactions(0, shards.shards[0].shard, shards.shards[0].seqno);
    expect(txs['@type']).toBe('blocks.transactions');
    const history = await provider.getTransactions(alice.address.toString(), 5, undefined, undefined, 0);
    expect(history.length).toBeGreaterThan(0);
  });
});
