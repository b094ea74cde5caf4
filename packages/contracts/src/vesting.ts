import { Dictionary, TupleReader, type Address, type DictionaryValue, type TupleItem } from '@ton/core';
import { methodId } from './get-method.js';

/**
 * Vesting wallets (`/api/v3/vesting`): any contract whose code defines `get_vesting_data` and answers it with the
 * vesting wallet's eight values `(start_time, total_duration, unlock_period, cliff_duration, total_amount,
 * sender_address, owner_address, whitelist)`, the whitelist being a `HashmapE 267` keyed by address. Other contracts
 * with a method of that name (e.g. Moon DEX orders) answer another shape and are not vesting wallets.
 */

export const GET_VESTING_DATA = methodId('get_vesting_data');

export interface VestingData {
  startTime: number;
  totalDuration: number;
  unlockPeriod: number;
  cliffDuration: number;
  totalAmount: bigint;
  sender: Address | null;
  owner: Address | null;
  whitelist: Address[];
}

const ANY: DictionaryValue<null> = { serialize: () => {}, parse: () => null };
const UINT32 = 2n ** 32n;

/** The vesting data from `get_vesting_data`'s stack; null when the stack is not the vesting wallet's. */
export function readVestingData(stack: TupleItem[]): VestingData | null {
  if (stack.length !== 8) return null;
  try {
    const r = new TupleReader(stack);
    const startTime = r.readBigNumber();
    const totalDuration = r.readBigNumber();
    const unlockPeriod = r.readBigNumber();
    const cliffDuration = r.readBigNumber();
    const totalAmount = r.readBigNumber();
    const sender = r.readAddressOpt();
    const owner = r.readAddressOpt();
    const whitelistCell = r.readCellOpt();
    const times = [startTime, totalDuration, unlockPeriod, cliffDuration];
    if (times.some((t) => t < 0n || t >= 2n ** 64n) || totalAmount < 0n) return null;
    const whitelist = whitelistCell ? [...Dictionary.loadDirect(Dictionary.Keys.Address(), ANY, whitelistCell).keys()] : [];
    // Durations are uint32 in the contract; a start time beyond 2^53 is not a time.
    if (times.slice(1).some((t) => t >= UINT32) || startTime > BigInt(Number.MAX_SAFE_INTEGER)) return null;
    return {
      startTime: Number(startTime),
      totalDuration: Number(totalDuration),
      unlockPeriod: Number(unlockPeriod),
      cliffDuration: Number(cliffDuration),
      totalAmount,
      sender,
      owner,
      whitelist,
    };
  } catch {
    return null;
  }
}
