import {
  ELECTOR_ADDRESS,
  ELECTOR_OPS,
  STAKING_CODE_HASHES,
  decodeNominatorPoolData,
  decodeNominatorPoolMessage,
  decodeSingleNominatorData,
  nominatorChanges,
  type NominatorChange,
  type NominatorPoolData,
  type NominatorPosition,
  type StakingContract,
} from '@tongate/contracts';
import type { PoolsDatabase, NominatorPoolEventsTable, NominatorPoolValidatorEventsTable } from './tables.js';
import { Address, Cell } from '@ton/core';
import type { ChainSource } from '@tongate/chain';
import type { Insertable, Kysely, Transaction } from 'kysely';
import { rawAddress } from '../../address.js';
import type { BlockDerivation, McBlockBatch } from '../../block.js';

/**
 * Nominator pools: pools are recognised by code hash among the accounts a block changed. Each one's data after the
 * block is compared with the data stored after the previous block; every nominator entry that differs becomes
 * events of the pool transaction that caused it (a `d`/`w` comment from that nominator, the elector's stake
 * return, a withdraw-requests run), and the validator's amount is followed message by message as the contract
 * itself accounts it. The diff is per block: two transactions of one nominator in the same block show as one change.
 */

const ONE_TON = 1_000_000_000n;
const ELECTOR_RAW = raw(ELECTOR_ADDRESS);

function raw(address: Address): string {
  return rawAddress(address.workChain, address.hash);
}

/** A pool transaction with what its inbound message says. */
export interface PoolTransaction {
  hash: string;
  lt: bigint;
  utime: number;
  aborted: boolean;
  /** The account did not exist (or was not active) before this transaction: the pool was deployed by it. */
  deploys: boolean;
  source: string | null;
  value: bigint;
  /** The inbound message came back bounced. */
  bounced: boolean;
  body: Cell | null;
  /** What the transaction took from the balance besides the inbound value: its fees, and every message it sent (value,
   * forwarding and IHR fees). `storageFees` is the storage phase's part of `totalFees`. */
  totalFees: bigint;
  storageFees: bigint;
  outflow: bigint;
  /** What the transaction's messages to the elector carried (a stake a single-nominator pool forwarded). */
  toElector?: bigint;
}

type Cause =
  | { kind: 'nominator'; type: 'deposit' | 'withdraw'; nominator: string }
  | { kind: 'recovered'; queryId: bigint }
  | { kind: 'process_withdrawals' }
  | { kind: 'validator_deposit'; queryId: bigint }
  | { kind: 'validator_withdraw'; queryId: bigint; amount: bigint }
  | { kind: 'other' };

function causeOf(tx: PoolTransaction): Cause {
  if (!tx.body || !tx.source) return { kind: 'other' };
  if (tx.source === ELECTOR_RAW) {
    const s = tx.body.beginParse();
    if (s.remainingBits < 96) return { kind: 'other' };
    const op = s.loadUint(32);
    const queryId = s.loadUintBig(64);
    if (op === ELECTOR_OPS.recoverStakeResponse) return { kind: 'recovered', queryId };
    return { kind: 'other' };
  }
  const message = decodeNominatorPoolMessage(tx.body);
  switch (message?.type) {
    case 'deposit':
    case 'withdraw':
      return { kind: 'nominator', type: message.type, nominator: tx.source };
    case 'process_withdraw_requests':
    case 'emergency_process_withdraw_request':
      return { kind: 'process_withdrawals' };
    case 'validator_deposit':
      return { kind: 'validator_deposit', queryId: message.queryId };
    case 'validator_withdraw':
      return { kind: 'validator_withdraw', queryId: message.queryId, amount: message.amount };
    default:
      return { kind: 'other' };
  }
}

export type NominatorEventRow = Insertable<NominatorPoolEventsTable>;
export type ValidatorEventRow = Insertable<NominatorPoolValidatorEventsTable>;

const NONE: NominatorPosition = { amount: 0n, pendingDepositAmount: 0n, withdrawRequested: false };

/** The transaction a nominator's change belongs to: its own comment, else the pool operation that moves entries. */
function causingTransaction(
  change: NominatorChange,
  txs: { tx: PoolTransaction; cause: Cause }[],
): { tx: PoolTransaction; cause: Cause } | undefined {
  const nominator = raw(change.address);
  const last = (match: (c: Cause) => boolean) => txs.filter((t) => match(t.cause)).at(-1);
  return (
    last((c) => c.kind === 'nominator' && c.nominator === nominator) ??
    (change.after === null ? last((c) => c.kind === 'process_withdrawals') : undefined) ??
    (change.before !== null && change.after !== null ? last((c) => c.kind === 'recovered') : undefined) ??
    txs.at(-1)
  );
}

function eventRow(
  pool: string,
  nominator: string,
  tx: PoolTransaction,
  type: string,
  amount: bigint,
  before: NominatorPosition,
  after: NominatorPosition,
): NominatorEventRow {
  return {
    pool,
    nominator,
    type,
    utime: tx.utime,
    tx_hash: tx.hash,
    tx_lt: tx.lt,
    amount,
    balance_before: before.amount,
    balance_after: after.amount,
    pending_balance_before: before.pendingDepositAmount,
    pending_balance_after: after.pendingDepositAmount,
    withdraw_request_before: before.withdrawRequested,
    withdraw_request_after: after.withdrawRequested,
  };
}

/** Events of one nominator's change, read from the entry before and after and from what caused it. */
function changeEvents(pool: string, change: NominatorChange, tx: PoolTransaction, cause: Cause): NominatorEventRow[] {
  const nominator = raw(change.address);
  const before = change.before ?? NONE;
  const after = change.after ?? NONE;
  const row = (type: string, amount: bigint, from: NominatorPosition, to: NominatorPosition) =>
    eventRow(pool, nominator, tx, type, amount, from, to);
  if (cause.kind === 'recovered' && change.before && change.after) {
    // distribute_share: the reward on `amount` first, then the pending deposit joins it.
    const share = after.amount - before.amount - before.pendingDepositAmount;
    const rewarded = { ...before, amount: before.amount + share };
    const events: NominatorEventRow[] = [];
    if (before.amount > 0n) events.push(row('reward', share, before, rewarded));
    if (before.pendingDepositAmount > 0n) events.push(row('pending_deposit_activation', before.pendingDepositAmount, rewarded, after));
    return events;
  }
  const total = (p: NominatorPosition) => p.amount + p.pendingDepositAmount;
  if (change.after === null) return [row('withdrawal', total(before), before, after)];
  if (!before.withdrawRequested && after.withdrawRequested) return [row('withdrawal_request', total(after), before, after)];
  const delta = total(after) - total(before);
  if (delta > 0n) return [row('deposit', delta, before, after)];
  if (delta < 0n) return [row('withdrawal', -delta, before, after)];
  return [];
}

/**
 * The validator's amount through the block's transactions, as `pool.fc` changes it: op 4 adds value − 1 TON, op 5
 * takes the requested amount (never below zero), and the elector's stake return adds the validator's part of the
 * reward or takes the loss.
 */
function validatorEvents(
  pool: string,
  before: NominatorPoolData,
  after: NominatorPoolData,
  txs: { tx: PoolTransaction; cause: Cause }[],
): ValidatorEventRow[] {
  const rows: ValidatorEventRow[] = [];
  let amount = before.validatorAmount;
  const validator = raw(after.validatorAddress);
  const push = (tx: PoolTransaction, type: string, next: bigint, queryId: bigint, cycleStart: number | null, eventAmount: bigint) => {
    rows.push({
      pool,
      validator,
      type,
      utime: tx.utime,
      tx_hash: tx.hash,
      tx_lt: tx.lt,
      cycle_start: cycleStart,
      query_id: queryId,
      amount: eventAmount,
      balance_before: amount,
      balance_after: next,
      validator_reward_share: after.validatorRewardShare,
    });
    amount = next;
  };
  for (const { tx, cause } of txs) {
    if (tx.aborted) continue;
    if (cause.kind === 'validator_deposit') push(tx, 'deposit', amount + tx.value - ONE_TON, cause.queryId, null, tx.value - ONE_TON);
    else if (cause.kind === 'validator_withdraw') {
      const next = amount - cause.amount < 0n ? 0n : amount - cause.amount;
      push(tx, 'withdrawal', next, cause.queryId, null, cause.amount);
    } else if (cause.kind === 'recovered') {
      const reward = tx.value - before.stakeAmountSent;
      const share = reward <= 0n ? reward : (reward * BigInt(after.validatorRewardShare)) / 10000n;
      const next = amount + (share > reward ? reward : share);
      push(tx, reward > 0n ? 'reward' : 'penalty', next < 0n ? 0n : next, cause.queryId, before.stakeAt, (next < 0n ? 0n : next) - amount);
    }
  }
  return rows;
}

/**
 * Events of one TON Foundation pool over one block. `before` is null for a pool first seen in this block: a pool
 * deployed in it starts empty, while one the index meets mid-life only sets the baseline (its history is not known).
 */
export function poolBlockEvents(pool: string, before: NominatorPoolData | null, after: NominatorPoolData, transactions: PoolTransaction[]) {
  const txs = [...transactions].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0)).map((tx) => ({ tx, cause: causeOf(tx) }));
  const live = txs.filter((t) => !t.tx.aborted);
  const nominator: NominatorEventRow[] = [];
  if (live.length === 0 || (before === null && !txs.some((t) => t.tx.deploys))) return { nominator, validator: [] as ValidatorEventRow[] };
  const base = before ?? { ...after, nominators: [], validatorAmount: 0n, stakeAmountSent: 0n };
  const changes = nominatorChanges(base, after);
  for (const change of changes) {
    const caused = causingTransaction(change, live);
    if (caused) nominator.push(...changeEvents(pool, change, caused.tx, caused.cause));
  }
  // A returned stake is a round's result for every nominator that took part, also when its share is zero.
  const recovered = live.filter((t) => t.cause.kind === 'recovered').at(-1);
  if (recovered) {
    const changed = new Set(changes.map((c) => raw(c.address)));
    for (const n of after.nominators) {
      if (changed.has(raw(n.address)) || n.amount === 0n) continue;
      const unchanged = { amount: n.amount, pendingDepositAmount: n.pendingDepositAmount, withdrawRequested: n.withdrawRequested };
      nominator.push(...changeEvents(pool, { address: n.address, before: unchanged, after: unchanged }, recovered.tx, recovered.cause));
    }
  }
  return { nominator, validator: validatorEvents(pool, base, after, live) };
}

/** Owner operations of a single-nominator pool (`single-nominator.fc`): withdraw, change validator, raw message, upgrade. */
const SINGLE_NOMINATOR_OPS = { withdraw: 0x1000, changeValidator: 0x1001, sendRawMessage: 0x7702, upgrade: 0x9903 } as const;
/** What a single-nominator pool always keeps for storage: a withdrawal leaves at least this (`MIN_TON_FOR_STORAGE`). */
const SINGLE_NOMINATOR_RESERVE = ONE_TON;

/** Elector answers a stake holder gets (`elector-code.fc`). */
const ELECTOR_ANSWERS = { stakeAccepted: 0xf374484c, stakeRejected: 0xee6f454c } as const;
const SINGLE_NOMINATOR_NEW_STAKE = 0x4e73744b;

/**
 * A single-nominator pool's stake at the elector, which its contract does not keep: followed from the messages as the
 * TON Foundation pool keeps it in its storage. `state` 0 idle, 1 new_stake sent, 2 stake accepted; `stakeSent` what
 * the pool forwarded to the elector less the elector's confirmation value (what the elector holds for it).
 */
export interface SingleNominatorStake {
  state: number;
  stakeSent: bigint;
}

export const SINGLE_NOMINATOR_IDLE: SingleNominatorStake = { state: 0, stakeSent: 0n };

/**
 * A single-nominator pool's nominator events: its one nominator is the owner, whose position is the pool's balance
 * plus its stake at the elector.
 * `withdrawal`: the owner's withdraw (op 0x1000) pays `min(amount, balance − 1 TON)`, the balance being the one before
 * the message's value is credited (after the storage phase), as the contract computes it. `deposit`: value the pool
 * keeps from anyone — a plain transfer, or a message that is none of the owner's or the validator's operations nor
 * the elector's answers (the stake going to the elector and coming back is not the owner's doing). Balances before and
 * after each transaction follow the chain's value flow from the balance before the block: + inbound value − fees −
 * what the sent messages took; the last one's is the account's balance after the block. `reward`: the elector's
 * recover answer brings the stake back, and the owner's reward is what came back less the stake (negative after a
 * fine); its balances are the owner's position around it (the balance delta is the reward less the transaction's fees).
 */
export function singleNominatorEvents(
  pool: string,
  roles: { owner: string; validator: string },
  balanceBefore: bigint,
  transactions: PoolTransaction[],
  stakeBefore: SingleNominatorStake = SINGLE_NOMINATOR_IDLE,
): NominatorEventRow[] {
  return singleNominatorBlock(pool, roles, balanceBefore, transactions, stakeBefore).events;
}

/** The block's nominator events of a single-nominator pool and its stake at the elector after the block. */
export function singleNominatorBlock(
  pool: string,
  roles: { owner: string; validator: string },
  balanceBefore: bigint,
  transactions: PoolTransaction[],
  stakeBefore: SingleNominatorStake,
): { events: NominatorEventRow[]; stake: SingleNominatorStake } {
  const rows: NominatorEventRow[] = [];
  let balance = balanceBefore;
  let stake = { ...stakeBefore };
  const position = (amount: bigint): NominatorPosition => ({ amount, pendingDepositAmount: 0n, withdrawRequested: false });
  for (const tx of [...transactions].sort((a, b) => (a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0))) {
    const before = balance;
    const after = before + tx.value - tx.totalFees - tx.outflow;
    balance = after;
    const atElector = stake.stakeSent;
    if (tx.aborted || !tx.source) continue;
    const s = tx.body?.beginParse();
    const op = s && s.remainingBits >= 32 ? s.loadUint(32) : null;
    if (tx.source === ELECTOR_RAW) {
      // The elector's answers move the stake; a bounced stake came back whole.
      if (tx.bounced || op === ELECTOR_ANSWERS.stakeRejected) stake = { ...SINGLE_NOMINATOR_IDLE };
      else if (op === ELECTOR_ANSWERS.stakeAccepted) stake = { state: 2, stakeSent: atElector - tx.value > 0n ? atElector - tx.value : 0n };
      else if (op === ELECTOR_OPS.recoverStakeResponse) {
        // Only a stake this index saw go out has a known reward (a pool met mid-life sets its baseline here).
        if (atElector > 0n)
          rows.push(eventRow(pool, roles.owner, tx, 'reward', tx.value - atElector, position(before + atElector), position(after)));
        stake = { ...SINGLE_NOMINATOR_IDLE };
      }
      continue;
    }
    if (tx.source === roles.validator && op === SINGLE_NOMINATOR_NEW_STAKE && (tx.toElector ?? 0n) > 0n) {
      stake = { state: 1, stakeSent: atElector + tx.toElector! };
      continue;
    }
    if (tx.bounced || tx.value <= 0n) continue;
    if (tx.source === roles.owner && op === SINGLE_NOMINATOR_OPS.withdraw) {
      if (!s || s.remainingBits < 64 + 4) continue;
      s.skip(64);
      const requested = s.loadCoins();
      const available = before - tx.storageFees - SINGLE_NOMINATOR_RESERVE;
      const amount = requested < available ? requested : available;
      if (amount > 0n)
        rows.push(eventRow(pool, roles.owner, tx, 'withdrawal', amount, position(before + atElector), position(after + atElector)));
      continue;
    }
    if (tx.source === roles.validator) continue;
    if (tx.source === roles.owner && op !== null && (Object.values(SINGLE_NOMINATOR_OPS) as number[]).includes(op)) continue;
    rows.push(eventRow(pool, roles.owner, tx, 'deposit', tx.value, position(before + atElector), position(after + atElector)));
  }
  return { events: rows, stake };
}

/** The `/pool` figures, as `get_pool_data` answers them. */
interface PoolFigures {
  state: number;
  nominators_count: number;
  stake_amount_sent: bigint;
  validator_amount: bigint;
  validator_reward_share: number;
  max_nominators_count: number;
  min_validator_stake: bigint;
  min_nominator_stake: bigint;
}

interface PoolState {
  address: string;
  kind: StakingContract;
  validator: string;
  figures: PoolFigures;
  dataBoc: string;
  balance: string;
  lastLt: string;
  members: { nominator: string; balance: bigint; pending: bigint; withdrawRequested: boolean }[];
  nominatorEvents: NominatorEventRow[];
  validatorEvents: ValidatorEventRow[];
}

/** The block's transactions of each given account, with their inbound messages decoded once for all pools. */
function poolTransactions(batch: McBlockBatch, accounts: ReadonlySet<string>): Map<string, PoolTransaction[]> {
  const bodies = new Map(batch.contents.map((c) => [c.hash, c.body]));
  const inbound = new Map(batch.messages.filter((m) => m.direction === 'in' && accounts.has(m.tx_account)).map((m) => [m.tx_hash, m]));
  const outflow = new Map<string, bigint>();
  const toElector = new Map<string, bigint>();
  for (const m of batch.messages) {
    if (m.direction !== 'out' || !accounts.has(m.tx_account)) continue;
    const spent = [m.value, m.fwd_fee, m.ihr_fee].reduce<bigint>((sum, v) => sum + (v == null ? 0n : BigInt(v)), 0n);
    outflow.set(m.tx_hash, (outflow.get(m.tx_hash) ?? 0n) + spent);
    if (m.destination === ELECTOR_RAW && m.value != null) toElector.set(m.tx_hash, (toElector.get(m.tx_hash) ?? 0n) + BigInt(m.value));
  }
  const out = new Map<string, PoolTransaction[]>();
  for (const t of batch.transactions) {
    if (!accounts.has(t.account)) continue;
    const m = inbound.get(t.hash);
    const body = m ? bodies.get(m.body_hash) : undefined;
    const description = (typeof t.description === 'string' ? JSON.parse(t.description) : t.description) as {
      storage_ph?: { storage_fees_collected?: string };
    };
    const list = out.get(t.account) ?? [];
    list.push({
      hash: t.hash,
      lt: BigInt(t.lt),
      utime: t.now,
      aborted: t.aborted,
      deploys: t.orig_status !== 'active',
      source: m?.source ?? null,
      value: m?.value == null ? 0n : BigInt(m.value),
      bounced: m?.bounced === true,
      body: body ? Cell.fromBase64(body) : null,
      totalFees: BigInt(t.total_fees),
      storageFees: BigInt(description.storage_ph?.storage_fees_collected ?? 0),
      outflow: outflow.get(t.hash) ?? 0n,
      toElector: toElector.get(t.hash) ?? 0n,
    });
    out.set(t.account, list);
  }
  return out;
}

/**
 * A single-nominator pool's data holds only its roles; the figures come from its `get_pool_data`, the 17-value
 * tuple shaped like the TON Foundation pool's (state, nominators_count, stake_amount_sent, validator_amount,
 * min_stake, deposit_fee, withdraw_fee, pool_fee, receipt_price, …). Null when the method fails.
 */
async function singleNominatorFigures(chain: ChainSource, account: string, mcSeqno: number): Promise<PoolFigures | null> {
  const result = await chain.runGetMethod(Address.parseRaw(account), 'get_pool_data', [], mcSeqno);
  if (result.exitCode !== 0 && result.exitCode !== 1) return null;
  const ints = result.stack.map((item) => (item.type === 'int' ? item.value : 0n));
  if (ints.length < 5) return null;
  return {
    state: Number(ints[0]),
    nominators_count: Number(ints[1]),
    stake_amount_sent: ints[2]!,
    validator_amount: ints[3]!,
    validator_reward_share: 0,
    max_nominators_count: 1,
    min_validator_stake: 0n,
    min_nominator_stake: ints[4]!,
  };
}

const hexOf = (base64: string) => Buffer.from(base64, 'base64').toString('hex');

function decodeOrNull<T>(decode: () => T): T | null {
  try {
    return decode();
  } catch {
    return null;
  }
}

export function poolsDerivation(): BlockDerivation<PoolState[], PoolsDatabase> {
  return {
    name: 'pools',
    async prepare(batch, db, ctx) {
      const found = batch.latestAccountStates.flatMap((s) => {
        const kind = s.code_hash ? STAKING_CODE_HASHES[hexOf(s.code_hash)] : undefined;
        return kind && s.data_boc && s.account_status === 'active' ? [{ state: s, kind }] : [];
      });
      if (found.length === 0) return [];
      const stored = await (db as Kysely<PoolsDatabase>)
        .selectFrom('nominator_pools')
        .select(['address', 'data_boc', 'balance', 'state', 'stake_amount_sent'])
        .where(
          'address',
          'in',
          found.map((f) => f.state.account),
        )
        .execute();
      const previous = new Map(stored.map((r) => [r.address, r.data_boc]));
      const previousStake = new Map(
        stored.map((r): [string, SingleNominatorStake] => [r.address, { state: r.state, stakeSent: BigInt(r.stake_amount_sent) }]),
      );
      const previousBalance = new Map(stored.map((r) => [r.address, BigInt(r.balance)]));
      const transactions = poolTransactions(batch, new Set(found.map((f) => f.state.account)));
      const out: PoolState[] = [];
      for (const { state, kind } of found) {
        const data = Cell.fromBase64(state.data_boc!);
        const txs = transactions.get(state.account) ?? [];
        const lastLt = txs.reduce((m, t) => (t.lt > m ? t.lt : m), 0n).toString();
        const common = { address: state.account, kind, dataBoc: state.data_boc!, balance: String(state.balance), lastLt };
        if (kind === 'nominator_pool_v1') {
          const after = decodeOrNull(() => decodeNominatorPoolData(data));
          if (!after) continue;
          const prevBoc = previous.get(state.account);
          const before = prevBoc ? decodeOrNull(() => decodeNominatorPoolData(Cell.fromBase64(prevBoc))) : null;
          const events = poolBlockEvents(state.account, before, after, txs);
          out.push({
            ...common,
            validator: raw(after.validatorAddress),
            figures: {
              state: after.state,
              nominators_count: after.nominatorsCount,
              stake_amount_sent: after.stakeAmountSent,
              validator_amount: after.validatorAmount,
              validator_reward_share: after.validatorRewardShare,
              max_nominators_count: after.maxNominatorsCount,
              min_validator_stake: after.minValidatorStake,
              min_nominator_stake: after.minNominatorStake,
            },
            members: after.nominators.map((n) => ({
              nominator: raw(n.address),
              balance: n.amount,
              pending: n.pendingDepositAmount,
              withdrawRequested: n.withdrawRequested,
            })),
            nominatorEvents: events.nominator,
            validatorEvents: events.validator,
          });
        } else {
          // A single-nominator pool holds one owner's stake: the owner's position is the account's balance and what is at
          // the elector. Its events are the owner's deposits, withdrawals and rewards.
          const roles = decodeOrNull(() => decodeSingleNominatorData(data));
          const figures = roles && (await singleNominatorFigures(ctx.chain, state.account, batch.mcSeqno));
          if (!roles || !figures) continue;
          // The balance before the block: as stored after the pool's last block, else the chain's at the previous block.
          const before =
            previousBalance.get(state.account) ??
            (batch.mcSeqno > 0 && txs.length > 0
              ? (await ctx.chain.getAccountState(Address.parseRaw(state.account), batch.mcSeqno - 1)).balance
              : 0n);
          const block = singleNominatorBlock(
            state.account,
            { owner: raw(roles.owner), validator: raw(roles.validator) },
            before,
            txs,
            previousStake.get(state.account) ?? SINGLE_NOMINATOR_IDLE,
          );
          out.push({
            ...common,
            validator: raw(roles.validator),
            // get_pool_data answers constants for mytonctrl (state 2, nothing sent): the pool's real stake replaces them.
            figures: { ...figures, state: block.stake.state, stake_amount_sent: block.stake.stakeSent },
            members: [
              {
                nominator: raw(roles.owner),
                balance: BigInt(state.balance) + block.stake.stakeSent,
                pending: 0n,
                withdrawRequested: false,
              },
            ],
            nominatorEvents: block.events,
            validatorEvents: [],
          });
        }
      }
      return out;
    },
    async write(trx: Transaction<PoolsDatabase>, batch, pools) {
      for (const p of pools) {
        const row = {
          kind: p.kind,
          validator_address: p.validator,
          data_boc: p.dataBoc,
          balance: p.balance,
          ...p.figures,
          last_tx_lt: p.lastLt,
          mc_seqno: batch.mcSeqno,
        };
        await trx
          .insertInto('nominator_pools')
          .values({ address: p.address, ...row })
          .onConflict((oc) => oc.column('address').doUpdateSet(row))
          .execute();
        await trx.deleteFrom('nominator_pool_members').where('pool', '=', p.address).execute();
        if (p.members.length > 0) {
          await trx
            .insertInto('nominator_pool_members')
            .values(
              p.members.map((m) => ({
                pool: p.address,
                nominator: m.nominator,
                balance: m.balance,
                pending_balance: m.pending,
                withdraw_requested: m.withdrawRequested,
              })),
            )
            .execute();
        }
        if (p.nominatorEvents.length > 0) await trx.insertInto('nominator_pool_events').values(p.nominatorEvents).execute();
        if (p.validatorEvents.length > 0) await trx.insertInto('nominator_pool_validator_events').values(p.validatorEvents).execute();
      }
    },
  };
}
