import { describe, expect, it } from 'vitest';
import { Dictionary, beginCell } from '@ton/core';
import {
  complaintFine,
  complaintPrice,
  complaintReward,
  complaintVoteThreshold,
  decodeElectorData,
  readParticipantListExtended,
  unfreezeCredits,
  validatorBonus,
  type ElectorState,
} from '../src/elector.js';
import { decodeElectionConfig, loadConfigDictionary } from '../src/config-params.js';
import { runGetMethod } from '../src/get-method.js';
import { fixtureCell, fixtureJson } from './fixtures.js';
import { ELECTOR_ADDRESS as ELECTOR, RAW_VALUE, chainWith, dataOf } from './sandbox.js';

const expected = fixtureJson('elector/expected.json');
const code = fixtureCell('elector/code.boc.b64');
const data = fixtureCell('elector/data.boc.b64');
const data2 = fixtureCell('elector/data-2.boc.b64');
const config = fixtureCell('elector/config.boc.b64');

/** The fixture README's decoded view of an elector state, computed from our decoder. */
function summary(state: ElectorState) {
  const e = state.election!;
  return {
    active_id: state.activeId,
    active_hash: state.activeHash,
    grams: state.grams.toString(),
    elect: {
      elect_at: e.electAt,
      elect_close: e.electClose,
      min_stake: e.minStake.toString(),
      total_stake: e.totalStake.toString(),
      members: e.participants.length,
      failed: e.failed,
      finished: e.finished,
    },
    credits_entries: state.credits.size,
    past_elections: Object.fromEntries(
      state.pastElections.map((p) => [
        String(p.electionId),
        {
          unfreeze_at: p.unfreezeAt,
          stake_held: p.stakeHeld,
          vset_hash: p.vsetHash,
          total_stake: p.totalStake.toString(),
          bonuses: p.bonuses.toString(),
          frozen_entries: p.frozen.length,
          complaints: p.complaints.length,
        },
      ]),
    ),
  };
}

describe('elector data', () => {
  it('decodes the Nov 2023 state to the recorded values', () => {
    expect(summary(decodeElectorData(data))).toEqual(expected['decoded_data.boc.b64']);
  });

  it('decodes the May 2026 state to the recorded values', () => {
    const recorded = structuredClone(expected['decoded_data-2.boc.b64']);
    const decoded = summary(decodeElectorData(data2));
    // The README does not record this set's hash; it is the state's active set, so it equals active_hash.
    expect(decoded.past_elections['1778142984'].vset_hash).toBe(recorded.active_hash);
    recorded.past_elections['1778142984'].vset_hash = recorded.active_hash;
    expect(decoded).toEqual(recorded);
  });

  it('the open election holds what its members staked', () => {
    for (const cell of [data, data2]) {
      const e = decodeElectorData(cell).election!;
      expect(e.participants.reduce((sum, p) => sum + p.stake, 0n)).toBe(e.totalStake);
      for (const p of e.participants) {
        expect(p.stakeHolderAddress.workChain).toBe(-1);
        expect(p.stake >= e.minStake).toBe(true);
        expect(p.time).toBeLessThanOrEqual(e.electClose);
      }
    }
  });

  it('matches the contract: participant_list_extended lists the same 316 members, each max_factor 196608', async () => {
    const state = decodeElectorData(data);
    const listed = readParticipantListExtended(
      await runGetMethod({ code, data, address: ELECTOR }, 'participant_list_extended', [], { config }),
    )!;
    expect(listed.participants).toHaveLength(expected['participant_list_extended(code,data,config)'].validators_count);
    expect(new Set(listed.participants.map((p) => p.maxFactor))).toEqual(
      new Set([expected['participant_list_extended(code,data,config)'].every_max_factor]),
    );
    const { participants, ...head } = state.election!;
    const raw = <T extends { stakeHolderAddress: { toRawString(): string } }>(ps: T[]) =>
      ps.map((p) => ({ ...p, stakeHolderAddress: p.stakeHolderAddress.toRawString() }));
    expect({ ...listed, participants: raw(listed.participants) }).toEqual({
      ...head,
      participants: raw(participants.map(({ time: _, ...p }) => p)),
    });
    // That deep result corrupts the emulator instance that produced it; the runner must have replaced it.
    expect((await runGetMethod({ code, data, address: ELECTOR }, 'active_election_id', [], { config })).readNumber()).toBe(
      state.election!.electAt,
    );
  });

  it('matches the contract: past_elections and compute_returned_stake', async () => {
    const state = decodeElectorData(data2);
    const past = (await runGetMethod({ code, data: data2, address: ELECTOR }, 'past_elections', [], { config })).readLispList();
    expect(past).toHaveLength(state.pastElections.length);
    for (const [i, item] of past.entries()) {
      if (item.type !== 'tuple') throw new Error('past_elections entry is not a tuple');
      const [id, unfreezeAt, stakeHeld, vsetHash, frozen, totalStake, bonuses] = item.items;
      const p = state.pastElections[i];
      expect([id, unfreezeAt, stakeHeld, vsetHash, totalStake, bonuses].map((v) => (v.type === 'int' ? v.value : null))).toEqual([
        BigInt(p.electionId),
        BigInt(p.unfreezeAt),
        BigInt(p.stakeHeld),
        BigInt('0x' + p.vsetHash),
        p.totalStake,
        p.bonuses,
      ]);
      if (frozen.type !== 'cell') throw new Error('frozen dict is not a cell');
      expect(Dictionary.loadDirect(Dictionary.Keys.BigUint(256), RAW_VALUE, frozen.cell).size).toBe(p.frozen.length);
    }
    for (const [holder, amount] of [...state.credits].slice(0, 8)) {
      const returned = await runGetMethod(
        { code, data: data2, address: ELECTOR },
        'compute_returned_stake',
        [{ type: 'int', value: BigInt('0x' + holder) }],
        { config },
      );
      expect(returned.readBigNumber()).toBe(amount);
    }
  });
});

describe('elector complaints', () => {
  it('decodes a complaint as the contract reads it (show_complaint, list_complaints)', async () => {
    // No recorded state has a complaint: file one into the May 2026 round, then read it both ways.
    const electionId = 1778142984;
    const s = data2.beginParse();
    const elect = s.loadMaybeRef();
    const credits = s.loadMaybeRef();
    const past = Dictionary.loadDirect(Dictionary.Keys.Uint(32), RAW_VALUE, s.loadMaybeRef());
    const entry = past.get(electionId)!.beginParse();
    const head = entry.loadBits(32 + 32 + 256);
    const frozen = entry.loadMaybeRef();
    const totalStake = entry.loadCoins();
    const bonuses = entry.loadCoins();
    expect(entry.loadMaybeRef()).toBeNull();
    const description = beginCell().storeUint(0x5c1bd1c9, 32).storeUint(42, 32).endCell();
    const complaint = beginCell()
      .storeUint(0xbc, 8)
      .storeUint(0xabcdefn, 256)
      .storeRef(description)
      .storeUint(1778150000, 32)
      .storeUint(1, 8)
      .storeUint(0x1234n, 256)
      .storeCoins(2_000_000_000n)
      .storeCoins(101_000_000_000n)
      .storeUint(7, 32)
      .endCell();
    const voters = Dictionary.empty(Dictionary.Keys.Uint(16), { parse: () => true, serialize: () => undefined });
    voters.set(17, true).set(3, true);
    const status = beginCell().storeUint(0x2d, 8).storeRef(complaint).storeDict(voters).storeUint(0x99n, 256).storeInt(-5n, 64).endCell();
    const complaints = Dictionary.empty(Dictionary.Keys.BigUint(256), RAW_VALUE).set(0x77n, status);
    past.set(
      electionId,
      beginCell().storeBits(head).storeMaybeRef(frozen).storeCoins(totalStake).storeCoins(bonuses).storeDict(complaints).endCell(),
    );
    const withComplaint = beginCell().storeMaybeRef(elect).storeMaybeRef(credits).storeDict(past).storeSlice(s).endCell();

    const [decoded] = decodeElectorData(withComplaint).pastElections[0].complaints;
    expect(decoded).toMatchObject({
      complaintHash: '77'.padStart(64, '0'),
      voters: [3, 17],
      vsetId: '99'.padStart(64, '0'),
      weightRemaining: -5n,
      complaint: {
        validatorPubkey: 'abcdef'.padStart(64, '0'),
        createdAt: 1778150000,
        severity: 1,
        paid: 2_000_000_000n,
        suggestedFine: 101_000_000_000n,
        suggestedFinePart: 7,
      },
    });
    expect(decoded.complaint.description.equals(description)).toBe(true);
    expect(decoded.complaint.rewardAddress.toRawString()).toBe('-1:' + '1234'.padStart(64, '0'));

    // show_complaint → [[pubkey, description, created_at, severity, reward_addr, paid, fine, fine_part], voters, vset_id, weight_remaining]
    const shown = (
      await runGetMethod(
        { code, data: withComplaint, address: ELECTOR },
        'show_complaint',
        [
          { type: 'int', value: BigInt(electionId) },
          { type: 'int', value: 0x77n },
        ],
        { config },
      )
    ).readTuple();
    const fields = shown.readTuple();
    expect(fields.readBigNumber()).toBe(BigInt('0x' + decoded.complaint.validatorPubkey));
    expect(fields.readCell().equals(decoded.complaint.description)).toBe(true);
    expect([
      fields.readNumber(),
      fields.readNumber(),
      fields.readBigNumber(),
      fields.readBigNumber(),
      fields.readBigNumber(),
      fields.readNumber(),
    ]).toEqual([
      decoded.complaint.createdAt,
      decoded.complaint.severity,
      BigInt('0x' + decoded.complaint.rewardAddress.hash.toString('hex')),
      decoded.complaint.paid,
      decoded.complaint.suggestedFine,
      decoded.complaint.suggestedFinePart,
    ]);
    expect(
      shown
        .readLispList()
        .map((v) => (v.type === 'int' ? Number(v.value) : NaN))
        .sort((a, b) => a - b),
    ).toEqual(decoded.voters);
    expect([shown.readBigNumber(), shown.readBigNumber()]).toEqual([BigInt('0x' + decoded.vsetId), decoded.weightRemaining]);
    const listed = (
      await runGetMethod({ code, data: withComplaint, address: ELECTOR }, 'list_complaints', [{ type: 'int', value: BigInt(electionId) }], {
        config,
      })
    ).readLispList();
    expect(listed).toHaveLength(1);
  });
});

describe('elector reward split', () => {
  it('validatorBonus is the floor of bonuses·stake/total', () => {
    expect(validatorBonus(10n, 1n, 3n)).toBe(3n);
    expect(validatorBonus(263479480560868n, 1_000_000n, 568723064565399892n)).toBe(463n);
    expect(validatorBonus(5n, 1n, 0n)).toBe(0n);
  });

  it('unfreezing the May 2026 round pays every stake its share and leaves only rounding to grams', () => {
    const round = decodeElectorData(data2).pastElections[0];
    const { credits, toGrams } = unfreezeCredits(round);
    expect(credits).toHaveLength(400);
    expect(credits.reduce((s, c) => s + c.stake, 0n)).toBe(round.totalStake);
    expect(toGrams >= 0n && toGrams < BigInt(credits.length)).toBe(true);
  });

  it('equals what the elector credits when it unfreezes a round itself (tick-tock in the emulator)', async () => {
    // The Nov 2023 state with its only past round made unfreezable: no longer the active set, and due before the
    // open election closes (so the tick-tock does nothing else first).
    const now = 1700660000;
    const state = decodeElectorData(data);
    const round = state.pastElections[0];
    const s = data.beginParse();
    const elect = s.loadMaybeRef();
    const credits = s.loadMaybeRef();
    const past = Dictionary.loadDirect(Dictionary.Keys.Uint(32), RAW_VALUE, s.loadMaybeRef());
    const entry = past.get(round.electionId)!.beginParse();
    entry.skip(32);
    past.set(
      round.electionId,
      beginCell()
        .storeUint(now - 1, 32)
        .storeSlice(entry)
        .endCell(),
    );
    const grams = s.loadCoins();
    s.skip(32);
    const patched = beginCell()
      .storeMaybeRef(elect)
      .storeMaybeRef(credits)
      .storeDict(past)
      .storeCoins(grams)
      .storeUint(0, 32)
      .storeSlice(s)
      .endCell();

    const chain = await chainWith(ELECTOR, code, patched, { now, config, balance: 10n ** 18n });
    await chain.runTickTock(ELECTOR, 'tick');
    const after = decodeElectorData(await dataOf(chain, ELECTOR));

    expect(after.pastElections).toHaveLength(0);
    const { credits: split, toGrams } = unfreezeCredits(round);
    const expectedCredits = new Map(state.credits);
    for (const c of split) {
      const key = c.stakeHolderAddress.hash.toString('hex');
      expectedCredits.set(key, (expectedCredits.get(key) ?? 0n) + c.stake + c.bonus);
    }
    expect(after.credits).toEqual(expectedCredits);
    expect(after.grams).toBe(state.grams + toGrams);
  });
});

describe('config params', () => {
  const cfg = decodeElectionConfig(loadConfigDictionary(config));
  const want = expected['decoded_config.boc.b64'];

  it('decodes 0, 1, 15, 16, 17 to the recorded values', () => {
    expect(cfg.configAddress).toBe(want.param0);
    expect(cfg.electorAddress).toBe(want.param1);
    expect(cfg.timing).toEqual({
      validatorsElectedFor: want.param15.validators_elected_for,
      electionsStartBefore: want.param15.elections_start_before,
      electionsEndBefore: want.param15.elections_end_before,
      stakeHeldFor: want.param15.stake_held_for,
    });
    expect(cfg.counts).toEqual({
      maxValidators: want.param16.max_validators,
      maxMainValidators: want.param16.max_main_validators,
      minValidators: want.param16.min_validators,
    });
    expect(cfg.stakeLimits).toEqual({
      minStake: BigInt(want.param17.min_stake),
      maxStake: BigInt(want.param17.max_stake),
      minTotalStake: BigInt(want.param17.min_total_stake),
      maxStakeFactor: want.param17.max_stake_factor,
    });
  });

  it('decodes the validator sets 32 and 34; 36 is absent; p34 is the elector active set', () => {
    expect(cfg.nextValidators).toBeNull();
    for (const [set, rec] of [
      [cfg.previousValidators!, want.param32],
      [cfg.currentValidators!, want.param34],
    ] as const) {
      expect({ utime_since: set.utimeSince, utime_until: set.utimeUntil, total: set.total, main: set.main }).toEqual({
        utime_since: rec.utime_since,
        utime_until: rec.utime_until,
        total: rec.total,
        main: rec.main,
      });
      expect(set.validators).toHaveLength(set.total);
      expect(set.validators.map((v) => v.index)).toEqual([...Array(set.total).keys()]);
      expect(set.validators.reduce((s, v) => s + v.weight, 0n)).toBe(set.totalWeight);
      expect(set.validators.every((v) => v.adnlAddr !== null && /^[0-9a-f]{64}$/.test(v.pubkey))).toBe(true);
    }
    expect(cfg.currentValidators!.hash).toBe(want.param34.cell_hash);
    expect(cfg.currentValidators!.hash).toBe(decodeElectorData(data).activeHash);
  });

  it('the current set is the one the active round froze: same keys and weights', () => {
    const round = decodeElectorData(data).pastElections.find((p) => p.vsetHash === cfg.currentValidators!.hash)!;
    const frozen = new Map(round.frozen.map((f) => [f.validatorPubkey, f]));
    expect(frozen.size).toBe(cfg.currentValidators!.total);
    expect(round.electionId).toBe(cfg.currentValidators!.utimeSince);
    for (const v of cfg.currentValidators!.validators) {
      expect(frozen.get(v.pubkey)?.weight).toBe(v.weight);
    }
    expect(round.frozen.reduce((sum, f) => sum + f.weight, 0n)).toBe(cfg.currentValidators!.totalWeight);
    expect(round.frozen.every((f) => f.stakeHolderAddress.workChain === -1 && !f.banned)).toBe(true);
  });
});

describe('complaint arithmetic (elector-code.fc register_complaint / register_vote / punish)', () => {
  const TON = 1_000_000_000n;
  it('fine: the suggested amount plus a part of the stake, never more than the stake', () => {
    expect(complaintFine(50_000n * TON, 10n * TON, 1 << 20)).toBe(10n * TON + (50_000n * TON) / 4096n);
    expect(complaintFine(5n * TON, 10n * TON, 0)).toBe(5n * TON);
    expect(complaintFine(100n * TON, 0n, 2 ** 32 - 1)).toBe((100n * TON * (2n ** 32n - 1n)) / 2n ** 32n);
  });
  it('reward: an eighth of the fine, at most eight times what the complaint paid', () => {
    expect(complaintReward(80n * TON, 100n * TON)).toBe(10n * TON);
    expect(complaintReward(80n * TON, TON)).toBe(8n * TON);
  });
  it('threshold and price', () => {
    expect(complaintVoteThreshold(10n)).toBe(6n);
    expect(complaintVoteThreshold(1n << 60n)).toBe(((1n << 60n) * 2n) / 3n);
    // The devnet's (mainnet's) config 13: 1 TON deposit, 1 nanoton a bit, 500 a cell, per second.
    expect(complaintPrice({ deposit: TON, bitPrice: 1n, cellPrice: 500n }, 1000, 2, 100)).toBe(TON + (1000n + 1024n + 4n * 500n) * 100n);
  });
});
