/**
 * The validators derivation's row builders on the recorded mainnet elector states and messages
 * (testdata fixtures/accounts/elector): elections, past-election rounds with the elector's bonus split, the validator
 * sets of the recorded config as cycles, and the stake events of elector transactions.
 */
import { readFileSync } from 'node:fs';
import { beginCell, Cell } from '@ton/core';
import { decodeElectionConfig, decodeElectorData, loadConfigDictionary, unfreezeCredits } from '@tongate/contracts';
import { describe, expect, it } from 'vitest';
import type { McBlockBatch } from '../src/block.js';
import { cycleRows, electionRows, electorEvents, roundRows } from '../src/domains/validators/derive.js';
import { fixturePath } from '@tongate/testdata';

const ACCOUNTS = `${fixturePath('accounts')}/`;
const cell = (path: string) => Cell.fromBase64(readFileSync(ACCOUNTS + path, 'utf8').trim());
const expected = JSON.parse(readFileSync(ACCOUNTS + 'elector/expected.json', 'utf8'));
const bodies = JSON.parse(readFileSync(ACCOUNTS + 'elector/message-bodies.json', 'utf8'));

const ELECTOR = '-1:' + '3'.repeat(64);

describe('validators derivation rows', () => {
  const state = decodeElectorData(cell('elector/data.boc.b64'));
  const decoded = expected['decoded_data.boc.b64'];

  it('keeps the open election and all its participants', () => {
    const rows = electionRows(state, '123')!;
    expect(rows.election).toMatchObject({
      election_id: decoded.elect.elect_at,
      elect_close: decoded.elect.elect_close,
      min_stake: BigInt(decoded.elect.min_stake),
      total_stake: BigInt(decoded.elect.total_stake),
      total_participants: decoded.elect.members,
      failed: false,
      finished: false,
    });
    expect(rows.participants).toHaveLength(316);
    expect(rows.participants.every((p) => p.max_factor === 196608n && String(p.stake_holder_address).startsWith('-1:'))).toBe(true);
    expect(rows.participants.reduce((s, p) => s + BigInt(p.stake as bigint), 0n)).toBe(BigInt(decoded.elect.total_stake));
  });

  it('keeps each past election with true stakes and the elector’s bonus split', () => {
    const [round] = roundRows(state);
    const past = decoded.past_elections['1700613896'];
    expect(round.round).toMatchObject({
      election_id: 1700613896,
      vset_hash: past.vset_hash,
      unfreeze_at: past.unfreeze_at,
      total_stake: BigInt(past.total_stake),
      bonuses: BigInt(past.bonuses),
    });
    expect(round.stakes).toHaveLength(past.frozen_entries);
    // The reward column is what the elector credits at unfreeze beyond the stake.
    const credits = unfreezeCredits(state.pastElections[0]);
    const byKey = new Map(credits.credits.map((c) => [c.validatorPubkey, c.bonus]));
    for (const s of round.stakes) expect(s.reward).toBe(byKey.get(s.validator_pubkey) ?? 0n);
    const stakes = round.stakes.map((s) => s.stake as bigint);
    expect(round.round.min_stake).toBe(stakes.reduce((a, b) => (b < a ? b : a)));
    expect(round.round.max_stake).toBe(stakes.reduce((a, b) => (b > a ? b : a)));
    // The fingerprint changes with the bonuses (rows are rewritten then) and not otherwise.
    expect(roundRows(state)[0].fingerprint).toBe(round.fingerprint);
    const richer = { ...state, pastElections: [{ ...state.pastElections[0], bonuses: state.pastElections[0].bonuses + 1n }] };
    expect(roundRows(richer)[0].fingerprint).not.toBe(round.fingerprint);
  });

  it('turns the recorded config’s current set into a cycle joined to the past election by hash', () => {
    const config = decodeElectionConfig(loadConfigDictionary(cell('elector/config.boc.b64')));
    const { cycle, validators } = cycleRows({
      set: config.currentValidators!,
      timing: config.timing,
      counts: config.counts,
      limits: config.stakeLimits,
    });
    expect(cycle).toMatchObject({
      cycle_start: 1700613896,
      cycle_end: 1700679432,
      total: 332,
      main: 100,
      validators_elected_for: 65536,
      max_validators: 400,
      min_validators: 75,
      max_stake_factor: 196608n,
    });
    expect(cycle.vset_hash).toBe(state.activeHash);
    expect(roundRows(state)[0].round.vset_hash).toBe(cycle.vset_hash);
    expect(validators).toHaveLength(332);
    expect(validators.map((v) => v.validator_index)).toEqual(Array.from({ length: 332 }, (_, i) => i));
  });

  it('reads stake events from elector transactions: accepted, recovered; bounced and foreign ones make none', () => {
    const holder = '-1:' + 'AB'.repeat(32);
    // The elector's return_stake with reason 5 (stake below min_stake), as it answers a too small stake.
    bodies.stake_rejected = {
      boc: beginCell().storeUint(0xee6f454c, 32).storeUint(1686629408635n, 64).storeUint(5, 32).endCell().toBoc().toString('base64'),
    };
    const contents = Object.values(bodies as Record<string, { boc: string }>).map((b) => ({
      hash: Cell.fromBase64(b.boc).hash().toString('base64'),
      body: b.boc,
    }));
    const hashOf = (name: string) => Cell.fromBase64(bodies[name].boc).hash().toString('base64');
    const tx = (hash: string, account = ELECTOR) => ({ hash, lt: '100', now: 1686630000, account, aborted: false });
    const msg = (txHash: string, direction: 'in' | 'out', body: string, value: bigint, extra: object = {}) => ({
      tx_hash: txHash,
      direction,
      body_hash: hashOf(body),
      value: value.toString(),
      source: direction === 'in' ? holder : ELECTOR,
      bounced: false,
      ...extra,
    });
    const batch = {
      transactions: [tx('A'), tx('B'), tx('C'), tx('D', holder), tx('E')],
      messages: [
        msg('A', 'in', 'new_stake', 700_001_000_000_000n),
        msg('A', 'out', 'new_stake_confirmation', 1_000_000_000n),
        msg('B', 'in', 'recover_stake_request', 1_000_000_000n),
        msg('B', 'out', 'recover_stake_response', 700_500_000_000_000n),
        msg('C', 'in', 'new_stake', 5n, { bounced: true }),
        msg('D', 'in', 'new_stake', 5n),
        msg('E', 'in', 'new_stake', 2_000_000_000n),
        msg('E', 'out', 'stake_rejected', 1_990_000_000n),
      ],
      contents,
    } as unknown as McBlockBatch;
    const events = electorEvents(batch, ELECTOR);
    expect(events).toEqual([
      {
        tx_hash: 'A',
        tx_lt: '100',
        utime: 1686630000,
        type: 'stake_accepted',
        stake_holder_address: holder,
        amount: 700_000_000_000_000n,
        query_id: 1686629408635n,
        validator_pubkey: bodies.new_stake.validator_pubkey,
        adnl_addr: bodies.new_stake.adnl_addr,
        election_id: bodies.new_stake.stake_at,
        reason: null,
      },
      {
        tx_hash: 'B',
        tx_lt: '100',
        utime: 1686630000,
        type: 'stake_recovered',
        stake_holder_address: holder,
        amount: 700_500_000_000_000n,
        query_id: 0n,
        validator_pubkey: null,
        adnl_addr: null,
        election_id: null,
        reason: null,
      },
      expect.objectContaining({
        tx_hash: 'E',
        type: 'stake_rejected',
        amount: 1_990_000_000n,
        reason: 5,
        election_id: bodies.new_stake.stake_at,
      }),
    ]);
  });
});
