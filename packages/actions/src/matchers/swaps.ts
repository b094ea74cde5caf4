import { Cell, type Slice } from '@ton/core';
import { type ActionDraft, type Matcher, type MatchContext, isFree, jettonOfWallet, nodeSet } from '../core.js';
import { coinsStr, dedustAsset, loadAddress, tryDecode } from '../decode.js';
import { DEX, OP, TONCO_PTON_MASTERS } from '../opcodes.js';
import { bodyCell, bodySlice, childWithOp, descendants, logsWithOp, normalizeAddress, txFailed, type TraceNode } from '../tree.js';
import type { DataValue, RawAddress, TraceMessage } from '../types.js';
import { decodeJettonNotify, decodeJettonTransfer } from './jettons.js';

/**
 * DEX swaps (STON.fi v1/v2, DeDust, TONCO, Coffee). Every DEX is entered the same way — jettons (or proxy-TON)
 * arrive at a router or vault with a notification — and left the same way — the DEX sends jettons from its wallet
 * or TON to the receiver. What differs is the chain of DEX-internal messages in between; each DEX has a walker
 * that follows it from the entry to the exit and reports the hops.
 */
export interface DexTransfer {
  asset: RawAddress | null;
  amount: string | null;
  source: RawAddress | null;
  destination: RawAddress | null;
  source_jetton_wallet: RawAddress | null;
  destination_jetton_wallet: RawAddress | null;
}

type AssetOf = (wallet: RawAddress | null | undefined) => RawAddress | null;

interface Entry {
  transfer: DexTransfer;
  nodes: TraceNode[];
  notify: TraceNode;
}

/** Jettons (or proxy-TON) arriving at a DEX contract: the notification and the transfer that caused it. */
export function dexEntry(notify: TraceNode, assetOf: AssetOf): Entry | null {
  const note = decodeJettonNotify(notify);
  const wallet = notify.parent;
  if (!note || !wallet) return null;
  // a jetton arrives through internal_transfer from the sender's wallet; proxy-TON wallets notify directly
  const viaInternal = wallet.op === OP.JETTON_INTERNAL_TRANSFER;
  const userTransfer = viaInternal ? wallet.parent : wallet;
  return {
    notify,
    nodes: nodeSet(userTransfer, wallet, viaInternal && childWithOp(wallet, OP.EXCESS), notify),
    transfer: {
      asset: assetOf(wallet.account),
      amount: note.amount,
      source: note.sender,
      destination: notify.account,
      source_jetton_wallet: viaInternal ? (userTransfer?.account ?? null) : null,
      destination_jetton_wallet: wallet.account,
    },
  };
}

interface Exit {
  transfer: DexTransfer;
  nodes: TraceNode[];
  /** the DEX's own jetton wallet the tokens left from */
  dexWallet: RawAddress;
}

/** Jettons leaving a DEX: its transfer request to its own wallet and what that causes at the receiver. */
export function dexExit(transfer: TraceNode, assetOf: AssetOf): Exit | null {
  const req = decodeJettonTransfer(bodyCell(transfer.inMsg));
  if (!req) return null;
  const internal = childWithOp(transfer, OP.JETTON_INTERNAL_TRANSFER);
  const notify = childWithOp(internal ?? transfer, OP.JETTON_NOTIFY);
  const excess = childWithOp(internal, OP.EXCESS);
  return {
    dexWallet: transfer.account,
    nodes: nodeSet(transfer, internal, notify, excess),
    transfer: {
      asset: assetOf(transfer.account),
      amount: req.amount,
      source: normalizeAddress(transfer.inMsg?.source),
      destination: req.destination,
      // proxy-TON leaves as plain TON: no jetton wallets on either side
      source_jetton_wallet: internal ? transfer.account : null,
      destination_jetton_wallet: internal?.account ?? null,
    },
  };
}

interface PeerSwap {
  asset_in: RawAddress | null;
  amount_in: string | null;
  asset_out: RawAddress | null;
  amount_out: string | null;
}

interface SwapRoute {
  dex: string;
  nodes: TraceNode[];
  exit: DexTransfer;
  peerSwaps: PeerSwap[];
  success: boolean;
  /** wallet and asset the DEX meant to pay out, when they differ from what it paid (refunds) */
  intendedWallet?: RawAddress | null;
  minOut?: string | null;
}

function swapDraft(entry: Entry, route: SwapRoute, assetOf: AssetOf): ActionDraft {
  const data: Record<string, DataValue> = {
    dex: route.dex,
    sender: entry.transfer.source,
    dex_incoming_transfer: { ...entry.transfer },
    dex_outgoing_transfer: { ...route.exit },
    peer_swaps: route.peerSwaps.map((p) => ({ ...p })),
  };
  if (route.minOut !== undefined) data.min_out_amount = route.minOut;
  const intended = route.intendedWallet ?? route.exit.destination_jetton_wallet;
  const nodes = nodeSet(...entry.nodes, ...route.nodes);
  return {
    type: 'jetton_swap',
    nodes,
    success: route.success && !nodes.some((n) => txFailed(n) && n.op !== OP.JETTON_NOTIFY),
    fields: {
      source: entry.transfer.source,
      source_secondary: entry.transfer.source_jetton_wallet,
      destination: route.exit.destination,
      destination_secondary: intended,
      asset: entry.transfer.asset,
      asset2: route.intendedWallet ? assetOf(route.intendedWallet) : route.exit.asset,
      jetton_swap_data: data,
    },
  };
}

function read<T>(node: TraceNode | undefined, decode: (s: Slice) => T): T | null {
  const s = bodySlice(node);
  return s ? tryDecode(() => (s.skip(32), decode(s))) : null;
}

/** The pay_to exit codes that pay the swap's own receiver: done, or refunded (no liquidity, reserve error). */
const STONFI_SENDER_CODES = new Set<number>([DEX.STONFI_SWAP_OK, DEX.STONFI_SWAP_NO_LIQUIDITY, DEX.STONFI_SWAP_RESERVE_ERROR]);

/**
 * STON.fi v1: router → pool swap#25938561 → pay_to#f93bb43f back at the router (one per payee) → router's wallet.
 * As the reference reads it, the receiver's payment is the largest of those whose exit code concerns the sender
 * (done or refunded; the referral's share has its own code), and the swap succeeded only when that payment says it
 * was done: a refund is a failed swap.
 */
function stonfiV1(ctx: MatchContext, entry: Entry, assetOf: AssetOf): SwapRoute | null {
  const swap = childWithOp(entry.notify, DEX.STONFI_SWAP);
  const receiver = read(swap, (s) => (s.skip(64), loadAddress(s)));
  if (!swap) return null;
  const pays = swap.children.filter((c) => c.op === DEX.STONFI_PAY_TO);
  const parsed = pays.map((p) => ({
    node: p,
    body: read(p, (s) => {
      s.skip(64);
      const owner = loadAddress(s);
      const exitCode = s.loadUint(32);
      const params = s.loadBit() ? s.loadRef().beginParse() : s;
      return { owner, exitCode, tokens: [coinsStr(params), loadAddress(params), coinsStr(params), loadAddress(params)] as const };
    }),
  }));
  const paid = (p: (typeof parsed)[number]) => BigInt(p.body!.tokens[0] !== '0' ? p.body!.tokens[0] : p.body!.tokens[2]);
  const senderPays = parsed.filter(
    (p) => p.body && STONFI_SENDER_CODES.has(p.body.exitCode) && p.node.children.some((c) => c.op === OP.JETTON_TRANSFER),
  );
  const largest = senderPays.reduce<(typeof parsed)[number] | undefined>((a, p) => (!a || paid(p) > paid(a) ? p : a), undefined);
  // without an exit code of the sender's, the receiver's payment (others are referral fees, separate transfers)
  const pay = largest ?? parsed.find((p) => p.body?.owner === receiver) ?? parsed[parsed.length - 1];
  const transfer = pay?.node.children.find((c) => c.op === OP.JETTON_TRANSFER);
  const exit = transfer && dexExit(transfer, assetOf);
  if (!pay?.body || !exit) return null;
  const [, token0, , token1] = pay.body.tokens;
  const intendedWallet = [token0, token1].find((t) => t && t !== entry.transfer.destination_jetton_wallet) ?? null;
  void ctx;
  return {
    dex: 'stonfi',
    nodes: nodeSet(swap, pay.node, ...exit.nodes),
    exit: exit.transfer,
    peerSwaps: [],
    success: !largest || largest.body!.exitCode === DEX.STONFI_SWAP_OK,
    intendedWallet,
  };
}

/**
 * STON.fi v2: router → pool swap#6664de2a → pay_to#657b54f5 at the router → the router's wallet pays out. A
 * multi-hop route swaps again, straight from the pay_to or from the jettons it sent to a router; a referral's fee
 * goes out beside it (pay_vault#63381632 → deposit_ref_fee#0490f09b). Proxy-TON leaves as the pTON wallet's
 * ton_transfer#01f3835d to the receiver. As in the reference, the swap failed when any pay_to of the route carries
 * another exit code than swap_ok.
 */
function stonfiV2(entry: Entry, assetOf: AssetOf): SwapRoute | null {
  const nodes: TraceNode[] = [];
  let ok = true;
  let swap = childWithOp(entry.notify, DEX.STONFI_V2_SWAP);
  for (let hop = 0; hop < 8 && swap; hop++) {
    const pay = childWithOp(swap, DEX.STONFI_V2_PAY_TO);
    const exitCode = read(pay, (s) => (s.skip(64), loadAddress(s), loadAddress(s), loadAddress(s), s.loadUint(32)));
    if (!pay || exitCode === null) return null;
    if (exitCode !== DEX.STONFI_SWAP_OK) ok = false;
    nodes.push(swap, pay);
    for (const vault of [swap, pay].map((n) => childWithOp(n, DEX.STONFI_V2_PAY_VAULT))) {
      const fee = childWithOp(vault, DEX.STONFI_V2_DEPOSIT_REF_FEE);
      if (vault && fee) nodes.push(vault, fee, ...fee.children.filter((c) => c.op === OP.EXCESS));
    }
    const direct = childWithOp(pay, DEX.STONFI_V2_SWAP);
    if (direct) {
      swap = direct;
      continue;
    }
    const transfer = pay.children.find((c) => c.op === OP.JETTON_TRANSFER);
    const exit = transfer && dexExit(transfer, assetOf);
    if (!transfer || !exit) return null;
    nodes.push(...exit.nodes);
    const notify = exit.nodes.find((n) => n.op === OP.JETTON_NOTIFY);
    const next = childWithOp(notify, DEX.STONFI_V2_SWAP);
    if (next) {
      swap = next;
      continue;
    }
    const pton = childWithOp(transfer, DEX.PTON_TON_TRANSFER);
    const tonAmount = read(pton, (s) => (s.skip(64), coinsStr(s)));
    const out: DexTransfer =
      pton && tonAmount !== null
        ? {
            asset: null,
            amount: tonAmount,
            source: exit.transfer.source,
            source_jetton_wallet: transfer.account,
            destination: pton.account,
            destination_jetton_wallet: null,
          }
        : exit.transfer;
    return { dex: 'stonfi_v2', nodes: nodeSet(...nodes, pton), exit: out, peerSwaps: [], success: ok };
  }
  return null;
}

/**
 * TONCO: router → pool swap#a7fb58f8 → pay_to#a1daa96d at the router; multi-hop routes go round the router again.
 * Failed when a pay_to of the route carries another exit code than 200, the code the message scheme
 * (`ROUTERV3_PAY_TO`, reference `messages/swaps.py`) gives a done swap; a refund pays the input back.
 */
function tonco(entry: Entry, assetOf: AssetOf): SwapRoute | null {
  const nodes: TraceNode[] = [];
  const hops: PeerSwap[] = [];
  let notify = entry.notify;
  let amountIn = entry.transfer.amount;
  let assetIn = entry.transfer.asset;
  let ok = true;
  for (let hop = 0; hop < 8; hop++) {
    const swap = childWithOp(notify, DEX.TONCO_POOL_SWAP);
    const pay = childWithOp(swap, DEX.TONCO_PAY_TO);
    const exitCode = read(pay, (s) => (s.skip(64), loadAddress(s), loadAddress(s), s.loadUint(32)));
    const transfer = pay?.children.find((c) => c.op === OP.JETTON_TRANSFER);
    const exit = transfer && dexExit(transfer, assetOf);
    if (!swap || !pay || !exit || exitCode === null) return null;
    if (exitCode !== DEX.TONCO_SWAP_OK) ok = false;
    nodes.push(swap, pay, ...exit.nodes);
    hops.push({ asset_in: assetIn, amount_in: amountIn, asset_out: exit.transfer.asset, amount_out: exit.transfer.amount });
    // a hop: the output comes back to the router (directly or through its proxy-TON wallet) and is swapped again
    const next = [...descendants(transfer!)].find((n) => n.op === OP.JETTON_NOTIFY && n.account === notify.account);
    if (!next) {
      // toncenter's min_out_amount for a single-hop TONCO swap is the amount the pool paid out, not the
      // minOutAmount of the pool's swap request; it is reported the same way for wire compatibility.
      const minOut = hops.length > 1 ? undefined : exit.transfer.amount;
      return { dex: 'tonco', nodes, exit: exit.transfer, peerSwaps: hops.length > 1 ? hops : [], success: ok, minOut };
    }
    for (let n: TraceNode | null = next.parent; n && n !== transfer; n = n.parent) nodes.push(n);
    nodes.push(next);
    notify = next;
    amountIn = exit.transfer.amount;
    assetIn = exit.transfer.asset;
  }
  return null;
}

/** Coffee: vault → pool swap_internal#c0ffee20 → payout_internal#c0ffee21 at the output vault → payout to the receiver. */
function coffee(entry: Entry, assetOf: AssetOf): SwapRoute | null {
  const swap = childWithOp(entry.notify, DEX.COFFEE_SWAP_INTERNAL);
  const payoutInternal = childWithOp(swap, DEX.COFFEE_PAYOUT_INTERNAL);
  const payout = read(payoutInternal, (s) => (s.skip(64), { recipient: loadAddress(s), amount: coinsStr(s) }));
  if (!swap || !payoutInternal || !payout) return null;
  const tonPayout = childWithOp(payoutInternal, DEX.COFFEE_PAYOUT);
  const jettonOut = payoutInternal.children.find((c) => c.op === OP.JETTON_TRANSFER);
  const exit = jettonOut ? dexExit(jettonOut, assetOf) : null;
  const out: DexTransfer = {
    asset: exit ? exit.transfer.asset : null,
    amount: payout.amount,
    source: swap.account,
    destination: payout.recipient,
    source_jetton_wallet: exit?.transfer.source_jetton_wallet ?? null,
    destination_jetton_wallet: exit?.transfer.destination_jetton_wallet ?? null,
  };
  return {
    dex: 'coffee',
    nodes: nodeSet(swap, payoutInternal, tonPayout, ...(exit?.nodes ?? [])),
    exit: out,
    peerSwaps: [],
    // the pool logs a swap it could not make and pays the input back: the swap failed
    success: logsWithOp(swap, DEX.COFFEE_SWAP_FAILED_EVENT).length === 0,
  };
}

function dedustSwapEvent(log: TraceMessage): PeerSwap | null {
  if (!log.body) return null;
  return tryDecode(() => {
    const s = Cell.fromBase64(log.body!).beginParse();
    s.skip(32);
    const asset_in = dedustAsset(s);
    const asset_out = dedustAsset(s);
    return { asset_in, asset_out, amount_in: coinsStr(s), amount_out: coinsStr(s) };
  });
}

/** DeDust: vault → pool swap_external#61ee542d → (swap_peer#72aca8aa per extra hop) → payout_from_pool at the output vault. */
function dedust(entry: Entry, assetOf: AssetOf): SwapRoute | null {
  const first = childWithOp(entry.notify, DEX.DEDUST_SWAP_EXTERNAL);
  if (!first) return null;
  const pools: TraceNode[] = [first];
  let cur = first;
  for (let next = childWithOp(cur, DEX.DEDUST_SWAP_PEER); next; next = childWithOp(cur, DEX.DEDUST_SWAP_PEER)) {
    pools.push(next);
    cur = next;
  }
  const payout = childWithOp(cur, DEX.DEDUST_PAYOUT_FROM_POOL);
  if (!payout) return null;
  const hops = pools
    .flatMap((p) => logsWithOp(p, DEX.DEDUST_SWAP_EVENT))
    .map(dedustSwapEvent)
    .filter((h): h is PeerSwap => !!h);
  const transfer = payout.children.find((c) => c.op === OP.JETTON_TRANSFER);
  const exit = transfer ? dexExit(transfer, assetOf) : null;
  const tonOut = payout.children.find((c) => c.op === DEX.DEDUST_PAYOUT);
  let out: DexTransfer;
  if (exit) out = exit.transfer;
  else if (tonOut) {
    out = {
      asset: null,
      amount: hops.at(-1)?.amount_out ?? null,
      source: payout.account,
      destination: tonOut.account,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
    };
  } else return null;
  return {
    dex: 'dedust',
    nodes: nodeSet(...pools, payout, tonOut, ...(exit?.nodes ?? [])),
    exit: out,
    peerSwaps: hops.length > 1 ? hops : [],
    success: true,
  };
}

/**
 * TON into a DEX's native vault with the swap request itself (`query_id amount:Coins …`): DeDust's swap#ea06185d,
 * followed by the pool's swap_external, and Coffee's swap_native#c0ffee00, followed by the pool's swap_internal —
 * as a jetton vault does after its notification. Read only when the vault does ask its pool.
 */
const NATIVE_SWAPS = new Map<number, number>([
  [DEX.DEDUST_NATIVE_SWAP, DEX.DEDUST_SWAP_EXTERNAL],
  [DEX.COFFEE_SWAP, DEX.COFFEE_SWAP_INTERNAL],
]);

function nativeEntry(vault: TraceNode): Entry | null {
  const poolOp = vault.op === null ? undefined : NATIVE_SWAPS.get(vault.op);
  const amount = read(vault, (s) => (s.skip(64), coinsStr(s)));
  if (poolOp === undefined || amount === null || !vault.inMsg?.source || !childWithOp(vault, poolOp)) return null;
  return {
    notify: vault,
    nodes: [vault],
    transfer: {
      asset: null,
      amount,
      source: normalizeAddress(vault.inMsg.source),
      destination: vault.account,
      source_jetton_wallet: null,
      destination_jetton_wallet: null,
    },
  };
}

/** Which walker a DEX entry takes, from the first DEX-internal message the router/vault sends. */
function route(ctx: MatchContext, entry: Entry, assetOf: AssetOf): SwapRoute | null {
  const ops = new Set(entry.notify.children.map((c) => c.op));
  if (ops.has(DEX.STONFI_SWAP)) return stonfiV1(ctx, entry, assetOf);
  if (ops.has(DEX.STONFI_V2_SWAP)) return stonfiV2(entry, assetOf);
  if (ops.has(DEX.TONCO_POOL_SWAP)) return tonco(entry, assetOf);
  if (ops.has(DEX.COFFEE_SWAP_INTERNAL)) return coffee(entry, assetOf);
  if (ops.has(DEX.DEDUST_SWAP_EXTERNAL)) return dedust(entry, assetOf);
  return null;
}

export const swapMatcher: Matcher = {
  name: 'swaps',
  match(ctx) {
    const assetOf: AssetOf = (wallet) => {
      const jetton = jettonOfWallet(ctx, wallet);
      return jetton && TONCO_PTON_MASTERS.has(jetton) ? null : jetton;
    };
    const drafts: ActionDraft[] = [];
    const claimed = new Set<TraceNode>();
    for (const node of ctx.tree.nodes) {
      if (!isFree(ctx, node) || claimed.has(node)) continue;
      const native = node.op !== null && NATIVE_SWAPS.has(node.op);
      if (node.op !== OP.JETTON_NOTIFY && !native) continue;
      const entry = native ? nativeEntry(node) : dexEntry(node, assetOf);
      const r = entry && route(ctx, entry, assetOf);
      if (!entry || !r) continue;
      const draft = swapDraft(entry, r, assetOf);
      if (!isFree(ctx, ...draft.nodes) || draft.nodes.some((n) => claimed.has(n))) continue;
      for (const n of draft.nodes) claimed.add(n);
      drafts.push(draft);
    }
    return drafts;
  },
};
