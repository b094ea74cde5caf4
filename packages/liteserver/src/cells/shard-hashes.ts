import { beginCell, Dictionary, type Cell, type Slice } from '@ton/core';
import type { BlockIdExt } from '@tongate/chain';
import { hashmapLookup } from './hashmap.js';
import { childShard, lowBit, ROOT_SHARD, toUnsigned } from './shard.js';

/** ShardHashes (HashmapE 32 ^(BinTree ShardDescr)): each workchain's top shard blocks. */

export interface ShardDescrInput {
  id: BlockIdExt;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
  regMcSeqno: number;
}

function shardDescrCell(d: ShardDescrInput): Cell {
  const cc = beginCell().storeCoins(0).storeBit(false);
  return beginCell()
    .storeBit(false) // bt_leaf$0
    .storeUint(0xa, 4)
    .storeUint(d.id.seqno, 32)
    .storeUint(d.regMcSeqno, 32)
    .storeUint(d.startLt, 64)
    .storeUint(d.endLt, 64)
    .storeBuffer(d.id.rootHash, 32)
    .storeBuffer(d.id.fileHash, 32)
    .storeUint(0, 8) // before_split .. nx_cc_updated, flags
    .storeUint(0, 32) // next_catchain_seqno
    .storeUint(toUnsigned(d.id.shard), 64)
    .storeUint(d.regMcSeqno, 32) // min_ref_mc_seqno
    .storeUint(d.genUtime, 32)
    .storeBit(false) // fsm_none
    .storeRef(beginCell().storeBuilder(cc).storeBuilder(cc))
    .endCell();
}

/** ShardHashes (HashmapE 32 ^(BinTree ShardDescr)) as a cell whose slice starts with the HashmapE bit. */
export function buildShardHashes(shards: ShardDescrInput[]): Cell {
  const byWorkchain = new Map<number, ShardDescrInput[]>();
  for (const s of shards) byWorkchain.set(s.id.workchain, [...(byWorkchain.get(s.id.workchain) ?? []), s]);
  const dict = Dictionary.empty(Dictionary.Keys.Int(32), Dictionary.Values.Cell());
  const tree = (shard: bigint, list: ShardDescrInput[]): Cell => {
    const exact = list.find((s) => s.id.shard === shard);
    if (exact) return shardDescrCell(exact);
    return beginCell()
      .storeBit(true)
      .storeRef(tree(childShard(shard, false), list))
      .storeRef(tree(childShard(shard, true), list))
      .endCell();
  };
  for (const [wc, list] of byWorkchain) dict.set(wc, tree(ROOT_SHARD, list));
  return beginCell().storeDict(dict).endCell();
}

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
