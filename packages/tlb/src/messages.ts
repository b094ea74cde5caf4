/**
 * The message-body catalogue: every constructor of the schemes' body types, looked up by 32-bit opcode.
 *
 * The scheme file ranks alternatives by type name: `InternalMsgBody0` is tried before `InternalMsgBody1` and so on,
 * then `ExternalMsgBody`, then `ExtOutMsgBody` (e.g. change_dns_record before delete_dns_record, which only fits
 * once the record reference is missing). A body decodes as the first constructor of its opcode that reads it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Cell } from '@ton/core';
import type { Constructor } from './ast.js';
import { BudgetExhaustedError, Decoder, type DecodeBudget, type Json } from './decoder.js';
import { parseTlb } from './parser.js';

/** spec/tlb/message-schemes.tlb: the contract of which bodies /decode understands. */
export const DEFAULT_MESSAGE_SCHEMES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../spec/tlb/message-schemes.tlb');

export type DecodedBody = { '@type': string; type: string; [field: string]: Json };
export type BodyDecodeResult = { ok: true; value: DecodedBody } | { ok: false; error: string };

function bodyRank(typeName: string): number | null {
  const internal = /^InternalMsgBody(\d+)$/.exec(typeName);
  if (internal) return Number(internal[1]);
  if (typeName === 'ExternalMsgBody') return 1_000;
  if (typeName === 'ExtOutMsgBody') return 1_001;
  return null;
}

/** Field renames so that decoded bodies match the API's message_content.decoded (`comment` for text comments). */
const PRESENTED_FIELDS: Record<string, Record<string, string>> = { text_comment: { text: 'comment' } };

export function opcodeHex(opcode: number): string {
  return `0x${opcode.toString(16).padStart(8, '0')}`;
}

export class MessageSchemes {
  private readonly decoder: Decoder;
  /** Body constructors with a tag, in rank order (stable: file order within a rank). */
  private readonly bodies: Constructor[];
  private readonly byOpcode = new Map<number, Constructor[]>();
  /** The few body constructors whose tag is shorter than an opcode. */
  private readonly shortTagged: Constructor[];

  constructor(readonly constructors: readonly Constructor[]) {
    this.decoder = new Decoder(constructors);
    this.bodies = constructors
      .map((c) => ({ c, rank: bodyRank(c.result.name) }))
      .filter((x): x is { c: Constructor; rank: number } => x.rank !== null && x.c.tag.length > 0 && x.c.tag.length <= 32)
      .sort((a, b) => a.rank - b.rank)
      .map((x) => x.c);
    this.shortTagged = this.bodies.filter((c) => c.tag.length < 32);
    for (const c of this.bodies) {
      if (c.tag.length !== 32) continue;
      const op = parseInt(c.tag, 2);
      this.byOpcode.set(op, [...(this.byOpcode.get(op) ?? []), c]);
    }
  }

  static fromFile(file = DEFAULT_MESSAGE_SCHEMES): MessageSchemes {
    return new MessageSchemes(parseTlb(readFileSync(file, 'utf8')));
  }

  /** Body constructors that an opcode selects, best first (tags shorter than 32 bits match as prefixes). */
  candidates(opcode: number): Constructor[] {
    const exact = this.byOpcode.get(opcode >>> 0);
    const bits = (opcode >>> 0).toString(2).padStart(32, '0');
    const short = this.shortTagged.filter((c) => bits.startsWith(c.tag));
    if (!short.length) return exact ?? [];
    const rank = (c: Constructor) => this.bodies.indexOf(c);
    return [...(exact ?? []), ...short].sort((a, b) => rank(a) - rank(b));
  }

  /** The scheme name of a 32-bit opcode (what messages carry as `decoded_opcode`), or null when none has it. */
  opcodeName(opcode: number): string | null {
    return this.candidates(opcode)[0]?.name ?? null;
  }

  /** Decodes a message body by its opcode with the first scheme that reads it, within the budget when one is given. */
  decodeBody(body: Cell, budget?: DecodeBudget): BodyDecodeResult {
    const s = body.beginParse(true);
    if (s.remainingBits < 32) return { ok: false, error: 'body has no 32-bit opcode' };
    const opcode = s.preloadUint(32);
    const candidates = this.candidates(opcode);
    if (!candidates.length) return { ok: false, error: `unknown opcode ${opcodeHex(opcode)}` };
    for (const ctor of candidates) {
      try {
        const fields = this.decoder.readConstructor(body.beginParse(true), ctor, budget);
        return { ok: true, value: present(ctor.name, fields) };
      } catch (e) {
        if (e instanceof BudgetExhaustedError) return { ok: false, error: e.message };
        // The next scheme of this opcode may fit.
      }
    }
    return {
      ok: false,
      error: `body does not match the schemes of opcode ${opcodeHex(opcode)} (${candidates.map((c) => c.name).join(', ')})`,
    };
  }
}

function present(name: string, fields: { [key: string]: Json }): DecodedBody {
  const renames = PRESENTED_FIELDS[name] ?? {};
  const out: DecodedBody = { '@type': name, type: name };
  for (const [k, v] of Object.entries(fields)) if (k !== '@type') out[renames[k] ?? k] = v;
  return out;
}
