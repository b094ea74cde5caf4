import type { v3 } from '@tongate/sdk';
import type { TupleItem } from '@ton/core';
import { bocB64, cellFromB64, hexNumber, listToNestedPairs, MAX_DEPTH, parseNumber, stackError, withinLimits } from '@tongate/domain';

/**
 * The v3 stack codec of /api/v3/runGetMethod: entries `{type, value}` with type num (decimal or 0x-hex string),
 * cell / slice / builder (base64 BOC), tuple / list (entries) or null. TVM lists are nested pairs ending in null;
 * they come in as `list` and go out as the tuples they are.
 */
export function parseV3Stack(stack: unknown): TupleItem[] {
  if (stack === undefined || stack === null) return [];
  if (!Array.isArray(stack)) throw stackError('stack must be an array of {type, value} entries');
  return withinLimits(stack.map((e) => parseV3Entry(e, 0)));
}

function parseV3Entry(entry: unknown, depth: number): TupleItem {
  if (depth > MAX_DEPTH) throw stackError(`nesting deeper than ${MAX_DEPTH}`);
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw stackError('each entry must be a {type, value} object');
  const { type, value } = entry as { type?: unknown; value?: unknown };
  switch (type) {
    case 'num':
      return { type: 'int', value: parseNumber(value) };
    case 'cell':
    case 'slice':
    case 'builder':
      return { type, cell: cellFromB64(type, value) };
    case 'tuple':
    case 'list': {
      if (!Array.isArray(value)) throw stackError(`${type} expects an array of entries as its value`);
      const items = value.map((e) => parseV3Entry(e, depth + 1));
      return type === 'list' ? listToNestedPairs(items) : { type: 'tuple', items };
    }
    case 'null':
      return { type: 'null' };
    default:
      throw stackError(`unsupported stack entry type: ${JSON.stringify(type)}`);
  }
}

export function formatV3Entry(item: TupleItem): v3.StackEntry {
  switch (item.type) {
    case 'int':
      return { type: 'num', value: hexNumber(item.value) };
    case 'nan':
      // No v3 form for NaN; tonlib answers it as an absent value.
      return { type: 'null', value: null };
    case 'null':
      return { type: 'null', value: null };
    case 'cell':
    case 'slice':
    case 'builder':
      return { type: item.type, value: bocB64(item.cell) };
    case 'tuple':
      return { type: 'tuple', value: item.items.map(formatV3Entry) };
  }
}
