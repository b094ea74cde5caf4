/**
 * `/staking/nominatorPools/*` over real HTTP against the composed service (devnet → indexer with the pools
 * derivation → store → handlers → front door, 200 bodies validated against the spec), on both networks. The devnet
 * seed's pools run the recorded mainnet code; what v3 answers is compared with the pools' own get-methods.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { TupleReader, type Address } from '@ton/core';
import { readListNominators } from '@tongate/contracts';
import type { Devnet, PoolSeedSummary } from '@tongate/devnet';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useKeyedGateway } from './gateway-fixture.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 0 });
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const TON = 1_000_000_000n;

describe.each(['mainnet', 'testnet'] as const)('nominator pools on %s', (network) => {
  let devnet: Devnet;
  let base: string;
  let pools: PoolSeedSummary;

  const v3 = async (path: string, params: Record<string, string> = {}) => {
    const res = await fetch(`${base}/api/v3/staking/nominatorPools/${path}?${new URLSearchParams(params)}`, {
      headers: { 'X-API-Key': suite.keys[network] },
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  const ok = async (path: string, params: Record<string, string> = {}) => {
    const r = await v3(path, params);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  const friendly = (a: Address) => a.toString({ testOnly: network === 'testnet' });
  const stack = async (address: Address, method: string) => new TupleReader((await devnet.runGetMethod(address, method, [])).stack);

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    base = `http://127.0.0.1:${suite.service.ports[network]}`;
    const seed = await devnet.seed();
    pools = seed.pools;
    await suite.service.gateway.indexers[network]!.waitFor(seed.lastBlock.seqno);
  });

  it('pool: the nominator pool as its get_pool_data and list_nominators answer', async () => {
    const body = await ok('pool', { pool: friendly(pools.nominatorPool) });
    const data = await stack(pools.nominatorPool, 'get_pool_data');
    const [state, count, sent, validatorAmount, validator, share, max, minValidator, minNominator] = [
      data.readNumber(),
      data.readNumber(),
      data.readBigNumber(),
      data.readBigNumber(),
      data.readBigNumber(),
      data.readNumber(),
      data.readNumber(),
      data.readBigNumber(),
      data.readBigNumber(),
    ];
    expect(body).toMatchObject({
      validator_address: `-1:${validator.toString(16).padStart(64, '0').toUpperCase()}`,
      validator_reward_share: share,
      validator_amount: validatorAmount.toString(),
      min_validator_stake: minValidator.toString(),
      min_nominator_stake: minNominator.toString(),
      max_nominators_count: max,
      nominators_count: count,
      stake_amount_sent: sent.toString(),
      state,
    });
    expect(body.validator_address).toBe(raw(pools.validator));
    expect(validatorAmount).toBe(pools.validatorDeposit);
    const listed = readListNominators(await stack(pools.nominatorPool, 'list_nominators'));
    expect(listed.length).toBeGreaterThan(0);
    expect(body.active_nominators).toEqual(
      listed.map((n) => ({ address: raw(n.address), balance: n.amount.toString(), pending_balance: n.pendingDepositAmount.toString() })),
    );
    expect(body.address_book[raw(pools.nominatorPool)].user_friendly).toBe(
      pools.nominatorPool.toString({ urlSafe: true, bounceable: true, testOnly: network === 'testnet' }),
    );
  });

  it('pool: a single-nominator pool — idle (nothing at the elector), the owner holding the balance', async () => {
    const body = await ok('pool', { pool: raw(pools.singleNominatorPool) });
    const data = await stack(pools.singleNominatorPool, 'get_pool_data');
    // get_pool_data answers state 2 always (so that mytonctrl always tries to recover); the index follows the stake.
    expect(data.readNumber()).toBe(2);
    expect(body).toMatchObject({
      state: 0,
      stake_amount_sent: '0',
      nominators_count: data.readNumber(),
      validator_address: raw(pools.singleNominatorValidator),
    });
    const balance = (await devnet.getAccountState(pools.singleNominatorPool)).balance;
    expect(body.active_nominators).toEqual([{ address: raw(pools.owner), balance: balance.toString(), pending_balance: '0' }]);
  });

  it('pool: 404 for an account that is not a pool, 422 for a malformed address', async () => {
    expect(await v3('pool', { pool: raw(pools.validator) })).toEqual({ status: 404, body: { error: 'nominator pool not found' } });
    const bad = await v3('pool', { pool: 'not-an-address' });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/pool/);
    expect((await v3('pool')).status).toBe(422);
  });

  it('nominator: every pool a nominator is in, as the pools hold it', async () => {
    const [alice, bob] = pools.nominators as [Address, Address];
    const listed = readListNominators(await stack(pools.nominatorPool, 'list_nominators'));
    const bobEntry = listed.find((n) => n.address.equals(bob))!;
    expect((await ok('nominator', { nominator: friendly(bob) })).nominator_pools).toEqual([
      {
        pool_address: raw(pools.nominatorPool),
        balance: bobEntry.amount.toString(),
        pending_balance: bobEntry.pendingDepositAmount.toString(),
      },
    ]);
    // alice left the pool with `w`.
    expect((await ok('nominator', { nominator: raw(alice) })).nominator_pools).toEqual([]);
    expect((await ok('nominator', { nominator: raw(pools.owner) })).nominator_pools).toEqual([
      expect.objectContaining({ pool_address: raw(pools.singleNominatorPool), pending_balance: '0' }),
    ]);
  });

  it('nominatorEvents: the deposits and the withdrawal, newest first, adding up to each entry', async () => {
    const [alice, bob] = pools.nominators as [Address, Address];
    const { events, start_utime, end_utime } = await ok('nominatorEvents', { pool: raw(pools.nominatorPool) });
    expect([start_utime, end_utime]).toEqual([null, null]);
    const own = events.filter((e: any) => e.nominator_address === raw(alice) || e.nominator_address === raw(bob));
    const triples = own.map((e: any) => [e.type, e.nominator_address, e.amount]);
    expect(triples.slice(0, 2)).toEqual([
      ['withdrawal', raw(alice), pools.deposits[0]!.amount.toString()],
      ['deposit', raw(bob), pools.deposits[2]!.amount.toString()],
    ]);
    // The first two deposits share a block: their order is their lt order, which the test does not fix.
    expect(triples.slice(2)).toEqual(
      expect.arrayContaining([
        ['deposit', raw(bob), pools.deposits[1]!.amount.toString()],
        ['deposit', raw(alice), pools.deposits[0]!.amount.toString()],
      ]),
    );
    expect(triples).toHaveLength(4);
    expect(BigInt(own[2].tx_lt)).toBeGreaterThan(BigInt(own[3].tx_lt));
    for (const e of events) {
      expect(BigInt(e.balance_delta)).toBe(BigInt(e.balance_after) - BigInt(e.balance_before));
      // The event's transaction is the pool's, in the index.
      const tx = await fetch(`${base}/api/v3/transactions?${new URLSearchParams({ hash: e.tx_hash })}`, {
        headers: { 'X-API-Key': suite.keys[network] },
      }).then((r) => r.json() as any);
      expect(tx.transactions[0]).toMatchObject({ account: raw(pools.nominatorPool), lt: e.tx_lt, now: e.utime });
    }
    const withdrawal = own[0];
    expect(withdrawal).toMatchObject({
      balance_before: pools.deposits[0]!.amount.toString(),
      balance_after: '0',
      withdraw_request_before: false,
      withdraw_request_after: false,
    });
    // Bob's events end at what the pool holds for him.
    const bobEvents = await ok('nominatorEvents', { pool: raw(pools.nominatorPool), nominator: friendly(bob) });
    const entry = await devnet.runGetMethod(pools.nominatorPool, 'get_nominator_data', [
      { type: 'int', value: BigInt('0x' + bob.hash.toString('hex')) },
    ]);
    expect(bobEvents.events[0].balance_after).toBe(new TupleReader(entry.stack).readBigNumber().toString());
    expect(bobEvents.events.every((e: any) => e.nominator_address === raw(bob))).toBe(true);
  });

  it('nominatorEvents: a single-nominator pool — the owner’s deposits and withdrawal, with the account’s balances', async () => {
    const pool = pools.singleNominatorPool;
    const { events } = await ok('nominatorEvents', { pool: friendly(pool) });
    expect(events.map((e: any) => [e.type, e.nominator_address, e.amount])).toEqual([
      ['withdrawal', raw(pools.owner), pools.singleNominatorWithdrawal.toString()],
      ['deposit', raw(pools.owner), pools.singleNominatorDeposits[1]!.amount.toString()],
      ['deposit', raw(pools.owner), pools.singleNominatorDeposits[0]!.amount.toString()],
    ]);
    for (const e of events) {
      expect(e).toMatchObject({
        pool_address: raw(pool),
        pending_balance_before: '0',
        pending_balance_after: '0',
        pending_balance_delta: '0',
        withdraw_request_before: false,
        withdraw_request_after: false,
      });
      // The owner's balance is the pool account's: before and after are its states around the event's block (the
      // seed gives each of these transactions a block of its own).
      const tx = (await devnet.getTransaction(pool, BigInt(e.tx_lt)))!;
      expect(tx.hash.toString('base64')).toBe(e.tx_hash);
      const seqno = tx.block.seqno;
      const inBlock = (await devnet.listBlockTransactions(tx.block, { count: 100 })).transactions.filter((t) =>
        t.account.equals(pool.hash),
      );
      expect(inBlock).toHaveLength(1);
      expect(e.balance_before).toBe((await devnet.getAccountState(pool, seqno - 1)).balance.toString());
      expect(e.balance_after).toBe((await devnet.getAccountState(pool, seqno)).balance.toString());
      expect(BigInt(e.balance_delta)).toBe(BigInt(e.balance_after) - BigInt(e.balance_before));
    }
    // The withdrawal left the pool short by what it paid out (and the storage fee): the owner got it.
    const [withdrawal] = events;
    expect(BigInt(withdrawal.balance_before) - BigInt(withdrawal.balance_after)).toBeGreaterThanOrEqual(pools.singleNominatorWithdrawal);
    expect(BigInt(withdrawal.balance_before) - BigInt(withdrawal.balance_after) - pools.singleNominatorWithdrawal).toBeLessThan(TON / 100n);
    // Attributed to the owner, the pool's only nominator; the last balance is what /pool shows for the owner now.
    expect((await ok('nominatorEvents', { pool: raw(pool), nominator: friendly(pools.owner) })).events).toEqual(events);
    expect((await ok('nominatorEvents', { pool: raw(pool), nominator: raw(pools.singleNominatorValidator) })).events).toEqual([]);
    const now = await ok('pool', { pool: raw(pool) });
    expect(now.active_nominators[0].balance).toBe(withdrawal.balance_after);
  });

  it('nominatorEvents: the newest rows of a time window, older ones by moving end_utime back; errors', async () => {
    const all = (await ok('nominatorEvents', { pool: raw(pools.nominatorPool) })).events;
    expect(all.length).toBeGreaterThanOrEqual(4);
    // Older rows are read by moving end_utime back: the window holds exactly the rows at or before it.
    const newest = all[0].utime;
    const older = (await ok('nominatorEvents', { pool: raw(pools.nominatorPool), end_utime: String(newest - 1) })).events;
    expect(older).toEqual(all.filter((e: any) => e.utime <= newest - 1));
    const last = all[0];
    const windowed = await ok('nominatorEvents', {
      pool: raw(pools.nominatorPool),
      start_utime: String(last.utime),
      end_utime: String(last.utime),
    });
    expect(windowed.events.every((e: any) => e.utime === last.utime)).toBe(true);
    expect([windowed.start_utime, windowed.end_utime]).toEqual([last.utime, last.utime]);
    expect((await v3('nominatorEvents', { pool: raw(pools.nominatorPool), start_utime: '20', end_utime: '10' })).status).toBe(422);
    // limit (default 100, at most 1000) cuts the newest rows off the same order.
    for (const n of [1, 2, 3])
      expect((await ok('nominatorEvents', { pool: raw(pools.nominatorPool), limit: String(n) })).events).toEqual(all.slice(0, n));
    for (const limit of ['0', '1001', 'ten']) {
      expect(await v3('nominatorEvents', { pool: raw(pools.nominatorPool), limit })).toMatchObject({
        status: 422,
        body: { error: expect.stringMatching(/limit/) },
      });
    }
    expect(await v3('nominatorEvents', { pool: raw(pools.nominatorPool), offset: '1' })).toMatchObject({
      status: 422,
      body: { error: expect.stringMatching(/offset/) },
    });
    expect((await v3('nominatorEvents', {})).status).toBe(422);
    expect((await ok('nominatorEvents', { pool: raw(pools.validator) })).events).toEqual([]);
  });

  it('validatorEvents: the validator deposit (op 4), by pool or by validator; type filter; one of them required', async () => {
    const byPool = await ok('validatorEvents', { pool: raw(pools.nominatorPool) });
    expect(byPool.events).toEqual([
      expect.objectContaining({
        type: 'deposit',
        pool_address: raw(pools.nominatorPool),
        validator_address: raw(pools.validator),
        amount: pools.validatorDeposit.toString(),
        balance_before: '0',
        balance_after: pools.validatorDeposit.toString(),
        balance_delta: pools.validatorDeposit.toString(),
        validator_reward_share: pools.validatorRewardShare,
      }),
    ]);
    expect((await ok('validatorEvents', { validator: friendly(pools.validator) })).events).toEqual(byPool.events);
    expect((await ok('validatorEvents', { validator: raw(pools.validator), type: 'reward' })).events).toEqual([]);
    expect(await v3('validatorEvents', {})).toEqual({ status: 422, body: { error: 'validator or pool is required' } });
    expect((await v3('validatorEvents', { pool: raw(pools.nominatorPool), type: 'bonus' })).status).toBe(422);
  });

  it('rewards: nothing recovered yet — empty pages with total_on_page 0; required parameters', async () => {
    const [, bob] = pools.nominators as [Address, Address];
    expect(await ok('nominatorRewards', { pool: raw(pools.nominatorPool), nominator: raw(bob) })).toMatchObject({
      rewards: [],
      total_on_page: '0',
    });
    expect(await ok('validatorRewards', { pool: raw(pools.nominatorPool), validator: raw(pools.validator) })).toMatchObject({
      rewards: [],
      total_on_page: '0',
    });
    expect((await v3('nominatorRewards', { pool: raw(pools.nominatorPool) })).status).toBe(422);
    expect((await v3('validatorRewards', { validator: raw(pools.validator) })).status).toBe(422);
    expect(TON).toBe(10n ** 9n);
  });
});
