import { createHash } from 'node:crypto';
import { Address, Cell } from '@ton/core';
import {
  decodeConfigParam15,
  decodeConfigParam16,
  decodeConfigParam17,
  decodeElectorData,
  decodeValidatorSet,
  electorEvent,
  validatorBonus,
  type ElectorEvent,
  type ElectorState,
  type ElectionTiming,
  type StakeLimits,
  type ValidatorCounts,
  type ValidatorSet,
} from '@tongate/contracts';
import type { ValidatorsDatabase } from './tables.js';
import type { Insertable, Transaction } from 'kysely';
import { rawAddress } from '../../address.js';
import type { BlockDerivation, DerivationContext, McBlockBatch } from '../../block.js';

/**
 * Validators: the elector's open election (snapshotted on every elector state change, since the elector deletes it
 * once the set is installed), its past-elections entries (true stakes, bonuses and complaints, kept after the elector
 * unfreezes them), the validator sets of config 32/34 with the election config of 15/16/17, and the stake events of
 * the elector's transactions (new stake accepted / rejected with the elector's reason, stake recovered).
 */

type ValidatorTable = keyof Pick<
  ValidatorsDatabase,
  | 'validator_elections'
  | 'validator_election_participants'
  | 'validator_rounds'
  | 'validator_round_stakes'
  | 'validator_cycles'
  | 'validator_cycle_validators'
  | 'validator_complaints'
  | 'validator_events'
>;
type Row<T extends ValidatorTable> = Insertable<ValidatorsDatabase[T]>;

/** Rows per INSERT (an election has hundreds of participants; the parameter count of one statement is bounded). */
const CHUNK = 200;

export interface CycleSet {
  set: ValidatorSet;
  timing: ElectionTiming | null;
  counts: ValidatorCounts | null;
  limits: StakeLimits | null;
}

export interface ValidatorsPrepared {
  /** The elector's state after this block, when the block changed it; the lt of its last transaction. */
  elector: { state: ElectorState; lt: string } | null;
  events: Row<'validator_events'>[];
  /** Param 32 / 34 when param 34 differs from the one last seen. */
  sets: CycleSet[];
}

const hex = (b: Buffer) => b.toString('hex');
const raw = (a: Address) => rawAddress(a.workChain, a.hash);

/** The election row and its participants from the elector's open election. */
export function electionRows(
  state: ElectorState,
  lt: string,
): { election: Row<'validator_elections'>; participants: Row<'validator_election_participants'>[] } | null {
  const e = state.election;
  if (!e) return null;
  return {
    election: {
      election_id: e.electAt,
      elect_close: e.electClose,
      min_stake: e.minStake,
      total_stake: e.totalStake,
      total_participants: e.participants.length,
      failed: e.failed,
      finished: e.finished,
      last_lt: lt,
    },
    participants: e.participants.map((p) => ({
      election_id: e.electAt,
      validator_pubkey: p.validatorPubkey,
      stake_holder_address: raw(p.stakeHolderAddress),
      adnl_addr: p.adnlAddr,
      stake: p.stake,
      max_factor: BigInt(p.maxFactor),
      stake_time: p.time,
    })),
  };
}

/** A past-elections entry as rows: the round, its frozen stakes with each holder's bonus share, its complaints. */
export function roundRows(state: ElectorState): {
  round: Row<'validator_rounds'>;
  stakes: Row<'validator_round_stakes'>[];
  complaints: Row<'validator_complaints'>[];
  fingerprint: string;
}[] {
  return state.pastElections.map((p) => {
    const stakes = p.frozen.map((f) => ({
      election_id: p.electionId,
      validator_pubkey: f.validatorPubkey,
      stake_holder_address: raw(f.stakeHolderAddress),
      weight: f.weight,
      stake: f.stake,
      banned: f.banned,
      reward: f.banned ? 0n : validatorBonus(p.bonuses, f.stake, p.totalStake),
    }));
    const trueStakes = p.frozen.map((f) => f.stake);
    const complaints = p.complaints.map((c) => ({
      election_id: p.electionId,
      complaint_hash: c.complaintHash,
      validator_pubkey: c.complaint.validatorPubkey,
      created_at: c.complaint.createdAt,
      severity: c.complaint.severity,
      reward_address: raw(c.complaint.rewardAddress),
      paid: c.complaint.paid,
      suggested_fine: c.complaint.suggestedFine,
      suggested_fine_part: BigInt(c.complaint.suggestedFinePart),
      description_boc: c.complaint.description.toBoc().toString('base64'),
      vset_id: c.vsetId,
      weight_remaining: c.weightRemaining,
      voters: JSON.stringify(c.voters),
    }));
    // What changes in an entry over its life: bonuses, fines (stakes, bans) and complaints. Rows are rewritten only
    // when this changes, not on every stake message of the next election.
    const fingerprint = createHash('sha256')
      .update(`${p.unfreezeAt}:${p.bonuses}:${p.totalStake}:`)
      .update(stakes.map((s) => `${s.validator_pubkey}:${s.stake}:${s.banned}`).join(','))
      .update(complaints.map((c) => `${c.complaint_hash}:${c.weight_remaining}:${c.voters}`).join(','))
      .digest('hex');
    return {
      round: {
        election_id: p.electionId,
        vset_hash: p.vsetHash,
        unfreeze_at: p.unfreezeAt,
        stake_held: p.stakeHeld,
        total_stake: p.totalStake,
        bonuses: p.bonuses,
        min_stake: trueStakes.length ? trueStakes.reduce((a, b) => (b < a ? b : a)) : 0n,
        max_stake: trueStakes.length ? trueStakes.reduce((a, b) => (b > a ? b : a)) : 0n,
        unfrozen: false,
        fingerprint,
      },
      stakes,
      complaints,
      fingerprint,
    };
  });
}

/** A validator set that became param 34 (or was the previous one, 32) as a cycle and its validators. */
export function cycleRows({ set, timing, counts, limits }: CycleSet): {
  cycle: Row<'validator_cycles'>;
  validators: Row<'validator_cycle_validators'>[];
} {
  return {
    cycle: {
      cycle_start: set.utimeSince,
      cycle_end: set.utimeUntil,
      vset_hash: set.hash,
      total: set.total,
      main: set.main,
      total_weight: set.totalWeight,
      validators_elected_for: timing?.validatorsElectedFor ?? null,
      elections_start_before: timing?.electionsStartBefore ?? null,
      elections_end_before: timing?.electionsEndBefore ?? null,
      stake_held_for: timing?.stakeHeldFor ?? null,
      max_validators: counts?.maxValidators ?? null,
      max_main_validators: counts?.maxMainValidators ?? null,
      min_validators: counts?.minValidators ?? null,
      min_stake_limit: limits?.minStake ?? null,
      max_stake_limit: limits?.maxStake ?? null,
      min_total_stake: limits?.minTotalStake ?? null,
      max_stake_factor: limits ? BigInt(limits.maxStakeFactor) : null,
    },
    validators: set.validators.map((v) => ({
      cycle_start: set.utimeSince,
      validator_index: v.index,
      validator_pubkey: v.pubkey,
      adnl_addr: v.adnlAddr,
      weight: v.weight,
    })),
  };
}

export function eventRow(event: ElectorEvent, tx: { hash: string; lt: string; now: number }): Row<'validator_events'> {
  const common = {
    tx_hash: tx.hash,
    tx_lt: tx.lt,
    utime: tx.now,
    type: event.type,
    stake_holder_address: raw(event.stakeHolderAddress),
    amount: event.amount,
    query_id: event.queryId,
  };
  if (event.type === 'stake_recovered') return { ...common, validator_pubkey: null, adnl_addr: null, election_id: null, reason: null };
  return {
    ...common,
    validator_pubkey: event.validatorPubkey,
    adnl_addr: event.adnlAddr,
    election_id: event.electionId,
    reason: event.reason,
  };
}

/** The stake events of the elector's transactions in a block (bounced or aborted ones make none). */
export function electorEvents(batch: McBlockBatch, elector: string): Row<'validator_events'>[] {
  const bodies = new Map(batch.contents.map((c) => [c.hash, c.body]));
  const body = (hash: string) => {
    const boc = bodies.get(hash);
    return boc ? Cell.fromBase64(boc) : null;
  };
  const events: Row<'validator_events'>[] = [];
  for (const tx of batch.transactions) {
    if (tx.account !== elector || tx.aborted) continue;
    const messages = batch.messages.filter((m) => m.tx_hash === tx.hash);
    const inbound = messages.find((m) => m.direction === 'in');
    if (!inbound?.source || inbound.bounced || inbound.value === null || inbound.value === undefined) continue;
    const inBody = body(inbound.body_hash);
    if (!inBody) continue;
    const outbound = messages
      .filter((m) => m.direction === 'out')
      .flatMap((m) => {
        const b = body(m.body_hash);
        return b ? [{ body: b, value: BigInt(m.value ?? 0) }] : [];
      });
    const event = electorEvent(Address.parse(inbound.source), { body: inBody, value: BigInt(inbound.value) }, outbound);
    if (event) events.push(eventRow(event, { hash: tx.hash, lt: String(tx.lt), now: tx.now }));
  }
  return events;
}

async function insertChunks<T extends ValidatorTable>(
  trx: Transaction<ValidatorsDatabase>,
  table: T,
  rows: Row<T>[],
  conflict: (keyof ValidatorsDatabase[T] & string)[] | null,
  update: (keyof ValidatorsDatabase[T] & string)[] = [],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const q = trx.insertInto(table).values(rows.slice(i, i + CHUNK) as never);
    if (!conflict) {
      await q.execute();
      continue;
    }
    await q
      .onConflict((oc) => {
        const target = oc.columns(conflict as never);
        if (update.length === 0) return target.doNothing();
        return target.doUpdateSet(
          Object.fromEntries(update.map((c) => [c, (eb: { ref(c: string): unknown }) => eb.ref(`excluded.${c}`)])) as never,
        );
      })
      .execute();
  }
}

async function writeElector(trx: Transaction<ValidatorsDatabase>, state: ElectorState, lt: string): Promise<void> {
  const election = electionRows(state, lt);
  if (election) {
    const { election: row, participants } = election;
    await insertChunks(
      trx,
      'validator_elections',
      [row],
      ['election_id'],
      ['elect_close', 'min_stake', 'total_stake', 'total_participants', 'failed', 'finished', 'last_lt'],
    );
    // The participant list is replaced whole: a stake merges into a member's entry, and no member ever leaves.
    await trx.deleteFrom('validator_election_participants').where('election_id', '=', row.election_id).execute();
    await insertChunks(trx, 'validator_election_participants', participants, null);
  }
  const rounds = roundRows(state);
  const known = new Map(
    (await trx.selectFrom('validator_rounds').select(['election_id', 'fingerprint']).where('unfrozen', '=', false).execute()).map((r) => [
      r.election_id,
      r.fingerprint,
    ]),
  );
  for (const r of rounds) {
    if (known.get(r.round.election_id) === r.fingerprint) continue;
    await insertChunks(
      trx,
      'validator_rounds',
      [r.round],
      ['election_id'],
      ['vset_hash', 'unfreeze_at', 'stake_held', 'total_stake', 'bonuses', 'min_stake', 'max_stake', 'unfrozen', 'fingerprint'],
    );
    await insertChunks(
      trx,
      'validator_round_stakes',
      r.stakes,
      ['election_id', 'validator_pubkey'],
      ['stake_holder_address', 'weight', 'stake', 'banned', 'reward'],
    );
    // Votes change voters and weight_remaining, and the first vote in a set also sets vset_id (0 until then).
    await insertChunks(
      trx,
      'validator_complaints',
      r.complaints,
      ['election_id', 'complaint_hash'],
      ['weight_remaining', 'voters', 'vset_id', 'paid'],
    );
  }
  // An entry that left the elector's state was unfrozen: its stakes were credited back to their holders.
  const present = new Set(rounds.map((r) => r.round.election_id));
  const gone = [...known.keys()].filter((id) => !present.has(id));
  if (gone.length > 0) await trx.updateTable('validator_rounds').set({ unfrozen: true }).where('election_id', 'in', gone).execute();
}

/** Config params of the validator sets and the election config, as cycle inputs. */
async function readSets(ctx: DerivationContext, mcSeqno: number, p34: Cell): Promise<CycleSet[]> {
  const [p32, p15, p16, p17] = await Promise.all([32, 15, 16, 17].map((id) => ctx.chain.getConfigParam(id, mcSeqno)));
  const base = {
    timing: p15 ? decodeConfigParam15(p15) : null,
    counts: p16 ? decodeConfigParam16(p16) : null,
    limits: p17 ? decodeConfigParam17(p17) : null,
  };
  return [p32, p34].filter((c): c is Cell => c !== null).map((c) => ({ ...base, set: decodeValidatorSet(c) }));
}

export function validatorsDerivation(): BlockDerivation<ValidatorsPrepared, ValidatorsDatabase> {
  let electorAccount: string | null | undefined;
  /** Param 34's hash as last written (cycles are written when it changes; once more after a restart). */
  let lastP34: string | null = null;
  let pendingP34: string | null = null;
  return {
    name: 'validators',
    async prepare(batch, _db, ctx) {
      if (electorAccount === undefined) {
        const p1 = await ctx.chain.getConfigParam(1, batch.mcSeqno);
        electorAccount = p1 ? rawAddress(-1, p1.beginParse().loadBuffer(32)) : null;
      }
      let elector: ValidatorsPrepared['elector'] = null;
      let events: Row<'validator_events'>[] = [];
      if (electorAccount) {
        const latest = batch.latestAccountStates.find((s) => s.account === electorAccount);
        if (latest?.data_boc)
          elector = { state: decodeElectorData(Cell.fromBase64(latest.data_boc)), lt: String(latest.last_trans_lt ?? 0) };
        events = electorEvents(batch, electorAccount);
      }
      const p34 = await ctx.chain.getConfigParam(34, batch.mcSeqno);
      const p34Hash = p34 ? hex(p34.hash()) : null;
      let sets: CycleSet[] = [];
      if (p34 && p34Hash !== lastP34) {
        sets = await readSets(ctx, batch.mcSeqno, p34);
        pendingP34 = p34Hash;
      }
      return { elector, events, sets };
    },
    async write(trx, _batch, prepared) {
      if (prepared.elector) await writeElector(trx, prepared.elector.state, prepared.elector.lt);
      for (const set of prepared.sets) {
        const { cycle, validators } = cycleRows(set);
        await insertChunks(trx, 'validator_cycles', [cycle], ['cycle_start']);
        await insertChunks(trx, 'validator_cycle_validators', validators, ['cycle_start', 'validator_index']);
      }
      await insertChunks(trx, 'validator_events', prepared.events, ['tx_hash']);
      // Remembered only once written: a block that rolls back is prepared again, sets included.
      if (prepared.sets.length > 0) lastP34 = pendingP34;
    },
  };
}
