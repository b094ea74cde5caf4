import type { ClassifiedAction } from '@tongate/actions';

/**
 * What event sources publish on the bus: one batch per source step (a committed masterchain block, a pending
 * trace's change of finality, an invalidation). Objects inside are already in the API v3 wire shapes; the hub only
 * filters and wraps them per subscriber.
 */

export type Network = 'mainnet' | 'testnet';
export type Finality = 'pending' | 'confirmed' | 'finalized';

export const FINALITY_RANK: Record<Finality, number> = { pending: 0, confirmed: 1, finalized: 2 };

/** An API v3 transaction as JSON (kept loose: the hub reads only `account`, `lt` and `hash`). */
export interface WireTransaction {
  account: string;
  hash: string;
  lt: string;
  [field: string]: unknown;
}

export interface WireTraceNode {
  tx_hash: string | null;
  in_msg_hash: string | null;
  children: WireTraceNode[] | null;
}

/** Transactions, actions and (when the trace is whole) the tree of one trace at one finality. */
export interface TraceItem {
  kind: 'trace';
  finality: Finality;
  /** Normalized hash of the trace's external message; null for traces without one (they match by address only). */
  hashNorm: string | null;
  transactions: WireTransaction[];
  /** Classified actions (with `accounts` and `ancestor_type`, what the filters need); empty until classified. */
  actions: ClassifiedAction[];
  /** The whole trace, once it is complete: its tree and every transaction by hash. */
  trace: { root: WireTraceNode; transactions: Record<string, WireTransaction> } | null;
}

export interface AccountStateItem {
  kind: 'account_state';
  finality: 'confirmed' | 'finalized';
  account: string;
  state: Record<string, unknown>;
}

export interface JettonItem {
  kind: 'jetton';
  finality: 'confirmed' | 'finalized';
  jetton: { address: string; owner: string; [field: string]: unknown };
}

export interface InvalidatedItem {
  kind: 'invalidated';
  hashNorm: string;
}

export type StreamItem = TraceItem | AccountStateItem | JettonItem | InvalidatedItem;

export interface StreamBatch {
  network: Network;
  /** The masterchain seqno of a finalized block's batch: the resume point of reconnecting subscribers. */
  mcSeqno?: number;
  items: StreamItem[];
  /** Address book entries (raw address → the API v3 `address_book` value) of the addresses the items name, when known. */
  addressBook?: Record<string, unknown>;
  /** Token metadata (raw address → the API v3 `metadata` value) of the token contracts the items name, when indexed. */
  metadata?: Record<string, unknown>;
}
