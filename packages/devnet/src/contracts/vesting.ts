import { Address, beginCell, Cell, contractAddress, Dictionary, type DictionaryValue, type StateInit } from '@ton/core';
import { vestingWalletCodeBoc } from './codes.js';

/** The devnet vesting wallet (contracts/vesting-wallet.fc): state init and the two operations it takes. */

export const VESTING_OP = { sendMessage: 0xa7733acd, addWhitelist: 0x7258a69b } as const;

export const vestingWalletCode = () => Cell.fromBase64(vestingWalletCodeBoc);

export interface VestingParams {
  owner: Address;
  /** Who funds the wallet and may add to its whitelist. */
  sender: Address;
  startTime: number;
  totalDuration: number;
  unlockPeriod: number;
  cliffDuration: number;
  totalAmount: bigint;
  whitelist?: Address[];
}

const ADDRESS_KEY = Dictionary.Keys.Address();
/** Whitelist entries carry no value (`HashmapE 267 True`). */
const TRUE: DictionaryValue<boolean> = { serialize: () => {}, parse: () => true };

export function vestingWalletInit(p: VestingParams): { address: Address; init: StateInit } {
  const whitelist = Dictionary.empty(ADDRESS_KEY, TRUE);
  for (const a of p.whitelist ?? []) whitelist.set(a, true);
  const params = beginCell()
    .storeUint(p.startTime, 64)
    .storeUint(p.totalDuration, 32)
    .storeUint(p.unlockPeriod, 32)
    .storeUint(p.cliffDuration, 32)
    .storeCoins(p.totalAmount)
    .endCell();
  const data = beginCell().storeUint(0, 32).storeAddress(p.owner).storeAddress(p.sender).storeRef(params).storeDict(whitelist).endCell();
  const init = { code: vestingWalletCode(), data };
  return { address: contractAddress(0, init), init };
}

/** Owner → vesting wallet: send `message` (a full internal Message cell) with `mode` (3 unless whitelisted). */
export function vestingSendMessageBody(message: Cell, mode = 3, queryId = 0n): Cell {
  return beginCell().storeUint(VESTING_OP.sendMessage, 32).storeUint(queryId, 64).storeUint(mode, 8).storeRef(message).endCell();
}

/** Sender → vesting wallet: whitelist `address`. */
export function vestingAddWhitelistBody(address: Address, queryId = 0n): Cell {
  return beginCell().storeUint(VESTING_OP.addWhitelist, 32).storeUint(queryId, 64).storeAddress(address).endCell();
}
