import { createHash } from 'node:crypto';
import { beginCell, Cell, convertToMerkleProof, Dictionary } from '@ton/core';
import {
  blockSigningPayload,
  nodeIdShort,
  simplexSigningPayload,
  writeCandidateHashData,
  WHOLE_SHARD,
  type BlockHeader,
  type BlockIdExt,
  type CandidateHashData,
} from '@tongate/chain';
import type * as tl from '@tongate/liteserver-tl';
import { LS_CODE, LiteServerError } from '../errors.js';
import { buildBlockCell } from '../cells/block.js';
import { configParamOf } from '../cells/config.js';
import { buildConfigShardState, type OldMcBlockInput } from '../cells/mc-state-extra.js';

import { masterchainValidators, parseShuffleMcValidators, parseValidatorSet, validatorSetHashShort } from '../validators.js';

/**
 * A masterchain of real cells, signed by validator keys: block ids are the cells' hashes, the zero state and every key
 * block carry a config whose param 34 is the validator set, and each block is signed by the main validators of the
 * set the previous key block names, as the header's gen_validator_list_hash_short says. ChainLiteServer serves its
 * head, headers and getBlockProof chains (forward links with these signatures, back links through the states'
 * prev_blocks), so a client's signature-chain checks run over ADNL against answers built like a real liteserver's.
 * Blocks from `simplexFrom` on are signed as the Catchain 2.0 (Simplex) consensus signs them: finalize votes for
 * the block's consensus candidate in a session and slot, passed on as `signatureSet.simplex`; older ones with
 * ordinary sets, so a chain can cross the switch. (A ChainSource like the devnet does not make such liars or
 * simplex sets.) Options per block make a liar: signatures by other keys, by too few validators, or tampered, and
 * simplex sets replayed from another slot, session or block.
 */

/** A validator's key (the devnet's Ed25519Signer has this shape). */
export interface ValidatorKey {
  publicKey: Buffer;
  sign(data: Buffer): Buffer;
}

export interface SignedMasterchainOptions {
  globalId: number;
  /** Config param 34 of the zero state (ValidatorSet cell). */
  validatorSet: Cell;
  /** Config param 28 (CatchainConfig); none = validators not shuffled. */
  catchainConfig?: Cell;
  /** Keys of the validators (of every set the chain will use); who is in a set signs its blocks. */
  keys: ValidatorKey[];
  genUtime?: number;
  /** The first block signed with simplex sets (default: none; 1 = every block). */
  simplexFrom?: number;
}

/**
 * How a simplex set lies about what its signatures cover: `slot` / `session`, votes of another slot or session under
 * this one's; `block`, the previous block's whole set (its candidate names that block); `ordinary`, signatures over
 * the block's `ton.blockId` as an ordinary set signs.
 */
export type SimplexReplay = 'slot' | 'session' | 'block' | 'ordinary';

export interface AddBlockOptions {
  /** Make this a key block whose config sets a new validator set (param 34), used from the next block on. */
  newValidatorSet?: Cell;
  /** Sign with these keys instead of the validators the previous key block names (a liar's block). */
  signWith?: ValidatorKey[];
  /** Name this validator set in the header (gen_validator_list_hash_short) instead of the one in force. */
  claimValidatorSet?: Cell;
  /** Sign with only these validators of the set in force (by index in the signing subset). */
  onlySigners?: number[];
  /** Flip a byte in every signature. */
  tamperSignatures?: boolean;
  /** A simplex block finalized through a later empty candidate (a leader that proposed no block) that names it. */
  emptyCandidate?: boolean;
  /** A simplex set whose signatures cover something else (see SimplexReplay). */
  replay?: SimplexReplay;
}

interface MasterBlock {
  id: BlockIdExt;
  /** The Block cell (the zero state: the state cell). */
  cell: Cell;
  /** The state after the block (ShardStateUnsplit with McStateExtra: config and prev_blocks). */
  state: Cell;
  isKeyBlock: boolean;
  configRoot: Cell;
  genUtime: number;
  endLt: bigint;
  catchainSeqno: number;
  validatorListHashShort: number;
  signatureSet: tl.LiteServerSignatureSet;
}

const CONFIG_ADDRESS = Buffer.alloc(32, 0x55);
/** A real liteserver sends at most 16 links per getBlockProof answer. */
const MAX_LINKS = 16;

const fileHashOf = (cell: Cell) => createHash('sha256').update(cell.toBoc()).digest();
const proofOf = (cell: Cell) => convertToMerkleProof(cell).toBoc();
const tlId = (id: BlockIdExt): tl.TonNodeBlockIdExt => ({
  workchain: id.workchain,
  shard: id.shard,
  seqno: id.seqno,
  rootHash: id.rootHash,
  fileHash: id.fileHash,
});

function configWith(root: Cell | null, params: Record<number, Cell | undefined>): Cell {
  const dict = root
    ? Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), root.beginParse())
    : Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  for (const [id, cell] of Object.entries(params)) if (cell) dict.set(Number(id), cell);
  return beginCell().storeDictDirect(dict).endCell();
}

export class SignedMasterchain {
  private readonly blocks: MasterBlock[] = [];
  private readonly keys: ValidatorKey[];
  private readonly globalId: number;
  private readonly simplexFrom: number;

  constructor(opts: SignedMasterchainOptions) {
    this.globalId = opts.globalId;
    this.keys = opts.keys;
    this.simplexFrom = opts.simplexFrom ?? Infinity;
    const genUtime = opts.genUtime ?? 1_700_000_000;
    const configRoot = configWith(null, { 34: opts.validatorSet, 28: opts.catchainConfig });
    const state = buildConfigShardState(
      { globalId: opts.globalId, workchain: -1, shard: WHOLE_SHARD, seqno: 0, genUtime, genLt: 0n },
      configRoot,
      CONFIG_ADDRESS,
    );
    this.blocks.push({
      id: { workchain: -1, shard: WHOLE_SHARD, seqno: 0, rootHash: state.hash(), fileHash: fileHashOf(state) },
      cell: state,
      state,
      isKeyBlock: true,
      configRoot,
      genUtime,
      endLt: 0n,
      catchainSeqno: 0,
      validatorListHashShort: 0,
      signatureSet: { _: 'liteServer.signatureSet.ordinary', validatorSetHash: 0, catchainSeqno: 0, signatures: [] },
    });
  }

  get zeroState(): BlockIdExt {
    return this.blocks[0].id;
  }

  get head(): BlockIdExt {
    return this.blocks[this.blocks.length - 1].id;
  }

  headUtime(): number {
    return this.blocks[this.blocks.length - 1].genUtime;
  }

  headStateHash(): Buffer {
    return this.blocks[this.blocks.length - 1].state.hash();
  }

  /** The key block (or the zero state) in force at `seqno`: the newest at or before it. */
  private keyBlockAt(seqno: number): MasterBlock {
    for (let s = seqno; s > 0; s--) if (this.blocks[s].isKeyBlock) return this.blocks[s];
    return this.blocks[0];
  }

  /** The newest key block after `seqno`, up to `limit`, if any. */
  private nextKeyBlock(seqno: number, limit: number): MasterBlock | null {
    for (let s = seqno + 1; s <= limit; s++) if (this.blocks[s].isKeyBlock) return this.blocks[s];
    return null;
  }

  /** Appends a block signed as the options say (by default: honestly). */
  addBlock(opts: AddBlockOptions = {}): BlockIdExt {
    const prev = this.blocks[this.blocks.length - 1];
    const seqno = prev.id.seqno + 1;
    const key = this.keyBlockAt(prev.id.seqno);
    const shuffle = parseShuffleMcValidators(configParamOf(key.configRoot, 28));
    // A new catchain session with each validator set (each key block here sets one).
    const catchainSeqno = 1 + this.blocks.filter((b) => b.id.seqno > 0 && b.id.seqno <= key.id.seqno && b.isKeyBlock).length;
    const inForce = masterchainValidators(parseValidatorSet(configParamOf(key.configRoot, 34)!), shuffle, catchainSeqno);
    const named = opts.claimValidatorSet
      ? masterchainValidators(parseValidatorSet(opts.claimValidatorSet), shuffle, catchainSeqno)
      : inForce;
    const isKeyBlock = opts.newValidatorSet !== undefined;
    const configRoot = isKeyBlock ? configWith(prev.configRoot, { 34: opts.newValidatorSet }) : prev.configRoot;
    const genUtime = prev.genUtime + 5;
    const startLt = BigInt(seqno) * 1_000_000n;
    const endLt = startLt + 1000n;
    const header: BlockHeader = {
      id: { workchain: -1, shard: WHOLE_SHARD, seqno, rootHash: Buffer.alloc(32), fileHash: Buffer.alloc(32) },
      globalId: this.globalId,
      version: 0,
      flags: 0,
      afterMerge: false,
      afterSplit: false,
      beforeSplit: false,
      wantMerge: false,
      wantSplit: false,
      validatorListHashShort: validatorSetHashShort(catchainSeqno, named) | 0,
      catchainSeqno,
      minRefMcSeqno: seqno,
      isKeyBlock,
      prevKeyBlockSeqno: key.id.seqno,
      vertSeqno: 0,
      startLt,
      endLt,
      genUtime,
      prevBlocks: [prev.id],
    };
    const prevBlocks: OldMcBlockInput[] = this.blocks.map((b) => ({ id: b.id, endLt: b.endLt, isKeyBlock: b.isKeyBlock }));
    const state = buildConfigShardState(
      { globalId: this.globalId, workchain: -1, shard: WHOLE_SHARD, seqno, genUtime, genLt: endLt },
      configRoot,
      CONFIG_ADDRESS,
      prevBlocks,
    );
    const cell = buildBlockCell({
      header,
      prevEndLts: [prev.endLt],
      stateUpdate: { before: prev.state, after: state },
      config: isKeyBlock ? { address: CONFIG_ADDRESS, root: configRoot } : undefined,
    });
    const id: BlockIdExt = { ...header.id, rootHash: cell.hash(), fileHash: fileHashOf(cell) };
    const signers =
      opts.signWith ?? inForce.filter((_, i) => !opts.onlySigners || opts.onlySigners.includes(i)).map((v) => this.keyOf(v.publicKey));
    const sign = (payload: Buffer) =>
      signers.map((k) => {
        const signature = k.sign(payload);
        if (opts.tamperSignatures) signature[10] ^= 0x40;
        return { nodeIdShort: nodeIdShort(k.publicKey), signature };
      });
    const validatorSetHash = header.validatorListHashShort;
    let signatureSet: tl.LiteServerSignatureSet;
    if (seqno < this.simplexFrom) {
      signatureSet = {
        _: 'liteServer.signatureSet.ordinary',
        validatorSetHash,
        catchainSeqno,
        signatures: sign(blockSigningPayload(id.rootHash, id.fileHash)),
      };
    } else if (opts.replay === 'block') {
      if (prev.signatureSet._ !== 'liteServer.signatureSet.simplex')
        throw new Error('a replayed set needs a previous block signed with a simplex set');
      signatureSet = prev.signatureSet;
    } else {
      // A session per validator set (the node hashes the group's description); slots run ahead of blocks, as skipped
      // slots do on a live network.
      const sessionId = createHash('sha256')
        .update(`simplex session ${catchainSeqno} ${key.id.rootHash.toString('hex')}`)
        .digest();
      // The parent candidate is the previous block's (the one its set finalized), none across the switch.
      const parentSet = prev.signatureSet._ === 'liteServer.signatureSet.simplex' ? prev.signatureSet : null;
      const parent = parentSet ? { slot: parentSet.slot, hash: createHash('sha256').update(parentSet.candidate).digest() } : null;
      const ordinary: CandidateHashData = {
        kind: 'ordinary',
        block: id,
        collatedFileHash: createHash('sha256').update(cell.hash()).digest(),
        parent,
      };
      let slot = 3 * seqno + 1;
      let candidateData: CandidateHashData = ordinary;
      if (opts.emptyCandidate) {
        candidateData = {
          kind: 'empty',
          block: id,
          parent: { slot, hash: createHash('sha256').update(writeCandidateHashData(ordinary)).digest() },
        };
        slot += 1;
      }
      const candidate = writeCandidateHashData(candidateData);
      const signedSlot = opts.replay === 'slot' ? slot + 1 : slot;
      const signedSession = opts.replay === 'session' ? createHash('sha256').update(sessionId).digest() : sessionId;
      const payload =
        opts.replay === 'ordinary'
          ? blockSigningPayload(id.rootHash, id.fileHash)
          : simplexSigningPayload(signedSession, signedSlot, candidate);
      signatureSet = {
        _: 'liteServer.signatureSet.simplex',
        ccSeqno: catchainSeqno,
        validatorSetHash,
        signatures: sign(payload),
        sessionId,
        slot,
        candidate,
      };
    }
    this.blocks.push({
      id,
      cell,
      state,
      isKeyBlock,
      configRoot,
      genUtime,
      endLt,
      catchainSeqno,
      validatorListHashShort: validatorSetHash,
      signatureSet,
    });
    return id;
  }

  /** The signature set block `seqno` was signed with. */
  signatureSetOf(seqno: number): tl.LiteServerSignatureSet {
    return this.blocks[seqno].signatureSet;
  }

  private keyOf(publicKey: Buffer): ValidatorKey {
    const k = this.keys.find((k) => k.publicKey.equals(publicKey));
    if (!k) throw new Error(`no key for validator ${publicKey.toString('hex')}`);
    return k;
  }

  /** A block of this chain by id (hashes must match), or a -400 "unknown block" as a liteserver answers. */
  known(id: tl.TonNodeBlockIdExt): MasterBlock {
    const b = id.workchain === -1 ? this.blocks[id.seqno] : undefined;
    if (!b || !b.id.rootHash.equals(id.rootHash) || !b.id.fileHash.equals(id.fileHash))
      throw new LiteServerError(LS_CODE.FATAL, `block (${id.workchain},${id.seqno}) is unknown`);
    return b;
  }

  /** lookupBlock / getBlockHeader of a masterchain block: its id and a header proof (the whole Block cell). */
  header(seqno: number): { id: tl.TonNodeBlockIdExt; proof: Buffer } | null {
    const b = this.blocks[seqno];
    if (!b || seqno === 0) return null;
    return { id: tlId(b.id), proof: proofOf(b.cell) };
  }

  private forward(from: MasterBlock, to: MasterBlock): tl.LiteServerBlockLink {
    return {
      _: 'liteServer.blockLinkForward',
      toKeyBlock: to.isKeyBlock,
      from: tlId(from.id),
      to: tlId(to.id),
      destProof: proofOf(to.cell),
      configProof: proofOf(from.cell),
      signatures: to.signatureSet,
    };
  }

  private back(from: MasterBlock, to: MasterBlock): tl.LiteServerBlockLink {
    return {
      _: 'liteServer.blockLinkBack',
      toKeyBlock: to.isKeyBlock,
      from: tlId(from.id),
      to: tlId(to.id),
      destProof: to.id.seqno === 0 ? Buffer.alloc(0) : proofOf(to.cell),
      proof: proofOf(from.cell),
      stateProof: proofOf(from.state),
    };
  }

  /**
   * getBlockProof as the C++ liteserver builds it (construct_proof_chain): from a block that is not a key block, back
   * to its key block; from a key block, forward to the next key block (known to the reference block: the target
   * with mode 0x1000, else the head), or to the target; a target behind, one back link. At most 16 links an answer.
   */
  blockProof(mode: number, knownBlock: tl.TonNodeBlockIdExt, targetBlock?: tl.TonNodeBlockIdExt): tl.LiteServerPartialBlockProof {
    const from = this.known(knownBlock);
    const target = mode & 1 && targetBlock ? this.known(targetBlock) : this.blocks[this.blocks.length - 1];
    const reference = mode & 0x1000 ? Math.max(from.id.seqno, target.id.seqno) : this.blocks.length - 1;
    const steps: tl.LiteServerBlockLink[] = [];
    let cur = from;
    while (cur !== target && steps.length < MAX_LINKS) {
      let next: MasterBlock;
      if (target.id.seqno < cur.id.seqno) next = target;
      else {
        const key = this.keyBlockAt(cur.id.seqno);
        if (key !== cur) {
          steps.push(this.back(cur, key));
          cur = key;
          continue;
        }
        next = this.nextKeyBlock(cur.id.seqno, reference) ?? target;
      }
      steps.push(next.id.seqno > cur.id.seqno ? this.forward(cur, next) : this.back(cur, next));
      cur = next;
    }
    return { complete: cur === target, from: tlId(from.id), to: tlId(cur.id), steps };
  }
}
