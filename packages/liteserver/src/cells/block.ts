import type { Cell } from '@ton/core';
import type { BlockHeader, BlockIdExt, BlockRef } from '@tongate/chain';
import { loadExtBlkRef } from './ext-blk-ref.js';
import { childShard, loadShardIdent, parentShard, toSigned, toUnsigned } from './shard.js';

/**
 * Block and BlockInfo: the header a liteserver's proofs show (read). The writer (buildBlockCell) lives in
 * @tongate/chain, which the devnet builds its blocks with too.
 */

const BLOCK_TAG = 0x11ef55aa;
const BLOCK_INFO_TAG = 0x9bc7a987;

export { buildBlockCell, type BlockInfoInput } from '@tongate/chain';

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
