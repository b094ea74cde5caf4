import { Dictionary, type Cell, type Slice } from '@ton/core';
import type { BlockIdExt } from '@tongate/chain';
import { hashmapLookup } from './hashmap.js';
import { childShard, lowBit, ROOT_SHARD, toUnsigned } from './shard.js';

/** ShardHashes (HashmapE 32 ^(BinTree ShardDescr)): each workchain's top shard blocks. */

export { buildShardHashes, type ShardDescrInput } from '@tongate/chain';

function loadShardDescr(t: Slice, workchain: number, shard: bigint): BlockIdExt {
  const tag = t.loadUint(4);
  if (tag !== 0xa && tag !== 0xb) throw new Error(`unknown ShardDescr tag ${tag}`);
  const seqno = t.loadUint(32);
  t.skip(32 + 64 + 64); // reg_mc_seqno, start_lt, end_lt
  return { workchain, shard, seqno, rootHash: t.loadBuffer(32), fileHash: t.loadBuffer(32) };
}

/** The top shard blocks listed in ShardHashes (a slice at its HashmapE bit), bt_leaf / bt_fork walked in order. */
export function parseShardHashes(s: Slice): BlockIdExt[] {
  const dict = Dictionary.load(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), s);
  const out: BlockIdExt[] = [];
  const walk = (workchain: number, shard: bigint, cell: Cell) => {
    const t = cell.beginParse();
    if (t.loadBit()) {
      walk(workchain, childShard(shard, false), t.loadRef());
      walk(workchain, childShard(shard, true), t.loadRef());
    } else out.push(loadShardDescr(t, workchain, shard));
  };
  for (const [wc, cell] of dict) walk(wc, ROOT_SHARD, cell);
  return out;
}

/** One shard's top block in ShardHashes, walking only its path (the rest may be pruned in a proof). */
export function findShardDescr(s: Slice, workchain: number, shard: bigint): BlockIdExt | null {
  if (!s.loadBit()) return null;
  const key = Buffer.alloc(4);
  key.writeInt32BE(workchain);
  const leaf = hashmapLookup(s.loadRef(), key, 32);
  if (!leaf) return null;
  let cell = leaf.loadRef();
  let current = ROOT_SHARD;
  const target = toUnsigned(shard);
  for (;;) {
    const t = cell.beginParse();
    if (!t.loadBit()) return current === shard ? loadShardDescr(t, workchain, current) : null;
    // Go left when the target lies below the current shard's middle.
    const u = toUnsigned(current);
    const right = target >= u;
    if (lowBit(u) === 1n) return null;
    current = childShard(current, right);
    const left = t.loadRef();
    const rightRef = t.loadRef();
    cell = right ? rightRef : left;
  }
}
