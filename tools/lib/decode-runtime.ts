// The conversions the generated decoders apply to a request that passed validation against the spec: each turns
// one validated parameter into its typed form, and checks only what a schema cannot say (address checksums,
// 64-bit ranges). Errors are ApiError 422 naming the parameter in words a person reads.
import { Address } from '@ton/core';
import { ApiError } from './runtime.js';

/** What the request carries before decoding: the validated query, JSON body and path parameters. */
export interface RawRequest {
  query?: unknown;
  body?: unknown;
  path?: unknown;
}

/** Fields of one request part; an absent part reads as no fields. */
export function fieldsOf(part: unknown): Record<string, unknown> {
  return typeof part === 'object' && part !== null && !Array.isArray(part) ? (part as Record<string, unknown>) : {};
}

/** Absent, JSON null (toncenter accepts null for an optional field) and the empty query value all mean "not given". */
export function given(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

/** Why a parameter of each kind was refused; also what the front door says when a kind's spec pattern fails. */
export const EXPECTED = {
  address: 'not a valid TON address (raw 0:<64 hex> or 48-character user-friendly)',
  addressOrNull: 'not a valid TON address (raw 0:<64 hex> or 48-character user-friendly) nor null',
  hash: 'not a 32-byte hash (64 hex digits or 43/44 base64 characters)',
  accountId: 'neither a 32-byte account id (hex or base64) nor a TON address',
  int64: 'not a 64-bit integer in decimal digits',
  shard: 'not a shard id (0x-hex, 16 hex digits or a signed decimal)',
  opcode: 'not an opcode (0x-hex, bare hex of at most 8 digits or a signed 32-bit decimal)',
  int32: 'not a 32-bit integer',
} as const;

function invalid(name: string, detail: string): ApiError {
  return new ApiError(422, `${name}: ${detail}`);
}

/**
 * Query values arrive URL-decoded, and an unencoded `+` (common in standard base64) decodes to a space. Neither
 * addresses nor hashes contain spaces, so they are mapped back before trimming (a trailing `+` would otherwise be lost).
 */
export function queryToken(text: string): string {
  return text.replace(/ /g, '+').trim();
}

const CRC_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[byte] = crc;
  }
  return table;
})();

/** CRC16-XMODEM (poly 0x1021, init 0), the checksum of user-friendly addresses; table-driven (@ton/core's is bitwise). */
export function crc16(bytes: Uint8Array, end = bytes.length): number {
  let crc = 0;
  for (let i = 0; i < end; i++) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >> 8) ^ bytes[i]!) & 0xff]!;
  return crc;
}

export const BOUNCEABLE_TAG = 0x11;
export const NON_BOUNCEABLE_TAG = 0x51;
export const TEST_FLAG = 0x80;

export interface FriendlyFlags {
  bounceable: boolean;
  testOnly: boolean;
}

/**
 * The flags of the user-friendly form an address parameter was given in (null for raw input): some replies echo the
 * address in the form it came. Kept beside the Address, which @ton/core freezes.
 */
const givenFlags = new WeakMap<Address, FriendlyFlags>();

export function friendlyFlags(address: Address): FriendlyFlags | null {
  return givenFlags.get(address) ?? null;
}

const FRIENDLY = /^[A-Za-z0-9+/_-]{48}$/;
const RAW = /^(-?\d{1,10}):[0-9a-fA-F]{64}$/;
/** Standard addresses (addr_std) carry the workchain as an int8; anything wider would be silently wrapped. */
const MIN_WORKCHAIN = -128;
const MAX_WORKCHAIN = 127;

/** A 48-character friendly address (either alphabet); null when the text, tag or checksum is wrong. */
export function parseFriendly(text: string): Address | null {
  if (!FRIENDLY.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== 36) return null;
  if (crc16(bytes, 34) !== ((bytes[34]! << 8) | bytes[35]!)) return null;
  let tag = bytes[0]!;
  const testOnly = (tag & TEST_FLAG) !== 0;
  if (testOnly) tag ^= TEST_FLAG;
  if (tag !== BOUNCEABLE_TAG && tag !== NON_BOUNCEABLE_TAG) return null;
  // The workchain byte is an int8: 0xff is -1 and 0x80 is -128.
  const workchain = bytes[1]! >= 0x80 ? bytes[1]! - 0x100 : bytes[1]!;
  const address = new Address(workchain, Buffer.from(bytes.subarray(2, 34)));
  givenFlags.set(address, { bounceable: tag === BOUNCEABLE_TAG, testOnly });
  return address;
}

/** Raw `wc:hex` (any case) or friendly; null when malformed, the checksum is wrong or the workchain is outside int8. */
export function tryParseAddress(text: string): Address | null {
  const raw = RAW.exec(text);
  if (raw) {
    const workchain = Number(raw[1]);
    if (workchain < MIN_WORKCHAIN || workchain > MAX_WORKCHAIN) return null;
    return new Address(workchain, Buffer.from(text.slice(text.indexOf(':') + 1), 'hex'));
  }
  return parseFriendly(text);
}

/** A 32-byte hash: 64 hex digits (optional 0x, any case) or base64/base64url, padded or not. */
export function tryParseHash(text: string): Buffer | null {
  const hex = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/').replace(/=$/, ''), 'base64');
    if (bytes.length === 32) return bytes;
  }
  return null;
}

function text(value: unknown): string {
  return queryToken(typeof value === 'string' ? value : String(value));
}

/** The items of a list parameter: repeated keys and comma-separated values alike. */
function items(value: unknown): string[] {
  const values = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const v of values) {
    if (!given(v)) continue;
    for (const part of String(v).split(',')) {
      const item = part.trim();
      if (item !== '') out.push(item);
    }
  }
  return out;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** One function per parameter kind the generator knows (tools/lib/decoders.mjs classifies the spec's schemas). */
export const decode = {
  address(name: string, value: unknown): Address {
    const t = text(value);
    const address = tryParseAddress(t);
    if (address) return address;
    const raw = /^(-?\d+):[0-9a-fA-F]{64}$/.exec(t);
    if (raw) throw invalid(name, `workchain ${raw[1]} is outside ${MIN_WORKCHAIN}..${MAX_WORKCHAIN}, the range of a standard TON address`);
    if (FRIENDLY.test(t)) throw invalid(name, `'${t}' is not a valid user-friendly TON address (wrong checksum or tag)`);
    throw invalid(name, EXPECTED.address);
  },

  /** An address, or the word `null` for "no address" (external messages have no source). */
  addressOrNull(name: string, value: unknown): Address | null {
    return text(value) === 'null' ? null : decode.address(name, value);
  },

  addressList(name: string, value: unknown): Address[] {
    return items(value).map((item) => decode.address(name, item));
  },

  hash(name: string, value: unknown): Buffer {
    const hash = tryParseHash(text(value));
    if (!hash) throw invalid(name, EXPECTED.hash);
    return hash;
  },

  hashList(name: string, value: unknown): Buffer[] {
    return items(value).map((item) => decode.hash(name, item));
  },

  /** An account named by its 32-byte id or by any address form (v2's `after_hash`). */
  accountId(name: string, value: unknown): Buffer {
    const t = text(value);
    const id = tryParseHash(t) ?? tryParseAddress(t)?.hash ?? null;
    if (!id) throw invalid(name, EXPECTED.accountId);
    return id;
  },

  int64(name: string, value: unknown): bigint {
    const t = String(value).trim();
    if (!/^-?\d+$/.test(t)) throw invalid(name, EXPECTED.int64);
    const n = BigInt(t);
    if (n < INT64_MIN || n > INT64_MAX) throw invalid(name, 'out of the 64-bit range');
    return n;
  },

  /** A shard id as a signed 64-bit integer: 0x-hex, bare 16-digit hex or decimal (signed or the unsigned form). */
  shard(name: string, value: unknown): bigint {
    const t = String(value).trim();
    let n: bigint;
    if (/^0x[0-9a-f]{1,16}$/i.test(t)) n = BigInt(t);
    else if (/^[0-9a-f]{16}$/i.test(t)) n = BigInt('0x' + t);
    else if (/^-?\d+$/.test(t)) n = BigInt(t);
    else throw invalid(name, EXPECTED.shard);
    if (n < INT64_MIN || n >= 2n ** 64n) throw invalid(name, 'out of the 64-bit range');
    return BigInt.asIntN(64, n);
  },

  /** A message body opcode as the signed 32-bit integer it is stored as. */
  opcode(name: string, value: unknown): number {
    const t = String(value).trim();
    let n: bigint;
    if (/^0x[0-9a-f]{1,8}$/i.test(t)) n = BigInt(t);
    else if (/^-?[0-9]+$/.test(t)) n = BigInt(t);
    else if (/^[0-9a-f]{1,8}$/i.test(t)) n = BigInt('0x' + t);
    else throw invalid(name, EXPECTED.opcode);
    if (n < -(2n ** 31n) || n >= 2n ** 32n) throw invalid(name, 'out of the 32-bit range');
    return Number(BigInt.asIntN(32, n));
  },

  /**
   * An integer parameter: the validator has coerced it, but coercion lets through texts no integer column takes
   * (`1e400` becomes Infinity), so the 32-bit range is checked here.
   */
  int32(name: string, value: unknown): number {
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(n) || n < -(2 ** 31) || n >= 2 ** 31) throw invalid(name, EXPECTED.int32);
    return n;
  },

  bool(name: string, value: unknown): boolean {
    if (typeof value === 'boolean') return value;
    const t = String(value).trim().toLowerCase();
    if (t === 'true' || t === '1') return true;
    if (t === 'false' || t === '0') return false;
    throw invalid(name, 'not a boolean (true or false)');
  },

  stringList(_name: string, value: unknown): string[] {
    return items(value);
  },
};

export type DecodeKind = keyof typeof decode;
