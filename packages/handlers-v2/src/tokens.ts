import type { ChainSource } from '@tongate/chain';
import {
  nftItemContent,
  readJettonMaster,
  readJettonWallet,
  readNftCollection,
  readNftItem,
  verifyJettonWallet,
  verifyNftItem,
  type TokenGetMethods,
} from '@tongate/contracts';
import { Address, beginCell, type Cell } from '@ton/core';
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

/** The request's get-methods, at its block: the contract readers' view of the chain (null when a method fails). */
function getMethods(ctx: TokenContext): TokenGetMethods {
  return async (address, method, args) => {
    const result = await ctx.chain.runGetMethod(address, method, args, ctx.seqno);
    return result.exitCode === 0 ? result.stack : null;
  };
}

function show(a: Address, ctx: TokenContext): string {
  return friendly(a, ctx.testOnly);
}

/** TEP-64 content as v2 serves it; a cell of neither layout means the contract is not this kind of token. */
function content(c: Cell) {
  try {
    return parseTokenContent(c);
  } catch {
    return null;
  }
}

async function jettonMaster(ctx: TokenContext) {
  const data = await readJettonMaster(getMethods(ctx), ctx.address);
  const jettonContent = data && content(data.content);
  if (!data || !jettonContent) return null;
  return {
    '@type': 'ext.tokens.jettonMasterData' as const,
    address: ctx.echo,
    contract_type: 'jetton_master' as const,
    total_supply: data.totalSupply.toString(),
    mintable: data.mintable,
    ...(data.admin ? { admin_address: show(data.admin, ctx) } : {}),
    jetton_content: jettonContent,
    jetton_wallet_code: bocB64(data.walletCode),
  };
}

async function jettonWallet(ctx: TokenContext) {
  const run = getMethods(ctx);
  const data = await readJettonWallet(run, ctx.address);
  if (!data) return null;
  // A wallet its master does not name is a fake: toncenter answers 409 rather than trying the other kinds.
  if (!(await verifyJettonWallet(run, ctx.address, data))) throw new ApiError(409, 'Verification on master failed');
  const claimed = await ctx.chain.runGetMethod(ctx.address, 'is_claimed', [], ctx.seqno).catch(() => null);
  const mintless =
    claimed && claimed.exitCode === 0 && claimed.stack.length === 1 && claimed.stack[0]!.type === 'int'
      ? { mintless_is_claimed: claimed.stack[0]!.value !== 0n }
      : {};
  return {
    '@type': 'ext.tokens.jettonWalletData' as const,
    address: ctx.echo,
    contract_type: 'jetton_wallet' as const,
    balance: data.balance.toString(),
    owner: show(data.owner, ctx),
    jetton: show(data.jetton, ctx),
    ...mintless,
    jetton_wallet_code: bocB64(data.walletCode),
  };
}

async function nftCollection(ctx: TokenContext) {
  const data = await readNftCollection(getMethods(ctx), ctx.address);
  const collectionContent = data && content(data.content);
  if (!data || !collectionContent) return null;
  return {
    '@type': 'ext.tokens.nftCollectionData' as const,
    address: ctx.echo,
    contract_type: 'nft_collection' as const,
    next_item_index: data.nextItemIndex.toString(),
    ...(data.owner ? { owner_address: show(data.owner, ctx) } : {}),
    collection_content: collectionContent,
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
  const resolved = await ctx.chain.runGetMethod(
    ctx.address,
    'dnsresolve',
    [
      { type: 'slice', cell: SELF },
      { type: 'int', value: 0n },
    ],
    ctx.seqno,
  );
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
  const run = getMethods(ctx);
  const data = await readNftItem(run, ctx.address);
  if (!data) return null;
  let itemContent;
  if (!data.collection) itemContent = content(data.individualContent);
  else {
    if (!(await verifyNftItem(run, ctx.address, data))) throw new ApiError(409, 'Verification on collection failed');
    // With a collection, the item keeps only its individual part (often a bare suffix): the collection composes it.
    const full = await nftItemContent(run, data);
    if (!full) throw new ApiError(409, 'get_nft_content on the collection failed');
    itemContent = (await dnsContent(ctx)) ?? content(full);
  }
  if (!itemContent) return null;
  return {
    '@type': 'ext.tokens.nftItemData' as const,
    address: ctx.echo,
    contract_type: 'nft_item' as const,
    init: data.init,
    index: data.index.toString(),
    ...(data.collection ? { collection_address: show(data.collection, ctx) } : {}),
    ...(data.owner ? { owner_address: show(data.owner, ctx) } : {}),
    content: itemContent,
  };
}

export async function getTokenData(ctx: TokenContext) {
  for (const candidate of [jettonMaster, jettonWallet, nftCollection, nftItem]) {
    const result = await candidate(ctx);
    if (result) return result;
  }
  throw new ApiError(409, `Smart contract is not Jetton or NFT`);
}
