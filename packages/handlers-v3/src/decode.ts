/**
 * GET and POST /decode: opcodes to scheme names, message bodies to JSON, by the TL-B schemes of spec/tlb/
 * (@tongate/tlb). Answers from the schemes alone, the same on both networks.
 *
 * Input is bounded so that one request cannot hold the process: at most 1000 items of each kind (the hosted API's
 * limit), at most 64 KiB per body BOC and 2 MiB of body text per request (checked before anything is decoded). A body that is a valid BOC but fits no
 * scheme is not an input error: its entry is `{"error": …}` and the rest of the request is still answered. Decoding
 * work is bounded too (DECODE_BUDGET_VALUES per request): bodies past the budget get an error entry.
 */
import { Cell } from '@ton/core';
import { decodeBase64 } from '@tongate/domain';
import type { v3 } from '@tongate/sdk';
import { ApiError, queryToken, type V3Handlers } from '@tongate/stubs';
import { messageSchemes, type MessageSchemes } from '@tongate/tlb';

export type DecodeOperations = Pick<V3Handlers, 'decodeGet' | 'decodePost'>;

export const MAX_DECODE_ITEMS = 1000;
export const MAX_BODY_BYTES = 64 * 1024;
export const MAX_BODIES_TEXT = 2 * 1024 * 1024;
/** Values decoded per request, over all its bodies: 1000 typical bodies need about a tenth of it. */
export const DECODE_BUDGET_VALUES = 200_000;

/**
 * The items of a list (the decoder has split comma lists and repeated keys), a space read back as `+`. Their number
 * is checked here: the spec's maxItems cannot count the items of a comma list.
 */
function items(name: string, values: readonly string[] | undefined): string[] {
  const out = (values ?? []).map(queryToken);
  if (out.length > MAX_DECODE_ITEMS) throw new ApiError(422, `invalid ${name}: at most ${MAX_DECODE_ITEMS} items, got ${out.length}`);
  return out;
}

/** `0x`-hex, signed decimal, or bare hex (decimal wins when all digits); any 32-bit value, negatives as int32. */
export function parseOpcode(name: string, text: string): number {
  let value: number | null = null;
  if (/^0x[0-9a-f]{1,8}$/i.test(text)) value = parseInt(text.slice(2), 16);
  else if (/^-?\d{1,10}$/.test(text)) value = Number(text);
  else if (/^[0-9a-f]{1,8}$/i.test(text)) value = parseInt(text, 16);
  if (value === null || value < -0x8000_0000 || value > 0xffff_ffff) {
    throw new ApiError(422, `invalid ${name}: '${text}' is not a 32-bit opcode (0x-hex, hex or decimal)`);
  }
  return value >>> 0;
}

/** A single-root BOC in hex (it starts b5ee9c72, which base64 never does) or standard / url-safe base64. */
export function parseBody(name: string, text: string): Cell {
  if (text === '') throw new ApiError(422, `invalid ${name}: empty`);
  // Hex takes 2 characters a byte, base64 4 per 3: longer text cannot be within the limit.
  if (text.length > MAX_BODY_BYTES * 2 + 2) throw new ApiError(422, `invalid ${name}: larger than ${MAX_BODY_BYTES} bytes`);
  const hex = /^(0x)?[0-9a-f]+$/i.test(text) && /^(0x)?b5ee9c72/i.test(text);
  const bytes = hex ? Buffer.from(text.replace(/^0x/i, ''), 'hex') : decodeBase64(name, text);
  if (bytes.length > MAX_BODY_BYTES) throw new ApiError(422, `invalid ${name}: larger than ${MAX_BODY_BYTES} bytes`);
  let roots: Cell[];
  try {
    roots = Cell.fromBoc(bytes);
  } catch (e) {
    throw new ApiError(422, `invalid ${name}: not a bag of cells in base64 or hex (${(e as Error).message})`);
  }
  if (roots.length !== 1) throw new ApiError(422, `invalid ${name}: expected one root cell, got ${roots.length}`);
  return roots[0]!;
}

function decode(schemes: MessageSchemes, input: { opcodes?: string[]; bodies?: string[] }): v3.DecodeResponse {
  const opcodeTexts = items('opcodes', input.opcodes);
  const bodyTexts = items('bodies', input.bodies);
  if (opcodeTexts.length === 0 && bodyTexts.length === 0) throw new ApiError(422, 'opcodes or bodies is required');
  const totalText = bodyTexts.reduce((sum, b) => sum + b.length, 0);
  if (totalText > MAX_BODIES_TEXT) throw new ApiError(422, `invalid bodies: more than ${MAX_BODIES_TEXT} characters in all`);
  const opcodes = opcodeTexts.map((t, i) => parseOpcode(`opcodes[${i}]`, t));
  const cells = bodyTexts.map((t, i) => parseBody(`bodies[${i}]`, t));
  const budget = { values: DECODE_BUDGET_VALUES };
  return {
    opcodes: opcodes.map((op) => schemes.opcodeName(op) ?? 'unknown'),
    bodies: cells.map((cell) => {
      const r = schemes.decodeBody(cell, budget);
      return r.ok ? r.value : { error: r.error };
    }),
  };
}

export function decodeOperations(): DecodeOperations {
  const schemes = messageSchemes(); // parsed here, at startup, rather than on the first request
  return {
    async decodeGet({ query }) {
      return { status: 200, body: decode(schemes, query) };
    },
    async decodePost({ body }) {
      return { status: 200, body: decode(schemes, body) };
    },
  };
}
