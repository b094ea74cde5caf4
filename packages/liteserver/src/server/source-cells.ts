import { beginCell, type Cell } from '@ton/core';
import {
  blockHeaderProof,
  hashmapWalk,
  LruCache,
  proofKeeping,
  type BlockAndState,
  type BlockIdExt,
  type ChainSource,
} from '@tongate/chain';
import { blockTransactionCells } from '../cells/block-extra.js';

/**
 * Proofs of a ChainSource's answers from its blocks' cells (`getBlockCells`, which the devnet offers): pruned Merkle
 * proofs of the Block and of the state after it that keep the paths an answer reads and prune the rest, as a
 * liteserver's are. The client's checks (src/proofs.ts) then run on them as on a real network's.
 */

interface Entry extends BlockAndState {
  transactions?: { account: Buffer; lt: bigint; cell: Cell; path: Cell[] }[];
}

const CACHED_BLOCKS = 256;

export class SourceCells {
  private readonly cache = new LruCache<string, Promise<Entry | null>>(CACHED_BLOCKS);

  private constructor(private readonly chain: ChainSource & Required<Pick<ChainSource, 'getBlockCells'>>) {}

  /** Proofs from the source's cells, or null when it has none. */
  static of(chain: ChainSource): SourceCells | null {
    return chain.getBlockCells ? new SourceCells(chain as ChainSource & Required<Pick<ChainSource, 'getBlockCells'>>) : null;
  }

  /** Whether the source has the block's cells (a block it made before its blocks were cells has none that fit). */
  async covers(...ids: BlockIdExt[]): Promise<boolean> {
    for (const id of ids) if (!(await this.found(id))) return false;
    return true;
  }

  private found(id: BlockIdExt): Promise<Entry | null> {
    const key = `${id.workchain}:${id.shard}:${id.seqno}:${id.rootHash.toString('hex')}`;
    return this.cache.getOrCreate(key, async () => {
      const cells = await this.chain.getBlockCells(id).catch(() => null);
      return cells && cells.block.hash().equals(id.rootHash) ? { ...cells } : null;
    });
  }

  private async entry(id: BlockIdExt): Promise<Entry> {
    const e = await this.found(id);
    if (!e) throw new Error(`no cells of block ${id.seqno} whose hash is its id`);
    return e;
  }

  /** The block's header (chain's blockHeaderProof). */
  async headerProof(id: BlockIdExt): Promise<Cell> {
    return blockHeaderProof((await this.entry(id)).block);
  }

  /** The state after the block, down to one account's leaf (or to where its absence shows). */
  async accountProof(id: BlockIdExt, account: Buffer): Promise<Cell> {
    const { state } = await this.entry(id);
    const accounts = state.refs[1];
    const keep = new Set<Cell>([state, accounts]);
    if (accounts.refs.length > 0)
      for (const c of hashmapWalk(accounts.refs[0], BigInt('0x' + account.toString('hex')), 256).path) keep.add(c);
    return proofKeeping(state, keep);
  }

  /** The masterchain state after the block with its McStateExtra's shard hashes (what a shard proof shows). */
  async shardHashesProof(id: BlockIdExt): Promise<Cell> {
    const { state } = await this.entry(id);
    const custom = state.refs[3];
    const s = custom.beginParse();
    s.skip(16);
    const whole = new Set<Cell>(s.loadBit() ? [custom.refs[0]] : []);
    return proofKeeping(state, new Set([state, custom]), whole);
  }

  /** The masterchain state after the block with its config (McStateExtra's ConfigParams) whole. */
  async configProof(id: BlockIdExt): Promise<Cell> {
    const { state } = await this.entry(id);
    const custom = state.refs[3];
    return proofKeeping(state, new Set([state, custom]), new Set([custom.refs[custom.refs.length - 2]]));
  }

  /** A key block with the config its McBlockExtra carries (what a forward link's config_proof shows of its source). */
  async keyBlockConfigProof(id: BlockIdExt): Promise<Cell> {
    const { block } = await this.entry(id);
    const extra = block.refs[3];
    const custom = extra.refs[3];
    return proofKeeping(block, new Set([block, extra, custom]), new Set([block.refs[0], custom.refs[custom.refs.length - 1]]));
  }

  /** A masterchain block proving its shard list (McBlockExtra's shard_hashes), and that list as getAllShardsInfo sends it. */
  async shardList(id: BlockIdExt): Promise<{ proof: Cell; data: Cell }> {
    const { block } = await this.entry(id);
    const extra = block.refs[3];
    const custom = extra.refs[3];
    const s = custom.beginParse();
    s.skip(16 + 1);
    const shardHashes = s.loadBit() ? custom.refs[0] : null;
    const proof = proofKeeping(
      block,
      new Set([block, block.refs[2], extra, custom]),
      new Set([block.refs[0], ...(shardHashes ? [shardHashes] : [])]),
    );
    return { proof, data: beginCell().storeMaybeRef(shardHashes).endCell() };
  }

  /** A block keeping the account-block paths of the transactions given (by account and lt). */
  async transactionsProof(id: BlockIdExt, txs: readonly { account: Buffer; lt: bigint }[]): Promise<Cell> {
    const e = await this.entry(id);
    e.transactions ??= blockTransactionCells(e.block);
    const wanted = new Set(txs.map((t) => `${t.account.toString('hex')}:${t.lt}`));
    const keep = new Set<Cell>([e.block]);
    for (const t of e.transactions) if (wanted.has(`${t.account.toString('hex')}:${t.lt}`)) for (const c of t.path) keep.add(c);
    return proofKeeping(e.block, keep, new Set([e.block.refs[0]]));
  }
}
