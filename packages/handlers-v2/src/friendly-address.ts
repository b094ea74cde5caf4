/**
 * User-friendly address forms (tag byte, workchain byte, 32-byte hash, CRC16-XMODEM; base64 or base64url) with a
 * table-driven CRC. @ton/core computes the CRC bit by bit for every parse and every toString; detectAddress needs
 * one parse and four forms, which made the CRC the largest cost of the utils operations.
 */

const BOUNCEABLE_TAG = 0x11;
const NON_BOUNCEABLE_TAG = 0x51;
const TEST_FLAG = 0x80;

const CRC_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[byte] = crc;
  }
  return table;
})();

/** CRC16-XMODEM (poly 0x1021, init 0), as the friendly address format uses. */
export function crc16(bytes: Uint8Array, end = bytes.length): number {
  let crc = 0;
  for (let i = 0; i < end; i++) crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >> 8) ^ bytes[i]!) & 0xff]!;
  return crc;
}

export interface FriendlyAddress {
  workchain: number;
  hash: Buffer;
  bounceable: boolean;
  testOnly: boolean;
}

const FRIENDLY = /^[A-Za-z0-9+/_-]{48}$/;

/** Parses a 48-character friendly address (either alphabet); null when the text, tag or checksum is wrong. */
export function parseFriendly(text: string): FriendlyAddress | null {
  if (!FRIENDLY.test(text)) return null;
  const bytes = Buffer.from(text, 'base64');
  if (bytes.length !== 36) return null;
  if (crc16(bytes, 34) !== ((bytes[34]! << 8) | bytes[35]!)) return null;
  let tag = bytes[0]!;
  const testOnly = (tag & TEST_FLAG) !== 0;
  if (testOnly) tag ^= TEST_FLAG;
  if (tag !== BOUNCEABLE_TAG && tag !== NON_BOUNCEABLE_TAG) return null;
  // The workchain byte is an int8: 0xff is -1 and 0x80 is -128 (read unsigned, -128 and 128 would share a form).
  const workchain = bytes[1]! >= 0x80 ? bytes[1]! - 0x100 : bytes[1]!;
  return { workchain, hash: Buffer.from(bytes.subarray(2, 34)), bounceable: tag === BOUNCEABLE_TAG, testOnly };
}

/** The friendly bytes of an address, encoded in both alphabets (one CRC for the pair). */
export function friendlyForms(workchain: number, hash: Buffer, bounceable: boolean, testOnly: boolean): { b64: string; b64url: string } {
  const bytes = Buffer.allocUnsafe(36);
  bytes[0] = (bounceable ? BOUNCEABLE_TAG : NON_BOUNCEABLE_TAG) | (testOnly ? TEST_FLAG : 0);
  bytes[1] = workchain & 0xff;
  hash.copy(bytes, 2, 0, 32);
  const crc = crc16(bytes, 34);
  bytes[34] = crc >> 8;
  bytes[35] = crc & 0xff;
  // 36 bytes encode to 48 characters without padding, so base64url is the same text with two letters swapped.
  return { b64: bytes.toString('base64'), b64url: bytes.toString('base64url') };
}
