import type { Address, Cell, TupleReader } from '@ton/core';

/**
 * getgems fixed-price sale contracts, read through their get-methods (what toncenter's worker does,
 * `NftSale.cpp` / `NftSaleV4.cpp`): v1–v3 answer `get_sale_data` with the magic `0x46495850` ("FIXP") first; v4
 * answers `get_fix_price_data_v4`. Both map onto `/nft/sales` `getgems_sale` details.
 */

export const FIX_PRICE_SALE_MAGIC = 0x46495850;

/** v4 fees are given in 1/100000 of the price (the recorded sale: 5000 = 5 % marketplace, 10000 = 10 % royalty). */
export const SALE_V4_PERCENT_BASE = 100000n;

export interface GetgemsSale {
  version: 'v1-v3' | 'v4';
  isComplete: boolean;
  createdAt: number;
  marketplace: Address | null;
  nft: Address | null;
  /** The seller; null while the sale has not received the NFT. */
  nftOwner: Address | null;
  /** In nanotons; 0 for a v4 sale priced only in jettons. */
  fullPrice: bigint;
  marketplaceFeeAddress: Address | null;
  /** Amount the marketplace takes (v4: the price times its percent). */
  marketplaceFee: bigint;
  royaltyAddress: Address | null;
  royaltyAmount: bigint;
  /** v4 only (null before): the percents the amounts come from, when the sale completed, and its query id. */
  feePercent: number | null;
  royaltyPercent: number | null;
  soldAt: number | null;
  soldQueryId: bigint | null;
  /** v4 only: jetton master → price dictionary, undecoded. */
  jettonPriceDict: Cell | null;
}

/** `get_sale_data` of a v1–v3 sale, after its magic has been read (see readNftSale). */
export function readFixPriceRest(stack: TupleReader): GetgemsSale {
  return {
    version: 'v1-v3',
    isComplete: stack.readBoolean(),
    createdAt: stack.readNumber(),
    marketplace: stack.readAddressOpt(),
    nft: stack.readAddressOpt(),
    nftOwner: stack.readAddressOpt(),
    fullPrice: stack.readBigNumber(),
    marketplaceFeeAddress: stack.readAddressOpt(),
    marketplaceFee: stack.readBigNumber(),
    royaltyAddress: stack.readAddressOpt(),
    royaltyAmount: stack.readBigNumber(),
    feePercent: null,
    royaltyPercent: null,
    soldAt: null,
    soldQueryId: null,
    jettonPriceDict: null,
  };
}

/** `get_fix_price_data_v4`: `(is_complete, created_at, marketplace, nft, nft_owner, full_price, fee_address,
 * fee_percent, royalty_address, royalty_percent, sold_at, sold_query_id, jetton_price_dict)`. */
export function readFixPriceDataV4(stack: TupleReader): GetgemsSale {
  const isComplete = stack.readBoolean();
  const createdAt = stack.readNumber();
  const marketplace = stack.readAddressOpt();
  const nft = stack.readAddressOpt();
  const nftOwner = stack.readAddressOpt();
  const fullPrice = stack.readBigNumber();
  const marketplaceFeeAddress = stack.readAddressOpt();
  const feePercent = stack.readNumber();
  const royaltyAddress = stack.readAddressOpt();
  const royaltyPercent = stack.readNumber();
  return {
    version: 'v4',
    isComplete,
    createdAt,
    marketplace,
    nft,
    nftOwner,
    fullPrice,
    marketplaceFeeAddress,
    marketplaceFee: (fullPrice * BigInt(feePercent)) / SALE_V4_PERCENT_BASE,
    royaltyAddress,
    royaltyAmount: (fullPrice * BigInt(royaltyPercent)) / SALE_V4_PERCENT_BASE,
    feePercent,
    royaltyPercent,
    soldAt: stack.readNumber(),
    soldQueryId: stack.readBigNumber(),
    jettonPriceDict: stack.readCellOpt(),
  };
}
