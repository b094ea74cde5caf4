/**
 * /validators/{elections,cycles,events,complaints} over real HTTP against the composed service, on both networks,
 * with response validation on (an off-spec 200 body turns into a 500). Each devnet runs full election cycles in
 * seconds (24 s cycles): the seed's validators stake, the elector elects them, the set is installed, the stakes are
 * unfrozen and recovered; the seed's validators also file a complaint against one of them in each elected set and vote
 * it through, so the elector fines that stake. What the API answers is checked against the elector's own get-methods
 * (participant_list_extended, past_elections, list_complaints, show_complaint) and the config's validator set, read
 * from the devnet as it happens.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { Address, Dictionary, TupleReader, type Slice } from '@ton/core';
import {
  complaintFine,
  complaintVoteThreshold,
  decodeValidatorSet,
  readParticipantListExtended,
  readShowComplaint,
  type ParticipantListing,
  type ShownComplaint,
} from '@tongate/contracts';
import { ELECTOR_ADDRESS, type Devnet, type SeedSummary } from '@tongate/devnet';
import type { Indexer } from '@tongate/indexer';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useKeyedGateway, v3Requests } from './gateway-fixture.js';
import { until } from './service.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 240_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 500, devnetElectionCycleS: 24 });

const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const hex256 = (v: bigint) => v.toString(16).padStart(64, '0');

interface PastElectionView {
  electionId: number;
  vsetHash: string;
  totalStake: bigint;
  bonuses: bigint;
  /** pubkey → frozen entry */
  frozen: Map<string, { holder: string; weight: bigint; stake: bigint }>;
}

/** The elector's `past_elections` get-method: [[id, unfreeze_at, stake_held, vset_hash, frozen_dict, total_stake, bonuses, complaints] …]. */
function readPastElections(stack: TupleReader): PastElectionView[] {
  return stack.readLispList().map((item) => {
    if (item.type !== 'tuple') throw new Error('past_elections: unexpected entry');
    const [id, , , vsetHash, frozenCell, totalStake, bonuses] = item.items;
    const int = (v: (typeof item.items)[number]) => {
      if (v.type !== 'int') throw new Error('past_elections: expected an integer');
      return v.value;
    };
    const frozen = new Map<string, { holder: string; weight: bigint; stake: bigint }>();
    if (frozenCell.type === 'cell') {
      const dict = Dictionary.loadDirect(
        Dictionary.Keys.BigUint(256),
        {
          serialize: () => undefined,
          parse: (s: Slice) => ({ addr: s.loadUintBig(256), weight: s.loadUintBig(64), stake: s.loadCoins() }),
        },
        frozenCell.cell,
      );
      for (const [key, f] of dict)
        frozen.set(hex256(key), { holder: `-1:${hex256(f.addr).toUpperCase()}`, weight: f.weight, stake: f.stake });
    }
    return { electionId: Number(int(id)), vsetHash: hex256(int(vsetHash)), totalStake: int(totalStake), bonuses: int(bonuses), frozen };
  });
}

// Both networks' suites run side by side: each waits on its own devnet's election cycle (wall clock, little CPU);
// within one network the steps stay in order (it.sequential).
describe.each(['mainnet', 'testnet'] as const)('API v3 validators on %s', { concurrent: true }, (network) => {
  let devnet: Devnet;
  let indexer: Indexer;
  let seed: SeedSummary;
  const api = v3Requests(suite, network);
  const get = (path: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) =>
    api.get(`validators/${path}`, query, headers);
  /** The last participant_list_extended the elector answered for the first election (its final form). */
  let listing: ParticipantListing;
  /** The elector's past_elections entry of that election while its stakes were frozen. */
  let round: PastElectionView;
  /** Param 34 while the elected set validated. */
  let installedSet: ReturnType<typeof decodeValidatorSet>;
  let holders: string[];
  /** The entry as the election left it (true stakes before any fine), read while the set was the next one. */
  let electedRound: PastElectionView;
  /** The round's complaints as show_complaint last answered them before the entry was unfrozen, by hash. */
  const complaints = new Map<string, ShownComplaint>();

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    indexer = suite.service.gateway.indexers[network]!;
    seed = await devnet.seed();
    holders = seed.validators!.validators.map((v) => raw(v.stakeHolder));
    const getMethod = async (name: string) => {
      const r = await devnet.runGetMethod(ELECTOR_ADDRESS, name, []);
      expect(r.exitCode).toBe(0);
      return new TupleReader(r.stack);
    };
    // Follow the first election the validators join, through the elector's own get-methods, to the end of its cycle.
    let electionId = 0;
    await until('an election with every devnet validator', 60_000, async () => {
      const l = readParticipantListExtended(await getMethod('participant_list_extended'));
      // Every devnet validator has staked (the seeded nominator pool may stake beside them).
      if (l && holders.every((h) => l.participants.some((p) => raw(p.stakeHolderAddress) === h))) {
        electionId = l.electAt;
        listing = l;
      }
      if (electionId === 0 || l !== null) return false; // the elector deletes the election once its set is installed
      // The set is the next one (param 36) now: no complaint can be filed against it before it validates.
      electedRound = readPastElections(await getMethod('past_elections')).find((p) => p.electionId === electionId)!;
      return electedRound.frozen.size > 0;
    });
    await until('the elected set validating', 60_000, async () => {
      const p34 = decodeValidatorSet((await devnet.getConfigParam(34))!);
      const past = readPastElections(await getMethod('past_elections')).find((p) => p.electionId === electionId);
      if (!past || p34.hash !== past.vsetHash) return false;
      round = past;
      installedSet = p34;
      return true;
    });
    await until('the stakes unfrozen and recovered', 90_000, async () => {
      const past = readPastElections(await getMethod('past_elections')).find((p) => p.electionId === electionId);
      if (past) {
        round = past; // bonuses keep growing while it is frozen, and fines take from it
        for (const [hash, shown] of await readComplaints(electionId)) complaints.set(hash, shown);
      }
      const credits = await Promise.all(
        seed.validators!.validators.map(async (v) => {
          const r = await devnet.runGetMethod(ELECTOR_ADDRESS, 'compute_returned_stake', [
            { type: 'int', value: BigInt('0x' + v.stakeHolder.hash.toString('hex')) },
          ]);
          return (r.stack[0] as { value: bigint }).value;
        }),
      );
      const r = await get('events', { type: 'stake_recovered', limit: '1000' });
      return (
        !past &&
        credits.every((c) => c === 0n) &&
        r.status === 200 &&
        holders.every((h) => r.body.events.some((e: { stake_holder_address: string }) => e.stake_holder_address === h))
      );
    });
    await indexer.waitFor((await devnet.getMasterchainInfo()).last.seqno);
  });

  /** `list_complaints(election_id)`, each read through `show_complaint(election_id, hash)`. */
  async function readComplaints(electionId: number): Promise<Map<string, ShownComplaint>> {
    const listed = await devnet.runGetMethod(ELECTOR_ADDRESS, 'list_complaints', [{ type: 'int', value: BigInt(electionId) }]);
    expect(listed.exitCode).toBe(0);
    const out = new Map<string, ShownComplaint>();
    for (const pair of new TupleReader(listed.stack).readLispList()) {
      if (pair.type !== 'tuple' || pair.items[0].type !== 'int') throw new Error('list_complaints: unexpected entry');
      const hash = pair.items[0].value;
      const shown = await devnet.runGetMethod(ELECTOR_ADDRESS, 'show_complaint', [
        { type: 'int', value: BigInt(electionId) },
        { type: 'int', value: hash },
      ]);
      const c = readShowComplaint(new TupleReader(shown.stack));
      if (c) out.set(hex256(hash), c);
    }
    return out;
  }

  it.sequential('elections: the final snapshot of the election equals the elector’s participant_list_extended', async () => {
    const r = await get('elections', { election_id: String(listing.electAt), return_participants: 'true' });
    expect(r.status).toBe(200);
    expect(r.body.elections).toHaveLength(1);
    const e = r.body.elections[0];
    expect(e).toMatchObject({
      election_id: listing.electAt,
      elect_close: listing.electClose,
      min_stake: listing.minStake.toString(),
      total_stake: listing.totalStake.toString(),
      total_participants: listing.participants.length,
      failed: listing.failed,
    });
    expect(e.finished).toBe(true);
    const byKey = new Map(e.participants.map((p: { validator_pubkey: string }) => [p.validator_pubkey, p]));
    for (const p of listing.participants) {
      expect(byKey.get(p.validatorPubkey)).toEqual({
        validator_pubkey: p.validatorPubkey,
        stake: p.stake.toString(),
        max_factor: p.maxFactor,
        stake_holder_address: raw(p.stakeHolderAddress),
        adnl_addr: p.adnlAddr,
        validator_index: installedSet.validators.find((v) => v.pubkey === p.validatorPubkey)!.index,
      });
    }
    for (const h of holders) expect(r.body.address_book[h]).toBeDefined();
    // Filters: by a participant; finished; a window on election_id.
    const holder = holders[1];
    const mine = await get('elections', {
      stake_holder_address: holder,
      return_participants: 'true',
      election_id: String(listing.electAt),
    });
    expect(mine.body.elections[0].participants.map((p: { stake_holder_address: string }) => p.stake_holder_address)).toEqual([holder]);
    const running = await get('elections', { finished: 'false', end_utime: String(listing.electAt) });
    expect(running.status).toBe(200);
    expect(running.body.elections).toEqual([]);
    const stranger = await get('elections', { validator_pubkey: 'ab'.repeat(32) });
    expect(stranger.body.elections).toEqual([]);
  });

  it.sequential('cycles: the installed set joined with the elector’s past_elections entry', async () => {
    const r = await get('cycles', { cycle_start: String(installedSet.utimeSince), return_validators: 'true' });
    expect(r.status).toBe(200);
    expect(r.body.cycles).toHaveLength(1);
    const c = r.body.cycles[0];
    const stakes = [...round.frozen.values()].map((f) => f.stake);
    expect(c).toMatchObject({
      cycle_start: installedSet.utimeSince,
      cycle_end: installedSet.utimeUntil,
      election_id: round.electionId,
      total: installedSet.total,
      main: installedSet.main,
      total_weight: installedSet.totalWeight.toString(),
      total_stake: round.totalStake.toString(),
      min_stake: stakes.reduce((a, b) => (b < a ? b : a)).toString(),
      max_stake: stakes.reduce((a, b) => (b > a ? b : a)).toString(),
      validators_elected_for: 24,
      elections_start_before: 12,
      elections_end_before: 4,
      stake_held_for: 4,
      min_validators: 1,
      max_stake_factor: 196608,
    });
    expect(c.validators).toHaveLength(installedSet.validators.length);
    for (const v of installedSet.validators) {
      const frozen = round.frozen.get(v.pubkey)!;
      expect(c.validators.find((x: { validator_index: number }) => x.validator_index === v.index)).toEqual({
        validator_index: v.index,
        validator_pubkey: v.pubkey,
        adnl_addr: v.adnlAddr,
        weight: v.weight.toString(),
        stake: frozen.stake.toString(),
        stake_holder_address: frozen.holder,
        max_factor: listing.participants.find((p) => p.validatorPubkey === v.pubkey)!.maxFactor,
        complaints: [...complaints.entries()]
          .filter(([, c]) => c.complaint.validatorPubkey === v.pubkey)
          .map(([hash]) => expect.objectContaining({ complaint_hash: hash, election_id: round.electionId })),
      });
      expect(frozen.weight).toBe(v.weight);
    }
    // By election, by holder (only that validator embedded), and a cycle no one knows.
    const byElection = await get('cycles', { election_id: String(round.electionId) });
    expect(byElection.body.cycles.map((x: { cycle_start: number }) => x.cycle_start)).toEqual([installedSet.utimeSince]);
    expect(byElection.body.cycles[0].validators).toBeUndefined();
    const mine = await get('cycles', {
      election_id: String(round.electionId),
      stake_holder_address: holders[2],
      return_validators: 'true',
    });
    expect(mine.body.cycles[0].validators.map((v: { stake_holder_address: string }) => v.stake_holder_address)).toEqual([holders[2]]);
    expect((await get('cycles', { cycle_start: '1' })).body.cycles).toEqual([]);
  });

  it.sequential('events: every validator’s stake accepted and recovered, with the amounts the elector moved', async () => {
    const r = await get('events', { limit: '1000' });
    expect(r.status).toBe(200);
    for (const v of seed.validators!.validators) {
      const h = raw(v.stakeHolder);
      const accepted = r.body.events.find(
        (e: any) => e.type === 'stake_accepted' && e.stake_holder_address === h && e.election_id === round.electionId,
      );
      expect(accepted).toMatchObject({ validator_pubkey: v.validatorPubkey, amount: v.stake.toString(), reason: null });
      expect(accepted.adnl_addr).toBe(listing.participants.find((p) => p.validatorPubkey === v.validatorPubkey)!.adnlAddr);
      const tx = await devnet.getTransaction(ELECTOR_ADDRESS, BigInt(accepted.tx_lt));
      expect(tx?.hash.toString('base64')).toBe(accepted.tx_hash);
      // The recovered amount is the frozen stake plus the holder's share of the bonuses (elector's formula) plus any
      // unused part of the stake: at least the true stake.
      const recovered = r.body.events.filter((e: any) => e.type === 'stake_recovered' && e.stake_holder_address === h);
      expect(recovered.length).toBeGreaterThan(0);
      expect(recovered.every((e: any) => e.validator_pubkey === null && e.election_id === undefined)).toBe(true);
      const frozen = round.frozen.get(v.validatorPubkey)!;
      const share = (round.bonuses * frozen.stake) / round.totalStake;
      expect(recovered.some((e: any) => BigInt(e.amount) >= frozen.stake + share)).toBe(true);
    }
    // Newest first; a time window reaches any part of the list.
    const times = r.body.events.map((e: { utime: number; tx_lt: string }) => [e.utime, BigInt(e.tx_lt)] as const);
    for (let i = 1; i < times.length; i++)
      expect(times[i][0] < times[i - 1][0] || (times[i][0] === times[i - 1][0] && times[i][1] < times[i - 1][1])).toBe(true);
    const middle = r.body.events[Math.floor(r.body.events.length / 2)].utime;
    const older = await get('events', { end_utime: String(middle), limit: '1000' });
    expect(older.body.events.map((e: { tx_hash: string }) => e.tx_hash)).toEqual(
      r.body.events.filter((e: { utime: number }) => e.utime <= middle).map((e: { tx_hash: string }) => e.tx_hash),
    );
    // Filters.
    const one = await get('events', { stake_holder_address: holders[0], type: 'stake_accepted' });
    expect(one.body.events.length).toBeGreaterThan(0);
    expect(one.body.events.every((e: any) => e.stake_holder_address === holders[0] && e.type === 'stake_accepted')).toBe(true);
    const windowed = await get('events', { start_utime: String(round.electionId + 10_000) });
    expect(windowed.body).toMatchObject({ events: [], start_utime: round.electionId + 10_000, end_utime: null });
  });

  it.sequential('complaints: the seeded complaint as the elector holds it, its votes and its fine', async () => {
    // The seed's validators file one complaint per elected set and vote it through.
    expect(complaints.size).toBeGreaterThan(0);
    const r = await get('complaints', { election_id: String(round.electionId) });
    expect(r.status).toBe(200);
    expect(r.body.complaints.map((c: { complaint_hash: string }) => c.complaint_hash).sort()).toEqual([...complaints.keys()].sort());
    const byIndex = new Map(installedSet.validators.map((v) => [v.index, v]));
    for (const c of r.body.complaints) {
      const shown = complaints.get(c.complaint_hash)!;
      const accused = installedSet.validators.find((v) => v.pubkey === shown.complaint.validatorPubkey)!;
      // Votes are counted in the set validating when they came: this one.
      expect(shown.vsetId).toBe(installedSet.hash);
      const voters = shown.voters.map((i) => byIndex.get(i)!);
      const votedWeight = voters.reduce((s, v) => s + v.weight, 0n);
      // The elector's arithmetic: voting starts at 2/3 of the set's weight and each vote takes the voter's weight off.
      expect(shown.weightRemaining).toBe(complaintVoteThreshold(installedSet.totalWeight) - votedWeight);
      expect(c).toEqual({
        complaint_hash: c.complaint_hash,
        election_id: round.electionId,
        cycle_start: installedSet.utimeSince,
        created_at: shown.complaint.createdAt,
        validator_pubkey: shown.complaint.validatorPubkey,
        adnl_addr: accused.adnlAddr,
        stake_holder_address: round.frozen.get(accused.pubkey)!.holder,
        reward_address: raw(shown.complaint.rewardAddress),
        description_boc: shown.complaint.description.toBoc().toString('base64'),
        severity: shown.complaint.severity,
        suggested_fine: shown.complaint.suggestedFine.toString(),
        suggested_fine_part: shown.complaint.suggestedFinePart,
        paid: shown.complaint.paid.toString(),
        vset_id: shown.vsetId,
        weight_remaining: shown.weightRemaining.toString(),
        approved_percent: Number((votedWeight * 10000n) / installedSet.totalWeight) / 100,
        is_passed: shown.weightRemaining < 0n,
        voted_validators: voters.map((v) => ({
          validator_index: v.index,
          validator_pubkey: v.pubkey,
          adnl_addr: v.adnlAddr,
          weight: v.weight.toString(),
        })),
      });
      expect(c.is_passed).toBe(true);
      expect(c.approved_percent).toBeGreaterThan(66.66);
      expect(r.body.address_book[c.reward_address]).toBeDefined();
      // The fine the elector took from the frozen stake, by its formula; the cycle shows the stake after it.
      const before = electedRound.frozen.get(accused.pubkey)!.stake;
      const fine = complaintFine(before, shown.complaint.suggestedFine, shown.complaint.suggestedFinePart);
      expect(round.frozen.get(accused.pubkey)!.stake).toBe(before - fine);
    }
    // Filters: the accused, its holder, the cycle, a time window, and ones that match nothing.
    const [hash, one] = [...complaints.entries()][0];
    const holder = round.frozen.get(one.complaint.validatorPubkey)!.holder;
    for (const query of <Record<string, string>[]>[
      { validator_pubkey: one.complaint.validatorPubkey },
      { stake_holder_address: holder },
      { cycle_start: String(installedSet.utimeSince) },
      { start_utime: String(one.complaint.createdAt), end_utime: String(one.complaint.createdAt) },
    ]) {
      const f = await get('complaints', query);
      expect(f.status, JSON.stringify(query)).toBe(200);
      expect(
        f.body.complaints.map((c: { complaint_hash: string }) => c.complaint_hash),
        JSON.stringify(query),
      ).toContain(hash);
    }
    const adnl = installedSet.validators.find((v) => v.pubkey === one.complaint.validatorPubkey)!.adnlAddr!;
    expect(
      (await get('complaints', { adnl_address: adnl, election_id: String(round.electionId) })).body.complaints.map(
        (c: { complaint_hash: string }) => c.complaint_hash,
      ),
    ).toContain(hash);
    // The hosted API takes keys and ADNL addresses in base64 and base64url too.
    for (const form of ['base64', 'base64url'] as const) {
      const byAdnl = await get('complaints', {
        adnl_address: Buffer.from(adnl, 'hex').toString(form),
        election_id: String(round.electionId),
      });
      expect(
        byAdnl.body.complaints.map((c: { complaint_hash: string }) => c.complaint_hash),
        form,
      ).toContain(hash);
      const byKey = await get('complaints', {
        validator_pubkey: Buffer.from(one.complaint.validatorPubkey, 'hex').toString(form),
        election_id: String(round.electionId),
      });
      expect(
        byKey.body.complaints.map((c: { complaint_hash: string }) => c.complaint_hash),
        form,
      ).toContain(hash);
    }
    expect((await get('complaints', { election_id: String(round.electionId), validator_pubkey: 'ab'.repeat(32) })).body).toEqual({
      complaints: [],
      address_book: {},
    });
    expect((await get('complaints', { end_utime: String(one.complaint.createdAt - 3600) })).body.complaints).toEqual([]);
  });

  it.sequential('limit cuts every list to its newest rows (default 10), the same rows in the same order as a longer page', async () => {
    // The devnet keeps electing while this runs: each list is read under a bound that no later row can fall within
    // (utime a few seconds back; for elections and cycles, the newest id: a later one is always larger).
    const settled = String(Math.floor(Date.now() / 1000) - 5);
    const newest = async (path: string, key: string, id: string) => String((await get(path, { limit: '1' })).body[key][0][id]);
    const lists = [
      ['events', 'events', 'tx_hash', settled],
      ['complaints', 'complaints', 'complaint_hash', settled],
      ['elections', 'elections', 'election_id', await newest('elections', 'elections', 'election_id')],
      ['cycles', 'cycles', 'cycle_start', await newest('cycles', 'cycles', 'cycle_start')],
    ] as const;
    for (const [path, key, id, endUtime] of lists) {
      const ids = async (query: Record<string, string>) => {
        const r = await get(path, { end_utime: endUtime, ...query });
        expect(r.status, `${path} ${JSON.stringify(query)}`).toBe(200);
        return r.body[key].map((row: Record<string, unknown>) => row[id]);
      };
      // A complaint carries its own creation time, and on a loaded machine one can be indexed after that bound has
      // passed: the pages are compared only while the whole list read before and after them is the same.
      for (let attempt = 1; ; attempt++) {
        const all = await ids({ limit: '1000' });
        expect(all.length, path).toBeGreaterThan(0);
        const pages = [await ids({ limit: '1' }), await ids({ limit: '2' }), await ids({})];
        const after = await ids({ limit: '1000' });
        if (attempt < 5 && JSON.stringify(after) !== JSON.stringify(all)) continue;
        expect(after, `${path}: the list kept changing`).toEqual(all);
        expect(pages, path).toEqual([all.slice(0, 1), all.slice(0, 2), all.slice(0, 10)]);
        if (path !== 'complaints') expect(all.length, path).toBeGreaterThan(1);
        break;
      }
    }
    // With embedded members the hosted cap of 100 applies, and limit still cuts.
    const withMembers = await get('elections', { return_participants: 'true', limit: '1' });
    expect(withMembers.body.elections).toHaveLength(1);
  });

  it.sequential('X-No-Address-Book leaves the address book out; a false value keeps it', async () => {
    // The elections run on: a new event between two reads changes the list, so the reads compared are taken between two
    // equal reads of the list (it only grows, so nothing changed in between).
    const reads = async () => ({
      plain: await get('events', {}),
      without: await get('events', {}, { 'X-No-Address-Book': 'true' }),
      kept: await get('events', {}, { 'X-No-Address-Book': 'false' }),
      again: await get('events', {}),
    });
    let r = await reads();
    for (let attempt = 0; attempt < 5 && JSON.stringify(r.again.body) !== JSON.stringify(r.plain.body); attempt++) r = await reads();
    const { plain, without, kept } = r;
    expect(Object.keys(plain.body.address_book).length).toBeGreaterThan(0);
    expect(without.status).toBe(200);
    expect(without.body).not.toHaveProperty('address_book');
    expect(without.body.events).toEqual(plain.body.events);
    expect((await get('cycles', { return_validators: 'true', limit: '1' }, { 'X-No-Address-Book': '1' })).body).not.toHaveProperty(
      'address_book',
    );
    expect(kept.body.address_book).toEqual(plain.body.address_book);
  });

  it.sequential('errors: bad parameters answer 422 naming the parameter', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['events', { stake_holder_address: 'not-an-address' }, 'stake_holder_address'],
      ['events', { type: 'stake_lost' }, 'type'],
      ['elections', { validator_pubkey: 'xyz' }, 'validator_pubkey'],
      // The hosted API pages these by limit only (1..1000, at most 100 with embedded members); offset is unknown.
      ['elections', { return_participants: 'true', limit: '101' }, 'limit'],
      ['cycles', { return_validators: 'true', limit: '101' }, 'limit'],
      ['events', { limit: '1001' }, 'limit'],
      ['complaints', { limit: '0' }, 'limit'],
      ['cycles', { offset: '10' }, 'offset'],
      ['complaints', { election_id: '99999999999' }, 'election_id'],
      ['complaints', { adnl_address: '12' }, 'adnl_address'],
    ];
    for (const [path, query, name] of cases) {
      const r = await get(path, query);
      expect(r.status, `${path} ${JSON.stringify(query)}`).toBe(422);
      expect(r.body.error).toContain(name);
    }
  });
});
