/**
 * A nominator pool's full round on the devnet, over real HTTP on both networks: the seeded pool's operator stakes it
 * in an election of the devnet's elector (24 s cycles), a new nominator deposits while the stake is out (a pending
 * deposit) and asks to withdraw, the elector returns the stake with the round's bonuses, the pool shares the reward,
 * activates the deposit and pays the withdrawal (op 2). The API's events and rewards are checked against the pool's
 * get-methods at the blocks of those transactions. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { internal, toNano, type Address } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { decodeNominatorPoolData } from '@tongate/contracts';
import { signerFromSeed, walletTransferBoc, type Devnet, type PoolSeedSummary } from '@tongate/devnet';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useKeyedGateway } from './gateway-fixture.js';
import { until } from './service.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

const suite = useKeyedGateway({ devnetBlockIntervalMs: 500, devnetElectionCycleS: 24 });
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

// Both networks' suites run side by side: each waits on its own devnet's election cycle (wall clock, little CPU);
// within one network the steps stay in order (it.sequential).
describe.each(['mainnet', 'testnet'] as const)('a nominator pool round on %s', { concurrent: true }, (network) => {
  let devnet: Devnet;
  let pools: PoolSeedSummary;
  let carol: WalletContractV4;
  const carolKey = signerFromSeed(Buffer.alloc(32, network === 'mainnet' ? 7 : 8));

  const v3 = async (path: string, params: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${suite.service.ports[network]}/api/v3/${path}?${new URLSearchParams(params)}`, {
      headers: { 'X-API-Key': suite.keys[network] },
    });
    const body = (await res.json()) as any;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  const poolData = async (mcSeqno?: number) => {
    const state = await devnet.getAccountState(pools.nominatorPool, mcSeqno);
    return decodeNominatorPoolData(state.data!);
  };
  /** The masterchain block of a pool transaction, by its hash in the index. */
  const blockOf = async (txHash: string) => (await v3('transactions', { hash: txHash })).transactions[0].mc_block_seqno as number;
  const events = async (params: Record<string, string>) =>
    (await v3('staking/nominatorPools/nominatorEvents', { pool: raw(pools.nominatorPool), ...params })).events as any[];
  /** A comment transfer from a wallet (seqno 0 deploys it); bounceable unless it funds an undeployed wallet. */
  const sendFrom = async (
    wallet: WalletContractV4,
    key: ReturnType<typeof signerFromSeed>,
    to: Address,
    value: bigint,
    comment: string,
    bounce = true,
  ) => {
    const seqno = Number(((await devnet.runGetMethod(wallet.address, 'seqno', [])).stack[0] as { value: bigint } | undefined)?.value ?? 0n);
    await devnet.sendMessage(await walletTransferBoc(wallet, key, seqno, [internal({ to, value, bounce, body: comment })]));
  };

  beforeAll(async () => {
    devnet = suite.service.gateway.devnets[network]!;
    const seed = await devnet.seed();
    pools = seed.pools;
    expect(pools.staking).toBe(true);
    carol = WalletContractV4.create({ workchain: 0, publicKey: carolKey.publicKey });
    const faucet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    await sendFrom(faucet, signerFromSeed(devnet.faucet.secretKey), carol.address, toNano('3000'), 'devnet pool nominator', false);
  });

  it.sequential('the operator stakes the pool; a deposit while staked is pending, a w is a withdrawal request', async () => {
    await until('the pool staked at the elector', 90_000, async () => (await poolData()).state === 2);
    await until('carol deployed', 30_000, async () => (await devnet.getAccountState(carol.address)).balance > 0n);
    await sendFrom(carol, carolKey, pools.nominatorPool, toNano('1001'), 'd');
    await until('carol pending', 30_000, async () =>
      (await poolData()).nominators.some((n) => n.address.equals(carol.address) && n.pendingDepositAmount === toNano('1000')),
    );
    await sendFrom(carol, carolKey, pools.nominatorPool, toNano('1'), 'w');
    await until('carol withdraw request', 30_000, async () =>
      (await poolData()).nominators.some((n) => n.address.equals(carol.address) && n.withdrawRequested),
    );
    const carolEvents = await until('carol events indexed', 30_000, async () => {
      const list = await events({ nominator: raw(carol.address) });
      return list.length >= 2 ? list : null;
    });
    expect(carolEvents.slice(-2).map((e) => [e.type, e.amount, e.pending_balance_after, e.withdraw_request_after])).toEqual([
      ['withdrawal_request', toNano('1000').toString(), toNano('1000').toString(), true],
      ['deposit', toNano('1000').toString(), toNano('1000').toString(), false],
    ]);
  });

  it.sequential(
    'the returned stake: rewards as the pool split them, the pending deposit activated, the request paid',
    async () => {
      const bob = pools.nominators[1]!;
      const reward = await until('a reward indexed', 150_000, async () => {
        const page = await v3('staking/nominatorPools/nominatorRewards', { pool: raw(pools.nominatorPool), nominator: raw(bob) });
        return page.rewards.length > 0 ? page : null;
      });
      const row = reward.rewards.at(-1);
      expect(reward.total_on_page).toBe(reward.rewards.reduce((s: bigint, r: any) => s + BigInt(r.reward), 0n).toString());
      // Against the pool itself: bob's amount before and after that transaction.
      const mcSeqno = await blockOf(row.tx_hash);
      const before = await poolData(mcSeqno - 1);
      const after = await poolData(mcSeqno);
      const bobBefore = before.nominators.find((n) => n.address.equals(bob))!;
      const bobAfter = after.nominators.find((n) => n.address.equals(bob))!;
      expect(row.stake_before).toBe(bobBefore.amount.toString());
      expect(BigInt(row.reward)).toBe(bobAfter.amount - bobBefore.amount);
      expect(BigInt(row.reward)).toBeGreaterThan(0n);
      // The validator's part, by the pool's share (40 %): bob is the only staked nominator, so he has the rest.
      const validatorRewards = await v3('staking/nominatorPools/validatorRewards', {
        pool: raw(pools.nominatorPool),
        validator: raw(pools.validator),
      });
      const validatorRow = validatorRewards.rewards.find((r: any) => r.tx_hash === row.tx_hash);
      expect(validatorRow).toMatchObject({
        balance_before: before.validatorAmount.toString(),
        reward: (after.validatorAmount - before.validatorAmount).toString(),
        cycle_start: before.stakeAt,
      });
      const total = BigInt(validatorRow.reward) + BigInt(row.reward);
      expect(BigInt(validatorRow.reward)).toBe((total * BigInt(pools.validatorRewardShare)) / 10000n);
      const validatorEvents = await v3('staking/nominatorPools/validatorEvents', { pool: raw(pools.nominatorPool), type: 'reward' });
      expect(validatorEvents.events.find((e: any) => e.tx_hash === row.tx_hash)).toMatchObject({
        amount: validatorRow.reward,
        validator_reward_share: pools.validatorRewardShare,
      });
      // carol: her pending deposit joined her amount in the same transaction, then op 2 paid her out.
      const carolEvents = await until('carol paid out', 60_000, async () => {
        const list = await events({ nominator: raw(carol.address) });
        return list.some((e) => e.type === 'withdrawal') ? list : null;
      });
      expect(carolEvents.find((e) => e.type === 'pending_deposit_activation')).toMatchObject({
        tx_hash: row.tx_hash,
        amount: toNano('1000').toString(),
        balance_after: toNano('1000').toString(),
        pending_balance_after: '0',
      });
      expect(carolEvents.find((e) => e.type === 'withdrawal')).toMatchObject({
        amount: toNano('1000').toString(),
        balance_before: toNano('1000').toString(),
        balance_after: '0',
        withdraw_request_before: true,
      });
      expect((await v3('staking/nominatorPools/nominator', { nominator: raw(carol.address) })).nominator_pools).toEqual([]);
    },
    240_000,
  );
});
