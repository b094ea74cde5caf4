import { Dictionary, type Address, type Cell, type Slice, type TupleReader } from '@ton/core';
import { KEY256, decodeExactly, entries256, expectTag, hex256, masterchainAddress, readOnlyValue } from './cells.js';

/**
 * The elector's persistent data (`elector-code.fc` load_data):
 * `elect:(Maybe ^CurrentElection) credits:(HashmapE 256 Grams) past_elections:(HashmapE 32 PastElection)
 *  grams:Grams active_id:uint32 active_hash:uint256`.
 * Stake holders are masterchain accounts stored as 256-bit ids; decoded here to full `-1:` addresses.
 */

export interface ElectionParticipant {
  /** Member key: the validator's ed25519 public key, hex. */
  validatorPubkey: string;
  stake: bigint;
  /** When the (last) stake arrived, unix time. */
  time: number;
  /** Declared stake factor ×65536 (the elector caps it at config param 17's max_stake_factor when electing). */
  maxFactor: number;
  stakeHolderAddress: Address;
  adnlAddr: string;
}

/** The open election; the elector deletes it once the elected set is installed. */
export interface CurrentElection {
  /** The election id: when the elected set starts. */
  electAt: number;
  electClose: number;
  minStake: bigint;
  totalStake: bigint;
  /** Sorted by public key (dictionary order). */
  participants: ElectionParticipant[];
  failed: boolean;
  finished: boolean;
}

export interface FrozenStake {
  validatorPubkey: string;
  stakeHolderAddress: Address;
  /** The validator's weight in the set (true stake · 2^60 / total true stake). */
  weight: bigint;
  /** True stake: the part of the stake the election used. */
  stake: bigint;
  banned: boolean;
}

export interface ValidatorComplaint {
  validatorPubkey: string;
  /** ComplaintDescr cell, as filed. */
  description: Cell;
  createdAt: number;
  severity: number;
  rewardAddress: Address;
  paid: bigint;
  suggestedFine: bigint;
  suggestedFinePart: number;
}

export interface ComplaintStatus {
  /** Key in the past election's complaints: the complaint's hash, hex. */
  complaintHash: string;
  complaint: ValidatorComplaint;
  /** Indices (in the set `vsetId`) of the validators that voted for it, ascending. */
  voters: number[];
  vsetId: string;
  weightRemaining: bigint;
}

export interface PastElection {
  electionId: number;
  unfreezeAt: number;
  stakeHeld: number;
  /** Hash of the validator set this election produced (the param 34 cell hash while it validates). */
  vsetHash: string;
  /** Sorted by public key. */
  frozen: FrozenStake[];
  totalStake: bigint;
  bonuses: bigint;
  complaints: ComplaintStatus[];
}

export interface ElectorState {
  election: CurrentElection | null;
  /** Stake holder (masterchain account id, hex) → amount it can recover. */
  credits: Map<string, bigint>;
  /** Ascending election id. */
  pastElections: PastElection[];
  /** Balance owned by nobody: banned stakes, rounding remainders; 1/8 of it joins each new set's bonuses. */
  grams: bigint;
  activeId: number;
  activeHash: string;
}

const PARTICIPANT = readOnlyValue((s: Slice) => ({
  stake: s.loadCoins(),
  time: s.loadUint(32),
  maxFactor: s.loadUint(32),
  stakeHolderAddress: masterchainAddress(s.loadUintBig(256)),
  adnlAddr: hex256(s.loadUintBig(256)),
}));

const FROZEN = readOnlyValue((s: Slice) => ({
  stakeHolderAddress: masterchainAddress(s.loadUintBig(256)),
  weight: s.loadUintBig(64),
  stake: s.loadCoins(),
  banned: s.loadBit(),
}));

/** `validator_complaint#bc validator_pubkey:bits256 description:^ComplaintDescr created_at:uint32 severity:uint8
 * reward_addr:uint256 paid:Grams suggested_fine:Grams suggested_fine_part:uint32`. */
export function decodeValidatorComplaint(s: Slice): ValidatorComplaint {
  expectTag(s, 8, 0xbc, 'validator complaint');
  return {
    validatorPubkey: hex256(s.loadUintBig(256)),
    description: s.loadRef(),
    createdAt: s.loadUint(32),
    severity: s.loadUint(8),
    rewardAddress: masterchainAddress(s.loadUintBig(256)),
    paid: s.loadCoins(),
    suggestedFine: s.loadCoins(),
    suggestedFinePart: s.loadUint(32),
  };
}

const COMPLAINT_STATUS = readOnlyValue((s: Slice) => {
  expectTag(s, 8, 0x2d, 'complaint status');
  const complaint = decodeExactly(s.loadRef(), 'validator complaint', decodeValidatorComplaint);
  // voters:(HashmapE 16 True): the values are empty.
  const voters = s.loadDict(
    Dictionary.Keys.Uint(16),
    readOnlyValue(() => true),
  );
  return {
    complaint,
    voters: [...voters.keys()].sort((a, b) => a - b),
    vsetId: hex256(s.loadUintBig(256)),
    weightRemaining: s.loadIntBig(64),
  };
});

const PAST_ELECTION = readOnlyValue((s: Slice) => {
  const unfreezeAt = s.loadUint(32);
  const stakeHeld = s.loadUint(32);
  const vsetHash = hex256(s.loadUintBig(256));
  const frozen = s.loadDict(KEY256, FROZEN);
  const totalStake = s.loadCoins();
  const bonuses = s.loadCoins();
  const complaints = s.loadDict(KEY256, COMPLAINT_STATUS);
  return {
    unfreezeAt,
    stakeHeld,
    vsetHash,
    frozen: entries256(frozen).map(([validatorPubkey, f]) => ({ validatorPubkey, ...f })),
    totalStake,
    bonuses,
    complaints: entries256(complaints).map(([complaintHash, c]) => ({ complaintHash, ...c })),
  };
});

function decodeCurrentElection(cell: Cell): CurrentElection {
  return decodeExactly(cell, 'elector current election', (s) => {
    const electAt = s.loadUint(32);
    const electClose = s.loadUint(32);
    const minStake = s.loadCoins();
    const totalStake = s.loadCoins();
    const members = s.loadDict(KEY256, PARTICIPANT);
    return {
      electAt,
      electClose,
      minStake,
      totalStake,
      participants: entries256(members).map(([validatorPubkey, p]) => ({ validatorPubkey, ...p })),
      failed: s.loadBit(),
      finished: s.loadBit(),
    };
  });
}

export function decodeElectorData(data: Cell): ElectorState {
  return decodeExactly(data, 'elector data', (s) => {
    const electCell = s.loadMaybeRef();
    const credits = s.loadDict(KEY256, Dictionary.Values.BigVarUint(4));
    const past = s.loadDict(Dictionary.Keys.Uint(32), PAST_ELECTION);
    return {
      election: electCell ? decodeCurrentElection(electCell) : null,
      credits: new Map(entries256(credits)),
      pastElections: [...past].sort(([a], [b]) => a - b).map(([electionId, p]) => ({ electionId, ...p })),
      grams: s.loadCoins(),
      activeId: s.loadUint(32),
      activeHash: hex256(s.loadUintBig(256)),
    };
  });
}

/**
 * A validator's share of a round's bonuses, as the elector pays it at unfreeze (`unfreeze_with_bonuses`):
 * `muldiv(bonuses, stake, total_stake)`, rounded down. `stake` is the frozen (true) stake.
 */
export function validatorBonus(bonuses: bigint, stake: bigint, totalStake: bigint): bigint {
  if (totalStake <= 0n) return 0n;
  return (bonuses * stake) / totalStake; // operands are non-negative, so truncation is the floor MULDIV takes
}

export interface UnfreezeCredit {
  stakeHolderAddress: Address;
  validatorPubkey: string;
  stake: bigint;
  bonus: bigint;
}

/**
 * What unfreezing a past election credits to each stake holder, in the elector's order: banned stakes get nothing
 * (they and the rounding remainder go to `grams`), every other frozen stake gets `stake + validatorBonus`.
 */
export function unfreezeCredits(election: PastElection): { credits: UnfreezeCredit[]; toGrams: bigint } {
  let paid = 0n;
  const credits: UnfreezeCredit[] = [];
  for (const f of election.frozen) {
    if (f.banned) continue;
    const bonus = validatorBonus(election.bonuses, f.stake, election.totalStake);
    paid += f.stake + bonus;
    credits.push({ stakeHolderAddress: f.stakeHolderAddress, validatorPubkey: f.validatorPubkey, stake: f.stake, bonus });
  }
  return { credits, toGrams: election.totalStake + election.bonuses - paid };
}

/** The open election as `participant_list_extended` lists it: the data cell's view without each stake's arrival time. */
export type ParticipantListing = Omit<CurrentElection, 'participants'> & { participants: Omit<ElectionParticipant, 'time'>[] };

/** `participant_list_extended` get-method result, for callers that only have get-methods (a liteserver account
 * without its data); null when no election is open. */
export function readParticipantListExtended(stack: TupleReader): ParticipantListing | null {
  const electAt = stack.readNumber();
  const electClose = stack.readNumber();
  const minStake = stack.readBigNumber();
  const totalStake = stack.readBigNumber();
  const list = stack.readLispList();
  const failed = stack.readBoolean();
  const finished = stack.readBoolean();
  if (electAt === 0) return null; // all zeros when no election is open
  const participants: ParticipantListing['participants'] = [];
  for (const item of list) {
    // [pubkey, [stake, max_factor, src_addr, adnl_addr]]
    if (item.type !== 'tuple' || item.items.length !== 2 || item.items[0].type !== 'int' || item.items[1].type !== 'tuple')
      throw new Error('participant_list_extended: unexpected entry');
    const [stake, maxFactor, src, adnl] = item.items[1].items.map((v) => {
      if (v.type !== 'int') throw new Error('participant_list_extended: unexpected value');
      return v.value;
    });
    participants.push({
      validatorPubkey: hex256(item.items[0].value),
      stake,
      maxFactor: Number(maxFactor),
      stakeHolderAddress: masterchainAddress(src),
      adnlAddr: hex256(adnl),
    });
  }
  participants.sort((a, b) => (a.validatorPubkey < b.validatorPubkey ? -1 : 1));
  return { electAt, electClose, minStake, totalStake, participants, failed, finished };
}

/**
 * Complaint arithmetic of the elector (`register_complaint`, `register_vote`, `punish`), so that what the index shows
 * of a complaint is what the elector computes.
 */
export const COMPLAINT_FINE_PART_ONE = 1n << 32n;

/** The fine a passed complaint takes from the accused's frozen stake: `min(stake, suggested_fine +
 * muldiv(stake, suggested_fine_part, 2^32))`. */
export function complaintFine(stake: bigint, suggestedFine: bigint, suggestedFinePart: number | bigint): bigint {
  const fine = suggestedFine + (stake * BigInt(suggestedFinePart)) / COMPLAINT_FINE_PART_ONE;
  return fine < stake ? fine : stake;
}

/** The part of a fine credited to the complaint's reward address: `min(fine >> 3, paid * 8)`; the rest goes to the
 * elector's own balance (`grams`). */
export function complaintReward(fine: bigint, paid: bigint): bigint {
  const eighth = fine >> 3n;
  return eighth < paid * 8n ? eighth : paid * 8n;
}

/** `weight_remaining` when voting on a complaint starts (or restarts) in a set: `muldiv(total_weight, 2, 3)`. A vote
 * subtracts the voter's weight; the complaint passes with the vote that takes it below zero. */
export function complaintVoteThreshold(totalWeight: bigint): bigint {
  return (totalWeight * 2n) / 3n;
}

/** What a complaint costs to file (`complaint_storage_price` without the 1 TON the message must carry on top):
 * `deposit + ((bits + 1024)·bit_price + (refs + 2)·cell_price) · expire_in`, from config param 13. */
export function complaintPrice(
  prices: { deposit: bigint; bitPrice: bigint; cellPrice: bigint },
  bits: number,
  refs: number,
  expireIn: number,
): bigint {
  const perSecond = BigInt(bits + 1024) * prices.bitPrice + BigInt(refs + 2) * prices.cellPrice;
  return perSecond * BigInt(expireIn) + prices.deposit;
}

/** `show_complaint(election_id, hash)` get-method result (null when there is no such complaint). */
export interface ShownComplaint {
  complaint: ValidatorComplaint;
  voters: number[];
  vsetId: string;
  weightRemaining: bigint;
}

export function readShowComplaint(stack: TupleReader): ShownComplaint | null {
  const top = stack.readTupleOpt();
  if (!top) return null;
  const fields = top.readTuple();
  const complaint: ValidatorComplaint = {
    validatorPubkey: hex256(fields.readBigNumber()),
    description: fields.readCell(),
    createdAt: fields.readNumber(),
    severity: fields.readNumber(),
    rewardAddress: masterchainAddress(fields.readBigNumber()),
    paid: fields.readBigNumber(),
    suggestedFine: fields.readBigNumber(),
    suggestedFinePart: fields.readNumber(),
  };
  const voters = top.readLispList().map((v) => {
    if (v.type !== 'int') throw new Error('show_complaint: voter is not an integer');
    return Number(v.value);
  });
  return { complaint, voters: voters.sort((a, b) => a - b), vsetId: hex256(top.readBigNumber()), weightRemaining: top.readBigNumber() };
}
