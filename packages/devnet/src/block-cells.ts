import { createHash } from 'node:crypto';
import { Dictionary, loadShardAccount, type Builder, type Cell } from '@ton/core';
import {
  buildBlockCell,
  buildShardHashes,
  EMPTY_SHARD_ACCOUNTS,
  LruCache,
  masterchainValidators,
  parseShuffleMcValidators,
  parseValidatorSet,
  validatorSetHashShort,
  mcStateExtraCell,
  oldMcBlocksWriter,
  shardAccountBlocks,
  ShardAccountsWriter,
  shardContains,
  WHOLE_SHARD,
  shardStateCell,
  splitStateCell,
  type AugEntry,
  type BlockAndState,
  type BlockHeader,
  type BlockRef,
  type BlockTransaction,
  type ExtBlkRef,
  type OldMcBlockInput,
  type StateAccount,
  type ValidatorDescr,
} from '@tongate/chain';
import type { HistoryIndex } from './history.js';
import type { ChainReader } from './reader.js';
import type { StoredBlock } from './store.js';

/**
 * The devnet's blocks as TON cells (block.tlb): each block a `Block` whose state update leads from the shard's state
 * before it to the ShardStateUnsplit after it (every account of the shard in ShardAccounts; the masterchain's with
 * McStateExtra: shard hashes, config, previous masterchain blocks), whose BlockExtra holds the block's transactions
 * in ShardAccountBlocks and, in the masterchain, McBlockExtra with the round's shard blocks. A block's id is its
 * cell's hash and the sha256 of its BOC.
 *
 * Everything in a block's cells follows from what the journal keeps (block headers, transactions, account snapshots,
 * config changes), so a block no longer in the in-memory cache is built again from the history.
 */

/** Blocks (and the states after them) kept in memory; older ones are built again when asked for. */
const RECENT_BLOCKS = 1024;
const ZERO32 = Buffer.alloc(32);

/** A block's cells: the Block and the full state after it. */
export type BlockCellsOf = BlockAndState;

interface AccountEntry extends StateAccount {
  workchain: number;
  prefix: bigint;
}

/** What a devnet block's header says of its round's validators and key blocks. */
export interface RoundKeys {
  /** gen_validator_list_hash_short: the main validators of the set in force. */
  validatorListHashShort: number;
  /** Whether the round's masterchain block is a key block (block 0, and every round that changed the config). */
  isKeyBlock: boolean;
  /** The last key block before the round. */
  prevKeyBlockSeqno: number;
}

/** The header fields of a devnet block, as its BlockInfo carries them and getBlockHeader reports them. */
export function devnetBlockHeader(b: StoredBlock, globalId: number, keys: RoundKeys): BlockHeader {
  const isMc = b.id.workchain === -1;
  // A shard block's master_ref: the masterchain block of the round before (the round's own one names the shard
  // blocks by hash, so it cannot be named back); in the genesis round, block 0.
  const masterRefSeqno = Math.max(0, (b.masterchainRef?.seqno ?? 1) - 1);
  return {
    id: b.id,
    globalId,
    version: 0,
    flags: 0,
    afterMerge: b.prevBlocks.length === 2,
    afterSplit: b.prevBlocks.length === 1 && b.prevBlocks[0].shard !== b.id.shard,
    beforeSplit: b.beforeSplit === true,
    wantMerge: false,
    wantSplit: false,
    validatorListHashShort: keys.validatorListHashShort,
    catchainSeqno: 0,
    minRefMcSeqno: isMc ? b.id.seqno : masterRefSeqno,
    isKeyBlock: isMc && keys.isKeyBlock,
    prevKeyBlockSeqno: keys.prevKeyBlockSeqno,
    vertSeqno: 0,
    startLt: b.startLt,
    endLt: b.endLt,
    genUtime: b.genUtime,
    prevBlocks: b.prevBlocks,
    ...(isMc ? { shardBlocks: b.shardBlocks } : { masterchainRef: { workchain: -1, shard: WHOLE_SHARD, seqno: masterRefSeqno } }),
  };
}

const refKey = (r: BlockRef) => `${r.workchain}:${r.shard}:${r.seqno}`;
const extRef = (b: StoredBlock): ExtBlkRef => ({ endLt: b.endLt, seqno: b.id.seqno, rootHash: b.id.rootHash, fileHash: b.id.fileHash });
const NO_BLOCK: ExtBlkRef = { endLt: 0n, seqno: 0, rootHash: ZERO32, fileHash: ZERO32 };

/** What the state after a block is built from, besides its StoredBlock. */
interface StateInputs {
  /** Accounts of the block's shard after it. */
  accounts: StateAccount[];
  /** For a masterchain block: the round's shard blocks, the config after it and the earlier masterchain blocks. */
  mc?: { shardBlocks: StoredBlock[]; config: Cell; prevBlocks: (b: Builder) => void; lastKey: StoredBlock | null };
  accountsWriter: ShardAccountsWriter;
}

/** What a block's cells are built from, besides its StoredBlock. */
interface BlockInputs extends StateInputs {
  /** The state before the block. */
  before: Cell;
  /** For a shard block: the masterchain block before its round (its BlockInfo's master_ref), if any. */
  prevMc: StoredBlock | null;
  /** The block's transactions (BOCs) in (account, lt) order. */
  txs: Cell[];
}

export class BlockCells {
  /** Every existing account's latest ShardAccount cell and balance (what the next round's states are made of). */
  private readonly latest = new Map<string, AccountEntry>();
  /** One writer per shard: it reuses the cells of the accounts that did not change since its last state. */
  private readonly writers = new Map<string, ShardAccountsWriter>();
  private readonly prevBlocksWriter = oldMcBlocksWriter();
  /** The masterchain blocks sealed so far, as prev_blocks (OldMcBlocksInfo) lists them. */
  private readonly mcEntries: AugEntry<OldMcBlockInput>[] = [];
  /** The config from each masterchain seqno on (a new entry where a round changed it). */
  private readonly configs: { seqno: number; config: Cell }[] = [];
  private readonly recent = new LruCache<string, BlockCellsOf>(RECENT_BLOCKS);
  /** States of older blocks built again (a block built again starts from the state after its predecessor). */
  private readonly states = new LruCache<string, Cell>(64);
  private readonly configAddresses = new LruCache<string, Buffer>(16);

  /** The genesis config, until the genesis round is noted. */
  private genesisConfig: Cell | null = null;
  private readonly listHashes = new LruCache<string, number>(16);
  /** The masterchain key blocks: block 0 and every block whose round changed the config, in order. */
  private readonly keySeqnos: number[] = [0];

  constructor(
    private readonly history: HistoryIndex,
    private readonly reader: ChainReader,
    private readonly globalId: number,
  ) {}

  /** The config a new chain starts with (its genesis round is built before any round is noted). */
  startConfig(config: Cell): void {
    this.genesisConfig = config;
  }

  /** A block's header, as its BlockInfo carries it. */
  header(b: StoredBlock): BlockHeader {
    const mcSeqno = b.id.workchain === -1 ? b.id.seqno : b.masterchainRef!.seqno;
    return devnetBlockHeader(b, this.globalId, {
      validatorListHashShort: this.listHashAt(mcSeqno),
      isKeyBlock: this.isKey(mcSeqno),
      prevKeyBlockSeqno: this.keyBefore(mcSeqno),
    });
  }

  private isKey(mcSeqno: number): boolean {
    return this.keySeqnos.includes(mcSeqno);
  }

  /** The last key block before masterchain block `mcSeqno` (block 0 for block 0). */
  private keyBefore(mcSeqno: number): number {
    let found = 0;
    for (const k of this.keySeqnos) if (k < mcSeqno) found = k;
    return found;
  }

  /** The config in force for the blocks of round `mcSeqno` (the one after the round before), whose param 34 signs them. */
  configBefore(mcSeqno: number): Cell {
    const config = mcSeqno === 0 ? (this.configs[0]?.config ?? this.genesisConfig) : this.configAt(mcSeqno - 1);
    if (!config) throw new Error('no config before the genesis round');
    return config;
  }

  /** The main validators of the set in force for the blocks of round `mcSeqno` (none without param 34). */
  mainValidators(mcSeqno: number): ValidatorDescr[] {
    const params = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), this.configBefore(mcSeqno));
    const set = params.get(34);
    return set ? masterchainValidators(parseValidatorSet(set), parseShuffleMcValidators(params.get(28) ?? null), 0) : [];
  }

  /** A config's current validator set (param 34), if it has one. */
  validatorSetOf(config: Cell): Cell | null {
    return Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config).get(34) ?? null;
  }

  /**
   * gen_validator_list_hash_short of the blocks of round `mcSeqno`: the main validators of the set in force (config
   * param 34 before the round, shuffled as param 28 says), catchain session 0.
   */
  private listHashAt(mcSeqno: number): number {
    const config = this.configBefore(mcSeqno);
    return this.listHashes.getOrCreate(config.hash().toString('hex'), () => {
      const nodes = this.mainValidators(mcSeqno);
      return nodes.length > 0 ? validatorSetHashShort(0, nodes) | 0 : 0;
    });
  }

  /** An account's state after the round being built (a ShardAccount cell; account_none removes it). */
  setAccount(workchain: number, account: Buffer, shardAccount: Cell): void {
    const key = `${workchain}:${account.toString('hex')}`;
    const sa = loadShardAccount(shardAccount.beginParse());
    if (!sa.account) {
      this.latest.delete(key);
      return;
    }
    this.latest.set(key, {
      workchain,
      account,
      prefix: account.readBigUInt64BE(0),
      key: BigInt('0x' + account.toString('hex')),
      identity: `${account.toString('hex')}:${shardAccount.hash().toString('hex')}`,
      shardAccount,
      balance: sa.account.storage.balance.coins,
    });
  }

  /** Takes a sealed (or replayed) round's masterchain block and the config after it. */
  noteRound(mc: StoredBlock, config: Cell): void {
    const last = this.configs.at(-1);
    if (!last || !last.config.hash().equals(config.hash())) {
      this.configs.push({ seqno: mc.id.seqno, config });
      if (last && this.keySeqnos.at(-1)! < mc.id.seqno) this.keySeqnos.push(mc.id.seqno);
    }
    if (mc.id.seqno === this.mcEntries.length)
      this.mcEntries.push({ key: BigInt(mc.id.seqno), value: { id: mc.id, endLt: mc.endLt, isKeyBlock: this.isKey(mc.id.seqno) } });
  }

  /** The cells of a block the history holds: from memory, or built again from the history. */
  of(ref: BlockRef): BlockCellsOf {
    const b = this.history.blockAt(ref);
    const hit = this.recent.get(refKey(b.id));
    if (hit && hit.block.hash().equals(b.id.rootHash)) return hit;
    const prev = b.prevBlocks.map((p) => this.history.blockAt(p));
    const isMc = b.id.workchain === -1;
    const mcSeqno = isMc ? b.id.seqno : b.masterchainRef!.seqno;
    const built = this.build(b, {
      ...this.historicState(b),
      before: this.stateBefore(b, prev),
      prevMc: !isMc && mcSeqno > 0 ? this.history.mcAt(mcSeqno - 1) : null,
      txs: b.txs.map((t) => this.reader.cellOf(t.blob)),
    });
    this.recent.set(refKey(b.id), built);
    return built;
  }

  /**
   * Builds a new basechain block: `draft` has everything but the hashes, which this fills in (id and state hash).
   * `prev` are the blocks it follows, `prevMc` the masterchain block before its round.
   */
  sealShardBlock(draft: StoredBlock, prev: StoredBlock[], prevMc: StoredBlock | null, txs: Cell[]): void {
    const accounts = this.currentAccounts(0, draft.id.shard);
    const key = `0:${draft.id.shard}`;
    let writer = this.writers.get(key);
    if (!writer) this.writers.set(key, (writer = new ShardAccountsWriter()));
    const before = this.stateBefore(draft, prev);
    this.finish(draft, this.build(draft, { accounts, before, prevMc, txs, accountsWriter: writer }));
  }

  /** Builds a new masterchain block (after its round's shard blocks, sealed with sealShardBlock). */
  sealMasterchainBlock(draft: StoredBlock, prevMc: StoredBlock | null, shardBlocks: StoredBlock[], config: Cell, txs: Cell[]): void {
    let writer = this.writers.get('-1');
    if (!writer) this.writers.set('-1', (writer = new ShardAccountsWriter()));
    const listed = this.mcEntries.length === draft.id.seqno ? this.mcEntries : this.mcEntries.slice(0, draft.id.seqno);
    const prevBlocks = this.prevBlocksWriter.storeE(listed, { isKey: false, maxLt: 0n }).store;
    const before = this.stateBefore(draft, prevMc ? [prevMc] : []);
    // A round that changes the config ends with a key block, which carries the new config.
    const seqno = draft.id.seqno;
    if (seqno > 0 && !config.hash().equals(this.configAt(seqno - 1).hash()) && this.keySeqnos.at(-1)! < seqno) this.keySeqnos.push(seqno);
    const lastKey = seqno > 0 ? this.history.mcAt(this.keyBefore(seqno)) : null;
    this.finish(
      draft,
      this.build(draft, {
        accounts: this.currentAccounts(-1, draft.id.shard),
        before,
        prevMc: null,
        mc: { shardBlocks, config, prevBlocks, lastKey },
        txs,
        accountsWriter: writer,
      }),
    );
  }

  private finish(draft: StoredBlock, built: BlockCellsOf): void {
    draft.id = { ...draft.id, rootHash: built.block.hash(), fileHash: fileHashOf(built.block) };
    draft.stateHash = built.state.hash();
    this.recent.set(refKey(draft.id), built);
  }

  private currentAccounts(workchain: number, shard: bigint): StateAccount[] {
    const out: StateAccount[] = [];
    for (const a of this.latest.values())
      if (a.workchain === workchain && (workchain === -1 || shardContains(shard, a.prefix))) out.push(a);
    return out;
  }

  /** The state a block starts from: none before genesis, the parent's after a split, both halves' before a merge. */
  private stateBefore(b: StoredBlock, prev: StoredBlock[]): Cell {
    if (prev.length === 0)
      return shardStateCell(
        { globalId: this.globalId, workchain: b.id.workchain, shard: b.id.shard, seqno: 0, genUtime: 0, genLt: 0n },
        EMPTY_SHARD_ACCOUNTS,
        null,
      );
    if (prev.length === 2) return splitStateCell(this.stateAfter(prev[0]), this.stateAfter(prev[1]));
    return this.stateAfter(prev[0]);
  }

  /** The state after a block: from memory, or built again (the state alone: its predecessors are not needed). */
  private stateAfter(b: StoredBlock): Cell {
    const hit = this.recent.get(refKey(b.id));
    if (hit && hit.block.hash().equals(b.id.rootHash)) return hit.state;
    return this.states.getOrCreate(
      `${refKey(b.id)}:${b.id.rootHash.toString('hex')}`,
      () => this.buildState(b, this.historicState(b)).state,
    );
  }

  /** What the state after an earlier block was built from, as the history keeps it. */
  private historicState(b: StoredBlock): StateInputs {
    const isMc = b.id.workchain === -1;
    const mcSeqno = isMc ? b.id.seqno : b.masterchainRef!.seqno;
    const accounts: StateAccount[] = [];
    for (const { workchain, account } of this.history.latestSnapshots()) {
      if (workchain !== b.id.workchain) continue;
      if (!isMc && !shardContains(b.id.shard, account.readBigUInt64BE(0))) continue;
      const blob = this.history.snapshotAt({ workChain: workchain, hash: account }, mcSeqno);
      if (!blob) continue;
      const cell = this.reader.cellOf(blob);
      const sa = loadShardAccount(cell.beginParse());
      if (sa.account) accounts.push({ account, shardAccount: cell, balance: sa.account.storage.balance.coins });
    }
    const inputs: StateInputs = { accounts, accountsWriter: new ShardAccountsWriter() };
    if (isMc) {
      inputs.mc = {
        shardBlocks: b.shardBlocks.map((id) => this.history.blockAt(id)),
        config: this.configAt(b.id.seqno),
        prevBlocks: oldMcBlocksWriter().storeE(this.mcEntries.slice(0, b.id.seqno), { isKey: false, maxLt: 0n }).store,
        lastKey: b.id.seqno > 0 ? this.history.mcAt(this.keyBefore(b.id.seqno)) : null,
      };
    }
    return inputs;
  }

  private configAt(seqno: number): Cell {
    let found: Cell | undefined;
    for (const c of this.configs) if (c.seqno <= seqno) found = c.config;
    if (!found) throw new Error(`no config known at masterchain block ${seqno}`);
    return found;
  }

  private configAddress(config: Cell): Buffer {
    return this.configAddresses.getOrCreate(config.hash().toString('hex'), () => {
      const param0 = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), config).get(0);
      return param0 ? param0.beginParse().loadBuffer(32) : Buffer.alloc(32, 0x55);
    });
  }

  private build(b: StoredBlock, inputs: BlockInputs): BlockCellsOf {
    const header = this.header(b);
    const isMc = b.id.workchain === -1;
    const { state, shardHashes } = this.buildState(b, inputs);
    const prevEndLts = b.prevBlocks.map((p) => this.history.blockAt(p).endLt);
    const block = buildBlockCell({
      header,
      prevEndLts,
      masterRef: isMc ? undefined : inputs.prevMc ? extRef(inputs.prevMc) : NO_BLOCK,
      stateUpdate: { before: inputs.before, after: state },
      accountBlocks: shardAccountBlocks(inputs.txs.map(blockTransaction)),
      shardHashes,
      config: header.isKeyBlock && inputs.mc ? { address: this.configAddress(inputs.mc.config), root: inputs.mc.config } : undefined,
      masterchainExtra: isMc,
    });
    return { block, state };
  }

  /** The ShardStateUnsplit after a block (and, for a masterchain block, the ShardHashes it lists). */
  private buildState(b: StoredBlock, inputs: StateInputs): { state: Cell; shardHashes?: Cell } {
    const { cell: accountsCell, balance } = inputs.accountsWriter.build(inputs.accounts);
    let custom: Cell | null = null;
    let shardHashes: Cell | undefined;
    if (inputs.mc) {
      shardHashes = buildShardHashes(
        inputs.mc.shardBlocks.map((s) => ({
          id: s.id,
          startLt: s.startLt,
          endLt: s.endLt,
          genUtime: s.genUtime,
          regMcSeqno: b.id.seqno,
          beforeSplit: s.beforeSplit,
        })),
      );
      custom = mcStateExtraCell({
        shardHashes,
        configAddress: this.configAddress(inputs.mc.config),
        configRoot: inputs.mc.config,
        prevBlocks: inputs.mc.prevBlocks,
        lastKeyBlock: inputs.mc.lastKey ? extRef(inputs.mc.lastKey) : undefined,
        afterKeyBlock: b.id.seqno > 0 && this.isKey(b.id.seqno - 1),
      });
    }
    const state = shardStateCell(
      {
        globalId: this.globalId,
        workchain: b.id.workchain,
        shard: b.id.shard,
        seqno: b.id.seqno,
        genUtime: b.genUtime,
        genLt: b.endLt,
        minRefMcSeqno: this.header(b).minRefMcSeqno,
        beforeSplit: b.beforeSplit === true,
      },
      accountsCell,
      custom,
      balance,
    );
    return { state, shardHashes };
  }
}

/**
 * A transaction as ShardAccountBlocks files it: account, lt, total fees and the account's state hashes around it,
 * read straight from the cell (transaction$0111 account_addr lt prev_trans_hash prev_trans_lt now outmsg_cnt
 * orig_status end_status ^[in_msg out_msgs] total_fees state_update:^(HASH_UPDATE Account) ...), which a whole
 * @ton/core parse of every message would make several times dearer.
 */
function blockTransaction(cell: Cell): BlockTransaction {
  const s = cell.beginParse();
  if (s.loadUint(4) !== 0b0111) throw new Error('not a Transaction');
  const account = s.loadBuffer(32);
  const lt = s.loadUintBig(64);
  s.skip(256 + 64 + 32 + 15 + 2 + 2);
  s.loadRef(); // in_msg, out_msgs
  const totalFees = s.loadCoins();
  s.loadMaybeRef(); // extra currencies
  const update = s.loadRef().beginParse();
  if (update.loadUint(8) !== 0x72) throw new Error('not a HASH_UPDATE');
  return { account, lt, cell, totalFees, oldHash: update.loadBuffer(32), newHash: update.loadBuffer(32) };
}

/** A block's file hash: sha256 of its BOC (one root, no index, with CRC32C: @ton/core's default serialization). */
export function fileHashOf(block: Cell): Buffer {
  return createHash('sha256').update(block.toBoc()).digest();
}
