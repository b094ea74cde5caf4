import { createHash } from 'node:crypto';
import {
  blockHeaderProof,
  blockSigningPayload,
  ChainError,
  hashmapPath,
  LruCache,
  nodeIdShort,
  proofKeeping,
  simplexSigningPayload,
  writeCandidateHashData,
  type CandidateId,
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

/**
 * How the devnet's validators sign masterchain blocks: `simplex`, as mainnet and testnet sign today (Catchain 2.0:
 * finalize votes for the block's consensus candidate, passed on as `liteServer.signatureSet.simplex`), or `catchain`,
 * the ordinary sets of the networks before it (signatures of `ton.blockId`).
 */
export type DevnetConsensus = 'simplex' | 'catchain';
export const DEVNET_CONSENSUS_VALUES: readonly DevnetConsensus[] = ['simplex', 'catchain'];

/** Consensus candidates kept in memory; an older block's is derived again from the session's start. */
const RECENT_CANDIDATES = 4096;

/** What the devnet's validators vouch for: block headers, masterchain block signatures and shard block proofs. */
export class Proofs {
  private readonly candidates = new LruCache<number, Buffer>(RECENT_CANDIDATES);
  /** Session ids by the hash of the config they follow from. */
  private readonly sessions = new LruCache<string, Buffer>(64);

  constructor(
    private readonly history: HistoryIndex,
    private readonly globalId: number,
    private readonly validator: Ed25519Signer,
    private readonly cells: BlockCells,
    /** Other validator keys the devnet holds (its devnet validators' and the seeded pools' validators'). */
    private readonly heldKeys: Ed25519Signer[] = [],
    private readonly consensus: DevnetConsensus = 'simplex',
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
    const main = this.cells.mainValidators(b.id.seqno).map((v) => v.publicKey.toString('hex'));
    const held = [this.validator, ...this.heldKeys].filter(
      (k, i, all) => main.includes(k.publicKey.toString('hex')) && all.findIndex((o) => o.publicKey.equals(k.publicKey)) === i,
    );
    const signers = held.length > 0 ? held : [this.validator];
    const sign = (payload: Buffer) => signers.map((k) => ({ nodeIdShort: nodeIdShort(k.publicKey), signature: k.sign(payload) }));
    if (this.consensus === 'catchain' || b.id.seqno === 0)
      return { id: b.id, signatures: sign(blockSigningPayload(b.id.rootHash, b.id.fileHash)) };
    const sessionId = this.sessionOf(b.id.seqno);
    const slot = b.id.seqno;
    const candidate = this.candidateOf(b.id.seqno);
    return { id: b.id, signatures: sign(simplexSigningPayload(sessionId, slot, candidate)), simplex: { sessionId, slot, candidate } };
  }

  /**
   * The simplex session that finalizes masterchain block `seqno`: one per validator set, as the node derives a
   * session id from its validator group; here, from the network and the set in force (config param 34).
   */
  private sessionOf(seqno: number): Buffer {
    const config = this.cells.configBefore(seqno);
    return this.sessions.getOrCreate(config.hash().toString('hex'), () =>
      createHash('sha256')
        .update(`tongate devnet simplex session ${this.globalId} `)
        .update(this.cells.validatorSetOf(config)?.hash() ?? Buffer.alloc(32))
        .digest(),
    );
  }

  /**
   * The consensus candidate of masterchain block `seqno` (boxed consensus.CandidateHashData): an ordinary candidate
   * naming the block, the hash of its collated data (the devnet collates none; the block's hash stands for it) and
   * its parent, the previous block's candidate, except for the first block of a session. One slot per block: the
   * devnet's single leader never skips a slot. Candidates chain, so an old one is built from the session's start.
   */
  private candidateOf(seqno: number): Buffer {
    const cached = this.candidates.get(seqno);
    if (cached) return cached;
    // Back to the first block whose candidate is known or that starts its session, then forward.
    const session = this.sessionOf(seqno).toString('hex');
    let start = seqno;
    while (start > 1 && !this.candidates.get(start - 1) && this.sessionOf(start - 1).toString('hex') === session) start--;
    let parent: CandidateId | null = null;
    if (start > 1 && this.sessionOf(start - 1).toString('hex') === session) {
      parent = {
        slot: start - 1,
        hash: createHash('sha256')
          .update(this.candidates.get(start - 1)!)
          .digest(),
      };
    }
    let candidate: Buffer = Buffer.alloc(0);
    for (let s = start; s <= seqno; s++) {
      const id = this.history.mcAt(s).id;
      candidate = writeCandidateHashData({
        kind: 'ordinary',
        block: id,
        collatedFileHash: createHash('sha256').update(id.rootHash).digest(),
        parent,
      });
      this.candidates.set(s, candidate);
      parent = { slot: s, hash: createHash('sha256').update(candidate).digest() };
    }
    return candidate;
  }

  /**
   * Merkle proofs of the blocks' cells: a link's `proof` proves the masterchain block whose McBlockExtra lists the
   * shard block; the back link proves its `from` and `to` blocks and, in `stateProof`, the state after `from`, whose
   * prev_blocks list `to`. One back link spans any distance, as the C++ liteserver's construct_proof_link_back does:
   * a masterchain state lists every earlier masterchain block.
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
    const links = target === mc ? [] : [{ id: target.id, proof: this.blockProof(mc) }];
    const mcProof: ShardBlockProof['mcProof'] =
      from.id.seqno === mc.id.seqno
        ? []
        : [
            {
              toKeyBlock: this.cells.header(mc).isKeyBlock,
              from: from.id,
              to: mc.id,
              destProof: this.headerProof(mc),
              proof: this.headerProof(from),
              stateProof: this.prevBlockProof(from, mc.id.seqno),
            },
          ];
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

  /** A back link's proofs of its blocks: their headers and state updates, pruned as a liteserver's are. */
  private headerProof(b: StoredBlock): Buffer {
    return blockHeaderProof(this.cells.of(b.id).block).toBoc();
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
