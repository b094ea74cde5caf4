import type { v2 } from '@tongate/sdk';
import { stackLimitViolation } from '@tongate/chain';
import { Cell, type TupleItem } from '@ton/core';
import { ApiError } from '@tongate/stubs';
import { bocB64, cellDataBytes } from './cells.js';

/**
 * TVM stack codecs of runGetMethod (legacy `[type, value]` pairs) and runGetMethodStd (tonlib `tvm.stackEntry*`).
 * TVM lists are nested pairs `(head, tail)` ending in null; @ton/core has no list type, so lists come in only.
 */

/** Deepest tuple/list nesting a stack may have. */
export const MAX_DEPTH = 256;

export function stackError(message: string): ApiError {
  return new ApiError(422, `invalid stack: ${message}`);
}

function parseBigInt(text: string): bigint | null {
  const t = text.trim();
  const negative = t.startsWith('-');
  const digits = negative ? t.slice(1) : t;
  let value: bigint;
  if (/^0[xX][0-9a-fA-F]+$/.test(digits) || /^\d+$/.test(digits)) value = BigInt(digits);
  else return null;
  return negative ? -value : value;
}

/** A TVM integer given as a JSON number or a decimal / 0x-hex string (257-bit range). */
export function parseNumber(value: unknown): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string') {
    const n = parseBigInt(value);
    if (n !== null && n >= -(1n << 256n) && n < 1n << 256n) return n;
  }
  throw stackError(`invalid number: ${JSON.stringify(value)}`);
}

/** A one-root base64 BOC of a stack entry of kind `kind`. */
export function cellFromB64(kind: string, value: unknown): Cell {
  if (typeof value !== 'string' || value === '') throw stackError(`${kind} expects a non-empty base64 BOC`);
  try {
    const roots = Cell.fromBoc(Buffer.from(value, 'base64'));
    if (roots.length !== 1) throw new Error('one root expected');
    return roots[0]!;
  } catch {
    throw stackError(`${kind} is not a valid base64 bag of cells`);
  }
}

export function listToNestedPairs(items: TupleItem[]): TupleItem {
  let list: TupleItem = { type: 'null' };
  for (let i = items.length - 1; i >= 0; i--) list = { type: 'tuple', items: [items[i]!, list] };
  return list;
}

/** One `[type, value]` entry of runGetMethod's input stack. */
export function parseLegacyEntry(entry: unknown, depth = 0): TupleItem {
  if (!Array.isArray(entry)) throw stackError('each entry must be a [type, value] array');
  const [type, value] = entry as unknown[];
  if (typeof type !== 'string') throw stackError('the first element of an entry must be its type name');
  if (type === 'null') return { type: 'null' };
  if (entry.length !== 2) throw stackError(`expected 2 elements in a ${type} entry, got ${entry.length}`);
  switch (type) {
    case 'num':
    case 'number':
    case 'int':
    case 'integer':
      return { type: 'int', value: parseNumber(value) };
    case 'tvm.Cell':
      return { type: 'cell', cell: cellFromB64(type, value) };
    case 'tvm.Slice':
      return { type: 'slice', cell: cellFromB64(type, value) };
    case 'tvm.Builder':
      return { type: 'builder', cell: cellFromB64(type, value) };
    case 'cell':
    case 'slice':
    case 'builder': {
      const bytes = typeof value === 'object' && value !== null ? (value as { bytes?: unknown }).bytes : value;
      return { type, cell: cellFromB64(type, bytes) };
    }
    case 'tuple':
    case 'tvm.Tuple':
    case 'list':
    case 'tvm.List': {
      const elements = typeof value === 'object' && value !== null ? (value as { elements?: unknown }).elements : undefined;
      if (!Array.isArray(elements))
        throw stackError(`${type} expects {"@type": "tvm.${type.toLowerCase().includes('list') ? 'list' : 'tuple'}", "elements": [...]}`);
      const items = elements.map((e) => parseStdEntry(e, depth + 1));
      return type.toLowerCase().includes('list') ? listToNestedPairs(items) : { type: 'tuple', items };
    }
    default:
      throw stackError(`unsupported stack entry type: ${type}`);
  }
}

export function parseLegacyStack(stack: unknown): TupleItem[] {
  if (stack === undefined || stack === null) return [];
  if (!Array.isArray(stack)) throw stackError('stack must be an array of [type, value] entries');
  return withinLimits(stack.map((e) => parseLegacyEntry(e)));
}

/** The parsed stack, or a 422 when it is beyond what a get-method may be given (see STACK_LIMITS). */
export function withinLimits(stack: TupleItem[]): TupleItem[] {
  const violation = stackLimitViolation(stack);
  if (violation) throw stackError(violation);
  return stack;
}

function field(obj: Record<string, unknown>, name: string): Record<string, unknown> {
  const v = obj[name];
  if (typeof v !== 'object' || v === null) throw stackError(`${String(obj['@type'])} needs an object field ${name}`);
  return v as Record<string, unknown>;
}

/** One tonlib `tvm.stackEntry*` object (runGetMethodStd input, tuple/list elements). */
export function parseStdEntry(entry: unknown, depth = 0): TupleItem {
  if (depth > MAX_DEPTH) throw stackError(`nesting deeper than ${MAX_DEPTH}`);
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw stackError('each entry must be a tvm.stackEntry object');
  const obj = entry as Record<string, unknown>;
  switch (obj['@type']) {
    case 'tvm.stackEntryNumber':
      return { type: 'int', value: parseNumber(field(obj, 'number').number) };
    case 'tvm.stackEntryCell':
      return { type: 'cell', cell: cellFromB64('tvm.cell', field(obj, 'cell').bytes) };
    case 'tvm.stackEntrySlice':
      return { type: 'slice', cell: cellFromB64('tvm.slice', field(obj, 'slice').bytes) };
    case 'tvm.stackEntryTuple':
      return { type: 'tuple', items: parseElements(field(obj, 'tuple'), depth) };
    case 'tvm.stackEntryList':
      return listToNestedPairs(parseElements(field(obj, 'list'), depth));
    default:
      throw stackError(`unsupported stack entry @type: ${String(obj['@type'])}`);
  }
}

function parseElements(container: Record<string, unknown>, depth: number): TupleItem[] {
  if (!Array.isArray(container.elements)) throw stackError('tuple and list need an elements array');
  return container.elements.map((e) => parseStdEntry(e, depth + 1));
}

export function parseStdStack(stack: unknown): TupleItem[] {
  if (stack === undefined || stack === null) return [];
  if (!Array.isArray(stack)) throw stackError('stack must be an array of tvm.stackEntry objects');
  return withinLimits(stack.map((e) => parseStdEntry(e)));
}

// ---- output ----

export type CellObject = v2.LegacyCellObject;

/** The cell tree as legacy clients expect it next to the BOC: data bits zero-padded to bytes, refs, special flag. */
export function cellObject(cell: Cell): CellObject {
  return {
    data: { b64: cellDataBytes(cell).toString('base64'), len: cell.bits.length },
    refs: cell.refs.map(cellObject),
    special: cell.isExotic,
  };
}

export function hexNumber(value: bigint): string {
  return value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`;
}

export function formatLegacyEntry(item: TupleItem): v2.LegacyStackEntryOut {
  switch (item.type) {
    case 'int':
      return ['num', hexNumber(item.value)];
    case 'nan':
    case 'builder':
      // Neither has a legacy wire form (tonlib answers them as unsupported).
      return ['unsupported', ''];
    case 'null':
      return ['null'];
    case 'cell':
    case 'slice':
      // Slices are answered as the cell holding their bits, as tonlib does for backward compatibility.
      return ['cell', { bytes: bocB64(item.cell), object: cellObject(item.cell) }];
    case 'tuple':
      return ['tuple', { '@type': 'tvm.tuple', elements: item.items.map(formatStdEntry) }];
  }
}

export function formatStdEntry(item: TupleItem): v2.TvmStackEntry {
  switch (item.type) {
    case 'int':
      return { '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: item.value.toString() } };
    case 'nan':
    case 'builder':
      return { '@type': 'tvm.stackEntryUnsupported' };
    case 'null':
      // tonlib has no null entry; it answers TVM null as an empty list.
      return { '@type': 'tvm.stackEntryList', list: { '@type': 'tvm.list', elements: [] } };
    case 'cell':
      return { '@type': 'tvm.stackEntryCell', cell: { '@type': 'tvm.cell', bytes: bocB64(item.cell) } };
    case 'slice':
      return { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: bocB64(item.cell) } };
    case 'tuple':
      return { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: item.items.map(formatStdEntry) } };
  }
}
