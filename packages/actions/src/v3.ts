import type { ClassifiedAction, DataValue, V3Action } from './types.js';

/**
 * The classifier's storage form → the /api/v3/actions item (shared/fixtures/actions/README.md, "Internal fields →
 * v3 wire shape"). Each type lists where its generic columns go under `details`; `*_data` objects not listed
 * keep their sub-field names directly under `details`.
 */
type FieldMap = Record<string, string>;

const TRANSFER_PARTY: FieldMap = { source: 'source', destination: 'destination' };
const COCOON: FieldMap = { ...TRANSFER_PARTY, amount: 'amount' };

const DETAILS: Record<string, FieldMap> = {
  ton_transfer: {
    ...TRANSFER_PARTY,
    value: 'value',
    value_extra_currencies: 'value_extra_currencies',
    'ton_transfer_data.content': 'comment',
    'ton_transfer_data.encrypted': 'encrypted',
  },
  call_contract: { ...TRANSFER_PARTY, opcode: 'opcode', value: 'value', value_extra_currencies: 'extra_currencies' },
  contract_deploy: { ...TRANSFER_PARTY, opcode: 'opcode', value: 'value' },
  tick_tock: {},
  jetton_transfer: {
    asset: 'asset',
    source: 'sender',
    source_secondary: 'sender_jetton_wallet',
    destination: 'receiver',
    destination_secondary: 'receiver_jetton_wallet',
    amount: 'amount',
  },
  jetton_burn: { source: 'owner', source_secondary: 'owner_jetton_wallet', asset: 'asset', amount: 'amount' },
  jetton_mint: { asset: 'asset', amount: 'amount', value: 'ton_amount', destination: 'receiver', destination_secondary: 'receiver_jetton_wallet' },
  cocoon_client_increase_stake: COCOON,
  cocoon_client_request_refund: TRANSFER_PARTY,
  cocoon_client_top_up: COCOON,
  cocoon_grant_refund: COCOON,
  cocoon_proxy_payout: TRANSFER_PARTY,
  cocoon_unregister_proxy: { destination: 'destination' },
  cocoon_worker_payout: COCOON,
};

/** Generic columns a type without its own map shows under their own names. */
const DEFAULT_MAP: FieldMap = {
  source: 'source',
  source_secondary: 'source_secondary',
  destination: 'destination',
  destination_secondary: 'destination_secondary',
  asset: 'asset',
  asset2: 'asset2',
  amount: 'amount',
  value: 'value',
};

/** details fields the spec types as integers; every other integer travels as a decimal string. */
const INTEGER_FIELDS = new Set([
  'creator_index', 'expiration_date', 'signer_index', 'exit_code', 'approvals_num', 'period', 'nonce', 'worker_state',
  'flags', 'src_eid', 'dst_eid', 'send_request_id', 'native_fee', 'zro_fee',
]);

function wireValue(key: string, v: DataValue | undefined): DataValue {
  if (v === undefined) return null;
  if (key === 'opcode' && typeof v === 'number') return `0x${(v >>> 0).toString(16).padStart(8, '0')}`;
  if (typeof v === 'number' && Number.isInteger(v)) return INTEGER_FIELDS.has(key) ? v : String(v);
  if (typeof v === 'string' && INTEGER_FIELDS.has(key) && /^-?\d+$/.test(v)) return Number(v);
  if (Array.isArray(v)) return v.map((item) => wireValue(key, item));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, wireValue(k, x)]));
  return v;
}

function readField(action: ClassifiedAction, path: string): DataValue | undefined {
  const [head, tail] = path.split('.', 2) as [string, string | undefined];
  const v = (action as unknown as Record<string, DataValue | undefined>)[head];
  if (tail === undefined) return v;
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, DataValue>)[tail] : undefined;
}

export function v3Details(action: ClassifiedAction): Record<string, DataValue> {
  const map = DETAILS[action.type] ?? DEFAULT_MAP;
  const details: Record<string, DataValue> = {};
  const mappedData = new Set(Object.keys(map).filter((p) => p.includes('.')).map((p) => p.split('.')[0]));
  // unlisted *_data objects keep their sub-fields directly under details
  for (const [key, value] of Object.entries(action)) {
    if (!key.endsWith('_data') || mappedData.has(key) || !value || typeof value !== 'object' || Array.isArray(value)) continue;
    for (const [k, v] of Object.entries(value)) details[k] = wireValue(k, v as DataValue);
  }
  for (const [path, target] of Object.entries(map)) details[target] = wireValue(target, readField(action, path));
  return details;
}

/** One classified action in the /api/v3/actions item shape (`include_accounts` adds `accounts`). */
export interface V3Options {
  includeAccounts?: boolean;
  /** finality of the trace: indexed traces come from committed blocks (finalized); emulated ones are pending */
  finality?: V3Action['finality'];
}

export function toV3Action(action: ClassifiedAction, options: V3Options = {}): V3Action {
  const extra = action.value_extra_currencies && Object.keys(action.value_extra_currencies).length > 0;
  const out: V3Action = {
    trace_id: action.trace_id,
    action_id: action.action_id,
    start_lt: action.start_lt,
    end_lt: action.end_lt,
    start_utime: action.start_utime,
    end_utime: action.end_utime,
    trace_end_lt: action.trace_end_lt,
    trace_end_utime: action.trace_end_utime,
    trace_mc_seqno_end: action.trace_mc_seqno_end,
    transactions: [...action.tx_hashes],
    success: action.success,
    // the hosted API reports transfers and calls carrying extra currencies under their own type
    type: extra && (action.type === 'ton_transfer' || action.type === 'call_contract') ? 'extra_currency_transfer' : action.type,
    details: v3Details(action) as V3Action['details'],
    finality: options.finality ?? 'finalized',
  };
  if (action.trace_external_hash) out.trace_external_hash = action.trace_external_hash;
  if (action.trace_external_hash_norm) out.trace_external_hash_norm = action.trace_external_hash_norm;
  if (options.includeAccounts) out.accounts = [...action.accounts];
  return out;
}
