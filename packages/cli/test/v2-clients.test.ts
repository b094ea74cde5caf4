/**
 * The judges of v2 wire compatibility: the unchanged @ton/ton TonClient and tonweb HttpProvider, talking to the
 * whole composed service (devnet → handlers → front door) over real HTTP JSON-RPC, on both networks, with and
 * without an API key.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  Address,
  beginCell,
  Cell,
  internal,
  loadTransaction,
  SendMode,
  TonClient,
  toNano,
  WalletContractV4,
  WalletContractV5R1,
  type Transaction,
} from '@ton/ton';
import { keyPairFromSeed, mnemonicToPrivateKey, type KeyPair } from '@ton/crypto';
import { randomBytes } from 'node:crypto';
import TonWebModule from 'tonweb';
import { DEVNET_FAUCET_MNEMONIC, type SeedSummary } from '@tongate/devnet';
import type { Network } from '@tongate/server';
import { startTestGateway, type TestGateway } from './gateway-fixture.js';
import { until } from './service.js';

// tonweb is CommonJS typed as an ES default export: under NodeNext the runtime default is the class itself.
const TonWeb = TonWebModule as unknown as typeof TonWebModule.default;

// Client flows wait for real blocks.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 120_000 });

const bodyComment = (tx: Transaction): string | undefined => {
  const body = tx.inMessage?.body.beginParse();
  if (!body || body.remainingBits < 32 || body.loadUint(32) !== 0) return undefined;
  return body.loadStringTail();
};

let service: TestGateway;
const keys = {} as Record<Network, string>;

beforeAll(async () => {
  // The keyless 1 rps limit has its own exact tests; here it would only slow the client flows down.
  service = await startTestGateway({ keylessRps: 10_000, keylessBurst: 10_000, devnetBlockIntervalMs: 200 });
  keys.mainnet = await service.createKey('mainnet');
  keys.testnet = await service.createKey('testnet');
}, 120_000);

afterAll(() => service?.close(), 60_000);

describe.each([
  { network: 'mainnet' as const, keyed: true },
  { network: 'testnet' as const, keyed: true },
  { network: 'mainnet' as const, keyed: false },
  { network: 'testnet' as const, keyed: false },
])('$network, key: $keyed', ({ network, keyed }) => {
  const globalId = network === 'mainnet' ? -239 : -3;
  let endpoint: string;
  let client: TonClient;
  let tonweb: InstanceType<typeof TonWeb>;
  let faucetKeys: KeyPair;
  let faucet: WalletContractV4;
  let v4Keys: KeyPair;
  let v4: WalletContractV4;
  let v5Keys: KeyPair;
  let v5: WalletContractV5R1;
  let commentTx: Transaction;

  beforeAll(async () => {
    endpoint = `http://127.0.0.1:${service.ports[network]}/api/v2/jsonRPC`;
    const apiKey = keyed ? keys[network] : undefined;
    client = new TonClient({ endpoint, apiKey });
    tonweb = new TonWeb(new TonWeb.HttpProvider(endpoint, apiKey ? { apiKey } : {}));
    faucetKeys = await mnemonicToPrivateKey([...DEVNET_FAUCET_MNEMONIC]);
    faucet = WalletContractV4.create({ workchain: 0, publicKey: faucetKeys.publicKey });
    // Fresh wallets each run: keyPairFromSeed is instant, unlike a mnemonic derivation.
    v4Keys = keyPairFromSeed(randomBytes(32));
    v5Keys = keyPairFromSeed(randomBytes(32));
    v4 = WalletContractV4.create({ workchain: 0, publicKey: v4Keys.publicKey });
    v5 = WalletContractV5R1.create({ workchain: 0, publicKey: v5Keys.publicKey, walletId: { networkGlobalId: globalId } });
  });

  it('getMasterchainInfo', async () => {
    const info = await client.getMasterchainInfo();
    expect(info.workchain).toBe(-1);
    expect(info.latestSeqno).toBeGreaterThan(0);
    const tw = await tonweb.provider.getMasterchainInfo();
    expect(tw.last.seqno).toBeGreaterThanOrEqual(info.latestSeqno);
  });

  it('getBalance and getContractState of the faucet', async () => {
    expect(await client.getBalance(faucet.address)).toBeGreaterThan(toNano('1000'));
    const state = await client.getContractState(faucet.address);
    expect(state.state).toBe('active');
    expect(state.code).toBeInstanceOf(Buffer);
    expect(await client.isContractDeployed(v4.address)).toBe(false);
    expect(await tonweb.provider.getBalance(faucet.address.toString())).toMatch(/^[1-9][0-9]+$/);
  });

  it('funds and deploys a fresh v4 and a fresh v5 wallet from the faucet', async () => {
    const opened = client.open(faucet);
    const seqno = await opened.getSeqno();
    await opened.sendTransfer({
      seqno,
      secretKey: faucetKeys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [
        internal({ to: v4.address, value: toNano('10'), bounce: false }),
        internal({ to: v5.address, value: toNano('10'), bounce: false }),
      ],
    });
    await until('faucet seqno to advance', 20_000, async () => (await opened.getSeqno()) > seqno);
    await until('v5 funds', 20_000, async () => (await client.getBalance(v5.address)) > 0n);

    // Deploy both: the first external carries the state init (the provider attaches it while uninitialised).
    await client
      .open(v4)
      .sendTransfer({ seqno: 0, secretKey: v4Keys.secretKey, messages: [internal({ to: faucet.address, value: toNano('0.01') })] });
    await client.open(v5).sendTransfer({
      seqno: 0,
      secretKey: v5Keys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: faucet.address, value: toNano('0.01') })],
    });
    await until('v4 deployed', 20_000, () => client.isContractDeployed(v4.address));
    await until('v5 deployed', 20_000, () => client.isContractDeployed(v5.address));
    expect((await client.getContractState(v5.address)).state).toBe('active');
  });

  it('sends a transfer with a comment and reads it back with getTransactions', async () => {
    const sender = client.open(v5);
    const seqno = await sender.getSeqno();
    await sender.sendTransfer({
      seqno,
      secretKey: v5Keys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: v4.address, value: toNano('1.5'), body: `hello ${network}` })],
    });
    commentTx = await until('comment to arrive', 20_000, async () => {
      const txs = await client.getTransactions(v4.address, { limit: 5 });
      return txs.find((tx) => bodyComment(tx) === `hello ${network}`);
    });
    expect(commentTx.inMessage?.info.type).toBe('internal');
    expect(commentTx.inMessage?.info.src?.toString()).toBe(v5.address.toString());
  });

  it('pages getTransactions by lt and hash: base64 and hex, inclusive and exclusive', async () => {
    const all = await client.getTransactions(v4.address, { limit: 10 });
    expect(all.length).toBeGreaterThanOrEqual(3); // funding, deploy, comment
    for (let i = 1; i < all.length; i++) expect(all[i - 1].lt).toBeGreaterThan(all[i].lt);
    const newest = all[0];
    const hashB64 = newest.hash().toString('base64');
    // TonClient converts the base64 hash to hex on the wire.
    const inclusive = await client.getTransactions(v4.address, { limit: 2, lt: newest.lt.toString(), hash: hashB64, inclusive: true });
    expect(inclusive.map((t) => t.lt)).toEqual([all[0].lt, all[1].lt]);
    const exclusive = await client.getTransactions(v4.address, { limit: 2, lt: newest.lt.toString(), hash: hashB64 });
    expect(exclusive.map((t) => t.lt)).toEqual([all[1].lt, all[2].lt]);
    // tonweb passes the hash through as given: base64 here.
    const tw = await tonweb.provider.getTransactions(v4.address.toString(), 1, newest.lt.toString(), hashB64);
    expect(tw).toHaveLength(1);
    expect(tw[0].transaction_id.hash).toBe(hashB64);
    const one = await client.getTransaction(v4.address, newest.lt.toString(), hashB64);
    expect(one?.hash().equals(newest.hash())).toBe(true);
    // to_lt is an exclusive lower bound.
    const bounded = await client.getTransactions(v4.address, { limit: 10, to_lt: all[2].lt.toString() });
    expect(bounded.map((t) => t.lt)).toEqual([all[0].lt, all[1].lt]);
  });

  it('runMethod seqno and tonweb call2', async () => {
    const res = await client.runMethod(v5.address, 'seqno');
    expect(res.stack.readNumber()).toBe(2);
    const viaTonweb = await tonweb.provider.call2(v4.address.toString(), 'seqno');
    expect(viaTonweb.toString()).toBe('1');
    const pk = await tonweb.provider.call2(v4.address.toRawString(), 'get_public_key');
    expect(BigInt(pk.toString())).toBe(BigInt('0x' + Buffer.from(v4Keys.publicKey).toString('hex')));
  });

  it('estimateExternalMessageFee of a transfer signed with the wrong key (signature check ignored)', async () => {
    const stranger = keyPairFromSeed(randomBytes(32));
    const body = v4.createTransfer({
      seqno: 1,
      secretKey: stranger.secretKey,
      messages: [internal({ to: faucet.address, value: toNano('0.5') })],
    });
    const fees = await client.estimateExternalMessageFee(v4.address, { body, initCode: null, initData: null, ignoreSignature: true });
    expect(fees['@type']).toBe('query.fees');
    expect(fees.source_fees.in_fwd_fee).toBeGreaterThan(0);
    expect(fees.source_fees.gas_fee).toBeGreaterThan(0);
    // With the signature checked, the wallet refuses it: a client error, not a server one.
    await expect(
      client.estimateExternalMessageFee(v4.address, { body, initCode: null, initData: null, ignoreSignature: false }),
    ).rejects.toThrow(/422/);
  });

  it('getWorkchainShards, getShardTransactions, tryLocateResultTx and tryLocateSourceTx', async () => {
    const info = await client.getMasterchainInfo();
    const shards = await client.getWorkchainShards(info.latestSeqno);
    // The devnet basechain runs in two shards (signed 64-bit ids, as the wire has them).
    const basechains = shards.filter((s) => s.workchain === 0);
    expect(basechains.map((s) => s.shard)).toEqual(['4611686018427387904', '-4611686018427387904']);

    // The comment's transaction sits in one of the recent blocks of the shard that holds the wallet.
    const basechain = basechains[v4.address.hash[0] < 0x80 ? 0 : 1];
    const wanted = commentTx.hash().toString('base64');
    let found = false;
    for (let seqno = basechain.seqno; seqno > 0 && seqno > basechain.seqno - 400 && !found; seqno--) {
      const txs = await client.getShardTransactions(0, seqno, basechain.shard);
      found = txs.some((t) => t.hash === wanted && t.account.toString() === v4.address.toString());
    }
    expect(found).toBe(true);

    if (commentTx.inMessage?.info.type !== 'internal') throw new Error('expected internal');
    const createdLt = commentTx.inMessage.info.createdLt.toString();
    const result = await client.tryLocateResultTx(v5.address, v4.address, createdLt);
    expect(result.hash().equals(commentTx.hash())).toBe(true);
    const source = await client.tryLocateSourceTx(v5.address, v4.address, createdLt);
    expect(source.outMessages.values().some((m) => m.info.type === 'internal' && m.info.createdLt.toString() === createdLt)).toBe(true);
  });

  it('tonweb: getWalletInfo, getBlockHeader, getConfigParam, call2 with a cell result', async () => {
    const wallet = await tonweb.provider.getWalletInfo(v4.address.toString());
    expect(wallet.wallet).toBe(true);
    expect(wallet.wallet_type).toBe('wallet v4 r2');
    expect(wallet.seqno).toBe(1);

    const info = await tonweb.provider.getMasterchainInfo();
    const header = await tonweb.provider.getBlockHeader(-1, '-9223372036854775808', info.last.seqno);
    expect(header.id.seqno).toBe(info.last.seqno);
    expect(typeof header.end_lt).toBe('string');
    expect(header.prev_blocks.length).toBeGreaterThan(0);

    // Present at runtime, missing from tonweb's typings.
    const provider = tonweb.provider as unknown as {
      getConfigParam(id: number): Promise<{ toBoc(withCrc: boolean): Promise<Uint8Array> }>;
    };
    const config = await provider.getConfigParam(19); // tonweb checks `configInfo` / `tvm.cell` and returns its own Cell
    const param19 = Cell.fromBoc(Buffer.from(await config.toBoc(false)))[0].beginParse();
    expect(param19.loadInt(32)).toBe(globalId);

    // A raw JSON-RPC call with an integer id: the id comes back unchanged in type.
    const res = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(keyed ? { 'X-API-Key': keys[network] } : {}) },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'runGetMethod',
        params: { address: v4.address.toRawString(), method: 'seqno', stack: [] },
      }),
    });
    const json = (await res.json()) as {
      ok: boolean;
      id: number;
      jsonrpc: string;
      result: { exit_code: number; stack: [string, string][] };
    };
    expect(json).toMatchObject({ ok: true, id: 7, jsonrpc: '2.0' });
    expect(json.result.stack).toEqual([['num', '0x1']]);
  });

  it('tonweb call2 decodes a cell result (get_jetton_data of a seeded jetton minter)', async () => {
    const seededMinter = await seedJettonMinter(network);
    const data = await tonweb.provider.call2(seededMinter, 'get_jetton_data');
    expect(Array.isArray(data)).toBe(true);
    const content = data[3];
    expect(content).toBeInstanceOf(TonWeb.boc.Cell);
  });

  it('passes integer, cell and slice get-method arguments (TonClient runMethod, tonweb call2)', async () => {
    // Integers: the faucet's is_plugin_installed(wc, addr_hash), and the NFT collection's get_nft_address_by_index.
    const plugin = await client.runMethod(faucet.address, 'is_plugin_installed', [
      { type: 'int', value: 0n },
      { type: 'int', value: 5n },
    ]);
    expect(plugin.stack.readBigNumber()).toBe(0n);
    const seededTokens = await seedTokens(network);
    const byIndex = await client.runMethod(seededTokens.collection, 'get_nft_address_by_index', [{ type: 'int', value: 0n }]);
    expect(byIndex.stack.readAddress().equals(seededTokens.item)).toBe(true);
    const viaTonweb = await tonweb.provider.call2(seededTokens.collection.toString(), 'get_nft_address_by_index', [['num', 0]]);
    expect(viaTonweb).toBeInstanceOf(TonWeb.boc.Cell);
    // A method that does not exist still gets past validation with an int argument (the TVM answers exit code 11).
    await expect(client.runMethod(faucet.address, 'get_wallet_address_by_index', [{ type: 'int', value: 5n }])).rejects.toThrow(
      /exit_code/,
    );
    // Slice: the jetton minter's get_wallet_address(owner).
    const owner = beginCell().storeAddress(faucet.address).endCell();
    const walletOf = await client.runMethod(seededTokens.minter, 'get_wallet_address', [{ type: 'slice', cell: owner }]);
    const jettonWallet = walletOf.stack.readAddress();
    const tonwebWallet = await tonweb.provider.call2(seededTokens.minter.toString(), 'get_wallet_address', [
      ['tvm.Slice', owner.toBoc().toString('base64')],
    ]);
    expect(
      Cell.fromBoc(Buffer.from(await tonwebWallet.toBoc(false)))[0]
        .beginParse()
        .loadAddress()
        .equals(jettonWallet),
    ).toBe(true);
    // Cell: the collection's get_nft_content(index, individual_content).
    const individual = beginCell().storeStringTail('item-0.json').endCell();
    const content = await client.runMethod(seededTokens.collection, 'get_nft_content', [
      { type: 'int', value: 0n },
      { type: 'cell', cell: individual },
    ]);
    expect(content.stack.readCell()).toBeInstanceOf(Cell);
    const tonwebContent = await tonweb.provider.call2(seededTokens.collection.toString(), 'get_nft_content', [
      ['num', 0],
      ['tvm.Cell', individual.toBoc().toString('base64')],
    ]);
    expect(tonwebContent).toBeInstanceOf(TonWeb.boc.Cell);
  });

  it('tonweb resolves a seeded .ton domain from config param 4 down (257-bit get-method arguments intact)', async () => {
    // tonweb's resolver passes the domain's category as a 256-bit decimal `num`: it once came out of the request
    // validator as a float and was refused.
    const { dns } = await seedOnce(network);
    for (const item of dns.items.filter((i) => i.wallet)) {
      // tonweb sets `dns` in its constructor but its typings leave it out.
      const resolver = (
        tonweb as unknown as { dns: { getWalletAddress(domain: string): Promise<{ toString(friendly: boolean): string } | null> } }
      ).dns;
      const wallet = await resolver.getWalletAddress(item.domain);
      expect(wallet?.toString(false)).toBe(item.wallet!.toRawString());
    }
  });

  it('raw transaction BOCs round-trip and hashes match', async () => {
    const txs = await tonweb.provider.getTransactions(v4.address.toString(), 3);
    for (const t of txs) {
      const cell = Cell.fromBase64(t.data);
      expect(cell.hash().toString('base64')).toBe(t.transaction_id.hash);
      expect(loadTransaction(cell.beginParse()).lt.toString()).toBe(t.transaction_id.lt);
    }
    expect(Address.parseRaw(txs[0].account ?? v4.address.toRawString()).equals(v4.address)).toBe(true);
  });
});

const seeded = new Map<Network, Promise<SeedSummary>>();
/** Seeds each network's devnet once. */
function seedOnce(network: Network): Promise<SeedSummary> {
  let p = seeded.get(network);
  if (!p) {
    p = service.gateway.devnets[network]!.seed();
    seeded.set(network, p);
  }
  return p;
}

/** The seeded jetton minter and NFT collection. */
async function seedTokens(network: Network): Promise<{ minter: Address; collection: Address; item: Address }> {
  const s = await seedOnce(network);
  return { minter: s.jetton.minter, collection: s.nft.collection, item: s.nft.item };
}

async function seedJettonMinter(network: Network): Promise<string> {
  return (await seedTokens(network)).minter.toString();
}
