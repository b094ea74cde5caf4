import type { Cell } from '@ton/core';
import { skipCurrencyCollection } from './currency.js';
import { hashmapEntries, hashmapLookup } from './hashmap.js';

/**
 * BlockExtra (written in @tongate/chain): read for its account blocks (ShardAccountBlocks: each account's transactions) and its McBlockExtra.
 */

const BLOCK_EXTRA_TAG = 0x4a33f6fd;
export { blockExtra } from '@tongate/chain';

/** The McBlockExtra cell of a (proof of a) Block's BlockExtra, or null when it has none (a shard block). */
export function mcBlockExtraCellOf(block: Cell): Cell | null {
  const extra = block.refs[3];
  if (!extra || extra.isExotic) throw new Error('the block extra is pruned in the proof');
  const e = extra.beginParse();
  if (e.loadUint(32) !== BLOCK_EXTRA_TAG) throw new Error('not a BlockExtra');
  e.loadRef(); // in_msg_descr
  e.loadRef(); // out_msg_descr
  e.loadRef(); // account_blocks
  e.skip(256 + 256); // rand_seed, created_by
  return e.loadMaybeRef();
}

/**
 * The hash of one transaction in a (proof of a) Block: BlockExtra's account_blocks (HashmapAugE 256 AccountBlock),
 * then the AccountBlock's transactions (HashmapAug 64 ^Transaction, inline). Null when the block shows it absent;
 * throws when the proof does not cover it.
 */
export function findBlockTransaction(block: Cell, accountId: Buffer, lt: bigint): Buffer | null {
  const extra = block.refs[3];
  if (!extra || extra.isExotic) throw new Error('the block extra is pruned in the proof');
  const e = extra.beginParse();
  if (e.loadUint(32) !== BLOCK_EXTRA_TAG) throw new Error('not a BlockExtra');
  e.loadRef(); // in_msg_descr
  e.loadRef(); // out_msg_descr
  const accountBlocks = e.loadRef();
  if (accountBlocks.isExotic) throw new Error('the account blocks are pruned in the proof');
  const ab = accountBlocks.beginParse();
  if (!ab.loadBit()) return null;
  const leaf = hashmapLookup(ab.loadRef(), accountId, 256, skipCurrencyCollection);
  if (!leaf) return null;
  if (leaf.loadUint(4) !== 0x5) throw new Error('not an AccountBlock');
  if (!leaf.loadBuffer(32).equals(accountId)) throw new Error('the AccountBlock is of another account');
  const key = Buffer.alloc(8);
  key.writeBigUInt64BE(lt);
  const tx = hashmapLookup(leaf, key, 64, skipCurrencyCollection);
  // Pruned or not, a cell's level-0 hash is the hash of the transaction it stands for.
  return tx ? tx.loadRef().hash(0) : null;
}

/**
 * Every transaction of a whole Block, in the order liteservers list them (by account, then lt): account_blocks
 * (HashmapAugE 256 AccountBlock) and each AccountBlock's transactions (HashmapAug 64 ^Transaction, inline). `path`
 * is the cells from the BlockExtra down to the transaction's leaf (what a proof of it must keep).
 */
export function blockTransactionCells(block: Cell): { account: Buffer; lt: bigint; cell: Cell; path: Cell[] }[] {
  const extra = block.refs[3];
  const e = extra?.beginParse();
  if (!e || e.loadUint(32) !== BLOCK_EXTRA_TAG) throw new Error('not a BlockExtra');
  e.loadRef(); // in_msg_descr
  e.loadRef(); // out_msg_descr
  const accountBlocks = e.loadRef();
  const ab = accountBlocks.beginParse();
  if (!ab.loadBit()) return [];
  const out: { account: Buffer; lt: bigint; cell: Cell; path: Cell[] }[] = [];
  for (const { key, value, path } of hashmapEntries(ab.loadRef(), 256, skipCurrencyCollection)) {
    if (value.loadUint(4) !== 0x5) throw new Error('not an AccountBlock');
    const account = value.loadBuffer(32);
    if (BigInt('0x' + account.toString('hex')) !== key) throw new Error('an AccountBlock is filed under another account');
    for (const tx of hashmapEntries(value, 64, skipCurrencyCollection))
      out.push({ account, lt: tx.key, cell: tx.value.loadRef(), path: [extra, accountBlocks, ...path, ...tx.path] });
  }
  return out;
}
