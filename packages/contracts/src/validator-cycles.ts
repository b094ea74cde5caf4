import type { Address } from '@ton/core';
import type { ValidatorSet } from './config-params.js';
import type { CurrentElection, PastElection } from './elector.js';

/**
 * A validation cycle as `/validators/cycles` shows it: a validator set (config param 34 while it validates) joined
 * with the elector's past-elections entry that produced it (same set hash) for true stakes, and with the final
 * snapshot of its election (kept by the indexer, since the elector deletes it) for the declared stake factors.
 */

export interface CycleValidator {
  validatorIndex: number;
  validatorPubkey: string;
  adnlAddr: string | null;
  weight: bigint;
  /** True stake; null without the past-elections entry (unfrozen rounds are deleted from the elector). */
  stake: bigint | null;
  stakeHolderAddress: Address | null;
  /** Declared factor ×65536; null without the election snapshot. */
  maxFactor: number | null;
}

export interface ValidatorCycle {
  cycleStart: number;
  cycleEnd: number;
  /** Key of the past-elections entry; null when none matches the set. */
  electionId: number | null;
  total: number;
  main: number;
  totalWeight: bigint;
  totalStake: bigint | null;
  /** Smallest and largest true stake among the elected. */
  minStake: bigint | null;
  maxStake: bigint | null;
  validators: CycleValidator[];
}

export function validatorCycle(
  set: ValidatorSet,
  pastElections: readonly PastElection[],
  election?: CurrentElection | null,
): ValidatorCycle {
  const round = pastElections.find((p) => p.vsetHash === set.hash) ?? null;
  const frozen = new Map(round?.frozen.map((f) => [f.validatorPubkey, f]));
  const declared = new Map(
    election && round && election.electAt === round.electionId ? election.participants.map((p) => [p.validatorPubkey, p.maxFactor]) : [],
  );
  const validators = set.validators.map((v) => {
    const f = frozen.get(v.pubkey);
    return {
      validatorIndex: v.index,
      validatorPubkey: v.pubkey,
      adnlAddr: v.adnlAddr,
      weight: v.weight,
      stake: f?.stake ?? null,
      stakeHolderAddress: f?.stakeHolderAddress ?? null,
      maxFactor: declared.get(v.pubkey) ?? null,
    };
  });
  const stakes = round ? round.frozen.map((f) => f.stake) : [];
  return {
    cycleStart: set.utimeSince,
    cycleEnd: set.utimeUntil,
    electionId: round?.electionId ?? null,
    total: set.total,
    main: set.main,
    totalWeight: set.totalWeight,
    totalStake: round?.totalStake ?? null,
    minStake: stakes.length ? stakes.reduce((a, b) => (b < a ? b : a)) : null,
    maxStake: stakes.length ? stakes.reduce((a, b) => (b > a ? b : a)) : null,
    validators,
  };
}

/** Where each participant of an election ended up in the set it produced (`validator_index`); null if not elected. */
export function participantIndices(election: CurrentElection, set: ValidatorSet): Map<string, number | null> {
  const index = new Map(set.validators.map((v) => [v.pubkey, v.index]));
  return new Map(election.participants.map((p) => [p.validatorPubkey, index.get(p.validatorPubkey) ?? null]));
}
