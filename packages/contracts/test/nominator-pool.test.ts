import { describe, expect, it } from 'vitest';
import { Address, Dictionary, beginCell, toNano, type Builder, type Cell, type Slice } from '@ton/core';
import { decodeNominatorPoolData, readListNominators, splitRecoveredStake, type NominatorPoolData } from '../src/nominator-pool.js';
import { runGetMethod } from '../src/get-method.js';
import { ELECTOR_OPS } from '../src/elector-messages.js';
import { fixtureCell, fixtureJson } from './fixtures.js';
import { ELECTOR_ADDRESS, chainWith, deliver } from './sandbox.js';

const expected = fixtureJson('nominator-pool/expected.json');
const code = fixtureCell('nominator-pool/code.boc.b64');
const states = ['data.boc.b64', 'data-2.boc.b64'].map((file) => ({
  file,
  data: fixtureCell(`nominator-pool/${file}`),
  address: Address.parseRaw(expected[file].address),
}));

/** The README's `get_pool_data` view, from our decoder. */
function poolData(p: NominatorPoolData) {
  return {
    state: p.state,
    nominators_count: p.nominatorsCount,
    stake_amount_sent: p.stakeAmountSent.toString(),
    validator_amount: p.validatorAmount.toString(),
    validator_address: p.validatorAddress.hash.toString('hex'),
    validator_reward_share: p.validatorRewardShare,
    max_nominators_count: p.maxNominatorsCount,
    min_validator_stake: p.minValidatorStake.toString(),
    min_nominator_stake: p.minNominatorStake.toString(),
    withdraw_requests: p.nominators.some((n) => n.withdrawRequested) ? 'non-empty' : null,
    stake_at: p.stakeAt,
    saved_validator_set_hash: p.savedValidatorSetHash,
    validator_set_changes_count: p.validatorSetChangesCount,
    validator_set_change_time: p.validatorSetChangeTime,
    stake_held_for: p.stakeHeldFor,
  };
}

describe('nominator pool data', () => {
  it('decodes the recorded pools to the recorded values', () => {
    const [one, seven] = states.map((s) => decodeNominatorPoolData(s.data));
    expect(poolData(one)).toEqual(expected['data.boc.b64'].get_pool_data);
    expect(
      one.nominators.map((n) => ({
        address: n.address.toRawString(),
        amount: n.amount.toString(),
        pending_deposit_amount: n.pendingDepositAmount.toString(),
      })),
    ).toEqual(expected['data.boc.b64'].nominators_dict);
    expect(poolData(seven)).toEqual(expected['data-2.boc.b64'].decoded);
    expect(seven.nominators.map((n) => ({ address: n.address.toRawString(), amount: n.amount.toString() }))).toEqual(
      expected['data-2.boc.b64'].nominators_dict,
    );
    expect(seven.nominators.reduce((s, n) => s + n.pendingDepositAmount, 0n).toString()).toBe(
      expected['data-2.boc.b64'].all_pending_deposit_amount,
    );
    expect(one.validatorAddress.workChain).toBe(-1);
  });

  it('matches the contract: get_pool_data and list_nominators', async () => {
    for (const { data, address } of states) {
      const pool = decodeNominatorPoolData(data);
      const got = await runGetMethod({ code, data, address }, 'get_pool_data');
      expect([
        got.readNumber(),
        got.readNumber(),
        got.readBigNumber(),
        got.readBigNumber(),
        got.readBigNumber(),
        got.readNumber(),
        got.readNumber(),
        got.readBigNumber(),
        got.readBigNumber(),
      ]).toEqual([
        pool.state,
        pool.nominatorsCount,
        pool.stakeAmountSent,
        pool.validatorAmount,
        BigInt('0x' + pool.validatorAddress.hash.toString('hex')),
        pool.validatorRewardShare,
        pool.maxNominatorsCount,
        pool.minValidatorStake,
        pool.minNominatorStake,
      ]);
      got.skip(2); // nominators and withdraw_requests dictionaries
      expect([got.readNumber(), got.readBigNumber(), got.readNumber(), got.readNumber(), got.readNumber()]).toEqual([
        pool.stakeAt,
        BigInt('0x' + pool.savedValidatorSetHash),
        pool.validatorSetChangesCount,
        pool.validatorSetChangeTime,
        pool.stakeHeldFor,
      ]);
      const listed = readListNominators(await runGetMethod({ code, data, address }, 'list_nominators'));
      expect(listed.map((n) => ({ ...n, address: n.address.toRawString() }))).toEqual(
        pool.nominators.map((n) => ({ ...n, address: n.address.toRawString() })),
      );
    }
  });
});

const KEY = Dictionary.Keys.BigUint(256);
const NOMINATOR_RAW = {
  parse: (s: Slice) => ({ amount: s.loadCoins(), pending: s.loadCoins() }),
  serialize: (v: { amount: bigint; pending: bigint }, b: Builder) => void b.storeCoins(v.amount).storeCoins(v.pending),
};

/** The recorded pool with another validator reward share (both recorded pools keep 0) and a pending deposit. */
function withShareAndPending(data: Cell, share: number, pending: bigint): Cell {
  const s = data.beginParse();
  const head = s.loadBits(8 + 16);
  const sent = s.loadCoins();
  const validatorAmount = s.loadCoins();
  const config = s.loadRef().beginParse();
  const validator = config.loadBits(256);
  config.skip(16);
  const newConfig = beginCell().storeBits(validator).storeUint(share, 16).storeSlice(config).endCell();
  const nominators = s.loadDict(KEY, NOMINATOR_RAW);
  const [firstKey] = [...nominators.keys()];
  const first = nominators.get(firstKey)!;
  nominators.set(firstKey, { amount: first.amount, pending });
  return beginCell()
    .storeBits(head)
    .storeCoins(sent)
    .storeCoins(validatorAmount)
    .storeRef(newConfig)
    .storeDict(nominators)
    .storeSlice(s)
    .endCell();
}
describe('nominator pool reward split', () => {
  it('equals what the pool itself does when the elector returns the stake: gain, small loss, loss past the validator', async () => {
    for (const { data: recorded, address } of states) {
      const data = withShareAndPending(recorded, 3000, toNano('42'));
      const pool = decodeNominatorPoolData(data);
      expect(pool.validatorRewardShare).toBe(3000);
      for (const recovered of [
        pool.stakeAmountSent + toNano('1234.567891234'),
        pool.stakeAmountSent - toNano('500'),
        pool.stakeAmountSent - pool.validatorAmount - toNano('777.123456789'),
      ]) {
        const chain = await chainWith(address, code, data, { now: pool.stakeAt + 100_000 });
        const after = decodeNominatorPoolData(
          await deliver(
            chain,
            ELECTOR_ADDRESS,
            address,
            recovered,
            beginCell().storeUint(ELECTOR_OPS.recoverStakeResponse, 32).storeUint(0, 64).endCell(),
          ),
        );
        const split = splitRecoveredStake(pool, recovered);
        expect(after.state).toBe(0);
        expect(after.validatorAmount).toBe(split.validatorAmountAfter);
        expect(after.nominators.map((n) => [n.amount, n.pendingDepositAmount])).toEqual(
          split.nominators.map((n) => [n.amount, n.pendingDepositAmount]),
        );
      }
    }
  });
});
