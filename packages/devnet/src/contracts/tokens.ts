import { Address, beginCell, Cell, contractAddress, Dictionary, type StateInit } from '@ton/core';
import { sha256_sync } from '@ton/crypto';
import { jettonMinterCodeBoc, jettonWalletCodeBoc, nftCollectionCodeBoc, nftItemCodeBoc } from './codes.js';

/** Message bodies and state inits of the standard TEP-74 jetton and TEP-62 NFT contracts (codes.ts). */

export const JETTON_OP = { mint: 21, transfer: 0x0f8a7ea5, internalTransfer: 0x178d4519, burn: 0x595f07bc } as const;
export const NFT_OP = { mint: 1, transfer: 0x5fcc3d14 } as const;

export const jettonMinterCode = () => Cell.fromBase64(jettonMinterCodeBoc);
export const jettonWalletCode = () => Cell.fromBase64(jettonWalletCodeBoc);
export const nftCollectionCode = () => Cell.fromBase64(nftCollectionCodeBoc);
export const nftItemCode = () => Cell.fromBase64(nftItemCodeBoc);

/** TEP-64 off-chain content: 0x01 prefix + URI. */
export function offchainContent(uri: string): Cell {
  return beginCell().storeUint(1, 8).storeStringTail(uri).endCell();
}

/** TEP-64 on-chain content: 0x00 prefix + dictionary sha256(key) → snake text (0x00 prefix + UTF-8, chained refs). */
export function onchainContent(fields: Record<string, string>): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  for (const [key, value] of Object.entries(fields))
    dict.set(sha256_sync(key), beginCell().storeUint(0, 8).storeStringTail(value).endCell());
  return beginCell().storeUint(0, 8).storeDict(dict).endCell();
}

/** A minter whose content is off-chain (a URI) or the given content cell. */
export function jettonMinterInit(admin: Address, content: string | Cell): { address: Address; init: StateInit } {
  const contentCell = typeof content === 'string' ? offchainContent(content) : content;
  const data = beginCell().storeCoins(0).storeAddress(admin).storeRef(contentCell).storeRef(jettonWalletCode()).endCell();
  const init = { code: jettonMinterCode(), data };
  return { address: contractAddress(0, init), init };
}

export function jettonWalletAddress(owner: Address, minter: Address): Address {
  const data = beginCell().storeCoins(0).storeAddress(owner).storeAddress(minter).storeRef(jettonWalletCode()).endCell();
  return contractAddress(0, { code: jettonWalletCode(), data });
}

export function jettonMintBody(args: {
  minter: Address;
  to: Address;
  amount: bigint;
  responseTo: Address;
  walletForwardValue: bigint;
  queryId?: bigint;
}): Cell {
  const internalTransfer = beginCell()
    .storeUint(JETTON_OP.internalTransfer, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeCoins(args.amount)
    .storeAddress(args.minter)
    .storeAddress(args.responseTo)
    .storeCoins(0)
    .storeMaybeRef(null)
    .endCell();
  return beginCell()
    .storeUint(JETTON_OP.mint, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeAddress(args.to)
    .storeCoins(args.walletForwardValue)
    .storeRef(internalTransfer)
    .endCell();
}

export function jettonTransferBody(args: {
  amount: bigint;
  to: Address;
  responseTo: Address;
  forwardTonAmount: bigint;
  forwardPayload?: Cell;
  queryId?: bigint;
}): Cell {
  return beginCell()
    .storeUint(JETTON_OP.transfer, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeCoins(args.amount)
    .storeAddress(args.to)
    .storeAddress(args.responseTo)
    .storeMaybeRef(null)
    .storeCoins(args.forwardTonAmount)
    .storeMaybeRef(args.forwardPayload ?? null)
    .endCell();
}

export function jettonBurnBody(args: { amount: bigint; responseTo: Address; queryId?: bigint }): Cell {
  return beginCell()
    .storeUint(JETTON_OP.burn, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeCoins(args.amount)
    .storeAddress(args.responseTo)
    .storeMaybeRef(null)
    .endCell();
}

export function nftCollectionInit(admin: Address, collectionUri: string, itemPrefixUri: string): { address: Address; init: StateInit } {
  const content = beginCell()
    .storeRef(offchainContent(collectionUri))
    .storeRef(beginCell().storeStringTail(itemPrefixUri).endCell())
    .endCell();
  const royalty = beginCell().storeUint(5, 16).storeUint(100, 16).storeAddress(admin).endCell();
  const data = beginCell().storeAddress(admin).storeUint(0, 64).storeRef(content).storeRef(nftItemCode()).storeRef(royalty).endCell();
  const init = { code: nftCollectionCode(), data };
  return { address: contractAddress(0, init), init };
}

export function nftItemAddress(collection: Address, index: bigint): Address {
  const data = beginCell().storeUint(index, 64).storeAddress(collection).endCell();
  return contractAddress(0, { code: nftItemCode(), data });
}

export function nftMintBody(args: { index: bigint; owner: Address; itemValue: bigint; contentSuffix: string; queryId?: bigint }): Cell {
  const itemParams = beginCell().storeAddress(args.owner).storeRef(beginCell().storeStringTail(args.contentSuffix).endCell()).endCell();
  return beginCell()
    .storeUint(NFT_OP.mint, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeUint(args.index, 64)
    .storeCoins(args.itemValue)
    .storeRef(itemParams)
    .endCell();
}

export function nftTransferBody(args: { newOwner: Address; responseTo: Address; forwardTonAmount: bigint; queryId?: bigint }): Cell {
  return beginCell()
    .storeUint(NFT_OP.transfer, 32)
    .storeUint(args.queryId ?? 0n, 64)
    .storeAddress(args.newOwner)
    .storeAddress(args.responseTo)
    .storeMaybeRef(null)
    .storeCoins(args.forwardTonAmount)
    .storeMaybeRef(null)
    .endCell();
}
