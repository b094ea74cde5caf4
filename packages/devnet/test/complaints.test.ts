/**
 * The devnet's complaint path on the recorded mainnet elector: a complaint filed against a devnet validator of the
 * validating set, the devnet validators' votes, and the fine, checked against the elector's own get-methods
 * (show_complaint, list_complaints, past_elections via the state, complaint_storage_price) and the config (13, 34).
 */
import { internal, toNano, TupleReader, type Cell } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  complaintFine,
  complaintPrice,
  complaintVoteThreshold,
  decodeValidatorSet,
  readShowComplaint,
  type PastElection,
} from '@tongate/contracts';
import {
  complaintDataSize,
  createDevnet,
  devnetValidators,
  ELECTOR_ADDRESS,
  registerComplaintBody,
  signerFromSeed,
  walletTransferBoc,
  type Devnet,
  type FiledComplaint,
} from '../src/index.js';
import { faucetSeqno, until } from './helpers.js';

/** A 40 s cycle: the validating set's stakes stay frozen long enough to file and vote without a set change between. */
const TIMING = { validatorsElectedFor: 40, electionsStartBefore: 20, electionsEndBefore: 8, stakeHeldFor: 6 };

describe('devnet complaints', () => {
  let devnet: Devnet;
  let validators: ReturnType<typeof devnetValidators>;
  beforeAll(async () => {
    devnet = await createDevnet({ network: 'mainnet', blockIntervalMs: 500, electionTiming: TIMING });
    // The validators' operator without the seed's automatic complaint: this test files its own.
    validators = devnet.startValidators()!.validators;
    const faucet = WalletContractV4.create({ workchain: 0, publicKey: devnet.faucet.publicKey });
    await devnet.sendMessage(
      await walletTransferBoc(
        faucet,
        signerFromSeed(devnet.faucet.secretKey),
        await faucetSeqno(devnet),
        validators.map((v) => internal({ to: v.wallet.address, value: toNano('200000'), bounce: false })),
      ),
    );
  });
  afterAll(async () => {
    await devnet?.close();
  });

  it('refuses a complaint before the elector has elected a set', async () => {
    await expect(devnet.fileComplaint()).rejects.toThrow(/no validator set elected/);
  });

  it('files a complaint, the devnet validators vote it through, and the elector fines the frozen stake', async () => {
    const ours = new Set(validators.map((v) => v.signer.publicKey.toString('hex')));
    // The first set the elector elects, validating.
    const active = await until('a validating set elected by the elector', 120_000, async () => {
      const { state } = await devnet.electionStatus();
      const p34 = decodeValidatorSet((await devnet.getConfigParam(34))!);
      const past = state.pastElections.find((p) => p.electionId === state.activeId && p.vsetHash === p34.hash);
      return past && past.unfreezeAt - Math.floor(Date.now() / 1000) > 20 && past.frozen.some((f) => ours.has(f.validatorPubkey))
        ? past
        : null;
    });
    const accused = active.frozen.find((f) => ours.has(f.validatorPubkey))!;
    const fineTerms = { suggestedFine: toNano('7'), suggestedFinePart: 1 << 22 };
    // An unknown validator is refused without a message.
    await expect(devnet.fileComplaint({ validatorPubkey: 'ab'.repeat(32) })).rejects.toThrow(/no frozen stake/);
    const filed: FiledComplaint = await devnet.fileComplaint({ validatorPubkey: accused.validatorPubkey, ...fineTerms, severity: 2 });
    expect(filed).toMatchObject({ electionId: active.electionId, validatorPubkey: accused.validatorPubkey });

    const show = async () => {
      const r = await devnet.runGetMethod(ELECTOR_ADDRESS, 'show_complaint', [
        { type: 'int', value: BigInt(filed.electionId) },
        { type: 'int', value: BigInt('0x' + filed.complaintHash) },
      ]);
      expect(r.exitCode).toBe(0);
      return readShowComplaint(new TupleReader(r.stack));
    };
    const registered = (await show())!;
    // What the elector stored: the sender as reward address, the registration time, and the price it kept.
    expect(registered.complaint).toMatchObject({
      validatorPubkey: accused.validatorPubkey,
      severity: 2,
      suggestedFine: fineTerms.suggestedFine,
      suggestedFinePart: fineTerms.suggestedFinePart,
    });
    expect(registered.complaint.rewardAddress.equals(filed.reporter)).toBe(true);
    const p13 = (await devnet.getConfigParam(13))!.beginParse();
    expect(p13.loadUint(8)).toBe(0x1a);
    const prices = { deposit: p13.loadCoins(), bitPrice: p13.loadCoins(), cellPrice: p13.loadCoins() };
    const body = registerComplaintBody({
      validatorPubkey: Buffer.from(accused.validatorPubkey, 'hex'),
      description: registered.complaint.description as Cell,
      severity: 2,
      ...fineTerms,
      queryId: 0n,
      electionId: filed.electionId,
    });
    const { bits, refs } = complaintDataSize(body);
    const expireIn = active.unfreezeAt - registered.complaint.createdAt;
    expect(registered.complaint.paid).toBe(complaintPrice(prices, bits, refs, expireIn));
    // …which the elector's own get-method agrees with (it adds the 1 TON the message carries on top).
    const priced = await devnet.runGetMethod(
      ELECTOR_ADDRESS,
      'complaint_storage_price',
      [bits, refs, expireIn].map((n) => ({ type: 'int' as const, value: BigInt(n) })),
    );
    expect((priced.stack[0] as { value: bigint }).value).toBe(registered.complaint.paid + (1n << 30n));

    // The devnet validators vote until it passes (weight_remaining below zero).
    const passed = await until('the complaint passed', 30_000, async () => {
      const c = await show();
      return c && c.weightRemaining < 0n ? c : null;
    });
    const p34 = decodeValidatorSet((await devnet.getConfigParam(34))!);
    expect(passed.vsetId).toBe(p34.hash);
    const voted = passed.voters.map((i) => p34.validators.find((v) => v.index === i)!);
    expect(voted.every((v) => ours.has(v.pubkey))).toBe(true);
    const votedWeight = voted.reduce((s, v) => s + v.weight, 0n);
    expect(passed.weightRemaining).toBe(complaintVoteThreshold(p34.totalWeight) - votedWeight);
    expect(votedWeight * 3n > p34.totalWeight * 2n).toBe(true);

    // The fine: taken from the accused's frozen stake and from the round's total stake.
    const after = await until('the fine applied', 10_000, async () => {
      const { state } = await devnet.electionStatus();
      const past = state.pastElections.find((p) => p.electionId === filed.electionId);
      const stake = past?.frozen.find((f) => f.validatorPubkey === accused.validatorPubkey)?.stake;
      return past && stake !== undefined && stake < accused.stake ? past : null;
    });
    const fine = complaintFine(accused.stake, fineTerms.suggestedFine, fineTerms.suggestedFinePart);
    expect(fine).toBe(fineTerms.suggestedFine + (accused.stake >> 10n));
    expect(after.frozen.find((f) => f.validatorPubkey === accused.validatorPubkey)!.stake).toBe(accused.stake - fine);
    expect(after.totalStake).toBe(totalAfterOtherFines(active, after, accused.validatorPubkey) - fine);
    // list_complaints lists it under its hash.
    const listed = await devnet.runGetMethod(ELECTOR_ADDRESS, 'list_complaints', [{ type: 'int', value: BigInt(filed.electionId) }]);
    const hashes = new TupleReader(listed.stack)
      .readLispList()
      .map((pair) => (pair.type === 'tuple' && pair.items[0].type === 'int' ? pair.items[0].value.toString(16).padStart(64, '0') : ''));
    expect(hashes).toContain(filed.complaintHash);
  }, 200_000);
});

/** The round's total stake before this complaint's fine: the registration-time total, less any other fine since. */
function totalAfterOtherFines(before: PastElection, after: PastElection, accused: string): bigint {
  let total = before.totalStake;
  for (const f of after.frozen) {
    if (f.validatorPubkey === accused) continue;
    const was = before.frozen.find((b) => b.validatorPubkey === f.validatorPubkey)!;
    total -= was.stake - f.stake;
  }
  return total;
}
