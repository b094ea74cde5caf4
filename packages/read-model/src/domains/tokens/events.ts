import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { decodeMessageBody } from '@tongate/tlb';
import { Cell } from '@ton/core';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { addressBook } from '../../address-book.js';
import type { IndexTables } from '../../index-domain.js';
import { window, type Page } from '../../params.js';
import { tokenMetadata } from './metadata.js';
import type { TokenTables } from './tables.js';

/** What the jetton and NFT lists share: the event tables' window and order, decoded payloads, the reply's books. */

type EventTable = 'jetton_transfers' | 'jetton_burns' | 'nft_transfers';

/**
 * The utime and lt bounds of a transfer or burn list, and its total order (docs/wire.md): (transaction_lt,
 * transaction_hash), in the requested direction.
 */
export function windowedEvents<T extends EventTable, O>(
  q: SelectQueryBuilder<IndexTables<TokenTables>, T, O>,
  query: { start_lt?: bigint; end_lt?: bigint; start_utime?: number; end_utime?: number },
  { limit, offset, sort }: Page,
): SelectQueryBuilder<IndexTables<TokenTables>, T, O> {
  const { startLt, endLt, startUtime, endUtime } = window(query);
  // The event tables share these columns; Kysely cannot see that through the table union.
  const c = (name: string) => name as never;
  if (startUtime !== undefined) q = q.where(c('tx_now'), '>=', startUtime as never);
  if (endUtime !== undefined) q = q.where(c('tx_now'), '<=', endUtime as never);
  if (startLt !== undefined) q = q.where(c('tx_lt'), '>=', startLt as never);
  if (endLt !== undefined) q = q.where(c('tx_lt'), '<=', endLt as never);
  return q.orderBy(c('tx_lt'), sort).orderBy(c('tx_hash'), sort).limit(limit).offset(offset);
}

/** Above this many rows (offset + limit), eitherParty lets the database combine the two filters itself. */
const MERGE_MAX_ROWS = 10_000;

/**
 * A page of events where an owner is on either side (sender or receiver). Two index-ordered queries, one per side,
 * each stopping at offset + limit rows, merged in the list's order: a busy owner costs two short index scans
 * instead of an OR that gathers and sorts all of its events.
 */
export async function eitherParty<T extends EventTable, O extends { tx_lt: string; tx_hash: string }>(
  q: SelectQueryBuilder<IndexTables<TokenTables>, T, O>,
  [one, other]: readonly [string, string],
  owners: string[],
  query: { start_lt?: bigint; end_lt?: bigint; start_utime?: number; end_utime?: number },
  p: Page,
): Promise<O[]> {
  const c = (name: string) => name as never;
  if (p.offset + p.limit > MERGE_MAX_ROWS) {
    return windowedEvents(
      q.where((eb) => eb.or([eb(c(one), 'in', owners as never), eb(c(other), 'in', owners as never)])),
      query,
      p,
    ).execute();
  }
  const head: Page = { ...p, offset: 0, limit: p.offset + p.limit };
  const sides = await Promise.all(
    [one, other].map((column) => windowedEvents(q.where(c(column), 'in', owners as never), query, head).execute()),
  );
  const byHash = new Map<string, O>();
  for (const row of sides.flat()) byHash.set(row.tx_hash, row);
  const sign = p.sort === 'asc' ? 1 : -1;
  const merged = [...byHash.values()].sort((a, b) => {
    const lt = BigInt(a.tx_lt) - BigInt(b.tx_lt);
    return sign * (lt !== 0n ? (lt > 0n ? 1 : -1) : a.tx_hash < b.tx_hash ? -1 : a.tx_hash > b.tx_hash ? 1 : 0);
  });
  return merged.slice(p.offset, p.offset + p.limit);
}

/** A payload BOC decoded by the TL-B schemes of the message bodies (a comment, a known opcode); null otherwise. */
export function decodedPayload(boc: string | null): Record<string, unknown> | null {
  if (boc === null) return null;
  try {
    const decoded = decodeMessageBody(Cell.fromBase64(boc));
    return decoded.ok ? decoded.value : null;
  } catch {
    return null;
  }
}

/** address_book and metadata of a token list's addresses. */
export async function books(
  db: Kysely<ChainDatabase>,
  addresses: (string | null | undefined)[],
  testnet: boolean,
): Promise<{ address_book: v3.AddressBook; metadata: v3.Metadata }> {
  const [address_book, metadata] = await Promise.all([addressBook(db, addresses, testnet), tokenMetadata(db, addresses)]);
  return { address_book, metadata };
}
