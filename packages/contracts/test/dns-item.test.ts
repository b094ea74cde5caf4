import { describe, expect, it } from 'vitest';
import { Address, beginCell } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { DNS_CATEGORIES, TON_DNS_ITEM_CODE_HASH, decodeDnsItemData, decodeDnsRecord, dnsAuctionState } from '../src/dns-item.js';
import { runGetMethod } from '../src/get-method.js';
import { TON_DNS_COLLECTION } from '../src/interfaces.js';
import { fixtureCell, fixtureJson } from './fixtures.js';

const expected = fixtureJson('dns-item/expected.json');
const code = fixtureCell('dns-item/code.boc.b64');
const items = ['data.boc.b64', 'data-2.boc.b64'].map((file) => ({ file, data: fixtureCell(`dns-item/${file}`), address: Address.parseRaw(expected[file].address) }));
const [inAuction, claimed] = items;

describe('.ton DNS item', () => {
  it('is recognised by the code hash of the recorded mainnet item', () => {
    expect(code.hash().toString('hex')).toBe(TON_DNS_ITEM_CODE_HASH);
  });

  it('decodes the item in auction to the recorded values', () => {
    const item = decodeDnsItemData(inAuction.data);
    const want = expected['data.boc.b64'];
    expect({ collection: item.collection?.toRawString(), owner: item.owner, domain: item.domain, last_fill_up_time: item.lastFillUpTime }).toEqual(want.decoded);
    expect({ max_bid_address: item.auction?.maxBidAddress?.toRawString().toUpperCase(), max_bid_amount: item.auction?.maxBidAmount.toString(), auction_end_time: item.auction?.auctionEndTime }).toEqual(want.get_auction_info);
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
      expect({ maxBidAddress: info.readAddressOpt()?.toRawString() ?? null, maxBidAmount: info.readBigNumber(), auctionEndTime: info.readNumber() }).toEqual(
        item.auction ? { ...item.auction, maxBidAddress: item.auction.maxBidAddress?.toRawString() ?? null } : { maxBidAddress: null, maxBidAmount: 0n, auctionEndTime: 0 },
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
    expect(decodeDnsItemData(inAuction.data).records).toEqual({ wallet: null, nextResolver: null, siteAdnl: null, storageBagId: null, other: new Map() });
  });

  it('decodes the other standard record kinds', () => {
    const adnl = 'ab'.repeat(32);
    expect(decodeDnsRecord(beginCell().storeUint(0xad01, 16).storeBuffer(Buffer.from(adnl, 'hex')).storeUint(0, 8).endCell())).toEqual({ type: 'adnl_address', adnl });
    expect(decodeDnsRecord(beginCell().storeUint(0x7473, 16).storeBuffer(Buffer.from(adnl, 'hex')).endCell())).toEqual({ type: 'storage_address', bagId: adnl });
    const next = decodeDnsRecord(beginCell().storeUint(0xba93, 16).storeAddress(TON_DNS_COLLECTION).endCell());
    expect(next?.type === 'next_resolver' && next.address.equals(TON_DNS_COLLECTION)).toBe(true);
    expect(decodeDnsRecord(beginCell().storeUint(0x1234, 16).endCell())).toBeNull();
    expect(DNS_CATEGORIES.wallet).toBe(sha256_sync('wallet').toString('hex'));
  });

  it('auction state moves from bidding to won with time alone', () => {
    const item = decodeDnsItemData(inAuction.data);
    const end = item.auction!.auctionEndTime;
    expect([dnsAuctionState(item, end - 1), dnsAuctionState(item, end), dnsAuctionState(item, end + 1)]).toEqual(['bidding', 'bidding', 'won']);
    expect(dnsAuctionState(decodeDnsItemData(claimed.data), end)).toBeNull();
  });
});
