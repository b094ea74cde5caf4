import {
  decodeDnsItemData,
  detectInterfaces,
  isGenuineDnsItem,
  methodId,
  readNftSale,
  runGetMethod,
  type DnsItem,
  type GetgemsAuction,
  type GetgemsSale,
  type NftSale,
  type TelemintItem,
  type TrustedDnsCollection,
} from '@tongate/contracts';
import { Address, Cell } from '@ton/core';
import type { Insertable } from 'kysely';
import { rawAddress } from '../../address.js';
import type { BlockDerivation, McBlockBatch } from '../../block.js';
import { trustedTonCollection } from '../../dns-trust.js';
import type { IndexTables } from '../../index-domain.js';
import type { LatestAccountStateRow } from '../../rows.js';
import type { DnsAuctionsTable, NftSalesTable, SalesTables } from './tables.js';

/**
 * NFT sales and DNS auctions: every account a block touches whose code is a getgems sale or auction or a Telemint
 * item has its state read through its own get-methods (in `prepare`, outside the block's transaction) and kept in
 * `nft_sales`; a `.ton` DNS item is decoded from its data and kept in `dns_auctions` while it holds an auction cell
 * (a claimed auction removes it). A contract whose state does not decode is skipped, never a stalled indexer.
 */

/** Interfaces (contracts' interface table: by code hash, else by get-methods) read as `/nft/sales` entries. */
const SALE_INTERFACES = new Set([
  'nft_sale',
  'nft_auction_v1',
  'nft_sale_getgems_v2',
  'nft_sale_getgems_v3',
  'nft_sale_getgems_v4',
  'nft_auction_getgems_v3',
  'nft_auction_getgems_v4',
  'teleitem',
]);

/** Code of the `.ton` DNS items (ton-blockchain/dns-contract, the recorded mainnet item). */
export const TON_DNS_ITEM_CODE_HASHES = new Set(['8b5ffc9ebfd39064d8d5f56e4659c826bb7593923f5ca48728be4d60af6f51f9']);
/** An item of another build of the same contract still answers these; its data then decodes the same way. */
const DNS_ITEM_METHODS = ['get_domain', 'get_auction_info'].map(methodId);

export type SalesContractKind = 'sale' | 'dns_item';

export function salesContractKind(codeHashHex: string, methodIds: ReadonlySet<number>): SalesContractKind | null {
  if (TON_DNS_ITEM_CODE_HASHES.has(codeHashHex)) return 'dns_item';
  if (detectInterfaces(codeHashHex, methodIds).some((name) => SALE_INTERFACES.has(name))) return 'sale';
  if (DNS_ITEM_METHODS.every((id) => methodIds.has(id))) return 'dns_item';
  return null;
}

const raw = (a: Address | null): string | null => (a ? rawAddress(a) : null);

/** Address-valued detail fields are left out when the contract holds none (the spec types them non-null). */
function withAddresses(fields: Record<string, unknown>, addresses: Record<string, Address | null>): Record<string, unknown> {
  for (const [key, a] of Object.entries(addresses)) if (a) fields[key] = raw(a);
  return fields;
}

function saleDetails(s: GetgemsSale): Record<string, unknown> {
  return withAddresses(
    {
      is_complete: s.isComplete,
      full_price: s.fullPrice.toString(),
      marketplace_fee: s.marketplaceFee.toString(),
      royalty_amount: s.royaltyAmount.toString(),
    },
    { marketplace_fee_address: s.marketplaceFeeAddress, royalty_address: s.royaltyAddress },
  );
}

function auctionDetails(a: GetgemsAuction): Record<string, unknown> {
  return withAddresses(
    {
      end_flag: a.end,
      end_time: a.endTime,
      last_bid: a.lastBid.toString(),
      min_step: Number(a.minStep),
      mp_fee_factor: Number(a.mpFeeFactor),
      mp_fee_base: Number(a.mpFeeBase),
      royalty_fee_factor: Number(a.royaltyFeeFactor),
      royalty_fee_base: Number(a.royaltyFeeBase),
      max_bid: a.maxBid.toString(),
      min_bid: a.minBid.toString(),
      last_bid_at: a.lastBidAt,
      is_canceled: a.isCanceled,
    },
    { last_member: a.lastMember, mp_fee_address: a.mpFeeAddress, royalty_fee_address: a.royaltyFeeAddress },
  );
}

function teleitemDetails(t: TelemintItem): Record<string, unknown> {
  const fields: Record<string, unknown> = { token_name: t.tokenName };
  if (t.auction) {
    Object.assign(fields, {
      bid: t.auction.bid.toString(),
      bid_ts: String(t.auction.bidTs),
      min_bid: t.auction.minBid.toString(),
      end_time: t.auction.endTime,
    });
    withAddresses(fields, { bidder_address: t.auction.bidderAddress });
  }
  if (t.auctionConfig) {
    const c = t.auctionConfig;
    Object.assign(fields, {
      initial_min_bid: c.initialMinBid.toString(),
      max_bid: c.maxBid.toString(),
      min_bid_step: c.minBidStep.toString(),
      min_extend_time: String(c.minExtendTime),
      duration: String(c.duration),
    });
    withAddresses(fields, { beneficiary_address: c.beneficiaryAddress });
  }
  if (t.royalty) {
    Object.assign(fields, { royalty_numerator: t.royalty.numerator, royalty_denominator: t.royalty.denominator });
    withAddresses(fields, { royalty_destination: t.royalty.destination });
  }
  return fields;
}

/**
 * The `nft_sales` row of a decoded contract. A Telemint item is its own NFT; its owner (from `get_nft_data`, null
 * while the item is in its first auction) stands as the seller.
 */
export function nftSaleRow(
  address: string,
  sale: NftSale,
  state: { code_hash: string; data_hash: string; last_transaction_lt: string; mc_seqno: number },
  teleitemOwner: Address | null = null,
): Insertable<NftSalesTable> {
  const common = { address, type: sale.type, ...state };
  switch (sale.type) {
    case 'getgems_sale': {
      const s = sale.sale;
      return {
        ...common,
        nft_address: raw(s.nft),
        nft_owner_address: raw(s.nftOwner),
        marketplace_address: raw(s.marketplace),
        created_at: s.createdAt,
        details: JSON.stringify(saleDetails(s)),
      };
    }
    case 'getgems_auction': {
      const a = sale.auction;
      return {
        ...common,
        nft_address: raw(a.nft),
        nft_owner_address: raw(a.nftOwner),
        marketplace_address: raw(a.marketplace),
        created_at: a.createdAt,
        details: JSON.stringify(auctionDetails(a)),
      };
    }
    case 'teleitem':
      return {
        ...common,
        nft_address: address,
        nft_owner_address: raw(teleitemOwner),
        marketplace_address: null,
        created_at: null,
        details: JSON.stringify(teleitemDetails(sale.item)),
      };
  }
}

export function dnsAuctionRow(
  address: string,
  item: DnsItem,
  state: { last_transaction_lt: string; mc_seqno: number },
): Insertable<DnsAuctionsTable> | null {
  if (!item.auction) return null;
  return {
    nft_item_address: address,
    domain: `${item.domain}.ton`,
    max_bid_address: raw(item.auction.maxBidAddress),
    max_bid_amount: item.auction.maxBidAmount.toString(),
    auction_end_time: item.auction.auctionEndTime,
    last_fill_up_time: item.lastFillUpTime,
    ...state,
  };
}

export interface SalesPrepared {
  sales: Insertable<NftSalesTable>[];
  auctions: Insertable<DnsAuctionsTable>[];
  /** DNS items touched whose auction is over and claimed (or never was): their rows go. */
  settledDnsItems: string[];
}

/** Distinct codes on a chain number in the thousands; past this many the memo starts over rather than grow. */
const KIND_MEMO_LIMIT = 20_000;
const kindMemo = new Map<string, SalesContractKind | null>();

/** The kind of a code, from its hash and the method ids the indexer stored with the state (memoized by code hash). */
function kindOfCode(codeHash: string, contractMethods: unknown): SalesContractKind | null {
  let kind = kindMemo.get(codeHash);
  if (kind === undefined) {
    const methods = new Set(typeof contractMethods === 'string' ? (JSON.parse(contractMethods) as number[]) : []);
    kind = salesContractKind(Buffer.from(codeHash, 'base64').toString('hex'), methods);
    if (kindMemo.size >= KIND_MEMO_LIMIT) kindMemo.clear();
    kindMemo.set(codeHash, kind);
  }
  return kind;
}

/**
 * Decodes one touched account; null when it is none of these contracts or its state does not decode. A `.ton` item
 * counts only when it is a genuine item of the network's collection (`dnsTrust`, see the read model's dns-trust.ts): a copy of the
 * item code elsewhere gets `auction: null`, so any row it had goes.
 */
export async function decodeSalesAccount(
  row: LatestAccountStateRow,
  batch: McBlockBatch,
  dnsTrust: () => Promise<TrustedDnsCollection | null> = async () => null,
): Promise<{ sale?: Insertable<NftSalesTable>; auction?: Insertable<DnsAuctionsTable> | null } | null> {
  if (!row.code_boc || !row.data_boc || !row.code_hash || !row.data_hash || row.account_status !== 'active') return null;
  let kind = kindOfCode(row.code_hash, row.contract_methods);
  // The network's own item code (its collection's) is a DNS item whatever method ids were stored with the state.
  if (!kind) {
    const trusted = await dnsTrust();
    if (trusted && row.code_hash === trusted.itemCodeHash.toString('base64')) kind = 'dns_item';
  }
  if (!kind) return null;
  const code = Cell.fromBase64(row.code_boc);
  const data = Cell.fromBase64(row.data_boc);
  const state = { last_transaction_lt: String(row.last_trans_lt ?? 0), mc_seqno: batch.mcSeqno };
  try {
    if (kind === 'dns_item') {
      const trusted = await dnsTrust();
      if (
        !trusted ||
        !isGenuineDnsItem({ address: Address.parseRaw(row.account), codeHash: Buffer.from(row.code_hash, 'base64'), data }, trusted)
      )
        return { auction: null };
      return { auction: dnsAuctionRow(row.account, decodeDnsItemData(data), state) };
    }
    // Get-methods see the block's time, so a re-indexed block decodes the same way.
    const contract = { code, data, address: Address.parseRaw(row.account), balance: BigInt(row.balance) };
    const options = { now: batch.genUtime };
    const sale = await readNftSale(contract, options);
    if (!sale) return null;
    // get_nft_data: (init, index, collection, owner, content).
    const owner = sale.type === 'teleitem' ? (await runGetMethod(contract, 'get_nft_data', [], options)).skip(3).readAddressOpt() : null;
    return { sale: nftSaleRow(row.account, sale, { ...state, code_hash: row.code_hash, data_hash: row.data_hash }, owner) };
  } catch {
    return null;
  }
}

export const salesDerivation: BlockDerivation<SalesPrepared, IndexTables<SalesTables>> = {
  name: 'sales',
  async prepare(batch, _db, ctx) {
    const prepared: SalesPrepared = { sales: [], auctions: [], settledDnsItems: [] };
    let trust: Promise<TrustedDnsCollection | null> | undefined;
    const dnsTrust = () => (trust ??= trustedTonCollection(ctx, batch.mcSeqno));
    for (const row of batch.latestAccountStates) {
      const decoded = await decodeSalesAccount(row, batch, dnsTrust);
      if (!decoded) continue;
      if (decoded.sale) prepared.sales.push(decoded.sale);
      if (decoded.auction) prepared.auctions.push(decoded.auction);
      else if (decoded.auction === null) prepared.settledDnsItems.push(row.account);
    }
    return prepared;
  },
  async write(trx, _batch, { sales, auctions, settledDnsItems }) {
    if (sales.length > 0) {
      await trx
        .insertInto('nft_sales')
        .values(sales)
        .onConflict((oc) =>
          oc.column('address').doUpdateSet((eb) => ({
            type: eb.ref('excluded.type'),
            nft_address: eb.ref('excluded.nft_address'),
            nft_owner_address: eb.ref('excluded.nft_owner_address'),
            marketplace_address: eb.ref('excluded.marketplace_address'),
            created_at: eb.ref('excluded.created_at'),
            last_transaction_lt: eb.ref('excluded.last_transaction_lt'),
            code_hash: eb.ref('excluded.code_hash'),
            data_hash: eb.ref('excluded.data_hash'),
            details: eb.ref('excluded.details'),
            mc_seqno: eb.ref('excluded.mc_seqno'),
          })),
        )
        .execute();
    }
    if (auctions.length > 0) {
      await trx
        .insertInto('dns_auctions')
        .values(auctions)
        .onConflict((oc) =>
          oc.column('nft_item_address').doUpdateSet((eb) => ({
            domain: eb.ref('excluded.domain'),
            max_bid_address: eb.ref('excluded.max_bid_address'),
            max_bid_amount: eb.ref('excluded.max_bid_amount'),
            auction_end_time: eb.ref('excluded.auction_end_time'),
            last_fill_up_time: eb.ref('excluded.last_fill_up_time'),
            last_transaction_lt: eb.ref('excluded.last_transaction_lt'),
            mc_seqno: eb.ref('excluded.mc_seqno'),
          })),
        )
        .execute();
    }
    if (settledDnsItems.length > 0) await trx.deleteFrom('dns_auctions').where('nft_item_address', 'in', settledDnsItems).execute();
  },
};
