import { beginCell, Cell, Dictionary, type Builder } from '@ton/core';
import type { BlockHeader, BlockIdExt } from './source.js';

/**
 * Writers of the block.tlb cells a chain's blocks and states are made of (TON's crypto/block/block.tlb): Block with
 * BlockInfo, ValueFlow, the state update and BlockExtra; ShardStateUnsplit with its ShardAccounts; McBlockExtra,
 * McStateExtra and ShardHashes. The devnet builds its blocks with them and the liteserver its proofs; the readers
 * live with the proof checks (liteserver/src/cells).
 */

const BLOCK_TAG = 0x11ef55aa;
const BLOCK_INFO_TAG = 0x9bc7a987;
const VALUE_FLOW_TAG = 0xb8e48dfb;
const BLOCK_EXTRA_TAG = 0x4a33f6fd;
const MC_BLOCK_EXTRA_TAG = 0xcca5;
const SHARD_STATE_TAG = 0x9023afe2;
const SPLIT_STATE_TAG = 0x5f327da5;
const MC_STATE_EXTRA_TAG = 0xcc26;
const ACCOUNT_BLOCK_TAG = 0x5;
const HASH_UPDATE_TAG = 0x72;

const U64 = 2n ** 64n;
const lowBit = (u: bigint) => u & (U64 - u) & (U64 - 1n);

/** ShardIdent (shard_ident$00 shard_pfx_bits:(#<= 60) workchain_id:int32 shard_prefix:uint64). */
export function storeShardIdent(workchain: number, shard: bigint) {
  const u = BigInt.asUintN(64, shard);
  const low = lowBit(u);
  const pfxBits = 63 - (low.toString(2).length - 1);
  return (b: Builder) =>
    b
      .storeUint(0, 2)
      .storeUint(pfxBits, 6)
      .storeInt(workchain, 32)
      .storeUint(u - low, 64);
}

/** ExtBlkRef (end_lt, seqno, root_hash, file_hash): how blocks and states name other blocks. */
export interface ExtBlkRef {
  endLt: bigint;
  seqno: number;
  rootHash: Buffer;
  fileHash: Buffer;
}

export const storeExtBlkRef = (r: ExtBlkRef) =>
  beginCell().storeUint(r.endLt, 64).storeUint(r.seqno, 32).storeBuffer(r.rootHash, 32).storeBuffer(r.fileHash, 32);

/** A zero CurrencyCollection (grams 0, no extra currencies). */
export const storeZeroCurrency = (b: Builder) => b.storeCoins(0).storeBit(false);
const storeGrams = (coins: bigint) => (b: Builder) => b.storeCoins(coins).storeBit(false);

/** A pruned branch standing for `c` (a cell of level 0: its hash and depth are all a proof needs of it). */
export const prunedBranch = (c: Cell) =>
  beginCell().storeUint(1, 8).storeUint(1, 8).storeBuffer(c.hash(0)).storeUint(c.depth(0), 16).endCell({ exotic: true });

/**
 * Both sides of a Merkle update from `before` to `after`: the cells the two trees share are pruned, pairing children
 * by position (what a dictionary update leaves in place). A cell without a counterpart is kept whole.
 */
function updateSides(before: Cell, after: Cell): [Cell, Cell] {
  if (before.hash().equals(after.hash())) return [prunedBranch(before), prunedBranch(after)];
  const a = beginCell().storeBits(before.bits);
  const b = beginCell().storeBits(after.bits);
  const n = Math.max(before.refs.length, after.refs.length);
  for (let i = 0; i < n; i++) {
    const x = before.refs[i];
    const y = after.refs[i];
    if (x && y && !x.isExotic && !y.isExotic) {
      const [px, py] = updateSides(x, y);
      a.storeRef(px);
      b.storeRef(py);
    } else {
      if (x) a.storeRef(x);
      if (y) b.storeRef(y);
    }
  }
  return [a.endCell({ exotic: before.isExotic }), b.endCell({ exotic: after.isExotic })];
}

/** MERKLE_UPDATE from one state to the next: the hashes and depths are the states' own, shared cells pruned. */
export function merkleUpdate(before: Cell, after: Cell, prune = true): Cell {
  const [x, y] = prune ? updateSides(before, after) : [before, after];
  return beginCell()
    .storeUint(4, 8)
    .storeBuffer(before.hash(0), 32)
    .storeBuffer(after.hash(0), 32)
    .storeUint(before.depth(0), 16)
    .storeUint(after.depth(0), 16)
    .storeRef(x)
    .storeRef(y)
    .endCell({ exotic: true });
}

// ---------------------------------------------------------------- HashmapAug

/** A HmLabel of `len` bits of `bits` (the label's value, most significant first) in a map with `m` bits left. */
function storeLabel(b: Builder, bits: bigint, len: number, m: number): void {
  const k = Math.ceil(Math.log2(m + 1));
  const shortLen = 2 * len + 2;
  const longLen = 2 + k + len;
  const same = len > 0 && (bits === 0n || bits === (1n << BigInt(len)) - 1n);
  const sameLen = 3 + k;
  if (same && sameLen < Math.min(shortLen, longLen)) {
    b.storeBit(true)
      .storeBit(true)
      .storeBit(bits !== 0n)
      .storeUint(len, k);
  } else if (longLen < shortLen) {
    b.storeBit(true).storeBit(false).storeUint(len, k);
    if (len > 0) b.storeUint(bits, len);
  } else {
    b.storeBit(false);
    for (let i = 0; i < len; i++) b.storeBit(true);
    b.storeBit(false);
    if (len > 0) b.storeUint(bits, len);
  }
}

/** How a HashmapAug stores its leaves' values and extras, and adds extras up in its forks. */
export interface AugValues<V, E> {
  /** The leaf's extra (Y) of a value. */
  extra(value: V): E;
  storeExtra(extra: E): (b: Builder) => void;
  add(a: E, b: E): E;
  storeValue(value: V): (b: Builder) => void;
  /** A string naming an entry (its key and its value's content): equal ones make equal leaves, which a cache reuses. */
  identity?(value: V): string;
  /** The entry of a key never changes (entries are only added): subtrees are cached by their key range. */
  stable?: boolean;
}

export interface AugEntry<V> {
  key: bigint;
  value: V;
}

/**
 * Writes HashmapAug n X Y (block.tlb: ahm_edge, ahmn_leaf, ahmn_fork) of entries sorted by key, with each fork's
 * extra the sum of its children's. A cache of the cells of the last builds (keyed by content) lets a map that changes
 * in a few leaves be rewritten without hashing its unchanged subtrees again.
 */
export class HashmapAugWriter<V, E> {
  private previous = new Map<string, { cell: Cell; extra: E }>();
  private current = new Map<string, { cell: Cell; extra: E }>();

  constructor(
    private readonly n: number,
    private readonly values: AugValues<V, E>,
  ) {}

  /** HashmapAugE (ahme_empty / ahme_root) of the entries, and their total extra (`zero` when empty). */
  storeE(entries: readonly AugEntry<V>[], zero: E): { store: (b: Builder) => void; extra: E } {
    this.rotate();
    if (entries.length === 0) return { store: (b) => b.storeBit(false).store(this.values.storeExtra(zero)), extra: zero };
    const root = this.edge(entries, 0, entries.length, 0);
    return { store: (b) => b.storeBit(true).storeRef(root.cell).store(this.values.storeExtra(root.extra)), extra: root.extra };
  }

  /** HashmapAug (non-empty, stored inline where a value holds it) of the entries and their total extra. */
  storeInline(entries: readonly AugEntry<V>[]): { store: (b: Builder) => void; extra: E } {
    if (entries.length === 0) throw new Error('a HashmapAug has at least one entry');
    this.rotate();
    const { builder, extra } = this.nodeBuilder(entries, 0, entries.length, 0);
    return { store: (b) => b.storeBuilder(builder), extra };
  }

  private rotate(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  private bit(key: bigint, i: number): number {
    return Number((key >> BigInt(this.n - 1 - i)) & 1n);
  }

  /** A number per cell this writer made, naming a fork's children in its cache key. */
  private readonly ids = new WeakMap<Cell, number>();
  private nextId = 0;

  private cached(key: string, make: () => { cell: Cell; extra: E }): { cell: Cell; extra: E } {
    let hit = this.current.get(key) ?? this.previous.get(key);
    if (!hit) {
      hit = make();
      this.ids.set(hit.cell, this.nextId++);
    }
    this.current.set(key, hit);
    return hit;
  }

  private edge(entries: readonly AugEntry<V>[], lo: number, hi: number, pos: number): { cell: Cell; extra: E } {
    const { stable, identity } = this.values;
    // Entries that never change once written (a list that only grows): a key range names its subtree.
    if (stable) return this.cached(`${pos}:${entries[lo].key}:${entries[hi - 1].key}:${hi - lo}`, () => this.node(entries, lo, hi, pos));
    if (!identity) return this.node(entries, lo, hi, pos);
    if (hi - lo === 1) return this.cached(`${pos}:${identity(entries[lo].value)}`, () => this.node(entries, lo, hi, pos));
    const { split, len, label } = this.labelOf(entries, lo, hi, pos);
    const mid = this.middle(entries, lo, hi, split);
    const left = this.edge(entries, lo, mid, split + 1);
    const right = this.edge(entries, mid, hi, split + 1);
    return this.cached(`${pos}:${len}:${label}:${this.ids.get(left.cell)}:${this.ids.get(right.cell)}`, () =>
      this.fork(label, len, pos, left, right),
    );
  }

  /** The label of the entries [lo, hi) (which share the key bits before `pos`) and where they part. */
  private labelOf(entries: readonly AugEntry<V>[], lo: number, hi: number, pos: number): { split: number; len: number; label: bigint } {
    const n = this.n;
    const first = entries[lo].key;
    // The first bit (from pos) where the first and last keys differ: the entries between share the bits before it.
    let split = n;
    if (hi - lo > 1) {
      split = n - (first ^ entries[hi - 1].key).toString(2).length;
      if (split < pos) throw new Error('HashmapAug entries are not sorted');
    }
    const len = split - pos;
    const label = len > 0 ? (first >> BigInt(n - split)) & ((1n << BigInt(len)) - 1n) : 0n;
    return { split, len, label };
  }

  /** The first entry of [lo, hi) with a 1 at bit `split` (those with a 0 come first). */
  private middle(entries: readonly AugEntry<V>[], lo: number, hi: number, split: number): number {
    let mid = lo;
    let top = hi;
    while (mid < top) {
      const m = (mid + top) >> 1;
      if (this.bit(entries[m].key, split) === 0) mid = m + 1;
      else top = m;
    }
    return mid;
  }

  private fork(label: bigint, len: number, pos: number, left: { cell: Cell; extra: E }, right: { cell: Cell; extra: E }) {
    const b = beginCell();
    storeLabel(b, label, len, this.n - pos);
    const extra = this.values.add(left.extra, right.extra);
    b.storeRef(left.cell).storeRef(right.cell).store(this.values.storeExtra(extra));
    return { cell: b.endCell(), extra };
  }

  private node(entries: readonly AugEntry<V>[], lo: number, hi: number, pos: number): { cell: Cell; extra: E } {
    const { builder, extra } = this.nodeBuilder(entries, lo, hi, pos);
    return { cell: builder.endCell(), extra };
  }

  /** The label and node of the entries [lo, hi), which share the key bits before `pos`. */
  private nodeBuilder(entries: readonly AugEntry<V>[], lo: number, hi: number, pos: number): { builder: Builder; extra: E } {
    const { split, len, label } = this.labelOf(entries, lo, hi, pos);
    if (split === this.n) {
      if (hi - lo !== 1) throw new Error('HashmapAug keys must be distinct');
      const b = beginCell();
      storeLabel(b, label, len, this.n - pos);
      const value = entries[lo].value;
      const extra = this.values.extra(value);
      b.store(this.values.storeExtra(extra)).store(this.values.storeValue(value));
      return { builder: b, extra };
    }
    const mid = this.middle(entries, lo, hi, split);
    const left = this.edge(entries, lo, mid, split + 1);
    const right = this.edge(entries, mid, hi, split + 1);
    const b = beginCell();
    storeLabel(b, label, len, this.n - pos);
    const extra = this.values.add(left.extra, right.extra);
    b.storeRef(left.cell).storeRef(right.cell).store(this.values.storeExtra(extra));
    return { builder: b, extra };
  }
}

// ---------------------------------------------------------------- ShardAccounts, ShardState

/** An account of a shard state: its ShardAccount cell (account_descr) and balance. */
export interface StateAccount {
  /** The account id (the address's 256-bit hash). */
  account: Buffer;
  /** ShardAccount: account:^Account last_trans_hash:bits256 last_trans_lt:uint64. */
  shardAccount: Cell;
  balance: bigint;
  /** The account id as a number and a name of the entry (id and ShardAccount hash), when already known. */
  key?: bigint;
  identity?: string;
}

/** ShardAccounts (HashmapAugE 256 ShardAccount DepthBalanceInfo), writing again only what changed since the last build. */
export class ShardAccountsWriter {
  private readonly writer = new HashmapAugWriter<StateAccount, bigint>(256, {
    extra: (a) => a.balance,
    storeExtra: (balance) => (b) => b.storeUint(0, 5).store(storeGrams(balance)),
    add: (a, b) => a + b,
    storeValue: (a) => (b) => b.storeSlice(a.shardAccount.beginParse()),
    identity: (a) => a.identity ?? `${a.account.toString('hex')}:${a.shardAccount.hash().toString('hex')}`,
  });

  /** The ShardAccounts cell of the accounts (any order) and their total balance. */
  build(accounts: readonly StateAccount[]): { cell: Cell; balance: bigint } {
    const entries = accounts
      .map((a) => ({ key: a.key ?? BigInt('0x' + a.account.toString('hex')), value: a }))
      .sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
    const { store, extra } = this.writer.storeE(entries, 0n);
    return { cell: beginCell().store(store).endCell(), balance: extra };
  }
}

export interface StateHead {
  globalId: number;
  workchain: number;
  shard: bigint;
  seqno: number;
  genUtime: number;
  genLt: bigint;
  minRefMcSeqno?: number;
  beforeSplit?: boolean;
}

/** OutMsgQueueInfo with an empty queue: out_queue (HashmapAugE 352 EnqueuedMsg uint64), proc_info, ihr_pending. */
const EMPTY_OUT_MSG_QUEUE_INFO = beginCell().storeBit(false).storeUint(0, 64).storeBit(false).storeBit(false).endCell();

/**
 * ShardStateUnsplit (shard_state#9023afe2) with the accounts given (a ShardAccounts cell), an empty message queue,
 * the total balance in its ^[...] part, and `custom` (a masterchain state's McStateExtra) if any.
 */
export function shardStateCell(head: StateHead, accounts: Cell, custom: Cell | null, totalBalance = 0n): Cell {
  const rest = beginCell()
    .storeUint(0, 64) // overload_history
    .storeUint(0, 64) // underload_history
    .store(storeGrams(totalBalance))
    .store(storeZeroCurrency) // total_validator_fees
    .storeBit(false) // libraries
    .storeBit(false) // master_ref
    .endCell();
  return beginCell()
    .storeUint(SHARD_STATE_TAG, 32)
    .storeInt(head.globalId, 32)
    .store(storeShardIdent(head.workchain, head.shard))
    .storeUint(head.seqno, 32)
    .storeUint(0, 32) // vert_seq_no
    .storeUint(head.genUtime, 32)
    .storeUint(head.genLt, 64)
    .storeUint(head.minRefMcSeqno ?? head.seqno, 32)
    .storeRef(EMPTY_OUT_MSG_QUEUE_INFO)
    .storeBit(head.beforeSplit === true)
    .storeRef(accounts)
    .storeRef(rest)
    .storeMaybeRef(custom)
    .endCell();
}

/** The state before the first block after a merge: split_state of the two merged shards' states. */
export function splitStateCell(left: Cell, right: Cell): Cell {
  return beginCell().storeUint(SPLIT_STATE_TAG, 32).storeRef(left).storeRef(right).endCell();
}

/** An empty ShardAccounts (no account, zero balance). */
export const EMPTY_SHARD_ACCOUNTS = beginCell().storeBit(false).storeUint(0, 5).store(storeZeroCurrency).endCell();

// ---------------------------------------------------------------- ShardHashes, McStateExtra

export interface ShardDescrInput {
  id: BlockIdExt;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
  regMcSeqno: number;
  beforeSplit?: boolean;
}

function shardDescrCell(d: ShardDescrInput): Cell {
  return beginCell()
    .storeBit(false) // bt_leaf$0
    .storeUint(0xa, 4)
    .storeUint(d.id.seqno, 32)
    .storeUint(d.regMcSeqno, 32)
    .storeUint(d.startLt, 64)
    .storeUint(d.endLt, 64)
    .storeBuffer(d.id.rootHash, 32)
    .storeBuffer(d.id.fileHash, 32)
    .storeBit(d.beforeSplit === true)
    .storeUint(0, 7) // before_merge .. nx_cc_updated, flags
    .storeUint(0, 32) // next_catchain_seqno
    .storeUint(BigInt.asUintN(64, d.id.shard), 64) // next_validator_shard
    .storeUint(d.regMcSeqno, 32) // min_ref_mc_seqno
    .storeUint(d.genUtime, 32)
    .storeBit(false) // fsm_none
    .storeRef(beginCell().store(storeZeroCurrency).store(storeZeroCurrency))
    .endCell();
}

const childShard = (shard: bigint, right: boolean) => {
  const u = BigInt.asUintN(64, shard);
  const half = lowBit(u) >> 1n;
  return BigInt.asIntN(64, right ? u + half : u - half);
};
const ROOT_SHARD = BigInt.asIntN(64, 1n << 63n);

/** ShardHashes (HashmapE 32 ^(BinTree ShardDescr)) as a cell whose slice starts with the HashmapE bit. */
export function buildShardHashes(shards: readonly ShardDescrInput[]): Cell {
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

/** One entry of a masterchain state's prev_blocks (OldMcBlocksInfo). */
export interface OldMcBlockInput {
  id: BlockIdExt;
  endLt: bigint;
  isKeyBlock: boolean;
}

/** OldMcBlocksInfo (HashmapAugE 32 KeyExtBlkRef KeyMaxLt), each fork's extra the max of its children's. */
export function oldMcBlocksInfo(blocks: readonly OldMcBlockInput[], writer = oldMcBlocksWriter()): (b: Builder) => void {
  const entries = [...blocks].sort((a, b) => a.id.seqno - b.id.seqno).map((value) => ({ key: BigInt(value.id.seqno), value }));
  return writer.storeE(entries, { isKey: false, maxLt: 0n }).store;
}

/** A writer of OldMcBlocksInfo for oldMcBlocksInfo, which keeps what it wrote for the next call. */
export function oldMcBlocksWriter() {
  return new HashmapAugWriter<OldMcBlockInput, { isKey: boolean; maxLt: bigint }>(32, {
    extra: (b) => ({ isKey: b.isKeyBlock, maxLt: b.endLt }),
    storeExtra: (e) => (b) => b.storeBit(e.isKey).storeUint(e.maxLt, 64),
    add: (a, b) => ({ isKey: a.isKey || b.isKey, maxLt: a.maxLt > b.maxLt ? a.maxLt : b.maxLt }),
    storeValue: (v) => (b) =>
      b
        .storeBit(v.isKeyBlock)
        .storeBuilder(storeExtBlkRef({ endLt: v.endLt, seqno: v.id.seqno, rootHash: v.id.rootHash, fileHash: v.id.fileHash })),
    stable: true,
  });
}

export interface McStateExtraInput {
  /** ShardHashes as buildShardHashes makes it (none: empty). */
  shardHashes?: Cell;
  configAddress: Buffer;
  configRoot: Cell;
  /** prev_blocks (OldMcBlocksInfo), as oldMcBlocksInfo stores it (none: empty). */
  prevBlocks?: (b: Builder) => void;
  /** The last key block before this state's block, if any. */
  lastKeyBlock?: ExtBlkRef;
  afterKeyBlock?: boolean;
  globalBalance?: bigint;
}

/** McStateExtra (masterchain_state_extra#cc26): shard hashes, config, previous masterchain blocks. */
export function mcStateExtraCell(input: McStateExtraInput): Cell {
  const inner = beginCell()
    .storeUint(0, 16) // flags
    .storeUint(0, 32 + 32 + 1) // validator_info
    .store(input.prevBlocks ?? ((b: Builder) => b.storeBit(false).storeBit(false).storeUint(0, 64)))
    .storeBit(input.afterKeyBlock === true);
  if (input.lastKeyBlock) inner.storeBit(true).storeBuilder(storeExtBlkRef(input.lastKeyBlock));
  else inner.storeBit(false);
  return beginCell()
    .storeUint(MC_STATE_EXTRA_TAG, 16)
    .storeSlice((input.shardHashes ?? beginCell().storeBit(false).endCell()).beginParse())
    .storeBuffer(input.configAddress, 32)
    .storeRef(input.configRoot)
    .storeRef(inner.endCell())
    .store(storeGrams(input.globalBalance ?? 0n))
    .endCell();
}

// ---------------------------------------------------------------- Block

/** A transaction of a block: its account, lt, cell, total fees and the account state hashes around it. */
export interface BlockTransaction {
  account: Buffer;
  lt: bigint;
  cell: Cell;
  totalFees: bigint;
  oldHash: Buffer;
  newHash: Buffer;
}

const txValues: AugValues<BlockTransaction, bigint> = {
  extra: (t) => t.totalFees,
  storeExtra: (fees) => storeGrams(fees),
  add: (a, b) => a + b,
  storeValue: (t) => (b) => b.storeRef(t.cell),
};

interface AccountBlockInput {
  account: Buffer;
  txs: BlockTransaction[];
}

/** ShardAccountBlocks (HashmapAugE 256 AccountBlock CurrencyCollection) of a block's transactions. */
export function shardAccountBlocks(transactions: readonly BlockTransaction[]): Cell {
  const byAccount = new Map<string, AccountBlockInput>();
  for (const t of transactions) {
    const key = t.account.toString('hex');
    let a = byAccount.get(key);
    if (!a) byAccount.set(key, (a = { account: t.account, txs: [] }));
    a.txs.push(t);
  }
  const accountWriter = new HashmapAugWriter<AccountBlockInput, bigint>(256, {
    extra: (a) => a.txs.reduce((s, t) => s + t.totalFees, 0n),
    storeExtra: (fees) => storeGrams(fees),
    add: (a, b) => a + b,
    storeValue: (a) => (b) => {
      const txs = [...a.txs].sort((x, y) => (x.lt < y.lt ? -1 : x.lt > y.lt ? 1 : 0));
      const inner = new HashmapAugWriter<BlockTransaction, bigint>(64, txValues).storeInline(txs.map((t) => ({ key: t.lt, value: t })));
      const update = beginCell()
        .storeUint(HASH_UPDATE_TAG, 8)
        .storeBuffer(txs[0].oldHash, 32)
        .storeBuffer(txs[txs.length - 1].newHash, 32)
        .endCell();
      b.storeUint(ACCOUNT_BLOCK_TAG, 4).storeBuffer(a.account, 32).store(inner.store).storeRef(update);
    },
  });
  const entries = [...byAccount.values()]
    .map((value) => ({ key: BigInt('0x' + value.account.toString('hex')), value }))
    .sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  return beginCell().store(accountWriter.storeE(entries, 0n).store).endCell();
}

/** A McBlockExtra holding the shard hashes when given (ShardHashes as `buildShardHashes` makes it) and, in a key block, the config. */
export function mcBlockExtraCell(shardHashes: Cell | undefined, config: { address: Buffer; root: Cell } | undefined): Cell {
  const custom = beginCell()
    .storeUint(MC_BLOCK_EXTRA_TAG, 16)
    .storeBit(config !== undefined)
    .storeSlice((shardHashes ?? beginCell().storeBit(false).endCell()).beginParse())
    // shard_fees: an empty HashmapAugE 96 ShardFeeCreated ShardFeeCreated (its extra: zero fees and create)
    .storeBit(false)
    .store(storeZeroCurrency)
    .store(storeZeroCurrency)
    // ^[ prev_blk_signatures:(HashmapE 16 ..) recover_create_msg:(Maybe ^InMsg) mint_msg:(Maybe ^InMsg) ]
    .storeRef(beginCell().storeUint(0, 3));
  if (config) custom.storeBuffer(config.address, 32).storeRef(config.root);
  return custom.endCell();
}

/** ValueFlow (value_flow#b8e48dfb) with zero currency collections. */
const ZERO_VALUE_FLOW = (() => {
  const four = () => beginCell().store(storeZeroCurrency).store(storeZeroCurrency).store(storeZeroCurrency).store(storeZeroCurrency);
  return beginCell().storeUint(VALUE_FLOW_TAG, 32).storeRef(four()).store(storeZeroCurrency).storeRef(four()).endCell();
})();

/** An empty InMsgDescr (HashmapAugE 256 InMsg ImportFees): no entry, zero fees and value. */
const EMPTY_IN_MSG_DESCR = beginCell().storeBit(false).storeCoins(0).store(storeZeroCurrency).endCell();
/** An empty OutMsgDescr (HashmapAugE 256 OutMsg CurrencyCollection). */
const EMPTY_OUT_MSG_DESCR = beginCell().storeBit(false).store(storeZeroCurrency).endCell();
const EMPTY_ACCOUNT_BLOCKS = shardAccountBlocks([]);

/** BlockExtra with empty message descriptions, the account blocks given and `custom` (a McBlockExtra) if any. */
export function blockExtra(custom: Cell | null, accountBlocks: Cell = EMPTY_ACCOUNT_BLOCKS, randSeed = Buffer.alloc(32)): Cell {
  return beginCell()
    .storeUint(BLOCK_EXTRA_TAG, 32)
    .storeRef(EMPTY_IN_MSG_DESCR)
    .storeRef(EMPTY_OUT_MSG_DESCR)
    .storeRef(accountBlocks)
    .storeBuffer(randSeed, 32)
    .storeBuffer(Buffer.alloc(32), 32) // created_by
    .storeMaybeRef(custom)
    .endCell();
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
  /** ShardAccountBlocks (shardAccountBlocks) of the block's transactions. */
  accountBlocks?: Cell;
  /** Whether the block carries a McBlockExtra even with neither shard hashes nor config (a masterchain block). */
  masterchainExtra?: boolean;
}

const EMPTY = beginCell().endCell();

/** BlockInfo (block_info#9bc7a987) of a header. */
function blockInfoCell(input: BlockInfoInput): Cell {
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
  return info.endCell();
}

/**
 * A `Block` cell (block#11ef55aa) whose BlockInfo carries a header: value flow zero; state update and extra as given
 * (without them, empty cells: for proofs that show the header alone).
 */
export function buildBlockCell(input: BlockInfoInput): Cell {
  const h = input.header;
  const update = input.stateUpdate ? merkleUpdate(input.stateUpdate.before, input.stateUpdate.after) : EMPTY;
  const custom = input.shardHashes || input.config || input.masterchainExtra ? mcBlockExtraCell(input.shardHashes, input.config) : null;
  const extra = input.stateUpdate || custom || input.accountBlocks ? blockExtra(custom, input.accountBlocks) : EMPTY;
  return beginCell()
    .storeUint(BLOCK_TAG, 32)
    .storeInt(h.globalId, 32)
    .storeRef(blockInfoCell(input))
    .storeRef(ZERO_VALUE_FLOW)
    .storeRef(update)
    .storeRef(extra)
    .endCell();
}

// ---------------------------------------------------------------- Merkle proofs

/**
 * A Merkle proof (MERKLE_PROOF root) of `root` that keeps the cells of `keep` (their other refs pruned) and the
 * subtrees of `whole`. Cells already of a higher level (pruned branches, Merkle updates' sides) are kept as they are.
 */
export function proofKeeping(root: Cell, keep: ReadonlySet<Cell>, whole: ReadonlySet<Cell> = new Set()): Cell {
  const copy = (c: Cell): Cell => {
    if (whole.has(c)) return c;
    if (!keep.has(c)) return c.level() === 0 ? prunedBranch(c) : c;
    const b = beginCell().storeBits(c.bits);
    for (const r of c.refs) b.storeRef(copy(r));
    return b.endCell({ exotic: c.isExotic });
  };
  const proven = copy(root);
  return beginCell().storeUint(3, 8).storeBuffer(root.hash(0), 32).storeUint(root.depth(0), 16).storeRef(proven).endCell({ exotic: true });
}

/**
 * A Block's header proof, as a liteserver's: BlockInfo whole, and the state update cell (whose new hash names the
 * state after the block) with its two sides as they are; value flow and extra pruned. What a back link's `proof` and
 * any link's `dest_proof` need, at a size that does not grow with the block's transactions.
 */
export function blockHeaderProof(block: Cell): Cell {
  return proofKeeping(block, new Set([block, block.refs[2]]), new Set([block.refs[0]]));
}

/**
 * The cells from a Hashmap / HashmapAug root (of `n`-bit keys) down to the leaf of `key`, whatever the values and
 * extras: a fork's branches are its two refs, so only labels are read. Empty when the key is absent.
 */
export function hashmapPath(root: Cell, key: bigint, n: number): Cell[] {
  const { path, found } = hashmapWalk(root, key, n);
  return found ? path : [];
}

/**
 * The cells a lookup of `key` reads from a Hashmap / HashmapAug root: down to its leaf when present (found), or to
 * the node whose label shows it absent (what a proof of its absence keeps).
 */
export function hashmapWalk(root: Cell, key: bigint, n: number): { path: Cell[]; found: boolean } {
  const path: Cell[] = [];
  let cell = root;
  let pos = 0;
  for (;;) {
    path.push(cell);
    const s = cell.beginParse();
    const m = n - pos;
    const width = Math.ceil(Math.log2(m + 1));
    let len: number;
    let label = 0n;
    if (!s.loadBit()) {
      len = 0;
      while (s.loadBit()) len++;
      if (len > 0) label = s.loadUintBig(len);
    } else if (!s.loadBit()) {
      len = s.loadUint(width);
      if (len > 0) label = s.loadUintBig(len);
    } else {
      const v = s.loadBit();
      len = s.loadUint(width);
      label = v ? (1n << BigInt(len)) - 1n : 0n;
    }
    const want = len > 0 ? (key >> BigInt(n - pos - len)) & ((1n << BigInt(len)) - 1n) : 0n;
    if (want !== label) return { path, found: false };
    pos += len;
    if (pos === n) return { path, found: true };
    const right = ((key >> BigInt(n - pos - 1)) & 1n) === 1n;
    pos++;
    cell = cell.refs[right ? 1 : 0];
  }
}
