import { TupleReader } from '@ton/core';
import type { ChainTransaction } from '@tongate/chain';
import { decodeNominatorPoolData, readListNominators, readSingleNominatorRoles } from '@tongate/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevnet, ELECTOR_ADDRESS, poolCodes, type Devnet, type PoolSeedSummary } from '../src/index.js';
import { SHORT_ELECTION_TIMING, until } from './helpers.js';

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
    expect(data.nominators.map((n) => [n.address.toRawString(), n.amount, n.pendingDepositAmount])).toEqual([
      [bob!.toRawString(), bobTotal, 0n],
    ]);
    const listed = readListNominators(new TupleReader((await devnet.runGetMethod(pools.nominatorPool, 'list_nominators', [])).stack));
    expect(listed.map((n) => n.address.toRawString())).toEqual([bob!.toRawString()]);
    expect(pools.withdrawn.equals(alice!)).toBe(true);
  });

  it('runs the recorded single-nominator code with its owner and validator', async () => {
    const state = await devnet.getAccountState(pools.singleNominatorPool);
    expect(state.code!.hash().toString('hex')).toBe(poolCodes.singleNominatorCodeHash);
    const roles = readSingleNominatorRoles(new TupleReader((await devnet.runGetMethod(pools.singleNominatorPool, 'get_roles', [])).stack));
    expect(roles.owner.equals(pools.owner)).toBe(true);
    expect(roles.validator.equals(pools.singleNominatorValidator)).toBe(true);
    expect(pools.singleNominatorValidator.workChain).toBe(-1);
    // 2 TON at deploy + 15 050 from the owner − 20 withdrawn, less fees.
    expect(state.balance > 15_031_000_000_000n && state.balance < 15_032_000_000_000n).toBe(true);
  });
});

const TIMING = SHORT_ELECTION_TIMING;
const OP_NEW_STAKE = 0x4e73744b;
const OP_RECOVER_RESPONSE = 0xf96f7324;

describe('the seeded single-nominator pool stakes through the elector', () => {
  let running: Devnet;
  beforeAll(async () => {
    running = await createDevnet({ network: 'mainnet', blockIntervalMs: 500, electionTiming: TIMING });
  });
  afterAll(() => running?.close());

  it('its validator stakes it via the pool, the elector elects it beside every devnet validator, the stake comes back with a bonus', async () => {
    const seed = await running.seed();
    const sn = seed.pools;
    expect(sn.staking).toBe(true);
    const holder = sn.singleNominatorPool.hash.toString('hex');
    const devnetHolders = seed.validators!.validators.map((v) => v.stakeHolder.hash.toString('hex'));
    // Elected in a set, with every devnet validator.
    const elected = await until('the pool elected', 90_000, async () => {
      const s = await running.electionStatus();
      return s.state.pastElections.find((p) => p.frozen.some((f) => f.stakeHolderAddress.hash.toString('hex') === holder));
    });
    const holders = new Set(elected.frozen.map((f) => f.stakeHolderAddress.hash.toString('hex')));
    expect(devnetHolders.every((h) => holders.has(h))).toBe(true);
    const frozen = elected.frozen.find((f) => f.stakeHolderAddress.hash.toString('hex') === holder)!;
    // The pool's own transactions: the new_stake it forwarded (from its validator), later the elector's recover answer.
    const txs = async () => {
      const state = await running.getAccountState(sn.singleNominatorPool);
      return state.lastTransaction ? running.getAccountTransactions(sn.singleNominatorPool, state.lastTransaction, 100) : [];
    };
    const opOf = (t: ChainTransaction) => {
      const s = t.tx.inMessage?.body.beginParse();
      return s && s.remainingBits >= 32 ? s.loadUint(32) : null;
    };
    const recovered = await until('the stake recovered', 120_000, async () => (await txs()).find((t) => opOf(t) === OP_RECOVER_RESPONSE));
    const all = await txs();
    const stakeTx = all.find((t) => opOf(t) === OP_NEW_STAKE && t.lt < recovered.lt)!;
    expect(stakeTx.tx.inMessage!.info.src!.toString()).toBe(sn.singleNominatorValidator.toString());
    const sent = [...stakeTx.tx.outMessages.values()].find(
      (m) => m.info.type === 'internal' && m.info.dest.toString() === ELECTOR_ADDRESS.toString(),
    )!;
    const sentValue = sent.info.type === 'internal' ? sent.info.value.coins : 0n;
    expect(sentValue).toBeGreaterThan(frozen.stake);
    const info = recovered.tx.inMessage!.info;
    const returned = info.type === 'internal' ? info.value.coins : 0n;
    // Back: at least the frozen stake, with the round's bonuses on top.
    expect(returned).toBeGreaterThan(frozen.stake);
  }, 240_000);
});
