/**
 * A single-nominator pool's staking round on the devnet, over real HTTP on both networks: the seeded pool's validator
 * stakes it through the pool in an election of the devnet's elector (24 s cycles), the elector returns it with the
 * round's bonuses, and the API's reward for the owner is checked against the devnet's own transactions: what the pool
 * forwarded to the elector, the elector's confirmation, and the pool's balance change from the recover answer.
 * Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import type { Address } from '@ton/core';
import type { ChainTransaction } from '@tongate/chain';
import { ELECTOR_ADDRESS, type Devnet, type PoolSeedSummary } from '@tongate/devnet';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useKeyedGateway } from './gateway-fixture.js';
import { until } from './service.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 500, devnetElectionCycleS: 24 });
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
const OP = { newStake: 0x4e73744b, stakeAccepted: 0xf374484c, recoverStake: 0x47657424, recoverResponse: 0xf96f7324 };

const opOf = (t: ChainTransaction) => {
  const s = t.tx.inMessage?.body.beginParse();
  return s && s.remainingBits >= 32 ? s.loadUint(32) : null;
};
const valueIn = (t: ChainTransaction) => (t.tx.inMessage?.info.type === 'internal' ? t.tx.inMessage.info.value.coins : 0n);
/** What a transaction did to the account's balance: the inbound value, less its fees and what its messages took. */
const flow = (t: ChainTransaction) =>
  valueIn(t) -
  t.tx.totalFees.coins -
  [...t.tx.outMessages.values()].reduce(
    (s, m) => s + (m.info.type === 'internal' ? m.info.value.coins + m.info.forwardFee + m.info.ihrFee : 0n),
    0n,
  );

// Both networks' suites run side by side: each waits on its own devnet's election cycle (wall clock, little CPU);
// within one network the steps stay in order (it.sequential).
describe.each(['mainnet', 'testnet'] as const)('a single-nominator pool round on %s', { concurrent: true }, (network) => {
  let devnet: Devnet;
  let pools: PoolSeedSummary;

  const v3 = async (path: string, params: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${suite.service.ports[network]}/api/v3/${path}?${new URLSearchParams(params)}`, {
      headers: { 'X-API-Key': suite.keys[network] },
    });
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  /** The pool's transactions on the devnet, newest first. */
  const poolTransactions = async () => {
    const state = await devnet.getAccountState(pools.singleNominatorPool);
    return state.lastTransaction ? devnet.getAccountTransactions(pools.singleNominatorPool, state.lastTransaction, 200) : [];
  };

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    const seed = await devnet.seed();
    pools = seed.pools;
    expect(pools.staking).toBe(true);
    await suite.service.gateway.indexers[network]!.waitFor(seed.lastBlock.seqno);
  });

  it.sequential(
    'while staked, /pool shows the stake at the elector and the owner holding it',
    async () => {
      const pool = raw(pools.singleNominatorPool);
      const staked = await until('the pool staked (indexed)', 120_000, async () => {
        const body = await v3('staking/nominatorPools/pool', { pool });
        return body.state === 2 ? body : null;
      });
      expect(BigInt(staked.stake_amount_sent)).toBeGreaterThan(10_000n * 10n ** 9n);
      expect(staked).toMatchObject({ validator_address: raw(pools.singleNominatorValidator), nominators_count: 1 });
      expect(staked.active_nominators).toHaveLength(1);
      expect(staked.active_nominators[0].address).toBe(raw(pools.owner));
      // The owner's balance counts the stake at the elector with what the pool account holds.
      expect(BigInt(staked.active_nominators[0].balance)).toBeGreaterThan(BigInt(staked.stake_amount_sent));
    },
    150_000,
  );

  it.sequential(
    'the recovered stake: the owner’s reward is the recover answer less what the pool staked, as the pool’s balance shows',
    async () => {
      const pool = raw(pools.singleNominatorPool);
      /** One reward row against the devnet's own record of its round; what the pool's balance says the bonuses were. */
      const check = async (row: any) => {
        // The recover answer, and before it the new_stake the pool forwarded and the elector's confirmation.
        const txs = await poolTransactions();
        const recovered = txs.find((t) => t.hash.toString('base64') === row.tx_hash)!;
        expect(recovered.lt.toString()).toBe(row.tx_lt);
        expect(opOf(recovered)).toBe(OP.recoverResponse);
        expect(recovered.tx.inMessage!.info.src!.toString()).toBe(ELECTOR_ADDRESS.toString());
        const earlier = txs.filter((t) => t.lt < recovered.lt);
        const stakeTx = earlier.find((t) => opOf(t) === OP.newStake)!;
        expect(stakeTx.tx.inMessage!.info.src!.toString()).toBe(pools.singleNominatorValidator.toString());
        const toElector = (t: ChainTransaction) =>
          [...t.tx.outMessages.values()].reduce(
            (s, m) => s + (m.info.type === 'internal' && m.info.dest.equals(ELECTOR_ADDRESS) ? m.info.value.coins : 0n),
            0n,
          );
        const confirmation = earlier.find((t) => opOf(t) === OP.stakeAccepted && t.lt > stakeTx.lt)!;
        const staked = toElector(stakeTx) - valueIn(confirmation);
        // The pool's balance around the recover answer: its block's balances, less what the pool's other transactions of
        // that block moved (the recover request it forwarded to the elector shares the block).
        const blockBefore = (await devnet.getAccountState(pools.singleNominatorPool, recovered.block.seqno - 1)).balance;
        const blockAfter = (await devnet.getAccountState(pools.singleNominatorPool, recovered.block.seqno)).balance;
        const inBlock = txs.filter((t) => t.block.seqno === recovered.block.seqno && t.lt !== recovered.lt);
        const balanceBefore = blockBefore + inBlock.filter((t) => t.lt < recovered.lt).reduce((s, t) => s + flow(t), 0n);
        const balanceAfter = blockAfter - inBlock.filter((t) => t.lt > recovered.lt).reduce((s, t) => s + flow(t), 0n);
        expect(balanceAfter - balanceBefore).toBe(flow(recovered));
        // That change with the answer's fees put back, less the stake, is the reward.
        expect(BigInt(row.reward)).toBe(balanceAfter - balanceBefore + recovered.tx.totalFees.coins - staked);
        expect(BigInt(row.reward)).toBe(valueIn(recovered) - staked);
        expect(BigInt(row.stake_before)).toBe(balanceBefore + staked);
        // The answer carries what is left of the recover request the pool forwarded (the validator's fee) on top of the
        // credit: what the reward has beyond it is the round's bonuses (none in a round the elector had none for).
        const recoverTx = earlier.find((t) => opOf(t) === OP.recoverStake)!;
        const bonus = BigInt(row.reward) - toElector(recoverTx);
        expect(bonus).toBeGreaterThanOrEqual(0n);
        return { balanceBefore, balanceAfter, staked, bonus };
      };
      const checked = new Map<string, Awaited<ReturnType<typeof check>>>();
      // The elector's bonuses come from its unowned balance (the fines of the devnet's complaints among it), so an early
      // round may have none: rounds are checked until one brought bonuses.
      const { page, row } = await until('a reward with bonuses indexed', 220_000, async () => {
        const body = await v3('staking/nominatorPools/nominatorRewards', { pool, nominator: raw(pools.owner) });
        expect(body.total_on_page).toBe(body.rewards.reduce((s: bigint, r: any) => s + BigInt(r.reward), 0n).toString());
        for (const r of body.rewards) if (!checked.has(r.tx_hash)) checked.set(r.tx_hash, await check(r));
        const earning = body.rewards.find((r: any) => checked.get(r.tx_hash)!.bonus > 0n);
        return earning ? { page: body, row: earning } : null;
      });
      expect(page.rewards.length).toBeGreaterThan(0);
      const { balanceBefore, balanceAfter, staked } = checked.get(row.tx_hash)!;
      // The same as a nominator event of the owner, with the owner's position around it.
      const events = (await v3('staking/nominatorPools/nominatorEvents', { pool, nominator: raw(pools.owner) })).events as any[];
      expect(events.find((e) => e.type === 'reward' && e.tx_hash === row.tx_hash)).toMatchObject({
        amount: row.reward,
        balance_before: (balanceBefore + staked).toString(),
        balance_after: balanceAfter.toString(),
        pending_balance_delta: '0',
      });
      // No validator events: a single-nominator pool has no validator's amount.
      expect((await v3('staking/nominatorPools/validatorEvents', { pool })).events).toEqual([]);
    },
    300_000,
  );
});
