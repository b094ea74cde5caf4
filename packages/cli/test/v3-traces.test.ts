/**
 * /traces and /actions over real HTTP against the composed service (devnet → indexer with the traces derivation →
 * store → handlers → front door), on both networks, with response validation on (an off-spec 200 body turns into a
 * 500). Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 *
 * The seed's traces come out with their actions (TON, jetton and NFT transfers), and a transfer of the test's own
 * to an account that does not exist (so it bounces back) is one trace of three transactions across two accounts.
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

describe.each(['mainnet', 'testnet'] as const)('API v3 traces and actions on %s', (network) => {
  let devnet: Devnet;
  let indexer: Indexer;
  let base: string;
  let seed: SeedSummary;
  /** The test's own bounced transfer: its external message, receiver, and the trace v3 returns for it. */
  let own: { extHash: Buffer; receiver: Address; comment: string; trace: any };

  const get = async (path: string, params: Record<string, string | string[]> = {}, headers: Record<string, string> = {}) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const item of Array.isArray(v) ? v : [v]) qs.append(k, item);
    const res = await fetch(`${base}/api/v3/${path}?${qs}`, { headers: { 'X-API-Key': suite.keys[network], ...headers } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const ok = async (path: string, params: Record<string, string | string[]> = {}, headers: Record<string, string> = {}) => {
    const r = await get(path, params, headers);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const traceOf = async (extHash: Buffer, params: Record<string, string> = {}) => {
    const body = await ok('traces', { msg_hash: extHash.toString('hex'), include_actions: 'true', ...params });
    expect(body.traces).toHaveLength(1);
    return body.traces[0];
  };

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    indexer = suite.service.gateway.indexers[network]!;
    base = `http://127.0.0.1:${suite.service.ports[network]}`;
    seed = await devnet.seed();
    await indexer.waitFor(seed.lastBlock.seqno);

    // Bounceable, to an address with no account: the receiver's transaction bounces the value back to the faucet.
    const receiver = new Address(0, Buffer.from(`${network}-v3-traces-receiver`.padEnd(32, '#')));
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    const comment = `traces ${network}`;
    const boc = await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, [
      internal({ to: receiver, value: 500_000_000n, bounce: true, body: comment }),
    ]);
    const { hash } = await devnet.sendMessage(boc);
    await devnet.produceBlock();
    await indexer.waitFor((await devnet.settle()).seqno);
    let trace: any;
    const started = Date.now();
    while (Date.now() - started < 15_000) {
      const r = await get('traces', { msg_hash: hash.toString('hex'), include_actions: 'true' });
      trace = r.body.traces?.[0];
      if (trace?.trace_info.trace_state === 'complete') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(trace?.trace_info.trace_state).toBe('complete');
    own = { extHash: hash, receiver, comment, trace };
  });

  it('the trace of a bounced transfer holds every transaction it caused, as a tree', async () => {
    const t = own.trace;
    const faucet = raw(devnet.faucet.address);
    expect(t.external_hash).toBe(own.extHash.toString('base64'));
    expect(t.trace_info).toEqual({
      trace_state: 'complete',
      messages: 2,
      transactions: 3,
      pending_messages: 0,
      classification_state: 'ok',
    });
    expect(t.is_incomplete).toBe(false);
    expect(t.transactions_order).toHaveLength(3);
    const [first, second, third] = t.transactions_order.map((h: string) => t.transactions[h]);
    expect(t.trace_id).toBe(first.hash);
    expect([first.account, second.account, third.account]).toEqual([faucet, raw(own.receiver), faucet]);
    expect(third.in_msg.bounced).toBe(true);
    for (const tx of [first, second, third]) expect(tx.trace_id).toBe(t.trace_id);
    expect(t.trace).toEqual({
      tx_hash: first.hash,
      in_msg_hash: own.extHash.toString('base64'),
      children: [
        {
          tx_hash: second.hash,
          in_msg_hash: second.in_msg.hash,
          children: [{ tx_hash: third.hash, in_msg_hash: third.in_msg.hash, children: [] }],
        },
      ],
    });
    expect(BigInt(t.start_lt)).toBe(BigInt(first.lt));
    expect(BigInt(t.end_lt)).toBe(BigInt(third.lt));
    // The same transactions as the chain-data operations serve, with the trace id filled in.
    const byAccount = await ok('transactions', { account: raw(own.receiver) });
    expect(byAccount.transactions.map((x: any) => [x.hash, x.trace_id])).toEqual([[second.hash, t.trace_id]]);
    expect(first.out_msgs[0].decoded_opcode).toBe('text_comment');
    // The action: a TON transfer with its comment, failed since the value came back.
    const transfer = t.actions.find((a: any) => a.type === 'ton_transfer');
    expect(transfer).toMatchObject({
      trace_id: t.trace_id,
      success: false,
      details: { source: faucet, destination: raw(own.receiver), value: '500000000', comment: own.comment },
    });
    expect(transfer.transactions).toEqual(expect.arrayContaining([first.hash, second.hash]));
  });

  it('the seed is classified: TON transfers (an encrypted comment too), jetton and NFT transfers, and the jetton burn', async () => {
    const actions = (await Promise.all(seed.messages.map((h) => traceOf(h)))).flatMap((t: any) => {
      expect(t.trace_info).toMatchObject({ trace_state: 'complete', pending_messages: 0, classification_state: 'ok' });
      expect(t.transactions_order).toHaveLength(t.trace_info.transactions);
      return t.actions;
    });
    const types = new Set(actions.map((a: any) => a.type));
    for (const type of ['ton_transfer', 'jetton_transfer', 'jetton_burn', 'nft_transfer']) expect(types, type).toContain(type);
    const jetton = actions.find((a: any) => a.type === 'jetton_transfer');
    expect(jetton.details).toMatchObject({
      asset: raw(seed.jetton.minter),
      amount: seed.jetton.transferred.toString(),
      comment: 'jettons for bob',
    });
    // The seed's encrypted comment is a TON transfer marked encrypted.
    const encrypted = actions.find(
      (a: any) =>
        a.type === 'ton_transfer' &&
        a.details.source === raw(seed.encryptedComment.from) &&
        a.details.destination === raw(seed.encryptedComment.to) &&
        a.details.encrypted,
    );
    expect(encrypted, 'encrypted comment transfer').toBeDefined();
    const nft = actions.find((a: any) => a.type === 'nft_transfer');
    expect(nft.details).toMatchObject({
      nft_collection: raw(seed.nft.collection),
      nft_item: raw(seed.nft.item),
      new_owner: raw(seed.nft.ownerAfterTransfer),
    });
  });

  it('/traces filters: account, trace_id, tx_hash, msg_hash, mc_seqno, lt and utime windows, and pages that never overlap', async () => {
    const t = own.trace;
    const ids = (body: any) => body.traces.map((x: any) => x.trace_id);
    expect(ids(await ok('traces', { account: own.receiver.toString({ testOnly: network === 'testnet' }) }))).toEqual([t.trace_id]);
    expect(ids(await ok('traces', { trace_id: hex(t.trace_id) }))).toEqual([t.trace_id]);
    expect(ids(await ok('traces', { tx_hash: t.transactions_order[2] }))).toEqual([t.trace_id]);
    const endMc = Number(t.mc_seqno_end);
    expect(ids(await ok('traces', { mc_seqno: String(endMc) }))).toContain(t.trace_id);
    expect(ids(await ok('traces', { mc_seqno: String(endMc + 1000) }))).toEqual([]);
    expect(ids(await ok('traces', { start_lt: t.end_lt, end_lt: t.end_lt }))).toEqual([t.trace_id]);
    expect(ids(await ok('traces', { start_utime: String(t.end_utime), end_utime: String(t.end_utime) }))).toContain(t.trace_id);
    // without include_actions there are no actions
    expect((await ok('traces', { trace_id: t.trace_id })).traces[0].actions).toBeUndefined();

    const all = ids(await ok('traces', { limit: '8', sort: 'asc' }));
    const pages = [
      ...ids(await ok('traces', { limit: '4', sort: 'asc' })),
      ...ids(await ok('traces', { limit: '4', offset: '4', sort: 'asc' })),
    ];
    expect(pages).toEqual(all);
    const desc = await ok('traces', { limit: '8' });
    const lts = desc.traces.map((x: any) => BigInt(x.end_lt));
    expect(lts).toEqual([...lts].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
  });

  it('/traces errors: two selectors, bad hashes and addresses are 422 naming the parameter', async () => {
    const two = await get('traces', { account: raw(own.receiver), trace_id: own.trace.trace_id });
    expect(two.status).toBe(422);
    expect(two.body.error).toMatch(/only one of account, trace_id, tx_hash, msg_hash/);
    const badHash = await get('traces', { tx_hash: 'zz' });
    expect(badHash.status).toBe(422);
    expect(badHash.body.error).toMatch(/tx_hash/);
    const badAccount = await get('traces', { account: `0:${'0'.repeat(63)}G` });
    expect(badAccount.status).toBe(422);
    expect(badAccount.body.error).toMatch(/account/);
  });

  it('/actions filters: account, trace_id, tx_hash, msg_hash, action_id, types, windows, order and pages', async () => {
    const transfer = own.trace.actions.find((a: any) => a.type === 'ton_transfer');
    const ids = (body: any) => body.actions.map((a: any) => a.action_id);
    const byAccount = await ok('actions', { account: raw(own.receiver) });
    expect(ids(byAccount)).toEqual([transfer.action_id]);
    expect(byAccount.address_book[raw(own.receiver)]).toBeDefined();
    expect(byAccount.metadata).toEqual({});
    expect(ids(await ok('actions', { trace_id: own.trace.trace_id }))).toContain(transfer.action_id);
    expect(ids(await ok('actions', { tx_hash: hex(own.trace.transactions_order[1]) }))).toEqual([transfer.action_id]);
    expect(ids(await ok('actions', { msg_hash: own.extHash.toString('hex') }))).toContain(transfer.action_id);
    expect(ids(await ok('actions', { action_id: transfer.action_id }))).toEqual([transfer.action_id]);
    expect(ids(await ok('actions', { mc_seqno: String(transfer.trace_mc_seqno_end), account: raw(own.receiver) }))).toEqual([
      transfer.action_id,
    ]);
    expect(
      ids(await ok('actions', { start_lt: transfer.trace_end_lt, end_lt: transfer.trace_end_lt, account: raw(own.receiver) })),
    ).toEqual([transfer.action_id]);
    expect(ids(await ok('actions', { end_lt: String(BigInt(transfer.trace_end_lt) - 1n), account: raw(own.receiver) }))).toEqual([]);
    expect(ids(await ok('actions', { start_utime: String(transfer.trace_end_utime), account: raw(own.receiver) }))).toEqual([
      transfer.action_id,
    ]);

    const jettons = await ok('actions', { action_type: 'jetton_transfer,jetton_burn' });
    expect(jettons.actions.length).toBeGreaterThanOrEqual(2);
    for (const a of jettons.actions) expect(['jetton_transfer', 'jetton_burn']).toContain(a.type);
    const noTon = await ok('actions', { exclude_action_type: 'ton_transfer', limit: '100' });
    expect(noTon.actions.length).toBeGreaterThan(0);
    for (const a of noTon.actions) expect(a.type).not.toBe('ton_transfer');

    const withAccounts = await ok('actions', { action_id: transfer.action_id, include_accounts: 'true', include_transactions: 'true' });
    expect(withAccounts.actions[0].accounts).toEqual(expect.arrayContaining([raw(devnet.faucet.address), raw(own.receiver)]));
    expect(withAccounts.actions[0].transactions_full.map((x: any) => x.hash)).toEqual(withAccounts.actions[0].transactions);
    expect((await ok('actions', { action_id: transfer.action_id })).actions[0].accounts).toBeUndefined();

    const all = ids(await ok('actions', { limit: '10', sort: 'asc' }));
    expect([
      ...ids(await ok('actions', { limit: '5', sort: 'asc' })),
      ...ids(await ok('actions', { limit: '5', offset: '5', sort: 'asc' })),
    ]).toEqual(all);
    const desc = (await ok('actions', { limit: '10' })).actions.map((a: any) => BigInt(a.trace_end_lt));
    expect(desc).toEqual([...desc].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)));
  });

  it('/actions supported_action_types and X-Actions-Version choose which types a client sees', async () => {
    // A type nobody supports is never returned; the header replaces the parameter.
    const onlyJettons = await ok('actions', { action_type: 'jetton_transfer', supported_action_types: 'v1' });
    expect(onlyJettons.actions.length).toBeGreaterThan(0);
    const viaHeader = await ok('actions', { action_type: 'jetton_transfer' }, { 'X-Actions-Version': 'latest' });
    expect(viaHeader.actions.map((a: any) => a.action_id)).toEqual(onlyJettons.actions.map((a: any) => a.action_id));
    const bad = await get('actions', { supported_action_types: 'no such;type' });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/supported_action_types/);
    const badType = await get('actions', { action_type: 'a b' });
    expect(badType.status).toBe(422);
    expect(badType.body.error).toMatch(/action_type/);
    const badAccount = await get('actions', { account: 'nonsense' });
    expect(badAccount.status).toBe(422);
  });
});
