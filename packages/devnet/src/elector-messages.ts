import { beginCell, type Address, type Cell } from '@ton/core';
import { ELECTOR_OPS } from '@tongate/contracts';
import type { Ed25519Signer } from './keys.js';

/**
 * The bodies of the messages a validator sends to the elector: new_stake, recover_stake, and the complaint
 * registration and vote (the elector's message layouts; the operator in validator-operator.ts sends them).
 */

/** One TON in nanotons. */
export const TON = 1_000_000_000n;

/** Declared stake factor of the devnet's validators: 3.0, the devnet's max_stake_factor (×65536). */
export const DEVNET_MAX_FACTOR = 3 * 65536;

/**
 * The body of a new_stake to the elector (`op 0x4e73744b query_id validator_pubkey stake_at max_factor adnl_addr
 * ^signature`). The validator signs `0x654c5074 stake_at max_factor src_addr adnl_addr`, where src_addr is the
 * masterchain account that sends the message and will own the stake: a wallet, or a pool that forwards the body.
 * Send it with value = stake + 1 TON; with query_id ≠ 0 the elector confirms with `0xf374484c`.
 */
export function newStakeBody(args: {
  validator: Ed25519Signer;
  stakeHolder: Address;
  electionId: number;
  maxFactor: number;
  adnlAddr: Buffer;
  queryId: bigint;
}): Cell {
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

/**
 * A complaint's description on the devnet. On a real chain it is a `ComplaintDescr` (no_blk_gen … with Merkle proofs of
 * the blocks a validator failed to produce); the elector stores it without reading it, and the devnet has no such
 * proofs, so it files a text that says what it is.
 */
export function devnetComplaintDescription(text: string): Cell {
  return beginCell().storeUint(0, 32).storeStringTail(`tongate devnet complaint: ${text}`).endCell();
}

export interface ComplaintTerms {
  validatorPubkey: Buffer;
  description: Cell;
  severity: number;
  suggestedFine: bigint;
  /** Part of the stake, ×2^32. */
  suggestedFinePart: number;
}

/**
 * The body of a complaint registration (`op 0x52674370 query_id election_id:uint32 complaint:ValidatorComplaint`), sent
 * from a masterchain account with the price (`complaint_storage_price`). The elector overwrites created_at,
 * reward_addr (the sender) and paid before it stores the complaint, so those go out as zeros.
 */
export function registerComplaintBody(args: ComplaintTerms & { queryId: bigint; electionId: number }): Cell {
  return beginCell()
    .storeUint(ELECTOR_OPS.registerComplaint, 32)
    .storeUint(args.queryId, 64)
    .storeUint(args.electionId, 32)
    .storeUint(0xbc, 8)
    .storeBuffer(args.validatorPubkey, 32)
    .storeRef(args.description)
    .storeUint(0, 32) // created_at
    .storeUint(args.severity, 8)
    .storeUint(0, 256) // reward_addr
    .storeCoins(0) // paid
    .storeCoins(args.suggestedFine)
    .storeUint(args.suggestedFinePart, 32)
    .endCell();
}

/** Data bits and cell references of a registration's complaint as the elector measures it for the price
 * (`slice_compute_data_size` of the body after election_id: the complaint and its description tree). */
export function complaintDataSize(body: Cell): { bits: number; refs: number } {
  let bits = body.bits.length - (32 + 64 + 32);
  let refs = 0;
  const seen = new Set<string>();
  const walk = (cell: Cell) => {
    refs += cell.refs.length;
    for (const ref of cell.refs) {
      const key = ref.hash().toString('hex');
      if (seen.has(key)) continue;
      seen.add(key);
      bits += ref.bits.length;
      walk(ref);
    }
  };
  walk(body);
  return { bits, refs };
}

/**
 * The body of a vote for a complaint (`op 0x56744370 query_id signature:bits512 0x56744350 validator_idx:uint16
 * election_id:uint32 complaint_hash:uint256`): the validator of the current set at `validatorIndex` signs the part
 * after the signature. Any masterchain account may carry it; the elector counts the vote with that validator's weight.
 */
export function voteComplaintBody(args: {
  validator: Ed25519Signer;
  queryId: bigint;
  validatorIndex: number;
  electionId: number;
  complaintHash: Buffer;
}): Cell {
  const signed = beginCell()
    .storeUint(0x56744350, 32)
    .storeUint(args.validatorIndex, 16)
    .storeUint(args.electionId, 32)
    .storeBuffer(args.complaintHash, 32)
    .endCell();
  const signature = args.validator.sign(signed.beginParse().loadBuffer(signed.bits.length / 8));
  return beginCell()
    .storeUint(ELECTOR_OPS.voteComplaint, 32)
    .storeUint(args.queryId, 64)
    .storeBuffer(signature, 64)
    .storeSlice(signed.beginParse())
    .endCell();
}

/** The body of a recover_stake (`op 0x47657424 query_id`): the elector answers with the sender's whole credit. */
export function recoverStakeBody(queryId: bigint): Cell {
  return beginCell().storeUint(ELECTOR_OPS.recoverStake, 32).storeUint(queryId, 64).endCell();
}
