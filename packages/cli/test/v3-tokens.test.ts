/**
 * Jettons, NFTs and metadata of API v3 over real HTTP against the composed service (devnet → indexer → store →
 * handlers → front door), on both networks, with response validation on (an off-spec 200 body turns into a 500).
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set. After the seed and the test's own jetton (on-chain
 * content: mint, transfer, burn) and NFT (mint, transfer), every list is compared with the contracts' get-methods.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, beginCell, internal, toNano, WalletContractV4, type Cell, type StateInit } from '@ton/ton';
import { signerFromSeed, tokens, walletTransferBoc, type Devnet, type SeedSummary } from '@tongate/devnet';
import type { Indexer } from '@tongate/indexer';
import { useKeyedGateway, v3Requests } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 0 });

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const int = (item: unknown) => (item as { value: bigint }).value;

describe.each(['mainnet', 'testnet'] as const)('API v3 jettons, NFTs and metadata on %s', (network) => {
  let devnet: Devnet;
  let indexer: Indexer;
  let seed: SeedSummary;
  const api = v3Requests(suite, network);
  const v3 = (path: string, params: Record<string, string | string[]> = {}) => {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) for (const item of Array.isArray(v) ? v : [v]) qs.append(k, item);
    return api.get(path, qs.toString());
  };
  /** The test's own jetton and NFT: addresses and amounts. */
  const own = {} as {
    faucet: Address;
    receiver: Address;
    minter: Address;
    faucetJw: Address;
    receiverJw: Address;
    minted: bigint;
    sent: bigint;
    burned: bigint;
    collection: Address;
    item: Address;
  };

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    indexer = suite.service.gateway.indexers[network]!;
    seed = await devnet.seed();

    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const signer = signerFromSeed(devnet.faucet.secretKey);
    let seqno = Number(int((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0]));
    const send = async (to: Address, body: Cell, init?: StateInit) => {
      await devnet.sendMessage(
        await walletTransferBoc(wallet, signer, seqno++, [internal({ to, value: toNano('0.5'), bounce: !init, init, body })]),
      );
      return devnet.settle();
    };
    own.faucet = wallet.address;
    own.receiver = new Address(0, Buffer.from(`${network}-tokens-receiver`.padEnd(32, '#')));
    own.minted = 1_000n * 10n ** 6n;
    own.sent = 600n * 10n ** 6n;
    own.burned = own.minted - own.sent;
    // A jetton with on-chain content, minted to the faucet, which sends part of it and burns the rest.
    const content = tokens.onchainContent({
      name: `Own ${network} token`,
      symbol: 'OWN',
      decimals: '6',
      description: 'minted by v3-tokens',
    });
    const minter = tokens.jettonMinterInit(wallet.address, content);
    own.minter = minter.address;
    own.faucetJw = tokens.jettonWalletAddress(wallet.address, minter.address);
    own.receiverJw = tokens.jettonWalletAddress(own.receiver, minter.address);
    await send(
      minter.address,
      tokens.jettonMintBody({
        minter: minter.address,
        to: wallet.address,
        amount: own.minted,
        responseTo: wallet.address,
        walletForwardValue: toNano('0.1'),
      }),
      minter.init,
    );
    const forwardPayload = beginCell().storeUint(0, 32).storeStringTail('own transfer').endCell();
    await send(
      own.faucetJw,
      tokens.jettonTransferBody({
        amount: own.sent,
        to: own.receiver,
        responseTo: wallet.address,
        forwardTonAmount: toNano('0.01'),
        forwardPayload,
        queryId: 77n,
      }),
    );
    await send(own.faucetJw, tokens.jettonBurnBody({ amount: own.burned, responseTo: wallet.address, queryId: 78n }));
    // An NFT collection of the faucet's: item 0 minted to the faucet, then handed to the receiver.
    const collection = tokens.nftCollectionInit(
      wallet.address,
      `https://devnet.tongate.local/own-${network}/collection.json`,
      `https://devnet.tongate.local/own-${network}/`,
    );
    own.collection = collection.address;
    own.item = tokens.nftItemAddress(collection.address, 0n);
    await send(
      collection.address,
      tokens.nftMintBody({ index: 0n, owner: wallet.address, itemValue: toNano('0.05'), contentSuffix: '0.json' }),
      collection.init,
    );
    await send(
      own.item,
      tokens.nftTransferBody({ newOwner: own.receiver, responseTo: wallet.address, forwardTonAmount: 0n, queryId: 79n }),
    );
    // Two requests that fail: a jetton transfer from the now empty wallet, an NFT transfer by its former owner.
    await send(
      own.faucetJw,
      tokens.jettonTransferBody({ amount: 1n, to: own.receiver, responseTo: wallet.address, forwardTonAmount: 0n, queryId: 80n }),
    );
    const last = await send(
      own.item,
      tokens.nftTransferBody({ newOwner: wallet.address, responseTo: wallet.address, forwardTonAmount: 0n, queryId: 81n }),
    );
    await indexer.waitFor(last.seqno, 90_000);
  });

  const walletData = async (a: Address) => (await devnet.runGetMethod(a, 'get_wallet_data', [])).stack;
  const balanceOf = async (a: Address) => int((await walletData(a))[0]).toString();

  it('jetton/masters: supply, admin and content as get_jetton_data has them; filters, paging', async () => {
    const r = await v3('jetton/masters', { address: [raw(seed.jetton.minter), raw(own.minter)] });
    expect(r.status).toBe(200);
    expect(r.body.jetton_masters.map((m: any) => m.address)).toEqual([raw(seed.jetton.minter), raw(own.minter)].sort());
    for (const m of r.body.jetton_masters) {
      const [supply, mintable, , , walletCode] = (await devnet.runGetMethod(Address.parseRaw(m.address), 'get_jetton_data', []))
        .stack as any[];
      expect(m.total_supply).toBe(int(supply).toString());
      expect(m.mintable).toBe(int(mintable) !== 0n);
      expect(m.jetton_wallet_code_hash).toBe(walletCode.cell.hash().toString('base64'));
      expect(r.body.address_book[m.address].interfaces).toContain('jetton_master');
    }
    const mine = r.body.jetton_masters.find((m: any) => m.address === raw(own.minter));
    expect(mine.total_supply).toBe((own.minted - own.burned).toString());
    expect(mine.admin_address).toBe(raw(own.faucet));
    expect(mine.jetton_content).toEqual({ name: `Own ${network} token`, symbol: 'OWN', decimals: '6', description: 'minted by v3-tokens' });
    // On-chain content is indexed as it is (off-chain content is not fetched: the fetcher is off by default; see nft/items).
    expect(r.body.metadata[raw(own.minter)]).toEqual({
      is_indexed: true,
      token_info: [
        {
          type: 'jetton_masters',
          valid: true,
          name: `Own ${network} token`,
          symbol: 'OWN',
          description: 'minted by v3-tokens',
          extra: { decimals: '6' },
        },
      ],
    });
    expect(r.body.metadata[raw(seed.jetton.minter)]).toMatchObject({
      is_indexed: true,
      token_info: [{ type: 'jetton_masters', valid: true, name: 'Devnet Seed Jetton', symbol: 'SEED' }],
    });

    const byAdmin = await v3('jetton/masters', { admin_address: own.faucet.toString() });
    expect(byAdmin.body.jetton_masters.map((m: any) => m.address)).toContain(raw(own.minter));
    expect(byAdmin.body.jetton_masters.every((m: any) => m.admin_address === raw(own.faucet))).toBe(true);
    const all = (await v3('jetton/masters', { limit: '1000' })).body.jetton_masters.map((m: any) => m.address);
    const pages = [
      ...(await v3('jetton/masters', { limit: '1', offset: '0' })).body.jetton_masters,
      ...(await v3('jetton/masters', { limit: '1', offset: '1' })).body.jetton_masters,
    ];
    expect(pages.map((m: any) => m.address)).toEqual(all.slice(0, 2));
  });

  it('jetton/wallets: balances equal to get_wallet_data; owner/jetton rules, exclude_zero_balance, sort and paging', async () => {
    const r = await v3('jetton/wallets', { jetton_address: raw(own.minter) });
    expect(r.status).toBe(200);
    expect(r.body.jetton_wallets.map((w: any) => w.address)).toEqual([raw(own.receiverJw), raw(own.faucetJw)]);
    for (const w of r.body.jetton_wallets) {
      const [balance, owner, jetton] = await walletData(Address.parseRaw(w.address));
      expect(w.balance).toBe(int(balance).toString());
      expect(w.owner).toBe(raw((owner as any).cell.beginParse().loadAddress()));
      expect(w.jetton).toBe(raw((jetton as any).cell.beginParse().loadAddress()));
    }
    expect(r.body.jetton_wallets[0].balance).toBe(own.sent.toString());
    expect(r.body.jetton_wallets[1].balance).toBe('0');
    expect(r.body.metadata[raw(own.minter)].token_info[0].symbol).toBe('OWN');
    const asc = await v3('jetton/wallets', { jetton_address: raw(own.minter), sort: 'asc' });
    expect(asc.body.jetton_wallets.map((w: any) => w.address)).toEqual([raw(own.faucetJw), raw(own.receiverJw)]);
    const nonZero = await v3('jetton/wallets', { jetton_address: raw(own.minter), exclude_zero_balance: 'true' });
    expect(nonZero.body.jetton_wallets.map((w: any) => w.address)).toEqual([raw(own.receiverJw)]);

    const [alice, bob] = seed.wallets;
    const mine = await v3('jetton/wallets', {
      owner_address: alice!.address.toString(),
      jetton_address: [raw(seed.jetton.minter), raw(own.minter)],
    });
    expect(mine.status).toBe(200);
    expect(mine.body.jetton_wallets).toHaveLength(1);
    expect(mine.body.jetton_wallets[0]).toMatchObject({
      address: raw(seed.jetton.wallets[0]!),
      owner: raw(alice!.address),
      balance: await balanceOf(seed.jetton.wallets[0]!),
    });
    const bobs = await v3('jetton/wallets', { address: raw(seed.jetton.wallets[1]!) });
    expect(bobs.body.jetton_wallets[0]).toMatchObject({ owner: raw(bob!.address), balance: await balanceOf(seed.jetton.wallets[1]!) });
    expect(bobs.body.address_book[raw(bob!.address)].interfaces).toEqual(['wallet_v5r1']);

    const first = await v3('jetton/wallets', { jetton_address: raw(own.minter), limit: '1' });
    const second = await v3('jetton/wallets', { jetton_address: raw(own.minter), limit: '1', offset: '1' });
    expect([...first.body.jetton_wallets, ...second.body.jetton_wallets].map((w: any) => w.address)).toEqual(
      r.body.jetton_wallets.map((w: any) => w.address),
    );
    const several = await v3('jetton/wallets', { jetton_address: [raw(seed.jetton.minter), raw(own.minter)] });
    expect(several.status).toBe(422);
    expect(several.body.error).toMatch(/owner_address/);
  });

  it('jetton/transfers: the seed and own transfers with payloads; owner direction, wallet, master, windows, order', async () => {
    const r = await v3('jetton/transfers', { jetton_master: raw(own.minter) });
    expect(r.status).toBe(200);
    expect(r.body.jetton_transfers).toHaveLength(1);
    const t = r.body.jetton_transfers[0];
    expect(t).toMatchObject({
      query_id: '77',
      source: raw(own.faucet),
      destination: raw(own.receiver),
      amount: own.sent.toString(),
      source_wallet: raw(own.faucetJw),
      jetton_master: raw(own.minter),
      transaction_aborted: false,
      response_destination: raw(own.faucet),
      custom_payload: null,
      forward_ton_amount: toNano('0.01').toString(),
    });
    expect(t.decoded_forward_payload).toMatchObject({ comment: 'own transfer' });
    const tx = await v3('transactions', { hash: t.transaction_hash });
    expect(tx.body.transactions[0]).toMatchObject({ account: raw(own.faucetJw), lt: t.transaction_lt, now: t.transaction_now });
    // The transfer's trace is its transaction's, rooted at the faucet's external message.
    expect(t.trace_id).toEqual(expect.any(String));
    expect(t.trace_id).toBe(tx.body.transactions[0].trace_id);
    // The failed transfer from the empty wallet ran (aborted) but moved nothing: it is not listed.
    const walletTxs = (await v3('transactions', { account: raw(own.faucetJw), limit: '20' })).body.transactions;
    expect(walletTxs.some((x: any) => x.description.aborted === true && x.in_msg?.opcode === '0x0f8a7ea5')).toBe(true);
    expect((await v3('jetton/transfers', { jetton_wallet: raw(own.faucetJw) })).body.jetton_transfers.map((x: any) => x.query_id)).toEqual([
      '77',
    ]);

    const out = await v3('jetton/transfers', { owner_address: own.faucet.toString(), direction: 'out' });
    expect(out.body.jetton_transfers.map((x: any) => x.transaction_hash)).toContain(t.transaction_hash);
    expect(out.body.jetton_transfers.every((x: any) => x.source === raw(own.faucet))).toBe(true);
    expect(
      (await v3('jetton/transfers', { owner_address: raw(own.faucet), direction: 'in' })).body.jetton_transfers.every(
        (x: any) => x.destination === raw(own.faucet),
      ),
    ).toBe(true);
    expect(
      (await v3('jetton/transfers', { owner_address: raw(own.receiver), direction: 'in' })).body.jetton_transfers.map(
        (x: any) => x.transaction_hash,
      ),
    ).toEqual([t.transaction_hash]);
    expect((await v3('jetton/transfers', { jetton_wallet: raw(own.faucetJw) })).body.jetton_transfers).toHaveLength(1);
    expect(
      (await v3('jetton/transfers', { jetton_master: raw(own.minter), start_lt: t.transaction_lt, end_lt: t.transaction_lt })).body
        .jetton_transfers,
    ).toHaveLength(1);
    expect(
      (await v3('jetton/transfers', { jetton_master: raw(own.minter), end_lt: String(BigInt(t.transaction_lt) - 1n) })).body
        .jetton_transfers,
    ).toHaveLength(0);
    expect(
      (
        await v3('jetton/transfers', {
          jetton_master: raw(own.minter),
          start_utime: String(t.transaction_now),
          end_utime: String(t.transaction_now),
        })
      ).body.jetton_transfers,
    ).toHaveLength(1);

    // Either side: the seed transfer has alice as sender and bob as receiver, and is listed once.
    const both = await v3('jetton/transfers', { owner_address: [raw(seed.wallets[0]!.address), raw(seed.wallets[1]!.address)] });
    expect(both.body.jetton_transfers).toHaveLength(1);
    // Far pages are combined by the database instead (same answer).
    const far = await v3('jetton/transfers', { owner_address: raw(seed.wallets[0]!.address), offset: '20000' });
    expect([far.status, far.body.jetton_transfers]).toEqual([200, []]);
    const seeded = await v3('jetton/transfers', { jetton_master: raw(seed.jetton.minter) });
    expect(seeded.body.jetton_transfers).toHaveLength(1);
    expect(seeded.body.jetton_transfers[0]).toMatchObject({
      source: raw(seed.wallets[0]!.address),
      destination: raw(seed.wallets[1]!.address),
      amount: seed.jetton.transferred.toString(),
    });
    expect(seeded.body.jetton_transfers[0].decoded_forward_payload).toMatchObject({ comment: 'jettons for bob' });

    const desc = (await v3('jetton/transfers', { limit: '100' })).body.jetton_transfers;
    const asc = (await v3('jetton/transfers', { limit: '100', sort: 'asc' })).body.jetton_transfers;
    expect(desc.length).toBeGreaterThanOrEqual(2);
    expect(asc.map((x: any) => x.transaction_hash)).toEqual(desc.map((x: any) => x.transaction_hash).reverse());
    for (let i = 1; i < desc.length; i++) expect(BigInt(desc[i - 1].transaction_lt) >= BigInt(desc[i].transaction_lt)).toBe(true);

    const noOwner = await v3('jetton/transfers', { direction: 'in' });
    expect(noOwner.status).toBe(422);
    expect(noOwner.body.error).toMatch(/owner_address/);
  });

  it('jetton/burns: the seed and own burns by owner, wallet and master', async () => {
    const r = await v3('jetton/burns', { address: own.faucet.toString() });
    expect(r.status).toBe(200);
    const mine = r.body.jetton_burns.filter((b: any) => b.jetton_master === raw(own.minter));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      query_id: '78',
      owner: raw(own.faucet),
      jetton_wallet: raw(own.faucetJw),
      amount: own.burned.toString(),
      transaction_aborted: false,
      response_destination: raw(own.faucet),
      custom_payload: null,
    });
    const seeded = await v3('jetton/burns', { jetton_master: raw(seed.jetton.minter) });
    expect(seeded.body.jetton_burns.map((b: any) => [b.owner, b.jetton_wallet, b.amount])).toEqual([
      [raw(seed.wallets[1]!.address), raw(seed.jetton.wallets[1]!), seed.jetton.burned.toString()],
    ]);
    expect((await v3('jetton/burns', { jetton_wallet: raw(own.faucetJw) })).body.jetton_burns).toHaveLength(1);
    expect((await v3('jetton/burns', { jetton_wallet: raw(own.receiverJw) })).body.jetton_burns).toHaveLength(0);
  });

  it('nft/collections and nft/items: as get_collection_data and get_nft_data have them; filters and rules', async () => {
    const c = await v3('nft/collections', { collection_address: [raw(seed.nft.collection), raw(own.collection)] });
    expect(c.status).toBe(200);
    expect(c.body.nft_collections.map((x: any) => x.address)).toEqual([raw(seed.nft.collection), raw(own.collection)].sort());
    for (const col of c.body.nft_collections) {
      const [next, , owner] = (await devnet.runGetMethod(Address.parseRaw(col.address), 'get_collection_data', [])).stack as any[];
      expect(col.next_item_index).toBe(int(next).toString());
      expect(col.owner_address).toBe(raw(owner.cell.beginParse().loadAddress()));
      expect(col.collection_content).toEqual({ uri: expect.stringMatching(/collection\.json$/) });
    }
    expect((await v3('nft/collections', { owner_address: raw(own.faucet) })).body.nft_collections.map((x: any) => x.address)).toContain(
      raw(own.collection),
    );

    const items = await v3('nft/items', { collection_address: raw(own.collection) });
    expect(items.status).toBe(200);
    expect(items.body.nft_items).toHaveLength(1);
    const item = items.body.nft_items[0];
    const [init, index, , owner] = (await devnet.runGetMethod(own.item, 'get_nft_data', [])).stack as any[];
    expect(item).toMatchObject({
      address: raw(own.item),
      init: int(init) !== 0n,
      index: int(index).toString(),
      collection_address: raw(own.collection),
      owner_address: raw(owner.cell.beginParse().loadAddress()),
      on_sale: false,
    });
    expect(item.owner_address).toBe(raw(own.receiver));
    expect(item.content).toEqual({ uri: `https://devnet.tongate.local/own-${network}/0.json` });
    expect(item.collection).toMatchObject({ address: raw(own.collection), next_item_index: '1' });
    expect(items.body.address_book[raw(own.item)].interfaces).toContain('nft_item');
    expect(items.body.metadata[raw(own.item)]).toEqual({
      is_indexed: false,
      token_info: [{ type: 'nft_items', valid: true, nft_index: '0' }],
    });

    expect((await v3('nft/items', { owner_address: raw(own.receiver) })).body.nft_items.map((x: any) => x.address)).toEqual([
      raw(own.item),
    ]);
    expect((await v3('nft/items', { address: raw(seed.nft.item) })).body.nft_items[0].owner_address).toBe(raw(seed.nft.ownerAfterTransfer));
    expect((await v3('nft/items', { collection_address: raw(own.collection), index: '0' })).body.nft_items).toHaveLength(1);
    expect((await v3('nft/items', { collection_address: raw(own.collection), index: '1' })).body.nft_items).toHaveLength(0);
    const byLt = (await v3('nft/items', { sort_by_last_transaction_lt: 'true', limit: '1000' })).body.nft_items;
    for (let i = 1; i < byLt.length; i++) expect(BigInt(byLt[i - 1].last_transaction_lt) >= BigInt(byLt[i].last_transaction_lt)).toBe(true);

    const noCollection = await v3('nft/items', { index: '0' });
    expect(noCollection.status).toBe(422);
    expect(noCollection.body.error).toMatch(/collection_address/);
    expect((await v3('nft/items', { collection_address: raw(own.collection), index: 'x' })).status).toBe(422);
    expect((await v3('nft/items', { collection_address: [raw(own.collection), raw(seed.nft.collection)] })).status).toBe(422);
  });

  it('nft/transfers: the seed and own transfers by item, owner direction and collection', async () => {
    const r = await v3('nft/transfers', { item_address: raw(own.item) });
    expect(r.status).toBe(200);
    // Newest first: the former owner's failed attempt (listed, marked aborted; the item stays with the receiver), then the transfer.
    expect(r.body.nft_transfers.map((x: any) => [x.query_id, x.transaction_aborted])).toEqual([
      ['81', true],
      ['79', false],
    ]);
    expect(r.body.nft_transfers[0]).toMatchObject({ old_owner: raw(own.faucet), new_owner: raw(own.faucet) });
    r.body.nft_transfers.shift();
    expect(r.body.nft_transfers[0]).toMatchObject({
      query_id: '79',
      nft_address: raw(own.item),
      nft_collection: raw(own.collection),
      old_owner: raw(own.faucet),
      new_owner: raw(own.receiver),
      response_destination: raw(own.faucet),
      transaction_aborted: false,
      forward_amount: '0',
    });
    const hash = r.body.nft_transfers[0].transaction_hash;
    expect(r.body.nft_transfers[0].trace_id).toBe((await v3('transactions', { hash })).body.transactions[0].trace_id);
    expect(
      (await v3('nft/transfers', { owner_address: raw(own.receiver), direction: 'in' })).body.nft_transfers.map(
        (x: any) => x.transaction_hash,
      ),
    ).toEqual([hash]);
    expect((await v3('nft/transfers', { owner_address: raw(own.receiver), direction: 'out' })).body.nft_transfers).toHaveLength(0);
    expect(
      (await v3('nft/transfers', { owner_address: raw(own.faucet), direction: 'out' })).body.nft_transfers.map(
        (x: any) => x.transaction_hash,
      ),
    ).toContain(hash);
    // Either side, newest first, each transfer once (the failed one names the faucet on both sides), paged.
    const faucetSide = (await v3('nft/transfers', { owner_address: raw(own.faucet), collection_address: raw(own.collection) })).body
      .nft_transfers;
    expect(faucetSide.map((x: any) => x.query_id)).toEqual(['81', '79']);
    const paged = [0, 1].map((offset) =>
      v3('nft/transfers', { owner_address: raw(own.faucet), collection_address: raw(own.collection), limit: '1', offset: String(offset) }),
    );
    expect((await Promise.all(paged)).flatMap((p) => p.body.nft_transfers.map((x: any) => x.query_id))).toEqual(['81', '79']);
    const ascending = (await v3('nft/transfers', { owner_address: raw(own.faucet), collection_address: raw(own.collection), sort: 'asc' }))
      .body.nft_transfers;
    expect(ascending.map((x: any) => x.query_id)).toEqual(['79', '81']);
    expect(
      (await v3('nft/transfers', { collection_address: raw(seed.nft.collection) })).body.nft_transfers.map((x: any) => [
        x.old_owner,
        x.new_owner,
      ]),
    ).toEqual([[raw(seed.wallets[0]!.address), raw(seed.nft.ownerAfterTransfer)]]);
    expect((await v3('nft/transfers', { direction: 'out' })).status).toBe(422);
  });

  it('metadata: tokens only; jetton wallets with owner, jetton and balance; lists carry it', async () => {
    const r = await v3('metadata', { address: [raw(own.minter), raw(own.receiverJw), raw(own.receiver), raw(own.collection)] });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual([raw(own.minter), raw(own.receiverJw), raw(own.collection)].sort());
    expect(r.body[raw(own.receiverJw)]).toEqual({
      is_indexed: true,
      token_info: [
        {
          type: 'jetton_wallets',
          valid: true,
          extra: { owner: raw(own.receiver), jetton: raw(own.minter), balance: await balanceOf(own.receiverJw) },
        },
      ],
    });
    expect(r.body[raw(own.collection)]).toEqual({ is_indexed: false, token_info: [{ type: 'nft_collections', valid: true }] });
    expect((await v3('metadata', { address: 'not-an-address' })).status).toBe(422);
    expect((await v3('metadata')).status).toBe(422);
    const accounts = await v3('accountStates', { address: [raw(own.minter), raw(own.faucet)] });
    expect(Object.keys(accounts.body.metadata)).toEqual([raw(own.minter)]);
  });
});
