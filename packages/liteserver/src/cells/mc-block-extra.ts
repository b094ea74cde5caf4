import type { Cell, Slice } from '@ton/core';
import { mcBlockExtraCellOf } from './block-extra.js';
import { skipCurrencyCollection } from './currency.js';

/** McBlockExtra: a masterchain block's shard hashes and, in a key block, its config. */

const MC_BLOCK_EXTRA_TAG = 0xcca5;
export { mcBlockExtraCell } from '@tongate/chain';

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
