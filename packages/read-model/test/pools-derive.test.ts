/**
 * The pools derivation's events, from the recorded mainnet nominator pool run in the sandbox: each step is a real
 * transaction of the recorded code, and the events must be what the contract did to each nominator's entry.
 */
import { readFileSync } from 'node:fs';
import { Address, Cell, beginCell, comment, toNano } from '@ton/core';
import { Blockchain, createShardAccount } from '@ton/sandbox';
import { ELECTOR_OPS, decodeNominatorPoolData, splitRecoveredStake, type NominatorPoolData } from '@tongate/contracts';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  poolBlockEvents,
  singleNominatorBlock,
  singleNominatorEvents,
  SINGLE_NOMINATOR_IDLE,
  type PoolTransaction,
} from '../src/domains/pools/derive.js';
import { fixturePath } from '@tongate/testdata';

const ACCOUNTS = `${fixturePath('accounts', 'nominator-pool')}/`;
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
async function step(
  from: Address,
  value: bigint,
  body: Cell,
): Promise<{ tx: PoolTransaction; before: NominatorPoolData; after: NominatorPoolData }> {
  const before = decodeNominatorPoolData(await poolData());
  const result = await chain.sendMessage({
    info: {
      type: 'internal',
      src: from,
      dest: POOL,
      value: { coins: value },
      bounce: true,
      bounced: false,
      ihrDisabled: true,
      ihrFee: 0n,
      forwardFee: 0n,
      createdLt: 0n,
      createdAt: chain.now ?? 0,
    },
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
    bounced: false,
    body,
    totalFees: poolTx.totalFees.coins,
    storageFees: 0n,
    outflow: 0n,
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
      expect.objectContaining({
        type: 'deposit',
        nominator: raw(NEWCOMER),
        amount: pendingDeposit,
        balance_before: 0n,
        balance_after: 0n,
        pending_balance_before: 0n,
        pending_balance_after: pendingDeposit,
        tx_hash: tx.hash,
      }),
    ]);
    expect(validator).toEqual([]);
  });

  it('a w while staked is a withdrawal request', async () => {
    const who = decodeNominatorPoolData(await poolData()).nominators[0]!;
    const { tx, before, after } = await step(who.address, toNano('1'), comment('w'));
    const { nominator } = poolBlockEvents(POOL_RAW, before, after, [tx]);
    expect(nominator).toEqual([
      expect.objectContaining({
        type: 'withdrawal_request',
        nominator: raw(who.address),
        amount: who.amount,
        withdraw_request_before: false,
        withdraw_request_after: true,
        balance_before: who.amount,
        balance_after: who.amount,
      }),
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
    expect(rewards.map((e) => e.nominator).sort()).toEqual(
      before.nominators
        .filter((n) => n.amount > 0n)
        .map((n) => raw(n.address))
        .sort(),
    );
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
      expect.objectContaining({
        nominator: raw(NEWCOMER),
        amount: pendingDeposit,
        balance_before: 0n,
        balance_after: pendingDeposit,
        pending_balance_before: pendingDeposit,
        pending_balance_after: 0n,
      }),
    ]);
    expect(split.validatorAmountAfter - pool.validatorAmount).toBe((reward * BigInt(SHARE)) / 10000n);
    expect(validator).toEqual([
      expect.objectContaining({
        type: 'reward',
        validator_reward_share: SHARE,
        amount: split.validatorAmountAfter - pool.validatorAmount,
        balance_before: pool.validatorAmount,
        balance_after: split.validatorAmountAfter,
        cycle_start: pool.stakeAt,
        query_id: 7n,
      }),
    ]);
    expect(after.validatorAmount).toBe(split.validatorAmountAfter);
  });

  it("processing withdraw requests (op 2) is the requester's withdrawal", async () => {
    const body = beginCell().storeUint(2, 32).storeUint(0, 64).storeUint(10, 8).endCell();
    const { tx, before, after } = await step(NEWCOMER, toNano('1'), body);
    const requester = before.nominators.find((n) => n.withdrawRequested)!;
    const { nominator } = poolBlockEvents(POOL_RAW, before, after, [tx]);
    expect(nominator).toEqual([
      expect.objectContaining({
        type: 'withdrawal',
        nominator: raw(requester.address),
        amount: requester.amount,
        balance_after: 0n,
        withdraw_request_before: true,
      }),
    ]);
  });

  it('a stake returned short is a penalty on the validator; the nominators keep their amounts', async () => {
    // Stake the pool again by hand: state 2 with the whole nominators' amount sent, as after an accepted new_stake.
    const pool = decodeNominatorPoolData(await poolData());
    const total = pool.nominators.reduce((s, n) => s + n.amount, 0n);
    const data = (await poolData()).beginParse();
    data.skip(8);
    const staked = beginCell().storeUint(2, 8).storeBits(data.loadBits(16)).storeCoins(total);
    data.loadCoins();
    await chain.setShardAccount(
      POOL,
      createShardAccount({
        address: POOL,
        code: Cell.fromBase64(fixture('code.boc.b64')),
        data: staked.storeSlice(data).endCell(),
        balance: toNano('10'),
        workchain: -1,
      }),
    );
    const loss = toNano('3');
    const body = beginCell().storeUint(ELECTOR_OPS.recoverStakeResponse, 32).storeUint(8, 64).endCell();
    const { tx, before, after } = await step(ELECTOR, total - loss, body);
    const { nominator, validator } = poolBlockEvents(POOL_RAW, before, after, [tx]);
    expect(validator).toEqual([
      expect.objectContaining({
        type: 'penalty',
        amount: -loss,
        balance_before: before.validatorAmount,
        balance_after: before.validatorAmount - loss,
      }),
    ]);
    expect(after.validatorAmount).toBe(before.validatorAmount - loss);
    expect(nominator.length).toBe(before.nominators.length);
    expect(nominator.every((e) => e.type === 'reward' && e.amount === 0n)).toBe(true);
  });

  it('a pool first met mid-life sets the baseline only; aborted transactions yield nothing', async () => {
    const data = decodeNominatorPoolData(await poolData());
    const tx: PoolTransaction = {
      hash: 'h',
      lt: 1n,
      utime: 1,
      aborted: false,
      deploys: false,
      source: raw(NEWCOMER),
      value: toNano('2'),
      bounced: false,
      body: comment('d'),
      totalFees: 0n,
      storageFees: 0n,
      outflow: 0n,
    };
    expect(poolBlockEvents(POOL_RAW, null, data, [tx])).toEqual({ nominator: [], validator: [] });
    const { nominators, ...rest } = data;
    expect(poolBlockEvents(POOL_RAW, { ...rest, nominators: [] }, data, [{ ...tx, aborted: true }]).nominator).toEqual([]);
  });
});

/**
 * Single-nominator pools: the recorded mainnet code (fixtures/accounts/single-nominator) run in the sandbox. Each
 * transaction is turned into a PoolTransaction the way the indexer reads it (fees, what the sent messages took), and
 * the events' balances must be the account's real balances around it.
 */
describe('single-nominator pool events', () => {
  const SNP = `${fixturePath('accounts', 'single-nominator')}/`;
  const code = Cell.fromBase64(readFileSync(SNP + 'code.boc.b64', 'utf8').trim());
  // The recorded pool's validator; the owner is a live wallet here, so that payouts land instead of bouncing back.
  const validator = Cell.fromBase64(readFileSync(SNP + 'data.boc.b64', 'utf8').trim())
    .beginParse()
    .skip(267)
    .loadAddress();
  let owner: Address;
  const pool = Address.parseRaw('-1:' + 'cd'.repeat(32));
  const STRANGER = Address.parseRaw('0:' + 'ef'.repeat(32));
  let snp: Blockchain;

  const balance = async () => (await snp.getContract(pool)).balance;

  async function deliver(from: Address, value: bigint, body?: Cell): Promise<{ tx: PoolTransaction; before: bigint; after: bigint }> {
    const before = await balance();
    const result = await snp.sendMessage({
      info: {
        type: 'internal',
        src: from,
        dest: pool,
        value: { coins: value },
        bounce: true,
        bounced: false,
        ihrDisabled: true,
        ihrFee: 0n,
        forwardFee: 0n,
        createdLt: 0n,
        createdAt: snp.now ?? 0,
      },
      body: body ?? Cell.EMPTY,
    });
    const t = result.transactions.find((x) => x.inMessage?.info.dest?.toString() === pool.toString())!;
    const d = t.description.type === 'generic' ? t.description : null;
    const outflow = t.outMessages
      .values()
      .reduce((sum, m) => sum + (m.info.type === 'internal' ? m.info.value.coins + m.info.forwardFee + m.info.ihrFee : 0n), 0n);
    const tx: PoolTransaction = {
      hash: t.hash().toString('base64'),
      lt: t.lt,
      utime: t.now,
      aborted: d?.aborted ?? true,
      deploys: false,
      source: raw(from),
      value,
      bounced: false,
      body: body ?? null,
      totalFees: t.totalFees.coins,
      storageFees: d?.storagePhase?.storageFeesCollected ?? 0n,
      outflow,
      toElector: t.outMessages
        .values()
        .reduce((sum, m) => sum + (m.info.type === 'internal' && m.info.dest.equals(ELECTOR) ? m.info.value.coins : 0n), 0n),
    };
    return { tx, before, after: await balance() };
  }

  const op = (code: number) => beginCell().storeUint(code, 32).storeUint(7, 64);
  let rolesRaw: { owner: string; validator: string };

  beforeAll(async () => {
    snp = await Blockchain.create();
    snp.now = 1_700_000_000;
    owner = (await snp.treasury('owner')).address;
    rolesRaw = { owner: raw(owner), validator: raw(validator) };
    const data = beginCell().storeAddress(owner).storeAddress(validator).endCell();
    await snp.setShardAccount(pool, createShardAccount({ address: pool, code, data, balance: toNano('3') }));
  });

  it('the owner’s top-ups and a stranger’s transfer are deposits; the owner’s withdraw pays min(amount, balance − 1 TON)', async () => {
    const topUp = await deliver(owner, toNano('500'));
    const gift = await deliver(STRANGER, toNano('20'), op(0x12345678).endCell());
    snp.now! += 3600; // storage fees accrue: the withdrawal's limit is the balance after the storage phase
    const withdraw = await deliver(owner, toNano('1'), op(0x1000).storeCoins(toNano('100')).endCell());
    const drain = await deliver(owner, toNano('1'), op(0x1000).storeCoins(toNano('1000000')).endCell());
    const steps = [topUp, gift, withdraw, drain];
    const events = singleNominatorEvents(
      raw(pool),
      rolesRaw,
      topUp.before,
      steps.map((s) => s.tx),
    );
    expect(events.map((e) => e.type)).toEqual(['deposit', 'deposit', 'withdrawal', 'withdrawal']);
    // Balances are the account's real ones around each transaction (the value flow adds up).
    events.forEach((e, i) => {
      expect(e).toMatchObject({
        nominator: raw(owner),
        balance_before: steps[i].before,
        balance_after: steps[i].after,
        pending_balance_before: 0n,
        withdraw_request_after: false,
      });
    });
    expect(events[0].amount).toBe(toNano('500'));
    expect(events[1].amount).toBe(toNano('20'));
    expect(events[2].amount).toBe(toNano('100'));
    // The contract pays what it has beyond its 1 TON reserve, counted after the storage phase: the pool keeps it.
    expect(events[3].amount).toBe(drain.before - drain.tx.storageFees - toNano('1'));
    expect(drain.after).toBe(drain.before - drain.tx.storageFees - BigInt(events[3].amount));
  });

  it('the validator’s and the elector’s messages and aborted or bounced ones are no nominator events', async () => {
    const fromValidator = await deliver(validator, toNano('2'), op(0x47657424).endCell());
    const fromElector = await deliver(ELECTOR, toNano('5'), op(ELECTOR_OPS.recoverStakeResponse).endCell());
    const changeValidator = await deliver(owner, toNano('1'), op(0x1001).storeAddress(validator).endCell());
    const short = await deliver(STRANGER, toNano('3'), beginCell().storeUint(1, 8).endCell());
    expect(short.tx.aborted).toBe(true);
    const txs = [fromValidator, fromElector, changeValidator, short].map((s) => s.tx);
    expect(singleNominatorEvents(raw(pool), rolesRaw, fromValidator.before, [...txs, { ...txs[0], hash: 'b', bounced: true }])).toEqual([]);
  });
  it('the stake the validator sends through the pool and the elector’s recover answer: the owner’s reward, the pool’s staking state', async () => {
    const topUp = await deliver(owner, toNano('20000'));
    // new_stake from the validator: op, query id, the amount, then the elector's body (the pool checks only its shape).
    const signature = beginCell().storeBuffer(Buffer.alloc(64, 1)).endCell();
    const electorBody = beginCell()
      .storeUint(1, 256)
      .storeUint(1_700_000_100, 32)
      .storeUint(3 << 16, 32)
      .storeUint(2, 256)
      .storeRef(signature);
    const amount = toNano('15000');
    const stake = await deliver(validator, toNano('1.5'), op(0x4e73744b).storeCoins(amount).storeBuilder(electorBody).endCell());
    expect(stake.tx.aborted).toBe(false);
    expect(stake.tx.toElector!).toBeGreaterThan(amount);
    const accepted = await deliver(ELECTOR, toNano('1'), op(0xf374484c).endCell());
    const atElector = stake.tx.toElector! - toNano('1');
    const recovered = await deliver(ELECTOR, atElector + toNano('42'), op(ELECTOR_OPS.recoverStakeResponse).endCell());
    const roles = rolesRaw;
    const staked = singleNominatorBlock(raw(pool), roles, topUp.before, [topUp.tx, stake.tx, accepted.tx], SINGLE_NOMINATOR_IDLE);
    expect(staked.stake).toEqual({ state: 2, stakeSent: atElector });
    expect(staked.events.map((e) => e.type)).toEqual(['deposit']);
    // The next block: the answer brings the stake back with 42 TON of bonuses, the owner's reward.
    const back = singleNominatorBlock(raw(pool), roles, recovered.before, [recovered.tx], staked.stake);
    expect(back.stake).toEqual(SINGLE_NOMINATOR_IDLE);
    expect(back.events).toEqual([
      expect.objectContaining({
        type: 'reward',
        nominator: raw(owner),
        amount: toNano('42'),
        balance_before: recovered.before + atElector,
        balance_after: recovered.after,
      }),
    ]);
    // The balance moved by the returned value less the transaction's fees: reward = that change − the stake.
    expect(recovered.after - recovered.before + recovered.tx.totalFees - atElector).toBe(toNano('42'));
    // A rejected stake comes back whole: idle, no reward.
    const rejected = singleNominatorBlock(
      raw(pool),
      roles,
      stake.before,
      [stake.tx, { ...accepted.tx, hash: 'r', body: op(0xee6f454c).endCell() }],
      SINGLE_NOMINATOR_IDLE,
    );
    expect(rejected).toEqual({ events: [], stake: SINGLE_NOMINATOR_IDLE });
  });
});
