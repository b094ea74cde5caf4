import { Address, type Cell, type TupleItem } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractCodes, createDevnet, salesContractCodes, type Devnet, type SeedSummary } from '../src/index.js';

/** The seed's marketplace contracts run the recorded mainnet code: each ends in the state its own get-methods report. */
let devnet: Devnet;
let seed: SeedSummary;

const int = (item: TupleItem) => (item as { value: bigint }).value;
const addr = (item: TupleItem) => (item as { cell: Cell }).cell.beginParse().loadMaybeAddress();
const same = (a: Address | null, b: Address) => expect(a?.toRawString()).toBe(b.toRawString());

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  seed = await devnet.seed();
});
afterAll(() => devnet.close());

async function codeHash(address: Address): Promise<string> {
  return (await devnet.getAccountState(address)).code!.hash().toString('hex');
}

describe('seed: marketplace and DNS auctions', () => {
  it('puts an NFT on a getgems fixed-price sale v4 that knows its seller', async () => {
    const { sale } = seed.sales;
    expect(await codeHash(sale.address)).toBe(salesContractCodes.getgemsSaleV4CodeHash);
    const { exitCode, stack } = await devnet.runGetMethod(sale.address, 'get_fix_price_data_v4', []);
    expect(exitCode).toBe(0);
    expect(int(stack[0])).toBe(0n); // not complete
    same(addr(stack[3]), sale.nft);
    same(addr(stack[4]), sale.seller);
    expect(int(stack[5])).toBe(sale.fullPrice);
    // The NFT is held by the sale.
    same(addr((await devnet.runGetMethod(sale.nft, 'get_nft_data', [])).stack[3]), sale.address);
  });

  it('runs a getgems auction with a bid', async () => {
    const { auction } = seed.sales;
    expect(await codeHash(auction.address)).toBe(salesContractCodes.getgemsAuctionCodeHash);
    const { exitCode, stack } = await devnet.runGetMethod(auction.address, 'get_sale_data', []);
    expect(exitCode).toBe(0);
    expect(int(stack[0])).toBe(0x415543n);
    expect(int(stack[1])).toBe(0n); // not ended
    same(addr(stack[5]), auction.seller);
    expect(int(stack[6])).toBe(auction.bid);
    same(addr(stack[7]), auction.bidder);
    same(addr((await devnet.runGetMethod(auction.nft, 'get_nft_data', [])).stack[3]), auction.address);
  });

  it('runs a .ton DNS auction where the opening bidder is outbid', async () => {
    const { dns } = seed.sales;
    expect(await codeHash(dns.item)).toBe(contractCodes.devnetDnsItemCodeHash);
    const info = await devnet.runGetMethod(dns.item, 'get_auction_info', []);
    expect(info.exitCode).toBe(0);
    same(addr(info.stack[0]), dns.bidder);
    expect(int(info.stack[1])).toBe(dns.bid);
    expect(Number(int(info.stack[2]))).toBeGreaterThan(Math.floor(Date.now() / 1000));
    const domain = await devnet.runGetMethod(dns.item, 'get_domain', []);
    expect((domain.stack[0] as { cell: Cell }).cell.beginParse().loadStringTail()).toBe(dns.domain);
  });
});
