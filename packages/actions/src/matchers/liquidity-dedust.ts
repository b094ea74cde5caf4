import { type ActionDraft, type Matcher, type MatchContext, isFree, jettonOfWallet, nodeSet } from '../core.js';
import { coinsStr, dedustAsset, loadAddress, tryDecode } from '../decode.js';
import { DEDUST_LIQUIDITY as DL, DEX, OP } from '../opcodes.js';
import { bodyCell, bodySlice, childWithOp, subtree, txFailed, type TraceNode } from '../tree.js';
import type { DataValue, RawAddress } from '../types.js';
import { decodeInternalTransfer, decodeJettonTransfer } from './jettons.js';

/**
 * DeDust liquidity deposits. Each asset goes to its vault, which asks the factory (0xf04ec526: owner, pool
 * assets, target balances, this deposit) to credit a deposit contract; once the contract holds both target
 * balances it deposits into the pool, which mints LP jettons (or rejects, and the vaults refund). Every vault
 * deposit is an action; the one that reaches the pool names the pool and the LP minted. A rejected deposit is
 * reported as one action together with the other deposits into the same contract.
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

/** The vault's refund of an excess: what it sends back (a jetton transfer or a TON payout). */
function vaultExcess(ctx: MatchContext, node: TraceNode): Record<string, DataValue> {
  const transfer = node.children.find((c) => c.op === OP.JETTON_TRANSFER);
  if (transfer) {
    return { asset: jettonOfWallet(ctx, transfer.account), amount: decodeJettonTransfer(bodyCell(transfer.inMsg))?.amount ?? null };
  }
  const payout = node.children.find((c) => c.op === DEX.DEDUST_PAYOUT);
  return { asset: null, amount: payout?.inMsg?.value != null ? String(payout.inMsg.value) : null };
}

function depositDraft(ctx: MatchContext, d: Deposit): { draft: ActionDraft; contract: RawAddress | null; rejected: boolean } {
  const vault = d.factory.parent!;
  const viaJetton = vault.op === OP.JETTON_NOTIFY;
  const internal = viaJetton ? vault.parent : null;
  const userTransfer = internal?.parent ?? null;
  const deploy = childWithOp(d.factory, DL.DEPLOY_DEPOSIT_CONTRACT);
  const topUp = childWithOp(d.factory, DL.TOP_UP_DEPOSIT_CONTRACT);
  const toPool = childWithOp(topUp, DL.DEPOSIT_TO_POOL);
  const rejected = !!childWithOp(toPool, DL.REJECT_DEPOSIT);
  const lpMint = toPool?.children.find((c) => c.op === OP.JETTON_INTERNAL_TRANSFER);
  const poolNodes = toPool ? subtree(topUp!) : [];
  const excesses = poolNodes
    .filter((n) => n.op === DL.RETURN_EXCESS_FROM_VAULT && rejected)
    .sort((a, b) => (BigInt(b.inMsg?.created_lt ?? 0) > BigInt(a.inMsg?.created_lt ?? 0) ? 1 : -1))
    .map((n) => vaultExcess(ctx, n));
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
    contract: topUp?.account ?? deploy?.account ?? null,
    rejected,
    draft: {
      type: 'dex_deposit_liquidity',
      btype: toPool ? 'dedust_deposit_liquidity' : 'dedust_deposit_liquidity_partial',
      nodes,
      success: !rejected && !nodes.some(txFailed),
      fields: {
        source: d.owner,
        destination: toPool?.account ?? null,
        destination_secondary: topUp?.account ?? deploy?.account ?? null,
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
      .map((d) => depositDraft(ctx, d));
    const merged = new Set<ActionDraft>();
    for (const final of built.filter((b) => b.rejected)) {
      // the pool refused the pair: the deposits that filled the contract are one failed action
      for (const other of built) {
        if (other === final || other.contract !== final.contract || other.draft.fields.destination) continue;
        const data = final.draft.fields.dex_deposit_liquidity_data as Record<string, DataValue>;
        const o = other.draft.fields.dex_deposit_liquidity_data as Record<string, DataValue>;
        final.draft.fields.dex_deposit_liquidity_data = {
          ...data,
          asset1: o.asset1,
          amount1: o.amount1,
          user_jetton_wallet_1: o.user_jetton_wallet_1,
          asset2: data.asset1,
          amount2: data.amount1,
          user_jetton_wallet_2: data.user_jetton_wallet_1,
        };
        final.draft.nodes = nodeSet(...final.draft.nodes, ...other.draft.nodes);
        merged.add(other.draft);
      }
    }
    return built.map((b) => b.draft).filter((d) => !merged.has(d) && isFree(ctx, ...d.nodes));
  },
};
