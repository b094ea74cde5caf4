/**
 * Message opcodes the matchers key on (unsigned 32-bit), from the reference classifier's table
 * (shared/reference/specs/v3/message-opcodes.tsv).
 */
export const OP = {
  TEXT_COMMENT: 0x00000000,
  ENCRYPTED_COMMENT: 0x2167da4b,
  EXCESS: 0xd53276db,
  BOUNCE: 0xffffffff,

  JETTON_TRANSFER: 0x0f8a7ea5,
  JETTON_INTERNAL_TRANSFER: 0x178d4519,
  JETTON_NOTIFY: 0x7362d09c,
  JETTON_BURN: 0x595f07bc,
  JETTON_BURN_NOTIFICATION: 0x7bdd97de,
  JETTON_MINT: 0x642b7d07,
  MINTER_JETTON_MINT: 0x00000015,

  NFT_TRANSFER: 0x5fcc3d14,
  NFT_OWNERSHIP_ASSIGNED: 0x05138d91,

  COCOON_RETURN_EXCESSES_BACK: 0x2565934c,
  COCOON_PAYOUT: 0xc59a7cd3,
  COCOON_WORKER_PROXY_REQUEST: 0x4d725d2c,
  COCOON_CLIENT_PROXY_REQUEST: 0x65448ff4,
  COCOON_PAYOUT_PAYLOAD: 0xa040ad28,
  COCOON_LAST_PAYOUT_PAYLOAD: 0xf5f26a36,
  COCOON_UNREGISTER_PROXY: 0x6d49eaf2,
  COCOON_EXT_PROXY_PAYOUT_REQUEST: 0x7610e6eb,
  COCOON_EXT_CLIENT_TOP_UP: 0xf172e6c2,
  COCOON_OWNER_CLIENT_INCREASE_STAKE: 0x6a1f6a60,
  COCOON_OWNER_CLIENT_REQUEST_REFUND: 0xfafa6cc1,
  COCOON_GRANT_REFUND_PAYLOAD: 0xefd711e1,
  COCOON_OWNER_WALLET_SEND_MESSAGE: 0x9c69f376,
} as const;

export const TGBTC = {
  MINT_EVENT: 0x77a80ef3,
  BURN_EVENT: 0xca444ce6,
  NEW_KEY_EVENT: 0x27756729,
  DKG_COMPLETED_EVENT: 0x453443a6,
} as const;

export const EVAA = {
  SUPPLY_MASTER: 0x1,
  WITHDRAW_MASTER: 0x2,
  SUPPLY_SUCCESS: 0x11a,
  SUPPLY_FAIL: 0x11f,
  WITHDRAW_COLLATERALIZED: 0x211,
  /** sha256("TON"): the asset id EVAA gives Toncoin */
  TON_ASSET_ID: '1a4219fe5e60d63af2a3cc7dce6fec69b45c6b5718497a6148e7c232ac87bd8a',
  /** excesses a user contract returns when a withdrawal is refused, by reason */
  WITHDRAW_FAIL_EXCESS: new Map<number, string>([
    [0x21e6, 'withdraw_locked_excess'],
    [0x21e7, 'withdraw_not_collateralized_excess'],
    [0x21e8, 'withdraw_missing_prices_excess'],
    [0x21ec, 'withdraw_execution_crashed'],
    [0x211fe8, 'withdraw_no_funds_excess'],
  ]),
} as const;

export const JVAULT = {
  STAKE_PAYLOAD: 0xe3a06989,
  RECEIVE_JETTONS: 0xd68a4ac1,
  CANCEL_STAKE: 0x9eada1d9,
  UNSTAKE_JETTONS: 0x499a9262,
  UNSTAKE_REQUEST: 0x0168d4b7,
  CLAIM: 0x78d9f109,
  SEND_CLAIMED_REWARDS: 0x44bc1fe3,
  REQUEST_UPDATE_REWARDS: 0xf5c5baa3,
} as const;

export const VESTING = {
  SEND_MESSAGE: 0xa7733acd,
  SEND_MESSAGE_RESPONSE: 0xf7733acd,
  ADD_WHITELIST: 0x7258a69b,
  ADD_WHITELIST_RESPONSE: 0xf258a69b,
} as const;

export const STAKING = {
  TONSTAKERS_DEPOSIT_REQUEST: 0x47d54391,
  TONSTAKERS_MINT_JETTONS: 0x1674b0a0,
  TONSTAKERS_WITHDRAW_REQUEST: 0x319b0cdc,
  TONSTAKERS_POOL_WITHDRAWAL: 0x0a77535c,
  TONSTAKERS_NFT_BURN: 0xf127fe4e,
  TONSTAKERS_NFT_BURN_NOTIFICATION: 0xed58b0b2,
  TONSTAKERS_DISTRIBUTED_ASSET: 0xdb3b8abd,
  TONSTAKERS_START_DISTRIBUTION: 0x1140a64f,
  ETHENA_TIMELOCKED_TRANSFER: 0xb2583ed5,
} as const;

/** Marketplace contracts the classifier names. */
export const MARKETPLACES: ReadonlyMap<string, string> = new Map([
  ['0:584EE61B2DFF0837116D0FCB5078D93964BCBE9C05FD6A141B1BFCA5D6A43E18', 'getgems'],
]);
