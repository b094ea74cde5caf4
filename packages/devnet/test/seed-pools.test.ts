import { TupleReader } from '@ton/core';
import { decodeNominatorPoolData, readListNominators, readSingleNominatorRoles } from '@tongate/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnet, poolCodes, type Devnet, type PoolSeedSummary } from '../src/index.js';

let devnet: Devnet;
let pools: PoolSeedSummary;

beforeAll(async () => {
  devnet = await createDevnet({ network: 'testnet', blockIntervalMs: 0 });
  pools = (await devnet.seed()).pools;
});
afterAll(() => devnet.close());

describe('seeded staking pools', () => {
  it('runs the recorded nominator pool code with the seeded deposits and the withdrawal', async () => {
    const state = await devnet.getAccountState(pools.nominatorPool);
    expect(state.status).toBe('active');
    expect(state.code!.hash().toString('hex')).toBe(poolCodes.nominatorPoolCodeHash);
    const data = decodeNominatorPoolData(state.data!);
    expect(data.state).toBe(0);
    expect(data.validatorAddress.equals(pools.validator)).toBe(true);
    expect(data.validatorAmount).toBe(pools.validatorDeposit);
    // alice left with `w`; bob's two deposits add up.
    const [alice, bob] = pools.nominators;
    const bobTotal = pools.deposits.filter((d) => d.nominator.equals(bob!)).reduce((s, d) => s + d.amount, 0n);
    expect(data.nominators.map((n) => [n.address.toRawString(), n.amount, n.pendingDepositAmount])).toEqual([[bob!.toRawString(), bobTotal, 0n]]);
    const listed = readListNominators(new TupleReader((await devnet.runGetMethod(pools.nominatorPool, 'list_nominators', [])).stack));
    expect(listed.map((n) => n.address.toRawString())).toEqual([bob!.toRawString()]);
    expect(pools.withdrawn.equals(alice!)).toBe(true);
  });

  it('runs the recorded single-nominator code with its owner and validator', async () => {
    const state = await devnet.getAccountState(pools.singleNominatorPool);
    expect(state.code!.hash().toString('hex')).toBe(poolCodes.singleNominatorCodeHash);
    const roles = readSingleNominatorRoles(new TupleReader((await devnet.runGetMethod(pools.singleNominatorPool, 'get_roles', [])).stack));
    expect(roles.owner.equals(pools.owner)).toBe(true);
    expect(roles.validator.equals(pools.validator)).toBe(true);
    // 2 TON at deploy + 50 from the owner − 20 withdrawn, less fees.
    expect(state.balance > 31_000_000_000n && state.balance < 32_000_000_000n).toBe(true);
  });
});
