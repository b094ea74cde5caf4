/**
 * Reads cells by TL-B constructors into JSON. Generic over the parsed schemes, with native readers for the types
 * whose generic form would be noise in JSON (Maybe, Either, Bool, VarUInteger/Coins/Grams, MsgAddress, Hashmap)
 * and for the built-ins a scheme file never defines (uintN, intN, bitsN, #, Cell, Any, SnakeString).
 *
 * JSON forms: a constructor is an object `{"@type": name, …fields}` (no `@type` for anonymous `_` constructors);
 * naturals and integers up to 32 bits are numbers, wider ones decimal strings; bits are TON hex (`BitString`'s
 * upper-case form, `_`-completed when not a multiple of 4); Coins/VarUInteger decimal strings; a standard address
 * is raw `wc:HEX`, addr_none is null; Maybe is the value or null; Either is the value of the branch present;
 * Cell/Any are base64 BOCs of what is left; Hashmap/HashmapE objects keyed by decimal (≤ 64-bit keys) or hex keys.
 */
import { beginCell, BitString, type Cell, type Slice } from '@ton/core';
import type { Constructor, Field, TypeExpr } from './ast.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export class TlbDecodeError extends Error {
  override readonly name = 'TlbDecodeError';
}

/** A type bound to a type parameter, with the environment its free names are read in. */
interface BoundType {
  type: TypeExpr;
  env: Env;
}
type Env = Map<string, number | BoundType>;

/**
 * Limits that keep a hostile body cheap: nesting depth, and values read per body, failed attempts included (real
 * bodies need well under 200). A caller decoding many bodies shares one DecodeBudget across them as well.
 */
const MAX_DEPTH = 256;
export const MAX_VALUES_PER_BODY = 10_000;

/** Values that may still be read, shared by the bodies of one request; decoding fails once it is spent. */
export interface DecodeBudget {
  values: number;
}

export class BudgetExhaustedError extends Error {
  override readonly name = 'BudgetExhaustedError';
}

function bitLength(n: number): number {
  return n <= 0 ? 0 : Math.floor(Math.log2(n)) + 1;
}

function intJson(v: bigint, bits: number): number | string {
  return bits <= 32 ? Number(v) : v.toString();
}

/** The remaining bits and references of a slice as one cell (a fresh cell: the slice may start mid-cell). */
function restCell(s: Slice): Cell {
  return beginCell().storeSlice(s).endCell();
}

function bocOf(cell: Cell): string {
  return cell.toBoc({ idx: false, crc32: true }).toString('base64');
}

export class Decoder {
  private readonly byType = new Map<string, Constructor[]>();
  private depth = 0;
  private values = 0;
  private budget: DecodeBudget | undefined;

  constructor(constructors: readonly Constructor[]) {
    for (const c of constructors) {
      const list = this.byType.get(c.result.name) ?? [];
      list.push(c);
      this.byType.set(c.result.name, list);
    }
  }

  /**
   * Reads one constructor (tag included) from the slice, which it advances. Throws TlbDecodeError when the cell
   * does not fit it; callers that try several constructors pass a clone.
   */
  readConstructor(s: Slice, ctor: Constructor, budget?: DecodeBudget): { [key: string]: Json } {
    this.depth = 0;
    this.values = 0;
    this.budget = budget;
    return this.constructorValue(s, ctor, new Map());
  }

  private constructorValue(s: Slice, ctor: Constructor, env: Env): { [key: string]: Json } {
    if (ctor.tag) {
      if (s.remainingBits < ctor.tag.length) throw new TlbDecodeError(`${ctor.name}: no room for the tag`);
      const tag = s.loadUint(ctor.tag.length);
      if (tag !== parseInt(ctor.tag, 2)) throw new TlbDecodeError(`${ctor.name}: tag mismatch`);
    }
    const out: { [key: string]: Json } = ctor.name === '_' ? {} : { '@type': ctor.name };
    this.readFields(s, ctor.fields, env, out);
    return out;
  }

  private readFields(s: Slice, fields: readonly Field[], env: Env, out: { [key: string]: Json }): void {
    for (const field of fields) {
      const value = this.read(s, field.type, env);
      if (field.name === null) {
        // An anonymous field's object reads as part of its parent (`_ (Message Any) = MessageAny`, `_:Text`).
        if (value && typeof value === 'object' && !Array.isArray(value)) {
          for (const [k, v] of Object.entries(value)) if (k !== '@type' || !('@type' in out)) out[k] = v;
        } else {
          out['_'] = value;
        }
        continue;
      }
      out[field.name] = value;
      // Naturals read earlier size later fields (`len:(## 9) address:(bits len)`).
      if (typeof value === 'number') env.set(field.name, value);
    }
  }

  /** The numeric value of an expression: a literal, a bound natural, or + and * of those. */
  private nat(e: TypeExpr, env: Env): number {
    switch (e.kind) {
      case 'number':
        return e.value;
      case 'apply': {
        const v = env.get(e.name);
        if (typeof v === 'number' && e.args.length === 0) return v;
        throw new TlbDecodeError(`${e.name} is not a known natural`);
      }
      case 'binary': {
        const l = this.nat(e.left, env);
        const r = this.nat(e.right, env);
        return e.op === '+' ? l + r : l * r;
      }
      case 'output':
        return this.nat(e.inner, env);
      default:
        throw new TlbDecodeError(`not a natural: ${e.kind}`);
    }
  }

  private isNat(e: TypeExpr, env: Env): boolean {
    try {
      this.nat(e, env);
      return true;
    } catch {
      return false;
    }
  }

  read(s: Slice, t: TypeExpr, env: Env): Json {
    if (++this.values > MAX_VALUES_PER_BODY) throw new BudgetExhaustedError(`more than ${MAX_VALUES_PER_BODY} values in one body`);
    if (this.budget && --this.budget.values < 0) throw new BudgetExhaustedError('decoding budget of this request exhausted');
    if (++this.depth > MAX_DEPTH) throw new TlbDecodeError('nested too deep');
    try {
      return this.readInner(s, t, env);
    } finally {
      this.depth--;
    }
  }

  private readInner(s: Slice, t: TypeExpr, env: Env): Json {
    switch (t.kind) {
      case 'ref': {
        const cell = s.loadRef();
        if (t.inner.kind === 'apply' && t.inner.name === 'Cell' && t.inner.args.length === 0) return bocOf(cell);
        // Exotic cells (merkle proofs, pruned branches) are read as their raw bits, as the schemes describe them.
        return this.read(cell.beginParse(true), t.inner, env);
      }
      case 'record': {
        const out: { [key: string]: Json } = {};
        this.readFields(s, t.fields, new Map(env), out);
        return out;
      }
      case 'conditional': {
        const v = env.get(t.condition);
        if (typeof v !== 'number') throw new TlbDecodeError(`condition ${t.condition} is not a known natural`);
        const present = t.bit === null ? v !== 0 : ((v >> t.bit) & 1) === 1;
        return present ? this.read(s, t.then, env) : null;
      }
      case 'nat': {
        const n = this.nat(t.arg, env);
        const bits = t.op === '##' ? n : t.op === '#<' ? bitLength(n - 1) : bitLength(n);
        return intJson(s.loadUintBig(bits), bits);
      }
      case 'binary': {
        // `n * X`: n values of X.
        const count = this.nat(t.left, env);
        const items: Json[] = [];
        for (let i = 0; i < count; i++) items.push(this.read(s, t.right, env));
        return items;
      }
      case 'output':
      case 'number':
        throw new TlbDecodeError(`a number is not a type`);
      case 'apply':
        return this.apply(s, t.name, t.args, env);
    }
  }

  private apply(s: Slice, name: string, args: TypeExpr[], env: Env): Json {
    const bound = env.get(name);
    if (bound !== undefined && typeof bound !== 'number' && args.length === 0) return this.read(s, bound.type, bound.env);
    const sized = /^(uint|int|bits)(\d+)$/.exec(name);
    if (sized && args.length === 0) return this.sized(s, sized[1]!, Number(sized[2]));
    switch (name) {
      case '#':
        return s.loadUint(32);
      case 'uint':
      case 'int':
      case 'bits':
        return this.sized(s, name, this.nat(args[0]!, env));
      case 'Bool':
        return s.loadBit();
      case 'Cell':
      case 'Any':
        return bocOf(restCell(s));
      case 'SnakeString':
        return s.loadStringTail();
      case 'Bytes':
        return readSnakeBytes(s).toString('hex');
      case 'Coins':
      case 'Grams':
        return s.loadCoins().toString();
      case 'VarUInteger':
      case 'VarInteger': {
        const lenBits = bitLength(this.nat(args[0]!, env) - 1);
        return (name === 'VarUInteger' ? s.loadVarUintBig(lenBits) : s.loadVarIntBig(lenBits)).toString();
      }
      case 'Maybe':
        return s.loadBit() ? this.read(s, args[0]!, env) : null;
      case 'Either':
        return this.read(s, args[s.loadBit() ? 1 : 0]!, env);
      case 'MsgAddress':
      case 'MsgAddressInt':
      case 'MsgAddressExt': {
        const native = readPlainAddress(s, name);
        if (native !== undefined) return native;
        break;
      }
      case 'HashmapE':
        return s.loadBit() ? this.hashmap(s.loadRef().beginParse(), this.nat(args[0]!, env), args[1]!, env) : {};
      case 'Hashmap':
        return this.hashmap(s, this.nat(args[0]!, env), args[1]!, env);
    }
    return this.generic(s, name, args, env);
  }

  private sized(s: Slice, kind: string, bits: number): Json {
    if (kind === 'bits') return bitsJson(s.loadBits(bits));
    return intJson(kind === 'uint' ? s.loadUintBig(bits) : s.loadIntBig(bits), bits);
  }

  /** A type defined by the schemes: the first of its constructors that matches the tag, the arguments and the cell. */
  private generic(s: Slice, name: string, args: TypeExpr[], env: Env): Json {
    const ctors = this.byType.get(name);
    if (!ctors) throw new TlbDecodeError(`unknown type ${name}`);
    let lastError: unknown;
    for (const ctor of ctors) {
      const ctorEnv = this.bindResult(ctor, args, env, s);
      if (!ctorEnv) continue;
      if (ctor.tag && !tagAhead(s, ctor.tag)) continue;
      const attempt = s.clone();
      try {
        const value = this.constructorValue(attempt, ctor, ctorEnv);
        advance(s, attempt);
        return value;
      } catch (e) {
        if (e instanceof BudgetExhaustedError) throw e;
        // Any other failure (ours, or @ton/core's on reading past the end) means this constructor does not fit.
        lastError = e;
      }
    }
    throw new TlbDecodeError(`no constructor of ${name} fits${lastError instanceof Error ? `: ${lastError.message}` : ''}`);
  }

  /**
   * Matches a constructor's result arguments (`TextChunks (n + 1)`, `OutList 0`, `Maybe X`) against the actual
   * ones, binding its parameters. Null when they cannot match. An argument the caller does not know (an output
   * parameter) matches anything, except that a field-less, tag-less constructor then only fits an empty slice.
   */
  private bindResult(ctor: Constructor, args: TypeExpr[], env: Env, s: Slice): Env | null {
    const out: Env = new Map();
    let unknown = false;
    for (let i = 0; i < ctor.result.args.length; i++) {
      const formal = ctor.result.args[i]!;
      const actual = args[i];
      if (!actual) return null;
      const known = actual.kind !== 'output' && this.isNat(actual, env) ? this.nat(actual, env) : null;
      const typeParam = formal.kind === 'apply' && ctor.params.some((p) => p.kind === 'Type' && p.name === formal.name);
      if (formal.kind === 'number') {
        if (known === null) unknown = true;
        else if (known !== formal.value) return null;
      } else if (formal.kind === 'apply' && formal.args.length === 0) {
        if (typeParam) out.set(formal.name, { type: actual, env });
        else if (known !== null) out.set(formal.name, known);
        else unknown = true;
      } else if (formal.kind === 'binary' && formal.op === '+' && formal.left.kind === 'apply' && formal.right.kind === 'number') {
        if (known === null) unknown = true;
        else if (known < formal.right.value) return null;
        else out.set(formal.left.name, known - formal.right.value);
      } else {
        unknown = true; // `~n` and other computed forms: not checked.
      }
    }
    if (unknown && ctor.fields.length === 0 && !ctor.tag && (s.remainingBits > 0 || s.remainingRefs > 0)) return null;
    return out;
  }

  /** Hashmap n X (TL-B's binary trie): edges with labels down to n-bit keys. */
  private hashmap(s: Slice, n: number, valueType: TypeExpr, env: Env): { [key: string]: Json } {
    const out: { [key: string]: Json } = {};
    const walk = (cs: Slice, m: number, prefix: string) => {
      const label = readLabel(cs, m);
      const key = prefix + label;
      const rest = m - label.length;
      if (rest === 0) {
        out[keyJson(key)] = this.read(cs, valueType, env);
        return;
      }
      walk(cs.loadRef().beginParse(), rest - 1, key + '0');
      walk(cs.loadRef().beginParse(), rest - 1, key + '1');
    };
    walk(s, n, '');
    return out;
  }
}

function keyJson(bits: string): string {
  if (bits.length === 0) return '0';
  return bits.length <= 64
    ? BigInt('0b' + bits).toString()
    : BigInt('0b' + bits)
        .toString(16)
        .padStart(Math.ceil(bits.length / 4), '0');
}

/** A Hashmap edge label (hml_short / hml_long / hml_same) as a string of 0/1. */
function readLabel(s: Slice, m: number): string {
  if (!s.loadBit()) {
    let len = 0;
    while (s.loadBit()) len++;
    return len ? s.loadUintBig(len).toString(2).padStart(len, '0') : '';
  }
  const lenBits = bitLength(m);
  if (!s.loadBit()) {
    const len = s.loadUint(lenBits);
    return len ? s.loadUintBig(len).toString(2).padStart(len, '0') : '';
  }
  const bit = s.loadBit() ? '1' : '0';
  return bit.repeat(s.loadUint(lenBits));
}

function bitsJson(bits: BitString): string {
  return bits.length === 0 ? '' : bits.toString();
}

/**
 * addr_none → null, addr_std without anycast → raw `wc:HEX` (not in MsgAddressExt); undefined for the rest, which the
 * schemes' constructors then read. addr_none is accepted for MsgAddressInt too: contracts on mainnet send it there
 * (a coffee_staking_deposit of the fixtures does), and the body is still what its opcode says.
 */
function readPlainAddress(s: Slice, type: string): string | null | undefined {
  if (s.remainingBits < 2) return undefined;
  const kind = s.preloadUint(2);
  if (kind === 0) {
    s.skip(2);
    return null;
  }
  if (kind === 2 && type !== 'MsgAddressExt' && s.remainingBits >= 267 && s.preloadUint(3) === 0b100) {
    s.skip(3);
    const wc = s.loadInt(8);
    return `${wc}:${s.loadBuffer(32).toString('hex').toUpperCase()}`;
  }
  return undefined;
}

/** Snake-format bytes: this cell's bits (whole bytes), then the first reference's, and so on. */
function readSnakeBytes(s: Slice): Buffer {
  const parts: Buffer[] = [];
  let cs: Slice | null = s;
  while (cs) {
    if (cs.remainingBits % 8 !== 0) throw new TlbDecodeError('snake data is not whole bytes');
    parts.push(cs.loadBuffer(cs.remainingBits / 8));
    cs = cs.remainingRefs > 0 ? cs.loadRef().beginParse() : null;
  }
  return Buffer.concat(parts);
}

function tagAhead(s: Slice, tag: string): boolean {
  return s.remainingBits >= tag.length && s.preloadUint(tag.length) === parseInt(tag, 2);
}

/** Moves s to where the successful attempt (a clone of it) stopped. */
function advance(s: Slice, attempt: Slice): void {
  s.skip(s.remainingBits - attempt.remainingBits);
  for (let i = s.remainingRefs - attempt.remainingRefs; i > 0; i--) s.loadRef();
}
