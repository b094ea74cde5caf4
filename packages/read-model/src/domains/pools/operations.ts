import type { v3 } from '@tongate/sdk';
import type { PoolsDatabase } from './tables.js';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import type { Kysely } from 'kysely';
import { addressBook } from '../../address-book.js';
import { rawAddress } from '../../address.js';

export type PoolOperations = Pick<
  V3Handlers,
  | 'getNominatorPool'
  | 'getNominatorPoolNominator'
  | 'getNominatorPoolNominatorEvents'
  | 'getNominatorPoolNominatorRewards'
  | 'getNominatorPoolValidatorEvents'
  | 'getNominatorPoolValidatorRewards'
>;

/**
 * `/staking/nominatorPools/*` over the pools derivation's tables (`derive.ts` beside it). Lists come newest
 * first (utime, then lt, then the row's key, a total order); `total_on_page` is the sum of the rewards in the reply, as the hosted API defines it.
 */

/** A nominator is in at most a handful of pools; the bound keeps that reply finite all the same. */
const MAX_POSITIONS = 1000;

interface TimeWindow {
  start_utime?: number;
  end_utime?: number;
}

function checkedWindow(query: TimeWindow): TimeWindow {
  if (query.start_utime !== undefined && query.start_utime < 0) throw new ApiError(422, 'start_utime: must not be negative');
  if (query.end_utime !== undefined && query.end_utime < 0) throw new ApiError(422, 'end_utime: must not be negative');
  if (query.start_utime !== undefined && query.end_utime !== undefined && query.start_utime > query.end_utime) {
    throw new ApiError(422, 'start_utime: must not be after end_utime');
  }
  return query;
}

const sum = (values: string[]) => values.reduce((total, v) => total + BigInt(v), 0n).toString();

export function poolOperations(db: Kysely<PoolsDatabase>, testnet: boolean): PoolOperations {
  const book = (addresses: Iterable<string | null | undefined>) => addressBook(db, addresses, testnet);

  return {
    async getNominatorPool({ query }) {
      const address = rawAddress(query.pool);
      const pool = await db.selectFrom('nominator_pools').selectAll().where('address', '=', address).executeTakeFirst();
      if (!pool) throw new ApiError(404, 'nominator pool not found');
      const members = await db.selectFrom('nominator_pool_members').selectAll().where('pool', '=', address).orderBy('nominator').execute();
      const active_nominators = members.map((m) => ({ address: m.nominator, balance: m.balance, pending_balance: m.pending_balance }));
      const body: v3.NominatorPool = {
        validator_address: pool.validator_address,
        validator_reward_share: pool.validator_reward_share,
        validator_amount: pool.validator_amount,
        min_validator_stake: pool.min_validator_stake,
        min_nominator_stake: pool.min_nominator_stake,
        max_nominators_count: pool.max_nominators_count,
        nominators_count: pool.nominators_count,
        stake_amount_sent: pool.stake_amount_sent,
        state: pool.state,
        active_nominators,
        address_book: await book([address, pool.validator_address, ...members.map((m) => m.nominator)]),
      };
      return { status: 200, body };
    },

    async getNominatorPoolNominator({ query }) {
      const nominator = rawAddress(query.nominator);
      const rows = await db
        .selectFrom('nominator_pool_members')
        .selectAll()
        .where('nominator', '=', nominator)
        .orderBy('pool')
        .limit(MAX_POSITIONS)
        .execute();
      const nominator_pools = rows.map((r) => ({ pool_address: r.pool, balance: r.balance, pending_balance: r.pending_balance }));
      return { status: 200, body: { nominator_pools, address_book: await book([nominator, ...rows.map((r) => r.pool)]) } };
    },

    async getNominatorPoolNominatorEvents({ query }) {
      const pool = rawAddress(query.pool);
      const nominator = query.nominator && rawAddress(query.nominator);
      const { start_utime, end_utime } = checkedWindow(query);
      let q = db.selectFrom('nominator_pool_events').selectAll().where('pool', '=', pool);
      if (nominator) q = q.where('nominator', '=', nominator);
      if (start_utime !== undefined) q = q.where('utime', '>=', start_utime);
      if (end_utime !== undefined) q = q.where('utime', '<=', end_utime);
      const rows = await q
        .orderBy('utime', 'desc')
        .orderBy('tx_lt', 'desc')
        .orderBy('tx_hash')
        .orderBy('nominator')
        .orderBy('type')
        .limit(query.limit)
        .execute();
      const events: v3.NominatorPoolEvent[] = rows.map((r) => ({
        type: r.type as v3.NominatorPoolEvent['type'],
        utime: r.utime,
        tx_hash: r.tx_hash,
        tx_lt: r.tx_lt,
        pool_address: r.pool,
        nominator_address: r.nominator,
        amount: r.amount,
        balance_before: r.balance_before,
        balance_after: r.balance_after,
        balance_delta: (BigInt(r.balance_after) - BigInt(r.balance_before)).toString(),
        pending_balance_before: r.pending_balance_before,
        pending_balance_after: r.pending_balance_after,
        pending_balance_delta: (BigInt(r.pending_balance_after) - BigInt(r.pending_balance_before)).toString(),
        withdraw_request_before: r.withdraw_request_before,
        withdraw_request_after: r.withdraw_request_after,
      }));
      return {
        status: 200,
        body: {
          events,
          start_utime: start_utime ?? null,
          end_utime: end_utime ?? null,
          address_book: await book([pool, ...rows.map((r) => r.nominator)]),
        },
      };
    },

    async getNominatorPoolNominatorRewards({ query }) {
      const pool = rawAddress(query.pool);
      const nominator = rawAddress(query.nominator);
      const { start_utime, end_utime } = checkedWindow(query);
      let q = db
        .selectFrom('nominator_pool_events')
        .selectAll()
        .where('pool', '=', pool)
        .where('nominator', '=', nominator)
        .where('type', '=', 'reward');
      if (start_utime !== undefined) q = q.where('utime', '>=', start_utime);
      if (end_utime !== undefined) q = q.where('utime', '<=', end_utime);
      const rows = await q.orderBy('utime', 'desc').orderBy('tx_lt', 'desc').orderBy('tx_hash').limit(query.limit).execute();
      const rewards: v3.NominatorReward[] = rows.map((r) => ({
        utime: r.utime,
        tx_hash: r.tx_hash,
        tx_lt: r.tx_lt,
        stake_before: r.balance_before,
        reward: r.amount,
      }));
      return {
        status: 200,
        body: {
          rewards,
          total_on_page: sum(rewards.map((r) => r.reward)),
          start_utime: start_utime ?? null,
          end_utime: end_utime ?? null,
          address_book: await book([pool, nominator]),
        },
      };
    },

    async getNominatorPoolValidatorEvents({ query }) {
      if (query.validator === undefined && query.pool === undefined) throw new ApiError(422, 'validator or pool is required');
      const validator = query.validator && rawAddress(query.validator);
      const pool = query.pool && rawAddress(query.pool);
      const { start_utime, end_utime } = checkedWindow(query);
      let q = db.selectFrom('nominator_pool_validator_events').selectAll();
      if (validator) q = q.where('validator', '=', validator);
      if (pool) q = q.where('pool', '=', pool);
      if (query.type !== undefined) q = q.where('type', '=', query.type);
      if (start_utime !== undefined) q = q.where('utime', '>=', start_utime);
      if (end_utime !== undefined) q = q.where('utime', '<=', end_utime);
      const rows = await q
        .orderBy('utime', 'desc')
        .orderBy('tx_lt', 'desc')
        .orderBy('tx_hash')
        .orderBy('type')
        .limit(query.limit)
        .execute();
      const events: v3.NominatorPoolValidatorEvent[] = rows.map((r) => ({
        type: r.type as v3.NominatorPoolValidatorEvent['type'],
        utime: r.utime,
        tx_hash: r.tx_hash,
        tx_lt: r.tx_lt,
        pool_address: r.pool,
        validator_address: r.validator,
        ...(r.cycle_start !== null ? { cycle_start: r.cycle_start } : {}),
        ...(r.query_id !== null ? { query_id: r.query_id } : {}),
        amount: r.amount,
        balance_before: r.balance_before,
        balance_after: r.balance_after,
        balance_delta: (BigInt(r.balance_after) - BigInt(r.balance_before)).toString(),
        validator_reward_share: r.validator_reward_share,
      }));
      return {
        status: 200,
        body: {
          events,
          start_utime: start_utime ?? null,
          end_utime: end_utime ?? null,
          address_book: await book(rows.flatMap((r) => [r.pool, r.validator])),
        },
      };
    },

    async getNominatorPoolValidatorRewards({ query }) {
      const validator = rawAddress(query.validator);
      const pool = rawAddress(query.pool);
      const { start_utime, end_utime } = checkedWindow(query);
      let q = db
        .selectFrom('nominator_pool_validator_events')
        .selectAll()
        .where('pool', '=', pool)
        .where('validator', '=', validator)
        .where('type', '=', 'reward');
      if (start_utime !== undefined) q = q.where('utime', '>=', start_utime);
      if (end_utime !== undefined) q = q.where('utime', '<=', end_utime);
      const rows = await q.orderBy('utime', 'desc').orderBy('tx_lt', 'desc').orderBy('tx_hash').limit(query.limit).execute();
      const rewards: v3.NominatorPoolValidatorReward[] = rows.map((r) => ({
        utime: r.utime,
        tx_hash: r.tx_hash,
        tx_lt: r.tx_lt,
        ...(r.cycle_start !== null ? { cycle_start: r.cycle_start } : {}),
        ...(r.query_id !== null ? { query_id: r.query_id } : {}),
        balance_before: r.balance_before,
        reward: r.amount,
      }));
      return {
        status: 200,
        body: {
          rewards,
          total_on_page: sum(rewards.map((r) => r.reward)),
          start_utime: start_utime ?? null,
          end_utime: end_utime ?? null,
          address_book: await book([pool, validator]),
        },
      };
    },
  };
}
