import { createHash } from 'node:crypto';
import { beginCell, internal, type Address, type Cell } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { ELECTOR_OPS, type ElectorState } from '@tongate/contracts';
import { ELECTOR_ADDRESS, STAKE_MESSAGE_FEE } from './elector.js';
import { devnetValidatorSigner, signerFromSeed, type Ed25519Signer } from './keys.js';
import { nowSeconds } from './producer.js';
import { walletTransferBoc } from './wallets.js';

/**
 * Stake messages to the devnet's elector, the devnet's validators, and the operator that stakes for them in every
 * election and recovers what the elector credits back (what a validator's node software does on a real chain).
 */

const TON = 1_000_000_000n;

/** Declared stake factor of the devnet's validators: 3.0, the devnet's max_stake_factor (×65536). */
export const DEVNET_MAX_FACTOR = 3 * 65536;

/**
 * The body of a new_stake to the elector (`op 0x4e73744b query_id validator_pubkey stake_at max_factor adnl_addr
 * ^signature`). The validator signs `0x654c5074 stake_at max_factor src_addr adnl_addr`, where src_addr is the
 * masterchain account that sends the message and will own the stake: a wallet, or a pool that forwards the body.
 * Send it with value = stake + 1 TON; with query_id ≠ 0 the elector confirms with `0xf374484c`.
 */
export function newStakeBody(args: { validator: Ed25519Signer; stakeHolder: Address; electionId: number; maxFactor: number; adnlAddr: Buffer; queryId: bigint }): Cell {
  if (args.stakeHolder.workChain !== -1) throw new Error('the elector accepts stakes only from masterchain accounts');
  const signed = beginCell()
    .storeUint(0x654c5074, 32)
    .storeUint(args.electionId, 32)
    .storeUint(args.maxFactor, 32)
    .storeBuffer(args.stakeHolder.hash, 32)
    .storeBuffer(args.adnlAddr, 32)
    .endCell();
  const signature = args.validator.sign(signed.beginParse().loadBuffer(signed.bits.length / 8));
  return beginCell()
    .storeUint(ELECTOR_OPS.newStake, 32)
    .storeUint(args.queryId, 64)
    .storeBuffer(args.validator.publicKey, 32)
    .storeUint(args.electionId, 32)
    .storeUint(args.maxFactor, 32)
    .storeBuffer(args.adnlAddr, 32)
    .storeRef(beginCell().storeBuffer(signature, 64))
    .endCell();
}

/** The body of a recover_stake (`op 0x47657424 query_id`): the elector answers with the sender's whole credit. */
export function recoverStakeBody(queryId: bigint): Cell {
  return beginCell().storeUint(ELECTOR_OPS.recoverStake, 32).storeUint(queryId, 64).endCell();
}

export interface DevnetValidator {
  index: number;
  signer: Ed25519Signer;
  adnlAddr: Buffer;
  /** The validator's stake holder: a wallet v4r2 in the masterchain (the elector takes stakes only from there). */
  wallet: WalletContractV4;
  walletSigner: Ed25519Signer;
  /** What it stakes in every election. */
  stake: bigint;
}

/** The ADNL address a devnet validator announces (a label hash: the devnet has no network). */
export function devnetAdnlAddress(publicKey: Buffer): Buffer {
  return createHash('sha256').update('tongate devnet adnl').update(publicKey).digest();
}

/**
 * The devnet's validators: validator 0 is the key that signs the devnet's blocks, the others are extra keys so that
 * an election has several participants. Deterministic per network.
 */
export function devnetValidators(globalId: number, count = 3): DevnetValidator[] {
  return Array.from({ length: count }, (_, index) => {
    const signer = index === 0 ? devnetValidatorSigner(globalId) : signerFromSeed(createHash('sha256').update(`tongate devnet validator ${globalId} #${index}`).digest());
    const walletSigner = signerFromSeed(createHash('sha256').update(`tongate devnet validator wallet ${globalId} #${index}`).digest());
    return {
      index,
      signer,
      adnlAddr: devnetAdnlAddress(signer.publicKey),
      wallet: WalletContractV4.create({ workchain: -1, publicKey: walletSigner.publicKey }),
      walletSigner,
      stake: BigInt(20_000 + 15_000 * index) * TON,
    };
  });
}

export interface OperatorContext {
  sendMessage(boc: Buffer): Promise<{ hash: Buffer }>;
  liveSeqno(address: Address): Promise<number>;
  /** The elector's live state. */
  electorState(): Promise<ElectorState>;
  logger?: { info(obj: object, msg?: string): void };
}

/** How long a recover request may stay unanswered before it is sent again (it may have been lost to a restart). */
const RECOVER_RETRY_SECONDS = 10;

/**
 * Stakes for every devnet validator in every open election it has not joined, and recovers every credit the elector
 * holds for their wallets. Runs after each sealed round; one step at a time.
 */
export class ValidatorOperator {
  private busy = false;
  private readonly stakedIn = new Map<number, number>();
  private readonly recoverAskedAt = new Map<number, number>();

  constructor(
    private readonly ctx: OperatorContext,
    readonly validators: DevnetValidator[],
  ) {}

  /** One pass; a pass already running makes this one a no-op. */
  async step(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const state = await this.ctx.electorState();
      const now = nowSeconds();
      for (const v of this.validators) {
        const messages = [];
        const election = state.election;
        const pubkey = v.signer.publicKey.toString('hex');
        // Like the elector, which takes stakes until it has conducted the election (even after elect_close).
        const stakeFor = election && !election.finished && this.stakedIn.get(v.index) !== election.electAt && !election.participants.some((p) => p.validatorPubkey === pubkey) ? election.electAt : null;
        if (stakeFor !== null) {
          const body = newStakeBody({ validator: v.signer, stakeHolder: v.wallet.address, electionId: stakeFor, maxFactor: DEVNET_MAX_FACTOR, adnlAddr: v.adnlAddr, queryId: BigInt(now) });
          messages.push(internal({ to: ELECTOR_ADDRESS, value: v.stake + STAKE_MESSAGE_FEE, bounce: true, body }));
        }
        const credit = state.credits.get(v.wallet.address.hash.toString('hex')) ?? 0n;
        const recover = credit > 0n && now - (this.recoverAskedAt.get(v.index) ?? 0) >= RECOVER_RETRY_SECONDS;
        if (recover) messages.push(internal({ to: ELECTOR_ADDRESS, value: TON, bounce: true, body: recoverStakeBody(BigInt(now)) }));
        if (messages.length === 0) continue;
        try {
          const seqno = await this.ctx.liveSeqno(v.wallet.address);
          await this.ctx.sendMessage(await walletTransferBoc(v.wallet, v.walletSigner, seqno, messages));
        } catch (e) {
          // An unfunded wallet refuses the message; the next round tries again (the other validators go on).
          this.ctx.logger?.info({ validator: v.index, err: String(e).split('\n')[0] }, 'devnet: validator wallet refused its message');
          continue;
        }
        if (stakeFor !== null) this.stakedIn.set(v.index, stakeFor);
        if (recover) this.recoverAskedAt.set(v.index, now);
      }
    } catch (e) {
      this.ctx.logger?.info({ err: String(e).split('\n')[0] }, 'devnet: validator operator step failed');
    } finally {
      this.busy = false;
    }
  }
}
