/**
 * Pending traces over real HTTP against the composed service, on both networks, with response validation on: a
 * transfer sent through v2 sendBoc is emulated and served by all three pending operations before its block exists,
 * then seen confirmed (the chain has it) and finalized (the index has it, and serves the real transaction and trace). The
 * other network never sees it. Runs on PGlite with in-process pending entries, and on PostgreSQL and Redis when
 * DATABASE_URL and REDIS_URL are set.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, internal, WalletContractV4 } from '@ton/ton';
import { dns, signerFromSeed, tokens, walletTransferBoc, type Devnet } from '@tongate/devnet';
import type { Indexer } from '@tongate/indexer';
import { useKeyedGateway } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 0 });
const NETWORKS = ['mainnet', 'testnet'] as const;
type Net = (typeof NETWORKS)[number];

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const other = (n: Net): Net => (n === 'mainnet' ? 'testnet' : 'mainnet');

async function call(network: Net, path: string, init: { query?: Record<string, string | string[]>; body?: unknown } = {}) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(init.query ?? {})) for (const item of Array.isArray(v) ? v : [v]) qs.append(k, item);
  const res = await fetch(`http://127.0.0.1:${suite.service.ports[network]}/api/${path}?${qs}`, {
    method: init.body ? 'POST' : 'GET',
    headers: { 'X-API-Key': suite.keys[network], ...(init.body ? { 'content-type': 'application/json' } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A signed request of the devnet's faucet wallet sending these messages. */
async function faucetRequest(devnet: Devnet, messages: Parameters<typeof walletTransferBoc>[3]) {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
  return walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, messages);
}

/** A signed faucet transfer from the devnet's faucet. */
async function faucetTransfer(devnet: Devnet, receiver: Address, comment: string) {
  return faucetRequest(devnet, [internal({ to: receiver, value: 234_567_890n, bounce: false, body: comment })]);
}

describe.each(NETWORKS)('pending traces on %s', (network) => {
  let devnet: Devnet;
  let indexer: Indexer;
  // Unique to this run: with REDIS_URL, entries of an earlier run may still be live in the shared store.
  const run = `${process.pid}-${Date.now()}`;
  const receiver = new Address(0, createHash('sha256').update(`${network}-pending-receiver-${run}`).digest());
  const comment = `pending ${network} ${run}`;
  let extHash: string;
  let traceId: string;

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    indexer = suite.service.gateway.indexers[network]!;
    const head = await devnet.produceBlock();
    await indexer.waitFor(head.seqno);
  });

  it('a transfer sent through sendBoc is in all three pending operations before its block exists', async () => {
    const before = await devnet.getMasterchainInfo();
    const boc = await faucetTransfer(devnet, receiver, comment);
    const sent = await call(network, 'v2/sendBocReturnHash', { body: { boc: boc.toString('base64') } });
    expect(sent.status).toBe(200);
    extHash = sent.body.result.hash;
    const hashNorm: string = sent.body.result.hash_norm;

    const traces = await call(network, 'v3/pendingTraces', { query: { ext_msg_hash: Buffer.from(extHash, 'base64').toString('hex') } });
    expect(traces.status).toBe(200);
    expect(traces.body.traces).toHaveLength(1);
    const trace = traces.body.traces[0];
    traceId = trace.trace_id;
    expect(trace.external_hash).toBe(extHash);
    expect(trace.trace_info).toMatchObject({ trace_state: 'complete', transactions: 2, pending_messages: 0 });
    expect(trace.transactions_order).toHaveLength(2);
    const [rootHash, childHash] = trace.transactions_order;
    expect(trace.trace).toMatchObject({ tx_hash: rootHash, children: [{ tx_hash: childHash, children: [] }] });
    const root = trace.transactions[rootHash];
    const child = trace.transactions[childHash];
    expect(root).toMatchObject({
      account: raw(devnet.faucet.address),
      emulated: true,
      finality: 'pending',
      mc_block_seqno: null,
      trace_id: traceId,
      trace_external_hash: extHash,
    });
    expect(root.in_msg).toMatchObject({ hash: extHash, hash_norm: hashNorm });
    expect(child).toMatchObject({ account: raw(receiver), emulated: true, finality: 'pending', end_status: 'uninit' });
    expect(child.in_msg).toMatchObject({
      source: raw(devnet.faucet.address),
      destination: raw(receiver),
      value: '234567890',
      message_content: { decoded: { comment } },
    });
    expect(traces.body.address_book[raw(receiver)]).toBeDefined();
    // The same trace by the receiver, and by the normalized hash.
    const byAccount = await call(network, 'v3/pendingTraces', {
      query: { account: receiver.toString({ testOnly: network === 'testnet' }) },
    });
    expect(byAccount.body.traces.map((t: any) => t.trace_id)).toEqual([traceId]);
    const byNorm = await call(network, 'v3/pendingTraces', { query: { ext_msg_hash: hashNorm } });
    expect(byNorm.body.traces.map((t: any) => t.trace_id)).toEqual([traceId]);

    const actions = await call(network, 'v3/pendingActions', {
      query: { account: raw(devnet.faucet.address), include_transactions: 'true' },
    });
    expect(actions.status).toBe(200);
    const transfer = actions.body.actions.find((a: any) => a.trace_id === traceId);
    expect(transfer).toMatchObject({
      type: 'ton_transfer',
      finality: 'pending',
      trace_external_hash: extHash,
      trace_external_hash_norm: hashNorm,
      details: { source: raw(devnet.faucet.address), destination: raw(receiver), value: '234567890', comment, encrypted: false },
    });
    expect(transfer.transactions_full.map((t: any) => t.hash).sort()).toEqual([rootHash, childHash].sort());

    const txs = await call(network, 'v3/pendingTransactions', { query: { account: raw(receiver) } });
    expect(txs.status).toBe(200);
    expect(txs.body.transactions.map((t: any) => t.hash)).toEqual([childHash]);
    const byTrace = await call(network, 'v3/pendingTransactions', { query: { trace_id: traceId } });
    expect(byTrace.body.transactions.map((t: any) => t.hash).sort()).toEqual([rootHash, childHash].sort());

    // Its block does not exist yet: no new masterchain block, nothing indexed for the message.
    expect((await devnet.getMasterchainInfo()).last.seqno).toBe(before.last.seqno);
    expect((await call(network, 'v3/transactionsByMessage', { query: { msg_hash: extHash } })).body.transactions).toEqual([]);
  });

  it('then confirmed once its block exists, then finalized once indexed, and the real transaction is served', async () => {
    const finalityOf = async () => {
      const r = await call(network, 'v3/pendingTraces', { query: { ext_msg_hash: extHash } });
      expect(r.status).toBe(200);
      return r.body.traces[0]?.transactions[r.body.traces[0].transactions_order[0]] as any;
    };
    await indexer.stop(); // confirmed (on chain) is seen before finalized (indexed)
    const block = await devnet.produceBlock();
    const confirmed = await until('confirmed', async () => ((await finalityOf())?.finality === 'confirmed' ? true : undefined));
    expect(confirmed).toBe(true);
    const actions = await call(network, 'v3/pendingActions', { query: { ext_msg_hash: extHash } });
    expect(actions.body.actions.every((a: any) => a.finality === 'confirmed')).toBe(true);

    await indexer.start();
    await indexer.waitFor(block.seqno);
    const finalized = await until('finalized', async () => {
      const root = await finalityOf();
      return root?.finality === 'finalized' ? root : undefined;
    });
    expect(finalized.mc_block_seqno).toBe(block.seqno);
    // The receiver's transaction is sealed a block later when it is in the other shard.
    await indexer.waitFor((await devnet.settle()).seqno);
    const real = await call(network, 'v3/transactionsByMessage', { query: { msg_hash: extHash } });
    expect(real.body.transactions).toHaveLength(1);
    expect(real.body.transactions[0]).toMatchObject({
      account: raw(devnet.faucet.address),
      mc_block_seqno: block.seqno,
      emulated: false,
      finality: 'finalized',
    });
    // And the real trace: rooted at the real transaction, with every transaction the emulation foresaw (their
    // hashes differ: the real ones ran at another lt and time).
    const trace = await until('the real trace', async () => {
      const r = await call(network, 'v3/traces', { query: { msg_hash: extHash } });
      expect(r.status).toBe(200);
      const t = r.body.traces[0];
      return t && Object.keys(t.transactions).length === 2 ? t : undefined;
    });
    expect(trace.trace_id).toBe(real.body.transactions[0].hash);
    expect(trace.external_hash).toBe(extHash);
    expect(
      Object.values(trace.transactions)
        .map((t: any) => t.account)
        .sort(),
    ).toEqual([raw(devnet.faucet.address), raw(receiver)].sort());
  });

  it('never leaks to the other network', async () => {
    const there = other(network);
    const traces = await call(there, 'v3/pendingTraces', { query: { ext_msg_hash: extHash } });
    expect(traces).toEqual({ status: 200, body: { traces: [], address_book: {}, metadata: {} } });
    const actions = await call(there, 'v3/pendingActions', { query: { account: raw(receiver) } });
    expect(actions.body.actions).toEqual([]);
    const txs = await call(there, 'v3/pendingTransactions', { query: { trace_id: traceId } });
    expect(txs).toEqual({ status: 404, body: { error: 'emulated traces not found' } });
  });

  it('v3 /message and JSON-RPC sendBoc are emulated too; the documented errors', async () => {
    const viaV3 = await call(network, 'v3/message', {
      body: { boc: (await faucetTransfer(devnet, receiver, `${comment} v3`)).toString('base64') },
    });
    expect(viaV3.status).toBe(200);
    const traced = await call(network, 'v3/pendingTraces', { query: { ext_msg_hash: viaV3.body.message_hash } });
    expect(traced.body.traces).toHaveLength(1);
    await devnet.produceBlock();

    const boc = (await faucetTransfer(devnet, receiver, `${comment} rpc`)).toString('base64');
    const rpc = await call(network, 'v2/jsonRPC', { body: { jsonrpc: '2.0', id: 1, method: 'sendBocReturnHash', params: { boc } } });
    expect(rpc.status).toBe(200);
    const viaRpc = await call(network, 'v3/pendingTraces', { query: { ext_msg_hash: rpc.body.result.hash } });
    expect(viaRpc.body.traces).toHaveLength(1);
    await devnet.produceBlock();

    const both = await call(network, 'v3/pendingTraces', { query: { account: raw(receiver), ext_msg_hash: extHash } });
    expect(both).toEqual({ status: 422, body: { error: 'exactly one of account, ext_msg_hash must be given' } });
    expect((await call(network, 'v3/pendingActions', {})).status).toBe(422);
    expect(await call(network, 'v3/pendingTransactions', {})).toEqual({ status: 422, body: { error: 'account or trace_id is required' } });
    const nobody = new Address(0, Buffer.alloc(32, 7));
    expect(await call(network, 'v3/pendingTransactions', { query: { account: raw(nobody) } })).toEqual({
      status: 404,
      body: { error: 'emulated traces not found' },
    });
  });

  it("a pending jetton transfer is classified with the index's interfaces of the wallets, as once confirmed", async () => {
    // the faucet mints itself jettons of a minter of its own, indexed before the transfer is sent
    const minter = tokens.jettonMinterInit(devnet.faucet.address, `https://example.invalid/pending-${network}-${run}.json`);
    const faucetWallet = tokens.jettonWalletAddress(devnet.faucet.address, minter.address);
    const mint = await faucetRequest(devnet, [
      internal({
        to: minter.address,
        value: 500_000_000n,
        bounce: false,
        init: minter.init,
        body: tokens.jettonMintBody({
          minter: minter.address,
          to: devnet.faucet.address,
          amount: 1_000n,
          responseTo: devnet.faucet.address,
          walletForwardValue: 100_000_000n,
        }),
      }),
    ]);
    expect((await call(network, 'v2/sendBocReturnHash', { body: { boc: mint.toString('base64') } })).status).toBe(200);
    await indexer.waitFor((await devnet.settle()).seqno);

    const transfer = await faucetRequest(devnet, [
      internal({
        to: faucetWallet,
        value: 200_000_000n,
        bounce: true,
        body: tokens.jettonTransferBody({ amount: 300n, to: receiver, responseTo: devnet.faucet.address, forwardTonAmount: 0n }),
      }),
    ]);
    const sent = await call(network, 'v2/sendBocReturnHash', { body: { boc: transfer.toString('base64') } });
    expect(sent.status).toBe(200);
    const pending = await call(network, 'v3/pendingActions', { query: { ext_msg_hash: sent.body.result.hash } });
    expect(pending.status).toBe(200);
    const types = pending.body.actions.map((a: any) => a.type);
    expect(types).toContain('jetton_transfer');
    expect(types).not.toContain('unknown');
    const jetton = pending.body.actions.find((a: any) => a.type === 'jetton_transfer');
    expect(jetton).toMatchObject({
      finality: 'pending',
      details: {
        asset: raw(minter.address),
        sender: raw(devnet.faucet.address),
        sender_jetton_wallet: raw(faucetWallet),
        receiver: raw(receiver),
        amount: '300',
      },
    });
    await devnet.produceBlock();
  });

  it('a pending trace is classified with what its contracts will be: one it deploys, and .ton items of the trusted collection', async () => {
    /** Pending actions of a message sent now, then its actions once indexed: type and details, in order. */
    const pendingThenConfirmed = async (boc: Buffer) => {
      const sent = await call(network, 'v2/sendBocReturnHash', { body: { boc: boc.toString('base64') } });
      expect(sent.status).toBe(200);
      const hash = sent.body.result.hash as string;
      const pending = await call(network, 'v3/pendingActions', { query: { ext_msg_hash: hash } });
      expect(pending.status).toBe(200);
      await indexer.waitFor((await devnet.settle()).seqno);
      const confirmed = await until('the indexed trace', async () => {
        const r = await call(network, 'v3/traces', { query: { msg_hash: hash, include_actions: 'true' } });
        const t = r.body.traces?.[0];
        return t?.trace_info.trace_state === 'complete' && t.actions ? t.actions : undefined;
      });
      const shape = (actions: any[]) =>
        actions.map((a: any) => ({ type: a.type, success: a.success, details: a.details })).sort((x, y) => (x.type < y.type ? -1 : 1));
      return { pending: shape(pending.body.actions), confirmed: shape(confirmed) };
    };
    // The faucet, the devnet `.ton` collection's admin, registers a domain to itself: the item is deployed by the trace.
    const label = `pending-${network}-${run}`.slice(0, 60);
    const collection = dns.devnetDns(devnet.faucet.address).collection.address;
    const item = dns.dnsItemAddress(collection, label);
    const registered = await pendingThenConfirmed(
      await faucetRequest(devnet, [
        internal({ to: collection, value: 1_200_000_000n, bounce: true, body: dns.registerDomainBody(label, devnet.faucet.address) }),
      ]),
    );
    expect(registered.confirmed.map((a) => a.type)).not.toEqual(['ton_transfer']);
    expect(registered.pending).toEqual(registered.confirmed);
    // Its owner sets a record: the item is a `.ton` DNS item only as the trusted collection's own.
    const changed = await pendingThenConfirmed(
      await faucetRequest(devnet, [
        internal({
          to: item,
          value: 50_000_000n,
          bounce: true,
          body: dns.changeDnsRecordBody('wallet', dns.dnsRecord.wallet(devnet.faucet.address)),
        }),
      ]),
    );
    expect(changed.confirmed.map((a) => a.type)).toEqual(['change_dns']);
    expect(changed.pending).toEqual(changed.confirmed);
  });
});
