import { beginCell, storeShardAccount, type ShardAccount } from '@ton/core';
import type { AccountState } from './source.js';

/** The block-independent part of an AccountState. */
export type AccountStateFields = Omit<AccountState, 'address' | 'block' | 'syncUtime'>;

const bigintHash = (v: bigint) => Buffer.from(v.toString(16).padStart(64, '0'), 'hex');

/**
 * An account's ShardAccount as AccountState fields, the same for every backend. No ShardAccount, no account in it,
 * or the empty placeholder (uninit, no balance, no transaction) read as 'nonexist'.
 */
export function accountStateFields(sa: ShardAccount | null): AccountStateFields {
  const acc = sa?.account;
  const lastTransaction = sa && sa.lastTransactionLt > 0n ? { lt: sa.lastTransactionLt, hash: bigintHash(sa.lastTransactionHash) } : null;
  const placeholder = acc && acc.storage.state.type === 'uninit' && acc.storage.balance.coins === 0n && sa!.lastTransactionLt === 0n;
  if (!sa || !acc || placeholder) {
    return {
      status: 'nonexist',
      balance: 0n,
      extraCurrencies: [],
      code: null,
      data: null,
      frozenHash: null,
      lastTransaction,
      shardAccount: null,
    };
  }
  const state = acc.storage.state;
  const other = acc.storage.balance.other;
  return {
    status: state.type === 'active' ? 'active' : state.type === 'frozen' ? 'frozen' : 'uninitialized',
    balance: acc.storage.balance.coins,
    extraCurrencies: other ? other.keys().map((id) => ({ id, amount: other.get(id)! })) : [],
    code: state.type === 'active' ? (state.state.code ?? null) : null,
    data: state.type === 'active' ? (state.state.data ?? null) : null,
    frozenHash: state.type === 'frozen' ? bigintHash(state.stateHash) : null,
    lastTransaction,
    shardAccount: beginCell().store(storeShardAccount(sa)).endCell(),
  };
}
