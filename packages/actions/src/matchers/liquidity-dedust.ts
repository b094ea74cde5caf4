import { type ActionDraft, type Matcher, type MatchContext, isFree, jettonOfWallet, nodeSet } from '../core.js';
import { coinsStr, dedustAsset, loadAddress, tryDecode } from '../decode.js';
import { DEDUST_LIQUIDITY as DL, DEX, OP } from '../opcodes.js';
import { bodyCell, bodySlice, childWithOp, normalizeAddress, subtree, txFailed, type TraceNode } from '../tree.js';
import type { DataValue, RawAddress } from '../types.js';
import { decodeInternalTransfer, decodeJettonTransfer } from './jettons.js';

/**
 * DeDust liquidity deposits, as the reference's `DedustDepositBlockMatcher` / `DedustDepositFirstAssetBlockMatcher`
 * read them. Each asset reaches its vault (TON by `deposit_liquidity#d55e4686`, jettons by a TEP-74 transfer whose
 * notification the vault gets), which asks the factory (`0xf04ec526`: owner, pool assets, target balances, this
 * deposit) to top up a deposit contract. A top-up that makes the contract deposit into the pool is the final deposit:
 * the pool mints LP jettons or rejects the pair (`0xe1a36cd4`, the vaults returning the assets to the owner); one
 * whose factory also deploys the contract and that goes no further is a partial deposit. A flow missing any of these
 * steps is none. A partial deposit and the final one into the same contract are merged into one action (not when a
 * contract takes more than two deposits in the trace).
 */
interface Deposit {
  factory: TraceNode;
  owner: RawAddress | null;
  asset0: RawAddress | null;
  asset1: RawAddress | null;
  target0: string;
  target1: string;
  asset: RawAddress | null;
  amount: string;
}

function readDeposit(factory: TraceNode): Deposit | null {
  const s = bodySlice(factory);
  if (!s) return null;
  return tryDecode(() => {
    s.skip(32 + 64);
    s.loadRef(); // vault proof
    const owner = loadAddress(s);
    s.skip(1); // is_stable
    const asset0 = dedustAsset(s);
    const asset1 = dedustAsset(s);
    const r = s.loadRef().beginParse();
    const target0 = coinsStr(r);
    const target1 = coinsStr(r);
    const asset = dedustAsset(r);
    return { factory, owner, asset0, asset1, target0, target1, asset, amount: coinsStr(r) };
  });
}

/** The vault's refund of an excess to the owner (a jetton transfer or a TON payout); a refund to anyone else is none. */
function vaultExcess(ctx: MatchContext, node: TraceNode, owner: RawAddress | null): Record<string, DataValue> | null {
  const transfer = node.children.find((c) => c.op === OP.JETTON_TRANSFER);
  if (transfer) {
    const req = decodeJettonTransfer(bodyCell(transfer.inMsg));
    return req && req.destination === owner ? { asset: jettonOfWallet(ctx, transfer.account), amount: req.amount } : null;
  }
  const payout = node.children.find((c) => c.op === DEX.DEDUST_PAYOUT);
  if (!payout || normalizeAddress(payout.inMsg?.destination) !== owner) return null;
  return { asset: null, amount: payout.inMsg?.value != null ? String(payout.inMsg.value) : null };
}

/** The vault step that asked the factory: TON deposited to the vault, or jettons whose TEP-74 transfer notified it. */
function vaultStep(factory: TraceNode): { vault: TraceNode; internal: TraceNode | null; transfer: TraceNode | null } | null {
  const vault = factory.parent;
  if (vault?.op === DL.DEPOSIT_TON_TO_VAULT) return { vault, internal: null, transfer: null };
  const internal = vault?.op === OP.JETTON_NOTIFY ? vault.parent : null;
  const transfer = internal?.op === OP.JETTON_INTERNAL_TRANSFER ? internal.parent : null;
  return vault && internal && transfer?.op === OP.JETTON_TRANSFER ? { vault, internal, transfer } : null;
}

interface Built {
  draft: ActionDraft;
  contract: RawAddress | null;
  final: boolean;
  /** the pool's pair as the deposit names it (targets), for the merge's consistency check */
  targets: [RawAddress | null, RawAddress | null];
}

function depositDraft(ctx: MatchContext, d: Deposit): Built | null {
  const step = vaultStep(d.factory);
  const deploy = childWithOp(d.factory, DL.DEPLOY_DEPOSIT_CONTRACT);
  const topUp = childWithOp(d.factory, DL.TOP_UP_DEPOSIT_CONTRACT);
  if (!step || !topUp) return null;
  const { vault, internal, transfer: userTransfer } = step;
  const toPool = childWithOp(topUp, DL.DEPOSIT_TO_POOL);
  const rejection = childWithOp(toPool, DL.REJECT_DEPOSIT);
  const rejected = !!rejection;
  const lpMint = toPool?.children.find((c) => c.op === OP.JETTON_INTERNAL_TRANSFER);
  // final: the pool minted LP or rejected the pair; partial: the factory deployed the contract, nothing went further
  if (toPool ? !lpMint && !rejected : !deploy || childWithOp(topUp, DL.REJECT_DEPOSIT)) return null;
  const poolNodes = toPool ? subtree(topUp) : [];
  const excesses = poolNodes
    .filter((n) => n.op === DL.RETURN_EXCESS_FROM_VAULT)
    .sort((a, b) => (BigInt(b.inMsg?.created_lt ?? 0) > BigInt(a.inMsg?.created_lt ?? 0) ? 1 : -1))
    .map((n) => vaultExcess(ctx, n, d.owner))
    .filter((e): e is Record<string, DataValue> => !!e);
  // the pool's own view of the pair (its asset order) once the deposit reaches it
  const pooled = toPool
    ? tryDecode(() => {
        const s = bodySlice(toPool)!;
        s.skip(32 + 64);
        s.loadRef();
        loadAddress(s);
        coinsStr(s);
        const r = s.loadRef().beginParse();
        return { asset0: dedustAsset(r), target0: coinsStr(r), asset1: dedustAsset(r), target1: coinsStr(r) };
      })
    : null;
  const targets = pooled ?? d;
  const nodes = nodeSet(
    userTransfer,
    internal,
    internal && childWithOp(internal, OP.EXCESS),
    vault,
    d.factory,
    deploy,
    topUp,
    ...poolNodes,
  );
  const data: Record<string, DataValue> = {
    dex: 'dedust',
    asset1: d.asset,
    amount1: d.amount,
    asset2: null,
    amount2: null,
    user_jetton_wallet_1: userTransfer?.account ?? null,
    user_jetton_wallet_2: null,
    lp_tokens_minted: lpMint && !rejected ? (decodeInternalTransfer(lpMint)?.amount ?? null) : null,
    target_asset_1: targets.asset0,
    target_amount_1: targets.target0,
    target_asset_2: targets.asset1,
    target_amount_2: targets.target1,
    vault_excesses: excesses,
  };
  return {
    contract: topUp.account,
    final: !!toPool,
    targets: [targets.asset0, targets.asset1],
    draft: {
      type: 'dex_deposit_liquidity',
      btype: toPool ? 'dedust_deposit_liquidity' : 'dedust_deposit_liquidity_partial',
      nodes,
      success: !rejected && !nodes.some(txFailed),
      fields: {
        source: d.owner,
        destination: toPool?.account ?? null,
        destination_secondary: topUp.account,
        dex_deposit_liquidity_data: data,
      },
    },
  };
}

export const dedustLiquidityMatcher: Matcher = {
  name: 'dedust-liquidity',
  match(ctx) {
    const built = ctx.tree.nodes
      .filter((n) => n.op === DL.CREATE_DEPOSIT && n.parent && isFree(ctx, n))
      .map(readDeposit)
      .filter((d): d is Deposit => !!d)
      .map((d) => depositDraft(ctx, d))
      .filter((b): b is Built => !!b);
    const perContract = new Map<RawAddress | null, number>();
    for (const b of built) perContract.set(b.contract, (perContract.get(b.contract) ?? 0) + 1);
    const merged = new Set<ActionDraft>();
    // the reference merges nothing when a contract takes more than two deposits
    if ([...perContract.values()].every((n) => n <= 2)) {
      for (const partial of built.filter((b) => !b.final)) {
        const final = built.find((b) => b.final && b.contract === partial.contract);
        const data = final && combineDeposits(partial, final);
        if (!final || !data) continue;
        final.draft.fields.dex_deposit_liquidity_data = data;
        final.draft.nodes = nodeSet(...final.draft.nodes, ...partial.draft.nodes);
        merged.add(partial.draft);
      }
    }
    return built.map((b) => b.draft).filter((d) => !merged.has(d) && isFree(ctx, ...d.nodes));
  },
};

const assetKey = (a: DataValue | undefined) => (a == null ? 'ton' : String(a));

/**
 * The reference's `combine_deposits`: both deposits must name the same pair, and together bring exactly its two
 * assets (the same asset twice adds up); the partial deposit's asset comes first, and the target assets follow that
 * order (target amounts stay the final deposit's). Anything else is left unmerged.
 */
function combineDeposits(partial: Built, final: Built): Record<string, DataValue> | null {
  const p = partial.draft.fields.dex_deposit_liquidity_data as Record<string, DataValue>;
  const f = final.draft.fields.dex_deposit_liquidity_data as Record<string, DataValue>;
  const pair = new Set(final.targets.map(assetKey));
  if (pair.size !== 2 || partial.targets.some((a) => !pair.has(assetKey(a)))) return null;
  const legs: { asset: DataValue; amount: bigint; wallet: DataValue }[] = [];
  for (const d of [p, f]) {
    const same = legs.find((l) => assetKey(l.asset) === assetKey(d.asset1));
    const amount = BigInt(String(d.amount1 ?? 0));
    if (!same) legs.push({ asset: d.asset1, amount, wallet: d.user_jetton_wallet_1 });
    else if (same.wallet !== d.user_jetton_wallet_1) return null;
    else same.amount += amount;
  }
  if (legs.length !== 2 || legs.some((l) => !pair.has(assetKey(l.asset)))) return null;
  return {
    ...f,
    asset1: legs[0].asset,
    amount1: String(legs[0].amount),
    user_jetton_wallet_1: legs[0].wallet,
    asset2: legs[1].asset,
    amount2: String(legs[1].amount),
    user_jetton_wallet_2: legs[1].wallet,
    target_asset_1: legs[0].asset,
    target_asset_2: legs[1].asset,
  };
}
