import { describe, expect, it } from 'vitest';
import { Cell, beginCell } from '@ton/core';
import { ELECTOR_OPS, decodeElectorMessage } from '../src/elector-messages.js';
import { fixtureJson } from './fixtures.js';

const bodies = fixtureJson('elector/message-bodies.json');
const decode = (name: string) => decodeElectorMessage(Cell.fromBase64(bodies[name].boc));

describe('elector message bodies (recorded mainnet)', () => {
  it('new stake', () => {
    const want = bodies.new_stake;
    const m = decode('new_stake');
    expect(m).toMatchObject({
      type: 'new_stake',
      queryId: BigInt(want.query_id),
      validatorPubkey: want.validator_pubkey,
      stakeAt: want.stake_at,
      maxFactor: want.max_factor,
      adnlAddr: want.adnl_addr,
    });
    expect(m?.type === 'new_stake' && m.signature.length * 8).toBe(want.signature_ref_bits);
    expect(Number(want.op)).toBe(ELECTOR_OPS.newStake);
  });

  it('new stake confirmation', () => {
    expect(decode('new_stake_confirmation')).toEqual({
      type: 'new_stake_confirmation',
      queryId: BigInt(bodies.new_stake_confirmation.query_id),
      comment: 0,
    });
  });

  it('recover stake request and response', () => {
    expect(decode('recover_stake_request')).toEqual({ type: 'recover_stake', queryId: 0n });
    expect(decode('recover_stake_response')).toEqual({ type: 'recover_stake_response', queryId: 0n });
    expect(Number(bodies.recover_stake_response.op)).toBe(ELECTOR_OPS.recoverStakeResponse);
  });
});

describe('elector message bodies (built)', () => {
  const head = (op: number, queryId = 5n) => beginCell().storeUint(op, 32).storeUint(queryId, 64);

  it('a rejected stake carries its reason', () => {
    expect(decodeElectorMessage(head(ELECTOR_OPS.stakeRejected).storeUint(3, 32).endCell())).toEqual({
      type: 'stake_rejected',
      queryId: 5n,
      reason: 3,
    });
  });

  it('complaint vote and responses', () => {
    const vote = head(ELECTOR_OPS.voteComplaint)
      .storeBuffer(Buffer.alloc(64, 1))
      .storeUint(0x56744350, 32)
      .storeUint(12, 16)
      .storeUint(1778142984, 32)
      .storeUint(0xfeedn, 256)
      .endCell();
    expect(decodeElectorMessage(vote)).toMatchObject({
      type: 'vote_complaint',
      signTag: 0x56744350,
      validatorIndex: 12,
      electionId: 1778142984,
      complaintHash: 'feed'.padStart(64, '0'),
    });
    expect(decodeElectorMessage(head(ELECTOR_OPS.complaintResponse).storeUint(ELECTOR_OPS.registerComplaint, 32).endCell())).toEqual({
      type: 'complaint_response',
      queryId: 5n,
      result: 0,
    });
    // A refusal adds its code to the answer op; a vote answer adds the vote's result (negative too).
    expect(
      decodeElectorMessage(
        head(ELECTOR_OPS.complaintResponse + 8)
          .storeUint(ELECTOR_OPS.registerComplaint, 32)
          .endCell(),
      ),
    ).toEqual({ type: 'complaint_response', queryId: 5n, result: 8 });
    expect(
      decodeElectorMessage(
        head(ELECTOR_OPS.voteResponse + 2)
          .storeUint(ELECTOR_OPS.voteComplaint, 32)
          .endCell(),
      ),
    ).toEqual({ type: 'vote_response', queryId: 5n, result: 2 });
    expect(
      decodeElectorMessage(
        head(ELECTOR_OPS.voteResponse - 2)
          .storeUint(ELECTOR_OPS.voteComplaint, 32)
          .endCell(),
      ),
    ).toEqual({ type: 'vote_response', queryId: 5n, result: -2 });
  });

  it('validator set exchange with the config contract', () => {
    const vset = beginCell().storeUint(0x12, 8).endCell();
    const m = decodeElectorMessage(head(ELECTOR_OPS.setNextValidatorSet, 1778142984n).storeRef(vset).endCell());
    expect(m?.type === 'set_next_validator_set' && m.validatorSet.equals(vset)).toBe(true);
    expect(decodeElectorMessage(head(ELECTOR_OPS.validatorSetRejected, 1778142984n).endCell())).toEqual({
      type: 'validator_set_rejected',
      queryId: 1778142984n,
    });
  });

  it('foreign ops, short and truncated bodies are not elector messages', () => {
    expect(decodeElectorMessage(head(0x0f8a7ea5).endCell())).toBeNull();
    expect(decodeElectorMessage(beginCell().storeUint(ELECTOR_OPS.recoverStake, 32).endCell())).toBeNull();
    expect(decodeElectorMessage(head(ELECTOR_OPS.newStake).storeUint(1, 256).endCell())).toBeNull();
  });
});
