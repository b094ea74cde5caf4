import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { TlFunction } from '@tongate/liteserver-tl';
import * as tl from '@tongate/liteserver-tl';
import { ChainError, LruCache, WHOLE_SHARD, type BlockIdExt } from '@tongate/chain';
import { parseTrustedBlock, type TrustedBlock, type ZeroState } from '../config.js';
import { checkBlockProofChain, isProofRejection, type ChainLink } from '../proofs.js';
import type { SignatureSet } from '../validators.js';

/** One liteserver's query function (a connection, or a pool session pinned to a server). */
export type LiteQuery = <P, R>(fn: TlFunction<P, R>, params: P) => Promise<R>;

/** Answers of getBlockProof per head check: a real liteserver sends at most 16 links per answer. */
const MAX_ANSWERS = 256;
const VERIFIED_HEADS = 1024;

const toBlockId = (id: tl.TonNodeBlockIdExt): BlockIdExt => ({
  workchain: id.workchain,
  shard: id.shard,
  seqno: id.seqno,
  rootHash: id.rootHash,
  fileHash: id.fileHash,
});
const tlId = (id: BlockIdExt): tl.TonNodeBlockIdExt => ({
  workchain: id.workchain,
  shard: id.shard,
  seqno: id.seqno,
  rootHash: id.rootHash,
  fileHash: id.fileHash,
});
const idKey = (id: BlockIdExt) => `${id.seqno}:${id.rootHash.toString('hex')}:${id.fileHash.toString('hex')}`;
const reject = (what: string) => new ChainError('internal', `liteserver proof rejected: ${what}`);

/** A getBlockProof step as the proof checks take it. */
export function chainLink(step: tl.LiteServerBlockLink): ChainLink {
  if (step._ === 'liteServer.blockLinkBack') {
    return {
      _: 'back',
      toKeyBlock: step.toKeyBlock,
      from: toBlockId(step.from),
      to: toBlockId(step.to),
      destProof: step.destProof,
      proof: step.proof,
      stateProof: step.stateProof,
    };
  }
  return {
    _: 'forward',
    toKeyBlock: step.toKeyBlock,
    from: toBlockId(step.from),
    to: toBlockId(step.to),
    destProof: step.destProof,
    configProof: step.configProof,
    signatures: signatureSet(step.signatures),
  };
}

export function signatureSet(set: tl.LiteServerSignatureSet): SignatureSet {
  const signatures = set.signatures.map((s) => ({ nodeIdShort: s.nodeIdShort, signature: s.signature }));
  if (set._ === 'liteServer.signatureSet.ordinary')
    return { kind: 'ordinary', catchainSeqno: set.catchainSeqno, validatorSetHash: set.validatorSetHash, signatures };
  return {
    kind: 'simplex',
    catchainSeqno: set.ccSeqno,
    validatorSetHash: set.validatorSetHash,
    signatures,
    sessionId: set.sessionId,
    slot: set.slot,
    candidate: set.candidate,
  };
}

/**
 * Trust in the masterchain head, as tonlib's LastBlock builds it: from a trusted block (the config's init_block, or the
 * zero state), getBlockProof chains lead to each head a server reports; forward links carry the signatures of more
 * than 2/3 of the validators' weight that the previous key block names, so a server cannot invent a head (nor the
 * proofs under it). The newest key block a chain proves becomes the start of later chains (cached here), so each
 * new head costs one short chain.
 */
export class HeadTrust {
  private keyBlock: BlockIdExt;
  /** The newest block proven so far (older blocks are proven from it by one back link). */
  private latest: BlockIdExt;
  /** Proven blocks, with the gen_utime their proven header gives (null: not seen, as for the configured start). */
  private readonly verified = new LruCache<string, number | null>(VERIFIED_HEADS);
  /** The forward chain in progress, if any (see verify). */
  private queue: Promise<void> = Promise.resolve();

  /** `onKeyBlock` hears of each newer key block proven (to keep it across restarts). */
  constructor(
    start: BlockIdExt,
    private readonly onKeyBlock?: (id: BlockIdExt) => void,
  ) {
    if (start.workchain !== -1) throw new Error('the trusted block must be a masterchain block');
    this.keyBlock = start;
    this.latest = start;
    this.verified.set(idKey(start), null);
  }

  /** The newest trusted key block (or the configured start). */
  get trustedKeyBlock(): BlockIdExt {
    return this.keyBlock;
  }

  isVerified(id: BlockIdExt): boolean {
    return id.workchain === -1 && this.verified.get(idKey(id)) !== undefined;
  }

  /** A proven block's gen_utime, from its proven header (not the server's word); null when not known. */
  genUtimeOf(id: BlockIdExt): number | null {
    return this.verified.get(idKey(id)) ?? null;
  }

  /**
   * Proves masterchain block `id` (a head a server reports, or any block a server names) through `query`'s server, or
   * throws (a ChainError "proof rejected" when the server lies). A newer block: forward links from the trusted key
   * block. An older one: one back link from the newest proven block, else back from the key block.
   */
  async verify(query: LiteQuery, id: BlockIdExt): Promise<void> {
    if (id.workchain !== -1 || id.shard !== WHOLE_SHARD) throw reject(`block (${id.workchain},${id.seqno}) is not a masterchain block`);
    if (this.isVerified(id)) return;
    this.refuseOtherAtHeight(id);
    if (id.seqno < this.latest.seqno && this.latest !== this.keyBlock) {
      try {
        return await this.proveFrom(query, this.latest, id);
      } catch (err) {
        // A server behind the newest proven block does not know it; it may still know the key block.
        if (isProofRejection(err)) throw err;
      }
    }
    // Chains from the key block run one at a time: at start-up every server's head would otherwise walk the whole
    // way from the config's block; queued, the later ones start from the key block the first one reached.
    const run = this.queue.then(async () => {
      if (this.isVerified(id)) return;
      this.refuseOtherAtHeight(id);
      await this.proveFrom(query, this.keyBlock, id);
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A block of the height of a proven one but not it: another chain. */
  private refuseOtherAtHeight(id: BlockIdExt): void {
    for (const known of [this.latest, this.keyBlock])
      if (known.seqno === id.seqno) throw reject(`masterchain block ${id.seqno} is not the proven block of that height`);
  }

  private async proveFrom(query: LiteQuery, start: BlockIdExt, target: BlockIdExt): Promise<void> {
    let from = start;
    for (let answer = 0; ; answer++) {
      if (answer === MAX_ANSWERS) throw reject(`the block proof to ${target.seqno} takes more than ${MAX_ANSWERS} answers`);
      // 0x1000: the server builds the chain on the target's own state (as tonlib asks), not on its newer head.
      const res = await query(tl.liteServerGetBlockProof, { mode: 0x1001, knownBlock: tlId(from), targetBlock: tlId(target) });
      const links = res.steps.map(chainLink);
      const to = toBlockId(res.to);
      if (links.length === 0 && !res.complete) throw reject(`an incomplete block proof from ${from.seqno} with no links`);
      // The links must start where the chain was asked to start and join up (a complete answer: at the target).
      const { keyBlock: key, genUtime } = checkBlockProofChain(from, to, links);
      // What this answer's links proved stays proven, whatever the next answer brings.
      if (key && key.seqno > this.keyBlock.seqno) {
        this.keyBlock = key;
        // Proven on the way (its header was checked), though not the end of this answer.
        if (this.verified.get(idKey(key)) === undefined) this.verified.set(idKey(key), null);
        this.onKeyBlock?.(key);
      }
      this.verified.set(idKey(to), genUtime);
      if (res.complete) {
        if (to.seqno !== target.seqno || !to.rootHash.equals(target.rootHash) || !to.fileHash.equals(target.fileHash))
          throw reject(`the block proof ends at ${to.seqno}, not at ${target.seqno}`);
        break;
      }
      from = to;
    }
    if (target.seqno > this.latest.seqno) this.latest = target;
  }
}

/**
 * The newest proven key block, kept in a file across restarts (tongate.trusted_block_file), with the zero state of
 * its network so that a file of another network is never taken.
 */
export function loadTrustedBlockFile(file: string, zeroState: ZeroState | null): { block: TrustedBlock | null; problem: string | null } {
  let doc: { zero_state?: { root_hash?: unknown }; key_block?: object };
  try {
    doc = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { block: null, problem: null };
    return { block: null, problem: `cannot read ${file}: ${(err as Error).message}` };
  }
  if (!zeroState) return { block: null, problem: `the config has no validator.zero_state to match ${file} against` };
  if (doc.zero_state?.root_hash !== zeroState.rootHash.toString('base64'))
    return { block: null, problem: `${file} is of another zero state than the config's` };
  try {
    return { block: parseTrustedBlock(doc.key_block ?? {}, `${file} key_block`), problem: null };
  } catch (err) {
    return { block: null, problem: (err as Error).message };
  }
}

export function saveTrustedBlockFile(file: string, zeroState: ZeroState | null, id: BlockIdExt): void {
  const block = {
    workchain: -1,
    shard: '-9223372036854775808',
    seqno: id.seqno,
    root_hash: id.rootHash.toString('base64'),
    file_hash: id.fileHash.toString('base64'),
  };
  const doc = {
    note: 'the newest key block tongate proved by validator signatures; read at start-up',
    zero_state: { root_hash: zeroState?.rootHash.toString('base64') ?? null },
    key_block: block,
  };
  // Written aside, then renamed: a crash never leaves half a file.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(doc, null, 2) + '\n');
  renameSync(tmp, file);
}
