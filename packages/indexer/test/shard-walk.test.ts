/**
 * The walk from a masterchain block's shard tops back to the previous tops, on a made-up history with several
 * shard blocks per masterchain block, a split and a merge (the devnet has one shard block per round, so these
 * cases only exist on real chains).
 */
import type { BlockHeader, BlockIdExt, BlockRef, ChainSource } from '@tongate/chain';
import { describe, expect, it } from 'vitest';
import { newShardBlocks, shardsOverlap } from '../src/index.js';

const WHOLE = -(2n ** 63n); // 0x8000000000000000
const LEFT = BigInt.asIntN(64, 0x4000000000000000n);
const RIGHT = BigInt.asIntN(64, 0xc000000000000000n);

const id = (shard: bigint, seqno: number): BlockIdExt => ({
  workchain: 0,
  shard,
  seqno,
  rootHash: Buffer.alloc(32),
  fileHash: Buffer.alloc(32),
});
const key = (r: BlockRef) => `${BigInt.asUintN(64, r.shard).toString(16)}:${r.seqno}`;

/** Blocks by key → their prev blocks. */
function chainOf(prevs: Record<string, BlockIdExt[]>): ChainSource {
  return {
    async getBlockHeader(ref: BlockRef) {
      const prev = prevs[key(ref)];
      if (!prev) throw new Error(`unexpected read of ${key(ref)}`);
      return { id: id(ref.shard, ref.seqno), prevBlocks: prev } as unknown as BlockHeader;
    },
  } as unknown as ChainSource;
}

describe('shard blocks committed by a masterchain block', () => {
  it('shard prefixes overlap when one contains the other', () => {
    expect(shardsOverlap(WHOLE, LEFT)).toBe(true);
    expect(shardsOverlap(RIGHT, WHOLE)).toBe(true);
    expect(shardsOverlap(LEFT, RIGHT)).toBe(false);
    expect(shardsOverlap(LEFT, LEFT)).toBe(true);
  });

  it('walks several blocks of one shard back to the previous top, not past it', async () => {
    const chain = chainOf({ '8000000000000000:12': [id(WHOLE, 11)], '8000000000000000:11': [id(WHOLE, 10)] });
    const blocks = await newShardBlocks(chain, [id(WHOLE, 12)], [id(WHOLE, 10)]);
    expect(blocks.map((b) => key(b.id))).toEqual(['8000000000000000:11', '8000000000000000:12']);
  });

  it('follows a split: both children lead back to the parent shard top', async () => {
    const chain = chainOf({
      '4000000000000000:21': [id(WHOLE, 20)],
      'c000000000000000:21': [id(WHOLE, 20)],
      '8000000000000000:20': [id(WHOLE, 19)],
    });
    const blocks = await newShardBlocks(chain, [id(LEFT, 21), id(RIGHT, 21)], [id(WHOLE, 19)]);
    expect(blocks.map((b) => key(b.id)).sort()).toEqual(['4000000000000000:21', '8000000000000000:20', 'c000000000000000:21'].sort());
  });

  it('follows a merge: the merged block has both halves as prev blocks', async () => {
    const chain = chainOf({ '8000000000000000:31': [id(LEFT, 30), id(RIGHT, 30)], '4000000000000000:30': [id(LEFT, 29)] });
    const blocks = await newShardBlocks(chain, [id(WHOLE, 31)], [id(LEFT, 29), id(RIGHT, 30)]);
    expect(blocks.map((b) => key(b.id)).sort()).toEqual(['4000000000000000:30', '8000000000000000:31']);
  });

  it('commits nothing new when the shard top did not move', async () => {
    expect(await newShardBlocks(chainOf({}), [id(WHOLE, 40)], [id(WHOLE, 40)])).toEqual([]);
  });
});
