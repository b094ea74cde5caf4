import { beginCell, Dictionary, storeDepthBalanceInfo, type Builder, type Cell, type Slice } from '@ton/core';
import type { BlockIdExt } from '@tongate/chain';
import { loadExtBlkRef, storeExtBlkRef } from './ext-blk-ref.js';
import { hashmapLookup } from './hashmap.js';
import { ROOT_SHARD } from './shard.js';
import { customOfState, shardState, type StateHead } from './shard-state.js';

/** McStateExtra: a masterchain state's config and previous masterchain blocks (OldMcBlocksInfo). */

const MC_STATE_EXTRA_TAG = 0xcc26;

/** One entry of a masterchain state's prev_blocks (OldMcBlocksInfo). */
export interface OldMcBlockInput {
  id: BlockIdExt;
  endLt: bigint;
  isKeyBlock: boolean;
}

const storeKeyMaxLt = (isKey: boolean, endLt: bigint) => (b: ReturnType<typeof beginCell>) => b.storeBit(isKey).storeUint(endLt, 64);

/**
 * OldMcBlocksInfo (HashmapAugE 32 KeyExtBlkRef KeyMaxLt). Leaves carry their KeyMaxLt extra and the root the whole
 * map's; @ton/core's Dictionary cannot write the extras of inner forks, which readers (`findOldMcBlock`) skip anyway.
 */
function oldMcBlocksInfo(blocks: OldMcBlockInput[]): Builder {
  const dict = Dictionary.empty(Dictionary.Keys.Uint(32), {
    serialize: (b: OldMcBlockInput, builder: Builder) => {
      builder
        .store(storeKeyMaxLt(b.isKeyBlock, b.endLt))
        .storeBit(b.isKeyBlock)
        .storeBuilder(storeExtBlkRef({ endLt: b.endLt, seqno: b.id.seqno, rootHash: b.id.rootHash, fileHash: b.id.fileHash }));
    },
    parse: () => {
      throw new Error('OldMcBlocksInfo is read with findOldMcBlock');
    },
  });
  for (const b of blocks) dict.set(b.id.seqno, b);
  const maxLt = blocks.reduce((m, b) => (b.endLt > m ? b.endLt : m), 0n);
  return beginCell()
    .storeDict(dict)
    .store(
      storeKeyMaxLt(
        blocks.some((b) => b.isKeyBlock),
        maxLt,
      ),
    );
}

/**
 * A masterchain ShardStateUnsplit carrying McStateExtra with the config dictionary (what getConfig* proofs show) and,
 * when given, the previous masterchain blocks (what back links of getBlockProof show).
 */
export function buildConfigShardState(head: StateHead, configRoot: Cell, configAddress: Buffer, prevBlocks: OldMcBlockInput[] = []): Cell {
  const inner = beginCell()
    .storeUint(0, 16) // flags
    .storeUint(0, 32 + 32 + 1) // validator_info
    .storeBuilder(oldMcBlocksInfo(prevBlocks))
    .storeBit(false) // after_key_block
    .storeBit(false) // last_key_block: nothing
    .endCell();
  const extra = beginCell()
    .storeUint(MC_STATE_EXTRA_TAG, 16)
    .storeBit(false) // shard_hashes (served by getAllShardsInfo)
    .storeBuffer(configAddress, 32)
    .storeRef(configRoot)
    .storeRef(inner)
    .storeCoins(0)
    .storeBit(false)
    .endCell();
  return shardState(
    head,
    beginCell()
      .storeBit(false)
      .store(storeDepthBalanceInfo({ splitDepth: 0, balance: { coins: 0n } }))
      .endCell(),
    extra,
  );
}

/** The McStateExtra of a (proof of a) masterchain ShardStateUnsplit, as a slice at its shard_hashes. */
export function mcStateExtraOf(state: Cell): Slice {
  const custom = customOfState(state);
  if (!custom) throw new Error('the state has no McStateExtra (not a masterchain state)');
  const e = custom.beginParse();
  if (e.loadUint(16) !== MC_STATE_EXTRA_TAG) throw new Error('not a McStateExtra');
  return e;
}

/** The ConfigParams dictionary root in a (proof of a) masterchain ShardStateUnsplit. */
export function configRootOfState(state: Cell): Cell {
  const e = mcStateExtraOf(state);
  if (e.loadBit()) e.loadRef(); // shard_hashes
  e.skip(256); // config_addr
  return e.loadRef();
}

/**
 * What a (proof of a) masterchain state's prev_blocks (OldMcBlocksInfo) says of one earlier masterchain block: its
 * id and whether it is a key block; null when the state shows it absent.
 */
export function findOldMcBlock(state: Cell, seqno: number): { id: BlockIdExt; isKeyBlock: boolean } | null {
  const e = mcStateExtraOf(state);
  if (e.loadBit()) e.loadRef(); // shard_hashes
  e.skip(256); // config_addr
  e.loadRef(); // config
  const s = e.loadRef().beginParse();
  s.skip(16 + 32 + 32 + 1); // flags, validator_info
  if (!s.loadBit()) return null;
  const key = Buffer.alloc(4);
  key.writeUInt32BE(seqno);
  const leaf = hashmapLookup(s.loadRef(), key, 32, (l) => l.skip(1 + 64));
  if (!leaf) return null;
  const isKeyBlock = leaf.loadBit();
  const ref = loadExtBlkRef(leaf);
  return { id: { workchain: -1, shard: ROOT_SHARD, seqno: ref.seqno, rootHash: ref.rootHash, fileHash: ref.fileHash }, isKeyBlock };
}
