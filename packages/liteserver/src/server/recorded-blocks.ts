import { beginCell, convertToMerkleProof, type Cell } from '@ton/core';
import { proofKeeping as keepingProof, type BlockIdExt } from '@tongate/chain';
import type * as tl from '@tongate/liteserver-tl';
import { blockTransactionCells } from '../cells/block-extra.js';
import { shardHashesOfBlock } from '../cells/mc-block-extra.js';

/**
 * Whole blocks (real Block cells, as `liteServer.blockData` carries them) a ChainLiteServer serves as a liteserver
 * does: their headers (lookupBlock, getBlockHeader) with the block as the header proof, their transactions
 * (listBlockTransactions[Ext]) with the block as the proof that holds them, and a masterchain block's shard list
 * (getAllShardsInfo) from its McBlockExtra. The ids are the cells' hashes, so a client's proof checks run on the
 * blocks as recorded. As a real server's, a proof keeps what the answer names and prunes the rest: the header alone,
 * or the header and the account-block paths of the listed transactions (the shard list: the whole block).
 */
export interface RecordedBlock {
  id: BlockIdExt;
  block: Cell;
}

interface Entry extends RecordedBlock {
  headerProof: Buffer;
  transactions: { account: Buffer; lt: bigint; cell: Cell; path: Cell[] }[];
}

/** A Merkle proof of `root` that keeps the cells of `keep` (their other refs pruned) and the subtrees of `whole`. */
const proofKeeping = (root: Cell, keep: ReadonlySet<Cell>, whole: ReadonlySet<Cell>): Buffer => keepingProof(root, keep, whole).toBoc();

const refKey = (r: { workchain: number; shard: bigint; seqno: number }) => `${r.workchain}:${BigInt.asIntN(64, r.shard)}:${r.seqno}`;
const tlId = (id: BlockIdExt): tl.TonNodeBlockIdExt => ({
  workchain: id.workchain,
  shard: id.shard,
  seqno: id.seqno,
  rootHash: id.rootHash,
  fileHash: id.fileHash,
});

export class RecordedBlocks {
  private readonly blocks = new Map<string, Entry>();

  constructor(blocks: readonly RecordedBlock[]) {
    for (const b of blocks) {
      if (!b.block.hash().equals(b.id.rootHash))
        throw new Error(`block (${b.id.workchain},${b.id.seqno}): its cell hashes to another root hash than its id's`);
      // The header: BlockInfo (with its prev and master refs); value flow, state update and extra pruned.
      const headerProof = proofKeeping(b.block, new Set([b.block]), new Set([b.block.refs[0]]));
      this.blocks.set(refKey(b.id), { ...b, headerProof, transactions: blockTransactionCells(b.block) });
    }
  }

  /** A recorded block by coordinates (lookupBlock by seqno), or by full id (its hashes must match), if any. */
  find(ref: { workchain: number; shard: bigint; seqno: number; rootHash?: Buffer; fileHash?: Buffer }): Entry | null {
    const e = this.blocks.get(refKey(ref));
    if (!e) return null;
    if (ref.rootHash && !(e.id.rootHash.equals(ref.rootHash) && e.id.fileHash.equals(ref.fileHash!))) return null;
    return e;
  }

  header(e: Entry): { id: tl.TonNodeBlockIdExt; headerProof: Buffer } {
    return { id: tlId(e.id), headerProof: e.headerProof };
  }

  /** A masterchain block's shard list: the ShardHashes of its McBlockExtra, proven by the block. */
  shards(e: Entry): { id: tl.TonNodeBlockIdExt; proof: Buffer; data: Buffer } {
    return {
      id: tlId(e.id),
      proof: convertToMerkleProof(e.block).toBoc(),
      data: beginCell().storeSlice(shardHashesOfBlock(e.block)).endCell().toBoc(),
    };
  }

  /** One page of a block's transactions after `after` (by account, then lt), and whether more follow. */
  page(
    e: Entry,
    count: number,
    after?: { account: Buffer; lt: bigint },
  ): { transactions: Entry['transactions']; incomplete: boolean; proof: Buffer } {
    const start = after
      ? e.transactions.findIndex((t) => t.account.compare(after.account) > 0 || (t.account.equals(after.account) && t.lt > after.lt))
      : 0;
    const from = start < 0 ? e.transactions.length : start;
    const transactions = e.transactions.slice(from, from + count);
    const keep = new Set<Cell>([e.block, ...transactions.flatMap((t) => t.path)]);
    return {
      transactions,
      incomplete: from + count < e.transactions.length,
      proof: proofKeeping(e.block, keep, new Set([e.block.refs[0]])),
    };
  }
}
