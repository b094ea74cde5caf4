import type { AccountState, ChainSource } from '@tongate/chain';
import { detectWallet, readWalletData, type WalletData, type WalletKind } from '@tongate/contracts';
import type { Address } from '@ton/core';

/**
 * The domain layer: what the chain says, as values both API versions format (v2 in src/operations, v3 in the v3
 * package). Nothing here knows a wire shape.
 */

/** An account's state at the latest (or the given) masterchain block. */
export function readAccount(chain: ChainSource, address: Address, seqno?: number): Promise<AccountState> {
  return chain.getAccountState(address, seqno);
}

/** An account read as a wallet: its state, and the wallet kind and data when the code is a known wallet. */
export interface WalletInfo {
  state: AccountState;
  wallet: { kind: WalletKind; data: WalletData } | null;
}

export async function readWallet(chain: ChainSource, address: Address, seqno?: number): Promise<WalletInfo> {
  const state = await readAccount(chain, address, seqno);
  const kind = state.status === 'active' ? detectWallet(state.code) : null;
  const data = kind ? readWalletData(kind, state.data) : null;
  return { state, wallet: kind && data ? { kind, data } : null };
}

/** An account status in the three words both APIs use: an account that never existed reads as uninitialized. */
export function simpleStatus(state: AccountState): 'active' | 'frozen' | 'uninitialized' {
  return state.status === 'active' || state.status === 'frozen' ? state.status : 'uninitialized';
}
