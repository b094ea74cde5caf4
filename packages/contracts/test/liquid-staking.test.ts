import { describe, expect, it } from 'vitest';
import { Address } from '@ton/core';
import { readValidatorControllerData } from '../src/liquid-staking.js';
import { runGetMethod } from '../src/get-method.js';
import { fixtureCell, fixtureJson } from './fixtures.js';

const expected = fixtureJson('validator-controller/expected.json');

describe('liquid-staking validator controller', () => {
  it('reads get_validator_controller_data to the values the README records', async () => {
    const state = {
      code: fixtureCell('validator-controller/code.boc.b64'),
      data: fixtureCell('validator-controller/data.boc.b64'),
      address: Address.parseRaw(expected.address),
    };
    const c = readValidatorControllerData(await runGetMethod(state, 'get_validator_controller_data'));
    // The README gives these (some shortened with an ellipsis); the rest of the tuple is checked by position and type.
    expect(c.savedValidatorSetHash.startsWith('0b82cc85')).toBe(true);
    expect([c.validatorSetChangesCount, c.validatorSetChangeTime, c.stakeHeldFor]).toEqual([2, 1696550900, 32768]);
    expect([c.borrowedAmount, c.borrowingTime]).toEqual([452406323745440n, 1696453491]);
    expect(c.validator?.toRawString()).toMatch(/^-1:7c97dda0[0-9a-f]{52}5091$/);
    expect(c.pool?.toRawString()).toMatch(/^0:a45b17f2[0-9a-f]{52}22fa$/);
    expect(c.sudoer).toBeNull();
    expect(c.stakeAmountSent > c.borrowedAmount).toBe(true);
    expect(c.stakeAt).toBeGreaterThan(c.borrowingTime);
  });
});
