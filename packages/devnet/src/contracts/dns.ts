import { sha256_sync } from '@ton/crypto';
import { Address, beginCell, Cell, contractAddress, Dictionary, type StateInit } from '@ton/core';
import { dnsItemCodeBoc } from './sales-codes.js';

/**
 * `.ton` domain items on the devnet: the mainnet item code (sales-codes.ts) deployed with its state already initialised,
 * the way the root collection leaves an item after its auction (owner set, no auction) or during one (owner none,
 * auction cell). The devnet has no root collection contract (its code is not available offline), so the item's
 * `collection` is any address the caller names; the item code itself only talks to its collection when a won auction
 * is claimed (it forwards the winning bid there).
 *
 * Records are TEP-81 `DNSRecord` cells under sha256 of the category name, set by the owner with `change_dns_record`.
 */

export const DNS_OP = { changeRecord: 0x4eb1f0f9 } as const;

export const dnsItemCode = () => Cell.fromBase64(dnsItemCodeBoc);

/** Index of a `.ton` item: sha256 of its label, as the root collection computes it. */
export const dnsItemIndex = (label: string): bigint => BigInt('0x' + sha256_sync(label).toString('hex'));

/** Key of a record category (`wallet`, `site`, `storage`, `dns_next_resolver`). */
export const dnsCategory = (name: string): bigint => BigInt('0x' + sha256_sync(name).toString('hex'));

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
}

function auctionCell(a: DnsAuctionState): Cell {
  return beginCell().storeAddress(a.maxBidAddress).storeCoins(a.maxBidAmount).storeUint(a.endTime, 64).endCell();
}

/** State init of an initialised item: `index collection owner ^content ^domain auction last_fill_up_time`. */
export function dnsItemInit(args: DnsItemArgs): { address: Address; init: StateInit; index: bigint } {
  const index = dnsItemIndex(args.label);
  const emptyRecords = beginCell().storeUint(0, 8).storeDict(Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.Cell())).endCell();
  const data = beginCell()
    .storeUint(index, 256)
    .storeAddress(args.collection)
    .storeAddress(args.owner)
    .storeRef(emptyRecords)
    .storeRef(beginCell().storeStringTail(args.label).endCell())
    .storeMaybeRef(args.auction ? auctionCell(args.auction) : null)
    .storeUint(args.lastFillUpTime, 64)
    .endCell();
  const init = { code: dnsItemCode(), data };
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
