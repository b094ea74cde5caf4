import type { v3 } from '@tongate/sdk';

/**
 * Input and output of the classifier.
 *
 * Input: one complete trace as the indexer stores it — the trace row, every transaction with its inbound and
 * outbound messages (bodies as base64 BOCs) and what is known about the accounts involved. The shapes follow the
 * indexer's rows (and so the golden fixtures in packages/testdata/fixtures/actions), so the indexer can hand its rows over as
 * they are.
 *
 * Output: actions in the classifier's own form (`ClassifiedAction`: generic columns source/destination/asset/…
 * plus per-type `*_data` objects, as the reference indexer stores them); `toV3Action` turns one into the
 * /api/v3/actions item shape.
 */

/** Raw address `wc:HEX` (any case on input; the classifier writes upper-case hex). */
export type RawAddress = string;

export interface TraceRow {
  trace_id: string;
  external_hash: string | null;
  external_hash_norm?: string | null;
  mc_seqno_start: number;
  mc_seqno_end: number;
  start_lt: number | string;
  end_lt: number | string;
  start_utime: number;
  end_utime: number;
  state: 'complete' | 'pending' | 'broken' | string;
}

export interface TraceMessage {
  direction: 'in' | 'out';
  msg_hash: string;
  source: RawAddress | null;
  destination: RawAddress | null;
  /** nanoTON; null for external messages */
  value: number | string | null;
  value_extra_currencies?: Record<string, number | string> | null;
  fwd_fee?: number | string | null;
  bounce?: boolean | null;
  bounced?: boolean | null;
  created_lt?: number | string | null;
  created_at?: number | null;
  /** First 32 bits of the body as a signed 32-bit integer (as the indexer stores it), null for shorter bodies. */
  opcode: number | null;
  body_hash?: string | null;
  /** base64 BOC of the body */
  body: string | null;
  init_state_hash?: string | null;
  /** base64 BOC of the attached StateInit */
  init_state?: string | null;
}

export interface TraceTransaction {
  hash: string;
  lt: number | string;
  account: RawAddress;
  now: number;
  mc_block_seqno: number | null;
  orig_status: string;
  end_status: string;
  aborted: boolean;
  destroyed?: boolean;
  compute_exit_code: number | null;
  /** tick-tock transactions have no inbound message */
  is_tock?: boolean | null;
  descr?: string;
  messages: TraceMessage[];
}

/** What the indexer knows about one account, by interface kind (JettonWallet, NftItem, NftSale, DedustPool, …). */
export type AccountInterfaces = Record<string, Record<string, unknown>>;

export interface TraceInput {
  trace: TraceRow;
  transactions: TraceTransaction[];
  /** raw address (upper-case) → interfaces; accounts without an entry are unknown */
  interfaces?: Record<RawAddress, AccountInterfaces>;
}

/** A scalar as the classifier writes it: integers beyond 2^53 are decimal strings. */
export type Scalar = string | number | boolean | null;
export type DataValue = Scalar | DataValue[] | { [key: string]: DataValue };

/** One action in the classifier's own (storage) form. Type-specific fields live under `<type>_data` keys. */
export interface ClassifiedAction {
  action_id: string;
  type: string;
  trace_id: string;
  tx_hashes: string[];
  accounts: RawAddress[];
  start_lt: string;
  end_lt: string;
  start_utime: number;
  end_utime: number;
  success: boolean;
  mc_seqno_end: number;
  trace_end_lt: string;
  trace_end_utime: number;
  trace_mc_seqno_end: number;
  trace_external_hash: string | null;
  trace_external_hash_norm: string | null;
  /** internal types of the enclosing actions when this one is nested */
  ancestor_type: string[] | null;
  parent_action_id: string | null;
  source?: RawAddress | null;
  source_secondary?: RawAddress | null;
  destination?: RawAddress | null;
  destination_secondary?: RawAddress | null;
  asset?: string | null;
  asset_secondary?: string | null;
  asset2?: string | null;
  asset2_secondary?: string | null;
  amount?: string | null;
  value?: string | number | null;
  opcode?: number | null;
  value_extra_currencies?: Record<string, string> | null;
  [data: `${string}_data`]: DataValue | undefined;
}

/** The /api/v3/actions item shape, as the spec generates it. */
export type V3Action = v3.Action;
