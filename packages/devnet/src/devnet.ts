import { join } from 'node:path';
import { beginCell, Cell, loadShardAccount, type Address, type ShardAccount, type TupleItem } from '@ton/core';
import { Blockchain } from '@ton/sandbox';
import {
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
  type EmulationResult,
  type GetMethodResult,
  type MasterchainInfo,
  type Network,
  type OutMsgQueueSizes,
  type ShardBlockProof,
  type BlockAndState,
  type ShortTransactionId,
  type TransactionId,
  type TraceEmulationOptions,
  ChainError,
  externalMessageOf,
} from '@tongate/chain';
import {
  decodeElectorData,
  decodeElectionConfig,
  decodeValidatorSet,
  loadConfigDictionary,
  type ElectionTiming,
  type ElectorState,
} from '@tongate/contracts';
import {
  CONFIG_ADDRESS,
  DEVNET_ELECTION_TIMING,
  ELECTOR_ADDRESS,
  ElectorDriver,
  genesisElectorAccount,
  setElectionParams,
} from './elector.js';
import { DevnetExecutor } from './executor.js';
import { devnetFaucet, type Faucet } from './faucet.js';
import { blockchainControl, sandboxInternals, shareFrozenPrevBlocks, type SeamOptions } from './fast/index.js';
import { genesisConfig, genesisContractAccount, GLOBAL_IDS } from './genesis.js';
import { devnetDns, type DevnetDns } from './contracts/dns.js';
import { GetMethods } from './get-methods.js';
import { HistoryIndex } from './history.js';
import { devnetValidatorSigner, poolValidatorSigner, type Ed25519Signer } from './keys.js';
import { EXT_MSG_QUEUE_SIZE_LIMIT, Messages } from './messages.js';
import { BlockProducer, nowSeconds } from './producer.js';
import { Proofs, type DevnetConsensus } from './proofs.js';
import { BlockCells } from './block-cells.js';
import { MAX_DEVNET_SHARDS, validShardCount } from './shards.js';
import { ChainReader } from './reader.js';
import { MessageRunner } from './runner.js';
import { runSeed, type SeedSummary } from './seed.js';
import { ChainStore } from './store.js';
import { DEVNET_MAX_FACTOR, newStakeBody } from './elector-messages.js';
import {
  devnetAdnlAddress,
  devnetValidators,
  ValidatorOperator,
  type ComplaintRequest,
  type FiledComplaint,
} from './validator-operator.js';
import { PoolOperator, SingleNominatorOperator } from './pool-operator.js';
import type { DevnetWallet } from './wallets.js';

export { EXT_MSG_QUEUE_SIZE_LIMIT };

/** Basechain shards of a devnet unless configured: mainnet's basechain runs in several. */
export const DEFAULT_DEVNET_SHARDS = 2;
/** Milliseconds between rounds unless configured: mainnet's Catchain 2.0 cadence. */
export const DEFAULT_DEVNET_BLOCK_INTERVAL_MS = 400;

export interface DevnetOptions {
  network: Network;
  /** Directory for durable history; the devnet keeps `<dataDir>/<network>/`. Omit for an in-memory chain. */
  dataDir?: string;
  /** Interval between rounds of blocks in ms (default 400, mainnet's cadence); 0 = blocks only on produceBlock(). */
  blockIntervalMs?: number;
  /**
   * Basechain shards (a power of two up to 16; default 2). A chain recorded with another count splits or merges
   * towards it, one level per round.
   */
  shards?: number;
  logger?: { info(obj: object, msg?: string): void };
  /**
   * Run messages through the sandbox's own queue (Blockchain.sendMessage) instead of the devnet's direct runner.
   * Slower; kept to compare the two paths.
   */
  sandboxQueue?: boolean;
  /** Library versions the fast/ seam assumes instead of the installed ones (tests force the public-API paths). */
  seam?: SeamOptions;
  /** Election timing (config param 15) of a new chain; default DEVNET_ELECTION_TIMING (a cycle in minutes). */
  electionTiming?: ElectionTiming;
  /**
   * How masterchain blocks are signed (proofs.ts): `simplex` (default), as mainnet and testnet sign today, or
   * `catchain`, ordinary signature sets. Only what getBlockProof and getMasterchainBlockSignatures answer changes.
   */
  consensus?: DevnetConsensus;
}

/** What a stake holder needs to know about the devnet's elections (live state). */
export interface DevnetElectionStatus {
  elector: Address;
  config: Address;
  /** Param 15 in force. */
  timing: ElectionTiming | null;
  /** The open election, if any: stakes are taken until `electClose` for the set starting at `electionId`. */
  election: {
    electionId: number;
    electClose: number;
    minStake: bigint;
    totalStake: bigint;
    participants: number;
    finished: boolean;
    failed: boolean;
  } | null;
  /** The elector's whole state, decoded. */
  state: ElectorState;
}

/** Which implementation each seam in fast/ gave this devnet: the fast path, or the library's public API. */
export interface DevnetFastPaths {
  /** The emulator's emscripten glue: with the memoized table lookup, or as shipped. */
  glue: 'memoized' | 'stock';
  /** The executor writes its arguments straight into the emulator's memory. */
  directEmulator: boolean;
  /** Messages run through the devnet's runner rather than the sandbox's queue. */
  directRunner: boolean;
  /** Logical time and the recorded transactions through the sandbox's fields (else snapshot()/loadFrom()). */
  blockchainFields: boolean;
  /** PREVBLOCKS handed out as one frozen object per round (else the sandbox's deep copy on every read). */
  sharedPrevBlocks: boolean;
}

/**
 * A local chain per network on @ton/sandbox, as a ChainSource. This class only wires the parts together and
 * answers the interface from them: the history index (blocks, transactions, account versions), the reader that
 * decodes what it points at, the block producer, messages, get-methods and proofs.
 */
export class Devnet implements ChainSource {
  readonly backendId = 'devnet';
  readonly globalId: number;

  private constructor(
    readonly network: Network,
    readonly faucet: Faucet,
    /** The devnet's one validator: signs every masterchain block. */
    readonly validator: Ed25519Signer,
    readonly fastPaths: DevnetFastPaths,
    private readonly history: HistoryIndex,
    private readonly reader: ChainReader,
    private readonly producer: BlockProducer,
    private readonly messages: Messages,
    private readonly getMethods: GetMethods,
    private readonly proofs: Proofs,
    private readonly store: ChainStore,
    private readonly logger?: { info(obj: object, msg?: string): void },
  ) {
    this.globalId = GLOBAL_IDS[network];
  }

  /** TON DNS of the devnet: the root resolver config param 4 names and its `.ton` collection (admin: the faucet). A
   * devnet restored from a journal recorded before they existed has neither (param 4 then names mainnet's root). */
  get dns(): DevnetDns {
    return devnetDns(this.faucet.address);
  }

  static async create(opts: DevnetOptions): Promise<Devnet> {
    const { network } = opts;
    if (network !== 'mainnet' && network !== 'testnet') throw new Error(`unknown network: ${String(network)}`);
    const seam = opts.seam ?? {};
    const shards = opts.shards ?? DEFAULT_DEVNET_SHARDS;
    if (!validShardCount(shards)) throw new Error(`devnet shards must be a power of two from 1 to ${MAX_DEVNET_SHARDS}, got ${shards}`);
    const globalId = GLOBAL_IDS[network];
    const store = ChainStore.open(opts.dataDir === undefined ? undefined : join(opts.dataDir, network));
    const faucet = await devnetFaucet();
    try {
      const recovered = store.recovered;
      const genUtime = nowSeconds();
      const validator = devnetValidatorSigner(globalId);
      const dns = devnetDns(faucet.address);
      const config =
        recovered.length > 0
          ? Cell.fromBoc(store.getBlob(recovered[0].config!))[0]
          : electionGenesisConfig(globalId, genUtime, opts.electionTiming ?? DEVNET_ELECTION_TIMING, validator.publicKey, dns.root.address);
      const executor = await DevnetExecutor.create({ seam });
      const bc = await Blockchain.create({ config, executor });
      bc.verbosity = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
      const sharedPrevBlocks = shareFrozenPrevBlocks(bc, seam);
      const control = blockchainControl(bc, seam);
      const history = new HistoryIndex();
      const reader = new ChainReader(history, store);
      const cells = new BlockCells(history, reader, globalId);
      const producer = new BlockProducer({ bc, control, store, history, reader, network, globalId, shards, cells, logger: opts.logger });
      if (recovered.length > 0) {
        await producer.restore(recovered);
        // The journal's config patches (the elections' validator sets) are in the reader's config now.
        bc.setConfig(reader.config);
      } else
        await producer.genesis(config, faucet, genUtime, [
          genesisElectorAccount(genUtime, loadConfigDictionary(config).get(34)!.hash()),
          genesisContractAccount(dns.root.address, dns.root.init, genUtime),
          genesisContractAccount(dns.collection.address, dns.collection.init, genUtime),
        ]);
      const internals = await sandboxInternals(bc, faucet.address, seam);
      producer.attachElector(await ElectorDriver.attach({ bc, control, executor, internals, logger: opts.logger }));
      const runner = opts.sandboxQueue ? null : MessageRunner.create(bc, executor, internals);
      const fastPaths: DevnetFastPaths = {
        glue: executor.glue,
        directEmulator: executor.canRunDirect,
        directRunner: runner !== null,
        blockchainFields: control.fast,
        sharedPrevBlocks,
      };
      const messages = new Messages(bc, producer, control, runner, opts.logger);
      producer.attachDelivery((outbound) => messages.deliver(outbound));
      const devnet = new Devnet(
        network,
        faucet,
        validator,
        fastPaths,
        history,
        reader,
        producer,
        messages,
        new GetMethods(bc, reader),
        new Proofs(
          history,
          globalId,
          validator,
          cells,
          [
            ...devnetValidators(globalId).map((v) => v.signer),
            poolValidatorSigner(globalId, 'nominator_pool'),
            poolValidatorSigner(globalId, 'single_nominator'),
          ],
          opts.consensus ?? 'simplex',
        ),
        store,
        opts.logger,
      );
      producer.startTimer(opts.blockIntervalMs ?? DEFAULT_DEVNET_BLOCK_INTERVAL_MS);
      opts.logger?.info(
        { network, mcSeqno: history.lastMc.id.seqno, faucet: faucet.address.toString({ testOnly: network === 'testnet' }) },
        recovered.length > 0 ? 'devnet restored' : 'devnet genesis',
      );
      return devnet;
    } catch (e) {
      store.close();
      throw e;
    }
  }

  // ---------------------------------------------------------------- devnet extras

  /** Seals pending transactions into the next blocks now; returns the new masterchain block id. */
  produceBlock(): Promise<BlockIdExt> {
    return this.producer.produceBlock();
  }

  /**
   * Seals rounds until every message sent so far has reached its destination (a message to another shard lands a
   * round after its sender), so the traces started before it are whole. Returns the last masterchain block id.
   */
  settle(): Promise<BlockIdExt> {
    return this.producer.settle();
  }

  /**
   * Runs the basechain in `count` shards (a power of two up to 16) from now on: the shards split (each block before
   * it says before_split) or merge, one level per round, as a real basechain does under load.
   */
  async setShards(count: number): Promise<void> {
    if (!validShardCount(count))
      throw new ChainError('invalid', `shards must be a power of two from 1 to ${MAX_DEVNET_SHARDS}, got ${count}`);
    return this.producer.setShards(count);
  }

  /** Deploys wallets, tokens and NFTs from the faucet and moves them around (adds activity on every call). */
  seed(): Promise<SeedSummary> {
    return runSeed({
      network: this.network,
      globalId: this.globalId,
      faucet: this.faucet,
      sendMessage: (boc) => this.sendMessage(boc),
      produceBlock: () => this.settle(),
      liveSeqno: (address) => this.producer.serial(() => this.getMethods.liveSeqno(address)),
      startValidators: () => this.startValidators({ complaints: true }),
      startPoolOperator: (pool) => this.startPoolOperator(pool),
    });
  }

  private operator: ValidatorOperator | undefined;

  /**
   * Starts the devnet validators' operator: from the next round on they stake in every election and recover their
   * stakes (idempotent). Null on a chain without the elector (recorded before the devnet had one).
   */
  startValidators(opts: { complaints?: boolean } = {}): { elector: Address; validators: ValidatorOperator['validators'] } | null {
    if (!this.history.firstMc || !this.hasElector()) return null;
    if (!this.operator) {
      const operator = new ValidatorOperator(
        {
          sendMessage: (boc) => this.sendMessage(boc),
          liveSeqno: (address) => this.producer.serial(() => this.getMethods.liveSeqno(address)),
          electorState: () => this.liveElectorState(),
          currentSet: async () => {
            const p34 = this.reader.configParam(34);
            return p34 ? decodeValidatorSet(p34) : null;
          },
          complaintStoragePrice: async (bits, refs, expireIn) => {
            const r = await this.runGetMethod(
              ELECTOR_ADDRESS,
              'complaint_storage_price',
              [bits, refs, expireIn].map((n) => ({ type: 'int' as const, value: BigInt(n) })),
            );
            const top = r.stack[0];
            if (r.exitCode !== 0 || top?.type !== 'int')
              throw new ChainError('unavailable', `complaint_storage_price failed (exit code ${r.exitCode})`);
            return top.value;
          },
          logger: this.logger,
        },
        devnetValidators(this.globalId),
      );
      this.operator = operator;
      this.producer.onSealed(() => void operator.step());
    }
    if (opts.complaints) this.operator.autoComplaints = true;
    return { elector: ELECTOR_ADDRESS, validators: this.operator.validators };
  }

  /**
   * Files a complaint with the elector against a devnet validator of the set validating now (default: one of the
   * devnet's own validators), from another devnet validator's stake holder wallet, and makes the devnet validators
   * vote for it: real elector transactions (registration, votes, and the fine once more than 2/3 of the set's weight
   * approves). Resolves once the elector holds the complaint. Starts the validators' operator if it is not running.
   */
  async fileComplaint(request: ComplaintRequest = {}): Promise<FiledComplaint> {
    if (!this.startValidators()) throw new ChainError('unavailable', 'the devnet has no elector');
    let timer: NodeJS.Timeout | undefined;
    // The operator files it in the next rounds; a devnet whose blocks stop (blockIntervalMs 0) would never answer.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new ChainError('unavailable', 'the complaint was not filed within 60 s (are blocks being produced?)')),
        60_000,
      );
      timer.unref();
    });
    return Promise.race([this.operator!.fileComplaint(request), timeout]).finally(() => clearTimeout(timer));
  }

  /**
   * Starts the operator of a seeded pool, TON Foundation or single-nominator (pool-operator.ts): from the next round on
   * its validator stakes it in the elections and recovers the stake. False on a chain without the elector.
   */
  startPoolOperator(pool: {
    kind?: 'nominator_pool' | 'single_nominator';
    address: Address;
    validatorWallet: DevnetWallet;
    walletSigner: Ed25519Signer;
    validatorKey: Ed25519Signer;
  }): boolean {
    if (!this.history.firstMc || !this.hasElector()) return false;
    const electorStakeBody = ({ electionId, queryId }: { electionId: number; queryId: bigint }) =>
      newStakeBody({
        validator: pool.validatorKey,
        stakeHolder: pool.address,
        electionId,
        maxFactor: DEVNET_MAX_FACTOR,
        adnlAddr: devnetAdnlAddress(pool.validatorKey.publicKey),
        queryId,
      });
    if (pool.kind === 'single_nominator') {
      const single = new SingleNominatorOperator(
        {
          sendMessage: (boc) => this.sendMessage(boc),
          liveSeqno: (address) => this.producer.serial(() => this.getMethods.liveSeqno(address)),
          poolBalance: async () => {
            const state = await this.getAccountState(pool.address);
            return state.status === 'active' ? state.balance : null;
          },
          electorState: () => this.liveElectorState(),
          electorStakeBody,
          validatorPubkey: pool.validatorKey.publicKey.toString('hex'),
          now: nowSeconds,
          logger: this.logger,
        },
        pool.address,
        pool.validatorWallet,
        pool.walletSigner,
      );
      this.producer.onSealed(() => void single.step());
      return true;
    }
    const operator = new PoolOperator(
      {
        sendMessage: (boc) => this.sendMessage(boc),
        liveSeqno: (address) => this.producer.serial(() => this.getMethods.liveSeqno(address)),
        poolState: async () => {
          const state = await this.getAccountState(pool.address);
          return state.status === 'active' && state.data ? { balance: state.balance, data: state.data } : null;
        },
        currentSetHash: async () => (await this.getConfigParam(34))?.hash().toString('hex') ?? null,
        openElection: async () => {
          const election = (await this.electionStatus()).election;
          return election ? { electionId: election.electionId, finished: election.finished } : null;
        },
        electorStakeBody,
        now: nowSeconds,
        logger: this.logger,
      },
      pool.address,
      pool.validatorWallet,
      pool.walletSigner,
    );
    this.producer.onSealed(() => void operator.step());
    return true;
  }

  private hasElector(): boolean {
    return (
      this.reader.configParam(1)?.beginParse().loadBuffer(32).equals(ELECTOR_ADDRESS.hash) === true &&
      this.reader.accountAt(ELECTOR_ADDRESS, this.history.lastMc.id.seqno) !== null
    );
  }

  private liveElectorState(): Promise<ElectorState> {
    return this.producer.serial(async () => {
      const data = await this.getMethods.liveData(ELECTOR_ADDRESS);
      if (!data) throw new ChainError('unavailable', 'the devnet has no elector');
      return decodeElectorData(data);
    });
  }

  /** The elector's address, the config stand-in's, election timing and the open election, for stake holders (pools). */
  async electionStatus(): Promise<DevnetElectionStatus> {
    const state = await this.liveElectorState();
    const e = state.election;
    return {
      elector: ELECTOR_ADDRESS,
      config: CONFIG_ADDRESS,
      timing: decodeElectionConfig(loadConfigDictionary(this.reader.config)).timing,
      election: e
        ? {
            electionId: e.electAt,
            electClose: e.electClose,
            minStake: e.minStake,
            totalStake: e.totalStake,
            participants: e.participants.length,
            finished: e.finished,
            failed: e.failed,
          }
        : null,
      state,
    };
  }

  async close(): Promise<void> {
    await this.producer.close();
    this.store.close();
  }

  // ---------------------------------------------------------------- ChainSource: blocks

  async getMasterchainInfo(): Promise<MasterchainInfo> {
    const last = this.history.lastMc;
    return { last: last.id, init: this.history.firstMc.id, stateRootHash: last.stateHash, lastUtime: last.genUtime };
  }

  /** Followers waiting for a masterchain block (waitForMasterchainBlock), woken by the producer's seal listener. */
  private blockWaiters: Set<{ seqno: number; wake: () => void }> | null = null;

  waitForMasterchainBlock(seqno: number, timeoutMs: number): Promise<void> {
    if (this.history.lastMc.id.seqno >= seqno) return Promise.resolve();
    if (!this.blockWaiters) {
      const waiters = new Set<{ seqno: number; wake: () => void }>();
      this.blockWaiters = waiters;
      // One listener for all waiters: the producer's listener list only grows.
      this.producer.onSealed((mcSeqno) => {
        for (const waiter of [...waiters]) if (waiter.seqno <= mcSeqno) waiter.wake();
      });
    }
    const waiters = this.blockWaiters;
    return new Promise((resolve) => {
      const waiter = {
        seqno,
        wake: () => {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve();
        },
      };
      const timer = setTimeout(waiter.wake, timeoutMs);
      waiters.add(waiter);
    });
  }

  async lookupBlock(query: BlockLookup): Promise<BlockIdExt> {
    return this.history.lookup(query).id;
  }

  async getBlockHeader(ref: BlockRef): Promise<BlockHeader> {
    return this.proofs.header(ref);
  }

  async getShards(mcSeqno: number): Promise<BlockIdExt[]> {
    return this.history.mcAt(mcSeqno).shardBlocks;
  }

  async listBlockTransactions(
    ref: BlockRef,
    opts: { count: number; after?: BlockTransactionCursor },
  ): Promise<BlockTransactionsPage<ShortTransactionId>> {
    const { txs, incomplete } = this.history.blockPage(ref, opts);
    return { transactions: txs.map((t) => ({ account: t.account, workchain: t.workchain, lt: t.lt, hash: t.hash })), incomplete };
  }

  async listBlockTransactionsExt(
    ref: BlockRef,
    opts: { count: number; after?: BlockTransactionCursor },
  ): Promise<BlockTransactionsPage<ChainTransaction>> {
    const { block, txs, incomplete } = this.history.blockPage(ref, opts);
    return { transactions: txs.map((t) => this.reader.transaction(t, block.id)), incomplete };
  }

  async getMasterchainBlockSignatures(seqno: number): Promise<BlockSignatures> {
    return this.proofs.signatures(seqno);
  }

  async getShardBlockProof(ref: BlockRef, fromMcSeqno?: number): Promise<ShardBlockProof> {
    return this.proofs.shardBlockProof(ref, fromMcSeqno);
  }

  /** The block's Block cell (its hash is the id's root hash) and the state after it. */
  async getBlockCells(ref: BlockRef): Promise<BlockAndState> {
    return this.proofs.blockCells(ref);
  }

  /** Each shard's queue: the messages to other shards its last block's transactions sent, not delivered yet. */
  async getOutMsgQueueSizes(): Promise<OutMsgQueueSizes> {
    const waiting = this.producer.outboundBySender();
    const size = (workchain: number, shard: bigint) =>
      waiting.filter((w) => w.workchain === workchain && w.shard === shard).reduce((n, w) => n + w.count, 0);
    const blocks = [this.history.lastMc, ...this.history.shardTops()];
    return {
      shards: blocks.map((b) => ({ id: b.id, size: size(b.id.workchain, b.id.shard) })),
      extMsgQueueSizeLimit: EXT_MSG_QUEUE_SIZE_LIMIT,
    };
  }

  // ---------------------------------------------------------------- ChainSource: transactions and state

  async getTransaction(address: Address, lt: bigint): Promise<ChainTransaction | null> {
    return this.reader.transactionAt(address, lt);
  }

  async getAccountTransactions(address: Address, from: TransactionId, count: number): Promise<ChainTransaction[]> {
    return this.reader.accountTransactions(address, from, count);
  }

  async getAccountState(address: Address, atMcSeqno?: number): Promise<AccountState> {
    return this.reader.accountState(address, atMcSeqno);
  }

  runGetMethod(address: Address, method: string | number, stack: TupleItem[], atMcSeqno?: number): Promise<GetMethodResult> {
    return this.getMethods.run(address, method, stack, atMcSeqno);
  }

  async getConfigParam(id: number, atMcSeqno?: number): Promise<Cell | null> {
    this.history.mcAt(atMcSeqno);
    return this.reader.configParam(id);
  }

  async getConfigAll(atMcSeqno?: number): Promise<Cell> {
    this.history.mcAt(atMcSeqno);
    return this.reader.config;
  }

  async getLibraries(hashes: Buffer[]): Promise<{ hash: Buffer; data: Cell }[]> {
    const out: { hash: Buffer; data: Cell }[] = [];
    for (const hash of hashes) {
      const data = this.reader.library(hash);
      if (data) out.push({ hash, data });
    }
    return out;
  }

  // ---------------------------------------------------------------- ChainSource: messages

  sendMessage(boc: Buffer): Promise<{ hash: Buffer }> {
    return this.messages.send(boc);
  }

  emulateExternalMessage(message: Cell, opts: { ignoreChksig: boolean }): Promise<EmulationResult> {
    return this.messages.emulate(message, opts);
  }

  async emulateTrace(message: Cell, opts: TraceEmulationOptions = {}): Promise<EmulatedTrace> {
    const last = (await this.getMasterchainInfo()).last.seqno;
    if (opts.atMcSeqno === undefined || opts.atMcSeqno === last) return this.messages.emulateTrace(message, last, opts);
    const at = opts.atMcSeqno;
    // An earlier block's accounts, as its state holds them (the devnet's config does not change between blocks).
    const stateAt = async (address: Address): Promise<ShardAccount> => {
      const cell = (await this.getAccountState(address, at)).shardAccount;
      return cell ? loadShardAccount(cell.beginParse()) : { account: undefined, lastTransactionLt: 0n, lastTransactionHash: 0n };
    };
    await stateAt(externalMessageOf(message).info.dest as Address); // an unknown block fails here, before any run
    return this.messages.emulateTrace(message, at, opts, stateAt);
  }
}

/** A new chain's config: the sandbox's mainnet config for the network, with the devnet's election params. */
function electionGenesisConfig(globalId: number, genUtime: number, timing: ElectionTiming, validatorKey: Buffer, dnsRoot: Address): Cell {
  const dict = loadConfigDictionary(genesisConfig(globalId, dnsRoot));
  setElectionParams(dict, {
    genUtime,
    timing,
    validator: { publicKey: validatorKey, adnlAddr: devnetAdnlAddress(validatorKey), weight: 1n << 60n },
  });
  return beginCell().storeDictDirect(dict).endCell();
}

export async function createDevnet(opts: DevnetOptions): Promise<Devnet> {
  return Devnet.create(opts);
}
