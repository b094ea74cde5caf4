import type { ChainSource } from '@tongate/chain';
import { runMethod } from '@tongate/handlers-v2';
import type { v3 } from '@tongate/sdk';
import { ApiError, type V2Handlers, type V3Handlers } from '@tongate/stubs';
import { formatV3Entry, parseV3Stack } from './stack.js';

export type LegacyOperations = Pick<V3Handlers, 'getAddressInformation' | 'getWalletInformation' | 'sendMessage' | 'estimateFee' | 'runGetMethod'>;

export interface LegacyDeps {
  chain: ChainSource;
  /** The same network's v2 operations: the v2-style v3 endpoints answer what they answer, in v3 shapes. */
  v2: V2Handlers;
}

/** v2 account states as v3 names them; an account that never existed reads as uninit (the v3 spec's rule). */
const STATUS: Record<string, v3.AccountStatus> = { active: 'active', frozen: 'frozen', uninitialized: 'uninit' };

function status(v2State: string): v3.AccountStatus {
  const s = STATUS[v2State];
  if (!s) throw new Error(`unexpected v2 account state: ${v2State}`);
  return s;
}

/** The result of a v2 operation's 200 envelope (v2 operations answer 200 or throw ApiError). */
type ResultIn<B> = B extends { result: infer R } ? R : never;

function resultOf<T extends { status: number; body: unknown }>(reply: T): ResultIn<T['body']> {
  const body = reply.body as { ok?: boolean; result?: unknown };
  if (reply.status !== 200 || body.ok !== true) throw new Error(`v2 operation answered ${reply.status}`);
  return body.result as never;
}

/**
 * The five v2-style operations of API v3 (WIRE.md: the hosted docs' v3 shapes, computed from the chain backend).
 * `use_v2` is accepted and has nothing to switch: state always comes from the chain, which the index only mirrors.
 */
export function legacyOperations({ chain, v2 }: LegacyDeps): LegacyOperations {
  return {
    async getAddressInformation({ query, ctx }) {
      const r = resultOf(await v2.getAddressInformation({ query: { address: query.address }, ctx }));
      return {
        status: 200,
        body: {
          balance: r.balance,
          code: r.code === '' ? null : r.code,
          data: r.data === '' ? null : r.data,
          last_transaction_lt: r.last_transaction_id.lt,
          last_transaction_hash: r.last_transaction_id.hash,
          frozen_hash: r.frozen_hash === '' ? null : r.frozen_hash,
          status: status(r.state),
          suspended: r.suspended ?? false,
        },
      };
    },

    async getWalletInformation({ query, ctx }) {
      const r = resultOf(await v2.getWalletInformation({ query: { address: query.address }, ctx }));
      if (!r.wallet || r.wallet_type === undefined || r.seqno === undefined) throw new ApiError(409, 'not a wallet');
      return {
        status: 200,
        body: {
          balance: r.balance,
          wallet_type: r.wallet_type,
          seqno: r.seqno,
          ...(r.wallet_id !== undefined ? { wallet_id: r.wallet_id } : {}),
          last_transaction_lt: r.last_transaction_id.lt,
          last_transaction_hash: r.last_transaction_id.hash,
          status: status(r.account_state),
          suspended: false,
        },
      };
    },

    async sendMessage({ body, ctx }) {
      const r = resultOf(await v2.sendBocReturnHash({ body: { boc: body.boc }, ctx }));
      return { status: 200, body: { message_hash: r.hash, message_hash_norm: r.hash_norm } };
    },

    async estimateFee({ body, ctx }) {
      const r = resultOf(await v2.estimateFee({ body, ctx }));
      const fees = ({ in_fwd_fee, storage_fee, gas_fee, fwd_fee }: v3.EstimatedFee) => ({ in_fwd_fee, storage_fee, gas_fee, fwd_fee });
      return { status: 200, body: { source_fees: fees(r.source_fees), destination_fees: r.destination_fees.map(fees) } };
    },

    async runGetMethod({ body }) {
      const r = await runMethod(chain, { address: body.address, method: body.method, stack: body.stack }, parseV3Stack);
      return { status: 200, body: { gas_used: Number(r.gasUsed), exit_code: r.exitCode, stack: r.stack.map(formatV3Entry) } };
    },
  };
}
