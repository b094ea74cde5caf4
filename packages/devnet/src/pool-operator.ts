import { beginCell, internal, toNano, type Address, type Cell } from '@ton/core';
import { NOMINATOR_POOL_OPS, decodeNominatorPoolData } from '@tongate/contracts';
import type { Ed25519Signer } from './keys.js';
import { walletTransferBoc, type DevnetWallet } from './wallets.js';

/**
 * What a nominator pool's validator software does (mytonctrl on a real chain), for the devnet's seeded pool: after
 * every round, stake the pool in the open election, report each validator-set change to the pool (op 6), recover the
 * stake once the pool allows it, and pay out the withdraw requests (op 2) before staking again.
 */

export interface PoolOperatorContext {
  sendMessage(boc: Buffer): Promise<{ hash: Buffer }>;
  liveSeqno(address: Address): Promise<number>;
  /** The pool account as of the last sealed round; null while it is not active. */
  poolState(): Promise<{ balance: bigint; data: Cell } | null>;
  /** Hash of config param 34 (the current validator set). */
  currentSetHash(): Promise<string | null>;
  /** The elector's open election, if any. */
  openElection(): Promise<{ electionId: number; finished: boolean } | null>;
  /** The elector's new_stake body for this pool as stake holder, signed by the pool's validator key. */
  electorStakeBody(args: { electionId: number; queryId: bigint }): Cell;
  now(): number;
  logger?: { info(obj: object, msg?: string): void };
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

export class PoolOperator {
  private busy = false;
  private stakedIn: number | null = null;
  private recoverAskedAt = 0;

  constructor(
    private readonly ctx: PoolOperatorContext,
    readonly pool: Address,
    private readonly validatorWallet: DevnetWallet,
    private readonly walletSigner: Ed25519Signer,
  ) {}

  /** One pass; a pass already running makes this one a no-op. */
  async step(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const account = await this.ctx.poolState();
      if (!account) return;
      const pool = decodeNominatorPoolData(account.data);
      const now = this.ctx.now();
      const queryId = BigInt(now);
      const messages = [];
      if (pool.state === 0) {
        const election = await this.ctx.openElection();
        if (pool.nominators.some((n) => n.withdrawRequested)) {
          // A pool with withdraw requests may not stake: pay them first.
          messages.push(internal({ to: this.pool, value: TON, bounce: true, body: opBody(NOMINATOR_POOL_OPS.processWithdrawRequests, queryId).storeUint(255, 8).endCell() }));
        } else if (election && !election.finished && election.electionId !== this.stakedIn && pool.validatorAmount >= pool.minValidatorStake) {
          const amount = account.balance - POOL_RESERVE;
          if (amount >= MIN_STAKE_TO_SEND) {
            const body = poolNewStakeBody(this.ctx.electorStakeBody({ electionId: election.electionId, queryId }), amount);
            messages.push(internal({ to: this.pool, value: TON + TON / 2n, bounce: true, body }));
            this.stakedIn = election.electionId;
          }
        }
      } else {
        const setHash = await this.ctx.currentSetHash();
        const recoverable = pool.state === 2 && pool.validatorSetChangesCount >= 2 && (pool.validatorSetChangesCount > 2 || now - pool.validatorSetChangeTime > pool.stakeHeldFor + 60);
        if (setHash !== null && setHash !== pool.savedValidatorSetHash && pool.validatorSetChangesCount < 3) {
          messages.push(internal({ to: this.pool, value: TON, bounce: true, body: opBody(NOMINATOR_POOL_OPS.updateValidatorSetHash, queryId).endCell() }));
        } else if (recoverable && now - this.recoverAskedAt >= RECOVER_RETRY_SECONDS) {
          messages.push(internal({ to: this.pool, value: TON, bounce: true, body: opBody(NOMINATOR_POOL_OPS.recoverStake, queryId).endCell() }));
          this.recoverAskedAt = now;
        }
      }
      if (messages.length === 0) return;
      const seqno = await this.ctx.liveSeqno(this.validatorWallet.address);
      await this.ctx.sendMessage(await walletTransferBoc(this.validatorWallet, this.walletSigner, seqno, messages));
    } catch (e) {
      this.ctx.logger?.info({ err: String(e).split('\n')[0] }, 'devnet: pool operator step failed');
    } finally {
      this.busy = false;
    }
  }
}
