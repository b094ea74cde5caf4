import type { Cell, Slice } from '@ton/core';
import { EMPTY_SHARD_ACCOUNTS, mcStateExtraCell, oldMcBlocksInfo, type BlockIdExt, type OldMcBlockInput } from '@tongate/chain';
import { loadExtBlkRef } from './ext-blk-ref.js';
import { hashmapLookup } from './hashmap.js';
import { ROOT_SHARD } from './shard.js';
import { customOfState, shardState, type StateHead } from './shard-state.js';

/** McStateExtra: a masterchain state's config and previous masterchain blocks (OldMcBlocksInfo). */

const MC_STATE_EXTRA_TAG = 0xcc26;

export type { OldMcBlockInput } from '@tongate/chain';

/**
 * A masterchain ShardStateUnsplit carrying McStateExtra with the config dictionary (what getConfig* proofs show) and,
 * when given, the previous masterchain blocks (what back links of getBlockProof show).
 */
export function buildConfigShardState(head: StateHead, configRoot: Cell, configAddress: Buffer, prevBlocks: OldMcBlockInput[] = []): Cell {
  const extra = mcStateExtraCell({ configAddress, configRoot, prevBlocks: oldMcBlocksInfo(prevBlocks) });
  return shardState(head, EMPTY_SHARD_ACCOUNTS, extra);
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
