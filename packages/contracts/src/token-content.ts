import { sha256_sync } from '@ton/crypto';
import { type Cell, Dictionary, type Slice } from '@ton/core';

/** TEP-64 token metadata: on-chain dictionary of sha256(key) → value, or an off-chain URI. */

const KNOWN_KEYS = ['uri', 'name', 'description', 'image', 'image_data', 'symbol', 'decimals', 'amount_style', 'render_type'];
const KEY_BY_HASH = new Map(KNOWN_KEYS.map((k) => [Buffer.from(sha256_sync(k)).toString('hex'), k]));

export type TokenContent = { type: 'onchain'; data: Record<string, string> } | { type: 'offchain'; data: string };

function snakeBytes(slice: Slice): Buffer {
  const parts: Buffer[] = [];
  let s: Slice | null = slice;
  while (s) {
    parts.push(s.loadBuffer(Math.floor(s.remainingBits / 8)));
    s = s.remainingRefs > 0 ? s.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

function contentDataBytes(cell: Cell): Buffer {
  const s = cell.beginParse();
  const prefix = s.loadUint(8);
  if (prefix === 0x00) return snakeBytes(s);
  if (prefix === 0x01) {
    const chunks = s.loadDict(Dictionary.Keys.Uint(32), Dictionary.Values.Cell());
    return Buffer.concat([...chunks.keys()].sort((a, b) => a - b).map((k) => snakeBytes(chunks.get(k)!.beginParse())));
  }
  throw new Error(`unknown content data prefix ${prefix}`);
}

function utf8(bytes: Buffer): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** Parses a TEP-64 content cell; throws when it is neither layout. */
export function parseTokenContent(cell: Cell): TokenContent {
  const s = cell.beginParse();
  const layout = s.loadUint(8);
  if (layout === 0x01) return { type: 'offchain', data: utf8(snakeBytes(s)) ?? '' };
  if (layout !== 0x00) throw new Error(`unknown content layout ${layout}`);
  const dict = s.loadDict(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());
  const data: Record<string, string> = {};
  for (const [keyHash, value] of dict) {
    const name = KEY_BY_HASH.get(keyHash.toString('hex'));
    if (!name) continue;
    let bytes: Buffer;
    try {
      bytes = contentDataBytes(value);
    } catch {
      continue;
    }
    if (name === 'image_data') {
      data[name] = bytes.toString('base64');
      continue;
    }
    const text = utf8(bytes);
    if (text !== null) data[name] = text;
  }
  return { type: 'onchain', data };
}
