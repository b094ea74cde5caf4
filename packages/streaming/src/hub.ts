import { toV3Action, visibleActions, type ClassifiedAction } from '@tongate/actions';
import {
  FINALITY_RANK,
  type Finality,
  type Network,
  type StreamBatch,
  type StreamItem,
  type TraceItem,
  type WireTransaction,
} from './events.js';
import type { Subscription } from './protocol.js';

/** Where a subscriber's events go (an SSE response or a WebSocket): one JSON object per call. */
export interface EventSink {
  /**
   * `text` is `event` as JSON; `mcSeqno`: the finalized block the event belongs to (SSE writes it as the event id:
   * the resume point).
   */
  send(text: string, mcSeqno?: number): void;
}

/**
 * Serializes each distinct event of one item once: subscribers with the same view of an item (the usual case with
 * many subscribers to one address) share the JSON text.
 */
class TextCache {
  private readonly texts = new Map<string, string>();
  text(key: string, build: () => object): string {
    let t = this.texts.get(key);
    if (t === undefined) {
      t = JSON.stringify(build());
      if (this.texts.size < 10_000) this.texts.set(key, t);
    }
    return t;
  }
}

/** Per connection, traces whose non-final events went out (for `trace_invalidated`) and at which finality. */
const MAX_MARKS = 10_000;
/** Per network, traces seen finalized lately: a late pending/confirmed update or invalidation of one is stale. */
const MAX_FINALIZED_REMEMBERED = 50_000;

export class Subscriber {
  subscription: Subscription | null = null;
  /** Trace hash → the highest finality delivered, while it is not finalized. */
  readonly marks = new Map<string, number>();
  /** Events sent (tests and metrics). */
  sent = 0;

  constructor(
    readonly network: Network,
    readonly sink: EventSink,
  ) {}

  mark(hash: string, rank: number): void {
    if (rank >= FINALITY_RANK.finalized) {
      this.marks.delete(hash);
      return;
    }
    if (!this.marks.has(hash) && this.marks.size >= MAX_MARKS) this.marks.delete(this.marks.keys().next().value!);
    this.marks.set(hash, rank);
  }
}

interface NetworkState {
  subscribers: Set<Subscriber>;
  byAddress: Map<string, Set<Subscriber>>;
  byHash: Map<string, Set<Subscriber>>;
  /** Finalized blocks' batches, oldest first, for resuming subscribers, with their sizes as JSON. */
  retained: StreamBatch[];
  retainedSizes: number[];
  retainedBytes: number;
  finalized: Map<string, true>;
}

export interface HubOptions {
  /** Finalized blocks kept for resuming subscribers (default 600) ... */
  retainBlocks?: number;
  /** ... and at most this many bytes of them as JSON (default 64 MiB): large blocks shorten the window. */
  retainBytes?: number;
}

const byLtDesc = (a: WireTransaction, b: WireTransaction) => (BigInt(b.lt) > BigInt(a.lt) ? 1 : BigInt(b.lt) < BigInt(a.lt) ? -1 : 0);
const cmpBig = (a: string, b: string) => (BigInt(a) > BigInt(b) ? 1 : BigInt(a) < BigInt(b) ? -1 : 0);

/**
 * Fans every network's events out to the subscribers of that network. Subscribers are indexed by address and by
 * trace hash, so an event costs work only for the subscribers it concerns; each gets the event filtered to its
 * subscription. Networks share nothing.
 */
export class StreamHub {
  private readonly nets: Record<Network, NetworkState> = { mainnet: this.emptyState(), testnet: this.emptyState() };
  private readonly retainBlocks: number;
  private readonly retainBytes: number;

  constructor(opts: HubOptions = {}) {
    this.retainBlocks = opts.retainBlocks ?? 600;
    this.retainBytes = opts.retainBytes ?? 64 * 1024 * 1024;
  }

  private emptyState(): NetworkState {
    return {
      subscribers: new Set(),
      byAddress: new Map(),
      byHash: new Map(),
      retained: [],
      retainedSizes: [],
      retainedBytes: 0,
      finalized: new Map(),
    };
  }

  subscriberCount(network?: Network): number {
    return network ? this.nets[network].subscribers.size : this.nets.mainnet.subscribers.size + this.nets.testnet.subscribers.size;
  }

  /** The retained window of a network: the oldest and newest finalized block a resume can start after. */
  retainedRange(network: Network): { oldest: number; newest: number } | null {
    const r = this.nets[network].retained;
    return r.length === 0 ? null : { oldest: r[0]!.mcSeqno!, newest: r[r.length - 1]!.mcSeqno! };
  }

  /** Sets (or replaces) a subscriber's subscription; a resume point replays the retained blocks after it first. */
  subscribe(sub: Subscriber, subscription: Subscription): void {
    this.unindex(sub);
    sub.subscription = subscription;
    const net = this.nets[sub.network];
    net.subscribers.add(sub);
    for (const a of subscription.addresses) addTo(net.byAddress, a, sub);
    for (const h of subscription.hashes) addTo(net.byHash, h, sub);
    if (subscription.afterMcSeqno !== undefined) this.replay(sub, subscription.afterMcSeqno);
  }

  /** Drops addresses and trace hashes from a subscription (its types stay). */
  unsubscribe(sub: Subscriber, addresses: readonly string[], hashes: readonly string[]): void {
    const s = sub.subscription;
    if (!s) return;
    const net = this.nets[sub.network];
    for (const a of addresses) if (s.addresses.delete(a)) removeFrom(net.byAddress, a, sub);
    for (const h of hashes) if (s.hashes.delete(h)) removeFrom(net.byHash, h, sub);
  }

  remove(sub: Subscriber): void {
    this.unindex(sub);
    this.nets[sub.network].subscribers.delete(sub);
  }

  private unindex(sub: Subscriber): void {
    const s = sub.subscription;
    if (!s) return;
    const net = this.nets[sub.network];
    for (const a of s.addresses) removeFrom(net.byAddress, a, sub);
    for (const h of s.hashes) removeFrom(net.byHash, h, sub);
  }

  private replay(sub: Subscriber, after: number): void {
    const net = this.nets[sub.network];
    const retained = net.retained;
    const oldest = retained[0]?.mcSeqno;
    // Blocks between the resume point and the window were dropped: the client resyncs them through API v3.
    if (oldest === undefined || oldest > after + 1) {
      sub.sink.send(
        JSON.stringify({ type: 'resume_gap', from_mc_seqno: after + 1, to_mc_seqno: oldest === undefined ? null : oldest - 1 }),
      );
    }
    for (const batch of retained) {
      if (batch.mcSeqno! <= after) continue;
      for (const item of batch.items) this.deliverTo(sub, item, batch, new TextCache());
    }
  }

  /** One batch from the bus. */
  publish(batch: StreamBatch): void {
    const net = this.nets[batch.network];
    if (!net) return;
    if (batch.mcSeqno !== undefined) {
      const last = net.retained[net.retained.length - 1];
      if (!last || last.mcSeqno! < batch.mcSeqno) {
        const size = JSON.stringify(batch).length;
        net.retained.push(batch);
        net.retainedSizes.push(size);
        net.retainedBytes += size;
        while (net.retained.length > 1 && (net.retained.length > this.retainBlocks || net.retainedBytes > this.retainBytes)) {
          net.retained.shift();
          net.retainedBytes -= net.retainedSizes.shift()!;
        }
      }
    }
    for (const item of batch.items) {
      if (item.kind === 'trace' && item.hashNorm) {
        // A trace seen finalized stays so: an update of lower finality arriving later (another process's tracker)
        // would send it backwards.
        if (item.finality === 'finalized') remember(net.finalized, item.hashNorm);
        else if (net.finalized.has(item.hashNorm)) continue;
      }
      if (item.kind === 'invalidated' && net.finalized.has(item.hashNorm)) continue;
      const cache = new TextCache();
      for (const sub of this.candidates(net, item)) this.deliverTo(sub, item, batch, cache);
    }
  }

  private candidates(net: NetworkState, item: StreamItem): Set<Subscriber> {
    const out = new Set<Subscriber>();
    const add = (set: Set<Subscriber> | undefined) => set?.forEach((s) => out.add(s));
    switch (item.kind) {
      case 'trace':
        for (const t of item.transactions) add(net.byAddress.get(t.account));
        for (const a of item.actions) for (const acc of a.accounts) add(net.byAddress.get(acc));
        if (item.hashNorm) add(net.byHash.get(item.hashNorm));
        break;
      case 'account_state':
        add(net.byAddress.get(item.account));
        break;
      case 'jetton':
        add(net.byAddress.get(item.jetton.address));
        add(net.byAddress.get(item.jetton.owner));
        break;
      case 'invalidated':
        for (const s of net.subscribers) if (s.marks.has(item.hashNorm)) out.add(s);
        break;
    }
    return out;
  }

  private deliverTo(sub: Subscriber, item: StreamItem, batch: StreamBatch, cache: TextCache): void {
    const s = sub.subscription;
    if (!s) return;
    const mcSeqno = batch.mcSeqno;
    // The address book, when asked for and known, cut down to the addresses an event names.
    const book = s.includeAddressBook && batch.addressBook ? batch.addressBook : undefined;
    // Token metadata likewise (include_metadata): the entries of the token contracts the event names.
    const meta = s.includeMetadata && batch.metadata ? batch.metadata : undefined;
    const withBook = <T extends Record<string, unknown>>(event: T, addresses: Iterable<string | null | undefined>): T => {
      if (!book && !meta) return event;
      const named = [...addresses];
      return { ...event, ...(book ? { address_book: pick(book, named) } : {}), ...(meta ? { metadata: pick(meta, named) } : {}) };
    };
    const b = (book ? ':b' : '') + (meta ? ':m' : '');
    if (item.kind === 'invalidated') {
      if (!sub.marks.has(item.hashNorm)) return;
      sub.marks.delete(item.hashNorm);
      send(
        sub,
        cache.text('i', () => ({ type: 'trace_invalidated', trace_external_hash_norm: item.hashNorm })),
      );
      return;
    }
    const rank = FINALITY_RANK[item.finality];
    if (rank < FINALITY_RANK[s.minFinality]) return;
    if (item.kind === 'account_state') {
      if (s.types.has('account_state_change') && s.addresses.has(item.account)) {
        send(
          sub,
          cache.text('s', () => ({ type: 'account_state_change', finality: item.finality, account: item.account, state: item.state })),
          mcSeqno,
        );
      }
      return;
    }
    if (item.kind === 'jetton') {
      if (s.types.has('jettons_change') && (s.addresses.has(item.jetton.address) || s.addresses.has(item.jetton.owner))) {
        const j = item.jetton;
        send(
          sub,
          cache.text(`j${b}`, () =>
            withBook({ type: 'jettons_change', finality: item.finality, jetton: j }, [j.address, j.owner, j.jetton as string | undefined]),
          ),
          mcSeqno,
        );
      }
      return;
    }
    this.deliverTrace(sub, s, item, rank, mcSeqno, cache, b, withBook);
  }

  private deliverTrace(
    sub: Subscriber,
    s: Subscription,
    item: TraceItem,
    rank: number,
    mcSeqno: number | undefined,
    cache: TextCache,
    b: string,
    withBook: <T extends Record<string, unknown>>(event: T, addresses: Iterable<string | null | undefined>) => T,
  ): void {
    const hash = item.hashNorm;
    // Finality only rises on a connection. A confirmation seen again (every API process's tracker may report the
    // same landing) is not news; pending updates are (a trace's emulation may be refreshed).
    const seen = hash ? sub.marks.get(hash) : undefined;
    if (seen !== undefined && (seen > rank || (seen === rank && rank > FINALITY_RANK.pending))) return;
    const norm = hash ?? null;
    let delivered = false;
    if (s.types.has('transactions')) {
      const txs = item.transactions.filter((t) => s.addresses.has(t.account)).sort(byLtDesc);
      if (txs.length > 0) {
        send(
          sub,
          cache.text(`t${b}:${txs.map((t) => t.hash).join(',')}`, () =>
            withBook(
              { type: 'transactions', finality: item.finality, trace_external_hash_norm: norm, transactions: txs },
              txs.flatMap(transactionAddresses),
            ),
          ),
          mcSeqno,
        );
        delivered = true;
      }
    }
    const wanted = item.actions.length > 0 && (s.types.has('actions') || s.types.has('trace')) ? filterActions(item.actions, s) : [];
    if (s.types.has('actions') && wanted.length > 0) {
      const mine = wanted.filter((a) => a.accounts.some((acc) => s.addresses.has(acc)));
      if (mine.length > 0) {
        mine.sort((a, b) => cmpBig(b.end_lt, a.end_lt) || cmpBig(b.start_lt, a.start_lt));
        const text = cache.text(`a${b}:${mine.map((a) => a.action_id).join(',')}`, () =>
          withBook(
            {
              type: 'actions',
              finality: item.finality,
              trace_external_hash_norm: norm,
              actions: mine.map((a) => v3Action(a, item.finality)),
            },
            mine.flatMap(actionAddresses),
          ),
        );
        send(sub, text, mcSeqno);
        delivered = true;
      }
    }
    if (s.types.has('trace') && item.trace && hash && s.hashes.has(hash)) {
      const trace = item.trace;
      const text = cache.text(`r${b}:${wanted.map((a) => a.action_id).join(',')}`, () => {
        const event: Record<string, unknown> = {
          type: 'trace',
          finality: item.finality,
          trace_external_hash_norm: hash,
          trace: trace.root,
          transactions: trace.transactions,
        };
        if (wanted.length > 0) event.actions = wanted.map((a) => v3Action(a, item.finality));
        return withBook(event, [...Object.values(trace.transactions).flatMap(transactionAddresses), ...wanted.flatMap(actionAddresses)]);
      });
      send(sub, text, mcSeqno);
      delivered = true;
    }
    if (delivered && hash) sub.mark(hash, rank);
  }
}

const RAW_ADDRESS = /^-?\d+:[0-9A-F]{64}$/;

/** A transaction's account and the other ends of its messages. */
function transactionAddresses(t: WireTransaction): (string | null | undefined)[] {
  const inMsg = t.in_msg as { source?: string | null } | null | undefined;
  const outMsgs = (t.out_msgs as { destination?: string | null }[] | undefined) ?? [];
  return [t.account, inMsg?.source, ...outMsgs.map((m) => m.destination)];
}

/** An action's accounts and the addresses among its fields. */
function actionAddresses(a: ClassifiedAction): string[] {
  const out = [...a.accounts];
  for (const v of Object.values(a)) if (typeof v === 'string' && RAW_ADDRESS.test(v)) out.push(v);
  return out;
}

function pick(book: Record<string, unknown>, addresses: Iterable<string | null | undefined>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of addresses) if (a && a in book) out[a] = book[a];
  return out;
}

function filterActions(actions: readonly ClassifiedAction[], s: Subscription): ClassifiedAction[] {
  const visible = visibleActions(actions, s.supported);
  return s.actionTypes.size === 0 ? visible : visible.filter((a) => s.actionTypes.has(v3Type(a)));
}

function v3Type(a: ClassifiedAction): string {
  return toV3Action(a).type;
}

function v3Action(a: ClassifiedAction, finality: Finality): object {
  return toV3Action(a, { finality, includeAccounts: true });
}

function send(sub: Subscriber, text: string, mcSeqno?: number): void {
  sub.sent++;
  sub.sink.send(text, mcSeqno);
}

function addTo(map: Map<string, Set<Subscriber>>, key: string, sub: Subscriber): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(sub);
}

function removeFrom(map: Map<string, Set<Subscriber>>, key: string, sub: Subscriber): void {
  const set = map.get(key);
  if (!set) return;
  set.delete(sub);
  if (set.size === 0) map.delete(key);
}

function remember(map: Map<string, true>, key: string): void {
  if (map.has(key)) return;
  if (map.size >= MAX_FINALIZED_REMEMBERED) map.delete(map.keys().next().value!);
  map.set(key, true);
}
