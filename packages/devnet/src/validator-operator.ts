import { createHash } from 'node:crypto';
import { internal, type Address, type MessageRelaxed } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import type { ElectorState, ValidatorSet } from '@tongate/contracts';
import { ELECTOR_ADDRESS, STAKE_MESSAGE_FEE } from './elector.js';
import { devnetValidatorSigner, signerFromSeed, type Ed25519Signer } from './keys.js';
import { nowSeconds } from './producer.js';
import { walletTransferBoc } from './wallets.js';
import {
  complaintDataSize,
  DEVNET_MAX_FACTOR,
  devnetComplaintDescription,
  newStakeBody,
  recoverStakeBody,
  registerComplaintBody,
  TON,
  voteComplaintBody,
  type ComplaintTerms,
} from './elector-messages.js';

/**
 * The devnet's validators, and the operator that stakes for them in every election, recovers what the elector
 * credits back and files and votes for complaints (what a validator's node software does on a real chain).
 */

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
    const signer =
      index === 0
        ? devnetValidatorSigner(globalId)
        : signerFromSeed(createHash('sha256').update(`tongate devnet validator ${globalId} #${index}`).digest());
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
  /** The current validator set (param 34). */
  currentSet(): Promise<ValidatorSet | null>;
  /** The elector's `complaint_storage_price(bits, refs, expire_in)`: the price plus the 1 TON the message must carry. */
  complaintStoragePrice(bits: number, refs: number, expireIn: number): Promise<bigint>;
  logger?: { info(obj: object, msg?: string): void };
}

/** How long a recover request may stay unanswered before it is sent again (it may have been lost to a restart). */
const RECOVER_RETRY_SECONDS = 10;
/** Likewise for a vote or a complaint registration that has not shown in the elector's state. */
const COMPLAINT_RETRY_SECONDS = 10;
/** A complaint is filed only while the accused's stake stays frozen at least this long (the price grows with it, and
 * the devnet validators need a few rounds to vote). */
const COMPLAINT_MIN_EXPIRY_SECONDS = 8;
/** A wallet v4 sends at most 4 messages per transfer. */
const MAX_MESSAGES = 4;

/** What a devnet complaint asks for, unless the caller says otherwise: a fixed fine plus 1/4096 of the stake. */
export const DEVNET_COMPLAINT_FINE = 10n * TON;
export const DEVNET_COMPLAINT_FINE_PART = 1 << 20;

export interface ComplaintRequest {
  /** Accused validator (hex); default: a devnet validator of the active set. */
  validatorPubkey?: string;
  suggestedFine?: bigint;
  suggestedFinePart?: number;
  severity?: number;
}

export interface FiledComplaint {
  electionId: number;
  complaintHash: string;
  validatorPubkey: string;
  /** The stake holder that filed it and gets the reward if it passes. */
  reporter: Address;
}

/** A message queued on a validator's wallet for this step; `sent` runs once it is sent, `notSent` when it is not. */
interface Outgoing {
  message: MessageRelaxed;
  sent(): void;
  notSent?(): void;
}

interface PendingComplaint {
  terms: ComplaintTerms;
  electionId: number;
  reporter: DevnetValidator;
  sentAt: number;
  resolve(filed: FiledComplaint): void;
  reject(e: Error): void;
}

/**
 * Stakes for every devnet validator in every open election it has not joined, and recovers every credit the elector
 * holds for their wallets. With complaints on, it also files one complaint against a devnet validator of every set the
 * elector elects (and any complaint asked for through `fileComplaint`), and makes every devnet validator of the current
 * set vote for every open complaint, so the elector's complaint path runs: registration, votes, fine. Runs after each
 * sealed round; one step at a time.
 */
export class ValidatorOperator {
  private busy = false;
  private readonly stakedIn = new Map<number, number>();
  private readonly recoverAskedAt = new Map<number, number>();
  /** Elections the automatic complaint was filed for. */
  private readonly complainedIn = new Set<number>();
  private readonly pending: PendingComplaint[] = [];
  private readonly requested: (ComplaintRequest & { resolve(filed: FiledComplaint): void; reject(e: Error): void })[] = [];
  /** `<complaint hash>:<vset>:<validator index>` → when the vote was sent. */
  private readonly votedAt = new Map<string, number>();
  autoComplaints = false;
  /** Numbers each filing's description, so that two filings never make the same complaint (the elector refuses a
   * complaint it already holds). */
  private filedCount = 0;

  constructor(
    private readonly ctx: OperatorContext,
    readonly validators: DevnetValidator[],
  ) {}

  /** Files a complaint in the coming rounds; resolves once the elector holds it (its hash is the elector's key). */
  fileComplaint(request: ComplaintRequest = {}): Promise<FiledComplaint> {
    return new Promise((resolve, reject) => this.requested.push({ ...request, resolve, reject }));
  }

  /** One pass; a pass already running makes this one a no-op. */
  async step(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const state = await this.ctx.electorState();
      const now = nowSeconds();
      const outbox = new Map<number, Outgoing[]>(this.validators.map((v) => [v.index, []]));
      for (const v of this.validators) {
        const out = outbox.get(v.index)!;
        const election = state.election;
        const pubkey = v.signer.publicKey.toString('hex');
        // Like the elector, which takes stakes until it has conducted the election (even after elect_close).
        const stakeFor =
          election &&
          !election.finished &&
          this.stakedIn.get(v.index) !== election.electAt &&
          !election.participants.some((p) => p.validatorPubkey === pubkey)
            ? election.electAt
            : null;
        if (stakeFor !== null) {
          const body = newStakeBody({
            validator: v.signer,
            stakeHolder: v.wallet.address,
            electionId: stakeFor,
            maxFactor: DEVNET_MAX_FACTOR,
            adnlAddr: v.adnlAddr,
            queryId: BigInt(now),
          });
          out.push({
            message: internal({ to: ELECTOR_ADDRESS, value: v.stake + STAKE_MESSAGE_FEE, bounce: true, body }),
            sent: () => this.stakedIn.set(v.index, stakeFor),
          });
        }
        const credit = state.credits.get(v.wallet.address.hash.toString('hex')) ?? 0n;
        if (credit > 0n && now - (this.recoverAskedAt.get(v.index) ?? 0) >= RECOVER_RETRY_SECONDS) {
          out.push({
            message: internal({ to: ELECTOR_ADDRESS, value: TON, bounce: true, body: recoverStakeBody(BigInt(now)) }),
            sent: () => this.recoverAskedAt.set(v.index, now),
          });
        }
      }
      await this.complaints(state, now, outbox);
      for (const v of this.validators) {
        const queued = outbox.get(v.index)!;
        const out = queued.slice(0, MAX_MESSAGES);
        for (const o of queued.slice(MAX_MESSAGES)) o.notSent?.();
        if (out.length === 0) continue;
        try {
          const seqno = await this.ctx.liveSeqno(v.wallet.address);
          await this.ctx.sendMessage(
            await walletTransferBoc(
              v.wallet,
              v.walletSigner,
              seqno,
              out.map((o) => o.message),
            ),
          );
        } catch (e) {
          // An unfunded wallet refuses the message; the next round tries again (the other validators go on).
          this.ctx.logger?.info({ validator: v.index, err: String(e).split('\n')[0] }, 'devnet: validator wallet refused its message');
          for (const o of out) o.notSent?.();
          continue;
        }
        for (const o of out) o.sent();
      }
    } catch (e) {
      this.ctx.logger?.info({ err: String(e).split('\n')[0] }, 'devnet: validator operator step failed');
    } finally {
      this.busy = false;
    }
  }

  /** Complaint registrations and votes, queued on the validators' wallets. */
  private async complaints(state: ElectorState, now: number, outbox: Map<number, Outgoing[]>): Promise<void> {
    this.settlePending(state, now);
    const wantsOne = this.requested.length > 0 || this.autoComplaints;
    if (!wantsOne && state.pastElections.every((p) => p.complaints.length === 0)) return;
    const set = await this.ctx.currentSet();
    if (!set) return;
    const ours = new Map(this.validators.map((v) => [v.signer.publicKey.toString('hex'), v]));
    // Filing: against the set validating now (its stakes stay frozen the longest), from a devnet validator's wallet.
    const active = state.pastElections.find((p) => p.electionId === state.activeId && p.vsetHash === set.hash);
    const expireIn = active ? active.unfreezeAt - now : 0;
    const accusable =
      active && expireIn >= COMPLAINT_MIN_EXPIRY_SECONDS ? active.frozen.filter((f) => ours.has(f.validatorPubkey) && !f.banned) : [];
    if (this.requested.length > 0 && (!active || accusable.length === 0)) {
      const error = new Error(
        !active
          ? 'no validator set elected by the devnet elector is validating yet (the first cycle has not completed)'
          : 'the validating set’s stakes unfreeze too soon to file a complaint; try again in the next cycle',
      );
      for (const r of this.requested.splice(0)) r.reject(error);
    }
    const filings: (ComplaintRequest & { resolve?(filed: FiledComplaint): void; reject?(e: Error): void })[] = [
      ...this.requested.splice(0),
    ];
    if (
      this.autoComplaints &&
      active &&
      accusable.length > 0 &&
      active.complaints.length === 0 &&
      !this.complainedIn.has(active.electionId)
    )
      filings.push({});
    for (const request of filings) {
      const wanted = request.validatorPubkey?.toLowerCase();
      const accused = wanted === undefined ? accusable.at(-1) : active!.frozen.find((f) => f.validatorPubkey === wanted);
      if (!accused) {
        request.reject?.(
          new Error(`validator ${request.validatorPubkey} has no frozen stake in the validating set (election ${active!.electionId})`),
        );
        continue;
      }
      const reporter = this.validators.find((v) => v.signer.publicKey.toString('hex') !== accused.validatorPubkey)!;
      const terms: ComplaintTerms = {
        validatorPubkey: Buffer.from(accused.validatorPubkey, 'hex'),
        description: devnetComplaintDescription(
          `validator ${accused.validatorPubkey.slice(0, 16)}… produced no blocks in election ${active!.electionId} (filed at ${now}, #${++this.filedCount})`,
        ),
        severity: request.severity ?? 1,
        suggestedFine: request.suggestedFine ?? DEVNET_COMPLAINT_FINE,
        suggestedFinePart: request.suggestedFinePart ?? DEVNET_COMPLAINT_FINE_PART,
      };
      const body = registerComplaintBody({ ...terms, queryId: BigInt(now), electionId: active!.electionId });
      const { bits, refs } = complaintDataSize(body);
      // The price counts the seconds until unfreeze from the registration's own time: a few rounds of margin, and the
      // elector keeps only the price and sends the rest back.
      const value = (await this.ctx.complaintStoragePrice(bits, refs, expireIn + 10)) + TON;
      const pending: PendingComplaint = {
        terms,
        electionId: active!.electionId,
        reporter,
        sentAt: now,
        resolve: request.resolve ?? (() => undefined),
        reject: request.reject ?? (() => undefined),
      };
      outbox.get(reporter.index)!.push({
        message: internal({ to: ELECTOR_ADDRESS, value, bounce: true, body }),
        sent: () => {
          this.complainedIn.add(active!.electionId);
          this.pending.push(pending);
        },
        // An asked-for complaint waits for the next round; the automatic one is simply tried again then.
        notSent: () => {
          if (request.resolve) this.requested.push(request as (typeof this.requested)[number]);
        },
      });
    }
    // Voting: every devnet validator of the current set votes once for every complaint that has not passed in it.
    for (const past of state.pastElections) {
      if (past.unfreezeAt <= now) continue;
      for (const c of past.complaints) {
        const sameSet = c.vsetId === set.hash;
        if (sameSet && c.weightRemaining < 0n) continue;
        for (const member of set.validators) {
          const v = ours.get(member.pubkey);
          if (!v || (sameSet && c.voters.includes(member.index))) continue;
          const key = `${c.complaintHash}:${set.hash}:${member.index}`;
          if (now - (this.votedAt.get(key) ?? 0) < COMPLAINT_RETRY_SECONDS) continue;
          const body = voteComplaintBody({
            validator: v.signer,
            queryId: BigInt(now),
            validatorIndex: member.index,
            electionId: past.electionId,
            complaintHash: Buffer.from(c.complaintHash, 'hex'),
          });
          outbox
            .get(v.index)!
            .push({ message: internal({ to: ELECTOR_ADDRESS, value: TON, bounce: true, body }), sent: () => this.votedAt.set(key, now) });
        }
      }
    }
  }

  /** Resolves the filings the elector now holds; gives up on those it refused (their price comes back). */
  private settlePending(state: ElectorState, now: number): void {
    for (let i = this.pending.length - 1; i >= 0; i--) {
      const p = this.pending[i];
      const past = state.pastElections.find((e) => e.electionId === p.electionId);
      const found = past?.complaints.find((c) => c.complaint.description.hash().equals(p.terms.description.hash()));
      if (found) {
        this.pending.splice(i, 1);
        p.resolve({
          electionId: p.electionId,
          complaintHash: found.complaintHash,
          validatorPubkey: found.complaint.validatorPubkey,
          reporter: p.reporter.wallet.address,
        });
      } else if (now - p.sentAt > 3 * COMPLAINT_RETRY_SECONDS) {
        this.pending.splice(i, 1);
        p.reject(
          new Error(
            `the elector did not register the complaint against ${p.terms.validatorPubkey.toString('hex')} in election ${p.electionId}`,
          ),
        );
      }
    }
  }
}
