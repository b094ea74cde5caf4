import type { Address, Slice, TupleReader } from '@ton/core';

/**
 * Telemint items (Telegram usernames and numbers sold on Fragment), read through their get-methods as toncenter's
 * worker does (`Telemint.cpp`); they map onto `/nft/sales` `teleitem` details.
 */

export interface TelemintAuctionState {
  /** Highest bidder; null before the first bid. */
  bidderAddress: Address | null;
  bid: bigint;
  bidTs: number;
  minBid: bigint;
  endTime: number;
}

export interface TelemintAuctionConfig {
  beneficiaryAddress: Address | null;
  initialMinBid: bigint;
  /** Buy-out price; 0 when there is none. */
  maxBid: bigint;
  /** Minimal raise over the last bid, in percent. */
  minBidStep: bigint;
  minExtendTime: number;
  duration: number;
}

export interface RoyaltyParams {
  numerator: number;
  denominator: number;
  destination: Address | null;
}

/** `get_telemint_token_name`: the name as a snake string. */
export function readTelemintTokenName(stack: TupleReader): string {
  return readSnakeString(stack.readCell().beginParse());
}

/** `get_telemint_auction_state` → `(bidder, bid, bid_ts, min_bid, end_time)`; the method throws when no auction runs. */
export function readTelemintAuctionState(stack: TupleReader): TelemintAuctionState {
  return {
    bidderAddress: stack.readAddressOpt(),
    bid: stack.readBigNumber(),
    bidTs: stack.readNumber(),
    minBid: stack.readBigNumber(),
    endTime: stack.readNumber(),
  };
}

/** `get_telemint_auction_config` → `(beneficiary, initial_min_bid, max_bid, min_bid_step, min_extend_time, duration)`. */
export function readTelemintAuctionConfig(stack: TupleReader): TelemintAuctionConfig {
  return {
    beneficiaryAddress: stack.readAddressOpt(),
    initialMinBid: stack.readBigNumber(),
    maxBid: stack.readBigNumber(),
    minBidStep: stack.readBigNumber(),
    minExtendTime: stack.readNumber(),
    duration: stack.readNumber(),
  };
}

/** `royalty_params` (TEP-66) → `(numerator, denominator, destination)`. */
export function readRoyaltyParams(stack: TupleReader): RoyaltyParams {
  return { numerator: stack.readNumber(), denominator: stack.readNumber(), destination: stack.readAddressOpt() };
}

/**
 * `get_full_domain` answers the TEP-81 internal form: labels from the root down, each ended by a zero byte
 * (`me\0t\0yoganews\0`); this gives the usual dotted name (`yoganews.t.me`).
 */
export function readFullDomain(stack: TupleReader): string {
  const labels = readSnakeString(stack.readCell().beginParse())
    .split('\0')
    .filter((l) => l.length > 0);
  return labels.reverse().join('.');
}

/** Bytes of a slice and its chain of first references, as UTF-8. */
export function readSnakeString(s: Slice): string {
  const parts: Buffer[] = [];
  for (let cur: Slice | null = s; cur; cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null) {
    parts.push(cur.loadBuffer(Math.floor(cur.remainingBits / 8)));
  }
  return Buffer.concat(parts).toString('utf8');
}
