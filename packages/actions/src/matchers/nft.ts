import type { Cell } from '@ton/core';
import { type ActionDraft, type Matcher, type MatchContext, iface, isFree, nodeSet } from '../core.js';
import { boc, coinsStr, loadAddress, loadEitherCell, loadMaybeRefBoc, tryDecode, uintStr } from '../decode.js';
import { MARKETPLACES, OP } from '../opcodes.js';
import { bodyCell, bodySlice, childWithOp, normalizeAddress, txFailed, type TraceNode } from '../tree.js';
import type { DataValue, RawAddress } from '../types.js';

/** TEP-62 transfer#5fcc3d14 query_id new_owner response_destination custom_payload forward_amount forward_payload */
export function decodeNftTransferBody(body: Cell | null) {
  if (!body) return null;
  return tryDecode(() => {
    const s = body.beginParse();
    if (s.loadUint(32) !== OP.NFT_TRANSFER) return null;
    return {
      query_id: uintStr(s, 64),
      new_owner: loadAddress(s),
      response_destination: loadAddress(s),
      custom_payload: loadMaybeRefBoc(s),
      forward_amount: coinsStr(s),
      forward_payload: ((c) => (c ? boc(c) : null))(tryDecode(() => loadEitherCell(s))),
    };
  });
}

const decodeNftTransfer = (node: TraceNode) => decodeNftTransferBody(bodyCell(node.inMsg));

interface SaleInfo {
  kind: 'sale' | 'auction';
  price: string | null;
  seller: RawAddress | null;
  marketplace: RawAddress | null;
}

/** What the indexer knows of a getgems-style sale or auction contract. */
function saleInfo(ctx: MatchContext, address: RawAddress | null): SaleInfo | null {
  const kinds = iface(ctx, address);
  const sale = kinds.NftSale as { full_price?: number | string; nft_owner_address?: string; marketplace_address?: string } | undefined;
  if (sale) {
    return {
      kind: 'sale',
      price: sale.full_price != null ? String(sale.full_price) : null,
      seller: normalizeAddress(sale.nft_owner_address ?? null),
      marketplace: normalizeAddress(sale.marketplace_address ?? null),
    };
  }
  const auction = kinds.NftAuction as { last_bid?: number | string; nft_owner?: string; mp_addr?: string } | undefined;
  if (auction) {
    return {
      kind: 'auction',
      price: auction.last_bid != null ? String(auction.last_bid) : null,
      seller: normalizeAddress(auction.nft_owner ?? null),
      marketplace: normalizeAddress(auction.mp_addr ?? null),
    };
  }
  return null;
}

export function nftTransferDraft(ctx: MatchContext, transfer: TraceNode): { draft: ActionDraft; sale: SaleInfo | null } | null {
  const body = decodeNftTransfer(transfer);
  if (!body || !body.new_owner) return null;
  const sender = normalizeAddress(transfer.inMsg?.source);
  const sale = saleInfo(ctx, sender);
  const item = iface(ctx, transfer.account).NftItem as { collection_address?: string; index?: number | string } | undefined;
  const ownership = childWithOp(transfer, OP.NFT_OWNERSHIP_ASSIGNED);
  const excess = childWithOp(transfer, OP.EXCESS);
  // a sale or auction contract handing the item over is part of the transfer: it decided it
  const saleNode = sale && transfer.parent?.account === sender ? transfer.parent : null;
  const data: Record<string, DataValue> = {
    query_id: body.query_id,
    is_purchase: !!sale,
    price: sale?.price ?? null,
    nft_item_index: item?.index != null ? String(item.index) : null,
    forward_amount: body.forward_amount,
    custom_payload: body.custom_payload,
    forward_payload: body.forward_payload,
    response_destination: body.response_destination,
    marketplace: sale?.marketplace ? (MARKETPLACES.get(sale.marketplace) ?? null) : null,
    real_prev_owner: sale?.seller ?? null,
    marketplace_address: sale?.marketplace ?? null,
  };
  return {
    sale,
    draft: {
      type: 'nft_transfer',
      nodes: nodeSet(saleNode, transfer, ownership, excess),
      success: !txFailed(transfer),
      fields: {
        source: sender,
        destination: body.new_owner,
        asset: normalizeAddress(item?.collection_address ?? null),
        asset_secondary: transfer.account,
        nft_transfer_data: data,
      },
    },
  };
}

/** An item deployed by its collection: the mint request the collection got names who minted. */
function mintDraft(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  const item = iface(ctx, node.account).NftItem as { collection_address?: string; index?: number | string } | undefined;
  const collection = normalizeAddress(item?.collection_address ?? null);
  if (
    !collection ||
    normalizeAddress(node.inMsg?.source) !== collection ||
    node.tx.orig_status === 'active' ||
    node.tx.end_status !== 'active'
  )
    return null;
  const request = node.parent?.account === collection ? node.parent : null;
  return {
    type: 'nft_mint',
    nodes: nodeSet(request, node),
    success: !txFailed(node),
    fields: {
      source: normalizeAddress(request?.inMsg?.source),
      destination: node.account,
      asset: collection,
      asset_secondary: node.account,
      opcode: node.op,
      nft_mint_data: { nft_item_index: item?.index != null ? String(item.index) : null },
    },
  };
}

/** Telemint items (Fragment's usernames and numbers) run their own auction: their content points at Fragment. */
export function isTeleitem(item: Record<string, unknown> | undefined): boolean {
  const content = item?.content as { uri?: unknown } | null | undefined;
  return typeof content?.uri === 'string' && content.uri.includes('https://nft.fragment.com');
}

/**
 * A bid: a plain TON transfer (no opcode or a text comment) that reaches a contract running an auction — a getgems
 * auction contract (its NFT is the one it holds), a Telemint item, or a `.ton` DNS item of the network's collection
 * (which auctions itself). A transfer that deploys the contract is its creation, not a bid.
 */
function bidDraft(ctx: MatchContext, node: TraceNode): ActionDraft | null {
  if ((node.op !== null && node.op !== OP.TEXT_COMMENT) || !node.inMsg?.source || node.inMsg.bounced) return null;
  if (node.tx.orig_status !== 'active' || node.inMsg.init_state) return null;
  const kinds = iface(ctx, node.account);
  const auction = kinds.NftAuction as { nft_addr?: string } | undefined;
  let nftAddress: RawAddress | null;
  let item: { collection_address?: string; index?: number | string } | undefined;
  if (auction) {
    nftAddress = normalizeAddress(auction.nft_addr ?? null);
    item = iface(ctx, nftAddress).NftItem as typeof item;
  } else if (kinds.DnsItem || isTeleitem(kinds.NftItem)) {
    nftAddress = node.account;
    item = (kinds.NftItem ?? kinds.DnsItem) as typeof item;
  } else {
    return null;
  }
  return {
    type: 'auction_bid',
    nodes: [node],
    success: !txFailed(node),
    fields: {
      source: normalizeAddress(node.inMsg.source),
      destination: node.account,
      value: String(node.inMsg.value ?? 0),
      asset: normalizeAddress(item?.collection_address ?? null),
      asset_secondary: nftAddress,
      nft_transfer_data: { nft_item_index: item?.index != null ? String(item.index) : null },
    },
  };
}

/** get_static_data#2fcb26a2 answered by report_static_data#8b771735 query_id index:uint256 collection. */
function discoveryDraft(node: TraceNode): ActionDraft | null {
  if (node.op !== OP.NFT_GET_STATIC_DATA) return null;
  const report = childWithOp(node, OP.NFT_REPORT_STATIC_DATA);
  const data = tryDecode(() => {
    const s = bodySlice(report)!;
    s.skip(32 + 64);
    return { index: uintStr(s, 256), collection: loadAddress(s) };
  });
  return {
    type: 'nft_discovery',
    nodes: nodeSet(node, report),
    success: !!data && !txFailed(node),
    fields: {
      source: normalizeAddress(node.inMsg?.source),
      asset_secondary: node.account,
      asset: data?.collection ?? null,
      nft_transfer_data: { nft_item_index: data?.index ?? null },
    },
  };
}

/** NFT mints, discoveries and bids on auctions; transfers and purchases are matched by `nftMatcher`. */
/** The `.ton` DNS item's notice to the bidder it returns a bid to. */
const DNS_OUTBID_NOTIFICATION = 0x557cea20;

/**
 * An outbid: the auction returning the previous bid when a higher one arrives — the DNS item's
 * outbid_notification#557cea20, or a getgems auction's plain or commented transfer to someone other than the new
 * bidder. A bid that ends the auction (the NFT handed over) is a purchase, not this.
 */
function outbidDraft(ctx: MatchContext, bid: ActionDraft, node: TraceNode): ActionDraft | null {
  if (node.children.some((c) => c.op === OP.NFT_TRANSFER)) return null;
  const bidder = bid.fields.source ?? null;
  const isDns = !iface(ctx, node.account).NftAuction;
  const refund = node.children.find(
    (c) =>
      c.account !== bidder &&
      c.account !== bid.fields.asset_secondary &&
      (isDns ? c.op === DNS_OUTBID_NOTIFICATION : c.op === null || c.op === OP.TEXT_COMMENT),
  );
  if (!refund || !isFree(ctx, refund)) return null;
  return {
    type: 'auction_outbid',
    nodes: [refund],
    success: !txFailed(refund),
    fields: {
      source: bidder,
      destination: refund.account,
      value: String(refund.inMsg?.value ?? 0),
      asset: bid.fields.asset ?? null,
      asset_secondary: bid.fields.asset_secondary ?? null,
      nft_transfer_data: { auction: node.account },
    },
  };
}

export const nftMintAndBidMatcher: Matcher = {
  name: 'nft-mint-bid',
  match(ctx) {
    const drafts: ActionDraft[] = [];
    for (const node of ctx.tree.nodes) {
      if (!isFree(ctx, node) || !node.inMsg?.source) continue;
      const bid = mintDraft(ctx, node) || discoveryDraft(node) ? null : bidDraft(ctx, node);
      const d = mintDraft(ctx, node) ?? discoveryDraft(node) ?? bid;
      if (!d || !isFree(ctx, ...d.nodes)) continue;
      drafts.push(d);
      const outbid = bid && bid.success ? outbidDraft(ctx, bid, node) : null;
      if (outbid) drafts.push(outbid);
    }
    return drafts;
  },
};

type Listing = Record<string, unknown>;

/**
 * A listing: the owner's NFT reaches a getgems sale or auction contract that holds that very item and names the
 * sender as its seller — handed to it directly, or through a listing contract that deploys the sale and passes the
 * item on. The transfers are nested in the listing; `listing_address` is the first transfer's new owner.
 */
function listingDraft(ctx: MatchContext, first: ActionDraft, firstNode: TraceNode): ActionDraft | null {
  const firstData = first.fields.nft_transfer_data as Record<string, DataValue>;
  if (firstData.is_purchase) return null;
  const item = firstNode.account;
  const owner = first.fields.source ?? null;
  const listingAddress = first.fields.destination ?? null;
  let saleAddress = listingAddress;
  const children: ActionDraft[] = [first];
  const extra: TraceNode[] = [];
  let contract = iface(ctx, saleAddress);
  if (!contract.NftSale && !contract.NftAuction) {
    // through a listing contract: it deploys the sale and transfers the item to it
    const assigned = childWithOp(firstNode, OP.NFT_OWNERSHIP_ASSIGNED);
    const deploy = assigned?.children.find((c) => c.tx.orig_status !== 'active' && c.account !== item);
    const second = assigned?.children.find((c) => c.account === item && c.op === OP.NFT_TRANSFER);
    const built = second && deploy ? nftTransferDraft(ctx, second) : null;
    if (!assigned || !deploy || !built || built.draft.fields.destination !== deploy.account) return null;
    saleAddress = deploy.account;
    contract = iface(ctx, saleAddress);
    children.push(built.draft);
    extra.push(assigned, deploy);
  }
  const sale = contract.NftSale as Listing | undefined;
  const auction = contract.NftAuction as Listing | undefined;
  const held = sale ? sale.nft_address : auction?.nft_addr;
  const seller = sale ? sale.nft_owner_address : auction?.nft_owner;
  if ((!sale && !auction) || normalizeAddress((held as string) ?? null) !== item || normalizeAddress((seller as string) ?? null) !== owner)
    return null;
  const base = {
    nft_item_index: firstData.nft_item_index,
    owner,
    listing_address: listingAddress,
    marketplace_address: normalizeAddress(((sale?.marketplace_address ?? auction?.mp_addr) as string) ?? null),
  };
  const nodes = nodeSet(...children.flatMap((c) => c.nodes), ...extra);
  const common = { source: owner, asset: first.fields.asset, asset_secondary: item };
  if (sale) {
    return {
      type: 'nft_put_on_sale',
      nodes,
      success: children.every((c) => c.success),
      fields: {
        ...common,
        destination: saleAddress,
        nft_listing_data: {
          ...base,
          sale_address: saleAddress,
          full_price: (sale.full_price as string) ?? null,
          marketplace_fee_address: normalizeAddress((sale.marketplace_fee_address as string) ?? null),
          marketplace_fee: (sale.marketplace_fee as string) ?? null,
          royalty_address: normalizeAddress((sale.royalty_address as string) ?? null),
          royalty_amount: (sale.royalty_amount as string) ?? null,
        },
      },
      children,
    };
  }
  return {
    type: 'nft_put_on_auction',
    nodes,
    success: children.every((c) => c.success),
    fields: {
      ...common,
      destination: saleAddress,
      nft_listing_data: {
        ...base,
        auction_address: saleAddress,
        marketplace_fee_address: normalizeAddress((auction!.mp_fee_addr as string) ?? null),
        marketplace_fee_factor: (auction!.mp_fee_factor as string) ?? null,
        marketplace_fee_base: (auction!.mp_fee_base as string) ?? null,
        royalty_address: normalizeAddress((auction!.royalty_fee_addr as string) ?? null),
        royalty_fee_base: (auction!.royalty_fee_base as string) ?? null,
        max_bid: (auction!.max_bid as string) ?? null,
        min_bid: (auction!.min_bid as string) ?? null,
      },
    },
    children,
  };
}

/**
 * NFT transfers, and purchases from fixed-price sale contracts: the buyer's payment to the sale, the payout to the
 * seller and the item's transfer to the buyer form an nft_purchase, with the transfer nested in it.
 */
export const nftMatcher: Matcher = {
  name: 'nft',
  match(ctx) {
    const drafts: ActionDraft[] = [];
    for (const node of ctx.tree.nodes) {
      if (node.op !== OP.NFT_TRANSFER || !node.inMsg?.source || !isFree(ctx, node)) continue;
      const built = nftTransferDraft(ctx, node);
      if (!built || !isFree(ctx, ...built.draft.nodes)) continue;
      const saleNode = node.parent;
      if (built.sale?.kind !== 'sale' || !saleNode || !built.sale.seller) {
        const listing = listingDraft(ctx, built.draft, node);
        drafts.push(listing && isFree(ctx, ...listing.nodes) ? listing : built.draft);
        continue;
      }
      const payout = saleNode.children.find((c) => c.account === built.sale!.seller && !txFailed(c));
      const transferData = built.draft.fields.nft_transfer_data as Record<string, DataValue>;
      drafts.push({
        type: 'nft_purchase',
        nodes: nodeSet(saleNode, payout, ...built.draft.nodes),
        success: built.draft.success,
        fields: {
          ...built.draft.fields,
          nft_transfer_data: {
            ...transferData,
            payout_amount: payout?.inMsg?.value != null ? String(payout.inMsg.value) : null,
            payout_comment: null,
            payout_comment_encoded: false,
            payout_comment_encrypted: false,
          },
        },
        children: [built.draft],
      });
    }
    return drafts;
  },
};
