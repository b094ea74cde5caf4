import { Address, beginCell, Cell, type Slice, type TupleItem } from '@ton/core';
import { parseTokenContent } from './token-content.js';

/**
 * Token contracts read through their standard get-methods: TEP-74 jetton masters and wallets, TEP-62 NFT
 * collections and items. A wallet or an item counts only once its master / collection confirms its address
 * (`get_wallet_address`, `get_nft_address_by_index`): anyone can deploy a contract answering `get_wallet_data`
 * with a famous master, and such a fake must not show up as a holder of that jetton.
 *
 * The get-methods run through a `TokenGetMethods` function so that the caller chooses where: the indexer runs them
 * locally on the indexed code and data, and falls back to its chain backend for library code.
 */

/** Runs `method` on the account at `address`; null when the account has no such method or it fails. */
export type TokenGetMethods = (address: Address, method: string, args: TupleItem[]) => Promise<TupleItem[] | null>;

export interface JettonMasterData {
  totalSupply: bigint;
  mintable: boolean;
  admin: Address | null;
  content: Cell;
  walletCode: Cell;
}

export interface JettonWalletData {
  balance: bigint;
  owner: Address;
  jetton: Address;
  walletCode: Cell;
}

export interface NftCollectionData {
  nextItemIndex: bigint;
  content: Cell;
  owner: Address | null;
}

export interface NftItemData {
  init: boolean;
  index: bigint;
  collection: Address | null;
  owner: Address | null;
  individualContent: Cell;
}

/** The get-method names each token kind answers (what an account's method ids are checked against). */
export const TOKEN_GET_METHODS = {
  jettonMaster: ['get_jetton_data', 'get_wallet_address'],
  jettonWallet: ['get_wallet_data'],
  nftCollection: ['get_collection_data', 'get_nft_address_by_index', 'get_nft_content'],
  nftItem: ['get_nft_data'],
} as const;

export type TokenKind = keyof typeof TOKEN_GET_METHODS;

class Misfit extends Error {}

function int(item: TupleItem | undefined): bigint {
  if (item?.type !== 'int') throw new Misfit('integer expected');
  return item.value;
}

function cellOf(item: TupleItem | undefined): Cell {
  if (item?.type === 'cell' || item?.type === 'slice' || item?.type === 'builder') return item.cell;
  throw new Misfit('cell expected');
}

/** addr_std from a slice item; null for addr_none (or a TVM null); anything else disqualifies the answer. */
function addressOf(item: TupleItem | undefined): Address | null {
  if (item?.type === 'null') return null;
  const s: Slice = cellOf(item).beginParse();
  if (s.remainingBits >= 2 && s.preloadUint(2) === 0) return null;
  try {
    return s.loadAddress();
  } catch {
    throw new Misfit('addr_std expected');
  }
}

/** The answer read by `read`, or null when the method fails or its stack does not have the standard shape. */
async function readStack<T>(
  run: TokenGetMethods,
  address: Address,
  method: string,
  args: TupleItem[],
  minItems: number,
  read: (stack: TupleItem[]) => T,
): Promise<T | null> {
  const stack = await run(address, method, args);
  if (!stack || stack.length < minItems) return null;
  try {
    return read(stack);
  } catch (e) {
    if (e instanceof Misfit) return null;
    throw e;
  }
}

export function readJettonMaster(run: TokenGetMethods, address: Address): Promise<JettonMasterData | null> {
  return readStack(run, address, 'get_jetton_data', [], 5, ([supply, mintable, admin, content, walletCode]) => ({
    totalSupply: int(supply),
    mintable: int(mintable) !== 0n,
    admin: addressOf(admin),
    content: cellOf(content),
    walletCode: cellOf(walletCode),
  }));
}

export function readJettonWallet(run: TokenGetMethods, address: Address): Promise<JettonWalletData | null> {
  return readStack(run, address, 'get_wallet_data', [], 4, ([balance, owner, jetton, walletCode]) => {
    const ownerAddress = addressOf(owner);
    const jettonAddress = addressOf(jetton);
    if (!ownerAddress || !jettonAddress) throw new Misfit('owner and jetton expected');
    return { balance: int(balance), owner: ownerAddress, jetton: jettonAddress, walletCode: cellOf(walletCode) };
  });
}

/** True when the wallet's master names `wallet` as the wallet of its owner. */
export async function verifyJettonWallet(run: TokenGetMethods, wallet: Address, data: JettonWalletData): Promise<boolean> {
  const owner = beginCell().storeAddress(data.owner).endCell();
  const expected = await readStack(run, data.jetton, 'get_wallet_address', [{ type: 'slice', cell: owner }], 1, ([a]) => addressOf(a));
  return expected !== null && expected.equals(wallet);
}

export function readNftCollection(run: TokenGetMethods, address: Address): Promise<NftCollectionData | null> {
  return readStack(run, address, 'get_collection_data', [], 3, ([next, content, owner]) => ({
    nextItemIndex: int(next),
    content: cellOf(content),
    owner: addressOf(owner),
  }));
}

export function readNftItem(run: TokenGetMethods, address: Address): Promise<NftItemData | null> {
  return readStack(run, address, 'get_nft_data', [], 5, ([init, index, collection, owner, content]) => ({
    init: int(init) !== 0n,
    index: int(index),
    collection: addressOf(collection),
    owner: addressOf(owner),
    // An uninitialised item may answer null content.
    individualContent: content?.type === 'null' ? beginCell().endCell() : cellOf(content),
  }));
}

/** True when the item has no collection, or its collection names `item` as the item of its index. */
export async function verifyNftItem(run: TokenGetMethods, item: Address, data: NftItemData): Promise<boolean> {
  if (!data.collection) return true;
  const expected = await readStack(run, data.collection, 'get_nft_address_by_index', [{ type: 'int', value: data.index }], 1, ([a]) =>
    addressOf(a),
  );
  return expected !== null && expected.equals(item);
}

/** The item's full content: its collection composes it from the individual part (often a bare URI suffix). */
export async function nftItemContent(run: TokenGetMethods, data: NftItemData): Promise<Cell | null> {
  if (!data.collection) return data.individualContent;
  return readStack(
    run,
    data.collection,
    'get_nft_content',
    [
      { type: 'int', value: data.index },
      { type: 'cell', cell: data.individualContent },
    ],
    1,
    ([c]) => cellOf(c),
  );
}

/**
 * TEP-64 content as stored and served (`jetton_content`, `collection_content`, `content`): the on-chain fields as
 * an object, or `{uri}` for off-chain content; null when the cell is neither layout.
 */
export function tokenContentJson(cell: Cell): Record<string, string> | null {
  try {
    const parsed = parseTokenContent(cell);
    return parsed.type === 'offchain' ? { uri: parsed.data } : parsed.data;
  } catch {
    return null;
  }
}
