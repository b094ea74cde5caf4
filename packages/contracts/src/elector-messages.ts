import type { Cell, Slice } from '@ton/core';
import { decodeValidatorComplaint, type ValidatorComplaint } from './elector.js';
import { hex256 } from './cells.js';

/**
 * Message bodies to and from the elector (`elector-code.fc`), every one `op:uint32 query_id:uint64 …`. The
 * validators events are built from these: new stake → accepted (confirmation, or the member added) / rejected
 * (return_stake with its reason); recover request → response.
 */

export const ELECTOR_OPS = {
  newStake: 0x4e73744b,
  newStakeConfirmation: 0xf374484c,
  stakeRejected: 0xee6f454c,
  recoverStake: 0x47657424,
  recoverStakeResponse: 0xf96f7324,
  error: 0xfffffffe,
  registerComplaint: 0x52674370,
  voteComplaint: 0x56744370,
  complaintResponse: 0xf2676350,
  voteResponse: 0xd6745240,
  setNextValidatorSet: 0x4e565354,
  validatorSetAccepted: 0xee764f4b,
  validatorSetRejected: 0xee764f6f,
} as const;

/** Why the elector returned a stake (`return_stake` reason). */
export const STAKE_REJECT_REASONS: Record<number, string> = {
  0: 'no open election, sender not in the masterchain, or election finished',
  1: 'bad signature',
  2: 'stake below 1/4096 of the total stake',
  3: 'stake_at is not the open election',
  4: 'public key already used by another stake holder',
  5: 'stake below min_stake',
  6: 'max_factor below 65536',
};

export type ElectorMessage =
  | { type: 'new_stake'; queryId: bigint; validatorPubkey: string; stakeAt: number; maxFactor: number; adnlAddr: string; signature: Buffer }
  | { type: 'new_stake_confirmation'; queryId: bigint; comment: number }
  | { type: 'stake_rejected'; queryId: bigint; reason: number }
  | { type: 'recover_stake'; queryId: bigint }
  | { type: 'recover_stake_response'; queryId: bigint }
  | { type: 'error'; queryId: bigint; op: number }
  | { type: 'register_complaint'; queryId: bigint; electionId: number; complaint: ValidatorComplaint }
  | {
      type: 'vote_complaint';
      queryId: bigint;
      signature: Buffer;
      signTag: number;
      validatorIndex: number;
      electionId: number;
      complaintHash: string;
    }
  /** `result`: 0 registered, else the elector's refusal code (1 not from the masterchain, 2 no such election, 3 invalid,
   * 4 expired, 5 not enough paid, 6 no such validator, 7 fine above the stake, 8 fine not above the price, 9 exists). */
  | { type: 'complaint_response'; queryId: bigint; result: number }
  /** `result`: 2 the vote passed the complaint (fine applied), 1 counted, 0 already voted, −2 no such election, −3 the
   * complaint passed in an earlier set, −1 no such complaint. */
  | { type: 'vote_response'; queryId: bigint; result: number }
  | { type: 'set_next_validator_set'; queryId: bigint; validatorSet: Cell }
  | { type: 'validator_set_accepted'; queryId: bigint }
  | { type: 'validator_set_rejected'; queryId: bigint };

const readBody: Record<number, (s: Slice, queryId: bigint) => ElectorMessage> = {
  [ELECTOR_OPS.newStake]: (s, queryId) => {
    const validatorPubkey = hex256(s.loadUintBig(256));
    const stakeAt = s.loadUint(32);
    const maxFactor = s.loadUint(32);
    const adnlAddr = hex256(s.loadUintBig(256));
    const signature = s.loadRef().beginParse().loadBuffer(64);
    return { type: 'new_stake', queryId, validatorPubkey, stakeAt, maxFactor, adnlAddr, signature };
  },
  [ELECTOR_OPS.newStakeConfirmation]: (s, queryId) => ({ type: 'new_stake_confirmation', queryId, comment: s.loadUint(32) }),
  [ELECTOR_OPS.stakeRejected]: (s, queryId) => ({ type: 'stake_rejected', queryId, reason: s.loadUint(32) }),
  [ELECTOR_OPS.recoverStake]: (_, queryId) => ({ type: 'recover_stake', queryId }),
  [ELECTOR_OPS.recoverStakeResponse]: (_, queryId) => ({ type: 'recover_stake_response', queryId }),
  [ELECTOR_OPS.error]: (s, queryId) => ({ type: 'error', queryId, op: s.loadUint(32) }),
  [ELECTOR_OPS.registerComplaint]: (s, queryId) => ({
    type: 'register_complaint',
    queryId,
    electionId: s.loadUint(32),
    complaint: decodeValidatorComplaint(s),
  }),
  [ELECTOR_OPS.voteComplaint]: (s, queryId) => ({
    type: 'vote_complaint',
    queryId,
    signature: s.loadBuffer(64),
    signTag: s.loadUint(32),
    validatorIndex: s.loadUint(16),
    electionId: s.loadUint(32),
    complaintHash: hex256(s.loadUintBig(256)),
  }),
  [ELECTOR_OPS.setNextValidatorSet]: (s, queryId) => ({ type: 'set_next_validator_set', queryId, validatorSet: s.loadRef() }),
  [ELECTOR_OPS.validatorSetAccepted]: (_, queryId) => ({ type: 'validator_set_accepted', queryId }),
  [ELECTOR_OPS.validatorSetRejected]: (_, queryId) => ({ type: 'validator_set_rejected', queryId }),
};

/**
 * The elector answers a complaint or a vote with its result added to the answer op (`send_message_back(…, ans_tag +
 * 0xf2676350 …)`, `res + 0xd6745240`); the body then echoes the request's op.
 */
function answerReader(op: number): ((s: Slice, queryId: bigint) => ElectorMessage) | undefined {
  const complaint = op - ELECTOR_OPS.complaintResponse;
  if (complaint >= 0 && complaint <= 9) return (_, queryId) => ({ type: 'complaint_response', queryId, result: complaint });
  const vote = op - ELECTOR_OPS.voteResponse;
  if (vote >= -3 && vote <= 2) return (_, queryId) => ({ type: 'vote_response', queryId, result: vote });
  return undefined;
}

/** Decodes an elector message body; null when the op is not the elector's or the body is too short for it (the
 * elector itself rejects such a body, so it makes no event). */
export function decodeElectorMessage(body: Cell): ElectorMessage | null {
  const s = body.beginParse();
  if (s.remainingBits < 32 + 64) return null;
  const op = s.loadUint(32);
  const read = readBody[op] ?? answerReader(op);
  if (!read) return null;
  try {
    return read(s, s.loadUintBig(64));
  } catch {
    return null;
  }
}
