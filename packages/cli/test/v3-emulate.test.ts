/**
 * The emulation API (/api/emulate/v1) over real HTTP against the composed service, on both networks, with response
 * validation on: a signed wallet transfer is emulated, then sent, and the trace the chain and the index then hold
 * has the same transactions (accounts, phases, fees, messages) and actions as the emulation foresaw. emulateTonConnect
 * is checked on the seeded v3r2, v4r2 and v5r1 wallets and the faucet.
 */
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, beginCell, Cell, internal, WalletContractV4 } from '@ton/ton';
import { signerFromSeed, walletTransferBoc, type Devnet, type SeedSummary } from '@tongate/devnet';
import type { Indexer } from '@tongate/indexer';
import { useKeyedGateway } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 0 });
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

describe.each(['mainnet', 'testnet'] as const)('emulation API on %s', (network) => {
  let devnet: Devnet;
  let indexer: Indexer;
  let seed: SeedSummary;
  const run = `${process.pid}-${Date.now()}`;
  const receiver = (label: string) => new Address(0, createHash('sha256').update(`${network}-emulate-${label}-${run}`).digest());

  async function call(path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`http://127.0.0.1:${suite.service.ports[network]}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'X-API-Key': suite.keys[network], ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }
  const emulate = (op: 'emulateTrace' | 'emulateTonConnect', body: unknown, headers?: Record<string, string>) =>
    call(`/api/emulate/v1/${op}`, body, headers);

  async function faucetTransfer(out: Parameters<typeof internal>[0][]) {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    return walletTransferBoc(
      wallet,
      signerFromSeed(devnet.faucet.secretKey),
      seqno,
      out.map((m) => internal(m)),
    );
  }

  /** What must agree between an emulated and a real transaction (hashes, lt and time differ: they ran elsewhen). */
  const essence = (tx: any) => ({
    account: tx.account,
    // The devnet runs a message to an absent account on the sandbox's empty uninit placeholder; the liteserver
    // backend reads that account as absent, as a real chain has it, and its emulation says nonexist.
    orig_status: tx.orig_status === 'nonexist' ? 'uninit' : tx.orig_status,
    end_status: tx.end_status,
    // Storage fees grow with the time since the account last paid, and the block's time is only known once it is
    // sealed: the emulation runs at the time it is asked, so only the fees beside storage must be the same.
    fees_beside_storage: (BigInt(tx.total_fees) - BigInt(tx.description.storage_ph?.storage_fees_collected ?? 0)).toString(),
    aborted: tx.description.aborted,
    compute: {
      success: tx.description.compute_ph.success,
      exit_code: tx.description.compute_ph.exit_code,
      gas_used: tx.description.compute_ph.gas_used,
    },
    action: tx.description.action ? { success: tx.description.action.success, msgs_created: tx.description.action.msgs_created } : null,
    in_msg: {
      source: tx.in_msg.source,
      destination: tx.in_msg.destination,
      value: tx.in_msg.value,
      opcode: tx.in_msg.opcode,
      body: tx.in_msg.message_content?.body,
    },
    out_msgs: tx.out_msgs
      .map((m: any) => ({ destination: m.destination, value: m.value, body: m.message_content?.body }))
      .sort((a: any, b: any) => (a.destination < b.destination ? -1 : 1)),
  });
  const actionEssence = (a: any) => ({ type: a.type, success: a.success, details: a.details });

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    indexer = suite.service.gateway.indexers[network]!;
    seed = await devnet.seed();
    await indexer.waitFor(seed.lastBlock.seqno);
  });

  it('emulateTrace of a signed wallet transfer foresees the transactions and actions the chain then makes', async () => {
    const [one, two] = [receiver('one'), receiver('two')];
    const boc = (
      await faucetTransfer([
        { to: one, value: 345_678_901n, bounce: false, body: `emulated ${run}` },
        { to: two, value: 123_456_789n, bounce: false, body: beginCell().storeUint(0, 32).storeStringTail('second').endCell() },
      ])
    ).toString('base64');
    const head = (await devnet.getMasterchainInfo()).last.seqno;
    const emulated = await emulate('emulateTrace', { boc, with_actions: true, include_address_book: true, include_code_data: true });
    expect(emulated.status, JSON.stringify(emulated.body)).toBe(200);
    // The emulation API is part of the v3 contract and says its version.
    expect(emulated.headers.get('x-api-version')).toBe((await call('/api/v3/masterchainInfo')).headers.get('x-api-version'));
    const r = emulated.body;
    expect(r.mc_block_seqno).toBe(head);
    expect(r.is_incomplete).toBe(false);
    expect(r.rand_seed).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const extHash = Cell.fromBase64(boc).hash().toString('base64');
    expect(Object.keys(r.transactions)).toHaveLength(3);
    for (const tx of Object.values<any>(r.transactions)) {
      expect(tx).toMatchObject({ emulated: true, finality: 'pending', mc_block_seqno: null, trace_external_hash: extHash });
      expect(tx.trace_id).toBeUndefined();
    }
    const root = r.transactions[r.trace.tx_hash];
    expect(root.account).toBe(raw(devnet.faucet.address));
    expect(root.in_msg.hash).toBe(extHash);
    expect(r.trace.children.map((c: any) => r.transactions[c.tx_hash].account).sort()).toEqual([raw(one), raw(two)].sort());
    expect(r.address_book[raw(one)]).toBeDefined();
    const faucetCode = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey }).init.code;
    expect(r.code_cells[faucetCode.hash().toString('base64')]).toBe(faucetCode.toBoc().toString('base64'));
    expect(Object.keys(r.data_cells).length).toBeGreaterThan(0);
    const transfers = r.actions.filter((a: any) => a.type === 'ton_transfer');
    expect(transfers).toHaveLength(2);
    expect(transfers.find((a: any) => a.details.destination === raw(one)).details).toMatchObject({
      source: raw(devnet.faucet.address),
      value: '345678901',
      comment: `emulated ${run}`,
    });
    // Emulation sent nothing.
    expect((await call(`/api/v3/transactionsByMessage?msg_hash=${encodeURIComponent(extHash)}`)).body.transactions).toEqual([]);

    // Now for real: the same message, its block, the index.
    const sent = await call('/api/v2/sendBoc', { boc });
    expect(sent.status).toBe(200);
    const block = await devnet.settle();
    await indexer.waitFor(block.seqno);
    let real: any;
    for (const started = Date.now(); Date.now() - started < 20_000; await new Promise((res) => setTimeout(res, 50))) {
      const t = (await call(`/api/v3/traces?msg_hash=${encodeURIComponent(extHash)}&include_actions=true`)).body.traces?.[0];
      if (t && Object.keys(t.transactions).length === 3 && t.actions?.length) {
        real = t;
        break;
      }
    }
    expect(real, 'the real trace in the index').toBeDefined();
    const byAccount = (txs: Record<string, any>) =>
      Object.values(txs)
        .map(essence)
        .sort((a, b) => (a.account < b.account ? -1 : 1));
    expect(byAccount(r.transactions)).toEqual(byAccount(real.transactions));
    const sortActions = (list: any[]) => list.map(actionEssence).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
    expect(sortActions(r.actions)).toEqual(sortActions(real.actions));

    // On the state before it was sent the message still runs; on today's its seqno is spent.
    expect((await emulate('emulateTrace', { boc, mc_block_seqno: head })).status).toBe(200);
    const spent = await emulate('emulateTrace', { boc });
    expect(spent.status).toBe(422);
    expect(spent.body.error).toMatch(/^boc: /);
  });

  it('emulateTonConnect runs a transfer from each deployed wallet version, unsigned', async () => {
    const wallets = [
      ...seed.wallets.map((w) => ({ name: w.version, address: w.address })),
      { name: 'faucet v4r2', address: devnet.faucet.address },
    ];
    expect(wallets.map((w) => w.name)).toEqual(expect.arrayContaining(['v3r2', 'v4r2', 'v5r1']));
    for (const wallet of wallets) {
      const to = receiver(`tonconnect-${wallet.name}`);
      const payload = beginCell().storeUint(0, 32).storeStringTail(`hello from ${wallet.name}`).endCell().toBoc().toString('base64');
      const res = await emulate('emulateTonConnect', {
        from: wallet.address.toString({ testOnly: network === 'testnet' }),
        messages: [{ address: to.toString({ bounceable: false, testOnly: network === 'testnet' }), amount: '10000000', payload }],
        with_actions: true,
      });
      expect(res.status, `${wallet.name}: ${JSON.stringify(res.body)}`).toBe(200);
      const root = res.body.transactions[res.body.trace.tx_hash];
      expect(root.account, wallet.name).toBe(raw(wallet.address));
      expect(root.description.compute_ph, wallet.name).toMatchObject({ success: true, exit_code: 0 });
      expect(res.body.trace.children, wallet.name).toHaveLength(1);
      const child = res.body.transactions[res.body.trace.children[0].tx_hash];
      expect(child.in_msg, wallet.name).toMatchObject({
        source: raw(wallet.address),
        destination: raw(to),
        value: '10000000',
        bounce: false,
      });
      expect(child.in_msg.message_content.decoded, wallet.name).toMatchObject({ comment: `hello from ${wallet.name}` });
      expect(
        res.body.actions.map((a: any) => a.type),
        wallet.name,
      ).toEqual(['ton_transfer']);
    }
  });

  it('refuses what it cannot emulate with a 4xx naming the field, and is only served under /api/emulate/v1', async () => {
    const notWallet = await emulate('emulateTonConnect', {
      from: seed.jetton.minter.toString(),
      messages: [{ address: raw(receiver('x')), amount: '1' }],
    });
    expect(notWallet.status).toBe(409);
    expect(notWallet.body.error).toMatch(/^from: /);
    const nobody = await emulate('emulateTonConnect', {
      from: raw(receiver('nobody')),
      messages: [{ address: raw(receiver('x')), amount: '1' }],
    });
    expect(nobody.status).toBe(409);
    const five = await emulate('emulateTonConnect', {
      from: raw(devnet.faucet.address),
      messages: Array.from({ length: 5 }, () => ({ address: raw(receiver('x')), amount: '1' })),
    });
    expect(five.status).toBe(422);
    expect(five.body.error).toMatch(/messages/);
    const badBoc = await emulate('emulateTrace', { boc: 'te6cckEBAQEAAgAAAEysuc0=' });
    expect(badBoc.status).toBe(422);
    expect(badBoc.body.error).toMatch(/^boc: /);
    const future = await emulate('emulateTrace', { boc: 'te6cckEBAQEAAgAAAEysuc0=', mc_block_seqno: 2_000_000_000 });
    expect(future.status).toBe(422);
    const unknown = await emulate('emulateTrace', { boc: 'te6cckEBAQEAAgAAAEysuc0=', bogus: true });
    expect(unknown.status).toBe(422);
    expect(unknown.body.error).toMatch(/bogus/);
    expect((await call('/api/v3/emulateTrace', { boc: 'te6cckEBAQEAAgAAAEysuc0=' })).status).toBe(404);
    expect(await call('/api/emulate/v1/emulateSomethingElse', {})).toMatchObject({
      status: 404,
      body: { error: expect.stringMatching(/not found/) },
    });
    const get = await call('/api/emulate/v1/emulateTrace');
    expect(get.status).toBe(405);
    expect(get.body).toEqual({ error: expect.any(String) });
  });
});
