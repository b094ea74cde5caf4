/**
 * Every v2 REST operation over real HTTP against the composed service (devnet → handlers → front door), with
 * response validation on: an off-spec body turns into a 500, so each 200 below is also a contract check.
 * Errors are checked in the v2 body with the status docs/wire.md gives.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, beginCell, Cell, internal, loadTransaction, toNano, WalletContractV4 } from '@ton/ton';
import { keyPairFromSeed } from '@ton/crypto';
import { createHash } from 'node:crypto';
import { devnetFaucet, signerFromSeed, walletTransferBoc, type Devnet, type SeedSummary } from '@tongate/devnet';
import { startTestGateway, type TestGateway } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const SHARD = '-9223372036854775808';
type Envelope = { ok: boolean; result: any; error?: string; code?: number; '@extra'?: string };

let service: TestGateway;
let base: string;
let key: string;
let devnet: Devnet;
let seed: SeedSummary;
let faucet: Awaited<ReturnType<typeof devnetFaucet>>;

async function get(
  method: string,
  params: Record<string, string | number | boolean | string[]> = {},
): Promise<{ status: number; body: Envelope }> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const item of Array.isArray(v) ? v : [v]) qs.append(k, String(item));
  const res = await fetch(`${base}/api/v2/${method}?${qs}`, { headers: { 'X-API-Key': key } });
  return { status: res.status, body: (await res.json()) as Envelope };
}

async function post(method: string, body: unknown): Promise<{ status: number; body: Envelope }> {
  const res = await fetch(`${base}/api/v2/${method}`, {
    method: 'POST',
    headers: { 'X-API-Key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Envelope };
}

async function ok(call: Promise<{ status: number; body: Envelope }>): Promise<any> {
  const { status, body } = await call;
  if (status !== 200) throw new Error(`expected 200, got ${status}: ${JSON.stringify(body)}`);
  expect(body.ok).toBe(true);
  expect(body['@extra']).toMatch(/^\d+(\.\d+)?:[^:]+:\d+(\.\d+)?$/);
  return body.result;
}

async function fails(call: Promise<{ status: number; body: Envelope }>, status: number, text: RegExp): Promise<void> {
  const res = await call;
  expect(res.status).toBe(status);
  expect(res.body).toMatchObject({ ok: false, code: status });
  expect(res.body.error).toMatch(text);
}

beforeAll(async () => {
  service = await startTestGateway({ devnetBlockIntervalMs: 0 });
  base = `http://127.0.0.1:${service.ports.testnet}`;
  devnet = service.gateway.devnets.testnet!;
  seed = await devnet.seed();
  faucet = await devnetFaucet();
  key = await service.createKey('testnet');
});

afterAll(() => service?.close());

describe('accounts', () => {
  it('getAddressInformation, now and at an older masterchain block', async () => {
    const info = await ok(get('getAddressInformation', { address: faucet.address.toString() }));
    expect(info).toMatchObject({ '@type': 'raw.fullAccountState', state: 'active', frozen_hash: '', suspended: false });
    expect(BigInt(info.balance)).toBeGreaterThan(0n);
    expect(
      Cell.fromBase64(info.code)
        .hash()
        .equals(WalletContractV4.create({ workchain: 0, publicKey: faucet.publicKey }).init.code.hash()),
    ).toBe(true);
    // The faucet's balance at each masterchain block, as the chain holds it then (it pays the seed out; bounces and
    // excesses come back to it blocks later from the other shard).
    const last = (await ok(get('getMasterchainInfo'))).last.seqno as number;
    const balances: bigint[] = [];
    for (let seqno = 1; seqno <= last; seqno++) {
      const at = await ok(get('getAddressInformation', { address: faucet.address.toRawString(), seqno }));
      expect(at.block_id.seqno).toBe(seqno);
      balances.push(BigInt(at.balance));
      expect(balances.at(-1)).toBe((await devnet.getAccountState(faucet.address, seqno)).balance);
    }
    expect(new Set(balances).size).toBeGreaterThan(1);
    expect(balances[0]).toBeGreaterThan(balances[balances.length - 1]);
    expect(balances[balances.length - 1]).toBe(BigInt(info.balance));
    await fails(get('getAddressInformation', { address: faucet.address.toString(), seqno: last + 1000 }), 404, /not found/);
    const missing = await ok(get('getAddressInformation', { address: `0:${'ab'.repeat(32)}` }));
    expect(missing).toMatchObject({ state: 'uninitialized', balance: '0', code: '', data: '' });
  });

  it('getExtendedAddressInformation parses the wallet', async () => {
    const ext = await ok(get('getExtendedAddressInformation', { address: faucet.address.toString() }));
    expect(ext['@type']).toBe('fullAccountState');
    expect(ext.account_state['@type']).toBe('wallet.v4.accountState');
    expect(ext.account_state.seqno).toBeGreaterThan(0);
  });

  it('getWalletInformation, getAddressBalance, getAddressState', async () => {
    const w = await ok(get('getWalletInformation', { address: seed.wallets[1].address.toString() }));
    expect(w).toMatchObject({ wallet: true, wallet_type: 'wallet v5 r1', account_state: 'active' });
    const notWallet = await ok(get('getWalletInformation', { address: seed.jetton.minter.toString() }));
    expect(notWallet.wallet).toBe(false);
    expect(await ok(get('getAddressBalance', { address: faucet.address.toString() }))).toMatch(/^[1-9][0-9]*$/);
    expect(await ok(get('getAddressState', { address: faucet.address.toString() }))).toBe('active');
    expect(await ok(get('getAddressState', { address: `0:${'00'.repeat(32)}` }))).toBe('uninitialized');
  });

  it('getTokenData for each token kind, 409 for a wallet', async () => {
    const master = await ok(get('getTokenData', { address: seed.jetton.minter.toString() }));
    expect(master['@type']).toBe('ext.tokens.jettonMasterData');
    const jw = await ok(get('getTokenData', { address: seed.jetton.wallets[0].toString() }));
    expect(jw['@type']).toBe('ext.tokens.jettonWalletData');
    const collection = await ok(get('getTokenData', { address: seed.nft.collection.toString() }));
    expect(collection['@type']).toBe('ext.tokens.nftCollectionData');
    const item = await ok(get('getTokenData', { address: seed.nft.item.toString() }));
    expect(item['@type']).toBe('ext.tokens.nftItemData');
    await fails(get('getTokenData', { address: faucet.address.toString() }), 409, /not Jetton or NFT/);
  });
});

describe('blocks', () => {
  it('getMasterchainInfo, getConsensusBlock, getMasterchainBlockSignatures', async () => {
    const info = await ok(get('getMasterchainInfo'));
    expect(info.last).toMatchObject({ '@type': 'ton.blockIdExt', workchain: -1, shard: SHARD });
    const consensus = await ok(get('getConsensusBlock'));
    expect(consensus.consensus_block).toBeGreaterThanOrEqual(info.last.seqno);
    const sigs = await ok(get('getMasterchainBlockSignatures', { seqno: info.last.seqno }));
    expect(sigs.id.root_hash).toBe(info.last.root_hash);
    // The devnet signs as mainnet does today: a simplex set, passed on with its session, slot and candidate.
    expect(sigs['@type']).toBe('blocks.blockSignatures.simplex');
    expect(sigs.signatures.length).toBeGreaterThan(0);
    await fails(get('getMasterchainBlockSignatures', { seqno: info.last.seqno + 1000 }), 404, /not found/);
  });

  it('lookupBlock by seqno, lt and unixtime; exactly one of them', async () => {
    const info = await ok(get('getMasterchainInfo'));
    const header = await ok(get('getBlockHeader', { workchain: -1, shard: SHARD, seqno: info.last.seqno }));
    const bySeqno = await ok(get('lookupBlock', { workchain: -1, shard: SHARD, seqno: info.last.seqno }));
    expect(bySeqno).toEqual(info.last);
    const byLt = await ok(get('lookupBlock', { workchain: -1, shard: SHARD, lt: header.end_lt }));
    expect(byLt.seqno).toBeLessThanOrEqual(info.last.seqno);
    const byTime = await ok(get('lookupBlock', { workchain: -1, shard: SHARD, unixtime: header.gen_utime }));
    expect(byTime.seqno).toBeLessThanOrEqual(info.last.seqno);
    await fails(get('lookupBlock', { workchain: -1, shard: SHARD, seqno: 1, lt: '5' }), 422, /exactly one/);
    await fails(get('lookupBlock', { workchain: -1, shard: SHARD }), 422, /exactly one/);
    await fails(get('lookupBlock', { workchain: -1, shard: SHARD, seqno: info.last.seqno + 1000 }), 404, /not found/);
  });

  it('getShards and shards, getBlockHeader, getShardBlockProof, getOutMsgQueueSize', async () => {
    const info = await ok(get('getMasterchainInfo'));
    const shards = await ok(get('getShards', { seqno: info.last.seqno }));
    expect(await ok(get('shards', { seqno: info.last.seqno }))).toEqual(shards);
    // The devnet basechain runs in two shards, 0x4000000000000000 and 0xc000000000000000 (signed 64-bit on the wire).
    const basechains = shards.shards.filter((s: { workchain: number }) => s.workchain === 0);
    expect(basechains.map((s: { shard: string }) => s.shard)).toEqual(['4611686018427387904', '-4611686018427387904']);
    const basechain = basechains[1];
    // lookupBlock reads the shard as an account prefix: the whole-workchain id is in the right half.
    expect(await ok(get('lookupBlock', { workchain: 0, shard: SHARD, seqno: basechain.seqno }))).toEqual(basechain);
    const header = await ok(get('getBlockHeader', { workchain: 0, shard: basechain.shard, seqno: basechain.seqno }));
    expect(header).toMatchObject({ '@type': 'blocks.header', id: basechain });
    expect(BigInt(header.end_lt)).toBeGreaterThanOrEqual(BigInt(header.start_lt));
    await fails(
      get('getBlockHeader', {
        workchain: 0,
        shard: basechain.shard,
        seqno: basechain.seqno,
        root_hash: Buffer.alloc(32).toString('base64'),
        file_hash: basechain.file_hash,
      }),
      404,
      /not found|has/,
    );
    const proof = await ok(get('getShardBlockProof', { workchain: 0, shard: basechain.shard, seqno: basechain.seqno }));
    expect(proof['@type']).toBe('blocks.shardBlockProof');
    expect(proof.mc_id.workchain).toBe(-1);
    const queue = await ok(get('getOutMsgQueueSize'));
    expect(queue['@type']).toBe('blocks.outMsgQueueSizes');
    expect(queue.ext_msg_queue_size_limit).toBeGreaterThan(0);
  });
});

describe('transactions, send, run', () => {
  const stranger = keyPairFromSeed(Buffer.alloc(32, 7));
  const dest = WalletContractV4.create({ workchain: 0, publicKey: stranger.publicKey }).address;
  let sent: { hash: string; hash_norm: string };

  it('sendBocReturnHash and sendBoc; a replay is refused with 422', async () => {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: faucet.publicKey });
    const seqno = (await ok(post('runGetMethod', { address: faucet.address.toString(), method: 'seqno', stack: [] }))).stack[0][1];
    const signer = signerFromSeed(faucet.secretKey.subarray(0, 32));
    const boc = await walletTransferBoc(wallet, signer, Number(BigInt(seqno)), [
      internal({ to: dest, value: toNano('3'), bounce: false, body: 'rest comment' }),
    ]);
    sent = await ok(post('sendBocReturnHash', { boc: boc.toString('base64') }));
    expect(sent['@type' as keyof typeof sent]).toBe('raw.extMessageInfo');
    expect(Buffer.from(sent.hash, 'base64').equals(Cell.fromBoc(boc)[0].hash())).toBe(true);
    await devnet.settle();
    await fails(post('sendBoc', { boc: boc.toString('base64') }), 422, /.+/);
    await fails(post('sendBoc', { boc: 'AAAA' }), 422, /boc/);
    const next = await walletTransferBoc(wallet, signer, Number(BigInt(seqno)) + 1, [
      internal({ to: dest, value: toNano('1'), bounce: false }),
    ]);
    expect(await ok(post('sendBoc', { boc: next.toString('base64') }))).toEqual({ '@type': 'ok' });
    await devnet.settle();
  });

  it('getTransactions, getTransactionsStd, tryLocate*', async () => {
    const txs = await ok(get('getTransactions', { address: dest.toString(), limit: 10 }));
    expect(txs).toHaveLength(2);
    const [newest, oldest] = txs;
    expect(newest['@type']).toBe('ext.transaction');
    expect(newest.account).toBe(dest.toRawString().toUpperCase().replace(/^0:/, '0:'));
    expect(oldest.in_msg.message).toBe('rest comment');
    expect(oldest.in_msg.source).toBe(faucet.address.toString({ testOnly: true }));
    const hex = Buffer.from(newest.transaction_id.hash, 'base64').toString('hex');
    const page = await ok(get('getTransactions', { address: dest.toRawString(), lt: newest.transaction_id.lt, hash: hex, limit: 1 }));
    expect(page[0].transaction_id).toEqual(newest.transaction_id);
    await fails(get('getTransactions', { address: dest.toString(), lt: newest.transaction_id.lt }), 422, /together|hash/);
    await fails(get('getTransactions', { address: dest.toString(), limit: 1001 }), 422, /limit/);

    const std = await ok(get('getTransactionsStd', { address: dest.toString(), limit: 1 }));
    expect(std['@type']).toBe('raw.transactions');
    expect(std.transactions[0]['@type']).toBe('raw.transaction');

    const createdLt = oldest.in_msg.created_lt;
    const located = await ok(
      get('tryLocateResultTx', { source: faucet.address.toString(), destination: dest.toString(), created_lt: createdLt }),
    );
    expect(located.transaction_id).toEqual(oldest.transaction_id);
    expect(
      await ok(get('tryLocateTx', { source: faucet.address.toString(), destination: dest.toString(), created_lt: createdLt })),
    ).toEqual(located);
    const source = await ok(
      get('tryLocateSourceTx', { source: faucet.address.toString(), destination: dest.toString(), created_lt: createdLt }),
    );
    expect(source.out_msgs.some((m: { created_lt: string }) => m.created_lt === createdLt)).toBe(true);
    await fails(get('tryLocateTx', { source: faucet.address.toString(), destination: dest.toString(), created_lt: '1' }), 404, /not found/);

    // The raw BOC is the real transaction.
    const cell = Cell.fromBase64(oldest.data);
    expect(cell.hash().toString('base64')).toBe(oldest.transaction_id.hash);
    expect(loadTransaction(cell.beginParse()).lt.toString()).toBe(oldest.transaction_id.lt);
  });

  it('getBlockTransactions and getBlockTransactionsExt page with an exclusive cursor', async () => {
    const info = await ok(get('getMasterchainInfo'));
    // A recent basechain block with at least two transactions (the seed's last transfers).
    let basechain: { shard: string; seqno: number } | undefined;
    for (let seqno = info.last.seqno; seqno > 0 && !basechain; seqno--) {
      for (const s of (await ok(get('getShards', { seqno }))).shards) {
        const txs = await ok(get('getBlockTransactions', { workchain: 0, shard: s.shard, seqno: s.seqno }));
        if (txs.transactions.length >= 2) basechain = s;
      }
    }
    if (!basechain) throw new Error('no basechain block with two transactions');
    const SHARD = basechain.shard;
    const all = await ok(get('getBlockTransactions', { workchain: 0, shard: SHARD, seqno: basechain.seqno }));
    expect(all).toMatchObject({ '@type': 'blocks.transactions', req_count: 40, incomplete: false });
    expect(all.transactions.length).toBeGreaterThanOrEqual(2);
    const first = await ok(get('getBlockTransactions', { workchain: 0, shard: SHARD, seqno: basechain.seqno, count: 1 }));
    expect(first.incomplete).toBe(true);
    const rest = await ok(
      get('getBlockTransactions', {
        workchain: 0,
        shard: SHARD,
        seqno: basechain.seqno,
        after_lt: first.transactions[0].lt,
        after_hash: first.transactions[0].account.split(':')[1],
      }),
    );
    expect([...first.transactions, ...rest.transactions]).toEqual(all.transactions);
    const ext = await ok(get('getBlockTransactionsExt', { workchain: 0, shard: SHARD, seqno: basechain.seqno }));
    expect(ext['@type']).toBe('blocks.transactionsExt');
    expect(ext.transactions.map((t: { transaction_id: { hash: string } }) => t.transaction_id.hash)).toEqual(
      all.transactions.map((t: { hash: string }) => t.hash),
    );
    await fails(
      get('getBlockTransactions', { workchain: 0, shard: SHARD, seqno: basechain.seqno, after_lt: '5' }),
      422,
      /together|after_hash/,
    );
  });

  it('estimateFee, runGetMethod and runGetMethodStd', async () => {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: faucet.publicKey });
    const seqno = Number(
      BigInt((await ok(post('runGetMethod', { address: faucet.address.toString(), method: 'seqno', stack: [] }))).stack[0][1]),
    );
    // Signed with the wrong key: only ignore_chksig lets the wallet accept it.
    const body = wallet.createTransfer({ seqno, secretKey: keyPairFromSeed(Buffer.alloc(32, 1)).secretKey, messages: [] });
    const fees = await ok(
      post('estimateFee', { address: faucet.address.toString(), body: body.toBoc().toString('base64'), ignore_chksig: true }),
    );
    expect(fees['@type']).toBe('query.fees');
    expect(fees.source_fees.gas_fee).toBeGreaterThan(0);
    await fails(
      post('estimateFee', { address: faucet.address.toString(), body: body.toBoc().toString('base64'), ignore_chksig: false }),
      422,
      /.+/,
    );

    const run = await ok(post('runGetMethod', { address: seed.jetton.minter.toString(), method: 'get_jetton_data', stack: [] }));
    expect(run).toMatchObject({ '@type': 'smc.runResult', exit_code: 0 });
    expect(run.stack[0][0]).toBe('num');
    expect(run.stack[3][0]).toBe('cell');
    const walletAddr = await ok(
      post('runGetMethod', {
        address: seed.jetton.minter.toString(),
        method: 'get_wallet_address',
        stack: [['tvm.Slice', beginCell().storeAddress(faucet.address).endCell().toBoc().toString('base64')]],
      }),
    );
    expect(walletAddr.exit_code).toBe(0);
    const missing = await ok(post('runGetMethod', { address: faucet.address.toString(), method: 'no_such_method', stack: [] }));
    expect(missing.exit_code).not.toBe(0);
    const byId = await ok(post('runGetMethod', { address: faucet.address.toString(), method: 85143, stack: [] }));
    expect(byId.stack[0][0]).toBe('num');
    const std = await ok(post('runGetMethodStd', { address: faucet.address.toString(), method: 'seqno', stack: [] }));
    expect(std.stack[0]['@type']).toBe('tvm.stackEntryNumber');
    await fails(post('runGetMethod', { address: faucet.address.toString(), method: 'seqno', stack: [['num', 'xyz']] }), 422, /.+/);
  });
});

describe('utils and configuration', () => {
  it('detectAddress, packAddress, unpackAddress, detectHash', async () => {
    const raw = faucet.address.toRawString();
    const detected = await ok(get('detectAddress', { address: raw }));
    expect(detected).toMatchObject({ '@type': 'ext.utils.detectedAddress', raw_form: raw, given_type: 'raw_form' });
    expect(await ok(get('unpackAddress', { address: faucet.address.toString() }))).toBe(raw.toUpperCase().replace(/^0:/, '0:'));
    const packed = await ok(get('packAddress', { address: raw }));
    expect(Address.parseFriendly(packed)).toMatchObject({ isBounceable: true, isTestOnly: true });
    const hash = createHash('sha256').update('x').digest();
    const forms = await ok(get('detectHash', { hash: hash.toString('hex') }));
    expect(forms).toMatchObject({ b64: hash.toString('base64'), b64url: hash.toString('base64url'), hex: hash.toString('hex') });
    await fails(get('detectAddress', { address: `0:${'zz'.repeat(32)}` }), 422, /address/);
  });

  it('getConfigParam (param or config_id), getConfigAll, getLibraries', async () => {
    const p19 = await ok(get('getConfigParam', { config_id: 19 }));
    expect(p19.config['@type']).toBe('tvm.cell');
    expect(Cell.fromBase64(p19.config.bytes).beginParse().loadInt(32)).toBe(-3);
    expect(await ok(get('getConfigParam', { param: 19 }))).toEqual(p19);
    await fails(get('getConfigParam', { param: 19, config_id: 19 }), 422, /exactly one|only one/);
    const all = await ok(get('getConfigAll'));
    expect(Cell.fromBase64(all.config.bytes).refs.length).toBeGreaterThan(0);
    // The devnet publishes the jetton wallet code as a library.
    const code = Cell.fromBase64((await ok(get('getAddressInformation', { address: seed.jetton.wallets[0].toString() }))).code);
    const libHash = code.isExotic ? code.bits.subbuffer(8, 256)! : code.hash();
    const libs = await ok(get('getLibraries', { libraries: [libHash.toString('hex')] }));
    expect(libs['@type']).toBe('smc.libraryResult');
    expect(libs.result.length).toBeLessThanOrEqual(1);
  });
});
