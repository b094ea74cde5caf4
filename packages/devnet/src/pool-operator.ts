import { beginCell, internal, toNano, type Address, type Cell, type MessageRelaxed } from '@ton/core';
import { ELECTOR_OPS, NOMINATOR_POOL_OPS, decodeNominatorPoolData, type ElectorState } from '@tongate/contracts';
import type { Ed25519Signer } from './keys.js';
import { walletTransferBoc, type DevnetWallet } from './wallets.js';

/**
 * What a nominator pool's validator software does (mytonctrl on a real chain), for the devnet's seeded pool: after
 * every round, stake the pool in the open election, report each validator-set change to the pool (op 6), recover the
 * stake once the pool allows it, and pay out the withdraw requests (op 2) before staking again.
 */

/** What an operator needs from the devnet to send from its validator wallet. */
export interface OperatorContext {
  sendMessage(boc: Buffer): Promise<{ hash: Buffer }>;
  liveSeqno(address: Address): Promise<number>;
  now(): number;
  logger?: { info(obj: object, msg?: string): void };
}

export interface PoolOperatorContext extends OperatorContext {
  /** The pool account as of the last sealed round; null while it is not active. */
  poolState(): Promise<{ balance: bigint; data: Cell } | null>;
  /** Hash of config param 34 (the current validator set). */
  currentSetHash(): Promise<string | null>;
  /** The elector's open election, if any. */
  openElection(): Promise<{ electionId: number; finished: boolean } | null>;
  /** The elector's new_stake body for this pool as stake holder, signed by the pool's validator key. */
  electorStakeBody(args: { electionId: number; queryId: bigint }): Cell;
}

const TON = toNano('1');
/** The least stake the pool sends (`MIN_STAKE_TO_SEND`). */
const MIN_STAKE_TO_SEND = toNano('500');
/** What the pool keeps: the recorded v1.0 code refuses to stake the last 10 TON of its balance (checked in the sandbox). */
const POOL_RESERVE = toNano('12');
/** How long a recover request may stay unanswered before it is sent again. */
const RECOVER_RETRY_SECONDS = 10;

const opBody = (op: number, queryId: bigint) => beginCell().storeUint(op, 32).storeUint(queryId, 64);

/** The pool's new_stake (op, query_id, the amount to send, then the elector's body from the validator key on). */
export function poolNewStakeBody(electorBody: Cell, amount: bigint): Cell {
  const s = electorBody.beginParse();
  const op = s.loadUint(32);
  const queryId = s.loadUintBig(64);
  return beginCell().storeUint(op, 32).storeUint(queryId, 64).storeCoins(amount).storeSlice(s).endCell();
}

/** What both operators share: one pass at a time, and the pass's messages sent from the pool's validator wallet. */
abstract class ValidatorWalletOperator<C extends OperatorContext> {
  private busy = false;
  /** The election this operator last staked in (no second stake in it). */
  protected stakedIn: number | null = null;
  protected recoverAskedAt = 0;

  constructor(
    protected readonly ctx: C,
    readonly pool: Address,
    private readonly validatorWallet: DevnetWallet,
    private readonly walletSigner: Ed25519Signer,
  ) {}

  /** What this pass sends to the pool, from the pool's and the elector's state now. */
  protected abstract plan(now: number, queryId: bigint): Promise<MessageRelaxed[]>;
  protected abstract readonly name: string;

  /** One pass; a pass already running makes this one a no-op. */
  async step(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const now = this.ctx.now();
      const messages = await this.plan(now, BigInt(now));
      if (messages.length === 0) return;
      const seqno = await this.ctx.liveSeqno(this.validatorWallet.address);
      await this.ctx.sendMessage(await walletTransferBoc(this.validatorWallet, this.walletSigner, seqno, messages));
    } catch (e) {
      this.ctx.logger?.info({ err: String(e).split('\n')[0] }, `devnet: ${this.name} step failed`);
    } finally {
      this.busy = false;
    }
  }
}

export class PoolOperator extends ValidatorWalletOperator<PoolOperatorContext> {
  protected readonly name = 'pool operator';

  protected async plan(now: number, queryId: bigint): Promise<MessageRelaxed[]> {
    const account = await this.ctx.poolState();
    if (!account) return [];
    const pool = decodeNominatorPoolData(account.data);
    const messages: MessageRelaxed[] = [];
    if (pool.state === 0) {
      const election = await this.ctx.openElection();
      if (pool.nominators.some((n) => n.withdrawRequested)) {
        // A pool with withdraw requests may not stake: pay them first.
        messages.push(
          internal({
            to: this.pool,
            value: TON,
            bounce: true,
            body: opBody(NOMINATOR_POOL_OPS.processWithdrawRequests, queryId).storeUint(255, 8).endCell(),
          }),
        );
      } else if (
        election &&
        !election.finished &&
        election.electionId !== this.stakedIn &&
        pool.validatorAmount >= pool.minValidatorStake
      ) {
        const amount = account.balance - POOL_RESERVE;
        if (amount >= MIN_STAKE_TO_SEND) {
          const body = poolNewStakeBody(this.ctx.electorStakeBody({ electionId: election.electionId, queryId }), amount);
          messages.push(internal({ to: this.pool, value: TON + TON / 2n, bounce: true, body }));
          this.stakedIn = election.electionId;
        }
      }
    } else {
      const setHash = await this.ctx.currentSetHash();
      const recoverable =
        pool.state === 2 &&
        pool.validatorSetChangesCount >= 2 &&
        (pool.validatorSetChangesCount > 2 || now - pool.validatorSetChangeTime > pool.stakeHeldFor + 60);
      if (setHash !== null && setHash !== pool.savedValidatorSetHash && pool.validatorSetChangesCount < 3) {
        messages.push(
          internal({ to: this.pool, value: TON, bounce: true, body: opBody(NOMINATOR_POOL_OPS.updateValidatorSetHash, queryId).endCell() }),
        );
      } else if (recoverable && now - this.recoverAskedAt >= RECOVER_RETRY_SECONDS) {
        messages.push(
          internal({ to: this.pool, value: TON, bounce: true, body: opBody(NOMINATOR_POOL_OPS.recoverStake, queryId).endCell() }),
        );
        this.recoverAskedAt = now;
      }
    }
    return messages;
  }
}

export interface SingleNominatorOperatorContext extends OperatorContext {
  /** The pool's balance as of the last sealed round; null while it is not active. */
  poolBalance(): Promise<bigint | null>;
  /** The elector's state: the open election, the past elections' frozen stakes and the credits. */
  electorState(): Promise<ElectorState>;
  /** The elector's new_stake body for this pool as stake holder, signed by the pool's validator key. */
  electorStakeBody(args: { electionId: number; queryId: bigint }): Cell;
  validatorPubkey: string;
}

/** The single-nominator pool sends at most `balance − value − 1 TON`; this leaves room for the storage and fees. */
const SINGLE_NOMINATOR_RESERVE = toNano('2');
/** The elector's least stake on the devnet (config param 17). */
const DEVNET_MIN_STAKE = toNano('10000');
/** The single-nominator pool forwards new_stake only with at least 1 TON for the elector's fees. */
const SINGLE_NOMINATOR_STAKE_FEE = toNano('1.5');

/**
 * The validator software of the seeded single-nominator pool (`single-nominator.fc` keeps no state of its own, so the
 * operator reads the elector's): from the validator's wallet it sends new_stake (with the amount) to the pool in every
 * open election the pool has not joined, which forwards it to the elector, and recover_stake once the elector holds a
 * credit for the pool and no stake of it is frozen any more, so that one recover returns the whole round's stake with
 * its bonuses.
 */
export class SingleNominatorOperator extends ValidatorWalletOperator<SingleNominatorOperatorContext> {
  protected readonly name = 'single-nominator operator';

  protected async plan(now: number, queryId: bigint): Promise<MessageRelaxed[]> {
    const balance = await this.ctx.poolBalance();
    if (balance === null) return [];
    const state = await this.ctx.electorState();
    const holder = this.pool.hash.toString('hex');
    const frozen = state.pastElections.some((p) => p.frozen.some((f) => f.stakeHolderAddress.hash.toString('hex') === holder));
    const credit = state.credits.get(holder) ?? 0n;
    const election = state.election;
    const joined = election?.participants.some((p) => p.validatorPubkey === this.ctx.validatorPubkey) ?? false;
    const messages: MessageRelaxed[] = [];
    if (credit > 0n && !frozen) {
      if (now - this.recoverAskedAt >= RECOVER_RETRY_SECONDS) {
        messages.push(internal({ to: this.pool, value: TON, bounce: true, body: opBody(ELECTOR_OPS.recoverStake, queryId).endCell() }));
        this.recoverAskedAt = now;
      }
    } else if (election && !election.finished && election.electAt !== this.stakedIn && !joined) {
      const amount = balance - SINGLE_NOMINATOR_RESERVE;
      if (amount >= DEVNET_MIN_STAKE) {
        const body = poolNewStakeBody(this.ctx.electorStakeBody({ electionId: election.electAt, queryId }), amount);
        messages.push(internal({ to: this.pool, value: SINGLE_NOMINATOR_STAKE_FEE, bounce: true, body }));
        this.stakedIn = election.electAt;
      }
    }
    return messages;
  }
}
