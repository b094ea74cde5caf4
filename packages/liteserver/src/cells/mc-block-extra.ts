import { beginCell, type Cell, type Slice } from '@ton/core';
import { mcBlockExtraCellOf } from './block-extra.js';
import { skipCurrencyCollection } from './currency.js';

/** McBlockExtra: a masterchain block's shard hashes and, in a key block, its config. */

const MC_BLOCK_EXTRA_TAG = 0xcca5;
const EMPTY = beginCell().endCell();

/** A McBlockExtra holding the shard hashes when given (ShardHashes as `buildShardHashes` makes it) and, in a key block, the config. */
export function mcBlockExtraCell(shardHashes: Cell | undefined, config: { address: Buffer; root: Cell } | undefined): Cell {
  // shard_fees (empty HashmapAugE with a zero CurrencyCollection extra), then the ^[...] cell, then a key block's config.
  const custom = beginCell()
    .storeUint(MC_BLOCK_EXTRA_TAG, 16)
    .storeBit(config !== undefined)
    .storeSlice((shardHashes ?? beginCell().storeBit(false).endCell()).beginParse())
    .storeBit(false)
    .storeCoins(0)
    .storeBit(false)
    .storeCoins(0)
    .storeBit(false)
    .storeRef(EMPTY);
  if (config) custom.storeBuffer(config.address, 32).storeRef(config.root);
  return custom.endCell();
}

/** The shard_hashes a masterchain Block carries in McBlockExtra, as a slice at its HashmapE bit. */
export function shardHashesOfBlock(block: Cell): Slice {
  const m = mcBlockExtraOf(block);
  m.loadBit(); // key_block
  return m;
}

/** The ConfigParams dictionary root a key block carries in McBlockExtra (what a forward block link reads). */
export function configRootOfKeyBlock(block: Cell): Cell {
  const m = mcBlockExtraOf(block);
  if (!m.loadBit()) throw new Error('the block carries no config (not a key block)');
  if (m.loadBit()) m.loadRef(); // shard_hashes
  if (m.loadBit()) m.loadRef(); // shard_fees
  skipCurrencyCollection(m); // its fees
  skipCurrencyCollection(m); // and create
  m.loadRef(); // prev_blk_signatures, recover_create_msg, mint_msg
  m.skip(256); // config_addr
  return m.loadRef();
}

/** McBlockExtra of a (proof of a) masterchain Block, as a slice past its tag. */
function mcBlockExtraOf(block: Cell): Slice {
  const custom = mcBlockExtraCellOf(block);
  if (custom?.isExotic) throw new Error('the McBlockExtra is pruned in the proof');
  if (!custom) throw new Error('the block has no McBlockExtra (not a masterchain block)');
  const m = custom.beginParse();
  if (m.loadUint(16) !== MC_BLOCK_EXTRA_TAG) throw new Error('not a McBlockExtra');
  return m;
}
