import { serializeTuple, type Cell, type TupleItem } from '@ton/core';

/**
 * What a get-method's argument stack may hold. The sandbox's TVM emulator deserializes the stack recursively and
 * traps ("memory access out of bounds", or a bare C++ exception) once the serialized stack is a little over 300
 * cells deep — 320 flat numbers, a 1000-entry list, a 340-deep cell chain — and a large cell tree costs CPU in
 * every layer. Every chain backend checks these before it runs a get-method, whichever API the stack came from.
 */
export const STACK_LIMITS = {
  /** Stack entries in all, nested tuple and list contents included (a list's pair cells count too). */
  entries: 1024,
  /** Items of one tuple (TVM's own bound). */
  tupleItems: 255,
  /** Depth of one cell, slice or builder argument. */
  cellDepth: 256,
  /** Distinct cells over all cell, slice and builder arguments. */
  cells: 4096,
  /** Depth of the serialized stack the emulator receives (it traps a little above 300). */
  serializedDepth: 256,
} as const;

/** Why `stack` is outside STACK_LIMITS, for an error naming the `stack` parameter; null when it is within them. */
export function stackLimitViolation(stack: readonly TupleItem[]): string | null {
  let entries = 0;
  const cells = new Set<string>();
  const walk = (items: readonly TupleItem[]): string | null => {
    for (const item of items) {
      if (++entries > STACK_LIMITS.entries) return `more than ${STACK_LIMITS.entries} entries, nested tuple and list contents included`;
      if (item.type === 'tuple') {
        if (item.items.length > STACK_LIMITS.tupleItems)
          return `a tuple has ${item.items.length} items (at most ${STACK_LIMITS.tupleItems})`;
        const inner = walk(item.items);
        if (inner) return inner;
      } else if (item.type === 'cell' || item.type === 'slice' || item.type === 'builder') {
        const depth = item.cell.depth();
        if (depth > STACK_LIMITS.cellDepth) return `a ${item.type} argument is ${depth} cells deep (at most ${STACK_LIMITS.cellDepth})`;
        if (countCells(item.cell, cells) > STACK_LIMITS.cells) return `the cell arguments hold more than ${STACK_LIMITS.cells} cells`;
      }
    }
    return null;
  };
  const found = walk(stack);
  if (found) return found;
  const depth = serializeTuple(stack as TupleItem[]).depth();
  if (depth > STACK_LIMITS.serializedDepth) {
    return `the stack serializes to ${depth} nested cells (at most ${STACK_LIMITS.serializedDepth}); pass fewer or shallower arguments`;
  }
  return null;
}

/** Adds the distinct cells of `root` to `seen` (stopping early once over the limit) and returns the new total. */
function countCells(root: Cell, seen: Set<string>): number {
  const todo: Cell[] = [root];
  while (todo.length > 0 && seen.size <= STACK_LIMITS.cells) {
    const cell = todo.pop()!;
    const key = cell.hash().toString('hex');
    if (seen.has(key)) continue;
    seen.add(key);
    todo.push(...cell.refs);
  }
  return seen.size;
}
