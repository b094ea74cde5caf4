import { beginCell, type Cell } from '@ton/core';
import type { BlockHeader, BlockIdExt, BlockRef } from '@tongate/chain';
import { blockExtra } from './block-extra.js';
import { loadExtBlkRef, storeExtBlkRef, type ExtBlkRef } from './ext-blk-ref.js';
import { mcBlockExtraCell } from './mc-block-extra.js';
import { childShard, loadShardIdent, parentShard, storeShardIdent, toSigned, toUnsigned } from './shard.js';

/**
 * Block and BlockInfo: the header a liteserver's proofs show (read), and blocks whose BlockInfo carries a ChainSource
 * BlockHeader (written for the liteserver that serves a ChainSource; value flow empty, the rest as given).
 */

const BLOCK_TAG = 0x11ef55aa;
const BLOCK_INFO_TAG = 0x9bc7a987;
const EMPTY = beginCell().endCell();

export interface BlockInfoInput {
  header: BlockHeader;
  /** end_lt of each previous block (ExtBlkRef carries it). */
  prevEndLts: bigint[];
  /** For shard blocks: the referenced masterchain block (id and end_lt). */
  masterRef?: ExtBlkRef;
  /** The states before and after the block: a real MERKLE_UPDATE whose new hash is the state's hash. */
  stateUpdate?: { before: Cell; after: Cell };
  /** For masterchain blocks: ShardHashes (as `buildShardHashes` makes it) carried in McBlockExtra. */
  shardHashes?: Cell;
  /** For key blocks: the config (ConfigParams) McBlockExtra carries, which forward links of block proofs read. */
  config?: { address: Buffer; root: Cell };
}

/** A MERKLE_UPDATE from one state to the next (its hashes and depths are the states' own). */
function merkleUpdate(before: Cell, after: Cell): Cell {
  return beginCell()
    .storeUint(4, 8)
    .storeBuffer(before.hash(0), 32)
    .storeBuffer(after.hash(0), 32)
    .storeUint(before.depth(0), 16)
    .storeUint(after.depth(0), 16)
    .storeRef(before)
    .storeRef(after)
    .endCell({ exotic: true });
}

/** A `Block` cell whose BlockInfo carries a ChainSource BlockHeader (value flow empty; state update and extra as given). */
export function buildBlockCell(input: BlockInfoInput): Cell {
  const h = input.header;
  const notMaster = h.id.workchain !== -1;
  const info = beginCell()
    .storeUint(BLOCK_INFO_TAG, 32)
    .storeUint(h.version, 32)
    .storeBit(notMaster)
    .storeBit(h.afterMerge)
    .storeBit(h.beforeSplit)
    .storeBit(h.afterSplit)
    .storeBit(h.wantSplit)
    .storeBit(h.wantMerge)
    .storeBit(h.isKeyBlock)
    .storeBit(false) // vert_seqno_incr
    .storeUint(0, 8) // flags: no gen_software
    .storeUint(h.id.seqno, 32)
    .storeUint(h.vertSeqno, 32)
    .store(storeShardIdent(h.id.workchain, h.id.shard))
    .storeUint(h.genUtime, 32)
    .storeUint(h.startLt, 64)
    .storeUint(h.endLt, 64)
    .storeUint(h.validatorListHashShort >>> 0, 32)
    .storeUint(h.catchainSeqno, 32)
    .storeUint(h.minRefMcSeqno, 32)
    .storeUint(h.prevKeyBlockSeqno, 32);
  if (notMaster) {
    if (!input.masterRef) throw new Error('a shard block header needs its masterchain reference');
    info.storeRef(storeExtBlkRef(input.masterRef));
  }
  const prevRef = (i: number) =>
    storeExtBlkRef({
      endLt: input.prevEndLts[i] ?? 0n,
      seqno: h.prevBlocks[i]?.seqno ?? 0,
      rootHash: h.prevBlocks[i]?.rootHash ?? Buffer.alloc(32),
      fileHash: h.prevBlocks[i]?.fileHash ?? Buffer.alloc(32),
    });
  info.storeRef(h.afterMerge ? beginCell().storeRef(prevRef(0)).storeRef(prevRef(1)) : prevRef(0));
  const update = input.stateUpdate ? merkleUpdate(input.stateUpdate.before, input.stateUpdate.after) : EMPTY;
  const custom = input.shardHashes || input.config ? mcBlockExtraCell(input.shardHashes, input.config) : null;
  const extra = input.stateUpdate || custom ? blockExtra(custom) : EMPTY;
  return beginCell()
    .storeUint(BLOCK_TAG, 32)
    .storeInt(h.globalId, 32)
    .storeRef(info)
    .storeRef(EMPTY)
    .storeRef(update)
    .storeRef(extra)
    .endCell();
}

/** The Block inside a header proof (a MerkleProof root, or the block itself). */
export function blockOfProof(root: Cell): Cell {
  return root.isExotic ? root.refs[0] : root;
}

/** Reads a Block cell's BlockInfo as a ChainSource BlockHeader (without shardBlocks, which come from ShardHashes). */
export function parseBlockHeader(id: BlockIdExt, block: Cell): BlockHeader {
  const b = block.beginParse();
  if (b.loadUint(32) !== BLOCK_TAG) throw new Error('not a Block cell');
  const globalId = b.loadInt(32);
  const s = b.loadRef().beginParse();
  if (s.loadUint(32) !== BLOCK_INFO_TAG) throw new Error('not a BlockInfo cell');
  const version = s.loadUint(32);
  const notMaster = s.loadBit();
  const afterMerge = s.loadBit();
  const beforeSplit = s.loadBit();
  const afterSplit = s.loadBit();
  const wantSplit = s.loadBit();
  const wantMerge = s.loadBit();
  const isKeyBlock = s.loadBit();
  const vertSeqnoIncr = s.loadBit();
  const flags = s.loadUint(8);
  const seqno = s.loadUint(32);
  const vertSeqno = s.loadUint(32);
  const shard = loadShardIdent(s);
  const genUtime = s.loadUint(32);
  const startLt = s.loadUintBig(64);
  const endLt = s.loadUintBig(64);
  const validatorListHashShort = s.loadInt(32);
  const catchainSeqno = s.loadUint(32);
  const minRefMcSeqno = s.loadUint(32);
  const prevKeyBlockSeqno = s.loadUint(32);
  void vertSeqnoIncr;
  if (seqno !== id.seqno || shard.workchain !== id.workchain || shard.shard !== id.shard) {
    throw new Error(`block header is for (${shard.workchain},${toUnsigned(shard.shard).toString(16)},${seqno}), not the requested block`);
  }
  let masterchainRef: BlockRef | undefined;
  if (notMaster) {
    const m = loadExtBlkRef(s.loadRef().beginParse());
    masterchainRef = { workchain: -1, shard: toSigned(1n << 63n), seqno: m.seqno };
  }
  const prevCell = s.loadRef();
  const prevBlocks: BlockIdExt[] = [];
  if (seqno > 0) {
    if (afterMerge) {
      prevCell.refs.forEach((ref, i) => {
        const r = loadExtBlkRef(ref.beginParse());
        prevBlocks.push({
          workchain: id.workchain,
          shard: childShard(id.shard, i === 1),
          seqno: r.seqno,
          rootHash: r.rootHash,
          fileHash: r.fileHash,
        });
      });
    } else {
      const r = loadExtBlkRef(prevCell.beginParse());
      prevBlocks.push({
        workchain: id.workchain,
        shard: afterSplit ? parentShard(id.shard) : id.shard,
        seqno: r.seqno,
        rootHash: r.rootHash,
        fileHash: r.fileHash,
      });
    }
  }
  return {
    id,
    globalId,
    version,
    flags,
    afterMerge,
    afterSplit,
    beforeSplit,
    wantMerge,
    wantSplit,
    validatorListHashShort,
    catchainSeqno,
    minRefMcSeqno,
    isKeyBlock,
    prevKeyBlockSeqno,
    vertSeqno,
    startLt,
    endLt,
    genUtime,
    prevBlocks,
    ...(notMaster ? { masterchainRef } : {}),
  };
}
