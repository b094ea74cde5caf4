import type { v3 } from '@tongate/sdk';
import type { ChainDatabase } from '@tongate/store';
import { decodeMessageBody } from '@tongate/tlb';
import { Cell } from '@ton/core';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import { addressBook } from './address-book.js';
import { tokenMetadata } from './metadata.js';
import { window, type Page } from './params.js';

/** What the jetton and NFT lists share: the event tables' window and order, decoded payloads, the reply's books. */

type EventTable = 'jetton_transfers' | 'jetton_burns' | 'nft_transfers';

/**
 * The utime and lt bounds of a transfer or burn list, and its total order (WIRE.md): (transaction_lt,
 * transaction_hash), in the requested direction.
 */
export function windowedEvents<T extends EventTable, O>(
  q: SelectQueryBuilder<ChainDatabase, T, O>,
  query: { start_lt?: string; end_lt?: string; start_utime?: number; end_utime?: number },
  { limit, offset, sort }: Page,
): SelectQueryBuilder<ChainDatabase, T, O> {
  const { startLt, endLt, startUtime, endUtime } = window(query);
  // The event tables share these columns; Kysely cannot see that through the table union.
  const c = (name: string) => name as never;
  if (startUtime !== undefined) q = q.where(c('tx_now'), '>=', startUtime as never);
  if (endUtime !== undefined) q = q.where(c('tx_now'), '<=', endUtime as never);
  if (startLt !== undefined) q = q.where(c('tx_lt'), '>=', startLt as never);
  if (endLt !== undefined) q = q.where(c('tx_lt'), '<=', endLt as never);
  return q.orderBy(c('tx_lt'), sort).orderBy(c('tx_hash'), sort).limit(limit).offset(offset);
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
export async function books(db: Kysely<ChainDatabase>, addresses: (string | null | undefined)[], testnet: boolean): Promise<{ address_book: v3.AddressBook; metadata: v3.Metadata }> {
  const [address_book, metadata] = await Promise.all([addressBook(db, addresses, testnet), tokenMetadata(db, addresses)]);
  return { address_book, metadata };
}
