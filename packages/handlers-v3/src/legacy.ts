import type { AccountState, ChainSource } from '@tongate/chain';
import {
  b64,
  bocB64,
  chainSubmitter,
  estimateExternalFees,
  mapChainErrors,
  readAccount,
  readWallet,
  runMethod,
  sendExternal,
  simpleStatus,
  type MessageSubmitter,
} from '@tongate/domain';
import type { v3 } from '@tongate/sdk';
import { ApiError, type V3Handlers } from '@tongate/stubs';
import { formatV3Entry, parseV3Stack } from './stack.js';

export type LegacyOperations = Pick<
  V3Handlers,
  'getAddressInformation' | 'getWalletInformation' | 'sendMessage' | 'estimateFee' | 'runGetMethod'
>;

export interface LegacyDeps {
  chain: ChainSource;
  /** How accepted external messages are sent (the pending-trace service emulates them first); default: the chain. */
  submitMessage?: MessageSubmitter;
}

/** v3 names the state of an account that never existed `uninit` (the v3 spec's rule), like an uninitialized one. */
function v3Status(state: AccountState): v3.AccountStatus {
  const status = simpleStatus(state);
  return status === 'uninitialized' ? 'uninit' : status;
}

function lastTransaction(state: AccountState) {
  return {
    last_transaction_lt: (state.lastTransaction?.lt ?? 0n).toString(),
    last_transaction_hash: b64(state.lastTransaction?.hash ?? Buffer.alloc(32)),
  };
}

/**
 * The five v2-style operations of API v3 (docs/wire.md: the hosted docs' v3 shapes, computed from the chain backend),
 * over the same domain reads as v2 and formatted here. `use_v2` is accepted and has nothing to switch: state
 * always comes from the chain, which the index only mirrors.
 */
export function legacyOperations({ chain, submitMessage }: LegacyDeps): LegacyOperations {
  const submit = submitMessage ?? chainSubmitter(chain);
  return {
    getAddressInformation: mapChainErrors(async ({ query }) => {
      const state = await readAccount(chain, query.address);
      return {
        status: 200,
        body: {
          balance: state.balance.toString(),
          code: state.code ? bocB64(state.code) : null,
          data: state.data ? bocB64(state.data) : null,
          ...lastTransaction(state),
          frozen_hash: state.frozenHash ? b64(state.frozenHash) : null,
          status: v3Status(state),
          suspended: false,
        },
      };
    }),

    getWalletInformation: mapChainErrors(async ({ query }) => {
      const { state, wallet } = await readWallet(chain, query.address);
      if (!wallet) throw new ApiError(409, 'not a wallet');
      return {
        status: 200,
        body: {
          balance: state.balance.toString(),
          wallet_type: wallet.kind.name,
          seqno: wallet.data.seqno,
          ...(wallet.data.walletId !== undefined ? { wallet_id: wallet.data.walletId } : {}),
          ...lastTransaction(state),
          status: v3Status(state),
          suspended: false,
        },
      };
    }),

    sendMessage: mapChainErrors(async ({ body }) => {
      const sent = await sendExternal(submit, body.boc);
      return { status: 200, body: { message_hash: b64(sent.hash), message_hash_norm: b64(sent.hashNorm) } };
    }),

    estimateFee: mapChainErrors(async ({ body }) => {
      const f = await estimateExternalFees(chain, body);
      const fees = {
        in_fwd_fee: Number(f.inFwdFee),
        storage_fee: Number(f.storageFee),
        gas_fee: Number(f.gasFee),
        fwd_fee: Number(f.fwdFee),
      };
      return { status: 200, body: { source_fees: fees, destination_fees: [] } };
    }),

    runGetMethod: mapChainErrors(async ({ body }) => {
      const r = await runMethod(chain, body, parseV3Stack);
      return { status: 200, body: { gas_used: Number(r.gasUsed), exit_code: r.exitCode, stack: r.stack.map(formatV3Entry) } };
    }),
  };
}
