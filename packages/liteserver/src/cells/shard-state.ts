import { beginCell, Dictionary, ShardAccountRefValue, storeDepthBalanceInfo, type Cell, type ShardAccount, type Slice } from '@ton/core';
import { shardStateCell, type StateHead } from '@tongate/chain';
import { hashmapLookup } from './hashmap.js';

/**
 * ShardStateUnsplit: written with one account (account state proofs) or with a McStateExtra (mc-state-extra.ts);
 * read for an account's leaf and its custom part.
 */

const SHARD_STATE_TAG = 0x9023afe2;

export type { StateHead } from '@tongate/chain';

export function shardState(head: StateHead, accounts: Cell, custom: Cell | null): Cell {
  return shardStateCell(head, accounts, custom);
}

/** A ShardStateUnsplit whose accounts hold just the one account (a single-entry HashmapAugE has no fork extras to get wrong). */
export function buildAccountShardState(head: StateHead, accountId: Buffer, shardAccount: ShardAccount | null): Cell {
  const dict = Dictionary.empty(Dictionary.Keys.BigUint(256), ShardAccountRefValue);
  const depthBalance = { splitDepth: 0, balance: { coins: shardAccount?.account?.storage.balance.coins ?? 0n } };
  if (shardAccount) dict.set(BigInt('0x' + accountId.toString('hex')), { depthBalanceInfo: depthBalance, shardAccount });
  const accounts = beginCell().storeDict(dict).store(storeDepthBalanceInfo(depthBalance)).endCell();
  return shardState(head, accounts, null);
}

/** The ShardStateUnsplit inside a state proof (MerkleProof root or the state itself). */
export function stateOfProof(root: Cell): Cell {
  return root.isExotic ? root.refs[0] : root;
}

/** What a ShardStateUnsplit says of one account: its ShardAccount pointers (the Account itself may be pruned). */
export interface AccountLeaf {
  /** Hash of the Account cell (the `state` a liteserver sends must have it). */
  accountHash: Buffer;
  lastTransactionHash: bigint;
  lastTransactionLt: bigint;
}

const skipDepthBalance = (s: Slice) => {
  s.loadUint(5); // split_depth:(#<= 30)
  s.loadCoins();
  s.loadMaybeRef(); // extra currencies
};

/** The account's leaf in a (proof of a) ShardStateUnsplit, or null when the state shows it absent. */
export function findAccountLeaf(state: Cell, accountId: Buffer): AccountLeaf | null {
  const s = state.beginParse(true);
  if (s.loadUint(32) !== SHARD_STATE_TAG) throw new Error('not a ShardStateUnsplit');
  s.skip(32 + 104 + 32 + 32 + 32 + 64 + 32);
  s.loadRef();
  s.loadBit();
  const accounts = s.loadRef().beginParse(true);
  if (!accounts.loadBit()) return null;
  const leaf = hashmapLookup(accounts.loadRef(), accountId, 256, skipDepthBalance);
  if (!leaf) return null;
  const account = leaf.loadRef();
  return { accountHash: account.hash(0), lastTransactionHash: leaf.loadUintBig(256), lastTransactionLt: leaf.loadUintBig(64) };
}

/** The custom part of a (proof of a) ShardStateUnsplit (a masterchain state's McStateExtra), or null. */
export function customOfState(state: Cell): Cell | null {
  const s = state.beginParse();
  if (s.loadUint(32) !== SHARD_STATE_TAG) throw new Error('not a ShardStateUnsplit');
  s.skip(32 + 104 + 32 + 32 + 32 + 64 + 32);
  s.loadRef();
  s.loadBit();
  s.loadRef();
  s.loadRef();
  return s.loadMaybeRef();
}
