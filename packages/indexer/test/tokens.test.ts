/**
 * Token detection: the get-method readers and their verification against the master / collection, on the real
 * TEP-74 / TEP-62 contract code (a fake jetton wallet and a fake NFT item are rejected); then the tokens derivation
 * over a devnet: after the seed and a fake wallet deployed on chain, the index holds what the contracts' own
 * get-methods say, and the fake is neither a wallet nor the source of a burn. The derivation runs on PGlite, or on
 * PostgreSQL (a schema of its own) when DATABASE_URL is set. Last, an index built without the derivation: the
 * tokens that have not moved since are found by looking through the indexed accounts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Address, beginCell, contractAddress, internal, toNano, WalletContractV4, type Cell, type TupleItem } from '@ton/ton';
import {
  GetMethodError,
  nftItemContent,
  readJettonMaster,
  readJettonWallet,
  readNftCollection,
  readNftItem,
  runGetMethodItems,
  tokenContentJson,
  verifyJettonWallet,
  verifyNftItem,
  type TokenGetMethods,
} from '@tongate/contracts';
import { createDevnet, signerFromSeed, tokens, walletTransferBoc, type Devnet, type SeedSummary } from '@tongate/devnet';
import { dropSchema, type Store } from '@tongate/store';
import { openIndexStore, withDomainTables, type IndexTables, type TokenTables } from '@tongate/read-model';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Indexer } from '../src/index.js';

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const int = (item: unknown) => (item as { value: bigint }).value;
const owner = new Address(0, Buffer.alloc(32, 7));
const admin = new Address(0, Buffer.alloc(32, 9));

/** Get-methods over a fixed set of contract states, run in the emulator like the indexer runs them. */
function localChain(states: Map<string, { code: Cell; data: Cell }>): TokenGetMethods {
  return async (address, method, args: TupleItem[]) => {
    const state = states.get(raw(address));
    if (!state) return null;
    try {
      return await runGetMethodItems({ ...state, address }, method, args);
    } catch (e) {
      if (e instanceof GetMethodError) return null;
      throw e;
    }
  };
}

/** Jetton wallet data of the standard contract: balance, owner, master, wallet code. */
const walletData = (balance: bigint, minter: Address) =>
  beginCell().storeCoins(balance).storeAddress(owner).storeAddress(minter).storeRef(tokens.jettonWalletCode()).endCell();

describe('token detection on the standard contracts', () => {
  const minter = tokens.jettonMinterInit(admin, 'https://example.invalid/jetton.json');
  const genuineData = walletData(0n, minter.address);
  const genuine = contractAddress(0, { code: tokens.jettonWalletCode(), data: genuineData });
  // Same code, same owner and master, but a different initial balance: the master does not know this address.
  const fakeData = walletData(10n ** 18n, minter.address);
  const fake = contractAddress(0, { code: tokens.jettonWalletCode(), data: fakeData });
  const collection = tokens.nftCollectionInit(admin, 'https://example.invalid/c.json', 'https://example.invalid/items/');
  const item = tokens.nftItemAddress(collection.address, 3n);
  const itemData = (index: bigint) =>
    beginCell()
      .storeUint(index, 64)
      .storeAddress(collection.address)
      .storeAddress(owner)
      .storeRef(beginCell().storeStringTail('3.json').endCell())
      .endCell();
  // The same item data at another address: the collection names a different address for index 3.
  const fakeItem = new Address(0, Buffer.alloc(32, 5));
  const run = localChain(
    new Map([
      [raw(minter.address), { code: minter.init.code!, data: minter.init.data! }],
      [raw(genuine), { code: tokens.jettonWalletCode(), data: genuineData }],
      [raw(fake), { code: tokens.jettonWalletCode(), data: fakeData }],
      [raw(collection.address), { code: collection.init.code!, data: collection.init.data! }],
      [raw(item), { code: tokens.nftItemCode(), data: itemData(3n) }],
      [raw(fakeItem), { code: tokens.nftItemCode(), data: itemData(3n) }],
    ]),
  );

  it('reads a jetton master and its off-chain content', async () => {
    const m = await readJettonMaster(run, minter.address);
    expect(m).not.toBeNull();
    expect(m!.totalSupply).toBe(0n);
    expect(m!.admin?.equals(admin)).toBe(true);
    expect(tokenContentJson(m!.content)).toEqual({ uri: 'https://example.invalid/jetton.json' });
    expect(m!.walletCode.hash().equals(tokens.jettonWalletCode().hash())).toBe(true);
  });

  it('verifies a genuine jetton wallet and rejects a fake claiming the same master', async () => {
    const w = await readJettonWallet(run, genuine);
    expect(w).toMatchObject({ balance: 0n });
    expect(await verifyJettonWallet(run, genuine, w!)).toBe(true);
    const f = await readJettonWallet(run, fake);
    // The fake answers get_wallet_data like any wallet, naming the real master …
    expect(f!.jetton.equals(minter.address)).toBe(true);
    expect(f!.balance).toBe(10n ** 18n);
    // … which does not vouch for it.
    expect(await verifyJettonWallet(run, fake, f!)).toBe(false);
  });

  it('is not fooled by other contracts: a master is no wallet, a wallet no master', async () => {
    expect(await readJettonWallet(run, minter.address)).toBeNull();
    expect(await readJettonMaster(run, genuine)).toBeNull();
    expect(await readNftItem(run, genuine)).toBeNull();
  });

  it('reads an NFT collection and a verified item with the content its collection composes; a copy elsewhere is rejected', async () => {
    const c = await readNftCollection(run, collection.address);
    expect(c).toMatchObject({ nextItemIndex: 0n });
    expect(tokenContentJson(c!.content)).toEqual({ uri: 'https://example.invalid/c.json' });
    const i = await readNftItem(run, item);
    expect(i).toMatchObject({ init: true, index: 3n });
    expect(i!.owner?.equals(owner)).toBe(true);
    expect(await verifyNftItem(run, item, i!)).toBe(true);
    expect(tokenContentJson((await nftItemContent(run, i!))!)).toEqual({ uri: 'https://example.invalid/items/3.json' });
    const copy = await readNftItem(run, fakeItem);
    expect(copy).not.toBeNull();
    expect(await verifyNftItem(run, fakeItem, copy!)).toBe(false);
  });
});

describe('tokens derivation over a devnet', () => {
  let devnet: Devnet;
  let store: Store;
  let db: Kysely<IndexTables<TokenTables>>;
  let seed: SeedSummary;
  let fakeWallet: Address;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-tokens-'));
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const schema = databaseUrl ? `tokens_${process.pid}_${Date.now().toString(36)}` : undefined;

  beforeAll(async () => {
    devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
    seed = await devnet.seed();
    // A fake wallet of the seed's jetton, deployed with a burn so that its transaction runs the burn path.
    const faucetWallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const data = beginCell()
      .storeCoins(10n ** 18n)
      .storeAddress(faucetWallet.address)
      .storeAddress(seed.jetton.minter)
      .storeRef(tokens.jettonWalletCode())
      .endCell();
    const init = { code: tokens.jettonWalletCode(), data };
    fakeWallet = contractAddress(0, init);
    const seqno = Number(((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0] as { value: bigint }).value);
    const body = tokens.jettonBurnBody({ amount: 5n, responseTo: faucetWallet.address });
    await devnet.sendMessage(
      await walletTransferBoc(faucetWallet, signerFromSeed(devnet.faucet.secretKey), seqno, [
        internal({ to: fakeWallet, value: toNano('0.2'), bounce: false, init, body }),
      ]),
    );
    await devnet.produceBlock();
    const last = await devnet.settle();
    store = await openIndexStore({ dataDir, databaseUrl, schema });
    await store.migrate();
    db = withDomainTables<TokenTables>(store.chain('testnet'));
    const indexer = new Indexer({ chain: devnet, db, pollMs: 10, retryMs: 10 });
    await indexer.start();
    await indexer.waitFor(last.seqno, 90_000);
    await indexer.stop();
  }, 180_000);

  afterAll(async () => {
    await store?.close();
    await devnet?.close();
    if (databaseUrl) await dropSchema(databaseUrl, schema!);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const walletBalance = async (a: Address) => ((await devnet.runGetMethod(a, 'get_wallet_data', [])).stack[0] as { value: bigint }).value;

  it('holds the seed jetton: master supply and every wallet balance as the contracts report them; the fake is not a wallet', async () => {
    const master = await db
      .selectFrom('jetton_masters')
      .selectAll()
      .where('address', '=', raw(seed.jetton.minter))
      .executeTakeFirstOrThrow();
    const supply = ((await devnet.runGetMethod(seed.jetton.minter, 'get_jetton_data', [])).stack[0] as { value: bigint }).value;
    expect(master.total_supply).toBe(supply.toString());
    expect(supply).toBe(seed.jetton.minted - seed.jetton.burned);
    expect(master.jetton_content).toEqual({
      name: 'Devnet Seed Jetton',
      symbol: 'SEED',
      decimals: '9',
      description: expect.stringMatching(/^devnet seed /),
    });
    const wallets = await db
      .selectFrom('jetton_wallets')
      .selectAll()
      .where('jetton', '=', raw(seed.jetton.minter))
      .orderBy('address')
      .execute();
    expect(wallets.map((w) => w.address).sort()).toEqual(seed.jetton.wallets.map(raw).sort());
    for (const w of seed.jetton.wallets) {
      const row = wallets.find((r) => r.address === raw(w))!;
      expect(row.balance).toBe((await walletBalance(w)).toString());
    }
    expect((await devnet.getAccountState(fakeWallet)).status).toBe('active');
    expect(
      await db.selectFrom('jetton_wallets').select('address').where('address', '=', raw(fakeWallet)).executeTakeFirst(),
    ).toBeUndefined();
  });

  it('records the seed transfer with its forward payload, and the burn; nothing from the fake wallet', async () => {
    const [alice, bob] = seed.wallets;
    const transfers = await db
      .selectFrom('jetton_transfers')
      .selectAll()
      .where('jetton_master_address', '=', raw(seed.jetton.minter))
      .execute();
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({
      source: raw(alice!.address),
      destination: raw(bob!.address),
      amount: seed.jetton.transferred.toString(),
      jetton_wallet_address: raw(seed.jetton.wallets[0]!),
      tx_aborted: false,
      forward_ton_amount: toNano('0.01').toString(),
    });
    expect(transfers[0]!.forward_payload).not.toBeNull();
    const burns = await db.selectFrom('jetton_burns').selectAll().execute();
    expect(burns.map((b) => [b.owner, b.amount, b.jetton_wallet_address])).toEqual([
      [raw(bob!.address), seed.jetton.burned.toString(), raw(seed.jetton.wallets[1]!)],
    ]);
  });

  it('holds the seed NFT collection and item (owner after the transfer) and the transfer', async () => {
    const collection = await db
      .selectFrom('nft_collections')
      .selectAll()
      .where('address', '=', raw(seed.nft.collection))
      .executeTakeFirstOrThrow();
    expect(collection.next_item_index).toBe('1');
    const item = await db.selectFrom('nft_items').selectAll().where('address', '=', raw(seed.nft.item)).executeTakeFirstOrThrow();
    expect(item).toMatchObject({
      index: '0',
      init: true,
      collection_address: raw(seed.nft.collection),
      owner_address: raw(seed.nft.ownerAfterTransfer),
    });
    expect(item.content).toEqual({ uri: expect.stringMatching(/\/0\.json$/) });
    const transfers = await db.selectFrom('nft_transfers').selectAll().where('nft_item_address', '=', raw(seed.nft.item)).execute();
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({
      old_owner: raw(seed.wallets[0]!.address),
      new_owner: raw(seed.nft.ownerAfterTransfer),
      nft_item_index: '0',
      nft_collection_address: raw(seed.nft.collection),
      tx_aborted: false,
    });
  });
});

describe('tokens derivation on an index built without it', () => {
  let devnet: Devnet;
  let store: Store;
  let db: Kysely<IndexTables<TokenTables>>;
  let seed: SeedSummary;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'tongate-tokens-backfill-'));

  beforeAll(async () => {
    devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 0 });
    seed = await devnet.seed();
    store = await openIndexStore({ dataDir });
    await store.migrate();
    db = withDomainTables<TokenTables>(store.chain('mainnet'));
    // An older version's index: every block, no token rows.
    const before = new Indexer({ chain: devnet, db, pollMs: 10, retryMs: 10, derivations: [] });
    await before.start();
    await before.waitFor(seed.lastBlock.seqno, 90_000);
    await before.stop();
    expect(await db.selectFrom('jetton_masters').select('address').execute()).toEqual([]);
  }, 180_000);

  afterAll(async () => {
    await store?.close();
    await devnet?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finds the tokens that have not moved since, looking through the indexed accounts a page per block', async () => {
    const indexer = new Indexer({ chain: devnet, db, pollMs: 10, retryMs: 10 });
    await indexer.start();
    const next = await devnet.produceBlock();
    await indexer.waitFor(next.seqno, 60_000);
    await indexer.stop();
    expect(await db.selectFrom('tokens_backfill').selectAll().execute()).toEqual([{ id: 1, cursor: expect.any(String), done: true }]);
    expect((await db.selectFrom('jetton_masters').select('address').execute()).map((r) => r.address)).toEqual([raw(seed.jetton.minter)]);
    const wallets = await db.selectFrom('jetton_wallets').select(['address', 'balance']).orderBy('address').execute();
    expect(wallets.map((w) => w.address)).toEqual(seed.jetton.wallets.map(raw).sort());
    for (const w of wallets)
      expect(w.balance).toBe(int((await devnet.runGetMethod(Address.parseRaw(w.address), 'get_wallet_data', [])).stack[0]).toString());
    const item = await db.selectFrom('nft_items').select('owner_address').where('address', '=', raw(seed.nft.item)).executeTakeFirst();
    expect(item?.owner_address).toBe(raw(seed.nft.ownerAfterTransfer));
    // The seeded marketplace items sit in their sale and auction contracts, whose seller is their real owner.
    const onSale = await db
      .selectFrom('nft_items')
      .select(['address', 'owner_address', 'real_owner'])
      .where('address', 'in', [raw(seed.sales.sale.nft), raw(seed.sales.auction.nft)])
      .orderBy('address')
      .execute();
    expect(onSale.map((i) => [i.address, i.owner_address, i.real_owner]).sort()).toEqual(
      [
        [raw(seed.sales.sale.nft), raw(seed.sales.sale.address), raw(seed.sales.sale.seller)],
        [raw(seed.sales.auction.nft), raw(seed.sales.auction.address), raw(seed.sales.auction.seller)],
      ].sort(),
    );
  });
});
