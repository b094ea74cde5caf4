import {
  beginCell,
  Cell,
  Dictionary,
  storeDepthBalanceInfo,
  ShardAccountRefValue,
  type Builder,
  type ShardAccount,
  type Slice,
} from '@ton/core';
import type { BlockHeader, BlockIdExt, BlockRef } from '@tongate/chain';

/**
 * The block.tlb structures liteserver answers carry (@ton/core has no Block, BlockInfo or ShardDescr codecs): readers
 * for what the client needs, writers for the liteserver that serves a ChainSource. Writers fill only what readers
 * and ton-lite-client look at; the rest are empty cells where a real proof would have pruned branches.
 */

const BLOCK_TAG = 0x11ef55aa;
const BLOCK_INFO_TAG = 0x9bc7a987;
const SHARD_STATE_TAG = 0x9023afe2;
const BLOCK_EXTRA_TAG = 0x4a33f6fd;
const MC_STATE_EXTRA_TAG = 0xcc26;
const MC_BLOCK_EXTRA_TAG = 0xcca5;
const EMPTY = beginCell().endCell();

// ---------------------------------------------------------------- shards

const U64 = 2n ** 64n;
const toUnsigned = (shard: bigint) => BigInt.asUintN(64, shard);
const toSigned = (shard: bigint) => BigInt.asIntN(64, shard);
const lowBit = (u: bigint) => u & (U64 - u) & (U64 - 1n);

/** ShardIdent (shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64). */
function storeShardIdent(workchain: number, shard: bigint) {
  const u = toUnsigned(shard);
  const low = lowBit(u);
  const pfxBits = 63 - (low.toString(2).length - 1);
  return (b: ReturnType<typeof beginCell>) => b.storeUint(0, 2).storeUint(pfxBits, 6).storeInt(workchain, 32).storeUint(u - low, 64);
}

function loadShardIdent(s: Slice): { workchain: number; shard: bigint } {
  if (s.loadUint(2) !== 0) throw new Error('bad ShardIdent tag');
  const pfxBits = s.loadUint(6);
  const workchain = s.loadInt(32);
  const prefix = s.loadUintBig(64);
  return { workchain, shard: toSigned(prefix | (1n << BigInt(63 - pfxBits))) };
}

function parentShard(shard: bigint): bigint {
  const u = toUnsigned(shard);
  const low = lowBit(u);
  return toSigned((u - low) | (low << 1n));
}

function childShard(shard: bigint, right: boolean): bigint {
  const u = toUnsigned(shard);
  const half = lowBit(u) >> 1n;
  return toSigned(right ? u + half : u - half);
}

// ---------------------------------------------------------------- blocks

interface ExtBlkRef {
  endLt: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

const storeExtBlkRef = (r: ExtBlkRef) => beginCell().storeUint(r.endLt, 64).storeUint(r.seqno, 32).storeBuffer(r.rootHash, 32).storeBuffer(r.fileHash, 32);
function loadExtBlkRef(s: Slice): ExtBlkRef {
  return { endLt: s.loadUintBig(64), seqno: s.loadUint(32), rootHash: s.loadBuffer(32), fileHash: s.loadBuffer(32) };
}

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

/**
 * BlockExtra with empty message and account descriptions, and McBlockExtra holding the shard hashes when given and, in
 * a key block, the config.
 */
function blockExtra(shardHashes: Cell | undefined, config: BlockInfoInput['config']): Cell {
  const extra = beginCell().storeUint(BLOCK_EXTRA_TAG, 32).storeRef(EMPTY).storeRef(EMPTY).storeRef(beginCell().storeBit(false).storeCoins(0).storeBit(false).endCell()).storeBuffer(Buffer.alloc(64));
  if (!shardHashes && !config) return extra.storeBit(false).endCell();
  // shard_fees (empty HashmapAugE with a zero CurrencyCollection extra), then the ^[...] cell, then a key block's config.
  const custom = beginCell()
    .storeUint(MC_BLOCK_EXTRA_TAG, 16)
    .storeBit(config !== undefined)
    .storeSlice((shardHashes ?? beginCell().storeBit(false).endCell()).beginParse())
    .storeBit(false)
    .storeCoins(0)
    .storeBit(false)
    .storeCoins(0)
    .storeBit(false)
    .storeRef(EMPTY);
  if (config) custom.storeBuffer(config.address, 32).storeRef(config.root);
  return extra.storeBit(true).storeRef(custom.endCell()).endCell();
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
  const prevRef = (i: number) => storeExtBlkRef({ endLt: input.prevEndLts[i] ?? 0n, seqno: h.prevBlocks[i]?.seqno ?? 0, rootHash: h.prevBlocks[i]?.rootHash ?? Buffer.alloc(32), fileHash: h.prevBlocks[i]?.fileHash ?? Buffer.alloc(32) });
  info.storeRef(h.afterMerge ? beginCell().storeRef(prevRef(0)).storeRef(prevRef(1)) : prevRef(0));
  const update = input.stateUpdate ? merkleUpdate(input.stateUpdate.before, input.stateUpdate.after) : EMPTY;
  const extra = input.stateUpdate || input.shardHashes || input.config ? blockExtra(input.shardHashes, input.config) : EMPTY;
  return beginCell().storeUint(BLOCK_TAG, 32).storeInt(h.globalId, 32).storeRef(info).storeRef(EMPTY).storeRef(update).storeRef(extra).endCell();
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
        prevBlocks.push({ workchain: id.workchain, shard: childShard(id.shard, i === 1), seqno: r.seqno, rootHash: r.rootHash, fileHash: r.fileHash });
      });
    } else {
      const r = loadExtBlkRef(prevCell.beginParse());
      prevBlocks.push({ workchain: id.workchain, shard: afterSplit ? parentShard(id.shard) : id.shard, seqno: r.seqno, rootHash: r.rootHash, fileHash: r.fileHash });
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

// ---------------------------------------------------------------- shard hashes

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
    return beginCell().storeBit(true).storeRef(tree(childShard(shard, false), list)).storeRef(tree(childShard(shard, true), list)).endCell();
  };
  for (const [wc, list] of byWorkchain) dict.set(wc, tree(toSigned(1n << 63n), list));
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
  for (const [wc, cell] of dict) walk(wc, toSigned(1n << 63n), cell);
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
  let current = toSigned(1n << 63n);
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

/** The shard_hashes a masterchain Block carries in McBlockExtra, as a slice at its HashmapE bit. */
export function shardHashesOfBlock(block: Cell): Slice {
  const m = mcBlockExtraOf(block);
  m.loadBit(); // key_block
  return m;
}

/** The ConfigParams dictionary root a key block carries in McBlockExtra (what a forward block link reads). */
export function configRootOfKeyBlock(block: Cell): Cell {
  const m = mcBlockExtraOf(block);
  if (!m.loadBit()) throw new Error('the block carries no config (not a key block)');
  if (m.loadBit()) m.loadRef(); // shard_hashes
  if (m.loadBit()) m.loadRef(); // shard_fees
  skipCurrencyCollection(m); // its fees
  skipCurrencyCollection(m); // and create
  m.loadRef(); // prev_blk_signatures, recover_create_msg, mint_msg
  m.skip(256); // config_addr
  return m.loadRef();
}

/** McBlockExtra of a (proof of a) masterchain Block, as a slice past its tag. */
function mcBlockExtraOf(block: Cell): Slice {
  const extra = block.refs[3];
  if (!extra || extra.isExotic) throw new Error('the block extra is pruned in the proof');
  const e = extra.beginParse();
  if (e.loadUint(32) !== BLOCK_EXTRA_TAG) throw new Error('not a BlockExtra');
  e.loadRef(); // in_msg_descr
  e.loadRef(); // out_msg_descr
  e.loadRef(); // account_blocks
  e.skip(256 + 256); // rand_seed, created_by
  const custom = e.loadMaybeRef();
  if (custom?.isExotic) throw new Error('the McBlockExtra is pruned in the proof');
  if (!custom) throw new Error('the block has no McBlockExtra (not a masterchain block)');
  const m = custom.beginParse();
  if (m.loadUint(16) !== MC_BLOCK_EXTRA_TAG) throw new Error('not a McBlockExtra');
  return m;
}

// ---------------------------------------------------------------- states

interface StateHead {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  genUtime: number;
  genLt: bigint;
}

function shardState(head: StateHead, accounts: Cell, custom: Cell | null): Cell {
  return beginCell()
    .storeUint(SHARD_STATE_TAG, 32)
    .storeInt(head.globalId, 32)
    .store(storeShardIdent(head.workchain, head.shard))
    .storeUint(head.seqno, 32)
    .storeUint(0, 32)
    .storeUint(head.genUtime, 32)
    .storeUint(head.genLt, 64)
    .storeUint(head.seqno, 32)
    .storeRef(EMPTY) // out_msg_queue_info
    .storeBit(false) // before_split
    .storeRef(accounts)
    .storeRef(EMPTY)
    .storeMaybeRef(custom)
    .endCell();
}

/** A ShardStateUnsplit whose accounts hold just the one account (a single-entry HashmapAugE has no fork extras to get wrong). */
export function buildAccountShardState(head: StateHead, accountId: Buffer, shardAccount: ShardAccount | null): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), ShardAccountRefValue);
  const depthBalance = { splitDepth: 0, balance: { coins: shardAccount?.account?.storage.balance.coins ?? 0n } };
  if (shardAccount) dict.set(BigInt('0x' + accountId.toString('hex')), { depthBalanceInfo: depthBalance, shardAccount });
  const accounts = beginCell().storeDict(dict).store(storeDepthBalanceInfo(depthBalance)).endCell();
  return shardState(head, accounts, null);
}

/** One entry of a masterchain state's prev_blocks (OldMcBlocksInfo). */
export interface OldMcBlockInput {
  id: BlockIdExt;
  endLt: bigint;
  isKeyBlock: boolean;
}

const storeKeyMaxLt = (isKey: boolean, endLt: bigint) => (b: ReturnType<typeof beginCell>) => b.storeBit(isKey).storeUint(endLt, 64);

/**
 * OldMcBlocksInfo (HashmapAugE 32 KeyExtBlkRef KeyMaxLt). Leaves carry their KeyMaxLt extra and the root the whole
 * map's; @ton/core's Dictionary cannot write the extras of inner forks, which readers (`findOldMcBlock`) skip anyway.
 */
function oldMcBlocksInfo(blocks: OldMcBlockInput[]): Builder {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(32), {
    serialize: (b: OldMcBlockInput, builder: Builder) => {
      builder.store(storeKeyMaxLt(b.isKeyBlock, b.endLt)).storeBit(b.isKeyBlock).storeBuilder(storeExtBlkRef({ endLt: b.endLt, seqno: b.id.seqno, rootHash: b.id.rootHash, fileHash: b.id.fileHash }));
    },
    parse: () => {
      throw new Error('OldMcBlocksInfo is read with findOldMcBlock');
    },
  });
  for (const b of blocks) dict.set(b.id.seqno, b);
  const maxLt = blocks.reduce((m, b) => (b.endLt > m ? b.endLt : m), 0n);
  return beginCell().storeDict(dict).store(storeKeyMaxLt(blocks.some((b) => b.isKeyBlock), maxLt));
}

/**
 * A masterchain ShardStateUnsplit carrying McStateExtra with the config dictionary (what getConfig* proofs show) and,
 * when given, the previous masterchain blocks (what back links of getBlockProof show).
 */
export function buildConfigShardState(head: StateHead, configRoot: Cell, configAddress: Buffer, prevBlocks: OldMcBlockInput[] = []): Cell {
  const inner = beginCell()
    .storeUint(0, 16) // flags
    .storeUint(0, 32 + 32 + 1) // validator_info
    .storeBuilder(oldMcBlocksInfo(prevBlocks))
    .storeBit(false) // after_key_block
    .storeBit(false) // last_key_block: nothing
    .endCell();
  const extra = beginCell()
    .storeUint(MC_STATE_EXTRA_TAG, 16)
    .storeBit(false) // shard_hashes (served by getAllShardsInfo)
    .storeBuffer(configAddress, 32)
    .storeRef(configRoot)
    .storeRef(inner)
    .storeCoins(0)
    .storeBit(false)
    .endCell();
  return shardState(head, beginCell().storeBit(false).store(storeDepthBalanceInfo({ splitDepth: 0, balance: { coins: 0n } })).endCell(), extra);
}

/** The ShardStateUnsplit inside a state proof (MerkleProof root or the state itself). */
export function stateOfProof(root: Cell): Cell {
  return root.isExotic ? root.refs[0] : root;
}

/**
 * Looks one key up in a Hashmap / HashmapAug of `n`-bit keys, walking only the path to it, so that pruned branches
 * elsewhere (what a Merkle proof leaves of the rest) are never read. `skipExtra` skips a fork's or leaf's extra
 * (HashmapAug); returns the leaf's value slice, or null when the key is absent.
 */
export function hashmapLookup(root: Cell | Slice, key: Buffer, n: number, skipExtra?: (s: Slice) => void): Slice | null {
  const bit = (i: number) => ((key[i >> 3] >> (7 - (i & 7))) & 1) === 1;
  // A dictionary stored inline (HashmapAug inside an AccountBlock) starts in the middle of a cell: a slice.
  let inline: Slice | null = root instanceof Cell ? null : root;
  let cell = root instanceof Cell ? root : null;
  let pos = 0;
  for (;;) {
    // A pruned branch on the path: the proof does not cover this key (it must not be read as dictionary data).
    if (cell?.isExotic) throw new Error('the dictionary path to this key is pruned in the proof');
    const s = inline ?? cell!.beginParse();
    inline = null;
    const m = n - pos;
    const width = Math.ceil(Math.log2(m + 1));
    let label: boolean[];
    if (!s.loadBit()) {
      let len = 0;
      while (s.loadBit()) len++;
      label = Array.from({ length: len }, () => s.loadBit());
    } else if (!s.loadBit()) {
      const len = s.loadUint(width);
      label = Array.from({ length: len }, () => s.loadBit());
    } else {
      const v = s.loadBit();
      label = new Array(s.loadUint(width)).fill(v);
    }
    for (const b of label) if (b !== bit(pos++)) return null;
    if (pos === n) {
      skipExtra?.(s);
      return s;
    }
    const next = bit(pos++);
    const left = s.loadRef();
    const right = s.loadRef();
    cell = next ? right : left;
  }
}

const skipCurrencyCollection = (s: Slice) => {
  s.loadCoins();
  s.loadMaybeRef(); // extra currencies
};

/**
 * The hash of one transaction in a (proof of a) Block: BlockExtra's account_blocks (HashmapAugE 256 AccountBlock),
 * then the AccountBlock's transactions (HashmapAug 64 ^Transaction, inline). Null when the block shows it absent;
 * throws when the proof does not cover it.
 */
export function findBlockTransaction(block: Cell, accountId: Buffer, lt: bigint): Buffer | null {
  const extra = block.refs[3];
  if (!extra || extra.isExotic) throw new Error('the block extra is pruned in the proof');
  const e = extra.beginParse();
  if (e.loadUint(32) !== BLOCK_EXTRA_TAG) throw new Error('not a BlockExtra');
  e.loadRef(); // in_msg_descr
  e.loadRef(); // out_msg_descr
  const accountBlocks = e.loadRef();
  if (accountBlocks.isExotic) throw new Error('the account blocks are pruned in the proof');
  const ab = accountBlocks.beginParse();
  if (!ab.loadBit()) return null;
  const leaf = hashmapLookup(ab.loadRef(), accountId, 256, skipCurrencyCollection);
  if (!leaf) return null;
  if (leaf.loadUint(4) !== 0x5) throw new Error('not an AccountBlock');
  if (!leaf.loadBuffer(32).equals(accountId)) throw new Error('the AccountBlock is of another account');
  const key = Buffer.alloc(8);
  key.writeBigUInt64BE(lt);
  const tx = hashmapLookup(leaf, key, 64, skipCurrencyCollection);
  // Pruned or not, a cell's level-0 hash is the hash of the transaction it stands for.
  return tx ? tx.loadRef().hash(0) : null;
}

/**
 * Every leaf of a Hashmap / HashmapAug of `n`-bit keys, in key order: the key, the value slice (after the extra,
 * which `skipExtra` skips) and the cells walked from the root to it. The whole dictionary must be there: a pruned
 * branch throws.
 */
export function hashmapEntries(root: Cell | Slice, n: number, skipExtra?: (s: Slice) => void): { key: bigint; value: Slice; path: Cell[] }[] {
  const out: { key: bigint; value: Slice; path: Cell[] }[] = [];
  const walk = (node: Cell | Slice, prefix: bigint, pos: number, path: Cell[]): void => {
    if (node instanceof Cell && node.isExotic) throw new Error('the dictionary is pruned in the proof');
    const here = node instanceof Cell ? [...path, node] : path;
    const s = node instanceof Cell ? node.beginParse() : node;
    const m = n - pos;
    const width = Math.ceil(Math.log2(m + 1));
    let len: number;
    let key = prefix;
    if (!s.loadBit()) {
      len = 0;
      while (s.loadBit()) len++;
      for (let i = 0; i < len; i++) key = (key << 1n) | (s.loadBit() ? 1n : 0n);
    } else if (!s.loadBit()) {
      len = s.loadUint(width);
      for (let i = 0; i < len; i++) key = (key << 1n) | (s.loadBit() ? 1n : 0n);
    } else {
      const v = s.loadBit() ? 1n : 0n;
      len = s.loadUint(width);
      for (let i = 0; i < len; i++) key = (key << 1n) | v;
    }
    pos += len;
    if (pos === n) {
      skipExtra?.(s);
      out.push({ key, value: s, path: here });
      return;
    }
    const left = s.loadRef();
    const right = s.loadRef();
    walk(left, key << 1n, pos + 1, here);
    walk(right, (key << 1n) | 1n, pos + 1, here);
  };
  walk(root, 0n, 0, []);
  return out;
}

/**
 * Every transaction of a whole Block, in the order liteservers list them (by account, then lt): account_blocks
 * (HashmapAugE 256 AccountBlock) and each AccountBlock's transactions (HashmapAug 64 ^Transaction, inline). `path`
 * is the cells from the BlockExtra down to the transaction's leaf (what a proof of it must keep).
 */
export function blockTransactionCells(block: Cell): { account: Buffer; lt: bigint; cell: Cell; path: Cell[] }[] {
  const extra = block.refs[3];
  const e = extra?.beginParse();
  if (!e || e.loadUint(32) !== BLOCK_EXTRA_TAG) throw new Error('not a BlockExtra');
  e.loadRef(); // in_msg_descr
  e.loadRef(); // out_msg_descr
  const accountBlocks = e.loadRef();
  const ab = accountBlocks.beginParse();
  if (!ab.loadBit()) return [];
  const out: { account: Buffer; lt: bigint; cell: Cell; path: Cell[] }[] = [];
  for (const { key, value, path } of hashmapEntries(ab.loadRef(), 256, skipCurrencyCollection)) {
    if (value.loadUint(4) !== 0x5) throw new Error('not an AccountBlock');
    const account = value.loadBuffer(32);
    if (BigInt('0x' + account.toString('hex')) !== key) throw new Error('an AccountBlock is filed under another account');
    for (const tx of hashmapEntries(value, 64, skipCurrencyCollection)) out.push({ account, lt: tx.key, cell: tx.value.loadRef(), path: [extra, accountBlocks, ...path, ...tx.path] });
  }
  return out;
}

/** What a ShardStateUnsplit says of one account: its ShardAccount pointers (the Account itself may be pruned). */
export interface AccountLeaf {
  /** Hash of the Account cell (the `state` a liteserver sends must have it). */
  accountHash: Buffer;
  lastTransactionHash: bigint;
  lastTransactionLt: bigint;
}

const skipDepthBalance = (s: Slice) => {
  s.loadUint(5); // split_depth:(#<= 30)
  s.loadCoins();
  s.loadMaybeRef(); // extra currencies
};

/** The account's leaf in a (proof of a) ShardStateUnsplit, or null when the state shows it absent. */
export function findAccountLeaf(state: Cell, accountId: Buffer): AccountLeaf | null {
  const s = state.beginParse(true);
  if (s.loadUint(32) !== SHARD_STATE_TAG) throw new Error('not a ShardStateUnsplit');
  s.skip(32 + 104 + 32 + 32 + 32 + 64 + 32);
  s.loadRef();
  s.loadBit();
  const accounts = s.loadRef().beginParse(true);
  if (!accounts.loadBit()) return null;
  const leaf = hashmapLookup(accounts.loadRef(), accountId, 256, skipDepthBalance);
  if (!leaf) return null;
  const account = leaf.loadRef();
  return { accountHash: account.hash(0), lastTransactionHash: leaf.loadUintBig(256), lastTransactionLt: leaf.loadUintBig(64) };
}

/** One config parameter from a (proof of a) ConfigParams dictionary root, or null when absent. */
export function configParamOf(configRoot: Cell, id: number): Cell | null {
  const key = Buffer.alloc(4);
  key.writeInt32BE(id);
  return hashmapLookup(configRoot, key, 32)?.loadRef() ?? null;
}

/** The McStateExtra of a (proof of a) masterchain ShardStateUnsplit, as a slice at its shard_hashes. */
export function mcStateExtraOf(state: Cell): Slice {
  const s = state.beginParse();
  if (s.loadUint(32) !== SHARD_STATE_TAG) throw new Error('not a ShardStateUnsplit');
  s.skip(32 + 104 + 32 + 32 + 32 + 64 + 32);
  s.loadRef();
  s.loadBit();
  s.loadRef();
  s.loadRef();
  const custom = s.loadMaybeRef();
  if (!custom) throw new Error('the state has no McStateExtra (not a masterchain state)');
  const e = custom.beginParse();
  if (e.loadUint(16) !== MC_STATE_EXTRA_TAG) throw new Error('not a McStateExtra');
  return e;
}

/** The ConfigParams dictionary root in a (proof of a) masterchain ShardStateUnsplit. */
export function configRootOfState(state: Cell): Cell {
  const e = mcStateExtraOf(state);
  if (e.loadBit()) e.loadRef(); // shard_hashes
  e.skip(256); // config_addr
  return e.loadRef();
}

/**
 * What a (proof of a) masterchain state's prev_blocks (OldMcBlocksInfo) says of one earlier masterchain block: its
 * id and whether it is a key block; null when the state shows it absent.
 */
export function findOldMcBlock(state: Cell, seqno: number): { id: BlockIdExt; isKeyBlock: boolean } | null {
  const e = mcStateExtraOf(state);
  if (e.loadBit()) e.loadRef(); // shard_hashes
  e.skip(256); // config_addr
  e.loadRef(); // config
  const s = e.loadRef().beginParse();
  s.skip(16 + 32 + 32 + 1); // flags, validator_info
  if (!s.loadBit()) return null;
  const key = Buffer.alloc(4);
  key.writeUInt32BE(seqno);
  const leaf = hashmapLookup(s.loadRef(), key, 32, (l) => l.skip(1 + 64));
  if (!leaf) return null;
  const isKeyBlock = leaf.loadBit();
  const ref = loadExtBlkRef(leaf);
  return { id: { workchain: -1, shard: toSigned(1n << 63n), seqno: ref.seqno, rootHash: ref.rootHash, fileHash: ref.fileHash }, isKeyBlock };
}
