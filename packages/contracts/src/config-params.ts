import { Dictionary, type Cell, type Slice } from '@ton/core';
import { decodeExactly, expectTag, hex256, readOnlyValue } from './cells.js';

/**
 * Blockchain config parameters the elector and the validators operations read (TL-B of `crypto/block/block.tlb`):
 * 0/1 (config and elector addresses), 15 (election timing), 16 (validator counts), 17 (stake limits) and the
 * previous / current / next validator sets 32 / 34 / 36.
 */

/** The config dictionary `HashmapE 32 ^Cell` (as `getConfigAll` and the config contract's storage hold it). */
export function loadConfigDictionary(root: Cell): Dictionary<number, Cell> {
  return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root);
}

/** Param 15. */
export interface ElectionTiming {
  validatorsElectedFor: number;
  electionsStartBefore: number;
  electionsEndBefore: number;
  stakeHeldFor: number;
}

export function decodeConfigParam15(cell: Cell): ElectionTiming {
  return decodeExactly(cell, 'config param 15', (s) => ({
    validatorsElectedFor: s.loadUint(32),
    electionsStartBefore: s.loadUint(32),
    electionsEndBefore: s.loadUint(32),
    stakeHeldFor: s.loadUint(32),
  }));
}

/** Param 16. */
export interface ValidatorCounts {
  maxValidators: number;
  maxMainValidators: number;
  minValidators: number;
}

export function decodeConfigParam16(cell: Cell): ValidatorCounts {
  return decodeExactly(cell, 'config param 16', (s) => ({
    maxValidators: s.loadUint(16),
    maxMainValidators: s.loadUint(16),
    minValidators: s.loadUint(16),
  }));
}

/** Param 17; `maxStakeFactor` is ×65536 (196608 = 3.0). */
export interface StakeLimits {
  minStake: bigint;
  maxStake: bigint;
  minTotalStake: bigint;
  maxStakeFactor: number;
}

export function decodeConfigParam17(cell: Cell): StakeLimits {
  return decodeExactly(cell, 'config param 17', (s) => ({
    minStake: s.loadCoins(),
    maxStake: s.loadCoins(),
    minTotalStake: s.loadCoins(),
    maxStakeFactor: s.loadUint(32),
  }));
}

export interface ValidatorDescription {
  /** Key in the set's list: the validator's index in the set. */
  index: number;
  /** ed25519 public key, hex. */
  pubkey: string;
  weight: bigint;
  /** ADNL address, hex; null in the short `validator#53` form. */
  adnlAddr: string | null;
}

/** Params 32 / 34 / 36. `hash` is the param cell's hash: the elector's `active_hash` and a past election's `vset_hash`. */
export interface ValidatorSet {
  hash: string;
  utimeSince: number;
  utimeUntil: number;
  total: number;
  main: number;
  /** Sum of the weights; the short `validators#11` form has none and gets the sum of the list's weights. */
  totalWeight: bigint;
  validators: ValidatorDescription[];
}

const VALIDATOR_DESCRIPTION = readOnlyValue((s: Slice) => {
  const tag = s.loadUint(8);
  if (tag !== 0x53 && tag !== 0x73) throw new Error(`validator description: tag 0x${tag.toString(16)}`);
  expectTag(s, 32, 0x8e81278a, 'ed25519 public key');
  const pubkey = hex256(s.loadUintBig(256));
  const weight = s.loadUintBig(64);
  const adnlAddr = tag === 0x73 ? hex256(s.loadUintBig(256)) : null;
  return { pubkey, weight, adnlAddr };
});

export function decodeValidatorSet(cell: Cell): ValidatorSet {
  return decodeExactly(cell, 'validator set', (s) => {
    const tag = s.loadUint(8);
    if (tag !== 0x11 && tag !== 0x12) throw new Error(`validator set: tag 0x${tag.toString(16)}`);
    const utimeSince = s.loadUint(32);
    const utimeUntil = s.loadUint(32);
    const total = s.loadUint(16);
    const main = s.loadUint(16);
    let totalWeight = tag === 0x12 ? s.loadUintBig(64) : null;
    // validators#11 holds a non-empty Hashmap inline; validators_ext#12 a HashmapE.
    const list =
      tag === 0x12
        ? s.loadDict(Dictionary.Keys.Uint(16), VALIDATOR_DESCRIPTION)
        : Dictionary.loadDirect(Dictionary.Keys.Uint(16), VALIDATOR_DESCRIPTION, s);
    const validators = [...list].sort(([a], [b]) => a - b).map(([index, v]) => ({ index, ...v }));
    totalWeight ??= validators.reduce((sum, v) => sum + v.weight, 0n);
    return { hash: cell.hash().toString('hex'), utimeSince, utimeUntil, total, main, totalWeight, validators };
  });
}

/** What the elector and the validators operations read from the config, decoded; absent params are null. */
export interface ElectionConfig {
  /** Param 0: config contract account id (masterchain), hex. */
  configAddress: string | null;
  /** Param 1: elector account id (masterchain), hex. */
  electorAddress: string | null;
  timing: ElectionTiming | null;
  counts: ValidatorCounts | null;
  stakeLimits: StakeLimits | null;
  previousValidators: ValidatorSet | null;
  currentValidators: ValidatorSet | null;
  nextValidators: ValidatorSet | null;
}

function decodeAccountIdParam(cell: Cell, param: number): string {
  return decodeExactly(cell, `config param ${param}`, (s) => hex256(s.loadUintBig(256)));
}

export function decodeElectionConfig(config: Dictionary<number, Cell>): ElectionConfig {
  const param = <T>(id: number, decode: (c: Cell) => T): T | null => {
    const cell = config.get(id);
    return cell ? decode(cell) : null;
  };
  return {
    configAddress: param(0, (c) => decodeAccountIdParam(c, 0)),
    electorAddress: param(1, (c) => decodeAccountIdParam(c, 1)),
    timing: param(15, decodeConfigParam15),
    counts: param(16, decodeConfigParam16),
    stakeLimits: param(17, decodeConfigParam17),
    previousValidators: param(32, decodeValidatorSet),
    currentValidators: param(34, decodeValidatorSet),
    nextValidators: param(36, decodeValidatorSet),
  };
}
