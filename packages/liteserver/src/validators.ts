import { createPublicKey, verify, type KeyObject } from 'node:crypto';
import { blockSigningPayload, LruCache, nodeIdShort, simplexPayloadFor, type BlockIdExt, type ValidatorDescr } from '@tongate/chain';

/**
 * Validator sets and block signatures, as tonlib checks a forward link of a block proof chain
 * (crypto/block/mc-config.cpp do_compute_validator_set, block.cpp compute_validator_set_hash, check-proof.cpp
 * check_block_signatures): the masterchain block is signed by the main validators of the set in force (config param
 * 34), possibly shuffled (config param 28), and its header names that subset by a crc32c hash.
 */

export {
  crc32c,
  masterchainValidators,
  parseShuffleMcValidators,
  parseValidatorSet,
  validatorSetHashShort,
  type ValidatorDescr,
  type ValidatorSet,
} from '@tongate/chain';

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
/** Validators sign block after block: their parsed keys are kept (building a KeyObject costs as much as a verify). */
const publicKeys = new LruCache<string, KeyObject>(4096);

function ed25519Verify(publicKey: Buffer, data: Buffer, signature: Buffer): boolean {
  if (signature.length !== 64) return false;
  try {
    const hex = publicKey.toString('hex');
    let key = publicKeys.get(hex);
    if (!key) {
      key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, publicKey]), format: 'der', type: 'spki' });
      publicKeys.set(hex, key);
    }
    return verify(null, data, key, signature);
  } catch {
    return false;
  }
}

export interface BlockSignature {
  nodeIdShort: Buffer;
  signature: Buffer;
}

/**
 * check_block_signatures: every signature is by a validator of `nodes` (none twice) over `ton.blockId root_hash
 * file_hash`, and the signers weigh more than 2/3 of the set. Returns a reason to refuse, or null.
 */
export function blockSignaturesProblem(
  nodes: readonly ValidatorDescr[],
  signatures: readonly BlockSignature[],
  id: BlockIdExt,
): string | null {
  return signaturesProblem(nodes, signatures, blockSigningPayload(id.rootHash, id.fileHash));
}

/**
 * Every signature is by a validator of `nodes` (none twice; one unknown or bad signature refuses the whole set, as the
 * node does) over `payload`, and the signers weigh more than 2/3 of the weight of `nodes` (the computed list, not the
 * set's declared total). Returns a reason to refuse, or null.
 */
export function signaturesProblem(nodes: readonly ValidatorDescr[], signatures: readonly BlockSignature[], payload: Buffer): string | null {
  if (nodes.length === 0) return 'empty validator set';
  if (signatures.length === 0) return 'no signatures';
  const byNode = new Map(nodes.map((n, i) => [nodeIdShort(n.publicKey).toString('hex'), i]));
  const total = nodes.reduce((sum, n) => sum + n.weight, 0n);
  const seen = new Set<number>();
  let signed = 0n;
  for (const sig of signatures) {
    const node = sig.nodeIdShort.toString('hex');
    const i = byNode.get(node);
    if (i === undefined) return `signature by ${node}, which is not a validator of the set`;
    if (seen.has(i)) return `two signatures by validator ${node}`;
    seen.add(i);
    if (!ed25519Verify(nodes[i].publicKey, payload, sig.signature)) return `the signature by validator ${node} is not valid for this block`;
    signed += nodes[i].weight;
  }
  if (3n * signed <= 2n * total) return `insufficient signature weight: ${signed} of ${total} (more than 2/3 needed)`;
  return null;
}

/**
 * A masterchain block's signature set as a liteserver passes it on (liteServer.SignatureSet): `ordinary` (catchain
 * consensus: each validator signs `ton.blockId`), or `simplex` (Catchain 2.0: the finalization certificate of the
 * block's consensus candidate, see simplex.ts).
 */
export type SignatureSet =
  | { kind: 'ordinary'; catchainSeqno: number; validatorSetHash: number; signatures: BlockSignature[] }
  | {
      kind: 'simplex';
      catchainSeqno: number;
      validatorSetHash: number;
      signatures: BlockSignature[];
      sessionId: Buffer;
      slot: number;
      candidate: Buffer;
    };

/**
 * The node's check of a final signature set for block `to` whose proven header names catchain session
 * `catchainSeqno` and the validator list `nodes` (whose short hash is `validatorSetHash`): the set names the same
 * session and list, its signatures cover what the set's kind signs for `to`, and they weigh more than 2/3.
 */
export function signatureSetProblem(
  nodes: readonly ValidatorDescr[],
  set: SignatureSet,
  to: BlockIdExt,
  catchainSeqno: number,
  validatorSetHash: number,
): string | null {
  if (set.catchainSeqno >>> 0 !== catchainSeqno >>> 0)
    return `the set is of catchain session ${set.catchainSeqno >>> 0}, the block header names ${catchainSeqno >>> 0}`;
  if (set.validatorSetHash >>> 0 !== validatorSetHash >>> 0)
    return `the set names validator list ${set.validatorSetHash >>> 0}, the block header ${validatorSetHash >>> 0}`;
  if (set.kind === 'ordinary') return signaturesProblem(nodes, set.signatures, blockSigningPayload(to.rootHash, to.fileHash));
  const signed = simplexPayloadFor(to, set.sessionId, set.slot, set.candidate);
  if ('problem' in signed) return signed.problem;
  return signaturesProblem(nodes, set.signatures, signed.payload);
}
