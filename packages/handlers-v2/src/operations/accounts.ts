import type { AccountState, ChainSource } from '@tongate/chain';
import type { v2 } from '@tongate/sdk';
import { type Address, beginCell, type Cell } from '@ton/core';
import { friendlyFlags } from '@tongate/stubs';
import { ApiError } from '../api-error.js';
import { resolveDns } from './dns.js';
import { b64, bocB64, formatBlockIdExt, formatExtraCurrencies, formatTransactionId, optionalBocB64, rawUpper } from '../format.js';
import { getTokenData } from '../tokens.js';
import { readAccount, readWallet, simpleStatus } from '@tongate/domain';
import { detectHighload, detectWallet, readHighloadData, readWalletData } from '@tongate/contracts';
import { type Deps, isTestnet, operation } from './common.js';

function loadState(chain: ChainSource, query: { address: Address; seqno?: number }): Promise<AccountState> {
  return readAccount(chain, query.address, query.seqno);
}

/** The address echoed back in results: raw input as `wc:HEX`, friendly input re-serialized url-safe with its flags. */
export function echoAddress(address: Address): string {
  const friendly = friendlyFlags(address);
  if (!friendly) return rawUpper(address);
  return address.toString({ urlSafe: true, bounceable: friendly.bounceable, testOnly: friendly.testOnly });
}

function accountStateVariant(state: AccountState): Pick<v2.ExtendedAddressInformation, 'revision' | 'account_state'> {
  const wallet = state.status === 'active' ? detectWallet(state.code) : null;
  const walletData = wallet ? readWalletData(wallet, state.data) : null;
  if (wallet && walletData && walletData.walletId !== undefined && (wallet.version === 3 || wallet.version === 4)) {
    return {
      revision: wallet.revision,
      account_state: {
        '@type': wallet.version === 3 ? 'wallet.v3.accountState' : 'wallet.v4.accountState',
        wallet_id: walletData.walletId,
        seqno: walletData.seqno,
      },
    };
  }
  const highload = state.status === 'active' ? detectHighload(state.code) : null;
  const highloadData = highload ? readHighloadData(highload, state.data) : null;
  if (highload && highloadData) {
    return {
      revision: highload.revision,
      account_state:
        highload.version === 1
          ? { '@type': 'wallet.highload.v1.accountState', wallet_id: highloadData.walletId, seqno: highloadData.seqno ?? 0 }
          : { '@type': 'wallet.highload.v2.accountState', wallet_id: highloadData.walletId },
    };
  }
  if (state.status !== 'active') {
    return { revision: 0, account_state: { '@type': 'uninited.accountState', frozen_hash: state.frozenHash ? b64(state.frozenHash) : '' } };
  }
  return {
    revision: 0,
    account_state: { '@type': 'raw.accountState', code: optionalBocB64(state.code), data: optionalBocB64(state.data), frozen_hash: '' },
  };
}

/** `account_none` with the last transaction's pointers: the ShardAccount of an account the state does not hold. */
function absentShardAccount(state: AccountState): Cell {
  const last = state.lastTransaction;
  return beginCell()
    .storeRef(beginCell().storeBit(0).endCell())
    .storeBuffer(last ? last.hash : Buffer.alloc(32))
    .storeUint(last ? last.lt : 0n, 64)
    .endCell();
}

export function accountOperations(deps: Deps) {
  const { chain } = deps;
  return {
    getAddressInformation: operation<'getAddressInformation'>(deps, async ({ query }) => {
      const state = await loadState(chain, query);
      return {
        '@type': 'raw.fullAccountState',
        balance: state.balance.toString(),
        extra_currencies: formatExtraCurrencies(state.extraCurrencies),
        code: optionalBocB64(state.code),
        data: optionalBocB64(state.data),
        last_transaction_id: formatTransactionId(state.lastTransaction),
        block_id: formatBlockIdExt(state.block),
        frozen_hash: state.frozenHash ? b64(state.frozenHash) : '',
        sync_utime: state.syncUtime,
        state: simpleStatus(state),
        suspended: false,
      };
    }),

    getExtendedAddressInformation: operation<'getExtendedAddressInformation'>(deps, async ({ query }) => {
      const state = await loadState(chain, query);
      return {
        '@type': 'fullAccountState',
        address: { '@type': 'accountAddress', account_address: echoAddress(query.address) },
        balance: state.balance.toString(),
        extra_currencies: formatExtraCurrencies(state.extraCurrencies),
        last_transaction_id: formatTransactionId(state.lastTransaction),
        block_id: formatBlockIdExt(state.block),
        sync_utime: state.syncUtime,
        ...accountStateVariant(state),
      };
    }),

    getWalletInformation: operation<'getWalletInformation'>(deps, async ({ query }) => {
      const { state, wallet } = await readWallet(chain, query.address, query.seqno);
      const data = wallet?.data;
      return {
        '@type': 'ext.accounts.walletInformation',
        wallet: wallet !== null,
        balance: state.balance.toString(),
        account_state: simpleStatus(state),
        last_transaction_id: formatTransactionId(state.lastTransaction),
        ...(wallet && data
          ? {
              wallet_type: wallet.kind.name,
              seqno: data.seqno,
              ...(data.walletId !== undefined ? { wallet_id: data.walletId } : {}),
              ...(data.isSignatureAllowed !== undefined ? { is_signature_allowed: data.isSignatureAllowed } : {}),
            }
          : {}),
      };
    }),

    getAddressBalance: operation<'getAddressBalance'>(deps, async ({ query }) => (await loadState(chain, query)).balance.toString()),

    getAddressState: operation<'getAddressState'>(deps, async ({ query }) => simpleStatus(await loadState(chain, query))),

    getShardAccountCell: operation<'getShardAccountCell'>(deps, async ({ query }) => {
      const state = await loadState(chain, query);
      return { '@type': 'tvm.cell', bytes: bocB64(state.shardAccount ?? absentShardAccount(state)) };
    }),

    dnsResolve: operation<'dnsResolve'>(deps, ({ query }) => resolveDns(chain, query)),

    getTokenData: operation<'getTokenData'>(deps, async ({ query, ctx }) => {
      const { address, seqno } = query;
      const state = await chain.getAccountState(address, seqno);
      if (state.status !== 'active') throw new ApiError(409, 'Smart contract is not Jetton or NFT');
      return getTokenData({ chain, address, echo: echoAddress(address), seqno, testOnly: isTestnet(ctx) });
    }),
  };
}
