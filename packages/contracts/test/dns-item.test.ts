import { describe, expect, it } from 'vitest';
import { Address, beginCell } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import {
  DNS_CATEGORIES,
  TON_DNS_ITEM_CODE_HASH,
  decodeDnsItemData,
  decodeDnsRecord,
  dnsAuctionState,
  dnsCollectionItemCode,
  dnsItemAddress,
  isGenuineDnsItem,
  rootResolveTonArgs,
  rootResolverFromConfig4,
  tonCollectionFromRootResolve,
} from '../src/dns-item.js';
import { runGetMethod } from '../src/get-method.js';
import { TON_DNS_COLLECTION } from '../src/interfaces.js';
import { fixtureCell, fixtureJson } from './fixtures.js';

const expected = fixtureJson('dns-item/expected.json');
const code = fixtureCell('dns-item/code.boc.b64');
const items = ['data.boc.b64', 'data-2.boc.b64'].map((file) => ({
  file,
  data: fixtureCell(`dns-item/${file}`),
  address: Address.parseRaw(expected[file].address),
}));
const [inAuction, claimed] = items;

describe('.ton DNS item', () => {
  it('is recognised by the code hash of the recorded mainnet item', () => {
    expect(code.hash().toString('hex')).toBe(TON_DNS_ITEM_CODE_HASH);
  });

  it('decodes the item in auction to the recorded values', () => {
    const item = decodeDnsItemData(inAuction.data);
    const want = expected['data.boc.b64'];
    expect({
      collection: item.collection?.toRawString(),
      owner: item.owner,
      domain: item.domain,
      last_fill_up_time: item.lastFillUpTime,
    }).toEqual(want.decoded);
    expect({
      max_bid_address: item.auction?.maxBidAddress?.toRawString().toUpperCase(),
      max_bid_amount: item.auction?.maxBidAmount.toString(),
      auction_end_time: item.auction?.auctionEndTime,
    }).toEqual(want.get_auction_info);
    expect(item.collection!.equals(TON_DNS_COLLECTION)).toBe(true);
  });

  it('decodes the claimed item: owner set, no auction', () => {
    const item = decodeDnsItemData(claimed.data);
    const want = expected['data-2.boc.b64'];
    expect({ owner: item.owner?.toRawString(), auction: item.auction, last_fill_up_time: item.lastFillUpTime }).toEqual(want.decoded);
    expect(item.domain).toBe(want.get_domain);
  });

  it('matches the contract: get_domain, get_auction_info, get_last_fill_up_time', async () => {
    for (const { data, address } of items) {
      const item = decodeDnsItemData(data);
      const state = { code, data, address };
      const domain = (await runGetMethod(state, 'get_domain')).readCell().beginParse();
      expect(domain.loadBuffer(domain.remainingBits / 8).toString('utf8')).toBe(item.domain);
      const info = await runGetMethod(state, 'get_auction_info');
      expect({
        maxBidAddress: info.readAddressOpt()?.toRawString() ?? null,
        maxBidAmount: info.readBigNumber(),
        auctionEndTime: info.readNumber(),
      }).toEqual(
        item.auction
          ? { ...item.auction, maxBidAddress: item.auction.maxBidAddress?.toRawString() ?? null }
          : { maxBidAddress: null, maxBidAmount: 0n, auctionEndTime: 0 },
      );
      expect((await runGetMethod(state, 'get_last_fill_up_time')).readNumber()).toBe(item.lastFillUpTime);
    }
  });

  it('matches the contract: the wallet record is what dnsresolve answers', async () => {
    const item = decodeDnsItemData(claimed.data);
    expect(item.records.wallet).not.toBeNull();
    expect(item.records.other.size).toBe(0);
    const resolved = await runGetMethod({ ...claimed, code }, 'dnsresolve', [
      { type: 'slice', cell: beginCell().storeUint(0, 8).endCell() },
      { type: 'int', value: BigInt('0x' + sha256_sync('wallet').toString('hex')) },
    ]);
    expect(resolved.readNumber()).toBe(8);
    const record = decodeDnsRecord(resolved.readCell());
    expect(record?.type === 'smc_address' && record.address.equals(item.records.wallet!)).toBe(true);
    expect(decodeDnsItemData(inAuction.data).records).toEqual({
      wallet: null,
      nextResolver: null,
      siteAdnl: null,
      storageBagId: null,
      other: new Map(),
    });
  });

  it('decodes the other standard record kinds', () => {
    const adnl = 'ab'.repeat(32);
    expect(decodeDnsRecord(beginCell().storeUint(0xad01, 16).storeBuffer(Buffer.from(adnl, 'hex')).storeUint(0, 8).endCell())).toEqual({
      type: 'adnl_address',
      adnl,
    });
    expect(decodeDnsRecord(beginCell().storeUint(0x7473, 16).storeBuffer(Buffer.from(adnl, 'hex')).endCell())).toEqual({
      type: 'storage_address',
      bagId: adnl,
    });
    const next = decodeDnsRecord(beginCell().storeUint(0xba93, 16).storeAddress(TON_DNS_COLLECTION).endCell());
    expect(next?.type === 'next_resolver' && next.address.equals(TON_DNS_COLLECTION)).toBe(true);
    expect(decodeDnsRecord(beginCell().storeUint(0x1234, 16).endCell())).toBeNull();
    expect(DNS_CATEGORIES.wallet).toBe(sha256_sync('wallet').toString('hex'));
  });

  it('auction state moves from bidding to won with time alone', () => {
    const item = decodeDnsItemData(inAuction.data);
    const end = item.auction!.auctionEndTime;
    expect([dnsAuctionState(item, end - 1), dnsAuctionState(item, end), dnsAuctionState(item, end + 1)]).toEqual([
      'bidding',
      'bidding',
      'won',
    ]);
    expect(dnsAuctionState(decodeDnsItemData(claimed.data), end)).toBeNull();
  });
});

describe('.ton item authenticity (recorded mainnet items)', () => {
  const trusted = { address: TON_DNS_COLLECTION, itemCodeHash: code.hash(), itemCodeDepth: code.depth() };

  it("a genuine item: its address is the collection's state init for its index", () => {
    for (const { data, address } of items) {
      const index = decodeDnsItemData(data).index;
      expect(dnsItemAddress(code, index, TON_DNS_COLLECTION).equals(address)).toBe(true);
      expect(isGenuineDnsItem({ address, codeHash: code.hash(), data }, trusted)).toBe(true);
    }
  });

  it('refuses the same state at another address, as any forger could deploy it', () => {
    const elsewhere = new Address(0, Buffer.alloc(32, 7));
    expect(isGenuineDnsItem({ address: elsewhere, codeHash: code.hash(), data: claimed.data }, trusted)).toBe(false);
    // Another genuine item's address does not fit either: the index is part of the state init.
    expect(isGenuineDnsItem({ address: inAuction.address, codeHash: code.hash(), data: claimed.data }, trusted)).toBe(false);
  });

  it('refuses changed data: another index or another collection', () => {
    const s = claimed.data.beginParse();
    const index = s.loadUintBig(256);
    s.loadAddress();
    const rest = s;
    const otherIndex = beginCell()
      .storeUint(index ^ 1n, 256)
      .storeAddress(TON_DNS_COLLECTION)
      .storeSlice(rest.clone())
      .endCell();
    expect(isGenuineDnsItem({ address: claimed.address, codeHash: code.hash(), data: otherIndex }, trusted)).toBe(false);
    const forgedCollection = new Address(0, Buffer.alloc(32, 9));
    const otherCollection = beginCell().storeUint(index, 256).storeAddress(forgedCollection).storeSlice(rest.clone()).endCell();
    expect(isGenuineDnsItem({ address: claimed.address, codeHash: code.hash(), data: otherCollection }, trusted)).toBe(false);
    // Even at the address that collection would give it: it is not the trusted collection.
    const atForgedAddress = dnsItemAddress(code, index, forgedCollection);
    expect(isGenuineDnsItem({ address: atForgedAddress, codeHash: code.hash(), data: otherCollection }, trusted)).toBe(false);
    expect(
      isGenuineDnsItem(
        { address: atForgedAddress, codeHash: code.hash(), data: otherCollection },
        { ...trusted, address: forgedCollection },
      ),
    ).toBe(true);
  });

  it('refuses other code, even at the address that code would have there', () => {
    const otherCode = beginCell().storeUint(0xdeadbeef, 32).endCell();
    const index = decodeDnsItemData(claimed.data).index;
    const address = dnsItemAddress(otherCode, index, TON_DNS_COLLECTION);
    expect(isGenuineDnsItem({ address, codeHash: otherCode.hash(), data: claimed.data }, trusted)).toBe(false);
    expect(isGenuineDnsItem({ address: claimed.address, codeHash: code.hash(), data: beginCell().endCell() }, trusted)).toBe(false);
  });

  it('reads the root resolver from config param 4 and the collection from its dnsresolve answer', () => {
    const root = rootResolverFromConfig4(beginCell().storeBuffer(Buffer.alloc(32, 0xe5), 32).endCell());
    expect(root.toRawString()).toBe(`-1:${'e5'.repeat(32)}`);
    const [subdomain, category] = rootResolveTonArgs();
    expect(subdomain.type === 'slice' && subdomain.cell.beginParse().loadBuffer(4).toString('latin1')).toBe('ton\0');
    expect(category.type === 'int' && category.value.toString(16).padStart(64, '0')).toBe(DNS_CATEGORIES.nextResolver);
    const record = beginCell().storeUint(0xba93, 16).storeAddress(TON_DNS_COLLECTION).endCell();
    expect(
      tonCollectionFromRootResolve([
        { type: 'int', value: 24n },
        { type: 'cell', cell: record },
      ])!.equals(TON_DNS_COLLECTION),
    ).toBe(true);
    expect(tonCollectionFromRootResolve([{ type: 'int', value: 0n }, { type: 'null' }])).toBeNull();
    expect(
      tonCollectionFromRootResolve([
        { type: 'int', value: 24n },
        { type: 'cell', cell: beginCell().storeUint(0x9fd3, 16).storeAddress(TON_DNS_COLLECTION).storeUint(0, 8).endCell() },
      ]),
    ).toBeNull();
    const collectionData = beginCell().storeRef(beginCell().endCell()).storeRef(code).endCell();
    expect(dnsCollectionItemCode(collectionData)!.hash().equals(code.hash())).toBe(true);
    expect(dnsCollectionItemCode(beginCell().storeUint(1, 8).endCell())).toBeNull();
  });
});
