/**
 * The indexed operations of API v3 over real HTTP against the composed service (devnet → indexer → store → handlers
 * → front door), on both networks, with response validation on (an off-spec 200 body turns into a 500). Runs on
 * PGlite, and on PostgreSQL when DATABASE_URL is set. What the chain holds is read from the devnet and from the v2
 * API of the same service, and compared with what v3 answers.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, internal, WalletContractV4 } from '@ton/ton';
import { signerFromSeed, walletTransferBoc, type Devnet, type SeedSummary } from '@tongate/devnet';
import type { Indexer } from '@tongate/indexer';
import { useKeyedGateway } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 0 });

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const hex = (b64: string) => Buffer.from(b64, 'base64').toString('hex');

describe.each(['mainnet', 'testnet'] as const)('API v3 indexed operations on %s', (network) => {
  let devnet: Devnet;
  let indexer: Indexer;
  let base: string;
  let seed: SeedSummary;
  /** A transfer of this test's own: external message hash, receiver, and the block that holds it. */
  let own: { extHash: Buffer; receiver: Address; mcSeqno: number; comment: string };

  const get = async (path: string, params: Record<string, string | string[]> = {}, headers: Record<string, string> = {}) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const item of Array.isArray(v) ? v : [v]) qs.append(k, item);
    const res = await fetch(`${base}/api/${path}?${qs}`, { headers: { 'X-API-Key': suite.keys[network], ...headers } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const v3 = (path: string, params?: Record<string, string | string[]>, headers?: Record<string, string>) =>
    get(`v3/${path}`, params, headers);
  const v2 = async (path: string, params: Record<string, string>) => {
    const r = await get(`v2/${path}`, params);
    expect(r.status).toBe(200);
    return r.body.result;
  };
  const friendly = (a: Address) => a.toString({ testOnly: network === 'testnet' });

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    indexer = suite.service.gateway.indexers[network]!;
    base = `http://127.0.0.1:${suite.service.ports[network]}`;
    seed = await devnet.seed();
    await indexer.waitFor(seed.lastBlock.seqno);

    // The test's own transfer, served by v3 once the indexer has written its block (bench:v3 measures how soon).
    const receiver = new Address(0, Buffer.from(`${network}-v3-indexed-receiver`.padEnd(32, '#')));
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    const comment = `indexed ${network}`;
    const boc = await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, [
      internal({ to: receiver, value: 123_456_789n, bounce: false, body: comment }),
    ]);
    const { hash } = await devnet.sendMessage(boc);
    const block = await devnet.produceBlock();
    const sealedAt = Date.now();
    let visible = false;
    while (!visible && Date.now() - sealedAt < 15_000) {
      const r = await v3('transactionsByMessage', { msg_hash: hash.toString('hex') });
      visible = r.status === 200 && r.body.transactions.length === 1;
      if (!visible) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(visible, 'the transaction is served by v3 after its block').toBe(true);
    own = { extHash: hash, receiver, mcSeqno: block.seqno, comment };
  });

  it('masterchainInfo: the first and last indexed masterchain blocks, as the chain has them', async () => {
    const r = await v3('masterchainInfo');
    expect(r.status).toBe(200);
    const info = await devnet.getMasterchainInfo();
    expect(r.body.first).toMatchObject({
      workchain: -1,
      shard: '8000000000000000',
      seqno: info.init.seqno,
      root_hash: info.init.rootHash.toString('base64'),
    });
    expect(r.body.last.seqno).toBeGreaterThanOrEqual(own.mcSeqno);
    const last = await devnet.lookupBlock({ workchain: -1, shard: -(2n ** 63n), seqno: r.body.last.seqno });
    expect(r.body.last.root_hash).toBe(last.rootHash.toString('base64'));
    expect(r.body.last.file_hash).toBe(last.fileHash.toString('base64'));
    expect(r.body.last.global_id).toBe(devnet.globalId);
  });

  it("/metrics: the indexer's blocks and where their time went, per stage", async () => {
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const value = (line: RegExp) => Number(metrics.match(line)?.[1] ?? NaN);
    expect(value(new RegExp(`^tongate_indexer_blocks_written\\{network="${network}"\\} (\\d+)$`, 'm'))).toBeGreaterThanOrEqual(own.mcSeqno);
    for (const stage of ['collect', 'prepare:traces', 'write:chain', 'write:traces', 'commit']) {
      expect(
        value(new RegExp(`^tongate_indexer_stage_seconds\\{network="${network}",stage="${stage}"\\} ([\\d.e-]+)$`, 'm')),
        stage,
      ).toBeGreaterThan(0);
      expect(
        value(new RegExp(`^tongate_indexer_last_block_stage_seconds\\{network="${network}",stage="${stage}"\\} ([\\d.e-]+)$`, 'm')),
        stage,
      ).toBeGreaterThanOrEqual(0);
    }
  });

  it('blocks: filters, total order, pages that never overlap', async () => {
    const mc = await devnet.getBlockHeader({ workchain: -1, shard: -(2n ** 63n), seqno: own.mcSeqno });
    // The left half of the basechain (the devnet runs two shards) holds the faucet and this test's receiver.
    const shardTop = mc.shardBlocks!.find((b) => b.shard === 0x4000000000000000n)!;
    const byMc = await v3('blocks', { mc_seqno: String(own.mcSeqno), sort: 'asc' });
    expect(byMc.status).toBe(200);
    expect(byMc.body.blocks.map((b: any) => `${b.workchain}:${b.seqno}`)).toEqual(
      expect.arrayContaining([`-1:${own.mcSeqno}`, `0:${shardTop.seqno}`]),
    );
    expect(byMc.body.blocks.filter((b: any) => b.workchain === 0).map((b: any) => b.shard)).toEqual(
      expect.arrayContaining(['4000000000000000', 'C000000000000000']),
    );
    const shardBlock = byMc.body.blocks.find((b: any) => b.workchain === 0 && b.shard === '4000000000000000');
    expect(shardBlock).toMatchObject({
      root_hash: shardTop.rootHash.toString('base64'),
      masterchain_block_ref: { workchain: -1, seqno: own.mcSeqno },
    });
    expect(shardBlock.tx_count).toBeGreaterThan(0);

    const byHash = await v3('blocks', { root_hash: shardTop.rootHash.toString('hex'), workchain: '0', shard: '0x4000000000000000' });
    expect(byHash.body.blocks).toHaveLength(1);
    expect(byHash.body.blocks[0].seqno).toBe(shardTop.seqno);

    const all = await v3('blocks', { workchain: '-1', limit: '6', sort: 'desc' });
    const first = await v3('blocks', { workchain: '-1', limit: '3', sort: 'desc' });
    const second = await v3('blocks', { workchain: '-1', limit: '3', offset: '3', sort: 'desc' });
    const seqnos = (r: any) => r.body.blocks.map((b: any) => b.seqno);
    expect([...seqnos(first), ...seqnos(second)]).toEqual(seqnos(all));
    expect(seqnos(all)).toEqual([...seqnos(all)].sort((a, b) => b - a));
    const window = await v3('blocks', {
      workchain: '-1',
      start_lt: first.body.blocks[2].start_lt,
      end_lt: first.body.blocks[0].start_lt,
      sort: 'desc',
    });
    expect(seqnos(window)).toEqual(seqnos(first));
  });

  it('masterchainBlockShards and masterchainBlockShardState; 404 for a block that does not exist', async () => {
    const shards = await v3('masterchainBlockShards', { seqno: String(own.mcSeqno) });
    expect(shards.status).toBe(200);
    // The blocks the masterchain block commits: one per basechain shard of the devnet's two.
    expect(
      shards.body.blocks
        .filter((b: any) => b.workchain === 0)
        .map((b: any) => b.shard)
        .sort(),
    ).toEqual(['4000000000000000', 'C000000000000000']);
    const state = await v3('masterchainBlockShardState', { seqno: String(own.mcSeqno) });
    const tops = await devnet.getShards(own.mcSeqno);
    expect(state.body.blocks.map((b: any) => [b.workchain, b.seqno, b.root_hash]).sort()).toEqual(
      tops.map((t) => [t.workchain, t.seqno, t.rootHash.toString('base64')]).sort(),
    );
    for (const path of ['masterchainBlockShards', 'masterchainBlockShardState', 'transactionsByMasterchainBlock']) {
      const missing = await v3(path, { seqno: '99999999' });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ error: 'masterchain block 99999999 not found' });
    }
    expect((await v3('transactions', { mc_seqno: '99999999' })).status).toBe(404);
  });

  it('transactions of an account: the same hashes and lts as v2, newest first, with messages and states', async () => {
    const faucet = devnet.faucet.address;
    const v2txs = await v2('getTransactions', { address: friendly(faucet), limit: '20' });
    const r = await v3('transactions', { account: friendly(faucet), limit: '20' });
    expect(r.status).toBe(200);
    expect(r.body.transactions.map((t: any) => [t.hash, t.lt])).toEqual(
      v2txs.map((t: any) => [t.transaction_id.hash, t.transaction_id.lt]),
    );
    const latest = r.body.transactions[0];
    expect(latest.account).toBe(raw(faucet));
    expect(latest.in_msg).toMatchObject({ hash: own.extHash.toString('base64'), source: null, destination: raw(faucet), created_lt: null });
    expect(latest.in_msg.hash_norm).toMatch(/=$/);
    expect(latest.out_msgs).toHaveLength(1);
    expect(latest.out_msgs[0]).toMatchObject({ destination: raw(own.receiver), value: '123456789', opcode: '0x00000000' });
    expect(latest.out_msgs[0].message_content.decoded).toEqual({ type: 'text_comment', '@type': 'text_comment', comment: own.comment });
    expect(latest.description).toMatchObject({ type: 'ord', aborted: false, compute_ph: { success: true } });
    expect(latest.mc_block_seqno).toBe(own.mcSeqno);
    expect(latest.finality).toBe('finalized');
    const state = await devnet.getAccountState(faucet, own.mcSeqno);
    expect(latest.account_state_after.balance).toBe(state.balance.toString());
    expect(latest.account_state_after.account_status).toBe('active');
    // Every address in the reply is in the address book; wallets are non-bounceable.
    expect(r.body.address_book[raw(faucet)]).toEqual({
      user_friendly: faucet.toString({ urlSafe: true, bounceable: false, testOnly: network === 'testnet' }),
      domain: null,
      interfaces: ['wallet_v4r2'],
    });
    expect(Object.keys(r.body.address_book)).toEqual(expect.arrayContaining([raw(faucet), raw(own.receiver)]));
  });

  it('transactions: pages never overlap, lt and time windows are inclusive, filters by block, hash and lt', async () => {
    const all = await v3('transactions', { limit: '12' });
    const p1 = await v3('transactions', { limit: '6' });
    const p2 = await v3('transactions', { limit: '6', offset: '6' });
    const key = (r: any) => r.body.transactions.map((t: any) => `${t.lt}/${t.account}`);
    expect([...key(p1), ...key(p2)]).toEqual(key(all));
    const asc = await v3('transactions', { limit: '5', sort: 'asc' });
    expect(BigInt(asc.body.transactions[0].lt) <= BigInt(asc.body.transactions[4].lt)).toBe(true);

    const t = all.body.transactions[3];
    const byLt = await v3('transactions', { start_lt: t.lt, end_lt: t.lt });
    expect(byLt.body.transactions.map((x: any) => x.hash)).toContain(t.hash);
    const byTime = await v3('transactions', { start_utime: String(t.now), end_utime: String(t.now), limit: '1000' });
    expect(byTime.body.transactions.every((x: any) => x.now === t.now)).toBe(true);
    expect(byTime.body.transactions.map((x: any) => x.hash)).toContain(t.hash);
    const byHash = await v3('transactions', { hash: hex(t.hash) });
    expect(byHash.body.transactions.map((x: any) => x.hash)).toEqual([t.hash]);
    const byBlock = await v3('transactions', {
      workchain: String(t.block_ref.workchain),
      shard: t.block_ref.shard,
      seqno: String(t.block_ref.seqno),
      limit: '1000',
    });
    expect(byBlock.body.transactions.map((x: any) => x.hash)).toContain(t.hash);
    const excluded = await v3('transactions', { exclude_account: t.account, limit: '50' });
    expect(excluded.body.transactions.every((x: any) => x.account !== t.account)).toBe(true);
    const several = await v3('transactions', { account: `${raw(devnet.faucet.address)},${raw(own.receiver)}`, limit: '1000' });
    expect(new Set(several.body.transactions.map((x: any) => x.account))).toEqual(new Set([raw(devnet.faucet.address), raw(own.receiver)]));
  });

  it('transactionsByMasterchainBlock returns every transaction the chain committed in that block', async () => {
    const r = await v3('transactionsByMasterchainBlock', { seqno: String(own.mcSeqno), limit: '1000', sort: 'asc' });
    expect(r.status).toBe(200);
    const expected: string[] = [];
    const mc = await devnet.getBlockHeader({ workchain: -1, shard: -(2n ** 63n), seqno: own.mcSeqno });
    for (const id of [mc.id, ...mc.shardBlocks!]) {
      const page = await devnet.listBlockTransactions(id, { count: 1000 });
      expected.push(...page.transactions.map((t) => t.hash.toString('base64')));
    }
    expect(r.body.transactions.map((t: any) => t.hash).sort()).toEqual(expected.sort());
  });

  it('transactionsByMessage, adjacentTransactions: a message links its sender and receiver', async () => {
    const sender = await v3('transactionsByMessage', { msg_hash: own.extHash.toString('base64url').replace(/=+$/, '') });
    expect(sender.body.transactions).toHaveLength(1);
    const senderTx = sender.body.transactions[0];
    const outHash = senderTx.out_msgs[0].hash;
    const receiving = await v3('transactionsByMessage', { msg_hash: outHash, direction: 'in' });
    expect(receiving.body.transactions.map((t: any) => t.account)).toEqual([raw(own.receiver)]);
    const sending = await v3('transactionsByMessage', { msg_hash: outHash, direction: 'out' });
    expect(sending.body.transactions.map((t: any) => t.hash)).toEqual([senderTx.hash]);
    const both = await v3('transactionsByMessage', { msg_hash: outHash });
    expect(both.body.transactions).toHaveLength(2);
    const byBody = await v3('transactionsByMessage', { body_hash: senderTx.out_msgs[0].message_content.hash, direction: 'in' });
    expect(byBody.body.transactions.map((t: any) => t.hash)).toContain(receiving.body.transactions[0].hash);

    const children = await v3('adjacentTransactions', { hash: senderTx.hash, direction: 'out' });
    expect(children.body.transactions.map((t: any) => t.hash)).toEqual([receiving.body.transactions[0].hash]);
    const parent = await v3('adjacentTransactions', { hash: receiving.body.transactions[0].hash, direction: 'in' });
    expect(parent.body.transactions.map((t: any) => t.hash)).toEqual([senderTx.hash]);
    expect((await v3('adjacentTransactions', { hash: senderTx.hash, direction: 'in' })).body.transactions).toEqual([]);

    const none = await v3('transactionsByMessage', { direction: 'in' });
    expect(none.status).toBe(422);
    expect(none.body.error).toMatch(/msg_hash/);
    const unknownTx = await v3('adjacentTransactions', { hash: '0'.repeat(64) });
    expect(unknownTx.status).toBe(404);
  });

  it('messages: by hash (in and out transactions), by source/destination, externals, opcode, body hash', async () => {
    const ext = await v3('messages', { msg_hash: own.extHash.toString('hex') });
    expect(ext.status).toBe(200);
    expect(ext.body.messages).toHaveLength(1);
    expect(ext.body.messages[0]).toMatchObject({ source: null, destination: raw(devnet.faucet.address), out_msg_tx_hash: null });
    const tx = (await v3('transactionsByMessage', { msg_hash: own.extHash.toString('hex') })).body.transactions[0];
    expect(ext.body.messages[0].in_msg_tx_hash).toBe(tx.hash);
    const norm = await v3('messages', { msg_hash: ext.body.messages[0].hash_norm });
    expect(norm.body.messages.map((m: any) => m.hash)).toEqual([own.extHash.toString('base64')]);

    const internalMsg = tx.out_msgs[0];
    const both = await v3('messages', { msg_hash: internalMsg.hash });
    expect(both.body.messages).toHaveLength(1);
    expect(both.body.messages[0].out_msg_tx_hash).toBe(tx.hash);
    expect(both.body.messages[0].in_msg_tx_hash).toMatch(/=$/);
    expect(both.body.address_book[raw(own.receiver)].user_friendly).toBe(
      own.receiver.toString({ urlSafe: true, bounceable: false, testOnly: network === 'testnet' }),
    );

    const toReceiver = await v3('messages', { destination: friendly(own.receiver) });
    expect(toReceiver.body.messages.map((m: any) => m.hash)).toContain(internalMsg.hash);
    const externals = await v3('messages', { source: 'null', limit: '50' });
    expect(externals.body.messages.length).toBeGreaterThan(0);
    expect(externals.body.messages.every((m: any) => m.source === null)).toBe(true);
    const onlyExt = await v3('messages', { only_externals: 'true', limit: '50' });
    expect(onlyExt.body.messages.every((m: any) => m.source === null || m.destination === null)).toBe(true);
    const noExt = await v3('messages', { exclude_externals: 'true', limit: '50' });
    expect(noExt.body.messages.every((m: any) => m.source !== null && m.destination !== null)).toBe(true);
    const comments = await v3('messages', { opcode: '0x0', limit: '100' });
    expect(comments.body.messages.every((m: any) => m.opcode === '0x00000000')).toBe(true);
    const byBody = await v3('messages', { body_hash: internalMsg.message_content.hash });
    expect(byBody.body.messages.map((m: any) => m.hash)).toContain(internalMsg.hash);

    const all = await v3('messages', { limit: '8' });
    const p1 = await v3('messages', { limit: '4' });
    const p2 = await v3('messages', { limit: '4', offset: '4' });
    const hashes = (r: any) => r.body.messages.map((m: any) => m.hash);
    expect([...hashes(p1), ...hashes(p2)]).toEqual(hashes(all));
  });

  it('accountStates and walletStates: balances equal to v2, wallet fields by code hash', async () => {
    const accounts = [devnet.faucet.address, ...seed.wallets.map((w) => w.address), seed.jetton.minter];
    const r = await v3('accountStates', { address: accounts.map(friendly) });
    expect(r.status).toBe(200);
    for (const a of accounts) {
      const entry = r.body.accounts.find((x: any) => x.address === raw(a));
      const balance = await v2('getAddressBalance', { address: friendly(a) });
      expect(entry.balance).toBe(balance);
      expect(entry.code_boc).toBeTypeOf('string');
    }
    const noBoc = await v3('accountStates', { address: raw(devnet.faucet.address), include_boc: 'false' });
    expect(noBoc.body.accounts[0]).toMatchObject({ code_boc: null, data_boc: null, interfaces: ['wallet_v4r2'] });
    expect(noBoc.body.accounts[0].contract_methods).toContain(85143); // seqno

    const w = await v3('walletStates', {
      address: [friendly(devnet.faucet.address), raw(seed.jetton.minter), ...seed.wallets.map((x) => raw(x.address))],
    });
    expect(w.status).toBe(200);
    const faucetWallet = w.body.wallets.find((x: any) => x.address === raw(devnet.faucet.address));
    const v2wallet = await v2('getWalletInformation', { address: friendly(devnet.faucet.address) });
    expect(faucetWallet).toMatchObject({
      is_wallet: true,
      wallet_type: 'wallet v4 r2',
      seqno: v2wallet.seqno,
      wallet_id: v2wallet.wallet_id,
      balance: v2wallet.balance,
    });
    const v5 = seed.wallets.find((x) => x.version === 'v5r1')!;
    expect(w.body.wallets.find((x: any) => x.address === raw(v5.address))).toMatchObject({
      is_wallet: true,
      wallet_type: 'wallet v5 r1',
      is_signature_allowed: true,
    });
    expect(w.body.wallets.find((x: any) => x.address === raw(seed.jetton.minter))).toMatchObject({ is_wallet: false, wallet_type: null });
  });

  it('addressBook: keyed as written, friendly forms by the wallet rule, unparseable entries empty', async () => {
    const asGiven = friendly(devnet.faucet.address);
    const minterRaw = seed.jetton.minter.toRawString();
    const badChecksum = `${asGiven.slice(0, 47)}${asGiven.endsWith('A') ? 'B' : 'A'}`;
    const r = await v3('addressBook', { address: [asGiven, minterRaw, badChecksum] });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([asGiven, minterRaw, badChecksum].sort());
    expect(r.body[asGiven]).toEqual({
      user_friendly: devnet.faucet.address.toString({ urlSafe: true, bounceable: false, testOnly: network === 'testnet' }),
      domain: null,
      interfaces: ['wallet_v4r2'],
    });
    expect(r.body[minterRaw]).toEqual({
      user_friendly: seed.jetton.minter.toString({ urlSafe: true, bounceable: true, testOnly: network === 'testnet' }),
      domain: null,
      interfaces: ['jetton_master'],
    });
    expect(r.body[badChecksum]).toEqual({ user_friendly: null, domain: null, interfaces: [] });
  });

  it('topAccountsByBalance: largest first, paged', async () => {
    const top = await v3('topAccountsByBalance', { limit: '5' });
    expect(top.status).toBe(200);
    expect(top.body[0].account).toBe(raw(devnet.faucet.address));
    const balances = top.body.map((x: any) => BigInt(x.balance));
    expect(balances).toEqual([...balances].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
    const next = await v3('topAccountsByBalance', { limit: '5', offset: '1' });
    expect(next.body[0]).toEqual(top.body[1]);
  });

  it('the hosted request headers: X-No-Address-Book and X-No-Metadata drop those objects, X-Timeout bounds the reads', async () => {
    const query = { account: raw(devnet.faucet.address), limit: '5' };
    const plain = await v3('transactions', query);
    expect(Object.keys(plain.body.address_book).length).toBeGreaterThan(0);
    const noBook = await v3('transactions', query, { 'X-No-Address-Book': 'true' });
    expect(noBook.status).toBe(200);
    expect(noBook.body).toEqual({ transactions: plain.body.transactions });
    const msgQuery = { msg_hash: own.extHash.toString('hex') };
    const msgs = await v3('messages', msgQuery);
    expect(msgs.body).toHaveProperty('metadata');
    const noMeta = await v3('messages', msgQuery, { 'X-No-Metadata': '1' });
    expect(noMeta.body).not.toHaveProperty('metadata');
    expect(noMeta.body.address_book).toEqual(msgs.body.address_book);
    expect(await v3('messages', msgQuery, { 'X-No-Metadata': 'false', 'X-No-Address-Book': 'FALSE' })).toEqual(msgs);
    // A time limit the reads meet changes nothing; values past the hosted cap are read as the cap.
    expect((await v3('transactions', query, { 'X-Timeout': '3000' })).body).toEqual(plain.body);
    expect((await v3('transactions', query, { 'X-Timeout': '600000' })).body).toEqual(plain.body);
    for (const [header, value] of [
      ['X-Timeout', '-5'],
      ['X-Timeout', 'soon'],
      ['X-Timeout', '0'],
      ['X-No-Address-Book', 'yes'],
      ['X-No-Metadata', 'maybe'],
    ]) {
      const r = await v3('transactions', query, { [header]: value });
      expect(r.status, `${header}: ${value}`).toBe(422);
      expect(r.body.error.toLowerCase()).toContain(header.toLowerCase());
    }
  });

  it("/events is /traces under another key, with every trace's actions", async () => {
    const query = { account: raw(devnet.faucet.address), limit: '3' };
    const traces = await v3('traces', { ...query, include_actions: 'true' });
    const events = await v3('events', query);
    expect(events.status).toBe(200);
    expect(events.body.events.length).toBeGreaterThan(0);
    expect(events.body).toEqual({ events: traces.body.traces, address_book: traces.body.address_book, metadata: traces.body.metadata });
    expect(events.body.events.every((e: { actions?: unknown[] }) => Array.isArray(e.actions))).toBe(true);
    const second = await v3('events', { ...query, limit: '1', offset: '1' });
    expect(second.body.events.map((e: { trace_id: string }) => e.trace_id)).toEqual([events.body.events[1]?.trace_id].filter(Boolean));
    expect((await v3('events', { ...query, limitt: '1' })).body.error).toContain('limitt');
  });

  it('documented errors: 422 naming the parameter', async () => {
    const cases: [string, Record<string, string>, RegExp][] = [
      ['transactions', { account: `0:${'Z'.repeat(64)}` }, /account/],
      ['transactions', { account: `${friendly(devnet.faucet.address).slice(0, 47)}0` }, /account/],
      ['transactions', { limit: '0' }, /limit/],
      ['transactions', { limit: '1001' }, /limit/],
      ['transactions', { sort: 'up' }, /sort/],
      ['transactions', { lt: '99999999999999999999' }, /lt/],
      ['transactions', { accountt: raw(devnet.faucet.address) }, /accountt/],
      ['messages', { only_externals: 'true', exclude_externals: 'true' }, /externals/],
      ['messages', { opcode: 'xyz' }, /opcode/],
      ['blocks', { root_hash: 'abc' }, /root_hash/],
      ['topAccountsByBalance', { limit: '1025' }, /limit/],
      ['accountStates', {}, /address/],
    ];
    for (const [path, params, pattern] of cases) {
      const r = await v3(path, params);
      expect(r.status, `${path} ${JSON.stringify(params)}`).toBe(422);
      expect(r.body.error).toMatch(pattern);
    }
  });
});
