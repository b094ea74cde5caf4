import {
  blockSigningPayload,
  ChainError,
  hashmapPath,
  nodeIdShort,
  proofKeeping,
  type BlockAndState,
  type BlockHeader,
  type BlockRef,
  type BlockSignatures,
  type ShardBlockProof,
} from '@tongate/chain';
import { convertToMerkleProof } from '@ton/core';
import type { BlockCells } from './block-cells.js';
import type { HistoryIndex } from './history.js';
import type { Ed25519Signer } from './keys.js';
import type { StoredBlock } from './store.js';

/** Longest chain of masterchain back links served by getShardBlockProof. */
const MAX_PROOF_LINKS = 1000;

/** What the devnet's one validator vouches for: block headers, masterchain block signatures and shard block proofs. */
export class Proofs {
  constructor(
    private readonly history: HistoryIndex,
    private readonly globalId: number,
    private readonly validator: Ed25519Signer,
    private readonly cells: BlockCells,
    /** Other validator keys the devnet holds (its devnet validators'). */
    private readonly heldKeys: Ed25519Signer[] = [],
  ) {}

  header(ref: BlockRef): BlockHeader {
    return this.cells.header(this.history.blockAt(ref));
  }

  /**
   * Signatures of a masterchain block by the main validators of the set in force (param 34 before its round) whose
   * keys the devnet holds: its block signer and the devnet validators, which its elections elect. The signer alone
   * when the set holds none of them.
   */
  signatures(seqno: number): BlockSignatures {
    const b = this.history.mcAt(seqno);
    const payload = blockSigningPayload(b.id.rootHash, b.id.fileHash);
    const main = this.cells.mainValidators(seqno).map((v) => v.publicKey.toString('hex'));
    const held = [this.validator, ...this.heldKeys].filter(
      (k, i, all) => main.includes(k.publicKey.toString('hex')) && all.findIndex((o) => o.publicKey.equals(k.publicKey)) === i,
    );
    const signers = held.length > 0 ? held : [this.validator];
    return { id: b.id, signatures: signers.map((k) => ({ nodeIdShort: nodeIdShort(k.publicKey), signature: k.sign(payload) })) };
  }

  /**
   * Merkle proofs of the blocks' cells: a link's `proof` proves the masterchain block whose McBlockExtra lists the
   * shard block; each back link proves its `from` and `to` blocks and, in `stateProof`, the state after `from`, whose
   * prev_blocks list `to`.
   */
  shardBlockProof(ref: BlockRef, fromMcSeqno?: number): ShardBlockProof {
    const history = this.history;
    const target = history.blockAt(ref);
    const mc = target.id.workchain === -1 ? target : history.mcAt(target.masterchainRef!.seqno);
    const from = history.mcAt(fromMcSeqno);
    if (from.id.seqno < mc.id.seqno) {
      throw new ChainError(
        'invalid',
        `masterchain block ${from.id.seqno} is older than block ${mc.id.seqno} that commits the requested block`,
      );
    }
    if (from.id.seqno - mc.id.seqno > MAX_PROOF_LINKS) {
      throw new ChainError('invalid', `devnet proofs span at most ${MAX_PROOF_LINKS} masterchain blocks; pass a closer from_seqno`);
    }
    const links = target === mc ? [] : [{ id: target.id, proof: this.blockProof(mc) }];
    const mcProof: ShardBlockProof['mcProof'] = [];
    for (let s = from.id.seqno; s > mc.id.seqno; s--) {
      const hi = history.mcAt(s);
      const lo = history.mcAt(s - 1);
      mcProof.push({
        toKeyBlock: lo.id.seqno === 0,
        from: hi.id,
        to: lo.id,
        destProof: this.blockProof(lo),
        proof: this.blockProof(hi),
        stateProof: this.prevBlockProof(hi, lo.id.seqno),
      });
    }
    return { from: from.id, mcId: mc.id, links, mcProof };
  }

  /** A block's cells; refused for a block whose id is not their hash (one sealed before the devnet's blocks were cells). */
  blockCells(ref: BlockRef): BlockAndState {
    const b = this.history.blockAt(ref);
    const cells = this.cells.of(b.id);
    if (!cells.block.hash().equals(b.id.rootHash))
      throw new ChainError('not_found', `block (${b.id.workchain},${b.id.seqno}) has an id that is not the hash of its cells`);
    return cells;
  }

  private blockProof(b: StoredBlock): Buffer {
    return convertToMerkleProof(this.cells.of(b.id).block).toBoc();
  }

  /** A proof of the state after masterchain block `b` that keeps the path to one entry of its prev_blocks. */
  private prevBlockProof(b: StoredBlock, seqno: number): Buffer {
    const state = this.cells.of(b.id).state;
    const custom = state.refs[3];
    const inner = custom.refs[custom.refs.length - 1];
    const path = inner.refs.length > 0 ? hashmapPath(inner.refs[0], BigInt(seqno), 32) : [];
    return proofKeeping(state, new Set([state, custom, inner, ...path])).toBoc();
  }
}
