import { createHash } from 'node:crypto';
import { Address, beginCell, storeShardAccount, type Cell, type ShardAccount } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import type { Blockchain } from '@ton/sandbox';
import { ChainError, WHOLE_SHARD, type BlockIdExt, type Network } from '@tongate/chain';
import { blockHashes, compareTx, nextStateHash, serializeBlock, type BlockContent } from './blocks.js';
import { DEVNET_FAUCET_BALANCE, type Faucet } from './faucet.js';
import type { BlockchainControl } from './fast/index.js';
import { genesisLibraries } from './genesis.js';
import type { HistoryIndex } from './history.js';
import type { ChainReader } from './reader.js';
import type { AppliedTransaction } from './runner.js';
import type { BlobRef, ChainStore, Round, StoredAccount, StoredBlock, StoredTx } from './store.js';
import type { ElectorDriver } from './elector.js';

/** Logical time the devnet skips at every round, so that a block's lt range is never empty. */
export const LT_PER_ROUND = 1_000_000n;
const ZERO32 = Buffer.alloc(32);

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
  logger?: { info(obj: object, msg?: string): void };
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Block production: genesis, restart from the journal, and rounds that seal the pending transactions into a
 * basechain block and the masterchain block referencing it. It also owns the one queue through which all chain
 * mutation runs (messages and rounds), and the timer that produces rounds.
 */
export class BlockProducer {
  private pending: PendingTx[] = [];
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

  /**
   * Starts a new chain: the faucet wallet, the global libraries, the config and the system accounts given (the
   * elector) in block 0 of both chains.
   */
  async genesis(config: Cell, faucet: Faucet, genUtime: number, system: ShardAccount[] = []): Promise<void> {
    const { bc, store } = this.parts;
    const genesisAccounts = [genesisWalletAccount(faucet, genUtime), ...system];
    const libs = genesisLibraries();
    bc.libs = libs;
    const accounts: StoredAccount[] = [];
    const changed: { workchain: number; account: Buffer; shardAccountHash: Buffer }[] = [];
    for (const sa of genesisAccounts) {
      const address = sa.account!.addr;
      await bc.setShardAccount(address, sa);
      const cell = beginCell().store(storeShardAccount(sa)).endCell();
      accounts.push({ workchain: address.workChain, account: address.hash, blob: store.putBlob(cell.toBoc()) });
      changed.push({ workchain: address.workChain, account: address.hash, shardAccountHash: cell.hash() });
    }
    const stateHash = nextStateHash(ZERO32, changed);
    const round = this.buildRound({
      genUtime,
      startLt: 0n,
      endLt: LT_PER_ROUND,
      txs: [],
      stateHash,
      accounts,
      prevShard: null,
      prevMc: null,
    });
    round.config = store.putBlob(config.toBoc());
    round.libs = store.putBlob(libs.toBoc());
    await this.parts.control.setLt(LT_PER_ROUND);
    store.appendRound(round);
    this.applyRound(round);
    this.updatePrevBlocks();
  }

  /** Replays journaled rounds into the indexes and loads every account's latest state into the sandbox. */
  async restore(rounds: Round[]): Promise<void> {
    const { bc, history, reader } = this.parts;
    for (const r of rounds) this.applyRound(r);
    for (const { workchain, account, blob } of history.latestSnapshots()) {
      const sa = reader.shardAccount(blob);
      if (sa.account) await bc.setShardAccount(new Address(workchain, account), sa);
    }
    if (reader.libs) bc.libs = reader.libs;
    await this.parts.control.setLt(rounds[rounds.length - 1].lt);
    this.updatePrevBlocks();
  }

  /** Puts a round (from genesis, production or the journal) into the in-memory indexes. */
  private applyRound(round: Round): void {
    this.parts.history.apply(round);
    this.parts.reader.applyParams(round);
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

  /** Seals everything pending into the next basechain block and the masterchain block that references it. */
  private async sealRound(): Promise<BlockIdExt> {
    const { bc, store, history } = this.parts;
    const prevMc = history.lastMc;
    const prevShard = history.lastShard;
    const genUtime = Math.max(prevMc.genUtime, nowSeconds());
    const elector = this.elector ? await this.elector.round(genUtime) : null;
    if (elector?.transaction) this.addPending(elector.transaction);
    const endLt = bc.lt + LT_PER_ROUND;
    const txs = this.pending.map((t) => ({ ...t, blob: store.putBlob(t.boc) }));
    const accounts: StoredAccount[] = [];
    const changed: { workchain: number; account: Buffer; shardAccountHash: Buffer }[] = [];
    for (const address of this.touched.values()) {
      const cell = beginCell()
        .store(storeShardAccount((await bc.getContract(address)).account))
        .endCell();
      accounts.push({ workchain: address.workChain, account: address.hash, blob: store.putBlob(cell.toBoc()) });
      changed.push({ workchain: address.workChain, account: address.hash, shardAccountHash: cell.hash() });
    }
    const stateHash = changed.length > 0 ? nextStateHash(prevMc.stateHash, changed) : prevMc.stateHash;
    const round = this.buildRound({ genUtime, startLt: prevMc.endLt, endLt, txs, stateHash, accounts, prevShard, prevMc });
    const libs = bc.libs;
    const sealedLibs = this.parts.reader.libs;
    if (libs && (!sealedLibs || !libs.hash().equals(sealedLibs.hash()))) round.libs = store.putBlob(libs.toBoc());
    if (elector?.configPatch) round.configPatch = store.putBlob(elector.configPatch.toBoc());
    store.appendRound(round);
    await this.parts.control.setLt(endLt);
    this.applyRound(round);
    this.pending = [];
    this.touched.clear();
    this.updatePrevBlocks();
    const mc = round.blocks[1];
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
    stateHash: Buffer;
    accounts: StoredAccount[];
    prevShard: StoredBlock | null;
    prevMc: StoredBlock | null;
  }): Round {
    const content = (
      workchain: number,
      prev: StoredBlock | null,
      txs: StoredTx[],
      shardBlocks: BlockIdExt[],
      stateHash: Buffer,
    ): StoredBlock => {
      const sorted = [...txs].sort(compareTx);
      const c: BlockContent = {
        globalId: this.parts.globalId,
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
    const toStored = (t: PendingTx & { blob: BlobRef }): StoredTx => ({
      workchain: t.workchain,
      account: t.account,
      lt: t.lt,
      hash: t.hash,
      blob: t.blob,
    });
    const shard = content(0, args.prevShard, args.txs.filter((t) => t.workchain !== -1).map(toStored), [], ZERO32);
    const mc = content(-1, args.prevMc, args.txs.filter((t) => t.workchain === -1).map(toStored), [shard.id], args.stateHash);
    shard.masterchainRef = { workchain: -1, shard: WHOLE_SHARD, seqno: mc.id.seqno };
    return { blocks: [shard, mc], accounts: args.accounts, lt: args.endLt };
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
      if (this.pending.length > 0) await this.sealRound();
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
