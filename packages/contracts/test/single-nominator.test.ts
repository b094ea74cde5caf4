import { describe, expect, it } from 'vitest';
import { Address } from '@ton/core';
import { decodeSingleNominatorData, readSingleNominatorRoles } from '../src/single-nominator.js';
import { runGetMethod } from '../src/get-method.js';
import { fixtureCell, fixtureJson } from './fixtures.js';

const expected = fixtureJson('single-nominator/expected.json');
const state = {
  code: fixtureCell('single-nominator/code.boc.b64'),
  data: fixtureCell('single-nominator/data.boc.b64'),
  address: Address.parseRaw(expected.address),
};

describe('single-nominator pool', () => {
  it('decodes owner and validator to the recorded get_roles', () => {
    const roles = decodeSingleNominatorData(state.data);
    expect({ owner: roles.owner.toRawString(), validator: roles.validator.toRawString() }).toEqual(expected.get_roles);
  });

  it('matches the contract: get_roles', async () => {
    const roles = readSingleNominatorRoles(await runGetMethod(state, 'get_roles'));
    expect(roles.owner.equals(decodeSingleNominatorData(state.data).owner)).toBe(true);
    expect(roles.validator.equals(decodeSingleNominatorData(state.data).validator)).toBe(true);
  });

  it('get_pool_data is the fixed compatibility tuple the README records', async () => {
    const got = await runGetMethod(state, 'get_pool_data');
    const want = expected.get_pool_data;
    const order = [
      'state',
      'nominators_count',
      'stake_amount_sent',
      'validator_amount',
      'min_stake',
      'deposit_fee',
      'withdraw_fee',
      'pool_fee',
      'receipt_price',
      'nominators',
      'withdraw_requests',
      'stake_at',
      'saved_validator_set_hash',
      'validator_set_changes_count',
      'validator_set_change_time',
      'stake_held_for',
      'config_proposal_votings',
    ];
    expect(got.remaining).toBe(order.length);
    for (const key of order) {
      const item = got.pop();
      expect([key, item.type === 'int' ? Number(item.value) : item.type === 'null' ? null : item.type]).toEqual([key, want[key]]);
    }
  });
});
