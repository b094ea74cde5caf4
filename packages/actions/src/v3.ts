import type { ClassifiedAction, DataValue, V3Action } from './types.js';

/**
 * The classifier's storage form → the /api/v3/actions item (the reference classifier's internal fields and where
 * the v3 wire carries each). Each type lists where its generic columns go under `details`; `*_data` objects not listed
 * keep their sub-field names directly under `details`.
 */
/** internal path → details field; null drops a `*_data` sub-field the wire does not carry */
type FieldMap = Record<string, string | null>;

const TRANSFER_PARTY: FieldMap = { source: 'source', destination: 'destination' };
const COCOON: FieldMap = { ...TRANSFER_PARTY, amount: 'amount' };
const DNS_ITEM: FieldMap = { source: 'source', destination: 'asset', asset: 'nft_collection' };
const NFT_TRANSFER: FieldMap = {
  asset: 'nft_collection',
  asset_secondary: 'nft_item',
  source: 'old_owner',
  destination: 'new_owner',
  'nft_transfer_data.real_prev_owner': 'real_old_owner',
};
const STAKING: FieldMap = {
  source: 'stake_holder',
  destination: 'pool',
  amount: 'amount',
  asset: 'asset',
  'staking_data.ts_nft': 'payout_nft',
};
const JVAULT_UNSTAKE: FieldMap = {
  source: 'source',
  source_secondary: 'stake_wallet',
  destination: 'pool',
  amount: 'amount',
  opcode: 'exit_code',
  asset: 'asset',
  asset2: 'staking_asset',
};
const TGBTC_BURN: FieldMap = {
  source: 'source',
  source_secondary: 'source_wallet',
  destination: 'destination',
  amount: 'amount',
  asset: 'asset',
};
const TGBTC_MINT: FieldMap = {
  source: 'source',
  destination: 'destination',
  amount: 'amount',
  asset: 'asset',
  asset_secondary: 'bitcoin_tx_id',
  destination_secondary: 'destination_wallet',
};
const TGBTC_NEW_KEY: FieldMap = {
  source: 'source',
  source_secondary: 'pubkey',
  destination: 'coordinator',
  destination_secondary: 'pegout',
  amount: 'amount',
  asset: 'asset',
};

const COFFEE_STAKING: FieldMap = {
  source: 'source',
  source_secondary: 'source_jetton_wallet',
  destination: 'pool',
  destination_secondary: 'pool_jetton_wallet',
  asset: 'asset',
  amount: 'amount',
};

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
  unknown: {},
  jetton_transfer: {
    asset: 'asset',
    source: 'sender',
    source_secondary: 'sender_jetton_wallet',
    destination: 'receiver',
    destination_secondary: 'receiver_jetton_wallet',
    amount: 'amount',
  },
  jetton_burn: { source: 'owner', source_secondary: 'owner_jetton_wallet', asset: 'asset', amount: 'amount' },
  jetton_mint: {
    asset: 'asset',
    amount: 'amount',
    value: 'ton_amount',
    destination: 'receiver',
    destination_secondary: 'receiver_jetton_wallet',
  },
  jetton_swap: { source: 'sender', asset: 'asset_in', asset2: 'asset_out' },
  dex_deposit_liquidity: {
    source: 'source',
    destination: 'pool',
    'dex_deposit_liquidity_data.amount1': 'amount_1',
    'dex_deposit_liquidity_data.amount2': 'amount_2',
    'dex_deposit_liquidity_data.asset1': 'asset_1',
    'dex_deposit_liquidity_data.asset2': 'asset_2',
  },
  dex_withdraw_liquidity: {
    source: 'source',
    destination: 'pool',
    'dex_withdraw_liquidity_data.amount1': 'amount_1',
    'dex_withdraw_liquidity_data.amount2': 'amount_2',
    'dex_withdraw_liquidity_data.asset1_out': 'asset_1',
    'dex_withdraw_liquidity_data.asset2_out': 'asset_2',
    'dex_withdraw_liquidity_data.burned_nft_index': 'burnt_nft_index',
    'dex_withdraw_liquidity_data.burned_nft_address': 'burnt_nft_address',
    'dex_withdraw_liquidity_data.dex_jetton_wallet_1': null,
    'dex_withdraw_liquidity_data.dex_jetton_wallet_2': null,
    'dex_withdraw_liquidity_data.dex_wallet_1': null,
    'dex_withdraw_liquidity_data.dex_wallet_2': null,
  },
  nft_transfer: NFT_TRANSFER,
  nft_purchase: NFT_TRANSFER,
  nft_put_on_sale: { asset: 'nft_collection', asset_secondary: 'nft_item' },
  nft_put_on_auction: { asset: 'nft_collection', asset_secondary: 'nft_item' },
  nft_cancel_sale: { asset: 'nft_collection', asset_secondary: 'nft_item' },
  nft_cancel_auction: { asset: 'nft_collection', asset_secondary: 'nft_item' },
  nft_finish_auction: { asset: 'nft_collection', asset_secondary: 'nft_item' },
  nft_update_sale: { source: 'owner', asset_secondary: 'nft_item' },
  teleitem_start_auction: { asset: 'nft_collection', asset_secondary: 'nft_item' },
  teleitem_cancel_auction: { asset: 'nft_collection', asset_secondary: 'nft_item' },
  dns_purchase: NFT_TRANSFER,
  dns_release: { source: 'source', asset: 'nft_collection', asset_secondary: 'nft_item', value: 'value' },
  nft_mint: { source: 'owner', asset: 'nft_collection', asset_secondary: 'nft_item' },
  nft_discovery: { source: 'source', asset: 'nft_collection', asset_secondary: 'nft_item' },
  auction_bid: { source: 'bidder', destination: 'auction', value: 'amount', asset_secondary: 'nft_item', asset: 'nft_collection' },
  auction_outbid: { source: 'new_bidder', destination: 'bidder', value: 'amount', asset_secondary: 'nft_item', asset: 'nft_collection' },
  change_dns: DNS_ITEM,
  delete_dns: { ...DNS_ITEM, 'change_dns_record_data.key': 'hash' },
  renew_dns: DNS_ITEM,
  subscribe: { source: 'subscriber', destination: 'beneficiary', destination_secondary: 'subscription', amount: 'amount' },
  unsubscribe: { source: 'subscriber', destination: 'beneficiary', destination_secondary: 'subscription', amount: 'amount' },
  election_deposit: { source: 'stake_holder', amount: 'amount' },
  election_recover: { source: 'stake_holder', amount: 'amount' },
  stake_deposit: { ...STAKING, 'staking_data.tokens_burnt': null },
  stake_withdrawal: STAKING,
  stake_withdrawal_request: { ...STAKING, amount: null, 'staking_data.tokens_minted': null },
  evaa_supply: {
    source: 'source',
    source_secondary: 'source_wallet',
    destination: 'recipient',
    destination_secondary: 'recipient_contract',
    asset: 'asset',
    amount: 'amount',
  },
  evaa_withdraw: {
    source: 'source',
    destination: 'recipient',
    destination_secondary: 'owner_contract',
    asset: 'asset',
    amount: 'amount',
    'evaa_withdraw_data.is_ton': null,
  },
  evaa_liquidate: {
    source: 'source',
    destination: 'borrower',
    destination_secondary: 'borrower_contract',
    asset: 'collateral',
    amount: 'amount',
  },
  jvault_claim: {
    source: 'source',
    source_secondary: 'stake_wallet',
    destination: 'pool',
    'jvault_claim_data.claimed_jettons': null,
    'jvault_claim_data.claimed_amounts': null,
  },
  jvault_stake: { source: 'source', source_secondary: 'source_jetton_wallet', asset: 'asset', destination: 'pool', amount: 'amount' },
  jvault_unstake: JVAULT_UNSTAKE,
  jvault_unstake_request: JVAULT_UNSTAKE,
  layerzero_commit_packet: {
    source: 'sender',
    source_secondary: 'endpoint',
    destination: 'uln',
    destination_secondary: 'uln_connection',
    asset: 'channel',
    asset_secondary: 'msglib_connection',
  },
  layerzero_dvn_verify: { source: 'initiator' },
  layerzero_receive: { source: 'sender', destination: 'oapp', destination_secondary: 'channel' },
  layerzero_send: { source: 'initiator' },
  layerzero_send_tokens: {
    source: 'sender',
    source_secondary: 'sender_wallet',
    destination: 'oapp',
    destination_secondary: 'oapp_wallet',
    asset: 'asset',
    amount: 'amount',
  },
  tgbtc_burn: TGBTC_BURN,
  tgbtc_burn_fallback: TGBTC_BURN,
  tgbtc_mint: TGBTC_MINT,
  tgbtc_mint_fallback: TGBTC_MINT,
  tgbtc_new_key: TGBTC_NEW_KEY,
  tgbtc_new_key_fallback: TGBTC_NEW_KEY,
  tgbtc_dkg_log_fallback: { source: 'coordinator', asset: 'pubkey', value: 'timestamp' },
  tonco_deploy_pool: {
    source: 'source',
    destination: 'router',
    destination_secondary: 'pool',
    'tonco_deploy_pool_data.jetton0_router_wallet': 'router_jetton_wallet_1',
    'tonco_deploy_pool_data.jetton1_router_wallet': 'router_jetton_wallet_2',
    'tonco_deploy_pool_data.jetton0_minter': 'jetton_minter_1',
    'tonco_deploy_pool_data.jetton1_minter': 'jetton_minter_2',
  },
  coffee_create_pool: {
    source: 'source',
    source_secondary: 'source_jetton_wallet',
    amount: 'amount',
    destination: 'pool',
    asset: 'asset_1',
    asset2: 'asset_2',
    destination_secondary: 'pool_creator_contract',
  },
  coffee_create_pool_creator: {
    source: 'source',
    source_secondary: 'source_jetton_wallet',
    destination: 'deposit_recipient',
    destination_secondary: 'pool_creator_contract',
    asset: 'asset_1',
    asset2: 'asset_2',
    amount: 'amount',
  },
  coffee_mev_protect_hold_funds: {
    source: 'source',
    source_secondary: 'source_jetton_wallet',
    destination: 'mev_contract',
    destination_secondary: 'mev_contract_jetton_wallet',
    asset: 'asset',
    amount: 'amount',
  },
  // the hosted API has no details of its own for it: the reference stores the recipient and the asset, named here
  // as the other coffee actions name a recipient
  coffee_mev_protect_failed_swap: { destination: 'recipient', asset: 'asset' },
  coffee_staking_claim_rewards: {
    source: 'pool',
    source_secondary: 'pool_jetton_wallet',
    destination: 'recipient',
    destination_secondary: 'recipient_jetton_wallet',
    asset: 'asset',
    amount: 'amount',
  },
  coffee_staking_deposit: COFFEE_STAKING,
  coffee_staking_withdraw: COFFEE_STAKING,
  coffee_create_vault: { source: 'source', destination: 'vault', asset: 'asset', value: 'value' },
  vesting_send_message: { source: 'source', destination: 'vesting', destination_secondary: 'destination', amount: 'amount' },
  vesting_add_whitelist: { source: 'source', destination: 'vesting' },
  multisig_create_order: { ...TRANSFER_PARTY, destination_secondary: 'destination_order' },
  multisig_approve: TRANSFER_PARTY,
  multisig_execute: TRANSFER_PARTY,
  cocoon_client_increase_stake: COCOON,
  cocoon_client_withdraw: COCOON,
  cocoon_client_request_refund: TRANSFER_PARTY,
  cocoon_client_top_up: COCOON,
  cocoon_grant_refund: COCOON,
  cocoon_proxy_payout: TRANSFER_PARTY,
  cocoon_unregister_proxy: { destination: 'destination' },
  cocoon_register_proxy: { destination: 'destination' },
  cocoon_proxy_charge: TRANSFER_PARTY,
  cocoon_client_register: TRANSFER_PARTY,
  cocoon_client_change_secret_hash: TRANSFER_PARTY,
  cocoon_worker_payout: COCOON,
};

/** `*_data` objects the wire carries as objects, not spread into details. */
const NESTED_DATA = new Set(['layerzero_send_data', 'layerzero_packet_data']);

/** The few details whose presence depends on the action's own values (README "when …" rows). */
function adjust(action: ClassifiedAction, details: Record<string, DataValue>): void {
  const provider = (action.staking_data as { provider?: string } | undefined)?.provider;
  if (action.type === 'jetton_swap' && details.dex !== 'tonco') delete details.min_out_amount;
  if (action.type === 'dex_deposit_liquidity') {
    details.destination_liquidity = details.dex === 'dedust' ? (action.destination_secondary ?? null) : null;
  }
  if (action.type === 'stake_deposit' && provider === 'ethena') details.source_asset = action.asset2 ?? null;
  if (action.type === 'stake_withdrawal_request') {
    if (provider === 'ethena')
      details.tokens_minted = ((action.staking_data as Record<string, DataValue>).tokens_minted ?? null) as DataValue;
    else details.tokens_burnt = action.amount ?? null;
  }
  if (action.type === 'jvault_claim') {
    const data = action.jvault_claim_data as { claimed_jettons?: DataValue[]; claimed_amounts?: DataValue[] } | undefined;
    details.claimed_rewards = (data?.claimed_jettons ?? []).map((jetton, i) => ({ jetton, amount: data?.claimed_amounts?.[i] ?? null }));
  }
  if (action.type === 'change_dns') {
    const d = action.change_dns_record_data as Record<string, DataValue> | undefined;
    const schema = (d?.value_schema ?? null) as string | null;
    const slot: Record<string, string> = {
      DNSNextResolver: 'dns_next_resolver_address',
      DNSAdnlAddress: 'dns_adnl_address',
      DNSSmcAddress: 'dns_smc_address',
      DNSStorageAddress: 'dns_storage_address',
      DNSText: 'dns_storage_address',
    };
    const value: Record<string, DataValue> = {
      sum_type: schema,
      dns_smc_address: null,
      dns_adnl_address: null,
      dns_text: null,
      dns_next_resolver_address: null,
      dns_storage_address: null,
      flags: (d?.flags ?? null) as DataValue,
    };
    if (schema && slot[schema]) value[slot[schema]] = (d?.value ?? null) as DataValue;
    details.value = value;
    for (const k of ['value_schema', 'flags']) delete details[k];
  }
}

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
  'creator_index',
  'expiration_date',
  'signer_index',
  'exit_code',
  'approvals_num',
  'period',
  'nonce',
  'worker_state',
  'flags',
  'src_eid',
  'dst_eid',
  'send_request_id',
  'native_fee',
  'zro_fee',
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
  // *_data objects keep their sub-fields directly under details, unless the wire nests them
  for (const [key, value] of Object.entries(action)) {
    if (!key.endsWith('_data') || !value || typeof value !== 'object' || Array.isArray(value)) continue;
    if (NESTED_DATA.has(key)) {
      details[key] = wireValue(key, value as DataValue);
      continue;
    }
    for (const [k, v] of Object.entries(value)) details[k] = wireValue(k, v as DataValue);
  }
  for (const [path, target] of Object.entries(map)) {
    const sub = path.includes('.') ? path.split('.')[1] : null;
    if (sub) delete details[sub];
    if (target) details[target] = wireValue(target, readField(action, path));
  }
  adjust(action, details);
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
