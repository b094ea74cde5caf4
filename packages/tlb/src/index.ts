import type { Cell } from '@ton/core';
import { MessageSchemes, type BodyDecodeResult } from './messages.js';

export type { Constructor, Field, Param, TypeExpr } from './ast.js';
export { parseTlb, TlbSyntaxError } from './parser.js';
export { BudgetExhaustedError, Decoder, MAX_VALUES_PER_BODY, TlbDecodeError, type DecodeBudget, type Json } from './decoder.js';
export { DEFAULT_MESSAGE_SCHEMES, MessageSchemes, opcodeHex, type BodyDecodeResult, type DecodedBody } from './messages.js';

let shared: MessageSchemes | undefined;

/** The schemes of spec/tlb/message-schemes.tlb, parsed once per process on first use (about 15 ms: bench/results/decode.json). */
export function messageSchemes(): MessageSchemes {
  shared ??= MessageSchemes.fromFile();
  return shared;
}

/** The scheme name of a message opcode, for messages' `decoded_opcode`; null when no scheme has it. */
export function decodeOpcode(opcode: number): string | null {
  return messageSchemes().opcodeName(opcode);
}

/** A message body decoded by its opcode (`{"@type": name, …}`), or why it could not be. */
export function decodeMessageBody(body: Cell): BodyDecodeResult {
  return messageSchemes().decodeBody(body);
}
