import { Address, beginCell, contractAddress, type Cell, type Slice, type TupleItem } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { KEY256, decodeExactly, expectTag, hex256, readOnlyValue } from './cells.js';

/**
 * `.ton` domain items (`ton-blockchain/dns-contract` `func/nft-item.fc`): the domain, its auction and its DNS
 * records, from the data cell
 * `index:uint256 collection:MsgAddress owner:MsgAddress content:^Cell domain:^Cell
 *  auction:(Maybe ^[max_bid_address:MsgAddress max_bid_amount:Coins auction_end_time:uint64]) last_fill_up_time:uint64`.
 */

/**
 * Code hash (hex) of the `.ton` domain items (mainnet's root collection deploys every item with it; recorded in
 * packages/testdata/fixtures/accounts/dns-item). Items are recognised by it: their data layout is this code's.
 */
export const TON_DNS_ITEM_CODE_HASH = '8b5ffc9ebfd39064d8d5f56e4659c826bb7593923f5ca48728be4d60af6f51f9';

export interface DnsAuction {
  maxBidAddress: Address | null;
  maxBidAmount: bigint;
  auctionEndTime: number;
}

/** TEP-81 records under the four standard categories; other categories stay in `other` (category hash → cell). */
export interface DnsRecords {
  wallet: Address | null;
  nextResolver: Address | null;
  siteAdnl: string | null;
  storageBagId: string | null;
  other: Map<string, Cell>;
}

export interface DnsItem {
  index: bigint;
  collection: Address | null;
  /** Null while the domain is in auction (and before it is claimed after one). */
  owner: Address | null;
  /** The label without `.ton`, e.g. `alice`. */
  domain: string;
  auction: DnsAuction | null;
  lastFillUpTime: number;
  records: DnsRecords;
}

const category = (name: string) => hex256(BigInt('0x' + sha256_sync(name).toString('hex')));
export const DNS_CATEGORIES = {
  wallet: category('wallet'),
  nextResolver: category('dns_next_resolver'),
  site: category('site'),
  storage: category('storage'),
} as const;

const RECORD = readOnlyValue((s: Slice) => s.loadRef());

/** Records dictionary of the item's content: `0x00` (on-chain) then `HashmapE 256 ^DNSRecord`. */
export function decodeDnsRecords(content: Cell): DnsRecords {
  const dict = decodeExactly(content, 'dns item content', (s) => {
    expectTag(s, 8, 0, 'on-chain content');
    return s.loadDict(KEY256, RECORD);
  });
  const records: DnsRecords = { wallet: null, nextResolver: null, siteAdnl: null, storageBagId: null, other: new Map() };
  for (const [key, cell] of dict) {
    const name = hex256(key);
    const value = decodeDnsRecord(cell);
    if (name === DNS_CATEGORIES.wallet && value?.type === 'smc_address') records.wallet = value.address;
    else if (name === DNS_CATEGORIES.nextResolver && value?.type === 'next_resolver') records.nextResolver = value.address;
    else if (name === DNS_CATEGORIES.site && value?.type === 'adnl_address') records.siteAdnl = value.adnl;
    else if (name === DNS_CATEGORIES.storage && value?.type === 'storage_address') records.storageBagId = value.bagId;
    else records.other.set(name, cell);
  }
  return records;
}

export type DnsRecordValue =
  | { type: 'smc_address'; address: Address }
  | { type: 'next_resolver'; address: Address }
  | { type: 'adnl_address'; adnl: string }
  | { type: 'storage_address'; bagId: string };

/** One DNSRecord (TL-B of `crypto/block/block.tlb`); null for a kind this does not know or a malformed one. */
export function decodeDnsRecord(cell: Cell): DnsRecordValue | null {
  try {
    const s = cell.beginParse();
    switch (s.loadUint(16)) {
      case 0x9fd3:
        return { type: 'smc_address', address: s.loadAddress() }; // flags and capabilities follow
      case 0xba93:
        return { type: 'next_resolver', address: s.loadAddress() };
      case 0xad01:
        return { type: 'adnl_address', adnl: hex256(s.loadUintBig(256)) };
      case 0x7473:
        return { type: 'storage_address', bagId: hex256(s.loadUintBig(256)) };
      default:
        return null;
    }
  } catch {
    return null;
  }
}

export function decodeDnsItemData(data: Cell): DnsItem {
  return decodeExactly(data, 'dns item data', (s) => {
    const index = s.loadUintBig(256);
    const collection = s.loadMaybeAddress();
    const owner = s.loadMaybeAddress();
    const records = decodeDnsRecords(s.loadRef());
    const domainSlice = s.loadRef().beginParse();
    const domain = domainSlice.loadBuffer(domainSlice.remainingBits / 8).toString('utf8');
    const auctionCell = s.loadMaybeRef();
    const auction = auctionCell
      ? decodeExactly(auctionCell, 'dns auction', (a) => ({
          maxBidAddress: a.loadMaybeAddress(),
          maxBidAmount: a.loadCoins(),
          auctionEndTime: Number(a.loadUintBig(64)),
        }))
      : null;
    return { index, collection, owner, domain, auction, lastFillUpTime: Number(s.loadUintBig(64)), records };
  });
}

/**
 * `/dns/activeAuctions` state of an item at `now`: `bidding` while bids are taken (`now ≤ auction_end_time`), `won`
 * once the time is past but the winner has not claimed it yet (the auction cell stays until the next message);
 * null when there is no auction. Time alone moves an item from bidding to won.
 */
export function dnsAuctionState(item: Pick<DnsItem, 'auction'>, now: number): 'bidding' | 'won' | null {
  if (!item.auction) return null;
  return now <= item.auction.auctionEndTime ? 'bidding' : 'won';
}

/**
 * Authenticity of a `.ton` item. A root collection deploys each item with the state init
 * `{code: its nft_item_code, data: index:uint256 collection:MsgAddress}` (its `get_nft_address_by_index`), so anyone
 * can run the item code elsewhere, with any data, but only the collection can have an item at that address. An item
 * is genuine iff it names the trusted collection, runs the collection's item code, and its address is the hash of
 * that initial state init; the item code has no setcode, so its current code is the initial one. Offline, no
 * get-method.
 */
export function dnsItemAddress(code: Cell, index: bigint, collection: Address, workchain = 0): Address {
  const data = beginCell().storeUint(index, 256).storeAddress(collection).endCell();
  return contractAddress(workchain, { code, data });
}

export interface TrustedDnsCollection {
  address: Address;
  /** Hash and depth of the code the collection deploys its items with (what the state init hash needs of it). */
  itemCodeHash: Buffer;
  itemCodeDepth: number;
}

/**
 * Hash of the state init `{code, data}` (no split depth, not special, no libraries) from the code's hash and depth,
 * so the item code itself need not be parsed: the representation of a cell with the 5 bits `00110` and two refs is
 * `d1=2 d2=1 0x34`, the refs' depths (16 bits each), then their hashes.
 */
function stateInitHash(codeHash: Buffer, codeDepth: number, data: Cell): Buffer {
  const repr = Buffer.alloc(3 + 4 + 64);
  repr.set([2, 1, 0x34], 0);
  repr.writeUInt16BE(codeDepth, 3);
  repr.writeUInt16BE(data.depth(), 5);
  codeHash.copy(repr, 7);
  data.hash().copy(repr, 39);
  return sha256_sync(repr);
}

export function isGenuineDnsItem(item: { address: Address; codeHash: Buffer; data: Cell }, trusted: TrustedDnsCollection): boolean {
  try {
    if (!item.codeHash.equals(trusted.itemCodeHash)) return false;
    const s = item.data.beginParse();
    const index = s.loadUintBig(256);
    const collection = s.loadMaybeAddress();
    if (!collection || !collection.equals(trusted.address)) return false;
    const initialData = beginCell().storeUint(index, 256).storeAddress(collection).endCell();
    return stateInitHash(trusted.itemCodeHash, trusted.itemCodeDepth, initialData).equals(item.address.hash);
  } catch {
    return false;
  }
}

/**
 * Item code of a `.ton` collection from its data: the second ref (mainnet's data is `content:^Cell
 * nft_item_code:^Cell`; the devnet's puts its admin's address before them). Null when it has fewer refs.
 */
export function dnsCollectionItemCode(data: Cell): Cell | null {
  return data.refs.length >= 2 ? data.refs[1] : null;
}

/** Category key of `dns_next_resolver` (TEP-81), as an integer for `dnsresolve`. */
export const DNS_NEXT_RESOLVER_CATEGORY = BigInt('0x' + DNS_CATEGORIES.nextResolver);

/**
 * Arguments of `dnsresolve` asking a root resolver (config param 4) for the `.ton` zone: the subdomain in TEP-81's
 * internal form (labels reversed, each ended by a zero byte: `ton\0`) and the next-resolver category.
 */
export function rootResolveTonArgs(): TupleItem[] {
  return [
    { type: 'slice', cell: beginCell().storeBuffer(Buffer.from('ton\0', 'latin1')).endCell() },
    { type: 'int', value: DNS_NEXT_RESOLVER_CATEGORY },
  ];
}

/**
 * The `.ton` collection from a root resolver's `dnsresolve` answer `(resolved_bits, record)`: the whole `ton\0`
 * (32 bits) must be resolved, to a `dns_next_resolver` record. Null otherwise.
 */
export function tonCollectionFromRootResolve(stack: TupleItem[]): Address | null {
  const [bits, record] = stack;
  if (bits?.type !== 'int' || (bits.value !== 24n && bits.value !== 32n) || record?.type !== 'cell') return null;
  const value = decodeDnsRecord(record.cell);
  return value?.type === 'next_resolver' ? value.address : null;
}

/** Root DNS resolver from config param 4 (`_ dns_root_addr:bits256 = ConfigParam 4`, masterchain). */
export function rootResolverFromConfig4(param4: Cell): Address {
  return new Address(-1, param4.beginParse().loadBuffer(32));
}
