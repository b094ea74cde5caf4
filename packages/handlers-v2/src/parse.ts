import { Address, Cell } from '@ton/core';
import { parseFriendly } from './friendly-address.js';
import { ApiError } from './api-error.js';

/** Raw parameters of one request: GET query and POST body merged (the front door already validated their types). */
export type Params = Record<string, unknown>;

/**
 * Query values arrive URL-decoded, and an unencoded `+` (common in standard base64) decodes to a space. Neither
 * addresses nor hashes contain spaces, so map them back before trimming (a trailing `+` would otherwise be lost).
 */
export function queryToken(text: string): string {
  return text.replace(/ /g, '+').trim();
}

function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function invalid(name: string, detail: string): ApiError {
  return new ApiError(422, `invalid ${name}: ${detail}`);
}

/** A 256-bit standard address: raw `wc:hex` (any case) or user-friendly base64/base64url with its checksum. */
export function parseAddress(params: Params, name: string): Address {
  const value = params[name];
  if (!isPresent(value)) throw new ApiError(422, `${name} is required`);
  if (typeof value !== 'string') throw invalid(name, 'a string is expected');
  const text = queryToken(value);
  const address = tryParseAddress(text);
  if (!address) throw addressError(name, text);
  return address;
}

/** Standard addresses (addr_std) carry the workchain as an int8; anything wider would be silently wrapped. */
const MIN_WORKCHAIN = -128;
const MAX_WORKCHAIN = 127;

/** The 422 for an address parameter that did not parse, saying why when the workchain is the problem. */
export function addressError(name: string, text: string): ApiError {
  const raw = /^(-?\d+):[0-9a-fA-F]{64}$/.exec(text);
  if (raw) {
    return new ApiError(422, `invalid ${name}: workchain ${raw[1]} is outside ${MIN_WORKCHAIN}..${MAX_WORKCHAIN}, the range of a standard TON address`);
  }
  return new ApiError(422, `invalid ${name}: '${text}' is not a raw (wc:hex) or user-friendly TON address`);
}

/** Raw `wc:hex` or friendly; null when malformed or the workchain is outside int8. */
export function tryParseAddress(text: string): Address | null {
  try {
    const raw = /^(-?\d{1,4}):[0-9a-fA-F]{64}$/.exec(text);
    if (raw) {
      const workchain = Number(raw[1]);
      return workchain >= MIN_WORKCHAIN && workchain <= MAX_WORKCHAIN ? Address.parseRaw(text.toLowerCase()) : null;
    }
    const friendly = parseFriendly(text);
    if (friendly) return new Address(friendly.workchain, friendly.hash);
  } catch {
    return null;
  }
  return null;
}

/** A 32-byte hash: 64 hex chars (optional 0x, any case) or base64/base64url, padded or not. */
export function tryParseHash(text: string): Buffer | null {
  const hex = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (/^[0-9a-fA-F]{64}$/.test(hex)) return Buffer.from(hex, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/').replace(/=$/, ''), 'base64');
    if (bytes.length === 32) return bytes;
  }
  return null;
}

export function optionalHash(params: Params, name: string): Buffer | undefined {
  const value = params[name];
  if (!isPresent(value)) return undefined;
  const hash = typeof value === 'string' ? tryParseHash(queryToken(value)) : null;
  if (!hash) throw new ApiError(422, `invalid ${name}: '${String(value)}' is not a 32-byte hash in hex or base64`);
  return hash;
}

function toBigInt(name: string, value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return BigInt(value.trim());
  throw invalid(name, `'${String(value)}' is not an integer`);
}

/** An optional 64-bit integer (lt, shard). */
export function optionalInt64(params: Params, name: string): bigint | undefined {
  const value = params[name];
  if (!isPresent(value)) return undefined;
  const n = toBigInt(name, value);
  if (n < -(1n << 63n) || n >= 1n << 63n) throw invalid(name, 'out of the 64-bit range');
  return n;
}

export function requiredInt64(params: Params, name: string): bigint {
  const n = optionalInt64(params, name);
  if (n === undefined) throw new ApiError(422, `${name} is required`);
  return n;
}

/** An optional 32-bit integer (seqno, workchain, utime, count). */
export function optionalInt32(params: Params, name: string): number | undefined {
  const value = params[name];
  if (!isPresent(value)) return undefined;
  const n = toBigInt(name, value);
  if (n < -(1n << 31n) || n >= 1n << 31n) throw invalid(name, 'out of the 32-bit range');
  return Number(n);
}

export function requiredInt32(params: Params, name: string): number {
  const n = optionalInt32(params, name);
  if (n === undefined) throw new ApiError(422, `${name} is required`);
  return n;
}

/** Masterchain seqno selecting the state to read; must be positive when given. */
export function optionalSeqno(params: Params, name = 'seqno'): number | undefined {
  const seqno = optionalInt32(params, name);
  if (seqno !== undefined && seqno <= 0) throw new ApiError(422, `${name} should be positive`);
  return seqno;
}

export function requiredSeqno(params: Params, name = 'seqno'): number {
  const seqno = optionalSeqno(params, name);
  if (seqno === undefined) throw new ApiError(422, `${name} is required`);
  return seqno;
}

export function nonNegative<T extends number | bigint | undefined>(name: string, value: T): T {
  if (value !== undefined && value < 0) throw new ApiError(422, `${name} should be non-negative`);
  return value;
}

export function optionalBool(params: Params, name: string): boolean | undefined {
  const value = params[name];
  if (!isPresent(value)) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  const text = String(value).toLowerCase();
  if (['1', 'true', 'yes', 'y', 't', 'on'].includes(text)) return true;
  if (['0', 'false', 'no', 'n', 'f', 'off'].includes(text)) return false;
  throw invalid(name, `'${String(value)}' is not a boolean`);
}

/** Decodes standard or url-safe base64 strictly (no stray characters). */
export function decodeBase64(name: string, value: unknown): Buffer {
  if (typeof value !== 'string') throw invalid(name, 'a base64 string is expected');
  const text = value.trim();
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    throw invalid(name, 'not valid base64');
  }
  return Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** A single-root bag of cells given as base64. */
export function parseBoc(name: string, value: unknown): Cell {
  if (!isPresent(value)) throw new ApiError(422, `${name} is required`);
  const bytes = decodeBase64(name, value);
  try {
    const roots = Cell.fromBoc(bytes);
    if (roots.length !== 1) throw new Error(`expected one root cell, got ${roots.length}`);
    return roots[0]!;
  } catch (e) {
    throw invalid(name, `not a bag of cells (${(e as Error).message})`);
  }
}

export function optionalBoc(name: string, value: unknown): Cell | undefined {
  return isPresent(value) ? parseBoc(name, value) : undefined;
}
