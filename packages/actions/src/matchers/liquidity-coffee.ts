import { type ActionDraft, flowDraft, opcodeMatcher, type MatchContext, jettonOfWallet, nodeSet } from '../core.js';
import { coffeeAsset, coinsStr, loadAddress, tryDecode } from '../decode.js';
import { COFFEE, OP } from '../opcodes.js';
import { bodySlice, childWithOp, logsWithOp, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import type { DataValue, RawAddress } from '../types.js';
import { decodeInternalTransfer } from './jettons.js';
import { Cell } from '@ton/core';

/**
 * Coffee liquidity: every asset goes to its vault, which registers it with the factory — for a deposit into a
 * depository contract (0xc0ffee27), for a new pool into a pool-creator contract (0xc0ffee23). The contract that
 * receives the second asset deposits into the pool (0xc0ffee29) or has the factory create it (0xc0ffee25).
 */
interface VaultStep {
  factory: TraceNode;
  /** the user's side: jetton transfer, internal transfer and excess, or the TON message to the native vault */
  entry: TraceNode[];
  userWallet: RawAddress | null;
  asset: RawAddress | null;
}

/**
 * The user's side of a vault's request to the factory, as the reference's Coffee matchers require it: the TON
 * message with one of the vault's own opcodes (`deposit_liquidity_native#c0ffee04` for a deposit,
 * `create_pool_native#c0ffee02` / `create_pool_extra#c0ffee03` for a pool creator), or a TEP-74 transfer whose
 * notification reached the vault. Anything else is no Coffee flow.
 */
function vaultStep(ctx: MatchContext, factory: TraceNode, nativeOps: number[]): VaultStep | null {
  const vault = factory.parent;
  if (!vault) return null;
  if (vault.op === OP.JETTON_NOTIFY) {
    const internal = vault.parent;
    const transfer = internal?.op === OP.JETTON_INTERNAL_TRANSFER ? internal.parent : null;
    if (!internal || transfer?.op !== OP.JETTON_TRANSFER) return null;
    return {
      factory,
      entry: nodeSet(transfer, internal, childWithOp(internal, OP.EXCESS), vault),
      userWallet: transfer.account,
      asset: jettonOfWallet(ctx, internal.account) ?? jettonOfWallet(ctx, transfer.account),
    };
  }
  if (vault.op === null || !nativeOps.includes(vault.op)) return null;
  // create_pool_extra: the reference names the asset by the message's sender
  const asset = vault.op === COFFEE.CREATE_POOL_EXTRA ? normalizeAddress(vault.inMsg?.source) : null;
  return { factory, entry: [vault], userWallet: null, asset };
}

function poolParams(s: ReturnType<Cell['beginParse']>): { first: RawAddress | null; second: RawAddress | null } {
  const first = coffeeAsset(s);
  const second = coffeeAsset(s);
  return { first, second };
}

function deposit(ctx: MatchContext, factory: TraceNode): ActionDraft | null {
  const step = vaultStep(ctx, factory, [COFFEE.DEPOSIT_LIQUIDITY_NATIVE]);
  const req = tryDecode(() => {
    const s = bodySlice(factory)!;
    s.skip(32 + 64);
    const amount = coinsStr(s);
    s.loadRef(); // trimmed params
    const pool = poolParams(s.loadRef().beginParse());
    return { amount, sender: loadAddress(s), ...pool };
  });
  const depository = childWithOp(factory, COFFEE.DEPLOY);
  // the deposited asset must be one of the pool's pair
  if (!step || !req || !depository || (step.asset !== req.first && step.asset !== req.second)) return null;
  const toPool = childWithOp(depository, COFFEE.DEPOSIT_LIQUIDITY_INTERNAL);
  const event = toPool && logsWithOp(toPool, COFFEE.DEPOSIT_LIQUIDITY_SUCCESSFUL_EVENT)[0];
  const lp = event?.body
    ? tryDecode(() => {
        const s = Cell.fromBase64(event.body!).beginParse();
        s.skip(32 + 64);
        coinsStr(s);
        coinsStr(s);
        return coinsStr(s);
      })
    : null;
  // without the pool's event, the LP minted as the reference falls back to it: the LP jettons' internal transfer
  const lpMint = toPool?.children.find((c) => c.op === OP.JETTON_INTERNAL_TRANSFER);
  const lpMinted = lp ?? (lpMint ? (decodeInternalTransfer(lpMint)?.amount ?? null) : null);
  const excesses: DataValue[] = (toPool?.children ?? [])
    .filter((c) => c.op === COFFEE.PAYOUT_INTERNAL)
    .map((vault) => {
      const amount = tryDecode(() => {
        const s = bodySlice(vault)!;
        s.skip(32 + 64);
        loadAddress(s);
        return coinsStr(s);
      });
      const transfer = vault.children.find((c) => c.op === OP.JETTON_TRANSFER);
      return { asset: transfer ? jettonOfWallet(ctx, transfer.account) : null, amount };
    });
  const other = step.asset === req.first ? req.second : req.first;
  const slot = step.asset === req.first ? 1 : 2;
  const mine = { asset: step.asset, amount: req.amount, wallet: step.userWallet };
  const none = { asset: null, amount: null, wallet: null };
  const [one, two] = slot === 1 ? [mine, none] : [none, mine];
  return flowDraft(
    'dex_deposit_liquidity',
    [...step.entry, factory, depository, ...(toPool ? subtree(toPool) : [])],
    {
      source: req.sender,
      destination: toPool?.account ?? null,
      destination_secondary: depository.account,
      dex_deposit_liquidity_data: {
        dex: 'coffee',
        asset1: one.asset,
        amount1: one.amount,
        user_jetton_wallet_1: one.wallet,
        asset2: two.asset,
        amount2: two.amount,
        user_jetton_wallet_2: two.wallet,
        target_asset_1: step.asset,
        target_amount_1: null,
        target_asset_2: other,
        target_amount_2: null,
        lp_tokens_minted: lpMinted,
        vault_excesses: excesses,
      },
    },
    { btype: 'coffee_deposit_liquidity' },
  );
}

function createPoolCreator(ctx: MatchContext, factory: TraceNode): { draft: ActionDraft; creator: TraceNode } | null {
  const step = vaultStep(ctx, factory, [COFFEE.CREATE_POOL_NATIVE, COFFEE.CREATE_POOL_EXTRA]);
  const req = tryDecode(() => {
    const s = bodySlice(factory)!;
    s.skip(32 + 64);
    const amount = coinsStr(s);
    const pool = poolParams(s);
    s.skip(3); // amm
    s.loadMaybeRef(); // amm settings
    const creation = s.loadRef().beginParse();
    return { amount, recipient: loadAddress(creation), sender: loadAddress(s), ...pool };
  });
  const creator = childWithOp(factory, COFFEE.DEPLOY);
  if (!step || !req || !creator) return null;
  const nodes = nodeSet(...step.entry, factory, creator);
  return {
    creator,
    draft: {
      type: 'coffee_create_pool_creator',
      nodes,
      success: !nodes.some(txFailed),
      fields: {
        source: req.sender,
        source_secondary: step.userWallet,
        destination: req.recipient,
        destination_secondary: creator.account,
        asset: step.asset,
        asset2: req.first,
        asset2_secondary: req.second,
        amount: req.amount,
      },
    },
  };
}

/** The creator holding both assets asks the factory to create the pool (0xc0ffee25 amount1 amount2), which mints LP. */
function createPool(built: { draft: ActionDraft; creator: TraceNode }): ActionDraft | null {
  const request = childWithOp(built.creator, COFFEE.CREATE_POOL_REQUEST);
  const amounts = tryDecode(() => {
    const s = bodySlice(request)!;
    s.skip(32 + 64);
    return { amount_1: coinsStr(s), amount_2: coinsStr(s) };
  });
  const pool = childWithOp(request, COFFEE.DEPLOY);
  const lpMint = pool?.children.find((c) => c.op === OP.JETTON_INTERNAL_TRANSFER);
  // the reference's CoffeeCreatePoolMatcher: the new pool mints LP and logs deposit_liquidity_successful_event
  if (!request || !amounts || !pool || !lpMint || !logsWithOp(pool, COFFEE.DEPOSIT_LIQUIDITY_SUCCESSFUL_EVENT).length) return null;
  const f = built.draft.fields;
  // reported from the side of the asset provided last: it comes first, with its amount
  const providedFirst = f.asset === f.asset2;
  const other = providedFirst ? f.asset2_secondary : f.asset2;
  return flowDraft(
    'coffee_create_pool',
    [...built.draft.nodes, ...subtree(request)],
    {
      source: f.source,
      source_secondary: f.source_secondary,
      destination: pool.account,
      destination_secondary: built.creator.account,
      asset: f.asset ?? null,
      asset2: other ?? null,
      amount: f.amount,
      coffee_create_pool_data: {
        amount_1: providedFirst ? amounts.amount_1 : amounts.amount_2,
        amount_2: providedFirst ? amounts.amount_2 : amounts.amount_1,
        initiator_1: null,
        initiator_2: null,
        provided_asset: f.asset ?? null,
        lp_tokens_minted: decodeInternalTransfer(lpMint)?.amount ?? null,
      },
    },
    { children: [built.draft] },
  );
}

export const coffeeLiquidityMatcher = opcodeMatcher('coffee-liquidity', [
  [COFFEE.CREATE_LIQUIDITY_DEPOSITORY_REQUEST, deposit],
  [
    COFFEE.CREATE_POOL_CREATOR_REQUEST,
    (ctx, node) => ((built) => built && (createPool(built) ?? built.draft))(createPoolCreator(ctx, node)),
  ],
]);
