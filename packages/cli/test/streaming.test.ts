/**
 * The Streaming API v2 end to end, on both networks, over real connections with the npm clients `ws` and
 * `eventsource`: a faucet transfer seen pending (emulated) and then finalized, with the hashes and actions that
 * /api/v3 serves afterwards; filters by address, trace hash and action type; networks apart; trace_invalidated for
 * a message the chain refuses after its pending event; resuming after a reconnect; the hosted request errors.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, Cell, internal, WalletContractV4 } from '@ton/ton';
import { normalizedExternalMessageHash } from '@tongate/chain';
import { signerFromSeed, walletTransferBoc, type Devnet } from '@tongate/devnet';
import type { Indexer } from '@tongate/indexer';
import { useKeyedGateway } from './gateway-fixture.js';
import { openSse, openWs, sleep } from './stream-clients.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 0, streamKeyConnections: 20 });
const NETWORKS = ['mainnet', 'testnet'] as const;
type Net = (typeof NETWORKS)[number];

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const other = (n: Net): Net => (n === 'mainnet' ? 'testnet' : 'mainnet');
const port = (n: Net) => suite.service.ports[n];
const key = (n: Net) => ({ 'X-API-Key': suite.keys[n] });

async function v3(network: Net, path: string, query: Record<string, string>) {
  const res = await fetch(`http://127.0.0.1:${port(network)}/api/v3/${path}?${new URLSearchParams(query)}`, { headers: key(network) });
  expect(res.status).toBe(200);
  return (await res.json()) as any;
}

async function sendBoc(network: Net, boc: Buffer) {
  const res = await fetch(`http://127.0.0.1:${port(network)}/api/v2/sendBocReturnHash`, {
    method: 'POST',
    headers: { ...key(network), 'content-type': 'application/json' },
    body: JSON.stringify({ boc: boc.toString('base64') }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function faucetSeqno(devnet: Devnet): Promise<number> {
  return Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
}

async function faucetTransfer(devnet: Devnet, receiver: Address, comment: string, seqno?: number) {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
  const boc = await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno ?? (await faucetSeqno(devnet)), [
    internal({ to: receiver, value: 123_456_789n, bounce: false, body: comment }),
  ]);
  return { boc, hashNorm: normalizedExternalMessageHash(Cell.fromBoc(boc)[0]!).toString('base64') };
}

async function sealBlock(devnet: Devnet, indexer: Indexer): Promise<number> {
  const block = await devnet.settle();
  await indexer.waitFor(block.seqno);
  return block.seqno;
}

const rank = { pending: 0, confirmed: 1, finalized: 2 } as Record<string, number>;

describe('Streaming API requests', () => {
  const post = async (body: unknown, headers: Record<string, string> = key('mainnet')) => {
    const res = await fetch(`http://127.0.0.1:${port('mainnet')}/api/streaming/v2/sse`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const addr = raw(new Address(0, Buffer.alloc(32, 7)));

  it('SSE refuses a bad subscription with the hosted message, echoing the id', async () => {
    expect(await post({ id: 'a', addresses: [addr] })).toEqual({
      status: 400,
      body: { error: 'types are required for subscription', id: 'a' },
    });
    expect(await post({ id: 'b', types: ['trace_invalidated'], addresses: [addr] })).toEqual({
      status: 400,
      body: { error: 'invalid event type: trace_invalidated', id: 'b' },
    });
    expect(await post({ types: ['transactions'], addresses: ['EQnotanaddress'] })).toEqual({
      status: 400,
      body: { error: 'invalid address: EQnotanaddress' },
    });
    expect((await post({ types: ['trace'] })).body.error).toBe('trace_external_hash_norms are required for trace subscription');
    expect((await post({ types: ['transactions'], addresses: [addr], trace_external_hash_norms: ['x'] })).body.error).toBe(
      'trace_external_hash_norms requires type "trace"',
    );
    expect((await post({ types: ['trace'], trace_external_hash_norms: [' '] })).body.error).toBe(
      'trace_external_hash_norms contains empty value',
    );
    expect((await post({ types: ['transactions'] })).body.error).toBe('addresses are required for subscription');
    expect((await post({ types: ['transactions'], addresses: [addr], min_finality: 'final' })).body.error).toMatch(
      /^invalid subscription request: min_finality/,
    );
    expect((await post({ id: 5, types: ['transactions'], addresses: [addr] })).body.error).toMatch(/^invalid subscription request: id/);
    expect((await post('{"types": [')).body.error).toMatch(/^invalid subscription request: /);
  });

  it('a plain GET on the WebSocket path answers 426, a GET on the SSE path 405', async () => {
    const ws = await fetch(`http://127.0.0.1:${port('mainnet')}/api/streaming/v2/ws`, { headers: key('mainnet') });
    expect(ws.status).toBe(426);
    const sse = await fetch(`http://127.0.0.1:${port('mainnet')}/api/streaming/v2/sse`, { headers: key('mainnet') });
    expect(sse.status).toBe(405);
  });

  it('WebSocket: ping, subscribe, unsubscribe and errors answer in the hosted form', async () => {
    const c = openWs(port('mainnet'), key('mainnet'));
    await c.opened;
    c.send({ id: 'p1', operation: 'ping' });
    expect(await c.next('pong', (m) => m.id === 'p1')).toEqual({ id: 'p1', status: 'pong' });
    c.send({ id: 's1', operation: 'subscribe', types: ['transactions'] });
    expect(await c.next('addresses error', (m) => m.id === 's1')).toEqual({ id: 's1', error: 'addresses are required' });
    c.send({ id: 's2', operation: 'subscribe', types: ['transactions'], addresses: [addr] });
    expect(await c.next('subscribed', (m) => m.id === 's2')).toEqual({ id: 's2', status: 'subscribed' });
    c.send({ id: 'u1', operation: 'unsubscribe' });
    expect(await c.next('unsubscribe error', (m) => m.id === 'u1')).toEqual({
      id: 'u1',
      error: 'addresses or trace_external_hash_norms are required',
    });
    c.send({ id: 'u2', operation: 'unsubscribe', addresses: [addr] });
    expect(await c.next('unsubscribed', (m) => m.id === 'u2')).toEqual({ id: 'u2', status: 'unsubscribed' });
    c.send({ id: 'x', operation: 'dance' });
    expect(await c.next('unknown op', (m) => m.id === 'x')).toEqual({ id: 'x', error: 'unknown operation: dance' });
    c.send('{not json');
    expect(
      (await c.next('envelope error', (m) => typeof m.error === 'string' && m.error.startsWith('invalid request envelope:'))).id,
    ).toBeUndefined();
    c.close();
  });
});

describe.each(NETWORKS)('streaming on %s', (network) => {
  let devnet: Devnet;
  let indexer: Indexer;
  const run = `${process.pid}-${Date.now()}`;
  const receiver = new Address(0, createHash('sha256').update(`${network}-stream-receiver-${run}`).digest());
  const quiet = new Address(0, createHash('sha256').update(`${network}-stream-quiet-${run}`).digest());
  const friendly = (a: Address) => a.toString({ testOnly: network === 'testnet', bounceable: false });

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    indexer = suite.service.gateway.indexers[network]!;
    await sealBlock(devnet, indexer);
  });

  it('a transfer streams pending, confirmed, then finalized, with the hashes and actions /api/v3 serves; filters pass exactly what they name', async () => {
    const comment = `stream ${network} ${run}`;
    const transfer = await faucetTransfer(devnet, receiver, comment);
    // Receiver by its friendly form: matched as its raw form.
    const byAddress = openSse(
      port(network),
      { id: 'r', types: ['transactions', 'actions', 'account_state_change'], addresses: [friendly(receiver)], min_finality: 'pending' },
      key(network),
    );
    const finalOnly = openSse(
      port(network),
      { types: ['transactions'], addresses: [raw(receiver)], include_address_book: true },
      key(network),
    );
    const quietSub = openSse(
      port(network),
      { types: ['transactions', 'actions'], addresses: [raw(quiet)], min_finality: 'pending' },
      key(network),
    );
    const otherNet = openSse(
      port(other(network)),
      { types: ['transactions', 'actions'], addresses: [raw(receiver), raw(devnet.faucet.address)], min_finality: 'pending' },
      key(other(network)),
    );
    const byHash = openWs(port(network), key(network));
    const jettonOnly = openWs(port(network), key(network));
    const tonOnly = openWs(port(network), key(network));
    await Promise.all([byHash.opened, jettonOnly.opened, tonOnly.opened]);
    byHash.send({
      id: 'h',
      operation: 'subscribe',
      types: ['trace'],
      trace_external_hash_norms: [transfer.hashNorm],
      min_finality: 'pending',
    });
    jettonOnly.send({
      id: 'j',
      operation: 'subscribe',
      types: ['actions'],
      addresses: [raw(receiver)],
      action_types: ['jetton_transfer'],
      min_finality: 'pending',
    });
    tonOnly.send({
      id: 't',
      operation: 'subscribe',
      types: ['actions'],
      addresses: [raw(receiver)],
      action_types: ['ton_transfer'],
      min_finality: 'pending',
    });
    for (const s of [byAddress, finalOnly, quietSub, otherNet]) expect(await s.opened).toHaveProperty('connected');
    expect(((await byAddress.opened) as any).connected).toEqual({ id: 'r', status: 'subscribed' });
    await Promise.all([byHash, jettonOnly, tonOnly].map((c) => c.next('ack', (m) => m.status === 'subscribed')));

    const sent = await sendBoc(network, transfer.boc);
    expect(sent.status).toBe(200);
    expect(sent.body.result.hash_norm).toBe(transfer.hashNorm);

    const pendingTxs = await byAddress.next('pending transactions', (m) => m.type === 'transactions' && m.finality === 'pending');
    expect(pendingTxs.trace_external_hash_norm).toBe(transfer.hashNorm);
    expect(pendingTxs.transactions.map((t: any) => t.account)).toEqual([raw(receiver)]);
    expect(pendingTxs.transactions[0]).toMatchObject({ emulated: true, finality: 'pending' });
    const pendingActions = await byAddress.next('pending actions', (m) => m.type === 'actions' && m.finality === 'pending');
    expect(pendingActions.actions.map((a: any) => a.type)).toEqual(['ton_transfer']);
    expect(pendingActions.actions[0].details).toMatchObject({
      source: raw(devnet.faucet.address),
      destination: raw(receiver),
      value: '123456789',
      comment,
    });
    const pendingTrace = await byHash.next('pending trace', (m) => m.type === 'trace' && m.finality === 'pending');
    expect(pendingTrace.trace_external_hash_norm).toBe(transfer.hashNorm);
    expect(Object.keys(pendingTrace.transactions)).toHaveLength(2);
    expect(pendingTrace.actions.map((a: any) => a.type)).toEqual(['ton_transfer']);

    // The indexer paused: the block is sealed (the chain has the transaction) but not indexed, so the confirmation
    // comes first, whichever of the tracker and the indexer would be quicker.
    await indexer.stop();
    // Until the receiver's transaction is sealed too (a block after the faucet's when it is in the other shard).
    const { seqno } = await devnet.settle();
    const confirmedTxs = await byAddress.next('confirmed transactions', (m) => m.type === 'transactions' && m.finality === 'confirmed');
    expect(confirmedTxs.trace_external_hash_norm).toBe(transfer.hashNorm);
    expect(finalOnly.messages).toEqual([]);
    await indexer.start();
    await indexer.waitFor(seqno);
    const finalTxs = await byAddress.next('finalized transactions', (m) => m.type === 'transactions' && m.finality === 'finalized');
    const finalActions = await byAddress.next('finalized actions', (m) => m.type === 'actions' && m.finality === 'finalized');
    const finalTrace = await byHash.next('finalized trace', (m) => m.type === 'trace' && m.finality === 'finalized');
    const state = await byAddress.next('account state', (m) => m.type === 'account_state_change');
    const { address_book: book, ...withoutBook } = await finalOnly.next('finalized only', (m) => m.type === 'transactions');
    expect(withoutBook).toEqual(finalTxs);
    expect(finalTxs.address_book).toBeUndefined();
    expect(finalOnly.ids).toEqual([String(seqno)]);

    // What /api/v3 serves now is what was streamed.
    const indexed = await v3(network, 'transactions', { account: raw(receiver) });
    expect(finalTxs.transactions.map((t: any) => t.hash)).toEqual(indexed.transactions.map((t: any) => t.hash));
    // The book covers the event's addresses, as /api/v3 has them.
    expect(Object.keys(book).sort()).toEqual([raw(receiver), raw(devnet.faucet.address)].sort());
    expect(book[raw(receiver)]).toEqual(indexed.address_book[raw(receiver)]);
    expect(finalTxs.transactions[0]).toMatchObject({
      mc_block_seqno: seqno,
      finality: 'finalized',
      emulated: false,
      trace_id: indexed.transactions[0].trace_id,
    });
    const actions = await v3(network, 'actions', { account: raw(receiver) });
    expect(finalActions.actions.map((a: any) => [a.action_id, a.type, a.trace_id])).toEqual(
      actions.actions.map((a: any) => [a.action_id, a.type, a.trace_id]),
    );
    expect(finalActions.actions[0].details).toEqual(actions.actions[0].details);
    const traces = await v3(network, 'traces', { msg_hash: transfer.hashNorm });
    expect(Object.keys(finalTrace.transactions).sort()).toEqual(Object.keys(traces.traces[0].transactions).sort());
    expect(finalTrace.trace).toEqual(traces.traces[0].trace);
    expect(state).toMatchObject({
      finality: 'finalized',
      account: raw(receiver),
      state: { hash: finalTxs.transactions[0].account_state_after.hash, account_status: 'uninit' },
    });

    // Pending, confirmed, finalized: each once, in that order.
    const seen = byAddress.messages
      .filter((m) => m.trace_external_hash_norm === transfer.hashNorm && m.type === 'transactions')
      .map((m) => rank[m.finality]!);
    expect(seen).toEqual([0, 1, 2]);

    // Action-type filters let through exactly what they name; other addresses and the other network see nothing.
    expect(
      (await tonOnly.next('ton_transfer', (m) => m.type === 'actions' && m.finality === 'finalized')).actions.map((a: any) => a.type),
    ).toEqual(['ton_transfer']);
    await sleep(300);
    expect(jettonOnly.messages.filter((m) => m.type)).toEqual([]);
    expect(quietSub.messages).toEqual([]);
    expect(otherNet.messages).toEqual([]);
    for (const c of [byAddress, finalOnly, quietSub, otherNet, byHash, jettonOnly, tonOnly]) c.close();
  });

  it('a message the chain refuses after its pending event gives trace_invalidated, once', async () => {
    const seqno = await faucetSeqno(devnet);
    // Two messages with the same seqno, sent together: both emulate on the same state, only one is taken.
    const a = await faucetTransfer(devnet, receiver, `first ${run}`, seqno);
    const b = await faucetTransfer(devnet, receiver, `second ${run}`, seqno);
    const c = openWs(port(network), key(network));
    await c.opened;
    c.send({ operation: 'subscribe', types: ['trace'], trace_external_hash_norms: [a.hashNorm, b.hashNorm], min_finality: 'pending' });
    await c.next('ack', (m) => m.status === 'subscribed');
    // The chain is busy (its serial queue held) while both arrive: both are emulated on the state before either
    // is applied, as when two messages reach a node at once; then the chain takes the first and refuses the other.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    void (devnet as unknown as { producer: { serial(fn: () => Promise<void>): Promise<void> } }).producer.serial(() => held);
    const sending = Promise.all([sendBoc(network, a.boc), sendBoc(network, b.boc)]);
    await sleep(200);
    release();
    const replies = await sending;
    const taken = replies[0]!.status === 200 ? a : b;
    const refused = taken === a ? b : a;
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    const invalidated = await c.next('trace_invalidated', (m) => m.type === 'trace_invalidated');
    expect(invalidated).toEqual({ type: 'trace_invalidated', trace_external_hash_norm: refused.hashNorm });
    expect(c.messages.some((m) => m.type === 'trace' && m.trace_external_hash_norm === refused.hashNorm && m.finality === 'pending')).toBe(
      true,
    );
    await sealBlock(devnet, indexer);
    await c.next(
      'taken finalized',
      (m) => m.type === 'trace' && m.finality === 'finalized' && m.trace_external_hash_norm === taken.hashNorm,
    );
    expect(c.messages.filter((m) => m.type === 'trace_invalidated')).toHaveLength(1);
    c.close();
  });

  it('a subscriber that reconnects gets the finalized events it missed (Last-Event-ID over SSE, after_mc_seqno over WebSocket)', async () => {
    const target = new Address(0, createHash('sha256').update(`${network}-stream-resume-${run}`).digest());
    const first = openSse(port(network), { types: ['transactions'], addresses: [raw(target)] }, key(network));
    await first.opened;
    await sendBoc(network, (await faucetTransfer(devnet, target, 'one')).boc);
    const s1 = await sealBlock(devnet, indexer);
    await first.next('first block', (m) => m.type === 'transactions');
    expect(first.ids).toEqual([String(s1)]);
    first.close();
    // Away for two blocks with events for it.
    await sendBoc(network, (await faucetTransfer(devnet, target, 'two')).boc);
    const s2 = await sealBlock(devnet, indexer);
    await sendBoc(network, (await faucetTransfer(devnet, target, 'three')).boc);
    const s3 = await sealBlock(devnet, indexer);

    const again = openSse(
      port(network),
      { types: ['transactions'], addresses: [raw(target)] },
      { ...key(network), 'Last-Event-ID': String(s1) },
    );
    await again.opened;
    await again.next('missed blocks', () => again.ids.length >= 2);
    expect(again.ids).toEqual([String(s2), String(s3)]);
    expect(again.messages.map((m) => m.transactions[0].mc_block_seqno)).toEqual([s2, s3]);
    again.close();

    const ws = openWs(port(network), key(network));
    await ws.opened;
    ws.send({ operation: 'subscribe', types: ['transactions'], addresses: [raw(target)], after_mc_seqno: s2 });
    const replayed = await ws.next('replay', (m) => m.type === 'transactions');
    expect(replayed.transactions[0].mc_block_seqno).toBe(s3);
    ws.close();
  });
});

describe('jetton and account changes of a seeded chain, replayed after the fact', () => {
  it('jettons_change reaches a subscriber of the owner, with the balance /api/v3/jetton/wallets has', async () => {
    const devnet = suite.service.gateway.devnets.mainnet!;
    const indexer = suite.service.gateway.indexers.mainnet!;
    const before = await sealBlock(devnet, indexer);
    const summary = await devnet.seed();
    await indexer.waitFor(summary.lastBlock.seqno);
    const walletAddress = summary.jetton.wallets[1]!;
    const wallets = await v3('mainnet', 'jetton/wallets', { address: raw(walletAddress) });
    expect(wallets.jetton_wallets).toHaveLength(1);
    const indexed = wallets.jetton_wallets[0];
    // Subscribed by the owner only, resuming from before the seed: the blocks since are replayed.
    const c = openWs(port('mainnet'), key('mainnet'));
    await c.opened;
    c.send({
      operation: 'subscribe',
      types: ['jettons_change'],
      addresses: [indexed.owner],
      after_mc_seqno: before,
      include_metadata: true,
    });
    await c.next('ack', (m) => m.status === 'subscribed');
    await c.next(
      'jettons_change',
      (m) => m.type === 'jettons_change' && m.jetton.address === raw(walletAddress) && m.jetton.balance === indexed.balance,
    );
    const changes = c.messages.filter((m) => m.type === 'jettons_change');
    expect(changes.every((m) => m.finality === 'finalized' && m.jetton.owner === indexed.owner)).toBe(true);
    expect(changes[changes.length - 1].jetton).toMatchObject({
      address: raw(walletAddress),
      owner: indexed.owner,
      jetton: indexed.jetton,
      balance: indexed.balance,
      last_transaction_lt: indexed.last_transaction_lt,
    });
    expect(c.messages.some((m) => m.type === 'resume_gap')).toBe(false);
    // include_metadata: the jetton's metadata, as /api/v3/metadata has it for the master and the wallet.
    const known = (await v3('mainnet', 'metadata', { address: `${indexed.jetton},${raw(walletAddress)}` })) as Record<string, unknown>;
    expect(Object.keys(known)).toEqual(expect.arrayContaining([indexed.jetton, raw(walletAddress)]));
    const last = changes[changes.length - 1];
    expect(last.metadata).toEqual({ [indexed.jetton]: known[indexed.jetton], [raw(walletAddress)]: known[raw(walletAddress)] });
    expect(last.address_book).toBeUndefined();
    c.close();
  });
});
