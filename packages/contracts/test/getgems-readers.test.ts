import { describe, expect, it } from 'vitest';
import { Address, TupleReader, beginCell, type TupleItem } from '@ton/core';
import { FIX_PRICE_SALE_MAGIC, readFixPriceRest } from '../src/getgems-sale.js';
import { AUCTION_MAGIC, readAuctionDataV4 } from '../src/getgems-auction.js';

/**
 * The two getgems readers no recorded state exercises (fix-price v1–v3, auction v4), against the value order
 * toncenter's worker reads (`NftSale.cpp`, as the staking research lists it): each position gets a distinct value.
 */
const address = (n: number) => Address.parseRaw(`0:${n.toString(16).padStart(64, '0')}`);
const addr = (n: number): TupleItem => ({ type: 'slice', cell: beginCell().storeAddress(address(n)).endCell() });
const none: TupleItem = { type: 'slice', cell: beginCell().storeUint(0, 2).endCell() };
const int = (v: number | bigint): TupleItem => ({ type: 'int', value: BigInt(v) });

describe('getgems fix-price sale v1–v3 (get_sale_data "FIXP")', () => {
  it('reads the 10 values after the magic in order', () => {
    const stack = new TupleReader([
      int(FIX_PRICE_SALE_MAGIC),
      int(-1),
      int(1700000000),
      addr(1),
      addr(2),
      none,
      int(5_000_000_000n),
      addr(3),
      int(250_000_000n),
      addr(4),
      int(500_000_000n),
    ]);
    expect(stack.readNumber()).toBe(FIX_PRICE_SALE_MAGIC);
    const sale = readFixPriceRest(stack);
    expect(stack.remaining).toBe(0);
    expect(sale).toMatchObject({
      version: 'v1-v3',
      isComplete: true,
      createdAt: 1700000000,
      nftOwner: null,
      fullPrice: 5_000_000_000n,
      marketplaceFee: 250_000_000n,
      royaltyAmount: 500_000_000n,
      feePercent: null,
    });
    expect([sale.marketplace, sale.nft, sale.marketplaceFeeAddress, sale.royaltyAddress].map((a) => a!.toRawString())).toEqual(
      [1, 2, 3, 4].map((n) => address(n).toRawString()),
    );
  });
});

describe('getgems auction v4 (get_auction_data_v4)', () => {
  it('reads activated, the 19 shared values, then the v4 extras', () => {
    const values: TupleItem[] = [
      int(-1), // activated
      int(0),
      int(1700001000),
      addr(1),
      addr(2),
      addr(3),
      int(7_000_000_000n),
      addr(4),
      int(100_000_000n),
      addr(5),
      int(5),
      int(100),
      addr(6),
      int(10),
      int(100),
      int(50_000_000_000n),
      int(1_000_000_000n),
      int(1700000000),
      int(1700000500),
      int(0),
      int(300),
      int(42),
      none,
      none,
      int(0),
      int(123456789n),
    ];
    expect(values).toHaveLength(26);
    const stack = new TupleReader(values);
    const a = readAuctionDataV4(stack);
    expect(stack.remaining).toBe(0);
    expect(a).toMatchObject({
      version: 'v4',
      end: false,
      endTime: 1700001000,
      lastBid: 7_000_000_000n,
      minStep: 100_000_000n,
      mpFeeFactor: 5n,
      mpFeeBase: 100n,
      royaltyFeeFactor: 10n,
      royaltyFeeBase: 100n,
      maxBid: 50_000_000_000n,
      minBid: 1_000_000_000n,
      createdAt: 1700000000,
      lastBidAt: 1700000500,
      isCanceled: false,
      v4: {
        activated: true,
        stepTime: 300,
        lastQueryId: 42n,
        jettonWallet: null,
        jettonMaster: null,
        isBrokenState: false,
        publicKey: 123456789n,
      },
    });
    expect([a.marketplace, a.nft, a.nftOwner, a.lastMember, a.mpFeeAddress, a.royaltyFeeAddress].map((x) => x!.toRawString())).toEqual(
      [1, 2, 3, 4, 5, 6].map((n) => address(n).toRawString()),
    );
    expect(AUCTION_MAGIC).toBe(0x415543);
  });
});
