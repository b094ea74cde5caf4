import type { Address } from '@ton/core';
import { codeMethodIds } from './interfaces.js';
import { GetMethodError, methodId, runGetMethod, type ContractState, type GetMethodOptions } from './get-method.js';
import { FIX_PRICE_SALE_MAGIC, readFixPriceDataV4, readFixPriceRest, type GetgemsSale } from './getgems-sale.js';
import { AUCTION_MAGIC, readAuctionDataV4, readAuctionRest, type GetgemsAuction } from './getgems-auction.js';
import {
  readRoyaltyParams,
  readTelemintAuctionConfig,
  readTelemintAuctionState,
  readTelemintTokenName,
  type RoyaltyParams,
  type TelemintAuctionConfig,
  type TelemintAuctionState,
} from './telemint.js';

/**
 * What `/nft/sales` lists, read from a contract by the get-methods its code defines: a getgems fixed-price sale, a
 * getgems auction, or a Telemint item (its auction, when one runs). Null for any other contract.
 */

export interface TelemintItem {
  tokenName: string;
  /** Null when no auction runs (the item is owned, not on sale). */
  auction: TelemintAuctionState | null;
  auctionConfig: TelemintAuctionConfig | null;
  royalty: RoyaltyParams | null;
}

export type NftSale =
  | { type: 'getgems_sale'; sale: GetgemsSale }
  | { type: 'getgems_auction'; auction: GetgemsAuction }
  | { type: 'teleitem'; item: TelemintItem };

export async function readNftSale(state: ContractState, options: GetMethodOptions = {}): Promise<NftSale | null> {
  const ids = codeMethodIds(state.code);
  const has = (name: string) => ids.has(methodId(name));
  const run = (name: string) => runGetMethod(state, name, [], options);
  if (has('get_fix_price_data_v4')) return { type: 'getgems_sale', sale: readFixPriceDataV4(await run('get_fix_price_data_v4')) };
  if (has('get_auction_data_v4')) return { type: 'getgems_auction', auction: readAuctionDataV4(await run('get_auction_data_v4')) };
  if (has('get_telemint_token_name') && has('get_telemint_auction_state') && has('get_telemint_auction_config')) {
    // Both auction methods throw while no auction runs.
    const optional = <T>(p: Promise<T>) =>
      p.catch((e: unknown) => (e instanceof GetMethodError && e.exitCode !== null ? null : Promise.reject(e)));
    return {
      type: 'teleitem',
      item: {
        tokenName: readTelemintTokenName(await run('get_telemint_token_name')),
        auction: await optional(run('get_telemint_auction_state').then(readTelemintAuctionState)),
        auctionConfig: await optional(run('get_telemint_auction_config').then(readTelemintAuctionConfig)),
        royalty: has('royalty_params') ? await optional(run('royalty_params').then(readRoyaltyParams)) : null,
      },
    };
  }
  if (has('get_sale_data')) {
    const stack = await run('get_sale_data');
    const magic = stack.readNumber();
    if (magic === FIX_PRICE_SALE_MAGIC) return { type: 'getgems_sale', sale: readFixPriceRest(stack) };
    if (magic === AUCTION_MAGIC) return { type: 'getgems_auction', auction: readAuctionRest(stack) };
  }
  return null;
}

/**
 * The seller of `item` when `sale` is a getgems sale or auction contract holding it (an NFT item's `real_owner`);
 * null for any other contract, or a sale of another item.
 */
export async function nftSaleSeller(sale: ContractState, item: Address, options: GetMethodOptions = {}): Promise<Address | null> {
  let found: NftSale | null;
  try {
    found = await readNftSale(sale, options);
  } catch (e) {
    if (e instanceof GetMethodError) return null;
    throw e;
  }
  const held = found?.type === 'getgems_sale' ? found.sale : found?.type === 'getgems_auction' ? found.auction : null;
  return held?.nft?.equals(item) && held.nftOwner ? held.nftOwner : null;
}
