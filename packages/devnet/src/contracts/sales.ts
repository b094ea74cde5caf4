import { Address, beginCell, Cell, contractAddress, type StateInit } from '@ton/core';
import { getgemsAuctionCodeBoc, getgemsSaleV4CodeBoc } from './sales-codes.js';

/**
 * State inits of the recorded marketplace and DNS contracts (sales-codes.ts). The data layouts are the ones the
 * recorded mainnet states have (checked against the contracts' own get-methods in the devnet's tests).
 */

export const getgemsSaleV4Code = () => Cell.fromBase64(getgemsSaleV4CodeBoc);
export const getgemsAuctionCode = () => Cell.fromBase64(getgemsAuctionCodeBoc);

/** Fees of a sale or an auction: a share for the marketplace and one for the collection's royalty. */
export interface SaleFees {
  marketplaceFeeAddress: Address;
  royaltyAddress: Address;
}

function deployed(data: Cell, code: Cell): { address: Address; init: StateInit } {
  const init = { code, data };
  return { address: contractAddress(0, init), init };
}

/** getgems fix-price sale v4 percents are in 1/100000 of the price (5000 = 5 %). */
export const SALE_V4_FEE_PERCENT = 5000;
export const SALE_V4_ROYALTY_PERCENT = 10000;

/**
 * A getgems fixed-price sale v4 waiting for its NFT: `is_complete:1 marketplace nft_owner full_price:Coins
 * sold_at:32 sold_query_id:64 ^[fee_address royalty_address fee_percent:17 royalty_percent:17 nft created_at:32]
 * jetton_price_dict:(Maybe ^Cell)`. The seller is set when the NFT arrives (ownership_assigned names it).
 */
export function getgemsSaleV4Init(args: { marketplace: Address; nft: Address; fullPrice: bigint; createdAt: number } & SaleFees): {
  address: Address;
  init: StateInit;
} {
  const terms = beginCell()
    .storeAddress(args.marketplaceFeeAddress)
    .storeAddress(args.royaltyAddress)
    .storeUint(SALE_V4_FEE_PERCENT, 17)
    .storeUint(SALE_V4_ROYALTY_PERCENT, 17)
    .storeAddress(args.nft)
    .storeUint(args.createdAt, 32)
    .endCell();
  const data = beginCell()
    .storeBit(false)
    .storeAddress(args.marketplace)
    .storeAddress(null)
    .storeCoins(args.fullPrice)
    .storeUint(0, 32)
    .storeUint(0, 64)
    .storeRef(terms)
    .storeMaybeRef(null)
    .endCell();
  return deployed(data, getgemsSaleV4Code());
}

/** The gas the getgems auction keeps from each bid (the recorded auction's constant). */
const AUCTION_SUB_GAS_FROM_BID = 8449000;

/**
 * A getgems auction (v2) waiting for its NFT: `end:1 activated:1 is_canceled:1 last_member last_bid:Coins
 * last_bid_at:32 end_time:32 nft_owner ^[mp_fee_addr mp_fee_factor:32 mp_fee_base:32 royalty_fee_addr
 * royalty_fee_factor:32 royalty_fee_base:32] ^[sub_gas:32 marketplace min_bid:Coins max_bid:Coins min_step:Coins
 * step_time:32 nft created_at:32]`. The NFT's arrival activates it and names the seller.
 */
export function getgemsAuctionInit(
  args: {
    marketplace: Address;
    nft: Address;
    minBid: bigint;
    maxBid: bigint;
    minStep: bigint;
    stepTime: number;
    endTime: number;
    createdAt: number;
  } & SaleFees,
): { address: Address; init: StateInit } {
  const fees = beginCell()
    .storeAddress(args.marketplaceFeeAddress)
    .storeUint(5, 32)
    .storeUint(100, 32)
    .storeAddress(args.royaltyAddress)
    .storeUint(10, 32)
    .storeUint(100, 32)
    .endCell();
  const constants = beginCell()
    .storeUint(AUCTION_SUB_GAS_FROM_BID, 32)
    .storeAddress(args.marketplace)
    .storeCoins(args.minBid)
    .storeCoins(args.maxBid)
    .storeCoins(args.minStep)
    .storeUint(args.stepTime, 32)
    .storeAddress(args.nft)
    .storeUint(args.createdAt, 32)
    .endCell();
  const data = beginCell()
    .storeBit(false)
    .storeBit(false)
    .storeBit(false)
    .storeAddress(null)
    .storeCoins(0)
    .storeUint(0, 32)
    .storeUint(args.endTime, 32)
    .storeAddress(null)
    .storeRef(fees)
    .storeRef(constants)
    .endCell();
  return deployed(data, getgemsAuctionCode());
}
