/**
 * /nft/sales and /dns/activeAuctions over real HTTP against the composed service (devnet → indexer → store →
 * handlers → front door), on both networks, with response validation on (an off-spec 200 body turns into a 500).
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set. The seeded getgems sale and auction and the DNS auction
 * are compared with what the contracts' own get-methods answer on the devnet. An item in auction deployed outside the
 * `.ton` collection (the genuine item code, forged data) is not listed.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { Address, internal, toNano, WalletContractV4, type Cell, type TupleItem } from '@ton/ton';
import { dns as devnetDns, signerFromSeed, walletTransferBoc, type Devnet, type SeedSummary } from '@tongate/devnet';
import type { Indexer } from '@tongate/indexer';
import { useKeyedGateway, v3Requests } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 0 });

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const int = (item: TupleItem) => (item as { value: bigint }).value;
const addr = (item: TupleItem) => (item as { cell: Cell }).cell.beginParse().loadMaybeAddress();

describe.each(['mainnet', 'testnet'] as const)('NFT sales and DNS auctions on %s', (network) => {
  let devnet: Devnet;
  let indexer: Indexer;
  let seed: SeedSummary;
  /** DNS auctions the faucet opened in this test, to page through. */
  let faucetAuctions: string[];
  /** An item in auction the faucet deployed itself with the genuine item code (not through the collection). */
  let forged: Address;
  const api = v3Requests(suite, network);
  const friendly = (a: Address) => a.toString({ testOnly: network === 'testnet' });

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    indexer = suite.service.gateway.indexers[network]!;
    seed = await devnet.seed();
    // Three more DNS auctions, all opened (so led) by the faucet at the .ton collection, in one message; and a forged
    // one: the item code deployed in auction by the faucet itself, naming the collection. It is no auction of the
    // collection's, so no list shows it.
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const seqno = Number(int((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0]));
    const now = Math.floor(Date.now() / 1000);
    const labels = [1, 2, 3].map((n) => `${network}-page-${n}-${now}`);
    const forgedInit = devnetDns.forgedDnsItemInit({
      collection: seed.dns.collection,
      label: `${network}-forged-${now}`,
      owner: null,
      auction: { maxBidAddress: devnet.faucet.address, maxBidAmount: toNano('1'), endTime: now + 3600 },
      lastFillUpTime: now,
    });
    const boc = await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, [
      ...labels.map((label) =>
        internal({ to: seed.dns.collection, value: toNano('1'), bounce: true, body: devnetDns.openAuctionBody(label) }),
      ),
      internal({ to: forgedInit.address, value: toNano('1'), bounce: false, init: forgedInit.init }),
    ]);
    await devnet.sendMessage(boc);
    const block = await devnet.settle();
    await indexer.waitFor(block.seqno);
    forged = forgedInit.address;
    faucetAuctions = labels.map((label) => raw(devnetDns.dnsItemAddress(seed.dns.collection, label))).sort();
  });

  it('/nft/sales: the getgems sale and auction as their get-methods report them', async () => {
    const { sale, auction } = seed.sales;
    const r = await api.get('nft/sales', { address: `${friendly(sale.address)},${raw(auction.address)}` });
    expect(r.status).toBe(200);
    const byType = Object.fromEntries(r.body.nft_sales.map((s: { type: string }) => [s.type, s]));
    expect(Object.keys(byType).sort()).toEqual(['getgems_auction', 'getgems_sale']);

    const saleData = (await devnet.runGetMethod(sale.address, 'get_fix_price_data_v4', [])).stack;
    expect(byType.getgems_sale).toMatchObject({
      address: raw(sale.address),
      nft_address: raw(addr(saleData[3])!),
      nft_owner_address: raw(addr(saleData[4])!),
      marketplace_address: raw(addr(saleData[2])!),
      created_at: Number(int(saleData[1])),
      // The NFT index embeds the item the sale holds, with its seller as real_owner.
      nft_item: expect.objectContaining({
        address: raw(sale.nft),
        collection_address: raw(seed.sales.collection),
        owner_address: raw(sale.address),
        on_sale: true,
        sale_contract_address: raw(sale.address),
        real_owner: raw(sale.seller),
      }),
    });
    expect(r.body.metadata[raw(sale.nft)]).toMatchObject({ token_info: [{ type: 'nft_items', nft_index: '0' }] });
    expect(byType.getgems_sale.nft_owner_address).toBe(raw(sale.seller));
    expect(byType.getgems_sale.details).toMatchObject({
      is_complete: false,
      full_price: int(saleData[5]).toString(),
      marketplace_fee: ((int(saleData[5]) * int(saleData[7])) / 100000n).toString(),
    });

    const auctionData = (await devnet.runGetMethod(auction.address, 'get_sale_data', [])).stack;
    expect(byType.getgems_auction).toMatchObject({
      address: raw(auction.address),
      nft_address: raw(auction.nft),
      nft_owner_address: raw(auction.seller),
    });
    expect(byType.getgems_auction.nft_item).toMatchObject({
      address: raw(auction.nft),
      owner_address: raw(auction.address),
      on_sale: true,
      auction_contract_address: raw(auction.address),
      real_owner: raw(auction.seller),
    });
    expect(byType.getgems_auction.details).toMatchObject({
      end_flag: false,
      end_time: Number(int(auctionData[2])),
      last_bid: int(auctionData[6]).toString(),
      last_member: raw(addr(auctionData[7])!),
      min_bid: int(auctionData[16]).toString(),
      is_canceled: false,
    });
    expect(byType.getgems_auction.details.last_member).toBe(raw(auction.bidder));
    expect(byType.getgems_auction.details.last_bid).toBe(auction.bid.toString());
    for (const a of [sale.address, auction.address, sale.seller, auction.bidder]) expect(r.body.address_book).toHaveProperty(raw(a));
    expect(r.body.address_book[raw(sale.address)].user_friendly).toBe(friendly(sale.address).replace(/\+/g, '-').replace(/\//g, '_'));
  });

  it('/nft/sales: a purchase completes the sale, and the row follows the contract', async () => {
    const { sale } = seed.sales;
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    const seqno = Number(int((await devnet.runGetMethod(devnet.faucet.address, 'seqno', [])).stack[0]));
    // A plain transfer of the price and the gas buys the NFT.
    const boc = await walletTransferBoc(wallet, signerFromSeed(devnet.faucet.secretKey), seqno, [
      internal({ to: sale.address, value: sale.fullPrice + toNano('1'), bounce: true }),
    ]);
    await devnet.sendMessage(boc);
    await indexer.waitFor((await devnet.settle()).seqno);
    const saleData = (await devnet.runGetMethod(sale.address, 'get_fix_price_data_v4', [])).stack;
    expect(int(saleData[0])).toBe(-1n); // the contract says it is complete
    const r = await api.get('nft/sales', { address: raw(sale.address) });
    expect(r.status).toBe(200);
    expect(r.body.nft_sales).toHaveLength(1);
    expect(r.body.nft_sales[0].details.is_complete).toBe(true);
    const latest = await api.get('accountStates', { address: raw(sale.address) });
    expect(r.body.nft_sales[0].last_transaction_lt).toBe(latest.body.accounts[0].last_transaction_lt);
    // The buyer owns the NFT now.
    expect(raw(addr((await devnet.runGetMethod(sale.nft, 'get_nft_data', [])).stack[3])!)).toBe(raw(devnet.faucet.address));
  });

  it('/nft/sales: an address that is no sale is left out; a bad one is a 422', async () => {
    const none = await api.get('nft/sales', { address: raw(seed.wallets[0].address) });
    expect(none.status).toBe(200);
    expect(none.body.nft_sales).toEqual([]);
    const bad = await api.get('nft/sales', { address: 'EQ' + 'A'.repeat(46) });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('address');
  });

  it('/dns/activeAuctions: the leading bidder sees the auction bidding; the outbid opener sees nothing', async () => {
    const { dns } = seed.sales;
    const info = (await devnet.runGetMethod(dns.item, 'get_auction_info', [])).stack;
    const r = await api.get('dns/activeAuctions', { bidder: friendly(dns.bidder) });
    expect(r.status).toBe(200);
    expect(r.body.auctions).toEqual([
      {
        nft_item_address: raw(dns.item),
        domain: `${dns.domain}.ton`,
        max_bid_address: raw(addr(info[0])!),
        max_bid_amount: int(info[1]).toString(),
        auction_end_time: int(info[2]).toString(),
        last_fill_up_time: expect.stringMatching(/^[0-9]+$/),
        finished: false,
      },
    ]);
    expect(r.body.auctions[0].max_bid_address).toBe(raw(dns.bidder));
    expect(r.body.next_cursor).toBeNull();
    expect(r.body.address_book).toHaveProperty(raw(dns.item));
    expect((await api.get('dns/activeAuctions', { bidder: raw(dns.bidder), state: 'bidding' })).body.auctions).toHaveLength(1);
    expect((await api.get('dns/activeAuctions', { bidder: raw(dns.bidder), state: 'won' })).body.auctions).toEqual([]);
    expect((await api.get('dns/activeAuctions', { bidder: raw(dns.outbid) })).body.auctions).toEqual([]);
    const withItems = await api.get('dns/activeAuctions', { bidder: raw(dns.bidder), include_nft_items: 'true' });
    expect(withItems.status).toBe(200);
    // The .ton collection vouches for its item (get_nft_address_by_index), so the NFT index holds it.
    expect(withItems.body.auctions[0].nft_item).toMatchObject({ address: raw(dns.item), collection_address: raw(seed.dns.collection) });
  });

  it('/dns/activeAuctions: one page holds them all, in cursor order, and the cursor continues after any of them', async () => {
    const bidder = friendly(devnet.faucet.address);
    const all = await api.get('dns/activeAuctions', { bidder });
    expect(all.status).toBe(200);
    expect(all.body.next_cursor).toBeNull();
    expect(all.body.auctions.map((a: { nft_item_address: string }) => a.nft_item_address)).toEqual(faucetAuctions);
    // The forged item holds an auction led by the faucet, yet it is not the collection's: not listed.
    const info = (await devnet.runGetMethod(forged, 'get_auction_info', [])).stack;
    expect(addr(info[0])!.equals(devnet.faucet.address)).toBe(true);
    expect(all.body.auctions.map((a: { nft_item_address: string }) => a.nft_item_address)).not.toContain(raw(forged));
    // limit cuts the page and offset moves it, in the same order; a cut page names its cursor.
    const ids = (r: { body: { auctions: { nft_item_address: string }[] } }) => r.body.auctions.map((a) => a.nft_item_address);
    const first = await api.get('dns/activeAuctions', { bidder, limit: '1' });
    expect(ids(first)).toEqual(faucetAuctions.slice(0, 1));
    expect(first.body.next_cursor === null).toBe(faucetAuctions.length <= 1);
    expect(ids(await api.get('dns/activeAuctions', { bidder, limit: '1', offset: '1' }))).toEqual(faucetAuctions.slice(1, 2));
    expect(ids(await api.get('dns/activeAuctions', { bidder, offset: String(faucetAuctions.length) }))).toEqual([]);
    // X-No-Metadata and X-No-Address-Book leave those objects out and nothing else.
    const bare = await api.get('dns/activeAuctions', { bidder }, { 'X-No-Metadata': 'true', 'X-No-Address-Book': 'T' });
    expect(bare.status).toBe(200);
    expect(bare.body).not.toHaveProperty('metadata');
    expect(bare.body).not.toHaveProperty('address_book');
    expect(bare.body.auctions).toEqual(all.body.auctions);
    expect(all.body).toHaveProperty('metadata');
  });

  it('/dns/activeAuctions: bad input is a 422 naming the parameter', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ bidder: raw(devnet.faucet.address), after: 'not-a-cursor' }, 'after'],
      [{ bidder: raw(devnet.faucet.address), after: Buffer.from('dns1:0:12').toString('base64url') }, 'after'],
      [{ bidder: 'EQ' + 'A'.repeat(46) }, 'bidder'],
      [{ bidder: raw(devnet.faucet.address), state: 'lost' }, 'state'],
      [{ bidder: raw(devnet.faucet.address), limit: '1001' }, 'limit'],
      [{ bidder: raw(devnet.faucet.address), offset: '-1' }, 'offset'],
      [{ bidder: raw(devnet.faucet.address), offset: '1', after: Buffer.from('dns1:0:' + 'A'.repeat(64)).toString('base64url') }, 'offset'],
      [{}, 'bidder'],
    ];
    for (const [query, parameter] of cases) {
      const r = await api.get('dns/activeAuctions', query);
      expect(r.status, JSON.stringify(query)).toBe(422);
      expect(JSON.stringify(r.body), JSON.stringify(query)).toContain(parameter);
    }
    // A bidder with no auction is an empty list, not an error.
    const unknown = await api.get('dns/activeAuctions', { bidder: raw(new Address(0, Buffer.alloc(32, 7))) });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({ auctions: [], next_cursor: null });
  });
});
