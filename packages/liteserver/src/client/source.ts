import {
  Address,
  beginCell,
  Cell,
  CellType,
  Dictionary,
  loadAccount,
  loadTransaction,
  serializeTuple,
  storeShardAccount,
  type ShardAccount,
  type TupleItem,
} from '@ton/core';
import { createHash } from 'node:crypto';
import {
  accountStateFields,
  ChainError,
  emulateTraceWith,
  emulationResultOf,
  shardAccountBoc,
  shardAccountOfBoc,
  externalMessageOf,
  EXIT_CODE_NO_CODE,
  GET_METHOD_GAS_LIMIT,
  LruCache,
  parseExternalMessage,
  getMethodCall,
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
  type EmulatedTrace,
  type TraceEmulationOptions,
  type EmulationResult,
  type GetMethodResult,
  type MasterchainInfo,
  type Network,
  type OutMsgQueueSizes,
  type ShardBlockProof,
  type ShortTransactionId,
  type TransactionId,
  getMethodResultOf,
} from '@tongate/chain';
import * as tl from '@tongate/liteserver-tl';
import { GlobalConfigError, type GlobalConfig } from '../config.js';
import { LAST_BLOCK_SEQNO, LITESERVER_LIMITS } from '../limits.js';
import {
  checkAccountStateProof,
  checkAllShardsProof,
  checkBackLinkChain,
  checkBlockHeaderProof,
  checkBlockProofChain,
  checkBlockTransactionsProof,
  checkConfigProof,
  checkShardBlockLinks,
  proofRoots,
  type ProofPolicy,
} from '../proofs.js';
import { blockOfProof, parseBlockHeader } from '../cells/block.js';
import { configParamOf } from '../cells/config.js';
import { configRootOfState } from '../cells/mc-state-extra.js';
import { parseShardHashes } from '../cells/shard-hashes.js';
import { findAccountLeaf, stateOfProof } from '../cells/shard-state.js';
import { GuardedEmulator } from './emulator.js';
import { LitePool, type PoolOptions, type ServerHealth, type Session } from './pool.js';
import { chainLink, HeadTrust, loadTrustedBlockFile, saveTrustedBlockFile } from './trust.js';

export interface LiteserverChainOptions {
  network: Network;
  config: GlobalConfig;
  /** `checking` (default) verifies proofs against the block hashes they claim; `unsafe` trusts the server. */
  proofs?: ProofPolicy;
  pool?: Omit<PoolOptions, 'servers' | 'zeroState' | 'verifyHead'>;
}

const GLOBAL_IDS: Record<Network, number> = { mainnet: -239, testnet: -3 };
const ZERO32 = Buffer.alloc(32);

/** One emulator per process, shared by every network's backend. */
const emulator = new GuardedEmulator();

/**
 * Where trust in the head starts: the config's init_block, else its zero state (tonlib's rule), or the key block kept
 * in tongate.trusted_block_file when that is newer; each newer key block proven is kept there.
 */
function headTrust(config: GlobalConfig, logger?: PoolOptions['logger']): HeadTrust {
  let start: BlockIdExt;
  if (config.initBlock) start = { workchain: -1, shard: WHOLE_SHARD, ...config.initBlock };
  else if (config.zeroState && config.zeroState.workchain === -1)
    start = { workchain: -1, shard: WHOLE_SHARD, seqno: 0, rootHash: config.zeroState.rootHash, fileHash: config.zeroState.fileHash };
  else
    throw new GlobalConfigError(
      'proof checks (checking) need validator.init_block or validator.zero_state in the global config: the masterchain head is trusted only through a signature chain from there',
    );
  const file = config.trustedBlockFile;
  if (!file) return new HeadTrust(start);
  const kept = loadTrustedBlockFile(file, config.zeroState);
  if (kept.problem) logger?.warn({ file, err: kept.problem }, 'liteserver: trusted block file not used');
  if (kept.block && kept.block.seqno > start.seqno) start = { workchain: -1, shard: WHOLE_SHARD, ...kept.block };
  return new HeadTrust(start, (id) => {
    try {
      saveTrustedBlockFile(file, config.zeroState, id);
    } catch (err) {
      logger?.warn({ file, err: (err as Error).message }, 'liteserver: cannot keep the trusted key block');
    }
  });
}

const toBlockId = (id: tl.TonNodeBlockIdExt): BlockIdExt => ({
  workchain: id.workchain,
  shard: id.shard,
  seqno: id.seqno,
  rootHash: id.rootHash,
  fileHash: id.fileHash,
});
const tlId = (id: BlockIdExt): tl.TonNodeBlockIdExt => ({
  workchain: id.workchain,
  shard: id.shard,
  seqno: id.seqno,
  rootHash: id.rootHash,
  fileHash: id.fileHash,
});
const refKey = (r: BlockRef) => `${r.workchain}:${r.shard}:${r.seqno}`;
const accountOf = (a: Address): tl.LiteServerAccountId => ({ workchain: a.workChain, id: a.hash });
const bigintBuffer = (v: bigint) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex');

/**
 * ChainSource over liteservers. Reads go through the pool (failover, deadlines); get-methods and fee estimation run
 * locally in @ton/sandbox's emulator on the account state, config and libraries fetched from the servers, as tonlib
 * (and so toncenter) does, so gas limits and results match the devnet backend.
 */
export class LiteserverChain implements ChainSource {
  readonly network: Network;
  readonly globalId: number;
  readonly backendId = 'liteserver';
  readonly pool: LitePool;
  readonly proofs: ProofPolicy;
  private readonly blockIds = new LruCache<string, BlockIdExt>(4096);
  /** Configs by the key block that set them. */
  private readonly configs = new LruCache<number, Promise<{ cell: Cell; base64: string }>>(16);
  private readonly keyBlocks = new LruCache<number, Promise<number>>(4096);
  private readonly libraries = new LruCache<string, Cell>(1024);
  private readonly getMethodResults = new LruCache<string, Promise<GetMethodResult>>(4096);
  private readonly accountAnswers = new LruCache<string, { state: AccountState; sa: ShardAccount | null }>(4096);

  /** Under `checking`: the signature chain from the config's trusted block that every head must pass. */
  readonly trust: HeadTrust | null;

  constructor(opts: LiteserverChainOptions) {
    this.network = opts.network;
    this.globalId = GLOBAL_IDS[opts.network];
    this.proofs = opts.proofs ?? 'checking';
    this.trust = this.proofs === 'checking' ? headTrust(opts.config, opts.pool?.logger) : null;
    const trust = this.trust;
    this.pool = new LitePool({
      ...opts.pool,
      servers: opts.config.liteservers,
      zeroState: opts.config.zeroState,
      verifyHead: trust
        ? async (query, head) => {
            await trust.verify(query, toBlockId(head));
            return trust.genUtimeOf(toBlockId(head));
          }
        : undefined,
    });
  }

  /** Waits (bounded) for a first healthy server; the source answers 503 until then anyway. */
  ready(timeoutMs?: number): Promise<boolean> {
    return this.pool.ready(timeoutMs);
  }

  health(): ServerHealth[] {
    return this.pool.health();
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  // ---------------------------------------------------------------- blocks

  async getMasterchainInfo(): Promise<MasterchainInfo> {
    const session = this.pool.session();
    const info = await session.call(tl.liteServerGetMasterchainInfoExt, { mode: 0 });
    // A head newer than the pool has proven yet is proven here, through the server that reported it.
    if (this.trust) await this.trust.verify((fn, params) => session.call(fn, params), toBlockId(info.last));
    // Under checking, the head's time is its proven header's, not the server's word.
    const lastUtime = this.trust?.genUtimeOf(toBlockId(info.last)) ?? info.lastUtime;
    return {
      last: toBlockId(info.last),
      init: { workchain: info.init.workchain, shard: WHOLE_SHARD, seqno: 0, rootHash: info.init.rootHash, fileHash: info.init.fileHash },
      stateRootHash: info.stateRootHash,
      lastUtime,
    };
  }

  /** Resolves once a server has masterchain block `seqno` or `timeoutMs` passed (the indexer's wake-up). */
  async waitForMasterchainBlock(seqno: number, timeoutMs: number): Promise<void> {
    await this.pool.waitForMasterchainSeqno(seqno, timeoutMs);
  }

  /** A block's full id (hashes) from its coordinates; ids never change, so they are cached. */
  private async blockId(ref: BlockRef, session: Session): Promise<BlockIdExt> {
    const key = refKey(ref);
    const hit = this.blockIds.get(key);
    if (hit) return hit;
    const res = await session.call(
      tl.liteServerLookupBlock,
      { mode: 1, id: { workchain: ref.workchain, shard: ref.shard, seqno: ref.seqno } },
      ref.workchain === -1 ? ref.seqno : undefined,
    );
    return (await this.rememberHeader(res, session)).id;
  }

  /**
   * A block id a server sent with its header proof. Under `checking` the header proof must be of the id, and a
   * masterchain id must also chain to the trusted head (HeadTrust): a header proof alone is only self-consistent.
   */
  private async rememberHeader(res: tl.LiteServerBlockHeader, session: Session): Promise<{ id: BlockIdExt; block: Cell | null }> {
    const id = toBlockId(res.id);
    let block: Cell | null = null;
    if (res.headerProof.length > 0) {
      const [root] = proofRoots(res.headerProof);
      if (this.proofs === 'checking') checkBlockHeaderProof(id, root);
      block = blockOfProof(root);
    }
    await this.trustMasterchainBlock(id, session);
    this.blockIds.set(refKey(id), id);
    return { id, block };
  }

  /** Under `checking`, a masterchain block an answer names must be one the signature chain from the trusted block proves. */
  private async trustMasterchainBlock(id: BlockIdExt, session: Session): Promise<void> {
    if (this.trust && id.workchain === -1) await this.trust.verify((fn, params) => session.call(fn, params), id);
  }

  private mcBlockId(seqno: number, session: Session): Promise<BlockIdExt> {
    if (!Number.isInteger(seqno) || seqno < 0 || seqno > 0xfffffffe)
      throw new ChainError('invalid', `masterchain seqno must be a non-negative integer, got ${seqno}`);
    return this.blockId({ workchain: -1, shard: WHOLE_SHARD, seqno }, session);
  }

  async lookupBlock(query: BlockLookup): Promise<BlockIdExt> {
    const session = this.pool.session();
    if ('seqno' in query) return this.blockId(query, session);
    const base = { workchain: query.workchain, shard: query.shard, seqno: 0 };
    const res =
      'lt' in query
        ? await session.call(tl.liteServerLookupBlock, { mode: 2, id: base, lt: query.lt })
        : await session.call(tl.liteServerLookupBlock, { mode: 4, id: base, utime: query.utime });
    return (await this.rememberHeader(res, session)).id;
  }

  async getBlockHeader(ref: BlockRef): Promise<BlockHeader> {
    const session = this.pool.session();
    const known = this.blockIds.get(refKey(ref));
    const res = known
      ? await session.call(tl.liteServerGetBlockHeader, { id: tlId(known), mode: 0xffff }, ref.workchain === -1 ? ref.seqno : undefined)
      : await session.call(
          tl.liteServerLookupBlock,
          { mode: 1, id: { workchain: ref.workchain, shard: ref.shard, seqno: ref.seqno } },
          ref.workchain === -1 ? ref.seqno : undefined,
        );
    const { id, block } = await this.rememberHeader(res, session);
    if (!block) throw new ChainError('internal', `liteserver sent no header for block ${ref.seqno}`);
    const header = parseBlockHeader(id, block);
    if (id.workchain === -1) header.shardBlocks = await this.shardsOf(id, session);
    return header;
  }

  private async shardsOf(mcId: BlockIdExt, session: Session): Promise<BlockIdExt[]> {
    const res = await session.call(tl.liteServerGetAllShardsInfo, { id: tlId(mcId) }, mcId.seqno);
    if (this.proofs === 'checking') checkAllShardsProof(mcId, res.id, res.proof, res.data);
    return parseShardHashes(Cell.fromBoc(res.data)[0].beginParse());
  }

  async getShards(mcSeqno: number): Promise<BlockIdExt[]> {
    const session = this.pool.session();
    return this.shardsOf(await this.mcBlockId(mcSeqno, session), session);
  }

  private pageParams(id: BlockIdExt, opts: { count: number; after?: BlockTransactionCursor }) {
    if (!Number.isInteger(opts.count) || opts.count < 1)
      throw new ChainError('invalid', `count must be a positive integer, got ${opts.count}`);
    const after = opts.after ? { account: opts.after.account, lt: opts.after.lt } : undefined;
    // want_proof (32) when checking: the answer then carries the block's account blocks covering every listed id.
    return { id: tlId(id), mode: 7 | (after ? 128 : 0) | (this.proofs === 'checking' ? 32 : 0), count: opts.count, after };
  }

  async listBlockTransactions(
    ref: BlockRef,
    opts: { count: number; after?: BlockTransactionCursor },
  ): Promise<BlockTransactionsPage<ShortTransactionId>> {
    const session = this.pool.session();
    const id = await this.blockId(ref, session);
    const res = await session.call(tl.liteServerListBlockTransactions, this.pageParams(id, opts));
    if (this.proofs === 'checking')
      checkBlockTransactionsProof(
        id,
        res.proof,
        res.ids.map((t) => ({ account: t.account!, lt: t.lt!, hash: t.hash! })),
      );
    return {
      transactions: res.ids.map((t) => ({ account: t.account!, workchain: id.workchain, lt: t.lt!, hash: t.hash! })),
      incomplete: res.incomplete,
    };
  }

  async listBlockTransactionsExt(
    ref: BlockRef,
    opts: { count: number; after?: BlockTransactionCursor },
  ): Promise<BlockTransactionsPage<ChainTransaction>> {
    const session = this.pool.session();
    const id = await this.blockId(ref, session);
    const res = await session.call(tl.liteServerListBlockTransactionsExt, this.pageParams(id, opts));
    const cells = res.transactions.length > 0 ? Cell.fromBoc(res.transactions) : [];
    const transactions = cells.map((cell) => chainTransaction(cell, id.workchain, id));
    if (this.proofs === 'checking')
      checkBlockTransactionsProof(
        id,
        res.proof,
        transactions.map((t) => ({ account: t.address.hash, lt: t.lt, hash: t.hash })),
      );
    return { transactions, incomplete: res.incomplete };
  }

  async getMasterchainBlockSignatures(seqno: number): Promise<BlockSignatures> {
    const session = this.pool.session();
    const target = await this.mcBlockId(seqno, session);
    const known = seqno > 0 ? await this.mcBlockId(seqno - 1, session) : target;
    const proof = await session.call(
      tl.liteServerGetBlockProof,
      { mode: 0x1001, knownBlock: tlId(known), targetBlock: tlId(target) },
      seqno,
    );
    // Checking: the signatures passed on are those of a valid chain from the (proven) previous block to the target.
    if (this.proofs === 'checking' && seqno > 0) checkBlockProofChain(known, target, proof.steps.map(chainLink));
    const forward = [...proof.steps].reverse().find((s): s is tl.LiteServerBlockLinkForward => s._ === 'liteServer.blockLinkForward');
    if (!forward) throw new ChainError('internal', `liteserver sent no signatures for masterchain block ${seqno}`);
    const set = forward.signatures;
    const signatures = set.signatures.map((s) => ({ nodeIdShort: s.nodeIdShort, signature: s.signature }));
    if (set._ === 'liteServer.signatureSet.simplex')
      return { id: target, signatures, simplex: { sessionId: set.sessionId, slot: set.slot, candidate: set.candidate } };
    return { id: target, signatures };
  }

  async getShardBlockProof(ref: BlockRef, fromMcSeqno?: number): Promise<ShardBlockProof> {
    const session = this.pool.session();
    const id = await this.blockId(ref, session);
    const res = await session.call(tl.liteServerGetShardBlockProof, { id: tlId(id) });
    const mcId = toBlockId(res.masterchainId);
    const links = res.links.map((l) => ({ id: toBlockId(l.id), proof: l.proof }));
    if (this.proofs === 'checking') checkShardBlockLinks(mcId, id, links);
    const from = fromMcSeqno !== undefined ? await this.mcBlockId(fromMcSeqno, session) : (await this.getMasterchainInfo()).last;
    if (from.seqno < mcId.seqno)
      throw new ChainError('invalid', `masterchain block ${from.seqno} is older than block ${mcId.seqno} that commits the requested block`);
    let mcProof: ShardBlockProof['mcProof'] = [];
    if (from.seqno > mcId.seqno) {
      const back = await session.call(tl.liteServerGetBlockProof, { mode: 1, knownBlock: tlId(from), targetBlock: tlId(mcId) }, from.seqno);
      // Checking: every step must be a back link, and they must chain from `from` to `mcId` (a forward step is refused).
      const steps = this.proofs === 'checking' ? back.steps : back.steps.filter((s) => s._ === 'liteServer.blockLinkBack');
      mcProof = steps.map((s) => {
        if (s._ !== 'liteServer.blockLinkBack')
          throw new ChainError('internal', 'liteserver proof rejected: a forward link in a backward block proof');
        return {
          toKeyBlock: s.toKeyBlock,
          from: toBlockId(s.from),
          to: toBlockId(s.to),
          destProof: s.destProof,
          proof: s.proof,
          stateProof: s.stateProof,
        };
      });
    }
    // With no back links, `from` must be the very block the shard block proof starts at.
    if (this.proofs === 'checking') checkBackLinkChain(from, mcId, mcProof);
    return { from, mcId, links, mcProof };
  }

  async getOutMsgQueueSizes(): Promise<OutMsgQueueSizes> {
    const res = await this.pool.call(tl.liteServerGetOutMsgQueueSizes, { mode: 0 });
    return { shards: res.shards.map((s) => ({ id: toBlockId(s.id), size: s.size })), extMsgQueueSizeLimit: res.extMsgQueueSizeLimit };
  }

  // ---------------------------------------------------------------- transactions

  async getAccountTransactions(address: Address, from: TransactionId, count: number): Promise<ChainTransaction[]> {
    if (!Number.isInteger(count) || count < 1) throw new ChainError('invalid', `count must be a positive integer, got ${count}`);
    const session = this.pool.session();
    const out: ChainTransaction[] = [];
    let cursor: TransactionId | null = from;
    // The liteserver answers at most 16 per query; walk on from the last one's predecessor.
    while (cursor && out.length < count) {
      const res = await session.call(tl.liteServerGetTransactions, {
        count: Math.min(LITESERVER_LIMITS.transactionsPerQuery, count - out.length),
        account: accountOf(address),
        lt: cursor.lt,
        hash: cursor.hash,
      });
      const cells = res.transactions.length > 0 ? Cell.fromBoc(res.transactions) : [];
      if (cells.length === 0) break;
      if (cells.length !== res.ids.length)
        throw new ChainError('internal', 'liteserver sent a transaction list whose ids and transactions differ in number');
      // The list must chain: each transaction is the one its successor (or the request) names as previous, so the
      // whole list is as trustworthy as the (lt, hash) it started from.
      for (const [i, cell] of cells.entries()) {
        if (!cursor) throw new ChainError('internal', "liteserver sent transactions past the account's first one");
        const tx = chainTransaction(cell, address.workChain, toBlockId(res.ids[i]!));
        if (!tx.hash.equals(cursor.hash) || tx.lt !== cursor.lt)
          throw new ChainError('internal', `liteserver sent a transaction list that does not chain from lt ${cursor.lt}`);
        out.push(tx);
        cursor = tx.tx.prevTransactionLt === 0n ? null : { lt: tx.tx.prevTransactionLt, hash: bigintBuffer(tx.tx.prevTransactionHash) };
      }
    }
    return out.slice(0, count);
  }

  async getTransaction(address: Address, lt: bigint): Promise<ChainTransaction | null> {
    const session = this.pool.session();
    const head = await this.getMasterchainInfo();
    const shard = address.workChain === -1 ? WHOLE_SHARD : shardOfAccount(await this.shardsOf(head.last, session), address);
    let block: BlockIdExt;
    try {
      block = (
        await this.rememberHeader(
          await session.call(tl.liteServerLookupBlock, { mode: 2, id: { workchain: address.workChain, shard, seqno: 0 }, lt }),
          session,
        )
      ).id;
    } catch (err) {
      if (err instanceof ChainError && err.kind === 'not_found') return null;
      throw err;
    }
    try {
      const res = await session.call(tl.liteServerGetOneTransaction, { id: tlId(block), account: accountOf(address), lt });
      if (res.transaction.length === 0) return null;
      const tx = chainTransaction(Cell.fromBoc(res.transaction)[0]!, address.workChain, toBlockId(res.id));
      if (tx.lt !== lt || !tx.address.equals(address))
        throw new ChainError('internal', `liteserver sent another transaction than ${lt} of the account`);
      if (this.proofs === 'checking') {
        if (!toBlockId(res.id).rootHash.equals(block.rootHash))
          throw new ChainError('internal', 'liteserver proof rejected: the transaction comes from another block than the one asked');
        checkBlockTransactionsProof(block, res.proof, [{ account: address.hash, lt: tx.lt, hash: tx.hash }]);
      }
      return tx;
    } catch (err) {
      if (err instanceof ChainError && err.kind === 'not_found') return null;
      throw err;
    }
  }

  // ---------------------------------------------------------------- state

  private async accountState(
    address: Address,
    atMcSeqno: number | undefined,
    session: Session,
  ): Promise<{ state: AccountState; sa: ShardAccount | null }> {
    const id: tl.TonNodeBlockIdExt =
      atMcSeqno === undefined
        ? // "At the server's last block" in one round trip (liteserver.cpp accepts seqno 0xffffffff).
          { workchain: -1, shard: WHOLE_SHARD, seqno: LAST_BLOCK_SEQNO, rootHash: ZERO32, fileHash: ZERO32 }
        : tlId(await this.mcBlockId(atMcSeqno, session));
    const res = await session.call(tl.liteServerGetAccountState, { id, account: accountOf(address) }, atMcSeqno);
    await this.trustMasterchainBlock(toBlockId(res.id), session);
    // The same answer bytes (same block, same account: wallets polled within a block) are decoded and checked once.
    const digest = createHash('sha256')
      .update(res.id.rootHash)
      .update(res.shardblk.rootHash)
      .update(res.proof)
      .update(res.state)
      .update(res.shardProof)
      .digest('base64');
    const known = this.accountAnswers.get(digest);
    if (known && known.state.address.equals(address)) return known;
    const decoded = this.decodeAccountState(address, res);
    this.accountAnswers.set(digest, decoded);
    this.blockIds.set(refKey(decoded.state.block), decoded.state.block);
    return decoded;
  }

  private decodeAccountState(address: Address, res: tl.LiteServerAccountState): { state: AccountState; sa: ShardAccount | null } {
    const roots = proofRoots(res.proof);
    if (roots.length < 2) throw new ChainError('internal', 'liteserver sent an account state without its proof');
    const stateRoot = res.state.length > 0 ? Cell.fromBoc(res.state)[0] : null;
    if (this.proofs === 'checking')
      checkAccountStateProof({
        mcId: toBlockId(res.id),
        shardBlock: toBlockId(res.shardblk),
        shardProof: res.shardProof,
        proof: roots,
        state: stateRoot,
        account: address,
      });
    // The proof's ShardAccount gives the last transaction; the Account itself comes whole in `state`.
    const leaf = findAccountLeaf(stateOfProof(roots[1]), address.hash);
    const accountSlice = stateRoot?.beginParse();
    const sa: ShardAccount | null =
      leaf && accountSlice && accountSlice.loadBit()
        ? { account: loadAccount(accountSlice), lastTransactionHash: leaf.lastTransactionHash, lastTransactionLt: leaf.lastTransactionLt }
        : null;
    const header = parseBlockHeader(toBlockId(res.shardblk), blockOfProof(roots[0]));
    return { state: { address, block: toBlockId(res.id), syncUtime: header.genUtime, ...accountStateFields(sa) }, sa };
  }

  async getAccountState(address: Address, atMcSeqno?: number): Promise<AccountState> {
    return (await this.accountState(address, atMcSeqno, this.pool.session())).state;
  }

  /**
   * The config at a masterchain block. Config changes only in key blocks, so it is fetched once per key block (the
   * block's own seqno when it is one, else its prev_key_block_seqno), not once per block; concurrent requests share
   * one fetch.
   */
  private async config(mcId: BlockIdExt, session: Session): Promise<{ cell: Cell; base64: string }> {
    const keyBlock = await this.keyBlockOf(mcId, session);
    const hit = this.configs.get(keyBlock);
    if (hit) return hit;
    const pending = (async () => {
      const res = await session.call(tl.liteServerGetConfigAll, { mode: 0, id: tlId(mcId) }, mcId.seqno);
      await this.trustMasterchainBlock(toBlockId(res.id), session);
      const cell = this.configRoot(res);
      return { cell, base64: cell.toBoc().toString('base64') };
    })();
    this.configs.set(keyBlock, pending);
    // A failed fetch is not remembered: the next request asks again.
    pending.catch(() => this.configs.delete(keyBlock));
    return pending;
  }

  /** The key block whose config a masterchain block runs with. */
  private keyBlockOf(mcId: BlockIdExt, session: Session): Promise<number> {
    const hit = this.keyBlocks.get(mcId.seqno);
    if (hit) return hit;
    const pending = (async () => {
      const res = await session.call(tl.liteServerGetBlockHeader, { id: tlId(mcId), mode: 0 }, mcId.seqno);
      const { id, block } = await this.rememberHeader(res, session);
      if (!block) throw new ChainError('internal', `liteserver sent no header for masterchain block ${mcId.seqno}`);
      const header = parseBlockHeader(id, block);
      return header.isKeyBlock ? header.id.seqno : header.prevKeyBlockSeqno;
    })();
    this.keyBlocks.set(mcId.seqno, pending);
    pending.catch(() => this.keyBlocks.delete(mcId.seqno));
    return pending;
  }

  private configRoot(res: tl.LiteServerConfigInfo): Cell {
    const [proof] = proofRoots(res.configProof);
    if (!proof) throw new ChainError('internal', 'liteserver sent a config without its proof');
    if (this.proofs === 'checking') checkConfigProof(toBlockId(res.id), proofRoots(res.stateProof)[0], proof);
    return configRootOfState(stateOfProof(proof));
  }

  async getConfigParam(id: number, atMcSeqno?: number): Promise<Cell | null> {
    if (!Number.isInteger(id) || id < -(2 ** 31) || id >= 2 ** 31)
      throw new ChainError('invalid', `config param id must be a 32-bit integer, got ${id}`);
    // From the key block's whole config (fetched and proven once per key block), not a proof per call: the indexer
    // asks for params at every block.
    return configParamOf(await this.getConfigAll(atMcSeqno), id);
  }

  async getConfigAll(atMcSeqno?: number): Promise<Cell> {
    const session = this.pool.session();
    const mcId = atMcSeqno === undefined ? (await this.getMasterchainInfo()).last : await this.mcBlockId(atMcSeqno, session);
    return (await this.config(mcId, session)).cell;
  }

  async getLibraries(hashes: Buffer[]): Promise<{ hash: Buffer; data: Cell }[]> {
    for (const h of hashes) if (h.length !== 32) throw new ChainError('invalid', 'library hashes must be 32 bytes');
    return this.fetchLibraries(hashes, this.pool.session());
  }

  private async fetchLibraries(hashes: Buffer[], session: Session): Promise<{ hash: Buffer; data: Cell }[]> {
    const out: { hash: Buffer; data: Cell }[] = [];
    const missing: Buffer[] = [];
    for (const h of hashes) {
      const hit = this.libraries.get(h.toString('hex'));
      if (hit) out.push({ hash: h, data: hit });
      else missing.push(h);
    }
    for (let i = 0; i < missing.length; i += LITESERVER_LIMITS.librariesPerQuery) {
      const res = await session.call(tl.liteServerGetLibraries, { libraryList: missing.slice(i, i + LITESERVER_LIMITS.librariesPerQuery) });
      for (const entry of res.result) {
        const data = Cell.fromBoc(entry.data)[0];
        // A library is known by its cell hash: a server cannot substitute another cell.
        if (!data.hash().equals(entry.hash)) throw new ChainError('internal', 'liteserver sent a library whose hash does not match');
        this.libraries.set(entry.hash.toString('hex'), data);
        out.push({ hash: entry.hash, data });
      }
    }
    return out;
  }

  /** Library cells code and data reach (transitively, through fetched libraries), as the emulator's libs dictionary. */
  private async librariesFor(roots: Cell[], session: Session): Promise<Cell | undefined> {
    const dict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    const seen = new Set<string>();
    let frontier = roots;
    for (let round = 0; round < 8 && frontier.length > 0; round++) {
      const wanted = new Map<string, Buffer>();
      const visit = (c: Cell) => {
        const h = c.hash().toString('hex');
        if (seen.has(h)) return;
        seen.add(h);
        if (c.type === CellType.Library) {
          const lib = c.bits.subbuffer(8, 256)!;
          if (!dict.has(lib)) wanted.set(lib.toString('hex'), lib);
        }
        for (const r of c.refs) visit(r);
      };
      frontier.forEach(visit);
      if (wanted.size === 0) break;
      const got = await this.fetchLibraries([...wanted.values()], session);
      for (const l of got) dict.set(l.hash, l.data);
      frontier = got.map((l) => l.data);
    }
    return dict.size > 0 ? beginCell().storeDictDirect(dict).endCell() : undefined;
  }

  async runGetMethod(address: Address, method: string | number, stack: TupleItem[], atMcSeqno?: number): Promise<GetMethodResult> {
    const methodId = getMethodCall(method, stack);
    const session = this.pool.session();
    const { state, sa } = await this.accountState(address, atMcSeqno, session);
    if (state.status !== 'active' || !state.code || !sa?.account) {
      return { exitCode: EXIT_CODE_NO_CODE, gasUsed: 0n, stack: [], block: state.block, lastTransaction: state.lastTransaction };
    }
    // As the devnet does: the result depends only on the block, the account's state, the method and the arguments.
    const key = `${state.block.seqno}:${state.shardAccount!.hash().toString('hex')}:${methodId}:${stack.length === 0 ? '' : serializeTuple(stack).hash().toString('base64')}`;
    const known = this.getMethodResults.get(key);
    if (known) return known;
    const run = this.executeGetMethod(state, methodId, stack, session);
    this.getMethodResults.set(key, run);
    // A failure is not remembered: the next request runs again.
    run.catch(() => this.getMethodResults.delete(key));
    return run;
  }

  private async executeGetMethod(state: AccountState, methodId: number, stack: TupleItem[], session: Session): Promise<GetMethodResult> {
    const [config, libs] = await Promise.all([
      this.config(state.block, session),
      this.librariesFor([state.code!, ...(state.data ? [state.data] : [])], session),
    ]);
    const res = await emulator.run((executor) =>
      executor.runGetMethod({
        code: state.code!,
        data: state.data ?? beginCell().endCell(),
        methodId,
        stack,
        config: config.base64,
        verbosity: 'short',
        libs,
        address: state.address,
        unixTime: state.syncUtime,
        balance: state.balance,
        randomSeed: state.block.rootHash,
        gasLimit: GET_METHOD_GAS_LIMIT,
        debugEnabled: false,
      }),
    );
    const result = getMethodResultOf(res.output, state.block, state.lastTransaction);
    return result;
  }

  // ---------------------------------------------------------------- messages

  async sendMessage(boc: Buffer): Promise<{ hash: Buffer }> {
    const { cell } = parseExternalMessage(boc);
    // Several servers at once: the message reaches validators even when one server is slow or drops it.
    await this.pool.broadcast(tl.liteServerSendMessage, { body: boc });
    return { hash: cell.hash() };
  }

  async emulateExternalMessage(message: Cell, opts: { ignoreChksig: boolean }): Promise<EmulationResult> {
    const dest = externalMessageOf(message).info.dest as Address;
    const session = this.pool.session();
    const { state, sa } = await this.accountState(dest, undefined, session);
    const shardAccount: ShardAccount = sa ?? { account: undefined, lastTransactionLt: 0n, lastTransactionHash: 0n };
    const roots = state.code ? [state.code, ...(state.data ? [state.data] : [])] : [];
    const [config, libs] = await Promise.all([this.config(state.block, session), this.librariesFor(roots, session)]);
    const lastPaid = sa?.account?.storageStats.lastPaid ?? 0;
    const res = await emulator.run((executor) =>
      executor.runTransaction({
        config: config.base64,
        libs: libs ?? null,
        verbosity: 'short',
        shardAccount: beginCell().store(storeShardAccount(shardAccount)).endCell().toBoc().toString('base64'),
        message,
        now: Math.max(Math.floor(Date.now() / 1000), lastPaid),
        lt: (state.lastTransaction?.lt ?? 0n) + 1_000_000n,
        randomSeed: Buffer.alloc(32),
        ignoreChksig: opts.ignoreChksig,
        debugEnabled: false,
      }),
    );
    if (!res.result.success) {
      throw new ChainError(
        'refused',
        `external message not accepted: ${res.result.error}${res.result.vmResults ? ` (exit code ${res.result.vmResults.vmExitCode})` : ''}`,
      );
    }
    return emulationResultOf(loadTransaction(Cell.fromBase64(res.result.transaction).beginParse()));
  }
  async emulateTrace(message: Cell, opts: TraceEmulationOptions = {}): Promise<EmulatedTrace> {
    const dest = externalMessageOf(message).info.dest as Address;
    const session = this.pool.session();
    // Every account of the trace is read at the block the destination's state came from.
    const { state } = await this.accountState(dest, opts.atMcSeqno, session);
    const block = state.block;
    const config = await this.config(block, session);
    return emulateTraceWith(
      {
        mcSeqno: block.seqno,
        shardAccount: async (address) =>
          (await this.accountState(address, block.seqno, session)).sa ?? {
            account: undefined,
            lastTransactionLt: 0n,
            lastTransactionHash: 0n,
          },
        runTransaction: async (shardAccount, msg, { now, lt, ignoreChksig }) => {
          const active = shardAccount.account?.storage.state.type === 'active' ? shardAccount.account.storage.state.state : null;
          const roots = [active?.code, active?.data].filter((c): c is Cell => !!c);
          const libs = await this.librariesFor(roots, session);
          const res = await emulator.run((executor) =>
            executor.runTransaction({
              config: config.base64,
              libs: libs ?? null,
              verbosity: 'short',
              shardAccount: shardAccountBoc(shardAccount),
              message: msg,
              now,
              lt,
              randomSeed: Buffer.alloc(32),
              ignoreChksig,
              debugEnabled: false,
            }),
          );
          if (!res.result.success)
            return { error: `${res.result.error}${res.result.vmResults ? ` (exit code ${res.result.vmResults.vmExitCode})` : ''}` };
          return { transaction: Cell.fromBase64(res.result.transaction), shardAccount: shardAccountOfBoc(res.result.shardAccount) };
        },
      },
      message,
      opts,
    );
  }
}

function chainTransaction(cell: Cell, workchain: number, block: BlockIdExt): ChainTransaction {
  const tx = loadTransaction(cell.beginParse());
  return { address: new Address(workchain, bigintBuffer(tx.address)), lt: tx.lt, hash: cell.hash(), cell, tx, block };
}

/** The top shard of a workchain that holds an account (its id's leading bits match the shard prefix). */
function shardOfAccount(shards: BlockIdExt[], address: Address): bigint {
  const accountTop = BigInt('0x' + address.hash.subarray(0, 8).toString('hex'));
  for (const s of shards) {
    if (s.workchain !== address.workChain) continue;
    const u = BigInt.asUintN(64, s.shard);
    const low = u & -u;
    const mask = ~(low * 2n - 1n) & (2n ** 64n - 1n);
    if ((accountTop & mask) === (u & mask)) return s.shard;
  }
  throw new ChainError('not_found', `workchain ${address.workChain} has no shard for ${address.toRawString()}`);
}
