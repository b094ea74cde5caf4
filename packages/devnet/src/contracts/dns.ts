import { sha256_sync } from '@ton/crypto';
import { Address, beginCell, Cell, contractAddress, Dictionary, type StateInit } from '@ton/core';
import { devnetDnsItemCodeBoc, dnsCollectionCodeBoc, dnsRootCodeBoc } from './codes.js';
import { onchainContent } from './tokens.js';

/**
 * TON DNS on the devnet, deployed the way mainnet's is: config param 4 names a root resolver (masterchain) whose
 * `dnsresolve` gives the `.ton` collection, which deploys each domain's item with the state init
 * {code: item code, data: index collection} (index = hash of the domain's cell), so items pass the indexer's
 * authenticity check (`isGenuineDnsItem`) and anything else running the item code does not. All three are tongate's
 * own contracts (contracts/dns-*.fc): mainnet's item opens every domain with an hour-long auction, which a seed
 * cannot wait for, so the devnet collection's admin (the faucet) can also `register` a domain straight to an owner.
 * Public registration (a comment with the domain, at least 1 TON) opens a mainnet-style auction.
 *
 * Records are TEP-81 `DNSRecord` cells under sha256 of the category name, set by the owner with `change_dns_record`.
 */

export const DNS_OP = { changeRecord: 0x4eb1f0f9, register: 0x5265673a } as const;

export const dnsItemCode = () => Cell.fromBase64(devnetDnsItemCodeBoc);

/** Index of a `.ton` item: the hash of the cell holding its label, as the collection computes it (`slice_hash`). */
export const dnsItemIndex = (label: string): bigint => BigInt('0x' + beginCell().storeStringTail(label).endCell().hash().toString('hex'));

/** Key of a record category (`wallet`, `site`, `storage`, `dns_next_resolver`). */
export const dnsCategory = (name: string): bigint => BigInt('0x' + sha256_sync(name).toString('hex'));

export interface DevnetDns {
  /** The root resolver (masterchain) config param 4 names. */
  root: { address: Address; init: StateInit };
  /** The `.ton` collection; `admin` may register domains. */
  collection: { address: Address; init: StateInit };
  admin: Address;
}

/** The devnet's root resolver and `.ton` collection (fixed by the admin's address: the same on both networks). */
export function devnetDns(admin: Address): DevnetDns {
  const content = onchainContent({ name: 'TON DNS Domains (devnet)', description: '.ton domains of the tongate devnet' });
  const collectionInit = {
    code: Cell.fromBase64(dnsCollectionCodeBoc),
    data: beginCell().storeAddress(admin).storeRef(content).storeRef(dnsItemCode()).endCell(),
  };
  const collection = contractAddress(0, collectionInit);
  const rootInit = { code: Cell.fromBase64(dnsRootCodeBoc), data: beginCell().storeAddress(collection).endCell() };
  return {
    root: { address: contractAddress(-1, rootInit), init: rootInit },
    collection: { address: collection, init: collectionInit },
    admin,
  };
}

/** Address of the item of `label` (without `.ton`) in `collection`: its `get_nft_address_by_index`. */
export function dnsItemAddress(collection: Address, label: string): Address {
  return contractAddress(0, {
    code: dnsItemCode(),
    data: beginCell().storeUint(dnsItemIndex(label), 256).storeAddress(collection).endCell(),
  });
}

/** `register` (to the collection, from its admin): deploys `label`'s item owned by `owner`, no auction. */
export function registerDomainBody(label: string, owner: Address, queryId = 0n): Cell {
  return beginCell()
    .storeUint(DNS_OP.register, 32)
    .storeUint(queryId, 64)
    .storeAddress(owner)
    .storeRef(beginCell().storeStringTail(label).endCell())
    .endCell();
}

/** Public registration (to the collection, at least 1 TON): opens `label`'s auction with the value as first bid. */
export function openAuctionBody(label: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(label).endCell();
}

export interface DnsAuctionState {
  maxBidAddress: Address;
  maxBidAmount: bigint;
  /** Unix time; the auction is won (and claimable by the bidder's next message) once it is past. */
  endTime: number;
}

export interface DnsItemArgs {
  collection: Address;
  /** Label without `.ton`. */
  label: string;
  /** Null while in auction. */
  owner: Address | null;
  auction?: DnsAuctionState | null;
  /** Unix time of the last fill-up (the domain expires a year after it). */
  lastFillUpTime: number;
  /** Item code (default: the devnet's). */
  code?: Cell;
}

function auctionCell(a: DnsAuctionState): Cell {
  return beginCell().storeAddress(a.maxBidAddress).storeCoins(a.maxBidAmount).storeUint(a.endTime, 64).endCell();
}

/**
 * State init of an item already initialised (`index collection owner ^content ^domain auction last_fill_up_time`),
 * deployed directly rather than by its collection: what a forger does. Its address is not the collection's item
 * address, so the indexer does not count it as a domain; tests use it to check exactly that.
 */
export function forgedDnsItemInit(args: DnsItemArgs): { address: Address; init: StateInit; index: bigint } {
  const index = dnsItemIndex(args.label);
  const emptyRecords = beginCell()
    .storeUint(0, 8)
    .storeDict(Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell()))
    .endCell();
  const data = beginCell()
    .storeUint(index, 256)
    .storeAddress(args.collection)
    .storeAddress(args.owner)
    .storeRef(emptyRecords)
    .storeRef(beginCell().storeStringTail(args.label).endCell())
    .storeMaybeRef(args.auction ? auctionCell(args.auction) : null)
    .storeUint(args.lastFillUpTime, 64)
    .endCell();
  const init = { code: args.code ?? dnsItemCode(), data };
  return { address: contractAddress(0, init), init, index };
}

/** DNSRecord values (block.tlb): `dns_smc_address#9fd3`, `dns_adnl_address#ad01`, `dns_storage_address#7473`, `dns_next_resolver#ba93`. */
export const dnsRecord = {
  wallet: (address: Address) => beginCell().storeUint(0x9fd3, 16).storeAddress(address).storeUint(0, 8).endCell(),
  siteAdnl: (adnl: Buffer) => beginCell().storeUint(0xad01, 16).storeBuffer(adnl, 32).storeUint(0, 8).endCell(),
  storageBag: (bagId: Buffer) => beginCell().storeUint(0x7473, 16).storeBuffer(bagId, 32).endCell(),
  nextResolver: (address: Address) => beginCell().storeUint(0xba93, 16).storeAddress(address).endCell(),
};

/** `change_dns_record`: sets the category's record to `value`, or deletes it when `value` is null. */
export function changeDnsRecordBody(category: string, value: Cell | null, queryId = 0n): Cell {
  const b = beginCell().storeUint(DNS_OP.changeRecord, 32).storeUint(queryId, 64).storeUint(dnsCategory(category), 256);
  if (value) b.storeRef(value);
  return b.endCell();
}
