/**
 * The pools derivation's events, from the recorded mainnet nominator pool run in the sandbox: each step is a real
 * transaction of the recorded code, and the events must be what the contract did to each nominator's entry.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Address, Cell, beginCell, comment, toNano } from '@ton/core';
import { Blockchain, createShardAccount } from '@ton/sandbox';
import { ELECTOR_OPS, decodeNominatorPoolData, splitRecoveredStake, type NominatorPoolData } from '@tongate/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import { poolBlockEvents, type PoolTransaction } from '../src/derive/pools.js';

const ACCOUNTS = fileURLToPath(new URL('../../../../shared/fixtures/accounts/nominator-pool/', import.meta.url));
const fixture = (file: string) => readFileSync(ACCOUNTS + file, 'utf8');
const expected = JSON.parse(fixture('expected.json'));
const POOL = Address.parseRaw(expected['data-2.boc.b64'].address);
const POOL_RAW = `-1:${POOL.hash.toString('hex').toUpperCase()}`;
const ELECTOR = Address.parseRaw('-1:' + '3'.repeat(64));
const NEWCOMER = Address.parseRaw('0:' + 'ab'.repeat(32));
const raw = (a: Address) => `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;

let chain: Blockchain;
let lt = 1000n;

/** Delivers one message to the pool and returns it as the derivation sees it, with the pool's data before/after. */
async function step(from: Address, value: bigint, body: Cell): Promise<{ tx: PoolTransaction; before: NominatorPoolData; after: NominatorPoolData }> {
  const before = decodeNominatorPoolData(await poolData());
  const result = await chain.sendMessage({
    info: { type: 'internal', src: from, dest: POOL, value: { coins: value }, bounce: true, bounced: false, ihrDisabled: true, ihrFee: 0n, forwardFee: 0n, createdLt: 0n, createdAt: chain.now ?? 0 },
    body,
  });
  const poolTx = result.transactions.find((t) => t.inMessage?.info.dest?.toString() === POOL.toString())!;
  const compute = poolTx.description.type === 'generic' ? poolTx.description.computePhase : null;
  const tx: PoolTransaction = {
    hash: poolTx.hash().toString('base64'),
    lt: (lt += 10n),
    utime: chain.now!,
    aborted: !(compute?.type === 'vm' && compute.success),
    deploys: false,
    source: raw(from),
    value,
    body,
  };
  return { tx, before, after: decodeNominatorPoolData(await poolData()) };
}

async function poolData(): Promise<Cell> {
  const state = (await chain.getContract(POOL)).accountState;
  if (state?.type !== 'active') throw new Error('pool not active');
  return state.state.data!;
}

/** The recorded pool with another validator reward share (both recorded pools keep 0), so the split shows. */
function withRewardShare(data: Cell, share: number): Cell {
  const s = data.beginParse();
  const head = s.loadBits(8 + 16);
  const sent = s.loadCoins();
  const validatorAmount = s.loadCoins();
  const config = s.loadRef().beginParse();
  const validator = config.loadBits(256);
  config.skip(16);
  const newConfig = beginCell().storeBits(validator).storeUint(share, 16).storeSlice(config).endCell();
  return beginCell().storeBits(head).storeCoins(sent).storeCoins(validatorAmount).storeRef(newConfig).storeSlice(s).endCell();
}

const SHARE = 4000;

beforeAll(async () => {
  chain = await Blockchain.create();
  chain.now = 1_700_000_000;
  const code = Cell.fromBase64(fixture('code.boc.b64'));
  const data = withRewardShare(Cell.fromBase64(fixture('data-2.boc.b64')), SHARE);
  await chain.setShardAccount(POOL, createShardAccount({ address: POOL, code, data, balance: toNano('700000'), workchain: -1 }));
});

describe('pools derivation on the recorded nominator pool', () => {
  let pendingDeposit: bigint;

  it('a d while staked is a deposit into the pending balance', async () => {
    const { tx, before, after } = await step(NEWCOMER, toNano('1500'), comment('d'));
    expect(tx.aborted).toBe(false);
    const { nominator, validator } = poolBlockEvents(POOL_RAW, before, after, [tx]);
    pendingDeposit = toNano('1499');
    expect(nominator).toEqual([
      expect.objectContaining({ type: 'deposit', nominator: raw(NEWCOMER), amount: pendingDeposit, balance_before: 0n, balance_after: 0n, pending_balance_before: 0n, pending_balance_after: pendingDeposit, tx_hash: tx.hash }),
    ]);
    expect(validator).toEqual([]);
  });

  it('a w while staked is a withdrawal request', async () => {
    const who = decodeNominatorPoolData(await poolData()).nominators[0]!;
    const { tx, before, after } = await step(who.address, toNano('1'), comment('w'));
    const { nominator } = poolBlockEvents(POOL_RAW, before, after, [tx]);
    expect(nominator).toEqual([
      expect.objectContaining({ type: 'withdrawal_request', nominator: raw(who.address), amount: who.amount, withdraw_request_before: false, withdraw_request_after: true, balance_before: who.amount, balance_after: who.amount }),
    ]);
  });

  it('the returned stake gives each nominator its reward and activates the pending deposit', async () => {
    const pool = decodeNominatorPoolData(await poolData());
    const reward = toNano('5000');
    const recovered = pool.stakeAmountSent + reward;
    const split = splitRecoveredStake(pool, recovered);
    const body = beginCell().storeUint(ELECTOR_OPS.recoverStakeResponse, 32).storeUint(7, 64).endCell();
    const { tx, before, after } = await step(ELECTOR, recovered, body);
    expect(after.state).toBe(0);
    const { nominator, validator } = poolBlockEvents(POOL_RAW, before, after, [tx]);
    const rewards = nominator.filter((e) => e.type === 'reward');
    // Every nominator with stake got a reward event, of exactly the contract's share; they add up to the nominators' part.
    expect(rewards.map((e) => e.nominator).sort()).toEqual(before.nominators.filter((n) => n.amount > 0n).map((n) => raw(n.address)).sort());
    for (const e of rewards) {
      const b = before.nominators.find((n) => raw(n.address) === e.nominator)!;
      const a = after.nominators.find((n) => raw(n.address) === e.nominator)!;
      expect(BigInt(e.amount as bigint)).toBe(a.amount - b.amount - b.pendingDepositAmount);
      expect(e.balance_before).toBe(b.amount);
      expect(a.amount).toBe(split.nominators.find((n) => n.address.equals(b.address))!.amount);
    }
    const total = rewards.reduce((s, e) => s + (e.amount as bigint), 0n);
    expect(total <= split.nominatorsReward && total > split.nominatorsReward - BigInt(rewards.length)).toBe(true);
    expect(nominator.filter((e) => e.type === 'pending_deposit_activation')).toEqual([
      expect.objectContaining({ nominator: raw(NEWCOMER), amount: pendingDeposit, balance_before: 0n, balance_after: pendingDeposit, pending_balance_before: pendingDeposit, pending_balance_after: 0n }),
    ]);
    expect(split.validatorAmountAfter - pool.validatorAmount).toBe((reward * BigInt(SHARE)) / 10000n);
    expect(validator).toEqual([
      expect.objectContaining({ type: 'reward', validator_reward_share: SHARE, amount: split.validatorAmountAfter - pool.validatorAmount, balance_before: pool.validatorAmount, balance_after: split.validatorAmountAfter, cycle_start: pool.stakeAt, query_id: 7n }),
    ]);
    expect(after.validatorAmount).toBe(split.validatorAmountAfter);
  });

  it('processing withdraw requests (op 2) is the requester\'s withdrawal', async () => {
    const body = beginCell().storeUint(2, 32).storeUint(0, 64).storeUint(10, 8).endCell();
    const { tx, before, after } = await step(NEWCOMER, toNano('1'), body);
    const requester = before.nominators.find((n) => n.withdrawRequested)!;
    const { nominator } = poolBlockEvents(POOL_RAW, before, after, [tx]);
    expect(nominator).toEqual([expect.objectContaining({ type: 'withdrawal', nominator: raw(requester.address), amount: requester.amount, balance_after: 0n, withdraw_request_before: true })]);
  });

  it('a stake returned short is a penalty on the validator; the nominators keep their amounts', async () => {
    // Stake the pool again by hand: state 2 with the whole nominators' amount sent, as after an accepted new_stake.
    const pool = decodeNominatorPoolData(await poolData());
    const total = pool.nominators.reduce((s, n) => s + n.amount, 0n);
    const data = (await poolData()).beginParse();
    data.skip(8);
    const staked = beginCell().storeUint(2, 8).storeBits(data.loadBits(16)).storeCoins(total);
    data.loadCoins();
    await chain.setShardAccount(POOL, createShardAccount({ address: POOL, code: Cell.fromBase64(fixture('code.boc.b64')), data: staked.storeSlice(data).endCell(), balance: toNano('10'), workchain: -1 }));
    const loss = toNano('3');
    const body = beginCell().storeUint(ELECTOR_OPS.recoverStakeResponse, 32).storeUint(8, 64).endCell();
    const { tx, before, after } = await step(ELECTOR, total - loss, body);
    const { nominator, validator } = poolBlockEvents(POOL_RAW, before, after, [tx]);
    expect(validator).toEqual([expect.objectContaining({ type: 'penalty', amount: -loss, balance_before: before.validatorAmount, balance_after: before.validatorAmount - loss })]);
    expect(after.validatorAmount).toBe(before.validatorAmount - loss);
    expect(nominator.length).toBe(before.nominators.length);
    expect(nominator.every((e) => e.type === 'reward' && e.amount === 0n)).toBe(true);
  });

  it('a pool first met mid-life sets the baseline only; aborted transactions yield nothing', async () => {
    const data = decodeNominatorPoolData(await poolData());
    const tx: PoolTransaction = { hash: 'h', lt: 1n, utime: 1, aborted: false, deploys: false, source: raw(NEWCOMER), value: toNano('2'), body: comment('d') };
    expect(poolBlockEvents(POOL_RAW, null, data, [tx])).toEqual({ nominator: [], validator: [] });
    const { nominators, ...rest } = data;
    expect(poolBlockEvents(POOL_RAW, { ...rest, nominators: [] }, data, [{ ...tx, aborted: true }]).nominator).toEqual([]);
  });
});
