import { createHash } from 'node:crypto';
import { join } from 'node:path';
import {
  Address,
  beginCell,
  Cell,
  Dictionary,
  loadShardAccount,
  loadTransaction,
  parseTuple,
  serializeTuple,
  storeShardAccount,
  type Message,
  type ShardAccount,
  type TupleItem,
} from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import { Blockchain, EmulationError, TimeError, type BlockchainTransaction, type BlockId, type PrevBlocksInfo } from '@ton/sandbox';
import {
  accountStateFields,
  blockSigningPayload,
  ChainError,
  emulationResultOf,
  externalMessageOf,
  EXIT_CODE_NO_CODE,
  GET_METHOD_GAS_LIMIT,
  LruCache,
  getMethodCall,
  nodeIdShort,
  parseExternalMessage,
  WHOLE_SHARD,
  type AccountState,
  type BlockHeader,
  type BlockIdExt,
  type BlockLookup,
  type BlockRef,
  type BlockSignatures,
  type BlockTransactionCursor,
  type BlockTransactionsPage,
  type ChainSource,
  type ChainTransaction,
  type EmulationResult,
  type GetMethodResult,
  type MasterchainInfo,
  type Network,
  type OutMsgQueueSizes,
  type ShardBlockProof,
  type ShortTransactionId,
  type TransactionId,
} from '@tongate/chain';
import { blockHashes, compareTx, nextStateHash, serializeBlock, type BlockContent } from './blocks.js';
import { devnetFaucet, DEVNET_FAUCET_BALANCE, type Faucet } from './faucet.js';
import { genesisConfig, genesisLibraries, GLOBAL_IDS } from './genesis.js';
import { devnetValidatorSigner, type Ed25519Signer } from './keys.js';
import { ChainStore, type BlobRef, type Round, type StoredAccount, type StoredBlock, type StoredTx } from './store.js';
import { runSeed, type SeedSummary } from './seed.js';
import { installFastSha256 } from './fast-sha256.js';
import { DevnetExecutor, EmulatorFault } from './executor.js';
import { MessageRunner, rawExternalMessage, type AppliedTransaction, type RunResult } from './runner.js';

export interface DevnetOptions {
  network: Network;
  /** Directory for durable history; the devnet keeps `<dataDir>/<network>/`. Omit for an in-memory chain. */
  dataDir?: string;
  /** Interval between rounds of blocks in ms (default 1000); 0 = blocks only on produceBlock(). */
  blockIntervalMs?: number;
  logger?: { info(obj: object, msg?: string): void };
  /**
   * Run messages through the sandbox's own queue (Blockchain.sendMessage) instead of the devnet's direct runner.
   * Slower; kept to compare the two paths.
   */
  sandboxQueue?: boolean;
}

/** Logical time the devnet skips at every round, so that a block's lt range is never empty. */
const LT_PER_ROUND = 1_000_000n;
/** Pending (not yet sealed) transactions the devnet holds at most; more are refused until the next block. */
export const EXT_MSG_QUEUE_SIZE_LIMIT = 10_000;
/** Longest chain of masterchain back links served by getShardBlockProof. */
const MAX_PROOF_LINKS = 1000;
const ZERO32 = Buffer.alloc(32);
/**
 * Decoded account snapshots and transactions kept in memory (least recently used evicted). Reads then skip the BOC
 * parsing that dominated getAddressInformation and getTransactions; the bounds keep a long-lived devnet's memory flat.
 */
const ACCOUNT_CACHE_ENTRIES = 2048;
const TRANSACTION_CACHE_ENTRIES = 4096;
const GET_METHOD_CACHE_ENTRIES = 4096;

interface PendingTx {
  workchain: number;
  account: Buffer;
  lt: bigint;
  hash: Buffer;
  boc: Buffer;
}

/**
 * An account snapshot (one ShardAccount blob) decoded once: the parts of AccountState that do not depend on the
 * block. Shared between callers, who treat AccountState as read-only.
 */
interface DecodedAccount {
  sa: ShardAccount | null;
  state: Omit<AccountState, 'address' | 'block' | 'syncUtime'>;
}

interface IndexedTx {
  tx: StoredTx;
  block: BlockIdExt;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const accountKey = (workchain: number, account: Buffer) => `${workchain}:${account.toString('hex')}`;
const bigintHash = (v: bigint) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex');

export class Devnet implements ChainSource {
  readonly network: Network;
  readonly globalId: number;
  readonly backendId = 'devnet';
  readonly validator: Ed25519Signer;
  readonly faucet: Faucet;

  private readonly mcBlocks: StoredBlock[] = [];
  private readonly shardBlocks: StoredBlock[] = [];
  private readonly txIndex = new Map<string, Map<bigint, IndexedTx>>();
  private readonly accountHistory = new Map<string, { seqno: number; blob: BlobRef }[]>();
  private config!: Cell;
  private configDict!: Dictionary<number, Cell>;
  private libs: Cell | undefined;
  private libsDict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());

  /** Keyed by blob offset: a blob is written once and never changes, so an entry never goes stale. */
  private readonly accountCache = new LruCache<number, DecodedAccount>(ACCOUNT_CACHE_ENTRIES);
  private readonly txCache = new LruCache<number, ChainTransaction>(TRANSACTION_CACHE_ENTRIES);
  /** Get-method results by block, account snapshot, method and arguments (see runGetMethod); shared, read-only. */
  private readonly getMethodCache = new LruCache<string, GetMethodResult>(GET_METHOD_CACHE_ENTRIES);

  /** The direct message runner (see runner.ts); null when the sandbox queue is used. */
  private runner: MessageRunner | null = null;
  private pending: PendingTx[] = [];
  private readonly touched = new Map<string, Address>();
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;

  private constructor(
    private readonly bc: Blockchain,
    private readonly store: ChainStore,
    opts: DevnetOptions,
    faucet: Faucet,
    private readonly logger?: DevnetOptions['logger'],
  ) {
    this.network = opts.network;
    this.globalId = GLOBAL_IDS[opts.network];
    this.validator = devnetValidatorSigner(this.globalId);
    this.faucet = faucet;
  }

  static async create(opts: DevnetOptions): Promise<Devnet> {
    if (opts.network !== 'mainnet' && opts.network !== 'testnet') throw new Error(`unknown network: ${String(opts.network)}`);
    installFastSha256();
    const store = ChainStore.open(opts.dataDir === undefined ? undefined : join(opts.dataDir, opts.network));
    const faucet = await devnetFaucet();
    try {
      const recovered = store.recovered;
      const config = recovered.length > 0 ? Cell.fromBoc(store.getBlob(recovered[0].config!))[0] : genesisConfig(GLOBAL_IDS[opts.network]);
      const executor = await DevnetExecutor.create();
      const bc = await Blockchain.create({ config, executor });
      bc.verbosity = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
      shareFrozenPrevBlocks(bc);
      const devnet = new Devnet(bc, store, opts, faucet, opts.logger);
      if (recovered.length > 0) await devnet.restore(recovered);
      else await devnet.genesis(config);
      if (!opts.sandboxQueue) devnet.runner = await MessageRunner.create(bc, executor, faucet.address);
      devnet.startTimer(opts.blockIntervalMs ?? 1000);
      opts.logger?.info(
        { network: devnet.network, mcSeqno: devnet.lastMc.id.seqno, faucet: faucet.address.toString({ testOnly: opts.network === 'testnet' }) },
        recovered.length > 0 ? 'devnet restored' : 'devnet genesis',
      );
      return devnet;
    } catch (e) {
      store.close();
      throw e;
    }
  }

  // ---------------------------------------------------------------- genesis, restore, rounds

  private async genesis(config: Cell): Promise<void> {
    const genUtime = nowSeconds();
    const faucetAccount = genesisWalletAccount(this.faucet, genUtime);
    await this.bc.setShardAccount(this.faucet.address, faucetAccount);
    const libs = genesisLibraries();
    this.bc.libs = libs;
    const faucetBoc = beginCell().store(storeShardAccount(faucetAccount)).endCell();
    const accounts: StoredAccount[] = [{ workchain: 0, account: this.faucet.address.hash, blob: this.store.putBlob(faucetBoc.toBoc()) }];
    const stateHash = nextStateHash(ZERO32, [{ workchain: 0, account: this.faucet.address.hash, shardAccountHash: faucetBoc.hash() }]);
    const round = this.buildRound({ genUtime, startLt: 0n, endLt: LT_PER_ROUND, txs: [], stateHash, accounts, prevShard: null, prevMc: null });
    round.config = this.store.putBlob(config.toBoc());
    round.libs = this.store.putBlob(libs.toBoc());
    this.setCurrentLt(LT_PER_ROUND);
    this.store.appendRound(round);
    this.applyRound(round);
    this.updatePrevBlocks();
  }

  private async restore(rounds: Round[]): Promise<void> {
    for (const r of rounds) this.applyRound(r);
    const latest = new Map<string, BlobRef>();
    for (const r of rounds) for (const a of r.accounts) latest.set(accountKey(a.workchain, a.account), a.blob);
    for (const [key, blob] of latest) {
      const [wc, hex] = key.split(':');
      const sa = loadShardAccount(Cell.fromBoc(this.store.getBlob(blob))[0].beginParse());
      const address = new Address(Number(wc), Buffer.from(hex, 'hex'));
      if (sa.account) await this.bc.setShardAccount(address, sa);
    }
    if (this.libs) this.bc.libs = this.libs;
    this.setCurrentLt(rounds[rounds.length - 1].lt);
    this.updatePrevBlocks();
  }

  /** Puts a round (from genesis, production or the journal) into the in-memory indexes. */
  private applyRound(round: Round): void {
    for (const b of round.blocks) {
      const list = b.id.workchain === -1 ? this.mcBlocks : this.shardBlocks;
      if (b.id.seqno !== list.length) throw new Error(`devnet history is not contiguous at ${b.id.workchain}:${b.id.seqno}`);
      list.push(b);
      for (const t of b.txs) {
        const key = accountKey(t.workchain, t.account);
        let m = this.txIndex.get(key);
        if (!m) this.txIndex.set(key, (m = new Map()));
        m.set(t.lt, { tx: t, block: b.id });
      }
    }
    const mcSeqno = round.blocks[round.blocks.length - 1].id.seqno;
    for (const a of round.accounts) {
      const key = accountKey(a.workchain, a.account);
      let h = this.accountHistory.get(key);
      if (!h) this.accountHistory.set(key, (h = []));
      h.push({ seqno: mcSeqno, blob: a.blob });
    }
    if (round.config) {
      this.config = Cell.fromBoc(this.store.getBlob(round.config))[0];
      this.configDict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), this.config);
    }
    if (round.libs) {
      this.libs = Cell.fromBoc(this.store.getBlob(round.libs))[0];
      this.libsDict = this.libs.beginParse().loadDictDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    }
  }

  private buildRound(args: {
    genUtime: number;
    startLt: bigint;
    endLt: bigint;
    txs: (PendingTx & { blob: BlobRef })[];
    stateHash: Buffer;
    accounts: StoredAccount[];
    prevShard: StoredBlock | null;
    prevMc: StoredBlock | null;
  }): Round {
    const content = (workchain: number, prev: StoredBlock | null, txs: StoredTx[], shardBlocks: BlockIdExt[], stateHash: Buffer): StoredBlock => {
      const sorted = [...txs].sort(compareTx);
      const c: BlockContent = {
        globalId: this.globalId,
        workchain,
        shard: WHOLE_SHARD,
        seqno: prev ? prev.id.seqno + 1 : 0,
        genUtime: args.genUtime,
        startLt: args.startLt,
        endLt: args.endLt,
        prevBlocks: prev ? [prev.id] : [],
        shardBlocks,
        stateHash,
        transactions: sorted,
      };
      const { rootHash, fileHash } = blockHashes(serializeBlock(c));
      return {
        id: { workchain, shard: WHOLE_SHARD, seqno: c.seqno, rootHash, fileHash },
        genUtime: c.genUtime,
        startLt: c.startLt,
        endLt: c.endLt,
        prevBlocks: c.prevBlocks,
        shardBlocks,
        stateHash,
        txs: sorted,
      };
    };
    const toStored = (t: PendingTx & { blob: BlobRef }): StoredTx => ({ workchain: t.workchain, account: t.account, lt: t.lt, hash: t.hash, blob: t.blob });
    const shard = content(0, args.prevShard, args.txs.filter((t) => t.workchain !== -1).map(toStored), [], ZERO32);
    const mc = content(-1, args.prevMc, args.txs.filter((t) => t.workchain === -1).map(toStored), [shard.id], args.stateHash);
    shard.masterchainRef = { workchain: -1, shard: WHOLE_SHARD, seqno: mc.id.seqno };
    return { blocks: [shard, mc], accounts: args.accounts, lt: args.endLt };
  }

  /** Seals everything pending into the next basechain block and the masterchain block that references it. */
  private async sealRound(): Promise<BlockIdExt> {
    const prevMc = this.lastMc;
    const prevShard = this.shardBlocks[this.shardBlocks.length - 1];
    const genUtime = Math.max(prevMc.genUtime, nowSeconds());
    const endLt = this.bc.lt + LT_PER_ROUND;
    const txs = this.pending.map((t) => ({ ...t, blob: this.store.putBlob(t.boc) }));
    const accounts: StoredAccount[] = [];
    const changed: { workchain: number; account: Buffer; shardAccountHash: Buffer }[] = [];
    for (const address of this.touched.values()) {
      const cell = beginCell().store(storeShardAccount((await this.bc.getContract(address)).account)).endCell();
      accounts.push({ workchain: address.workChain, account: address.hash, blob: this.store.putBlob(cell.toBoc()) });
      changed.push({ workchain: address.workChain, account: address.hash, shardAccountHash: cell.hash() });
    }
    const stateHash = changed.length > 0 ? nextStateHash(prevMc.stateHash, changed) : prevMc.stateHash;
    const round = this.buildRound({ genUtime, startLt: prevMc.endLt, endLt, txs, stateHash, accounts, prevShard, prevMc });
    const libs = this.bc.libs;
    if (libs && (!this.libs || !libs.hash().equals(this.libs.hash()))) round.libs = this.store.putBlob(libs.toBoc());
    this.store.appendRound(round);
    this.setCurrentLt(endLt);
    this.applyRound(round);
    this.pending = [];
    this.touched.clear();
    this.updatePrevBlocks();
    const mc = round.blocks[1];
    if (txs.length > 0) this.logger?.info({ network: this.network, mcSeqno: mc.id.seqno, transactions: txs.length }, 'devnet block');
    return mc.id;
  }

  private setCurrentLt(lt: bigint): void {
    // The sandbox keeps its logical time in a protected field; rounds advance it so block lt ranges never overlap.
    (this.bc as unknown as { currentLt: bigint }).currentLt = lt;
  }

  /** Feeds the last masterchain blocks to c7 (PREVBLOCKS) and gives the next round its own rand_seed, as validators do. */
  private updatePrevBlocks(): void {
    const last = this.mcBlocks.slice(-16).reverse().map((b) => b.id);
    this.bc.prevBlocks = { lastMcBlocks: last, prevKeyBlock: this.mcBlocks[0].id };
    this.bc.random = createHash('sha256').update('rand_seed').update(last[0].rootHash).digest();
  }

  private startTimer(intervalMs: number): void {
    if (!(intervalMs > 0)) return;
    const tick = () => {
      this.timer = undefined;
      this.produceBlock()
        .catch((e) => this.logger?.info({ err: String(e) }, 'devnet block production failed'))
        .finally(() => {
          if (!this.closed) {
            this.timer = setTimeout(tick, intervalMs);
            this.timer.unref();
          }
        });
    };
    this.timer = setTimeout(tick, intervalMs);
    this.timer.unref();
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.closed) throw new ChainError('unavailable', 'devnet is closed');
      return fn();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  // ---------------------------------------------------------------- devnet extras

  /** Seals pending transactions into the next blocks now; returns the new masterchain block id. */
  produceBlock(): Promise<BlockIdExt> {
    return this.serial(() => this.sealRound());
  }

  /** Deploys wallets, tokens and NFTs from the faucet and moves them around (adds activity on every call). */
  seed(): Promise<SeedSummary> {
    return runSeed({
      network: this.network,
      globalId: this.globalId,
      faucet: this.faucet,
      sendMessage: (boc) => this.sendMessage(boc),
      produceBlock: () => this.produceBlock(),
      liveSeqno: (address) => this.serial(() => this.liveSeqno(address)),
    });
  }

  private async liveSeqno(address: Address): Promise<number> {
    const sc = await this.bc.getContract(address);
    if (sc.accountState?.type !== 'active') return 0;
    const r = await this.bc.runGetMethod(address, 'seqno');
    return Number(r.stackReader.readBigNumber());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    // Seal what is pending, so a clean stop loses nothing.
    await this.serial(async () => {
      if (this.pending.length > 0) await this.sealRound();
    }).catch(() => undefined);
    this.closed = true;
    await this.queue;
    this.store.close();
  }

  // ---------------------------------------------------------------- ChainSource: blocks

  private get lastMc(): StoredBlock {
    return this.mcBlocks[this.mcBlocks.length - 1];
  }

  private mcAt(seqno: number | undefined): StoredBlock {
    if (seqno === undefined) return this.lastMc;
    if (!Number.isInteger(seqno) || seqno < 0) throw new ChainError('invalid', `masterchain seqno must be a non-negative integer, got ${seqno}`);
    const b = this.mcBlocks[seqno];
    if (!b) throw new ChainError('not_found', `masterchain block ${seqno} not found (last is ${this.lastMc.id.seqno})`);
    return b;
  }

  private chainOf(workchain: number, shard: bigint): StoredBlock[] {
    if (shard !== WHOLE_SHARD || (workchain !== -1 && workchain !== 0)) {
      throw new ChainError('not_found', `no shard ${workchain}:${BigInt.asUintN(64, shard).toString(16)} on the devnet (one shard 8000000000000000 per workchain)`);
    }
    return workchain === -1 ? this.mcBlocks : this.shardBlocks;
  }

  private blockAt(ref: BlockRef): StoredBlock {
    const b = this.chainOf(ref.workchain, ref.shard)[ref.seqno];
    if (!b) throw new ChainError('not_found', `block (${ref.workchain},${BigInt.asUintN(64, ref.shard).toString(16)},${ref.seqno}) not found`);
    return b;
  }

  async getMasterchainInfo(): Promise<MasterchainInfo> {
    const last = this.lastMc;
    return { last: last.id, init: this.mcBlocks[0].id, stateRootHash: last.stateHash, lastUtime: last.genUtime };
  }

  async lookupBlock(query: BlockLookup): Promise<BlockIdExt> {
    const chain = this.chainOf(query.workchain, query.shard);
    if ('seqno' in query) return this.blockAt(query).id;
    // As the node's lt index answers: the first block whose end_lt (by lt) or gen_utime (by utime) is at or past the
    // target. Every transaction's lt lies in its block's [start_lt, end_lt).
    const pick = 'lt' in query ? (b: StoredBlock) => b.endLt >= query.lt : (b: StoredBlock) => b.genUtime >= query.utime;
    let lo = 0;
    let hi = chain.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pick(chain[mid])) hi = mid;
      else lo = mid + 1;
    }
    if (lo >= chain.length) {
      const what = 'lt' in query ? `lt ${query.lt}` : `utime ${query.utime}`;
      throw new ChainError('not_found', `no block with ${what} in workchain ${query.workchain} yet`);
    }
    return chain[lo].id;
  }

  async getBlockHeader(ref: BlockRef): Promise<BlockHeader> {
    const b = this.blockAt(ref);
    const isMc = b.id.workchain === -1;
    const validatorNode = nodeIdShort(this.validator.publicKey);
    return {
      id: b.id,
      globalId: this.globalId,
      version: 0,
      flags: 0,
      afterMerge: false,
      afterSplit: false,
      beforeSplit: false,
      wantMerge: false,
      wantSplit: false,
      validatorListHashShort: validatorNode.readInt32BE(0),
      catchainSeqno: 0,
      minRefMcSeqno: isMc ? b.id.seqno : Math.max(0, (b.masterchainRef?.seqno ?? 1) - 1),
      isKeyBlock: isMc && b.id.seqno === 0,
      prevKeyBlockSeqno: 0,
      vertSeqno: 0,
      startLt: b.startLt,
      endLt: b.endLt,
      genUtime: b.genUtime,
      prevBlocks: b.prevBlocks,
      ...(isMc ? { shardBlocks: b.shardBlocks } : { masterchainRef: b.masterchainRef }),
    };
  }

  async getShards(mcSeqno: number): Promise<BlockIdExt[]> {
    return this.mcAt(mcSeqno).shardBlocks;
  }

  private pageOf(ref: BlockRef, opts: { count: number; after?: BlockTransactionCursor }): { block: StoredBlock; txs: StoredTx[]; incomplete: boolean } {
    if (!Number.isInteger(opts.count) || opts.count < 1) throw new ChainError('invalid', `count must be a positive integer, got ${opts.count}`);
    const block = this.blockAt(ref);
    let start = 0;
    if (opts.after) {
      const after = { account: opts.after.account, lt: opts.after.lt, hash: ZERO32 };
      while (start < block.txs.length && compareTx(block.txs[start], after) <= 0) start++;
    }
    const txs = block.txs.slice(start, start + opts.count);
    return { block, txs, incomplete: start + txs.length < block.txs.length };
  }

  async listBlockTransactions(ref: BlockRef, opts: { count: number; after?: BlockTransactionCursor }): Promise<BlockTransactionsPage<ShortTransactionId>> {
    const { txs, incomplete } = this.pageOf(ref, opts);
    return { transactions: txs.map((t) => ({ account: t.account, workchain: t.workchain, lt: t.lt, hash: t.hash })), incomplete };
  }

  async listBlockTransactionsExt(ref: BlockRef, opts: { count: number; after?: BlockTransactionCursor }): Promise<BlockTransactionsPage<ChainTransaction>> {
    const { block, txs, incomplete } = this.pageOf(ref, opts);
    return { transactions: txs.map((t) => this.loadTx(t, block.id)), incomplete };
  }

  async getMasterchainBlockSignatures(seqno: number): Promise<BlockSignatures> {
    const b = this.mcAt(seqno);
    const signature = this.validator.sign(blockSigningPayload(b.id.rootHash, b.id.fileHash));
    return { id: b.id, signatures: [{ nodeIdShort: nodeIdShort(this.validator.publicKey), signature }] };
  }

  /**
   * Devnet proofs are the canonical block serializations (see blocks.ts), not Merkle proofs: a link's `proof` is the
   * serialization of the masterchain block that lists the shard block; each back link carries the serializations of
   * its `from` block (which names its predecessor) and of its `to` block. sha256 of each equals the block's root hash.
   */
  async getShardBlockProof(ref: BlockRef, fromMcSeqno?: number): Promise<ShardBlockProof> {
    const target = this.blockAt(ref);
    const mc = target.id.workchain === -1 ? target : this.mcAt(target.masterchainRef!.seqno);
    const from = this.mcAt(fromMcSeqno);
    if (from.id.seqno < mc.id.seqno) {
      throw new ChainError('invalid', `masterchain block ${from.id.seqno} is older than block ${mc.id.seqno} that commits the requested block`);
    }
    if (from.id.seqno - mc.id.seqno > MAX_PROOF_LINKS) {
      throw new ChainError('invalid', `devnet proofs span at most ${MAX_PROOF_LINKS} masterchain blocks; pass a closer from_seqno`);
    }
    const links = target === mc ? [] : [{ id: target.id, proof: this.serializedBlock(mc) }];
    const mcProof: ShardBlockProof['mcProof'] = [];
    for (let s = from.id.seqno; s > mc.id.seqno; s--) {
      const hi = this.mcBlocks[s];
      const lo = this.mcBlocks[s - 1];
      mcProof.push({ toKeyBlock: false, from: hi.id, to: lo.id, destProof: this.serializedBlock(lo), proof: this.serializedBlock(hi), stateProof: Buffer.alloc(0) });
    }
    return { from: from.id, mcId: mc.id, links, mcProof };
  }

  private serializedBlock(b: StoredBlock): Buffer {
    return serializeBlock({
      globalId: this.globalId,
      workchain: b.id.workchain,
      shard: b.id.shard,
      seqno: b.id.seqno,
      genUtime: b.genUtime,
      startLt: b.startLt,
      endLt: b.endLt,
      prevBlocks: b.prevBlocks,
      shardBlocks: b.shardBlocks,
      stateHash: b.id.workchain === -1 ? b.stateHash : ZERO32,
      transactions: b.txs,
    });
  }

  /** Internal messages are delivered inside the round that creates them, so the devnet's queues are always empty. */
  async getOutMsgQueueSizes(): Promise<OutMsgQueueSizes> {
    const lastShard = this.shardBlocks[this.shardBlocks.length - 1];
    return {
      shards: [
        { id: this.lastMc.id, size: 0 },
        { id: lastShard.id, size: 0 },
      ],
      extMsgQueueSizeLimit: EXT_MSG_QUEUE_SIZE_LIMIT,
    };
  }

  // ---------------------------------------------------------------- ChainSource: transactions

  /** Cached transactions are shared between callers, who treat ChainTransaction as read-only. */
  private loadTx(t: StoredTx, block: BlockIdExt): ChainTransaction {
    return this.txCache.getOrCreate(t.blob.off, () => {
      const cell = Cell.fromBoc(this.store.getBlob(t.blob))[0];
      return { address: new Address(t.workchain, t.account), lt: t.lt, hash: t.hash, cell, tx: loadTransaction(cell.beginParse()), block };
    });
  }

  async getTransaction(address: Address, lt: bigint): Promise<ChainTransaction | null> {
    const hit = this.txIndex.get(accountKey(address.workChain, address.hash))?.get(lt);
    return hit ? this.loadTx(hit.tx, hit.block) : null;
  }

  async getAccountTransactions(address: Address, from: TransactionId, count: number): Promise<ChainTransaction[]> {
    if (!Number.isInteger(count) || count < 1) throw new ChainError('invalid', `count must be a positive integer, got ${count}`);
    const history = this.txIndex.get(accountKey(address.workChain, address.hash));
    const first = history?.get(from.lt);
    if (!history || !first) throw new ChainError('not_found', `no transaction of ${address.toRawString()} at lt ${from.lt}`);
    if (!first.tx.hash.equals(from.hash)) throw new ChainError('not_found', `transaction of ${address.toRawString()} at lt ${from.lt} has another hash`);
    const out: ChainTransaction[] = [];
    let cur: IndexedTx | undefined = first;
    while (cur && out.length < count) {
      const t = this.loadTx(cur.tx, cur.block);
      out.push(t);
      cur = t.tx.prevTransactionLt === 0n ? undefined : history.get(t.tx.prevTransactionLt);
    }
    return out;
  }

  // ---------------------------------------------------------------- ChainSource: state

  /** Where the account's state as of masterchain block `mcSeqno` is stored; null if it did not exist then. */
  private snapshotAt(address: Address, mcSeqno: number): BlobRef | null {
    const history = this.accountHistory.get(accountKey(address.workChain, address.hash));
    if (!history) return null;
    let lo = 0;
    let hi = history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (history[mid].seqno <= mcSeqno) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? null : history[lo - 1].blob;
  }

  private decodedSnapshot(blob: BlobRef): DecodedAccount {
    return this.accountCache.getOrCreate(blob.off, () => decodeAccount(loadShardAccount(Cell.fromBoc(this.store.getBlob(blob))[0].beginParse())));
  }

  private shardAccountAt(address: Address, mcSeqno: number): DecodedAccount | null {
    const blob = this.snapshotAt(address, mcSeqno);
    return blob ? this.decodedSnapshot(blob) : null;
  }

  async getAccountState(address: Address, atMcSeqno?: number): Promise<AccountState> {
    const mc = this.mcAt(atMcSeqno);
    const decoded = this.shardAccountAt(address, mc.id.seqno);
    const base = { address, block: mc.id, syncUtime: mc.genUtime };
    return decoded ? { ...base, ...decoded.state } : { ...base, ...decodeAccount(null).state };
  }

  async runGetMethod(address: Address, method: string | number, stack: TupleItem[], atMcSeqno?: number): Promise<GetMethodResult> {
    const methodId = getMethodCall(method, stack);
    const mc = this.mcAt(atMcSeqno);
    const blob = this.snapshotAt(address, mc.id.seqno);
    const sa = blob ? this.decodedSnapshot(blob).sa : undefined;
    const lastTransaction = sa && sa.lastTransactionLt > 0n ? { lt: sa.lastTransactionLt, hash: bigintHash(sa.lastTransactionHash) } : null;
    const state = sa?.account?.storage.state;
    if (!blob || !sa?.account || state?.type !== 'active' || !state.state.code) {
      return { exitCode: EXIT_CODE_NO_CODE, gasUsed: 0n, stack: [], block: mc.id, lastTransaction };
    }
    // Everything the emulator sees is fixed by the masterchain block and the account's state in it (code, data,
    // balance; time and seed from the block), so a result is reused for the same method and arguments: wallets poll
    // seqno and balances many times per block, and each run costs milliseconds.
    const key = `${mc.id.seqno}:${blob.off}:${methodId}:${stack.length === 0 ? '' : serializeTuple(stack).hash().toString('base64')}`;
    const known = this.getMethodCache.get(key);
    if (known) return known;
    const code = state.state.code;
    const balance = sa.account.storage.balance.coins;
    const res = await emulatorCall(() => this.bc.executor.runGetMethod({
      code,
      data: state.state.data ?? beginCell().endCell(),
      methodId,
      stack,
      config: this.bc.configBase64,
      verbosity: 'short',
      libs: this.libs,
      address,
      unixTime: mc.genUtime,
      balance,
      randomSeed: mc.id.rootHash,
      gasLimit: GET_METHOD_GAS_LIMIT,
      debugEnabled: false,
      prevBlocksInfo: this.bc.prevBlocks,
    }));
    if (!res.output.success) throw new ChainError('internal', `get-method failed in the emulator: ${res.output.error}`);
    const result: GetMethodResult = {
      exitCode: res.output.vm_exit_code,
      gasUsed: BigInt(res.output.gas_used),
      stack: parseTuple(Cell.fromBase64(res.output.stack)),
      block: mc.id,
      lastTransaction,
    };
    this.getMethodCache.set(key, result);
    return result;
  }

  async getConfigParam(id: number, atMcSeqno?: number): Promise<Cell | null> {
    this.mcAt(atMcSeqno);
    if (!Number.isInteger(id) || id < -(2 ** 31) || id >= 2 ** 31) throw new ChainError('invalid', `config param id must be a 32-bit integer, got ${id}`);
    return this.configDict.get(id) ?? null;
  }

  async getConfigAll(atMcSeqno?: number): Promise<Cell> {
    this.mcAt(atMcSeqno);
    return this.config;
  }

  async getLibraries(hashes: Buffer[]): Promise<{ hash: Buffer; data: Cell }[]> {
    const out: { hash: Buffer; data: Cell }[] = [];
    for (const hash of hashes) {
      if (hash.length !== 32) throw new ChainError('invalid', 'library hashes must be 32 bytes');
      const data = this.libsDict.get(hash);
      if (data) out.push({ hash, data });
    }
    return out;
  }

  // ---------------------------------------------------------------- ChainSource: messages

  private parseExternal(boc: Buffer): { cell: Cell; msg: Message } {
    const parsed = parseExternalMessage(boc);
    this.checkWorkchain(parsed.msg);
    return parsed;
  }

  private externalOf(cell: Cell): Message {
    const msg = externalMessageOf(cell);
    this.checkWorkchain(msg);
    return msg;
  }

  private checkWorkchain(msg: Message): void {
    const wc = (msg.info.dest as Address).workChain;
    if (wc !== 0 && wc !== -1) throw new ChainError('invalid', `workchain ${wc} does not exist on the devnet`);
  }

  async sendMessage(boc: Buffer): Promise<{ hash: Buffer }> {
    // The usual message (a plain BOC, an ext_in header to a devnet workchain) is read in place and reaches the
    // emulator as the client sent it; anything else gets @ton/core's full decoding first, which names what is wrong.
    const raw = this.runner ? rawExternalMessage(boc) : null;
    const parsed = raw ? null : this.parseExternal(boc);
    return this.serial(async () => {
      if (this.pending.length >= EXT_MSG_QUEUE_SIZE_LIMIT) throw new ChainError('refused', 'external message queue is full, retry after the next block');
      let result: RunResult;
      if (this.runner?.applicable) {
        const dest = raw ? raw.dest : (parsed!.msg.info.dest as Address);
        result = await this.runner.run(raw ? boc.toString('base64') : parsed!.cell.toBoc().toString('base64'), dest);
        // A refused message read in place may be malformed further in: then that is the answer (400, not 422).
        if (result.transactions.length === 0 && raw) this.parseExternal(boc);
      } else {
        result = await this.runInSandboxQueue((parsed ?? this.parseExternal(boc)).msg);
      }
      const { transactions, failure } = result;
      if (transactions.length === 0) throw new ChainError('refused', rejectionReason(failure));
      if (failure) this.logger?.info({ err: String(failure) }, 'devnet: message chain stopped early');
      for (const tx of transactions) this.addPending(tx);
      return { hash: raw ? raw.hash : parsed!.cell.hash() };
    });
  }

  private async runInSandboxQueue(msg: Message): Promise<RunResult> {
    let failure: unknown;
    try {
      await this.bc.sendMessage(msg);
    } catch (e) {
      failure = e;
    }
    const transactions = this.takeSandboxTransactions().map((tx): AppliedTransaction => {
      const account = Buffer.from(tx.address.toString(16).padStart(64, '0'), 'hex');
      // Only tick-tock transactions come without an inbound message, and those run in the masterchain.
      const address = tx.inMessage?.info.dest instanceof Address ? tx.inMessage.info.dest : new Address(-1, account);
      return { address, lt: tx.lt, hash: tx.hash(), boc: tx.raw.toBoc() };
    });
    return { transactions, failure };
  }

  /** Takes the transactions the sandbox just ran and empties its list, which would otherwise grow forever. */
  private takeSandboxTransactions(): BlockchainTransaction[] {
    const holder = this.bc as unknown as { transactions: BlockchainTransaction[] };
    const txs = holder.transactions;
    holder.transactions = [];
    return txs;
  }

  private addPending(tx: AppliedTransaction): void {
    const { address } = tx;
    this.pending.push({ workchain: address.workChain, account: address.hash, lt: tx.lt, hash: tx.hash, boc: tx.boc });
    this.touched.set(accountKey(address.workChain, address.hash), address);
  }

  async emulateExternalMessage(message: Cell, opts: { ignoreChksig: boolean }): Promise<EmulationResult> {
    const msg = this.externalOf(message);
    const dest = msg.info.dest as Address;
    return this.serial(async () => {
      const sc = await this.bc.getContract(dest);
      const lastTxTime = sc.account.account?.storageStats.lastPaid ?? 0;
      const res = await emulatorCall(() => this.bc.executor.runTransaction({
        config: this.bc.configBase64,
        libs: this.bc.libs ?? null,
        verbosity: 'short',
        shardAccount: beginCell().store(storeShardAccount(sc.account)).endCell().toBoc().toString('base64'),
        message,
        now: Math.max(nowSeconds(), lastTxTime),
        lt: this.bc.lt + LT_PER_ROUND,
        randomSeed: Buffer.alloc(32),
        ignoreChksig: opts.ignoreChksig,
        debugEnabled: false,
        prevBlocksInfo: this.bc.prevBlocks,
      }));
      if (!res.result.success) {
        throw new ChainError('refused', `external message not accepted: ${res.result.error}${res.result.vmResults ? ` (exit code ${res.result.vmResults.vmExitCode})` : ''}`);
      }
      return emulationResultOf(loadTransaction(Cell.fromBase64(res.result.transaction).beginParse()));
    });
  }
}

/** The block-independent part of an account's state; null (no snapshot) and the sandbox's placeholder read as nonexist. */
function decodeAccount(sa: ShardAccount | null): DecodedAccount {
  return { sa, state: accountStateFields(sa) };
}

/**
 * The sandbox deep-copies PREVBLOCKS on every read (once per transaction). The devnet replaces the value once per
 * round and never mutates it, so this instance hands out one frozen object instead, which also lets DevnetExecutor
 * serialize it once per round.
 */
function shareFrozenPrevBlocks(bc: Blockchain): void {
  let current: PrevBlocksInfo | undefined;
  Object.defineProperty(bc, 'prevBlocks', {
    configurable: true,
    get: () => current,
    set: (value: PrevBlocksInfo | undefined) => {
      current = value === undefined ? undefined : Object.freeze({ ...value, lastMcBlocks: Object.freeze([...value.lastMcBlocks]) as BlockId[] });
    },
  });
}

function rejectionReason(e: unknown): string {
  if (e instanceof EmulationError) {
    return `external message not accepted by the account: ${e.error}${e.exitCode !== undefined ? ` (exit code ${e.exitCode})` : ''}`;
  }
  if (e instanceof TimeError) return 'external message not accepted: account time is ahead of the devnet clock';
  if (e instanceof ChainError) return e.message;
  return `external message not accepted: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
}

function genesisWalletAccount(faucet: Faucet, genUtime: number): ShardAccount {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: faucet.publicKey });
  return {
    account: {
      addr: wallet.address,
      storage: { lastTransLt: 0n, balance: { coins: DEVNET_FAUCET_BALANCE }, state: { type: 'active', state: { code: wallet.init.code, data: wallet.init.data } } },
      storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: genUtime, duePayment: null, storageExtra: null },
    },
    lastTransactionLt: 0n,
    lastTransactionHash: 0n,
  };
}

/** An emulator fault is caused by what the request fed it (the emulator was replaced meanwhile): a 422, not a 500. */
async function emulatorCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (e instanceof EmulatorFault) throw new ChainError('invalid', e.message, { cause: e });
    throw e;
  }
}

export async function createDevnet(opts: DevnetOptions): Promise<Devnet> {
  return Devnet.create(opts);
}
