import type { ChainSource, GetMethodResult } from '@tongate/chain';
import { Address, beginCell, type Cell, type TupleItem } from '@ton/core';
import { ApiError } from './api-error.js';
import { bocB64, friendly } from './format.js';
import { parseDnsRecords } from './dns-content.js';
import { parseTokenContent } from './token-content.js';

/**
 * getTokenData: tries jetton master, jetton wallet, NFT collection, NFT item get-methods in that order; the first
 * whose answer fits wins. Wallets and items must be confirmed by their master / collection.
 */

interface TokenContext {
  chain: ChainSource;
  address: Address;
  /** The request's address as echoed back. */
  echo: string;
  seqno?: number;
  testOnly: boolean;
}

class NotThisKind extends Error {}

function int(item: TupleItem | undefined): bigint {
  if (item?.type !== 'int') throw new NotThisKind('integer expected');
  return item.value;
}

function cell(item: TupleItem | undefined): Cell {
  if (item?.type === 'cell' || item?.type === 'slice' || item?.type === 'builder') return item.cell;
  throw new NotThisKind('cell expected');
}

/** addr_std from a slice item; null for addr_none; anything else disqualifies the candidate. */
function address(item: TupleItem | undefined): Address | null {
  const s = cell(item).beginParse();
  if (s.remainingBits >= 2 && s.preloadUint(2) === 0) return null;
  try {
    return s.loadAddress();
  } catch {
    throw new NotThisKind('addr_std expected');
  }
}

async function run(ctx: TokenContext, target: Address, method: string, stack: TupleItem[], minItems: number): Promise<GetMethodResult | null> {
  const result = await ctx.chain.runGetMethod(target, method, stack, ctx.seqno);
  if (result.exitCode !== 0 || result.stack.length < minItems) return null;
  return result;
}

function show(a: Address, ctx: TokenContext): string {
  return friendly(a, ctx.testOnly);
}

function content(c: Cell) {
  try {
    return parseTokenContent(c);
  } catch {
    throw new NotThisKind('bad content');
  }
}

async function jettonMaster(ctx: TokenContext) {
  const r = await run(ctx, ctx.address, 'get_jetton_data', [], 5);
  if (!r) return null;
  const [supply, mintable, admin, meta, walletCode] = r.stack;
  const adminAddress = address(admin);
  return {
    '@type': 'ext.tokens.jettonMasterData' as const,
    address: ctx.echo,
    contract_type: 'jetton_master' as const,
    total_supply: int(supply).toString(),
    mintable: int(mintable) !== 0n,
    ...(adminAddress ? { admin_address: show(adminAddress, ctx) } : {}),
    jetton_content: content(cell(meta)),
    jetton_wallet_code: bocB64(cell(walletCode)),
  };
}

async function jettonWallet(ctx: TokenContext) {
  const r = await run(ctx, ctx.address, 'get_wallet_data', [], 4);
  if (!r) return null;
  const [balance, ownerItem, jettonItem, walletCode] = r.stack;
  const owner = address(ownerItem);
  const jetton = address(jettonItem);
  if (!owner || !jetton) throw new NotThisKind('owner and jetton expected');
  const check = await ctx.chain.runGetMethod(jetton, 'get_wallet_address', [{ type: 'slice', cell: beginCell().storeAddress(owner).endCell() }], ctx.seqno);
  if (check.exitCode !== 0) throw new ApiError(409, `Verification exit code ${check.exitCode} != 0`);
  const expected = address(check.stack[0]);
  if (!expected || !expected.equals(ctx.address)) throw new ApiError(409, 'Verification on master failed');
  const claimed = await ctx.chain.runGetMethod(ctx.address, 'is_claimed', [], ctx.seqno).catch(() => null);
  const mintless = claimed && claimed.exitCode === 0 && claimed.stack.length === 1 && claimed.stack[0]!.type === 'int' ? { mintless_is_claimed: claimed.stack[0]!.value !== 0n } : {};
  return {
    '@type': 'ext.tokens.jettonWalletData' as const,
    address: ctx.echo,
    contract_type: 'jetton_wallet' as const,
    balance: int(balance).toString(),
    owner: show(owner, ctx),
    jetton: show(jetton, ctx),
    ...mintless,
    jetton_wallet_code: bocB64(cell(walletCode)),
  };
}

async function nftCollection(ctx: TokenContext) {
  const r = await run(ctx, ctx.address, 'get_collection_data', [], 3);
  if (!r) return null;
  const [nextIndex, meta, ownerItem] = r.stack;
  const owner = address(ownerItem);
  return {
    '@type': 'ext.tokens.nftCollectionData' as const,
    address: ctx.echo,
    contract_type: 'nft_collection' as const,
    next_item_index: int(nextIndex).toString(),
    ...(owner ? { owner_address: show(owner, ctx) } : {}),
    collection_content: content(cell(meta)),
  };
}

/** `\0` as a one-byte slice: dnsresolve's name for the item's own domain. */
const SELF = beginCell().storeUint(0, 8).endCell();

/**
 * A TON DNS item (TEP-81) answers dnsresolve("\0", 0) with (bits, records dictionary); then, as toncenter does, its
 * content is the domain (get_domain + ".ton") with the records instead of the TEP-64 metadata. Null when the item
 * does not resolve or has no records.
 */
async function dnsContent(ctx: TokenContext) {
  const resolved = await ctx.chain.runGetMethod(ctx.address, 'dnsresolve', [{ type: 'slice', cell: SELF }, { type: 'int', value: 0n }], ctx.seqno);
  if (resolved.exitCode !== 0 || resolved.stack.length !== 2) return null;
  const records = resolved.stack[1]!;
  if (records.type !== 'cell') return null;
  let data;
  try {
    data = parseDnsRecords(records.cell);
  } catch {
    return null;
  }
  // A domain that cannot be read leaves it empty rather than dropping the records (toncenter does the same).
  let domain = '';
  const named = await ctx.chain.runGetMethod(ctx.address, 'get_domain', [], ctx.seqno);
  const item = named.stack[0];
  if (named.exitCode === 0 && (item?.type === 'cell' || item?.type === 'slice')) {
    const s = item.cell.beginParse();
    if (s.remainingBits % 8 === 0) domain = `${s.loadBuffer(s.remainingBits / 8).toString('utf8')}.ton`;
  }
  return { domain, data };
}

async function nftItem(ctx: TokenContext) {
  const r = await run(ctx, ctx.address, 'get_nft_data', [], 5);
  if (!r) return null;
  const [init, indexItem, collectionItem, ownerItem, individual] = r.stack;
  const index = int(indexItem);
  const collection = address(collectionItem);
  const owner = address(ownerItem);
  // With a collection, the item keeps only its individual part (often a bare suffix): the collection composes it.
  let itemContent;
  if (!collection) itemContent = content(cell(individual));
  else {
    const check = await ctx.chain.runGetMethod(collection, 'get_nft_address_by_index', [{ type: 'int', value: index }], ctx.seqno);
    const expected = check.exitCode === 0 ? address(check.stack[0]) : null;
    if (!expected || !expected.equals(ctx.address)) throw new ApiError(409, 'Verification on collection failed');
    const full = await ctx.chain.runGetMethod(collection, 'get_nft_content', [{ type: 'int', value: index }, { type: 'cell', cell: cell(individual) }], ctx.seqno);
    if (full.exitCode !== 0 || full.stack.length < 1) throw new ApiError(409, `get_nft_content on the collection failed with exit code ${full.exitCode}`);
    itemContent = content(cell(full.stack[0]));
    itemContent = (await dnsContent(ctx)) ?? itemContent;
  }
  return {
    '@type': 'ext.tokens.nftItemData' as const,
    address: ctx.echo,
    contract_type: 'nft_item' as const,
    init: int(init) !== 0n,
    index: index.toString(),
    ...(collection ? { collection_address: show(collection, ctx) } : {}),
    ...(owner ? { owner_address: show(owner, ctx) } : {}),
    content: itemContent,
  };
}

export async function getTokenData(ctx: TokenContext) {
  for (const candidate of [jettonMaster, jettonWallet, nftCollection, nftItem]) {
    try {
      const result = await candidate(ctx);
      if (result) return result;
    } catch (e) {
      if (!(e instanceof NotThisKind)) throw e;
    }
  }
  throw new ApiError(409, `Smart contract is not Jetton or NFT`);
}
