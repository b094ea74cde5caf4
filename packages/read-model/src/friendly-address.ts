/**
 * User-friendly address forms (tag byte, workchain byte, 32-byte hash, CRC16-XMODEM; base64 or base64url). Parsing
 * is the decoders' (`parseFriendly` in @tongate/stubs); this writes the forms with the same table-driven CRC, since
 * @ton/core computes it bit by bit for every toString and detectAddress needs four forms.
 */
import { BOUNCEABLE_TAG, crc16, NON_BOUNCEABLE_TAG, TEST_FLAG } from '@tongate/stubs';

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
