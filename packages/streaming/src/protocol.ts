import { Address } from '@ton/core';
import { expandSupportedActionTypes } from '@tongate/actions';
import type { Finality } from './events.js';

export const EVENT_TYPES = ['transactions', 'actions', 'trace', 'account_state_change', 'jettons_change'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
const EVENT_TYPE_SET = new Set<string>(EVENT_TYPES);
const FINALITIES = new Set(['pending', 'confirmed', 'finalized']);

/** Hard bounds on one subscription, whatever the key's plan: every list a client sends is bounded. */
export const MAX_LIST_ITEMS = 10_000;
const MAX_ITEM_CHARS = 128;

export interface Subscription {
  id?: string;
  types: Set<EventType>;
  /** Raw upper-case addresses. */
  addresses: Set<string>;
  /** Normalized external message hashes (standard base64, matched verbatim). */
  hashes: Set<string>;
  minFinality: Finality;
  /** Action types to deliver (empty: every supported one). */
  actionTypes: Set<string>;
  /** Expanded supported action types (versions and families). */
  supported: Set<string>;
  supportedRequested: string[];
  includeAddressBook: boolean;
  includeMetadata: boolean;
  /** Resume: deliver the retained finalized blocks after this masterchain seqno first. */
  afterMcSeqno?: number;
}

export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly id?: string,
  ) {
    super(message);
  }
}

/** Any address form (raw, friendly standard or url-safe base64 with its checksum) → raw `wc:HEX` upper-case. */
export function normalizeAddress(text: string): string | null {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_ITEM_CHARS) return null;
  try {
    const a = Address.isRaw(text) ? Address.parseRaw(text) : Address.parseFriendly(text).address;
    return `${a.workChain}:${a.hash.toString('hex').toUpperCase()}`;
  } catch {
    return null;
  }
}

type Decoded = Record<string, unknown>;

function stringList(body: Decoded, field: string, prefix: string, id: string | undefined): string[] | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new ProtocolError(`${prefix}: ${field}: must be an array of strings`, id);
  if (value.length > MAX_LIST_ITEMS) throw new ProtocolError(`${prefix}: ${field}: more than ${MAX_LIST_ITEMS} items`, id);
  for (const item of value) {
    if (typeof item !== 'string') throw new ProtocolError(`${prefix}: ${field}: must be an array of strings`, id);
    if (item.length > MAX_ITEM_CHARS)
      throw new ProtocolError(`${prefix}: ${field}: an item is longer than ${MAX_ITEM_CHARS} characters`, id);
  }
  return value as string[];
}

function bool(body: Decoded, field: string, prefix: string, id: string | undefined): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ProtocolError(`${prefix}: ${field}: must be a boolean`, id);
  return value;
}

/** The request's `id`: only a string is one (a number is a decode error, as on the hosted service). */
function idOf(body: Decoded, prefix: string): string | undefined {
  const id = body.id;
  if (id === undefined || id === null) return undefined;
  if (typeof id !== 'string' || id.length > MAX_ITEM_CHARS)
    throw new ProtocolError(`${prefix}: id: must be a string of at most ${MAX_ITEM_CHARS} characters`);
  return id;
}

export interface ParseOptions {
  /** `sse`: the request body; `ws`: a `subscribe` message (fields omitted keep `previous`'s values). */
  mode: 'sse' | 'ws';
  previous?: Subscription;
  /** The connection's `X-Actions-Version` header: the default supported action types. */
  actionsVersion?: string;
}

/**
 * A subscription request → its subscription, or a ProtocolError with the hosted service's message. Checks run in
 * the hosted order: decoding, types, addresses, trace hashes.
 */
export function parseSubscription(input: unknown, opts: ParseOptions): Subscription {
  const prefix = opts.mode === 'sse' ? 'invalid subscription request' : 'invalid subscribe request';
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw new ProtocolError(`${prefix}: the request must be a JSON object`);
  const body = input as Decoded;
  const id = idOf(body, prefix);
  const types = stringList(body, 'types', prefix, id);
  const addresses = stringList(body, 'addresses', prefix, id);
  const hashes = stringList(body, 'trace_external_hash_norms', prefix, id);
  const actionTypes = stringList(body, 'action_types', prefix, id);
  const supported = stringList(body, 'supported_action_types', prefix, id);
  const includeAddressBook = bool(body, 'include_address_book', prefix, id);
  const includeMetadata = bool(body, 'include_metadata', prefix, id);
  let minFinality: Finality | undefined;
  if (body.min_finality !== undefined && body.min_finality !== null) {
    if (typeof body.min_finality !== 'string' || !FINALITIES.has(body.min_finality))
      throw new ProtocolError(`${prefix}: min_finality: must be one of pending, confirmed, finalized`, id);
    minFinality = body.min_finality as Finality;
  }
  let afterMcSeqno: number | undefined;
  if (body.after_mc_seqno !== undefined && body.after_mc_seqno !== null) {
    if (!Number.isSafeInteger(body.after_mc_seqno) || (body.after_mc_seqno as number) < 0)
      throw new ProtocolError(`${prefix}: after_mc_seqno: must be a non-negative integer`, id);
    afterMcSeqno = body.after_mc_seqno as number;
  }

  if (!types || types.length === 0)
    throw new ProtocolError(opts.mode === 'sse' ? 'types are required for subscription' : 'types are required', id);
  for (const t of types) if (!EVENT_TYPE_SET.has(t)) throw new ProtocolError(`invalid event type: ${t}`, id);
  const addressSet = new Set<string>();
  for (const a of addresses ?? []) {
    const raw = normalizeAddress(a.trim());
    if (!raw) throw new ProtocolError(`invalid address: ${a}`, id);
    addressSet.add(raw);
  }
  const hashSet = new Set<string>();
  for (const h of hashes ?? []) {
    const trimmed = h.trim();
    if (trimmed === '') throw new ProtocolError('trace_external_hash_norms contains empty value', id);
    hashSet.add(trimmed);
  }
  const typeSet = new Set(types as EventType[]);
  if (hashSet.size > 0 && !typeSet.has('trace')) throw new ProtocolError('trace_external_hash_norms requires type "trace"', id);
  if (typeSet.has('trace') && hashSet.size === 0)
    throw new ProtocolError('trace_external_hash_norms are required for trace subscription', id);
  const needsAddresses = [...typeSet].some((t) => t !== 'trace');
  if (needsAddresses && addressSet.size === 0)
    throw new ProtocolError(opts.mode === 'sse' ? 'addresses are required for subscription' : 'addresses are required', id);

  const prev = opts.previous;
  // On a WebSocket an empty list counts as omitted: the previous filter stays (hosted behaviour).
  const supportedRequested = supported && supported.length > 0 ? supported : (prev?.supportedRequested ?? []);
  const actionTypeList = actionTypes && actionTypes.length > 0 ? actionTypes : [...(prev?.actionTypes ?? [])];
  return {
    id,
    types: typeSet,
    addresses: addressSet,
    hashes: hashSet,
    minFinality: minFinality ?? prev?.minFinality ?? 'finalized',
    actionTypes: new Set(actionTypeList.map((t) => t.trim()).filter(Boolean)),
    supported: expandSupportedActionTypes(supportedRequested, supportedRequested.length > 0 ? undefined : opts.actionsVersion),
    supportedRequested,
    includeAddressBook: includeAddressBook ?? prev?.includeAddressBook ?? false,
    includeMetadata: includeMetadata ?? prev?.includeMetadata ?? false,
    afterMcSeqno,
  };
}

/** A WebSocket `unsubscribe`: the addresses (normalized) and hashes to drop. */
export function parseUnsubscribe(body: Decoded): { id?: string; addresses: string[]; hashes: string[] } {
  const prefix = 'invalid unsubscribe request';
  const id = idOf(body, prefix);
  const addresses = stringList(body, 'addresses', prefix, id) ?? [];
  const hashes = stringList(body, 'trace_external_hash_norms', prefix, id) ?? [];
  if (addresses.length === 0 && hashes.length === 0) throw new ProtocolError('addresses or trace_external_hash_norms are required', id);
  const raw: string[] = [];
  for (const a of addresses) {
    const r = normalizeAddress(a.trim());
    if (!r) throw new ProtocolError(`invalid address: ${a}`, id);
    raw.push(r);
  }
  return { id, addresses: raw, hashes: hashes.map((h) => h.trim()) };
}
