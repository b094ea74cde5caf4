import { Address, Cell, ExternalAddress, type Slice } from '@ton/core';
import type { RawAddress } from './types.js';

/** Raw upper-case form of an internal address. */
export function rawAddress(address: Address): RawAddress {
  return `${address.workChain}:${address.hash.toString('hex').toUpperCase()}`;
}

/** Reads MsgAddress: internal → raw string, addr_none → null, external → `len;hex` (the reference's text form). */
export function loadAddress(s: Slice): RawAddress | null {
  // An anycast addr_std: the reference keeps the workchain and hash as written and ignores the rewrite prefix
  // (@ton/core would apply it), so toncenter shows the unrewritten address.
  if (s.remainingBits >= 8 && s.preloadUint(3) === 0b101) {
    s.skip(3);
    s.skip(s.loadUint(5));
    const workchain = s.loadInt(8);
    return `${workchain}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
  }
  const a = s.loadAddressAny();
  if (a === null) return null;
  if (a instanceof ExternalAddress) return `${a.bits};${a.value.toString(16)}`;
  return rawAddress(a);
}

/** Base64 BOC of a cell; the reference writes payloads with a CRC32C and relayed messages without. */
export function boc(cell: Cell, options: { crc?: boolean } = {}): string {
  return cell.toBoc({ idx: false, crc32: options.crc ?? true }).toString('base64');
}

/** The rest of a slice as a cell (for inline `Either X ^X` payloads). */
export function restAsCell(s: Slice): Cell {
  return s.asCell();
}

/** Reads `Either Cell ^Cell`: the payload as a cell, or null when the slice is exhausted or malformed. */
export function loadEitherCell(s: Slice): Cell | null {
  if (s.remainingBits < 1) return null;
  if (s.loadBit()) return s.remainingRefs > 0 ? s.loadRef() : null;
  return s.asCell();
}

export function loadMaybeRefBoc(s: Slice): string | null {
  const c = s.loadMaybeRef();
  return c ? boc(c) : null;
}

/** Decimal string of an unsigned integer of `bits` bits. */
export function uintStr(s: Slice, bits: number): string {
  return s.loadUintBig(bits).toString();
}

export function coinsStr(s: Slice): string {
  return s.loadCoins().toString();
}

/** Snake-encoded text (the comment of op 0), with NUL characters dropped as the reference does. */
export function readSnakeText(s: Slice): string {
  let bytes = Buffer.alloc(0);
  let cur: Slice | null = s;
  while (cur) {
    const n = Math.floor(cur.remainingBits / 8);
    bytes = Buffer.concat([bytes, cur.loadBuffer(n)]);
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return bytes.toString('utf8').replace(/\u0000/g, '');
}

export function readSnakeBytes(s: Slice): Buffer {
  let bytes = Buffer.alloc(0);
  let cur: Slice | null = s;
  while (cur) {
    bytes = Buffer.concat([bytes, cur.loadBuffer(Math.floor(cur.remainingBits / 8))]);
    cur = cur.remainingRefs > 0 ? cur.loadRef().beginParse() : null;
  }
  return bytes;
}

/** Runs a decoder and turns any decoding error into null: a malformed body never breaks classification. */
export function tryDecode<T>(decode: () => T): T | null {
  try {
    return decode();
  } catch {
    return null;
  }
}

export const OP_TEXT_COMMENT = 0x00000000;
export const OP_ENCRYPTED_COMMENT = 0x2167da4b;

export interface Comment {
  text: string;
  encrypted: boolean;
}

/** A text (op 0) or encrypted (0x2167da4b, base64 of the ciphertext) comment carried by a body, else null. */
export function readComment(cell: Cell | null): Comment | null {
  if (!cell) return null;
  return tryDecode(() => {
    const s = cell.beginParse();
    if (s.remainingBits < 32) return null;
    const op = s.loadUint(32);
    if (op === OP_TEXT_COMMENT) return { text: readSnakeText(s), encrypted: false };
    if (op === OP_ENCRYPTED_COMMENT) return { text: readSnakeBytes(s).toString('base64'), encrypted: true };
    return null;
  });
}

/** An unsigned 256-bit integer as 64 hex digits (hashes, public keys, bitcoin transaction ids). */
export function uint256Hex(s: Slice): string {
  return s.loadUintBig(256).toString(16).padStart(64, '0');
}

/** A bitcoin transaction id: 256 bits shown in bitcoin's byte order (reversed). */
export function bitcoinTxId(s: Slice): string {
  return Buffer.from(uint256Hex(s), 'hex').reverse().toString('hex');
}

/** DeDust's asset: native$0000 (TON, null) or jetton$0001 workchain:int8 address:bits256 (the jetton master). */
export function dedustAsset(s: Slice): RawAddress | null {
  const kind = s.loadUint(4);
  if (kind === 0) return null;
  const wc = s.loadInt(8);
  return `${wc}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
}

/** Coffee's asset: native$00 (TON, null), jetton$01 chain:uint8 hash:uint256, extra$10 id:uint32 (`extra:<id>`). */
export function coffeeAsset(s: Slice): RawAddress | null {
  const tag = s.loadUint(2);
  if (tag === 0) return null;
  if (tag === 1) {
    const chain = s.loadUint(8);
    return `${chain > 127 ? chain - 256 : chain}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
  }
  return `extra:${s.loadUint(32)}`;
}
