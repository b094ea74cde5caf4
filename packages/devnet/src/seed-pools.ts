import { randomBytes } from 'node:crypto';
import { Cell, beginCell, comment, contractAddress, internal, toNano, type Address, type StateInit } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { nominatorPoolCodeBoc, singleNominatorCodeBoc } from './contracts/pool-codes.js';
import { poolValidatorSigner, signerFromSeed, type Ed25519Signer } from './keys.js';
import type { DevnetWallet } from './wallets.js';
import type { Actor, SeedSend } from './seed.js';

export interface PoolSeedSummary {
  /** TON Foundation nominator pool (masterchain), its validator wallet (masterchain) and its nominators. */
  nominatorPool: Address;
  validator: Address;
  validatorRewardShare: number;
  nominators: Address[];
  /** Net amounts credited by each `d` comment (value − the pool's 1 TON processing fee), in order. */
  deposits: { nominator: Address; amount: bigint }[];
  /** The validator's own deposit (op 4), net of the 1 TON fee. */
  validatorDeposit: bigint;
  /** The nominator that left with `w` (paid out at once: the pool holds no stake at the elector). */
  withdrawn: Address;
  /** Single-nominator pool (masterchain) with its owner, who deposited and then withdrew part, and its validator's
   * wallet (masterchain; its own, so that the two pools' operators never race for one wallet's seqno). */
  singleNominatorPool: Address;
  owner: Address;
  singleNominatorValidator: Address;
  /** Values the single-nominator pool kept, in order: the faucet's deploy, then the owner's transfer. */
  singleNominatorDeposits: { from: Address; amount: bigint }[];
  /** What the owner asked to withdraw (op 0x1000). */
  singleNominatorWithdrawal: bigint;
  /** True when the pools' operators run: they stake the pools in the elections and recover the stakes. */
  staking: boolean;
}

/** What the devnet needs to run a pool's validator software. */
export interface PoolOperatorTarget {
  kind: 'nominator_pool' | 'single_nominator';
  address: Address;
  validatorWallet: DevnetWallet;
  walletSigner: Ed25519Signer;
  validatorKey: Ed25519Signer;
}

const NOMINATOR_POOL_CODE = () => Cell.fromBase64(nominatorPoolCodeBoc);
const SINGLE_NOMINATOR_CODE = () => Cell.fromBase64(singleNominatorCodeBoc);
/** The pool keeps 1 TON of every deposit for processing (`DEPOSIT_PROCESSING_FEE`). */
const DEPOSIT_FEE = toNano('1');
/** The owner's deposit: enough for the pool to stake on its own in a devnet election (the elector's least stake is
 * 10 000 TON), below the devnet validators' stakes (from 20 000 TON), so that they are elected whatever it does. */
const SINGLE_NOMINATOR_DEPOSIT = toNano('15050');

/** A fresh nominator pool's data: idle, no nominators, this config (`pool.fc` storage layout). */
export function nominatorPoolInit(
  validator: Address,
  config: { rewardShare: number; maxNominators: number; minValidatorStake: bigint; minNominatorStake: bigint },
): { address: Address; init: StateInit } {
  const configCell = beginCell()
    .storeBuffer(validator.hash)
    .storeUint(config.rewardShare, 16)
    .storeUint(config.maxNominators, 16)
    .storeCoins(config.minValidatorStake)
    .storeCoins(config.minNominatorStake)
    .endCell();
  const data = beginCell()
    .storeUint(0, 8) // state: idle
    .storeUint(0, 16) // nominators_count
    .storeCoins(0) // stake_amount_sent
    .storeCoins(0) // validator_amount
    .storeRef(configCell)
    .storeBit(0) // nominators
    .storeBit(0) // withdraw_requests
    .storeUint(0, 32) // stake_at
    .storeUint(0, 256) // saved_validator_set_hash
    .storeUint(0, 8) // validator_set_changes_count
    .storeUint(0, 32) // validator_set_change_time
    .storeUint(0, 32) // stake_held_for
    .storeBit(0) // config_proposal_votings
    .endCell();
  const init = { code: NOMINATOR_POOL_CODE(), data };
  return { address: contractAddress(-1, init), init };
}

export function singleNominatorInit(owner: Address, validator: Address): { address: Address; init: StateInit } {
  const init = { code: SINGLE_NOMINATOR_CODE(), data: beginCell().storeAddress(owner).storeAddress(validator).endCell() };
  return { address: contractAddress(-1, init), init };
}

const opBody = (op: number, queryId: bigint) => beginCell().storeUint(op, 32).storeUint(queryId, 64);

function freshActor(workchain: number): Actor {
  const signer = signerFromSeed(randomBytes(32));
  return { wallet: WalletContractV4.create({ workchain, publicKey: signer.publicKey }), signer, seqno: 0 };
}

/**
 * Staking pools with activity (amounts large enough for the pool to stake in a devnet election: the elector takes
 * stakes from 10 000 TON, and the validator's own amount must cover the recommended fine): a TON Foundation nominator pool whose validator deposits (op 4) and whose two
 * nominators deposit with `d` (one twice) before one leaves with `w`; and a single-nominator pool that its owner
 * funds and withdraws from (op 0x1000), staked by its own validator. The pools run their recorded mainnet code.
 */
export async function seedPools(
  globalId: number,
  faucet: Actor,
  send: SeedSend,
  produceBlock: () => Promise<unknown>,
  startOperator: (pool: PoolOperatorTarget) => boolean,
): Promise<PoolSeedSummary> {
  const validator = freshActor(-1);
  const singleValidator = freshActor(-1);
  const [alice, bob, owner] = [freshActor(0), freshActor(0), freshActor(0)];
  const validatorRewardShare = 4000;
  const pool = nominatorPoolInit(validator.wallet.address, {
    rewardShare: validatorRewardShare,
    maxNominators: 40,
    minValidatorStake: toNano('10'),
    minNominatorStake: toNano('10'),
  });
  const single = singleNominatorInit(owner.wallet.address, singleValidator.wallet.address);

  await send(faucet, [
    internal({ to: validator.wallet.address, value: toNano('2000'), bounce: false, body: comment('devnet seed: pool validator') }),
    internal({ to: alice.wallet.address, value: toNano('20000'), bounce: false, body: comment('devnet seed: nominator') }),
    internal({ to: bob.wallet.address, value: toNano('40000'), bounce: false, body: comment('devnet seed: nominator') }),
    internal({ to: owner.wallet.address, value: toNano('20000'), bounce: false, body: comment('devnet seed: single nominator owner') }),
  ]);
  // The nominator pool rejects an empty body; op 1 (accept coins) deploys it. The single-nominator pool takes any.
  await send(faucet, [
    internal({ to: pool.address, value: toNano('5'), bounce: false, init: pool.init, body: opBody(1, 0n).endCell() }),
    internal({ to: single.address, value: toNano('2'), bounce: false, init: single.init }),
    internal({
      to: singleValidator.wallet.address,
      value: toNano('200'),
      bounce: false,
      body: comment('devnet seed: single nominator validator'),
    }),
  ]);
  await produceBlock();

  const deposits: { nominator: Address; amount: bigint }[] = [];
  const deposit = async (who: Actor, value: bigint) => {
    await send(who, [internal({ to: pool.address, value, bounce: true, body: comment('d') })]);
    deposits.push({ nominator: who.wallet.address, amount: value - DEPOSIT_FEE });
  };
  const validatorDeposit = toNano('1001');
  await send(validator, [internal({ to: pool.address, value: validatorDeposit, bounce: true, body: opBody(4, 1n).endCell() })]);
  await deposit(alice, toNano('10001'));
  await deposit(bob, toNano('15001'));
  await send(owner, [internal({ to: single.address, value: SINGLE_NOMINATOR_DEPOSIT, bounce: true })]);
  await produceBlock();

  await deposit(bob, toNano('5001'));
  await produceBlock();

  await send(alice, [internal({ to: pool.address, value: toNano('1'), bounce: true, body: comment('w') })]);
  const singleNominatorWithdrawal = toNano('20');
  await send(owner, [
    internal({
      to: single.address,
      value: toNano('0.5'),
      bounce: true,
      body: opBody(0x1000, 2n).storeCoins(singleNominatorWithdrawal).endCell(),
    }),
  ]);
  await produceBlock();

  const staking = startOperator({
    kind: 'nominator_pool',
    address: pool.address,
    validatorWallet: validator.wallet,
    walletSigner: validator.signer,
    validatorKey: poolValidatorSigner(globalId, 'nominator_pool'),
  });
  const singleStaking = startOperator({
    kind: 'single_nominator',
    address: single.address,
    validatorWallet: singleValidator.wallet,
    walletSigner: singleValidator.signer,
    validatorKey: poolValidatorSigner(globalId, 'single_nominator'),
  });

  return {
    nominatorPool: pool.address,
    validator: validator.wallet.address,
    validatorRewardShare,
    nominators: [alice.wallet.address, bob.wallet.address],
    deposits,
    validatorDeposit: validatorDeposit - DEPOSIT_FEE,
    withdrawn: alice.wallet.address,
    singleNominatorPool: single.address,
    owner: owner.wallet.address,
    singleNominatorValidator: singleValidator.wallet.address,
    singleNominatorDeposits: [
      { from: faucet.wallet.address, amount: toNano('2') },
      { from: owner.wallet.address, amount: SINGLE_NOMINATOR_DEPOSIT },
    ],
    singleNominatorWithdrawal,
    staking: staking && singleStaking,
  };
}
