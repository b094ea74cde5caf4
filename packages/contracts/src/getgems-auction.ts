import type { Address, TupleReader } from '@ton/core';

/**
 * getgems NFT auctions, read through their get-methods as toncenter's worker does (`NftSale.cpp`): v4 answers
 * `get_auction_data_v4` (26 values); older auctions answer `get_sale_data` with the magic `0x415543` ("AUC") first.
 * Fields map onto `/nft/sales` `getgems_auction` details (end → end_flag, mpFee… → mp_fee_…).
 */

export const AUCTION_MAGIC = 0x415543;

export interface GetgemsAuction {
  version: 'v1-v3' | 'v4';
  /** The auction is over (sold, cancelled or expired and settled). */
  end: boolean;
  endTime: number;
  marketplace: Address | null;
  nft: Address | null;
  nftOwner: Address | null;
  lastBid: bigint;
  /** The highest bidder; null before the first bid. */
  lastMember: Address | null;
  minStep: bigint;
  mpFeeAddress: Address | null;
  mpFeeFactor: bigint;
  mpFeeBase: bigint;
  royaltyFeeAddress: Address | null;
  royaltyFeeFactor: bigint;
  royaltyFeeBase: bigint;
  /** Buy-out price; 0 when there is none. */
  maxBid: bigint;
  minBid: bigint;
  createdAt: number;
  lastBidAt: number;
  isCanceled: boolean;
  /** v4 only (null before). */
  v4: {
    activated: boolean;
    stepTime: number;
    lastQueryId: bigint;
    jettonWallet: Address | null;
    jettonMaster: Address | null;
    isBrokenState: boolean;
    publicKey: bigint;
  } | null;
}

type Common = Omit<GetgemsAuction, 'version' | 'v4'>;

/** The 19 values both versions share, from `end` to `is_canceled`. */
function readCommon(stack: TupleReader): Common {
  return {
    end: stack.readBoolean(),
    endTime: stack.readNumber(),
    marketplace: stack.readAddressOpt(),
    nft: stack.readAddressOpt(),
    nftOwner: stack.readAddressOpt(),
    lastBid: stack.readBigNumber(),
    lastMember: stack.readAddressOpt(),
    minStep: stack.readBigNumber(),
    mpFeeAddress: stack.readAddressOpt(),
    mpFeeFactor: stack.readBigNumber(),
    mpFeeBase: stack.readBigNumber(),
    royaltyFeeAddress: stack.readAddressOpt(),
    royaltyFeeFactor: stack.readBigNumber(),
    royaltyFeeBase: stack.readBigNumber(),
    maxBid: stack.readBigNumber(),
    minBid: stack.readBigNumber(),
    createdAt: stack.readNumber(),
    lastBidAt: stack.readNumber(),
    isCanceled: stack.readBoolean(),
  };
}

/** `get_sale_data` of an auction, after its magic has been read (see readNftSale). */
export function readAuctionRest(stack: TupleReader): GetgemsAuction {
  return { version: 'v1-v3', ...readCommon(stack), v4: null };
}

/** `get_auction_data_v4`: `activated` first, then the shared 19, then the v4 extras. */
export function readAuctionDataV4(stack: TupleReader): GetgemsAuction {
  const activated = stack.readBoolean();
  const common = readCommon(stack);
  return {
    version: 'v4',
    ...common,
    v4: {
      activated,
      stepTime: stack.readNumber(),
      lastQueryId: stack.readBigNumber(),
      jettonWallet: stack.readAddressOpt(),
      jettonMaster: stack.readAddressOpt(),
      isBrokenState: stack.readBoolean(),
      publicKey: stack.readBigNumber(),
    },
  };
}
