import type { Address } from '@ton/core';
import { queryToken, tryParseAddress } from '@tongate/stubs';
import { rawAddress } from './address.js';

/**
 * The indexed operations' conversions from decoded parameters (@tongate/stubs' V3Inputs: addresses as Address,
 * hashes as Buffer, 64-bit values as bigint, spec defaults applied) to the forms the chain tables store.
 * Nothing here validates: the spec and the generated decoders have done that.
 */

/** The stored forms of an address list, each once. */
export function rawAddresses(addresses: readonly Address[] | undefined): string[] {
  return [...new Set((addresses ?? []).map(rawAddress))];
}

/** The stored form of an address the client wrote, or null when the text is not an address (address book keys). */
export function rawAddressOfText(text: string): string | null {
  const address = tryParseAddress(queryToken(text));
  return address ? rawAddress(address) : null;
}

/** A hash in the stored form (standard padded base64). */
export function storedHash(hash: Buffer): string;
export function storedHash(hash: Buffer | undefined): string | undefined;
export function storedHash(hash: Buffer | undefined): string | undefined {
  return hash?.toString('base64');
}

export function storedHashes(hashes: readonly Buffer[] | undefined): string[] {
  return [...new Set((hashes ?? []).map((h) => h.toString('base64')))];
}

/** A 64-bit value (lt, shard) in the stored decimal form. */
export function decimal(value: bigint | undefined): string | undefined {
  return value?.toString();
}

/** A source/destination filter: an address, or null for "no such address" (external messages). */
export function endpoint(address: Address | null | undefined): string | null | undefined {
  return address === undefined ? undefined : address === null ? null : rawAddress(address);
}

export interface Page {
  limit: number;
  offset: number;
  sort: 'asc' | 'desc';
}

/** limit/offset/sort (their defaults come from the spec through the decoder). */
export function page(query: { limit: number; offset: number; sort?: 'asc' | 'desc' }): Page {
  return { limit: query.limit, offset: query.offset, sort: query.sort ?? 'desc' };
}

/** The inclusive lt and utime bounds of a list; `byTime` when a utime bound orders the list by time first. */
export function window(query: { start_lt?: bigint; end_lt?: bigint; start_utime?: number; end_utime?: number }) {
  return {
    startLt: decimal(query.start_lt),
    endLt: decimal(query.end_lt),
    startUtime: query.start_utime,
    endUtime: query.end_utime,
    byTime: query.start_utime !== undefined || query.end_utime !== undefined,
  };
}
