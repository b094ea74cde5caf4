import { Address, beginCell, Cell, Dictionary, loadShardAccount, loadTransaction, type ShardAccount } from '@ton/core';
import { readConfigPatch } from './config-patch.js';
import {
  accountStateFields,
  ChainError,
  LruCache,
  type AccountState,
  type AccountStateFields,
  type BlockIdExt,
  type ChainTransaction,
  type TransactionId,
} from '@tongate/chain';
import type { HistoryIndex } from './history.js';
import type { BlobRef, ChainStore, Round, StoredTx } from './store.js';

/**
 * Decoded account snapshots and transactions kept in memory (least recently used evicted). Reads then skip the BOC
 * parsing that dominated getAddressInformation and getTransactions; the bounds keep a long-lived devnet's memory flat.
 */
const ACCOUNT_CACHE_ENTRIES = 2048;
const TRANSACTION_CACHE_ENTRIES = 4096;

/**
 * An account snapshot (one ShardAccount blob) decoded once: the parts of AccountState that do not depend on the
 * block. Shared between callers, who treat AccountState as read-only.
 */
export interface DecodedAccount {
  sa: ShardAccount | null;
  state: AccountStateFields;
}

/**
 * Reads of sealed history: account states, transactions, the config and the global libraries, decoded from the
 * store's blobs that the history index points at.
 */
export class ChainReader {
  /** Keyed by blob offset: a blob is written once and never changes, so an entry never goes stale. */
  private readonly accountCache = new LruCache<number, DecodedAccount>(ACCOUNT_CACHE_ENTRIES);
  private readonly txCache = new LruCache<number, ChainTransaction>(TRANSACTION_CACHE_ENTRIES);
  private configCell!: Cell;
  private configDict!: Dictionary<number, Cell>;
  private libsCell: Cell | undefined;
  private libsDict = Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());

  constructor(
    readonly history: HistoryIndex,
    private readonly store: ChainStore,
  ) {}

  /** Takes a round's config and library changes (the history index takes its blocks and accounts). */
  applyParams(round: Round): void {
    if (round.config) {
      this.configCell = this.cellOf(round.config);
      this.configDict = Dictionary.loadDirect(Dictionary.Keys.Int(32), Dictionary.Values.Cell(), this.configCell);
    }
    if (round.configPatch) {
      for (const [id, cell] of readConfigPatch(this.cellOf(round.configPatch))) {
        if (cell) this.configDict.set(id, cell);
        else this.configDict.delete(id);
      }
      this.configCell = beginCell().storeDictDirect(this.configDict).endCell();
    }
    if (round.libs) {
      this.libsCell = this.cellOf(round.libs);
      this.libsDict = this.libsCell.beginParse().loadDictDirect(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
    }
  }

  get config(): Cell {
    return this.configCell;
  }

  /** The global libraries dictionary as last sealed; undefined before any was published. */
  get libs(): Cell | undefined {
    return this.libsCell;
  }

  configParam(id: number): Cell | null {
    if (!Number.isInteger(id) || id < -(2 ** 31) || id >= 2 ** 31)
      throw new ChainError('invalid', `config param id must be a 32-bit integer, got ${id}`);
    return this.configDict.get(id) ?? null;
  }

  library(hash: Buffer): Cell | undefined {
    if (hash.length !== 32) throw new ChainError('invalid', 'library hashes must be 32 bytes');
    return this.libsDict.get(hash);
  }

  cellOf(blob: BlobRef): Cell {
    return Cell.fromBoc(this.store.getBlob(blob))[0];
  }

  shardAccount(blob: BlobRef): ShardAccount {
    return loadShardAccount(this.cellOf(blob).beginParse());
  }

  /** The account's state as of masterchain block `mcSeqno` and the blob it comes from; null if it did not exist. */
  accountAt(address: Address, mcSeqno: number): { blob: BlobRef; decoded: DecodedAccount } | null {
    const blob = this.history.snapshotAt(address, mcSeqno);
    return blob ? { blob, decoded: this.accountCache.getOrCreate(blob.off, () => decodeAccount(this.shardAccount(blob))) } : null;
  }

  accountState(address: Address, atMcSeqno?: number): AccountState {
    const mc = this.history.mcAt(atMcSeqno);
    const decoded = this.accountAt(address, mc.id.seqno)?.decoded ?? decodeAccount(null);
    return { address, block: mc.id, syncUtime: mc.genUtime, ...decoded.state };
  }

  /** Cached transactions are shared between callers, who treat ChainTransaction as read-only. */
  transaction(t: StoredTx, block: BlockIdExt): ChainTransaction {
    return this.txCache.getOrCreate(t.blob.off, () => {
      const cell = this.cellOf(t.blob);
      return { address: new Address(t.workchain, t.account), lt: t.lt, hash: t.hash, cell, tx: loadTransaction(cell.beginParse()), block };
    });
  }

  transactionAt(address: Address, lt: bigint): ChainTransaction | null {
    const hit = this.history.transaction(address, lt);
    return hit ? this.transaction(hit.tx, hit.block) : null;
  }

  /** `count` transactions of the account walking prev_trans_lt back from `from`, inclusive. */
  accountTransactions(address: Address, from: TransactionId, count: number): ChainTransaction[] {
    if (!Number.isInteger(count) || count < 1) throw new ChainError('invalid', `count must be a positive integer, got ${count}`);
    const first = this.history.transaction(address, from.lt);
    if (!first) throw new ChainError('not_found', `no transaction of ${address.toRawString()} at lt ${from.lt}`);
    if (!first.tx.hash.equals(from.hash))
      throw new ChainError('not_found', `transaction of ${address.toRawString()} at lt ${from.lt} has another hash`);
    const out: ChainTransaction[] = [];
    let cur = first as typeof first | undefined;
    while (cur && out.length < count) {
      const t = this.transaction(cur.tx, cur.block);
      out.push(t);
      cur = t.tx.prevTransactionLt === 0n ? undefined : this.history.transaction(address, t.tx.prevTransactionLt);
    }
    return out;
  }
}

/** The block-independent part of an account's state, decoded as every backend decodes it. */
export function decodeAccount(sa: ShardAccount | null): DecodedAccount {
  return { sa, state: accountStateFields(sa) };
}
