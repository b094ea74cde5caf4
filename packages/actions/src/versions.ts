import type { ClassifiedAction } from './types.js';

/**
 * `supported_action_types` as the hosted API handles it (research-v3-anchor.md §4): clients name the action
 * types they understand, or shortcuts (v1…v4, latest, per-protocol groups). The API returns only actions of those
 * types, and hides a nested action when one of its ancestors' types is supported (the client shows the parent
 * instead). The `X-Actions-Version` header, when present, replaces the parameter.
 */
export const V1_TYPES = [
  'call_contract',
  'contract_deploy',
  'ton_transfer',
  'stake_deposit',
  'stake_withdrawal',
  'stake_withdrawal_request',
  'dex_deposit_liquidity',
  'jetton_transfer',
  'nft_transfer',
  'nft_mint',
  'jetton_burn',
  'jetton_mint',
  'jetton_swap',
  'change_dns',
  'delete_dns',
  'renew_dns',
  'subscribe',
  'dex_withdraw_liquidity',
  'unsubscribe',
  'election_deposit',
  'election_recover',
  'auction_bid',
  'tick_tock',
] as const;

const V2_ADDED = [
  'multisig_create_order',
  'multisig_approve',
  'multisig_execute',
  'vesting_send_message',
  'vesting_add_whitelist',
  'evaa_supply',
  'evaa_withdraw',
  'evaa_liquidate',
  'jvault_stake',
  'jvault_unstake',
  'jvault_claim',
  'jvault_unstake_request',
  'nft_discovery',
  'tonco_deploy_pool',
  'coffee_create_vault',
  'coffee_create_pool_creator',
  'coffee_create_pool',
  'coffee_mev_protect_hold_funds',
  'coffee_mev_protect_failed_swap',
  'coffee_staking_claim_rewards',
  'coffee_staking_deposit',
  'coffee_staking_withdraw',
  'unknown',
];

const V3_ADDED = [
  'nft_put_on_sale',
  'nft_put_on_auction',
  'auction_outbid',
  'nft_cancel_sale',
  'nft_purchase',
  'nft_cancel_auction',
  'nft_finish_auction',
  'teleitem_start_auction',
  'teleitem_cancel_auction',
  'nft_update_sale',
  'dns_purchase',
  'dns_release',
  'layerzero_send',
  'layerzero_send_tokens',
  'layerzero_receive',
  'layerzero_commit_packet',
  'layerzero_dvn_verify',
];

const COCOON_TYPES = [
  'cocoon_worker_payout',
  'cocoon_proxy_payout',
  'cocoon_proxy_charge',
  'cocoon_client_top_up',
  'cocoon_register_proxy',
  'cocoon_unregister_proxy',
  'cocoon_client_register',
  'cocoon_client_change_secret_hash',
  'cocoon_client_request_refund',
  'cocoon_grant_refund',
  'cocoon_client_increase_stake',
  'cocoon_client_withdraw',
];

const TGBTC_TYPES = [
  'tgbtc_mint',
  'tgbtc_mint_fallback',
  'tgbtc_burn',
  'tgbtc_burn_fallback',
  'tgbtc_new_key',
  'tgbtc_new_key_fallback',
  'tgbtc_dkg_log_fallback',
];

const V2_TYPES = [...V1_TYPES, ...V2_ADDED];
const V3_TYPES = [...V2_TYPES, ...V3_ADDED];
const V4_TYPES = [...V3_TYPES, ...COCOON_TYPES];

/** Shortcut → the types it stands for. */
export const ACTION_TYPE_SHORTCUTS: Readonly<Record<string, readonly string[]>> = {
  v1: V1_TYPES,
  v2: V2_TYPES,
  v3: V3_TYPES,
  v4: V4_TYPES,
  latest: V4_TYPES,
  staking: ['stake_deposit', 'stake_withdrawal', 'stake_withdrawal_request'],
  jettons: ['jetton_transfer', 'jetton_burn', 'jetton_mint', 'jetton_swap'],
  nft: ['nft_transfer', 'nft_mint', 'nft_discovery'],
  'nft.v3': [
    'nft_put_on_sale',
    'nft_put_on_auction',
    'auction_outbid',
    'nft_cancel_sale',
    'nft_purchase',
    'nft_cancel_auction',
    'nft_finish_auction',
    'nft_update_sale',
    'teleitem_start_auction',
    'teleitem_cancel_auction',
  ],
  dns: ['change_dns', 'delete_dns', 'renew_dns'],
  'dns.v2': ['dns_purchase', 'dns_release'],
  multisig: ['multisig_create_order', 'multisig_approve', 'multisig_execute'],
  vesting: ['vesting_send_message', 'vesting_add_whitelist'],
  evaa: ['evaa_supply', 'evaa_withdraw', 'evaa_liquidate'],
  jvault: ['jvault_stake', 'jvault_unstake', 'jvault_claim', 'jvault_unstake_request'],
  coffee: V2_ADDED.filter((t) => t.startsWith('coffee_')),
  tgbtc: TGBTC_TYPES,
  layerzero: V3_ADDED.filter((t) => t.startsWith('layerzero_')),
  cocoon: COCOON_TYPES,
};

/**
 * The set of types a request asks for: the header (`X-Actions-Version`) wins over the parameter; nothing given
 * means `latest`; v1 types are always included.
 */
export function expandSupportedActionTypes(requested: readonly string[] | undefined, header?: string | null): Set<string> {
  const raw = header?.trim() ? header.split(',') : requested?.length ? requested.flatMap((r) => r.split(',')) : ['latest'];
  const out = new Set<string>(V1_TYPES);
  for (const name of raw.map((r) => r.trim()).filter(Boolean)) {
    for (const t of ACTION_TYPE_SHORTCUTS[name] ?? [name]) out.add(t);
  }
  return out;
}

/**
 * Filters a trace's actions to what a client with these supported types sees: actions of supported types that
 * are not nested under a supported ancestor.
 */
export function visibleActions<T extends Pick<ClassifiedAction, 'type' | 'ancestor_type'>>(
  actions: readonly T[],
  supported: ReadonlySet<string>,
): T[] {
  return actions.filter((a) => supported.has(a.type) && !(a.ancestor_type ?? []).some((t) => supported.has(t)));
}
