import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, storeShardAccount, type ShardAccount } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import type { Blockchain } from '@ton/sandbox';
import { ChainError, shardChildren, shardParent, WHOLE_SHARD, type BlockIdExt, type Network } from '@tongate/chain';
import type { BlockCells } from './block-cells.js';
import { compareTx } from './blocks.js';
import { applyConfigPatch } from './config-patch.js';
import { DEVNET_FAUCET_BALANCE, type Faucet } from './faucet.js';
import type { BlockchainControl } from './fast/index.js';
import { genesisLibraries } from './genesis.js';
import type { HistoryIndex } from './history.js';
import type { ChainReader } from './reader.js';
import type { AppliedTransaction } from './runner.js';
import type { BlobRef, ChainStore, Round, StoredAccount, StoredBlock, StoredTx } from './store.js';
import type { ElectorDriver } from './elector.js';
import { evenShards, shardOfAccount } from './shards.js';

/** Logical time the devnet skips at every round, so that a block's lt range is never empty. */
export const LT_PER_ROUND = 1_000_000n;
const ZERO32 = Buffer.alloc(32);
/** Rounds settle() and close() seal at most to see the messages in flight delivered (a trace hops shards each round). */
const MAX_SETTLE_ROUNDS = 64;

interface PendingTx {
  workchain: number;
  account: Buffer;
  lt: bigint;
  hash: Buffer;
  boc: Buffer;
}

export interface ProducerParts {
  bc: Blockchain;
  control: BlockchainControl;
  store: ChainStore;
  history: HistoryIndex;
  reader: ChainReader;
  network: Network;
  globalId: number;
  /** Basechain shards to run in (a power of two); a chain in another layout splits or merges towards it. */
  shards: number;
  /** The blocks' cells, whose hashes are the block ids. */
  cells: BlockCells;
  logger?: { info(obj: object, msg?: string): void };
}

/** An internal message sent to another shard or workchain: delivered after the round that carries its sender. */
export interface OutboundMessage {
  /** The message BOC (base64), as the sender's transaction holds it. */
  boc: string;
  from: Address;
  dest: Address;
}

/** Runs delivered messages (the runner's work); returns the messages they send to other shards in turn. */
export type Delivery = (messages: OutboundMessage[]) => Promise<void>;

/** A basechain shard block of the next round: its shard and the blocks it follows (two after a merge). */
interface ShardPlan {
  shard: bigint;
  prev: StoredBlock[];
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Block production: genesis, restart from the journal, and rounds that seal the pending transactions into one block
 * per basechain shard and the masterchain block referencing them. A message to an account of another shard (or
 * workchain) waits in the outbound queue and runs after the round that carries its sender, so it lands in a later
 * block, as on a real chain. It also owns the one queue through which all chain mutation runs (messages and
 * rounds), and the timer that produces rounds.
 */
export class BlockProducer {
  private pending: PendingTx[] = [];
  private outbound: OutboundMessage[] = [];
  /** Messages the last sealed round's transactions sent to other shards: delivered, but not yet in a block. */
  private queued: OutboundMessage[] = [];
  private delivery: Delivery | null = null;
  /** The basechain shards of the next round, and the blocks each follows. */
  private plan: ShardPlan[] = [];
  private readonly touched = new Map<string, Address>();
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private elector: ElectorDriver | null = null;
  private readonly sealedListeners: ((mcSeqno: number) => void)[] = [];

  constructor(private readonly parts: ProducerParts) {}

  /** Runs the elector's tick (and the config stand-in) at every round from now on. */
  attachElector(elector: ElectorDriver | null): void {
    this.elector = elector;
  }

  /** Called after every sealed round, outside the queue (a listener may queue messages). */
  onSealed(listener: (mcSeqno: number) => void): void {
    this.sealedListeners.push(listener);
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  /** Messages between shards not delivered yet. */
  get inFlight(): number {
    return this.outbound.length;
  }

  /**
   * The out-message queues: messages that sealed transactions sent to other shards and no sealed block has received
   * yet, counted by the shard (masterchain: -1 / whole) of their senders.
   */
  outboundBySender(): { workchain: number; shard: bigint; count: number }[] {
    const shards = this.parts.history.shardTops().map((b) => b.id.shard);
    const counts = new Map<string, { workchain: number; shard: bigint; count: number }>();
    for (const m of this.queued) {
      const workchain = m.from.workChain;
      const shard = workchain === -1 ? WHOLE_SHARD : shardOfAccount(shards, m.from.hash);
      const key = `${workchain}:${shard}`;
      const c = counts.get(key) ?? { workchain, shard, count: 0 };
      c.count++;
      counts.set(key, c);
    }
    return [...counts.values()];
  }

  /** Changes the shard count to reach (a power of two): splits or merges start with the next rounds. */
  setShards(count: number): Promise<void> {
    return this.serial(async () => {
      this.parts.shards = count;
      this.planShards();
    });
  }

  /** Runs the messages that wait for the next round; set once by the devnet. */
  attachDelivery(delivery: Delivery): void {
    this.delivery = delivery;
  }

  /** Queues messages to other shards for delivery after the next sealed round. Call inside serial(). */
  addOutbound(messages: OutboundMessage[]): void {
    this.outbound.push(...messages);
  }

  /**
   * Whether a message from one account to another is delivered in the same block: both in the masterchain, or both
   * in the same basechain shard of the next round.
   */
  sameShard(from: Address, to: Address): boolean {
    if (from.workChain !== to.workChain) return false;
    if (from.workChain === -1) return true;
    const shards = this.plan.map((p) => p.shard);
    return shardOfAccount(shards, from.hash) === shardOfAccount(shards, to.hash);
  }

  /**
   * Starts a new chain: the faucet wallet, the global libraries, the config and the system accounts given (the
   * elector) in block 0 of both chains.
   */
  async genesis(config: Cell, faucet: Faucet, genUtime: number, system: ShardAccount[] = []): Promise<void> {
    const { bc, store } = this.parts;
    const genesisAccounts = [genesisWalletAccount(faucet, genUtime), ...system];
    const libs = genesisLibraries();
    bc.libs = libs;
    this.parts.cells.startConfig(config);
    const accounts: StoredAccount[] = [];
    for (const sa of genesisAccounts) {
      const address = sa.account!.addr;
      await bc.setShardAccount(address, sa);
      const cell = beginCell().store(storeShardAccount(sa)).endCell();
      accounts.push({ workchain: address.workChain, account: address.hash, blob: store.putBlob(cell.toBoc()) });
      this.parts.cells.setAccount(address.workChain, address.hash, cell);
    }
    const round = this.buildRound({
      genUtime,
      startLt: 0n,
      endLt: LT_PER_ROUND,
      txs: [],
      config,
      accounts,
      shards: evenShards(this.parts.shards).map((shard) => ({ shard, prev: [] })),
      prevMc: null,
    });
    round.config = store.putBlob(config.toBoc());
    round.libs = store.putBlob(libs.toBoc());
    await this.parts.control.setLt(LT_PER_ROUND);
    store.appendRound(round);
    this.applyRound(round);
    this.updatePrevBlocks();
    this.planShards();
  }

  /** Replays journaled rounds into the indexes and loads every account's latest state into the sandbox. */
  async restore(rounds: Round[]): Promise<void> {
    const { bc, history, reader } = this.parts;
    for (const r of rounds) this.applyRound(r);
    for (const { workchain, account, blob } of history.latestSnapshots()) {
      const cell = reader.cellOf(blob);
      this.parts.cells.setAccount(workchain, account, cell);
      const sa = reader.shardAccount(blob);
      if (sa.account) await bc.setShardAccount(new Address(workchain, account), sa);
    }
    if (reader.libs) bc.libs = reader.libs;
    const last = rounds[rounds.length - 1];
    await this.parts.control.setLt(last.lt);
    this.updatePrevBlocks();
    this.planShards();
    // Messages between shards the last round sent: delivered after the next round.
    this.outbound = (last.outbound ?? []).map((o) => ({
      boc: this.parts.store.getBlob(o.blob).toString('base64'),
      from: Address.parseRaw(o.from),
      dest: Address.parseRaw(o.dest),
    }));
  }

  /**
   * The next round's shards: the current ones, or each split in two (too few, once their blocks say before_split) or
   * sibling pairs merged (too many), one level per round, until the configured count is reached.
   */
  private planShards(): void {
    const tops = this.parts.history.shardTops();
    const target = this.parts.shards;
    if (tops.length < target && tops.every((top) => top.beforeSplit)) {
      this.plan = tops.flatMap((top) => shardChildren(top.id.shard).map((shard) => ({ shard, prev: [top] })));
    } else if (tops.length > target) {
      const plan: ShardPlan[] = [];
      for (let i = 0; i < tops.length; i++) {
        const next = tops[i + 1];
        const parent = shardParent(tops[i].id.shard);
        if (next && shardParent(next.id.shard) === parent && next.id.shard !== tops[i].id.shard) {
          plan.push({ shard: parent, prev: [tops[i], next] });
          i++;
        } else plan.push({ shard: tops[i].id.shard, prev: [tops[i]] });
      }
      this.plan = plan;
    } else {
      this.plan = tops.map((top) => ({ shard: top.id.shard, prev: [top] }));
    }
  }

  /** Puts a round (from genesis, production or the journal) into the in-memory indexes. */
  private applyRound(round: Round): void {
    this.parts.history.apply(round);
    this.parts.reader.applyParams(round);
    this.parts.cells.noteRound(round.blocks[round.blocks.length - 1], this.parts.reader.config);
  }

  /** Runs `fn` after every chain mutation queued before it; refused once the devnet is closed. */
  serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      if (this.closed) throw new ChainError('unavailable', 'devnet is closed');
      return fn();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Records a transaction a message produced; it is sealed into the next round. Call inside serial(). */
  addPending(tx: AppliedTransaction): void {
    const { address } = tx;
    this.pending.push({ workchain: address.workChain, account: address.hash, lt: tx.lt, hash: tx.hash, boc: tx.boc });
    this.touched.set(`${address.workChain}:${address.hash.toString('hex')}`, address);
  }

  /** Seals pending transactions into the next blocks now; returns the new masterchain block id. */
  produceBlock(): Promise<BlockIdExt> {
    return this.serial(() => this.sealRound());
  }

  /**
   * Seals rounds until nothing is pending and no message between shards is in flight (at most MAX_SETTLE_ROUNDS):
   * every trace started before it is then whole in the chain. Returns the last masterchain block id.
   */
  async settle(): Promise<BlockIdExt> {
    let id = await this.produceBlock();
    for (let rounds = 1; rounds < MAX_SETTLE_ROUNDS && (this.pending.length > 0 || this.outbound.length > 0); rounds++)
      id = await this.produceBlock();
    return id;
  }

  /** Seals everything pending into the next basechain block and the masterchain block that references it. */
  private async sealRound(): Promise<BlockIdExt> {
    const { bc, store, history } = this.parts;
    const prevMc = history.lastMc;
    const genUtime = Math.max(prevMc.genUtime, nowSeconds());
    const elector = this.elector ? await this.elector.round(genUtime) : null;
    if (elector?.transaction) this.addPending(elector.transaction);
    const endLt = bc.lt + LT_PER_ROUND;
    const txs = this.pending.map((t) => ({ ...t, blob: store.putBlob(t.boc) }));
    const accounts: StoredAccount[] = [];
    for (const address of this.touched.values()) {
      const cell = beginCell()
        .store(storeShardAccount((await bc.getContract(address)).account))
        .endCell();
      accounts.push({ workchain: address.workChain, account: address.hash, blob: store.putBlob(cell.toBoc()) });
      this.parts.cells.setAccount(address.workChain, address.hash, cell);
    }
    const config = elector?.configPatch ? applyConfigPatch(this.parts.reader.config, elector.configPatch) : this.parts.reader.config;
    const round = this.buildRound({ genUtime, startLt: prevMc.endLt, endLt, txs, config, accounts, shards: this.plan, prevMc });
    const libs = bc.libs;
    const sealedLibs = this.parts.reader.libs;
    if (libs && (!sealedLibs || !libs.hash().equals(sealedLibs.hash()))) round.libs = store.putBlob(libs.toBoc());
    if (elector?.configPatch) round.configPatch = store.putBlob(elector.configPatch.toBoc());
    if (this.outbound.length > 0)
      round.outbound = this.outbound.map((m) => ({
        blob: store.putBlob(Buffer.from(m.boc, 'base64')),
        from: m.from.toRawString(),
        dest: m.dest.toRawString(),
      }));
    store.appendRound(round);
    await this.parts.control.setLt(endLt);
    this.applyRound(round);
    this.pending = [];
    this.touched.clear();
    this.updatePrevBlocks();
    this.planShards();
    // Messages between shards sent in this round run now: their transactions go into the next round.
    const outbound = this.outbound;
    this.outbound = [];
    this.queued = outbound;
    if (outbound.length > 0 && this.delivery) await this.delivery(outbound);
    const mc = round.blocks[round.blocks.length - 1];
    if (txs.length > 0)
      this.parts.logger?.info({ network: this.parts.network, mcSeqno: mc.id.seqno, transactions: txs.length }, 'devnet block');
    for (const listener of this.sealedListeners) queueMicrotask(() => listener(mc.id.seqno));
    return mc.id;
  }

  private buildRound(args: {
    genUtime: number;
    startLt: bigint;
    endLt: bigint;
    txs: (PendingTx & { blob: BlobRef })[];
    /** The config after the round. */
    config: Cell;
    accounts: StoredAccount[];
    shards: ShardPlan[];
    prevMc: StoredBlock | null;
  }): Round {
    const { cells } = this.parts;
    const mcSeqno = args.prevMc ? args.prevMc.id.seqno + 1 : 0;
    const draft = (workchain: number, shard: bigint, prev: StoredBlock[], txs: StoredTx[], beforeSplit = false): StoredBlock => ({
      id: {
        workchain,
        shard,
        seqno: prev.length > 0 ? Math.max(...prev.map((p) => p.id.seqno)) + 1 : 0,
        rootHash: ZERO32,
        fileHash: ZERO32,
      },
      genUtime: args.genUtime,
      startLt: args.startLt,
      endLt: args.endLt,
      prevBlocks: prev.map((p) => p.id),
      shardBlocks: [],
      ...(workchain === -1 ? {} : { masterchainRef: { workchain: -1, shard: WHOLE_SHARD, seqno: mcSeqno } }),
      stateHash: ZERO32,
      ...(beforeSplit ? { beforeSplit: true } : {}),
      txs: [...txs].sort(compareTx),
    });
    const bocs = new Map(args.txs.map((t) => [t.hash.toString('hex'), t.boc]));
    const txCells = (b: StoredBlock) => b.txs.map((t) => Cell.fromBoc(bocs.get(t.hash.toString('hex'))!)[0]);
    const toStored = (t: PendingTx & { blob: BlobRef }): StoredTx => ({
      workchain: t.workchain,
      account: t.account,
      lt: t.lt,
      hash: t.hash,
      blob: t.blob,
    });
    const ids = args.shards.map((p) => p.shard);
    const basechain = args.txs.filter((t) => t.workchain !== -1);
    const shardBlocks = args.shards.map((p) => {
      const b = draft(
        0,
        p.shard,
        p.prev,
        basechain.filter((t) => shardOfAccount(ids, t.account) === p.shard).map(toStored),
        // Too few shards: these blocks end their shards, which split in the next round.
        ids.length < this.parts.shards,
      );
      cells.sealShardBlock(b, p.prev, args.prevMc, txCells(b));
      return b;
    });
    const mc = draft(-1, WHOLE_SHARD, args.prevMc ? [args.prevMc] : [], args.txs.filter((t) => t.workchain === -1).map(toStored));
    mc.shardBlocks = shardBlocks.map((b) => b.id);
    cells.sealMasterchainBlock(mc, args.prevMc, shardBlocks, args.config, txCells(mc));
    return { blocks: [...shardBlocks, mc], accounts: args.accounts, lt: args.endLt };
  }

  /** Feeds the last masterchain blocks to c7 (PREVBLOCKS) and gives the next round its own rand_seed, as validators do. */
  private updatePrevBlocks(): void {
    const { bc, history } = this.parts;
    const last = history.recentMcIds(16);
    bc.prevBlocks = { lastMcBlocks: last, prevKeyBlock: history.firstMc.id };
    bc.random = createHash('sha256').update('rand_seed').update(last[0].rootHash).digest();
  }

  /** Produces a round every `intervalMs` (none when it is 0). */
  startTimer(intervalMs: number): void {
    if (!(intervalMs > 0)) return;
    const tick = () => {
      this.timer = undefined;
      this.produceBlock()
        .catch((e) => this.parts.logger?.info({ err: String(e) }, 'devnet block production failed'))
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

  /** Stops the timer, seals what is pending (a clean stop loses nothing) and refuses further mutation. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    await this.serial(async () => {
      // Messages between shards go on to their destinations, in as many rounds as they take (a bounded number).
      for (let rounds = 0; rounds < MAX_SETTLE_ROUNDS && (this.pending.length > 0 || this.outbound.length > 0); rounds++)
        await this.sealRound();
    }).catch(() => undefined);
    this.closed = true;
    await this.queue;
  }
}

function genesisWalletAccount(faucet: Faucet, genUtime: number): ShardAccount {
  const wallet = WalletContractV4.create({ workchain: 0, publicKey: faucet.publicKey });
  return {
    account: {
      addr: wallet.address,
      storage: {
        lastTransLt: 0n,
        balance: { coins: DEVNET_FAUCET_BALANCE },
        state: { type: 'active', state: { code: wallet.init.code, data: wallet.init.data } },
      },
      storageStats: { used: { cells: 0n, bits: 0n }, lastPaid: genUtime, duePayment: null, storageExtra: null },
    },
    lastTransactionLt: 0n,
    lastTransactionHash: 0n,
  };
}
