import { createHash } from 'node:crypto';
import type { BlockIdExt, BlockRef } from '@tongate/chain';

/**
 * Devnet blocks. The sandbox has no blocks, so the devnet groups the transactions it runs into one masterchain
 * block and one basechain block per round. A block's identity is a canonical byte serialization (below); its
 * root hash is sha256 of those bytes and its file hash is sha256 of the bytes followed by the root hash.
 *
 * Canonical serialization (all integers big-endian):
 *   "tongate-devnet-block/1" (ASCII) ‖ global_id:int32 ‖ workchain:int32 ‖ shard:int64 ‖ seqno:uint32
 *   ‖ gen_utime:uint32 ‖ start_lt:uint64 ‖ end_lt:uint64
 *   ‖ n:uint32 ‖ n × prev block id ‖ m:uint32 ‖ m × referenced shard block id (masterchain only, else m = 0)
 *   ‖ state_hash:bytes32 (masterchain: the state hash chain, see stateHash; basechain: zeros)
 *   ‖ k:uint32 ‖ k × (account:bytes32 ‖ lt:uint64 ‖ transaction hash:bytes32), ordered by (account, lt)
 * where a block id is workchain:int32 ‖ shard:int64 ‖ seqno:uint32 ‖ root_hash:bytes32 ‖ file_hash:bytes32.
 * Anyone holding a block's serialization can check it against the id and read the ids it links to, which is
 * what the devnet serves as shard block "proofs".
 */

export interface BlockTxEntry {
  account: Buffer;
  lt: bigint;
  hash: Buffer;
}

export interface BlockContent {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  genUtime: number;
  startLt: bigint;
  endLt: bigint;
  prevBlocks: BlockIdExt[];
  shardBlocks: BlockIdExt[];
  stateHash: Buffer;
  transactions: BlockTxEntry[];
}

const MAGIC = Buffer.from('tongate-devnet-block/1', 'ascii');
const ZERO32 = Buffer.alloc(32);

function writeBlockId(id: BlockIdExt): Buffer {
  const b = Buffer.alloc(4 + 8 + 4 + 64);
  b.writeInt32BE(id.workchain, 0);
  b.writeBigInt64BE(id.shard, 4);
  b.writeUInt32BE(id.seqno, 12);
  id.rootHash.copy(b, 16);
  id.fileHash.copy(b, 48);
  return b;
}

export function compareTx(a: BlockTxEntry, b: BlockTxEntry): number {
  const c = Buffer.compare(a.account, b.account);
  if (c !== 0) return c;
  return a.lt < b.lt ? -1 : a.lt > b.lt ? 1 : 0;
}

export function serializeBlock(c: BlockContent): Buffer {
  const head = Buffer.alloc(4 + 4 + 8 + 4 + 4 + 8 + 8);
  head.writeInt32BE(c.globalId, 0);
  head.writeInt32BE(c.workchain, 4);
  head.writeBigInt64BE(c.shard, 8);
  head.writeUInt32BE(c.seqno, 16);
  head.writeUInt32BE(c.genUtime, 20);
  head.writeBigUInt64BE(c.startLt, 24);
  head.writeBigUInt64BE(c.endLt, 32);
  const parts: Buffer[] = [MAGIC, head, u32(c.prevBlocks.length), ...c.prevBlocks.map(writeBlockId)];
  parts.push(u32(c.shardBlocks.length), ...c.shardBlocks.map(writeBlockId));
  parts.push(c.stateHash.length === 32 ? c.stateHash : ZERO32);
  parts.push(u32(c.transactions.length));
  for (const t of c.transactions) {
    const e = Buffer.alloc(32 + 8 + 32);
    t.account.copy(e, 0);
    e.writeBigUInt64BE(t.lt, 32);
    t.hash.copy(e, 40);
    parts.push(e);
  }
  return Buffer.concat(parts);
}

export function blockHashes(serialized: Buffer): { rootHash: Buffer; fileHash: Buffer } {
  const rootHash = createHash('sha256').update(serialized).digest();
  const fileHash = createHash('sha256').update(serialized).update(rootHash).digest();
  return { rootHash, fileHash };
}

/**
 * The masterchain state hash of the devnet: a hash chain over state changes,
 * sha256(previous state hash ‖ for each account changed in the round, ordered by (workchain, account):
 * workchain:int32 ‖ account:bytes32 ‖ ShardAccount cell hash). Equal histories give equal hashes.
 */
export function nextStateHash(prev: Buffer, changed: { workchain: number; account: Buffer; shardAccountHash: Buffer }[]): Buffer {
  const h = createHash('sha256').update(prev);
  const sorted = [...changed].sort((a, b) => a.workchain - b.workchain || Buffer.compare(a.account, b.account));
  for (const c of sorted) {
    const wc = Buffer.alloc(4);
    wc.writeInt32BE(c.workchain);
    h.update(wc).update(c.account).update(c.shardAccountHash);
  }
  return h.digest();
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export function sameRef(a: BlockRef, b: BlockRef): boolean {
  return a.workchain === b.workchain && a.shard === b.shard && a.seqno === b.seqno;
}
