import { beforeAll, describe, expect, it } from 'vitest';
import { decodeElectorData, type ElectorState } from '../src/elector.js';
import { decodeElectorMessage } from '../src/elector-messages.js';
import { decodeElectionConfig, decodeValidatorSet, loadConfigDictionary, type ValidatorSet } from '../src/config-params.js';
import { participantIndices, validatorCycle } from '../src/validator-cycles.js';
import { fixtureCell } from './fixtures.js';
import { ELECTOR_ADDRESS, chainWith, dataOf } from './sandbox.js';

const code = fixtureCell('elector/code.boc.b64');
const data = fixtureCell('elector/data.boc.b64');
const config = decodeElectionConfig(loadConfigDictionary(fixtureCell('elector/config.boc.b64')));

describe('the current cycle of the recorded state', () => {
  it('joins param 34 with its past-elections entry', () => {
    const state = decodeElectorData(data);
    const cycle = validatorCycle(config.currentValidators!, state.pastElections, state.election);
    expect(cycle).toMatchObject({
      cycleStart: 1700613896,
      cycleEnd: 1700679432,
      electionId: 1700613896,
      total: 332,
      main: 100,
      totalStake: 238975025471957894n,
    });
    expect(cycle.validators.every((v) => v.stake !== null && v.stakeHolderAddress !== null)).toBe(true);
    expect(cycle.validators.reduce((s, v) => s + v.stake!, 0n)).toBe(cycle.totalStake);
    expect(cycle.validators.some((v) => v.stake === cycle.minStake) && cycle.validators.some((v) => v.stake === cycle.maxStake)).toBe(true);
    // The open election is the next one, so this cycle's declared factors are not known from this state.
    expect(cycle.validators.every((v) => v.maxFactor === null)).toBe(true);
  });

  it('a set without a past-elections entry keeps the set and leaves stakes unknown', () => {
    const cycle = validatorCycle(config.previousValidators!, decodeElectorData(data).pastElections);
    expect(cycle).toMatchObject({ electionId: null, totalStake: null, minStake: null, total: 319 });
    expect(cycle.validators.every((v) => v.stake === null)).toBe(true);
  });
});

describe('the election the elector conducts on the recorded state (tick-tock after elect_close)', () => {
  let before: ElectorState;
  let after: ElectorState;
  let set: ValidatorSet;

  beforeAll(async () => {
    before = decodeElectorData(data);
    const chain = await chainWith(ELECTOR_ADDRESS, code, data, {
      now: before.election!.electClose + 10,
      config: fixtureCell('elector/config.boc.b64'),
      balance: 10n ** 18n,
    });
    const { transactions } = await chain.runTickTock(ELECTOR_ADDRESS, 'tick');
    after = decodeElectorData(await dataOf(chain, ELECTOR_ADDRESS));
    const sent = [...transactions[0].outMessages.values()].map((m) => decodeElectorMessage(m.body));
    const proposal = sent.find((m) => m?.type === 'set_next_validator_set');
    if (proposal?.type !== 'set_next_validator_set') throw new Error('the elector proposed no validator set');
    expect(proposal.queryId).toBe(BigInt(before.election!.electAt));
    set = decodeValidatorSet(proposal.validatorSet);
  });

  it('finishes the election and records the round under the set it sends to the config contract', () => {
    expect(after.election).toMatchObject({ electAt: before.election!.electAt, finished: true, failed: false });
    const round = after.pastElections.find((p) => p.electionId === before.election!.electAt)!;
    expect(round.vsetHash).toBe(set.hash);
    expect(set.utimeSince).toBe(before.election!.electAt);
    expect(set.utimeUntil - set.utimeSince).toBe(config.timing!.validatorsElectedFor);
  });

  it('the cycle joins every elected validator with its true stake, stake holder and declared factor', () => {
    const cycle = validatorCycle(set, after.pastElections, before.election);
    const declared = new Map(before.election!.participants.map((p) => [p.validatorPubkey, p]));
    expect(cycle.electionId).toBe(before.election!.electAt);
    expect(cycle.validators).toHaveLength(set.total);
    const limits = config.stakeLimits!;
    for (const v of cycle.validators) {
      const p = declared.get(v.validatorPubkey)!;
      expect(v.maxFactor).toBe(p.maxFactor);
      expect(v.stakeHolderAddress!.equals(p.stakeHolderAddress)).toBe(true);
      expect(v.adnlAddr).toBe(p.adnlAddr);
      // The elector's rule: true stake = min(stake, min(max_factor, max_stake_factor) · smallest elected stake / 65536),
      // weight = true stake · 2^60 / total true stake.
      const factor = BigInt(Math.min(p.maxFactor, limits.maxStakeFactor));
      expect(v.stake).toBe(p.stake < (factor * cycle.minStake!) >> 16n ? p.stake : (factor * cycle.minStake!) >> 16n);
      expect(v.weight).toBe((v.stake! << 60n) / cycle.totalStake!);
    }
    expect(cycle.validators.reduce((s, v) => s + v.stake!, 0n)).toBe(cycle.totalStake);
  });

  it('credits back what the election did not use', () => {
    const gained = [...after.credits].reduce((s, [holder, amount]) => s + amount - (before.credits.get(holder) ?? 0n), 0n);
    expect(gained).toBe(
      before.election!.totalStake - after.pastElections.find((p) => p.electionId === before.election!.electAt)!.totalStake,
    );
  });

  it('participant indices place each participant in the set', () => {
    const indices = participantIndices(before.election!, set);
    const elected = [...indices.values()].filter((i) => i !== null);
    expect(new Set(elected).size).toBe(set.total);
    expect(indices.size - elected.length).toBe(before.election!.participants.length - set.total);
  });
});
