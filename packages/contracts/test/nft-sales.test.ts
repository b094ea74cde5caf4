import { describe, expect, it } from 'vitest';
import { Address } from '@ton/core';
import { nftSaleSeller, readNftSale } from '../src/nft-sales.js';
import { runGetMethod } from '../src/get-method.js';
import { readFullDomain } from '../src/telemint.js';
import { fixtureCell, fixtureJson } from './fixtures.js';

const state = (dir: string) => {
  const expected = fixtureJson(`${dir}/expected.json`);
  return {
    code: fixtureCell(`${dir}/code.boc.b64`),
    data: fixtureCell(`${dir}/data.boc.b64`),
    address: Address.parseRaw(expected.address ?? expected['data.boc.b64'].address),
  };
};
const raw = (a: Address | null) => a?.toRawString() ?? null;

describe('getgems fixed-price sale v4', () => {
  it('reads get_fix_price_data_v4 to the recorded values', async () => {
    const want = fixtureJson('getgems-sale-v4/expected.json').get_fix_price_data_v4;
    const got = await readNftSale(state('getgems-sale-v4'));
    if (got?.type !== 'getgems_sale') throw new Error(`not a sale: ${got?.type}`);
    const s = got.sale;
    expect({
      is_complete: s.isComplete,
      created_at: s.createdAt,
      marketplace: raw(s.marketplace),
      nft: raw(s.nft),
      nft_owner: raw(s.nftOwner),
      full_price: s.fullPrice.toString(),
      fee_address: raw(s.marketplaceFeeAddress),
      fee_percent: s.feePercent,
      royalty_address: raw(s.royaltyAddress),
      royalty_percent: s.royaltyPercent,
      sold_at: s.soldAt,
      sold_query_id: Number(s.soldQueryId),
    }).toEqual({ ...want, jetton_price_dict: undefined });
    expect(s.version).toBe('v4');
    expect(s.jettonPriceDict).not.toBeNull();
    // A jetton-priced sale: no TON price, so no TON fee amounts.
    expect([s.marketplaceFee, s.royaltyAmount]).toEqual([0n, 0n]);
  });
});

describe('getgems auction', () => {
  it('reads get_sale_data ("AUC") to the recorded values', async () => {
    const want = fixtureJson('getgems-auction/expected.json').get_sale_data;
    const got = await readNftSale(state('getgems-auction'));
    if (got?.type !== 'getgems_auction') throw new Error(`not an auction: ${got?.type}`);
    const a = got.auction;
    expect({
      magic: 0x415543,
      end: a.end,
      end_time: a.endTime,
      marketplace: raw(a.marketplace),
      nft: raw(a.nft),
      owner: raw(a.nftOwner),
      last_bid: Number(a.lastBid),
      last_member: raw(a.lastMember),
      min_step: Number(a.minStep),
      mp_fee_addr: raw(a.mpFeeAddress),
      mp_fee_factor: Number(a.mpFeeFactor),
      mp_fee_base: Number(a.mpFeeBase),
      royalty_fee_addr: raw(a.royaltyFeeAddress),
      royalty_fee_factor: Number(a.royaltyFeeFactor),
      royalty_fee_base: Number(a.royaltyFeeBase),
      max_bid: Number(a.maxBid),
      min_bid: Number(a.minBid),
      created_at: a.createdAt,
      last_bid_at: a.lastBidAt,
      is_canceled: a.isCanceled,
    }).toEqual(want);
    expect([a.version, a.v4]).toEqual(['v1-v3', null]);
  });
});

describe('Telemint item', () => {
  it('get_full_domain is the recorded name', async () => {
    const want = fixtureJson('telemint-item/expected.json').get_full_domain;
    expect(readFullDomain(await runGetMethod(state('telemint-item'), 'get_full_domain'))).toBe(want);
  });

  it('reads token name, running auction, auction config and royalty', async () => {
    const got = await readNftSale(state('telemint-item'));
    if (got?.type !== 'teleitem') throw new Error(`not a teleitem: ${got?.type}`);
    const { item } = got;
    expect(item.tokenName).toBe('yoganews');
    expect(fixtureJson('telemint-item/expected.json').get_full_domain).toBe(`${item.tokenName}.t.me`);
    // Started by Fragment without a bid yet: no bidder, the initial minimum bid, an end time.
    expect(item.auction).toEqual({
      bidderAddress: null,
      bid: 0n,
      bidTs: 0,
      minBid: item.auctionConfig!.initialMinBid,
      endTime: 1683280182,
    });
    expect(item.auctionConfig).toMatchObject({
      initialMinBid: 80_000_000_000n,
      maxBid: 80_000_000_000n,
      minBidStep: 5n,
      minExtendTime: 3600,
      duration: 604800,
    });
    expect(item.royalty).toMatchObject({ numerator: 5, denominator: 100 });
    expect(item.royalty!.destination).not.toBeNull();
  });
});

describe('contracts that are not sales', () => {
  it('a DNS item and a validator controller give null', async () => {
    expect(await readNftSale(state('dns-item'))).toBeNull();
    expect(await readNftSale(state('validator-controller'))).toBeNull();
  });
});

describe('nftSaleSeller (an NFT item real_owner)', () => {
  it('names the seller of the item a sale or an auction holds, and no one for another item or contract', async () => {
    const sale = fixtureJson('getgems-sale-v4/expected.json').get_fix_price_data_v4;
    expect(raw(await nftSaleSeller(state('getgems-sale-v4'), Address.parseRaw(sale.nft)))).toBe(sale.nft_owner);
    const auction = fixtureJson('getgems-auction/expected.json').get_sale_data;
    expect(raw(await nftSaleSeller(state('getgems-auction'), Address.parseRaw(auction.nft)))).toBe(auction.owner);
    expect(await nftSaleSeller(state('getgems-sale-v4'), Address.parseRaw(auction.nft))).toBeNull();
    expect(await nftSaleSeller(state('single-nominator'), Address.parseRaw(sale.nft))).toBeNull();
  });
});
