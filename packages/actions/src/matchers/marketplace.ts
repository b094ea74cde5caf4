import { type ActionDraft, type Matcher, type MatchContext, iface, isFree, nodeSet } from '../core.js';
import { coinsStr, loadAddress, readComment, tryDecode, uintStr } from '../decode.js';
import { OP } from '../opcodes.js';
import { bodyCell, bodySlice, descendants, normalizeAddress, txFailed, type TraceNode } from '../tree.js';
import type { DataValue, RawAddress } from '../types.js';
import { isTeleitem, nftTransferDraft } from './nft.js';

/**
 * The getgems sale and auction contracts' own requests, and the `.ton` DNS item's end of auction. Each is an
 * action only at the contract that runs it (the indexer's NftSale / NftAuction / DnsItem interfaces), and only
 * when the item it hands back is the one that contract holds:
 * - cancel#3 to a sale: the NFT goes back to its owner (nft_cancel_sale);
 * - cancel#5616c572 or the comment "cancel" to an auction: the NFT goes back (nft_cancel_auction); finish#20c9eb18,
 *   stop#b95616b6 or the comments "finish"/"stop": the auction settles, the NFT goes to the winner or back
 *   (nft_finish_auction);
 * - update#6c6c2080 to a sale: new price, fees and royalty (nft_update_sale);
 * - auction_fill_up#370fec51 sent by a `.ton` DNS item: its auction was won and claimed, the bid goes to the
 *   collection (dns_purchase; the claimer is the new owner);
 * - release_balance#4ed14b65 to a `.ton` DNS item (dns_release);
 * - teleitem_start_auction#487a8e81 / teleitem_cancel_auction#371638ae to a Telemint item (its content is
 *   Fragment's): the item runs the auction itself (teleitem_start_auction with the auction config's bids,
 *   teleitem_cancel_auction), its teleitem_ok#a37a0983 answer included.
 * The item's transfer back is nested in the action.
 */
const SALE = { CANCEL: 0x3, UPDATE: 0x6c6c2080 } as const;
const AUCTION = { CANCEL: 0x5616c572, FINISH: 0x20c9eb18, STOP: 0xb95616b6 } as const;
const DNS_ITEM = { FILL_UP: 0x370fec51, RELEASE_BALANCE: 0x4ed14b65 } as const;
const TELEITEM = { START_AUCTION: 0x487a8e81, CANCEL_AUCTION: 0x371638ae, OK: 0xa37a0983 } as const;

function command(node: TraceNode): string | null {
  if (node.op !== OP.TEXT_COMMENT) return null;
  return readComment(bodyCell(node.inMsg))?.text ?? null;
}

/** The transfer of `nft` the contract makes in answer, as a nested nft_transfer. */
function handedBack(ctx: MatchContext, start: TraceNode, nft: RawAddress | null): ActionDraft | null {
  if (!nft) return null;
  for (const d of descendants(start)) {
    if (d.account !== nft || d.op !== OP.NFT_TRANSFER || !isFree(ctx, d)) continue;
    const built = nftTransferDraft(ctx, d);
    if (built) return built.draft;
  }
  return null;
}

function tradeEnd(
  ctx: MatchContext,
  node: TraceNode,
  type: string,
  nft: RawAddress | null,
  contractField: 'sale_address' | 'auction_address',
): ActionDraft | null {
  const back = handedBack(ctx, node, nft);
  if (!back) return null;
  const item = iface(ctx, nft).NftItem as { collection_address?: string; index?: number | string } | undefined;
  return {
    type,
    nodes: nodeSet(node, ...back.nodes),
    success: !txFailed(node) && back.success,
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      destination: node.account,
      asset: normalizeAddress(item?.collection_address ?? null) ?? back.fields.asset ?? null,
      asset_secondary: nft,
      nft_trade_data: {
        owner: back.fields.destination ?? null,
        [contractField]: node.account,
        nft_item_index: item?.index != null ? String(item.index) : null,
      },
    },
    children: [back],
  };
}

function saleRequest(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  const sale = iface(ctx, node.account).NftSale as { nft_address?: string; marketplace_address?: string } | undefined;
  if (!sale) return null;
  const nft = normalizeAddress(sale.nft_address ?? null);
  if (node.op === SALE.CANCEL) return tradeEnd(ctx, node, 'nft_cancel_sale', nft, 'sale_address');
  if (node.op !== SALE.UPDATE) return null;
  const update = tryDecode(() => {
    const s = bodySlice(node)!;
    s.skip(32 + 64);
    return { full_price: coinsStr(s), marketplace_fee: coinsStr(s), royalty_amount: coinsStr(s) };
  });
  if (!update) return null;
  return {
    type: 'nft_update_sale',
    nodes: [node],
    success: !txFailed(node),
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      destination: node.account,
      asset_secondary: nft,
      nft_trade_data: { sale_address: node.account, marketplace_address: normalizeAddress(sale.marketplace_address ?? null), ...update },
    },
  };
}

function auctionRequest(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  const auction = iface(ctx, node.account).NftAuction as { nft_addr?: string } | undefined;
  if (!auction) return null;
  const nft = normalizeAddress(auction.nft_addr ?? null);
  const text = command(node);
  if (node.op === AUCTION.CANCEL || text === 'cancel') return tradeEnd(ctx, node, 'nft_cancel_auction', nft, 'auction_address');
  if (node.op === AUCTION.FINISH || node.op === AUCTION.STOP || text === 'finish' || text === 'stop')
    return tradeEnd(ctx, node, 'nft_finish_auction', nft, 'auction_address');
  return null;
}

function dnsItemRequest(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  const kinds = iface(ctx, node.account);
  const dns = kinds.DnsItem as { collection_address?: string } | undefined;
  if (!dns) return null;
  const item = kinds.NftItem as { index?: number | string } | undefined;
  const index = item?.index != null ? String(item.index) : null;
  const fillUp = node.children.find(
    (c) => c.op === DNS_ITEM.FILL_UP && c.inMsg?.source && normalizeAddress(c.inMsg.source) === node.account,
  );
  if (fillUp) {
    const price = String(fillUp.inMsg?.value ?? 0);
    const data: Record<string, DataValue> = {
      query_id: tryDecode(() => uintStr(((s) => (s.skip(32), s))(bodySlice(fillUp)!), 64)),
      is_purchase: true,
      price,
      nft_item_index: index,
      payout_amount: price,
    };
    return {
      type: 'dns_purchase',
      nodes: nodeSet(node, fillUp),
      success: !txFailed(node),
      fields: {
        source: null,
        destination: normalizeAddress(node.inMsg?.source),
        asset: normalizeAddress(dns.collection_address ?? null),
        asset_secondary: node.account,
        nft_transfer_data: data,
      },
    };
  }
  if (node.op !== DNS_ITEM.RELEASE_BALANCE) return null;
  return {
    type: 'dns_release',
    nodes: [node],
    success: !txFailed(node),
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      asset: normalizeAddress(dns.collection_address ?? null),
      asset_secondary: node.account,
      value: String(node.inMsg?.value ?? 0),
      nft_trade_data: { nft_item_index: index, query_id: tryDecode(() => uintStr(((s) => (s.skip(32), s))(bodySlice(node)!), 64)) },
    },
  };
}

/**
 * A Telemint item's own auction. The auction config travels as a reference:
 * `beneficiary_address:MsgAddressInt initial_min_bid:Coins max_bid:Coins min_bid_step:uint8 min_extend_time:uint32
 * duration:uint32`.
 */
function teleitemRequest(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  if (node.op !== TELEITEM.START_AUCTION && node.op !== TELEITEM.CANCEL_AUCTION) return null;
  const item = iface(ctx, node.account).NftItem as { collection_address?: string; index?: number | string } | undefined;
  if (!isTeleitem(item)) return null;
  const owner = normalizeAddress(node.inMsg?.source);
  const nodes = nodeSet(
    node,
    node.children.find((c) => c.op === TELEITEM.OK),
  );
  const common = {
    source: owner,
    destination: node.account,
    asset: normalizeAddress(item?.collection_address ?? null),
    asset_secondary: node.account,
  };
  const index = item?.index != null ? String(item.index) : null;
  if (node.op === TELEITEM.CANCEL_AUCTION) {
    return {
      type: 'teleitem_cancel_auction',
      nodes,
      success: !node.tx.aborted,
      fields: { ...common, nft_trade_data: { owner, auction_address: node.account, nft_item_index: index } },
    };
  }
  const config = tryDecode(() => {
    const s = bodySlice(node)!;
    s.skip(32 + 64);
    const c = s.loadRef().beginParse();
    return { beneficiary: loadAddress(c), min_bid: coinsStr(c), max_bid: coinsStr(c) };
  });
  return {
    type: 'teleitem_start_auction',
    nodes,
    success: !node.tx.aborted,
    fields: {
      ...common,
      nft_listing_data: {
        nft_item_index: index,
        owner,
        listing_address: null,
        auction_address: node.account,
        marketplace_address: null,
        // Fragment's fee goes to the auction's beneficiary; the item takes no factor or royalty base of its own
        marketplace_fee_address: config?.beneficiary ?? null,
        marketplace_fee_factor: '0',
        marketplace_fee_base: '0',
        royalty_address: null,
        royalty_fee_base: '0',
        max_bid: config?.max_bid ?? null,
        min_bid: config?.min_bid ?? null,
      },
    },
  };
}

export const marketplaceMatcher: Matcher = {
  name: 'marketplace',
  match(ctx) {
    const drafts: ActionDraft[] = [];
    for (const node of ctx.tree.nodes) {
      if (!node.inMsg?.source || node.inMsg.bounced || !isFree(ctx, node)) continue;
      const d = saleRequest(ctx, node) ?? auctionRequest(ctx, node) ?? dnsItemRequest(ctx, node) ?? teleitemRequest(ctx, node);
      if (d && isFree(ctx, ...d.nodes)) drafts.push(d);
    }
    return drafts;
  },
};
