import { parseShard } from '@tongate/chain';
import { queryToken, tryParseAddress, tryParseHash } from '@tongate/handlers-v2';
import { ApiError } from '@tongate/stubs';

/**
 * The indexed operations' parameter conversions. The front door's validator has already checked each parameter's
 * type, pattern, range and enum and applied the spec's defaults; what is left here is what a pattern cannot say
 * (checksums, 64-bit ranges, splitting comma lists) and the conversion to the stored form.
 */

function invalid(name: string, detail: string): ApiError {
  return new ApiError(422, `invalid ${name}: ${detail}`);
}

/** Raw upper-case `wc:HEX`, the stored form; null when the text is not an address. */
export function toRawAddress(text: string): string | null {
  const address = tryParseAddress(queryToken(text));
  return address ? `${address.workChain}:${address.hash.toString('hex').toUpperCase()}` : null;
}

export function rawAddressParam(name: string, text: string): string {
  const raw = toRawAddress(text);
  if (!raw) throw invalid(name, `'${text}' is not a raw (wc:hex) or user-friendly TON address`);
  return raw;
}

/** The items of a list parameter: repeated keys and comma-separated values alike. */
export function listItems(values: readonly string[] | string | undefined): string[] {
  if (values === undefined) return [];
  return (Array.isArray(values) ? values : [values]).flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
}

export function addressList(name: string, values: readonly string[] | undefined): string[] {
  return [...new Set(listItems(values).map((v) => rawAddressParam(name, v)))];
}

/** A hash in the stored form (standard padded base64). */
export function hashParam(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const hash = tryParseHash(queryToken(text));
  if (!hash) throw invalid(name, `'${text}' is not a 32-byte hash in hex or base64`);
  return hash.toString('base64');
}

export function hashList(name: string, values: readonly string[] | undefined): string[] {
  return [...new Set(listItems(values).map((v) => hashParam(name, v)!))];
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** An lt (or other 64-bit) bound as a decimal string; the spec's pattern has made sure it is an integer. */
export function int64Param(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const value = BigInt(text);
  if (value < INT64_MIN || value > INT64_MAX) throw invalid(name, 'out of the 64-bit range');
  return value.toString();
}

export function shardParam(name: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    return parseShard(text).toString();
  } catch (e) {
    throw invalid(name, (e as Error).message);
  }
}

/** A body opcode as the signed 32-bit integer the messages table stores: 0x-hex, bare hex or signed decimal. */
export function opcodeParam(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  let value: bigint;
  if (/^0x[0-9a-f]{1,8}$/i.test(text)) value = BigInt(text);
  else if (/^-?[0-9]+$/.test(text)) value = BigInt(text);
  else if (/^[0-9a-f]{1,8}$/i.test(text)) value = BigInt('0x' + text);
  else throw invalid(name, `'${text}' is not an opcode`);
  if (value < -(2n ** 31n) || value >= 2n ** 32n) throw invalid(name, 'out of the 32-bit range');
  return Number(BigInt.asIntN(32, value));
}

/** A source/destination filter: an address, or `null` for "no such address" (external messages). */
export function endpointParam(name: string, text: string | undefined): string | null | undefined {
  if (text === undefined) return undefined;
  return text === 'null' ? null : rawAddressParam(name, text);
}

export interface Page {
  limit: number;
  offset: number;
  sort: 'asc' | 'desc';
}

/** limit/offset/sort as the validator leaves them (defaults from the spec applied). */
export function page(query: { limit?: number; offset?: number; sort?: 'asc' | 'desc' }): Page {
  if (query.limit === undefined || query.offset === undefined) {
    throw new Error('limit/offset missing: the request validator applies the spec defaults before handlers run');
  }
  return { limit: query.limit, offset: query.offset, sort: query.sort ?? 'desc' };
}

/** The inclusive lt and utime bounds of a list; `byTime` when a utime bound orders the list by time first. */
export function window(query: { start_lt?: string; end_lt?: string; start_utime?: number; end_utime?: number }) {
  return {
    startLt: int64Param('start_lt', query.start_lt),
    endLt: int64Param('end_lt', query.end_lt),
    startUtime: query.start_utime,
    endUtime: query.end_utime,
    byTime: query.start_utime !== undefined || query.end_utime !== undefined,
  };
}

/** The 32-bit integer parameters of the indexed operations (seqnos, workchains, unix times, limit and offset). */
const INT32_PARAMS = ['workchain', 'seqno', 'mc_seqno', 'start_utime', 'end_utime', 'limit', 'offset', 'election_id', 'cycle_start'] as const;

/**
 * The validator's integer coercion lets some texts through as numbers no integer column takes (`1e400` becomes
 * Infinity): each integer parameter is checked to be a 32-bit integer before it reaches SQL.
 */
export function checkedIntegers<Q extends object | undefined>(query: Q): Q {
  if (!query) return query;
  const out: Record<string, unknown> = { ...query };
  for (const name of INT32_PARAMS) {
    const v = out[name];
    if (v === undefined) continue;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) throw invalid(name, `'${String(v)}' is not a 32-bit integer`);
    out[name] = n;
  }
  return out as Q;
}
