import { Address, beginCell, Cell, convertToMerkleProof, loadShardAccount, parseTuple, serializeTuple, storeAccount } from '@ton/core';
import {
  isChainError,
  shardContains,
  LruCache,
  type BlockHeader,
  type BlockIdExt,
  type BlockRef,
  type BlockSignatures,
  type ChainSource,
} from '@tongate/chain';
import * as tl from '@tongate/liteserver-tl';
import { AdnlServer, type AdnlChannel } from '../adnl/channel.js';
import { randomEd25519, type Ed25519KeyPair } from '../adnl/keys.js';
import { serializeMultiRootBoc } from '../boc.js';
import { LS_CODE, LiteServerError } from '../errors.js';
import { LAST_BLOCK_SEQNO, LITESERVER_LIMITS } from '../limits.js';
import { buildBlockCell } from '../cells/block.js';
import { buildConfigShardState } from '../cells/mc-state-extra.js';
import { buildShardHashes } from '../cells/shard-hashes.js';
import { buildAccountShardState } from '../cells/shard-state.js';
import type { RecordedBlocks } from './recorded-blocks.js';
import type { SignedMasterchain } from './signed-chain.js';
import { SourceCells } from './source-cells.js';

/**
 * An ADNL liteserver answering from any ChainSource (the devnet in tests and `tongate devnet liteserver`). When the
 * source offers its blocks' cells (`getBlockCells`: the devnet's blocks are real Block cells whose hashes are their
 * ids), header, account state (shard proof and state proof), block transaction (listBlockTransactions[Ext],
 * getOneTransaction), shard list and config proofs are
 * pruned Merkle proofs of those cells, which the client's proof checks accept. Otherwise its proofs have the real
 * shapes but are built from the headers alone and do not chain by hash, and clients must use it with proof checks
 * off. Fault injection (delay, drop, lagging head, idle close) serves failover tests.
 */

export interface LiteServerFaults {
  /** Extra delay before every answer, ms. */
  delayMs?: number;
  /** Probability (0..1) that a query gets no answer at all. */
  dropRate?: number;
  /** Serve the chain as if the head were this many masterchain blocks older. */
  lagBlocks?: number;
  /** Close connections that sent nothing for this long, ms (the C++ server: 60 s). */
  idleCloseMs?: number;
  /** Keep only this many masterchain blocks of history, like a non-archival server (older ones: 651 not in db). */
  historyBlocks?: number;
}

export interface ChainLiteServerOptions {
  chain: ChainSource;
  /** Server identity (default: a fresh random key). */
  key?: Ed25519KeyPair;
  faults?: LiteServerFaults;
  /** Advertised in getVersion / getMasterchainInfoExt. */
  version?: number;
  /**
   * A masterchain of real, signed cells that this server reports as its head and serves masterchain headers and
   * getBlockProof chains from (the rest still comes from `chain`): what clients that check the head's signature
   * chain need, which a devnet cannot give.
   */
  masterchain?: SignedMasterchain;
  /** Whole recorded blocks served as they are (headers, transactions, shard lists), before asking `chain`. */
  recorded?: RecordedBlocks;
}

const HEADER_CACHE = 4096;
const ACCOUNT_ANSWERS = 4096;
const WAIT_POLL_MS = 25;
/** Links per getBlockProof answer, as the C++ liteserver sends at most. */
const MAX_PROOF_STEPS = 16;

type Handler = (params: any) => Promise<unknown>;

export class ChainLiteServer {
  readonly key: Ed25519KeyPair;
  private readonly adnl: AdnlServer;
  private readonly chain: ChainSource;
  private faults: LiteServerFaults;
  private readonly handlers = new Map<number, Handler>();
  private readonly headerCache = new LruCache<string, BlockHeader>(HEADER_CACHE);
  private readonly accountAnswers = new LruCache<string, tl.LiteServerAccountState>(ACCOUNT_ANSWERS);
  private readonly channels = new Set<AdnlChannel>();
  private readonly version: number;
  private readonly masterchain: SignedMasterchain | undefined;
  private readonly recorded: RecordedBlocks | undefined;
  /** Proofs from the source's block cells, when it has them. */
  private readonly cells: SourceCells | null;
  port = 0;
  /** Queries received, by TL function name (tests check where requests went). */
  readonly received = new Map<string, number>();

  constructor(opts: ChainLiteServerOptions) {
    this.chain = opts.chain;
    this.key = opts.key ?? randomEd25519();
    this.faults = { ...opts.faults };
    this.version = opts.version ?? 0x101;
    this.masterchain = opts.masterchain;
    this.recorded = opts.recorded;
    this.cells = SourceCells.of(opts.chain);
    this.adnl = new AdnlServer({ key: this.key });
    this.adnl.on('channel', (ch) => this.serve(ch));
    this.register();
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<number> {
    this.port = await this.adnl.listen(port, host);
    return this.port;
  }

  setFaults(faults: LiteServerFaults): void {
    this.faults = { ...faults };
  }

  async close(): Promise<void> {
    for (const ch of this.channels) ch.close();
    await this.adnl.close();
  }

  /** A TON global config naming this server, in the format the pool reads (and lite-client, tonlib). */
  async globalConfig(host = '127.0.0.1'): Promise<object> {
    const info = this.masterchain ? { init: this.masterchain.zeroState } : await this.chain.getMasterchainInfo();
    const ipInt = host.split('.').reduce((acc, part) => (acc << 8) | Number(part), 0);
    const zero = {
      workchain: info.init.workchain,
      shard: -(2n ** 63n),
      seqno: 0,
      root_hash: info.init.rootHash.toString('base64'),
      file_hash: info.init.fileHash.toString('base64'),
    };
    return {
      '@type': 'config.global',
      liteservers: [{ ip: ipInt, port: this.port, id: { '@type': 'pub.ed25519', key: this.key.publicKey.toString('base64') } }],
      validator: {
        '@type': 'validator.config.global',
        zero_state: { ...zero, shard: zero.shard.toString() },
        init_block: { ...zero, shard: zero.shard.toString() },
        hardforks: [],
      },
    };
  }

  // ---------------------------------------------------------------- transport

  private serve(channel: AdnlChannel): void {
    this.channels.add(channel);
    let idle: NodeJS.Timeout | undefined;
    const armIdle = () => {
      if (idle) clearTimeout(idle);
      if (this.faults.idleCloseMs) idle = setTimeout(() => channel.close(), this.faults.idleCloseMs);
    };
    armIdle();
    channel.on('close', () => {
      if (idle) clearTimeout(idle);
      this.channels.delete(channel);
    });
    channel.on('packet', (payload) => {
      armIdle();
      if (payload.length < 4) return;
      const id = payload.readUInt32LE(0);
      if (id === tl.TL_ID['tcp.ping']) {
        const pong = Buffer.from(payload);
        pong.writeUInt32LE(tl.TL_ID['tcp.pong'], 0);
        channel.send(pong);
        return;
      }
      if (id === tl.TL_ID['tcp.pong']) return;
      let msg: tl.AdnlMessage;
      try {
        msg = tl.readBoxedAdnlMessage(new tl.TlReader(payload));
      } catch {
        channel.close();
        return;
      }
      if (msg._ !== 'adnl.message.query') return;
      void this.answer(channel, msg.queryId, msg.query);
    });
  }

  private async answer(channel: AdnlChannel, queryId: Buffer, query: Buffer): Promise<void> {
    const { dropRate, delayMs } = this.faults;
    if (dropRate && Math.random() < dropRate) return;
    let answer: Buffer;
    try {
      answer = await this.execute(query);
    } catch (err) {
      const e = toLiteError(err);
      const w = new tl.TlWriter();
      w.int(tl.TL_ID['liteServer.error']);
      w.int(e.code);
      w.string(e.message);
      answer = w.finish();
    }
    if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
    if (channel.isClosed) return;
    const w = new tl.TlWriter(answer.length + 48);
    tl.writeBoxedAdnlMessage(w, { _: 'adnl.message.answer', queryId, answer });
    channel.send(w.finish());
  }

  private async execute(query: Buffer): Promise<Buffer> {
    const outer = new tl.TlReader(query);
    if (outer.uint() !== tl.TL_ID['liteServer.query']) throw new LiteServerError(LS_CODE.PROTOCOL_VIOLATION, 'expected liteServer.query');
    const r = new tl.TlReader(outer.bytes());
    let id = r.uint();
    if (id === tl.TL_ID['liteServer.waitMasterchainSeqno']) {
      const seqno = r.uint();
      const timeoutMs = r.int();
      await this.waitForSeqno(seqno, Math.min(Math.max(timeoutMs, 0), 10_000));
      id = r.uint();
    }
    const fn = tl.TL_FUNCTIONS.get(id);
    const handler = this.handlers.get(id);
    if (!fn || !handler) throw new LiteServerError(LS_CODE.PROTOCOL_VIOLATION, `unknown query 0x${id.toString(16)}`);
    const params = fn.readParams(r);
    r.end();
    this.received.set(fn.name, (this.received.get(fn.name) ?? 0) + 1);
    const result = await handler(params);
    const w = new tl.TlWriter();
    fn.writeResult(w, result);
    return w.finish();
  }

  private async waitForSeqno(seqno: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((await this.head()).last.seqno < seqno) {
      if (Date.now() >= deadline) throw new LiteServerError(LS_CODE.TIMEOUT_ERROR, `timed out waiting for masterchain block ${seqno}`);
      await new Promise((r) => setTimeout(r, WAIT_POLL_MS));
    }
  }

  // ---------------------------------------------------------------- chain views

  /** The head this server admits to (lagBlocks behind the chain's when lagging). */
  private async head(): Promise<{ last: BlockIdExt; init: BlockIdExt; stateRootHash: Buffer; lastUtime: number }> {
    const mc = this.masterchain;
    if (mc) return { last: mc.head, init: mc.zeroState, stateRootHash: mc.headStateHash(), lastUtime: mc.headUtime() };
    const info = await this.chain.getMasterchainInfo();
    const lag = this.faults.lagBlocks ?? 0;
    if (lag <= 0) return info;
    const seqno = Math.max(0, info.last.seqno - lag);
    const header = await this.header({ workchain: -1, shard: info.last.shard, seqno });
    return { ...info, last: header.id, lastUtime: header.genUtime };
  }

  private async header(ref: BlockRef): Promise<BlockHeader> {
    const key = `${ref.workchain}:${ref.shard}:${ref.seqno}`;
    const hit = this.headerCache.get(key);
    if (hit) return hit;
    const h = await this.chain.getBlockHeader(ref);
    this.headerCache.set(key, h);
    return h;
  }

  /** A masterchain block the client named: must exist here (within the lagging head) and match its hashes. */
  private async mcBlock(id: tl.TonNodeBlockIdExt): Promise<BlockHeader> {
    const head = await this.head();
    if (id.seqno >>> 0 === LAST_BLOCK_SEQNO) return this.header(head.last);
    if (id.workchain !== -1) throw new LiteServerError(LS_CODE.FATAL, 'reference block must belong to the masterchain');
    if (id.seqno > head.last.seqno) throw new LiteServerError(LS_CODE.NOT_READY, `block (-1,8000000000000000,${id.seqno}) is not in db`);
    this.checkHistory(id.seqno, head.last.seqno);
    return this.known(id);
  }

  /** A non-archival server (historyBlocks) has forgotten old blocks. */
  private checkHistory(mcSeqno: number, headSeqno: number): void {
    const keep = this.faults.historyBlocks;
    if (keep !== undefined && headSeqno - mcSeqno > keep)
      throw new LiteServerError(LS_CODE.NOT_READY, `state of masterchain block ${mcSeqno} already gc'd (not in db)`);
  }

  /** Any block the client named with its hashes. */
  private async known(id: tl.TonNodeBlockIdExt): Promise<BlockHeader> {
    const h = await this.header(id);
    if (!h.id.rootHash.equals(id.rootHash) || !h.id.fileHash.equals(id.fileHash))
      throw new LiteServerError(LS_CODE.FATAL, 'block hashes do not match the requested block id');
    return h;
  }

  private async headerProof(h: BlockHeader): Promise<Buffer> {
    if (this.cells && (await this.cells.covers(h.id))) return (await this.cells.headerProof(h.id)).toBoc();
    const prevEndLts = await Promise.all(h.prevBlocks.map(async (p) => (await this.header(p)).endLt));
    let masterRef;
    if (h.id.workchain !== -1 && h.masterchainRef) {
      const m = await this.header(h.masterchainRef);
      masterRef = { endLt: m.endLt, seqno: m.id.seqno, rootHash: m.id.rootHash, fileHash: m.id.fileHash };
    }
    return convertToMerkleProof(buildBlockCell({ header: h, prevEndLts, masterRef })).toBoc();
  }

  /** The shard block holding an account as of a masterchain block: the top of the shard whose prefix covers it. */
  private async shardBlockOf(mc: BlockHeader, address: Address): Promise<BlockHeader> {
    const workchain = address.workChain;
    if (workchain === -1) return mc;
    const shards = await this.chain.getShards(mc.id.seqno);
    const prefix = address.hash.readBigUInt64BE(0);
    const top = shards.find((s) => s.workchain === workchain && shardContains(s.shard, prefix));
    if (!top) throw new LiteServerError(LS_CODE.FATAL, `workchain ${workchain} does not exist`);
    return this.header(top);
  }

  // ---------------------------------------------------------------- queries

  private on<P, R>(fn: tl.TlFunction<P, R>, handler: (p: P) => Promise<R>): void {
    this.handlers.set(fn.id, handler as Handler);
  }

  private register(): void {
    const chain = this.chain;
    const now = () => Math.floor(Date.now() / 1000);

    this.on(tl.liteServerGetMasterchainInfo, async () => {
      const h = await this.head();
      return {
        last: tlBlockId(h.last),
        stateRootHash: h.stateRootHash,
        init: { workchain: h.init.workchain, rootHash: h.init.rootHash, fileHash: h.init.fileHash },
      };
    });
    this.on(tl.liteServerGetMasterchainInfoExt, async (p) => {
      const h = await this.head();
      return {
        mode: p.mode,
        version: this.version,
        capabilities: 7n,
        last: tlBlockId(h.last),
        lastUtime: h.lastUtime,
        now: now(),
        stateRootHash: h.stateRootHash,
        init: { workchain: h.init.workchain, rootHash: h.init.rootHash, fileHash: h.init.fileHash },
      };
    });
    this.on(tl.liteServerGetTime, async () => ({ now: now() }));
    this.on(tl.liteServerGetVersion, async () => ({ mode: 0, version: this.version, capabilities: 7n, now: now() }));

    this.on(tl.liteServerGetBlockHeader, async (p) => {
      const recorded = this.recorded?.find(p.id);
      if (recorded) return { ...this.recorded!.header(recorded), mode: p.mode };
      const signed = p.id.workchain === -1 ? this.masterchain?.header(this.masterchain.known(p.id).id.seqno) : undefined;
      if (signed) return { id: signed.id, mode: p.mode, headerProof: signed.proof };
      const h = await this.known(p.id);
      return { id: tlBlockId(h.id), mode: p.mode, headerProof: await this.headerProof(h) };
    });
    this.on(tl.liteServerLookupBlock, async (p) => {
      const recorded = p.mode & 1 ? this.recorded?.find(p.id) : null;
      if (recorded) return { ...this.recorded!.header(recorded), mode: p.mode };
      if (this.masterchain && p.id.workchain === -1 && p.mode & 1) {
        const signed = this.masterchain.header(p.id.seqno);
        if (!signed) throw new LiteServerError(LS_CODE.FATAL, `not found: masterchain block ${p.id.seqno}`);
        return { id: signed.id, mode: p.mode, headerProof: signed.proof };
      }
      const base = { workchain: p.id.workchain, shard: p.id.shard };
      const id =
        p.mode & 2 && p.lt !== undefined
          ? await chain.lookupBlock({ ...base, lt: p.lt })
          : p.mode & 4 && p.utime !== undefined
            ? await chain.lookupBlock({ ...base, utime: p.utime >>> 0 })
            : await chain.lookupBlock({ ...base, seqno: p.id.seqno });
      const h = await this.header(id);
      const head = await this.head();
      const mcSeqno = id.workchain === -1 ? id.seqno : (h.masterchainRef?.seqno ?? 0);
      if (mcSeqno > head.last.seqno) throw new LiteServerError(LS_CODE.NOT_READY, `block with seqno ${id.seqno} is not in db`);
      this.checkHistory(mcSeqno, head.last.seqno);
      return { id: tlBlockId(h.id), mode: p.mode, headerProof: await this.headerProof(h) };
    });

    this.on(tl.liteServerGetAccountState, async (p) => {
      const mc = await this.mcBlock(p.id);
      // A state at a block never changes: its answer is built once (wallets are polled many times per block).
      const key = `${mc.id.seqno}:${p.account.workchain}:${p.account.id.toString('hex')}`;
      const known = this.accountAnswers.get(key);
      if (known) return known;
      const address = new Address(p.account.workchain, p.account.id);
      const state = await chain.getAccountState(address, mc.id.seqno);
      const shardBlk = await this.shardBlockOf(mc, address);
      const cells = this.cells;
      if (cells && (await cells.covers(mc.id, shardBlk.id))) {
        // shard_proof: the masterchain block and its state's shard hashes; proof: the shard block and its state.
        const shardProof =
          shardBlk.id.workchain === -1
            ? Buffer.alloc(0)
            : serializeMultiRootBoc([await cells.headerProof(mc.id), await cells.shardHashesProof(mc.id)]);
        const answer = {
          id: tlBlockId(mc.id),
          shardblk: tlBlockId(shardBlk.id),
          shardProof,
          proof: serializeMultiRootBoc([await cells.headerProof(shardBlk.id), await cells.accountProof(shardBlk.id, p.account.id)]),
          state: state.shardAccount ? state.shardAccount.refs[0].toBoc() : Buffer.alloc(0),
        };
        this.accountAnswers.set(key, answer);
        return answer;
      }
      const sa = state.shardAccount ? loadShardAccount(state.shardAccount.beginParse()) : null;
      const stateCell = buildAccountShardState(
        {
          globalId: chain.globalId,
          workchain: shardBlk.id.workchain,
          shard: shardBlk.id.shard,
          seqno: shardBlk.id.seqno,
          genUtime: shardBlk.genUtime,
          genLt: shardBlk.endLt,
        },
        p.account.id,
        sa,
      );
      const proof = serializeMultiRootBoc([
        convertToMerkleProof(buildBlockCell({ header: shardBlk, prevEndLts: [], masterRef: await this.masterRefOf(shardBlk) })),
        convertToMerkleProof(stateCell),
      ]);
      const accountCell = sa?.account ? beginCell().storeBit(true).store(storeAccount(sa.account)).endCell() : null;
      const answer = {
        id: tlBlockId(mc.id),
        shardblk: tlBlockId(shardBlk.id),
        shardProof: Buffer.alloc(0),
        proof,
        state: accountCell ? accountCell.toBoc() : Buffer.alloc(0),
      };
      this.accountAnswers.set(key, answer);
      return answer;
    });

    this.on(tl.liteServerRunSmcMethod, async (p) => {
      const mc = await this.mcBlock(p.id);
      const address = new Address(p.account.workchain, p.account.id);
      const stack = p.params.length > 0 ? parseTuple(Cell.fromBoc(p.params)[0]) : [];
      const method = Number(BigInt.asIntN(32, p.methodId));
      const res = await chain.runGetMethod(address, method, stack, mc.id.seqno);
      const shardBlk = await this.shardBlockOf(mc, address);
      return {
        mode: p.mode,
        id: tlBlockId(mc.id),
        shardblk: tlBlockId(shardBlk.id),
        shardProof: p.mode & 1 ? Buffer.alloc(0) : undefined,
        proof: p.mode & 1 ? Buffer.alloc(0) : undefined,
        stateProof: p.mode & 2 ? Buffer.alloc(0) : undefined,
        initC7: p.mode & 8 ? Buffer.alloc(0) : undefined,
        libExtras: p.mode & 16 ? Buffer.alloc(0) : undefined,
        exitCode: res.exitCode,
        result: p.mode & 4 ? serializeTuple(res.stack).toBoc() : undefined,
      };
    });

    this.on(tl.liteServerSendMessage, async (p) => {
      await chain.sendMessage(p.body);
      return { status: 1 };
    });

    this.on(tl.liteServerGetTransactions, async (p) => {
      const address = new Address(p.account.workchain, p.account.id);
      const count = Math.min(p.count, LITESERVER_LIMITS.transactionsPerQuery);
      if (count < 1) throw new LiteServerError(LS_CODE.FATAL, 'count must be positive');
      const txs = await chain.getAccountTransactions(address, { lt: p.lt, hash: p.hash }, count);
      return {
        ids: txs.map((t) => tlBlockId(t.block)),
        transactions: txs.length ? serializeMultiRootBoc(txs.map((t) => t.cell)) : Buffer.alloc(0),
      };
    });
    this.on(tl.liteServerGetOneTransaction, async (p) => {
      await this.known(p.id);
      const tx = await chain.getTransaction(new Address(p.account.workchain, p.account.id), p.lt);
      if (!tx) throw new LiteServerError(LS_CODE.FATAL, `transaction not found: lt ${p.lt}`);
      const proof =
        this.cells && (await this.cells.covers(tx.block))
          ? (await this.cells.transactionsProof(tx.block, [{ account: p.account.id, lt: tx.lt }])).toBoc()
          : Buffer.alloc(0);
      return { id: tlBlockId(tx.block), proof, transaction: tx.cell.toBoc() };
    });

    const page = (p: tl.LiteServerListBlockTransactions) => ({
      count: Math.min(Math.max(p.count, 1), LITESERVER_LIMITS.blockTransactionsPerQuery),
      after: p.mode & 128 && p.after ? { account: p.after.account, lt: p.after.lt } : undefined,
    });
    this.on(tl.liteServerListBlockTransactions, async (p) => {
      const recorded = this.recorded?.find(p.id);
      if (recorded) {
        if (p.mode & 64) throw new LiteServerError(LS_CODE.FATAL, 'reverse order is not supported by this liteserver');
        const { count, after } = page(p);
        const res = this.recorded!.page(recorded, count, after);
        const mode = p.mode & 7;
        return {
          id: p.id,
          reqCount: p.count,
          incomplete: res.incomplete,
          ids: res.transactions.map((t) => ({
            mode,
            account: mode & 1 ? t.account : undefined,
            lt: mode & 2 ? t.lt : undefined,
            hash: mode & 4 ? t.cell.hash() : undefined,
          })),
          proof: p.mode & 32 ? res.proof : Buffer.alloc(0),
        };
      }
      const h = await this.known(p.id);
      if (p.mode & 64) throw new LiteServerError(LS_CODE.FATAL, 'reverse order is not supported by this liteserver');
      const res = await chain.listBlockTransactions(h.id, page(p));
      const mode = p.mode & 7;
      return {
        id: tlBlockId(h.id),
        reqCount: p.count,
        incomplete: res.incomplete,
        ids: res.transactions.map((t) => ({
          mode,
          account: mode & 1 ? t.account : undefined,
          lt: mode & 2 ? t.lt : undefined,
          hash: mode & 4 ? t.hash : undefined,
        })),
        proof:
          p.mode & 32 && (await this.cells?.covers(h.id))
            ? (await this.cells!.transactionsProof(h.id, res.transactions)).toBoc()
            : Buffer.alloc(0),
      };
    });
    this.on(tl.liteServerListBlockTransactionsExt, async (p) => {
      const recorded = this.recorded?.find(p.id);
      if (recorded) {
        if (p.mode & 64) throw new LiteServerError(LS_CODE.FATAL, 'reverse order is not supported by this liteserver');
        const { count, after } = page(p);
        const res = this.recorded!.page(recorded, count, after);
        return {
          id: p.id,
          reqCount: p.count,
          incomplete: res.incomplete,
          transactions: res.transactions.length ? serializeMultiRootBoc(res.transactions.map((t) => t.cell)) : Buffer.alloc(0),
          proof: p.mode & 32 ? res.proof : Buffer.alloc(0),
        };
      }
      const h = await this.known(p.id);
      if (p.mode & 64) throw new LiteServerError(LS_CODE.FATAL, 'reverse order is not supported by this liteserver');
      const res = await chain.listBlockTransactionsExt(h.id, page(p));
      const listed = res.transactions.map((t) => ({ account: t.address.hash, lt: t.lt }));
      return {
        id: tlBlockId(h.id),
        reqCount: p.count,
        incomplete: res.incomplete,
        transactions: res.transactions.length ? serializeMultiRootBoc(res.transactions.map((t) => t.cell)) : Buffer.alloc(0),
        proof:
          p.mode & 32 && (await this.cells?.covers(h.id)) ? (await this.cells!.transactionsProof(h.id, listed)).toBoc() : Buffer.alloc(0),
      };
    });

    this.on(tl.liteServerGetAllShardsInfo, async (p) => {
      const recorded = this.recorded?.find(p.id);
      if (recorded) return this.recorded!.shards(recorded);
      const mc = await this.mcBlock(p.id);
      if (this.cells && (await this.cells.covers(mc.id))) {
        const { proof, data } = await this.cells.shardList(mc.id);
        return { id: tlBlockId(mc.id), proof: proof.toBoc(), data: data.toBoc() };
      }
      const shards = await chain.getShards(mc.id.seqno);
      const descrs = await Promise.all(
        shards.map(async (s) => {
          const h = await this.header(s);
          return { id: s, startLt: h.startLt, endLt: h.endLt, genUtime: h.genUtime, regMcSeqno: h.masterchainRef?.seqno ?? mc.id.seqno };
        }),
      );
      return { id: tlBlockId(mc.id), proof: Buffer.alloc(0), data: buildShardHashes(descrs).toBoc() };
    });

    const configInfo = async (mode: number, id: tl.TonNodeBlockIdExt) => {
      const mc = await this.mcBlock(id);
      if (this.cells && (await this.cells.covers(mc.id)))
        return {
          mode,
          id: tlBlockId(mc.id),
          stateProof: await this.headerProof(mc),
          configProof: (await this.cells.configProof(mc.id)).toBoc(),
        };
      const config = await chain.getConfigAll(mc.id.seqno);
      const addr = await chain.getConfigParam(0, mc.id.seqno);
      const state = buildConfigShardState(
        { globalId: chain.globalId, workchain: -1, shard: mc.id.shard, seqno: mc.id.seqno, genUtime: mc.genUtime, genLt: mc.endLt },
        config,
        addr ? addr.beginParse().loadBuffer(32) : Buffer.alloc(32, 0x55),
      );
      return { mode, id: tlBlockId(mc.id), stateProof: await this.headerProof(mc), configProof: convertToMerkleProof(state).toBoc() };
    };
    this.on(tl.liteServerGetConfigAll, (p) => configInfo(p.mode, p.id));
    this.on(tl.liteServerGetConfigParams, (p) => configInfo(p.mode, p.id));

    this.on(tl.liteServerGetLibraries, async (p) => {
      if (p.libraryList.length > LITESERVER_LIMITS.librariesPerQuery)
        throw new LiteServerError(LS_CODE.FATAL, `at most ${LITESERVER_LIMITS.librariesPerQuery} libraries per query`);
      const libs = await chain.getLibraries(p.libraryList);
      return { result: libs.map((l) => ({ hash: l.hash, data: l.data.toBoc() })) };
    });

    this.on(tl.liteServerGetBlockProof, async (p) => {
      if (this.masterchain) return this.masterchain.blockProof(p.mode, p.knownBlock, p.targetBlock);
      return this.blockProofChain(
        p.mode,
        await this.known(p.knownBlock),
        p.mode & 1 && p.targetBlock ? await this.known(p.targetBlock) : undefined,
      );
    });

    this.on(tl.liteServerGetShardBlockProof, async (p) => {
      const h = await this.known(p.id);
      const proof = await chain.getShardBlockProof(h.id);
      return { masterchainId: tlBlockId(proof.mcId), links: proof.links.map((l) => ({ id: tlBlockId(l.id), proof: l.proof })) };
    });

    this.on(tl.liteServerGetOutMsgQueueSizes, async () => {
      const q = await chain.getOutMsgQueueSizes();
      return { shards: q.shards.map((s) => ({ id: tlBlockId(s.id), size: s.size })), extMsgQueueSizeLimit: q.extMsgQueueSizeLimit };
    });
  }

  /**
   * getBlockProof as the C++ liteserver's construct_proof_chain builds it: from a block that is not a key block, one
   * back link to its key block (the state after a masterchain block lists every earlier one); from a key block, one
   * forward link (the signatures of the set that key block names) to the next key block the reference block knows
   * (the target with mode 0x1000, else the head), or to the target; a target behind, one back link. At most 16 links
   * an answer; `complete` says whether they reach the target.
   */
  private async blockProofChain(mode: number, known: BlockHeader, requested?: BlockHeader): Promise<tl.LiteServerPartialBlockProof> {
    const chain = this.chain;
    const target = requested ?? (await this.header((await this.head()).last));
    const reference = mode & 0x1000 ? (known.id.seqno > target.id.seqno ? known : target) : await this.header((await this.head()).last);
    const steps: tl.LiteServerBlockLink[] = [];
    const back = async (from: BlockHeader, to: BlockHeader) => {
      const proof = await chain.getShardBlockProof(to.id, from.id.seqno);
      for (const l of proof.mcProof)
        steps.push({
          _: 'liteServer.blockLinkBack',
          toKeyBlock: l.toKeyBlock,
          from: tlBlockId(l.from),
          to: tlBlockId(l.to),
          destProof: l.destProof,
          proof: l.proof,
          stateProof: l.stateProof,
        });
    };
    const forward = async (from: BlockHeader, to: BlockHeader) => {
      const sigs = await chain.getMasterchainBlockSignatures(to.id.seqno);
      steps.push({
        _: 'liteServer.blockLinkForward',
        toKeyBlock: to.isKeyBlock,
        from: tlBlockId(from.id),
        to: tlBlockId(to.id),
        destProof: await this.headerProof(to),
        configProof:
          from.isKeyBlock && this.cells && (await this.cells.covers(from.id))
            ? (await this.cells.keyBlockConfigProof(from.id)).toBoc()
            : Buffer.alloc(0),
        signatures: signatureSetOf(sigs, to),
      });
    };
    let cur = known;
    while (cur.id.seqno !== target.id.seqno && steps.length < MAX_PROOF_STEPS) {
      if (target.id.seqno < cur.id.seqno) {
        await back(cur, target);
        cur = target;
        continue;
      }
      const isKey = cur.isKeyBlock || cur.id.seqno === 0;
      if (!isKey) {
        const key = await this.header({ workchain: -1, shard: cur.id.shard, seqno: cur.prevKeyBlockSeqno });
        await back(cur, key);
        cur = key;
        continue;
      }
      const next = (await this.nextKeyBlock(cur.id.seqno, reference)) ?? target;
      await forward(cur, next);
      cur = next;
    }
    return { complete: cur.id.seqno === target.id.seqno, from: tlBlockId(known.id), to: tlBlockId(cur.id), steps };
  }

  /** The first key block after masterchain block `seqno` that `reference` knows of (through prev_key_block_seqno). */
  private async nextKeyBlock(seqno: number, reference: BlockHeader): Promise<BlockHeader | null> {
    let next: BlockHeader | null = null;
    let k = reference.isKeyBlock ? reference.id.seqno : reference.prevKeyBlockSeqno;
    while (k > seqno) {
      const key = await this.header({ workchain: -1, shard: reference.id.shard, seqno: k });
      next = key;
      if (key.prevKeyBlockSeqno >= k) break;
      k = key.prevKeyBlockSeqno;
    }
    return next;
  }

  private async masterRefOf(h: BlockHeader) {
    if (h.id.workchain === -1 || !h.masterchainRef) return undefined;
    const m = await this.header(h.masterchainRef);
    return { endLt: m.endLt, seqno: m.id.seqno, rootHash: m.id.rootHash, fileHash: m.id.fileHash };
  }
}

/** A block id as TL carries it. */
function tlBlockId(id: BlockIdExt): tl.TonNodeBlockIdExt {
  return { workchain: id.workchain, shard: id.shard, seqno: id.seqno, rootHash: id.rootHash, fileHash: id.fileHash };
}

/** A chain's block signatures as the liteServer.SignatureSet of the block whose header is `header`. */
function signatureSetOf(sigs: BlockSignatures, header: BlockHeader): tl.LiteServerSignatureSet {
  const signatures = sigs.signatures.map((s) => ({ nodeIdShort: s.nodeIdShort, signature: s.signature }));
  const { catchainSeqno, validatorListHashShort: validatorSetHash } = header;
  if (!sigs.simplex) return { _: 'liteServer.signatureSet.ordinary', validatorSetHash, catchainSeqno, signatures };
  return { _: 'liteServer.signatureSet.simplex', ccSeqno: catchainSeqno, validatorSetHash, signatures, ...sigs.simplex };
}

/** ChainError kinds as liteserver error codes; the client maps them back (client/errors.ts). */
function toLiteError(err: unknown): LiteServerError {
  if (err instanceof LiteServerError) return err;
  if (isChainError(err)) {
    switch (err.kind) {
      case 'not_found':
        // Deterministic, so clients do not retry it elsewhere (651 means "not here yet" and is retried).
        return new LiteServerError(LS_CODE.FATAL, `not found: ${err.message}`);
      case 'refused':
        return new LiteServerError(LS_CODE.ERROR, `cannot apply external message to current state: ${err.message}`);
      case 'invalid':
        return new LiteServerError(LS_CODE.FATAL, err.message);
      case 'timeout':
        return new LiteServerError(LS_CODE.TIMEOUT, err.message);
      case 'unavailable':
        return new LiteServerError(LS_CODE.TIMEOUT_ERROR, err.message);
      default:
        return new LiteServerError(LS_CODE.FAILURE, err.message);
    }
  }
  return new LiteServerError(LS_CODE.FATAL, (err as Error)?.message ?? String(err));
}
