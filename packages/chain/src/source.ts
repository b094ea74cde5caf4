import type { Address, Cell, Transaction, TupleItem } from '@ton/core';
import type { EmulatedTrace, TraceEmulationOptions } from './trace-emulation.js';

/**
 * The read/write surface of a TON chain, shaped after the liteserver API (liteServer.* TL functions).
 * Handlers and the indexer reach the chain only through this interface; the devnet and the liteserver
 * backends implement it. Values are chain-native (bigint, Buffer, Cell, Address): wire formatting is the
 * handlers' job.
 *
 * Errors: implementations throw ChainError (see errors.ts) with a kind that the front door maps to a status.
 */

export type Network = 'mainnet' | 'testnet';

/** Block coordinates. `shard` is the 64-bit shard prefix as a signed bigint, as it appears on the wire
 * (basechain's single shard 0x8000000000000000 is -9223372036854775808n; masterchain uses the same value). */
export interface BlockRef {
  workchain: number;
  shard: bigint;
  seqno: number;
}

export interface BlockIdExt extends BlockRef {
  rootHash: Buffer;
  fileHash: Buffer;
}

/** A block's cells: the Block and the state after it. */
export interface BlockAndState {
  block: Cell;
  state: Cell;
}

export interface MasterchainInfo {
  last: BlockIdExt;
  init: BlockIdExt;
  stateRootHash: Buffer;
  /** gen_utime of `last`. */
  lastUtime: number;
}

export interface BlockHeader {
  id: BlockIdExt;
  globalId: number;
  version: number;
  flags: number;
  afterMerge: boolean;
  afterSplit: boolean;
  beforeSplit: boolean;
  wantMerge: boolean;
  wantSplit: boolean;
  validatorListHashShort: number;
  catchainSeqno: number;
  minRefMcSeqno: number;
  isKeyBlock: boolean;
  prevKeyBlockSeqno: number;
  vertSeqno: number;
  startLt: bigint;
  endLt: bigint;
  genUtime: number;
  prevBlocks: BlockIdExt[];
  /** For masterchain blocks: the shard blocks it references (top shard blocks). Empty for shard blocks. */
  shardBlocks?: BlockIdExt[];
  /** For shard blocks: the masterchain block its BlockInfo names (master_ref: the last one known when it was made). */
  masterchainRef?: BlockRef;
}

export interface TransactionId {
  lt: bigint;
  hash: Buffer;
}

export type AccountStatus = 'active' | 'uninitialized' | 'frozen' | 'nonexist';

export interface AccountState {
  address: Address;
  /** Masterchain block whose state this is. */
  block: BlockIdExt;
  /** gen_utime of that block. */
  syncUtime: number;
  status: AccountStatus;
  balance: bigint;
  extraCurrencies: { id: number; amount: bigint }[];
  code: Cell | null;
  data: Cell | null;
  /** State hash of a frozen account. */
  frozenHash: Buffer | null;
  /** null when the account has no transactions. */
  lastTransaction: TransactionId | null;
  /** The raw ShardAccount cell (Account + last tx pointers), or null when the account does not exist. */
  shardAccount: Cell | null;
}

/** A transaction as stored on chain, with the block that holds it. */
export interface ChainTransaction {
  address: Address;
  lt: bigint;
  hash: Buffer;
  /** Root cell of the Transaction (its hash is `hash`). */
  cell: Cell;
  /** Parsed form of `cell`. */
  tx: Transaction;
  block: BlockIdExt;
}

export interface ShortTransactionId {
  /** 256-bit account id inside the block's workchain. */
  account: Buffer;
  workchain: number;
  lt: bigint;
  hash: Buffer;
}

export interface BlockTransactionsPage<T> {
  transactions: T[];
  /** True when more transactions follow the last one returned. */
  incomplete: boolean;
}

/** Exclusive cursor inside a block: transactions ordered by (account, lt). */
export interface BlockTransactionCursor {
  account: Buffer;
  lt: bigint;
}

export interface GetMethodResult {
  exitCode: number;
  gasUsed: bigint;
  stack: TupleItem[];
  /** Masterchain block the method ran against. */
  block: BlockIdExt;
  lastTransaction: TransactionId | null;
}

export interface EmulationResult {
  /** The transaction the message would produce on the destination account (not committed). */
  transaction: Transaction;
  /** Fees of the inbound external message (import) and of the whole transaction's phases. */
  fees: { inFwdFee: bigint; storageFee: bigint; gasFee: bigint; fwdFee: bigint };
  /** True when the account accepted the message (compute phase succeeded). */
  accepted: boolean;
  exitCode: number | null;
}

export interface BlockSignatures {
  id: BlockIdExt;
  signatures: { nodeIdShort: Buffer; signature: Buffer }[];
  /**
   * Present when the block was finalized by the Catchain 2.0 (Simplex) consensus: the signatures are the finalize
   * votes for candidate (slot, sha256(candidate)) in session `sessionId`, and `candidate` is the boxed TL
   * consensus.CandidateHashData that names the block.
   */
  simplex?: { sessionId: Buffer; slot: number; candidate: Buffer };
}

export interface ShardBlockProof {
  from: BlockIdExt;
  mcId: BlockIdExt;
  links: { id: BlockIdExt; proof: Buffer }[];
  mcProof: {
    toKeyBlock: boolean;
    from: BlockIdExt;
    to: BlockIdExt;
    destProof: Buffer;
    proof: Buffer;
    stateProof: Buffer;
  }[];
}

export interface OutMsgQueueSizes {
  shards: { id: BlockIdExt; size: number }[];
  extMsgQueueSizeLimit: number;
}

export type BlockLookup =
  | { workchain: number; shard: bigint; seqno: number }
  | { workchain: number; shard: bigint; lt: bigint }
  | { workchain: number; shard: bigint; utime: number };

export interface ChainSource {
  readonly network: Network;
  /** global_id of the chain: -239 mainnet, -3 testnet. */
  readonly globalId: number;
  /** Short name of the backend that answers (goes into v2 `@extra`). */
  readonly backendId: string;

  getMasterchainInfo(): Promise<MasterchainInfo>;

  /**
   * Optional: resolves once masterchain block `seqno` exists, or after `timeoutMs`, whichever comes first (a timeout
   * is not an error). Lets a follower (the indexer) take a new block the moment it is sealed instead of polling
   * getMasterchainInfo; without it followers poll.
   */
  waitForMasterchainBlock?(seqno: number, timeoutMs: number): Promise<void>;

  /** State of an account at a masterchain block (default: the last one). A missing account has status 'nonexist'. */
  getAccountState(address: Address, atMcSeqno?: number): Promise<AccountState>;

  /** Runs a get-method by name or numeric id. A non-zero exit code is a result, not an error. */
  runGetMethod(address: Address, method: string | number, stack: TupleItem[], atMcSeqno?: number): Promise<GetMethodResult>;

  /** Broadcasts an external message (a full Message cell as BOC). Throws ChainError 'refused' with the reason when
   * the current state rejects it. Returns the message cell's hash. */
  sendMessage(boc: Buffer): Promise<{ hash: Buffer }>;

  /** Emulates an external message against the current state without committing anything (estimateFee). */
  emulateExternalMessage(message: Cell, opts: { ignoreChksig: boolean }): Promise<EmulationResult>;

  /** Emulates the whole trace of an external message (its transaction and every one its messages cause) against
   * the latest state (or `opts.atMcSeqno`'s), committing nothing (pending traces, the emulation API). Throws
   * ChainError 'refused' when the message is not accepted, 'not_found' for a masterchain block that does not exist.
   * See trace-emulation.ts for the bounds. */
  emulateTrace(message: Cell, opts?: TraceEmulationOptions): Promise<EmulatedTrace>;

  /** Throws ChainError 'not_found' when no such block exists (yet). */
  lookupBlock(query: BlockLookup): Promise<BlockIdExt>;

  getBlockHeader(id: BlockRef): Promise<BlockHeader>;

  /** Shard blocks referenced by a masterchain block. */
  getShards(mcSeqno: number): Promise<BlockIdExt[]>;

  /** A block's transaction ids ordered by (account, lt), after an exclusive cursor. */
  listBlockTransactions(
    id: BlockRef,
    opts: { count: number; after?: BlockTransactionCursor },
  ): Promise<BlockTransactionsPage<ShortTransactionId>>;

  /** Same order and paging as listBlockTransactions, with whole transactions. */
  listBlockTransactionsExt(
    id: BlockRef,
    opts: { count: number; after?: BlockTransactionCursor },
  ): Promise<BlockTransactionsPage<ChainTransaction>>;

  /** Walks an account's history backwards starting AT (lt, hash) inclusive, newest first, at most `count`. */
  getAccountTransactions(address: Address, from: TransactionId, count: number): Promise<ChainTransaction[]>;

  /** One transaction of an account by lt, or null. */
  getTransaction(address: Address, lt: bigint): Promise<ChainTransaction | null>;

  /** Config parameter cell, or null when the parameter is absent. */
  getConfigParam(id: number, atMcSeqno?: number): Promise<Cell | null>;

  /** The whole ConfigParams dictionary cell (the root of `config` in McStateExtra). */
  getConfigAll(atMcSeqno?: number): Promise<Cell>;

  /** Library cells by hash; unknown hashes are omitted. */
  getLibraries(hashes: Buffer[]): Promise<{ hash: Buffer; data: Cell }[]>;

  getMasterchainBlockSignatures(seqno: number): Promise<BlockSignatures>;

  getShardBlockProof(id: BlockRef, fromMcSeqno?: number): Promise<ShardBlockProof>;

  /**
   * A block as TON cells (block.tlb): the Block, whose hash is the block id's root hash, and the whole
   * ShardStateUnsplit after it. Offered by sources whose blocks are such cells (the devnet), so that a liteserver
   * serving the source proves its answers with Merkle proofs of them; absent elsewhere.
   */
  getBlockCells?(ref: BlockRef): Promise<BlockAndState>;

  getOutMsgQueueSizes(): Promise<OutMsgQueueSizes>;

  /** Releases sockets, timers, files. */
  close(): Promise<void>;
}
