import { randomBytes } from 'node:crypto';
import { Address, internal, toNano, type MessageRelaxed } from '@ton/core';
import { nftCollectionInit, nftItemAddress, nftMintBody, nftTransferBody } from './contracts/tokens.js';
import { getgemsAuctionInit, getgemsSaleV4Init } from './contracts/sales.js';
import { dnsItemAddress, openAuctionBody } from './contracts/dns.js';
import { nowSeconds } from './producer.js';

/** A seed wallet able to send: the seed's own actors (seed.ts) fit this. */
export interface SalesActor {
  wallet: { address: Address };
}

export interface SalesSeedDeps<A extends SalesActor> {
  send(from: A, out: MessageRelaxed[]): Promise<void>;
  produceBlock(): Promise<unknown>;
  /** Deploys the marketplace contracts and receives their fees (the faucet). */
  marketplace: A;
  /** Puts two NFTs on sale: one at a fixed price, one in auction. */
  seller: A;
  /** Bids on the auction and outbids on the DNS auction. */
  bidder: A;
  /** Opens the DNS auction (and is outbid). */
  dnsOpener: A;
  /** The `.ton` collection the DNS auction is opened at. */
  dnsCollection: Address;
}

export interface SalesSeedSummary {
  collection: Address;
  sale: { address: Address; nft: Address; seller: Address; fullPrice: bigint };
  auction: { address: Address; nft: Address; seller: Address; bidder: Address; bid: bigint; endTime: number };
  /** The item's end time moves with late bids: read it with get_auction_info. */
  dns: { item: Address; domain: string; bidder: Address; bid: bigint; outbid: Address };
}

const AUCTION_SECONDS = 24 * 3600;

/**
 * Marketplace activity: an NFT on a getgems fixed-price sale (v4), another in a getgems auction with a bid, and a
 * `.ton` DNS item in auction where the first bidder is outbid: the opener registers the domain at the devnet's `.ton`
 * collection with a comment (its value the first bid), which deploys the item in auction for an hour, as mainnet's
 * does today; a late bid extends it by the item's own rule.
 */
export async function seedSales<A extends SalesActor>(deps: SalesSeedDeps<A>): Promise<SalesSeedSummary> {
  const { send, produceBlock, marketplace, seller, bidder, dnsOpener, dnsCollection } = deps;
  const tag = randomBytes(4).toString('hex');
  const now = nowSeconds();
  const mp = marketplace.wallet.address;

  // 1. A collection with two items for the seller; the sale and the auction for them; the DNS auction opens.
  const collection = nftCollectionInit(
    mp,
    `https://devnet.tongate.local/market-${tag}/collection.json`,
    `https://devnet.tongate.local/market-${tag}/`,
  );
  const saleNft = nftItemAddress(collection.address, 0n);
  const auctionNft = nftItemAddress(collection.address, 1n);
  const fees = { marketplaceFeeAddress: mp, royaltyAddress: mp };
  const fullPrice = toNano('5');
  const sale = getgemsSaleV4Init({ marketplace: mp, nft: saleNft, fullPrice, createdAt: now, ...fees });
  const auctionEnd = now + AUCTION_SECONDS;
  const auction = getgemsAuctionInit({
    marketplace: mp,
    nft: auctionNft,
    minBid: toNano('1'),
    maxBid: toNano('100'),
    minStep: toNano('0.1'),
    stepTime: 300,
    endTime: auctionEnd,
    createdAt: now,
    ...fees,
  });
  const mint = (index: bigint) =>
    nftMintBody({ index, owner: seller.wallet.address, itemValue: toNano('0.05'), contentSuffix: `${index}.json` });
  // The sale and auction take no empty deploy message (that first transaction aborts and bounces its value back,
  // as on mainnet when a sale is deployed bare); the NFT's arrival is what activates them.
  await send(marketplace, [
    internal({ to: collection.address, value: toNano('0.2'), bounce: false, init: collection.init, body: mint(0n) }),
    internal({ to: collection.address, value: toNano('0.2'), bounce: true, body: mint(1n) }),
    internal({ to: sale.address, value: toNano('0.05'), bounce: false, init: sale.init }),
    internal({ to: auction.address, value: toNano('0.05'), bounce: false, init: auction.init }),
  ]);
  const domain = `devnet-${tag}`;
  const dns = { address: dnsItemAddress(dnsCollection, domain) };
  await send(dnsOpener, [internal({ to: dnsCollection, value: toNano('1'), bounce: true, body: openAuctionBody(domain) })]);
  await produceBlock();

  // 2. The seller hands the NFTs over; each contract learns its seller from ownership_assigned.
  const handOver = (nft: Address, to: Address) =>
    internal({
      to: nft,
      value: toNano('0.1'),
      bounce: true,
      body: nftTransferBody({ newOwner: to, responseTo: seller.wallet.address, forwardTonAmount: toNano('0.02') }),
    });
  await send(seller, [handOver(saleNft, sale.address), handOver(auctionNft, auction.address)]);
  await produceBlock();

  // 3. Bids: a plain transfer is a bid to both contracts.
  const auctionBid = toNano('2');
  const dnsBid = toNano('2');
  await send(bidder, [
    internal({ to: auction.address, value: auctionBid, bounce: true }),
    internal({ to: dns.address, value: dnsBid, bounce: true }),
  ]);
  await produceBlock();

  return {
    collection: collection.address,
    sale: { address: sale.address, nft: saleNft, seller: seller.wallet.address, fullPrice },
    auction: {
      address: auction.address,
      nft: auctionNft,
      seller: seller.wallet.address,
      bidder: bidder.wallet.address,
      bid: auctionBid,
      endTime: auctionEnd,
    },
    dns: { item: dns.address, domain, bidder: bidder.wallet.address, bid: dnsBid, outbid: dnsOpener.wallet.address },
  };
}
