import { type ActionDraft, opcodeMatcher, flowDraft, type MatchContext, iface, jettonOfWallet, nodeSet } from '../core.js';
import { coinsStr, loadAddress, tryDecode, uintStr } from '../decode.js';
import { DEX, OP, TONCO, TONCO_PTON_MASTERS } from '../opcodes.js';
import { bodySlice, childWithOp, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import type { DataValue, RawAddress } from '../types.js';
import { decodeJettonNotify } from './jettons.js';

/**
 * TONCO (concentrated liquidity): pool deployment through the router, deposits (jettons to the router with a
 * fund-account payload, the pool minting a position NFT) and withdrawals (burning a position: the pool pays both
 * assets out through the router's wallets).
 */
function read<T>(node: TraceNode | undefined, decode: (s: NonNullable<ReturnType<typeof bodySlice>>) => T): T | null {
  const s = bodySlice(node);
  return s ? tryDecode(() => (s.skip(32 + 64), decode(s))) : null;
}

function assetOf(ctx: MatchContext, wallet: RawAddress | null | undefined): RawAddress | null {
  const jetton = jettonOfWallet(ctx, wallet);
  return jetton && TONCO_PTON_MASTERS.has(jetton) ? null : jetton;
}

function deployPool(createPool: TraceNode): ActionDraft | null {
  const init = childWithOp(createPool, TONCO.POOL_INIT);
  const req = read(createPool, (s) => {
    const wallet0 = loadAddress(s);
    const wallet1 = loadAddress(s);
    const tick_spacing = s.loadInt(24);
    const initial_price_x96 = uintStr(s, 160);
    const protocol_fee = s.loadUint(16);
    const lp_fee_base = s.loadUint(16);
    const lp_fee_current = s.loadUint(16);
    s.loadRef();
    s.loadRef();
    const minters = s.loadRef().beginParse();
    return {
      wallet0,
      wallet1,
      tick_spacing,
      initial_price_x96,
      protocol_fee,
      lp_fee_base,
      lp_fee_current,
      minter0: loadAddress(minters),
      minter1: loadAddress(minters),
    };
  });
  if (!init || !req) return null;
  return flowDraft('tonco_deploy_pool', [...subtree(createPool)], {
    source: normalizeAddress(createPool.inMsg?.source),
    destination: createPool.account,
    destination_secondary: init.account,
    tonco_deploy_pool_data: {
      jetton0_router_wallet: req.wallet0,
      jetton1_router_wallet: req.wallet1,
      jetton0_minter: req.minter0,
      jetton1_minter: req.minter1,
      tick_spacing: req.tick_spacing,
      initial_price_x96: req.initial_price_x96,
      protocol_fee: req.protocol_fee,
      lp_fee_base: req.lp_fee_base,
      lp_fee_current: req.lp_fee_current,
      pool_active: true,
    },
  });
}

function deposit(ctx: MatchContext, notify: TraceNode): ActionDraft | null {
  const fund = childWithOp(notify, TONCO.POOL_FUND_ACCOUNT);
  const note = decodeJettonNotify(notify);
  const funding = read(fund, (s) => {
    loadAddress(s);
    return { amount0: coinsStr(s), amount1: coinsStr(s) };
  });
  // the reference's ToncoDepositLiquidityMatcher: the account's add_liquidity#3ebe5431 after the pool's fund_account,
  // the funds from a TEP-74 transfer or a pTON ton_transfer#01f3835d notifying the router
  const account = childWithOp(fund, TONCO.ACCOUNT_ADD_LIQUIDITY);
  const input = notify.parent;
  const viaJetton = input?.op === OP.JETTON_INTERNAL_TRANSFER && input.parent?.op === OP.JETTON_TRANSFER;
  if (!fund || !note || !funding || !account || !(viaJetton || input?.op === DEX.PTON_TON_TRANSFER)) return null;
  const mint = childWithOp(account, TONCO.POOL_MINT_AND_REFUND);
  const nft = childWithOp(mint, TONCO.POSITION_NFT_INIT);
  const position = read(nft, (s) => {
    loadAddress(s);
    return { liquidity: uintStr(s, 128), tick_lower: s.loadInt(24), tick_upper: s.loadInt(24) };
  });
  const internal = notify.parent;
  const transfer = internal?.op === OP.JETTON_INTERNAL_TRANSFER ? internal.parent : null;
  const item = iface(ctx, nft?.account).NftItem as { index?: number | string } | undefined;
  const nodes = nodeSet(transfer, internal, internal && childWithOp(internal, OP.EXCESS), notify, ...subtree(fund));
  const data: Record<string, DataValue> = {
    dex: 'tonco',
    asset1: assetOf(ctx, internal?.account) ?? assetOf(ctx, transfer?.account),
    amount1: note.amount,
    user_jetton_wallet_1: transfer?.account ?? null,
    asset2: null,
    amount2: null,
    user_jetton_wallet_2: null,
    target_amount_1: funding.amount0,
    target_amount_2: funding.amount1,
    lp_tokens_minted: position?.liquidity ?? null,
    tick_lower: position?.tick_lower ?? null,
    tick_upper: position?.tick_upper ?? null,
    nft_index: item?.index != null ? String(item.index) : null,
    nft_address: nft?.account ?? null,
    vault_excesses: [],
  };
  return {
    type: 'dex_deposit_liquidity',
    btype: 'tonco_deposit_liquidity',
    nodes,
    // a first leg the account holds until the other asset comes is no failure (nothing mints yet)
    success: !nodes.some(txFailed),
    fields: {
      source: note.sender,
      source_secondary: transfer?.account ?? null,
      destination: fund.account,
      destination_secondary: account?.account ?? null,
      dex_deposit_liquidity_data: data,
    },
  };
}

/** pay_to#a1daa96d (exit code 201 when the burn is paid out): receivers, amounts per router wallet, and the burn it settles. */
function withdraw(ctx: MatchContext, startBurn: TraceNode): ActionDraft | null {
  const nftBurn = childWithOp(startBurn, TONCO.POSITION_NFT_BURN);
  const poolBurn = childWithOp(nftBurn, TONCO.POOL_BURN);
  const pay = childWithOp(poolBurn, TONCO.ROUTER_PAY_TO);
  const settled = read(pay, (s) => {
    loadAddress(s);
    loadAddress(s);
    const exitCode = s.loadUint(32);
    s.skip(64); // seqno
    const coins = s.loadMaybeRef()?.beginParse();
    const burn = s.loadMaybeRef()?.beginParse();
    return {
      exitCode,
      amount0: coins ? coinsStr(coins) : null,
      wallet0: coins ? loadAddress(coins) : null,
      amount1: coins ? coinsStr(coins) : null,
      wallet1: coins ? loadAddress(coins) : null,
      nft_index: burn ? uintStr(burn, 64) : null,
      liquidity: burn ? uintStr(burn, 128) : null,
      tick_lower: burn ? burn.loadInt(24) : null,
      tick_upper: burn ? burn.loadInt(24) : null,
    };
  });
  if (!nftBurn || !poolBurn || !pay || !settled) return null;
  const payoutOf = (wallet: RawAddress | null) => {
    const transfer = pay.children.find((c) => c.op === OP.JETTON_TRANSFER && c.account === wallet);
    const internal = childWithOp(transfer, OP.JETTON_INTERNAL_TRANSFER);
    const isTon = !assetOf(ctx, wallet) && !!transfer;
    return { transfer, internal, isTon };
  };
  const p0 = payoutOf(settled.wallet0);
  const p1 = payoutOf(settled.wallet1);
  const draft = flowDraft(
    'dex_withdraw_liquidity',
    [...subtree(startBurn)],
    {
      source: normalizeAddress(startBurn.inMsg?.source),
      source_secondary: null,
      destination: startBurn.account,
      asset: null,
      dex_withdraw_liquidity_data: {
        dex: 'tonco',
        amount1: settled.amount0,
        amount2: settled.amount1,
        asset1_out: assetOf(ctx, settled.wallet0),
        asset2_out: assetOf(ctx, settled.wallet1),
        user_jetton_wallet_1: p0.internal?.account ?? null,
        user_jetton_wallet_2: p1.internal?.account ?? null,
        dex_jetton_wallet_1: p0.isTon ? null : settled.wallet0,
        dex_jetton_wallet_2: p1.isTon ? null : settled.wallet1,
        dex_wallet_1: pay.account,
        dex_wallet_2: pay.account,
        lp_tokens_burnt: settled.liquidity,
        burned_nft_index: settled.nft_index,
        burned_nft_address: nftBurn.account,
        tick_lower: settled.tick_lower,
        tick_upper: settled.tick_upper,
        is_refund: false,
      },
    },
    { btype: 'tonco_withdraw_liquidity' },
  );
  // the reference's ToncoWithdrawLiquidityMatcher: failed when the router's pay_to carries another exit code than 0 or 201
  if (settled.exitCode !== 0 && settled.exitCode !== 201) draft.success = false;
  return draft;
}

export const toncoLiquidityMatcher = opcodeMatcher('tonco-liquidity', [
  [TONCO.ROUTER_CREATE_POOL, (_ctx, node) => deployPool(node)],
  [TONCO.POOL_START_BURN, withdraw],
  [OP.JETTON_NOTIFY, deposit],
]);
