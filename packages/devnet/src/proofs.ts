import {
  blockSigningPayload,
  ChainError,
  nodeIdShort,
  type BlockHeader,
  type BlockRef,
  type BlockSignatures,
  type ShardBlockProof,
} from '@tongate/chain';
import { serializeBlock } from './blocks.js';
import type { HistoryIndex } from './history.js';
import type { Ed25519Signer } from './keys.js';
import type { StoredBlock } from './store.js';

/** Longest chain of masterchain back links served by getShardBlockProof. */
const MAX_PROOF_LINKS = 1000;
const ZERO32 = Buffer.alloc(32);

/** What the devnet's one validator vouches for: block headers, masterchain block signatures and shard block proofs. */
export class Proofs {
  constructor(
    private readonly history: HistoryIndex,
    private readonly globalId: number,
    private readonly validator: Ed25519Signer,
  ) {}

  header(ref: BlockRef): BlockHeader {
    const b = this.history.blockAt(ref);
    const isMc = b.id.workchain === -1;
    const validatorNode = nodeIdShort(this.validator.publicKey);
    return {
      id: b.id,
      globalId: this.globalId,
      version: 0,
      flags: 0,
      afterMerge: b.prevBlocks.length === 2,
      afterSplit: b.prevBlocks.length === 1 && b.prevBlocks[0].shard !== b.id.shard,
      beforeSplit: b.beforeSplit === true,
      wantMerge: false,
      wantSplit: false,
      validatorListHashShort: validatorNode.readInt32BE(0),
      catchainSeqno: 0,
      minRefMcSeqno: isMc ? b.id.seqno : Math.max(0, (b.masterchainRef?.seqno ?? 1) - 1),
      isKeyBlock: isMc && b.id.seqno === 0,
      prevKeyBlockSeqno: 0,
      vertSeqno: 0,
      startLt: b.startLt,
      endLt: b.endLt,
      genUtime: b.genUtime,
      prevBlocks: b.prevBlocks,
      ...(isMc ? { shardBlocks: b.shardBlocks } : { masterchainRef: b.masterchainRef }),
    };
  }

  signatures(seqno: number): BlockSignatures {
    const b = this.history.mcAt(seqno);
    const signature = this.validator.sign(blockSigningPayload(b.id.rootHash, b.id.fileHash));
    return { id: b.id, signatures: [{ nodeIdShort: nodeIdShort(this.validator.publicKey), signature }] };
  }

  /**
   * Devnet proofs are the canonical block serializations (see blocks.ts), not Merkle proofs: a link's `proof` is the
   * serialization of the masterchain block that lists the shard block; each back link carries the serializations of
   * its `from` block (which names its predecessor) and of its `to` block. sha256 of each equals the block's root hash.
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
    const links = target === mc ? [] : [{ id: target.id, proof: this.serialized(mc) }];
    const mcProof: ShardBlockProof['mcProof'] = [];
    for (let s = from.id.seqno; s > mc.id.seqno; s--) {
      const hi = history.mcAt(s);
      const lo = history.mcAt(s - 1);
      mcProof.push({
        toKeyBlock: false,
        from: hi.id,
        to: lo.id,
        destProof: this.serialized(lo),
        proof: this.serialized(hi),
        stateProof: Buffer.alloc(0),
      });
    }
    return { from: from.id, mcId: mc.id, links, mcProof };
  }

  private serialized(b: StoredBlock): Buffer {
    return serializeBlock({
      globalId: this.globalId,
      workchain: b.id.workchain,
      shard: b.id.shard,
      seqno: b.id.seqno,
      genUtime: b.genUtime,
      startLt: b.startLt,
      endLt: b.endLt,
      prevBlocks: b.prevBlocks,
      shardBlocks: b.shardBlocks,
      stateHash: b.id.workchain === -1 ? b.stateHash : ZERO32,
      transactions: b.txs,
    });
  }
}
