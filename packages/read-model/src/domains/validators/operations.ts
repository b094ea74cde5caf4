import type { Address } from '@ton/core';
import type { v3 } from '@tongate/sdk';
import type { ValidatorsDatabase } from './tables.js';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import { sql, type Kysely, type Selectable } from 'kysely';
import { addressBook } from '../../address-book.js';
import { rawAddress } from '../../address.js';

export type ValidatorOperations = Pick<
  V3Handlers,
  'getValidatorElections' | 'getValidatorCycles' | 'getValidatorEvents' | 'getValidatorComplaints'
>;

type Db = Kysely<ValidatorsDatabase>;
type ComplaintRow = Selectable<ValidatorsDatabase['validator_complaints']>;
type CycleValidatorRow = Selectable<ValidatorsDatabase['validator_cycle_validators']>;

/**
 * With embedded participants or validators a row is up to a few hundred times larger, so the hosted API caps
 * `limit` lower then.
 */
const MAX_ROWS_WITH_MEMBERS = 100;

/** The page size of a list that can embed its members: the spec bounds `limit`, this the embedded case. */
function rowsFor(limit: number, withMembers: boolean, flag: string): number {
  if (withMembers && limit > MAX_ROWS_WITH_MEMBERS) throw new ApiError(422, `limit: at most ${MAX_ROWS_WITH_MEMBERS} when ${flag} is true`);
  return limit;
}

/** The validator filters every validators operation takes (stake holder, ADNL address, public key), stored forms. */
interface MemberFilter {
  holder?: string;
  adnl?: string;
  pubkey?: string;
}

function memberFilter(query: { stake_holder_address?: Address; adnl_address?: Buffer; validator_pubkey?: Buffer }): MemberFilter {
  return {
    holder: query.stake_holder_address === undefined ? undefined : rawAddress(query.stake_holder_address),
    adnl: query.adnl_address?.toString('hex'),
    pubkey: query.validator_pubkey?.toString('hex'),
  };
}

const hasMemberFilter = (f: MemberFilter) => f.holder !== undefined || f.adnl !== undefined || f.pubkey !== undefined;

const num = (v: string | number) => Number(v);

/** Share of the set's weight that voted for a complaint, in percent with two decimals. */
function approvedPercent(voted: bigint, totalWeight: bigint): number {
  if (totalWeight <= 0n) return 0;
  return Number((voted * 10000n) / totalWeight) / 100;
}

/**
 * Complaints in the wire shape: the accused's stake holder from the round's frozen stakes, the ADNL address and the
 * voters from the set the votes were counted in (vset_id), the cycle from the round's set.
 */
async function complaintsReply(db: Db, rows: ComplaintRow[]): Promise<v3.ValidatorComplaint[]> {
  if (rows.length === 0) return [];
  const electionIds = [...new Set(rows.map((r) => r.election_id))];
  const vsetIds = [...new Set(rows.map((r) => r.vset_id))];
  const [stakes, cycles] = await Promise.all([
    db
      .selectFrom('validator_round_stakes')
      .select(['election_id', 'validator_pubkey', 'stake_holder_address'])
      .where('election_id', 'in', electionIds)
      .where('validator_pubkey', 'in', [...new Set(rows.map((r) => r.validator_pubkey))])
      .execute(),
    db
      .selectFrom('validator_cycles as c')
      .leftJoin('validator_rounds as r', 'r.vset_hash', 'c.vset_hash')
      .select(['c.cycle_start', 'c.vset_hash', 'c.total_weight', 'r.election_id'])
      .where((eb) => eb.or([eb('c.vset_hash', 'in', vsetIds), eb('r.election_id', 'in', electionIds)]))
      .execute(),
  ]);
  const holderOf = new Map(stakes.map((s) => [`${s.election_id}:${s.validator_pubkey}`, s.stake_holder_address]));
  const cycleOfElection = new Map(cycles.filter((c) => c.election_id !== null).map((c) => [c.election_id!, c.cycle_start]));
  const setByHash = new Map(cycles.map((c) => [c.vset_hash, c]));
  const setStarts = [...new Set(cycles.map((c) => c.cycle_start))];
  const members =
    setStarts.length > 0
      ? await db.selectFrom('validator_cycle_validators').selectAll().where('cycle_start', 'in', setStarts).execute()
      : [];
  const membersOf = new Map<number, Map<number, CycleValidatorRow>>();
  for (const m of members) {
    const set = membersOf.get(m.cycle_start) ?? new Map<number, CycleValidatorRow>();
    set.set(m.validator_index, m);
    membersOf.set(m.cycle_start, set);
  }
  return rows.map((r) => {
    const votingSet = setByHash.get(r.vset_id);
    const voters = votingSet ? membersOf.get(votingSet.cycle_start) : undefined;
    const voted = r.voters.map((index) => voters?.get(index)).filter((v): v is CycleValidatorRow => v !== undefined);
    const accused = [...(voters?.values() ?? [])].find((v) => v.validator_pubkey === r.validator_pubkey);
    const votedWeight = voted.reduce((s, v) => s + BigInt(v.weight), 0n);
    return {
      complaint_hash: r.complaint_hash,
      election_id: r.election_id,
      cycle_start: cycleOfElection.get(r.election_id) ?? r.election_id,
      created_at: r.created_at,
      validator_pubkey: r.validator_pubkey,
      adnl_addr: accused?.adnl_addr ?? null,
      stake_holder_address: holderOf.get(`${r.election_id}:${r.validator_pubkey}`) ?? null,
      reward_address: r.reward_address,
      description_boc: r.description_boc,
      severity: r.severity,
      suggested_fine: r.suggested_fine,
      suggested_fine_part: num(r.suggested_fine_part),
      paid: r.paid,
      vset_id: r.vset_id,
      weight_remaining: r.weight_remaining,
      approved_percent: votingSet ? approvedPercent(votedWeight, BigInt(votingSet.total_weight)) : 0,
      // The elector counts a complaint as passed once the votes exceed two thirds of the set's weight.
      is_passed: BigInt(r.weight_remaining) < 0n,
      voted_validators: voted.map((v) => ({
        validator_pubkey: v.validator_pubkey,
        adnl_addr: v.adnl_addr ?? undefined,
        validator_index: v.validator_index,
        weight: v.weight,
      })),
    };
  });
}

export function validatorOperations(db: Db, testnet: boolean): ValidatorOperations {
  return {
    async getValidatorElections({ query }) {
      const withParticipants = query.return_participants === true;
      const limit = rowsFor(query.limit, withParticipants, 'return_participants');
      const members = memberFilter(query);
      let q = db.selectFrom('validator_elections as e').selectAll('e');
      if (query.election_id !== undefined) q = q.where('e.election_id', '=', query.election_id);
      if (query.finished !== undefined) q = q.where('e.finished', '=', query.finished);
      if (query.start_utime !== undefined) q = q.where('e.election_id', '>=', query.start_utime);
      if (query.end_utime !== undefined) q = q.where('e.election_id', '<=', query.end_utime);
      if (hasMemberFilter(members)) {
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('validator_election_participants as p')
              .select(sql`1`.as('one'))
              .whereRef('p.election_id', '=', 'e.election_id')
              .$if(members.holder !== undefined, (s) => s.where('p.stake_holder_address', '=', members.holder!))
              .$if(members.adnl !== undefined, (s) => s.where('p.adnl_addr', '=', members.adnl!))
              .$if(members.pubkey !== undefined, (s) => s.where('p.validator_pubkey', '=', members.pubkey!)),
          ),
        );
      }
      const rows = await q.orderBy('e.election_id', 'desc').limit(limit).execute();
      const participants = new Map<number, v3.ValidatorElectionParticipant[]>();
      if (withParticipants && rows.length > 0) {
        const ids = rows.map((r) => r.election_id);
        const list = await db
          .selectFrom('validator_election_participants')
          .selectAll()
          .where('election_id', 'in', ids)
          .$if(members.holder !== undefined, (s) => s.where('stake_holder_address', '=', members.holder!))
          .$if(members.adnl !== undefined, (s) => s.where('adnl_addr', '=', members.adnl!))
          .$if(members.pubkey !== undefined, (s) => s.where('validator_pubkey', '=', members.pubkey!))
          .orderBy('election_id', 'desc')
          .orderBy('stake', 'desc')
          .orderBy('validator_pubkey')
          .execute();
        // validator_index: the participant's place in the set the election produced (null when not elected).
        const placed = await db
          .selectFrom('validator_rounds as r')
          .innerJoin('validator_cycles as c', 'c.vset_hash', 'r.vset_hash')
          .innerJoin('validator_cycle_validators as v', 'v.cycle_start', 'c.cycle_start')
          .select(['r.election_id', 'v.validator_pubkey', 'v.validator_index'])
          .where('r.election_id', 'in', ids)
          .execute();
        const indexOf = new Map(placed.map((p) => [`${p.election_id}:${p.validator_pubkey}`, p.validator_index]));
        for (const p of list) {
          const entry = participants.get(p.election_id) ?? [];
          entry.push({
            stake_holder_address: p.stake_holder_address,
            validator_pubkey: p.validator_pubkey,
            adnl_addr: p.adnl_addr,
            stake: p.stake,
            max_factor: num(p.max_factor),
            validator_index: indexOf.get(`${p.election_id}:${p.validator_pubkey}`) ?? null,
          });
          participants.set(p.election_id, entry);
        }
      }
      const elections: v3.ValidatorElection[] = rows.map((r) => ({
        election_id: r.election_id,
        elect_close: r.elect_close,
        min_stake: r.min_stake,
        total_stake: r.total_stake,
        total_participants: r.total_participants,
        finished: r.finished,
        failed: r.failed,
        ...(withParticipants ? { participants: participants.get(r.election_id) ?? [] } : {}),
      }));
      const holders = [...participants.values()].flat().map((p) => p.stake_holder_address);
      return { status: 200, body: { elections, address_book: await addressBook(db, holders, testnet) } };
    },

    async getValidatorCycles({ query }) {
      const withValidators = query.return_validators === true;
      const limit = rowsFor(query.limit, withValidators, 'return_validators');
      const members = memberFilter(query);
      // A cycle is a set joined with the past election that produced it (true stakes); a set no election produced
      // (a chain's genesis set) is not a cycle.
      let q = db
        .selectFrom('validator_cycles as c')
        .innerJoin('validator_rounds as r', 'r.vset_hash', 'c.vset_hash')
        .selectAll('c')
        .select(['r.election_id', 'r.total_stake', 'r.min_stake', 'r.max_stake']);
      if (query.cycle_start !== undefined) q = q.where('c.cycle_start', '=', query.cycle_start);
      if (query.election_id !== undefined) q = q.where('r.election_id', '=', query.election_id);
      if (query.start_utime !== undefined) q = q.where('c.cycle_start', '>=', query.start_utime);
      if (query.end_utime !== undefined) q = q.where('c.cycle_start', '<=', query.end_utime);
      if (members.adnl !== undefined || members.pubkey !== undefined) {
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('validator_cycle_validators as v')
              .select(sql`1`.as('one'))
              .whereRef('v.cycle_start', '=', 'c.cycle_start')
              .$if(members.adnl !== undefined, (s) => s.where('v.adnl_addr', '=', members.adnl!))
              .$if(members.pubkey !== undefined, (s) => s.where('v.validator_pubkey', '=', members.pubkey!)),
          ),
        );
      }
      if (members.holder !== undefined) {
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('validator_round_stakes as s')
              .select(sql`1`.as('one'))
              .whereRef('s.election_id', '=', 'r.election_id')
              .where('s.stake_holder_address', '=', members.holder!)
              .$if(members.pubkey !== undefined, (s) => s.where('s.validator_pubkey', '=', members.pubkey!)),
          ),
        );
      }
      const rows = await q.orderBy('c.cycle_start', 'desc').limit(limit).execute();
      const validatorsOf = new Map<number, v3.ValidatorCycleValidator[]>();
      if (withValidators && rows.length > 0) {
        const starts = rows.map((r) => r.cycle_start);
        const ids = rows.map((r) => r.election_id);
        const [list, stakes, factors, complaintRows] = await Promise.all([
          db
            .selectFrom('validator_cycle_validators')
            .selectAll()
            .where('cycle_start', 'in', starts)
            .$if(members.adnl !== undefined, (s) => s.where('adnl_addr', '=', members.adnl!))
            .$if(members.pubkey !== undefined, (s) => s.where('validator_pubkey', '=', members.pubkey!))
            .orderBy('cycle_start', 'desc')
            .orderBy('validator_index')
            .execute(),
          db
            .selectFrom('validator_round_stakes')
            .select(['election_id', 'validator_pubkey', 'stake', 'stake_holder_address'])
            .where('election_id', 'in', ids)
            .execute(),
          db
            .selectFrom('validator_election_participants')
            .select(['election_id', 'validator_pubkey', 'max_factor'])
            .where('election_id', 'in', ids)
            .execute(),
          db
            .selectFrom('validator_complaints')
            .selectAll()
            .where('election_id', 'in', ids)
            .orderBy('created_at', 'desc')
            .orderBy('complaint_hash')
            .execute(),
        ]);
        const electionOf = new Map(rows.map((r) => [r.cycle_start, r.election_id]));
        const stakeOf = new Map(stakes.map((s) => [`${s.election_id}:${s.validator_pubkey}`, s]));
        const factorOf = new Map(factors.map((f) => [`${f.election_id}:${f.validator_pubkey}`, num(f.max_factor)]));
        const complaints = await complaintsReply(db, complaintRows);
        for (const v of list) {
          const key = `${electionOf.get(v.cycle_start)}:${v.validator_pubkey}`;
          const stake = stakeOf.get(key);
          if (members.holder !== undefined && stake?.stake_holder_address !== members.holder) continue;
          const entry = validatorsOf.get(v.cycle_start) ?? [];
          entry.push({
            validator_index: v.validator_index,
            validator_pubkey: v.validator_pubkey,
            adnl_addr: v.adnl_addr ?? '',
            stake_holder_address: stake?.stake_holder_address ?? null,
            ...(stake ? { stake: stake.stake } : {}),
            ...(factorOf.has(key) ? { max_factor: factorOf.get(key)! } : {}),
            weight: v.weight,
            complaints: complaints.filter((c) => `${c.election_id}:${c.validator_pubkey}` === key),
          });
          validatorsOf.set(v.cycle_start, entry);
        }
      }
      const num32 = (v: string | null) => (v === null ? undefined : num(v));
      const cycles: v3.ValidatorCycle[] = rows.map((r) => ({
        cycle_start: r.cycle_start,
        cycle_end: r.cycle_end,
        election_id: r.election_id,
        total: r.total,
        main: r.main,
        total_weight: r.total_weight,
        total_stake: r.total_stake,
        min_stake: r.min_stake,
        max_stake: r.max_stake,
        validators_elected_for: r.validators_elected_for ?? undefined,
        elections_start_before: r.elections_start_before ?? undefined,
        elections_end_before: r.elections_end_before ?? undefined,
        stake_held_for: r.stake_held_for ?? undefined,
        max_validators: r.max_validators ?? undefined,
        max_main_validators: r.max_main_validators ?? undefined,
        min_validators: r.min_validators ?? undefined,
        min_stake_limit: r.min_stake_limit ?? undefined,
        max_stake_limit: r.max_stake_limit ?? undefined,
        min_total_stake: r.min_total_stake ?? undefined,
        max_stake_factor: num32(r.max_stake_factor),
        ...(withValidators ? { validators: validatorsOf.get(r.cycle_start) ?? [] } : {}),
      }));
      const holders = [...validatorsOf.values()]
        .flat()
        .flatMap((v) => [v.stake_holder_address, ...(v.complaints ?? []).map((c) => c.reward_address)]);
      return { status: 200, body: { cycles, address_book: await addressBook(db, holders, testnet) } };
    },

    async getValidatorEvents({ query }) {
      const members = memberFilter(query);
      const rows = await db
        .selectFrom('validator_events')
        .selectAll()
        .$if(members.holder !== undefined, (s) => s.where('stake_holder_address', '=', members.holder!))
        .$if(members.adnl !== undefined, (s) => s.where('adnl_addr', '=', members.adnl!))
        .$if(members.pubkey !== undefined, (s) => s.where('validator_pubkey', '=', members.pubkey!))
        .$if(query.type !== undefined, (s) => s.where('type', '=', query.type!))
        .$if(query.start_utime !== undefined, (s) => s.where('utime', '>=', query.start_utime!))
        .$if(query.end_utime !== undefined, (s) => s.where('utime', '<=', query.end_utime!))
        .orderBy('utime', 'desc')
        .orderBy('tx_lt', 'desc')
        .orderBy('tx_hash', 'desc')
        .limit(query.limit)
        .execute();
      const events: v3.ValidatorEvent[] = rows.map((r) => ({
        type: r.type,
        utime: r.utime,
        tx_hash: r.tx_hash,
        tx_lt: r.tx_lt,
        stake_holder_address: r.stake_holder_address,
        ...(r.election_id !== null ? { election_id: r.election_id } : {}),
        validator_pubkey: r.validator_pubkey,
        adnl_addr: r.adnl_addr,
        amount: r.amount,
        query_id: r.query_id,
        reason: r.reason,
      }));
      return {
        status: 200,
        body: {
          events,
          address_book: await addressBook(
            db,
            rows.map((r) => r.stake_holder_address),
            testnet,
          ),
          start_utime: query.start_utime ?? null,
          end_utime: query.end_utime ?? null,
        },
      };
    },

    async getValidatorComplaints({ query }) {
      const members = memberFilter(query);
      let q = db.selectFrom('validator_complaints as k').selectAll('k');
      if (query.election_id !== undefined) q = q.where('k.election_id', '=', query.election_id);
      if (query.cycle_start !== undefined) {
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('validator_rounds as r')
              .innerJoin('validator_cycles as c', 'c.vset_hash', 'r.vset_hash')
              .select(sql`1`.as('one'))
              .whereRef('r.election_id', '=', 'k.election_id')
              .where('c.cycle_start', '=', query.cycle_start!),
          ),
        );
      }
      if (query.start_utime !== undefined) q = q.where('k.created_at', '>=', query.start_utime);
      if (query.end_utime !== undefined) q = q.where('k.created_at', '<=', query.end_utime);
      if (members.pubkey !== undefined) q = q.where('k.validator_pubkey', '=', members.pubkey);
      if (members.holder !== undefined) {
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('validator_round_stakes as s')
              .select(sql`1`.as('one'))
              .whereRef('s.election_id', '=', 'k.election_id')
              .whereRef('s.validator_pubkey', '=', 'k.validator_pubkey')
              .where('s.stake_holder_address', '=', members.holder!),
          ),
        );
      }
      if (members.adnl !== undefined) {
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('validator_cycles as c')
              .innerJoin('validator_cycle_validators as v', 'v.cycle_start', 'c.cycle_start')
              .select(sql`1`.as('one'))
              .whereRef('c.vset_hash', '=', 'k.vset_id')
              .whereRef('v.validator_pubkey', '=', 'k.validator_pubkey')
              .where('v.adnl_addr', '=', members.adnl!),
          ),
        );
      }
      const rows = await q
        .orderBy('k.created_at', 'desc')
        .orderBy('k.election_id', 'desc')
        .orderBy('k.complaint_hash')
        .limit(query.limit)
        .execute();
      const complaints = await complaintsReply(db, rows);
      return {
        status: 200,
        body: {
          complaints,
          address_book: await addressBook(
            db,
            complaints.flatMap((c) => [c.stake_holder_address, c.reward_address]),
            testnet,
          ),
        },
      };
    },
  };
}
