import { type Address, type Cell, type Slice, type TupleReader } from '@ton/core';
import { KEY256, basechainAddress, decodeExactly, entries256, hex256, masterchainAddress, readOnlyValue } from './cells.js';

/**
 * TON Foundation nominator pool v1.0 (`ton-blockchain/nominator-pool` `func/pool.fc`): the contract behind
 * `/staking/nominatorPools/*`. The pool lives in the masterchain; its validator is a masterchain wallet and its
 * nominators basechain wallets, both stored as 256-bit account ids.
 */

export const NOMINATOR_POOL_STATES = { idle: 0, stakeSent: 1, staked: 2 } as const;

export interface PoolNominator {
  address: Address;
  /** Stake taking part in validation (`balance` on the wire). */
  amount: bigint;
  /** Deposited while the pool was staked; joins `amount` when the stake returns (`pending_balance`). */
  pendingDepositAmount: bigint;
  withdrawRequested: boolean;
}

export interface NominatorPoolData {
  /** 0 idle, 1 new stake sent to the elector, 2 stake accepted. */
  state: number;
  nominatorsCount: number;
  stakeAmountSent: bigint;
  validatorAmount: bigint;
  validatorAddress: Address;
  /** Share of a reward the validator keeps, in 1/10000. */
  validatorRewardShare: number;
  maxNominatorsCount: number;
  minValidatorStake: bigint;
  minNominatorStake: bigint;
  /** Ascending account id. */
  nominators: PoolNominator[];
  stakeAt: number;
  savedValidatorSetHash: string;
  validatorSetChangesCount: number;
  validatorSetChangeTime: number;
  stakeHeldFor: number;
  /** Open config proposal votes: proposal hash (hex) → the votes cell, undecoded. */
  configProposalVotings: Map<string, Cell>;
}

const NOMINATOR = readOnlyValue((s: Slice) => ({ amount: s.loadCoins(), pendingDepositAmount: s.loadCoins() }));
const PRESENT = readOnlyValue(() => true);
const CELL_VALUE = readOnlyValue((s: Slice) => s.asCell());

export function decodeNominatorPoolData(data: Cell): NominatorPoolData {
  return decodeExactly(data, 'nominator pool data', (s) => {
    const state = s.loadUint(8);
    const nominatorsCount = s.loadUint(16);
    const stakeAmountSent = s.loadCoins();
    const validatorAmount = s.loadCoins();
    const config = decodeExactly(s.loadRef(), 'nominator pool config', (c) => ({
      validatorAddress: masterchainAddress(c.loadUintBig(256)),
      validatorRewardShare: c.loadUint(16),
      maxNominatorsCount: c.loadUint(16),
      minValidatorStake: c.loadCoins(),
      minNominatorStake: c.loadCoins(),
    }));
    const nominators = s.loadDict(KEY256, NOMINATOR);
    const withdrawRequests = s.loadDict(KEY256, PRESENT);
    return {
      state,
      nominatorsCount,
      stakeAmountSent,
      validatorAmount,
      ...config,
      nominators: entries256(nominators).map(([id, n]) => ({
        address: basechainAddress(BigInt('0x' + id)),
        ...n,
        withdrawRequested: withdrawRequests.has(BigInt('0x' + id)),
      })),
      stakeAt: s.loadUint(32),
      savedValidatorSetHash: hex256(s.loadUintBig(256)),
      validatorSetChangesCount: s.loadUint(8),
      validatorSetChangeTime: s.loadUint(32),
      stakeHeldFor: s.loadUint(32),
      configProposalVotings: new Map(entries256(s.loadDict(KEY256, CELL_VALUE))),
    };
  });
}

/** `list_nominators` get-method result: `[[address, amount, pending_deposit_amount, withdraw_requested], …]`. */
export function readListNominators(stack: TupleReader): PoolNominator[] {
  return stack
    .readLispList()
    .map((item) => {
      if (item.type !== 'tuple' || item.items.length !== 4) throw new Error('list_nominators: unexpected entry');
      const [address, amount, pending, withdraw] = item.items.map((v) => {
        if (v.type !== 'int') throw new Error('list_nominators: unexpected value');
        return v.value;
      });
      return { address: basechainAddress(address), amount, pendingDepositAmount: pending, withdrawRequested: withdraw !== 0n };
    })
    .sort((a, b) => a.address.hash.compare(b.address.hash));
}

export interface PoolRewardSplit {
  /** recovered − stake sent; negative is a loss. */
  reward: bigint;
  validatorAmountAfter: bigint;
  /** What the nominators together gain (or lose). */
  nominatorsReward: bigint;
  /** Each nominator after the split: `amount` includes the activated pending deposit, which is then 0. */
  nominators: PoolNominator[];
}

/**
 * How the pool shares the stake the elector returns (`recover_stake_ok`): reward = recovered − stake_amount_sent.
 * A loss falls on the validator's own amount first and on the nominators only past it; a gain gives the validator
 * `reward·validator_reward_share/10000` and the nominators the rest, pro rata to `amount` (pending deposits take no
 * part), after which pending deposits join `amount`.
 */
export function splitRecoveredStake(pool: NominatorPoolData, recovered: bigint): PoolRewardSplit {
  const reward = recovered - pool.stakeAmountSent;
  let validatorAmount = pool.validatorAmount;
  let nominatorsReward: bigint;
  if (reward <= 0n) {
    validatorAmount += reward;
    nominatorsReward = validatorAmount < 0n ? validatorAmount : 0n;
    if (validatorAmount < 0n) validatorAmount = 0n;
  } else {
    const validatorReward = (reward * BigInt(pool.validatorRewardShare)) / 10000n;
    validatorAmount += validatorReward;
    nominatorsReward = reward - validatorReward;
  }
  const total = pool.nominators.reduce((sum, n) => sum + n.amount, 0n);
  const nominators = pool.nominators.map((n) => {
    const share = total > 0n ? floorDiv(nominatorsReward * n.amount, total) : 0n;
    return { ...n, amount: n.amount + share + n.pendingDepositAmount, pendingDepositAmount: 0n };
  });
  return { reward, validatorAmountAfter: validatorAmount, nominatorsReward, nominators };
}

/** Floor division, as the TVM's MULDIV rounds (toward −∞), also for a negative share. */
function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
